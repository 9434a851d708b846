//go:build e2e

package tests

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"retrylab/app/mock"
)

// BenchmarkLoopback measures the mock endpoint's throughput on loopback with
// 64 keep-alive connections against a bare net/http handler that writes a
// JSON body of the same size, in the same run, alternating rounds so both
// see the same machine load. It reports requests per second for each and
// their ratio (target: mock ≥ 0.85× bare). Run with `make bench`.
func BenchmarkLoopback(b *testing.B) {
	const conns = 64
	const round = 2 * time.Second
	const rounds = 3

	body := []byte(`{"key":"bench","seq":1,"allowed":true,"status":200,"outcome":"ok","limit":1000000,"remaining":999999,"reset_ms":0,"retry_after_ms":0,"latency_ms":0,"received":"2026-11-29T09:52:17.415174154Z"}`)
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(body)
	}))
	defer bare.Close()
	m := mock.New(mock.Options{})
	defer m.Close()
	mux := http.NewServeMux()
	mux.Handle("/mock", m)
	mocked := httptest.NewServer(mux)
	defer mocked.Close()

	scenarios := []struct{ name, url string }{
		{"bare", bare.URL + "/"},
		{"mock-allowed", mocked.URL + "/mock?key=bench&limiter=bucket&rate=1000000&burst=1000000"},
		{"mock-1000keys-mostly-429", mocked.URL + "/mock?limiter=bucket&rate=1&burst=5&key=k"},
	}
	results := map[string][]float64{}
	for i := 0; i < b.N; i++ {
		for r := 0; r < rounds; r++ {
			for _, sc := range scenarios {
				rps, rejected := hammer(sc.url, conns, round, sc.name == "mock-1000keys-mostly-429")
				results[sc.name] = append(results[sc.name], rps)
				if rejected > 0 {
					b.Logf("%s: %.0f%% rejected", sc.name, 100*rejected)
				}
			}
		}
	}
	base := median(results["bare"])
	for _, sc := range scenarios {
		m := median(results[sc.name])
		b.ReportMetric(m, sc.name+"-req/s")
		fmt.Printf("loopback %-26s %8.0f req/s  %.2f× bare  (rounds: %.0f)\n", sc.name, m, m/base, results[sc.name])
	}
}

// hammer sends GETs over conns keep-alive connections for d and returns
// requests per second and the fraction of non-200 answers. With manyKeys
// each request uses one of 1,000 keys.
func hammer(url string, conns int, d time.Duration, manyKeys bool) (float64, float64) {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var n, rejected atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				u := url
				if manyKeys {
					u = fmt.Sprintf("%s%d", url, (c*7919+i)%1000)
				}
				req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
				resp, err := client.Do(req)
				if err != nil {
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				n.Add(1)
				if resp.StatusCode != 200 {
					rejected.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	total := n.Load()
	if total == 0 {
		return 0, 0
	}
	return float64(total) / d.Seconds(), float64(rejected.Load()) / float64(total)
}
