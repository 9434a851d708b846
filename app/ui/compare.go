package ui

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
)

// baseline is a finished run kept to compare the next ones against
// (Compare, key c): the presenter's "before" beside the "after". Its
// numbers stand beside the current run's, and its requests per second are
// an outline over the current histogram, on the same time axis.
type baseline struct {
	label string         // what ran: "Full jitter (step 3), simulated"
	scen  fleet.Scenario // its configuration: the share link's vs=
	run   int            // Lab.runs of the run it was; 0 for one from the address
	stats fleet.Stats
	disp  float64
	draw  baselineDraw
}

// newBaseline makes a baseline of a finished recording, recs its records,
// with its numbers.
func newBaseline(rec *fleet.Recording, recs []fleet.Record, st fleet.Stats, disp float64, run int) *baseline {
	b := &baseline{label: runLabel(rec.Scenario, rec.Simulated), scen: rec.Scenario, run: run, stats: st, disp: disp}
	b.draw.label = b.label
	b.draw.sends = make([]time.Duration, 0, st.Requests)
	for i := range recs {
		if e := &recs[i].Event; e.Kind == core.EventAttempt {
			b.draw.sends = append(b.draw.sends, e.At.Sub(rec.Start))
			b.draw.span = max(b.draw.span, e.At.Sub(rec.Start))
		}
	}
	if end, ok := rec.End(); ok {
		b.draw.span = max(b.draw.span, end.Sub(rec.Start))
	}
	return b
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
		l.setBaseline(newBaseline(l.rec, l.rec.Shared(), l.stats, l.disp, l.runs))
	}
}

// setBaseline makes b the baseline (nil: none) everywhere it shows: the
// numbers, the timeline and the page's address.
func (l *Lab) setBaseline(b *baseline) {
	l.base, l.wantBase = b, nil
	if b != nil {
		l.view.setBaseline(&b.draw)
	} else {
		l.view.setBaseline(nil)
	}
	l.runRev++
	l.saveURL()
	l.publish()
}

// ClearBaseline drops the baseline.
func (l *Lab) ClearBaseline() {
	if l.base == nil && l.wantBase == nil {
		return
	}
	l.setBaseline(nil)
}

// baselineKey is the page address's parameter for the baseline: the query
// of its configuration, itself URL-encoded. A link with it opens with the
// baseline simulated in the page (the same seed gives the same run).
const baselineKey = "vs"

// loadBaseline takes the address's vs= value: the baseline's
// configuration, read field by field like the page's own. Fields that
// could not be used become notices; a baseline that cannot be simulated
// (a custom target) is dropped with a notice.
func (l *Lab) loadBaseline(raw string) {
	q, err := url.ParseQuery(raw)
	s, notes := fleet.FromQuery(q)
	for _, n := range notes {
		n.Msg = "baseline (" + baselineKey + "=): " + n.Msg
		l.notices = append(l.notices, n)
	}
	if err != nil {
		l.notices = append(l.notices, fleet.FieldError{Key: baselineKey, Value: raw, Msg: "the baseline's query is not valid URL encoding (" + err.Error() + "); fields that could be read were used"})
	}
	errs := append(s.SimErrors(), s.Validate()...)
	if len(errs) > 0 {
		l.notices = append(l.notices, fleet.FieldError{Key: baselineKey, Value: raw, Msg: "no baseline: it cannot be simulated in the page (" + errs[0].Msg + ")"})
		return
	}
	l.wantBase = &s
}

// simulateBaseline computes the baseline the address asked for, in
// virtual time, off go-app's UI goroutine.
func (l *Lab) simulateBaseline(ctx app.Context) {
	want := l.wantBase
	if want == nil {
		return
	}
	s := *want
	ctx.Async(func() {
		// The page is drawn first: the baseline is not what was opened.
		browser.Clock{}.AfterPaint(context.Background())
		rec, _ := fleet.SimulateWith(s, fleet.SimOptions{MaxAttempts: SimMaxAttempts})
		recs := rec.Shared()
		st := fleet.StatsOf(rec.Start, recs)
		disp := fleet.Dispersion(recs, 100*time.Millisecond)
		b := newBaseline(rec, recs, st, disp, 0)
		ctx.Dispatch(func(app.Context) {
			if l.wantBase != want || rec.Err != nil {
				return // cleared, or replaced, meanwhile
			}
			l.setBaseline(b)
		})
	})
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
	if l.base == nil && l.wantBase != nil {
		return app.Div().ID("compare").Class("compare").Role("status").Body(
			app.Span().Class("swatch").Aria("hidden", "true"),
			app.Strong().Text("Baseline: "),
			app.Span().ID("baseline-label").Text(runLabel(*l.wantBase, true)),
			app.Text(" — simulating it from the link…"),
		)
	}
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
