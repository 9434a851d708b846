package sim

import (
	"context"
	"errors"
	"fmt"
	"time"

	"retrylab/core"
)

// Record is one core.Event of a simulated fleet, tagged with the worker and
// job (0-based) that produced it. On EventOutcome, Response is the server's
// answer (nil when the attempt timed out before it came, or was aborted),
// and Seq and Received say when the server received the attempt, its
// answer come or not: a live run's timed-out attempt has them too, from
// the server's arrivals (a review found the simulation's without).
type Record struct {
	Worker, Job int
	Event       core.Event
	Response    *Response
	Seq         int       // on EventOutcome: the server's arrival number of the attempt, from 1
	Received    time.Time // on EventOutcome: when the server received the attempt
}

// ErrTimeout is the default error of an attempt that ran out of
// Fleet.Timeout. It wraps context.DeadlineExceeded, so core retries it as
// an ordinary failure.
var ErrTimeout = fmt.Errorf("sim: request timeout: %w", context.DeadlineExceeded)

// ErrLimit is the cause of the cancellation of every unfinished job when a
// simulation reaches Fleet.MaxAttempts.
var ErrLimit = errors.New("sim: attempt limit reached; simulation stopped")

// ErrInterrupted is the cause of the cancellation of every unfinished job
// when Fleet.Interrupt stops a simulation.
var ErrInterrupted = errors.New("sim: simulation stopped")

// errPastEnd is the outcome of an attempt whose answer (or timeout) would
// come after the end of virtual time (Scheduler.End): the job is stopped
// there, the attempt aborted, and the stop's cause is core.ErrHorizon
// (core.Loop.End), as for a wait that would end past it.
var errPastEnd = fmt.Errorf("sim: answer due after the end of virtual time: %w", core.ErrHorizon)

// Fleet is a fleet of clients in virtual time, as app/fleet's Run runs one
// live: Workers workers each run Jobs jobs (or, with Total, their share of
// Total jobs: Fleet.JobsOf), every job through its own
// core.Loop (the real retry state machine, driven here by the Scheduler
// instead of core.Do) with the random numbers
// core.NewPCG(core.SubSeed(Seed, worker, job)), the shared Bucket and
// Budget, and a per-attempt Timeout. Requests reach Server at the instant
// they are sent; the server's Response says when the answer is back.
//
// The workload is closed by default: every worker starts its first job at
// the scheduler's start, in worker order, and its next job at the instant
// the previous one ends, so a worker that backs off also sends less. With
// Every > 0 it is open: job j of worker w arrives at
// f.Arrivals().At(w, j) after the start (evenly spaced, or at random
// with RandomArrivals) and begins then, whether or not the worker's
// earlier jobs have ended, so waiting never slows the arrivals.
//
// Virtual time ends at the Scheduler's End (about 292 years after its
// start): each job's loop has that horizon (core.Loop.SetHorizon), so a job
// whose next wait would end after it stops before that wait, with
// core.ErrHorizon, rather than have the wait cut short (a live run would
// wait, until stopped). An attempt whose answer would come after it is
// aborted and its job stopped with that cause too.
//
// No goroutine is started: a closed fleet of 10,000 workers is 10,000
// small structs and a heap of at most 10,000 events; an open one holds a
// struct per job in progress, reused once the job ends.
//
// The zero Fleet is not valid: Validate (which Run calls) wants at least one
// worker and one job, a Server and a valid Policy (start from
// core.DefaultPolicy); the other fields' zero values are the defaults their
// comments give.
type Fleet struct {
	Workers, Jobs int // Jobs: each worker's, unless Total is set
	// Total, when above 0, is the fleet's jobs in all, dealt over the
	// workers (Deal) in place of Jobs each: a worker dealt none sends
	// nothing.
	Total int
	Every time.Duration // open workload: time between a worker's job arrivals (the mean with RandomArrivals); 0 = closed
	// RandomArrivals makes an open workload's arrivals a Poisson process
	// at the same average rate (Arrivals.Random), drawn from Seed.
	RandomArrivals bool
	Policy         core.Policy
	Bucket         *core.Bucket // shared by the fleet; nil = none
	Budget         *core.Budget // shared by the fleet; nil = none
	Seed           uint64
	Timeout        time.Duration // per attempt; 0 = none
	TimeoutErr     error         // Err of a timed-out attempt; nil = ErrTimeout
	Server         Server

	// MaxAttempts stops the simulation when this many attempts have been
	// sent: every unfinished job is then cancelled with cause ErrLimit
	// (EventDone with core.ErrCancelled) and no further job starts, as a
	// live run's Stop does. 0 = no limit.
	MaxAttempts int

	// Interrupt, if set, is called between events, every InterruptEvery
	// of them, with how far the simulation has come. When it returns true
	// the simulation stops there as at MaxAttempts, but with cause
	// ErrInterrupted: a user's Stop. A caller that shares its thread
	// (WebAssembly in a page) may let other work run inside the call.
	Interrupt func(Progress) bool

	// Observe, if set, receives every event as it happens. The Record is
	// only valid during the call.
	Observe func(*Record)
}

