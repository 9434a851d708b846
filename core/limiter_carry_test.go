package core

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// carryConfigs are the configurations the carry-over tests change between:
// every kind, windows of several lengths, buckets that refill in a fraction
// of a second or in minutes, limits of one and of a thousand.
var carryConfigs = []LimiterConfig{
	{Kind: LimitTokenBucket, Rate: 10, Burst: 10},
	{Kind: LimitTokenBucket, Rate: 1, Burst: 10},
	{Kind: LimitTokenBucket, Rate: 3, Burst: 30},
	{Kind: LimitTokenBucket, Rate: 10, Burst: 1000},
	{Kind: LimitTokenBucket, Rate: 0.5, Burst: 2},
	{Kind: LimitTokenBucket, Rate: 10, Burst: 1},
	{Kind: LimitFixedWindow, Limit: 10, Window: s},
	{Kind: LimitFixedWindow, Limit: 3, Window: s},
	{Kind: LimitFixedWindow, Limit: 7, Window: 700 * ms},
	{Kind: LimitFixedWindow, Limit: 50, Window: 10 * s},
	{Kind: LimitFixedWindow, Limit: 1, Window: 100 * ms},
	{Kind: LimitSlidingWindow, Limit: 10, Window: s},
	{Kind: LimitSlidingWindow, Limit: 10, Window: 2 * s},
	{Kind: LimitSlidingWindow, Limit: 3, Window: s},
	{Kind: LimitSlidingWindow, Limit: 100, Window: s},
	{Kind: LimitSlidingWindow, Limit: 7, Window: 700 * ms},
	{Kind: LimitSlidingWindow, Limit: 1000, Window: time.Minute},
	{},
}

// carriesShare reports whether Reconfigure from a to b carries the share in
// use (carryShare) rather than the state itself.
func carriesShare(a, b LimiterConfig) bool {
	return a.Kind != b.Kind || b.Kind != LimitTokenBucket && b.Kind != LimitNone && a.Window != b.Window
}

// rate is what c lets through in the long run, per second (0: no limit).
func rate(c LimiterConfig) float64 {
	switch c.Kind {
	case LimitTokenBucket:
		return c.Rate
	case LimitFixedWindow, LimitSlidingWindow:
		return float64(c.Limit) / c.Window.Seconds()
	}
	return 0
}

// clone is a copy of l that shares nothing with it.
func (l *Limiter) clone() *Limiter {
	c := *l
	c.ring = slices.Clone(l.ring)
	if l.carry != nil {
		c.carry = &carryState{per: l.carry.per, spare: slices.Clone(l.carry.spare)}
	}
	return &c
}

// ceilShare is ⌈used × quota / of⌉, computed apart from the code under test.
func ceilShare(used, quota, of int64) int64 {
	n := new(big.Int).Mul(big.NewInt(used), big.NewInt(quota))
	n.Add(n, big.NewInt(of-1))
	return n.Quo(n, big.NewInt(of)).Int64()
}

// TestLimiterCarryShare changes limiters with random histories (some of
// them holding a share carried from an earlier change) to another kind or
// window length, and checks against a copy left unchanged that, at every
// later instant, with nothing more admitted, the new limiter has
// ⌈old share × its quota⌉ of its quota in use — so a full limiter stays
// full, and each part of the share comes back exactly when the old limiter
// would have given it back — until it can hold nothing longer (a Window
// after the change for a sliding window, the end of its window for a fixed
// one, its refill from empty for a bucket), and nothing after. Then, going on with random decisions, that the
// new limiter's RetryAfter is exact and its Peek agrees with Decide.
func TestLimiterCarryShare(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, from := range carryConfigs {
		for _, to := range carryConfigs {
			if !carriesShare(from, to) {
				continue
			}
			t.Run(fmt.Sprintf("%v to %v", from, to), func(t *testing.T) {
				for run := range 20 {
					l, off := randomHistory(r, from, run%4 == 0)
					old := l.clone()
					l.Reconfigure(to, t0.Add(time.Duration(off)))
					checkCarried(t, l, old, to, off, r)
					checkDecisions(t, l, off, r)
				}
			})
		}
	}
}

