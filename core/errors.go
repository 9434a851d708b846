package core

import (
	"errors"
	"strconv"
	"strings"
)

// Why a retry loop stopped. Test with errors.Is: the loop returns a
// *StopError whose Cause is one of these.
var (
	ErrExhausted    = errors.New("core: attempts exhausted")         // MaxAttempts reached (or strategy None)
	ErrMaxElapsed   = errors.New("core: max elapsed time reached")   // the next wait would end past MaxElapsed
	ErrPermanent    = errors.New("core: permanent failure")          // the outcome is not retryable
	ErrAboveCeiling = errors.New("core: server delay above ceiling") // Retry-After/reset above Ceiling with CeilingStop
	ErrBudgetEmpty  = errors.New("core: retry budget empty")         // the Budget had no token for a retry
	ErrCancelled    = errors.New("core: cancelled")                  // the context was cancelled
	ErrHorizon      = errors.New("core: horizon reached")            // the next wait would end past the loop's horizon (Loop.SetHorizon)
)

// StopError says why a retry loop gave up: it is the error of every stop
// but a success and an invalid Policy (whose Validate error is returned
// as is), in Step.Err, Loop.Done, EventDone's Err and Do's result.
//
// errors.Is matches each of its Cause, Context and Last (Unwrap returns
// them): errors.Is(err, ErrExhausted) tells why the loop stopped. Because
// Last is matched too, errors.Is(err, context.DeadlineExceeded) holds when
// the job's own context expired and also when its last attempt timed out
// on a deadline of its own (a per-attempt timeout) and the loop stopped
// for another cause: to know that the job's context stopped it, test
// errors.Is(err, ErrCancelled), or se.Context. errors.As(err, &se), with
// se a *StopError, gives the fields; with a *StatusError, the last
// attempt's HTTP status.
type StopError struct {
	Cause    error // why: ErrExhausted, ErrMaxElapsed, ErrPermanent, ErrAboveCeiling, ErrBudgetEmpty, ErrHorizon or ErrCancelled
	Attempts int   // attempts begun (sent), 0 if the loop stopped before the first
	Last     error // the last attempt's error (*StatusError for a failed HTTP status); nil if none was made, or if it is Context itself
	Context  error // ErrCancelled only: the context's cause (context.Canceled, a deadline, context.Cause), else nil
}

// Error reads like "core: attempts exhausted after 5 attempts: http status 429".
func (e *StopError) Error() string {
	var b strings.Builder
	b.WriteString(e.Cause.Error())
	b.WriteString(" after ")
	b.WriteString(strconv.Itoa(e.Attempts))
	if e.Attempts == 1 {
		b.WriteString(" attempt")
	} else {
		b.WriteString(" attempts")
	}
	if e.Context != nil {
		b.WriteString(": ")
		b.WriteString(trimCore(e.Context.Error()))
	}
	if e.Last != nil {
		if e.Context != nil {
			b.WriteString("; last error")
		}
		b.WriteString(": ")
		b.WriteString(trimCore(e.Last.Error()))
	}
	return b.String()
}

// Unwrap returns the cause, the context's cause and the last error.
func (e *StopError) Unwrap() []error {
	errs := make([]error, 0, 3)
	for _, err := range []error{e.Cause, e.Context, e.Last} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// StatusError is the error of an attempt that got a response with a
// failing HTTP status.
type StatusError struct{ Status int }

func (e *StatusError) Error() string { return "core: http status " + strconv.Itoa(e.Status) }

func trimCore(s string) string { return strings.TrimPrefix(s, "core: ") }
