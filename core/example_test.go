package core_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"retrylab/core"
)

func ExampleParseRetryAfter() {
	now := time.Date(1999, time.December, 31, 23, 59, 0, 0, time.UTC)
	for _, v := range []string{
		"120",
		"Fri, 31 Dec 1999 23:59:59 GMT",
		"Friday, 31-Dec-99 23:59:59 GMT",
		"Fri Dec 31 23:59:59 1999",
		"Thu, 30 Dec 1999 00:00:00 GMT", // in the past
		"1.5",
		"Fri, 31 Dec 1999 23:59:60 GMT", // a leap second: the instant after 23:59:59
		"Wed, 30 Feb 2000 00:00:00 GMT",
		"99999999999999999999", // valid delay-seconds, longer than a Duration: saturates
	} {
		d, err := core.ParseRetryAfter(v, now)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(d)
	}
	// Output:
	// 2m0s
	// 59s
	// 59s
	// 59s
	// 0s
	// core: retry-after "1.5": fractional seconds not allowed
	// 1m0s
	// core: retry-after "Wed, 30 Feb 2000 00:00:00 GMT": invalid date: Feb 2000 has no day 30
	// 2562047h47m16.854775807s
}

func ExampleLimiter() {
	start := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	cfg := core.LimiterConfig{Kind: core.LimitSlidingWindow, Limit: 2, Window: time.Second}
	if err := cfg.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	l := core.NewLimiter(cfg, start)
	for _, ms := range []int{0, 300, 600, 1000} {
		d := l.Decide(start.Add(time.Duration(ms) * time.Millisecond))
		fmt.Printf("t=%4dms allowed=%-5v remaining=%d retry-after=%v (header %d)\n",
			ms, d.Allowed, d.Remaining, d.RetryAfter, d.RetryAfterSeconds())
	}
	// Output:
	// t=   0ms allowed=true  remaining=1 retry-after=0s (header 0)
	// t= 300ms allowed=true  remaining=0 retry-after=0s (header 0)
	// t= 600ms allowed=false remaining=0 retry-after=400ms (header 1)
	// t=1000ms allowed=true  remaining=0 retry-after=0s (header 0)
}

// A server halves a token bucket's limit for a while: the bucket keeps the
// tokens it had (it is not refilled), refills at half the rate meanwhile, and
// goes back to the full limit with what it holds then.
func ExampleLimiter_Reconfigure() {
	start := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	cfg := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 10, Burst: 10}
	l := core.NewLimiter(cfg, start)
	for range 8 {
		l.Decide(start)
	}
	fmt.Println("before:", l.Peek(start).Remaining, "tokens of", cfg.Burst)

	half := cfg.Scaled(0.5)
	l.Reconfigure(half, start)
	fmt.Printf("halved: rate %v burst %d\n", half.Rate, half.Burst)
	for _, ms := range []int{0, 0, 0, 100, 200, 400} {
		d := l.Decide(start.Add(time.Duration(ms) * time.Millisecond))
		fmt.Printf("t=%3dms allowed=%-5v remaining=%d retry-after=%v\n", ms, d.Allowed, d.Remaining, d.RetryAfter)
	}

	end := start.Add(time.Second)
	l.Reconfigure(cfg, end)
	fmt.Println("back:", l.Peek(end).Remaining, "tokens of", cfg.Burst)
	// Output:
	// before: 2 tokens of 10
	// halved: rate 5 burst 5
	// t=  0ms allowed=true  remaining=1 retry-after=0s
	// t=  0ms allowed=true  remaining=0 retry-after=0s
	// t=  0ms allowed=false remaining=0 retry-after=200ms
	// t=100ms allowed=false remaining=0 retry-after=100ms
	// t=200ms allowed=true  remaining=0 retry-after=0s
	// t=400ms allowed=true  remaining=0 retry-after=0s
	// back: 3 tokens of 10
}

