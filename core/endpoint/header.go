package endpoint

import (
	"strconv"
	"time"

	"retrylab/core"
)

// timeFormat is the IMF-fixdate layout of HTTP dates (net/http's
// TimeFormat; this package does not import net/http).
const timeFormat = "Mon, 02 Jan 2006 15:04:05 GMT"

// AppendRetryAfter appends the Retry-After value an endpoint in mode sends
// with d, decided at now: RetryAfterSeconds the wait in whole seconds,
// rounded up (core.Decision.RetryAfterSeconds); RetryAfterDate the
// IMF-fixdate of d.RetryAt(now); RetryAfterFixed fixed seconds. ok is
// false, and b returned as it is, for RetryAfterNone: no Retry-After. The
// mock endpoint and the simulated one both write these values here (the
// mock's malformed ones are its own).
func AppendRetryAfter(b []byte, mode RetryAfterMode, fixed int, d core.Decision, now time.Time) (_ []byte, ok bool) {
	switch mode {
	case RetryAfterSeconds:
		return strconv.AppendInt(b, int64(d.RetryAfterSeconds()), 10), true
	case RetryAfterDate:
		return d.RetryAt(now).AppendFormat(b, timeFormat), true
	case RetryAfterFixed:
		return strconv.AppendInt(b, int64(fixed), 10), true
	}
	return b, false
}

// AppendRateLimitPolicy appends the RateLimit-Policy value an endpoint
// limiting as kind sends, quota requests per window seconds:
// "<name>";q=<quota>;w=<window>, name from LimiterNames. The mock
// endpoint and the simulated one both write it here.
func AppendRateLimitPolicy(b []byte, kind core.LimiterKind, quota int, window int64) []byte {
	b = append(append(append(b, '"'), LimiterName(kind)...), `";q=`...)
	b = strconv.AppendInt(b, int64(quota), 10)
	return strconv.AppendInt(append(b, ";w="...), window, 10)
}

// AppendRateLimit appends the RateLimit value an endpoint limiting as
// kind sends with remaining requests left and the quota back in reset
// seconds: "<name>";r=<remaining>;t=<reset>.
func AppendRateLimit(b []byte, kind core.LimiterKind, remaining, reset int) []byte {
	b = append(append(append(b, '"'), LimiterName(kind)...), `";r=`...)
	b = strconv.AppendInt(b, int64(remaining), 10)
	return strconv.AppendInt(append(b, ";t="...), int64(reset), 10)
}
