package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core"
)

// limits are the rates drawn across the histogram.
type limits struct {
	server      float64 // the endpoint's sustained limit, req/s (0: none or unknown)
	serverLabel string
	serverCfg   *core.LimiterConfig // the mock's limiter, for what it admits scaled (nil: unknown)
	client      float64             // the fleet bucket's rate (0: off)
}

func limitsOf(s *fleet.Scenario) limits {
	var l limits
	if s.Target == "" {
		c := s.Mock.LimiterConfig()
		l.server, l.serverLabel = serverLimit(c)
		l.serverCfg = &c
	}
	if s.Bucket {
		l.client = s.BucketRate
	}
	return l
}

// serverLimit is what limiter c admits over time, req/s, and its label
// (0, "": no limit).
func serverLimit(c core.LimiterConfig) (float64, string) {
	switch c.Kind {
	case core.LimitTokenBucket:
		return c.Rate, "server limit " + rateText(c.Rate) + " req/s (burst " + strconv.Itoa(c.Burst) + ")"
	case core.LimitFixedWindow, core.LimitSlidingWindow:
		if c.Window > 0 {
			return float64(c.Limit) / c.Window.Seconds(), "server limit " + strconv.Itoa(c.Limit) + " per " + human.Duration(c.Window)
		}
	}
	return 0, ""
}

// watchLimitLabel is the limit line's label in a watch of a shared room:
// the line is the watching page's own setting, and the room's limiter
// follows whichever device asked last (README), so when the room's
// requests carried another quota than this setting's, the label says so.
// A quota of this setting scaled by one of scales (Halve limit) is its own.
func watchLimitLabel(lim limits, quotas []int, scales []float64) string {
	if lim.serverLabel == "" || lim.serverCfg == nil {
		return lim.serverLabel
	}
	quota := func(c core.LimiterConfig) int {
		if c.Kind == core.LimitTokenBucket {
			return c.Burst
		}
		return c.Limit
	}
	own := []int{quota(*lim.serverCfg)}
	for _, f := range scales {
		own = append(own, quota(lim.serverCfg.Scaled(f)))
	}
	for _, q := range quotas {
		if !slices.Contains(own, q) {
			return lim.serverLabel + " as set here; devices asked for others"
		}
	}
	return lim.serverLabel
}

// scaledServer is the server's limit while scaled by f (Halve limit), as
// the mock's limiter then admits it — a window's count is rounded, and at
// least 1 — and its label.
func (lim limits) scaledServer(f float64) (float64, string) {
	if lim.serverCfg == nil {
		return lim.server * f, lim.serverLabel + " ×" + trimFloat(f)
	}
	return serverLimit(lim.serverCfg.Scaled(f))
}

