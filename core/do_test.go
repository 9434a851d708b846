package core

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// script returns an Operation that replies with outcomes in turn (the last
// repeats) after latency.
func script(latency time.Duration, outcomes ...Outcome) Operation {
	i := 0
	return func(ctx context.Context, attempt int) Outcome {
		if latency > 0 {
			select {
			case <-time.After(latency):
			case <-ctx.Done():
				return Outcome{Err: ctx.Err()}
			}
		}
		o := outcomes[min(i, len(outcomes)-1)]
		i++
		return o
	}
}

func TestDoRealClockInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev, obs := recorder()
		l := NewLoop(withPolicy(expo(5), func(p *Policy) { p.RetryAfter = true }), nil, nil, nil, obs)
		start := time.Now()
		err := Do(context.Background(), l, nil, script(10*ms, status(503), status(429, "Retry-After", "2"), status(200)))
		if err != nil {
			t.Fatal(err)
		}
		// 10ms + 200ms backoff + 10ms + 2s retry-after + 10ms
		if got := time.Since(start); got != 2230*ms {
			t.Fatalf("took %v, want 2.23s", got)
		}
		kinds := ""
		for _, e := range *ev {
			kinds += e.Kind.String()[:1]
		}
		if kinds != "aowaowaod" {
			t.Fatalf("event kinds %q", kinds)
		}
	})
}

func TestDoCancelledDuringWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(150 * ms)
			cancel()
		}()
		l := NewLoop(expo(5), nil, nil, nil, nil)
		start := time.Now()
		err := Do(ctx, l, nil, script(0, status(503)))
		if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v", err)
		}
		if got := time.Since(start); got != 150*ms {
			t.Fatalf("returned after %v, want 150ms (mid-wait)", got)
		}
		var se *StopError
		if !errors.As(err, &se) || se.Attempts != 1 || !strings.Contains(err.Error(), "http status 503") {
			t.Fatalf("err %v", err)
		}
	})
}

func TestDoCancelledDuringAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		stop := errors.New("stop pressed")
		go func() {
			time.Sleep(50 * ms)
			cancel(stop)
		}()
		ev, obs := recorder()
		l := NewLoop(expo(5), nil, nil, nil, obs)
		err := Do(ctx, l, nil, script(time.Second, status(200)))
		if !errors.Is(err, ErrCancelled) || !errors.Is(err, stop) {
			t.Fatalf("err %v", err)
		}
		got := traceEvents(*ev)
		if len(got) != 3 || !strings.HasPrefix(got[1], "outcome 1") || !strings.HasPrefix(got[2], "done") {
			t.Fatalf("events %q", got)
		}
	})
}

// multiError is an aggregate error held by value: its slice makes it
// uncomparable, so == between two of them panics.
type multiError struct{ errs []error }

func (m multiError) Error() string { return fmt.Sprint(m.errs) }

// A job cancelled with a cause of the same uncomparable type as the
// attempt's error stops with both, and does not panic (Loop.Cancel compared
// them with ==).
func TestDoCancelledWithUncomparableCause(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := multiError{errs: []error{errors.New("shutdown")}}
	attemptErr := multiError{errs: []error{errors.New("io")}}
	err := Do(ctx, NewLoop(expo(3), nil, nil, nil, nil), nil, func(context.Context, int) Outcome {
		cancel(cause)
		return Outcome{Err: attemptErr}
	})
	var se *StopError
	if !errors.As(err, &se) || se.Cause != ErrCancelled || se.Context == nil || se.Last == nil {
		t.Fatalf("err %v (%#v), want cancelled with the cause and the attempt's error", err, se)
	}
}

func TestDoDeadlineDuringWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*ms)
		defer cancel()
		err := Do(ctx, NewLoop(expo(5), nil, nil, nil, nil), nil, script(0, status(503)))
		if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v", err)
		}
	})
}

// A wait that would outlast the context's deadline is not slept: Do gave
// the deadline a 30 s Retry-After's whole second before stopping as it
// stops now, at once, saying why.
func TestDoWaitPastDeadlineStopsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		p := expo(5)
		p.RetryAfter = true
		calls := 0
		var kinds []EventKind
		err := Do(ctx, NewLoop(p, nil, nil, nil, func(e Event) { kinds = append(kinds, e.Kind) }), nil, func(context.Context, int) Outcome {
			calls++
			return Outcome{Status: 429, Header: http.Header{"Retry-After": {"30"}}}
		})
		wantErr(t, err, "core: cancelled after 1 attempt: wait 30s would pass the context deadline: context deadline exceeded; last error: http status 429")
		if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.DeadlineExceeded) || calls != 1 || time.Since(t0Bubble) != 0 {
			t.Fatalf("err %v after %d attempts and %v", err, calls, time.Since(t0Bubble))
		}
		// No wait is told that was never waited: the loop emitted one,
		// then Do stopped (a review).
		if want := []EventKind{EventAttempt, EventOutcome, EventDone}; !slices.Equal(kinds, want) {
			t.Errorf("events %v, want %v", kinds, want)
		}
	})
}

func TestDoAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	err := Do(ctx, NewLoop(expo(3), nil, nil, nil, nil), nil, func(context.Context, int) Outcome { calls++; return Outcome{} })
	if !errors.Is(err, ErrCancelled) || calls != 0 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
}

func TestDoBucketWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, _ := NewBucket(5, 1)
		start := time.Now()
		var sent []time.Duration
		op := func(context.Context, int) Outcome {
			sent = append(sent, time.Since(start))
			return status(200)
		}
		for job := 0; job < 3; job++ {
			if err := Do(context.Background(), NewLoop(expo(1), nil, b, nil, nil), nil, op); err != nil {
				t.Fatal(err)
			}
		}
		if len(sent) != 3 || sent[0] != 0 || sent[1] != 200*ms || sent[2] != 400*ms {
			t.Fatalf("sent at %v, want [0 200ms 400ms]", sent)
		}
	})
}

// virtualClock jumps instead of sleeping.
type virtualClock struct{ now time.Time }

func (c *virtualClock) Now() time.Time { return c.now }
func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.now = c.now.Add(d)
	return nil
}

// failingClock's Sleep fails without the context being done.
type failingClock struct{ virtualClock }

func (c *failingClock) Sleep(context.Context, time.Duration) error { return errors.New("timer broke") }

func TestDoWithClock(t *testing.T) {
	c := &virtualClock{now: t0}
	err := Do(context.Background(), NewLoop(expo(3), nil, nil, nil, nil), c, script(0, status(503)))
	if !errors.Is(err, ErrExhausted) || c.now.Sub(t0) != 600*ms {
		t.Fatalf("err %v after %v", err, c.now.Sub(t0))
	}
	err = Do(context.Background(), NewLoop(expo(3), nil, nil, nil, nil), &failingClock{virtualClock{now: t0}}, script(0, status(503)))
	if !errors.Is(err, ErrCancelled) || !strings.Contains(err.Error(), "timer broke") {
		t.Fatalf("err %v", err)
	}
}

func TestRealClockSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c RealClock
		start := c.Now()
		if err := c.Sleep(context.Background(), 3*s); err != nil || time.Since(start) != 3*s {
			t.Fatalf("Sleep: %v after %v", err, time.Since(start))
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := c.Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("Sleep(0) on a cancelled context = %v", err)
		}
		if err := c.Sleep(ctx, s); !errors.Is(err, context.Canceled) {
			t.Fatalf("Sleep on a cancelled context = %v", err)
		}
	})
}

// pacingClock holds each attempt back for hold before it begins (a Pacer),
// and fails its pace number failAt (1-based; 0: never).
type pacingClock struct {
	virtualClock
	hold   time.Duration
	paces  int
	failAt int
}

func (c *pacingClock) Pace(ctx context.Context) error {
	c.paces++
	if c.paces == c.failAt {
		return errors.New("host gone")
	}
	c.now = c.now.Add(c.hold)
	return ctx.Err()
}

// TestDoPacesBeforeEachAttempt: a Pacer clock's hold comes before the
// attempt begins, so it is the send's lateness (At − Intended) and the
// operation's time (a timeout it sets) starts after it; a failed pace
// stops the job without the attempt.
func TestDoPacesBeforeEachAttempt(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failAt   int
		attempts int   // operations run
		want     error // Do's error
	}{
		{"every attempt paced", 0, 3, ErrExhausted},
		{"the second pace fails", 2, 1, ErrCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &pacingClock{virtualClock: virtualClock{now: t0}, hold: 40 * ms, failAt: tc.failAt}
			ev, obs := recorder()
			l := NewLoop(expo(3), nil, nil, nil, obs)
			var opAt []time.Duration
			err := Do(context.Background(), l, c, func(ctx context.Context, attempt int) Outcome {
				opAt = append(opAt, c.now.Sub(t0))
				return status(503)
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("Do = %v, want %v", err, tc.want)
			}
			if tc.failAt > 0 && !strings.Contains(err.Error(), "host gone") {
				t.Errorf("Do = %v: the pace's error is not said", err)
			}
			// Each attempt held 40 ms, the waits (expo: 200, 400 ms) from
			// its end.
			want := []time.Duration{40 * ms, 280 * ms, 720 * ms}[:tc.attempts]
			if fmt.Sprint(opAt) != fmt.Sprint(want) {
				t.Errorf("operations ran at %v, want %v", opAt, want)
			}
			var late []time.Duration
			for _, e := range *ev {
				if e.Kind == EventAttempt {
					late = append(late, e.At.Sub(e.Intended))
				}
			}
			if len(late) != tc.attempts {
				t.Fatalf("%d attempts began, want %d", len(late), tc.attempts)
			}
			for i, d := range late {
				if d != 40*ms {
					t.Errorf("attempt %d began %v after it was due, want the pace's 40ms", i+1, d)
				}
			}
		})
	}
}
