package fleet

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"retrylab/core"
)

// Class is an attempt's outcome as the page colours it.
type Class uint8

const (
	ClassOK      Class = iota // a success (status below 400, no error)
	ClassLimited              // 429 or 503: the server said slow down
	ClassFailed               // any other failing status, or a network error
	ClassTimeout              // abandoned after the request timeout
	ClassAborted              // aborted (context cancelled): by Stop, or by a simulation's attempt limit (AtAttemptLimit)
	ClassPending              // sent, no outcome yet
	NumClasses   = 6
)

var classNames = [NumClasses]string{"ok", "limited", "failed", "timeout", "aborted", "pending"}

// String returns "ok", "limited", "failed", "timeout", "aborted" or "pending".
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "invalid"
}

// Classify sorts an attempt's outcome into a Class.
func Classify(o core.Outcome) Class {
	switch {
	case o.Err != nil && errors.Is(o.Err, context.DeadlineExceeded):
		return ClassTimeout
	case o.Err != nil && (errors.Is(o.Err, context.Canceled) || errors.Is(o.Err, core.ErrCancelled)):
		return ClassAborted
	case o.Err != nil:
		return ClassFailed
	case o.Status == 429 || o.Status == 503:
		return ClassLimited
	case o.Status >= 400:
		return ClassFailed
	}
	return ClassOK
}

// Cause names why a job ended, from its EventDone error: "success",
// "exhausted", "max-elapsed", "permanent", "above-ceiling", "budget-empty",
// "horizon" (a simulated job whose next wait, or answer, would come after
// the end of virtual time: core.ErrHorizon), "cancelled", or "invalid" (the
// policy did not validate).
func Cause(err error) string {
	switch {
	case err == nil:
		return "success"
	case errors.Is(err, core.ErrHorizon):
		return "horizon"
	case errors.Is(err, core.ErrCancelled):
		return "cancelled"
	case errors.Is(err, core.ErrExhausted):
		return "exhausted"
	case errors.Is(err, core.ErrMaxElapsed):
		return "max-elapsed"
	case errors.Is(err, core.ErrPermanent):
		return "permanent"
	case errors.Is(err, core.ErrAboveCeiling):
		return "above-ceiling"
	case errors.Is(err, core.ErrBudgetEmpty):
		return "budget-empty"
	}
	return "invalid"
}

// Stats are the numbers the page shows for a run.
type Stats struct {
	Requests   int // attempts sent (EventAttempt)
	FirstTries int // attempts numbered 1
	Retries    int // Requests - FirstTries

	// Attempts by outcome (EventOutcome): Classify. The page's "429s" is
	// Limited (429 and 503 answers).
	OK, Limited, Failed, Timeouts, Aborted int
	InFlight                               int // sent without an outcome yet
	// AbortedAtLimit is, of Aborted, the attempts a simulation's attempt
	// limit cut (AtAttemptLimit), which nobody stopped. The others are
	// Stop's: a live run's request limit lets its attempts in flight end.
	AbortedAtLimit int

	Jobs      int            // jobs finished: Successes + GiveUps
	Successes int            // jobs that succeeded
	GiveUps   int            // jobs that stopped with an error, cancelled ones included
	Cancelled int            // of GiveUps: stopped by Stop
	Causes    map[string]int // GiveUps by Cause (never "success")
	// PeakJobs is the most jobs in progress at once, each from when it was
	// due (as its completion counts) to its EventDone, or on while it has
	// none: at most Workers in a closed workload, whose worker's next job
	// is due as its last ended. A job stopped the instant it was due counts
	// at that instant.
	PeakJobs int

	Amplification float64 // Requests / FirstTries; 0 with no first try
	// WastedPerSuccess is the attempts answered without success (429s and
	// 503s, other failures, timeouts, aborts: Requests - InFlight - OK) per
	// job that succeeded. An attempt still in flight is not counted: it may
	// yet succeed, and a live run's number would otherwise start at the
	// size of the fleet's first wave. 0 with no success, when it is not a
	// ratio at all (every answered attempt was wasted): see Successes.
	WastedPerSuccess float64
	PeakRPS          int // most attempts sent within any 1 s (a sliding window)

	// Job completion, from when a job was due to its EventDone, over
	// finished jobs that were not cancelled (nearest-rank percentiles): a
	// job Stop cut short did not complete, and its time says when Stop came.
	// A job is due when it arrives (an open workload), when the run starts
	// (a closed workload's first) or when the worker's last job ended; one
	// the page's thread started late says so in its first event's Intended
	// (core.Loop.SetDue), and the delay counts, as it does for the job's
	// user. Otherwise its first event is when it was due.
	CompletionP50, CompletionP99, CompletionMax time.Duration
	CompletionN                                 int // the jobs those are over: none, and they measured nothing (not 0 µs)
	// Drain is the time from the start of the run to the last EventDone,
	// or, for a finished run that did not drain (Recording.Drained), to
	// when it was cut (Recording.Final): Stop between an open workload's
	// arrivals comes after the last job in progress ended.
	Drain time.Duration

	// Send lateness: from when the loop meant to send an attempt to when the
	// request actually started: EventAttempt's At - Intended (how late the
	// clock woke the worker) plus the transport's Attempt.Handoff (how long
	// the page took to get it to fetch()), counted when the attempt's
	// outcome comes in. The page knows the handoff of answered attempts:
	// a timed-out, aborted or failed one counts the clock's part alone.
	// And browser-side queueing from the transport.
	LatenessP50, LatenessP99 time.Duration
	LatenessN                int // the attempts those are over (none before the first outcome)
	QueuedP50, QueuedP99     time.Duration
	QueuedN                  int // answers whose queueing the browser told (a server without Timing-Allow-Origin gives none)
	// How late the page took answers in: Attempt.Pickup, from the
	// answer's end to its outcome, of the answered attempts of a live run
	// in the page (its thread busy elsewhere). A job's completion counts
	// it, as its user would wait it.
	PickupP99, PickupMax time.Duration
	PickupN              int
}

