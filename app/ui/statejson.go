package ui

import (
	"runtime"
	"time"

	"retrylab/app/browser"
	"retrylab/app/jsonlite"
)

// The page's hooks' JSON (window.retrylab.state(), debug(), …) written by
// hand, as encoding/json wrote the structs and maps it was made from,
// without linking encoding/json into app.wasm
// (TestStateJSONIsEncodingJSONs, TestDebugJSONIsEncodingJSONs).

// jsonText is what w wrote, or {"error": why} when it refused a value
// (a NaN, an infinity), as encoding/json would have refused the whole.
func jsonText(w *jsonlite.Writer) string {
	if err := w.Err(); err != nil {
		var e jsonlite.Writer
		e.BeginObject()
		e.Key("error").String(err.Error())
		e.EndObject()
		return string(e.Bytes())
	}
	return string(w.Bytes())
}

// writeJSON writes s and then records, the records of the run shown.
func (s *snapshot) writeJSON(w *jsonlite.Writer, records int) {
	w.BeginObject()
	w.Key("running").Bool(s.Running)
	w.Key("simulating").Bool(s.Simulating)
	w.Key("simulated").Bool(s.Simulated)
	w.FloatOmitEmpty("sim_wall_ms", s.SimWallMS)
	w.BoolOmitEmpty("sim_stopped", s.SimStopped)
	if s.SimAttemptsSoFar > 0 {
		w.Key("sim_attempts_so_far").Int(s.SimAttemptsSoFar)
	}
	w.BoolOmitEmpty("sim_interrupted", s.SimInterrupted)
	w.BoolOmitEmpty("capped", s.Capped)
	w.Key("runs").Int(s.Runs)
	w.Key("run_key").String(s.RunKey)
	w.Key("stats")
	writeStats(w, s.Stats)
	w.Key("invalid").Int(s.Invalid)
	w.Key("preset").String(s.Preset)
	if b := s.Baseline; b != nil {
		w.Key("baseline").BeginObject()
		w.Key("label").String(b.Label)
		w.Key("stats")
		writeStats(w, b.Stats)
		w.EndObject()
	}
	w.Key("replaying").Bool(s.Replaying)
	w.Key("watching").Bool(s.Watching)
	w.Key("watched").Bool(s.Watched)
	w.Key("watch_open").Bool(s.WatchOpen)
	r := &s.Rehearsal
	w.Key("rehearsal").BeginObject()
	w.Key("state").String(r.State)
	w.StringOmitEmpty("key", r.Key)
	w.Key("requests").Int(r.Requests)
	w.Key("ms").Float(r.MS)
	w.EndObject()
	w.StringOmitEmpty("subdomains", s.Subdomains)
	w.Key("records").Int(records)
	w.EndObject()
}

// writeStats writes the numbers m, by name, as an object (null when nil).
func writeStats(w *jsonlite.Writer, m map[string]float64) {
	if m == nil {
		w.Null()
		return
	}
	w.BeginObject()
	for _, k := range jsonlite.Keys(m) {
		w.Key(k).Float(m[k])
	}
	w.EndObject()
}

// stateJSON is window.retrylab.state(): {running, records, stats, …}.
func (l *Lab) stateJSON() string {
	s := l.snap.Load()
	var w jsonlite.Writer
	s.writeJSON(&w, s.live.len())
	return jsonText(&w)
}