// Deal is how many of total jobs worker w of workers runs when they are
// dealt over the fleet: total ÷ workers, and one more for each of the
// first total mod workers workers (7 over 3: 3, 2, 2; 2 over 3: 1, 1, 0).
func Deal(total, workers, w int) int {
	if workers < 1 || w < 0 || w >= workers {
		return 0
	}
	n := total / workers
	if w < total%workers {
		n++
	}
	return n
}

// JobsOf is how many jobs worker w runs: Jobs, or its share of Total
// (Deal) when Total is set.
func (f *Fleet) JobsOf(w int) int {
	if f.Total > 0 {
		return Deal(f.Total, f.Workers, w)
	}
	return f.Jobs
}

// Arrivals is an open workload's schedule: when each worker's jobs
// arrive. Live runs and simulations both schedule by it.
type Arrivals struct {
	Every   time.Duration // a worker's time between job arrivals (the mean when Random)
	Workers int
	// Random: each gap is drawn from an exponential distribution of mean
	// Every, so every worker's arrivals, and the fleet's, are a Poisson
	// process (independent users) at the same average rate as the steady
	// schedule, with its bursts and lulls. The draws come from Seed.
	Random bool
	Seed   uint64
}

// ArrivalSalt sets the arrival gaps' random numbers apart from the jobs'
// own: job j of worker w draws from core.SubSeed(seed, w, j), its arrival
// gap from core.SubSeed(seed^ArrivalSalt, w, j).
const ArrivalSalt = 0x4172726976616c73 // "Arrivals"

// Gap is how long after worker w's job j-1 arrived its job j arrives (for
// j = 0, how long after the start). Steady: the workers' first arrivals
// are spread evenly over one interval, then every gap is Every, so the
// fleet receives a steady Workers/Every jobs per second. Random:
// -ln(1-u)·Every with u the first Float64 of
// core.NewPCG(core.SubSeed(Seed^ArrivalSalt, w, j)), the logarithm taken
// by log1pf: math.Log1p's algorithm without fused multiply-adds, so the
// gaps are the same bits natively (arm64 included) and in WebAssembly, and
// equal to -math.Log1p(-u)·Every where that runs unfused (amd64, wasm).
func (a Arrivals) Gap(w, j int) time.Duration {
	if a.Random {
		u := core.NewPCG(core.SubSeed(a.Seed^ArrivalSalt, w, j)).Float64()
		return time.Duration(float64(-log1pf(-u) * float64(a.Every)))
	}
	if j == 0 {
		return time.Duration(int64(a.Every) * int64(w) / int64(max(a.Workers, 1)))
	}
	return a.Every
}

// At is when worker w's job j arrives after the start: its gaps added up.
func (a Arrivals) At(w, j int) time.Duration {
	if !a.Random {
		return a.Gap(w, 0) + time.Duration(j)*a.Every
	}
	var t time.Duration
	for k := 0; k <= j; k++ {
		t += a.Gap(w, k)
	}
	return t
}

// Arrivals is the fleet's open-workload schedule.
func (f *Fleet) Arrivals() Arrivals {
	return Arrivals{Every: f.Every, Workers: f.Workers, Random: f.RandomArrivals, Seed: f.Seed}
}

// FleetResult summarises a simulated fleet run.
type FleetResult struct {
	End         time.Time // when the last job ended
	Attempts    int       // attempts sent
	Jobs        int       // jobs that ended (succeeded or gave up)
	Stopped     bool      // MaxAttempts was reached
	Interrupted bool      // Interrupt stopped it
	Events      uint64    // scheduler events fired
}

// InterruptEvery is how many events a simulation fires between its calls
// of Fleet.Interrupt: about a millisecond of work.
const InterruptEvery = 1024

// Progress is how far a simulation has come, as Fleet.Interrupt sees it.
type Progress struct {
	Now      time.Time     // the virtual clock
	Elapsed  time.Duration // virtual time since Run began
	Attempts int           // attempts sent so far
	Jobs     int           // jobs ended so far
	// Over is never set by Fleet: a caller that goes on asking once the
	// simulation has ended (app/fleet, while it gathers the records) sets
	// it, so that the answer is known to mean nothing more.
	Over bool
}

