//go:build !(js && wasm)

package mock

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"retrylab/core"
)

// faultSwitch describes a fault switch: POST /mock/<name>?key=K&for=D (and
// scale=F when scaled) starts a stretch of D for key K, answers its times
// and tells K's arrivals stream. The outage and the scaled limit are two.
type faultSwitch struct {
	name       string // the route's last element and the stream event's type
	defaultFor time.Duration
	maxFor     time.Duration
	forAllowed string // the Allowed of a bad for
	scaled     bool   // takes scale=F, answers and publishes it
	only       string // the Allowed of an unknown parameter
	maxKeys    int    // keys in a stretch at once; beyond, 503
	counted    string // what maxKeys counts, in the Allowed of that 503: "at most 10000 " + counted + "; try again when one ends"
}

// switchQuery is a fault switch's decoded query.
type switchQuery struct {
	key   string
	d     time.Duration
	scale float64 // 0 unless the switch is scaled
}

// parse reads key=K&for=D (and scale=F): key as the endpoint's, D a
// duration between 0s and maxFor, F in LimitScaleRange. A parameter given
// twice, or one the switch does not take, is refused.
func (sw *faultSwitch) parse(raw string) (switchQuery, *ParamError) {
	q := switchQuery{key: "default", d: sw.defaultFor}
	if sw.scaled {
		q.scale = DefaultLimitScale
	}
	var seenKey, seenFor, seenScale bool
	bad := EachParam(raw, func(name, value, pair string) *ParamError {
		switch {
		case name == "key" && seenKey, name == "for" && seenFor, name == "scale" && seenScale:
			return &ParamError{Param: name, Value: Cut(value), Allowed: AllowedOnce}
		case name == "key":
			if !ValidKey(value) {
				return perr(pKey, value)
			}
			q.key, seenKey = value, true
		case name == "for":
			r := core.Range[time.Duration]{Min: 0, Max: sw.maxFor}
			v, err := time.ParseDuration(value)
			if err != nil || !r.Contains(v) {
				return &ParamError{Param: "for", Value: Cut(value), Allowed: sw.forAllowed + core.DurationHint(value, core.DurationIn(r))}
			}
			q.d, seenFor = v, true
		case name == "scale" && sw.scaled:
			v, err := core.ParseFloat(value)
			if err != nil || !LimitScaleRange.Contains(v) {
				return &ParamError{Param: "scale", Value: Cut(value), Allowed: "a number " + LimitScaleRange.String() + ", the factor on the key's limit, e.g. 0.5"}
			}
			q.scale, seenScale = v, true
		default:
			return unknownName(name, value, pair, sw.only)
		}
		return nil
	})
	if bad != nil {
		return switchQuery{}, bad
	}
	return q, nil
}

