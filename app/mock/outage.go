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

// outages are the keys whose server is down until a time: every request is
// answered 503, bypassing the limiter. With none, checking costs one
// atomic load.
type outages struct {
	n     atomic.Int32 // len(until)
	mu    sync.Mutex
	until map[string]time.Time
}

// active reports whether key is in an outage at now, and until when.
func (o *outages) active(key string, now time.Time) (time.Time, bool) {
	if o.n.Load() == 0 {
		return time.Time{}, false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	u, ok := o.until[key]
	if ok && !now.Before(u) {
		delete(o.until, key)
		o.n.Store(int32(len(o.until)))
		return time.Time{}, false
	}
	return u, ok
}

// start puts key in an outage until until (a zero until ends it). It
// reports false when MaxOutages keys are already down.
func (o *outages) start(key string, until, now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.until == nil {
		o.until = make(map[string]time.Time)
	}
	if until.IsZero() {
		delete(o.until, key)
	} else {
		if _, ok := o.until[key]; !ok && len(o.until) >= MaxOutages {
			for k, u := range o.until { // forget the ones that are over
				if !now.Before(u) {
					delete(o.until, k)
				}
			}
			if len(o.until) >= MaxOutages {
				return false
			}
		}
		o.until[key] = until
	}
	o.n.Store(int32(len(o.until)))
	return true
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
	now := h.opts.Now()
	until := now.Add(d)
	if d == 0 {
		until = time.Time{}
	}
	if !h.outages.start(key, until, now) {
		hdr.Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, &ParamError{Param: "outages", Value: strconv.Itoa(MaxOutages), Allowed: "fewer keys in an outage at once; try again later"})
		return
	}
	if d == 0 {
		until = now
	}
	h.hub.publish(key, &streamEvent{a: arrival{key: key, at: now}, at: until, outage: true})
	b := append([]byte(nil), `{"key":"`...)
	b = append(b, key...)
	b = append(b, `","from":"`...)
	b = now.UTC().AppendFormat(b, time.RFC3339Nano)
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
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		var err error
		if name, err = unescape(name); err != nil {
			return "", 0, &ParamError{Param: "query", Value: cut(pair), Allowed: "a percent-encoded query"}
		}
		if value, err = unescape(value); err != nil {
			return "", 0, &ParamError{Param: "query", Value: cut(pair), Allowed: "a percent-encoded query"}
		}
		switch name {
		case "key":
			if seenKey {
				return "", 0, &ParamError{Param: name, Value: cut(value), Allowed: "one value"}
			}
			if !ValidKey(value) {
				return "", 0, perr(pKey, value)
			}
			key, seenKey = value, true
		case "for":
			if seenFor {
				return "", 0, &ParamError{Param: name, Value: cut(value), Allowed: "one value"}
			}
			v, err := time.ParseDuration(value)
			if err != nil || v < 0 || v > MaxOutage {
				return "", 0, &ParamError{Param: "for", Value: cut(value), Allowed: "a duration between 0s (end the outage) and 1m, e.g. 3s"}
			}
			d, seenFor = v, true
		default:
			return "", 0, &ParamError{Param: "query", Value: cut(pair), Allowed: "only key=... and for=..."}
		}
	}
	return key, d, nil
}