// StatsOf computes Stats for records of a run that started at start.
func StatsOf(start time.Time, recs []Record) Stats {
	a := NewStatsAcc(start, len(recs))
	for i := range recs {
		a.Add(&recs[i])
	}
	return a.Stats()
}

// Drained reports whether the finished run r, whose numbers are st,
// drained: every job it was set up with ended, and none was cut short.
// Stop, a live run's request limit (RunOptions.MaxRequests) and a
// simulation's attempt limit cancel the jobs in progress and start no
// more: Stop between an open workload's arrivals cancels none, and only
// the jobs that never started tell.
func (r *Recording) Drained(st *Stats) bool {
	return st.Cancelled == 0 && (!r.Stopped && !r.Limited || st.Jobs >= r.Scenario.TotalJobs())
}

// Final completes st, the numbers of every record of the finished run r,
// with what only the run's end tells: a run that did not drain lasted
// until it was cut, and its Drain is from its start to its End (once
// r.End reports it over; st is left as it is before).
func (r *Recording) Final(st *Stats) {
	if end, ok := r.End(); ok && !r.Drained(st) {
		st.Drain = max(st.Drain, end.Sub(r.Start))
	}
}

// StatsAcc computes Stats (and Dispersion) incrementally: Add each record
// as it comes, ask for Stats whenever the numbers are shown. The work per
// record is constant, so a page can keep its numbers current without going
// over every record again. It is not safe for concurrent use.
type StatsAcc struct {
	start   time.Time
	st      Stats // the counters; the derived fields are filled by Stats
	firstAt map[jobKey]time.Time
	late    map[jobKey]time.Duration // the clock lateness of each job's attempt in flight

	sends, retries               []time.Duration // since start: sorting and windows are integer work
	completion, lateness, queued []time.Duration
	pickup                       []time.Duration
	jobFrom, jobTo               []time.Duration       // since start: when each job was due, when each ended
	zeroAt                       []time.Duration       // since start: when a job ended the instant it was due, once per worker and instant
	zeroBy                       map[int]time.Duration // worker → its last instant in zeroAt, plus 1 ns
	sorted                       [9]int                // how much of each slice above is known sorted
}

type jobKey struct{ w, j int }

