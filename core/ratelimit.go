package core

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Header is what core reads response headers through. net/http.Header
// satisfies it (Get canonicalises the key); core does not import net/http,
// which would bloat the WebAssembly build.
//
// Get returns "" both for a field that was not sent and for one sent with
// an empty value ("Retry-After: "). A Header that can tell them apart also
// has net/http.Header's Values method (nil when the field was not sent);
// LookupHeader uses it.
type Header interface{ Get(key string) string }

// headerValues is the optional method of a Header that tells a field sent
// empty from one not sent, as net/http.Header's Values does.
type headerValues interface{ Values(key string) []string }

// LookupHeader returns the value of the field key in h and whether the
// field was sent at all: ("", true) is a field sent with an empty value,
// ("", false) one not sent (or h nil, or a Header without a Values method,
// which cannot tell). The retry loop reads Retry-After through it, so an
// empty Retry-After is an invalid value noted as such, not an absent one.
func LookupHeader(h Header, key string) (string, bool) {
	if h == nil {
		return "", false
	}
	if v := h.Get(key); v != "" {
		return v, true
	}
	if hv, ok := h.(headerValues); ok {
		if vs := hv.Values(key); len(vs) > 0 {
			return vs[0], true
		}
	}
	return "", false
}

// RateLimitHint is what a response's rate-limit fields say about the
// client's quota. Each value is only meaningful when its Has flag is set.
type RateLimitHint struct {
	Limit, Remaining int           // quota units in the window / left in it
	Reset            time.Duration // until the quota resets (never negative)
	Window           time.Duration // the policy's window, when stated (RateLimit-Policy w)
	HasLimit         bool
	HasRemaining     bool
	HasReset         bool
	HasWindow        bool
	Source           string // which fields: "RateLimit", "RateLimit-Limit" (older drafts), "X-RateLimit"; "" if none
}

// ParseRateLimit reads rate-limit hints from response headers, trying in
// order and using the first family present:
//
//  1. The IETF fields (draft-ietf-httpapi-ratelimit-headers), Source
//     "RateLimit". The current drafts send Structured Field lists:
//
//     RateLimit: "default";r=50;t=30
//     RateLimit-Policy: "default";q=100;w=60
//
//     r is the remaining quota, t the seconds until it resets, q the quota
//     and w the window in seconds; a parameter given twice takes its last
//     value, as RFC 9651 says. With several policies the one with the
//     least remaining quota (then the longest reset) is reported, with the
//     q and w of the RateLimit-Policy item of the same name. Draft 07's
//     dictionary form "limit=100, remaining=50, reset=30" is also read.
//
//  2. The earlier drafts' RateLimit-Limit, RateLimit-Remaining and
//     RateLimit-Reset (delta-seconds), Source "RateLimit-Limit".
//
//  3. The de-facto X-RateLimit-Limit, X-RateLimit-Remaining and
//     X-RateLimit-Reset, Source "X-RateLimit". Reset is read by size:
//     below 1e9 it is seconds until the reset (decimals allowed); from 1e9
//     to below 1e12 it is a Unix time in seconds (1e9 s is 2001-09-09, and
//     no one announces a reset 31 years away); from 1e12 it is a Unix time
//     in milliseconds. A Unix time in the past means 0.
//
// A reset too far ahead for a time.Duration saturates to the largest one
// (about 292 years), as ParseRetryAfter's delay-seconds do, so a caller's
// ceiling applies to it as to any long reset: "t=999999999999999", a
// RateLimit-Reset of 20 digits, an X-RateLimit-Reset in milliseconds
// centuries ahead. An sf-integer (the IETF fields' values) has at most 15
// digits: more is an error.
//
// A Limit field may carry a policy list ("100, 100;w=60"): its first number
// is the limit. Absent headers give a zero hint and no error; a malformed
// field gives a zero hint and an error naming the field and what was wrong.
// RateLimit-Policy is the exception: it only states the quota and its
// window, so when it is malformed it alone is ignored, as RFC 9651 ignores a
// field that fails to parse, and the hint keeps what RateLimit says (no
// Limit or Window) beside the error naming the policy. A bad policy lost a
// reset hint that was fine. Values are never negative.
func ParseRateLimit(h Header, now time.Time) (RateLimitHint, error) {
	if h == nil {
		return RateLimitHint{}, nil
	}
	var hint RateLimitHint
	var err error
	if rl, pol := listHeader(h, "RateLimit"), listHeader(h, "RateLimit-Policy"); rl != "" || pol != "" {
		hint, err = parseIETF(rl, pol)
	} else if l, r, t := h.Get("RateLimit-Limit"), h.Get("RateLimit-Remaining"), h.Get("RateLimit-Reset"); l != "" || r != "" || t != "" {
		hint.Source = "RateLimit-Limit"
		err = parseTriple(&hint, "RateLimit", l, r, t, now)
	} else if l, r, t := h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Reset"); l != "" || r != "" || t != "" {
		hint.Source = "X-RateLimit"
		err = parseTriple(&hint, "X-RateLimit", l, r, t, now)
	}
	if err != nil && !errors.Is(err, errPolicyIgnored) {
		return RateLimitHint{}, err
	}
	return hint, err
}

