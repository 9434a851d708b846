package core_test

// Benchmarks against the libraries users would otherwise pick, in one file
// so one run compares them:
//
//	go test -run='^$' -bench=. -benchmem ./core/
//
// Targets: Bucket.AllowAt no slower than x/time/rate's AllowN(t, 1);
// each jitter mode's next delay no slower than cenkalti/backoff/v5's
// NextBackOff(); Limiter.Decide 0 allocs/op.

import (
	"testing"
	"time"

	backoff "github.com/cenkalti/backoff/v5"
	"golang.org/x/time/rate"

	"retrylab/core"
)

// The same request times for both buckets: 1000/s with a burst of 100 and a
// request every 700µs, so most are allowed and some are denied.
const (
	benchRate  = 1000
	benchBurst = 100
	benchGap   = 700 * time.Microsecond
)

func BenchmarkBucketAllowAt(b *testing.B) {
	bk, _ := core.NewBucket(benchRate, benchBurst)
	now := base
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(benchGap)
		bk.AllowAt(now)
	}
}

func BenchmarkXTimeRateAllowN(b *testing.B) {
	lim := rate.NewLimiter(benchRate, benchBurst)
	now := base
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(benchGap)
		lim.AllowN(now, 1)
	}
}

// BenchmarkScheduleNext is each strategy's next delay through the stateful
// Schedule with a seeded core.PCG, restarting every 16 retries like a job
// would. BenchmarkScheduleNextRand is the same with core.NewRand's
// *rand.Rand (the same numbers).
func BenchmarkScheduleNext(b *testing.B) {
	benchSchedule(b, func() core.Rand { return core.NewPCG(1) })
}

func BenchmarkScheduleNextRand(b *testing.B) {
	benchSchedule(b, func() core.Rand { return core.NewRand(1) })
}

func benchSchedule(b *testing.B, rng func() core.Rand) {
	for _, st := range []core.Strategy{core.Exponential, core.FullJitter, core.EqualJitter, core.DecorrelatedJitter} {
		b.Run(st.String(), func(b *testing.B) {
			s := core.NewSchedule(core.Backoff{Strategy: st, Base: 100 * time.Millisecond, Multiplier: 2, Cap: 30 * time.Second}, rng())
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i++; i == 16 {
					s.Reset()
					i = 0
				}
				s.Next()
			}
		})
	}
}

// BenchmarkBackoffDelay is the pure function with a fresh draw each time
// through the Rand interface; it recomputes Base·Multiplier^n by repeated
// multiplication on every call (Schedule keeps it), so it is the slower way
// to step through a schedule.
func BenchmarkBackoffDelay(b *testing.B) {
	for _, st := range []core.Strategy{core.Exponential, core.FullJitter, core.EqualJitter, core.DecorrelatedJitter} {
		b.Run(st.String(), func(b *testing.B) {
			bo := core.Backoff{Strategy: st, Base: 100 * time.Millisecond, Multiplier: 2, Cap: 30 * time.Second}
			rng := core.NewRand(1)
			b.ReportAllocs()
			n, prev := 0, time.Duration(0)
			for b.Loop() {
				if n++; n == 16 {
					n, prev = 1, 0
				}
				prev = bo.Delay(n, prev, rng.Float64())
			}
		})
	}
}

// BenchmarkCenkaltiNextBackOff is cenkalti/backoff/v5's exponential backoff
// (multiplier 2), also restarting every 16 retries: randomized (its
// default factor 0.5, a jitter of ±50%: compare with the jitter modes) and
// plain (factor 0: compare with Exponential, which draws nothing).
func BenchmarkCenkaltiNextBackOff(b *testing.B) {
	for _, c := range []struct {
		name   string
		factor float64
	}{{"randomized", backoff.DefaultRandomizationFactor}, {"plain", 0}} {
		b.Run(c.name, func(b *testing.B) {
			eb := backoff.NewExponentialBackOff()
			eb.InitialInterval = 100 * time.Millisecond
			eb.Multiplier = 2
			eb.MaxInterval = 30 * time.Second
			eb.RandomizationFactor = c.factor
			eb.Reset()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i++; i == 16 {
					eb.Reset()
					i = 0
				}
				eb.NextBackOff()
			}
		})
	}
}

func BenchmarkLimiterDecide(b *testing.B) {
	for _, c := range []core.LimiterConfig{
		{Kind: core.LimitTokenBucket, Rate: benchRate, Burst: benchBurst},
		{Kind: core.LimitFixedWindow, Limit: 100, Window: 100 * time.Millisecond},
		{Kind: core.LimitSlidingWindow, Limit: 100, Window: 100 * time.Millisecond},
		{Kind: core.LimitSlidingWindow, Limit: 1000, Window: time.Second},
	} {
		name := c.Kind.String()
		if c.Limit == 1000 {
			name += "-1000"
		}
		b.Run(name, func(b *testing.B) {
			l := core.NewLimiter(c, base)
			now := base
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(benchGap)
				l.Decide(now)
			}
		})
	}
}

// BenchmarkLimiterReconfigure halves the limit and restores it, a decision
// between each: what the mock's "halve the limit" switch costs a key.
func BenchmarkLimiterReconfigure(b *testing.B) {
	for _, c := range []core.LimiterConfig{
		{Kind: core.LimitTokenBucket, Rate: benchRate, Burst: benchBurst},
		{Kind: core.LimitFixedWindow, Limit: 100, Window: 100 * time.Millisecond},
		{Kind: core.LimitSlidingWindow, Limit: 1000, Window: time.Second},
	} {
		b.Run(c.Kind.String(), func(b *testing.B) {
			l := core.NewLimiter(c, base)
			cfgs := [2]core.LimiterConfig{c.Scaled(0.5), c}
			now := base
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(benchGap)
				l.Decide(now)
				l.Reconfigure(cfgs[i&1], now)
				i++
			}
		})
	}
}

func BenchmarkParseRetryAfter(b *testing.B) {
	for _, v := range []string{"120", "Fri, 31 Dec 1999 23:59:59 GMT"} {
		b.Run(v[:3], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				core.ParseRetryAfter(v, base)
			}
		})
	}
}
