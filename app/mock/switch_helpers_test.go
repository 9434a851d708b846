//go:build !(js && wasm)

package mock

import "time"

// The switches' readers and the outage table's start, as the tests and
// the fuzzers call them: the handlers read a query with the switch's
// parse and start a stretch with stretches.start.

// parseLimitQuery reads key=K&scale=F&for=D: key as the endpoint's, F in
// LimitScaleRange (default 0.5), D a duration between 0s and MaxLimitFor
// (default 5s).
func parseLimitQuery(raw string) (key string, scale float64, d time.Duration, _ *ParamError) {
	q, perr := limitSwitch.parse(raw)
	if perr != nil {
		return "", 0, 0, perr
	}
	return q.key, q.scale, q.d, nil
}

// parseOutageQuery reads key=K&for=D: key as the endpoint's, D a duration
// between 0s and MaxOutage (default 3s).
func parseOutageQuery(raw string) (key string, d time.Duration, _ *ParamError) {
	q, perr := outageSwitch.parse(raw)
	if perr != nil {
		return "", 0, perr
	}
	return q.key, q.d, nil
}

// start takes key down for d from now (d == 0 ends its outage), as
// stretches.start does; publish, when not nil, is called with the outage
// under the lock.
func (o *outages) start(key string, d time.Duration, clock func() time.Time, publish func(from, until time.Time)) (from, until time.Time, ok bool) {
	var pub func(stretch)
	if publish != nil {
		pub = func(st stretch) { publish(st.from, st.until) }
	}
	st, no := o.stretches.start(key, "", d, 0, MaxOutages, 0, clock, pub)
	return st.from, st.until, no == refusedNot
}
