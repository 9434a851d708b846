package core

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestLimiterConfigScaled(t *testing.T) {
	bucket := func(rate float64, burst int) LimiterConfig {
		return LimiterConfig{Kind: LimitTokenBucket, Rate: rate, Burst: burst}
	}
	fixed := func(limit int) LimiterConfig { return LimiterConfig{Kind: LimitFixedWindow, Limit: limit, Window: s} }
	sliding := func(limit int) LimiterConfig {
		return LimiterConfig{Kind: LimitSlidingWindow, Limit: limit, Window: 3 * s}
	}
	tests := []struct {
		name string
		c    LimiterConfig
		f    float64
		want LimiterConfig
	}{
		{"bucket halved", bucket(10, 10), 0.5, bucket(5, 5)},
		{"burst rounds half away from zero", bucket(3, 3), 0.5, bucket(1.5, 2)},
		{"burst rounds down below half", bucket(10, 7), 0.3, bucket(3, 2)},
		{"burst at least 1", bucket(10, 10), 0.05, bucket(0.5, 1)},
		{"rate clamped to the minimum", bucket(0.001, 1), 0.5, bucket(0.001, 1)},
		{"rate and burst clamped to the maximum", bucket(1e6, 1e6), 2, bucket(1e6, 1e6)},
		{"factor 1 changes nothing", bucket(2.5, 7), 1, bucket(2.5, 7)},
		{"factor 0 gives the smallest limit", bucket(10, 10), 0, bucket(0.001, 1)},
		{"negative factor gives the smallest limit", fixed(10), -3, fixed(1)},
		{"infinite factor gives the largest limit", sliding(10), math.Inf(1), sliding(1000)},
		{"NaN changes nothing", bucket(10, 10), math.NaN(), bucket(10, 10)},
		{"fixed window halved, same window", fixed(10), 0.5, fixed(5)},
		{"fixed window rounds", fixed(5), 0.5, fixed(3)},
		{"fixed window at least 1", fixed(1), 0.05, fixed(1)},
		{"sliding window halved, same window", sliding(1000), 0.5, sliding(500)},
		{"sliding window clamped to 1000", sliding(1000), 1.5, sliding(1000)},
		{"none unchanged", LimiterConfig{}, 0.5, LimiterConfig{}},
		{"unused fields untouched", LimiterConfig{Kind: LimitFixedWindow, Rate: 8, Burst: 8, Limit: 4, Window: s}, 0.5,
			LimiterConfig{Kind: LimitFixedWindow, Rate: 8, Burst: 8, Limit: 2, Window: s}},
	}
	for _, tt := range tests {
		got := tt.c.Scaled(tt.f)
		if got != tt.want {
			t.Errorf("%s: %+v.Scaled(%v) = %+v, want %+v", tt.name, tt.c, tt.f, got, tt.want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: the result does not validate: %v", tt.name, err)
		}
	}
}

// reconfigureStep is a limiterStep that may reconfigure the limiter first
// (to != nil: Reconfigure at at, then the decision).
type reconfigureStep struct {
	to *LimiterConfig
	limiterStep
}

func TestLimiterReconfigure(t *testing.T) {
	allow := func(limit, rem int, reset time.Duration) Decision {
		return Decision{Allowed: true, Limit: limit, Remaining: rem, Reset: reset}
	}
	deny := func(limit, rem int, reset, retry time.Duration) Decision {
		return Decision{Limit: limit, Remaining: rem, Reset: reset, RetryAfter: retry}
	}
	bucket := func(rate float64, burst int) *LimiterConfig {
		return &LimiterConfig{Kind: LimitTokenBucket, Rate: rate, Burst: burst}
	}
	window := func(k LimiterKind, limit int, w time.Duration) *LimiterConfig {
		return &LimiterConfig{Kind: k, Limit: limit, Window: w}
	}
	decide := func(at time.Duration, want Decision) reconfigureStep {
		return reconfigureStep{nil, limiterStep{at, false, want}}
	}
	to := func(c *LimiterConfig, at time.Duration, peekWant Decision) reconfigureStep {
		return reconfigureStep{c, limiterStep{at, true, peekWant}}
	}
	tests := []struct {
		name  string
		cfg   *LimiterConfig
		steps []reconfigureStep
	}{
		{"bucket halved: its tokens kept, refilled at the new rate; and back", bucket(10, 10), []reconfigureStep{
			decide(0, allow(10, 9, 100*ms)),
			decide(0, allow(10, 8, 200*ms)),
			decide(0, allow(10, 7, 300*ms)),
			decide(0, allow(10, 6, 400*ms)),
			decide(0, allow(10, 5, 500*ms)),
			decide(0, allow(10, 4, 600*ms)),
			to(bucket(5, 5), 0, allow(5, 4, 200*ms)), // 4 tokens left, not a fresh 5
			decide(0, allow(5, 3, 400*ms)),
			decide(0, allow(5, 2, 600*ms)),
			decide(0, allow(5, 1, 800*ms)),
			decide(0, allow(5, 0, 1000*ms)),
			decide(0, deny(5, 0, 1000*ms, 200*ms)),
			decide(200*ms, allow(5, 0, 1000*ms)),                   // one token per 200 ms
			to(bucket(10, 10), 300*ms, deny(10, 0, 950*ms, 50*ms)), // half a token: 50 ms at 10/s
			decide(350*ms, allow(10, 0, 1*s)),
		}},
		{"bucket tokens kept, capped at the new burst", bucket(1, 10), []reconfigureStep{
			to(bucket(1, 4), 0, allow(4, 4, 0)),
			decide(0, allow(4, 3, 1*s)),
			to(bucket(1, 10), 0, allow(10, 3, 7*s)), // scaling back up adds nothing
		}},
		{"bucket fractional tokens carried to the new interval", bucket(2, 2), []reconfigureStep{
			decide(0, allow(2, 1, 500*ms)),
			decide(0, allow(2, 0, 1000*ms)),
			to(bucket(1, 2), 250*ms, deny(2, 0, 1500*ms, 500*ms)), // 0.5 token at 1/s: the next one in 500 ms
			decide(749*ms, deny(2, 0, 1001*ms, 1*ms)),
			decide(750*ms, allow(2, 0, 2*s)),
		}},
		{"bucket rate raised takes effect at once", bucket(1, 1), []reconfigureStep{
			decide(0, allow(1, 0, 1*s)),
			to(bucket(10, 1), 0, deny(1, 0, 100*ms, 100*ms)),
			decide(100*ms, allow(1, 0, 100*ms)),
		}},
		{"bucket reconfigured to the same limit: nothing changes", bucket(2, 2), []reconfigureStep{
			decide(0, allow(2, 1, 500*ms)),
			to(bucket(2, 2), 100*ms, allow(2, 1, 400*ms)),
		}},
		{"fixed window keeps its count: over the new limit, rejections until the window ends", window(LimitFixedWindow, 10, s), []reconfigureStep{
			decide(0, allow(10, 9, 1*s)),
			decide(0, allow(10, 8, 1*s)),
			decide(0, allow(10, 7, 1*s)),
			decide(0, allow(10, 6, 1*s)),
			decide(100*ms, allow(10, 5, 900*ms)),
			decide(100*ms, allow(10, 4, 900*ms)),
			to(window(LimitFixedWindow, 5, s), 200*ms, deny(5, 0, 800*ms, 800*ms)),
			decide(999*ms, deny(5, 0, 1*ms, 1*ms)),
			decide(1000*ms, allow(5, 4, 1*s)), // same windows: aligned to the start
			to(window(LimitFixedWindow, 10, s), 1500*ms, allow(10, 9, 500*ms)),
			decide(1500*ms, allow(10, 8, 500*ms)),
		}},
		{"sliding window keeps the latest admissions", window(LimitSlidingWindow, 4, s), []reconfigureStep{
			decide(0, allow(4, 3, 1*s)),
			decide(100*ms, allow(4, 2, 1*s)),
			decide(200*ms, allow(4, 1, 1*s)),
			decide(300*ms, allow(4, 0, 1*s)),
			to(window(LimitSlidingWindow, 2, s), 400*ms, deny(2, 0, 900*ms, 800*ms)), // 200 and 300 kept: 200 leaves at 1.2 s
			decide(1199*ms, deny(2, 0, 101*ms, 1*ms)),
			decide(1200*ms, allow(2, 0, 1*s)),
			to(window(LimitSlidingWindow, 4, s), 1250*ms, allow(4, 2, 950*ms)), // 300 and 1200 kept
			decide(1250*ms, allow(4, 1, 1*s)),
			decide(1250*ms, allow(4, 0, 1*s)),
			decide(1250*ms, deny(4, 0, 1*s, 50*ms)), // 300 leaves at 1.3 s
		}},
		{"sliding window grown while not full", window(LimitSlidingWindow, 3, s), []reconfigureStep{
			decide(0, allow(3, 2, 1*s)),
			to(window(LimitSlidingWindow, 5, s), 0, allow(5, 4, 1*s)),
			to(window(LimitSlidingWindow, 1, s), 500*ms, deny(1, 0, 500*ms, 500*ms)),
		}},
		{"another kind carries the share in use, back when the old limiter gives it back", window(LimitFixedWindow, 1, s), []reconfigureStep{
			decide(0, allow(1, 0, 1*s)),
			to(window(LimitSlidingWindow, 1, s), 300*ms, deny(1, 0, 700*ms, 700*ms)), // back at 1 s, the fixed window's end
			to(bucket(1, 1), 400*ms, deny(1, 0, 600*ms, 600*ms)),
			to(&LimiterConfig{}, 500*ms, Decision{Allowed: true}),
			to(window(LimitFixedWindow, 1, s), 600*ms, allow(1, 1, 400*ms)), // nothing in use; windows from the start
		}},
		{"another window length: the admission back when the old window ends", window(LimitFixedWindow, 1, s), []reconfigureStep{
			decide(0, allow(1, 0, 1*s)),
			to(window(LimitFixedWindow, 1, 2*s), 500*ms, deny(1, 0, 1500*ms, 500*ms)), // windows of 2 s from the start
			decide(1*s, allow(1, 0, 1*s)),
			decide(2400*ms, allow(1, 0, 1600*ms)),
		}},
		{"sliding windows of other lengths: each part of the share back when it would have been", window(LimitSlidingWindow, 2, s), []reconfigureStep{
			decide(0, allow(2, 1, 1*s)),
			decide(600*ms, allow(2, 0, 1*s)),
			// 2 of 2 in use: 4 of 4, two back at 1 s (when 1 of 2 would be), two at 1.6 s.
			to(window(LimitSlidingWindow, 4, 2*s), 700*ms, deny(4, 0, 900*ms, 300*ms)),
			decide(1*s, allow(4, 1, 2*s)),
			decide(1*s, allow(4, 0, 2*s)),
			decide(1*s, deny(4, 0, 2*s, 600*ms)),
		}},
		{"a bucket's share into a fixed window: ⌈share×Limit⌉, back as the bucket refills", bucket(1, 4), []reconfigureStep{
			decide(0, allow(4, 3, 1*s)),
			decide(0, allow(4, 2, 2*s)),
			decide(0, allow(4, 1, 3*s)),
			// 2.5 of 4 tokens missing: 2 of 2, one back at 1 s (half missing), one at 3 s (full).
			to(window(LimitFixedWindow, 2, 10*s), 500*ms, deny(2, 0, 9500*ms, 500*ms)),
			decide(1*s, allow(2, 0, 9*s)),
			decide(2*s, deny(2, 0, 8*s, 1*s)),
			decide(3*s, allow(2, 0, 7*s)),
		}},
		{"a fixed window's share into a bucket: exactly, back at the window's end", window(LimitFixedWindow, 4, s), []reconfigureStep{
			decide(0, allow(4, 3, 1*s)),
			decide(0, allow(4, 2, 1*s)),
			decide(0, allow(4, 1, 1*s)),
			to(bucket(2, 10), 200*ms, allow(10, 2, 800*ms)), // 7.5 of 10 tokens carried until 1 s
			decide(200*ms, allow(10, 1, 800*ms)),
			decide(200*ms, allow(10, 0, 1*s)),
			decide(200*ms, deny(10, 0, 1*s, 250*ms)), // 2 own + 7.5 carried; half a token more by 450 ms
			decide(1*s, allow(10, 8, 700*ms)),        // the carried share back; 1.4 own missing
		}},
		{"an earlier instant counts as the latest", bucket(1, 1), []reconfigureStep{
			decide(10*s, allow(1, 0, 1*s)),
			to(bucket(2, 1), 0, deny(1, 0, 500*ms, 500*ms)),
			decide(10*s+500*ms, allow(1, 0, 500*ms)),
		}},
		{"an earlier instant carries at the latest", window(LimitFixedWindow, 1, s), []reconfigureStep{
			decide(10*s, allow(1, 0, 1*s)),
			to(window(LimitFixedWindow, 1, 2*s), 0, deny(1, 0, 2*s, 1*s)), // back at 11 s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLimiter(*tt.cfg, t0)
			for i, st := range tt.steps {
				if st.to != nil {
					l.Reconfigure(*st.to, at(st.at))
					if l.Config() != *st.to {
						t.Fatalf("step %d: Config() = %+v after Reconfigure(%+v)", i, l.Config(), *st.to)
					}
				}
				var got Decision
				if st.peek {
					got = l.Peek(at(st.at))
				} else {
					got = l.Decide(at(st.at))
				}
				if got != st.want {
					t.Errorf("step %d at %v (reconfigured %v, peek %v): got %+v, want %+v", i, st.at, st.to != nil, st.peek, got, st.want)
				}
			}
		})
	}
}

func TestLimiterReconfigurePanicsOnInvalidConfig(t *testing.T) {
	l := NewLimiter(LimiterConfig{Kind: LimitTokenBucket, Rate: 1, Burst: 1}, t0)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	l.Reconfigure(LimiterConfig{Kind: LimitTokenBucket, Rate: 1}, t0)
}

// admission is an allowed request in TestLimiterReconfigureProperties.
type admission struct {
	at  time.Time
	cfg LimiterConfig // in force
	seg int           // reconfigurations before it
}

// TestLimiterReconfigureProperties runs long random sequences in which the
// limit is scaled up and down (LimiterConfig.Scaled, as the mock's switch
// does) between decisions, and checks that each reconfiguration carries the
// state over (Remaining right after it is what was left, within the new
// limit), that every admission respects the limit in force when it was made,
// counting the admissions made before, and that RetryAfter stays exact.
func TestLimiterReconfigureProperties(t *testing.T) {
	configs := []LimiterConfig{
		{Kind: LimitTokenBucket, Rate: 10, Burst: 10},
		{Kind: LimitTokenBucket, Rate: 0.7, Burst: 3},
		{Kind: LimitTokenBucket, Rate: 1000, Burst: 40},
		{Kind: LimitFixedWindow, Limit: 10, Window: s},
		{Kind: LimitFixedWindow, Limit: 3, Window: 333 * ms},
		{Kind: LimitSlidingWindow, Limit: 10, Window: s},
		{Kind: LimitSlidingWindow, Limit: 2, Window: 7 * ms},
		{Kind: LimitSlidingWindow, Limit: 100, Window: 10 * s},
	}
	scales := []float64{1, 0.5, 0.05, 0.3, 0.75, 1}
	for ci, base := range configs {
		t.Run(base.Kind.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 2))
			scale := 2 * base.Window / time.Duration(max(base.Limit, 1))
			if base.Kind == LimitTokenBucket {
				scale = time.Duration(2 * float64(s) / base.Rate)
			}
			times := randomTimes(r, 4000, scale)
			l := NewLimiter(base, t0)
			cfg := base
			var (
				allowed []admission
				segs    []time.Time // when each reconfiguration happened
				denied  int
			)
			for _, now := range times {
				if r.IntN(25) == 0 {
					next := base.Scaled(scales[r.IntN(len(scales))])
					before := l.Peek(now)
					l.Reconfigure(next, now)
					after := l.Peek(now)
					if want := carried(next, before, allowed, now); after.Remaining != want {
						t.Fatalf("at %v: %+v → %+v: Remaining %d before, %d after, want %d", now.Sub(t0), cfg, next, before.Remaining, after.Remaining, want)
					}
					cfg = next
					segs = append(segs, now)
				}
				d := l.Decide(now)
				if d.Limit != max(cfg.Burst, cfg.Limit) || d.Remaining < 0 || d.Remaining > d.Limit || d.Reset < 0 || d.RetryAfter < 0 {
					t.Fatalf("at %v under %+v: out-of-range decision %+v", now.Sub(t0), cfg, d)
				}
				if d.Allowed {
					allowed = append(allowed, admission{now, cfg, len(segs)})
					continue
				}
				denied++
				if p := l.Peek(now.Add(d.RetryAfter)); !p.Allowed {
					t.Fatalf("at %v: denied, RetryAfter %v, but still denied then: %+v", now.Sub(t0), d.RetryAfter, p)
				}
				if p := l.Peek(now.Add(d.RetryAfter - 1)); p.Allowed {
					t.Fatalf("at %v: RetryAfter %v not exact: allowed 1ns earlier", now.Sub(t0), d.RetryAfter)
				}
			}
			if len(segs) < 50 || len(allowed) < 100 || denied < 100 {
				t.Fatalf("sequence not exercising the limits: %d reconfigurations, %d allowed, %d denied", len(segs), len(allowed), denied)
			}
			for k, a := range allowed {
				switch c := a.cfg; c.Kind {
				case LimitSlidingWindow: // with the admissions before it, at most Limit in any window
					if k >= c.Limit {
						if gap := a.at.Sub(allowed[k-c.Limit].at); gap < c.Window {
							t.Fatalf("admission %d at %v: %d allowed within %v (< window %v) under limit %d", k, a.at.Sub(t0), c.Limit+1, gap, c.Window, c.Limit)
						}
					}
				case LimitFixedWindow: // the window's earlier admissions count
					w := a.at.Sub(t0) / c.Window
					n := 0
					for j := k; j >= 0 && allowed[j].at.Sub(t0)/c.Window == w; j-- {
						n++
					}
					if n > c.Limit {
						t.Fatalf("admission %d at %v: %d in its window under limit %d", k, a.at.Sub(t0), n, c.Limit)
					}
				case LimitTokenBucket: // since the reconfiguration: at most Burst + Rate·t
					for j := k; j >= 0 && allowed[j].seg == a.seg; j-- {
						n := float64(k - j + 1)
						if bound := float64(c.Burst) + c.Rate*a.at.Sub(allowed[j].at).Seconds(); n > bound+1e-9 {
							t.Fatalf("%v granted in [%v, %v] under %+v, bound %v", n, allowed[j].at.Sub(t0), a.at.Sub(t0), c, bound)
						}
					}
				}
			}
		})
	}
}

