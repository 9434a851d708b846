package endpoint

import (
	"fmt"
	"strconv"
	"time"

	"retrylab/core"
)

// Config is what an endpoint answers with, whichever runs it: the mock's
// query parameters (app/mock.Params) and a simulation's scenario both come
// down to one. What an answer looks like:
//
//   - Decide decides it: during an outage, 503; otherwise an injected
//     failure, when one is rolled (Fail500, Fail503, Drop, Hang, percent
//     of all requests, in that order); otherwise the limiter, whose
//     rejection gets Status.
//   - A rejection and an outage's 503 carry Retry-After as RetryAfter says
//     (AppendRetryAfter).
//   - The answer leaves after Latency + U(0, Spread) (Delay).
//   - With IETF set, RateLimit-Policy: "<kind>";q=<q>;w=<w> (the limiter
//     config's Policy: the limit per window in whole seconds) and
//     RateLimit: "<kind>";r=<remaining>;t=<reset s>; with X set,
//     X-RateLimit-Limit, -Remaining and -Reset (seconds, rounded up). No
//     limiter (LimitNone) sends neither.
//
// The zero Config is valid: no limiter (LimitNone), no latency, no
// failures, no rate-limit headers: every request is answered 200 at once.
type Config struct {
	Limiter    core.LimiterConfig
	Status     int            // status of a rejection: 429 or 503 (0 means 429)
	RetryAfter RetryAfterMode // Retry-After on rejections and in an outage
	RetryValue int            // seconds, for RetryAfterFixed (0–MaxRetryValue)

	IETF bool // send RateLimit and RateLimit-Policy
	X    bool // send X-RateLimit-Limit, -Remaining, -Reset

	Latency time.Duration // base delay of every answer
	Spread  time.Duration // plus U(0, Spread)

	Fail500, Fail503, Drop, Hang float64 // injected failures, percent of all requests (sum <= 100, see FailureSumSlack)
}

// RetryAfterMode says what the Retry-After field of a rejection carries.
type RetryAfterMode uint8

const (
	RetryAfterNone    RetryAfterMode = iota // no Retry-After
	RetryAfterSeconds                       // delta-seconds: core.Decision.RetryAfterSeconds (exact wait rounded up, >= 1)
	RetryAfterDate                          // IMF-fixdate of the first whole second at or after now+RetryAfter
	RetryAfterFixed                         // Config.RetryValue seconds, whatever the limiter says
)

// DefaultHangLimit is how long the endpoint holds a hanging request before
// it closes the connection.
const DefaultHangLimit = 60 * time.Second

// FailureSumSlack is how far above 100 the float64 sum of the injected
// failure percentages may come: shares that add up to 100 in decimal can
// add up to a little more in float64 (0.2 + 85.4 + 14.4 =
// 100.00000000000001). Rolls compare a draw in [0, 100) with the running
// sums, so such a sum means failures only, as 100 does. The mock's
// parameters allow the same.
const FailureSumSlack = 1e-9

// FailureRange is the range of each injected failure's percentage
// (Config.Fail500, Fail503, Drop, Hang).
var FailureRange = core.Range[float64]{Min: 0, Max: 100}

// MaxRetryValue is the most seconds RetryAfterFixed sends (a day).
const MaxRetryValue = 86400

// Validate reports the first field that makes no sense.
func (c *Config) Validate() error {
	if err := c.Limiter.Validate(); err != nil {
		return err
	}
	switch {
	case c.Status != 0 && c.Status != 429 && c.Status != 503:
		return fmt.Errorf("endpoint: status %d: must be 429 or 503", c.Status)
	case c.RetryAfter > RetryAfterFixed:
		return fmt.Errorf("endpoint: retry-after mode %d: must be between 0 (none) and 3 (fixed)", c.RetryAfter)
	case c.RetryValue < 0 || c.RetryValue > MaxRetryValue:
		return fmt.Errorf("endpoint: retry value %d: must be between 0 and %d", c.RetryValue, MaxRetryValue)
	case c.Latency < 0 || c.Spread < 0:
		return fmt.Errorf("endpoint: latency %v, spread %v: must not be negative", c.Latency, c.Spread)
	}
	sum := 0.0
	for _, p := range []struct {
		name string
		v    float64
	}{{"fail500", c.Fail500}, {"fail503", c.Fail503}, {"drop", c.Drop}, {"hang", c.Hang}} {
		if !FailureRange.Contains(p.v) { // a NaN is in no range
			return fmt.Errorf("endpoint: %s %v: must be %v", p.name, p.v, FailureRange)
		}
		sum += p.v
	}
	if sum > FailureRange.Max+FailureSumSlack {
		return fmt.Errorf("endpoint: fail500+fail503+drop+hang %v: must be at most %v", sum, FailureRange.Max)
	}
	return nil
}

// Injects reports whether c injects failures at all: only then is a
// request's failure rolled.
func (c *Config) Injects() bool { return c.Fail500+c.Fail503+c.Drop+c.Hang > 0 }

// RateLimitHeaders reports which rate-limit fields an answer carries: the
// IETF pair (RateLimit and RateLimit-Policy) and the X-RateLimit trio,
// each as asked, and neither without a limiter.
func (c *Config) RateLimitHeaders() (ietf, x bool) {
	limited := c.Limiter.Kind != core.LimitNone
	return limited && c.IETF, limited && c.X
}

// LimiterNames are the mock endpoint's query names of the limiter kinds,
// indexed by core.LimiterKind; the IETF fields use them as the policy
// name.
//
// They are a second spelling of the kinds beside core's own
// (core.LimiterKind.String: "token-bucket", "fixed-window",
// "sliding-window"), and neither can be the only one without changing
// what users read and what links already say. These short names are in
// every link the page writes (limiter=bucket), in the page's menu and in
// the RateLimit-Policy header on the wire; core's are its API's String and
// errors, and the mock's limiter parameter says it takes them ("core's
// token-bucket, fixed-window, sliding-window also accepted"), so links
// written with them work too. ParseLimiterName reads both.
var LimiterNames = [...]string{
	core.LimitNone:          "none",
	core.LimitTokenBucket:   "bucket",
	core.LimitFixedWindow:   "fixed",
	core.LimitSlidingWindow: "sliding",
}

// ParseLimiterName reads a limiter kind as the mock's limiter parameter
// takes one: a name in LimiterNames, or core's (core.ParseLimiterKind),
// exactly as written. ok is false for anything else.
func ParseLimiterName(s string) (k core.LimiterKind, ok bool) {
	for i, name := range LimiterNames {
		if s == name {
			return core.LimiterKind(i), true
		}
	}
	k, err := core.ParseLimiterKind(s)
	return k, err == nil
}

// LimiterName is k's name in LimiterNames, "invalid(N)" for a kind it
// lacks.
func LimiterName(k core.LimiterKind) string {
	if int(k) < len(LimiterNames) {
		return LimiterNames[k]
	}
	return "invalid(" + strconv.Itoa(int(k)) + ")"
}
