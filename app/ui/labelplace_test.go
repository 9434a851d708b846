package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
)

// phoneSizes are the timeline's canvases on phones that frameSizes does
// not have (its 390 and 320 px phones, in the normal theme, were listed
// here too, and painted and checked twice): 390 px dark and in
// presentation mode, 375 px (a 333 px timeline) in the normal and
// presentation themes.
var phoneSizes = []frameSize{
	{"phone 390 px, dark", 348, &darkTheme},
	{"phone 390 px, presentation", 348, &presentTheme},
	{"phone 375 px", 333, &normalTheme},
	{"phone 375 px, presentation", 333, &presentTheme},
}

// withPhones are frameSizes and phoneSizes: 390, 375 and 320 px phones in
// the normal, dark and presentation themes as well.
var withPhones = append(slices.Clone(frameSizes), phoneSizes...)

// eachLineLabel paints v, its frame named name, at each of sizes and calls
// check with every label of a histogram line there (the server limit's,
// the fleet bucket's: their colours) and the y of its own line (ownLine),
// the frame's name ending in its size's; a label across no line of its
// colour is an error. TestLineLabelsSitAtTheirLines and
// TestLineLabelsLieByTheirLines each wrote this loop, in two files.
func eachLineLabel(t *testing.T, name string, v *view, sizes []frameSize, check func(name string, l *layout, marks []drawnMark, lb drawnLabel, y float64)) {
	t.Helper()
	for _, sz := range sizes {
		name := name + ", " + sz.name
		o, l := paintView(v, sz)
		marks, labels := frameContent(o, &l)
		for _, lb := range labels {
			if lb.col != colLimit && lb.col != colClient {
				continue
			}
			own, _ := ownLine(&l, marks, lb)
			if own.what == "" {
				t.Errorf("%s: %q lies across no line of its colour", name, lb.text)
				continue
			}
			check(name, &l, marks, lb, own.r.y+own.r.h/2)
		}
	}
}

// A line's label in the histogram sits at its line, just above or just
// below it, inside the plot, in fewer words where the whole has no room
// there: on a 390 px phone, full jitter's "server limit 10 req/s (burst
// 10)" sat 25–35 px above its dashed line, over bars that reached above
// the line, where it read as a label of nothing in particular (a review).
func TestLineLabelsSitAtTheirLines(t *testing.T) {
	for _, p := range fleet.Presets {
		eachLineLabel(t, p.ID, simulatedView(t, p.ID, ""), withPhones, func(name string, l *layout, _ []drawnMark, lb drawnLabel, y float64) {
			d := math.Min(math.Abs(lb.r.y-y), math.Abs(lb.r.y+lb.r.h-y))
			if lb.r.y < y && y < lb.r.y+lb.r.h {
				d = 0 // across it, on a plate
			}
			if d > lineLabelNear*l.scale {
				t.Errorf("%s: %q %v is %.0f px from its line at y %.0f: want it at the line (%v px)", name, lb.text, lb.r, d, y, lineLabelNear*l.scale)
			}
			if lb.r.y < l.histTop-0.5 || lb.r.y+lb.r.h > l.histTop+l.histH+0.5 || lb.r.x < l.left-0.5 || lb.r.x+lb.r.w > l.right+0.5 {
				t.Errorf("%s: %q %v is not inside the plot (%.0f–%.0f × %.0f–%.0f)", name, lb.text, lb.r, l.left, l.right, l.histTop, l.histTop+l.histH)
			}
		})
	}
}

