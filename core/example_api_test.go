package core_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"retrylab/core"
)

func ExampleParseRateLimit() {
	now := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	show := func(h http.Header) {
		hint, err := core.ParseRateLimit(h, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-15s limit %d (%v) remaining %d (%v) reset %v (%v) window %v (%v)\n", hint.Source,
			hint.Limit, hint.HasLimit, hint.Remaining, hint.HasRemaining, hint.Reset, hint.HasReset, hint.Window, hint.HasWindow)
	}

	// The IETF fields: with two policies the one with the least quota left
	// is reported, with its own quota and window.
	h := http.Header{}
	h.Set("RateLimit", `"burst";r=40;t=1, "daily";r=0;t=3600`)
	h.Set("RateLimit-Policy", `"burst";q=50;w=1, "daily";q=1000;w=86400`)
	show(h)

	// The de-facto X- fields; a reset from 1e9 on is a Unix time.
	h = http.Header{}
	h.Set("X-RateLimit-Limit", "60")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", fmt.Sprint(now.Add(42*time.Second).Unix()))
	show(h)

	// No rate-limit fields: a zero hint, no error.
	show(http.Header{"Content-Type": {"text/plain"}})

	// A malformed field: an error naming it.
	h = http.Header{}
	h.Set("RateLimit", `"default";r=-1;t=5`)
	show(h)
	// Output:
	// RateLimit       limit 1000 (true) remaining 0 (true) reset 1h0m0s (true) window 24h0m0s (true)
	// X-RateLimit     limit 60 (true) remaining 0 (true) reset 42s (true) window 0s (false)
	//                 limit 0 (false) remaining 0 (false) reset 0s (false) window 0s (false)
	// core: RateLimit "\"default\";r=-1;t=5": r=-1: negative
}

func ExampleNewBudget() {
	// A fleet may spend 3 retries, then earns one back per ten successes.
	budget, err := core.NewBudget(3, 0.1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 1; i <= 4; i++ {
		fmt.Printf("retry %d: %v\n", i, budget.Spend())
	}
	for range 10 {
		budget.Success()
	}
	fmt.Println("tokens after ten successes:", budget.Tokens())
	fmt.Println("retry 5:", budget.Spend())

	_, err = core.NewBudget(0, 1)
	fmt.Println(err)
	// Output:
	// retry 1: true
	// retry 2: true
	// retry 3: true
	// retry 4: false
	// tokens after ten successes: 1
	// retry 5: true
	// core: budget capacity 0: must be between 1 and 1000000
}

func ExampleNewSchedule() {
	b := core.Backoff{Strategy: core.Exponential, Base: 100 * time.Millisecond, Multiplier: 2, Cap: time.Second}
	s := core.NewSchedule(b, nil) // Exponential draws nothing
	var ds []time.Duration
	for range 5 {
		ds = append(ds, s.Next())
	}
	fmt.Println(ds)

	// With jitter, a seeded Rand makes the delays reproducible, and equal
	// to what Delay gives for the same draws.
	b.Strategy = core.FullJitter
	s = core.NewSchedule(b, core.NewPCG(7))
	rng := core.NewPCG(7)
	ds, same := ds[:0], true
	for n := 1; n <= 5; n++ {
		d := s.Next()
		ds = append(ds, d)
		same = same && d == b.Delay(n, 0, rng.Float64())
	}
	fmt.Println(ds, "same as Delay:", same, "attempt:", s.Attempt())
	// Output:
	// [200ms 400ms 800ms 1s 1s]
	// [49.636036ms 79.544567ms 501.298369ms 841.902139ms 39.907838ms] same as Delay: true attempt: 5
}

func ExampleSubSeed() {
	// Each worker's job gets its own generator, derived from the run's
	// seed: the same numbers whatever order the jobs run in, and on every
	// platform.
	const runSeed = 42
	for _, wj := range [][2]int{{0, 0}, {0, 1}, {1, 0}} {
		seed := core.SubSeed(runSeed, wj[0], wj[1])
		rng := core.NewRand(seed)
		pcg := core.NewPCG(seed) // the same draws, without *rand.Rand
		a, b := rng.Float64(), pcg.Float64()
		fmt.Printf("worker %d job %d: seed %#016x first draw %.6f (PCG %v)\n", wj[0], wj[1], seed, a, a == b)
	}
	// Output:
	// worker 0 job 0: seed 0xe37241c09304f97f first draw 0.223841 (PCG true)
	// worker 0 job 1: seed 0x18def8c3a67e97f5 first draw 0.072498 (PCG true)
	// worker 1 job 0: seed 0x8a2624014c8dc5b5 first draw 0.528246 (PCG true)
}

func ExampleDecision_RetryAfterSeconds() {
	now := time.Date(2026, time.November, 2, 9, 30, 0, 300_000_000, time.UTC)
	// One request every 2.5 s, no burst.
	l := core.NewLimiter(core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 0.4, Burst: 1}, now)
	for i := range 2 {
		d := l.Decide(now)
		fmt.Printf("request %d at 09:30:00.3: allowed %v, retry after %v\n", i+1, d.Allowed, d.RetryAfter)
		if !d.Allowed {
			// Rounded up, so a client that waits that long is allowed.
			fmt.Println("Retry-After:", d.RetryAfterSeconds())
			fmt.Println("Retry-After:", d.RetryAt(now).Format(http.TimeFormat))
		}
	}
	// Output:
	// request 1 at 09:30:00.3: allowed true, retry after 0s
	// request 2 at 09:30:00.3: allowed false, retry after 2.5s
	// Retry-After: 3
	// Retry-After: Mon, 02 Nov 2026 09:30:03 GMT
}

