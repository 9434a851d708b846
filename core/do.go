package core

import (
	"context"
	"time"
)

// Clock is the time source and timer the blocking driver Do uses. The page
// plugs in a clock backed by JavaScript timers (tighter than time.Sleep in
// the browser); nil means RealClock.
//
// Do takes the clock's readings as they come. One earlier than the last
// (a clock set back) is no error, but Policy.MaxElapsed is measured between
// readings, so the job then gets that much more time. RealClock's readings
// carry time.Now's monotonic clock, which is never set back.
type Clock interface {
	Now() time.Time
	// Sleep waits d, returning nil, or returns ctx.Err() (or another
	// error) if ctx is done first.
	Sleep(ctx context.Context, d time.Duration) error
}

// Pacer is a Clock that may hold an attempt back before it begins, so that
// its host runs first: the page's clock gives the browser its one thread
// back when Go has kept it for a while. Do calls Pace before each attempt.
// The time Pace takes is the attempt's lateness (Event.At − Intended), not
// part of the attempt: a timeout the operation sets starts after it. An
// error (ctx done) stops the job.
type Pacer interface {
	Pace(ctx context.Context) error
}

// RealClock is the time package's clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d on a timer, or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Operation runs one attempt (attempt is 1-based) and reports how it went.
// It should honour ctx: Do cancels the job through it.
type Operation func(ctx context.Context, attempt int) Outcome

// Do drives l to the end on clock (nil: RealClock), running op for each
// attempt, and returns l's final error: nil on success, else a *StopError
// saying why it gave up, wrapping the last attempt's error.
//
// Before each attempt a clock that is a Pacer may hold it back; the attempt
// begins (Loop.Begin, its EventAttempt) when Pace returns.
//
// Cancelling ctx stops the job at once: during a wait, before an attempt,
// or, if op returns a failure once ctx is done, after it (ErrCancelled;
// the outcome is still reported). A wait that would end after ctx's
// deadline is not begun: the job stops at once, as Bucket.Wait does
// (ErrCancelled, wrapping context.DeadlineExceeded), rather than sleep
// until the deadline to the same end.
//
// A Loop runs one job, once: make a Loop for each job. Do on a loop that
// has ended returns its error again and runs no attempt (so a loop
// cancelled before Do, as a page's Stop cancels a job not yet started,
// runs none); Do on a loop another driver has started panics, as the
// Loop's methods do when called out of turn.
func Do(ctx context.Context, l *Loop, clock Clock, op Operation) error {
	if clock == nil {
		clock = RealClock{}
	}
	if deadline, ok := ctx.Deadline(); ok {
		l.deadline = deadline
	}
	step := l.Start(clock.Now())
	for {
		switch step.Action {
		case ActDone:
			return step.Err
		case ActWait:
			if deadline, ok := ctx.Deadline(); ok && deadline.Sub(clock.Now()) < step.Wait {
				step = l.Cancel(clock.Now(), deadlineError("wait", step.Wait)) // the loop decided with an earlier clock reading
				continue
			}
			if err := clock.Sleep(ctx, step.Wait); err != nil {
				step = l.Cancel(clock.Now(), causeOf(ctx, err))
				continue
			}
			step = l.Woke(clock.Now())
		case ActAttempt:
			if p, ok := clock.(Pacer); ok {
				if err := p.Pace(ctx); err != nil {
					step = l.Cancel(clock.Now(), causeOf(ctx, err))
					continue
				}
			}
			if ctx.Err() != nil {
				step = l.Cancel(clock.Now(), context.Cause(ctx))
				continue
			}
			o := op(ctx, l.Begin(clock.Now()))
			now := clock.Now()
			if ctx.Err() != nil && !o.succeeded() {
				step = l.end(now, o, context.Cause(ctx))
			} else {
				step = l.End(now, o)
			}
		}
	}
}

// causeOf is ctx's cause, or err if ctx is not done (a clock that failed).
func causeOf(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}
