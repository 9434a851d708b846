package core

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestNewBucketValidates(t *testing.T) {
	tests := []struct {
		rate, capacity float64
		want           string
	}{
		{0.5, 1, ""},
		{0, 1, "core: bucket rate 0: must be between 0.001 and 1000000"},
		{-1, 1, "core: bucket rate -1"},
		{1, 0.5, "core: bucket capacity 0.5: must be between 1 and 1000000"},
		{1, 2e6, "core: bucket capacity 2000000: must be between 1 and 1000000"},
	}
	for _, tt := range tests {
		_, err := NewBucket(tt.rate, tt.capacity)
		wantErr(t, err, tt.want)
	}
}

func TestBucketAtFixedInstants(t *testing.T) {
	type step struct {
		op     string // allow, reserve, tokens
		at     time.Duration
		ok     bool
		wait   time.Duration
		tokens float64
	}
	tests := []struct {
		name           string
		rate, capacity float64
		steps          []step
	}{
		{"starts full, refills at rate", 2, 3, []step{
			{"tokens", 0, false, 0, 3},
			{"allow", 0, true, 0, 0}, {"allow", 0, true, 0, 0}, {"allow", 0, true, 0, 0},
			{"allow", 0, false, 0, 0},
			{"tokens", 250 * ms, false, 0, 0.5},
			{"allow", 250 * ms, false, 0, 0},
			{"allow", 500 * ms, true, 0, 0},
			{"tokens", 10 * s, false, 0, 3}, // never more than capacity
		}},
		{"fractional rate", 0.25, 1, []step{
			{"allow", 0, true, 0, 0},
			{"tokens", 2 * s, false, 0, 0.5},
			{"allow", 3 * s, false, 0, 0},
			{"tokens", 2 * s, false, 0, 0.75}, // 3s is now the latest instant
			{"allow", 4 * s, true, 0, 0},
		}},
		{"fractional capacity: a request needs a whole token", 1, 1.5, []step{
			{"tokens", 0, false, 0, 1.5},
			{"allow", 0, true, 0, 0},
			{"tokens", 0, false, 0, 0.5},
			{"allow", 0, false, 0, 0},
			{"allow", 500 * ms, true, 0, 0},
			{"tokens", 10 * s, false, 0, 1.5}, // never more than the capacity
		}},
		{"the slowest rate", 0.001, 1, []step{
			{"reserve", 0, false, 0, 0},
			{"reserve", 0, false, 1000 * s, 0},
			{"reserve", 0, false, 2000 * s, 0},
			{"tokens", 0, false, 0, -2},
		}},
		{"reservations queue into debt", 10, 1, []step{
			{"reserve", 0, false, 0, 0},
			{"reserve", 0, false, 100 * ms, 0},
			{"reserve", 0, false, 200 * ms, 0},
			{"tokens", 0, false, 0, -2},
			{"allow", 150 * ms, false, 0, 0},
			{"reserve", 300 * ms, false, 0, 0},
		}},
		{"an earlier instant is the latest one", 1, 1, []step{
			{"allow", 10 * s, true, 0, 0},
			{"allow", 5 * s, false, 0, 0},
			{"tokens", 5 * s, false, 0, 0},
			{"allow", 11 * s, true, 0, 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := NewBucket(tt.rate, tt.capacity)
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range tt.steps {
				switch st.op {
				case "allow":
					if got := b.AllowAt(at(st.at)); got != st.ok {
						t.Fatalf("step %d: AllowAt(%v) = %v, want %v", i, st.at, got, st.ok)
					}
				case "reserve":
					if got := b.ReserveAt(at(st.at)); got != st.wait {
						t.Fatalf("step %d: ReserveAt(%v) = %v, want %v", i, st.at, got, st.wait)
					}
				case "tokens":
					if got := b.TokensAt(at(st.at)); got != st.tokens {
						t.Fatalf("step %d: TokensAt(%v) = %v, want %v", i, st.at, got, st.tokens)
					}
				}
			}
		})
	}
}

// TestBucketInvariants: over long random sequences of AllowAt and
// ReserveAt, the bucket never holds more than its capacity and no window
// [a, b] sees more than capacity + rate·(b-a) grants; a reservation's wait
// ends when its token has refilled.
func TestBucketInvariants(t *testing.T) {
	for i, c := range []struct{ rate, capacity float64 }{{1, 1}, {0.3, 2}, {7.5, 4}, {100, 25}, {0.001, 1}} {
		r := rand.New(rand.NewPCG(uint64(i), 9))
		b, _ := NewBucket(c.rate, c.capacity)
		times := randomTimes(r, 4000, time.Duration(float64(s)/c.rate))
		var granted []time.Time
		for _, now := range times {
			if tok := b.TokensAt(now); tok > c.capacity {
				t.Fatalf("holds %v > capacity %v", tok, c.capacity)
			}
			if r.IntN(5) == 0 {
				w := b.ReserveAt(now)
				granted = append(granted, now.Add(w)) // the token is used when the wait ends
				continue
			}
			if b.AllowAt(now) {
				granted = append(granted, now)
			}
		}
		sortTimes(granted)
		if len(granted) < 20 || len(granted) == len(times) {
			t.Fatalf("rate %v: %d of %d granted: not exercising the limit", c.rate, len(granted), len(times))
		}
		checkBucketBound(t, granted, c.capacity, c.rate)
	}
}

func sortTimes(ts []time.Time) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].Before(ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

func TestBucketReserveWaitIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 2000; i++ {
		rate := 0.01 + 50*r.Float64()
		b, _ := NewBucket(rate, 1+float64(r.IntN(5)))
		now := t0
		for k := 0; k < 10; k++ {
			now = now.Add(time.Duration(r.Int64N(int64(s))))
			w := b.ReserveAt(now)
			if w > 0 {
				if tok := b.TokensAt(now.Add(w)); tok < 0 {
					t.Fatalf("rate %v: after waiting %v the bucket is still in debt (%v)", rate, w, tok)
				}
				if tok := b.TokensAt(now.Add(w - 1)); tok >= 0 {
					t.Fatalf("rate %v: wait %v is 1ns longer than needed (%v)", rate, w, tok)
				}
			}
		}
	}
}

