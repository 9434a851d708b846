package core

import (
	"math"
	"time"
)

// maxDuration is the longest time.Duration.
const maxDuration = time.Duration(math.MaxInt64)

// maxDurationF is 2^63 as a float64: any float >= it does not fit a Duration.
const maxDurationF = float64(1 << 63)

// tokenBucket is the token-bucket arithmetic shared by Bucket (client side,
// may go into debt) and Limiter (server side, never below zero). It is not
// locked; its owners are.
//
// The refill formula is the one golang.org/x/time/rate uses,
// tokens + elapsed.Seconds()*rate capped at capacity, so both make the same
// decision for the same times (a differential test checks it). Unlike
// x/time/rate, an instant earlier than the last one seen is treated as the
// last one: time never runs backwards inside the bucket, so out-of-order
// callers cannot be credited the same interval twice.
type tokenBucket struct {
	rate     float64 // tokens per second, > 0
	capacity float64 // >= 1
	tokens   float64 // at last; negative means debt (Bucket.ReserveAt)
	last     time.Time
}

// advance returns the instant the bucket is evaluated at (now, or last if
// now is earlier) and the tokens it holds then, without changing state.
func (tb *tokenBucket) advance(now time.Time) (time.Time, float64) {
	if now.Before(tb.last) {
		return tb.last, tb.tokens
	}
	tokens := tb.tokens + now.Sub(tb.last).Seconds()*tb.rate
	if tokens > tb.capacity {
		tokens = tb.capacity
	}
	return now, tokens
}

// until returns how long after now the bucket will hold at least target
// tokens, given the stored state, rounded up to the nanosecond so that the
// bucket evaluated at now+until really holds target tokens.
func (tb *tokenBucket) until(target float64, now time.Time) time.Duration {
	if target > tb.capacity {
		return maxDuration
	}
	missing := target - tb.tokens
	if missing <= 0 {
		return 0
	}
	f := math.Ceil(missing / tb.rate * 1e9)
	if f >= maxDurationF {
		return maxDuration
	}
	need := time.Duration(f) // elapsed since last that refills enough
	// Float rounding (here and in Seconds) can leave need a nanosecond or
	// two off the smallest elapsed time that refills enough: step to it,
	// using the same expression advance uses.
	for i := 0; i < 8 && tb.tokens+need.Seconds()*tb.rate < target; i++ {
		need++
	}
	for i := 0; i < 8 && need > 0 && tb.tokens+(need-1).Seconds()*tb.rate >= target; i++ {
		need--
	}
	if now.Before(tb.last) {
		now = tb.last
	}
	wait := need - now.Sub(tb.last)
	if wait < 0 {
		return 0
	}
	return wait
}
