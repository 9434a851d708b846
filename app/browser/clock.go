package browser

import (
	"context"
	"time"
)

// Clock is the page's core.Clock. In the browser Sleep arms a JavaScript
// setTimeout (README: facts, it fires p99 0.4 ms late where Go's time.Sleep in
// wasm fires p99 4 ms late) and clears it when ctx ends first. Natively it
// uses Go's timers. The zero value is ready to use and safe for concurrent use.
type Clock struct{}

// Now returns the current time (with a monotonic reading).
func (Clock) Now() time.Time { return time.Now() }

// Sleep waits for d, or until ctx ends, whichever comes first; it returns
// ctx.Err() in the second case. A wait of d <= 0 returns at once.
func (Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	return sleep(ctx, d)
}

// PaceAfter is how long Go may keep the page's event loop waiting before
// work it starts gives the loop a turn first: a run starts its workers in
// one JavaScript task, and 500 fetch() calls in a row (0.5–1 ms each)
// would freeze the page for a second. Giving turns spreads such a burst
// over many short tasks, between which the page paints and answers input.
const PaceAfter = 12 * time.Millisecond

// Pace (core.Pacer) lets the page's event loop run before an attempt
// begins when Go has held it for longer than PaceAfter, on a 1 ms timer.
// The attempt, and so its timeout, starts after: when the page's thread is
// then held elsewhere (a long task), the send is late, as its lateness
// says, and the request still has its whole timeout. (Paced inside the
// attempt, after its timeout began, 3 of a burst's 6 requests once timed
// out in a fresh clone's CI behind a 1 s long task, never sent.)
func (c Clock) Pace(ctx context.Context) error {
	if Busy() > PaceAfter {
		return c.Sleep(ctx, time.Millisecond)
	}
	return nil
}

// Yield lets the page's event loop run (input, painting, timers) before it
// returns, or returns once ctx ends: in the browser a message to itself on
// a MessageChannel (a new task, without setTimeout's 4 ms clamp), so the
// goroutines that are runnable run first; natively runtime.Gosched.
func (Clock) Yield(ctx context.Context) {
	if ctx.Err() == nil {
		yield(ctx)
	}
}

// AfterPaint returns once the page has painted its next frame, or once ctx
// ends: work that would hold the thread can wait for it, so what an
// interaction changed is on screen first. A hidden page paints no frames:
// there it returns after 100 ms. Natively it is runtime.Gosched.
func (Clock) AfterPaint(ctx context.Context) {
	if ctx.Err() == nil {
		afterPaint(ctx)
	}
}

// maxTimeout is the longest delay setTimeout takes (2^31-1 ms); longer waits
// are armed in steps.
const maxTimeout = (1<<31 - 1) * time.Millisecond

// timeoutMS is d in whole milliseconds, rounded up so a wait never ends early
// (setTimeout truncates fractions), and at most maxTimeout.
func timeoutMS(d time.Duration) int {
	if d > maxTimeout {
		d = maxTimeout
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}