// paintHistogramPanel draws the histogram's bars (clipped to its panel), its
// y labels and its limit lines, and the labels of hist, the bursts
// paintServerLabels left to it.
func paintHistogramPanel(o *browser.Ops, l *layout, m *model, in frameInput, hist []histBurst) {
	o.Clip(l.left, l.histTop, l.right-l.left, l.histH+1)
	bars, outline, values := paintHistogram(o, l, m, in)
	marks := paintBursts(o, l, m, true)
	o.Restore()
	// The cut bars' values, outside the clip: the first or last bar's,
	// wider than its bar, may reach past the plot's edge.
	for _, v := range values {
		o.FillStyle(colPanel)
		o.Rect(v.r.x, v.r.y, v.r.w, v.r.h)
		o.FillStyle(v.col)
		o.Text(v.text, v.r.x+2, v.r.y+v.r.h/2, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
		marks = append(marks, v.r)
	}
	marks = paintHistogramAxis(o, l, m.limits, in, marks, bars, outline)
	paintHistBurstLabels(o, l, hist, marks, bars, outline)
}

// cutValue is a cut bar's value and where it goes.
type cutValue struct {
	text string
	r    rect
	col  int // the bar's value: colText; the baseline's: colBase
}

// cutRatio is how far above the scale the rest of the bars would set a
// peak must reach to be cut: drawn whole, it would squash them to under
// half the histogram's height.
const cutRatio = 2

// histogramScale is the top of the histogram's y axis, in req/s: a round
// number above the drawn limits and most bars. Bars above it (the first
// wave, a herd's spike) are cut at the top and labelled with their value,
// so one spike does not flatten the limit line into the floor. When every
// bar stays under a quarter of the limits, the scale follows the bars
// instead (the limit lines are then marked as off the scale), or a run far
// below its limit would draw bars too thin to see; when they stay under
// the limits, it goes half as high again as the highest (the fleet bucket
// preset's bars of 8 used a fifth of a scale of 40, its two lines and
// their labels crowded at the foot of a phone's histogram). A peak less than
// cutRatio times that top is not cut: the scale reaches it (four bins of
// 20, 40, 10 and 5 req/s against an unknown limit cut the 40 at 25).
func histogramScale(rates []float64, lim limits, per float64) float64 {
	var nz []float64
	for _, r := range rates {
		if r > 0 {
			nz = append(nz, r)
		}
	}
	top := math.Max(lim.server, lim.client) * 4
	if len(nz) > 0 {
		// Sorted by sortStable, not sort.Float64s: its instantiation of
		// slices.Sort for float64 cost app.wasm 14 KB of code.
		ix := make([]int, len(nz))
		for i := range ix {
			ix[i] = i
		}
		sortStable(ix, func(i, j int) bool { return nz[i] < nz[j] })
		sorted := make([]float64, len(nz))
		for k, i := range ix {
			sorted[k] = nz[i]
		}
		nz = sorted
		// A rough 90th percentile, for the scale only: no number shown is
		// read from it (those are fleet.Stats', by nearest rank).
		p90, peak := nz[int(float64(len(nz)-1)*0.9)], nz[len(nz)-1]
		top = math.Max(top, p90*1.1)
		switch highest := math.Max(lim.server, lim.client); {
		case peak*4 < highest:
			top = peak * 1.5
		case peak <= highest:
			top = highest * 1.5
		}
		if top <= 0 || peak <= top*cutRatio {
			top = max(top, peak)
		}
	}
	if top <= 0 {
		return 10
	}
	top *= per // round in the unit it is written in (layout.ratePer)
	mag := math.Pow(10, math.Floor(math.Log10(top)))
	for _, f := range scaleSteps {
		if f*mag >= top*0.999 {
			return f * mag / per
		}
	}
	return 10 * mag / per
}

// paintHistogram draws the bars and the baseline's outline, and returns
// where they are, what the labels drawn over the histogram must leave in
// sight (the bars, the outline), and the values of the bars
// it cut, to write on them.
func paintHistogram(o *browser.Ops, l *layout, m *model, in frameInput) (bars, outline []rect, values []cutValue) {
	s := l.scale
	n := l.bins()
	// The bins in view, and the one before them (is the first in view a
	// peak?): zoomed in at the end of a run lasting days, counting every
	// bin from the start took hundreds of MB at each frame. rates[i] is
	// bin first+i.
	lo := min(int(l.from/l.slice), n)
	first := max(0, lo-1)
	bins := m.histogram(l.slice, first, n)
	perSec := float64(time.Second) / float64(l.slice)
	rates := make([]float64, len(bins))
	for i := range bins {
		tot := 0
		for _, c := range bins[i] {
			tot += c
		}
		rates[i] = float64(tot) * perSec
	}
	var baseRates []float64
	if in.base != nil {
		baseRates = in.base.rates(l.slice, first, n)
	}
	// The scale fits the bins in view (zoomed in, those left of it are clipped).
	top := histogramScale(append(rates[lo-first:len(rates):len(rates)], baseRates[min(lo-first, len(baseRates)):]...), in.lim, l.ratePer)
	bw := l.x(l.slice) - l.x(0)
	gap := barGap(bw)
	top, values = roomForCutValues(l, bins, rates, baseRates, first, lo, top, bw, gap)
	l.histMax = top
	y := histY(l, top)
	// Stacked bars, one path per class, bottom up in a fixed order; a bar
	// cut at the top, its lower classes at their rates and what runs off
	// the scale to the top (cutHeights).
	order := histOrder
	heights := make([][fleet.NumClasses]float64, len(bins))
	for i := range bins {
		heights[i] = cutHeights(bins[i], order, perSec, top)
	}
	stack := make([]float64, len(bins)) // each bar's height so far
	for _, c := range order {
		cnt := 0
		o.FillStyle(classColour[c])
		o.BeginPath()
		for i := range bins {
			v := heights[i][c]
			if v == 0 {
				continue
			}
			y1 := y(stack[i] + v)
			y0 := y(stack[i])
			o.PathRect(l.x(time.Duration(first+i)*l.slice), y1, bw-gap, y0-y1)
			stack[i] += v
			cnt++
		}
		if cnt > 0 {
			o.FillPath()
			if classPattern[c] != patSolid {
				o.ClipPath()
				hatchClass(o, c, l.left, l.histTop, l.right-l.left, l.histH, s)
				o.Restore()
			}
		}
	}
	for i, r := range rates {
		if r > 0 && first+i >= lo {
			y1 := y(r)
			bars = append(bars, rect{l.x(time.Duration(first+i) * l.slice), y1, bw - gap, l.histTop + l.histH - y1})
		}
	}
	// Bars cut at the top: a break mark, and under it (roomForCutValues
	// placed it) their value in the break, on the bar (else shifted along
	// it, or rows lower) where it covers no other value, no bar that is
	// not cut and no boundary between a cut bar's classes: the part of a
	// cut bar that runs off the scale, one colour, says nothing but that
	// it goes on.
	outline = paintBaseline(o, l, baseRates, first, y)
	for i, r := range rates {
		if r > top && first+i >= lo {
			x := l.x(time.Duration(first+i) * l.slice)
			o.FillStyle(colPanel)
			o.Rect(x-1, l.histTop+5*s, bw+1, 3*s)
		}
	}
	return bars, outline, values
}

// histY is the y of a rate on l's histogram whose scale's top is top
// (rates above it at the top).
func histY(l *layout, top float64) func(rate float64) float64 {
	return func(rate float64) float64 { return l.histTop + l.histH - math.Min(rate, top)/top*l.histH }
}

// placeAllCutValues places the values of the bars cut at top (bins,
// rates, as cutObstacles has them) and then those of the baseline's bins
// cut there (baseRates[i]: bin first+i; outline, its outline as
// paintBaseline draws it on that scale), each clear of the bars not cut,
// the outline and the values before it. Where the baseline runs along
// the top, off the scale, its value, in its colour, is said as a cut
// bar's: it may lie on the outline's steps up to the top and down from it
// at the bin's edges, as a cut bar's on the part that runs off the scale
// (wider than a narrow bin, it could lie nowhere else), but on its own
// bin only: beside it, over the next bin, "78" read as that bin's, where
// the outline was at 52 (a review). A value with no place is left out
// (roomForCutValues raises the scale until none is).
func placeAllCutValues(l *layout, outline []rect, bins [][fleet.NumClasses]int, rates, baseRates []float64, first, lo int, top, bw, gap float64) (run, base []cutValue) {
	taken := append(slices.Clone(outline), cutObstacles(l, bins, rates, first, lo, top, bw-gap)...) // what the values keep clear of, and the values placed
	run, taken = placeCutValues(l, taken, bins, rates, first, lo, top, bw)
	for i, r := range baseRates {
		if r <= top || first+i < lo {
			continue
		}
		x0, x1 := l.x(time.Duration(first+i)*l.slice), l.x(time.Duration(first+i+1)*l.slice)
		obs := slices.DeleteFunc(slices.Clone(taken), func(q rect) bool {
			mid := q.x + q.w/2
			return q.h > q.w && slices.Contains(outline, q) && (math.Abs(mid-x0) < 0.5 || math.Abs(mid-x1) < 0.5)
		})
		if v, ok := placeCutValue(l, obs, r, "", x0, bw, colBase, false); ok {
			base = append(base, v)
			taken = append(taken, v.keep(l.scale))
		}
	}
	return run, base
}

// cutObstacles are what the values of l's cut bars keep clear of, the
// scale's top being top: every bar in view that is not cut (bins[i], of
// rate rates[i], is bin first+i; those before bin lo are out of view), the
// part of a cut bar with boundaries between its classes (cutLow), and the
// y axis' labels, by a few pixels (a value half past the plot's left edge
// crowded "3000"). w is a bar's drawn width.
func cutObstacles(l *layout, bins [][fleet.NumClasses]int, rates []float64, first, lo int, top, w float64) []rect {
	s := l.scale
	var out []rect
	for i, r := range rates {
		if r <= 0 || first+i < lo {
			continue
		}
		low := r // the height under which the bar has boundaries
		if r > top {
			low = cutLow(bins[i], histOrder, float64(time.Second)/float64(l.slice), top)
		}
		if low > 0 {
			y1 := l.histTop + l.histH - math.Min(low, top)/top*l.histH
			out = append(out, rect{l.x(time.Duration(first+i) * l.slice), y1, w, l.histTop + l.histH - y1})
		}
	}
	for _, b := range histAxisBoxes(l, top) {
		out = append(out, rect{b.x - 3*s, b.y - 3*s, b.w + 6*s, b.h + 6*s})
	}
	return out
}

// barGap is the gap after each bar of the histogram, its bins bw px wide.
func barGap(bw float64) float64 {
	if bw > 4 {
		return 1
	}
	return 0
}

// placeCutValues places the values of the bars of rates cut at top (as
// cutObstacles has them), left to right, each clear of taken, of the
// values before it and of the other cut bars (placeCutValue), and returns
// them and taken with them added. A value with no place is left out.
// Over its neighbour, cut too, "192, 90% rejected" read as either bar's,
// and pushed the neighbour's own value a row lower (a review): where the
// whole value has no room on its bar, it says the number alone.
func placeCutValues(l *layout, taken []rect, bins [][fleet.NumClasses]int, rates []float64, first, lo int, top, bw float64) (values []cutValue, _ []rect) {
	var cut []rect // the cut bars, whole
	for i, r := range rates {
		if r > top && first+i >= lo {
			cut = append(cut, rect{l.x(time.Duration(first+i) * l.slice), l.histTop, bw - barGap(bw), l.histH})
		}
	}
	k := 0 // the cut bar's index in cut
	for i, r := range rates {
		if r <= top || first+i < lo {
			continue
		}
		tot := 0
		for _, n := range bins[i] {
			tot += n
		}
		x := l.x(time.Duration(first+i) * l.slice)
		obs := append(slices.Clone(taken), cut[:k]...)
		obs = append(obs, cut[k+1:]...)
		k++
		if v, ok := placeCutValue(l, obs, r, rejectedShare(bins[i][fleet.ClassLimited], tot), x, bw, colText, true); ok {
			values = append(values, v)
			taken = append(taken, v.keep(l.scale))
		}
	}
	return values, taken
}

// roomForCutValues is the scale's top for the histogram of rates (as
// cutObstacles has them) and of the baseline's baseRates (bin first+i,
// as rates) from top, raised where a cut bar's value or a cut baseline
// bin's has no place (placeAllCutValues), a step of histogramScale's at a
// time, up to maxScaleSteps: the first bar's value, wider than its bar
// and kept inside the plot (cutValueInset), lies over the next bars, and
// where they reached up to it the value had no place (full jitter's "194"
// on a phone, next to a bar of 58 req/s on a scale of 60: the scale is
// 80); so had the baseline's "170" over a live run's first bar of 58
// (it was left out, a review). bw and gap are a bar's width and the gap
// after it. Where a value has no place even then, nothing is cut: the
// scale reaches the highest bar or baseline bin in view (two cut bars
// side by side on a 320 px phone, 1,004 and 891 req/s on a scale of 800,
// were drawn cut with no value, the height of neither said). values are
// the values it placed on the scale it returns, the bars' then the
// baseline's, for paintHistogram to draw (which placed them all again,
// the same, at each frame).
func roomForCutValues(l *layout, bins [][fleet.NumClasses]int, rates, baseRates []float64, first, lo int, top, bw, gap float64) (_ float64, values []cutValue) {
	cut := func(rates []float64) (n int) {
		for i, r := range rates {
			if r > top && first+i >= lo {
				n++
			}
		}
		return n
	}
	for step := 0; ; step++ {
		want := cut(rates) + cut(baseRates)
		if want == 0 {
			return top, nil
		}
		outline := baselineOutline(l, baseRates, first, histY(l, top))
		run, base := placeAllCutValues(l, outline, bins, rates, baseRates, first, lo, top, bw, gap)
		if len(run)+len(base) == want {
			return top, append(run, base...)
		}
		if step == maxScaleSteps {
			break
		}
		top = nextScale(top, l.ratePer)
	}
	for _, rates := range [][]float64{rates, baseRates} {
		for i, r := range rates {
			for first+i >= lo && r > top {
				top = nextScale(top, l.ratePer)
			}
		}
	}
	return top, nil // nothing cut
}

// maxScaleSteps is how many steps roomForCutValues raises a scale by at most.
const maxScaleSteps = 3

// scaleSteps are the tops histogramScale rounds a scale to, times a power
// of ten.
var scaleSteps = []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}

