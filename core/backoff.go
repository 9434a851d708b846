package core

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
)

// Strategy names a delay schedule.
type Strategy uint8

const (
	None               Strategy = iota // no retries
	Constant                           // Base every time
	Exponential                        // min(Cap, Base·Multiplier^n)
	FullJitter                         // U(0, min(Cap, Base·Multiplier^n))
	EqualJitter                        // t/2 + U(0, t/2), t = min(Cap, Base·Multiplier^n)
	DecorrelatedJitter                 // min(Cap, U(Base, prev·3))
)

// strategyNames are the strategies' names, by their constants: one place
// for ParseStrategy, String and the errors' lists (a new strategy's name
// was missing from two hand-written lists; a review).
var strategyNames = [...]string{None: "none", Constant: "constant", Exponential: "exponential", FullJitter: "full", EqualJitter: "equal", DecorrelatedJitter: "decorrelated"}

// String returns "none", "constant", "exponential", "full", "equal" or
// "decorrelated": the names ParseStrategy accepts.
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}

// Grows reports whether s's delay grows by Backoff.Multiplier with each
// failure: Exponential, FullJitter and EqualJitter. The others ignore the
// multiplier (DecorrelatedJitter grows from the previous delay).
func (s Strategy) Grows() bool {
	return s == Exponential || s == FullJitter || s == EqualJitter
}

// Random reports whether s draws each delay at random (the jitters), so
// that Backoff.Delay reads its u: the loop draws one only for these.
func (s Strategy) Random() bool {
	return s == FullJitter || s == EqualJitter || s == DecorrelatedJitter
}

// Capped reports whether Backoff.Cap limits s's delays, so that Validate
// checks it: every strategy but None and Constant (Constant waits Base
// whatever the cap).
func (s Strategy) Capped() bool {
	return s != None && s != Constant
}

