package sim

import (
	"context"
	"errors"
	"fmt"
	"time"

	"retrylab/core"
)

// Record is one core.Event of a simulated fleet, tagged with the worker and
// job (0-based) that produced it; on EventOutcome, Response is the server's
// answer (nil when the attempt timed out before it came).
type Record struct {
	Worker, Job int
	Event       core.Event
	Response    *Response
}

// ErrTimeout is the default error of an attempt that ran out of
// Fleet.Timeout. It wraps context.DeadlineExceeded, so core retries it as
// an ordinary failure.
var ErrTimeout = fmt.Errorf("sim: request timeout: %w", context.DeadlineExceeded)

// ErrLimit is the cause of the cancellation of every unfinished job when a
// simulation reaches Fleet.MaxAttempts.
var ErrLimit = errors.New("sim: attempt limit reached; simulation stopped")

// Fleet is a fleet of clients in virtual time, as app/fleet's Run runs one
// live: Workers workers each run Jobs jobs one after another, every job
// through its own core.Loop (the real retry state machine, driven here by
// the Scheduler instead of core.Do) with the random numbers
// core.NewPCG(core.SubSeed(Seed, worker, job)), the shared Bucket and
// Budget, and a per-attempt Timeout. Requests reach Server at the instant
// they are sent; the server's Response says when the answer is back.
//
// Every worker starts its first job at the scheduler's start, in worker
// order; a worker starts its next job at the instant the previous one
// ends. No goroutine is started: a fleet of 10,000 workers is 10,000 small
// structs and a heap of at most 10,000 events.
type Fleet struct {
	Workers, Jobs int
	Policy        core.Policy
	Bucket        *core.Bucket // shared by the fleet; nil = none
	Budget        *core.Budget // shared by the fleet; nil = none
	Seed          uint64
	Timeout       time.Duration // per attempt; 0 = none
	TimeoutErr    error         // Err of a timed-out attempt; nil = ErrTimeout
	Server        Server

	// MaxAttempts stops the simulation when this many attempts have been
	// sent: every unfinished job is then cancelled with cause ErrLimit
	// (EventDone with core.ErrCancelled) and no further job starts, as a
	// live run's Stop does. 0 = no limit.
	MaxAttempts int

	// Observe, if set, receives every event as it happens. The Record is
	// only valid during the call.
	Observe func(*Record)
}

// FleetResult summarises a simulated fleet run.
type FleetResult struct {
	End      time.Time // when the last job ended
	Attempts int       // attempts sent
	Jobs     int       // jobs that ended (succeeded or gave up)
	Stopped  bool      // MaxAttempts was reached
	Events   uint64    // scheduler events fired
}

// Event arguments of a worker.
const (
	argStart = iota // start the worker's next job
	argWake         // a wait ended
	argReply        // the attempt in flight ended (answer or timeout)
)

type fleetRun struct {
	f        *Fleet
	sched    *Scheduler
	workers  []worker
	attempts int
	jobs     int
	stopped  bool
	end      time.Time // when the last job ended
	rec      Record
	tmoErr   error
}

type worker struct {
	run      *fleetRun
	id, job  int
	loop     *core.Loop
	rng      core.PCG         // the current job's generator, reseeded per job (no allocation)
	observe  func(core.Event) // made once per worker
	outcome  core.Outcome
	resp     *Response // answer of the attempt in flight; nil after a timeout
	respBuf  Response
	inFlight bool
	finished bool
}

// Validate checks the fleet's own fields (the policy, bucket and budget
// are checked by core).
func (f *Fleet) Validate() error {
	switch {
	case f.Workers < 1:
		return fmt.Errorf("sim: fleet workers %d: must be at least 1", f.Workers)
	case f.Jobs < 1:
		return fmt.Errorf("sim: fleet jobs %d: must be at least 1", f.Jobs)
	case f.Timeout < 0:
		return fmt.Errorf("sim: fleet timeout %v: must not be negative", f.Timeout)
	case f.Server == nil:
		return errors.New("sim: fleet has no server")
	case f.MaxAttempts < 0:
		return fmt.Errorf("sim: fleet max attempts %d: must not be negative", f.MaxAttempts)
	}
	return f.Policy.Validate()
}

