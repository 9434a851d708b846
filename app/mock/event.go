package mock

// This file is compiled for the browser too: the page decodes responses and
// the arrivals stream into these types.

import (
	"time"

	"retrylab/core/endpoint"
)

// Outcome is what the server did with an arrival: core/endpoint's, which
// decides it (endpoint.Config.Decide) and names it (String).
type Outcome = endpoint.Outcome

const (
	OutcomeOK      = endpoint.OutcomeOK      // allowed, answered 200
	OutcomeLimited = endpoint.OutcomeLimited // rejected by the limiter: Params.Status with Retry-After
	OutcomeFail500 = endpoint.OutcomeFail500 // injected 500, no Retry-After
	OutcomeFail503 = endpoint.OutcomeFail503 // injected 503, no Retry-After
	OutcomeDrop    = endpoint.OutcomeDrop    // injected: connection closed without a response
	OutcomeHang    = endpoint.OutcomeHang    // injected: never answered
	OutcomeOutage  = endpoint.OutcomeOutage  // the key's server is down (POST /mock/outage): 503, the limiter untouched
)

// End is how the handling of a request finished.
type End uint8

const (
	EndSent      End = iota // the response was written
	EndCancelled            // the client went away (abort, timeout) before the response was written
	EndDropped              // the connection was closed on purpose (OutcomeDrop)
	EndTimeout              // a hang reached the server's bound; the connection was closed
	EndShutdown             // the server closed the handler while the request waited
)

var endNames = [...]string{"sent", "cancelled", "dropped", "timeout", "shutdown"}

func (e End) String() string { return enumName(endNames[:], int(e)) }

// Body is the JSON body of every answered arrival (200, the rejection, and
// injected 500/503). Times in milliseconds have microsecond precision.
type Body struct {
	Key          string    `json:"key"`
	Tag          string    `json:"tag,omitempty"`
	Seq          uint64    `json:"seq"`            // arrival number for the key, from 1
	Allowed      bool      `json:"allowed"`        // admitted by the limiter (false for injected failures: they bypass it)
	Status       int       `json:"status"`         // the HTTP status sent
	Outcome      string    `json:"outcome"`        // Outcome.String()
	Limit        int       `json:"limit"`          // quota: burst or window limit (0 with limiter=none)
	Remaining    int       `json:"remaining"`      // quota left after this arrival
	ResetMS      float64   `json:"reset_ms"`       // until the quota is fully restored
	RetryAfterMS float64   `json:"retry_after_ms"` // exact wait until a request would be allowed (0 if allowed), whatever Retry-After says
	LatencyMS    float64   `json:"latency_ms"`     // delay chosen for this response
	Received     time.Time `json:"received"`       // server receive time, RFC 3339 with nanoseconds, UTC
}

// Event is one message of the arrivals stream (GET /mock/events?key=...).
// Every message is an unnamed SSE event whose data is one JSON object; Type
// tells them apart:
//
//   - "hello": sent once when the stream opens: Key, and At, the
//     server's time then.
//   - "arrival": a request reached the server and was decided. At is its
//     receive time; Outcome, Status, the limiter fields and LatencyMS say what
//     the server will do.
//   - "end": the handling of arrival Seq finished at At, as End says
//     ("sent", "cancelled", "dropped", "timeout", "shutdown"); ElapsedMS is
//     the time since its arrival.
//   - "dropped": this stream's consumer was too slow and Dropped events (in
//     total, since the stream opened) were discarded.
//   - "outage": the key's server is down from At until Until (POST
//     /mock/outage); an outage ended early has Until equal to At.
//   - "limit": the key's limit is multiplied by Scale from At until Until
//     (POST /mock/limit); one ended early has Until equal to At.
//   - "burst": N requests of another client arrived at At at once (POST
//     /mock/burst) and Admitted of them were admitted; it follows their
//     own arrival and end messages.
type Event struct {
	Type         string    `json:"type"`
	Key          string    `json:"key"`
	Tag          string    `json:"tag,omitempty"`
	Seq          uint64    `json:"seq,omitempty"`
	At           time.Time `json:"at,omitzero"`
	Outcome      string    `json:"outcome,omitempty"`
	Status       int       `json:"status,omitempty"` // 0 for drop and hang
	Allowed      bool      `json:"allowed,omitempty"`
	Limit        int       `json:"limit,omitempty"`
	Remaining    int       `json:"remaining,omitempty"`
	ResetMS      float64   `json:"reset_ms,omitempty"`
	RetryAfterMS float64   `json:"retry_after_ms,omitempty"`
	LatencyMS    float64   `json:"latency_ms,omitempty"`
	End          string    `json:"end,omitempty"`
	ElapsedMS    float64   `json:"elapsed_ms,omitempty"`
	Dropped      uint64    `json:"dropped,omitempty"`
	Until        time.Time `json:"until,omitzero"`
	Scale        float64   `json:"scale,omitempty"`    // "limit": the factor on the limit
	N            int       `json:"n,omitempty"`        // "burst": its requests
	Admitted     int       `json:"admitted,omitempty"` // "burst": how many were admitted
}
