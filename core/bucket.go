package core

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// Bucket is a token bucket for client-side pacing: it refills at Rate tokens
// per second up to Capacity and starts full. Each request takes one token.
// Rates may be fractional (0.5 = one request every two seconds).
//
// Time is a parameter: AllowAt, ReserveAt and TokensAt take the instant to
// evaluate at, so tests and the simulator step through fixed instants;
// Wait uses the real clock. An instant earlier than the latest one seen
// counts as that latest one: time never runs backwards inside the bucket,
// so callers that read the clock and then race for the bucket cannot be
// credited the same interval twice.
//
// The arithmetic is exact in integer nanoseconds, with the rate applied as
// ⌈1e9/Rate⌉ nanoseconds per token (never faster than asked). So the bucket
// never holds more than Capacity, over any window of length w it grants at
// most Capacity + Rate·w tokens, and its waits are exact. For a rate whose
// token interval is a whole number of nanoseconds it decides as
// golang.org/x/time/rate's AllowN(t, 1) does on the same instants, except
// where that library's floating-point arithmetic credits a token a little
// early or late (a review found 4 in ~600,000 random decisions, at
// 1e6/s); for other rates it can only be stricter. Differential tests
// check both.
//
// At the edges: NewBucket refuses a rate below 0.001 tokens per second (0
// among them: a bucket that never refills) and a capacity below 1 (no
// request could ever pass), with an error naming the field, the value and
// the range. A fractional capacity is kept: a bucket of capacity 1.5 holds
// up to 1.5 tokens, and a request needs a whole one. Reservations in debt
// each wait one token's refill longer, without bound but without
// overflow: once a reservation's token would refill later than the largest
// time.Duration after the first instant the bucket saw (about 292 years),
// the debt saturates there, and later reservations wait as long as it (a
// wait never wraps negative). A clock set back is the case above: its
// instants count as the latest one seen, so the bucket neither refills nor
// drains twice.
//
// A Bucket is safe for concurrent use; a whole fleet of workers shares one.
// Create it with NewBucket: the zero value is not usable, and its methods
// panic on it rather than allow every request.
type Bucket struct {
	rate, capacity float64

	mu      sync.Mutex
	tb      tokenBucket
	base    time.Time // offsets are nanoseconds since base, the first instant seen
	late    int64     // latest offset seen
	started bool
}

// NewBucket returns a full bucket refilling at rate tokens per second with
// room for capacity tokens. Both must lie in BucketRateRange and
// BucketCapacityRange.
func NewBucket(rate, capacity float64) (*Bucket, error) {
	if err := BucketRateRange.check("bucket rate", rate); err != nil {
		return nil, err
	}
	if err := BucketCapacityRange.check("bucket capacity", capacity); err != nil {
		return nil, err
	}
	return &Bucket{rate: rate, capacity: capacity, tb: newTokenBucket(rate, capacity, 0)}, nil
}

// Rate returns the refill rate in tokens per second.
func (b *Bucket) Rate() float64 { return b.rate }

// Capacity returns the most tokens the bucket holds.
func (b *Bucket) Capacity() float64 { return b.capacity }

// rebaseAfter is how far past its base an instant moves the base up to
// it (about 146 years): offsets saturate at the largest int64, about 292
// years, where a bucket can no longer tell a refill, and a first instant
// of the zero Time (year 1) put every later one there: the bucket
// allowed every request after it (a review).
const rebaseAfter = 1 << 62

// offset converts now to nanoseconds since the first instant seen, never
// earlier than the latest one; with record it becomes the latest. Call with
// b.mu held. It panics on a Bucket not made by NewBucket, whose zero value
// would allow every request.
func (b *Bucket) offset(now time.Time, record bool) int64 {
	if b.tb.interval == 0 {
		panic("core: Bucket used without NewBucket")
	}
	if !b.started {
		if !record {
			return 0 // a full bucket looks the same at any instant
		}
		b.base, b.started = now, true
		return 0
	}
	d := now.Sub(b.base) // saturates
	off := int64(d)
	if off < b.late {
		return b.late
	}
	if off >= rebaseAfter && record {
		// The base moves to now, the debt still ahead of now with it; an
		// instant past the saturation is after any debt (which saturates
		// at the largest offset), so the bucket is full there.
		full := int64(0)
		if d < time.Duration(math.MaxInt64) {
			full = max(0, b.tb.full-off)
		}
		b.base, b.late, b.tb.full = now, 0, full
		return 0
	}
	if record {
		b.late = off
	}
	return off
}

// AllowAt takes one token at now if one is available and reports whether it
// did. It is what x/time/rate calls AllowN(now, 1).
func (b *Bucket) AllowAt(now time.Time) bool {
	b.mu.Lock()
	off := b.offset(now, true)
	ok := b.tb.allows(off)
	if ok {
		b.tb.take(off)
	}
	b.mu.Unlock()
	return ok
}

// ReserveAt takes one token at now, going into debt if none is available,
// and returns how long the caller must wait before acting (0 if a token was
// available). Reservations queue in the order they are made: each one in debt
// waits for the refill of all the tokens reserved before it. The retry Loop
// uses ReserveAt before every attempt.
func (b *Bucket) ReserveAt(now time.Time) time.Duration {
	b.mu.Lock()
	off := b.offset(now, true)
	b.tb.take(off)
	wait := b.tb.untilNoDebt(off)
	b.mu.Unlock()
	return wait
}

// unreserveAt gives back one token taken by ReserveAt that was not used
// (the wait was cancelled or the loop stopped instead of waiting).
func (b *Bucket) unreserveAt(now time.Time) {
	b.mu.Lock()
	b.tb.give(b.offset(now, true))
	b.mu.Unlock()
}

// TokensAt returns the tokens available at now; negative means reservations
// are waiting for that many tokens to refill. It only looks: now does not
// become the bucket's latest instant.
func (b *Bucket) TokensAt(now time.Time) float64 {
	b.mu.Lock()
	t := b.tb.tokens(b.offset(now, false))
	b.mu.Unlock()
	return t
}

// Wait blocks until a token is available on the real clock, taking it. It
// returns ctx's error if ctx is done first, or at once (without waiting) if
// ctx's deadline comes before the token would; the token is then given back.
func (b *Bucket) Wait(ctx context.Context) error {
	return b.wait(ctx, time.Now, func(d time.Duration) (<-chan time.Time, func() bool) {
		t := time.NewTimer(d)
		return t.C, t.Stop
	})
}

// wait is Wait with its clock and timer passed in (tests drive it with fakes).
func (b *Bucket) wait(ctx context.Context, clock func() time.Time, newTimer func(time.Duration) (<-chan time.Time, func() bool)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := clock()
	d := b.ReserveAt(now)
	if d <= 0 {
		return nil
	}
	if deadline, ok := ctx.Deadline(); ok && deadline.Sub(now) < d {
		b.unreserveAt(now)
		return fmt.Errorf("core: bucket wait %s would pass the context deadline: %w", FormatDuration(d), context.DeadlineExceeded)
	}
	ch, stop := newTimer(d)
	defer stop()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		b.unreserveAt(clock())
		return ctx.Err()
	}
}