// Run simulates the fleet on sched from its current instant until every job
// has ended (or MaxAttempts was reached) and returns the summary. Other
// actors may share the scheduler; Run returns when no event is left.
func (f *Fleet) Run(sched *Scheduler) (FleetResult, error) {
	if err := f.Validate(); err != nil {
		return FleetResult{}, err
	}
	r := &fleetRun{f: f, sched: sched, workers: make([]worker, f.Workers), tmoErr: f.TimeoutErr}
	if r.tmoErr == nil {
		r.tmoErr = ErrTimeout
	}
	fired := sched.Fired()
	for i := range r.workers {
		w := &r.workers[i]
		w.run, w.id = r, i
		sched.After(0, w, argStart)
	}
	r.end = sched.Now()
	sched.Run()
	res := FleetResult{End: r.end, Attempts: r.attempts, Jobs: r.jobs, Stopped: r.stopped, Events: sched.Fired() - fired}
	return res, nil
}

func (r *fleetRun) emit(w *worker, e core.Event) {
	if r.f.Observe == nil {
		return
	}
	r.rec = Record{Worker: w.id, Job: w.job, Event: e}
	if e.Kind == core.EventOutcome {
		r.rec.Response = w.resp
	}
	r.f.Observe(&r.rec)
}

// Fire advances the worker: start a job, end a wait, or end an attempt.
func (w *worker) Fire(now time.Time, arg int) {
	r := w.run
	if w.finished {
		return
	}
	var step core.Step
	switch arg {
	case argStart:
		step = w.startJob(now)
	case argWake:
		step = w.loop.Woke(now)
	case argReply:
		w.inFlight = false
		step = w.loop.End(now, w.outcome)
	}
	for {
		if r.stopped {
			r.stop(now)
			return
		}
		switch step.Action {
		case core.ActWait:
			r.sched.After(step.Wait, w, argWake)
			return
		case core.ActAttempt:
			if r.f.MaxAttempts > 0 && r.attempts >= r.f.MaxAttempts {
				r.stopped = true
				continue
			}
			r.attempts++
			w.inFlight = true
			n := w.loop.Begin(now)
			resp := r.f.Server.Arrive(now, Request{Worker: w.id, Job: w.job, Attempt: n})
			if t := r.f.Timeout; t > 0 && resp.Delay >= t {
				w.resp, w.outcome = nil, core.Outcome{Err: r.tmoErr}
				r.sched.After(t, w, argReply)
				return
			}
			w.respBuf = resp
			w.resp = &w.respBuf
			w.outcome = core.Outcome{Status: resp.Status, Header: resp.Header, Err: resp.Err}
			r.sched.After(resp.Delay, w, argReply)
			return
		case core.ActDone:
			r.jobs++
			r.end = now
			w.job++
			if w.job >= r.f.Jobs {
				w.finished, w.loop = true, nil
				return
			}
			step = w.startJob(now)
		}
	}
}

func (w *worker) startJob(now time.Time) core.Step {
	r := w.run
	if r.f.Observe != nil && w.observe == nil {
		w.observe = func(e core.Event) { r.emit(w, e) }
	}
	w.rng = *core.NewPCG(core.SubSeed(r.f.Seed, w.id, w.job))
	w.loop = core.NewLoop(r.f.Policy, &w.rng, r.f.Bucket, r.f.Budget, w.observe)
	return w.loop.Start(now)
}

// errAborted is the outcome of an attempt in flight when the simulation
// stops: aborted, as a live run's Stop aborts a fetch.
var errAborted = fmt.Errorf("sim: attempt aborted: %w (%w)", context.Canceled, ErrLimit)

// stop cancels every unfinished job, at now: an attempt in flight ends
// aborted (its outcome is reported, as a live run reports an aborted
// fetch), a wait or a job about to send is cancelled.
func (r *fleetRun) stop(now time.Time) {
	for i := range r.workers {
		w := &r.workers[i]
		if w.finished {
			continue
		}
		w.finished = true
		if w.loop != nil {
			if done, _ := w.loop.Done(); !done {
				if w.inFlight {
					w.resp, w.inFlight = nil, false
					w.loop.End(now, core.Outcome{Err: errAborted})
				} else {
					w.loop.Cancel(now, ErrLimit)
				}
				r.jobs++
				r.end = now
			}
		}
		w.loop = nil
	}
}
