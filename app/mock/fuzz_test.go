//go:build !(js && wasm)

package mock

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzHandler: whatever the query, the handler never panics (except the
// deliberate http.ErrAbortHandler of a drop or an expired hang, which a
// recorder cannot hijack), answers bad input with 400 and a complete JSON error, and sends a
// 5xx only when the query asked for one.
func FuzzHandler(f *testing.F) {
	for _, s := range []string{
		"", "key=a", "rate=0", "key=%zz", "=1", "a;b", "limiter=sliding&limit=1000&window=24h",
		"retry_after=malformed&malformed=mix&limiter=fixed&limit=1", "fail500=100", "fail503=50&status=503",
		"drop=100", "hang=100", "latency=30s", "spread=1s", "headers=both&limiter=bucket&rate=0.001&burst=1000000",
		"key=" + string(make([]byte, 100)), "tag=%00", "retry_after=date&limiter=fixed&limit=1&window=24h",
	} {
		f.Add(s)
	}
	h := New(Options{MaxKeys: 1000, HangLimit: time.Millisecond})
	f.Cleanup(h.Close)
	f.Fuzz(func(t *testing.T, raw string) {
		req := httptest.NewRequest(http.MethodGet, "/mock", nil)
		req.URL.RawQuery = raw
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Millisecond) // ends latencies and hangs
		defer cancel()
		rec := httptest.NewRecorder()
		aborted := func() (aborted bool) {
			defer func() {
				if r := recover(); r != nil {
					if r != http.ErrAbortHandler {
						panic(r)
					}
					aborted = true
				}
			}()
			h.ServeHTTP(rec, req.WithContext(ctx))
			return false
		}()
		p, err := ParseQuery(raw)
		if err != nil {
			var e struct{ Error, Param, Value, Allowed string }
			if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Param == "" || e.Allowed == "" || e.Error == "" {
				t.Fatalf("bad query %q: %d %q", raw, rec.Code, rec.Body)
			}
			return
		}
		switch {
		case aborted:
			// A drop, a hang, or a latency the client left before (ctx ends
			// after 2 ms): the connection is closed, never answered empty.
			if p.Drop == 0 && p.Hang == 0 && p.Latency+p.Spread == 0 {
				t.Fatalf("query %q aborted without drop, hang or latency", raw)
			}
		case rec.Code == 500:
			if p.Fail500 == 0 {
				t.Fatalf("query %q: 500 without fail500", raw)
			}
		case rec.Code == 503:
			if p.Fail503 == 0 && p.Status != 503 {
				t.Fatalf("query %q: 503 without fail503 or status=503", raw)
			}
		case rec.Code >= 500 || rec.Code == 400:
			t.Fatalf("valid query %q: %d %q", raw, rec.Code, rec.Body)
		}
	})
}

// FuzzOutage: any query to POST /mock/outage gets 200 with the key and
// the outage's times, or 400 naming the bad parameter; never a panic.
func FuzzOutage(f *testing.F) {
	for _, s := range []string{"", "key=a", "key=a&for=3s", "for=0s", "for=1m1s", "for=-1s", "key=%zz", "key=a&key=a", "x=1", "for=1e9h", "key=" + strings.Repeat("k", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h := New(Options{}) // a fresh registry: a long run would fill a shared one
		defer h.Close()
		req := httptest.NewRequest(http.MethodPost, "/mock/outage", nil)
		req.URL.RawQuery = raw
		rec := httptest.NewRecorder()
		h.Outage().ServeHTTP(rec, req)
		_, _, perr := parseOutageQuery(raw)
		switch {
		case perr != nil:
			var e struct{ Error, Param, Value, Allowed string }
			if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Param == "" || e.Allowed == "" {
				t.Fatalf("bad query %q: %d %q", raw, rec.Code, rec.Body)
			}
		case rec.Code == 200:
			var b struct{ Key, From, Until string }
			if json.Unmarshal(rec.Body.Bytes(), &b) != nil || b.Key == "" {
				t.Fatalf("query %q: body %q", raw, rec.Body)
			}
		default:
			t.Fatalf("valid query %q: %d %q", raw, rec.Code, rec.Body)
		}
	})
}