// Event arguments of a job.
const (
	argStart = iota // start the job (closed: the worker's next job)
	argWake         // a wait ended
	argReply        // the attempt in flight ended (answer or timeout)
)

type fleetRun struct {
	f        *Fleet
	sched    *Scheduler
	closed   []job      // closed workload: one per worker, running its jobs in turn
	open     []*job     // open workload: every job struct made, in progress or free
	free     []*job     // open workload: structs of ended jobs, for the next arrivals
	sources  []arrivals // open workload: one per worker
	arr      Arrivals   // open workload: the schedule
	attempts int
	jobs     int
	stopped  bool
	cause    error     // of the stop: ErrLimit or ErrInterrupted
	end      time.Time // when the last job ended
	rec      Record
	tmoErr   error
}

// job is one job in progress (closed workload: a worker's current job).
type job struct {
	run         *fleetRun
	worker, job int
	loop        *core.Loop
	rng         core.PCG         // the job's generator, reseeded per job (no allocation)
	observe     func(core.Event) // made once per struct
	outcome     core.Outcome
	resp        *Response // answer of the attempt in flight; nil after a timeout
	respBuf     Response  // the server's decision on the attempt in flight, answered or not
	inFlight    bool
	finished    bool // nothing left to do: the run stopped, the worker's jobs (closed) or this job (open) ended
}

// arrivals starts one worker's jobs of an open workload as they arrive.
type arrivals struct {
	run         *fleetRun
	worker, job int // the next job to arrive
}

