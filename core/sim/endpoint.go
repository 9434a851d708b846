package sim

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// Request is one attempt as it reaches a simulated server.
type Request struct {
	Worker, Job int // 0-based
	Attempt     int // 1-based
}

// Response is how a simulated server answers a Request: what the client
// will see, and when.
type Response struct {
	Status int         // HTTP status; 0 when there is no response (Err is set)
	Header core.Header // nil when the response carries none of the fields core reads
	Err    error       // no response: ErrDropped, ErrHangClosed, ...

	Delay    time.Duration // from the request's arrival until the client has the answer (>= 0)
	Seq      int           // the server's arrival number, from 1
	Received time.Time     // when the server received the request
}

// Server is a simulated server. Arrive is called at the instant a request
// reaches it, in virtual-time order, and decides at once how and when it
// is answered. Servers are driven by one scheduler and need no locking.
type Server interface {
	Arrive(now time.Time, r Request) Response
}

// Errors of attempts that got no response.
var (
	ErrDropped    = errors.New("sim: connection closed without a response")
	ErrHangClosed = errors.New("sim: no response: connection closed after the server's hang limit")
)

// Endpoint is the mock endpoint in virtual time: its Config, the one the
// live endpoint (app/mock) answers with, decided by the same function
// (endpoint.Config.Decide), and what a simulation adds:
//
//  1. The request is numbered (Seq, from 1).
//  2. Decide decides it: an outage (Outages), an injected failure, or
//     the limiter (see endpoint.Config).
//  3. A rejection and an outage's 503 carry Retry-After as RetryAfter says
//     (endpoint.AppendRetryAfter), or as RetryAfterValue returns it.
//  4. The answer leaves after Delay. A drop answers with ErrDropped after
//     that delay; a hang with ErrHangClosed after HangLimit (a client
//     timeout usually ends it first).
//  5. The rate-limit headers, as endpoint.Config says.
//
// The rolls, one for the injected failure (when any is configured and the
// server is up) and one for the spread (when Spread > 0), are Rolls's for
// the request, or without Rolls drawn in that order from the server's own
// generator; either way a simulated run is reproducible from its seed.
//
// The zero Endpoint is valid, as the zero Config is: every request is
// answered 200 at once.
type Endpoint struct {
	endpoint.Config

	// RetryAfterValue, when set, replaces RetryAfter: it returns the
	// Retry-After value of a rejection decided at now (seq is the arrival
	// number), or false to send none ("" with true sends the field with an
	// empty value: Header.RetryAfterEmpty). The fleet adapter uses it for the
	// mock's deliberately malformed values.
	RetryAfterValue func(d core.Decision, now time.Time, seq int) (string, bool)

	// Rolls, when set, returns a request's two rolls in [0, 1): the
	// failure's (fail·100 falls among Fail500, Fail503, Drop and Hang, in
	// that order, or past them) and the spread's (the delay is Latency +
	// spread·Spread). The fleet adapter rolls each attempt as the mock
	// rolls its tag, so the same attempt fails alike live and simulated.
	Rolls func(r Request) (fail, spread float64)

	HangLimit time.Duration // how long a hang is held; 0 = endpoint.DefaultHangLimit

	// Outages are stretches when the server is down, as POST /mock/outage
	// takes the mock down: every request arriving in one is answered 503
	// after the latency, with Retry-After as the endpoint writes it for a
	// wait until the outage ends (RetryAfterSeconds: the seconds left,
	// rounded up; RetryAfterDate: the moment it ends; RetryAfterFixed: its
	// value; RetryAfterNone: none), without a failure roll and without
	// touching the limiter (its headers come from Peek).
	Outages []Outage
}

// Outage is a stretch [From, To) after the server's start when it is down.
type Outage struct{ From, To time.Duration }

// Validate reports the first field that makes no sense.
func (e *Endpoint) Validate() error {
	if err := e.Config.Validate(); err != nil {
		return err
	}
	if e.HangLimit < 0 {
		return fmt.Errorf("sim: endpoint hang limit %v: must not be negative", e.HangLimit)
	}
	for _, o := range e.Outages {
		if o.From < 0 || o.To <= o.From {
			return fmt.Errorf("sim: endpoint outage [%v, %v): must start at or after 0 and end after it starts", o.From, o.To)
		}
	}
	return nil
}

// EndpointServer is an Endpoint running in virtual time: a Server. Create
// it with NewEndpointServer: the zero value has no limiter and is not
// usable.
type EndpointServer struct {
	e      Endpoint
	start  time.Time
	lim    *core.Limiter
	rng    *core.PCG
	seq    int
	rl     bool   // rate-limit headers sent: ietf or x
	ietf   bool   // RateLimit and RateLimit-Policy sent (endpoint.Config.RateLimitHeaders)
	x      bool   // X-RateLimit-* sent
	policy string // RateLimit-Policy
	quota  string // X-RateLimit-Limit

	// headers holds the Header of each distinct answer, shared by every
	// response that carries the same values: a 10,000-worker simulation
	// sends hundreds of thousands of identical "Retry-After: 1".
	headers map[headerKey]*Header
}

