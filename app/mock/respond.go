//go:build !(js && wasm)

package mock

import (
	"net/http"
	"strconv"
	"time"
)

// Header values shared by every response. They are assigned to the header map
// directly (no per-request allocation); nothing may modify their elements.
var (
	hvStar          = []string{"*"}
	hvNoStore       = []string{"no-store"}
	hvNoSniff       = []string{"nosniff"}
	hvJSON          = []string{"application/json"}
	hvEventStream   = []string{"text/event-stream"}
	hvMethods       = []string{"GET, HEAD, OPTIONS"}
	hvStreamMethods = []string{"GET, OPTIONS"}
	hvSwitchMethods = []string{"POST, OPTIONS"}
	hvMaxAge        = []string{"7200"}
	hvVaryPreflight = []string{"Access-Control-Request-Headers"}
	hvExpose        = []string{"Retry-After, RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset"}
)

// SetCommon sets what every response of the mock carries: open CORS for GET,
// the exposed rate-limit headers, Resource Timing details, no caching and no
// sniffing. The server's own refusals on the mock's paths (a mistyped
// endpoint's 404, too large headers' 431) carry them too.
func SetCommon(h http.Header) {
	h["Access-Control-Allow-Origin"] = hvStar
	h["Access-Control-Expose-Headers"] = hvExpose
	h["Timing-Allow-Origin"] = hvStar
	h["Cache-Control"] = hvNoStore
	h["X-Content-Type-Options"] = hvNoSniff
}

// preflight answers a CORS preflight: 204, the route's methods allowed
// (what its 405s list in Allow), the requested headers allowed when they
// are a plain list of field names.
func preflight(w http.ResponseWriter, r *http.Request, methods []string) {
	h := w.Header()
	h["Access-Control-Allow-Methods"] = methods
	h["Access-Control-Max-Age"] = hvMaxAge
	h["Vary"] = hvVaryPreflight
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" && len(req) <= 1024 && fieldNameList(req) {
		h.Set("Access-Control-Allow-Headers", req)
	}
	w.WriteHeader(http.StatusNoContent)
}

// fieldNameList reports whether s is a comma-separated list of tokens.
func fieldNameList(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == ',' || c == ' ') {
			return false
		}
	}
	return true
}

// appendMS appends d in milliseconds, rounded up to the microsecond, without
// trailing zeros: "0", "250", "1.5", "0.001".
func appendMS(b []byte, d time.Duration) []byte {
	if d <= 0 {
		return append(b, '0')
	}
	us := (int64(d) + 999) / 1000
	b = strconv.AppendInt(b, us/1000, 10)
	f := us % 1000
	if f == 0 {
		return b
	}
	b = append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
	for b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	return b
}

// headerVals collects dynamic header values in one byte buffer; set turns
// them into strings and header slices with two allocations in total.
type headerVals struct {
	buf  []byte
	n    int
	name [6]string
	end  [6]int
}

func (v *headerVals) add(name string) { v.name[v.n] = name; v.end[v.n] = len(v.buf); v.n++ }

func (v *headerVals) set(h http.Header) {
	if v.n == 0 {
		return
	}
	all := string(v.buf)
	vals := make([]string, v.n)
	start := 0
	for i := 0; i < v.n; i++ {
		vals[i] = all[start:v.end[i]]
		start = v.end[i]
		h[v.name[i]] = vals[i : i+1 : i+1]
	}
}

// appendKeyTagSeq appends the "key", "tag" (when set) and "seq" members
// that the body and the arrivals stream both start with.
func appendKeyTagSeq(b []byte, a *arrival) []byte {
	b = append(b, `"key":"`...)
	b = append(b, a.key...)
	b = append(b, '"')
	if a.tag != "" {
		b = append(b, `,"tag":"`...)
		b = append(b, a.tag...)
		b = append(b, '"')
	}
	b = append(b, `,"seq":`...)
	return strconv.AppendUint(b, a.seq, 10)
}

// appendDecision appends the limiter's decision and the latency chosen:
// the "limit" … "latency_ms" members of the body and of an arrival event.
func appendDecision(b []byte, a *arrival) []byte {
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(a.d.Limit), 10)
	b = append(b, `,"remaining":`...)
	b = strconv.AppendInt(b, int64(a.d.Remaining), 10)
	b = append(b, `,"reset_ms":`...)
	b = appendMS(b, a.d.Reset)
	b = append(b, `,"retry_after_ms":`...)
	b = appendMS(b, a.d.RetryAfter)
	b = append(b, `,"latency_ms":`...)
	return appendMS(b, a.latency)
}

// appendBody appends the JSON body of an answered arrival.
func appendBody(b []byte, a *arrival) []byte {
	b = appendKeyTagSeq(append(b, '{'), a)
	b = append(b, `,"allowed":`...)
	b = strconv.AppendBool(b, a.d.Allowed)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(a.status), 10)
	b = append(b, `,"outcome":"`...)
	b = append(b, a.outcome.String()...)
	b = appendDecision(append(b, '"'), a)
	b = append(b, `,"received":"`...)
	b = a.at.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\"}\n"...)
	return b
}
