package mock

// This file is compiled for the browser too: the page writes events it
// tells its timeline of (a fault's answer, a simulated run's fault) as the
// stream would have sent them, without encoding/json.

import "retrylab/app/jsonlite"

// WriteJSON writes e as encoding/json writes it (its tags: keys in their
// order, omitempty's and omitzero's left out), TestEventJSONIsEncodingJSONs.
func (e *Event) WriteJSON(w *jsonlite.Writer) {
	w.BeginObject()
	w.Key("type").String(e.Type)
	w.Key("key").String(e.Key)
	w.StringOmitEmpty("tag", e.Tag)
	w.UintOmitEmpty("seq", e.Seq)
	w.TimeOmitZero("at", e.At)
	w.StringOmitEmpty("outcome", e.Outcome)
	w.IntOmitEmpty("status", e.Status)
	w.BoolOmitEmpty("allowed", e.Allowed)
	w.IntOmitEmpty("limit", e.Limit)
	w.IntOmitEmpty("remaining", e.Remaining)
	w.FloatOmitEmpty("reset_ms", e.ResetMS)
	w.FloatOmitEmpty("retry_after_ms", e.RetryAfterMS)
	w.FloatOmitEmpty("latency_ms", e.LatencyMS)
	w.StringOmitEmpty("end", e.End)
	w.FloatOmitEmpty("elapsed_ms", e.ElapsedMS)
	w.UintOmitEmpty("dropped", e.Dropped)
	w.TimeOmitZero("until", e.Until)
	w.FloatOmitEmpty("scale", e.Scale)
	w.IntOmitEmpty("n", e.N)
	w.IntOmitEmpty("admitted", e.Admitted)
	w.EndObject()
}

// JSON is e as WriteJSON writes it, or an error where encoding/json would
// refuse it (a NaN, a time whose year has not four digits).
func (e *Event) JSON() (string, error) {
	var w jsonlite.Writer
	e.WriteJSON(&w)
	return string(w.Bytes()), w.Err()
}
