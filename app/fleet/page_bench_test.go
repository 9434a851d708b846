package fleet_test

// What the page's "Simulate" button costs, fleet.Simulate (core/sim plus
// the recording), natively and in WebAssembly:
//
//	go test -run='^$' -bench=Page ./app/fleet/
//	PATH=$PATH:$(go env GOROOT)/lib/wasm GOOS=js GOARCH=wasm go test -modfile=.build/wasm.mod -run='^$' -bench=Page ./app/fleet/

import (
	"testing"
	"time"

	"retrylab/app/fleet"
)

// BenchmarkPageSimulate: 10,000 workers × 5 jobs, the page's default client
// (full jitter 100 ms … 10 s, 10 attempts, 5 s timeout), against the mock's
// token bucket at three rates (burst 100, 20, 10; 50 ms latency). At 10
// req/s nearly every job exhausts its 10 attempts: half a million attempts.
func BenchmarkPageSimulate(b *testing.B) {
	for _, c := range []struct {
		name  string
		rate  float64
		burst int
	}{
		{"rate1000", 1000, 100},
		{"rate100", 100, 20},
		{"rate10", 10, 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := fleet.Default()
			s.Workers, s.Jobs = 10000, 5
			s.Mock.Rate, s.Mock.Burst = c.rate, c.burst
			s.Mock.Latency = 50 * time.Millisecond
			b.ReportAllocs()
			var sum fleet.SimSummary
			var rec *fleet.Recording
			for b.Loop() {
				rec, sum = fleet.SimulateWith(s, fleet.SimOptions{})
			}
			if rec.Err != nil {
				b.Fatal(rec.Err)
			}
			b.ReportMetric(float64(sum.Attempts), "attempts")
			b.ReportMetric(float64(rec.Len()), "records")
			b.ReportMetric(sum.Virtual.Seconds(), "virtual-s")
		})
	}
}