// Validate checks the fleet's own fields (the policy, bucket and budget
// are checked by core).
func (f *Fleet) Validate() error {
	switch {
	case f.Workers < 1:
		return fmt.Errorf("sim: fleet workers %d: must be at least 1", f.Workers)
	case f.Total < 0:
		return fmt.Errorf("sim: fleet total %d: must not be negative (0: Jobs per worker)", f.Total)
	case f.Total == 0 && f.Jobs < 1:
		return fmt.Errorf("sim: fleet jobs %d: must be at least 1", f.Jobs)
	case f.Timeout < 0:
		return fmt.Errorf("sim: fleet timeout %v: must not be negative", f.Timeout)
	case f.Server == nil:
		return errors.New("sim: fleet has no server")
	case f.MaxAttempts < 0:
		return fmt.Errorf("sim: fleet max attempts %d: must not be negative", f.MaxAttempts)
	case f.Every < 0:
		return fmt.Errorf("sim: fleet job interval %v: must not be negative", f.Every)
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
	r := &fleetRun{f: f, sched: sched, tmoErr: f.TimeoutErr, arr: f.Arrivals()}
	if r.tmoErr == nil {
		r.tmoErr = ErrTimeout
	}
	fired := sched.Fired()
	if f.Every > 0 {
		r.sources = make([]arrivals, f.Workers)
		for i := range r.sources {
			a := &r.sources[i]
			a.run, a.worker = r, i
			if f.JobsOf(i) > 0 {
				sched.After(r.arr.Gap(i, 0), a, argStart)
			}
		}
	} else {
		r.closed = make([]job, f.Workers)
		for i := range r.closed {
			j := &r.closed[i]
			j.run, j.worker = r, i
			if f.JobsOf(i) > 0 {
				sched.After(0, j, argStart)
			} else {
				j.finished = true // dealt no job
			}
		}
	}
	r.end = sched.Now()
	began := r.end
	if f.Interrupt == nil {
		sched.Run()
	} else {
		for n := 1; sched.Step(); n++ {
			if n%InterruptEvery != 0 || r.stopped {
				continue
			}
			if f.Interrupt(Progress{Now: sched.Now(), Elapsed: sched.Now().Sub(began), Attempts: r.attempts, Jobs: r.jobs}) {
				r.stopped, r.cause = true, ErrInterrupted
				r.stop(sched.Now())
			}
		}
	}
	res := FleetResult{End: r.end, Attempts: r.attempts, Jobs: r.jobs, Stopped: r.cause == ErrLimit, Interrupted: r.cause == ErrInterrupted, Events: sched.Fired() - fired}
	return res, nil
}

func (r *fleetRun) emit(j *job, e core.Event) {
	if r.f.Observe == nil {
		return
	}
	r.rec = Record{Worker: j.worker, Job: j.job, Event: e}
	if e.Kind == core.EventOutcome {
		r.rec.Response, r.rec.Seq, r.rec.Received = j.resp, j.respBuf.Seq, j.respBuf.Received
	}
	r.f.Observe(&r.rec)
}

// Fire starts the worker's next job as it arrives (open workload) and
// schedules the one after.
func (a *arrivals) Fire(now time.Time, _ int) {
	r := a.run
	if r.stopped {
		return
	}
	var j *job
	if n := len(r.free); n > 0 {
		j, r.free = r.free[n-1], r.free[:n-1]
	} else {
		j = &job{run: r}
		r.open = append(r.open, j)
	}
	j.worker, j.job, j.finished = a.worker, a.job, false
	a.job++
	if a.job < r.f.JobsOf(a.worker) {
		r.sched.After(r.arr.Gap(a.worker, a.job), a, argStart)
	}
	j.Fire(now, argStart)
}

// Fire advances the job: start it, end a wait, or end an attempt.
func (j *job) Fire(now time.Time, arg int) {
	r := j.run
	if j.finished {
		return
	}
	var step core.Step
	switch arg {
	case argStart:
		step = j.start(now)
	case argWake:
		step = j.loop.Woke(now)
	case argReply:
		j.inFlight = false
		step = j.loop.End(now, j.outcome)
	}
	for {
		if r.stopped {
			r.stop(now)
			return
		}
		switch step.Action {
		case core.ActWait: // the loop's horizon is the scheduler's end: this is due by then
			r.sched.After(step.Wait, j, argWake)
			return
		case core.ActAttempt:
			if r.f.MaxAttempts > 0 && r.attempts >= r.f.MaxAttempts {
				r.stopped, r.cause = true, ErrLimit
				continue
			}
			r.attempts++
			j.inFlight = true
			n := j.loop.Begin(now)
			j.respBuf = r.f.Server.Arrive(now, Request{Worker: j.worker, Job: j.job, Attempt: n})
			resp := &j.respBuf
			delay := resp.Delay
			if t := r.f.Timeout; t > 0 && delay >= t {
				delay = t
				j.resp, j.outcome = nil, core.Outcome{Err: r.tmoErr}
			} else {
				j.resp = resp
				j.outcome = core.Outcome{Status: resp.Status, Header: resp.Header, Err: resp.Err}
			}
			if !r.sched.After(delay, j, argReply) { // due after the end of virtual time
				j.resp, j.inFlight = nil, false
				step = j.loop.End(now, core.Outcome{Err: errPastEnd})
				continue
			}
			return
		case core.ActDone:
			r.jobs++
			r.end = now
			j.finished, j.loop = true, nil
			if r.f.Every > 0 { // open: the struct serves the next arrival
				r.free = append(r.free, j)
				return
			}
			j.job++
			if j.job >= r.f.JobsOf(j.worker) {
				return
			}
			j.finished = false
			step = j.start(now)
		}
	}
}

func (j *job) start(now time.Time) core.Step {
	r := j.run
	if r.f.Observe != nil && j.observe == nil {
		j.observe = func(e core.Event) { r.emit(j, e) }
	}
	j.rng = *core.NewPCG(core.SubSeed(r.f.Seed, j.worker, j.job))
	j.loop = core.NewLoop(r.f.Policy, &j.rng, r.f.Bucket, r.f.Budget, j.observe)
	j.loop.SetHorizon(r.sched.End())
	return j.loop.Start(now)
}

// errAborted and errInterruptedAborted are the outcome of an attempt in
// flight when the simulation stops, at MaxAttempts or by Interrupt:
// aborted, as a live run's Stop aborts a fetch.
var (
	errAborted            = fmt.Errorf("sim: attempt aborted: %w (%w)", context.Canceled, ErrLimit)
	errInterruptedAborted = fmt.Errorf("sim: attempt aborted: %w (%w)", context.Canceled, ErrInterrupted)
)

// stop cancels every unfinished job, at now: an attempt in flight ends
// aborted (its outcome is reported, as a live run reports an aborted
// fetch), a wait or a job about to send is cancelled. Jobs that have not
// arrived yet never start.
func (r *fleetRun) stop(now time.Time) {
	for i := range r.closed {
		r.cancel(&r.closed[i], now)
	}
	for _, j := range r.open {
		r.cancel(j, now)
	}
}

func (r *fleetRun) cancel(j *job, now time.Time) {
	if j.finished {
		return
	}
	j.finished = true
	if j.loop != nil {
		if done, _ := j.loop.Done(); !done {
			abort := errAborted
			if r.cause == ErrInterrupted {
				abort = errInterruptedAborted
			}
			if j.inFlight {
				j.resp, j.inFlight = nil, false
				j.loop.End(now, core.Outcome{Err: abort})
			} else {
				j.loop.Cancel(now, r.cause)
			}
			r.jobs++
			r.end = now
		}
	}
	j.loop = nil
}