// randomHistory is a limiter for c after random decisions (all at one
// instant when full, so that it is full), possibly after a change from a
// random other configuration, and the offset to change it at.
func randomHistory(r *rand.Rand, c LimiterConfig, full bool) (*Limiter, int64) {
	l := NewLimiter(c, t0)
	now := t0
	if r.IntN(2) == 0 {
		prev := carryConfigs[r.IntN(len(carryConfigs))]
		l = NewLimiter(prev, t0)
		for range r.IntN(30) {
			now = now.Add(time.Duration(r.Int64N(int64(300 * ms))))
			l.Decide(now)
		}
		l.Reconfigure(c, now)
	}
	for range r.IntN(40) {
		now = now.Add(time.Duration(r.Int64N(int64(200 * ms))))
		l.Decide(now)
	}
	if full && c.Kind != LimitNone {
		for l.Decide(now).Allowed {
		}
	} else {
		now = now.Add(time.Duration(r.Int64N(int64(time.Second))))
	}
	return l, int64(now.Sub(t0))
}

// checkCarried checks l, just changed to c at off, against old, a copy of it
// from before the change.
func checkCarried(t *testing.T, l, old *Limiter, c LimiterConfig, off int64, r *rand.Rand) {
	t.Helper()
	holds := int64(1<<63 - 1) // until when l can hold a share
	switch c.Kind {
	case LimitSlidingWindow:
		holds = off + int64(c.Window)
	case LimitFixedWindow:
		holds = (off/int64(c.Window) + 1) * int64(c.Window)
	case LimitTokenBucket: // its refill from empty: Burst tokens of ⌈1e9/Rate⌉ ns
		holds = off + int64(c.Burst)*int64(math.Ceil(1e9/c.Rate))
	}
	// The instants where the share changes, either side, and random ones.
	at := []int64{off, off + 1, holds - 1, holds}
	for i := range l.n {
		e := l.ring[l.at(i)]
		if c.Kind == LimitSlidingWindow {
			e += int64(c.Window)
		}
		at = append(at, e-1, e, e+1)
	}
	span := max(int64(old.Peek(t0.Add(time.Duration(off))).Reset), int64(c.Window)) + 1
	for range 20 {
		at = append(at, off+r.Int64N(span))
	}
	for _, x := range at {
		if x < off {
			continue
		}
		was, got := old.usage(x), l.usage(x)
		want := int64(0)
		if x < holds && c.Kind != LimitNone {
			want = ceilShare(was.used, got.quota, was.quota)
		}
		if got.used != want {
			t.Fatalf("%v after the change, from %+v: %d/%d in use, want %d (⌈%d/%d × %d⌉ until %v after, then 0; ring %v)",
				time.Duration(x-off), old.cfg, got.used, got.quota, want, was.used, was.quota, got.quota, time.Duration(holds-off), l.ring[:l.n])
		}
	}
}

// checkDecisions makes random decisions on l from off on and checks each:
// Peek then Decide agree, what they say is in range, and a rejection's
// RetryAfter is exact (allowed then, not a nanosecond before).
func checkDecisions(t *testing.T, l *Limiter, off int64, r *rand.Rand) {
	t.Helper()
	now := t0.Add(time.Duration(off))
	for range 40 {
		p, d := l.Peek(now), l.Decide(now)
		if p.Allowed != d.Allowed || p.RetryAfter != d.RetryAfter || d.Remaining < 0 || d.Remaining > d.Limit || d.Reset < 0 {
			t.Fatalf("%v after the change to %+v: Peek %+v, Decide %+v", now.Sub(t0)-time.Duration(off), l.cfg, p, d)
		}
		if !d.Allowed {
			if a := l.Peek(now.Add(d.RetryAfter)); !a.Allowed {
				t.Fatalf("%+v: denied with RetryAfter %v, still denied then: %+v", l.cfg, d.RetryAfter, a)
			}
			if b := l.Peek(now.Add(d.RetryAfter - 1)); b.Allowed {
				t.Fatalf("%+v: denied with RetryAfter %v, allowed a nanosecond before", l.cfg, d.RetryAfter)
			}
		}
		if r.IntN(3) == 0 {
			now = now.Add(time.Duration(r.Int64N(int64(400 * ms))))
		}
	}
}