// errPolicyIgnored wraps a malformed RateLimit-Policy's error: the hint
// read from RateLimit stands.
var errPolicyIgnored = errors.New("policy ignored")

// listHeader is the list field key of h as one value: a list may be sent
// over several field lines (RFC 9110 §5.3), which Get reads only the first
// of ("a";r=5;t=1 on one line and "b";r=0;t=30 on the next gave policy a's
// 5 remaining, not b's 30 s reset), so with a Values method the lines are
// joined by ", " as the standard says they combine. A browser's
// Headers.get combines them already.
func listHeader(h Header, key string) string {
	if hv, ok := h.(headerValues); ok {
		return strings.Join(hv.Values(key), ", ")
	}
	return h.Get(key)
}

func rateLimitError(field, value, problem string) error {
	return fmt.Errorf("core: %s %q: %s", field, value, problem)
}

// parseTriple reads the Limit/Remaining/Reset fields of the older drafts
// (prefix "RateLimit") or the X- convention (prefix "X-RateLimit").
func parseTriple(hint *RateLimitHint, prefix, limit, remaining, reset string, now time.Time) error {
	if limit != "" {
		// The first list member's bare item: "100" or "100, 100;w=60".
		first := limit
		if i := strings.IndexAny(first, ",;"); i >= 0 {
			first = first[:i]
		}
		n, problem := parseCount(trimOWS(first))
		if problem != "" {
			return rateLimitError(prefix+"-Limit", limit, problem)
		}
		hint.Limit, hint.HasLimit = n, true
	}
	if remaining != "" {
		n, problem := parseCount(trimOWS(remaining))
		if problem != "" {
			return rateLimitError(prefix+"-Remaining", remaining, problem)
		}
		hint.Remaining, hint.HasRemaining = n, true
	}
	if reset != "" {
		var d time.Duration
		var problem string
		if prefix == "X-RateLimit" {
			d, problem = parseXReset(trimOWS(reset), now)
		} else {
			d, problem = parseSeconds(trimOWS(reset), false)
		}
		if problem != "" {
			return rateLimitError(prefix+"-Reset", reset, problem)
		}
		hint.Reset, hint.HasReset = d, true
	}
	return nil
}

// digitsProblem says what keeps s from being bare ASCII digits, or "".
func digitsProblem(s string) string {
	if s == "" {
		return "empty"
	}
	if s[0] == '-' {
		return "negative"
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			if s[i] == '.' {
				return "not an integer"
			}
			return "not a number"
		}
	}
	return ""
}

