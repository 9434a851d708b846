package core_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"retrylab/core"
)

// net/http.Header satisfies core.Header.
var _ core.Header = http.Header{}

var base = time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)

// requestTimes returns n non-decreasing instants: bursts at one instant,
// short and long gaps, at nanosecond resolution or on a grid of step.
func requestTimes(r *rand.Rand, n int, mean, step time.Duration) []time.Time {
	ts := make([]time.Time, n)
	now := base
	for i := range ts {
		var gap time.Duration
		switch r.IntN(4) {
		case 0:
		case 1:
			gap = time.Duration(r.Int64N(int64(mean) / 4))
		case 2:
			gap = time.Duration(r.Int64N(int64(mean) * 2))
		case 3:
			gap = time.Duration(r.Int64N(int64(mean) * 6))
		}
		if step > 0 {
			gap = gap / step * step
		}
		now = now.Add(gap)
		ts[i] = now
	}
	return ts
}

// TestBucketMatchesXTimeRate is the differential test: for the same rate,
// burst and request times, Bucket.AllowAt and x/time/rate's AllowN(t, 1)
// make the same decisions. Rates are ones whose token interval is a whole
// number of nanoseconds (Bucket applies ⌈1e9/rate⌉ ns per token; for other
// rates it is up to 1 ns per token slower, see TestBucketNeverFasterThanXTimeRate).
func TestBucketMatchesXTimeRate(t *testing.T) {
	rates := []float64{0.001, 0.25, 0.5, 1, 2, 3.2, 4, 8, 10, 64, 100, 1000, 1e6}
	bursts := []int{1, 2, 5, 20}
	steps := []time.Duration{0, time.Millisecond, 10 * time.Millisecond, 125 * time.Millisecond}
	r := rand.New(rand.NewPCG(11, 11))
	decisions := 0
	for _, rt := range rates {
		for _, burst := range bursts {
			for _, step := range steps {
				mean := time.Duration(float64(time.Second) / rt)
				if step > mean {
					continue
				}
				b, err := core.NewBucket(rt, float64(burst))
				if err != nil {
					t.Fatal(err)
				}
				lim := rate.NewLimiter(rate.Limit(rt), burst)
				allowed := 0
				for i, now := range requestTimes(r, 2000, mean, step) {
					got, want := b.AllowAt(now), lim.AllowN(now, 1)
					if got != want {
						t.Fatalf("rate %v burst %d step %v: request %d at %v: Bucket %v, x/time/rate %v",
							rt, burst, step, i, now.Sub(base), got, want)
					}
					if got {
						allowed++
					}
					decisions++
				}
				if allowed == 0 || allowed == 2000 {
					t.Fatalf("rate %v burst %d: %d of 2000 allowed: not exercising the limit", rt, burst, allowed)
				}
			}
		}
	}
	t.Logf("%d decisions compared", decisions)
}

// TestBucketNeverFasterThanXTimeRate covers rates whose interval is not a
// whole number of nanoseconds: Bucket rounds the interval up (by less than
// 1 ns per token), so it can only be stricter than x/time/rate. It must
// never grant more in total; how many decisions differ is logged (none, for
// these sequences).
func TestBucketNeverFasterThanXTimeRate(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	for _, rt := range []float64{0.3, 0.7, 3, 7, 9.9, 333} {
		b, _ := core.NewBucket(rt, 3)
		lim := rate.NewLimiter(rate.Limit(rt), 3)
		ours, theirs, differ := 0, 0, 0
		for _, now := range requestTimes(r, 5000, time.Duration(float64(time.Second)/rt), 0) {
			got, want := b.AllowAt(now), lim.AllowN(now, 1)
			if got {
				ours++
			}
			if want {
				theirs++
			}
			if got != want {
				differ++
			}
		}
		if ours > theirs {
			t.Errorf("rate %v: Bucket granted %d, x/time/rate %d", rt, ours, theirs)
		}
		t.Logf("rate %v: %d vs %d granted, %d of 5000 decisions differ", rt, ours, theirs, differ)
	}
}

// One bucket paces a whole fleet: goroutines share it (it is safe for
// concurrent use), and however they interleave it grants no more than its
// capacity at once plus its rate over time. ReserveAt queues the rest,
// each waiting for the tokens reserved before it.
func ExampleBucket_shared() {
	b, err := core.NewBucket(10, 5) // the fleet: 10 requests/s, bursts of 5
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	var granted atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 3 {
				if b.AllowAt(start) {
					granted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	fmt.Println("granted at once:", granted.Load(), "of 24 tries")

	// Eight workers reserve at 100ms, in whatever order: the waits are
	// 0, 100ms, ..., 700ms between them, each exactly once.
	waits := make([]time.Duration, 8)
	for w := range waits {
		wg.Go(func() { waits[w] = b.ReserveAt(start.Add(100 * time.Millisecond)) })
	}
	wg.Wait()
	slices.Sort(waits)
	fmt.Println("waits:", waits)
	// Output:
	// granted at once: 5 of 24 tries
	// waits: [0s 100ms 200ms 300ms 400ms 500ms 600ms 700ms]
}

func ExampleBucket() {
	b, err := core.NewBucket(2, 3) // 2 tokens per second, room for 3, starts full
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	for i := 0; i < 4; i++ {
		fmt.Println("allow at 0s:", b.AllowAt(start))
	}
	fmt.Println("tokens at 250ms:", b.TokensAt(start.Add(250*time.Millisecond)))
	fmt.Println("reserve at 250ms, wait:", b.ReserveAt(start.Add(250*time.Millisecond)))
	fmt.Println("reserve at 250ms, wait:", b.ReserveAt(start.Add(250*time.Millisecond)))
	// Output:
	// allow at 0s: true
	// allow at 0s: true
	// allow at 0s: true
	// allow at 0s: false
	// tokens at 250ms: 0.5
	// reserve at 250ms, wait: 250ms
	// reserve at 250ms, wait: 750ms
}