// FuzzParseLimitQuery: any query to POST /mock/limit is read as a key, a
// scale and a duration within their bounds, which read the same written
// back, or refused with a complete *ParamError; the handler answers 200 with
// what was read, or 400 with the error; never a panic.
func FuzzParseLimitQuery(f *testing.F) {
	for _, s := range []string{
		"", "key=a", "key=a&scale=0.5&for=5s", "scale=0.05", "scale=1", "scale=0.049", "scale=1.0000001", "scale=NaN",
		"scale=Inf", "scale=-0", "scale=0x1p-1", "scale=5e-1", "scale=1_0", "for=0s", "for=1m1s", "for=-1s", "for=1e9h",
		"key=%zz", "key=a&key=a", "scale=1&scale=1", "x=1", "=", "&&&", "key=" + strings.Repeat("k", 70), "scale=" + strings.Repeat("9", 400),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h := New(Options{}) // a fresh registry: a long run would fill a shared one
		defer h.Close()
		key, scale, d, perr := parseLimitQuery(raw)
		req := httptest.NewRequest(http.MethodPost, "/mock/limit", nil)
		req.URL.RawQuery = raw
		rec := httptest.NewRecorder()
		h.Limit().ServeHTTP(rec, req)
		if perr != nil {
			var e struct{ Error, Param, Value, Allowed string }
			if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Param != viaJSON(perr.Param) || e.Value != viaJSON(perr.Value) || e.Allowed == "" || e.Error != viaJSON(perr.Error()) {
				t.Fatalf("bad query %q (%v): %d %q", raw, perr, rec.Code, rec.Body)
			}
			if !wellCut(perr.Value) {
				t.Fatalf("query %q: value %q not cut", raw, perr.Value)
			}
			return
		}
		if !ValidKey(key) || !LimitScaleRange.Contains(scale) || d < 0 || d > MaxLimitFor {
			t.Fatalf("query %q read as key %q scale %v for %v: out of bounds", raw, key, scale, d)
		}
		again := "key=" + key + "&scale=" + strconv.FormatFloat(scale, 'g', -1, 64) + "&for=" + d.String()
		if k2, s2, d2, err := parseLimitQuery(again); err != nil || k2 != key || s2 != scale || d2 != d {
			t.Fatalf("query %q read as %q %v %v; written back as %q, read as %q %v %v (%v)", raw, key, scale, d, again, k2, s2, d2, err)
		}
		var a struct {
			Key, From, Until string
			Scale            float64
		}
		if d == 0 {
			scale = 1 // ended now: the key's own limit
		}
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &a) != nil || a.Key != key || a.Scale != scale {
			t.Fatalf("valid query %q: %d %q", raw, rec.Code, rec.Body)
		}
		from, err1 := time.Parse(time.RFC3339Nano, a.From)
		until, err2 := time.Parse(time.RFC3339Nano, a.Until)
		if err1 != nil || err2 != nil || until.Sub(from) != d {
			t.Fatalf("valid query %q: from %q until %q, want %v apart", raw, a.From, a.Until, d)
		}
	})
}

// viaJSON is s as it reads after a trip through JSON (invalid UTF-8
// replaced).
func viaJSON(s string) string {
	b, _ := json.Marshal(s)
	json.Unmarshal(b, &s)
	return s
}

// FuzzParseBurstQuery: any query to POST /mock/burst is read as an n in
// BurstNRange and GET /mock's parameters, which read the same written back,
// or refused with a complete *ParamError; a query that cannot name n is
// read exactly as ParseQuery reads it; the handler answers 200 with n
// requests decided, or 400 with the error; never a panic.
func FuzzParseBurstQuery(f *testing.F) {
	for _, s := range []string{
		"", "n=1", "n=1000", "n=0", "n=1001", "n=-1", "n=abc", "n=", "n", "n=+5", "n=0x10", "n=1e3", "n=07", "n=5&n=5",
		"%6E=5", "%6e=5&n=1", "n=%zz", "nn=1", "x=1&n=2", "=1", "&&&", "key=a&n=30&limiter=bucket&rate=10&burst=10",
		"rate=abc&n=5", "n=5&fail500=50&drop=25&hang=25", "n=5&latency=30s&spread=1s", "tag=t&n=3", "key=%zz&n=2",
		"n=" + strings.Repeat("9", 100),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h := New(Options{}) // a fresh registry: a long run would fill a shared one
		defer h.Close()
		n, p, perr := parseBurstQuery(raw)
		req := httptest.NewRequest(http.MethodPost, "/mock/burst", nil)
		req.URL.RawQuery = raw
		rec := httptest.NewRecorder()
		h.Burst().ServeHTTP(rec, req)

		if lower := strings.ToLower(raw); !strings.Contains(lower, "n") && !strings.Contains(lower, "%6e") {
			// No pair can be named n: ParseQuery's reading, errors included.
			want, err := ParseQuery(raw)
			switch {
			case err == nil && (perr != nil || p != want || n != DefaultBurstN):
				t.Fatalf("query %q: n %d %+v %v; ParseQuery %+v", raw, n, p, perr, want)
			case err != nil && perr == nil:
				t.Fatalf("query %q: accepted; ParseQuery %v", raw, err)
			case err != nil:
				pe := err.(*ParamError)
				if perr.Param != pe.Param || perr.Value != pe.Value || strings.ReplaceAll(perr.Allowed, "n, ", "") != strings.ReplaceAll(pe.Allowed, "n, ", "") {
					t.Fatalf("query %q: %v; ParseQuery %v", raw, perr, pe)
				}
			}
		}
		if perr != nil {
			var e struct{ Error, Param, Value, Allowed string }
			if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Param != viaJSON(perr.Param) || e.Value != viaJSON(perr.Value) || e.Allowed == "" || e.Error != viaJSON(perr.Error()) {
				t.Fatalf("bad query %q (%v): %d %q", raw, perr, rec.Code, rec.Body)
			}
			if !wellCut(perr.Value) {
				t.Fatalf("query %q: value %q not cut", raw, perr.Value)
			}
			return
		}
		if !BurstNRange.Contains(n) || p.Valid() != nil {
			t.Fatalf("query %q read as n %d %+v: out of bounds (%v)", raw, n, p, p.Valid())
		}
		again := "n=" + strconv.Itoa(n) + "&" + p.Encode()
		if n2, p2, err := parseBurstQuery(again); err != nil || n2 != n || p2 != p {
			t.Fatalf("query %q read as %d %+v; written back as %q, read as %d %+v (%v)", raw, n, p, again, n2, p2, err)
		}
		var a struct {
			Key, At              string
			N, Allowed, Rejected int
		}
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &a) != nil || a.Key != p.Key || a.N != n || a.Allowed+a.Rejected != n || a.Allowed < 0 || a.Rejected < 0 {
			t.Fatalf("valid query %q: %d %q", raw, rec.Code, rec.Body)
		}
	})
}

