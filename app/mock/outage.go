//go:build !(js && wasm)

package mock

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Outage limits.
const (
	MaxOutage  = time.Minute // the longest outage one call starts
	MaxOutages = 10_000      // keys in an outage at once; beyond, 503
)

// outages are the keys whose server is down over a stretch: every request
// is answered 503, bypassing the limiter. With none, checking costs one
// atomic load; ended ones are forgotten at most a second after they end.
type outages struct {
	n         atomic.Int32 // len(down)
	mu        sync.Mutex
	down      map[string]stretch
	nextSweep time.Time
}

// stretch is one key's outage: [from, until).
type stretch struct{ from, until time.Time }

// active reports whether key is down at now, and until when.
func (o *outages) active(key string, now time.Time) (time.Time, bool) {
	if o.n.Load() == 0 {
		return time.Time{}, false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sweep(now)
	st, ok := o.down[key]
	if !ok || now.Before(st.from) || !now.Before(st.until) {
		return time.Time{}, false
	}
	return st.until, true
}

// sweep forgets the outages that are over, at most once a second.
// o.mu must be held.
func (o *outages) sweep(now time.Time) {
	if now.Before(o.nextSweep) {
		return
	}
	o.nextSweep = now.Add(time.Second)
	for k, st := range o.down {
		if !now.Before(st.until) {
			delete(o.down, k)
		}
	}
	o.n.Store(int32(len(o.down)))
}

// start takes key down for d from now (d == 0 ends its outage), reading
// the clock under the lock so that a request decided before it is never
// inside the stretch and one decided after it never outside. It reports
// false when MaxOutages keys are already down; publish, when not nil, is
// called with the stretch before the lock is released, so outages reach
// the stream in the order they took effect.
func (o *outages) start(key string, d time.Duration, clock func() time.Time, publish func(from, until time.Time)) (from, until time.Time, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := clock()
	if o.down == nil {
		o.down = make(map[string]stretch)
	}
	from, until = now, now.Add(d)
	if d == 0 {
		delete(o.down, key)
	} else {
		if _, held := o.down[key]; !held && len(o.down) >= MaxOutages {
			o.nextSweep = time.Time{}
			o.sweep(now)
			if len(o.down) >= MaxOutages {
				return from, until, false
			}
		}
		o.down[key] = stretch{from, until}
	}
	o.n.Store(int32(len(o.down)))
	if publish != nil {
		publish(from, until)
	}
	return from, until, true
}

// current is key's outage going on at now, if any.
func (o *outages) current(key string, now time.Time) (stretch, bool) {
	if o.n.Load() == 0 {
		return stretch{}, false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	st, ok := o.down[key]
	return st, ok && !now.Before(st.from) && now.Before(st.until)
}

// outageRetryAfter is the Retry-After of a request answered during an
// outage: the seconds left, rounded up.
func outageRetryAfter(b []byte, until, now time.Time) []byte {
	return strconv.AppendInt(b, int64(math.Ceil(until.Sub(now).Seconds())), 10)
}

// Outage returns the fault switch: POST /mock/outage?key=K&for=3s takes
// key K's server down for that long (at most MaxOutage; for=0s ends an
// outage early). Meanwhile every request for K is answered 503 — with
// Retry-After, the seconds left, unless the request asked for
// retry_after=none — without touching its limiter, and its arrival says
// outcome "outage". The answer is 200 with {"key", "from", "until"}, and
// K's arrivals stream gets {"type":"outage","at":from,"until":until}.
// Bad parameters get 400 with a JSON body naming them; other methods 405.
func (h *Handler) Outage() http.Handler {
	return http.HandlerFunc(h.serveOutage)
}

func (h *Handler) serveOutage(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	setCommon(hdr)
	if r.Method != http.MethodPost {
		hdr["Allow"] = hvOutageMethods
		writeError(w, http.StatusMethodNotAllowed, &ParamError{Param: "method", Value: cut(r.Method), Allowed: "POST"})
		return
	}
	key, d, perr := parseOutageQuery(r.URL.RawQuery)
	if perr != nil {
		writeError(w, http.StatusBadRequest, perr)
		return
	}
	key = strings.Clone(key)
	from, until, ok := h.outages.start(key, d, h.opts.Now, func(from, until time.Time) {
		h.hub.publish(key, &streamEvent{a: arrival{key: key, at: from}, at: until, outage: true})
	})
	if !ok {
		hdr.Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, &ParamError{Param: "outages", Value: strconv.Itoa(MaxOutages), Allowed: "fewer keys in an outage at once; try again later"})
		return
	}
	b := append([]byte(nil), `{"key":"`...)
	b = append(b, key...)
	b = append(b, `","from":"`...)
	b = from.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","until":"`...)
	b = until.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\"}\n"...)
	hdr["Content-Type"] = hvJSON
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// parseOutageQuery reads key=K&for=D: key as the endpoint's, D a duration
// between 0s and MaxOutage (default 3s).
func parseOutageQuery(raw string) (key string, d time.Duration, _ *ParamError) {
	key, d = "default", 3*time.Second
	var seenKey, seenFor bool
	bad := eachParam(raw, func(name, value, pair string) *ParamError {
		switch {
		case name == "key" && seenKey, name == "for" && seenFor:
			return &ParamError{Param: name, Value: cut(value), Allowed: "one value"}
		case name == "key":
			if !ValidKey(value) {
				return perr(pKey, value)
			}
			key, seenKey = value, true
		case name == "for":
			v, err := time.ParseDuration(value)
			if err != nil || v < 0 || v > MaxOutage {
				return &ParamError{Param: "for", Value: cut(value), Allowed: "a duration between 0s (end the outage) and 1m, e.g. 3s"}
			}
			d, seenFor = v, true
		default:
			return &ParamError{Param: "query", Value: cut(pair), Allowed: "only key=... and for=..."}
		}
		return nil
	})
	if bad != nil {
		return "", 0, bad
	}
	return key, d, nil
}
