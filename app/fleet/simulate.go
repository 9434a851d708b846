package fleet

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"retrylab/app/mock"
	"retrylab/core"
	"retrylab/core/sim"
)

// SimWorkersRange is the fleet size Simulate accepts: a simulation costs
// no connections, so it goes well past the live WorkersRange.
var SimWorkersRange = core.Range[int]{Min: 1, Max: 10000}

// DefaultSimMaxAttempts is the most attempts a simulation sends before it
// stops (see SimOptions.MaxAttempts): about 3 records and 250 bytes of
// memory each, so a stopped simulation holds a few hundred megabytes at
// most.
const DefaultSimMaxAttempts = 1_000_000

// SimEpoch is the virtual start of a simulation whose SimOptions.Start is
// zero. Only differences from it are shown, but Retry-After dates are
// whole seconds, so a fixed start keeps them reproducible.
var SimEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// SimOptions tune SimulateWith. The zero value is what Simulate uses.
type SimOptions struct {
	Start       time.Time    // virtual start of the run; zero = SimEpoch
	MaxAttempts int          // stop after this many attempts; 0 = DefaultSimMaxAttempts
	OnRecord    func(Record) // called with every record as it is appended (nil ok)
	// Interrupt, if set, is asked every sim.InterruptEvery events how far
	// the simulation has come; returning true stops it there, as Stop
	// stops a live run: the jobs in progress are cancelled (their
	// attempts in flight aborted), those not arrived never start, and the
	// Recording's Stopped is set. The page lets its event loop run inside
	// the call, so a big simulation does not hold the thread. Once the
	// simulation is over, it is called too, with Progress.Over set and
	// its answer ignored, as the records are gathered into the Recording
	// (0.4 s of a page's thread for 900,000 of them): at once, and after
	// each slice. The time spent in it is not counted in SimSummary.Wall.
	Interrupt func(sim.Progress) bool
	// Discard keeps no record in the Recording, only its numbers
	// (Recording.Numbers; OnRecord still sees each record). The records
	// take ~1.5 KB an attempt: a million attempts took 1.5 GB, where a
	// caller that exports none needs the numbers only (retrylab sim
	// scenario).
	Discard bool
}

// SimSummary is what SimulateWith reports besides the Recording.
type SimSummary struct {
	Attempts    int           // attempts simulated
	Events      uint64        // scheduler events fired
	Stopped     bool          // MaxAttempts was reached (the Recording's Limited): unfinished jobs were cancelled (their EventDone wraps sim.ErrLimit; AtAttemptLimit)
	Interrupted bool          // SimOptions.Interrupt stopped it (the Recording's Stopped): unfinished jobs were cancelled (their EventDone wraps sim.ErrInterrupted)
	Virtual     time.Duration // virtual time from the start to the last job's end
	Wall        time.Duration // real time the simulation took, less the time spent in SimOptions.Interrupt
}

// Simulate runs the scenario in virtual time and returns its Recording,
// at once: the same Records a live Run against the built-in mock produces
// (workers, jobs, core events from the same core.Loop with the same
// per-job seeds core.SubSeed(Seed, worker, job), the mock's arrival number
// and receive time on each outcome), with Simulated set. Stats, Histogram,
// JSON and CSV work on it as on a live run.
//
// The endpoint is app/mock's, modelled by core/sim: the same core limiter
// built from Mock.LimiterConfig(), the same status, Retry-After values
// (malformed ones included) and rate-limit headers, latency + U(0, spread),
// and injected failures, decided by the function the mock decides with
// (endpoint.Config.Decide), each attempt's failure and spread rolled as the
// mock rolls them with the page's seed (mock.SeededRolls of Seed and the
// attempt's tag), so with one seed the same attempts fail, and wait alike,
// live and simulated. Requests reach the mock the instant they are sent
// and answers come back after the mock's latency: no network, browser
// queueing or timer lateness (Attempt.Queued is 0, every attempt is sent
// when intended). A drop is answered at once by an error (a live Go or
// browser client may resend it once on a reused connection); a hang ends
// at the timeout, or after the mock's 60 s limit.
//
// Workers may go up to SimWorkersRange.Max (10,000); every other field must
// pass Validate. A custom Target cannot be simulated, and a shared Room is
// simulated as if no one else used it. On such errors the Recording has
// Err set and no records, as Run does for an invalid scenario.
func Simulate(s Scenario) *Recording {
	rec, _ := SimulateWith(s, SimOptions{})
	return rec
}

