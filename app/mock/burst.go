//go:build !(js && wasm)

package mock

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"retrylab/core"
)

// Limits of the burst switch.
const (
	DefaultBurstN = 20   // requests in a burst when n is not given
	MaxBurstN     = 1000 // the most one call makes arrive
	BurstTag      = "burst"

	// MaxBurstStreamWait is the longest a burst waits, in all, for room in
	// slow arrivals streams' buffers (a burst of 1000 is 2000 events, a
	// stream buffers Options.StreamBuf); beyond, their events are dropped
	// and counted, as a request's are at once.
	MaxBurstStreamWait = 2 * time.Second
)

// BurstNRange is the request counts n accepts.
var BurstNRange = core.Range[int]{Min: 1, Max: MaxBurstN}

var burstNAllowed = "an integer between " + strconv.Itoa(BurstNRange.Min) + " and " + strconv.Itoa(BurstNRange.Max) +
	": how many requests arrive at once, e.g. " + strconv.Itoa(DefaultBurstN)

// Burst returns the burst fault switch: POST /mock/burst?n=N&<query> makes
// N requests (BurstNRange, default 20) arrive at once at the query's key, as
// another client's. <query> is what GET /mock takes, read by ParseQuery with
// its errors. Each request is decided at that one instant as a GET with
// that query would be (see Handler.decide): an outage or a scaled limit in
// force applies, injected failures are rolled, the key's limiter takes a
// token for each admitted one. Nothing is waited: there is no latency, and
// drops and hangs are answered at once (a burst has no connections to
// hold). The key's arrivals stream gets each one's "arrival" event, tagged
// "burst" whatever the query's tag, then its "end" event with end "sent",
// and after them {"type":"burst","key","at","n","admitted"} for the whole;
// a slow stream is waited for, up to MaxBurstStreamWait in all (or until
// the caller goes away), before its events are dropped. The requests are
// all decided either way.
// The answer is 200 with {"key", "at", "n", "allowed", "rejected",
// "outage"}, where rejected counts every request not admitted (by the
// limiter, an outage or an injected failure), and outage those of them an
// outage in force answered. Bad parameters get 400 with a JSON body naming
// them; other methods 405. Requests for the key arriving meanwhile may be
// decided between the burst's.
func (h *Handler) Burst() http.Handler {
	return http.HandlerFunc(h.serveBurst)
}

func (h *Handler) serveBurst(w http.ResponseWriter, r *http.Request) {
	if !postOnly(w, r) {
		return
	}
	hdr := w.Header()
	n, p, perr := parseBurstQuery(r.URL.RawQuery)
	if perr != nil {
		writeError(w, http.StatusBadRequest, perr)
		return
	}
	p.Key = strings.Clone(p.Key) // the stream's queued events must not keep the request's URL alive
	p.Tag = BurstTag
	ctx, cancel := context.WithTimeout(r.Context(), MaxBurstStreamWait)
	defer cancel()
	now := h.opts.Now()
	allowed, down := 0, 0
	for range n {
		a, _ := h.decide(&p, now, ctx.Done())
		switch a.outcome {
		case OutcomeOK:
			allowed++
		case OutcomeOutage:
			down++
		}
		if h.hub.n.Load() > 0 {
			h.hub.publishWait(a.key, &streamEvent{a: a, end: EndSent, at: h.opts.Now(), fin: true}, ctx.Done(), h.done)
		}
	}
	if h.hub.n.Load() > 0 {
		// Then the burst as a whole, so that a timeline can mark it.
		h.hub.publishWait(p.Key, &streamEvent{a: arrival{key: p.Key, at: now}, burst: true, n: n, admitted: allowed}, ctx.Done(), h.done)
	}
	b := make([]byte, 0, 128)
	b = append(b, `{"key":"`...)
	b = append(b, p.Key...)
	b = append(b, `","at":"`...)
	b = now.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","n":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"allowed":`...)
	b = strconv.AppendInt(b, int64(allowed), 10)
	b = append(b, `,"rejected":`...)
	b = strconv.AppendInt(b, int64(n-allowed), 10)
	b = append(b, `,"outage":`...)
	b = strconv.AppendInt(b, int64(down), 10)
	b = append(b, "}\n"...)
	hdr["Content-Type"] = hvJSON
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// parseBurstQuery reads n=N (BurstNRange, default DefaultBurstN) out of a
// burst's raw query and the rest with ParseQuery, as GET /mock would. n is
// read first: a bad n is reported before the other parameters.
func parseBurstQuery(raw string) (int, Params, *ParamError) {
	n, seen := DefaultBurstN, false
	rest := make([]byte, 0, len(raw))
	for s := raw; s != ""; {
		var pair string
		pair, s, _ = strings.Cut(s, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		if un, err := unescape(name); err != nil || un != "n" {
			if len(rest) > 0 { // not n (or not decodable: ParseQuery says so)
				rest = append(rest, '&')
			}
			rest = append(rest, pair...)
			continue
		}
		value, err := unescape(value)
		switch {
		case err != nil:
			return 0, Params{}, &ParamError{Param: "query", Value: Cut(pair), Allowed: "a percent-encoded query"}
		case seen:
			return 0, Params{}, &ParamError{Param: "n", Value: Cut(value), Allowed: AllowedOnce}
		}
		v, ok := parseIn(value, BurstNRange, strconv.Atoi)
		if !ok {
			return 0, Params{}, &ParamError{Param: "n", Value: Cut(value), Allowed: burstNAllowed}
		}
		n, seen = v, true
	}
	p, err := ParseQuery(string(rest))
	if err != nil {
		pe, ok := err.(*ParamError)
		if !ok { // ParseQuery returns only *ParamError; never panic if that changes
			pe = &ParamError{Param: "query", Value: Cut(raw), Allowed: err.Error()}
		}
		if known, ok := strings.CutSuffix(pe.Allowed, allowedKnown); ok { // an unknown name: n is known here
			pe.Allowed = known + "n, " + allowedKnown
		}
		return 0, Params{}, pe
	}
	return n, p, nil
}
