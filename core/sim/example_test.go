package sim_test

import (
	"errors"
	"fmt"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
	"retrylab/core/sim"
)

// A fleet of 20 clients, each with one job, hits an endpoint that allows
// 5 requests per second in bursts of 5 and answers the rest 429 with
// Retry-After in seconds. The simulation runs in virtual time (it takes
// microseconds) and the same seed gives the same run everywhere.
func ExampleFleet() {
	start := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	server, err := sim.NewEndpointServer(sim.Endpoint{Config: endpoint.Config{
		Limiter:    core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 5, Burst: 5},
		RetryAfter: endpoint.RetryAfterSeconds,
		Latency:    20 * time.Millisecond,
	}}, start, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	policy := core.DefaultPolicy() // full jitter, 5 attempts, Retry-After up to 1m
	policy.Spread = 200 * time.Millisecond
	statuses := map[int]int{}
	var exhausted int
	f := sim.Fleet{
		Workers: 20, Jobs: 1, Policy: policy, Seed: 42, Server: server,
		Timeout: time.Second,
		Observe: func(r *sim.Record) {
			switch e := r.Event; e.Kind {
			case core.EventOutcome:
				statuses[e.Outcome.Status]++
			case core.EventDone:
				if errors.Is(e.Err, core.ErrExhausted) {
					exhausted++
				}
			}
		},
	}
	res, err := f.Run(sim.NewScheduler(start))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d jobs, %d attempts (%d ok, %d rejected), %d gave up, last ended after %v\n",
		res.Jobs, res.Attempts, statuses[200], statuses[429], exhausted, res.End.Sub(start))
	// Output:
	// 20 jobs, 49 attempts (20 ok, 29 rejected), 0 gave up, last ended after 3.540441172s
}

// The scheduler runs actors in virtual time: events fire in time order,
// those due at the same instant in the order they were scheduled, and an
// actor may schedule more. A run takes no wall-clock time.
func ExampleScheduler() {
	s := sim.NewScheduler(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var tick sim.ActorFunc
	tick = func(now time.Time, n int) {
		fmt.Println(s.Elapsed(), "tick", n)
		if n < 3 {
			s.After(time.Duration(n)*time.Second, tick, n+1) // waits growing, as backoff's
		}
	}
	s.After(0, tick, 1)
	// Due at 1s as tick 2 is, but scheduled first: it fires first.
	s.After(time.Second, sim.ActorFunc(func(time.Time, int) { fmt.Println(s.Elapsed(), "other") }), 0)
	fmt.Println("fired", s.Run(), "ending at", s.Now().Format(time.TimeOnly))
	// Output:
	// 0s tick 1
	// 1s other
	// 1s tick 2
	// 3s tick 3
	// fired 4 ending at 00:00:03
}