// FuzzParseEventsQuery: any query to GET /mock/events is read as a valid
// key (the default when none is given) or refused with a complete
// *ParamError; a refused query gets 400 and the JSON error; never a panic.
func FuzzParseEventsQuery(f *testing.F) {
	for _, s := range []string{"", "key=a", "key=", "key=a&key=b", "key=%zz", "key=%FF", "tag=t", "=1", "&&", "key", "key=" + strings.Repeat("k", 70), "key=a+b", "%6Bey=a"} {
		f.Add(s)
	}
	h := New(Options{})
	f.Cleanup(h.Close)
	f.Fuzz(func(t *testing.T, raw string) {
		key, perr := parseEventsQuery(raw)
		if perr != nil {
			if perr.Param == "" || perr.Allowed == "" || !wellCut(perr.Value) {
				t.Fatalf("query %q: incomplete error %+v", raw, perr)
			}
			req := httptest.NewRequest(http.MethodGet, "/mock/events", nil)
			req.URL.RawQuery = raw
			rec := httptest.NewRecorder()
			h.Events().ServeHTTP(rec, req) // refused before it streams
			var e struct{ Error, Param, Value, Allowed string }
			if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Param != viaJSON(perr.Param) || e.Allowed != perr.Allowed {
				t.Fatalf("bad query %q: %d %q", raw, rec.Code, rec.Body)
			}
			return
		}
		if !ValidKey(key) {
			t.Fatalf("query %q: accepted invalid key %q", raw, key)
		}
	})
}

// FuzzPreflight: whatever a preflight asks to send
// (Access-Control-Request-Headers, read from any web page's request), the
// answer is 204 with no body, and it allows those headers only as asked,
// only when they are a plain list of field names of at most 1 KB: nothing
// else of the request is written back (no CR, LF or other byte that could
// start a header of its own).
func FuzzPreflight(f *testing.F) {
	for _, s := range []string{"x-worker, content-type", "x\r\nSet-Cookie: a=b", "", ",,", "a b", "ä", strings.Repeat("x", 1025)} {
		f.Add(s)
	}
	h := New(Options{MaxKeys: 10})
	f.Cleanup(h.Close)
	f.Fuzz(func(t *testing.T, asked string) {
		req := httptest.NewRequest(http.MethodOptions, "/mock?key=x", nil)
		req.Header["Access-Control-Request-Method"] = []string{"GET"}
		req.Header["Access-Control-Request-Headers"] = []string{asked}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
			t.Fatalf("%q: %d %q", asked, rec.Code, rec.Body)
		}
		allowed, ok := rec.Header()["Access-Control-Allow-Headers"]
		if !ok {
			return
		}
		if len(allowed) != 1 || allowed[0] != asked || len(asked) > 1024 {
			t.Fatalf("asked %q, allowed %q", asked, allowed)
		}
		for _, c := range []byte(asked) {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_, ", c) >= 0) {
				t.Fatalf("allowed %q, with %q", asked, c)
			}
		}
	})
}
