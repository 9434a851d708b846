package core

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Range is the inclusive range of values a configuration field accepts.
// The page shows these bounds next to each input and the mock endpoint
// checks its query against them, so both read them from here. Treat the
// exported Range variables as read-only.
type Range[T ~int | ~int64 | ~float64] struct{ Min, Max T }

// Contains reports whether Min <= v <= Max. NaN is never contained.
func (r Range[T]) Contains(v T) bool { return v >= r.Min && v <= r.Max }

// String formats the range as "between <min> and <max>".
func (r Range[T]) String() string {
	return "between " + formatValue(r.Min) + " and " + formatValue(r.Max)
}

// check returns nil if v is in range, else an error of the form
// "core: <field> <value>: must be between <min> and <max>".
func (r Range[T]) check(field string, v T) error {
	if r.Contains(v) {
		return nil
	}
	return fmt.Errorf("core: %s %s: must be %s", field, formatValue(v), r)
}

// Allowed ranges, one per configuration field. A field documented with
// "0 = off/unlimited" has a range starting at 0.
var (
	// Backoff.
	BackoffBaseRange       = Range[time.Duration]{time.Millisecond, time.Hour}
	BackoffMultiplierRange = Range[float64]{1, 10}
	BackoffCapRange        = Range[time.Duration]{0, 24 * time.Hour} // 0 = no cap; else >= Base

	// Policy.
	PolicyMaxAttemptsRange = Range[int]{1, 1000}
	PolicyMaxElapsedRange  = Range[time.Duration]{0, 24 * time.Hour} // 0 = unlimited
	PolicyCeilingRange     = Range[time.Duration]{0, 24 * time.Hour} // 0 = no ceiling
	PolicySpreadRange      = Range[time.Duration]{0, time.Minute}    // 0 = off

	// Bucket (client-side pacing).
	BucketRateRange     = Range[float64]{0.001, 1e6} // tokens per second
	BucketCapacityRange = Range[float64]{1, 1e6}     // tokens

	// Budget (retry quota).
	BudgetCapacityRange = Range[float64]{1, 1e6}
	BudgetRefillRange   = Range[float64]{0, 1e6} // tokens returned per success

	// LimiterConfig (server side). Limit is capped at 1000 because the exact
	// sliding window keeps one timestamp per allowed request in the window
	// (at most 8 KB per limiter).
	LimiterRateRange   = Range[float64]{0.001, 1e6} // token bucket: tokens per second
	LimiterBurstRange  = Range[int]{1, 1e6}         // token bucket: capacity
	LimiterLimitRange  = Range[int]{1, 1000}        // windows: requests per window
	LimiterWindowRange = Range[time.Duration]{time.Millisecond, 24 * time.Hour}
)

// formatValue prints durations compactly ("1h", "1m30s", "100ms") and
// floats without exponents where practical ("1000000", "0.001").
func formatValue[T ~int | ~int64 | ~float64](v T) string {
	switch x := any(v).(type) {
	case time.Duration:
		return FormatDuration(x)
	case float64:
		return FormatFloat(x)
	}
	// Other integer kinds.
	if f := float64(v); f == math.Trunc(f) {
		return strconv.FormatInt(int64(v), 10)
	}
	return FormatFloat(float64(v))
}

// ParseFloat reads a decimal number as people write one: digits with an
// optional sign, point and exponent ("0.5", "-2", "1e3", ".5"). Unlike
// strconv.ParseFloat it refuses Go's other spellings, which no one means
// in a configuration: hexadecimal ("0x1p-2"), digit separators ("1_000"),
// "Inf" and "NaN". Zero is zero whatever its sign: "-0" reads as 0, which
// a link then writes "0", not "-0". The page's fields and the mock's
// parameters read numbers with it. Its error is strconv's own
// *strconv.NumError (ErrSyntax, or ErrRange past ±1.8e308), not a "core:"
// one: the callers name the field.
func ParseFloat(s string) (float64, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E' {
			return 0, &strconv.NumError{Func: "ParseFloat", Num: s, Err: strconv.ErrSyntax}
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if f == 0 {
		f = 0 // not -0
	}
	return f, err
}

// FormatFloat writes f as the ranges and errors do: the shortest form that
// parses back exactly, without an exponent below 1e21.
func FormatFloat(f float64) string {
	if math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// FormatDuration is time.Duration.String without trailing zero units:
// "1h" rather than "1h0m0s", "1m" rather than "1m0s"; time.ParseDuration
// reads it back exactly. The ranges and errors write durations so.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// DurationHint is what a message refusing v as a duration adds when v is
// a bare number, which time.ParseDuration reads as no duration ("50",
// meant as 50 ms or 50 s): that a number needs a unit, and the units
// that make it a duration ok takes, of ms, s and m, "; a number needs a
// unit: 50ms, perhaps" (or "; a number needs a unit: ms, s or m" when
// none does). A duration written with spaces, as the page writes a
// measured one ("1.5 s") and as SI style has it, is offered without them
// where ok takes that: "; without a space: 1.5s". "" for anything else,
// 0 included, the one number Go reads as a duration. The page's duration
// fields and the mock's duration parameters (the query's, and the fault
// switches' for=) end their messages with it, and most take DurationIn
// as ok.
func DurationHint(v string, ok func(string) bool) string {
	v = strings.TrimSpace(v)
	if w := strings.Join(strings.Fields(v), ""); w != v && ok(w) {
		return "; without a space: " + w
	}
	if _, err := ParseFloat(v); err != nil {
		return ""
	}
	if _, err := time.ParseDuration(v); err == nil { // "0": a duration, refused for its range
		return ""
	}
	var fits []string
	for _, unit := range []string{"ms", "s", "m"} {
		if ok(v + unit) {
			fits = append(fits, v+unit)
		}
	}
	if len(fits) == 0 {
		return "; a number needs a unit: ms, s or m"
	}
	return "; a number needs a unit: " + strings.Join(fits, " or ") + ", perhaps"
}

// DurationIn reports whether a text is a duration in r, as
// time.ParseDuration reads one: the ok that DurationHint takes for a
// duration field or parameter with a range.
func DurationIn(r Range[time.Duration]) func(string) bool {
	return func(s string) bool { d, err := time.ParseDuration(s); return err == nil && r.Contains(d) }
}