// parseCount reads a non-negative integer (an sf-integer without sign).
func parseCount(s string) (int, string) {
	if problem := digitsProblem(s); problem != "" {
		return 0, problem
	}
	if len(s) > 15 { // an sf-integer has at most 15 digits
		return 0, "too large"
	}
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	if int64(int(n)) != n { // 32-bit platforms
		return 0, "too large"
	}
	return int(n), ""
}

// parseSeconds reads non-negative integer seconds as a Duration, saturating
// as delay-seconds do (delaySeconds): 999999999999999 is a valid reset
// that no Duration holds. An sf-integer (sf: the IETF fields' t, w and
// reset) has at most 15 digits; the older drafts' RateLimit-Reset is
// delta-seconds, any number of them.
func parseSeconds(s string, sf bool) (time.Duration, string) {
	if problem := digitsProblem(s); problem != "" {
		return 0, problem
	}
	if sf && len(s) > 15 {
		return 0, "too large (an sf-integer has at most 15 digits)"
	}
	return delaySeconds(s), ""
}

// parseXReset reads X-RateLimit-Reset: a non-negative decimal number
// (DIGITS [ "." DIGITS ]) of seconds until the reset, or a Unix time in
// seconds or milliseconds (see ParseRateLimit), exactly, in integers. A
// time too far ahead for a Duration saturates, as delay-seconds do.
func parseXReset(s string, now time.Time) (time.Duration, string) {
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && dot {
		return 0, "not a number"
	}
	if problem := digitsProblem(whole); problem != "" {
		return 0, problem
	}
	if dot && digitsProblem(frac) != "" {
		return 0, "not a number"
	}
	w := strings.TrimLeft(whole, "0")
	n := int64(0)
	for i := 0; i < len(w) && i < 18; i++ {
		n = n*10 + int64(w[i]-'0')
	}
	ns := exactSeconds("", frac) // the fraction, in nanoseconds, rounded up
	var at time.Time
	switch {
	// An X-RateLimit-Reset value is delta-seconds below 1e9 (2001-09-09
	// in Unix seconds: no real reset is 31 years away), Unix seconds below
	// 1e12 (33658 AD in seconds, 2001 in milliseconds), else Unix
	// milliseconds.
	case len(w) < 10: // below 1e9: seconds until the reset
		return exactSeconds(w, frac), ""
	case len(w) < 13: // below 1e12: Unix seconds
		at = time.Unix(n, int64(ns))
	case len(w) < 19: // Unix milliseconds
		at = time.UnixMilli(n).Add((ns + 999) / 1000)
	default: // 1e18 ms and more: tens of millions of years ahead
		at = time.UnixMilli(math.MaxInt64)
	}
	return until(at, now)
}

// exactSeconds reads whole.frac seconds (ASCII digits, whole below 1e9) as a
// Duration, rounded up to the nanosecond: in integers, since a float is not
// exact ("0.3" is 0.30000000000000004, which rounded up is 300.000001ms).
func exactSeconds(whole, frac string) time.Duration {
	var sec, ns int64
	for i := 0; i < len(whole); i++ {
		sec = sec*10 + int64(whole[i]-'0')
	}
	for i := 0; i < 9; i++ {
		ns *= 10
		if i < len(frac) {
			ns += int64(frac[i] - '0')
		}
	}
	if len(frac) > 9 && strings.Trim(frac[9:], "0") != "" {
		ns++
	}
	return time.Duration(sec)*time.Second + time.Duration(ns)
}

// sfMember is one member of a Structured Field list (RFC 9651), loosely
// read: its bare item (unquoted if it was a string) and its parameters.
type sfMember struct {
	item   string
	params []sfParam
}

type sfParam struct{ key, value string }

// param returns the value of the parameter key. A parameter given more
// than once takes its last value: RFC 9651 §4.2.3.2 overwrites the earlier
// one (`"a";t=10;t=20` resets in 20 s).
func (m sfMember) param(key string) (string, bool) {
	for i := len(m.params) - 1; i >= 0; i-- {
		if p := m.params[i]; p.key == key {
			return p.value, true
		}
	}
	return "", false
}

