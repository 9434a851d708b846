//go:build !(js && wasm)

package ui

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"retrylab/app/jsonlite"
)

// stateByEncodingJSON is window.retrylab.state() as encoding/json wrote it
// (until 2026-12-04), the oracle of snapshot.writeJSON.
func stateByEncodingJSON(t *testing.T, s *snapshot, records int) string {
	t.Helper()
	b, err := json.Marshal(struct {
		*snapshot
		Records int `json:"records"`
	}{s, records})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStateJSONIsEncodingJSONs(t *testing.T) {
	l := newLab()
	if got, want := l.stateJSON(), stateByEncodingJSON(t, l.snap.Load(), 0); got != want {
		t.Errorf("a new page's state:\n got %s\nwant %s", got, want)
	}
	l.Preset("flood")
	l.Set("workers", "abc")
	if got, want := l.stateJSON(), stateByEncodingJSON(t, l.snap.Load(), 0); got != want {
		t.Errorf("a preset, a value refused:\n got %s\nwant %s", got, want)
	}
	for _, s := range []*snapshot{
		{},
		{Running: true, Simulating: true, Simulated: true, SimWallMS: 12.5e-7, SimStopped: true, Capped: true, Runs: 3, RunKey: "k<&>\u2028",
			Stats:   map[string]float64{"requests": 1e21, "amplification": 1.75, "queued_p99_ms": 0, "b": -0.000001},
			Invalid: 2, Preset: "flood", Baseline: &baselineState{Label: "Full jitter \xff (run 1)", Stats: map[string]float64{"z": 1, "a": 2}},
			Replaying: true, Watching: true, Watched: true, WatchOpen: true, Rehearsal: rehearsalState{State: "done", Key: "r", Requests: 40, MS: 812.25}, Subdomains: "not reached"},
		{Stats: map[string]float64{}, Baseline: &baselineState{}, Rehearsal: rehearsalState{State: "waiting"}},
	} {
		var w jsonlite.Writer
		s.writeJSON(&w, 17)
		if got, want := jsonText(&w), stateByEncodingJSON(t, s, 17); got != want {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	}
	// A number JSON cannot hold: encoding/json refused the whole; the
	// page's state says why, as JSON.
	s := &snapshot{Stats: map[string]float64{"dispersion": math.NaN()}}
	var w jsonlite.Writer
	s.writeJSON(&w, 0)
	var doc struct{ Error string }
	if err := json.Unmarshal([]byte(jsonText(&w)), &doc); err != nil || !strings.Contains(doc.Error, "NaN") {
		t.Errorf("a NaN: %s (%v)", jsonText(&w), err)
	}
}

// window.retrylab.debug()'s keys are sorted, and its values written, as
// encoding/json wrote the map it was: read back and written again by
// encoding/json, it is the same text.
func TestDebugJSONIsEncodingJSONs(t *testing.T) {
	l := newLab()
	got := debugJSON(l.view)
	var m map[string]any
	if err := json.Unmarshal([]byte(got), &m); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	again, _ := json.Marshal(m)
	if string(again) != got {
		t.Errorf("debug():\n%s\nencoding/json writes it\n%s", got, again)
	}
	keys := []string{"gc_cycles", "heap_mb", "heap_sys_mb", "stacks_mb", "goroutines", "funcs", "funcs_permanent", "pending_waits",
		"last_redraw_ms", "go_start_ms", "mounted_ms", "now_ms", "settled_ms", "first_sent_ms", "draws", "live_anew", "live_whole",
		"sim_computed_ms", "drawn_ms", "hidden", "outages", "limits", "bursts", "hist_rect", "window_ms", "hist_bin_ms",
		"replay", "lanes", "lane_arrivals", "arrivals_outside", "lane_count", "lanes_rect", "lane_h", "scale", "theme", "paced"}
	var have []string
	for k := range m {
		have = append(have, k)
	}
	slices.Sort(have)
	slices.Sort(keys)
	if !slices.Equal(have, keys) {
		t.Errorf("debug()'s keys\n%q, want\n%q", have, keys)
	}
}
