//go:build !(js && wasm)

package mock

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// Options configure a Handler. The zero value is ready to use; every zero
// field takes the default named beside it.
type Options struct {
	MaxKeys    int              // keys with limiter state held at once (default 100,000); the least recently used is evicted beyond
	MaxBytes   int              // estimated bytes of limiter state held at once (default 64 MiB); evicts likewise
	IdleTTL    time.Duration    // a key unused for longer is forgotten once its limit has recovered and no stream watches it (default 10 min)
	Now        func() time.Time // the clock for limiter decisions and receive times (default time.Now)
	Rand       func() float64   // uniform in [0,1), safe for concurrent use: latency spread and injected failures of requests without seed (default math/rand/v2.Float64)
	HangLimit  time.Duration    // longest hang before the connection is closed anyway (default 60 s)
	MaxStreams int              // arrivals streams open at once (default 500); beyond, 503
	// MaxStreamsPerClient, MaxHangsPerClient and MaxStretchesPerClient
	// are the most arrivals streams (default 50), hangs (default 500) and
	// keys in an outage or under a scaled limit (default 100 of each) one
	// remote address holds at once; beyond, a stream or a fault switch
	// gets 503 and a hang is closed at once. The loopback interface is not
	// counted (clients says why).
	MaxStreamsPerClient   int
	MaxHangsPerClient     int
	MaxStretchesPerClient int
	// Uncapped are remote addresses the per-client caps do not count, as
	// they do not count loopback: a NAT's, a container bridge's or a proxy
	// on another machine, through which a whole room comes from one
	// address (serve -uncapped).
	Uncapped  []netip.Prefix
	StreamBuf int           // events buffered per stream before they are dropped (default 256)
	Keepalive time.Duration // SSE comment sent on an idle stream this often (default 15 s)
}

// Defaults of Options.
const (
	DefaultMaxKeys    = 100_000
	DefaultMaxBytes   = 64 << 20
	DefaultIdleTTL    = 10 * time.Minute
	DefaultHangLimit  = endpoint.DefaultHangLimit // the simulator holds a hang as long
	DefaultMaxStreams = 500

	DefaultMaxStreamsPerClient   = 50
	DefaultMaxHangsPerClient     = 500
	DefaultMaxStretchesPerClient = 100
	DefaultStreamBuf             = 256
	DefaultKeepalive             = 15 * time.Second
)