// ParseStrategy is the inverse of Strategy.String. Names are exact
// (lower case, no surrounding space).
func ParseStrategy(s string) (Strategy, error) {
	for i, name := range strategyNames {
		if s == name {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("core: backoff strategy %q: must be one of %s", s, strings.Join(strategyNames[:], ", "))
}

// Backoff is a pure description of a delay schedule: the formulas of the
// AWS Architecture Blog's "Exponential Backoff and Jitter", with n the
// number of failed attempts so far (n = 1 before the first retry).
//
//	None                0 (the loop never retries)
//	Constant            Base
//	Exponential         t = min(Cap, Base·Multiplier^n)
//	FullJitter          U(0, t)
//	EqualJitter         t/2 + U(0, t/2)
//	DecorrelatedJitter  min(Cap, U(Base, prev·3)), starting from prev = Base
//
// Full jitter spreads a herd evenly over [0, t) and is the usual choice;
// equal jitter keeps at least half of the exponential wait; decorrelated
// jitter grows from the previous delay rather than from n. Cap 0 means no
// cap (delays saturate at the largest time.Duration). The zero Backoff is
// None.
type Backoff struct {
	Strategy   Strategy
	Base       time.Duration // the delay scale: Constant's delay, Exponential's first is Base·Multiplier (n = 1; not cenkalti/backoff's InitialInterval), DecorrelatedJitter's least (BackoffBaseRange)
	Multiplier float64       // growth per failure, AWS uses 2; only Exponential, FullJitter, EqualJitter (BackoffMultiplierRange)
	Cap        time.Duration // largest delay, 0 = no cap; not used by Constant (BackoffCapRange)
}

// Validate reports the first field outside its allowed range. Fields the
// strategy does not use are not checked.
func (b Backoff) Validate() error {
	if int(b.Strategy) >= len(strategyNames) {
		last := len(strategyNames) - 1
		return fmt.Errorf("core: backoff strategy %d: must be between 0 (%s) and %d (%s)", uint8(b.Strategy), strategyNames[0], last, strategyNames[last])
	}
	if b.Strategy == None {
		return nil
	}
	if err := BackoffBaseRange.check("backoff base", b.Base); err != nil {
		return err
	}
	if b.Strategy.Grows() {
		if err := BackoffMultiplierRange.check("backoff multiplier", b.Multiplier); err != nil {
			return err
		}
	}
	if !b.Strategy.Capped() {
		return nil
	}
	if err := BackoffCapRange.check("backoff cap", b.Cap); err != nil {
		return err
	}
	if b.Cap != 0 && b.Cap < b.Base {
		return &capError{b.Cap, b.Base}
	}
	return nil
}

// ErrCapBelowBase is matched (errors.Is) by Validate's error for a Cap
// that is neither 0 (no cap) nor at least Base, the one rule between two
// of a Backoff's fields: a form that words each field's error tells it
// apart from a range error with it.
var ErrCapBelowBase = errors.New("core: backoff cap below base")

// capError reads "core: backoff cap 1s: must be 0 (no cap) or at least
// base 2s" and unwraps to ErrCapBelowBase.
type capError struct{ cap, base time.Duration }

func (e *capError) Error() string {
	return fmt.Sprintf("core: backoff cap %s: must be 0 (no cap) or at least base %s", FormatDuration(e.cap), FormatDuration(e.base))
}

func (e *capError) Unwrap() error { return ErrCapBelowBase }

// Delay is the wait after the n-th failed attempt (n >= 1): with the AWS
// convention t = min(Cap, Base·Multiplier^n), the first retry of
// Exponential waits Base·Multiplier. prev is the previous delay
// (DecorrelatedJitter only; 0 for the first retry, which then starts from
// prev = Base). u is a random number in [0, 1) (values outside are
// clamped); only the jitter strategies use it, and the result is a pure
// function of the arguments, identical on every platform.
//
// Base·Multiplier^n is computed by repeated multiplication, stopping at
// Cap (beyond 4096 retries, by repeated squaring), so Delay and Schedule
// agree to the nanosecond; no step can be fused into a multiply-add. The result is never
// negative, even for a Backoff that fails Validate.
func (b Backoff) Delay(n int, prev time.Duration, u float64) time.Duration {
	if !(u > 0) { // also NaN
		u = 0
	} else if u > 1 {
		u = 1
	}
	switch {
	case b.Strategy == Constant:
		return toDuration(float64(b.Base))
	case b.Strategy.Grows():
		return b.jitter(b.expo(n), u)
	case b.Strategy == DecorrelatedJitter:
		return b.decorrelated(prev, u)
	}
	return 0
}

// limit is the cap as a float, or the largest Duration when there is none.
func (b Backoff) limit() float64 {
	if b.Cap > 0 {
		return float64(b.Cap)
	}
	return maxDurationF
}

// expoLoopMax bounds the multiplication loop; beyond it (only reachable
// with multipliers a hair above 1 or absurd n) powInt is used.
const expoLoopMax = 1 << 12

// expo returns min(limit, Base·Multiplier^n).
func (b Backoff) expo(n int) float64 {
	t, m, limit := float64(b.Base), b.Multiplier, b.limit()
	if !(m > 1) || n <= 0 {
		return math.Min(t, limit)
	}
	if n > expoLoopMax {
		return math.Min(t*powInt(m, n), limit)
	}
	for i := 0; i < n && t < limit; i++ {
		t *= m
	}
	return math.Min(t, limit)
}

// powInt returns m^n for n >= 0 by repeated squaring: the steps math.Pow
// takes for an integer exponent (which scale by exact powers of two in
// between, changing no rounding), so where math.Pow runs unfused the two
// agree to the bit. It only multiplies, so no platform can fuse a
// multiply-add into it, and unlike math.Pow (assembly on s390x, fused
// multiply-adds on arm64) it gives the same bits everywhere.
func powInt(m float64, n int) float64 {
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= m
		}
		m *= m
	}
	return r
}