func TestBucketConcurrentUse(t *testing.T) {
	b, _ := NewBucket(1000, 50)
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				if b.AllowAt(at(time.Duration(i) * ms)) {
					mu.Lock()
					granted++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	// 1 s of refill at 1000/s plus a full bucket of 50, at most; at least
	// the full bucket, whatever the interleaving (a goroutine running ahead
	// moves the bucket's clock on, and refill beyond the capacity is lost).
	if granted > 50+1000 || granted < 50 {
		t.Fatalf("granted %d: want between the capacity, 50, and capacity + rate·window, 1050", granted)
	}
}

func TestBucketWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := NewBucket(2, 1)
		start := time.Now()
		for i := 0; i < 3; i++ {
			if err := b.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if got := time.Since(start); got != time.Second {
			t.Fatalf("3 tokens at 2/s from a bucket of 1 took %v, want 1s", got)
		}
	})
}

func TestBucketWaitCancelledGivesTokenBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := NewBucket(1, 1)
		b.AllowAt(time.Now())
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(300 * ms)
			cancel()
		}()
		if err := b.Wait(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait = %v, want context.Canceled", err)
		}
		if got := time.Since(t0Bubble); got != 300*ms {
			t.Fatalf("cancelled after %v, want 300ms", got)
		}
		if tok := b.TokensAt(time.Now()); tok < 0.3-1e-9 || tok > 0.3+1e-9 {
			t.Fatalf("tokens after cancel = %v, want 0.3 (the reservation given back)", tok)
		}
	})
}

// t0Bubble is where synctest bubbles start.
var t0Bubble = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func TestBucketWaitPastDeadlineFailsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := NewBucket(1, 1)
		b.AllowAt(time.Now())
		ctx, cancel := context.WithTimeout(context.Background(), 500*ms)
		defer cancel()
		err := b.Wait(ctx)
		wantErr(t, err, "core: bucket wait 1s would pass the context deadline")
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(t0Bubble) != 0 {
			t.Fatalf("err %v after %v", err, time.Since(t0Bubble))
		}
		if tok := b.TokensAt(time.Now()); tok != 0 {
			t.Fatalf("tokens = %v, want 0 (reservation given back)", tok)
		}
	})
}