// nextScale is the top of the scale after top, in histogramScale's steps
// (top and the result in req/s, rounded in the unit of per seconds).
func nextScale(top, per float64) float64 {
	t := top * per
	mag := math.Pow(10, math.Floor(math.Log10(t)))
	for _, f := range scaleSteps {
		if f*mag > t*1.001 {
			return f * mag / per
		}
	}
	return 10 * mag / per
}

// histOrder is the order the histogram stacks its classes in, bottom up.
var histOrder = []fleet.Class{fleet.ClassOK, fleet.ClassLimited, fleet.ClassFailed, fleet.ClassTimeout, fleet.ClassAborted, fleet.ClassPending}

// cutTrue is how much of the scale a cut bar's classes from the bottom
// may fill at their true rates (cutHeights), leaving the rest of the bar
// to the classes that run off the scale.
const cutTrue = 0.75

// cutHeights is how high each class of a bar (bin, its classes' counts,
// at perSec) is drawn on the scale whose top is top, stacked in order: at
// their true rates for a bar under the top; for a bar cut at the top, the
// classes from the bottom at their true rates up to cutTrue of the scale
// (the class that reaches it cut there, where classes follow it), and the
// rest, which runs off it, sharing what is left in proportion to their
// counts. So a class is never drawn lower for counting more. (Every class
// scaled alike to the top drew a first wave's 19 successes as 5.9 req/s,
// under a limit line of 10 that they had passed twice over: a review.
// Stacked as measured to the top, a wave's 429s were not drawn at all.)
func cutHeights(bin [fleet.NumClasses]int, order []fleet.Class, perSec, top float64) (h [fleet.NumClasses]float64) {
	total := 0
	for _, c := range order {
		total += bin[c]
	}
	if float64(total)*perSec <= top {
		for _, c := range order {
			h[c] = float64(bin[c]) * perSec
		}
		return h
	}
	under, k, counted := 0.0, 0, 0
	for ; k < len(order); k++ {
		c := order[k]
		r := float64(bin[c]) * perSec
		counted += bin[c]
		if under+r <= cutTrue*top {
			h[c], under = r, under+r
			continue
		}
		if counted == total { // the last class: to the top
			h[c] = top - under
			return h
		}
		h[c], under = cutTrue*top-under, cutTrue*top
		k++
		break
	}
	rest := 0
	for _, c := range order[k:] {
		rest += bin[c]
	}
	for _, c := range order[k:] {
		h[c] = (top - under) * float64(bin[c]) / float64(max(rest, 1))
	}
	return h
}

