//go:build !(js && wasm)

package mock

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
			if p.Drop == 0 && p.Hang == 0 {
				t.Fatalf("query %q aborted without drop or hang", raw)
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
