package mock

// This file is compiled for the browser too: the simulator in the page
// sends the same Retry-After values as the endpoint.

import (
	"strconv"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

const hugeValue = "99999999999999999999"

// malformedKind resolves MalformedMix by arrival number.
func malformedKind(m Malformed, seq uint64) Malformed {
	if m != MalformedMix {
		return m
	}
	n := uint64(len(malformedNames) - 1)
	return Malformed(1 + (seq+n-1)%n)
}

// AppendRetryAfter appends the Retry-After value the endpoint sends with a
// rejection (or an outage's 503) decided at now for arrival seq; ok is
// false when no header is to be sent. The handler uses it. The seconds,
// dates and fixed values are core/endpoint's (endpoint.AppendRetryAfter),
// which the simulator (sim.EndpointServer) writes too; app/fleet's SimEndpoint has it
// use this for the malformed ones. TestSimEndpointMatchesMock (app/fleet)
// checks the two end to end.
func AppendRetryAfter(b []byte, p *Params, d core.Decision, now time.Time, seq uint64) (_ []byte, ok bool) {
	if p.RetryAfter == RetryMalformed {
		secs := int64(d.RetryAfterSeconds())
		switch malformedKind(p.Malformed, seq) {
		case MalformedText:
			return append(b, "soon"...), true
		case MalformedEmpty:
			return b, true
		case MalformedNegative:
			return strconv.AppendInt(append(b, '-'), secs, 10), true
		case MalformedDecimal:
			return strconv.AppendFloat(b, d.RetryAfter.Seconds(), 'f', 1, 64), true
		case MalformedUnit:
			return append(strconv.AppendInt(b, secs, 10), 's'), true
		case MalformedHuge:
			return append(b, hugeValue...), true
		case MalformedRFC1123Z:
			return d.RetryAt(now).AppendFormat(b, time.RFC1123Z), true
		case MalformedISO8601:
			return d.RetryAt(now).AppendFormat(b, time.RFC3339), true
		}
		return b, false
	}
	return endpoint.AppendRetryAfter(b, endpoint.RetryAfterMode(p.RetryAfter), p.RetryValue, d, now)
}
