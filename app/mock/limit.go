//go:build !(js && wasm)

package mock

import (
	"net/http"
	"time"

	"retrylab/core"
)

// Limits of the "halve the limit" switch.
const (
	DefaultLimitScale = 0.5             // the factor on the limit when scale is not given
	DefaultLimitFor   = 5 * time.Second // how long, when for is not given
	MaxLimitFor       = time.Minute     // the longest stretch one call starts
	MaxLimitKeys      = 10_000          // keys with a scaled limit at once; beyond, 503
)

// LimitScaleRange is the factors scale accepts.
var LimitScaleRange = core.Range[float64]{Min: 0.05, Max: 1}

// limitSwitch is POST /mock/limit.
var limitSwitch = faultSwitch{
	name:       "limit",
	defaultFor: DefaultLimitFor,
	maxFor:     MaxLimitFor,
	forAllowed: "a duration between 0s (end the stretch) and 1m, e.g. 5s",
	scaled:     true,
	only:       "only key=..., scale=... and for=...",
	maxKeys:    MaxLimitKeys,
	counted:    "keys with a scaled limit at once",
}

// Limit returns the "halve the limit" fault switch: POST
// /mock/limit?key=K&scale=0.5&for=5s decides key K's requests, from now for
// that long (at most MaxLimitFor), with K's
// configured limit multiplied by scale (LimitScaleRange, default 0.5; see
// core.LimiterConfig.Scaled). K's limiter carries its state into the
// stretch and back out (core.Limiter.Reconfigure): a drained bucket stays
// drained. The rate-limit headers, Retry-After and the arrivals show the
// scaled limit; an outage still comes first. The answer is 200 with
// {"key", "from", "until", "scale"}, and K's arrivals stream gets
// {"type":"limit","at":from,"until":until,"scale":scale}. for=0s ends K's
// stretch now: the answer has from = until = now and scale 1 (K's own
// limit from then on, whatever scale says), and the stream gets that event
// only if a stretch was going on. Bad parameters get
// 400 with a JSON body naming them; other methods 405; with MaxLimitKeys
// keys in a stretch, 503.
func (h *Handler) Limit() http.Handler {
	return http.HandlerFunc(h.serveLimit)
}

func (h *Handler) serveLimit(w http.ResponseWriter, r *http.Request) {
	h.serveSwitch(w, r, &limitSwitch, &h.limits)
}