// A fleet's jobs are all due when the run starts, but a driver on one
// thread starts them one after another: SetDue keeps the delay in the
// first attempt's lateness (At − Intended).
func ExampleLoop_SetDue() {
	runStart := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	for worker := range 3 {
		l := core.NewLoop(core.DefaultPolicy(), core.NewPCG(1), nil, nil, func(e core.Event) {
			if e.Kind == core.EventAttempt {
				fmt.Printf("worker %d: first attempt %v late\n", worker, e.At.Sub(e.Intended))
			}
		})
		l.SetDue(runStart)
		started := runStart.Add(time.Duration(worker) * 4 * time.Millisecond) // the thread got to it
		l.Start(started)
		l.Begin(started)
	}
	// Output:
	// worker 0: first attempt 0s late
	// worker 1: first attempt 4ms late
	// worker 2: first attempt 8ms late
}

func ExampleLookupHeader() {
	// net/http's Get reads "" both for a field not sent and for one sent
	// with an empty value; LookupHeader tells them apart.
	for _, h := range []http.Header{
		{"Retry-After": {"120"}},
		{"Retry-After": {""}}, // "Retry-After: " on the wire
		{"Content-Type": {"text/plain"}},
	} {
		v, sent := core.LookupHeader(h, "Retry-After")
		fmt.Printf("%q sent=%v", v, sent)
		if sent {
			if _, err := core.ParseRetryAfter(v, time.Now()); err != nil {
				fmt.Print(": ", err)
			}
		}
		fmt.Println()
	}
	// Output:
	// "120" sent=true
	// "" sent=true: core: retry-after "": empty (want delay-seconds or an HTTP-date)
	// "" sent=false
}

func ExamplePermanent() {
	// An attempt whose request can never succeed says so: the loop stops at
	// once, where DefaultRetryable would retry any other error.
	l := core.NewLoop(core.DefaultPolicy(), nil, nil, nil, nil)
	calls := 0
	err := core.Do(context.Background(), l, nil, func(ctx context.Context, n int) core.Outcome {
		calls++
		if _, err := url.Parse("http://[::1"); err != nil {
			return core.Outcome{Err: core.Permanent(err)}
		}
		return core.Outcome{Status: 200}
	})
	fmt.Println(calls, "attempt:", errors.Is(err, core.ErrPermanent))
	fmt.Println(err)
	// Output:
	// 1 attempt: true
	// core: permanent failure after 1 attempt: parse "http://[::1": missing ']' in host
}

// A policy read from configuration: strategy names are String's, exactly,
// and an unknown one is an error that lists them.
func ExampleParseStrategy() {
	for _, name := range []string{"full", "decorrelated", "Full"} {
		s, err := core.ParseStrategy(name)
		fmt.Println(s, s.Random(), err)
	}
	// Output:
	// full true <nil>
	// decorrelated true <nil>
	// none false core: backoff strategy "Full": must be one of none, constant, exponential, full, equal, decorrelated
}

// DefaultRetryable retries what a later attempt may fix: 429, 503 and
// other 5xx, network errors and timeouts; not a 4xx, not cancellation, and
// not an error marked Permanent.
func ExampleDefaultRetryable() {
	for _, o := range []core.Outcome{
		{Status: 429}, {Status: 503}, {Status: 501}, {Status: 404}, {Status: 200},
		{Err: errors.New("connection reset")}, {Err: context.DeadlineExceeded},
		{Err: context.Canceled}, {Err: core.Permanent(errors.New("unsupported scheme"))},
	} {
		what := fmt.Sprint(o.Status)
		if o.Err != nil {
			what = o.Err.Error()
		}
		fmt.Printf("%s: %v\n", what, core.DefaultRetryable(o))
	}
	// Output:
	// 429: true
	// 503: true
	// 501: false
	// 404: false
	// 200: false
	// connection reset: true
	// context deadline exceeded: true
	// context canceled: false
	// unsupported scheme: false
}

