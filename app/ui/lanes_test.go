package ui

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
)

// A small fleet gets lanes a person can read, each labelled: one worker's
// lane was 14 px high on a 1400 px canvas, and one or two workers' lanes
// had no label at all (three had "w1 w2 w3"). Lanes of up to maxLaneH;
// from 8 workers on, the lanes are as they were (50 workers: 8.8 px, 500:
// 1 px), in the page's theme and presentation mode's.
func TestSmallFleetLanes(t *testing.T) {
	for _, th := range []*theme{&normalTheme, &presentTheme} {
		s := th.scale
		for _, c := range []struct {
			workers     int
			laneH       float64 // at scale 1
			first, last string  // the first and last lane labels
			n           int     // how many
			presentN    int     // how many in presentation mode (its type is bigger)
		}{
			{1, 36, "w1", "w1", 1, 1},
			{2, 36, "w1", "w2", 2, 2},
			{3, 36, "w1", "w3", 3, 3},
			{4, 27, "w1", "w4", 4, 4},
			{8, 14, "w1", "w8", 8, 8},
			{50, 440.0 / 50 / s, "w1", "w49", 25, 11}, // as before: 440 px shared, under 14 px × scale; every other lane from the top one
			{500, 1 / s, "w20", "w500", 25, 25},
		} {
			name := th.name + " " + strconv.Itoa(c.workers) + " workers"
			l := newLayout(1362, c.workers, 10*time.Second, th)
			if want := c.laneH * s; l.laneH < want-1e-9 || l.laneH > want+1e-9 {
				t.Errorf("%s: lanes %.2f px high, want %.2f", name, l.laneH, want)
			}
			if c.workers <= 3 && l.markR*2 > l.laneH/3 {
				t.Errorf("%s: marks %.1f px across in a lane of %.1f px: no room for the waits around them", name, 2*l.markR, l.laneH)
			}
			var o browser.Ops
			paint(&o, &l, nil, frameInput{th: th})
			var labels []string
			for _, str := range o.Strings() {
				if len(str) > 1 && str[0] == 'w' && str[1] >= '0' && str[1] <= '9' {
					labels = append(labels, str)
				}
			}
			if th == &presentTheme {
				c.n = c.presentN
				if c.workers == 50 {
					c.last = "w50" // every fifth lane, and w1 above w5
				}
			}
			if len(labels) != c.n || labels[0] != c.first || labels[len(labels)-1] != c.last {
				t.Errorf("%s: lane labels %v, want %d from %s to %s", name, labels, c.n, c.first, c.last)
				continue
			}
			// Each in the middle of its lane (as near as it stays inside
			// the lanes: laneLabelY), left of the plot, clear of a mark
			// sent at 0 s (drawn into the margin: plotClip).
			for _, lb := range labels {
				w, _ := strconv.Atoi(lb[1:])
				y, _ := textY(&o, lb)
				if y != float64(float32(l.laneLabelY(w-1))) {
					t.Errorf("%s: %s at y %v, want %v (its lane's middle is %v)", name, lb, y, l.laneLabelY(w-1), l.laneY(w-1))
				}
			}
			if r := l.labelRight(); r > l.left-l.markReach()-1 {
				t.Errorf("%s: the labels end at x %v, a mark at 0 s reaches %v", name, r, l.left-l.markReach())
			}
		}
	}
}

// Every lane label lies inside the lanes, below their top edge, where the
// sticky time axis (stickyAxisH) ends, and above their bottom: centred on
// lanes thinner than its text, presentation mode's "w1" reached 3 px over
// the lanes' top, and the sticky axis cut it off (the flood's 50 workers
// fitted to 1280 × 720, and on a phone); the last lane's label reached
// under the lanes. In the page's theme and presentation mode's, fitted to
// a projector's height or not.
func TestLaneLabelsStayInTheLanes(t *testing.T) {
	for _, th := range []*theme{&normalTheme, &presentTheme} {
		for _, workers := range []int{1, 2, 5, 8, 10, 20, 50, 100, 200, 500, 2000} {
			for _, fit := range []float64{0, 720 - 130} {
				for _, width := range []float64{1362, 348} {
					l := newLayout(width, workers, 10*time.Second, th)
					l.fitHeight(fit)
					var o browser.Ops
					paintLaneLabels(&o, &l)
					top, bottom := l.lanesTop, l.lanesTop+l.laneH*float64(workers)
					if sticky := l.stickyAxisH(); top < sticky {
						t.Fatalf("the lanes' top %v is above the sticky axis' foot %v", top, sticky)
					}
					h := laneLabelH * th.scale
					strs := o.Strings()
					for _, op := range displayOps(&o) {
						if op.code != 10 {
							continue
						}
						lb, y := strs[int(op.args[0])], float64(op.args[2])
						if y-h/2 < top-1e-3 || y+h/2 > bottom+1e-3 {
							t.Errorf("%s, %d workers, %v px wide, fitted to %v: %s spans y %.1f–%.1f, the lanes %.1f–%.1f (lanes %.2f px)",
								th.name, workers, width, fit, lb, y-h/2, y+h/2, top, bottom, l.laneH)
						}
					}
				}
			}
		}
	}
}

