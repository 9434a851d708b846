//go:build !(js && wasm)

package mock

import (
	"net/http"
	"time"
)

// MaxOutages is how many keys can be in an outage at once; beyond, 503.
const MaxOutages = 10_000

// outageSwitch is POST /mock/outage.
var outageSwitch = faultSwitch{
	name:       "outage",
	defaultFor: 3 * time.Second,
	maxFor:     MaxOutage,
	forAllowed: "a duration between 0s (end the outage) and 1m, e.g. 3s",
	only:       "only key=... and for=...",
	maxKeys:    MaxOutages,
	counted:    "keys in an outage at once",
}

// outages are the keys whose server is down over a stretch: every request
// is answered 503, bypassing the limiter.
type outages struct{ stretches }

// active reports whether key is down at now, and until when.
func (o *outages) active(key string, now time.Time) (time.Time, bool) {
	st, ok := o.at(key, now)
	return st.until, ok
}

// Outage returns the fault switch: POST /mock/outage?key=K&for=3s takes
// key K's server down for that long (at most MaxOutage). Meanwhile every request for K is answered 503 — with
// Retry-After as its retry_after asks, counting the time left (the seconds
// left, the moment it ends; a fixed value stays fixed; none sends none) —
// without touching its limiter, and its arrival says
// outcome "outage". The answer is 200 with {"key", "from", "until"}, and
// K's arrivals stream gets {"type":"outage","at":from,"until":until}.
// for=0s ends K's outage now: the answer has from = until = now, and the
// stream gets that event only if an outage was going on. Bad parameters
// get 400 with a JSON body naming them; other methods 405.
func (h *Handler) Outage() http.Handler {
	return http.HandlerFunc(h.serveOutage)
}

func (h *Handler) serveOutage(w http.ResponseWriter, r *http.Request) {
	h.serveSwitch(w, r, &outageSwitch, &h.outages.stretches)
}