// headerKey is what a Header's values depend on.
type headerKey struct {
	retryAfter       string
	retryAfterEmpty  bool // Retry-After sent with an empty value
	remaining, reset int
}

// maxSharedHeaders bounds the header cache; beyond it each answer gets its
// own Header.
const maxSharedHeaders = 4096

// NewEndpointServer returns e's server, its limiter starting at start and
// its random draws from core.NewPCG(seed).
func NewEndpointServer(e Endpoint, start time.Time, seed uint64) (*EndpointServer, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if e.HangLimit == 0 {
		e.HangLimit = endpoint.DefaultHangLimit
	}
	s := &EndpointServer{e: e, start: start, lim: core.NewLimiter(e.Limiter, start), rng: core.NewPCG(seed)}
	s.ietf, s.x = e.RateLimitHeaders()
	s.rl = s.ietf || s.x
	q, w := e.Limiter.Policy()
	s.policy = string(endpoint.AppendRateLimitPolicy(nil, e.Limiter.Kind, q, w))
	s.quota = strconv.Itoa(s.lim.Peek(start).Limit)
	return s, nil
}

// Arrivals returns the number of requests received so far.
func (s *EndpointServer) Arrivals() int { return s.seq }

// down reports whether now falls in an outage, and when it ends.
func (s *EndpointServer) down(now time.Time) (until time.Time, ok bool) {
	t := now.Sub(s.start)
	for _, o := range s.e.Outages {
		if t >= o.From && t < o.To {
			return s.start.Add(o.To), true
		}
	}
	return time.Time{}, false
}

// rolls returns req's rolls for its failure (only when up: an outage
// rolls none) and its spread: Endpoint.Rolls's, or the generator's, drawn
// only when used.
func (s *EndpointServer) rolls(req Request, up bool) (fail, spread float64) {
	e := &s.e
	failing := up && e.Injects()
	if e.Rolls != nil {
		if failing || e.Spread > 0 {
			return e.Rolls(req)
		}
		return 0, 0
	}
	if failing {
		fail = s.rng.Float64()
	}
	if e.Spread > 0 {
		spread = s.rng.Float64()
	}
	return fail, spread
}

// Arrive decides one request arriving at now (endpoint.Config.Decide).
func (s *EndpointServer) Arrive(now time.Time, req Request) Response {
	s.seq++
	until, down := s.down(now)
	fail, spread := s.rolls(req, !down)
	v := s.e.Decide(now, down, until, fail, s.lim)
	r := Response{Status: v.Status, Delay: s.e.Delay(spread), Seq: s.seq, Received: now}
	switch v.Outcome {
	case endpoint.OutcomeHang:
		r.Delay, r.Err = s.e.HangLimit, ErrHangClosed
		return r
	case endpoint.OutcomeDrop:
		r.Err = ErrDropped
		return r
	}
	var buf [64]byte
	var ra []byte
	sent := false
	switch {
	case !v.Outcome.SendsRetryAfter():
	case s.e.RetryAfterValue != nil:
		var val string
		if val, sent = s.e.RetryAfterValue(v.Decision, now, s.seq); sent {
			ra = append(buf[:0], val...)
		}
	default:
		ra, sent = endpoint.AppendRetryAfter(buf[:0], s.e.RetryAfter, s.e.RetryValue, v.Decision, now)
	}
	if sent || s.rl {
		r.Header = s.header(ra, sent, v.Decision)
	}
	return r
}

// header is the Header of an answer decided d, with Retry-After ra when
// sent, shared by every answer that has the same values (up to
// maxSharedHeaders of them).
func (s *EndpointServer) header(ra []byte, sent bool, d core.Decision) *Header {
	var remaining, reset int
	if s.rl {
		remaining, reset = d.Remaining, d.ResetSeconds()
	}
	// string(ra) inside the key's literal is not copied for the lookup.
	if h := s.headers[headerKey{string(ra), sent && len(ra) == 0, remaining, reset}]; h != nil {
		return h
	}
	k := headerKey{string(ra), sent && len(ra) == 0, remaining, reset}
	e := &s.e
	h := &Header{RetryAfter: k.retryAfter, RetryAfterEmpty: k.retryAfterEmpty}
	if s.ietf {
		h.RateLimitPolicy = s.policy
		h.RateLimit = string(endpoint.AppendRateLimit(nil, e.Limiter.Kind, remaining, reset))
	}
	if s.x {
		h.XRateLimitLimit = s.quota
		h.XRateLimitRemaining = strconv.Itoa(remaining)
		h.XRateLimitReset = strconv.Itoa(reset)
	}
	if s.headers == nil {
		s.headers = make(map[headerKey]*Header)
	}
	if len(s.headers) < maxSharedHeaders {
		s.headers[k] = h
	}
	return h
}