// startRun is one worker's job that sends at 0 s (the server receives it
// then too) and gets a 429, and another worker's later attempt.
func startRun(workers int) *model {
	m := newModel(t0, workers)
	for _, r := range []fleet.Record{
		{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: at(0), Intended: at(0), Attempt: 1}},
		{Worker: 0, Attempt: &fleet.Attempt{Status: 429, ServerSeq: 1, ServerAt: at(0)},
			Event: core.Event{Kind: core.EventOutcome, At: at(40), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
		{Worker: 0, Event: core.Event{Kind: core.EventWait, At: at(40), Attempt: 2, Wait: 300 * time.Millisecond, Reason: core.ReasonBackoff}},
		{Worker: workers - 1, Event: core.Event{Kind: core.EventAttempt, At: at(500), Intended: at(500), Attempt: 1}},
	} {
		m.add(&r)
	}
	return m
}

// clippedShapes reports the shapes (marks, arrivals, rings) o draws cut by
// the clip they are drawn in: each reaching reach(r) px either side of its
// centre.
func clippedShapes(o *browser.Ops, reach func(r float64) float64) (cut []string) {
	var clips [][4]float64
	for _, op := range displayOps(o) {
		a := op.args
		switch op.code {
		case 12:
			clips = append(clips, [4]float64{float64(a[0]), float64(a[1]), float64(a[2]), float64(a[3])})
		case 17: // a path's clip (the histogram's patterns): no shape is drawn in one
			clips = append(clips, [4]float64{-1e9, -1e9, 2e9, 2e9})
		case 13:
			clips = clips[:len(clips)-1]
		case 7:
			if len(clips) == 0 {
				continue
			}
			c := clips[len(clips)-1]
			x, y, d := float64(a[1]), float64(a[2]), reach(float64(a[3]))
			if x-d < c[0]-1e-3 || x+d > c[0]+c[2]+1e-3 || y-d < c[1]-1e-3 || y+d > c[1]+c[3]+1e-3 {
				cut = append(cut, "shape at ("+strconv.FormatFloat(x, 'f', 1, 64)+", "+strconv.FormatFloat(y, 'f', 1, 64)+") r "+
					strconv.FormatFloat(d, 'f', 1, 64)+" in clip "+strconv.FormatFloat(c[0], 'f', 1, 64)+"…"+strconv.FormatFloat(c[0]+c[2], 'f', 1, 64))
			}
		}
	}
	return cut
}

// A mark sent at 0 s, centred on the plot's left edge, is drawn whole, in
// the lanes and the server panel, in the whole drawing, in a live run's
// layers and with its selection ring: the plot's clip cut it in half. The
// time axis does not move: 0 s is still the plot's left edge. Zoomed in,
// the window's edge still cuts what lies across it.
func TestMarksAtTheStartDrawnWhole(t *testing.T) {
	halo := func(r float64) float64 { return r*1.25 + 0.5 } // a cross's stroke, a halo
	for _, th := range []*theme{&normalTheme, &presentTheme} {
		for _, workers := range []int{1, 2, 3, 50} {
			name := th.name + " " + strconv.Itoa(workers) + " workers"
			m := startRun(workers)
			l := newLayout(1362, workers, 2*time.Second, th)
			if x := l.x(0); x != l.left {
				t.Fatalf("%s: 0 s at x %v, the plot starts at %v", name, x, l.left)
			}
			in := frameInput{th: th, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}}
			var whole browser.Ops
			paint(&whole, &l, m, in)
			var ly layers
			live := in
			live.running, live.now = true, 600*time.Millisecond
			ly.draw(&l, m, live)
			var ring browser.Ops
			paintOverlay(&ring, &l, m, th, -1, 0, -1, -1)
			for what, o := range map[string]*browser.Ops{"whole drawing": &whole, "kept layer": &ly.base, "top layer": &ly.top} {
				if cut := clippedShapes(o, halo); len(cut) > 0 {
					t.Errorf("%s, %s: cut at the plot's edge: %v", name, what, cut)
				}
				shapes := 0
				for _, op := range displayOps(o) {
					if op.code == 7 && op.args[1] == float32(l.left) {
						shapes++
					}
				}
				if what != "top layer" && shapes < 2 { // the mark and its arrival
					t.Errorf("%s, %s: %d shapes at 0 s, want the mark and its arrival", name, what, shapes)
				}
			}
			if cut := clippedShapes(&ring, func(r float64) float64 { return r + 1.25 }); len(cut) > 0 {
				t.Errorf("%s: the selection's rings cut: %v", name, cut)
			}

			zoomed := l
			zoomed.from, zoomed.span = 100*time.Millisecond, time.Second
			var z browser.Ops
			paint(&z, &zoomed, m, in)
			for _, op := range displayOps(&z) {
				if op.code == 12 && op.args[0] < float32(zoomed.left) {
					t.Errorf("%s, zoomed in from 0.1 s: clip from x %v, left of the window's edge %v", name, op.args[0], zoomed.left)
				}
			}
		}
	}
}

// The lanes' height reaches the page: the view lays a one-worker run out
// with its 36 px lane, labelled.
func TestOneWorkerViewLane(t *testing.T) {
	v := newView()
	s := fleet.Default()
	s.Workers, s.Jobs = 1, 4
	rec := fleet.Simulate(s)
	v.load(s, rec, rec.Records())
	o, l := paintView(v, frameSizes[0])
	if l.laneH != maxLaneH || l.workers != 1 {
		t.Errorf("1 worker: %d lanes of %v px, want 1 of %v", l.workers, l.laneH, float64(maxLaneH))
	}
	if !slices.Contains(o.Strings(), "w1") {
		t.Errorf("1 worker's lane not labelled: %q", o.Strings())
	}
}