// jitter applies the strategy's jitter to t = min(Cap, Base·Multiplier^n).
// The explicit float64 conversions forbid fused multiply-add, which some
// architectures would otherwise use, so results match across platforms.
func (b Backoff) jitter(t, u float64) time.Duration {
	switch b.Strategy {
	case FullJitter:
		return toDuration(float64(u * t))
	case EqualJitter:
		h := t / 2
		return toDuration(h + float64(u*h))
	}
	return toDuration(t)
}

func (b Backoff) decorrelated(prev time.Duration, u float64) time.Duration {
	base := float64(b.Base)
	p := float64(prev)
	if prev <= 0 {
		p = base
	}
	hi := 3 * p
	if hi < base {
		hi = base
	}
	d := base + float64(u*(hi-base))
	if limit := b.limit(); d > limit {
		d = limit
	}
	return toDuration(d)
}

// toDuration converts nanoseconds to a Duration, truncating, with NaN and
// negatives as 0 and overflow saturating.
func toDuration(f float64) time.Duration {
	switch {
	case !(f > 0):
		return 0
	case f >= maxDurationF:
		return maxDuration
	}
	return time.Duration(f)
}

// Schedule steps through one Backoff's delays with its own Rand: the k-th
// call to Next returns Delay(k, previous, u) with u drawn from the Rand
// (only for the jitter strategies), to the nanosecond. It keeps
// Base·Multiplier^k between calls, so Next costs a multiplication and at
// most one random draw. It is the sequencer form of Backoff, like
// cenkalti/backoff's NextBackOff. Not safe for concurrent use. Create it
// with NewSchedule: the zero value is not usable.
type Schedule struct {
	b     Backoff
	rng   Rand
	fast  *PCG       // rng, when it is one: a direct call
	std   *rand.Rand // rng, when it is one: one indirect call fewer
	n     int
	t     float64 // min(limit, Base·Multiplier^n) by repeated multiplication
	mult  float64 // Multiplier, or 1 when it would not grow
	limit float64
	prev  time.Duration
}

// NewSchedule returns a schedule for b drawing from rng (only the jitter
// strategies draw). nil means NewPCG(0), as for NewLoop.
func NewSchedule(b Backoff, rng Rand) *Schedule {
	if rng == nil {
		rng = NewPCG(0)
	}
	s := &Schedule{b: b, rng: rng, limit: b.limit(), mult: b.Multiplier}
	s.fast, _ = rng.(*PCG)
	s.std, _ = rng.(*rand.Rand)
	if !(s.mult > 1) {
		s.mult = 1
	}
	s.Reset()
	return s
}

// Reset starts the schedule again from the first retry.
func (s *Schedule) Reset() {
	s.n, s.prev, s.t = 0, 0, float64(s.b.Base)
}

// Attempt returns how many delays Next has returned since the last Reset.
func (s *Schedule) Attempt() int { return s.n }

func (s *Schedule) draw() float64 {
	switch {
	case s.fast != nil:
		return s.fast.Float64()
	case s.std != nil:
		return s.std.Float64()
	}
	return clampUnit(s.rng.Float64())
}

// Next returns the next delay.
func (s *Schedule) Next() time.Duration {
	s.n++
	var d time.Duration
	switch {
	case s.b.Strategy == Constant:
		d = toDuration(float64(s.b.Base))
	case s.b.Strategy.Grows():
		var t float64
		if s.n <= expoLoopMax {
			// The same steps as Backoff.expo, one per call.
			if s.t < s.limit {
				s.t *= s.mult
			}
			t = s.t
			if t > s.limit {
				t = s.limit
			}
		} else {
			t = s.b.expo(s.n)
		}
		if s.b.Strategy.Random() {
			d = s.b.jitter(t, s.draw())
		} else {
			d = toDuration(t)
		}
	case s.b.Strategy == DecorrelatedJitter:
		d = s.b.decorrelated(s.prev, s.draw())
	}
	s.prev = d
	return d
}

func clampUnit(u float64) float64 {
	if !(u > 0) {
		return 0
	}
	return math.Min(u, 1)
}