// cutLow is the height, on the scale whose top is top, under the topmost
// class of a bar cut at the top (bin, at perSec), as cutHeights draws it:
// 0 for a bar of one class.
func cutLow(bin [fleet.NumClasses]int, order []fleet.Class, perSec, top float64) float64 {
	last := -1
	for k, c := range order {
		if bin[c] > 0 {
			last = k
		}
	}
	h := cutHeights(bin, order, perSec, top)
	low := 0.0
	for _, c := range order[:max(last, 0)] {
		low += h[c]
	}
	return low
}

// valueGap is the least space between two cut bars' values side by side,
// CSS px, plates included: closer, "19029" and "3116" read as one number.
const valueGap = 8

// keep is what the next values keep clear of: v's plate and valueGap on
// either side of it.
func (v cutValue) keep(s float64) rect {
	return rect{v.r.x - valueGap*s, v.r.y, v.r.w + 2*valueGap*s, v.r.h}
}

// rejectedShare is what a cut bar's value adds for the n rejected of its
// tot requests: ", 40% rejected" ("<1%" for a few), "" for none. The bar
// drawn to the top shows the classes' shares, not their rates on the
// scale: the value says the one the story turns on.
func rejectedShare(n, tot int) string {
	if n <= 0 || tot <= 0 {
		return ""
	}
	return ", " + wholePercent(n, tot) + " rejected"
}

