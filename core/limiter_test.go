package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

type limiterStep struct {
	at   time.Duration
	peek bool
	want Decision
}

func runLimiterSteps(t *testing.T, c LimiterConfig, steps []limiterStep) {
	t.Helper()
	l := NewLimiter(c, t0)
	for i, st := range steps {
		var got Decision
		if st.peek {
			got = l.Peek(at(st.at))
		} else {
			got = l.Decide(at(st.at))
		}
		if got != st.want {
			t.Errorf("step %d at %v (peek=%v): got %+v, want %+v", i, st.at, st.peek, got, st.want)
		}
	}
}

func TestLimiterTables(t *testing.T) {
	allow := func(limit, rem int, reset time.Duration) Decision {
		return Decision{Allowed: true, Limit: limit, Remaining: rem, Reset: reset}
	}
	deny := func(limit, rem int, reset, retry time.Duration) Decision {
		return Decision{Limit: limit, Remaining: rem, Reset: reset, RetryAfter: retry}
	}
	tests := []struct {
		name  string
		cfg   LimiterConfig
		steps []limiterStep
	}{
		{"none", LimiterConfig{}, []limiterStep{
			{0, false, Decision{Allowed: true}},
			{0, false, Decision{Allowed: true}},
		}},
		{"token bucket rate 1 burst 2", LimiterConfig{Kind: LimitTokenBucket, Rate: 1, Burst: 2}, []limiterStep{
			{0, true, allow(2, 2, 0)},
			{0, false, allow(2, 1, 1*s)},
			{0, false, allow(2, 0, 2*s)},
			{0, false, deny(2, 0, 2*s, 1*s)},
			{500 * ms, false, deny(2, 0, 1500*ms, 500*ms)},
			{500 * ms, true, deny(2, 0, 1500*ms, 500*ms)},
			{1 * s, false, allow(2, 0, 2*s)},
			{10 * s, false, allow(2, 1, 1*s)},
		}},
		{"token bucket fractional rate 0.5", LimiterConfig{Kind: LimitTokenBucket, Rate: 0.5, Burst: 1}, []limiterStep{
			{0, false, allow(1, 0, 2*s)},
			{1 * s, false, deny(1, 0, 1*s, 1*s)},
			{1500 * ms, false, deny(1, 0, 500*ms, 500*ms)},
			{2 * s, false, allow(1, 0, 2*s)},
		}},
		{"fixed window 2 per second", LimiterConfig{Kind: LimitFixedWindow, Limit: 2, Window: s}, []limiterStep{
			{0, false, allow(2, 1, 1*s)},
			{100 * ms, false, allow(2, 0, 900*ms)},
			{200 * ms, false, deny(2, 0, 800*ms, 800*ms)},
			{200 * ms, true, deny(2, 0, 800*ms, 800*ms)},
			{1000 * ms, true, allow(2, 2, 1*s)},
			{1000 * ms, false, allow(2, 1, 1*s)},
			{1999 * ms, false, allow(2, 0, 1*ms)},
			{2*s - 1, false, deny(2, 0, 1, 1)},
			{5 * s, false, allow(2, 1, 1*s)},
		}},
		{"sliding window 2 per second", LimiterConfig{Kind: LimitSlidingWindow, Limit: 2, Window: s}, []limiterStep{
			{0, true, allow(2, 2, 0)},
			{0, false, allow(2, 1, 1*s)},
			{300 * ms, false, allow(2, 0, 1*s)},
			{600 * ms, false, deny(2, 0, 700*ms, 400*ms)},
			{600 * ms, true, deny(2, 0, 700*ms, 400*ms)},
			{1000*ms - 1, false, deny(2, 0, 300*ms+1, 1)},
			{1000 * ms, true, allow(2, 1, 300*ms)},
			{1000 * ms, false, allow(2, 0, 1*s)},
			{1200 * ms, false, deny(2, 0, 800*ms, 100*ms)},
			{5 * s, true, allow(2, 2, 0)},
		}},
		{"time going backwards counts as the latest instant", LimiterConfig{Kind: LimitSlidingWindow, Limit: 1, Window: s}, []limiterStep{
			{10 * s, false, allow(1, 0, 1*s)},
			{0, false, deny(1, 0, 1*s, 1*s)},
		}},
		{"fixed window ignores an earlier instant", LimiterConfig{Kind: LimitFixedWindow, Limit: 1, Window: s}, []limiterStep{
			{1500 * ms, false, allow(1, 0, 500*ms)},
			{0, false, deny(1, 0, 500*ms, 500*ms)},
		}},
		{"token bucket ignores an earlier instant", LimiterConfig{Kind: LimitTokenBucket, Rate: 1, Burst: 1}, []limiterStep{
			{10 * s, false, allow(1, 0, 1*s)},
			{0, false, deny(1, 0, 1*s, 1*s)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runLimiterSteps(t, tt.cfg, tt.steps) })
	}
}

func TestDecisionRetryAfterSeconds(t *testing.T) {
	tests := []struct {
		d    Decision
		want int
	}{
		{Decision{Allowed: true}, 0},
		{Decision{RetryAfter: 0}, 1}, // denied: never tell a client "0"
		{Decision{RetryAfter: 1}, 1},
		{Decision{RetryAfter: s}, 1},
		{Decision{RetryAfter: s + 1}, 2},
		{Decision{RetryAfter: 59*s + 999*ms}, 60},
		{Decision{RetryAfter: maxDuration}, int(maxDuration/s) + 1},
	}
	for _, tt := range tests {
		if got := tt.d.RetryAfterSeconds(); got != tt.want {
			t.Errorf("%+v.RetryAfterSeconds() = %d, want %d", tt.d, got, tt.want)
		}
	}
}

func TestLimiterConfigValidate(t *testing.T) {
	tests := []struct {
		c    LimiterConfig
		want string
	}{
		{LimiterConfig{}, ""},
		{LimiterConfig{Kind: LimitTokenBucket, Rate: 0.5, Burst: 1}, ""},
		{LimiterConfig{Kind: LimitTokenBucket, Rate: 0, Burst: 1}, "core: limiter rate 0: must be between 0.001 and 1000000"},
		{LimiterConfig{Kind: LimitTokenBucket, Rate: 1, Burst: 0}, "core: limiter burst 0: must be between 1 and 1000000"},
		{LimiterConfig{Kind: LimitFixedWindow, Limit: 1000, Window: time.Minute}, ""},
		{LimiterConfig{Kind: LimitSlidingWindow, Limit: 1001, Window: time.Minute}, "core: limiter limit 1001: must be between 1 and 1000"},
		{LimiterConfig{Kind: LimitSlidingWindow, Limit: 10, Window: 0}, "core: limiter window 0s: must be between 1ms and 24h"},
		{LimiterConfig{Kind: 9}, "core: limiter kind 9: must be between 0 (none) and 3 (sliding-window)"},
	}
	for _, tt := range tests {
		wantErr(t, tt.c.Validate(), tt.want)
	}
}

func TestNewLimiterPanicsOnInvalidConfig(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	NewLimiter(LimiterConfig{Kind: LimitFixedWindow}, t0)
}

// The kinds' names are written once (limiterKindNames): the errors list
// them from there, as the strategies' do, where two hand-written lists
// ("must be between 0 and 3", "must be one of none, ...") waited to miss
// a kind added.
func TestLimiterKindNames(t *testing.T) {
	for i, name := range limiterKindNames {
		k := LimiterKind(i)
		got, err := ParseLimiterKind(name)
		if err != nil || got != k || k.String() != name {
			t.Errorf("ParseLimiterKind(%q) = %v, %v; want %d", name, got, err, i)
		}
	}
	wantErr(t, func() error { _, err := ParseLimiterKind("leaky"); return err }(), `core: limiter kind "leaky": must be one of none, token-bucket, fixed-window, sliding-window`)
	last := limiterKindNames[len(limiterKindNames)-1]
	err := LimiterConfig{Kind: LimiterKind(len(limiterKindNames))}.Validate()
	wantErr(t, err, fmt.Sprintf("must be between 0 (none) and %d (%s)", len(limiterKindNames)-1, last))
}

// randomTimes returns n non-decreasing instants with gaps drawn to hit
// bursts (many at one instant), near-boundary gaps and long pauses.
func randomTimes(r *rand.Rand, n int, scale time.Duration) []time.Time {
	ts := make([]time.Time, n)
	now := t0
	for i := range ts {
		switch r.IntN(4) {
		case 0: // same instant
		case 1:
			now = now.Add(time.Duration(r.Int64N(int64(scale) / 10)))
		case 2:
			now = now.Add(time.Duration(r.Int64N(int64(scale))))
		case 3:
			now = now.Add(time.Duration(r.Int64N(3)) * scale / 2)
		}
		ts[i] = now
	}
	return ts
}

// TestLimiterProperties checks, over long random sequences, that no limiter
// allows more than its limit, that RetryAfter is exact (denied one
// nanosecond earlier, allowed at it) and that Peek changes nothing.
func TestLimiterProperties(t *testing.T) {
	configs := []LimiterConfig{
		{Kind: LimitTokenBucket, Rate: 3, Burst: 5},
		{Kind: LimitTokenBucket, Rate: 0.7, Burst: 1},
		{Kind: LimitTokenBucket, Rate: 1000, Burst: 20},
		{Kind: LimitFixedWindow, Limit: 5, Window: s},
		{Kind: LimitFixedWindow, Limit: 1, Window: 333 * ms},
		{Kind: LimitSlidingWindow, Limit: 5, Window: s},
		{Kind: LimitSlidingWindow, Limit: 1, Window: 7 * ms},
		{Kind: LimitSlidingWindow, Limit: 100, Window: 10 * s},
	}
	for ci, c := range configs {
		t.Run(c.Kind.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 1))
			// Mean gap about half the sustained interval: the limit bites.
			scale := 2 * c.Window / time.Duration(max(c.Limit, 1))
			if c.Kind == LimitTokenBucket {
				scale = time.Duration(2 * float64(s) / c.Rate)
			}
			times := randomTimes(r, 3000, scale)
			l := NewLimiter(c, t0)
			twin := NewLimiter(c, t0) // never peeked
			var allowed []time.Time
			for _, now := range times {
				if r.IntN(3) == 0 {
					l.Peek(now.Add(time.Duration(r.Int64N(int64(scale)))))
				}
				d := l.Decide(now)
				if d2 := twin.Decide(now); d2 != d {
					t.Fatalf("at %v: peeked limiter decided %+v, twin %+v", now.Sub(t0), d, d2)
				}
				if d.Remaining < 0 || d.Remaining > d.Limit || d.Reset < 0 || d.RetryAfter < 0 {
					t.Fatalf("at %v: out-of-range decision %+v", now.Sub(t0), d)
				}
				if d.Allowed {
					allowed = append(allowed, now)
					if d.RetryAfter != 0 {
						t.Fatalf("allowed with RetryAfter %v", d.RetryAfter)
					}
					continue
				}
				if d.RetryAfter <= 0 {
					t.Fatalf("at %v: denied with RetryAfter %v", now.Sub(t0), d.RetryAfter)
				}
				if p := l.Peek(now.Add(d.RetryAfter)); !p.Allowed {
					t.Fatalf("at %v: denied, RetryAfter %v, but still denied then: %+v", now.Sub(t0), d.RetryAfter, p)
				}
				if p := l.Peek(now.Add(d.RetryAfter - 1)); p.Allowed {
					t.Fatalf("at %v: RetryAfter %v not exact: allowed 1ns earlier", now.Sub(t0), d.RetryAfter)
				}
			}
			if len(allowed) < 10 || len(allowed) == len(times) {
				t.Fatalf("sequence not exercising the limit: %d of %d allowed", len(allowed), len(times))
			}
			checkAllowedTimes(t, c, allowed)
		})
	}
}

