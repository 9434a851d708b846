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
// may go into debt) and Limiter (server side). It works on instants given
// as nanosecond offsets from its owner's base time and is not locked; its
// owners are.
//
// The arithmetic is exact, in integer nanoseconds (the "theoretical arrival
// time" form of a token bucket, as in GCRA): a rate is applied as a whole
// number of nanoseconds per token, interval = ⌈1e9/rate⌉, so the bucket is
// never faster than asked (rates whose interval is a whole number of
// nanoseconds, like 0.5, 1, 2, 10 or 1000 per second, are exact). The
// state is the instant at which the bucket will be full again; the tokens
// at instant t are capacity - (full-t)/interval. No float error builds up,
// waits are exact to the nanosecond, and a token bucket's Retry-After is
// exactly the time until the next token.
type tokenBucket struct {
	interval int64 // nanoseconds per token, >= 1
	burst    int64 // capacity·interval: the refill time of a full bucket
	full     int64 // offset at which the bucket is full again (<= now: full)
}

func newTokenBucket(rate, capacity float64, now int64) tokenBucket {
	interval := int64(math.Ceil(1e9 / rate))
	var burst int64
	if capacity == math.Trunc(capacity) {
		burst = int64(capacity) * interval // exact; at most 1e6·1e12
	} else {
		burst = int64(math.Floor(capacity * float64(interval)))
	}
	return tokenBucket{interval: interval, burst: burst, full: now}
}

// debt is how long after off the bucket is full again (0 if full).
func (tb *tokenBucket) debt(off int64) int64 {
	if d := tb.full - off; d > 0 {
		return d
	}
	return 0
}

// allows reports whether a token is available at off.
func (tb *tokenBucket) allows(off int64) bool { return tb.debt(off) <= tb.burst-tb.interval }

// take removes one token at off (possibly into debt).
func (tb *tokenBucket) take(off int64) {
	tb.full = satAdd(max(tb.full, off), tb.interval)
}

// give returns one token at off, up to the capacity.
func (tb *tokenBucket) give(off int64) {
	tb.full = max(tb.full-tb.interval, off)
}

// tokens returns the tokens at off; negative when reservations are queued.
func (tb *tokenBucket) tokens(off int64) float64 {
	return float64(tb.burst-tb.debt(off)) / float64(tb.interval)
}

// untilNoDebt is how long after off the bucket is out of debt (holds >= 0
// tokens): when the newest reservation's token has refilled.
func (tb *tokenBucket) untilNoDebt(off int64) time.Duration {
	if w := tb.debt(off) - tb.burst; w > 0 {
		return time.Duration(w)
	}
	return 0
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