// carried is the Remaining a Peek at now shows right after reconfiguring
// to next, given the Peek right before and the admissions so far.
func carried(next LimiterConfig, before Decision, allowed []admission, now time.Time) int {
	n := 0 // admissions in the current window
	for i := len(allowed) - 1; i >= 0; i-- {
		a := allowed[i].at
		if next.Kind == LimitFixedWindow && a.Sub(t0)/next.Window != now.Sub(t0)/next.Window ||
			next.Kind == LimitSlidingWindow && now.Sub(a) >= next.Window {
			break
		}
		n++
	}
	switch next.Kind {
	case LimitTokenBucket: // whole tokens kept, capped
		return min(before.Remaining, next.Burst)
	case LimitFixedWindow, LimitSlidingWindow: // the admissions kept
		return max(next.Limit-n, 0)
	}
	return 0
}

func TestLimiterReconfigureDoesNotAllocate(t *testing.T) {
	for _, tt := range []struct{ a, b LimiterConfig }{
		{LimiterConfig{Kind: LimitTokenBucket, Rate: 10, Burst: 10}, LimiterConfig{Kind: LimitTokenBucket, Rate: 5, Burst: 5}},
		{LimiterConfig{Kind: LimitFixedWindow, Limit: 10, Window: s}, LimiterConfig{Kind: LimitFixedWindow, Limit: 5, Window: s}},
		{LimiterConfig{Kind: LimitSlidingWindow, Limit: 10, Window: s}, LimiterConfig{Kind: LimitSlidingWindow, Limit: 10, Window: 2 * s}},
		{LimiterConfig{Kind: LimitFixedWindow, Limit: 10, Window: s}, LimiterConfig{Kind: LimitTokenBucket, Rate: 5, Burst: 5}},
		{LimiterConfig{Kind: LimitFixedWindow, Limit: 10, Window: s}, LimiterConfig{Kind: LimitFixedWindow, Limit: 10, Window: 2 * s}},
		{LimiterConfig{Kind: LimitSlidingWindow, Limit: 10, Window: s}, LimiterConfig{Kind: LimitTokenBucket, Rate: 5, Burst: 5}},
		{LimiterConfig{Kind: LimitSlidingWindow, Limit: 10, Window: s}, LimiterConfig{Kind: LimitFixedWindow, Limit: 20, Window: 2 * s}},
	} {
		l := NewLimiter(tt.a, t0)
		now := t0
		cfgs := [2]LimiterConfig{tt.b, tt.a}
		i := 0
		allocs := testing.AllocsPerRun(1000, func() {
			now = now.Add(37 * ms)
			l.Decide(now)
			l.Reconfigure(cfgs[i%2], now)
			i++
		})
		if allocs != 0 {
			t.Errorf("%+v ↔ %+v: %v allocs per Decide+Reconfigure, want 0", tt.a, tt.b, allocs)
		}
	}
}

