//go:build !(js && wasm)

package mock

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// hub fans arrivals out to the streams subscribed to their key. Publishing
// a request's events never blocks: each stream has a bounded buffer and an
// event that does not fit is dropped and counted. A burst's events, which
// no connection waits on, may wait for room for a bounded time
// (publishWait). With no stream open, publishing is one atomic load.
type hub struct {
	n       atomic.Int32 // streams open
	dropped atomic.Uint64
	max     int
	buf     int

	mu     sync.RWMutex
	topics map[string][]*stream // copy-on-write slices
}

type stream struct {
	ch      chan streamEvent
	dropped atomic.Uint64
}

// streamEvent is an arrival, an end or a fault switch's stretch, as queued
// for a stream.
type streamEvent struct {
	a     arrival
	end   End
	at    time.Time    // when it ended (end events); until when (stretches)
	fin   bool         // an end event
	sw    *faultSwitch // a stretch of this switch for a.key from a.at until at
	scale float64      // the stretch's scale, for a scaled switch

	burst       bool // a burst of n requests at a.key at a.at, admitted of them admitted
	n, admitted int
}

func newHub(max, buf int) *hub {
	return &hub{max: max, buf: buf, topics: make(map[string][]*stream)}
}

// subscribe opens a stream for key, or returns nil when MaxStreams are open.
func (h *hub) subscribe(key string) *stream {
	if int(h.n.Add(1)) > h.max {
		h.n.Add(-1)
		return nil
	}
	s := &stream{ch: make(chan streamEvent, h.buf)}
	h.mu.Lock()
	old := h.topics[key]
	subs := make([]*stream, len(old), len(old)+1)
	copy(subs, old)
	h.topics[key] = append(subs, s)
	h.mu.Unlock()
	return s
}

func (h *hub) unsubscribe(key string, s *stream) {
	h.mu.Lock()
	old := h.topics[key]
	subs := make([]*stream, 0, len(old))
	for _, o := range old {
		if o != s {
			subs = append(subs, o)
		}
	}
	if len(subs) == 0 {
		delete(h.topics, key)
	} else {
		h.topics[key] = subs
	}
	h.mu.Unlock()
	h.n.Add(-1)
}

// subscribers are key's streams (none, without a lock, when no stream is
// open).
func (h *hub) subscribers(key string) []*stream {
	if h.n.Load() == 0 {
		return nil
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.topics[key]
}

func (h *hub) publish(key string, ev *streamEvent) {
	for _, s := range h.subscribers(key) {
		select {
		case s.ch <- *ev:
		default:
			s.dropped.Add(1)
			h.dropped.Add(1)
		}
	}
}

// publishWait is publish for a burst's events: one that does not fit in a
// stream's buffer waits for room until wait or done is closed, then is
// dropped and counted. Once wait is closed, it is publish.
func (h *hub) publishWait(key string, ev *streamEvent, wait, done <-chan struct{}) {
	for _, s := range h.subscribers(key) {
		select {
		case s.ch <- *ev:
			continue
		default:
		}
		select {
		case s.ch <- *ev:
			continue
		case <-wait:
		case <-done:
		}
		s.dropped.Add(1)
		h.dropped.Add(1)
	}
}

func (h *hub) arrival(a *arrival) {
	if h.n.Load() == 0 {
		return
	}
	h.publish(a.key, &streamEvent{a: *a})
}

func (h *hub) end(a *arrival, end End, at time.Time) {
	if h.n.Load() == 0 {
		return
	}
	h.publish(a.key, &streamEvent{a: *a, end: end, at: at, fin: true})
}

var streamPreamble = []byte("retry: 2000\n\n")

// Events returns the arrivals stream: GET /mock/events?key=K serves
// Server-Sent Events, one JSON object per event (see Event), for every
// arrival at key K and the end of its handling, live. key is the only
// parameter (default "default"). A slow consumer loses events, never delays
// the endpoint: after a gap it receives {"type":"dropped","dropped":N}.
// Idle streams get a keepalive comment every Options.Keepalive. The stream
// ends when the client goes away or the Handler is closed. With MaxStreams
// open, or MaxStreamsPerClient from the client's address, the answer is 503
// with Retry-After: 5.
func (h *Handler) Events() http.Handler {
	return http.HandlerFunc(h.serveEvents)
}

func (h *Handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	SetCommon(hdr)
	switch r.Method {
	case http.MethodGet:
	case http.MethodOptions:
		preflight(w, r, hvStreamMethods)
		return
	default:
		hdr["Allow"] = hvStreamMethods
		writeError(w, http.StatusMethodNotAllowed, &ParamError{Param: "method", Value: Cut(r.Method), Allowed: "GET, OPTIONS"})
		return
	}
	key, perr := parseEventsQuery(r.URL.RawQuery)
	if perr != nil {
		writeError(w, http.StatusBadRequest, perr)
		return
	}
	key = strings.Clone(key) // do not keep the request's URL alive
	addr, ok := h.streams.take(h.counted(r), h.opts.MaxStreamsPerClient)
	if !ok {
		hdr.Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, &ParamError{Param: "streams", Value: strconv.Itoa(h.opts.MaxStreamsPerClient + 1),
			Allowed: "at most " + strconv.Itoa(h.opts.MaxStreamsPerClient) + " arrivals streams open at once from one address (" + remoteHost(r) + "); close one first"})
		return
	}
	defer h.streams.give(addr)
	s := h.hub.subscribe(key)
	if s == nil {
		hdr.Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, &ParamError{Param: "streams", Value: strconv.Itoa(h.opts.MaxStreams + 1), Allowed: "at most " + strconv.Itoa(h.opts.MaxStreams) + " arrivals streams open at once; try again when one closes"})
		return
	}
	defer h.hub.unsubscribe(key, s)

	rc := http.NewResponseController(w)
	hdr["Content-Type"] = hvEventStream
	hdr["X-Accel-Buffering"] = []string{"no"}
	w.WriteHeader(http.StatusOK)
	// The hello says the server's time: a page whose clock is off the
	// server's (a projector watching a workshop's room) bounds the
	// difference by when it opened the stream and when the hello came.
	now := h.opts.Now()
	b := append([]byte(nil), streamPreamble...)
	b = append(b, `data: {"type":"hello","key":"`...)
	b = append(b, key...)
	b = append(b, `","at":"`...)
	b = now.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\"}\n\n"...)
	// The stretches going on are told at once, in the order they began: a
	// stream opened during one (a watch, a reconnect) would otherwise see
	// 503s or a smaller limit with no reason.
	b = h.appendStretchesAt(b, key, now)
	if h.flush(w, rc, b) != nil {
		return
	}
	tick := time.NewTicker(h.opts.Keepalive)
	defer tick.Stop()
	var reported uint64
	for {
		b = b[:0]
		select {
		case <-r.Context().Done():
			return
		case <-h.done:
			return
		case <-tick.C:
			b = append(b, ": keepalive\n\n"...)
		case ev := <-s.ch:
			b = appendEvent(b, &ev)
			for more := true; more && len(b) < 32<<10; { // batch what is queued
				select {
				case ev := <-s.ch:
					b = appendEvent(b, &ev)
				default:
					more = false
				}
			}
		}
		if n := s.dropped.Load(); n != reported {
			reported = n
			b = append(b, `data: {"type":"dropped","key":"`...)
			b = append(b, key...)
			b = append(b, `","dropped":`...)
			b = strconv.AppendUint(b, n, 10)
			b = append(b, "}\n\n"...)
		}
		if h.flush(w, rc, b) != nil {
			return
		}
	}
}