// SimulateWith is Simulate with options, also returning a summary.
func SimulateWith(s Scenario, o SimOptions) (*Recording, SimSummary) {
	began := time.Now()
	start := o.Start
	if start.IsZero() {
		start = SimEpoch
	}
	start = start.Round(0)
	rec := NewRecording(s, start, true)
	var sum SimSummary
	fail := func(err error) (*Recording, SimSummary) {
		rec.Err = err
		rec.Finish(start)
		sum.Wall = time.Since(began)
		return rec, sum
	}
	if err := checkSimulable(s); err != nil {
		return fail(err)
	}
	defer RelaxGC(-1)()
	var bucket *core.Bucket
	var budget *core.Budget
	var err error
	if s.Bucket {
		if bucket, err = core.NewBucket(s.BucketRate, s.BucketCapacity); err != nil {
			return fail(err)
		}
	}
	if s.Budget {
		if budget, err = core.NewBudget(s.BudgetSize, s.BudgetRefill); err != nil {
			return fail(err)
		}
	}
	e := SimEndpoint(s.mockParams())
	if o := s.OutageStretch(); o.To > 0 {
		e.Outages = []sim.Outage{o}
		rec.faults = []Fault{{Kind: "outage", From: start.Add(o.From), Until: start.Add(o.To)}}
	}
	srv, err := sim.NewEndpointServer(e, start, core.SubSeed(s.Seed, -1, 0)) // its generator draws nothing: e rolls by attempt
	if err != nil {
		return fail(err)
	}
	maxAttempts := o.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = DefaultSimMaxAttempts
	}
	f := sim.Fleet{
		Workers: s.Workers, Jobs: s.Jobs, Total: s.simTotal(), Every: s.every(), RandomArrivals: s.RandomArrivals,
		Policy: s.Policy(), Bucket: bucket, Budget: budget,
		Seed:        s.Seed,
		Timeout:     s.Timeout,
		TimeoutErr:  fmt.Errorf("%w after %s (simulated)", ErrTimeout, core.FormatDuration(s.Timeout)),
		Server:      srv,
		MaxAttempts: maxAttempts,
	}
	var away time.Duration // in o.Interrupt: the caller's, not the simulation's
	interrupt := func(p sim.Progress) bool {
		if o.Interrupt == nil {
			return false
		}
		t := time.Now()
		stop := o.Interrupt(p)
		away += time.Since(t)
		return stop
	}
	if o.Interrupt != nil { // else Fleet.Run runs without asking
		f.Interrupt = interrupt
	}
	// Records are gathered in chunks, then copied once into a slice of
	// the exact length for the recording: a growing slice would copy them
	// at every doubling and could hold twice the room it needs. Attempt
	// facts are allocated in slabs.
	const chunkLen = 1 << 15
	var chunks [][]Record
	var cur []Record
	var acc *StatsAcc // Discard's numbers
	if o.Discard {
		acc = NewStatsAcc(start, 0)
	} else {
		cur = make([]Record, 0, min(3*s.TotalJobs(), chunkLen)) // every job makes at least 3
	}
	total := 0
	var slab []Attempt
	f.Observe = func(r *sim.Record) {
		if o.Discard {
			out := Record{Worker: r.Worker, Job: r.Job, Event: r.Event}
			if r.Event.Kind == core.EventOutcome {
				a := simAttempt(r)
				out.Attempt = &a
			}
			acc.Add(&out)
			if o.OnRecord != nil {
				o.OnRecord(out)
			}
			return
		}
		if len(cur) == cap(cur) {
			chunks = append(chunks, cur)
			cur = make([]Record, 0, chunkLen)
		}
		cur = append(cur, Record{Worker: r.Worker, Job: r.Job, Event: r.Event})
		out := &cur[len(cur)-1]
		total++
		if r.Event.Kind == core.EventOutcome {
			if len(slab) == cap(slab) {
				slab = make([]Attempt, 0, 4096)
			}
			slab = append(slab, simAttempt(r))
			out.Attempt = &slab[len(slab)-1]
		}
		if o.OnRecord != nil {
			o.OnRecord(*out)
		}
	}
	res, err := f.Run(sim.NewScheduler(start))
	if err != nil {
		return fail(err)
	}
	over := sim.Progress{Now: res.End, Elapsed: res.End.Sub(start), Attempts: res.Attempts, Jobs: res.Jobs, Over: true}
	interrupt(over)
	all := cur
	if len(chunks) > 0 {
		all = make([]Record, 0, total)
		for _, c := range chunks {
			all = append(all, c...)
			interrupt(over)
		}
		all = append(all, cur...)
		chunks, cur = nil, nil
	}
	rec.adopt(all)
	rec.Finish(res.End)
	if len(rec.faults) > 0 && !rec.faults[0].From.Before(res.End) {
		// Scheduled for after the run was over: it never came, as a
		// live run's does not (its timer stops with the run).
		rec.faults = nil
	}
	rec.Limited, rec.Stopped = res.Stopped, res.Interrupted
	if acc != nil {
		st := acc.Stats()
		rec.Final(&st)
		rec.KeepNumbers(st, acc.Dispersion(DispersionSlice))
	}
	sum = SimSummary{Attempts: res.Attempts, Events: res.Events, Stopped: res.Stopped, Interrupted: res.Interrupted, Virtual: res.End.Sub(start), Wall: time.Since(began) - away}
	return rec, sum
}