func ExampleBackoff_Delay() {
	exp := core.Backoff{Strategy: core.Exponential, Base: 100 * time.Millisecond, Multiplier: 2, Cap: time.Second}
	full := exp
	full.Strategy = core.FullJitter
	equal := exp
	equal.Strategy = core.EqualJitter
	// Delay is a pure function of the random number u it is given.
	for n := 1; n <= 5; n++ {
		fmt.Printf("failure %d: exponential %v, full jitter (u=0.5) %v, equal jitter (u=0) %v\n",
			n, exp.Delay(n, 0, 0), full.Delay(n, 0, 0.5), equal.Delay(n, 0, 0))
	}
	dec := core.Backoff{Strategy: core.DecorrelatedJitter, Base: 100 * time.Millisecond, Cap: time.Second}
	d1 := dec.Delay(1, 0, 1) // u=1: the top of U(base, prev·3), from prev = base
	d2 := dec.Delay(2, d1, 1)
	d3 := dec.Delay(3, d2, 1) // capped
	fmt.Println(d1, d2, d3)
	// With a seeded generator the whole schedule is reproducible.
	s := core.NewSchedule(full, core.NewPCG(42))
	fmt.Println(s.Next(), s.Next(), s.Next())
	// Output:
	// failure 1: exponential 200ms, full jitter (u=0.5) 100ms, equal jitter (u=0) 100ms
	// failure 2: exponential 400ms, full jitter (u=0.5) 200ms, equal jitter (u=0) 200ms
	// failure 3: exponential 800ms, full jitter (u=0.5) 400ms, equal jitter (u=0) 400ms
	// failure 4: exponential 1s, full jitter (u=0.5) 500ms, equal jitter (u=0) 500ms
	// failure 5: exponential 1s, full jitter (u=0.5) 500ms, equal jitter (u=0) 500ms
	// 300ms 900ms 1s
	// 53.732111ms 263.995004ms 365.405306ms
}

// headers is a minimal core.Header (an http.Header works too).
type headers map[string]string

func (h headers) Get(k string) string { return h[k] }

// ExampleLoop drives the state machine by hand at fixed instants, as the
// simulator does in virtual time.
func ExampleLoop() {
	p := core.DefaultPolicy()
	p.Backoff.Strategy = core.Exponential
	show := func(e core.Event) {
		switch e.Kind {
		case core.EventWait:
			fmt.Printf("wait %v (%s)", e.Wait, e.Reason)
			if e.Note != "" {
				fmt.Print(" ", e.Note)
			}
			fmt.Println()
		case core.EventDone:
			fmt.Printf("done after %d attempts: %v\n", e.Attempt, e.Err)
		}
	}
	l := core.NewLoop(p, core.NewPCG(1), nil, nil, show)
	replies := []core.Outcome{
		{Status: 503},
		{Status: 429, Header: headers{"Retry-After": "2"}},
		{Status: 429, Header: headers{"Retry-After": "soon"}},
		{Status: 200},
	}
	now := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	step := l.Start(now)
	for step.Action != core.ActDone {
		switch step.Action {
		case core.ActWait:
			now = now.Add(step.Wait)
			step = l.Woke(now)
		case core.ActAttempt:
			n := l.Begin(now)
			now = now.Add(20 * time.Millisecond) // the attempt's latency
			step = l.End(now, replies[n-1])
		}
	}
	// Output:
	// wait 200ms (backoff)
	// wait 2s (retry-after)
	// wait 800ms (backoff) retry-after "soon": invalid syntax (want delay-seconds or an HTTP-date); fell back to backoff
	// done after 4 attempts: <nil>
}

// virtualClock jumps instead of sleeping, so the example runs instantly.
type virtualClock struct{ now time.Time }

func (c *virtualClock) Now() time.Time { return c.now }
func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	return ctx.Err()
}

func ExampleDo() {
	p := core.DefaultPolicy()
	p.MaxAttempts = 3
	l := core.NewLoop(p, core.NewPCG(core.SubSeed(7, 0, 0)), nil, nil, nil)
	clock := &virtualClock{now: time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)}
	start := clock.now
	op := func(ctx context.Context, attempt int) core.Outcome {
		fmt.Printf("attempt %d at +%v\n", attempt, clock.now.Sub(start))
		return core.Outcome{Status: 503}
	}
	err := core.Do(context.Background(), l, clock, op)
	fmt.Println(err)
	fmt.Println(errors.Is(err, core.ErrExhausted))
	var se *core.StatusError
	fmt.Println(errors.As(err, &se), se.Status)
	// Output:
	// attempt 1 at +0s
	// attempt 2 at +25.152967ms
	// attempt 3 at +399.115076ms
	// core: attempts exhausted after 3 attempts: http status 503
	// true
	// true 503
}