// NewStatsAcc returns an empty accumulator for a run that started at start;
// sizeHint is how many records are expected (0 if unknown).
func NewStatsAcc(start time.Time, sizeHint int) *StatsAcc {
	a := &StatsAcc{start: start, firstAt: make(map[jobKey]time.Time, sizeHint/8), late: make(map[jobKey]time.Duration, sizeHint/8)}
	if sizeHint > 0 {
		a.sends = make([]time.Duration, 0, sizeHint/3)
	}
	return a
}

// Add takes one record in.
func (a *StatsAcc) Add(r *Record) {
	st := &a.st
	e := &r.Event
	k := jobKey{r.Worker, r.Job}
	first, seen := a.firstAt[k]
	if !seen {
		first = e.At
		if !e.Intended.IsZero() && e.Intended.Before(first) {
			first = e.Intended // started late
		}
		if e.Kind != core.EventDone {
			a.firstAt[k] = first
		}
		a.jobFrom = append(a.jobFrom, first.Sub(a.start))
	}
	switch e.Kind {
	case core.EventAttempt:
		st.Requests++
		if e.Attempt == 1 {
			st.FirstTries++
		} else if isRetry(e) {
			a.retries = append(a.retries, e.At.Sub(a.start))
		}
		a.sends = append(a.sends, e.At.Sub(a.start))
		if !e.Intended.IsZero() {
			a.late[k] = max(0, e.At.Sub(e.Intended))
		}
	case core.EventOutcome:
		if late, ok := a.late[k]; ok {
			delete(a.late, k)
			if r.Attempt != nil {
				late += max(0, r.Attempt.Handoff)
			}
			a.lateness = append(a.lateness, late)
		}
		switch Classify(e.Outcome) {
		case ClassOK:
			st.OK++
		case ClassLimited:
			st.Limited++
		case ClassFailed:
			st.Failed++
		case ClassTimeout:
			st.Timeouts++
		case ClassAborted:
			st.Aborted++
			if AtAttemptLimit(e.Outcome.Err) {
				st.AbortedAtLimit++
			}
		}
		if r.Attempt != nil && r.Attempt.Measured&MeasuredQueued != 0 {
			a.queued = append(a.queued, r.Attempt.Queued)
		}
		if r.Attempt != nil && r.Attempt.Measured&MeasuredPickup != 0 {
			a.pickup = append(a.pickup, r.Attempt.Pickup)
		}
	case core.EventDone:
		if seen {
			delete(a.firstAt, k) // a job's number is not reused once done
		}
		st.Jobs++
		a.jobTo = append(a.jobTo, e.At.Sub(a.start))
		if !e.At.After(first) { // ended the instant it was due: in progress then, once per worker
			if a.zeroBy == nil {
				a.zeroBy = map[int]time.Duration{}
			}
			if at := first.Sub(a.start); a.zeroBy[r.Worker] != at+1 {
				a.zeroBy[r.Worker] = at + 1 // 0: none yet
				a.zeroAt = append(a.zeroAt, at)
			}
		}
		if d := e.At.Sub(a.start); d > st.Drain {
			st.Drain = d
		}
		if e.Err == nil {
			st.Successes++
			a.completion = append(a.completion, e.At.Sub(first))
			return
		}
		st.GiveUps++
		c := Cause(e.Err)
		if c == "cancelled" {
			st.Cancelled++
		} else {
			a.completion = append(a.completion, e.At.Sub(first))
		}
		if st.Causes == nil {
			st.Causes = map[string]int{}
		}
		st.Causes[c]++
	}
}