// A sliding window's ring grows to a larger Limit and keeps its size for a
// smaller one (the times beyond the new Limit make the way back exact). A
// change of kind or window length builds a ring from the one the limiter
// had, which it keeps as a spare for the next change: Instants counts both.
func TestLimiterReconfigureRing(t *testing.T) {
	sliding := func(n int, w time.Duration) LimiterConfig {
		return LimiterConfig{Kind: LimitSlidingWindow, Limit: n, Window: w}
	}
	fixed := LimiterConfig{Kind: LimitFixedWindow, Limit: 5, Window: s}
	l := NewLimiter(sliding(100, s), t0)
	for _, tt := range []struct {
		to             LimiterConfig
		ring, instants int
	}{
		{sliding(50, s), 100, 100},
		{sliding(1, s), 100, 100},
		{sliding(1000, s), 1000, 1000},
		{sliding(100, s), 1000, 1000},
		{sliding(100, 2*s), 100, 1100},     // a ring of its Limit; the old one spare
		{fixed, 1000, 1100},                // the spare, long enough to carry 5
		{sliding(100, 2*s), 100, 1100},     // the spare again
		{LimiterConfig{}, 1000, 1100},      // kept for the next change
		{sliding(2000/2, 3*s), 1000, 1100}, // long enough
	} {
		l.Decide(t0) // something in the ring to carry
		l.Reconfigure(tt.to, t0)
		if len(l.ring) != tt.ring || l.Instants() != tt.instants {
			t.Errorf("%+v: ring %d, instants %d; want %d and %d", tt.to, len(l.ring), l.Instants(), tt.ring, tt.instants)
		}
	}
}
