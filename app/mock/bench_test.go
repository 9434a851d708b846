//go:build !(js && wasm)

package mock

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// bareBody is about the size of the mock's body.
var bareBody = []byte(`{"key":"bench","seq":1,"allowed":true,"status":200,"outcome":"ok","limit":1000000,"remaining":999999,"reset_ms":0.001,"retry_after_ms":0,"latency_ms":0,"received":"2026-11-05T10:00:00.123456789Z"}` + "\n")

// bare is the baseline: a net/http handler writing a similar JSON body.
var bare = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(bareBody)
})

// bareCORS also sets the headers every mock response carries.
var bareCORS = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "Retry-After, RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset")
	h.Set("Timing-Allow-Origin", "*")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", "application/json")
	w.Write(bareBody)
})

func benchRequests(b *testing.B, queries ...string) []*http.Request {
	reqs := make([]*http.Request, len(queries))
	for i, q := range queries {
		reqs[i] = httptest.NewRequest(http.MethodGet, "/mock?"+q, nil)
	}
	return reqs
}

// BenchmarkServe is the per-request cost through httptest.NewRecorder (the
// recorder's own header map and buffer are in every figure, bare included).
func BenchmarkServe(b *testing.B) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "key=k" + strconv.Itoa(i) + "&limiter=bucket&rate=1000000&burst=1000000"
	}
	cases := []struct {
		name    string
		h       http.Handler
		queries []string
	}{
		{"bare", bare, []string{""}},
		{"bare-cors", bareCORS, []string{""}},
		{"mock/allowed", nil, []string{"key=bench&limiter=bucket&rate=1000000&burst=1000000"}},
		{"mock/allowed-headers", nil, []string{"key=bench&limiter=fixed&limit=1000&window=1ms&headers=both"}},
		{"mock/rejected-date", nil, []string{"key=bench&limiter=fixed&limit=1&window=24h&headers=both&retry_after=date"}},
		{"mock/1000-keys", nil, keys},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			h := c.h
			if h == nil {
				m := New(Options{})
				defer m.Close()
				h = m
			}
			reqs := benchRequests(b, c.queries...)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.ServeHTTP(httptest.NewRecorder(), reqs[i%len(reqs)])
			}
		})
	}
}

// BenchmarkHandlerOnly is the handlers' own cost: the writer is reused and
// keeps nothing (httptest.ResponseRecorder clones the header map on
// WriteHeader, which weighs on a handler that sets more headers; a real
// server does not).
func BenchmarkHandlerOnly(b *testing.B) {
	for _, c := range []struct {
		name  string
		mock  bool
		query string
	}{
		{"bare", false, ""},
		{"mock/allowed", true, "key=bench&limiter=bucket&rate=1000000&burst=1000000"},
		{"mock/rejected-date", true, "key=bench&limiter=fixed&limit=1&window=24h&headers=both&retry_after=date"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var h http.Handler = bare
			if c.mock {
				m := New(Options{})
				defer m.Close()
				h = m
			}
			req := benchRequests(b, c.query)[0]
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				clear(w.h)
				h.ServeHTTP(w, req)
			}
		})
	}
}

// BenchmarkServeParallel runs the same on every P: contention on the store.
func BenchmarkServeParallel(b *testing.B) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "key=k" + strconv.Itoa(i) + "&limiter=bucket&rate=1000000&burst=1000000"
	}
	for _, c := range []struct {
		name    string
		mock    bool
		queries []string
	}{
		{"bare", false, []string{""}},
		{"mock/one-key", true, []string{"key=bench&limiter=bucket&rate=1000000&burst=1000000"}},
		{"mock/1000-keys", true, keys},
	} {
		b.Run(c.name, func(b *testing.B) {
			var h http.Handler = bare
			if c.mock {
				m := New(Options{})
				defer m.Close()
				h = m
			}
			reqs := benchRequests(b, c.queries...)
			var next atomic.Uint64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					h.ServeHTTP(httptest.NewRecorder(), reqs[next.Add(1)%uint64(len(reqs))])
				}
			})
		})
	}
}

// discard is a ResponseWriter that keeps nothing (for the memory test, so
// only the store's memory stays on the heap).
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// TestMemoryMillionKeys sends 1,000,000 distinct keys through the handler
// with the default options and reports the heap: it is bounded by MaxKeys
// (DefaultMaxKeys keys remain), not by the number of keys seen.
func TestMemoryMillionKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 1e6 requests")
	}
	const n = 1_000_000
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	h := New(Options{})
	defer h.Close()
	req := httptest.NewRequest(http.MethodGet, "/mock", nil)
	u := *req.URL
	req.URL = &u
	w := &discard{h: http.Header{}}
	start := time.Now()
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		buf = append(buf[:0], "key=flood-"...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		req.URL.RawQuery = string(buf)
		clear(w.h)
		h.ServeHTTP(w, req)
	}
	took := time.Since(start)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	st := h.Stats()
	heap := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("%d distinct keys in %v: %d held, %d evicted; HeapInuse %.1f MiB (+%.1f MiB, %d bytes per held key); HeapAlloc %.1f MiB",
		n, took.Round(time.Millisecond), st.Keys, st.Evicted, float64(after.HeapInuse)/(1<<20), float64(heap)/(1<<20),
		heap/int64(max(st.Keys, 1)), float64(after.HeapAlloc)/(1<<20))
	if st.Keys > DefaultMaxKeys || st.Keys < DefaultMaxKeys*9/10 {
		t.Errorf("%d keys held, want at most %d (and close to it)", st.Keys, DefaultMaxKeys)
	}
	if st.Evicted < n-DefaultMaxKeys {
		t.Errorf("evicted %d", st.Evicted)
	}
	if per := heap / int64(st.Keys); per > entryOverhead {
		t.Errorf("%d heap bytes per key, more than the %d the byte budget assumes", per, entryOverhead)
	}
	runtime.KeepAlive(h)
}

// BenchmarkParseQuery is the query decoding alone.
func BenchmarkParseQuery(b *testing.B) {
	const q = "key=room-1&tag=w12.a3&limiter=sliding&limit=100&window=10s&retry_after=date&headers=both&latency=200ms&spread=50ms"
	b.Run("ParseQuery", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := ParseQuery(q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("url.ParseQuery+ParseParams", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			v, _ := url.ParseQuery(q)
			if _, err := ParseParams(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBurst is one POST /mock/burst of MaxBurstN requests: all
// admitted, all rejected by the limiter, and all admitted with a stream
// open on the key (2000 events published, read meanwhile).
func BenchmarkBurst(b *testing.B) {
	const n = "&n=1000"
	cases := []struct {
		name, query string
		stream      bool
	}{
		{"1000-allowed", "key=b&limiter=bucket&rate=1000000&burst=1000000" + n, false},
		{"1000-rejected", "key=b&limiter=fixed&limit=1&window=24h" + n, false},
		{"1000-allowed-stream", "key=b&limiter=bucket&rate=1000000&burst=1000000" + n, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			h := New(Options{})
			defer h.Close()
			if c.stream {
				s := h.hub.subscribe("b")
				done := make(chan struct{})
				defer close(done)
				go func() {
					for {
						select {
						case <-s.ch:
						case <-done:
							return
						}
					}
				}()
			}
			req := httptest.NewRequest(http.MethodPost, "/mock/burst?"+c.query, nil)
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.Burst().ServeHTTP(w, req)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/request")
		})
	}
}