func (o *Options) fill() {
	if o.MaxKeys <= 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.IdleTTL <= 0 {
		o.IdleTTL = DefaultIdleTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.HangLimit <= 0 {
		o.HangLimit = DefaultHangLimit
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.MaxStreamsPerClient <= 0 {
		o.MaxStreamsPerClient = DefaultMaxStreamsPerClient
	}
	if o.MaxHangsPerClient <= 0 {
		o.MaxHangsPerClient = DefaultMaxHangsPerClient
	}
	if o.MaxStretchesPerClient <= 0 {
		o.MaxStretchesPerClient = DefaultMaxStretchesPerClient
	}
	if o.StreamBuf <= 0 {
		o.StreamBuf = DefaultStreamBuf
	}
	if o.Keepalive <= 0 {
		o.Keepalive = DefaultKeepalive
	}
}

// Handler is the mock endpoint. It serves GET (and HEAD) with the behaviour
// the query asks for, answers CORS preflights (OPTIONS), and refuses other
// methods with 405. Events returns the arrivals stream. A Handler is safe for
// concurrent use; call Close when done with it.
type Handler struct {
	opts      Options
	store     *store
	hub       *hub
	outages   outages
	limits    stretches // scaled limits (POST /mock/limit)
	streams   clients   // arrivals streams open, per remote address
	hangs     clients   // hangs held, per remote address
	done      chan struct{}
	closeOnce sync.Once
	janitor   sync.WaitGroup
}

// New returns a Handler and starts its janitor, which forgets idle keys.
func New(opts Options) *Handler {
	opts.fill()
	h := &Handler{
		opts:  opts,
		store: newStore(opts.MaxKeys, opts.MaxBytes, opts.IdleTTL, opts.Now()),
		hub:   newHub(opts.MaxStreams, opts.StreamBuf),
		done:  make(chan struct{}),
	}
	h.store.watched = func(key string) bool { return len(h.hub.subscribers(key)) > 0 }
	h.store.maxWatched = h.opts.MaxStreams
	h.janitor.Add(1)
	go h.sweepLoop()
	return h
}

// Close stops the janitor, ends every arrivals stream, ends waiting latencies
// early (their responses are sent) and hangs (their connections are closed).
// Register it with http.Server.RegisterOnShutdown: Shutdown waits for streams.
// Close is idempotent.
func (h *Handler) Close() {
	h.closeOnce.Do(func() { close(h.done) })
	h.janitor.Wait()
}

func (h *Handler) sweepLoop() {
	defer h.janitor.Done()
	every := min(max(h.opts.IdleTTL/4, time.Second), time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-h.done:
			return
		case <-t.C:
			h.store.sweep(h.opts.Now())
		}
	}
}

// Stats are counters for monitoring and tests.
type Stats struct {
	Keys          int    // keys with limiter state
	Evicted       uint64 // keys evicted because the store was full
	Expired       uint64 // keys forgotten for idleness (see IdleTTL)
	Streams       int    // arrivals streams open
	EventsDropped uint64 // stream events discarded because a consumer was slow
}

// Stats returns the current counters.
func (h *Handler) Stats() Stats {
	return Stats{
		Keys:          h.store.len(),
		Evicted:       h.store.evicted.Load(),
		Expired:       h.store.expired.Load(),
		Streams:       int(h.hub.n.Load()),
		EventsDropped: h.hub.dropped.Load(),
	}
}

// arrival is one decided request, as the response and the stream see it.
type arrival struct {
	key, tag string
	seq      uint64
	at       time.Time
	d        core.Decision
	outcome  Outcome
	status   int
	latency  time.Duration
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// ServeHTTP serves the mock endpoint.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	SetCommon(hdr)
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		preflight(w, r, hvMethods)
		return
	default:
		hdr["Allow"] = hvMethods
		writeError(w, http.StatusMethodNotAllowed, &ParamError{Param: "method", Value: Cut(r.Method), Allowed: "GET, HEAD, OPTIONS"})
		return
	}
	now := h.opts.Now()
	p, err := ParseQuery(r.URL.RawQuery)
	if err != nil {
		pe, ok := err.(*ParamError)
		if !ok { // ParseQuery returns only *ParamError; never panic if that changes
			pe = &ParamError{Param: "query", Value: Cut(r.URL.RawQuery), Allowed: err.Error()}
		}
		writeError(w, http.StatusBadRequest, pe)
		return
	}

	a, c := h.decide(&p, now, nil)
	if a.outcome == OutcomeHang {
		end := EndDropped // one hang too many from its address: closed at once
		if addr, ok := h.hangs.take(h.counted(r), h.opts.MaxHangsPerClient); ok {
			h.extendWrite(w, h.opts.HangLimit)
			if end = h.wait(r.Context(), h.opts.HangLimit); end == EndSent {
				end = EndTimeout
			}
			h.hangs.give(addr)
		}
		h.end(&a, end)
		abort(w) // never a response, even to a client that may still be there
		return
	}
	if a.latency > 0 {
		h.extendWrite(w, a.latency)
		if end := h.wait(r.Context(), a.latency); end == EndCancelled {
			h.end(&a, end)
			abort(w) // nothing written would go out as an empty 200
			return
		}
	}
	if a.outcome == OutcomeDrop {
		h.end(&a, EndDropped)
		abort(w)
		return
	}

	bp := bufPool.Get().(*[]byte)
	var hv headerVals
	hv.buf = (*bp)[:0]
	// A rejection, and an answer during an outage, say when to come back
	// as retry_after asks: an outage's decision waits until it ends
	// (endpoint.Config.Decide).
	if a.outcome.SendsRetryAfter() {
		if b, ok := AppendRetryAfter(hv.buf, &p, a.d, now, a.seq); ok {
			hv.buf = b
			hv.add("Retry-After")
		}
	}
	ietf, x := c.RateLimitHeaders()
	if ietf {
		q, w := c.Limiter.Policy()
		hv.buf = endpoint.AppendRateLimitPolicy(hv.buf, c.Limiter.Kind, q, w)
		hv.add("Ratelimit-Policy")
		hv.buf = endpoint.AppendRateLimit(hv.buf, c.Limiter.Kind, a.d.Remaining, a.d.ResetSeconds())
		hv.add("Ratelimit")
	}
	if x {
		hv.buf = strconv.AppendInt(hv.buf, int64(a.d.Limit), 10)
		hv.add("X-Ratelimit-Limit")
		hv.buf = strconv.AppendInt(hv.buf, int64(a.d.Remaining), 10)
		hv.add("X-Ratelimit-Remaining")
		hv.buf = strconv.AppendInt(hv.buf, int64(a.d.ResetSeconds()), 10)
		hv.add("X-Ratelimit-Reset")
	}
	hv.set(hdr)
	hdr["Content-Type"] = hvJSON
	w.WriteHeader(a.status)
	body := appendBody(hv.buf[:0], &a)
	w.Write(body)
	*bp = body
	bufPool.Put(bp)
	h.end(&a, EndSent)
}

