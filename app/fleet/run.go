package fleet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"retrylab/core"
)

// Attempt is what a Transport measured about one attempt, beyond the status,
// headers and error that core.Outcome carries.
//
// Handoff is the page's own delay in getting an attempt to fetch(): its
// thread, the hop to the fetch worker, that worker's backlog of fetch()
// calls (each costs the calling thread about half a millisecond in
// Chromium). The send lateness is the EventAttempt's At - Intended plus
// Handoff. The page measures it for answered attempts (the browser's
// timing of a failed fetch is not read); a simulation and a native
// transport leave it 0: there the send is the request.
type Attempt struct {
	Status    int           // HTTP status; 0 when there was no response
	Header    core.Header   // response headers (those the browser exposes); may be nil
	Err       error         // network error, timeout (wrapping context.DeadlineExceeded), abort (context.Canceled)
	Handoff   time.Duration // from the loop's send (EventAttempt) to the browser starting the request (fetchStart)
	Queued    time.Duration // browser-side queueing (requestStart - fetchStart)
	Pickup    time.Duration // from the answer's end (responseEnd) to Do's return, the outcome's time: the page's thread busy elsewhere
	ServerSeq int           // arrival number at the mock (from its JSON body); 0 if unknown
	ServerAt  time.Time     // server receive time (from the mock's body); zero if unknown
	// Redirected is the URL the answer came from when the server
	// redirected the request, "" otherwise: the browser followed the
	// redirect with another request, so the server received the attempt
	// more than once (a custom target's).
	Redirected string
	// Measured says which of Handoff, Queued and Pickup the transport
	// measured: one it did not is 0 and unknown, one it did may be 0 too
	// (no queueing at all, an answer taken in at once).
	Measured Timings
}

// Timings is a set of an Attempt's timings.
type Timings uint8

// The timings of an Attempt.
const (
	MeasuredHandoff Timings = 1 << iota
	MeasuredQueued
	MeasuredPickup
)

// Outcome is the attempt as the retry loop sees it.
func (a Attempt) Outcome() core.Outcome {
	return core.Outcome{Status: a.Status, Header: a.Header, Err: a.Err}
}

// Transport performs one attempt of worker's job (all 0-based; attempt is
// 1-based) and reports what happened. It must honour ctx: Run cancels it
// for the per-attempt timeout and for Stop. Implementations must be safe for
// concurrent use: every worker calls Do from its own goroutine.
type Transport interface {
	Do(ctx context.Context, worker, job, attempt int) Attempt
}

// Record is one core.Event tagged with the worker and job (0-based) that
// produced it; on EventOutcome, Attempt holds what the transport measured.
type Record struct {
	Worker, Job int
	Event       core.Event
	Attempt     *Attempt // EventOutcome only; nil otherwise
}

// Outager is a Transport that can take its server down: Run calls Outage
// for the scenario's scheduled outage (Scenario.OutageStretch) when its
// time comes, from a goroutine of its own, unless the run is over or
// stopped by then. Only the built-in mock can be taken down (POST
// /mock/outage); Run refuses a scheduled outage with a transport that
// cannot. An error means the outage was not started: Run keeps it in
// Recording.OutageErr, unless the run ended or was stopped meanwhile
// (ctx is then done): nothing it would have changed was still to come.
type Outager interface {
	Outage(ctx context.Context, d time.Duration) error
}

// Yielder is a clock that can let its host run between pieces of work. In
// the browser the page's one thread runs Go until every goroutine is
// blocked: 500 workers made runnable at once held it for about 200 ms, so
// Run starts workers StartBatch at a time, yielding in between, when the
// clock is a Yielder. Each yield lets the browser draw a frame before the
// next batch, and a worker's first send waits for it: the first sends'
// lateness counts from the run's start (core.Loop.SetDue).
type Yielder interface {
	Yield(ctx context.Context)
}

// StartBatch is how many workers Run starts before it yields (the page
// sends their first attempts unpaced: app/ui's waveClock). Since the
// fetch workers get a task's requests in one message, starting a worker
// costs the page's thread ~0.1 ms (50 workers' first sends left Go within
// 3–12 ms in one batch, against 11–30 ms in two batches of 25), so a batch
// is a few milliseconds. The page's lateness p99 did not move measurably
// with it (the workers' fetch() calls then take the burst at once:
// BenchmarkPageRun 28 and 32 ms against 30 ms), and in a 500-worker run
// batches of 25 and of 100 measured alike (BenchmarkResponsiveLiveRun:
// longest task 85 vs 93 ms, slowest key press 136 vs 112 ms).
const StartBatch = 50

// ErrRequestLimit is the cause of the cancellation of the jobs still going
// when a live run reaches RunOptions.MaxRequests: their EventDone's error
// ends with it, where Stop's ends with "context canceled".
var ErrRequestLimit = errors.New("fleet: request limit reached; run stopped")

