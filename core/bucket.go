package core

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Bucket is a token bucket for client-side pacing: it refills at Rate tokens
// per second up to Capacity and starts full. Each request takes one token.
// Rates may be fractional (0.5 = one request every two seconds).
//
// Time is a parameter: AllowAt, ReserveAt and TokensAt take the instant to
// evaluate at, so tests and the simulator step through fixed instants;
// Wait uses the real clock. Over any window of length w the bucket grants
// at most Capacity + Rate·w tokens, and it never holds more than Capacity.
//
// A Bucket is safe for concurrent use; a whole fleet of workers shares one.
// Create it with NewBucket: the zero value is not usable.
type Bucket struct {
	mu sync.Mutex
	tb tokenBucket
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
	return &Bucket{tb: tokenBucket{rate: rate, capacity: capacity, tokens: capacity}}, nil
}

// Rate returns the refill rate in tokens per second.
func (b *Bucket) Rate() float64 { return b.tb.rate }

// Capacity returns the most tokens the bucket holds.
func (b *Bucket) Capacity() float64 { return b.tb.capacity }

// AllowAt takes one token at now if one is available and reports whether it
// did. It is what x/time/rate calls AllowN(now, 1), with the same decisions.
func (b *Bucket) AllowAt(now time.Time) bool {
	b.mu.Lock()
	t, tokens := b.tb.advance(now)
	ok := tokens >= 1
	if ok {
		b.tb.last, b.tb.tokens = t, tokens-1
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
	t, tokens := b.tb.advance(now)
	b.tb.last, b.tb.tokens = t, tokens-1
	wait := b.tb.until(0, now)
	b.mu.Unlock()
	return wait
}

// unreserveAt gives back one token taken by ReserveAt that was not used
// (the wait was cancelled or the loop stopped instead of waiting).
func (b *Bucket) unreserveAt(now time.Time) {
	b.mu.Lock()
	t, tokens := b.tb.advance(now)
	tokens++
	if tokens > b.tb.capacity {
		tokens = b.tb.capacity
	}
	b.tb.last, b.tb.tokens = t, tokens
	b.mu.Unlock()
}

// TokensAt returns the tokens available at now; negative means reservations
// are waiting for that many tokens to refill.
func (b *Bucket) TokensAt(now time.Time) float64 {
	b.mu.Lock()
	_, tokens := b.tb.advance(now)
	b.mu.Unlock()
	return tokens
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
		return fmt.Errorf("core: bucket wait %s would pass the context deadline: %w", formatDuration(d), context.DeadlineExceeded)
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