// A line's label lies by its own line, with no other line between them,
// where it would read as that line's label: at 1400 px the fleet bucket's
// "fleet bucket 8 req/s" had room above its line only beyond the server
// limit's, 17 px higher, and sat over that (found by a review). Where
// there is no place clear of the bars by its line, it lies on them, on a
// plate (TestBucketLineReadsOverItsBars).
func TestLineLabelsLieByTheirLines(t *testing.T) {
	views := map[string]*view{}
	for _, id := range []string{"flood", "outage", "bucket"} {
		views["preset "+id] = simulatedView(t, id, "")
	}
	views["bucket against the flood"] = simulatedView(t, "bucket", "flood")
	for _, q := range []string{
		"workers=50&jobs=2&bucket=on&bucket_rate=9&bucket_cap=1",        // the bucket just under the limit
		"workers=50&jobs=2&bucket=on&bucket_rate=12&bucket_cap=1",       // just over it
		"workers=20&jobs=3&bucket=on&bucket_rate=5&bucket_cap=1&rate=6", // under a lower limit
	} {
		views[q] = queryView(t, q)
	}
	for name, v := range views {
		eachLineLabel(t, name, v, frameSizes, func(name string, l *layout, marks []drawnMark, lb drawnLabel, y float64) {
			for _, mk := range marks {
				oy := mk.r.y + mk.r.h/2
				if mk.what != "line" || mk.col == lb.col || (mk.col != colLimit && mk.col != colClient) || mk.r.h > mk.r.w || mk.r.x >= lb.r.x+lb.r.w || lb.r.x >= mk.r.x+mk.r.w {
					continue
				}
				if math.Abs(oy-y) <= 6*l.scale {
					continue // the two lines run as one band (a baseline's scale put both near the foot): a label beside either is beside both
				}
				if math.Min(lb.r.y, y) < oy && oy < math.Max(lb.r.y+lb.r.h, y) {
					t.Errorf("%s: %q %v has the line of colour %d at y %.1f between it and its own at %.1f", name, lb.text, lb.r, mk.col, oy, y)
				}
			}
		})
	}
}

// A cut bar's value lies on its own bar, or beside it over the panel: it
// covers no part of another bar, cut or not. At 1400 px a live full
// jitter run's "192, 90% rejected" lay across the next bar, cut too, whose
// own "67" went a row lower (a review): which bar said what was a guess.
// Where the whole value has no room on its bar it says the number alone
// (the rejected share is in the bar's tooltip and the description).
func TestCutValueCoversNoOtherBar(t *testing.T) {
	runs := cutValueRuns(t)
	s, _ := fleet.FromQuery(mustURL(t, "http://x/?limiter=bucket&rate=10&burst=10").Query())
	for name, secs := range map[string][]mixSecond{
		// The review's run: 192 then 67 req/s, both cut on a scale of 60.
		"full jitter live":   append([]mixSecond{{19, 173, 0, 0}, {8, 59, 0, 0}, {8, 45, 0, 0}, {9, 17, 0, 0}, {9, 10, 0, 0}, {8, 3, 0, 0}}, slices.Repeat([]mixSecond{{8, 0, 0, 0}}, 8)...),
		"three cut in a row": append([]mixSecond{{15, 135, 0, 0}, {12, 108, 0, 0}, {13, 117, 0, 0}}, slices.Repeat([]mixSecond{{10, 0, 0, 0}}, 40)...),
	} {
		v := newView()
		v.scen, v.lim, v.m = s, limitsOf(&s), runOfMix(secs)
		runs[name] = v
	}
	twoCut := false
	for name, v := range runs {
		for _, sz := range withPhones {
			o, l := paintView(v, sz)
			marks, labels := frameContent(o, &l)
			cuts := cutBins(v.m, &l)
			if name == "full jitter live" && sz.name == "1400 px" && len(cuts) >= 2 && cuts[1].i == 1 {
				twoCut = true
			}
			for _, c := range cuts {
				lb, said := saidValue(&l, labels, c)
				if !said {
					continue // TestEveryCutBarSaysItsValue
				}
				x0, x1 := l.x(time.Duration(c.i)*l.slice), l.x(time.Duration(c.i+1)*l.slice)
				r := lb.r.shrink(0.5)
				for _, mk := range marks {
					if mk.what != "bar" || (mk.r.x >= x0-0.5 && mk.r.x+mk.r.w <= x1+0.5) || !r.overlaps(mk.r) {
						continue
					}
					t.Errorf("%s, %s: the value %q %v of the bar at %v covers another bar's part %v", name, sz.name, lb.text, lb.r, time.Duration(c.i)*l.slice, mk.r)
					break
				}
			}
		}
	}
	if !twoCut {
		t.Error("the full jitter run at 1400 px does not cut its first two bars: the case is not tested")
	}
}

