package core

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// CeilingAction says what the loop does when a server asks for a wait
// longer than Policy.Ceiling.
type CeilingAction uint8

const (
	CeilingClamp CeilingAction = iota // wait Ceiling instead
	CeilingStop                       // give up with ErrAboveCeiling
)

// String returns "clamp" or "stop".
func (a CeilingAction) String() string {
	switch a {
	case CeilingClamp:
		return "clamp"
	case CeilingStop:
		return "stop"
	}
	return fmt.Sprintf("CeilingAction(%d)", uint8(a))
}

// ParseCeilingAction is the inverse of CeilingAction.String.
func ParseCeilingAction(s string) (CeilingAction, error) {
	switch s {
	case "clamp":
		return CeilingClamp, nil
	case "stop":
		return CeilingStop, nil
	}
	return 0, fmt.Errorf("core: ceiling action %q: must be clamp or stop", s)
}

// Outcome is one attempt as the caller's Operation saw it.
//
// An outcome succeeded when Err is nil and Status is below 400 (0 included,
// for operations that are not HTTP).
type Outcome struct {
	Status int    // HTTP status; 0 when there was no response (network error, timeout, abort)
	Header Header // response headers; may be nil
	Err    error  // transport error, timeout (wrapping context.DeadlineExceeded), abort
}

// succeeded reports whether o is a success (see Outcome).
func (o Outcome) succeeded() bool { return o.Err == nil && o.Status < 400 }

// err is the error o stands for: Err, or a *StatusError for a failing status.
func (o Outcome) err() error {
	if o.Err != nil {
		return o.Err
	}
	if o.Status >= 400 {
		return &StatusError{Status: o.Status}
	}
	return nil
}

// DefaultRetryable is the retry rule used when Policy.Retryable is nil:
// status 429 and every 5xx (503 included) but 501 Not Implemented and 505
// HTTP Version Not Supported, which say the server will never do what was
// asked (go-retryablehttp leaves out 501 too), and any error other than
// cancellation (context.Canceled) and one marked Permanent. Timeouts
// (context.DeadlineExceeded) are retryable: a per-attempt timeout is an
// ordinary failure.
func DefaultRetryable(o Outcome) bool {
	if o.Err != nil {
		return !errors.Is(o.Err, context.Canceled) && !IsPermanent(o.Err)
	}
	return o.Status == 429 || o.Status >= 500 && o.Status <= 599 && o.Status != 501 && o.Status != 505
}

// Permanent marks err as one no retry can mend (a malformed URL, an
// unsupported scheme, a certificate the client refuses): an Operation
// returns Outcome{Err: Permanent(err)} and DefaultRetryable does not retry
// it, so the loop stops at once with ErrPermanent, as for a 4xx. The mark
// is transparent: errors.Is and errors.As see err through it, and its
// message is err's. Permanent(nil) is nil. (cenkalti/backoff has the same
// marker; core cannot tell such errors apart itself without importing
// net/http and crypto/x509, which the page's WebAssembly does not carry.)
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

// IsPermanent reports whether err, or an error it wraps, was marked
// Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Policy is everything a retry Loop decides with.
//
// Waits come, in order of precedence, from the server's Retry-After (when
// RetryAfter is set and the value parses), from a rate-limit reset hint
// (when UseResetHints is set, there is no usable Retry-After, and the hint
// says the quota is used up or does not say what remains), and otherwise
// from Backoff. A server-requested wait is limited by Ceiling and then
// gets Spread added.
//
// The zero Policy is not valid (MaxAttempts must be at least 1); start from
// DefaultPolicy.
type Policy struct {
	Backoff     Backoff
	MaxAttempts int           // attempts in all, >= 1 (1 = no retries) (PolicyMaxAttemptsRange)
	MaxElapsed  time.Duration // 0 = unlimited; the loop stops rather than start a wait ending past it (PolicyMaxElapsedRange)

	RetryAfter   bool          // honour Retry-After
	Ceiling      time.Duration // largest server delay honoured (before Spread is added), 0 = no ceiling (PolicyCeilingRange)
	AboveCeiling CeilingAction // what to do above Ceiling: CeilingClamp or CeilingStop

	// Spread adds U(0, Spread) to every server-requested wait (Retry-After
	// or reset hint). A server that tells a whole herd "retry in 2 s" gets
	// the whole herd back in the same millisecond, and rejects most of it
	// again; a small spread (tens to hundreds of milliseconds) breaks the
	// herd up at almost no cost. 0 (the default) honours the server
	// exactly. (PolicySpreadRange)
	Spread time.Duration

	UseResetHints bool // use a RateLimit / X-RateLimit reset when no Retry-After is honoured (absent, invalid, or RetryAfter off)

	// Retryable decides whether a failed outcome is worth retrying; nil
	// means DefaultRetryable. A non-retryable failure stops the loop with
	// ErrPermanent.
	Retryable func(Outcome) bool
}

// DefaultPolicy returns a reasonable client policy: full jitter with a
// Base of 100 ms doubling up to 10 s (the first retry waits U(0, 200 ms),
// as Backoff's n starts at 1), 5 attempts, Retry-After honoured up to one
// minute (clamped), no spread, no reset hints.
func DefaultPolicy() Policy {
	return Policy{
		Backoff:     Backoff{Strategy: FullJitter, Base: 100 * time.Millisecond, Multiplier: 2, Cap: 10 * time.Second},
		MaxAttempts: 5,
		RetryAfter:  true,
		Ceiling:     time.Minute,
	}
}

// Validate reports the first field outside its allowed range, as
// "core: <field> <value>: must be between <min> and <max>" (a cap below
// the base and a choice out of its set say so instead: ErrCapBelowBase,
// "must be 0 (clamp) or 1 (stop)").
func (p Policy) Validate() error {
	if err := p.Backoff.Validate(); err != nil {
		return err
	}
	if err := PolicyMaxAttemptsRange.check("policy max attempts", p.MaxAttempts); err != nil {
		return err
	}
	if err := PolicyMaxElapsedRange.check("policy max elapsed", p.MaxElapsed); err != nil {
		return err
	}
	if err := PolicyCeilingRange.check("policy ceiling", p.Ceiling); err != nil {
		return err
	}
	if p.AboveCeiling > CeilingStop {
		return fmt.Errorf("core: policy above-ceiling action %d: must be 0 (clamp) or 1 (stop)", uint8(p.AboveCeiling))
	}
	return PolicySpreadRange.check("policy spread", p.Spread)
}
