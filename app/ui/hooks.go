package ui

import (
	"strconv"

	"retrylab/app/fleet"
	"retrylab/app/jsonlite"
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
// the timeline with a finished run of about that many events, computed by
// the simulator from the page's configuration with that many workers (no
// requests are sent), so the benchmark can time a redraw of a big run
// without waiting for one. It returns {events}, or {error}.
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
	rec := simulatedRun(s, n)
	if rec.Err != nil || rec.Len() == 0 {
		why := "no events"
		if rec.Err != nil {
			why = rec.Err.Error()
		}
		var w jsonlite.Writer
		w.BeginObject()
		w.Key("error").String("the configuration cannot be simulated: " + why)
		w.EndObject()
		return jsonText(&w)
	}
	recs := rec.Records()
	v := l.view
	v.start(s, rec.Start, "")
	for _, r := range recs {
		v.onRecord(r)
	}
	v.finish(recs[len(recs)-1].Event.At)
	return `{"events":` + strconv.Itoa(len(recs)) + `}`
}

// simulatedRun is s simulated with as many jobs per worker as give about n
// events (a job's count varies with the load): the loop's own events, as a
// run of s would have them. (A made-up run before it had retries after a
// success and Retry-After waits of any length.)
func simulatedRun(s fleet.Scenario, n int) *fleet.Recording {
	s.Jobs, s.JobsTotal = 1, false // per worker
	best, jobs := fleet.Simulate(s), 1
	off := func(r *fleet.Recording) int { return max(r.Len()-n, n-r.Len()) }
	// More jobs make a heavier load, with more retries each: guess from
	// the closest run's events per job, at most twice.
	for range 2 {
		if best.Err != nil || best.Len() == 0 {
			break
		}
		s.Jobs = min(fleet.JobsRange.Max, max(1, (n*jobs+best.Len()/2)/best.Len()))
		if s.Jobs == jobs {
			break
		}
		rec := fleet.Simulate(s)
		if off(rec) >= off(best) {
			break
		}
		best, jobs = rec, s.Jobs
	}
	return best
}
