package fleet

import "retrylab/app/jsonlite"

// The JSON export's parts written by hand, as encoding/json would write
// the structs they are made from (their tags: the keys, their order, what
// omitempty leaves out), without linking encoding/json into app.wasm.
// TestExportJSONIsEncodingJSONs checks them against it.

// optFloat writes *p under key k, or leaves the key out when p is nil
// (omitempty).
func optFloat(w *jsonlite.Writer, k string, p *float64) {
	if p != nil {
		w.Key(k).Float(*p)
	}
}

// optInt writes *p under key k, or leaves the key out when p is nil.
func optInt(w *jsonlite.Writer, k string, p *int) {
	if p != nil {
		w.Key(k).Int(*p)
	}
}

// floatOrNull writes *p under key k, or null when p is nil (not measured).
func floatOrNull(w *jsonlite.Writer, k string, p *float64) {
	w.Key(k)
	if p == nil {
		w.Null()
		return
	}
	w.Float(*p)
}

// writeJSON writes the head as an object, with the key "events" last,
// whose value events writes, when events is not nil.
func (h *exportHead) writeJSON(w *jsonlite.Writer, events func()) {
	w.BeginObject()
	w.Key("schema").String(h.Schema)
	w.Key("start").Time(h.Start)
	w.Key("end").String(h.End)
	optFloat(w, "end_ms", h.EndMS)
	w.StringOmitEmpty("error", h.Error)
	w.StringOmitEmpty("outage_error", h.OutageError)
	w.Key("simulated").Bool(h.Simulated)
	w.Key("scenario").BeginObject()
	for _, k := range jsonlite.Keys(h.Scenario) {
		w.Key(k).String(h.Scenario[k])
	}
	w.EndObject()
	w.Key("stats")
	h.Stats.writeJSON(w)
	w.Key("faults").BeginArray()
	for i := range h.Faults {
		h.Faults[i].writeJSON(w)
	}
	w.EndArray()
	w.Key("gaps").BeginArray()
	for i := range h.Gaps {
		h.Gaps[i].writeJSON(w)
	}
	w.EndArray()
	if events != nil {
		w.Key("events")
		events()
	}
	w.EndObject()
}

func (x *exportStats) writeJSON(w *jsonlite.Writer) {
	w.BeginObject()
	w.Key("requests").Int(x.Requests)
	w.Key("first_tries").Int(x.FirstTries)
	w.Key("retries").Int(x.Retries)
	w.Key("ok").Int(x.OK)
	w.Key("limited").Int(x.Limited)
	w.Key("failed").Int(x.Failed)
	w.Key("timeouts").Int(x.Timeouts)
	w.Key("aborted").Int(x.Aborted)
	w.Key("aborted_by_stop").Int(x.AbortedByStop)
	w.Key("aborted_at_limit").Int(x.AbortedAtLimit)
	w.Key("in_flight").Int(x.InFlight)
	w.Key("jobs").Int(x.Jobs)
	w.Key("successes").Int(x.Successes)
	w.Key("give_ups").Int(x.GiveUps)
	w.Key("cancelled").Int(x.Cancelled)
	if len(x.Causes) > 0 {
		w.Key("causes").BeginObject()
		for _, k := range jsonlite.Keys(x.Causes) {
			w.Key(k).Int(x.Causes[k])
		}
		w.EndObject()
	}
	w.Key("peak_jobs").Int(x.PeakJobs)
	w.Key("amplification").Float(x.Amplification)
	w.Key("wasted_per_success").Float(x.WastedPerSuccess)
	w.Key("peak_rps").Int(x.PeakRPS)
	floatOrNull(w, "completion_p50_ms", x.CompletionP50MS)
	floatOrNull(w, "completion_p99_ms", x.CompletionP99MS)
	floatOrNull(w, "completion_max_ms", x.CompletionMaxMS)
	w.Key("drain_ms").Float(x.DrainMS)
	floatOrNull(w, "lateness_p50_ms", x.LatenessP50MS)
	floatOrNull(w, "lateness_p99_ms", x.LatenessP99MS)
	floatOrNull(w, "queued_p50_ms", x.QueuedP50MS)
	floatOrNull(w, "queued_p99_ms", x.QueuedP99MS)
	floatOrNull(w, "pickup_p99_ms", x.PickupP99MS)
	floatOrNull(w, "pickup_max_ms", x.PickupMaxMS)
	w.Key("dispersion").Float(x.Dispersion)
	w.EndObject()
}

func (x *exportFault) writeJSON(w *jsonlite.Writer) {
	w.BeginObject()
	w.Key("kind").String(x.Kind)
	w.Key("from_ms").Float(x.FromMS)
	optFloat(w, "until_ms", x.UntilMS)
	w.FloatOmitEmpty("scale", x.Scale)
	optInt(w, "n", x.N)
	optInt(w, "admitted", x.Admitted)
	w.EndObject()
}

func (x *exportGap) writeJSON(w *jsonlite.Writer) {
	w.BeginObject()
	w.Key("kind").String(x.Kind)
	w.Key("from_ms").Float(x.FromMS)
	optFloat(w, "until_ms", x.UntilMS)
	w.EndObject()
}

// writeJSON writes the event; its ratelimit object is x.hdr's
// rateLimitHeaders present, in their order, which is encoding/json's
// order of a map's keys (TestRateLimitHeadersAreSorted), so no map is
// made for it.
func (x *exportEvent) writeJSON(w *jsonlite.Writer) {
	w.BeginObject()
	w.Key("t_ms").Float(x.TMS)
	w.Key("kind").String(x.Kind)
	w.Key("worker").Int(x.Worker)
	w.Key("job").Int(x.Job)
	w.Key("attempt").Int(x.Attempt)
	optFloat(w, "intended_ms", x.IntendedMS)
	optInt(w, "status", x.Status)
	w.StringOmitEmpty("class", x.Class)
	w.StringOmitEmpty("error", x.Error)
	if x.RetryAfter != nil { // "" when the header came empty
		w.Key("retry_after").String(*x.RetryAfter)
	}
	if x.hdr != nil {
		open := false
		for _, name := range rateLimitHeaders {
			if v := x.hdr.Get(name); v != "" {
				if !open {
					w.Key("ratelimit").BeginObject()
					open = true
				}
				w.Key(name).String(v)
			}
		}
		if open {
			w.EndObject()
		}
	}
	optFloat(w, "queued_ms", x.QueuedMS)
	optInt(w, "server_seq", x.ServerSeq)
	optFloat(w, "server_ms", x.ServerMS)
	optFloat(w, "wait_ms", x.WaitMS)
	w.StringOmitEmpty("reason", x.Reason)
	w.StringOmitEmpty("cause", x.Cause)
	w.StringOmitEmpty("note", x.Note)
	w.Key("simulated").Bool(x.Simulated)
	optFloat(w, "handoff_ms", x.HandoffMS)
	optFloat(w, "pickup_ms", x.PickupMS)
	w.StringOmitEmpty("redirected", x.Redirected)
	w.EndObject()
}
