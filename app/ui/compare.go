package ui

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/fleet"
)

// baseline is a finished run kept to compare the next ones against
// (Compare, key c): the presenter's "before" beside the "after". Its
// numbers stand beside the current run's, and its requests per second are
// an outline over the current histogram, on the same time axis.
type baseline struct {
	label string // what ran: "Full jitter (step 3), simulated"
	run   int    // Lab.runs of the run it was
	stats fleet.Stats
	disp  float64
	draw  baselineDraw
}

// baselineDraw is what the timeline draws of a baseline: each attempt's
// send time (from its run's start) and how long the run lasted.
type baselineDraw struct {
	label string
	sends []time.Duration
	span  time.Duration
}

// baselineState is the baseline in window.retrylab.state().
type baselineState struct {
	Label string         `json:"label"`
	Stats map[string]any `json:"stats"`
}

// CanCompare reports whether the run shown can become the baseline: a
// finished run or simulation (not a watch, not a failed simulation) that
// is not the baseline already.
func (l *Lab) CanCompare() bool {
	return !l.running && l.rec != nil && !l.watched && l.rec.Err == nil && (l.base == nil || l.base.run != l.runs)
}

// Compare keeps the run shown as the baseline, replacing any earlier one;
// pressed again on the baseline itself, it clears it.
func (l *Lab) Compare() {
	switch {
	case l.base != nil && l.base.run == l.runs && !l.running:
		l.ClearBaseline()
	case l.CanCompare():
		d, ok := l.view.baselineDraw()
		if !ok {
			return
		}
		d.label = runLabel(l.rec.Scenario, l.rec.Simulated)
		l.base = &baseline{label: d.label, run: l.runs, stats: l.stats, disp: l.disp, draw: d}
		l.view.setBaseline(&l.base.draw)
		l.runRev++
		l.publish()
	}
}

// ClearBaseline drops the baseline.
func (l *Lab) ClearBaseline() {
	if l.base == nil {
		return
	}
	l.base = nil
	l.view.setBaseline(nil)
	l.runRev++
	l.publish()
}

// runLabel names a run for the comparison: its step of the story, or
// "custom configuration", and whether it was live or simulated.
func runLabel(s fleet.Scenario, simulated bool) string {
	name := "Custom configuration"
	if i := presetIndex(s); i >= 0 {
		name = fleet.Presets[i].Title + " (step " + strconv.Itoa(i+1) + ")"
	}
	if simulated {
		return name + ", simulated"
	}
	return name + ", live"
}

// withBaseline adds the baseline's figure to each of the current numbers
// that has one.
func withBaseline(cur, base []stat) []stat {
	byName := make(map[string]*stat, len(base))
	for i := range base {
		byName[base[i].Name] = &base[i]
	}
	for i := range cur {
		if b, ok := byName[cur[i].Name]; ok {
			cur[i].Base, cur[i].HasBase = b.Value, true
			cur[i].BaseText = b.Text
		}
	}
	return cur
}

// baseDelta says how a number compares with its baseline: "−74%", "+3%",
// "same", or "" when the change is not a ratio (a baseline of 0).
func baseDelta(cur, base float64) string {
	switch {
	case cur == base:
		return "same"
	case base == 0:
		return ""
	}
	pct := (cur - base) / base * 100
	sign := "+"
	if pct < 0 {
		sign = "−"
		pct = -pct
	}
	switch {
	case pct >= 10:
		return sign + strconv.FormatFloat(pct, 'f', 0, 64) + "%"
	case pct >= 0.05:
		return sign + strconv.FormatFloat(pct, 'f', 1, 64) + "%"
	}
	return "same"
}

// CompareBar says which run is the baseline, with a button to clear it.
type CompareBar struct {
	app.Compo

	Lab *Lab
	Rev int
}

// Render draws the bar, or nothing without a baseline.
func (c *CompareBar) Render() app.UI {
	l := c.Lab
	if l.base == nil {
		return app.Div().ID("compare").Hidden(true)
	}
	what := "the next run is drawn and counted against it."
	if l.base.run != l.runs || l.running {
		what = "its numbers are beside each of this run's; its requests per second are the violet outline on the histogram."
	}
	return app.Div().ID("compare").Class("compare").Role("status").Body(
		app.Span().Class("swatch").Aria("hidden", "true"),
		app.Strong().Text("Baseline: "),
		app.Span().ID("baseline-label").Text(l.base.label),
		app.Text(" — "+what),
		app.Button().ID("clear-baseline").Class("ghost small").Title("Stop comparing (c on the baseline itself)").Text("Clear baseline").
			OnClick(func(ctx app.Context, e app.Event) { l.ClearBaseline() }),
	)
}

// baselineDraw copies what the timeline draws of the finished run shown,
// for a baseline; ok is false when there is none.
func (v *view) baselineDraw() (d baselineDraw, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || v.running || v.m.watch {
		return d, false
	}
	d.sends = make([]time.Duration, len(v.m.marks))
	for i := range v.m.marks {
		d.sends[i] = v.m.marks[i].sent
	}
	d.span = v.m.last
	return d, true
}

// setBaseline draws d's outline over the histogram from now on (nil: none).
func (v *view) setBaseline(d *baselineDraw) {
	v.mu.Lock()
	v.base = d
	v.dirty = true
	v.mu.Unlock()
	v.request()
}

// rates is the baseline's requests sent per second in n bins of slice,
// up to the end of its run.
func (d *baselineDraw) rates(slice time.Duration, n int) []float64 {
	if slice <= 0 {
		return nil
	}
	n = min(n, int(d.span/slice)+1)
	if n <= 0 {
		return nil
	}
	counts := make([]int, n)
	for _, t := range d.sends {
		if b := int(t / slice); b >= 0 && b < n {
			counts[b]++
		}
	}
	perSec := float64(time.Second) / float64(slice)
	out := make([]float64, n)
	for i, c := range counts {
		out[i] = float64(c) * perSec
	}
	return out
}