// flush writes b with a write deadline, so a consumer that stops reading is
// disconnected instead of holding the stream forever.
func (h *Handler) flush(w http.ResponseWriter, rc *http.ResponseController, b []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := w.Write(b); err != nil {
		return err
	}
	return rc.Flush()
}

func parseEventsQuery(raw string) (string, *ParamError) {
	key, seen := "default", false
	bad := EachParam(raw, func(name, value, pair string) *ParamError {
		switch {
		case name != "key":
			return unknownName(name, value, pair, "only key=...")
		case seen:
			return &ParamError{Param: name, Value: Cut(value), Allowed: AllowedOnce}
		case !ValidKey(value):
			return perr(pKey, value)
		}
		key, seen = value, true
		return nil
	})
	if bad != nil {
		return "", bad
	}
	return key, nil
}

// appendStretchesAt appends an event for each of key's stretches going on
// at now (an outage, a scaled limit), the earliest first.
func (h *Handler) appendStretchesAt(b []byte, key string, now time.Time) []byte {
	out, isOut := h.outages.at(key, now)
	lim, isLim := h.limits.at(key, now)
	evOut := streamEvent{a: arrival{key: key, at: out.from}, at: out.until, sw: &outageSwitch}
	evLim := streamEvent{a: arrival{key: key, at: lim.from}, at: lim.until, sw: &limitSwitch, scale: lim.scale}
	if isOut && (!isLim || !lim.from.Before(out.from)) {
		b = appendEvent(b, &evOut)
		isOut = false
	}
	if isLim {
		b = appendEvent(b, &evLim)
	}
	if isOut {
		b = appendEvent(b, &evOut)
	}
	return b
}

// appendEvent appends one SSE event: "data: {json}\n\n".
func appendEvent(b []byte, ev *streamEvent) []byte {
	a := &ev.a
	if ev.sw != nil {
		b = append(b, `data: {"type":"`...)
		b = append(b, ev.sw.name...)
		b = append(b, `",`...)
		b = ev.sw.appendFields(b, a.key, "at", stretch{from: a.at, until: ev.at, scale: ev.scale})
		return append(b, "}\n\n"...)
	}
	if ev.burst {
		b = append(b, `data: {"type":"burst","key":"`...)
		b = append(b, a.key...)
		b = append(b, `","at":"`...)
		b = a.at.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","n":`...)
		b = strconv.AppendInt(b, int64(ev.n), 10)
		b = append(b, `,"admitted":`...)
		b = strconv.AppendInt(b, int64(ev.admitted), 10)
		return append(b, "}\n\n"...)
	}
	if ev.fin {
		b = append(b, `data: {"type":"end",`...)
	} else {
		b = append(b, `data: {"type":"arrival",`...)
	}
	b = appendKeyTagSeq(b, a)
	b = append(b, `,"at":"`...)
	at := a.at
	if ev.fin {
		at = ev.at
	}
	b = at.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","outcome":"`...)
	b = append(b, a.outcome.String()...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(a.status), 10)
	if ev.fin {
		b = append(b, `,"end":"`...)
		b = append(b, ev.end.String()...)
		b = append(b, `","elapsed_ms":`...)
		b = appendMS(b, ev.at.Sub(a.at))
	} else {
		b = append(b, `,"allowed":`...)
		b = strconv.AppendBool(b, a.d.Allowed)
		b = appendDecision(b, a)
	}
	b = append(b, "}\n\n"...)
	return b
}