// Stats is the numbers of the records added so far. It sorts its samples
// in place (cheaply again next time: what was sorted stays sorted).
func (a *StatsAcc) Stats() Stats {
	st := a.st
	if a.st.Causes != nil {
		st.Causes = make(map[string]int, len(a.st.Causes))
		for k, v := range a.st.Causes {
			st.Causes[k] = v
		}
	}
	st.Retries = st.Requests - st.FirstTries
	st.InFlight = st.Requests - (st.OK + st.Limited + st.Failed + st.Timeouts + st.Aborted)
	if st.FirstTries > 0 {
		st.Amplification = float64(st.Requests) / float64(st.FirstTries)
	}
	if st.Successes > 0 {
		st.WastedPerSuccess = float64(st.Requests-st.InFlight-st.OK) / float64(st.Successes)
	}
	st.PeakRPS = peakSorted(sortDurations(a.sends, &a.sorted[0]), time.Second)
	st.PeakJobs = peakOverlap(sortDurations(a.jobFrom, &a.sorted[5]), sortDurations(a.jobTo, &a.sorted[6]), sortDurations(a.zeroAt, &a.sorted[7]))
	st.CompletionP50, st.CompletionP99, st.CompletionMax = percentilesSorted(sortDurations(a.completion, &a.sorted[1]))
	st.LatenessP50, st.LatenessP99, _ = percentilesSorted(sortDurations(a.lateness, &a.sorted[2]))
	st.QueuedP50, st.QueuedP99, _ = percentilesSorted(sortDurations(a.queued, &a.sorted[3]))
	_, st.PickupP99, st.PickupMax = percentilesSorted(sortDurations(a.pickup, &a.sorted[8]))
	st.CompletionN, st.LatenessN, st.QueuedN, st.PickupN = len(a.completion), len(a.lateness), len(a.queued), len(a.pickup)
	return st
}

// Dispersion is Dispersion(recs, slice) of the records added so far.
func (a *StatsAcc) Dispersion(slice time.Duration) float64 {
	if slice <= 0 {
		panic("fleet: dispersion slice must be positive")
	}
	return dispersionSorted(sortDurations(a.retries, &a.sorted[4]), slice)
}

// peakOverlap is the most intervals [from[i], to[j]) that hold one instant,
// both sorted: an interval that ends as another begins does not overlap
// it, and one with no end yet (from is longer than to) is still open.
// Records come in as the workers made them, not in time order, so the
// jobs in progress as records were added can be more or fewer than were
// at any one time: sweeping the intervals counts them as they were.
//
// A job that ended the instant it was due ([t, t), its t in zeros as well,
// sorted, once per worker and instant) is in progress at t, once per
// worker: a worker's jobs answered in no time follow one another at one
// instant (2 workers' 5 jobs each, in a simulation at zero latency, are 2
// at once, not 10),
// and several workers stopped as their jobs were due are that many at once
// (a simulation cut short at its first attempt said "2 gave up; at most 0
// at once").
func peakOverlap(from, to, zeros []time.Duration) int {
	open, peak := 0, 0
	for i, j, z := 0, 0, 0; i < len(from) || z < len(zeros); {
		t := time.Duration(math.MaxInt64)
		if i < len(from) {
			t = from[i]
		}
		if z < len(zeros) {
			t = min(t, zeros[z])
		}
		for ; j < len(to) && to[j] <= t; j++ {
			open--
		}
		for ; i < len(from) && from[i] <= t; i++ {
			open++
		}
		workers := 0
		for ; z < len(zeros) && zeros[z] == t; z++ {
			workers++
		}
		peak = max(peak, open+workers)
	}
	return peak
}

// sortDurations sorts ds, of which the first *done are sorted already: the
// new tail is sorted and merged in (records come roughly in time order, so
// the merge usually moves nothing).
func sortDurations(ds []time.Duration, done *int) []time.Duration {
	if *done != len(ds) {
		slices.Sort(ds[*done:])
		mergeTail(ds, *done)
		*done = len(ds)
	}
	return ds
}

// mergeTail merges ds[done:] into ds[:done], both sorted, in time linear in
// the tail and in the part of the head larger than its least element: from
// the back, into the tail's place. (slices.SortStableFunc did it as well,
// with 5 KB more code in app.wasm.)
func mergeTail(ds []time.Duration, done int) {
	if done == 0 || done == len(ds) || ds[done-1] <= ds[done] {
		return
	}
	tail := append([]time.Duration(nil), ds[done:]...)
	i, k := done-1, len(ds)-1
	for j := len(tail) - 1; j >= 0; k-- {
		if i >= 0 && ds[i] > tail[j] {
			ds[k], i = ds[i], i-1
		} else {
			ds[k], j = tail[j], j-1
		}
	}
}

// sinceFirst is ts as offsets from the earliest, sorted.
func sinceFirst(ts []time.Time) []time.Duration {
	if len(ts) == 0 {
		return nil
	}
	t0 := slices.MinFunc(ts, time.Time.Compare)
	ds := make([]time.Duration, len(ts))
	for i, t := range ts {
		ds[i] = t.Sub(t0)
	}
	slices.Sort(ds)
	return ds
}

