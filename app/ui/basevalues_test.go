package ui

import (
	"fmt"
	"testing"
	"time"

	"retrylab/app/fleet"
)

// baselineValuesOnTheirBins checks that every bin of v's baseline cut at
// the top of the histogram painted at sz says its value, in the
// baseline's colour, on its own bin: over it by at least half of the
// narrower of the value and the bin (as a cut bar's value lies over its
// bar). It returns how many cut bins it checked.
func baselineValuesOnTheirBins(t *testing.T, name string, v *view, sz frameSize) int {
	t.Helper()
	o, l := paintView(v, sz)
	_, labels := frameContent(o, &l)
	lo := int(l.from / l.slice)
	rates := v.base.rates(l.slice, lo, l.bins())
	cuts := 0
	for i, r := range rates {
		if r <= l.histMax {
			continue
		}
		cuts++
		x0, x1 := l.x(time.Duration(lo+i)*l.slice), l.x(time.Duration(lo+i+1)*l.slice)
		var said, elsewhere []string
		for _, lb := range labels {
			if lb.col != colBase || (lb.text != trimFloat(r*l.ratePer) && lb.text != shortRate(r*l.ratePer)) {
				continue
			}
			over := min(lb.r.x+lb.r.w, x1) - max(lb.r.x, x0)
			if over >= min(lb.r.w, x1-x0)/2-0.5 {
				said = append(said, lb.text)
			} else {
				elsewhere = append(elsewhere, fmt.Sprintf("%q at x %.0f–%.0f", lb.text, lb.r.x, lb.r.x+lb.r.w))
			}
		}
		if len(said) == 0 {
			t.Errorf("%s, %s: the baseline's %v bin (x %.0f–%.0f, %.0f req/s, the scale's top %v) runs off the top with no value on it (elsewhere: %v)",
				name, sz.name, time.Duration(lo+i)*l.slice, x0, x1, r*l.ratePer, l.histMax*l.ratePer, elsewhere)
		}
	}
	return cuts
}

// TestEveryCutBaselineBinSaysItsValue: with a baseline far above the run
// (full jitter's first seconds, 170 and 78 req/s, over a run honouring
// Retry-After whose own first bars reached 52–58 on a scale of 60), each
// of the baseline's bins cut at the top says its value on its own bin. In
// presentation mode after such a live run, "170" had no place (the run's
// bars under it reached the top) and was left out, and "78" went beside
// its bin, over the next one, where the outline is at 52: the scale was
// raised only for the run's own cut bars (roomForCutValues). Each preset
// against each other as the baseline, at every frame size.
func TestEveryCutBaselineBinSaysItsValue(t *testing.T) {
	cuts := 0
	for _, base := range fleet.Presets {
		for _, run := range fleet.Presets {
			if run.ID == base.ID {
				continue
			}
			v := simulatedView(t, run.ID, base.ID)
			for _, sz := range frameSizes {
				cuts += baselineValuesOnTheirBins(t, run.ID+" against "+base.ID, v, sz)
			}
		}
	}
	if cuts == 0 {
		t.Error("no baseline's bin is cut")
	}
	t.Logf("%d cut bins", cuts)
}
