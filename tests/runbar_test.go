//go:build e2e

package tests

import (
	"testing"
	"time"
)

// TestRunBarStaysPut: the run bar's buttons stay where they are while a
// simulation runs and when a run is kept as the baseline, in presentation
// mode and out of it: a button whose label changes ("Simulating…",
// "Baseline kept") keeps its width. ("Simulating…" pushed the four buttons
// after it 33 px right, under a presenter's pointer, and back.)
func TestRunBarStaysPut(t *testing.T) {
	srv := startServer(t)
	for _, present := range []bool{true, false} {
		ctx, _ := newBrowser(t)
		boot(t, ctx, srv.URL+"/?workers=200&jobs=5")
		if present {
			presentMode(t, ctx)
		}
		eval[bool](t, ctx, `(() => {
			window.runBarShifts = [];
			new PerformanceObserver(l => {
				for (const e of l.getEntries())
					for (const s of e.sources || [])
						if (s.node && s.node.closest && s.node.closest(".run-row"))
							window.runBarShifts.push((s.node.id || s.node.className) + " " + Math.round(s.previousRect.x) + "→" + Math.round(s.currentRect.x) + " px");
			}).observe({type: "layout-shift"});
			return true;
		})()`)
		click(t, ctx, "simulate")
		if err := waitFor(30*time.Second, func() bool { s := state(t, ctx); return s.Simulated && !s.Running }); err != nil {
			t.Fatalf("the simulation did not finish: %v", err)
		}
		press(t, ctx, "c")
		if err := waitFor(5*time.Second, func() bool {
			return eval[string](t, ctx, `document.getElementById("compare-keep").getAttribute("aria-pressed")`) == "true"
		}); err != nil {
			t.Fatal("c did not keep the simulation as the baseline")
		}
		// Shifts are reported after the frame that made them.
		eval[bool](t, ctx, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		if shifts := eval[[]string](t, ctx, `window.runBarShifts`); len(shifts) > 0 {
			t.Errorf("presentation mode %v: the run bar's buttons moved: %q", present, shifts)
		}
		// The hidden label is not read out.
		if _, name, _ := axOf(t, ctx, "compare-keep"); name != "⇆ Baseline kept" {
			t.Errorf("presentation mode %v: the baseline button is named %q, want %q", present, name, "⇆ Baseline kept")
		}
	}
}
