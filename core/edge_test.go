package core

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// The edges a library user hits first, each with its documented answer:
// a Validate error naming the field, or a defined value; never a panic, a
// negative wait or an overflow.

func TestBackoffEdges(t *testing.T) {
	expoB := func(base, cap time.Duration, m float64) Backoff {
		return Backoff{Strategy: Exponential, Base: base, Multiplier: m, Cap: cap}
	}
	for _, tt := range []struct {
		name    string
		b       Backoff
		n       int
		prev    time.Duration
		u       float64
		want    time.Duration
		wantErr string // from Validate; "" = valid
	}{
		{"zero Backoff is None", Backoff{}, 1, 0, 0, 0, ""},
		{"base 0", Backoff{Strategy: Constant}, 1, 0, 0, 0, "backoff base 0s: must be between 1ms and 1h"},
		{"negative base", Backoff{Strategy: Constant, Base: -s}, 1, 0, 0, 0, "backoff base -1s: must be between 1ms and 1h"},
		{"base above range", Backoff{Strategy: Constant, Base: 2 * time.Hour}, 1, 0, 0, 2 * time.Hour, "backoff base 2h: must be between 1ms and 1h"},
		{"n 0 is Base", expoB(s, 0, 2), 0, 0, 0, s, ""},
		{"negative n is Base", expoB(s, 0, 2), -3, 0, 0, s, ""},
		{"huge n without cap saturates", expoB(time.Hour, 0, 10), math.MaxInt, 0, 0, maxDuration, ""},
		{"huge n with cap", expoB(s, time.Hour, 2), 1 << 40, 0, 0, time.Hour, ""},
		{"cap below base", expoB(s, 500*ms, 2), 1, 0, 0, 500 * ms, "backoff cap 500ms: must be 0 (no cap) or at least base 1s"},
		{"negative cap", expoB(s, -s, 2), 1, 0, 0, 2 * s, "backoff cap -1s: must be between 0s and 24h"},
		{"multiplier 1 is constant", expoB(s, 0, 1), 5, 0, 0, s, ""},
		{"multiplier below 1 does not shrink", expoB(s, 0, 0.5), 5, 0, 0, s, "backoff multiplier 0.5: must be between 1 and 10"},
		{"multiplier 0", expoB(s, 0, 0), 5, 0, 0, s, "backoff multiplier 0: must be between 1 and 10"},
		{"multiplier NaN", expoB(s, 0, math.NaN()), 5, 0, 0, s, "backoff multiplier NaN: must be between 1 and 10"},
		{"multiplier +Inf", expoB(s, 0, math.Inf(1)), 2, 0, 0, maxDuration, "backoff multiplier +Inf: must be between 1 and 10"},
		{"u NaN is 0", Backoff{Strategy: FullJitter, Base: s, Multiplier: 2}, 1, 0, math.NaN(), 0, ""},
		{"u below 0 is 0", Backoff{Strategy: EqualJitter, Base: s, Multiplier: 2}, 1, 0, -1, s, ""},
		{"u above 1 is 1", Backoff{Strategy: FullJitter, Base: s, Multiplier: 2}, 1, 0, 7, 2 * s, ""},
		{"decorrelated negative prev starts from Base", Backoff{Strategy: DecorrelatedJitter, Base: s}, 2, -s, 1, 3 * s, ""},
		{"decorrelated huge prev saturates", Backoff{Strategy: DecorrelatedJitter, Base: s}, 2, maxDuration, 1, maxDuration, ""},
		{"unknown strategy", Backoff{Strategy: 9, Base: s}, 1, 0, 0, 0, "backoff strategy 9: must be between 0 (none) and 5 (decorrelated)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantErr(t, tt.b.Validate(), tt.wantErr)
			if got := tt.b.Delay(tt.n, tt.prev, tt.u); got != tt.want {
				t.Errorf("Delay(%d, %v, %v) = %v, want %v", tt.n, tt.prev, tt.u, got, tt.want)
			}
			sched := NewSchedule(tt.b, NewPCG(1))
			for range 3 {
				if d := sched.Next(); d < 0 {
					t.Fatalf("Schedule.Next() = %v: negative", d)
				}
			}
		})
	}
}

// TestNewScheduleNilRandJitter: a nil Rand used to be dereferenced by the
// first Next of a jitter strategy (a nil pointer panic); it now means
// NewPCG(0), as NewLoop's does.
func TestNewScheduleNilRandJitter(t *testing.T) {
	for st := None; st <= DecorrelatedJitter; st++ {
		b := Backoff{Strategy: st, Base: 100 * ms, Multiplier: 2, Cap: 10 * s}
		got, want := NewSchedule(b, nil), NewSchedule(b, NewPCG(0))
		for i := range 5 {
			if g, w := got.Next(), want.Next(); g != w {
				t.Fatalf("%v: delay %d with a nil Rand = %v, with NewPCG(0) %v", st, i+1, g, w)
			}
		}
	}
}