// ErrTimeout is wrapped by the error of an attempt that ran out of the
// scenario's per-attempt timeout. It wraps context.DeadlineExceeded, so
// core retries it as an ordinary failure and Classify calls it a timeout.
var ErrTimeout error = timeoutError{}

// timeoutError is ErrTimeout: "fleet: request timeout", wrapping
// context.DeadlineExceeded without repeating its text ("… after 1s").
type timeoutError struct{}

func (timeoutError) Error() string { return "fleet: request timeout" }
func (timeoutError) Unwrap() error { return context.DeadlineExceeded }

// Run runs the scenario: Workers goroutines, each running its jobs
// (s.JobsOf: none for a worker dealt none of a total) one after another
// (an open workload: each job in a goroutine of its own, started when it
// arrives, at s.Arrivals().At after the start) through core.NewLoop and
// core.Do, with the per-job seed
// core.SubSeed(s.Seed, worker, job), the fleet's shared Bucket and Budget
// (when on), the given clock (nil: core.RealClock) and transport. Each
// attempt gets the scenario's timeout.
//
// Every event is appended to the returned Recording and then passed to
// onRecord (nil ok), from the worker's goroutine: onRecord must be safe for
// concurrent use and must not block long (it holds up that worker).
//
// Run blocks until every worker has returned. Cancelling ctx stops the run at
// once: waits end, attempts in flight are aborted through their context,
// each running job ends with a core.ErrCancelled give-up, and jobs not yet
// started are not started. An invalid scenario runs nothing: the Recording's
// Err says why.
func Run(ctx context.Context, s Scenario, tr Transport, clock core.Clock, onRecord func(Record)) *Recording {
	if clock == nil {
		clock = core.RealClock{}
	}
	return RunFrom(ctx, clock.Now(), s, tr, clock, RunOptions{}, onRecord)
}

// RunOptions are limits a caller puts on a run beyond its scenario's.
type RunOptions struct {
	// MaxRequests, when above 0, is the most attempts the run sends. The
	// attempt that reaches it is the last to start (on several threads,
	// one already starting elsewhere at that moment may go too); the
	// attempts in flight then get their answers (or time out) as usual.
	// Every job then ends at its next wait or attempt (cancelled, as by
	// Stop, but with nothing aborted), no job starts, and Recording.Limited
	// is set. The page keeps every event of a live run in the tab's
	// memory: this bounds it.
	MaxRequests int
}

// RunFrom is Run from start, a reading of clock already taken: the
// Recording's Start, and the origin of an open workload's arrivals and of
// the scheduled outage. A caller that draws the run as it goes (the page)
// takes start before it sets its drawing up, so the drawing, the live
// numbers and the Recording share one origin. opt limits the run.
func RunFrom(ctx context.Context, start time.Time, s Scenario, tr Transport, clock core.Clock, opt RunOptions, onRecord func(Record)) *Recording {
	if clock == nil {
		clock = core.RealClock{}
	}
	rec := NewRecording(s, start, false)
	defer func() { rec.finish(clock.Now()) }()
	if errs := s.Validate(); errs != nil {
		rec.Err = invalidScenario(errs)
		return rec
	}
	if errs := s.LiveErrors(); errs != nil {
		rec.Err = invalidScenario(errs)
		return rec
	}
	var bucket *core.Bucket
	var budget *core.Budget
	var err error
	if s.Bucket {
		if bucket, err = core.NewBucket(s.BucketRate, s.BucketCapacity); err != nil {
			rec.Err = err
			return rec
		}
	}
	if s.Budget {
		if budget, err = core.NewBudget(s.BudgetSize, s.BudgetRefill); err != nil {
			rec.Err = err
			return rec
		}
	}
	policy := s.Policy()
	y, _ := clock.(Yielder)
	// gate is ctx, closed too once the run has sent opt.MaxRequests: what
	// starts an attempt or a job waits on it; attempts in flight are
	// aborted by ctx only (Stop).
	gate, closeGate := context.WithCancel(ctx)
	defer closeGate()
	var sent atomic.Int64
	if opt.MaxRequests > 0 {
		observe := onRecord
		onRecord = func(r Record) {
			if r.Event.Kind == core.EventAttempt && sent.Add(1) == int64(opt.MaxRequests) {
				rec.mu.Lock()
				rec.Limited = true
				rec.mu.Unlock()
				closeGate()
			}
			if observe != nil {
				observe(r)
			}
		}
	}
	var wg sync.WaitGroup
	if o := s.OutageStretch(); o.To > o.From {
		od, ok := tr.(Outager)
		if !ok {
			rec.Err = errors.New("fleet: the scenario schedules a server outage (field outage), and this transport cannot take its server down")
			return rec
		}
		// Once every worker is done an outage not yet due is not started.
		octx, cancel := context.WithCancel(ctx)
		var owg sync.WaitGroup
		owg.Go(func() {
			if clock.Sleep(octx, rec.Start.Add(o.From).Sub(clock.Now())) != nil || octx.Err() != nil {
				return
			}
			if err := od.Outage(octx, o.To-o.From); err != nil && octx.Err() == nil {
				rec.mu.Lock()
				rec.OutageErr = err
				rec.mu.Unlock()
			}
		})
		defer func() { cancel(); owg.Wait() }()
	}
	for w := range s.Workers {
		if y != nil && w > 0 && w%StartBatch == 0 {
			y.Yield(gate)
		}
		wg.Go(func() {
			if s.every() > 0 { // open: each job starts when it arrives
				arr, at := s.Arrivals(), time.Duration(0)
				for j := range s.JobsOf(w) {
					at += arr.Gap(w, j)
					// A timer and Stop ready at once: Sleep may pick the timer,
					// so ctx is checked too (a job that had not arrived never starts).
					if clock.Sleep(gate, rec.Start.Add(at).Sub(clock.Now())) != nil || gate.Err() != nil {
						return
					}
					due := rec.Start.Add(at) // the wake may be late: its delay is the first send's lateness
					wg.Go(func() { runJob(ctx, gate, s, policy, w, j, due, bucket, budget, clock, tr, rec, onRecord) })
				}
				return
			}
			// Every worker's first job is due when the run starts, however
			// late its goroutine gets the thread; a later one when the last
			// ended. Between the two the page's thread may be busy for
			// hundreds of milliseconds (a loaded machine: 584 ms, found by
			// a review), and the delay counts, in the job's completion and
			// its first send's lateness, as it does for the first job.
			due := rec.Start
			for j := range s.JobsOf(w) {
				if gate.Err() != nil {
					return
				}
				due = runJob(ctx, gate, s, policy, w, j, due, bucket, budget, clock, tr, rec, onRecord)
			}
		})
	}
	wg.Wait()
	rec.Stopped = ctx.Err() != nil
	return rec
}

