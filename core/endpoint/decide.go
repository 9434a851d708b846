package endpoint

import (
	"strconv"
	"time"

	"retrylab/core"
)

// Outcome is what an endpoint does with a request. The mock endpoint's
// answers and arrivals name it (String).
type Outcome uint8

const (
	OutcomeOK      Outcome = iota // admitted by the limiter, answered 200
	OutcomeLimited                // rejected by the limiter: Config.Status with Retry-After
	OutcomeFail500                // injected 500, no Retry-After
	OutcomeFail503                // injected 503, no Retry-After
	OutcomeDrop                   // injected: connection closed without a response
	OutcomeHang                   // injected: never answered
	OutcomeOutage                 // the server is down: 503 with Retry-After, the limiter untouched
)

var outcomeNames = [...]string{"ok", "limited", "fail500", "fail503", "drop", "hang", "outage"}

// String returns "ok", "limited", "fail500", "fail503", "drop", "hang" or
// "outage": the mock's names; "invalid(N)" for an outcome it lacks.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "invalid(" + strconv.Itoa(int(o)) + ")"
}

// SendsRetryAfter reports whether an answer with outcome o carries
// Retry-After (as the endpoint's mode writes it, AppendRetryAfter): a
// rejection and an outage's 503 do.
func (o Outcome) SendsRetryAfter() bool { return o == OutcomeLimited || o == OutcomeOutage }

// Verdict is an endpoint's decision on one request.
type Verdict struct {
	Outcome  Outcome
	Status   int           // 200, Config.Status, 500 or 503; 0 for a drop or a hang
	Decision core.Decision // the limiter's; Allowed only with OutcomeOK
}

// Decide decides a request that reaches c at now, in this order:
//
//  1. When the server is down (down, until the outage's end): 503,
//     OutcomeOutage, with no failure rolled (fail is not read). The
//     limiter is only consulted (core.Limiter.Peek): the request does not
//     count against the limit. Nothing is allowed before the outage ends:
//     the Decision's RetryAfter is at least until - now.
//  2. An injected failure, when fail (a roll in [0, 1)) falls among c's
//     percentages (inject): 500, 503, a drop or a hang. It bypasses the
//     limiter too: Peek, and the Decision is not Allowed.
//  3. Otherwise lim decides (core.Limiter.Decide): 200 when it admits the
//     request, OutcomeLimited with c.Status (0: 429) when it rejects it.
//
// Of c, Decide reads only Status and the failures' percentages. A nil lim
// decides as a LimitNone limiter does: everything is allowed (the mock's
// request with limiter=none, on a key whose limit it leaves as it is).
// The answer leaves after c.Delay of the request's spread roll, and
// carries Retry-After when its Outcome.SendsRetryAfter.
//
// This is the one place the mock endpoint decides: the live handler
// (app/mock) calls it under the key's lock once the request is numbered,
// with a Config made from the request's query, and core/sim's
// EndpointServer.Arrive in virtual time. Each draws its own rolls.
func (c *Config) Decide(now time.Time, down bool, until time.Time, fail float64, lim *core.Limiter) Verdict {
	v := Verdict{Outcome: OutcomeOK, Status: 200}
	if down {
		v.Outcome, v.Status = OutcomeOutage, 503
	} else if o, status, ok := inject(fail, c.Fail500, c.Fail503, c.Drop, c.Hang); ok {
		v.Outcome, v.Status = o, status
	}
	admit := v.Outcome == OutcomeOK
	v.Decision = core.Decision{Allowed: true} // what a LimitNone limiter decides
	switch {
	case lim == nil:
	case admit:
		v.Decision = lim.Decide(now)
	default:
		v.Decision = lim.Peek(now)
	}
	switch {
	case !admit:
		v.Decision.Allowed = false
		if down {
			v.Decision.RetryAfter = max(v.Decision.RetryAfter, until.Sub(now))
		}
	case !v.Decision.Allowed:
		v.Outcome, v.Status = OutcomeLimited, c.Status
		if c.Status == 0 {
			v.Status = 429
		}
	}
	return v
}

// inject is the failure a request that rolled u in [0, 1) gets, and its
// status (none for a drop or a hang), for percentages fail500, fail503,
// drop and hang taken in that order: u·100 below fail500 gets a 500, below
// fail500+fail503 a 503, and so on; at or above their sum none (ok false).
// Decide rolls so, for the mock endpoint and the simulated one alike: with
// the same roll (mock.SeededRolls) they inject the same failures.
func inject(u, fail500, fail503, drop, hang float64) (_ Outcome, status int, ok bool) {
	switch u *= 100; {
	case u < fail500:
		return OutcomeFail500, 500, true
	case u < fail500+fail503:
		return OutcomeFail503, 503, true
	case u < fail500+fail503+drop:
		return OutcomeDrop, 0, true
	case u < fail500+fail503+drop+hang:
		return OutcomeHang, 0, true
	}
	return OutcomeOK, 0, false
}

// Delay is how long after its arrival a request's answer leaves, for its
// spread roll in [0, 1): Latency + spread·Spread.
func (c *Config) Delay(spread float64) time.Duration {
	return c.Latency + time.Duration(spread*float64(c.Spread))
}