// placeCutValue finds where the value rate of a bin cut at the top, drawn
// from x, bw px wide, goes: under the break, on the bin (else shifted
// along it, or rows lower), clear of taken; with its rejected share
// (rejectedShare) after it where that has such a place, else without; in
// fewer digits ("19k") where the whole number has no such place, and
// always from 10,000 on, as the cards write counts; and
// where none of these has a place on the bin, with besideToo, beside it,
// touching its right edge (else its left) from the same rows. ok is false
// (no value) where none has.
//
// A bin is taken (cutObstacles) under its topmost class: the value must
// not hide where its classes meet. When that class is a band thinner than
// a value under the break (35 successes and 5 429s: 16 px of vermillion),
// the whole bin is taken there, and no scale makes it thicker (a cut bar
// shows its classes' shares), so the value goes beside it.
func placeCutValue(l *layout, taken []rect, rate float64, share string, x, bw float64, col int, besideToo bool) (v cutValue, ok bool) {
	texts := []string{rateText(rate * l.ratePer), shortRate(rate * l.ratePer)}
	if r := rate * l.ratePer; r >= 999.5 && r < 9999.5 {
		// With its thousands' comma, as a card writes it: "7593, 99%
		// rejected" stood under a card's "7,593" (a review).
		texts[0] = thousands(int(math.Round(r)))
	}
	if rate*l.ratePer >= 9999.5 {
		// In three figures from 10,000 on, as the cards write counts
		// (shortFloat: "12.1k"): "37978, 99% rejected" stood beside the
		// next bar's "10k" and a card's "38k" (a review).
		texts = []string{shortFloat(rate * l.ratePer)}
	}
	if share != "" {
		texts = append([]string{texts[0] + share}, texts...)
	}
	inset := cutValueInset * l.scale
	for _, beside := range []bool{false, true} {
		if beside && !besideToo {
			break
		}
		for k, text := range texts {
			pr := plateRect(l, text, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
			w, h := pr.w, pr.h
			right := l.right - w/2        // at most half of it past the plot's right edge
			rows := l.histTop + l.histH/3 // where it reads as its bar's top
			if share != "" && k == 0 {
				// With its share only under the break and inside the plot:
				// the number alone goes where that does not fit.
				right = l.right - w
				rows = l.histTop + 8*l.scale + h + 1
			}
			// Where it may go, each as [lo, hi, preferred] left edges.
			var spans [][3]float64
			if !beside {
				// Over its bar by at least half of the narrower of the
				// two, and inside the plot at its left, cutValueInset px
				// from its edge: half past it, the first bar's value ("194"
				// on a phone, "7593" in a 2,000-worker simulation)
				// straddled the plot's border, over the y axis' labels.
				// The first bar's value, wider than the bar, may overhang
				// it on the right by more than half of it.
				ov := math.Min(w, bw) / 2
				xlo, xhi := math.Max(l.left+inset, x+ov-w), math.Min(right, x+bw-ov)
				xhi = math.Max(xhi, math.Min(xlo, x+bw))
				spans = append(spans, [3]float64{xlo, xhi, x + bw/2 - w/2})
			} else {
				// Its plate besideGap px from the bar's edge, inside the
				// plot: on the right first, where the first bar's value
				// goes.
				gap := besideGap * l.scale
				for _, px := range []float64{x + bw + gap, x - gap - w} {
					if px >= l.left+inset && px+w <= l.right {
						spans = append(spans, [3]float64{px, px, px})
					}
				}
			}
			for t := l.histTop + 8*l.scale; t+h < rows; t += h + 1 {
				for _, sp := range spans {
					if px, ok := clearX(taken, t, h, w, sp[0], sp[1], sp[2], 1); ok {
						return cutValue{text, rect{px, t, w, h}, col}, true
					}
				}
			}
		}
	}
	return cutValue{}, false
}

// besideGap is how far a cut bar's value placed beside its bar keeps from
// the bar's edge, CSS px at scale 1.
const besideGap = 2

// cutValueInset is how far a cut bar's value (its plate) keeps inside the
// plot's left edge, CSS px at scale 1.
const cutValueInset = 3

// shortRate is a cut bar's value in fewer digits: 19029 is "19k", 5106
// "5.1k"; under 1,000 as trimFloat writes it, rounded.
func shortRate(r float64) string {
	switch {
	case r >= 9999.5:
		return strconv.FormatFloat(math.Round(r/1000), 'f', -1, 64) + "k"
	case r >= 999.5:
		return strconv.FormatFloat(math.Round(r/100)/10, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(math.Round(r), 'f', -1, 64)
}

// histAxisBoxes are where the histogram's y labels are drawn
// (paintHistogramAxis, paintHistogramUnit) when its scale's top is top.
func histAxisBoxes(l *layout, top float64) []rect {
	var out []rect
	for _, v := range []float64{0, top / 2, top} {
		out = append(out, textBox(l, rateText(v*l.ratePer), l.left-6, l.histTop+l.histH-v/top*l.histH, fontSmall, browser.AlignRight))
	}
	return append(out, textBox(l, l.rateUnit, 6, l.histTop+l.histH/4, fontSmall, browser.AlignLeft), textBox(l, l.rateUnit2, 6, l.histTop+l.histH/4+12*l.scale, fontSmall, browser.AlignLeft))
}

// limitTexts are a limit line's label for a line at rate (req/s), then in
// fewer words (shorterLabels). In bins under a second (the histogram then
// counts requests per bin) it says what the line is in the bin too:
// "server limit 10 req/s = 2.5 per 250 ms (burst 10)", down to "limit
// 2.5 per 250 ms"; the rate alone, against bars of 109 requests in 250
// ms, would read as if the server took 10 of them.
func limitTexts(l *layout, label string, rate float64) []string {
	if l.ratePer >= 1 || label == "" {
		return shorterLabels(label)
	}
	per := " = " + rateText(rate*l.ratePer) + " per " + l.rateWord
	i := strings.IndexAny(label, "(;")
	if i < 0 {
		i = len(label)
	}
	scaled := strings.TrimSpace(label[:i]) + per
	if i < len(label) {
		scaled += " " + label[i:]
	}
	out := shorterLabels(scaled)
	// The fewest words: the name and the line in the bin.
	last := out[len(out)-1]
	for j := 1; j < len(last); j++ {
		if last[j] >= '0' && last[j] <= '9' {
			return append(out, last[:j]+per[3:])
		}
	}
	return out
}

// textBox is about where text drawn at (x, y), its middle at y, lies.
func textBox(l *layout, text string, x, y float64, font, align int) rect {
	w, h := fontWidth(text, font, l.scale), 11*l.scale
	if font != fontSmall {
		h = 12 * l.scale
	}
	switch align {
	case browser.AlignRight:
		x -= w
	case browser.AlignCenter:
		x -= w / 2
	}
	return rect{x, y - h/2, w, h}
}

// paintBaseline draws the baseline's requests per second (rates[i]: bin
// first+i) as a step outline over the bars, on a white underlay so it
// reads across any of them, and returns where its segments are.
func paintBaseline(o *browser.Ops, l *layout, rates []float64, first int, y func(float64) float64) (segs []rect) {
	steps := baselineSteps(l, rates, first, y)
	if len(steps) == 0 {
		return nil
	}
	for _, style := range [2]struct {
		col   int
		width float64
	}{{colBG, baselineCasing * l.scale}, {colBase, 2 * l.scale}} {
		o.StrokeStyle(style.col, style.width, 0)
		for _, g := range steps {
			o.Line(g[0], g[1], g[2], g[3])
		}
	}
	return outlineOf(l, steps)
}

// baselineCasing is the width of the white underlay under the baseline's
// outline, CSS px at scale 1.
const baselineCasing = 4

// baselineSteps are the lines of the baseline's outline (rates[i]: bin
// first+i), in order: each bin's level, and the step up or down to it
// from the bin before at its left edge.
func baselineSteps(l *layout, rates []float64, first int, y func(float64) float64) (steps [][4]float64) {
	prevY := math.NaN()
	for i, r := range rates {
		x0, x1 := l.x(time.Duration(first+i)*l.slice), l.x(time.Duration(first+i+1)*l.slice)
		yy := math.Round(y(r)) + 0.5
		if !math.IsNaN(prevY) && prevY != yy {
			steps = append(steps, [4]float64{x0, prevY, x0, yy})
		}
		steps = append(steps, [4]float64{x0, yy, x1, yy})
		prevY = yy
	}
	return steps
}

// baselineOutline is where the baseline's outline (baselineSteps) lies,
// its underlay's width.
func baselineOutline(l *layout, rates []float64, first int, y func(float64) float64) []rect {
	return outlineOf(l, baselineSteps(l, rates, first, y))
}

// outlineOf is where the baseline's steps lie, its underlay's width.
func outlineOf(l *layout, steps [][4]float64) (segs []rect) {
	for _, g := range steps {
		segs = append(segs, lineRect(g[0], g[1], g[2], g[3], baselineCasing*l.scale))
	}
	return segs
}

// strokeLimit draws the server limit's line along segs: dashes over a
// stroke of the page's background as wide, so that on every bar one of its
// two colours reads at 3:1 or more (TestLimitLineReadsOnEveryBar). A
// casing wider than the dashes did that too, but notched the bars it
// crossed: a bar of 11 against a limit of 10 read as one of 9 with a
// sliver above the line.
func strokeLimit(o *browser.Ops, s float64, segs ...[4]float64) {
	for _, style := range [2][3]float64{{colBG, limitWidth * s, 0}, {colLimit, limitWidth * s, 6 * s}} {
		o.StrokeStyle(int(style[0]), style[1], style[2])
		for _, g := range segs {
			o.Line(g[0], g[1], g[2], g[3])
		}
	}
}

// limitWidth is the limit line's width, at scale 1.
const limitWidth = 2

// lineRect is the rectangle a horizontal or vertical line of width w covers.
func lineRect(x1, y1, x2, y2, w float64) rect {
	return rect{math.Min(x1, x2) - w/2, math.Min(y1, y2) - w/2, math.Abs(x2-x1) + w, math.Abs(y2-y1) + w}
}

// paintHistogramUnit writes the histogram's unit in the y-label column, a
// quarter of the way down: between the top and middle ticks, so a long
// tick label (25000 in a 10,000-worker simulation) never runs into it.
func paintHistogramUnit(o *browser.Ops, l *layout) {
	o.Text(l.rateUnit, 6, l.histTop+l.histH/4, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
	if l.rateUnit2 != "" {
		o.Text(l.rateUnit2, 6, l.histTop+l.histH/4+12*l.scale, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
	}
}

// histTicks are the histogram axis' values, in req/s: its foot, middle
// and top. Counted (bins under a second), the middle is a whole number of
// requests, at its place: a top of 5 had "2.5" in the middle.
func histTicks(l *layout) []float64 {
	top := l.histMax
	mid := top / 2
	if l.slice < time.Second {
		mid = math.Floor(top*l.ratePer/2+1e-9) / l.ratePer
	}
	if mid <= 0 {
		return []float64{0, top}
	}
	return []float64{0, mid, top}
}

// paintHistogramAxis draws the histogram's y labels and its limit lines,
// over the bars and outside the clip. marks are where the bursts' lines
// and the cut bars' values are, bars and outline where the bars and the
// baseline's outline are (paintHistogram): the lines' labels are placed
// where they hide none of them, else on the bars, else on the outline
// too (placeLabel).
func paintHistogramAxis(o *browser.Ops, l *layout, squeezes []squeeze, in frameInput, marks, bars, outline []rect) []rect {
	s := l.scale
	top := l.histMax
	if top <= 0 {
		return marks
	}
	y := histY(l, top)
	o.FillStyle(colMuted)
	for _, v := range histTicks(l) {
		o.Text(rateText(v*l.ratePer), l.left-6, y(v), fontSmall, browser.AlignRight, browser.BaselineMiddle)
	}
	// A label in as many words as fit (shorterLabels); a limit above the
	// scale is drawn along the top, its label saying so (in fewer words,
	// or none, in a narrow plot).
	labelTexts := func(label string, rate float64) []string {
		short := limitTexts(l, label, rate)
		if rate <= top {
			return short
		}
		var out []string
		for _, t := range short {
			out = append(out, t+" — above this scale", t+" — off scale")
		}
		return append(out, short...)
	}
	// The lines first, then their labels, each placed clear of the bars,
	// the lines and the labels placed before it.
	var labels, scaled []lineLabel         // scaled: "limit ×0.5", placed last (optional)
	var limitSegs, bucketSegs [][4]float64 // each line's, which the other's label must not have between it and its line
	if in.lim.server > 0 {
		// The line steps down where the limit was scaled; the label names
		// the part at its right end.
		yy := math.Round(y(in.lim.server)) + 0.5
		endY, endFrom, endLabel, endRate := yy, l.left, in.lim.serverLabel, in.lim.server
		var segs [][4]float64
		line := func(x1, y1, x2, y2 float64) {
			segs = append(segs, [4]float64{x1, y1, x2, y2})
			marks = append(marks, lineRect(x1, y1, x2, y2, 3.5*s))
		}
		x := l.left
		for _, q := range squeezes {
			x1, x2 := math.Max(x, l.x(q.from)), math.Min(l.right, l.x(q.to))
			if x2 <= x1 {
				continue
			}
			rate, label := in.lim.scaledServer(q.scale)
			qy := math.Round(y(rate)) + 0.5
			line(x, yy, x1, yy)
			line(x1, yy, x1, qy)
			line(x1, qy, x2, qy)
			if x2 < l.right {
				line(x2, qy, x2, yy)
				endFrom = x2
			} else {
				endY, endFrom, endLabel, endRate = qy, x1, label, rate // the label at the right end names the limit there
			}
			scaled = append(scaled, lineLabel{texts: []string{"limit ×" + trimFloat(q.scale)}, y: qy, from: x1, to: x2, left: true, above: true, col: colLimit, optional: true})
			x = x2
		}
		if x < l.right {
			line(x, yy, l.right, yy)
		}
		strokeLimit(o, s, segs...)
		limitSegs = segs
		end := lineLabel{texts: limitTexts(l, endLabel, endRate), y: endY, from: endFrom, to: l.right, above: true, col: colLimit}
		if in.lim.server > top && endY == yy {
			end.texts, end.above = labelTexts(in.lim.serverLabel, in.lim.server), false
		}
		labels = append(labels, end)
	}
	if in.lim.client > 0 {
		// Its rate is where the bars it holds down end (the fleet bucket
		// preset): its dots lie on a casing that contrasts with them.
		yy := math.Round(y(in.lim.client)) + 0.5
		o.StrokeStyle(colBG, 3.5*s, 0)
		o.Line(l.left, yy, l.right, yy)
		o.StrokeStyle(colClient, 1.5*s, 2*s)
		o.Line(l.left, yy, l.right, yy)
		marks = append(marks, lineRect(l.left, yy, l.right, yy, 3.5*s))
		bucketSegs = [][4]float64{{l.left, yy, l.right, yy}}
		labels = append(labels, lineLabel{texts: labelTexts("fleet bucket "+rateText(in.lim.client)+" req/s", in.lim.client), y: yy, from: l.left, to: l.right, left: true, col: colClient})
	}
	for _, lb := range append(labels, scaled...) {
		lb.others = limitSegs
		if lb.col == colLimit {
			lb.others = bucketSegs
		}
		placeLabel(o, l, &marks, lb, bars, outline)
	}
	return marks
}