// A burst's label (the Burst button) hides no arrival: where it has no
// clear place beside its line in the server panel, among the columns of
// a run's retries, it goes beside the same line in the histogram, above
// the bars. At 1024 px (a 626 px canvas) it lay on a plate over the
// arrivals next to its line (a review), hiding them. Only in a retry
// storm's first seconds, dense in both panels (full jitter's and
// exponential's 50 workers), may it lie on arrivals, in its fewest words
// ("×20") where it covers the fewest.
func TestBurstLabelHidesNoArrival(t *testing.T) {
	sizes := append([]frameSize{
		{"1024 px", 626, &normalTheme},
		{"1024 px, dark", 626, &darkTheme},
		{"1024 px, presentation", 626, &presentTheme},
	}, withPhones...)
	runs := map[string]func() *view{
		// TestBurstDuringRun's run (tests/), simulated.
		"10 workers": func() *view {
			return queryView(t, "workers=10&jobs=8&limiter=bucket&rate=10&burst=10&latency=50ms&strategy=full&base=200ms&cap=1s&attempts=50&ra_honour=on")
		},
	}
	for _, p := range []string{"full-jitter", "flood", "exponential", "retry-after", "open"} {
		runs[p] = func() *view { return simulatedView(t, p, "") }
	}
	stormy := map[string]bool{"full-jitter": true, "exponential": true}
	clear, short := 0, 0
	for run, newView := range runs {
		for at := 0 * time.Millisecond; at < 8*time.Second; at += 500 * time.Millisecond {
			v := newView()
			v.mu.Lock()
			v.m.serverEvent(&mock.Event{Type: "burst", At: v.m.start.Add(at), N: 20, Admitted: 1})
			v.mu.Unlock()
			eachBurstLabel(t, fmt.Sprintf("%s, burst at %v", run, at), v, sizes, func(name string, _ *layout, marks []drawnMark, lb drawnLabel) {
				covered := 0
				for _, mk := range marks {
					if (mk.what == "arrival" || mk.what == "bar") && lb.r.shrink(0.5).overlaps(mk.r) {
						covered++
					}
				}
				switch {
				case covered == 0:
					clear++
				case stormy[run] && lb.text == "×20":
					short++
				default:
					t.Errorf("%s: %q %v covers %d arrivals or bars", name, lb.text, lb.r, covered)
				}
			})
		}
	}
	t.Logf("%d labels clear, %d in a retry storm on arrivals", clear, short)
}

// eachBurstLabel paints v, its frame named name, at each of sizes and
// calls check with every label of its burst of 20 there ("burst ×20, 1
// admitted", in fewer words too), the frame's name ending in its size's;
// a frame with none is an error. TestBurstLabelHidesNoArrival and
// TestBurstLabelBesideItsLine each wrote this loop, in two files.
func eachBurstLabel(t *testing.T, name string, v *view, sizes []frameSize, check func(name string, l *layout, marks []drawnMark, lb drawnLabel)) {
	t.Helper()
	for _, sz := range sizes {
		name := name + ", " + sz.name
		o, l := paintView(v, sz)
		marks, labels := frameContent(o, &l)
		found := false
		for _, lb := range labels {
			if strings.Contains(lb.text, "×20") {
				found = true
				check(name, &l, marks, lb)
			}
		}
		if !found {
			t.Errorf("%s: the burst has no label", name)
		}
	}
}

