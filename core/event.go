package core

import (
	"fmt"
	"time"
)

// EventKind is what an Event reports.
type EventKind uint8

const (
	EventAttempt EventKind = iota // an attempt was sent
	EventOutcome                  // an attempt finished
	EventWait                     // a wait was scheduled
	EventDone                     // the loop stopped
)

// String returns "attempt", "outcome", "wait" or "done".
func (k EventKind) String() string {
	switch k {
	case EventAttempt:
		return "attempt"
	case EventOutcome:
		return "outcome"
	case EventWait:
		return "wait"
	case EventDone:
		return "done"
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Reason is why the loop waits.
type Reason uint8

const (
	ReasonBackoff    Reason = iota // the policy's own backoff schedule
	ReasonRetryAfter               // the server's Retry-After
	ReasonResetHint                // a RateLimit / X-RateLimit reset
	ReasonBucket                   // waiting for a client-side bucket token
)

// String returns "backoff", "retry-after", "reset-hint" or "bucket".
func (r Reason) String() string {
	switch r {
	case ReasonBackoff:
		return "backoff"
	case ReasonRetryAfter:
		return "retry-after"
	case ReasonResetHint:
		return "reset-hint"
	case ReasonBucket:
		return "bucket"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Event is one step of a retry loop as it happened. The page's timeline,
// the simulator's statistics and the tests all read these events; none of
// them recompute the schedule.
//
// A job's events are: for each attempt, optionally an EventWait (reason
// bucket), EventAttempt, EventOutcome, then either an EventWait (the retry
// delay) or the final EventDone. Cancellation emits EventDone at any point.
type Event struct {
	Kind     EventKind
	At       time.Time     // when it happened
	Attempt  int           // 1-based attempt number (EventWait: the attempt it waits for; EventDone: attempts made)
	Intended time.Time     // EventAttempt: when the loop meant to send it (the planned end of the last wait, or when the job was due); EventWait of reason bucket: the same, when that was before At (zero otherwise)
	Outcome  Outcome       // EventOutcome
	Wait     time.Duration // EventWait
	Reason   Reason        // EventWait
	Note     string        // why, when not obvious: fallbacks, clamping, spread, the stop reason
	Err      error         // EventDone: nil on success, else the *StopError (or the Policy's Validate error); EventWait: the *RetryAfterError of a Retry-After the loop could not read, when the wait fell back for it (nil otherwise)
}