// Durations and numbers written as the ranges and errors write them, and
// read back exactly; numbers read as people write them.
func ExampleFormatDuration() {
	fmt.Println(core.FormatDuration(90*time.Second), core.FormatDuration(time.Hour), core.FormatDuration(1500*time.Microsecond))
	fmt.Println(core.FormatFloat(1e6), core.FormatFloat(1e-7))
	for _, s := range []string{"1e3", ".5", "-0", "0x10", "1_000", "NaN"} {
		if f, err := core.ParseFloat(s); err != nil {
			fmt.Println(s, "refused")
		} else {
			fmt.Println(s, f)
		}
	}
	// Output:
	// 1m30s 1h 1.5ms
	// 1000000 0.0000001
	// 1e3 1000
	// .5 0.5
	// -0 0
	// 0x10 refused
	// 1_000 refused
	// NaN refused
}

// A policy from user input is checked before a loop runs: Validate names
// the first field out of range, its value and what is allowed, as the
// exported ranges say it.
func ExamplePolicy_Validate() {
	p := core.DefaultPolicy()
	fmt.Println(p.Validate())
	p.MaxAttempts = 0
	fmt.Println(p.Validate())
	p = core.DefaultPolicy()
	p.Backoff.Cap = 50 * time.Millisecond // under the 100ms base
	fmt.Println(p.Validate())
	fmt.Println(core.PolicyMaxAttemptsRange, core.PolicyMaxAttemptsRange.Contains(0))
	// Output:
	// <nil>
	// core: policy max attempts 0: must be between 1 and 1000
	// core: backoff cap 50ms: must be 0 (no cap) or at least base 100ms
	// between 1 and 1000 false
}

// The limiter kinds and the ceiling's actions are read from configuration
// by their names, as String writes them.
func ExampleParseLimiterKind() {
	for _, name := range []string{"token-bucket", "sliding-window", "leaky"} {
		k, err := core.ParseLimiterKind(name)
		fmt.Println(k, err)
	}
	a, err := core.ParseCeilingAction("stop")
	fmt.Println(a, err)
	// Output:
	// token-bucket <nil>
	// sliding-window <nil>
	// none core: limiter kind "leaky": must be one of none, token-bucket, fixed-window, sliding-window
	// stop <nil>
}

// A Range is what a field accepts; the page shows it beside the input and
// the mock checks its query against it, both reading it from core.
func ExampleRange() {
	r := core.BackoffBaseRange
	for _, typed := range []string{"250ms", "2h"} {
		d, _ := time.ParseDuration(typed)
		if r.Contains(d) {
			fmt.Println(typed, "ok")
		} else {
			fmt.Printf("base %s: must be %v\n", typed, r)
		}
	}
	// Output:
	// 250ms ok
	// base 2h: must be between 1ms and 1h
}

// DurationHint says what a refused duration lacks, and DurationIn is its
// ok for a field with a range.
func ExampleDurationHint() {
	ok := core.DurationIn(core.BackoffBaseRange)
	for _, typed := range []string{"100", "1 s"} {
		fmt.Printf("base %q: must be %v%s\n", typed, core.BackoffBaseRange, core.DurationHint(typed, ok))
	}
	// Output:
	// base "100": must be between 1ms and 1h; a number needs a unit: 100ms or 100s, perhaps
	// base "1 s": must be between 1ms and 1h; without a space: 1s
}

// ParseFloat reads numbers as people write them and refuses Go's other
// spellings, which no configuration means.
func ExampleParseFloat() {
	for _, s := range []string{"0.5", "1e3", "-0", "1_000", "0x1p-2", "NaN"} {
		f, err := core.ParseFloat(s)
		if err != nil {
			fmt.Printf("%q: refused\n", s)
			continue
		}
		fmt.Printf("%q: %s\n", s, core.FormatFloat(f))
	}
	// Output:
	// "0.5": 0.5
	// "1e3": 1000
	// "-0": 0
	// "1_000": refused
	// "0x1p-2": refused
	// "NaN": refused
}

// A PCG drawn from the same seed draws the same numbers, natively and in
// WebAssembly: each worker's job gets its own with SubSeed, so a run is
// reproducible from its seed whatever order the workers run in.
func ExampleNewPCG() {
	a := core.NewPCG(core.SubSeed(42, 3, 0))
	b := core.NewPCG(core.SubSeed(42, 3, 0))
	other := core.NewPCG(core.SubSeed(42, 4, 0))
	x, y, z := a.Float64(), b.Float64(), other.Float64()
	fmt.Println(x == y, x == z, x >= 0 && x < 1)
	// Output: true false true
}

// RealClock waits on a real timer, and stops waiting as soon as the
// context is done: Stop on the page cancels every worker's wait so.
func ExampleRealClock() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancel() // Stop
	}()
	start := time.Now()
	err := core.RealClock{}.Sleep(ctx, time.Hour)
	fmt.Println(err, time.Since(start) < time.Minute)
	// Output: context canceled true
}
