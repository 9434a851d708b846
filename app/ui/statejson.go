package ui

import "retrylab/app/jsonlite"

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
