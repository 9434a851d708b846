package ui

import (
	"math"
	"slices"
	"testing"
	"time"

	"retrylab/app/fleet"
)

// mixSecond is what a second of a made-up run sends: ok answered 200,
// limited 429, failed 500, the three interleaved over the second (or over
// its first within, when not 0: a wave sent at once).
type mixSecond struct {
	ok, limited, failed int
	within              time.Duration
}

// runOfMix is a finished run of 50 workers sending secs[i]'s requests in
// second i, each answered 50 ms later, the classes interleaved so that
// every bin of the second holds about the second's mix.
func runOfMix(secs []mixSecond) *model {
	m := newModel(t0, 50)
	n := 0
	for sec, s := range secs {
		tot := s.ok + s.limited + s.failed
		var statuses []int
		// Bresenham: each class's requests spread evenly over the second.
		var acc [3]int
		for range tot {
			best, bestGap := 0, -1.0
			for k, c := range [3]int{s.ok, s.limited, s.failed} {
				if c == 0 || acc[k] >= c {
					continue
				}
				if gap := float64(c-acc[k]) / float64(c); gap > bestGap {
					best, bestGap = k, gap
				}
			}
			acc[best]++
			statuses = append(statuses, [3]int{200, 429, 500}[best])
		}
		over := time.Second
		if s.within > 0 {
			over = s.within
		}
		for j, status := range statuses {
			ts := t0.Add(time.Duration(sec)*time.Second + time.Duration(j)*over/time.Duration(tot))
			n++
			sentAt(m, n, ts, status)
		}
	}
	m.finish(time.Duration(len(secs)) * time.Second)
	return m
}

// A bar cut at the top of the histogram shows its outcomes' mix: it is
// drawn to the top, its classes as cutHeights has them, so a first wave's
// 429s show on it. Stacked as measured, its
// successes alone reached past the scale and the rest of the bar, its
// 429s, was not drawn: `?workers=10&jobs=2`'s first bin, 17 of its 29
// requests rejected, was solid green.
func TestCutBarsShowTheirMix(t *testing.T) {
	s, _ := fleet.FromQuery(mustURL(t, "http://x/?limiter=bucket&rate=10&burst=10").Query())
	steady := slices.Repeat([]mixSecond{{10, 0, 0, 0}}, 30)
	cases := []struct {
		name   string
		secs   []mixSecond
		noLim  bool // a custom target: no server limit
		cutCls []fleet.Class
	}{
		// Successes alone run past the scale's 40 req/s.
		{"first wave", append([]mixSecond{{60, 90, 0, 0}}, steady...), false, []fleet.Class{fleet.ClassOK, fleet.ClassLimited}},
		{"first wave, three classes", append([]mixSecond{{50, 50, 50, 0}}, steady...), false, []fleet.Class{fleet.ClassOK, fleet.ClassLimited, fleet.ClassFailed}},
		{"rejected only", append([]mixSecond{{0, 150, 0, 0}}, steady...), false, []fleet.Class{fleet.ClassLimited}},
		{"a herd mid-run", append(append(slices.Clone(steady[:10]), mixSecond{80, 70, 0, 0}), steady[:10]...), false, []fleet.Class{fleet.ClassOK, fleet.ClassLimited}},
		// A short run with no limit (a custom target): its tallest bar cut.
		{"short run, no limit", []mixSecond{{30, 30, 0, 20 * time.Millisecond}, {15, 5, 0, 0}, {10, 10, 0, 0}}, true, []fleet.Class{fleet.ClassOK, fleet.ClassLimited}},
		{"short run, refused port", []mixSecond{{0, 0, 20, 0}, {40, 0, 40, 20 * time.Millisecond}, {0, 0, 25, 0}}, true, []fleet.Class{fleet.ClassOK, fleet.ClassFailed}},
	}
	for _, c := range cases {
		v := newView()
		v.scen, v.lim, v.m = s, limitsOf(&s), runOfMix(c.secs)
		if c.noLim {
			v.lim = limits{}
		}
		for _, sz := range frameSizes {
			name := c.name + ", " + sz.name
			o, l := paintView(v, sz)
			bins := v.m.histogram(l.slice, 0, l.bins())
			marks, _ := frameContent(o, &l)
			cuts := 0
			for _, cb := range cutBins(v.m, &l) {
				i, rate, b, tot := cb.i, cb.rate, bins[cb.i], cb.n
				cuts++
				x0, x1 := l.x(time.Duration(i)*l.slice), l.x(time.Duration(i+1)*l.slice)
				var height [fleet.NumClasses]float64
				topY := math.Inf(1)
				for _, mk := range marks {
					if mk.what != "bar" || mk.r.x+mk.r.w <= x0+0.01 || mk.r.x >= x1-0.01 {
						continue
					}
					for cl, col := range classColour {
						if col == mk.col {
							height[cl] += mk.r.h
						}
					}
					topY = math.Min(topY, mk.r.y)
				}
				if math.Abs(topY-l.histTop) > 0.5 {
					t.Errorf("%s: the cut bar at %v (%.0f req/s, the scale's top %v) reaches %.1f px, not the top %.1f px", name, time.Duration(i)*l.slice, rate, l.histMax, topY, l.histTop)
				}
				// Each class as cutHeights has it (TestCutHeights).
				hs := cutHeights(b, histOrder, float64(time.Second)/float64(l.slice), l.histMax)
				for cl := range fleet.NumClasses {
					want := hs[cl] / l.histMax * l.histH
					if math.Abs(height[cl]-want) > 0.5 {
						t.Errorf("%s: the cut bar at %v (%v): its %s part is %.1f px high, want %.1f px (%d of its %d requests)",
							name, time.Duration(i)*l.slice, b, fleet.Class(cl), height[cl], want, b[cl], tot)
					}
				}
				for _, cl := range c.cutCls {
					if b[cl] > 0 && height[cl] < 1 {
						t.Errorf("%s: the cut bar at %v holds %d %s and draws none", name, time.Duration(i)*l.slice, b[cl], fleet.Class(cl))
					}
				}
			}
			if cuts == 0 {
				t.Errorf("%s: no bar cut (the scale's top %v)", name, l.histMax)
			}
		}
	}
}