func TestBucketWaitFakeTimer(t *testing.T) {
	b, _ := NewBucket(4, 1)
	now := t0
	clock := func() time.Time { return now }
	var asked []time.Duration
	timer := func(d time.Duration) (<-chan time.Time, func() bool) {
		asked = append(asked, d)
		now = now.Add(d)
		ch := make(chan time.Time, 1)
		ch <- now
		return ch, func() bool { return true }
	}
	for i := 0; i < 3; i++ {
		if err := b.wait(context.Background(), clock, timer); err != nil {
			t.Fatal(err)
		}
	}
	if len(asked) != 2 || asked[0] != 250*ms || asked[1] != 250*ms {
		t.Fatalf("timers %v, want [250ms 250ms]", asked)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.wait(ctx, clock, timer); !errors.Is(err, context.Canceled) {
		t.Fatalf("wait on a cancelled context = %v", err)
	}
}

// With float64 tokens (the first version), a second reservation after a
// partial refill came out as 600.000001ms and a limiter could announce
// "Retry-After: 2" for a one-second wait. The arithmetic is now integer.
func TestBucketWaitNotANanosecondOffAfterPartialRefill(t *testing.T) {
	b, _ := NewBucket(1, 1)
	b.AllowAt(at(0))
	if w := b.ReserveAt(at(200 * ms)); w != 800*ms {
		t.Fatalf("first wait %v, want 800ms", w)
	}
	if w := b.ReserveAt(at(1400 * ms)); w != 600*ms {
		t.Fatalf("second wait %v, want exactly 600ms", w)
	}
	l := NewLimiter(LimiterConfig{Kind: LimitTokenBucket, Rate: 10, Burst: 3}, t0)
	now := t0
	for i := 0; i < 10000; i++ {
		now = now.Add(37 * ms)
		if d := l.Decide(now); !d.Allowed && d.RetryAfterSeconds() != 1 {
			t.Fatalf("decision %d: RetryAfter %v rounds to %ds", i, d.RetryAfter, d.RetryAfterSeconds())
		}
	}
}

// Debt saturates instead of overflowing: once the refill of a
// reservation's token would end more than the largest Duration after the
// first instant seen, later reservations wait as long (never a negative
// wait). The bucket is set up as after about 9.2 million reservations at
// 0.001 tokens per second (1000 s each), which a loop would take long to
// make.
func TestBucketDebtSaturates(t *testing.T) {
	b, _ := NewBucket(0.001, 1)
	b.ReserveAt(t0)                      // the first instant seen; takes the bucket's one token
	b.tb.full = math.MaxInt64 - 1500*1e9 // full again 1500 s before the end of a Duration
	for i, want := range []time.Duration{maxDuration - 1500*s, maxDuration - 1000*s, maxDuration - 1000*s} {
		if w := b.ReserveAt(t0); w != want {
			t.Fatalf("reservation %d waits %v, want %v", i+1, w, want)
		}
	}
	if tok := b.TokensAt(t0); tok >= 0 {
		t.Fatalf("tokens %v, want a debt", tok)
	}
}

// A bucket whose first instant is the zero Time (an unset time.Time), or
// that sees one ~146 years or more after its first, still limits: its
// offsets saturated near 292 years, where it could tell no refill, and it
// allowed every request (a review). A Bucket not made by NewBucket
// panics rather than allow every request.
func TestBucketAtTheEdgesOfTime(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		first time.Time
	}{
		{"the zero Time first", time.Time{}},
		{"200 years before", now.AddDate(-200, 0, 0)},
		{"150 years before", now.AddDate(-150, 0, 0)},
	} {
		b, _ := NewBucket(1, 1)
		if !b.AllowAt(c.first) {
			t.Fatalf("%s: a full bucket refused", c.name)
		}
		allowed := 0
		for range 1000 {
			if b.AllowAt(now) {
				allowed++
			}
		}
		if allowed != 1 {
			t.Errorf("%s: %d of 1000 requests at one instant allowed at 1/s, burst 1; want 1", c.name, allowed)
		}
		if !b.AllowAt(now.Add(time.Second)) || b.AllowAt(now.Add(time.Second)) {
			t.Errorf("%s: one token a second after: not refilled as 1/s", c.name)
		}
	}
	// Debt still ahead is kept across the move of the base.
	b, _ := NewBucket(1, 1)
	start := now.AddDate(-150, 0, 0)
	b.ReserveAt(start)
	later := start.Add(time.Duration(rebaseAfter))
	for range 3 {
		b.ReserveAt(later)
	}
	if w := b.ReserveAt(later); w != 3*time.Second {
		t.Errorf("the 4th reservation past the base's move waits %v, want 3s", w)
	}
	defer func() {
		if recover() == nil {
			t.Error("a zero Bucket allowed a request")
		}
	}()
	var zero Bucket
	zero.AllowAt(now)
}
