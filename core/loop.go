package core

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"
)

// Action is what a Loop asks its driver to do next.
type Action uint8

const (
	ActAttempt Action = iota // call Begin, run the operation, call End
	ActWait                  // wait Step.Wait, then call Woke
	ActDone                  // stop: Step.Err is nil on success, else why
)

// String returns "attempt", "wait" or "done".
func (a Action) String() string {
	switch a {
	case ActAttempt:
		return "attempt"
	case ActWait:
		return "wait"
	case ActDone:
		return "done"
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// Step is a Loop's instruction to its driver.
type Step struct {
	Action Action
	Wait   time.Duration // ActWait: how long
	Reason Reason        // ActWait: why
	Err    error         // ActDone: nil on success, else a *StopError (or the Policy's Validate error)
}

type loopState uint8

const (
	stateNew loopState = iota
	stateRetryWait
	stateBucketWait
	stateReady
	stateInFlight
	stateDone
)

var stateNames = [...]string{"new", "retry wait", "bucket wait", "ready", "in flight", "done"}

// Loop is one job's retry state machine. It has no goroutines and no clock:
// a driver feeds it instants and outcomes and does what the returned Step
// says. Do is the blocking driver; the simulator drives loops in virtual
// time. The protocol:
//
//	step := l.Start(now)
//	for step.Action != ActDone {
//		switch step.Action {
//		case ActWait:    // sleep step.Wait (or until cancelled: step = l.Cancel(now, cause))
//			step = l.Woke(now)
//		case ActAttempt:
//			n := l.Begin(now)          // sending attempt n now
//			o := run attempt n
//			step = l.End(now, o)
//		}
//	}
//
// Calling a method out of this order panics (a driver bug); once the loop
// is done every method returns the final step (Begin: the attempts begun,
// Attempts()) and emits nothing.
//
// Every decision is reported to observe as an Event. Before each attempt
// the loop takes a token from the Bucket, if any (ReserveAt: waiting with
// reason bucket when the bucket is in debt); each retry spends a token from
// the Budget, if any. Tokens taken for an attempt that is then never sent
// (the loop stops or is cancelled first) are given back. Create a Loop
// with NewLoop: the zero value is not usable. A Loop is not safe for concurrent use; its Bucket and
// Budget are, and are usually shared by many loops.
type Loop struct {
	p         Policy
	invalid   error
	rng       Rand
	bucket    *Bucket
	budget    *Budget
	observe   func(Event)
	retryable func(Outcome) bool

	state    loopState
	start    time.Time
	due      time.Time     // when the job was meant to start; zero: at Start (SetDue)
	horizon  time.Time     // the latest instant a wait may end; zero: none (SetHorizon)
	deadline time.Time     // Do's context's deadline: a wait ending past it cancels the job; zero: none
	attempt  int           // attempts begun
	prev     time.Duration // last backoff delay (decorrelated jitter)
	waitEnd  time.Time     // planned end of the current wait
	intended time.Time     // planned send time of the next attempt
	last     error         // last attempt's error
	final    Step

	// Tokens taken for the next attempt and not used yet, given back if
	// the loop stops or is cancelled before Begin sends it.
	holdsBucket bool // a Bucket token reserved (during a bucket wait or ready)
	holdsBudget bool // a Budget token spent on the next retry
}

// NewLoop returns a loop for one job. rng supplies the jitter and spread
// draws (nil means NewPCG(0), which draws what NewRand(0) draws); give each
// loop its own, e.g. NewPCG(SubSeed(seed, worker, job)), so runs are
// reproducible whatever order the loops run in. bucket, budget and observe
// may be nil. An invalid Policy is reported by Start, which then stops at
// once with p.Validate's error.
func NewLoop(p Policy, rng Rand, bucket *Bucket, budget *Budget, observe func(Event)) *Loop {
	if rng == nil {
		rng = NewPCG(0)
	}
	l := &Loop{p: p, invalid: p.Validate(), rng: rng, bucket: bucket, budget: budget, observe: observe, retryable: p.Retryable}
	if l.retryable == nil {
		l.retryable = DefaultRetryable
	}
	return l
}

// SetHorizon sets the latest instant the loop's waits may end: a retry or
// bucket wait that would end after it stops the job instead, at once, with
// ErrHorizon, as one that would end past Policy.MaxElapsed does
// (ErrMaxElapsed); no EventWait is emitted for it. A driver whose clock
// cannot go past some instant sets it, so that the loop never asks for a
// wait the driver cannot perform: the simulator sets the end of its
// virtual time (about 292 years after its start). The zero Time, the
// default, means no horizon: core.Do's clock waits any time.Duration (a
// wait of centuries simply lasts until the job is cancelled).
func (l *Loop) SetHorizon(t time.Time) { l.horizon = t }

// SetDue says when the job was meant to start, for a driver that may start
// it later: a fleet whose workers are all due at once but start one after
// another on one thread, or a job that arrives on a schedule and is woken
// late. If Start comes after due, the first attempt's intended time
// (EventAttempt's Intended) is due, so the delay counts in the send's
// lateness instead of vanishing into a later start; a bucket wait before
// it still starts at Start, and its EventWait's Intended is due. Call it
// before Start; the zero Time, the default, means the job is due when it
// starts.
func (l *Loop) SetDue(due time.Time) { l.due = due }

// Attempts returns the number of attempts begun so far.
func (l *Loop) Attempts() int { return l.attempt }

// Done reports whether the loop has stopped, and with what error.
func (l *Loop) Done() (bool, error) { return l.state == stateDone, l.final.Err }

func (l *Loop) emit(e Event) {
	if l.observe != nil {
		l.observe(e)
	}
}

func (l *Loop) misuse(method string) {
	panic(fmt.Sprintf("core: Loop.%s called in state %q", method, stateNames[l.state]))
}

// Start begins the job at now: the first attempt, possibly after a bucket
// wait. On a loop that has ended (cancelled before it started, or run
// already) it returns the final Step again and does nothing.
func (l *Loop) Start(now time.Time) Step {
	switch l.state {
	case stateDone:
		return l.final
	case stateNew:
	default:
		l.misuse("Start")
	}
	l.start = now
	if l.invalid != nil {
		return l.finish(now, l.invalid, "invalid policy")
	}
	intended := now
	if !l.due.IsZero() && l.due.Before(now) {
		intended = l.due
	}
	return l.beforeAttempt(now, intended)
}

// beforeAttempt takes a bucket token for the next attempt, planned for
// intended, and says whether to wait for it.
func (l *Loop) beforeAttempt(now, intended time.Time) Step {
	if l.bucket != nil {
		w := l.bucket.ReserveAt(now)
		l.holdsBucket = true
		if w > 0 {
			if l.pastMaxElapsed(now, w) {
				l.giveBack(now)
				return l.stop(now, ErrMaxElapsed, l.elapsedNote("bucket wait", now, w))
			}
			if l.pastHorizon(now, w) {
				l.giveBack(now)
				return l.stop(now, ErrHorizon, l.horizonNote("bucket wait", now, w))
			}
			if l.pastDeadline(now, w) {
				l.giveBack(now)
				return l.cancelled(now, deadlineError("bucket wait", w))
			}
			l.state, l.waitEnd = stateBucketWait, now.Add(w)
			e := Event{Kind: EventWait, At: now, Attempt: l.attempt + 1, Wait: w, Reason: ReasonBucket, Note: "bucket empty"}
			if intended.Before(now) {
				e.Intended = intended
			}
			l.emit(e)
			return Step{Action: ActWait, Wait: w, Reason: ReasonBucket}
		}
	}
	l.state, l.intended = stateReady, intended
	return Step{Action: ActAttempt}
}

// Woke tells the loop the wait it asked for is over.
func (l *Loop) Woke(now time.Time) Step {
	switch l.state {
	case stateRetryWait:
		return l.beforeAttempt(now, l.waitEnd)
	case stateBucketWait:
		l.state, l.intended = stateReady, l.waitEnd
		return Step{Action: ActAttempt}
	case stateDone:
		return l.final
	}
	l.misuse("Woke")
	return Step{}
}

// Begin tells the loop the driver is sending the next attempt now. It
// emits EventAttempt (with the intended and the actual time) and returns
// the attempt's 1-based number. Once the loop is done (say it was
// cancelled between the step that asked for the attempt and this call) it
// emits nothing and returns Attempts(): the driver should not send, and
// End will return the final step.
func (l *Loop) Begin(now time.Time) int {
	switch l.state {
	case stateDone:
		return l.attempt
	case stateReady:
	default:
		l.misuse("Begin")
	}
	l.attempt++
	l.state = stateInFlight
	l.holdsBucket, l.holdsBudget = false, false
	l.emit(Event{Kind: EventAttempt, At: now, Attempt: l.attempt, Intended: l.intended})
	return l.attempt
}

// End tells the loop how the attempt in flight finished. It emits
// EventOutcome, then EventWait for a retry or EventDone. An outcome whose
// Err wraps ErrHorizon (a driver in virtual time whose answer would come
// past the loop's horizon) stops the loop with ErrHorizon, as a wait that
// would end past it does; one whose Err wraps context.Canceled stops it
// with ErrCancelled.
func (l *Loop) End(now time.Time, o Outcome) Step { return l.end(now, o, nil) }

// end is End; a non-nil cancelled (a context's cause) means the job was
// cancelled while the attempt ran, so a failed outcome stops the loop with
// ErrCancelled instead of being retried.
func (l *Loop) end(now time.Time, o Outcome, cancelled error) Step {
	switch l.state {
	case stateDone:
		return l.final
	case stateInFlight:
	default:
		l.misuse("End")
	}
	l.emit(Event{Kind: EventOutcome, At: now, Attempt: l.attempt, Outcome: o})
	retry := l.retryable(o)
	if o.succeeded() && !retry {
		if l.budget != nil {
			l.budget.Success()
		}
		return l.finish(now, nil, "")
	}
	l.last = o.err()
	if l.last == nil { // a success the policy wants retried
		l.last = &StatusError{Status: o.Status}
	}
	if cancelled == nil && errors.Is(o.Err, ErrHorizon) {
		return l.stop(now, ErrHorizon, "")
	}
	if cancelled == nil && errors.Is(o.Err, context.Canceled) {
		cancelled = o.Err
	}
	if cancelled != nil {
		return l.cancelled(now, cancelled)
	}
	if !retry {
		return l.stop(now, ErrPermanent, "not retryable")
	}
	if l.p.Backoff.Strategy == None {
		return l.stop(now, ErrExhausted, "strategy none: no retries")
	}
	if l.attempt >= l.p.MaxAttempts {
		return l.stop(now, ErrExhausted, fmt.Sprintf("max attempts %d reached", l.p.MaxAttempts))
	}
	d, reason, note, unread, stop := l.nextWait(now, o)
	if stop != nil {
		return l.stop(now, stop, note)
	}
	if l.pastMaxElapsed(now, d) {
		return l.stop(now, ErrMaxElapsed, joinNote(note, l.elapsedNote(reason.String()+" wait", now, d)))
	}
	if l.pastHorizon(now, d) {
		return l.stop(now, ErrHorizon, joinNote(note, l.horizonNote(reason.String()+" wait", now, d)))
	}
	if l.pastDeadline(now, d) {
		return l.cancelled(now, deadlineError("wait", d))
	}
	if l.budget != nil {
		if !l.budget.Spend() {
			return l.stop(now, ErrBudgetEmpty, note)
		}
		l.holdsBudget = true
	}
	l.state, l.waitEnd = stateRetryWait, now.Add(d)
	l.emit(Event{Kind: EventWait, At: now, Attempt: l.attempt + 1, Wait: d, Reason: reason, Note: note, Err: unread})
	return Step{Action: ActWait, Wait: d, Reason: reason}
}

// nextWait decides how long to wait before the next attempt and why: a
// usable Retry-After, else a usable reset hint, else the backoff. unread
// is the Retry-After it could not read, when it fell back for one (nil
// otherwise).
func (l *Loop) nextWait(now time.Time, o Outcome) (d time.Duration, reason Reason, note string, unread error, stop error) {
	if l.p.RetryAfter && o.Header != nil {
		// A Retry-After sent empty is an invalid value, noted as one: an
		// absent one is no note.
		if v, ok := LookupHeader(o.Header, "Retry-After"); ok {
			wait, err := ParseRetryAfter(v, now)
			if err == nil {
				// A date already past means no wait (RFC 9110); the note
				// tells it from a server asking for 0 seconds, or for now:
				// a server whose clock is behind sends dates past, and its
				// clients retry at once (a review).
				past := ""
				if wait == 0 && !isDigit(trimOWS(v)[0]) {
					if at, _ := parseHTTPDate(trimOWS(v), now); at.Before(now) {
						past = "retry-after date already past: a server clock behind, or a slow answer"
					}
				}
				d, reason, note, stop = l.serverWait(wait, ReasonRetryAfter, past)
				return d, reason, note, nil, stop
			}
			unread, note = err, trimCore(err.Error())
		}
	}
	if l.p.UseResetHints && o.Header != nil {
		hint, err := ParseRateLimit(o.Header, now)
		if err != nil { // with a hint still, when only RateLimit-Policy was malformed
			note = joinNote(note, trimCore(err.Error()))
		}
		switch {
		case hint.HasReset && (!hint.HasRemaining || hint.Remaining == 0):
			if unread != nil {
				note += "; fell back to reset hint"
			}
			d, reason, note, stop = l.serverWait(hint.Reset, ReasonResetHint, note)
			return d, reason, note, unread, stop
		case hint.HasReset:
			note = joinNote(note, fmt.Sprintf("reset hint ignored: %d remaining", hint.Remaining))
		}
	}
	if note != "" {
		note += "; fell back to backoff"
	}
	u := 0.0
	if l.p.Backoff.Strategy.Random() {
		u = l.rng.Float64()
	}
	d = l.p.Backoff.Delay(l.attempt, l.prev, u)
	l.prev = d
	return d, ReasonBackoff, note, unread, nil
}

// serverWait applies the ceiling and the spread to a server-requested wait.
// A wait the parser saturated (a value past a Duration's reach) is noted as
// "over" the largest Duration: the server asked for longer.
func (l *Loop) serverWait(d time.Duration, reason Reason, note string) (time.Duration, Reason, string, error) {
	if c := l.p.Ceiling; c > 0 && d > c {
		asked := noteDuration(d)
		if d == maxDuration {
			asked = "over " + asked
		}
		if l.p.AboveCeiling == CeilingStop {
			return 0, reason, joinNote(note, fmt.Sprintf("%s %s above ceiling %s", reason, asked, FormatDuration(c))), ErrAboveCeiling
		}
		note = joinNote(note, fmt.Sprintf("clamped from %s to ceiling %s", asked, FormatDuration(c)))
		d = c
	}
	if l.p.Spread > 0 {
		extra := toDuration(float64(clampUnit(l.rng.Float64()) * float64(l.p.Spread)))
		note = joinNote(note, "spread +"+noteDuration(extra))
		if d > maxDuration-extra {
			d = maxDuration
		} else {
			d += extra
		}
	}
	return d, reason, note, nil
}

func (l *Loop) pastMaxElapsed(now time.Time, wait time.Duration) bool {
	if l.p.MaxElapsed <= 0 {
		return false
	}
	used := now.Sub(l.start)
	return wait > l.p.MaxElapsed-used
}

func (l *Loop) elapsedNote(what string, now time.Time, wait time.Duration) string {
	return fmt.Sprintf("%s %s would end past max elapsed %s (%s used)", what, noteDuration(wait),
		FormatDuration(l.p.MaxElapsed), noteDuration(now.Sub(l.start)))
}

// noteDuration writes a duration that was measured or drawn (a spread, a
// server's delay from a date, the time used) for a note: to the
// millisecond, or to the microsecond under one. A note explains; the
// event's Wait keeps the exact value. Settings are written exactly
// (FormatDuration).
func noteDuration(d time.Duration) string {
	if d < time.Millisecond && d > -time.Millisecond {
		return FormatDuration(d.Round(time.Microsecond))
	}
	return FormatDuration(d.Round(time.Millisecond))
}

// pastHorizon reports whether a wait starting at now would end past the
// horizon.
func (l *Loop) pastHorizon(now time.Time, wait time.Duration) bool {
	return !l.horizon.IsZero() && wait > l.horizon.Sub(now)
}

// pastDeadline reports whether a wait starting at now would end past the
// deadline of Do's context: Do stops the job then, at once, rather than
// sleep in vain. Decided here, before the wait is chosen, no EventWait is
// emitted for a wait that never happens (Do stopped after the loop had
// emitted it: events counted a wait that was never waited; a review).
func (l *Loop) pastDeadline(now time.Time, wait time.Duration) bool {
	return !l.deadline.IsZero() && wait > l.deadline.Sub(now)
}

// deadlineError is the context's cause of a job stopped because its wait
// would pass the deadline.
func deadlineError(what string, wait time.Duration) error {
	return fmt.Errorf("core: %s %s would pass the context deadline: %w", what, noteDuration(wait), context.DeadlineExceeded)
}

// horizonNote says why a wait stops the job at the horizon. A wait that
// saturated (an uncapped Backoff's, a Retry-After's) is "over" the largest
// Duration, as serverWait notes it: the wait asked for was longer.
func (l *Loop) horizonNote(what string, now time.Time, wait time.Duration) string {
	w := noteDuration(wait)
	if wait == maxDuration {
		w = "over " + w
	}
	return fmt.Sprintf("%s %s would end past the horizon, %s away", what, w, noteDuration(l.horizon.Sub(now)))
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// Cancel stops the loop because its context was cancelled, at any point:
// during a wait, before an attempt, or with an attempt in flight (whose
// outcome is then not reported). Tokens taken for an attempt that is now
// never sent are given back: the Bucket token reserved for it (during its
// bucket wait or once it is ready) and the Budget token spent on it (from
// the retry wait on). cause is the context's cause (nil means
// context.Canceled). It emits EventDone with a *StopError whose Cause is
// ErrCancelled.
func (l *Loop) Cancel(now time.Time, cause error) Step {
	if l.state == stateDone {
		return l.final
	}
	l.giveBack(now)
	if cause == nil {
		cause = context.Canceled
	}
	return l.cancelled(now, cause)
}

// giveBack returns the tokens taken for the next attempt, which will not
// be sent.
func (l *Loop) giveBack(now time.Time) {
	if l.holdsBucket {
		l.bucket.unreserveAt(now)
	}
	if l.holdsBudget {
		l.budget.Refund()
	}
	l.holdsBucket, l.holdsBudget = false, false
}

func (l *Loop) cancelled(now time.Time, cause error) Step {
	err := &StopError{Cause: ErrCancelled, Attempts: l.attempt, Last: l.last, Context: cause}
	if sameError(err.Last, cause) {
		err.Last = nil
	}
	return l.finish(now, err, "")
}

// sameError reports a == b without the panic == gives when both hold the
// same dynamic type and it cannot be compared (a struct with a slice, as
// some aggregate errors are): errors.Is guards its == the same way.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

func (l *Loop) stop(now time.Time, cause error, note string) Step {
	return l.finish(now, &StopError{Cause: cause, Attempts: l.attempt, Last: l.last}, note)
}

// finish ends the loop; err is nil on success.
func (l *Loop) finish(now time.Time, err error, note string) Step {
	l.state = stateDone
	l.final = Step{Action: ActDone, Err: err}
	l.emit(Event{Kind: EventDone, At: now, Attempt: l.attempt, Err: err, Note: note})
	return l.final
}