// TestLimiterAlternationAdmitsLowDemand: clients that take turns on one
// limiter, each with its own configuration, at well under the lower of the
// two limits (40%), are admitted every time, however long they go on,
// whatever the two configurations. Carrying the share in use as admitted at
// every change instead kept such a limiter full for good. A limit of 1 is
// left out: it is all or nothing, so any share of the other's in use fills
// it.
func TestLimiterAlternationAdmitsLowDemand(t *testing.T) {
	for _, a := range carryConfigs {
		for _, b := range carryConfigs {
			if a == b || a.Burst == 1 || a.Limit == 1 || b.Burst == 1 || b.Limit == 1 {
				continue
			}
			lowest := rate(a)
			if lowest == 0 || rate(b) > 0 && rate(b) < lowest {
				lowest = rate(b)
			}
			every := time.Duration(float64(time.Second) / (0.4 * lowest))
			for _, phase := range []time.Duration{0, every / 3} {
				l := NewLimiter(a, t0)
				cfgs := [2]LimiterConfig{a, b}
				for i := range 400 {
					now := t0.Add(phase + time.Duration(i)*every)
					l.Reconfigure(cfgs[i%2], now)
					if d := l.Decide(now); !d.Allowed {
						t.Fatalf("%+v and %+v taking turns every %v: request %d rejected: %+v", a, b, every, i, d)
					}
				}
			}
		}
	}
}

// TestCarriedShareBackByTheBucketsRefill: a share carried into a bucket
// comes back no later than the bucket refills from empty, also once it has
// gone on into another bucket: a window's one admission of 24 hours,
// carried into a bucket of a million tokens at 0.001/s (refilling in 31
// years) and from it into a bucket of 10 at 10/s, locked the last for
// the 24 hours.
func TestCarriedShareBackByTheBucketsRefill(t *testing.T) {
	day := LimiterConfig{Kind: LimitSlidingWindow, Limit: 1, Window: 24 * time.Hour}
	slow := LimiterConfig{Kind: LimitTokenBucket, Rate: 0.001, Burst: 1_000_000}
	room := LimiterConfig{Kind: LimitTokenBucket, Rate: 10, Burst: 10}
	for _, c := range []struct {
		name string
		via  []LimiterConfig
		back time.Duration // when the room's bucket is full again
	}{
		{"into the room's bucket", []LimiterConfig{room}, s},
		{"through a slow bucket", []LimiterConfig{slow, room}, s},
		{"into the slow bucket", []LimiterConfig{slow}, 24 * time.Hour}, // the window's own schedule, sooner than its refill
	} {
		l := NewLimiter(day, t0)
		if !l.Decide(t0).Allowed {
			t.Fatal("the first admission of a day's window was refused")
		}
		for _, v := range c.via {
			l.Reconfigure(v, t0)
		}
		last := c.via[len(c.via)-1]
		if d := l.Peek(t0); d.Allowed || d.Remaining != 0 {
			t.Errorf("%s, at once: %+v, want the share of the day's window still in use", c.name, d)
		}
		if d := l.Peek(t0.Add(c.back - 1)); d.Allowed || d.Remaining != 0 {
			t.Errorf("%s, a nanosecond before %v: %+v, want the share still in use", c.name, c.back, d)
		}
		if d := l.Peek(t0.Add(c.back)); !d.Allowed || d.Remaining != last.Burst {
			t.Errorf("%s, %v later: %+v, want the bucket full again", c.name, c.back, d)
		}
	}
}