// checkAllowedTimes checks the limit each algorithm promises.
func checkAllowedTimes(t *testing.T, c LimiterConfig, a []time.Time) {
	t.Helper()
	switch c.Kind {
	case LimitSlidingWindow: // any window [x, x+Window) holds at most Limit
		for i := c.Limit; i < len(a); i++ {
			if gap := a[i].Sub(a[i-c.Limit]); gap < c.Window {
				t.Fatalf("%d allowed within %v (< window %v)", c.Limit+1, gap, c.Window)
			}
		}
	case LimitFixedWindow: // each aligned window holds at most Limit
		counts := map[int64]int{}
		for _, x := range a {
			k := int64(x.Sub(t0) / c.Window)
			if counts[k]++; counts[k] > c.Limit {
				t.Fatalf("window %d allowed %d > %d", k, counts[k], c.Limit)
			}
		}
	case LimitTokenBucket: // any [a_i, a_j] holds at most Burst + Rate·(a_j - a_i)
		checkBucketBound(t, a, float64(c.Burst), c.Rate)
	}
}

// checkBucketBound checks that any [a_i, a_j] holds at most
// capacity + rate·(a_j - a_i) grants (the 1e-9 absorbs float error in
// computing the bound itself; the bucket's arithmetic is exact).
func checkBucketBound(t *testing.T, a []time.Time, capacity, rate float64) {
	t.Helper()
	const slack = 1e-9
	for i := range a {
		for j := i; j < len(a); j++ {
			n := float64(j - i + 1)
			if bound := capacity + rate*a[j].Sub(a[i]).Seconds(); n > bound+slack {
				t.Fatalf("%v granted in [%v, %v], bound %v", n, a[i].Sub(t0), a[j].Sub(t0), bound)
			}
		}
	}
}

