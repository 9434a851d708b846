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

// The mock endpoint in virtual time: 2 requests a second in a fixed
// window, the rest 429 with Retry-After. Arrive decides each request at
// once and says when its answer reaches the client.
func ExampleEndpointServer() {
	start := time.Date(2026, time.December, 7, 9, 0, 0, 0, time.UTC)
	srv, err := sim.NewEndpointServer(sim.Endpoint{Config: endpoint.Config{
		Limiter:    core.LimiterConfig{Kind: core.LimitFixedWindow, Limit: 2, Window: time.Second},
		RetryAfter: endpoint.RetryAfterSeconds,
		Latency:    50 * time.Millisecond,
	}}, start, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, at := range []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 1100 * time.Millisecond} {
		r := srv.Arrive(start.Add(at), sim.Request{Worker: i, Attempt: 1})
		line := fmt.Sprintf("#%d at %v: %d after %v", r.Seq, at, r.Status, r.Delay)
		if r.Header != nil { // nil: none of the fields core reads
			line += ", Retry-After: " + r.Header.Get("Retry-After")
		}
		fmt.Println(line)
	}
	// Output:
	// #1 at 0s: 200 after 50ms
	// #2 at 100ms: 200 after 50ms
	// #3 at 200ms: 429 after 50ms, Retry-After: 1
	// #4 at 1.1s: 200 after 50ms
}

// The AWS post's contention model, small: 50 clients race to write one
// record, each retrying as its curve says, 10 runs a curve. Full jitter
// needs half the calls of no backoff at all; the same seed gives the same
// numbers everywhere.
func ExampleExperiment() {
	e := sim.AWS()
	e.Curves = []sim.Curve{e.Curves[0], e.Curves[2]} // no backoff, full jitter
	e.Clients, e.Runs, e.Seed = []int{50}, 10, 7
	res, err := e.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	none, _ := res.Point(e.Curves[0].Name, 50)
	full, _ := res.Point(e.Curves[1].Name, 50)
	fmt.Printf("%s: %.0f calls; %s: %.0f calls\n", none.Curve, none.CallsMean, full.Curve, full.CallsMean)
	// Output:
	// none: 677 calls; full: 335 calls
}