// serveSwitch serves sw's route with set as its keys' stretches. for=0s
// ends the key's stretch now, if one is going on (and tells the stream
// so); the answer is then the empty stretch [now, now), with scale 1 on a
// scaled switch: the key's own limit from now on.
func (h *Handler) serveSwitch(w http.ResponseWriter, r *http.Request, sw *faultSwitch, set *stretches) {
	if !postOnly(w, r) {
		return
	}
	hdr := w.Header()
	q, perr := sw.parse(r.URL.RawQuery)
	if perr != nil {
		writeError(w, http.StatusBadRequest, perr)
		return
	}
	key := strings.Clone(q.key)
	if q.d == 0 && sw.scaled {
		q.scale = 1 // ended: the key's own limit from now on, whatever scale says
	}
	st, no := set.start(key, h.counted(r), q.d, q.scale, sw.maxKeys, h.opts.MaxStretchesPerClient, h.opts.Now, func(st stretch) {
		h.hub.publish(key, &streamEvent{a: arrival{key: key, at: st.from}, at: st.until, sw: sw, scale: st.scale})
	})
	switch no {
	case refusedFull:
		hdr.Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, &ParamError{Param: sw.name + "s", Value: strconv.Itoa(sw.maxKeys + 1), Allowed: "at most " + strconv.Itoa(sw.maxKeys) + " " + sw.counted + "; try again when one ends"})
		return
	case refusedClient:
		hdr.Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, &ParamError{Param: sw.name + "s", Value: strconv.Itoa(h.opts.MaxStretchesPerClient + 1),
			Allowed: "at most " + strconv.Itoa(h.opts.MaxStretchesPerClient) + " " + sw.counted + " from one address (" + remoteHost(r) + "); try again when one ends"})
		return
	}
	switch {
	case sw.scaled && q.d == 0:
		// Ended early: the key's limiter goes back now, not at the next
		// request (a stretch that runs out is left at its end by that one).
		h.store.unscale(key, st.from)
	case sw.scaled:
		h.store.scaleNow(key, st)
	}
	b := append([]byte(nil), '{')
	b = sw.appendFields(b, key, "from", st)
	b = append(b, "}\n"...)
	hdr["Content-Type"] = hvJSON
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// appendFields appends a stretch's JSON fields: "key":K,"<fromName>":from,
// "until":until, and "scale":F for a scaled switch.
func (sw *faultSwitch) appendFields(b []byte, key, fromName string, st stretch) []byte {
	b = append(b, `"key":"`...)
	b = append(b, key...)
	b = append(b, `","`...)
	b = append(b, fromName...)
	b = append(b, `":"`...)
	b = st.from.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","until":"`...)
	b = st.until.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	if sw.scaled {
		b = append(b, `,"scale":`...)
		b = strconv.AppendFloat(b, st.scale, 'f', -1, 64)
	}
	return b
}

// postOnly sets a switch's common headers and reports whether r is a POST
// it takes. It answers a CORS preflight (OPTIONS): a page on another origin whose
// POST carries a header a simple request may not (Content-Type:
// application/json, say) is preflighted, and a refusal keeps the browser
// from sending the POST. Any other method gets 405 with Allow: POST, OPTIONS.
// A POST from a page of another site (crossOrigin) gets 403.
func postOnly(w http.ResponseWriter, r *http.Request) bool {
	hdr := w.Header()
	SetCommon(hdr)
	switch r.Method {
	case http.MethodPost:
		if crossOrigin.Check(r) != nil {
			from := r.Header.Get("Origin")
			if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
				from = strings.TrimSpace(from + " (Sec-Fetch-Site: " + site + ")")
			}
			writeError(w, http.StatusForbidden, &ParamError{Param: "origin", Value: Cut(from),
				Allowed: "a page of this server, or a client that is not a browser (curl)"})
			return false
		}
		return true
	case http.MethodOptions:
		preflight(w, r, hvSwitchMethods)
		return false
	}
	hdr["Allow"] = hvSwitchMethods
	writeError(w, http.StatusMethodNotAllowed, &ParamError{Param: "method", Value: Cut(r.Method), Allowed: "POST, OPTIONS"})
	return false
}

// unknownName refuses a parameter that a control endpoint or the arrivals
// stream does not take, by its name, as /mock does; a pair with no name is
// given whole, as the query's.
func unknownName(name, value, pair, allowed string) *ParamError {
	if name == "" {
		return &ParamError{Param: "query", Value: Cut(pair), Allowed: allowed}
	}
	return &ParamError{Param: Cut(name), Value: Cut(value), Allowed: allowed, unknown: true}
}

// crossOrigin refuses a switch's POST from a page of another site
// (net/http's check: Sec-Fetch-Site, or else Origin against Host): a
// browser sends such a POST with no preflight, so any page the presenter
// opened could take the room's server down (a security review). curl and
// Go clients send neither header; the server's own pages are
// same-origin, behind a proxy that rewrites Host too.
var crossOrigin = http.NewCrossOriginProtection()