func TestLimiterDecideDoesNotAllocate(t *testing.T) {
	for _, c := range []LimiterConfig{
		{Kind: LimitTokenBucket, Rate: 10, Burst: 5},
		{Kind: LimitFixedWindow, Limit: 5, Window: s},
		{Kind: LimitSlidingWindow, Limit: 5, Window: s},
	} {
		l := NewLimiter(c, t0)
		now := t0
		allocs := testing.AllocsPerRun(1000, func() {
			now = now.Add(37 * ms)
			l.Decide(now)
			l.Peek(now)
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocs per Decide+Peek, want 0", c.Kind, allocs)
		}
	}
}

// Policy states the limit as RateLimit-Policy does: whole-second windows,
// and a quota scaled to the second for windows under one, rounded down so
// the stated rate never exceeds the real one.
func TestLimiterConfigPolicy(t *testing.T) {
	for _, c := range []struct {
		name    string
		cfg     LimiterConfig
		q       int
		w       int64
		realRPS float64 // the limiter's own rate, ≥ q/w
	}{
		{"fixed 10 per second", LimiterConfig{Kind: LimitFixedWindow, Limit: 10, Window: time.Second}, 10, 1, 10},
		{"fixed 1 per 100 ms", LimiterConfig{Kind: LimitFixedWindow, Limit: 1, Window: 100 * time.Millisecond}, 10, 1, 10},
		{"sliding 3 per 700 ms", LimiterConfig{Kind: LimitSlidingWindow, Limit: 3, Window: 700 * time.Millisecond}, 4, 1, 3 / 0.7},
		{"sliding 10 per 1.5 s", LimiterConfig{Kind: LimitSlidingWindow, Limit: 10, Window: 1500 * time.Millisecond}, 10, 2, 10 / 1.5},
		{"fixed 100 per minute", LimiterConfig{Kind: LimitFixedWindow, Limit: 100, Window: time.Minute}, 100, 60, 100.0 / 60},
		{"bucket 10/s, burst 10", LimiterConfig{Kind: LimitTokenBucket, Rate: 10, Burst: 10}, 10, 1, 10},
		{"bucket 10/s, burst 2: refilled in 200 ms", LimiterConfig{Kind: LimitTokenBucket, Rate: 10, Burst: 2}, 10, 1, 10},
		{"bucket 2/s, burst 10", LimiterConfig{Kind: LimitTokenBucket, Rate: 2, Burst: 10}, 10, 5, 2},
		{"bucket 0.001/s, burst 1", LimiterConfig{Kind: LimitTokenBucket, Rate: 0.001, Burst: 1}, 1, 1000, 0.001},
		{"bucket 1e6/s, burst 1: refilled in 1 µs", LimiterConfig{Kind: LimitTokenBucket, Rate: 1e6, Burst: 1}, 1_000_000, 1, 1e6},
		// Found by a review: the refill time rounded down to the
		// nanosecond stated more than the rate (q=1000000, q=614873).
		{"bucket 999999.5/s, burst 1", LimiterConfig{Kind: LimitTokenBucket, Rate: 999999.5, Burst: 1}, 999_999, 1, 999999.5},
		{"bucket 614872.69/s, burst 662", LimiterConfig{Kind: LimitTokenBucket, Rate: 614872.69, Burst: 662}, 614_872, 1, 614872.69},
		{"bucket 10.7/s, burst 3", LimiterConfig{Kind: LimitTokenBucket, Rate: 10.7, Burst: 3}, 10, 1, 10.7},
		{"bucket refilled in 2 s and a nanosecond", LimiterConfig{Kind: LimitTokenBucket, Rate: 2 / 2.000000001, Burst: 2}, 2, 3, 2 / 2.000000001},
		{"none", LimiterConfig{Kind: LimitNone}, 0, 0, 0},
	} {
		q, w := c.cfg.Policy()
		if q != c.q || w != c.w {
			t.Errorf("%s: q=%d;w=%d, want q=%d;w=%d", c.name, q, w, c.q, c.w)
		}
		if w > 0 && float64(q)/float64(w) > c.realRPS*(1+1e-9) {
			t.Errorf("%s: states %d per %d s, more than the real %.4g/s", c.name, q, w, c.realRPS)
		}
	}
	// Random buckets over the whole range (8% stated more, before).
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		c := LimiterConfig{Kind: LimitTokenBucket, Burst: LimiterBurstRange.Min + r.IntN(LimiterBurstRange.Max-LimiterBurstRange.Min+1),
			Rate: math.Exp(math.Log(LimiterRateRange.Min) + r.Float64()*(math.Log(LimiterRateRange.Max)-math.Log(LimiterRateRange.Min)))}
		if q, w := c.Policy(); float64(q)/float64(w) > c.Rate*(1+1e-9) {
			t.Fatalf("%+v: states %d per %d s, more than its rate", c, q, w)
		}
	}
}