// cutHeights draws a bar under the top at its classes' rates; a bar cut
// at the top reaches it, its lower classes at their rates while they fill
// at most cutTrue of the scale, the rest sharing what is left; cutLow is
// where its topmost class begins.
func TestCutHeights(t *testing.T) {
	type bin = [fleet.NumClasses]int
	const ok, lim, tmo = fleet.ClassOK, fleet.ClassLimited, fleet.ClassTimeout
	for _, c := range []struct {
		name   string
		bin    bin
		perSec float64
		want   map[fleet.Class]float64
		low    float64
	}{
		{"under the top", bin{ok: 12, lim: 17}, 1, map[fleet.Class]float64{ok: 12, lim: 17}, 12},
		{"under the top, 4 bins a second", bin{ok: 3, lim: 4}, 4, map[fleet.Class]float64{ok: 12, lim: 16}, 12},
		// The review's first wave: 19 successes were drawn as 5.9.
		{"a first wave", bin{ok: 19, lim: 175}, 1, map[fleet.Class]float64{ok: 19, lim: 21}, 19},
		{"429s only", bin{lim: 129}, 1, map[fleet.Class]float64{lim: 40}, 0},
		{"successes only", bin{ok: 100}, 1, map[fleet.Class]float64{ok: 40}, 0},
		{"two classes under, one off the scale", bin{ok: 10, lim: 10, tmo: 60}, 1, map[fleet.Class]float64{ok: 10, lim: 10, tmo: 20}, 20},
		{"at three quarters", bin{ok: 30, lim: 50}, 1, map[fleet.Class]float64{ok: 30, lim: 10}, 30},
		// Past it the lower class is cut there, the rest above it.
		{"the lower class past three quarters", bin{ok: 35, lim: 105}, 1, map[fleet.Class]float64{ok: 30, lim: 10}, 30},
		{"the middle class past three quarters", bin{ok: 10, lim: 40, tmo: 30}, 1, map[fleet.Class]float64{ok: 10, lim: 20, tmo: 10}, 30},
		{"two classes past it", bin{ok: 40, lim: 30, tmo: 10}, 1, map[fleet.Class]float64{ok: 30, lim: 7.5, tmo: 2.5}, 37.5},
		{"empty", bin{}, 1, map[fleet.Class]float64{}, 0},
	} {
		got := cutHeights(c.bin, histOrder, c.perSec, 40)
		sum := 0.0
		for cl := range fleet.NumClasses {
			sum += got[cl]
			if math.Abs(got[cl]-c.want[fleet.Class(cl)]) > 1e-9 {
				t.Errorf("%s: class %v drawn %v high, want %v", c.name, fleet.Class(cl), got[cl], c.want[fleet.Class(cl)])
			}
		}
		tot := 0
		for _, n := range c.bin {
			tot += n
		}
		if float64(tot)*c.perSec > 40 && math.Abs(sum-40) > 1e-9 {
			t.Errorf("%s: a cut bar drawn %v high, not to the top", c.name, sum)
		}
		if got := cutLow(c.bin, histOrder, c.perSec, 40); math.Abs(got-c.low) > 1e-9 {
			t.Errorf("cutLow %s: %v, want %v", c.name, got, c.low)
		}
	}
	// More of a class is never drawn lower (a review: 31 successes under
	// 175 429s were drawn 6 high where 30 were 30).
	for _, under := range []int{0, 5} {
		prev := [fleet.NumClasses]float64{}
		for n := 0; n <= 200; n++ {
			h := cutHeights(bin{ok: under, lim: n, tmo: 175}, histOrder, 1, 40)
			if h[lim] < prev[lim]-1e-9 || h[ok] < prev[ok]-1e-9 {
				t.Errorf("%d successes, %d 429s, 175 timeouts: 429s drawn %v high, %v with one fewer", under, n, h[lim], prev[lim])
			}
			prev = h
		}
	}
	prevOK := 0.0
	for n := 0; n <= 200; n++ {
		if h := cutHeights(bin{ok: n, lim: 175}, histOrder, 1, 40); h[ok] < prevOK-1e-9 {
			t.Errorf("%d successes under 175 429s drawn %v high, %v with one fewer", n, h[ok], prevOK)
		} else {
			prevOK = h[ok]
		}
	}
}