// A burst's label lies beside its line, at every zoom: at the whole run's
// zoom, in a server panel dense with arrivals on both sides of the line,
// "burst ×20, 0 admitted" for a burst at 7.43 s was drawn at 22–28 s on
// the time axis (the nearest clear place, however far along the panel);
// zoomed in it was at 7.43 s.
func TestBurstLabelBesideItsLine(t *testing.T) {
	const burstAt = 7430 * time.Millisecond
	for _, preset := range []string{"full-jitter", "flood", "retry-after", "open"} {
		v := simulatedView(t, preset, "")
		v.mu.Lock()
		v.m.serverEvent(&mock.Event{Type: "burst", At: v.m.start.Add(burstAt), N: 20, Admitted: 0})
		whole := v.span(0)
		v.mu.Unlock()
		for _, zoom := range []struct {
			name       string
			from, span time.Duration
		}{{"whole run", 0, 0}, {"4 s around it", burstAt - 2*time.Second, 4 * time.Second}, {"1 s at its right", burstAt - 900*time.Millisecond, time.Second}} {
			if zoom.span >= whole {
				continue
			}
			v.mu.Lock()
			v.zoomFrom, v.zoomSpan = zoom.from, zoom.span
			v.mu.Unlock()
			eachBurstLabel(t, preset+", "+zoom.name, v, frameSizes, func(name string, l *layout, _ []drawnMark, lb drawnLabel) {
				// Its nearer side within a few pixels of the line (its plate, the text in it).
				x := math.Round(l.x(burstAt)) + 0.5
				if d := math.Max(lb.r.x-x, x-(lb.r.x+lb.r.w)); d > (burstReach+6)*l.scale {
					t.Errorf("%s: %q spans %.0f–%.0f px (%v–%v), %.0f px from its line at %.0f px (%v)", name, lb.text,
						lb.r.x, lb.r.x+lb.r.w, l.t(lb.r.x).Round(10*time.Millisecond), l.t(lb.r.x+lb.r.w).Round(10*time.Millisecond), d, x, burstAt)
				}
			})
		}
	}
}

// The "now" line a live run, a watch or a replay draws down the timeline
// is in the legend, for a run and for a watch, its swatch keyed to the
// canvas's line (web/app.css's --now, TestLegendColoursAreTheCanvas); a
// PNG's legend draws it as paintNow does, when the picture has it. It was
// the one line of the timeline the legend did not name (a review). It is
// listed always, as "server down" and "limit halved" are: the legend
// keeps its height as a run starts and ends.
func TestLegendNamesTheNowLine(t *testing.T) {
	for i, h := range legendHTML() {
		if !strings.Contains(h[1], `<span class="sw line now" aria-hidden="true"></span>now</li>`) {
			t.Errorf("legend %d (run, simulation, watch) names no now line: %s", i, h)
		}
	}
	type stroke struct {
		col       int
		width, dx float32
	}
	// strokes are the vertical lines o draws, with their stroke style.
	strokes := func(o *browser.Ops) map[float32]stroke {
		out := map[float32]stroke{}
		cur := stroke{}
		for _, op := range displayOps(o) {
			switch a := op.args; op.code {
			case 2:
				cur = stroke{int(a[0]), a[1], a[2]}
			case 5:
				if a[0] == a[2] {
					out[a[0]] = cur
				}
			}
		}
		return out
	}
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var run browser.Ops
	paintNow(&run, &l, frameInput{th: &normalTheme, running: true, now: 1200 * time.Millisecond})
	line, ok := strokes(&run)[float32(l.x(1200*time.Millisecond))]
	if !ok {
		t.Fatalf("no now line drawn: %v", strokes(&run))
	}
	var it legendItem
	for _, x := range legendPhases {
		if x.sample.kind == sampleNow {
			it = x
		}
	}
	var png browser.Ops
	paintSample(&png, &l, it.sample, 0, 20)
	got := strokes(&png)
	if len(got) != 1 {
		t.Fatalf("the PNG's sample of %q draws %v", it.label, got)
	}
	for _, s := range got {
		if s != line {
			t.Errorf("the PNG's sample of %q is stroked %+v, the now line %+v", it.label, s, line)
		}
	}
	if it.sample.drawn(m, &frameInput{}) || !it.sample.drawn(m, &frameInput{running: true}) {
		t.Errorf("the PNG's legend lists %q for a finished run, or not for one going on", it.label)
	}
}