func TestNewBucketEdges(t *testing.T) {
	for _, tt := range []struct {
		rate, capacity float64
		wantErr        string
	}{
		{0, 1, "bucket rate 0: must be between 0.001 and 1000000"},
		{-1, 1, "bucket rate -1: must be between"},
		{math.NaN(), 1, "bucket rate NaN: must be between"},
		{math.Inf(1), 1, "bucket rate +Inf: must be between"},
		{1, 0, "bucket capacity 0: must be between 1 and 1000000"},
		{1, 0.5, "bucket capacity 0.5: must be between 1 and 1000000"},
		{1, math.NaN(), "bucket capacity NaN: must be between"},
		{0.001, 1, ""},
		{1e6, 1e6, ""},
		{0.5, 1.5, ""},
	} {
		b, err := NewBucket(tt.rate, tt.capacity)
		wantErr(t, err, tt.wantErr)
		if (b == nil) != (err != nil) {
			t.Errorf("NewBucket(%v, %v) = %v, %v: want a bucket or an error", tt.rate, tt.capacity, b, err)
		}
	}
}

// TestBucketEdges: instants that run backwards count as the latest one
// seen (no interval is credited twice), huge jumps saturate, and a done
// context takes no token.
func TestBucketEdges(t *testing.T) {
	b, _ := NewBucket(1, 2)
	for _, tt := range []struct {
		what       string
		op         func() any
		want       any
		wantTokens float64 // at t0 + 1s, after the step
	}{
		{"allow at t0", func() any { return b.AllowAt(t0) }, true, 2},
		{"allow at t0+1s", func() any { return b.AllowAt(at(s)) }, true, 1},
		{"allow an hour before: counts as t0+1s", func() any { return b.AllowAt(at(-time.Hour)) }, true, 0},
		{"allow a day before: none left", func() any { return b.AllowAt(at(-24 * time.Hour)) }, false, 0},
		{"reserve back in time waits from t0+1s", func() any { return b.ReserveAt(at(-time.Hour)) }, s, -1},
		{"cancelled Wait takes nothing", func() any {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return b.Wait(ctx)
		}, context.Canceled, -1},
	} {
		got := tt.op()
		if e, ok := tt.want.(error); ok {
			if err, _ := got.(error); !errors.Is(err, e) {
				t.Fatalf("%s: %v, want %v", tt.what, got, tt.want)
			}
		} else if got != tt.want {
			t.Fatalf("%s: %v, want %v", tt.what, got, tt.want)
		}
		if tok := b.TokensAt(at(s)); tok != tt.wantTokens {
			t.Fatalf("%s: %v tokens at t0+1s, want %v", tt.what, tok, tt.wantTokens)
		}
	}

	// A jump of centuries: the offset saturates instead of wrapping.
	far, _ := NewBucket(1, 2)
	far.AllowAt(t0)
	if !far.AllowAt(t0.AddDate(300, 0, 0)) || far.TokensAt(t0.AddDate(300, 0, 0)) < 0 {
		t.Fatal("a bucket 300 years later is not full")
	}
}

// backClock jumps back an hour each time it is read after a Sleep: a wall
// clock being set back under a running job.
type backClock struct {
	now   time.Time
	slept bool
}

func (c *backClock) Now() time.Time {
	if c.slept {
		c.now, c.slept = c.now.Add(-time.Hour), false
	}
	return c.now
}

func (c *backClock) Sleep(ctx context.Context, d time.Duration) error {
	c.now, c.slept = c.now.Add(d), true
	return ctx.Err()
}