// A cut bar's value says its rejected share where it has room: the bar
// drawn to the top shows its classes' shares, not their rates.
func TestRejectedShare(t *testing.T) {
	for _, c := range []struct {
		n, tot int
		want   string
	}{
		{17, 29, ", 59% rejected"}, {0, 29, ""}, {29, 29, ", 100% rejected"}, {999, 1000, ", 99% rejected"},
		{1, 1000, ", <1% rejected"}, {0, 0, ""},
	} {
		if got := rejectedShare(c.n, c.tot); got != c.want {
			t.Errorf("rejectedShare(%d, %d) = %q, want %q", c.n, c.tot, got, c.want)
		}
	}
}

// A cut bar's value, plate and all, lies inside the plot, a few pixels
// right of its left edge, clear of the y axis' labels, and every cut bar
// still says its value there: the first bar's value was allowed half past
// the plot's edge, and straddled its border over the y axis' labels ("194"
// on a phone in presentation mode; "7593" and "2087" stacked over "1500"
// and "750" in a 2,000-worker simulation). Where the bars next to it
// leave a value no room inside the plot, the scale rises a step
// (roomForCutValues). Where its bar leaves it no room (a thin band of
// 429s atop 35 successes), it goes beside the bar: it was left out.
func TestCutValuesStayInsideThePlot(t *testing.T) {
	runs := cutValueRuns(t)
	runs["2,000 workers simulated"] = queryView(t, "workers=2000&jobs=2")
	sizes := append(slices.Clone(frameSizes), frameSize{"presentation, phone 390 px", 348, &presentTheme})
	cuts := 0
	for name, v := range runs {
		for _, sz := range sizes {
			o, l := paintView(v, sz)
			_, labels := frameContent(o, &l)
			axis := histAxisBoxes(&l, l.histMax)
			var values []drawnLabel
			for _, lb := range labels {
				if isCutValue(lb.text) && lb.plate >= 0 {
					values = append(values, lb)
				}
			}
			for _, lb := range values {
				if min := l.left + 2*l.scale; lb.r.x < min {
					t.Errorf("%s, %s: the value %q %v starts at x %.1f, left of the plot's edge %v plus 2 px", name, sz.name, lb.text, lb.r, lb.r.x, l.left)
				}
				for _, b := range axis {
					if lb.r.overlaps(b) {
						t.Errorf("%s, %s: the value %q %v covers the y axis' label at %v", name, sz.name, lb.text, lb.r, b)
					}
				}
			}
			for _, c := range cutBins(v.m, &l) {
				cuts++
				_, said := saidValue(&l, values, c)
				if !said {
					t.Errorf("%s, %s: the bar at %v (%.0f req/s, the scale's top %v) is cut with no value", name, sz.name, time.Duration(c.i)*l.slice, c.rate, l.histMax)
				}
			}
		}
	}
	if cuts == 0 {
		t.Error("no run has a cut bar")
	}
}
