package core

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hdr is a minimal Header: keys as written.
type hdr map[string]string

func (h hdr) Get(k string) string { return h[k] }

func TestParseRateLimit(t *testing.T) {
	unix := func(d time.Duration) string { return itoa(t0.Add(d).Unix()) }
	tests := []struct {
		name string
		h    Header
		want RateLimitHint
		err  string
	}{
		{"nil header", nil, RateLimitHint{}, ""},
		{"no fields", hdr{"Content-Type": "text/plain"}, RateLimitHint{}, ""},
		{"ietf current draft", hdr{"RateLimit": `"default";r=50;t=30`, "RateLimit-Policy": `"default";q=100;w=60`},
			RateLimitHint{Limit: 100, Remaining: 50, Reset: 30 * s, Window: time.Minute, HasLimit: true, HasRemaining: true, HasReset: true, HasWindow: true, Source: "RateLimit"}, ""},
		{"ietf token names and spaces", hdr{"RateLimit": ` default ; r=0 ; t=5 `},
			RateLimitHint{Remaining: 0, Reset: 5 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"ietf several policies: least remaining wins, with its own quota", hdr{
			"RateLimit":        `"burst";r=40;t=1, "daily";r=3;t=3600`,
			"RateLimit-Policy": `"burst";q=50;w=1, "daily";q=1000;w=86400`},
			RateLimitHint{Limit: 1000, Remaining: 3, Reset: time.Hour, Window: 24 * time.Hour, HasLimit: true, HasRemaining: true, HasReset: true, HasWindow: true, Source: "RateLimit"}, ""},
		{"ietf tie on remaining: longest reset wins", hdr{"RateLimit": `a;r=0;t=2, b;r=0;t=9`},
			RateLimitHint{Reset: 9 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"ietf policy only", hdr{"RateLimit-Policy": `"default";q=10;w=1`},
			RateLimitHint{Limit: 10, Window: s, HasLimit: true, HasWindow: true, Source: "RateLimit"}, ""},
		{"ietf extra parameters ignored", hdr{"RateLimit": `"x";r=1;t=2;pk=:abc=:`},
			RateLimitHint{Remaining: 1, Reset: 2 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"ietf escaped quote in name", hdr{"RateLimit": `"a\"b";r=1;t=2`, "RateLimit-Policy": `"a\"b";q=5`},
			RateLimitHint{Limit: 5, Remaining: 1, Reset: 2 * s, HasLimit: true, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"draft 07 dictionary", hdr{"RateLimit": "limit=100, remaining=50, reset=30", "RateLimit-Policy": "100;w=60"},
			RateLimitHint{Limit: 100, Remaining: 50, Reset: 30 * s, Window: time.Minute, HasLimit: true, HasRemaining: true, HasReset: true, HasWindow: true, Source: "RateLimit"}, ""},
		{"older drafts", hdr{"RateLimit-Limit": "100, 100;w=60", "RateLimit-Remaining": "0", "RateLimit-Reset": "12"},
			RateLimitHint{Limit: 100, Remaining: 0, Reset: 12 * s, HasLimit: true, HasRemaining: true, HasReset: true, Source: "RateLimit-Limit"}, ""},
		{"x-ratelimit delta seconds", hdr{"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "7"},
			RateLimitHint{Limit: 60, Reset: 7 * s, HasLimit: true, HasRemaining: true, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit decimal seconds", hdr{"X-RateLimit-Reset": "1.25"},
			RateLimitHint{Reset: 1250 * ms, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit decimal not exact in binary", hdr{"X-RateLimit-Reset": "0.3"},
			RateLimitHint{Reset: 300 * ms, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit nanoseconds", hdr{"X-RateLimit-Reset": "2.675000001"},
			RateLimitHint{Reset: 2675*ms + 1, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit past nanoseconds rounds up", hdr{"X-RateLimit-Reset": "0.0000000001"},
			RateLimitHint{Reset: 1, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit trailing zeros past nanoseconds", hdr{"X-RateLimit-Reset": "0.7000000000000"},
			RateLimitHint{Reset: 700 * ms, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit largest delta", hdr{"X-RateLimit-Reset": "999999999"},
			RateLimitHint{Reset: 999999999 * s, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit delta whose float rounds to 1e9", hdr{"X-RateLimit-Reset": "999999999.999999999"},
			RateLimitHint{Reset: 999999999*s + 999999999, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit delta with leading zeros", hdr{"X-RateLimit-Reset": "0000000000007.5"},
			RateLimitHint{Reset: 7500 * ms, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit unix seconds", hdr{"X-RateLimit-Reset": unix(42 * s)},
			RateLimitHint{Reset: 42 * s, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit unix seconds with fraction", hdr{"X-RateLimit-Reset": unix(42*s) + ".5"},
			RateLimitHint{Reset: 42*s + 500*ms, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit unix milliseconds", hdr{"X-RateLimit-Reset": itoa(t0.Add(1500 * ms).UnixMilli())},
			RateLimitHint{Reset: 1500 * ms, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x-ratelimit unix time in the past", hdr{"X-RateLimit-Reset": unix(-time.Hour)},
			RateLimitHint{Reset: 0, HasReset: true, Source: "X-RateLimit"}, ""},
		// Resets too far ahead for a Duration saturate, as Retry-After's
		// delay-seconds do: the caller's ceiling then applies.
		{"ietf t saturates", hdr{"RateLimit": `"d";r=0;t=999999999999999`},
			RateLimitHint{Reset: maxDuration, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"ietf t largest representable", hdr{"RateLimit": `"d";r=0;t=9223372036`},
			RateLimitHint{Reset: 9223372036 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"policy w saturates", hdr{"RateLimit-Policy": `"d";q=1;w=9223372037`},
			RateLimitHint{Limit: 1, Window: maxDuration, HasLimit: true, HasWindow: true, Source: "RateLimit"}, ""},
		{"draft 07 reset saturates", hdr{"RateLimit": "limit=1, remaining=0, reset=99999999999999"},
			RateLimitHint{Limit: 1, Reset: maxDuration, HasLimit: true, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		{"older draft reset saturates", hdr{"RateLimit-Reset": "99999999999999"},
			RateLimitHint{Reset: maxDuration, HasReset: true, Source: "RateLimit-Limit"}, ""},
		{"older draft reset of 20 digits saturates", hdr{"RateLimit-Reset": "99999999999999999999"},
			RateLimitHint{Reset: maxDuration, HasReset: true, Source: "RateLimit-Limit"}, ""},
		{"x reset unix milliseconds centuries ahead saturates", hdr{"X-RateLimit-Reset": "99999999999999"},
			RateLimitHint{Reset: maxDuration, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x reset 17 digits saturates", hdr{"X-RateLimit-Reset": "99999999999999999"},
			RateLimitHint{Reset: maxDuration, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x reset 21 digits saturates", hdr{"X-RateLimit-Reset": "123456789012345678901"},
			RateLimitHint{Reset: maxDuration, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x reset long fraction", hdr{"X-RateLimit-Reset": "1.0000000000000000000000001"},
			RateLimitHint{Reset: s + 1, HasReset: true, Source: "X-RateLimit"}, ""},
		{"x reset unix milliseconds with fraction", hdr{"X-RateLimit-Reset": itoa(t0.Add(1500*ms).UnixMilli()) + ".25"},
			RateLimitHint{Reset: 1500*ms + 250*time.Microsecond, HasReset: true, Source: "X-RateLimit"}, ""},
		{"ietf wins over x-", hdr{"RateLimit": `"d";r=1;t=1`, "X-RateLimit-Remaining": "9"},
			RateLimitHint{Remaining: 1, Reset: s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, ""},
		// Errors.
		{"negative remaining", hdr{"X-RateLimit-Remaining": "-1"}, RateLimitHint{}, `core: X-RateLimit-Remaining "-1": negative`},
		{"garbage reset", hdr{"X-RateLimit-Reset": "soon"}, RateLimitHint{}, `core: X-RateLimit-Reset "soon": not a number`},
		{"x reset exponent", hdr{"X-RateLimit-Reset": "1e3"}, RateLimitHint{}, "not a number"},
		{"x reset leading dot", hdr{"X-RateLimit-Reset": ".5"}, RateLimitHint{}, "not a number"},
		{"x reset trailing dot", hdr{"X-RateLimit-Reset": "5."}, RateLimitHint{}, "not a number"},
		{"x reset two dots", hdr{"X-RateLimit-Reset": "1.2.3"}, RateLimitHint{}, "not a number"},
		{"x reset plus", hdr{"X-RateLimit-Reset": "+5"}, RateLimitHint{}, "not a number"},
		{"older draft reset not integer", hdr{"RateLimit-Reset": "1.5"}, RateLimitHint{}, `core: RateLimit-Reset "1.5": not an integer`},
		{"ietf t of 16 digits is no sf-integer", hdr{"RateLimit": `"d";r=0;t=1000000000000000`}, RateLimitHint{}, "t=1000000000000000: too large (an sf-integer has at most 15 digits)"},
		{"limit too many digits", hdr{"X-RateLimit-Limit": "1234567890123456"}, RateLimitHint{}, "too large"},
		{"ietf negative r", hdr{"RateLimit": `"d";r=-1;t=1`}, RateLimitHint{}, `core: RateLimit "\"d\";r=-1;t=1": r=-1: negative`},
		{"ietf unterminated string", hdr{"RateLimit": `"d;r=1`}, RateLimitHint{}, "unterminated string"},
		{"ietf stray text", hdr{"RateLimit": `"d";r=1 t=2`}, RateLimitHint{}, "unexpected"},
		{"ietf not a token", hdr{"RateLimit": `garbage(`}, RateLimitHint{}, `core: RateLimit "garbage(": unexpected '('`},
		{"ietf stray parenthesis in a value", hdr{"RateLimit": `"x";r=0;t=5)`}, RateLimitHint{}, `unexpected ')'`},
		{"ietf inner list", hdr{"RateLimit": `("a" "b");r=1`}, RateLimitHint{}, `unexpected '('`},
		{"policy not a token", hdr{"RateLimit-Policy": `"d";q=10;w=1<`}, RateLimitHint{}, `core: RateLimit-Policy "\"d\";q=10;w=1<": unexpected '<'`},
		{"ietf empty list", hdr{"RateLimit-Policy": `  ,`}, RateLimitHint{}, "core: RateLimit-Policy"},
		{"ietf bad policy quota", hdr{"RateLimit-Policy": `"d";q=lots`}, RateLimitHint{}, "q=lots: not a number"},
		{"draft 07 bad value", hdr{"RateLimit": "limit=100, remaining=x"}, RateLimitHint{}, "remaining=x: not a number"},
		// A malformed policy is ignored alone: RateLimit's reset stands
		// (it was lost, and a client backed off instead of waiting 30 s).
		{"bad policy window keeps the reset", hdr{"RateLimit": `"a";r=0;t=30`, "RateLimit-Policy": `"a";q=10;w=1.5`},
			RateLimitHint{Reset: 30 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, `core: RateLimit-Policy "\"a\";q=10;w=1.5": w=1.5: not an integer; policy ignored`},
		{"bad policy quota keeps the reset", hdr{"RateLimit": `"a";r=2;t=5`, "RateLimit-Policy": `"a";q=lots;w=60`},
			RateLimitHint{Remaining: 2, Reset: 5 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, "q=lots: not a number; policy ignored"},
		{"unparsable policy keeps the reset", hdr{"RateLimit": `"a";r=0;t=7`, "RateLimit-Policy": "bad policy"},
			RateLimitHint{Reset: 7 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}, "policy ignored"},
		{"draft 07 keeps its limit", hdr{"RateLimit": "limit=100, remaining=0, reset=30", "RateLimit-Policy": "100;w=x"},
			RateLimitHint{Limit: 100, Reset: 30 * s, HasLimit: true, HasRemaining: true, HasReset: true, Source: "RateLimit"}, "w=x: not a number; policy ignored"},
		{"ietf empty parameter", hdr{"RateLimit": `"d";;r=1`}, RateLimitHint{}, "empty parameter name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRateLimit(tt.h, t0)
			wantErr(t, err, tt.err)
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// A Unix-time reset read with now the zero time.Time is ~2,000 years
// ahead: the caller forgot to pass the time, and is told so rather than
// given a saturated wait.
func TestParseRateLimitZeroNow(t *testing.T) {
	_, err := ParseRateLimit(hdr{"X-RateLimit-Reset": "1762075810"}, time.Time{})
	wantErr(t, err, `core: X-RateLimit-Reset "1762075810": too far ahead of now, the zero time.Time: pass the current time`)
}

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func FuzzParseRateLimit(f *testing.F) {
	f.Add(`"default";r=50;t=30`, `"default";q=100;w=60`, "100", "0", "30")
	f.Add("limit=10, remaining=1, reset=7", "10;w=1", "", "", "1700000000")
	f.Add("", "", "60", "-1", "1.5")
	f.Fuzz(func(t *testing.T, rl, pol, limit, remaining, reset string) {
		for _, h := range []hdr{
			{"RateLimit": rl, "RateLimit-Policy": pol},
			{"RateLimit-Limit": limit, "RateLimit-Remaining": remaining, "RateLimit-Reset": reset},
			{"X-RateLimit-Limit": limit, "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": reset},
		} {
			hint, err := ParseRateLimit(h, t0)
			if hint.Limit < 0 || hint.Remaining < 0 || hint.Reset < 0 || hint.Window < 0 {
				t.Fatalf("%v: negative value in %+v", h, hint)
			}
			// With an error, a hint only when the policy alone was
			// malformed: then RateLimit's, without the policy's figures.
			if err != nil && !strings.HasPrefix(err.Error(), "core: ") {
				t.Fatalf("%v: error %v", h, err)
			}
			if err != nil && hint != (RateLimitHint{}) &&
				(!strings.HasPrefix(err.Error(), "core: RateLimit-Policy ") || !strings.HasSuffix(err.Error(), "; policy ignored") || hint.HasWindow) {
				t.Fatalf("%v: error %v with hint %+v", h, err, hint)
			}
		}
	})
}

// TestParseRateLimitDuplicateParameters: RFC 9651 §4.2.3.2 says a
// parameter that appears again overwrites the earlier value (and §4.2.2
// the same for dictionary keys), so the last one wins.
func TestParseRateLimitDuplicateParameters(t *testing.T) {
	for _, tt := range []struct {
		h    hdr
		want RateLimitHint
	}{
		{hdr{"RateLimit": `"a";r=5;t=10;t=20`},
			RateLimitHint{Remaining: 5, Reset: 20 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}},
		{hdr{"RateLimit": `"a";r=5;t=10;r=0`},
			RateLimitHint{Remaining: 0, Reset: 10 * s, HasRemaining: true, HasReset: true, Source: "RateLimit"}},
		{hdr{"RateLimit": `"a";t=1;T=7`}, // keys read case-insensitively (a documented leniency)
			RateLimitHint{Reset: 7 * s, HasReset: true, Source: "RateLimit"}},
		{hdr{"RateLimit": `"a";r=1;t=1`, "RateLimit-Policy": `"a";q=5;w=1;q=50;w=60`},
			RateLimitHint{Limit: 50, Remaining: 1, Reset: s, Window: time.Minute, HasLimit: true, HasRemaining: true, HasReset: true, HasWindow: true, Source: "RateLimit"}},
		{hdr{"RateLimit": "limit=100, remaining=50, reset=30, remaining=10"},
			RateLimitHint{Limit: 100, Remaining: 10, Reset: 30 * s, HasLimit: true, HasRemaining: true, HasReset: true, Source: "RateLimit"}},
	} {
		got, err := ParseRateLimit(tt.h, t0)
		if err != nil || got != tt.want {
			t.Errorf("ParseRateLimit(%v) = %+v, %v\nwant %+v", tt.h, got, err, tt.want)
		}
	}
}

// FuzzRateLimitRoundTrip: the numbers a server writes in each family are
// the numbers ParseRateLimit reads back, exactly: counts and seconds in the
// IETF fields and the older drafts', and X-RateLimit-Reset as seconds with
// nanoseconds (below 1e9 s) or as a Unix time in seconds.
func FuzzRateLimitRoundTrip(f *testing.F) {
	f.Add(uint64(100), uint64(0), uint64(30), uint64(60), int64(1500*time.Millisecond))
	f.Add(uint64(999_999_999_999_999), uint64(1), uint64(maxDelaySeconds), uint64(1), int64(999_999_999*time.Second+999_999_999))
	f.Fuzz(func(t *testing.T, limit, remaining, reset, window uint64, xreset int64) {
		limit, remaining = limit%1e15, remaining%1e15
		reset, window = reset%uint64(maxDelaySeconds+1), window%uint64(maxDelaySeconds+1)
		u := strconv.FormatUint
		check := func(h hdr, want RateLimitHint) {
			t.Helper()
			got, err := ParseRateLimit(h, t0)
			if err != nil || got != want {
				t.Fatalf("ParseRateLimit(%v) = %+v, %v\nwant %+v", h, got, err, want)
			}
		}
		counts := RateLimitHint{Limit: int(limit), Remaining: int(remaining), Reset: time.Duration(reset) * time.Second,
			HasLimit: true, HasRemaining: true, HasReset: true}
		ietf := counts
		ietf.Window, ietf.HasWindow, ietf.Source = time.Duration(window)*time.Second, true, "RateLimit"
		check(hdr{"RateLimit": `"p";r=` + u(remaining, 10) + ";t=" + u(reset, 10), "RateLimit-Policy": `"p";q=` + u(limit, 10) + ";w=" + u(window, 10)}, ietf)
		old := counts
		old.Source = "RateLimit-Limit"
		check(hdr{"RateLimit-Limit": u(limit, 10), "RateLimit-Remaining": u(remaining, 10), "RateLimit-Reset": u(reset, 10)}, old)

		// X-RateLimit-Reset as seconds with nine decimals, below 1e9 s.
		d := time.Duration(uint64(xreset) % uint64(1e9*time.Second))
		x := RateLimitHint{Reset: d, HasReset: true, Source: "X-RateLimit"}
		check(hdr{"X-RateLimit-Reset": fmt.Sprintf("%d.%09d", d/time.Second, d%time.Second)}, x)
		// As a Unix time in whole seconds, after t0 and before the
		// millisecond range.
		at := t0.Add(d.Truncate(time.Second))
		if at.Unix() < 1e12 {
			x.Reset = at.Sub(t0)
			check(hdr{"X-RateLimit-Reset": strconv.FormatInt(at.Unix(), 10)}, x)
		}
	})
}

// hdrValues is a Header that tells a field sent empty from one not sent
// (net/http.Header's Values), keys as written.
type hdrValues map[string][]string

func (h hdrValues) Get(k string) string {
	if vs := h[k]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

func (h hdrValues) Values(k string) []string { return h[k] }

func TestLookupHeader(t *testing.T) {
	var nilValues *nilSafeHeader
	for _, tc := range []struct {
		name   string
		h      Header
		want   string
		wantOK bool
	}{
		{"nil", nil, "", false},
		{"a value", hdrValues{"Retry-After": {"3"}}, "3", true},
		{"sent empty", hdrValues{"Retry-After": {""}}, "", true},
		{"sent blank", hdrValues{"Retry-After": {"  "}}, "  ", true},
		{"not sent", hdrValues{"RateLimit": {"x"}}, "", false},
		{"empty then a value: the first, as Get", hdrValues{"Retry-After": {"", "5"}}, "", true},
		{"no Values method: a value", hdr{"Retry-After": "3"}, "3", true},
		{"no Values method: empty reads as not sent", hdr{"Retry-After": ""}, "", false},
		{"a nil pointer in the interface", nilValues, "", false},
	} {
		got, ok := LookupHeader(tc.h, "Retry-After")
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: LookupHeader = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}

// nilSafeHeader is a pointer Header whose methods accept a nil receiver
// (as core/sim's *Header does).
type nilSafeHeader struct{ v []string }

func (h *nilSafeHeader) Get(string) string {
	if h == nil || len(h.v) == 0 {
		return ""
	}
	return h.v[0]
}

func (h *nilSafeHeader) Values(string) []string {
	if h == nil {
		return nil
	}
	return h.v
}

// A RateLimit list sent over several field lines is one list (RFC 9110
// §5.3): the most restrictive policy is chosen across the lines, and a
// policy named on a second RateLimit-Policy line is found. Get alone read
// the first line only.
func TestParseRateLimitListOverSeveralLines(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name    string
		lines   map[string][]string
		oneLine map[string]string
	}{
		{"RateLimit", map[string][]string{"RateLimit": {`"a";r=5;t=1`, `"b";r=0;t=30`}},
			map[string]string{"RateLimit": `"a";r=5;t=1, "b";r=0;t=30`}},
		{"RateLimit-Policy", map[string][]string{"RateLimit": {`"b";r=0;t=30`}, "RateLimit-Policy": {`"a";q=10;w=1`, `"b";q=100;w=60`}},
			map[string]string{"RateLimit": `"b";r=0;t=30`, "RateLimit-Policy": `"a";q=10;w=1, "b";q=100;w=60`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, vs := range tt.lines {
				for _, v := range vs {
					h.Add(k, v)
				}
			}
			got, err := ParseRateLimit(h, now)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ParseRateLimit(hdr(tt.oneLine), now)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("over several lines %+v, on one line %+v", got, want)
			}
			if !got.HasReset || got.Reset != 30*time.Second || got.Remaining != 0 {
				t.Errorf("got %+v, want policy b: 0 remaining, reset in 30s", got)
			}
		})
	}
}