// debugJSON is window.retrylab.debug(): what a leak test watches.
func debugJSON(v *view) string {
	live, perm := browser.LiveFuncs()
	v.mu.Lock()
	cost, computed, drawn, draws := v.drawCost, v.computedAt, v.drawnAt, v.draws
	anew, whole := v.liveAnew, v.liveWhole
	// The histogram's plot in CSS pixels of the canvas: [left, top, right, bottom].
	histRect := [4]float64{v.lay.left, v.lay.histTop, v.lay.right, v.lay.histTop + v.lay.histH}
	// Its bins as drawn, ms.
	histBin := float64(v.lay.slice) / 1e6
	laneCount := v.lay.workers // the lanes drawn: workers, or a watch's devices
	// The lanes' plot, as hist_rect, and a lane's height, CSS pixels.
	lanesRect := [4]float64{v.lay.left, v.lay.lanesTop, v.lay.right, v.lay.lanesBottom()}
	// The time drawn, ms: [from, to] (a finished run zoomed in shows part of it).
	drawnWindow := [2]float64{float64(v.lay.from) / 1e6, float64(v.lay.from+v.lay.span) / 1e6}
	hidden := [][2]float64{}  // the run shown's hidden-tab stretches, ms since its start (-1: still open)
	outages := [][2]float64{} // its server outages, ms since its start
	limits := [][3]float64{}  // its scaled limits: from, to (ms since its start), scale
	bursts := [][3]float64{}  // another client's bursts: at (ms since its start), n, admitted
	firstSent := -1.0         // the earliest attempt drawn: its send, ms since the run's start
	lanes := []string{}       // a watch's lanes: the devices drawn ("" for arrivals with no device name)
	laneArrivals := []int{}   // the arrivals drawn in each
	outside := 0              // this page's arrivals drawn outside their requests' flights (model.reclock)
	now := -1.0               // the time now on the live run or watch shown's axis, ms since its start (-1: none, or a simulation)
	if v.m != nil {
		if !v.m.simulated {
			now = float64(v.m.since(time.Now())) / 1e6
		}
		lanes = append(lanes, v.lay.names...)
		laneArrivals = make([]int, len(lanes))
		for i := range v.m.arrivals {
			a := &v.m.arrivals[i]
			if d := a.dev; v.m.watch && d < len(laneArrivals) {
				laneArrivals[d]++
			}
			if a.mark >= 0 {
				if k := &v.m.marks[a.mark]; a.at < k.sent || k.end > k.sent && a.at > k.end {
					outside++
				}
			}
		}
		for _, h := range v.m.hidden {
			to := -1.0
			if h.to >= 0 {
				to = float64(h.to) / 1e6
			}
			hidden = append(hidden, [2]float64{float64(h.from) / 1e6, to})
		}
		for _, o := range v.m.outages {
			outages = append(outages, [2]float64{float64(o.from) / 1e6, float64(o.to) / 1e6})
		}
		for _, q := range v.m.limits {
			limits = append(limits, [3]float64{float64(q.from) / 1e6, float64(q.to) / 1e6, q.scale})
		}
		for i := range v.m.marks {
			if t := float64(v.m.marks[i].sent) / 1e6; firstSent < 0 || t < firstSent {
				firstSent = t
			}
		}
		for _, b := range v.m.bursts {
			bursts = append(bursts, [3]float64{float64(b.at) / 1e6, float64(b.n), float64(b.admitted)})
		}
	}
	// A replay going on: its playhead and end (ms since the run's start),
	// the attempts it has drawn so far and the whole run's.
	replaying := v.replay != nil
	var replayAt, replayEnd float64
	var replayMarks, replayFull int
	if r := v.replay; r != nil {
		replayAt, replayEnd, replayMarks, replayFull = float64(r.at)/1e6, float64(r.end)/1e6, len(v.m.marks), len(r.full.marks)
	}
	laneH, scale, themeName, paced := v.lay.laneH, v.lay.scale, v.theme.name, v.paced
	v.mu.Unlock()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// The keys sorted, as encoding/json wrote the map they were
	// (TestDebugJSONIsEncodingJSONs).
	var w jsonlite.Writer
	w.BeginObject()
	w.Key("arrivals_outside").Int(outside)
	w.Key("bursts").BeginArray()
	for _, b := range bursts {
		w.Floats(b[:])
	}
	w.EndArray()
	w.Key("drawn_ms").Float(drawn)
	w.Key("draws").Int(draws)
	w.Key("first_sent_ms").Float(firstSent)
	w.Key("funcs").Int(live)
	w.Key("funcs_permanent").Int(perm)
	w.Key("gc_cycles").Uint(uint64(ms.NumGC))
	w.Key("go_start_ms").Float(goStart)
	w.Key("goroutines").Int(runtime.NumGoroutine())
	w.Key("heap_mb").Float(float64(ms.HeapAlloc) / (1 << 20))
	w.Key("heap_sys_mb").Float(float64(ms.HeapSys) / (1 << 20))
	w.Key("hidden").BeginArray()
	for _, h := range hidden {
		w.Floats(h[:])
	}
	w.EndArray()
	w.Key("hist_bin_ms").Float(histBin)
	w.Key("hist_rect").Floats(histRect[:])
	w.Key("lane_arrivals").Ints(laneArrivals)
	w.Key("lane_count").Int(laneCount)
	w.Key("lane_h").Float(laneH)
	w.Key("lanes").Strings(lanes)
	w.Key("lanes_rect").Floats(lanesRect[:])
	w.Key("last_redraw_ms").Float(float64(cost) / 1e6)
	w.Key("limits").BeginArray()
	for _, q := range limits {
		w.Floats(q[:])
	}
	w.EndArray()
	w.Key("live_anew").Int(anew)   // a live run's kept drawing made again at a frame for another axis
	w.Key("live_whole").Int(whole) // a live run or a replay painted whole at a frame
	w.Key("mounted_ms").Float(mountedAt)
	w.Key("now_ms").Float(now)
	w.Key("outages").BeginArray()
	for _, o := range outages {
		w.Floats(o[:])
	}
	w.EndArray()
	w.Key("paced").Bool(paced) // the browser paces requests itself (browser.PacesRequests)
	w.Key("pending_waits").Int(browser.PendingWaits())
	w.Key("replay")
	if !replaying {
		w.Null()
	} else {
		w.BeginObject()
		w.Key("at_ms").Float(replayAt)
		w.Key("end_ms").Float(replayEnd)
		w.Key("full_marks").Int(replayFull)
		w.Key("marks").Int(replayMarks)
		w.EndObject()
	}
	w.Key("scale").Float(scale) // the canvas's text and marks (theme.scale)
	w.Key("settled_ms").Float(settledAt)
	w.Key("sim_computed_ms").Float(computed)
	w.Key("stacks_mb").Float(float64(ms.StackInuse) / (1 << 20))
	w.Key("theme").String(themeName) // the canvas's look: normal, dark or present
	w.Key("window_ms").Floats(drawnWindow[:])
	w.EndObject()
	return jsonText(&w)
}
