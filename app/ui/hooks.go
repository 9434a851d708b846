package ui

import (
	"strconv"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/jsonlite"
	"retrylab/core"
)

// redrawJSON is window.retrylab.redraw(): one full synchronous redraw of
// the timeline, {ms, marks}, for the benchmark.
func redrawJSON(v *view) string {
	d, n := v.Redraw()
	var w jsonlite.Writer
	w.BeginObject()
	w.Key("marks").Int(n)
	w.Key("ms").Float(float64(d) / 1e6)
	w.EndObject()
	return jsonText(&w)
}

// requestLimitJSON is window.retrylab.requestLimit(n): sets the most
// requests a live run sends to n (> 0) for the runs started after it, so
// a test reaches it in seconds; {"limit": n}. Without n it tells the limit.
func requestLimitJSON(args []string) string {
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n <= 0 {
			var w jsonlite.Writer
			w.BeginObject()
			w.Key("error").String("requestLimit: want a whole number of requests above 0, got " + strconv.Quote(args[0]))
			w.EndObject()
			return jsonText(&w)
		}
		liveMaxRequests = n
	}
	return `{"limit":` + strconv.Itoa(liveMaxRequests) + `}`
}

// syntheticJSON is window.retrylab.synthetic(events[, workers]): it fills
// the timeline with a made-up finished run of about that many events (no
// requests are sent), so the benchmark can time a redraw of a big run
// without waiting for one. It returns {events}.
func syntheticJSON(l *Lab, args []string) string {
	n := 10000
	workers := 500
	if len(args) > 0 {
		if v, err := strconv.Atoi(args[0]); err == nil && v > 0 {
			n = v
		}
	}
	if len(args) > 1 {
		if v, err := strconv.Atoi(args[1]); err == nil && v > 0 {
			workers = min(v, fleet.SimWorkersRange.Max)
		}
	}
	if l.running {
		return `{"error":"a run is going on"}`
	}
	s := l.s
	s.Workers = workers
	recs := syntheticRecords(time.Now(), s, n)
	v := l.view
	v.start(s, recs[0].Event.At, "")
	for _, r := range recs {
		v.onRecord(r)
	}
	v.finish(recs[len(recs)-1].Event.At)
	return `{"events":` + strconv.Itoa(len(recs)) + `}`
}

// syntheticRecords makes about n events of a plausible run: every worker
// sends, gets a 429 or a 200, waits, and retries, with some browser
// queueing and server arrivals.
func syntheticRecords(start time.Time, s fleet.Scenario, n int) []fleet.Record {
	rng := core.NewRand(s.Seed)
	recs := make([]fleet.Record, 0, n+8)
	per := max(1, (n-s.Workers+3*s.Workers-1)/(3*s.Workers)) // attempts per worker: 3 events each, plus a done
	seq := 0
	for w := range s.Workers {
		at := start.Add(time.Duration(rng.Float64() * float64(50*time.Millisecond)))
		attempt := 1
		for a := 0; a < per && len(recs) < n; a++ {
			recs = append(recs, fleet.Record{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: at, Intended: at, Attempt: attempt}})
			lat := time.Duration(30+rng.Float64()*40) * time.Millisecond
			seq++
			status := 200
			var h core.Header
			if rng.Float64() < 0.6 {
				status = 429
				h = browser.Header("retry-after: 1")
			}
			att := &fleet.Attempt{Status: status, Header: h, ServerSeq: seq, ServerAt: at.Add(2 * time.Millisecond)}
			if rng.Float64() < 0.1 {
				att.Queued, att.Measured = time.Duration(rng.Float64()*20)*time.Millisecond, fleet.MeasuredQueued
			}
			at = at.Add(lat)
			recs = append(recs, fleet.Record{Worker: w, Attempt: att, Event: core.Event{Kind: core.EventOutcome, At: at, Attempt: attempt, Outcome: att.Outcome()}})
			wait := time.Duration(rng.Float64()*float64(2*time.Second)) + 10*time.Millisecond
			recs = append(recs, fleet.Record{Worker: w, Event: core.Event{Kind: core.EventWait, At: at, Attempt: attempt + 1, Wait: wait, Reason: core.Reason(a % 3)}})
			at = at.Add(wait)
			attempt++
		}
		recs = append(recs, fleet.Record{Worker: w, Event: core.Event{Kind: core.EventDone, At: at, Attempt: attempt}})
	}
	return recs
}