// peakSorted is the most instants within any window [t, t+w), of ts
// (offsets from any one instant) sorted.
func peakSorted(ts []time.Duration, w time.Duration) int {
	peak, lo := 0, 0
	for hi := range ts {
		for ts[hi]-ts[lo] >= w {
			lo++
		}
		peak = max(peak, hi-lo+1)
	}
	return peak
}

// percentilesSorted returns the nearest-rank p50 and p99 and the maximum
// of ds, sorted (zeros when empty).
func percentilesSorted(ds []time.Duration) (p50, p99, maxD time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	rank := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(ds)))) - 1
		return ds[max(0, min(i, len(ds)-1))]
	}
	return rank(0.50), rank(0.99), ds[len(ds)-1]
}

// DispersionSlice is the time slice of the dispersion the page shows and
// exports.
const DispersionSlice = 100 * time.Millisecond

// Dispersion measures how synchronised the retries of a run are: the index
// of dispersion (variance ÷ mean) of the number of retries (attempts after
// the first) sent per time slice, over the slices from the first retry to
// the last. Retries arriving independently at random (a Poisson stream) give
// about 1; retries evenly paced give less; retries that come back together in
// spikes give much more (a herd of k retries every few seconds gives about k).
// All k retries in one slice, the most synchronised run there is, give k: the
// limit of one herd of k among ever more empty slices, and more than any k
// retries over two slices or more can give (their Σc² is under k², so the
// index is under k): DispersionOneSlice tells it apart. With no retries it is 0.
// First tries are left out: every configuration starts its whole fleet at once.
func Dispersion(recs []Record, slice time.Duration) float64 {
	if slice <= 0 {
		panic("fleet: dispersion slice must be positive")
	}
	var ts []time.Time
	for i := range recs {
		if e := &recs[i].Event; isRetry(e) {
			ts = append(ts, e.At)
		}
	}
	return dispersionSorted(sinceFirst(ts), slice)
}

// isRetry reports whether e is a retry's attempt: what Dispersion, and
// StatsAcc's, count.
func isRetry(e *core.Event) bool { return e.Kind == core.EventAttempt && e.Attempt > 1 }

// DispersionOneSlice reports whether d, the Dispersion of a run's retries
// retries, says they all fell in one slice: only then is it their number.
func DispersionOneSlice(d float64, retries int) bool { return retries > 0 && d == float64(retries) }

// maxEmptySlices is how many empty slices dispersionSorted counts one by
// one (a float each) before it counts only the slices with retries.
const maxEmptySlices = 1 << 20

// dispersionSorted is Dispersion over the retry times ts (offsets from any
// one instant), sorted.
func dispersionSorted(ts []time.Duration, slice time.Duration) float64 {
	if len(ts) == 0 {
		return 0
	}
	n64 := int64((ts[len(ts)-1]-ts[0])/slice) + 1
	if n64 < 2 {
		return float64(len(ts)) // all in one slice (Dispersion); 0 read as retries evenly paced
	}
	if n64 > int64(len(ts))+maxEmptySlices {
		// Retries spread over far more slices than there are retries (an
		// uncapped backoff simulated for centuries: 10^10 slices and more)
		// are counted slice by slice without a count per empty slice, which
		// would not fit in memory. Σ(c−mean)² over every slice is Σc² over
		// the slices with retries less n·mean².
		n, mean := float64(n64), float64(len(ts))/float64(n64)
		var sq float64
		for i := 0; i < len(ts); {
			k, c := (ts[i]-ts[0])/slice, 0.0
			for ; i < len(ts) && (ts[i]-ts[0])/slice == k; i++ {
				c++
			}
			sq += c * c
		}
		return max(0, sq/n-mean*mean) / mean
	}
	n := int(n64)
	counts := make([]float64, n)
	for _, t := range ts {
		counts[int((t-ts[0])/slice)]++
	}
	mean := float64(len(ts)) / float64(n)
	var ss float64
	for _, c := range counts {
		ss += (c - mean) * (c - mean)
	}
	return ss / float64(n) / mean
}
