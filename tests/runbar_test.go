//go:build e2e

package tests

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestRunBarStaysPut: the page stays where it is when a message comes and
// goes, while a simulation runs and when a run is kept as the baseline, in
// presentation mode and out of it: a button whose label changes
// ("Simulating…", "Baseline kept") keeps its width. ("Simulating…" pushed
// the four buttons after it 33 px right, under a presenter's pointer, and
// back; a message made the run bar 3 px taller, and out of sight when the
// page was scrolled to the timeline.)
func TestRunBarStaysPut(t *testing.T) {
	srv := startServer(t)
	for _, present := range []bool{true, false} {
		ctx, _ := newBrowser(t)
		boot(t, ctx, srv.URL+"/?workers=200&jobs=5")
		if present {
			presentMode(t, ctx, true)
		}
		eval[bool](t, ctx, `(() => {
			window.runBarShifts = [];
			new PerformanceObserver(l => {
				for (const e of l.getEntries())
					for (const s of e.sources || [])
						if (s.node)
							window.runBarShifts.push((s.node.id || s.node.className || s.node.nodeName) + " " + Math.round(s.previousRect.x) + "," + Math.round(s.previousRect.y) +
								"→" + Math.round(s.currentRect.x) + "," + Math.round(s.currentRect.y));
			}).observe({type: "layout-shift"});
			return true;
		})()`)
		// A message (c before any run) moves nothing, and is seen where
		// the presenter looks.
		eval[bool](t, ctx, `(() => { document.getElementById("timeline").scrollIntoView(); return true; })()`)
		press(t, ctx, "c")
		var toast struct {
			Shown               bool
			Top, Bottom, Height float64
		}
		if err := waitFor(2*time.Second, func() bool {
			toast = eval[struct {
				Shown               bool
				Top, Bottom, Height float64
			}](t, ctx, `(() => { const e = document.getElementById("toast");
				if (!e) return {}; const r = e.getBoundingClientRect(); return {Shown: true, Top: r.top, Bottom: r.bottom, Height: innerHeight}; })()`)
			return toast.Shown
		}); err != nil {
			t.Fatal("c before any run: no message")
		}
		if toast.Top < 0 || toast.Bottom > toast.Height {
			t.Errorf("presentation mode %v: the message is at y %.0f–%.0f, out of the %.0f px screen", present, toast.Top, toast.Bottom, toast.Height)
		}
		if err := waitFor(5*time.Second, func() bool { return !eval[bool](t, ctx, `!!document.getElementById("toast")`) }); err != nil {
			t.Fatal("the message stayed")
		}
		eval[bool](t, ctx, `(() => { scrollTo(0, 0); return true; })()`)
		click(t, ctx, "simulate")
		simulatedToEnd(t, ctx)
		// Shifts are reported after the frame that made them.
		settled := func() []string {
			eval[chromedp.Void](t, ctx, afterFrames)
			return eval[[]string](t, ctx, `window.runBarShifts.splice(0)`)
		}
		if shifts := settled(); len(shifts) > 0 {
			t.Errorf("presentation mode %v: the page moved: %q", present, shifts)
		}
		// Keeping the baseline adds its banner under the run bar (the page
		// below moves, as asked); the run bar's buttons stay.
		press(t, ctx, "c")
		if err := waitFor(5*time.Second, func() bool {
			return eval[string](t, ctx, `document.getElementById("compare-keep").getAttribute("aria-pressed")`) == "true"
		}); err != nil {
			t.Fatal("c did not keep the simulation as the baseline")
		}
		for _, s := range settled() {
			if id, _, _ := strings.Cut(s, " "); eval[bool](t, ctx, `!!document.querySelector(".run-row #`+id+`")`) {
				t.Errorf("presentation mode %v: keeping the baseline moved the run bar's %s", present, s)
			}
		}
		// The hidden label is not read out, nor the glyph (its name was
		// "⇆ Baseline kept"; an accessibility review).
		if _, name, _ := axOf(t, ctx, "compare-keep"); name != "Baseline kept" {
			t.Errorf("presentation mode %v: the baseline button is named %q, want %q", present, name, "Baseline kept")
		}
	}
}

// TestChangedRunIsDimmed: a finished run the inputs were changed after is
// shown dimmed, its numbers grey, its timeline faded, until Run or
// Simulate shows the inputs' run; a field edited back to the run's value
// brings it back. Picking step 2 after step 1's run left the flood's
// numbers and lanes, bright, under step 2's caption, and only the status's
// "Changed since" said they were not step 2's (a review).
func TestChangedRunIsDimmed(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	type look struct {
		Stale   bool
		Opacity string
		Colour  string // the 429s card's figure
		Muted   string
		Status  string
	}
	read := func() look {
		return eval[look](t, ctx, `(() => {
			const v = document.querySelector('#numbers [data-stat="limited"] .v');
			return {Stale: document.getElementById("stage").classList.contains("stale"),
				Opacity: getComputedStyle(document.getElementById("timeline")).opacity,
				Colour: getComputedStyle(v).color,
				Muted: getComputedStyle(document.querySelector(".help")).color,
				Status: document.getElementById("run-status").textContent};
		})()`)
	}
	settle := func(what string, stale bool) look {
		t.Helper()
		var l look
		if err := waitFor(5*time.Second, func() bool { l = read(); return l.Stale == stale }); err != nil {
			t.Fatalf("%s: %+v, want stale %v", what, l, stale)
		}
		dimmed := l.Opacity != "1" && l.Colour == l.Muted && strings.Contains(l.Status, "Changed since")
		bright := l.Opacity == "1" && l.Colour != l.Muted && !strings.Contains(l.Status, "Changed since")
		if stale && !dimmed || !stale && !bright {
			t.Errorf("%s: %+v; want it dimmed %v", what, l, stale)
		}
		return l
	}
	press(t, ctx, "1")
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	settle("step 1 simulated", false)
	press(t, ctx, "2")
	l := settle("step 2 picked after step 1's run", true)
	if !strings.Contains(l.Status, "Strategy Constant → Exponential") {
		t.Errorf("step 2 picked: the status %q does not say what changed", l.Status)
	}
	screenshot(t, ctx, "changed-run-dimmed")
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	settle("step 2 simulated", false)
	typeInto(t, ctx, "workers", "20")
	settle("Workers edited", true)
	typeInto(t, ctx, "workers", "50")
	settle("Workers edited back", false)
	// A value not allowed is no run's either: dimmed, with the status
	// saying what to fix (it was bright while a field was cleared on the
	// way to another value).
	typeInto(t, ctx, "workers", "abc")
	if err := waitFor(5*time.Second, func() bool {
		l = read()
		return l.Stale && l.Opacity != "1" && strings.HasPrefix(l.Status, "Fix 1 field")
	}); err != nil {
		t.Errorf("Workers \"abc\": %+v; want the run dimmed and the status saying to fix the field", l)
	}
	typeInto(t, ctx, "workers", "50")
	settle("Workers fixed", false)
}
