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
	ClassAborted              // aborted by Stop (context cancelled)
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
// "cancelled", or "invalid" (the policy did not validate).
func Cause(err error) string {
	switch {
	case err == nil:
		return "success"
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

	Jobs      int            // jobs finished: Successes + GiveUps
	Successes int            // jobs that succeeded
	GiveUps   int            // jobs that stopped with an error, cancelled ones included
	Cancelled int            // of GiveUps: stopped by Stop
	Causes    map[string]int // GiveUps by Cause (never "success")

	Amplification    float64 // Requests / FirstTries; 0 with no first try
	WastedPerSuccess float64 // (Requests - Successes) / Successes; 0 with no success
	PeakRPS          int     // most attempts sent within any 1 s (a sliding window)

	// Job completion, from a job's first event to its EventDone, over
	// finished jobs (nearest-rank percentiles).
	CompletionP50, CompletionP99, CompletionMax time.Duration
	// Drain is the time from the start of the run to the last EventDone.
	Drain time.Duration

	// Send lateness: EventAttempt's At - Intended (how late the clock woke
	// the worker), and browser-side queueing from the transport.
	LatenessP50, LatenessP99 time.Duration
	QueuedP50, QueuedP99     time.Duration
}

// StatsOf computes Stats for records of a run that started at start.
func StatsOf(start time.Time, recs []Record) Stats {
	var st Stats
	type jobKey struct{ w, j int }
	firstAt := map[jobKey]time.Time{}
	var sends []time.Time
	var completion, lateness, queued []time.Duration
	for i := range recs {
		r := &recs[i]
		e := &r.Event
		k := jobKey{r.Worker, r.Job}
		if _, ok := firstAt[k]; !ok {
			firstAt[k] = e.At
		}
		switch e.Kind {
		case core.EventAttempt:
			st.Requests++
			if e.Attempt == 1 {
				st.FirstTries++
			}
			sends = append(sends, e.At)
			if !e.Intended.IsZero() {
				lateness = append(lateness, max(0, e.At.Sub(e.Intended)))
			}
		case core.EventOutcome:
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
			}
			if r.Attempt != nil && r.Attempt.Queued > 0 {
				queued = append(queued, r.Attempt.Queued)
			}
		case core.EventDone:
			st.Jobs++
			completion = append(completion, e.At.Sub(firstAt[k]))
			if d := e.At.Sub(start); d > st.Drain {
				st.Drain = d
			}
			if e.Err == nil {
				st.Successes++
				continue
			}
			st.GiveUps++
			c := Cause(e.Err)
			if c == "cancelled" {
				st.Cancelled++
			}
			if st.Causes == nil {
				st.Causes = map[string]int{}
			}
			st.Causes[c]++
		}
	}
	st.Retries = st.Requests - st.FirstTries
	st.InFlight = st.Requests - (st.OK + st.Limited + st.Failed + st.Timeouts + st.Aborted)
	if st.FirstTries > 0 {
		st.Amplification = float64(st.Requests) / float64(st.FirstTries)
	}
	if st.Successes > 0 {
		st.WastedPerSuccess = float64(st.Requests-st.Successes) / float64(st.Successes)
	}
	st.PeakRPS = peakWithin(sends, time.Second)
	st.CompletionP50, st.CompletionP99, st.CompletionMax = percentiles(completion)
	st.LatenessP50, st.LatenessP99, _ = percentiles(lateness)
	st.QueuedP50, st.QueuedP99, _ = percentiles(queued)
	return st
}

// peakWithin is the most instants within any window [t, t+w).
func peakWithin(ts []time.Time, w time.Duration) int {
	ts = slices.Clone(ts)
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	peak, lo := 0, 0
	for hi := range ts {
		for ts[hi].Sub(ts[lo]) >= w {
			lo++
		}
		peak = max(peak, hi-lo+1)
	}
	return peak
}

// percentiles returns the nearest-rank p50 and p99 and the maximum of ds
// (zeros when empty). It sorts ds.
func percentiles(ds []time.Duration) (p50, p99, maxD time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(ds)))) - 1
		return ds[max(0, min(i, len(ds)-1))]
	}
	return rank(0.50), rank(0.99), ds[len(ds)-1]
}

// Bin is one time slice of a Histogram.
type Bin struct {
	Start time.Time       // the slice is [Start, Start+slice)
	Count [NumClasses]int // attempts sent in the slice, by the class of their outcome
}

// Total is the number of attempts sent in the slice.
func (b Bin) Total() int {
	n := 0
	for _, c := range b.Count {
		n += c
	}
	return n
}

// Histogram counts attempts per time slice by the time they were sent,
// stacked by the class of their outcome (ClassPending while in flight),
// from the earliest record's time. HistogramFrom aligns the slices to a
// given origin (the run's Start, to share the page's time axis).
func Histogram(recs []Record, slice time.Duration) []Bin {
	if len(recs) == 0 {
		return nil
	}
	origin := recs[0].Event.At
	for i := range recs {
		if recs[i].Event.At.Before(origin) {
			origin = recs[i].Event.At
		}
	}
	return HistogramFrom(origin, recs, slice)
}

// HistogramFrom is Histogram with slices starting at origin; attempts sent
// before origin are left out. slice must be positive.
func HistogramFrom(origin time.Time, recs []Record, slice time.Duration) []Bin {
	if slice <= 0 {
		panic("fleet: histogram slice must be positive")
	}
	type attemptKey struct{ w, j, a int }
	class := map[attemptKey]Class{}
	for i := range recs {
		if e := &recs[i].Event; e.Kind == core.EventOutcome {
			class[attemptKey{recs[i].Worker, recs[i].Job, e.Attempt}] = Classify(e.Outcome)
		}
	}
	var bins []Bin
	for i := range recs {
		r := &recs[i]
		if r.Event.Kind != core.EventAttempt || r.Event.At.Before(origin) {
			continue
		}
		n := int(r.Event.At.Sub(origin) / slice)
		for len(bins) <= n {
			bins = append(bins, Bin{Start: origin.Add(time.Duration(len(bins)) * slice)})
		}
		c, ok := class[attemptKey{r.Worker, r.Job, r.Event.Attempt}]
		if !ok {
			c = ClassPending
		}
		bins[n].Count[c]++
	}
	return bins
}

// Dispersion measures how synchronised the retries of a run are: the index
// of dispersion (variance ÷ mean) of the number of retries (attempts after
// the first) sent per time slice, over the slices from the first retry to
// the last. Retries arriving independently at random (a Poisson stream) give
// about 1; retries evenly paced give less; retries that come back together in
// spikes give much more (a herd of k retries every few seconds gives about k).
// With fewer than two slices or no retries it is 0. First tries are left out:
// every configuration starts its whole fleet at once.
func Dispersion(recs []Record, slice time.Duration) float64 {
	if slice <= 0 {
		panic("fleet: dispersion slice must be positive")
	}
	var ts []time.Time
	for i := range recs {
		if e := &recs[i].Event; e.Kind == core.EventAttempt && e.Attempt > 1 {
			ts = append(ts, e.At)
		}
	}
	if len(ts) == 0 {
		return 0
	}
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	n := int(ts[len(ts)-1].Sub(ts[0])/slice) + 1
	if n < 2 {
		return 0
	}
	counts := make([]float64, n)
	for _, t := range ts {
		counts[int(t.Sub(ts[0])/slice)]++
	}
	mean := float64(len(ts)) / float64(n)
	var ss float64
	for _, c := range counts {
		ss += (c - mean) * (c - mean)
	}
	return ss / float64(n) / mean
}