// runJob runs worker w's job j, due at due (see core.Loop.SetDue), and
// returns when it ended (its EventDone's time). Its waits and attempts
// start while gate is open; an attempt in flight is aborted when ctx is
// done (gate is ctx or a child of it).
func runJob(ctx, gate context.Context, s Scenario, policy core.Policy, w, j int, due time.Time, bucket *core.Bucket, budget *core.Budget,
	clock core.Clock, tr Transport, rec *Recording, onRecord func(Record)) (ended time.Time) {
	var last Attempt // the attempt in flight; Do reports its outcome synchronously
	observe := func(e core.Event) {
		if e.Kind == core.EventDone {
			ended = e.At
		}
		// A job the gate cancelled while ctx goes on was cut at the request
		// limit, not by Stop: its error says so (context.Canceled is both's
		// cause; a gate made WithCancelCause would carry ErrRequestLimit
		// itself, for 1.1 KB more of app.wasm).
		if se, ok := e.Err.(*core.StopError); ok && se.Context == context.Canceled && ctx.Err() == nil {
			se.Context = ErrRequestLimit
		}
		r := Record{Worker: w, Job: j, Event: e}
		if e.Kind == core.EventOutcome {
			a := last
			r.Attempt = &a
		}
		rec.Append(r)
		if onRecord != nil {
			onRecord(r)
		}
	}
	op := func(_ context.Context, attempt int) core.Outcome {
		actx, cancel := ctx, context.CancelFunc(nil)
		if s.Timeout > 0 {
			actx, cancel = context.WithTimeoutCause(ctx, s.Timeout, ErrTimeout)
		}
		a := tr.Do(actx, w, j, attempt)
		if cancel != nil {
			// The transport may see the deadline first (the page's fetch
			// worker keeps it on its own clock): its DeadlineExceeded is
			// this timeout too.
			if a.Err != nil && ctx.Err() == nil && (errors.Is(context.Cause(actx), ErrTimeout) || errors.Is(a.Err, context.DeadlineExceeded)) {
				if errors.Is(a.Err, context.DeadlineExceeded) { // the transport says only that: said once
					a.Err = fmt.Errorf("%w after %s", ErrTimeout, core.FormatDuration(s.Timeout))
				} else {
					a.Err = fmt.Errorf("%w after %s (%v)", ErrTimeout, core.FormatDuration(s.Timeout), a.Err)
				}
			}
			cancel()
		}
		last = a
		return a.Outcome()
	}
	loop := core.NewLoop(policy, core.NewRand(core.SubSeed(s.Seed, w, j)), bucket, budget, observe)
	loop.SetDue(due)
	core.Do(gate, loop, clock, op)
	return ended
}

// invalidScenario joins a scenario's validation errors.
func invalidScenario(errs []FieldError) error {
	es := make([]error, len(errs))
	for i, e := range errs {
		es[i] = e
	}
	return fmt.Errorf("fleet: invalid scenario: %w", errors.Join(es...))
}