func TestDoEdges(t *testing.T) {
	past := t0.Add(-time.Hour).Format("Mon, 02 Jan 2006 15:04:05 GMT")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name     string
		p        Policy
		ctx      context.Context
		clock    Clock
		replies  []Outcome
		attempts int           // attempts made
		waits    time.Duration // all waits together
		want     error         // errors.Is target; nil = success
		wantErr  string        // text in the error
	}{
		{name: "max attempts 0 is invalid", p: expo(0),
			wantErr: "policy max attempts 0: must be between 1 and 1000"},
		{name: "max attempts 1 never retries", p: expo(1), replies: []Outcome{status(503)},
			attempts: 1, want: ErrExhausted, wantErr: "attempts exhausted after 1 attempt: http status 503"},
		{name: "negative max elapsed is invalid", p: withPolicy(expo(3), func(p *Policy) { p.MaxElapsed = -s }),
			wantErr: "policy max elapsed -1s: must be between 0s and 24h"},
		{name: "context already cancelled: no attempt", p: expo(3), ctx: cancelled, replies: []Outcome{status(200)},
			want: context.Canceled, wantErr: "cancelled after 0 attempts"},
		{name: "retry-after in the past waits 0", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }),
			replies: []Outcome{status(429, "Retry-After", past), status(200)}, attempts: 2},
		// Delay-seconds past a Duration's reach saturate: the server asked
		// for a very long wait, and the ceiling treats it as such (it was
		// once unreadable, and retried at the backoff's pace).
		{name: "retry-after too large for a Duration, no ceiling: the longest wait", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }),
			replies: []Outcome{status(429, "Retry-After", "99999999999999999999"), status(200)}, attempts: 2, waits: maxDuration},
		{name: "retry-after too large for a Duration, clamped", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter, p.Ceiling = true, time.Minute }),
			replies: []Outcome{status(429, "Retry-After", "99999999999999999999"), status(200)}, attempts: 2, waits: time.Minute},
		{name: "retry-after too large for a Duration, stop", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter, p.Ceiling, p.AboveCeiling = true, time.Minute, CeilingStop }),
			replies: []Outcome{status(429, "Retry-After", "99999999999999999999")}, attempts: 1, want: ErrAboveCeiling},
		{name: "retry-after too large for a Duration, max elapsed", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter, p.MaxElapsed = true, time.Hour }),
			replies: []Outcome{status(429, "Retry-After", "99999999999999999999")}, attempts: 1, want: ErrMaxElapsed},
		{name: "retry-after of centuries, no ceiling: honoured", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }),
			replies: []Outcome{status(429, "Retry-After", "9223372036"), status(200)}, attempts: 2, waits: 9223372036 * s},
		{name: "retry-after of centuries plus spread saturates", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter, p.Spread = true, time.Minute }),
			replies: []Outcome{status(429, "Retry-After", "9223372036"), status(200)}, attempts: 2, waits: maxDuration},
		{name: "retry-after of centuries, clamped", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter, p.Ceiling = true, time.Minute }),
			replies: []Outcome{status(429, "Retry-After", "9223372036"), status(200)}, attempts: 2, waits: time.Minute},
		{name: "retry-after of centuries, stop", p: withPolicy(expo(3), func(p *Policy) { p.RetryAfter, p.Ceiling, p.AboveCeiling = true, time.Minute, CeilingStop }),
			replies: []Outcome{status(429, "Retry-After", "9223372036")}, attempts: 1, want: ErrAboveCeiling},
		{name: "clock set back: elapsed counts by its readings", p: withPolicy(expo(4), func(p *Policy) { p.MaxElapsed = 500 * ms }),
			clock: &backClock{now: t0}, replies: []Outcome{status(503)}, attempts: 4, waits: 1400 * ms, want: ErrExhausted},
		{name: "steady clock: the same policy stops at max elapsed", p: withPolicy(expo(4), func(p *Policy) { p.MaxElapsed = 500 * ms }),
			replies: []Outcome{status(503)}, attempts: 2, waits: 200 * ms, want: ErrMaxElapsed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, clock := tt.ctx, tt.clock
			if ctx == nil {
				ctx = context.Background()
			}
			if clock == nil {
				clock = &virtualClock{now: t0}
			}
			var waits time.Duration
			l := NewLoop(tt.p, NewPCG(1), nil, nil, func(e Event) {
				if e.Kind == EventWait {
					waits = min(maxDuration-waits, e.Wait) + waits // saturating
				}
			})
			calls := 0
			op := func(context.Context, int) Outcome {
				calls++
				if len(tt.replies) == 0 {
					t.Fatal("an attempt was made")
				}
				return tt.replies[min(calls, len(tt.replies))-1]
			}
			err := Do(ctx, l, clock, op)
			if tt.want == nil && tt.wantErr == "" && err != nil {
				t.Fatalf("err %v, want success", err)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
			if tt.wantErr != "" {
				wantErr(t, err, tt.wantErr)
			}
			if calls != tt.attempts || l.Attempts() != tt.attempts {
				t.Errorf("%d attempts (%d calls), want %d", l.Attempts(), calls, tt.attempts)
			}
			if waits != tt.waits {
				t.Errorf("waited %v, want %v", waits, tt.waits)
			}
		})
	}
}