// decide decides a request for p arriving at now and publishes its arrival.
// endpoint.Config.Decide decides it, as it decides the simulator's: an outage,
// then injected failures, come first and bypass the limiter (Peek): they
// do not count against the limit; otherwise the key's limiter decides,
// with its limit scaled during a stretch of POST /mock/limit. It returns
// the arrival and the endpoint p describes, with the limiter configuration
// in force (the headers show it). burst is nil for a request with a connection to hold (GET): a
// latency is chosen for it, and its arrival never waits for a slow
// stream. For a request of a burst, answered at once, burst is closed when
// its events must stop waiting for room in a slow stream (see
// hub.publishWait).
func (h *Handler) decide(p *Params, now time.Time, burst <-chan struct{}) (a arrival, c endpoint.Config) {
	a = arrival{key: p.Key, tag: p.Tag, at: now}
	until, down := h.outages.active(p.Key, now)
	c = p.Endpoint()
	// The rolls, for the injected failure and the spread: random; or with
	// a seed, a function of it and the tag (SeededRolls), or, for a request
	// without one of its own (a burst's are all "burst"), of the key and
	// the seq the key's limiter gives it.
	var fail, spread float64
	tag := p.Tag
	if burst != nil {
		tag = ""
	}
	switch {
	case !p.Seeded:
		if c.Injects() && !down {
			fail = h.opts.Rand()
		}
	case tag != "":
		fail, spread = SeededRolls(p.Seed, p.Key, tag, 0)
	}
	// A scaled limit (POST /mock/limit) is decided by the key's limiter,
	// reconfigured for the stretch; the headers show the limit in force.
	var v endpoint.Verdict
	var lim stretch
	a.seq, lim = h.store.decide(p.Key, c.Limiter, &h.limits, now, func(seq uint64, l *core.Limiter) {
		if p.Seeded && tag == "" {
			fail, spread = SeededRolls(p.Seed, p.Key, "", seq)
		}
		v = c.Decide(now, down, until, fail, l)
	})
	a.outcome, a.status, a.d = v.Outcome, v.Status, v.Decision
	if lim.scale != 0 {
		c.Limiter = c.Limiter.Scaled(lim.scale)
	}
	if burst != nil {
		h.hub.publishWait(a.key, &streamEvent{a: a}, burst, h.done)
		return a, c
	}
	if c.Spread > 0 && !p.Seeded {
		spread = h.opts.Rand()
	}
	a.latency = c.Delay(spread)
	h.hub.arrival(&a)
	return a, c
}

// end publishes the end of a's handling, reading the clock only when a
// stream is open.
func (h *Handler) end(a *arrival, end End) {
	if h.hub.n.Load() > 0 {
		h.hub.end(a, end, h.opts.Now())
	}
}

// wait blocks for d, or until the client goes away or the handler is closed.
func (h *Handler) wait(ctx context.Context, d time.Duration) End {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return EndSent
	case <-ctx.Done():
		return EndCancelled
	case <-h.done:
		return EndShutdown
	}
}

// extendWrite moves the connection's write deadline past a deliberate wait,
// so a server WriteTimeout shorter than the wait does not cut the response.
// Writers that do not support deadlines are left alone.
func (h *Handler) extendWrite(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d + 10*time.Second))
}

// abort ends the request without a response: an HTTP/1 connection is
// hijacked and closed; where that is impossible (HTTP/2) the handler panics
// with http.ErrAbortHandler, which the server turns into a stream reset
// without logging.
func abort(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// writeError answers a refused request with a JSON body naming the parameter,
// the value received and what is allowed.
func writeError(w http.ResponseWriter, status int, e *ParamError) {
	WriteErrorJSON(w, status, e.Error(), e)
}

// WriteErrorJSON answers a refused request with status and the error body
// every endpoint of the server uses: {"error": msg, "param", "value",
// "allowed"} from e.
func WriteErrorJSON(w http.ResponseWriter, status int, msg string, e *ParamError) {
	body, _ := json.Marshal(struct {
		Error   string `json:"error"`
		Param   string `json:"param"`
		Value   string `json:"value"`
		Allowed string `json:"allowed"`
	}{msg, e.Param, e.Value, e.Allowed})
	w.Header()["Content-Type"] = hvJSON
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
