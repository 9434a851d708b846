package sim

import (
	"runtime"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// fleet10k is the page's largest simulation: 10,000 workers × 5 jobs with
// full jitter (100 ms … 10 s, 10 attempts) against the mock's token bucket
// (1000 req/s, burst 100, 50 ms latency).
func fleet10k(b *testing.B, observe func(*Record)) (*Fleet, *Scheduler) {
	srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1000, Burst: 100},
		RetryAfter: endpoint.RetryAfterSeconds, Latency: 50 * time.Millisecond}}, t0, 1)
	if err != nil {
		b.Fatal(err)
	}
	return &Fleet{
		Workers: 10000, Jobs: 5,
		Policy: core.Policy{Backoff: core.Backoff{Strategy: core.FullJitter, Base: 100 * time.Millisecond, Multiplier: 2, Cap: 10 * time.Second},
			MaxAttempts: 10, Ceiling: 30 * time.Second},
		Seed: 1, Timeout: 5 * time.Second, Server: srv, Observe: observe,
	}, NewScheduler(t0)
}

func benchFleet(b *testing.B, observe func(*Record)) {
	b.ReportAllocs()
	var res FleetResult
	for b.Loop() {
		f, s := fleet10k(b, observe)
		var err error
		if res, err = f.Run(s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Attempts), "attempts")
	b.ReportMetric(float64(res.Events), "sched-events")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(res.Attempts), "ns/attempt")
}

// BenchmarkFleet10k: the driver, core.Loop and the endpoint model, with no
// observer and with one that only counts (BenchmarkPageSimulate measures
// fleet.Simulate, which keeps every record).
func BenchmarkFleet10k(b *testing.B) {
	b.Run("no-records", func(b *testing.B) { benchFleet(b, nil) })
	b.Run("count", func(b *testing.B) {
		n := 0
		benchFleet(b, func(*Record) { n++ })
	})
}

type nopActor struct {
	s   *Scheduler
	rng *core.PCG
}

func (a *nopActor) Fire(now time.Time, arg int) {
	if arg > 0 {
		a.s.After(time.Duration(a.rng.Float64()*float64(time.Second)), a, arg-1)
	}
}

// BenchmarkScheduler: one event fired and one scheduled per op, 10,000
// pending (the 10k-worker fleet's heap).
func BenchmarkScheduler(b *testing.B) {
	b.ReportAllocs()
	s := NewScheduler(t0)
	a := &nopActor{s: s, rng: core.NewPCG(1)}
	for range 10000 {
		s.After(time.Duration(a.rng.Float64()*float64(time.Second)), a, 1<<62)
	}
	for b.Loop() {
		s.Step()
	}
}

// BenchmarkAWSSweep is the full published sweep: 19 client counts × 100
// runs × 5 strategies, on GOMAXPROCS goroutines (run with -benchtime=1x).
func BenchmarkAWSSweep(b *testing.B) {
	if runtime.GOOS == "js" {
		b.Skip("the full sweep is a native command (retrylab sim aws); BenchmarkAWSReduced runs here")
	}
	var res *Results
	for b.Loop() {
		var err error
		if res, err = AWS().Run(); err != nil {
			b.Fatal(err)
		}
	}
	calls := 0.0
	for _, p := range res.Points {
		calls += p.CallsMean * float64(p.Runs)
	}
	b.ReportMetric(calls, "calls")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/calls, "ns/call")
}

// BenchmarkAWSReduced is the sweep the tests run (5 client counts × 30 runs).
func BenchmarkAWSReduced(b *testing.B) {
	for b.Loop() {
		if _, err := reducedAWS().Run(); err != nil {
			b.Fatal(err)
		}
	}
}