// parseSFList splits a Structured Field list into members. It accepts the
// list syntax of RFC 9651 with strings, tokens and numbers as bare items
// and parameter values, and reports unterminated strings and stray text.
func parseSFList(s string) ([]sfMember, string) {
	var members []sfMember
	i := 0
	skip := func(ws string) {
		for i < len(s) && strings.IndexByte(ws, s[i]) >= 0 {
			i++
		}
	}
	// bare reads a string or a run of characters up to a delimiter.
	bare := func() (string, string) {
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			for i++; i < len(s); i++ {
				switch c := s[i]; c {
				case '\\':
					if i+1 < len(s) {
						i++
						b.WriteByte(s[i])
					}
				case '"':
					i++
					return b.String(), ""
				default:
					b.WriteByte(c)
				}
			}
			return "", "unterminated string"
		}
		start := i
		if i < len(s) && s[i] == ':' { // byte sequence :base64:
			end := strings.IndexByte(s[i+1:], ':')
			if end < 0 {
				return "", "unterminated byte sequence"
			}
			i += end + 2
			return s[start:i], ""
		}
		for i < len(s) && strings.IndexByte(";=, \t\"", s[i]) < 0 {
			if !bareByte(s[i]) {
				return "", fmt.Sprintf("unexpected %q", s[i])
			}
			i++
		}
		return s[start:i], ""
	}
	for {
		skip(" \t")
		if i == len(s) {
			break
		}
		item, problem := bare()
		if problem != "" {
			return nil, problem
		}
		if item == "" && i < len(s) && s[i] != '=' {
			return nil, fmt.Sprintf("unexpected %q", s[i])
		}
		m := sfMember{item: item}
		if i < len(s) && s[i] == '=' { // dictionary member: key=value
			i++
			v, problem := bare()
			if problem != "" {
				return nil, problem
			}
			m.params = append(m.params, sfParam{key: "=", value: v})
		}
		for {
			skip(" ")
			if i == len(s) || s[i] != ';' {
				break
			}
			i++
			skip(" ")
			key, problem := bare()
			if problem != "" || key == "" {
				return nil, "empty parameter name"
			}
			val := "?1"
			if i < len(s) && s[i] == '=' {
				i++
				if val, problem = bare(); problem != "" {
					return nil, problem
				}
			}
			m.params = append(m.params, sfParam{key: strings.ToLower(key), value: val})
		}
		members = append(members, m)
		skip(" \t")
		if i == len(s) {
			break
		}
		if s[i] != ',' {
			return nil, fmt.Sprintf("unexpected %q", s[i])
		}
		i++
	}
	if len(members) == 0 {
		return nil, "empty"
	}
	return members, ""
}