// checkSimulable validates s as Run would, except that Workers may go up to
// SimWorkersRange.Max, and refuses what the simulator cannot model.
func checkSimulable(s Scenario) error {
	if !SimWorkersRange.Contains(s.Workers) {
		return fmt.Errorf("fleet: workers %d: must be %s to simulate", s.Workers, SimWorkersRange)
	}
	if s.Target != "" {
		return errors.New("fleet: a custom target cannot be simulated: the simulator models only the built-in mock endpoint")
	}
	c := s
	c.Workers = min(c.Workers, WorkersRange.Max)
	if errs := c.Validate(); errs != nil {
		es := make([]error, len(errs))
		for i, e := range errs {
			es[i] = e
		}
		return fmt.Errorf("fleet: invalid scenario: %w", errors.Join(es...))
	}
	return nil
}

// SimEndpoint is the mock endpoint p describes, for core/sim: the limiter of
// p.LimiterConfig(), p's status, Retry-After mode (malformed values as the
// mock writes them), headers, latency and injected failures. With
// p.Seeded, each attempt rolls its failure and spread as the mock rolls
// those of a request tagged AttemptTag("", worker, job, attempt) with
// p.Seed; without, the endpoint server draws them. Key and Tag play no
// part.
func SimEndpoint(p mock.Params) sim.Endpoint {
	e := sim.Endpoint{Config: p.Endpoint()}
	if p.Seeded {
		seed := p.Seed
		e.Rolls = func(r sim.Request) (fail, spread float64) {
			var b [32]byte // the tag stays on the stack
			return mock.SeededRolls(seed, "", string(appendAttemptTag(b[:0], r.Worker, r.Job, r.Attempt)), 0)
		}
	}
	if p.RetryAfter == mock.RetryMalformed {
		// The mock's own function: the same garbage, kind by kind.
		e.RetryAfterValue = func(d core.Decision, now time.Time, seq int) (string, bool) {
			b, ok := mock.AppendRetryAfter(nil, &p, d, now, uint64(seq))
			return string(b), ok
		}
	}
	return e
}

// adopt makes recs the recording's records (it must have none yet) without
// copying them: Append would copy a simulation's million records, and grow
// the slice by a quarter at a time.
func (r *Recording) adopt(recs []Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.records) == 0 {
		r.records = recs
		return
	}
	r.records = append(r.records, recs...)
}

// SimMemoryLimit is the Go memory limit while a simulation or a live run
// has the collector relaxed (see RelaxGC), unless a lower one is set.
const SimMemoryLimit = 1 << 30

var gcRelaxed struct {
	sync.Mutex
	n       int // callers that have not restored yet
	percent int // GOGC before the first of them
	limit   int64
}

// RelaxGC sets GOGC to percent (-1: off) with the memory limit at most
// SimMemoryLimit, until the returned function is called. In WebAssembly the
// collector shares the page's one thread: once a cycle starts marking, it
// marks to the end without letting the event loop run, and its write
// barriers slow everything meanwhile. A simulation switches it off (it
// allocates little garbage but builds a large, pointer-rich recording; the
// mark phase made a 10,000-worker simulation 2.5 times slower, 1.8 s instead
// of 0.7 s under node); the page relaxes it during a live run. Nested and
// concurrent calls are counted: each sets its percent (the latest holds),
// and the last restore brings back the settings from before the first.
func RelaxGC(percent int) (restore func()) {
	gcRelaxed.Lock()
	defer gcRelaxed.Unlock()
	if gcRelaxed.n == 0 {
		gcRelaxed.percent = debug.SetGCPercent(percent)
		gcRelaxed.limit = debug.SetMemoryLimit(-1) // -1: read only
		debug.SetMemoryLimit(min(gcRelaxed.limit, SimMemoryLimit))
	} else {
		debug.SetGCPercent(percent)
	}
	gcRelaxed.n++
	return sync.OnceFunc(func() {
		gcRelaxed.Lock()
		defer gcRelaxed.Unlock()
		gcRelaxed.n--
		if gcRelaxed.n == 0 {
			debug.SetMemoryLimit(gcRelaxed.limit)
			debug.SetGCPercent(gcRelaxed.percent)
		}
	})
}

// AtAttemptLimit reports whether err is a simulation's cut at its attempt
// limit (SimOptions.MaxAttempts): the attempt aborted, or the job
// cancelled, there. A live run's are Stop's.
func AtAttemptLimit(err error) bool { return errors.Is(err, sim.ErrLimit) }

// simAttempt is the facts of r, an outcome, as a live run's transport
// reports them: its answer and the simulated server's arrival number and
// time.
func simAttempt(r *sim.Record) Attempt {
	return Attempt{Status: r.Event.Outcome.Status, Header: r.Event.Outcome.Header, Err: r.Event.Outcome.Err, ServerSeq: r.Seq, ServerAt: r.Received}
}