// bareByte reports whether c can be part of an unquoted bare item or
// parameter name: a token's characters (RFC 9110's tchar, ':' and '/'), a
// number's, a boolean's '?' and a date's '@' (RFC 9651). Anything else,
// an inner list's parentheses say, makes the field malformed.
func bareByte(c byte) bool {
	return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z' || strings.IndexByte("!#$%&'*+-.^_`|~:/?@", c) >= 0
}

// parseIETF reads RateLimit and RateLimit-Policy (see ParseRateLimit).
func parseIETF(rl, pol string) (RateLimitHint, error) {
	hint := RateLimitHint{Source: "RateLimit"}
	name := ""
	chosen := false
	if rl != "" {
		members, problem := parseSFList(rl)
		if problem != "" {
			return hint, rateLimitError("RateLimit", rl, problem)
		}
		if _, ok := members[0].param("="); ok {
			if err := parseDraft07(&hint, rl, members); err != nil {
				return hint, err
			}
			members = nil
		}
		for _, m := range members {
			var h RateLimitHint
			if v, ok := m.param("r"); ok {
				n, problem := parseCount(v)
				if problem != "" {
					return hint, rateLimitError("RateLimit", rl, "r="+v+": "+problem)
				}
				h.Remaining, h.HasRemaining = n, true
			}
			if v, ok := m.param("t"); ok {
				d, problem := parseSeconds(v, true)
				if problem != "" {
					return hint, rateLimitError("RateLimit", rl, "t="+v+": "+problem)
				}
				h.Reset, h.HasReset = d, true
			}
			if !h.HasRemaining && !h.HasReset {
				continue
			}
			if !chosen || moreRestrictive(h, hint) {
				hint.Remaining, hint.HasRemaining = h.Remaining, h.HasRemaining
				hint.Reset, hint.HasReset = h.Reset, h.HasReset
				name, chosen = m.item, true
			}
		}
	}
	if pol == "" {
		return hint, nil
	}
	withPolicy, problem := readPolicy(hint, pol, name, chosen)
	if problem != "" {
		if !hint.HasLimit && !hint.HasRemaining && !hint.HasReset {
			hint = RateLimitHint{} // RateLimit said nothing
		}
		return hint, fmt.Errorf("%w; %w", rateLimitError("RateLimit-Policy", pol, problem), errPolicyIgnored)
	}
	return withPolicy, nil
}

// readPolicy is hint with the quota and window of the RateLimit-Policy
// list pol's policy named name (when chosen, the first otherwise), or
// what was wrong with pol.
func readPolicy(hint RateLimitHint, pol, name string, chosen bool) (RateLimitHint, string) {
	policies, problem := parseSFList(pol)
	if problem != "" {
		return hint, problem
	}
	for _, p := range policies {
		if chosen && p.item != name {
			continue
		}
		// Draft 07 policies are bare quotas ("10;w=1"); later ones "name";q=10;w=1.
		q, ok := p.param("q")
		if !ok && p.item != "" && isDigit(p.item[0]) {
			q, ok = p.item, true
		}
		if ok && !hint.HasLimit {
			n, problem := parseCount(q)
			if problem != "" {
				return hint, "q=" + q + ": " + problem
			}
			hint.Limit, hint.HasLimit = n, true
		}
		if w, ok := p.param("w"); ok {
			d, problem := parseSeconds(w, true)
			if problem != "" {
				return hint, "w=" + w + ": " + problem
			}
			hint.Window, hint.HasWindow = d, true
		}
		break
	}
	return hint, ""
}

// moreRestrictive reports whether a leaves less quota than b (then: resets later).
func moreRestrictive(a, b RateLimitHint) bool {
	ar, br := a.Remaining, b.Remaining
	if !a.HasRemaining {
		ar = math.MaxInt
	}
	if !b.HasRemaining {
		br = math.MaxInt
	}
	if ar != br {
		return ar < br
	}
	return a.Reset > b.Reset
}

// parseDraft07 reads "limit=100, remaining=50, reset=30".
func parseDraft07(hint *RateLimitHint, rl string, members []sfMember) error {
	for _, m := range members {
		v, ok := m.param("=")
		if !ok {
			return rateLimitError("RateLimit", rl, "mixes list and dictionary members")
		}
		switch strings.ToLower(m.item) {
		case "limit":
			n, problem := parseCount(v)
			if problem != "" {
				return rateLimitError("RateLimit", rl, "limit="+v+": "+problem)
			}
			hint.Limit, hint.HasLimit = n, true
		case "remaining":
			n, problem := parseCount(v)
			if problem != "" {
				return rateLimitError("RateLimit", rl, "remaining="+v+": "+problem)
			}
			hint.Remaining, hint.HasRemaining = n, true
		case "reset":
			d, problem := parseSeconds(v, true)
			if problem != "" {
				return rateLimitError("RateLimit", rl, "reset="+v+": "+problem)
			}
			hint.Reset, hint.HasReset = d, true
		}
	}
	return nil
}
