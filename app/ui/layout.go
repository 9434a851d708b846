package ui

import (
	"iter"
	"math"
	"strconv"
	"strings"
	"time"

	"retrylab/app/browser"
)

// layout places the timeline's panels on the canvas. Every panel shares one
// time axis: x(t) is the same function for the worker lanes, the histogram
// and the server's arrivals.
type layout struct {
	w, h            float64
	left, right     float64 // the plot's x range
	axisY           float64 // baseline of the top axis labels
	lanesTop, laneH float64 // laneH: a worker's lane
	sub             int     // rows per lane: one per job a worker has at once (an open workload), at most maxRows
	rowH            float64 // a row of a lane: laneH / sub
	histTop, histH  float64
	srvTop, srvH    float64
	bottom          float64 // bottom of the last panel
	workers         int
	from, span      time.Duration // the time shown: [from, from+span] (from > 0 when zoomed in)
	scale           float64
	markR           float64
	markMin         float64       // the theme's least mark radius where rows allow it (theme.markMin)
	slice           time.Duration // histogram bin width
	histMax         float64       // req/s at the top of the histogram
	// The unit the histogram's rates are written in: per second, or, in
	// bins of an hour or a day and more (a simulation over days or
	// centuries), per hour or per day, in which a rate takes a few digits:
	// per second, 37 requests in 169 years had the labels "0.0000015" and
	// "0.00000075", wider than their column; or, in bins under a second,
	// per bin, a bar being the requests in it. ratePer is it in seconds,
	// rateWord its name ("second", "250 ms"), rateUnit its label ("req/s",
	// "req per") and rateUnit2 the label's second line, under it ("",
	// "250 ms": the column is narrow).
	ratePer                       float64
	rateWord, rateUnit, rateUnit2 string
	srvRows                       int
	names                         []string   // a watch's lanes: one per device (model.devices); nil: worker lanes
	head                          []headLine // the text above the timeline (a PNG's)
	// A PNG's legend, under its head: each item where it is drawn, from
	// legendTop down, in rows of legendRowH.
	legend                []legendCell
	legendTop, legendRowH float64
	legendRows            int
	hint                  rect    // where paintFrame wrote the hint of an empty timeline ("Press Run (r)…"); zero: none
	px                    float64 // a device pixel, in CSS px (1 / the device pixel ratio); 0: 1
}

// lanesHeight is the height worker lanes get: up to 14 px each, about 440
// px in all, and at least 1 px up to 500 workers (the most a live run
// takes). A small fleet's lanes share smallLanesPx, up to maxLaneH each:
// one worker's lane was 14 px, its marks and waits squeezed into a strip
// of a canvas with room to spare; from 8 workers on the lanes are as
// before. A simulation's bigger fleet (up to 10,000) shares 500 px: lanes
// of less than a pixel, blending into a density picture of the fleet, so
// the canvas never grows taller than a 500-worker run's.
func lanesHeight(workers int, scale float64) (laneH float64) {
	const maxLanesPx = 500
	if workers > maxLanesPx {
		return maxLanesPx / float64(workers)
	}
	n := float64(max(1, workers))
	laneH = math.Max(1, math.Min(14*scale, 440/n))
	return math.Max(laneH, math.Min(maxLaneH, smallLanesPx/n)*scale)
}

// maxLaneH is the tallest a worker's lane (or a row of one) is drawn, CSS
// px at scale 1: one to three workers get it; smallLanesPx is what a
// small fleet's lanes share (4 workers: 27 px each, 7: 15 px).
const maxLaneH, smallLanesPx = 36, 108

// maxRows is the most rows a worker's lane splits into for its overlapping
// jobs; a worker's further jobs at once share them (row slot % sub).
const maxRows = 4

// laneRows is how many rows each of workers lanes gets for a model whose
// workers had up to jobs jobs at once: one per job up to maxRows, while
// the rows stay at least a pixel high (up to 500 in all).
func laneRows(workers, jobs int) int {
	return max(1, min(jobs, maxRows, 500/max(1, workers)))
}

func newLayout(width float64, workers int, span time.Duration, th *theme) layout {
	return newLayoutRows(width, workers, 1, span, th)
}

// minLayoutWidth is the narrowest the timeline is laid out, CSS px: below
// it the canvas is drawn this wide and squeezed into its element (and
// pointer positions would drift). A 320 px phone gives the timeline ~278
// px: it was drawn 320 wide, its text squeezed and clipped.
const minLayoutWidth = 240

// newLayoutRows is newLayout with each worker's lane split into sub rows
// (laneRows), each as high as a lane of a fleet of workers·sub workers.
func newLayoutRows(width float64, workers, sub int, span time.Duration, th *theme) layout {
	s := th.scale
	// A watch of a shared room has a lane per device heard from (0 at
	// first); names then labels them.
	l := layout{w: math.Max(width, minLayoutWidth), workers: workers, span: max(span, minZoomSpan), scale: s, markMin: th.markMin}
	l.left = math.Round(62 * s)
	l.right = l.w - 16
	l.sub = max(1, sub)
	l.rowH = lanesHeight(l.workers*l.sub, s)
	l.laneH = l.rowH * float64(l.sub)
	l.place(0)
	l.srvRows = max(1, int(l.srvH/(2*math.Max(2, 2.2*s)+1)))
	l.slice = histSlice(l.span, l.right-l.left)
	l.ratePer, l.rateWord, l.rateUnit = 1, "second", "req/s"
	if l.slice < time.Second {
		// A bin under a second is counted, not made a rate: 109 requests
		// in 250 ms drew a bar of 436 req/s in a run of 110 requests whose
		// peak card said 110. Its count is at most the most sent in any
		// 1 s (the peak card); the limits are scaled to the bin.
		w := secondsLabel(l.slice, l.slice, l.slice)
		l.ratePer, l.rateWord, l.rateUnit, l.rateUnit2 = l.slice.Seconds(), w, "req per", w
	} else if l.slice >= 24*time.Hour {
		l.ratePer, l.rateWord, l.rateUnit = 86400, "day", "req/day"
	} else if l.slice >= time.Hour {
		l.ratePer, l.rateWord, l.rateUnit = 3600, "hour", "req/h"
	}
	return l
}

// place puts the panels one under the other from top down, sizes the
// canvas to hold them and the marks to the lanes' rows (markRadius). The
// lanes, the histogram and the server panel start and end on whole device
// pixels (snap), as their frames, bars and hatching are drawn crisp:
// lanes of a fractional height (40 workers in presentation mode's fitted
// rows) put the histogram's top at 367.03 px, and its 429s' hatching
// blurred into no pixel of their colour.
func (l *layout) place(top float64) {
	s := l.scale
	l.markR = markRadius(l.rowH, s, l.markMin)
	l.axisY = top + 14*s
	l.lanesTop = l.snap(top + 26*s)
	l.histTop = l.snap(l.lanesBottom() + 28*s)
	l.histH = l.snap(130 * s)
	l.srvTop = l.histTop + l.histH + l.snap(28*s)
	l.srvH = l.snap(64 * s)
	l.bottom = l.srvTop + l.srvH
	l.h = l.bottom + axisRoom*s // the time axis under the last panel (web/app.css keeps the legend off it: --axis-room)
}

// snap is y on the nearest whole device pixel (px).
func (l *layout) snap(y float64) float64 {
	px := l.pixel()
	return math.Round(y/px) * px
}

// setPixelRatio places the panels on whole pixels of a canvas drawn at
// ratio device pixels to a CSS pixel (place): at 1.5 (a 150% zoom, as the
// README has a presenter set), a whole CSS pixel is half a device pixel
// off one every other time. Called before setHead or fitHeight.
func (l *layout) setPixelRatio(ratio float64) {
	if ratio > 0 && ratio != 1 {
		l.px = 1 / ratio
		l.place(0)
	}
}

// axisRoom is the height of the time axis under the last panel, CSS px at
// scale 1; web/app.css's --axis-room is it times the theme's scale, plus
// 2 (axisRoomCSS).
const axisRoom = 30

// axisRoomCSS is --axis-room for the canvas drawn with th where the
// person's font size grows it (fontZoom), "" where web/app.css's holds.
func axisRoomCSS(th *theme) string {
	if fontZoom() == 1 {
		return ""
	}
	return strconv.FormatFloat(math.Ceil(axisRoom*th.scale)+2, 'f', -1, 64) + "px"
}

// markRadius is the radius of an attempt's mark in rows rowH high at
// scale: up to 0.42 of a row, and, where the theme asks for marks of
// markMin at least (a projector's), up to 0.9 of one, over the neighbours'
// edges, as long as a row is more than about a pixel.
func markRadius(rowH, scale, markMin float64) float64 {
	r := math.Max(1.6, math.Min(5.5*scale, rowH*0.42))
	return math.Max(r, math.Min(markMin, rowH*0.9))
}

// minFitRow is the thinnest fitHeight makes a worker's lane, CSS px: as
// thin as the page draws 110 workers' lanes out of presentation mode,
// which still read as a fleet's picture (presentation mode's marks are
// bigger there: presentTheme's markMin).
const minFitRow = 4

// fitRow is the thinnest fitHeight makes a row of a lane split into sub
// rows (laneRows): the lane minFitRow high, its rows a pixel at least. Held
// at minFitRow a row, the open arrivals preset's 50 lanes of 2 rows were
// 400 px at 1280 × 720, and its histogram, the 429s the story is about,
// was below the screen with the lanes on it.
func fitRow(sub int) float64 { return math.Max(1, minFitRow/float64(max(1, sub))) }

// fitHeight shortens the lanes so that the whole canvas, lanes, histogram
// and server panel, is at most h px high: presentation mode at 1280 × 720
// drew 50 workers 868 px high, and a projector never showed the lanes
// with the histogram, under one crosshair. A row is made no thinner than
// fitRow (nor than it was): a bigger fleet's canvas stays taller, and
// scrolls. Lanes never grow.
func (l *layout) fitHeight(h float64) {
	rows := float64(l.workers * l.sub)
	if h <= 0 || rows == 0 || l.h <= h {
		return
	}
	fit := (h - (l.h - l.lanesH())) / rows
	row := math.Min(l.rowH, math.Max(fit, fitRow(l.sub)))
	if row >= l.rowH {
		return
	}
	l.rowH = row
	l.laneH = row * float64(l.sub)
	l.place(l.headHeight())
	// The panels' snap to whole pixels may add up to a pixel: the lanes
	// give it back, as long as they are not at their thinnest.
	if over := l.h - h; over > 0 && l.rowH > fitRow(l.sub) {
		l.rowH = math.Max(fitRow(l.sub), l.rowH-(over+l.pixel())/rows)
		l.laneH = l.rowH * float64(l.sub)
		l.place(l.headHeight())
	}
}

// pixel is a device pixel, in CSS px (px, or 1).
func (l *layout) pixel() float64 {
	if l.px <= 0 {
		return 1
	}
	return l.px
}

// pngHead is what a PNG says above its timeline: what ran (title), its
// key numbers (separated by numbersSep), and the link that reproduces it.
type pngHead struct {
	title, numbers string
	// base is the baseline's key numbers and what changed from it, for a
	// run drawn against one: the picture showed its outline, and this
	// run's numbers alone (a review).
	base, changed string
	link          string
}

// numbersSep separates a PNG's key numbers: a line breaks only there.
const numbersSep = " · "

// wrapItems joins items with sep into lines no wider than w in font, an
// item wider than w alone on its line.
func wrapItems(items []string, sep string, w float64, font int, scale float64) []string {
	var lines []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case fontWidth(line+sep+it, font, scale) <= w:
			line += sep + it
		default:
			lines = append(lines, line)
			line = it
		}
	}
	return append(lines, line)
}

// headLine is a line of it as drawn.
type headLine struct {
	text      string
	font, col int
}

// setHead puts h above the timeline, every line of it whole: the title and
// the numbers wrapped at spaces, the link after each '&' (and, a parameter
// wider than the canvas, anywhere), so that its lines joined are the link;
// then the legend's items, in as many rows as the width takes. The panels
// move down and the canvas grows to make room.
func (l *layout) setHead(h pngHead, legend []legendItem) {
	w := l.w - 2*headX
	l.head = nil
	add := func(lines []string, font, col int) {
		for _, t := range lines {
			if t != "" {
				l.head = append(l.head, headLine{t, font, col})
			}
		}
	}
	words := func(t string, font int) []string { // at spaces, and a word wider than w anywhere
		var out []string
		for _, ln := range wrapText(t, w, font, l.scale) {
			out = append(out, wrapLink(ln, w, font, l.scale)...)
		}
		return out
	}
	add(words(h.title, fontTitle), fontTitle, colText)
	add(wrapItems(strings.Split(h.numbers, numbersSep), numbersSep, w, fontLabel, l.scale), fontLabel, colText)
	if h.base != "" {
		add(wrapItems(strings.Split(h.base, numbersSep), numbersSep, w, fontLabel, l.scale), fontLabel, colMuted)
	}
	add(words(h.changed, fontLabel), fontLabel, colMuted)
	add(wrapLink(h.link, w, fontSmall, l.scale), fontSmall, colMuted)
	l.setLegend(legend)
	l.place(l.headHeight())
}

// legendCell is an item of a PNG's legend as laid out: the left edge of
// its sample, and the middle of its row.
type legendCell struct {
	item legendItem
	x, y float64
}

// legendSampleW is the width of a legend item's sample, CSS px at scale 1.
const legendSampleW = 20

// legendCellW is how wide item's cell is drawn: its sample, a gap, its label.
func (l *layout) legendCellW(it legendItem) float64 {
	return (legendSampleW+5)*l.scale + smallWidth(it.label, l.scale)
}

// setLegend lays items out under the head's lines, left to right in rows
// no wider than the head's.
func (l *layout) setLegend(items []legendItem) {
	s := l.scale
	l.legend, l.legendRows = nil, 0
	if len(items) == 0 {
		return
	}
	l.legendRowH = math.Max(l.headLineH(fontSmall), 14*s)
	l.legendTop = 8 * s
	for _, ln := range l.head {
		l.legendTop += l.headLineH(ln.font)
	}
	l.legendTop += 4 * s
	x, row := float64(headX), 0
	for _, it := range items {
		w := l.legendCellW(it)
		if x > headX && x+w > l.w-headX {
			x, row = headX, row+1
		}
		l.legend = append(l.legend, legendCell{it, x, l.legendTop + (float64(row)+0.5)*l.legendRowH})
		x += w + 14*s
	}
	l.legendRows = row + 1
}

// headX is the left margin of a PNG's head, CSS px.
const headX = 6

// headLineH is the height of a head's line in font.
func (l *layout) headLineH(font int) float64 {
	if font == fontSmall {
		return 15 * l.scale
	}
	return 18 * l.scale
}

// headHeight is how much the head takes above the timeline (0: none).
func (l *layout) headHeight() float64 {
	if len(l.head) == 0 && len(l.legend) == 0 {
		return 0
	}
	h := 8 * l.scale
	for _, ln := range l.head {
		h += l.headLineH(ln.font)
	}
	if len(l.legend) > 0 {
		h += 4*l.scale + float64(l.legendRows)*l.legendRowH
	}
	return h + 6*l.scale
}

func (l *layout) x(t time.Duration) float64 {
	return l.left + (l.right-l.left)*float64(t-l.from)/float64(l.span)
}

func (l *layout) t(x float64) time.Duration {
	return l.from + time.Duration((x-l.left)/(l.right-l.left)*float64(l.span))
}

// ticks are the grid's times: every step from the first multiple of step
// in view to the right edge.
func (l *layout) ticks(step time.Duration) []time.Duration {
	var out []time.Duration
	for t := (l.from + step - 1) / step * step; t <= l.from+l.span; t += step {
		out = append(out, t)
	}
	return out
}

// bins is how many histogram bins, counted from 0, reach the right edge.
func (l *layout) bins() int { return int((l.from+l.span)/l.slice) + 1 }

func (l *layout) laneY(w int) float64 { return l.lanesTop + (float64(w)+0.5)*l.laneH }

// lanesH is the height of all the worker lanes (a watch's: its devices'),
// from lanesTop down.
func (l *layout) lanesH() float64 { return l.laneH * float64(l.workers) }

// lanesBottom is where the lanes end, down the canvas.
func (l *layout) lanesBottom() float64 { return l.lanesTop + l.lanesH() }

// rowY is the middle of the row of worker w's lane that a job in slot
// draws in (the lane's middle when it is not split).
func (l *layout) rowY(w int, slot uint8) float64 {
	return l.lanesTop + float64(w)*l.laneH + (float64(int(slot)%l.sub)+0.5)*l.rowH
}

// rowTop is the top of that row.
func (l *layout) rowTop(w int, slot uint8) float64 {
	return l.lanesTop + float64(w)*l.laneH + float64(int(slot)%l.sub)*l.rowH
}

func (l *layout) srvY(seq int) float64 {
	row := seq % l.srvRows
	return l.srvTop + l.srvH*(float64(row)+0.5)/float64(l.srvRows)
}

// histSlice is the histogram's bin: a second for most runs, so the bars
// read as requests per second against a limit per second (the lanes show
// the finer structure); shorter for short runs, longer for long ones, and
// never narrower than 4 px.
func histSlice(span time.Duration, px float64) time.Duration {
	var want time.Duration
	switch {
	case span >= 5*time.Minute:
		want = 10 * time.Second
	case span >= 2*time.Minute:
		want = 5 * time.Second
	case span >= 8*time.Second:
		want = time.Second
	case span >= 4*time.Second:
		want = 500 * time.Millisecond
	case span >= time.Second:
		want = 250 * time.Millisecond
	default: // zoomed in on a finished run
		want = 50 * time.Millisecond
	}
	return max(want, niceStep(span, px/4, sliceSteps))
}

var tickSteps = []time.Duration{
	10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
	200 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second,
	10 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
	10 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour,
	12 * time.Hour, 24 * time.Hour,
}

var sliceSteps = []time.Duration{
	50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 250 * time.Millisecond,
	500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second,
	30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour,
	2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
}

// niceStep is the smallest step such that span/step intervals fit in n:
// one of niceSteps(steps).
func niceStep(span time.Duration, n float64, steps []time.Duration) time.Duration {
	if n < 1 {
		n = 1
	}
	for s := range niceSteps(steps) {
		if float64(span)/float64(s) <= n {
			return s
		}
	}
	return steps[len(steps)-1]
}

// niceSteps yields steps, then past the last 2, 5, 10, 20, … times it (a
// simulation can last days: 1,000 attempts an hour apart), as long as a
// time.Duration holds them.
func niceSteps(steps []time.Duration) iter.Seq[time.Duration] {
	return func(yield func(time.Duration) bool) {
		for _, s := range steps {
			if !yield(s) {
				return
			}
		}
		last := steps[len(steps)-1]
		for s := last; s < math.MaxInt64/10; s *= 10 {
			for _, f := range [...]time.Duration{2, 5, 10} {
				if !yield(s * f) {
					return
				}
			}
		}
	}
}

// secondsLabel writes a time offset as an axis whose last time is end
// does, in one unit along the whole axis: milliseconds when all of it is
// under a second ("0 ms", "200 ms"), hours or days when its step is whole
// ones ("10000 d", not "864000000 s", in a simulation over centuries),
// otherwise seconds with the decimals its step needs ("0.0 s", "0.5 s",
// "1.0 s"). An axis mixing them read "0.0 s, 200 ms, 400 ms" (a short run)
// or "0.0 s, 500 ms, 1.0 s".
func secondsLabel(t, step, end time.Duration) string {
	switch {
	case end < time.Second:
		return strconv.FormatInt(t.Milliseconds(), 10) + " ms"
	case step%time.Hour == 0:
		u, name := time.Hour, " h"
		if step%(24*time.Hour) == 0 {
			u, name = 24*time.Hour, " d"
		}
		return strconv.FormatInt(int64(t/u), 10) + name
	}
	prec := 0
	if step%time.Second != 0 {
		prec = 1
		if step%(100*time.Millisecond) != 0 {
			prec = 2
		}
	}
	return strconv.FormatFloat(t.Seconds(), 'f', prec, 64) + " s"
}

// axisLabel is a label of the time axis, at a grid line.
type axisLabel struct {
	text  string
	x     float64 // the grid line's
	align int     // browser.AlignLeft at the left edge, AlignRight at the right, else centred
}

// tickStep is the time between the grid's lines, each with its label on
// the time axis: about 90 px × scale apart at most.
func (l *layout) tickStep() time.Duration {
	return niceStep(l.span, (l.right-l.left)/(90*l.scale), tickSteps)
}

// axisLabels are the time axis' labels, one per grid line: the same above
// the lanes (and on the sticky axis) and under the last panel.
func (l *layout) axisLabels() []axisLabel {
	s := l.scale
	step := l.tickStep()
	var labs []axisLabel
	for _, t := range l.ticks(step) {
		x := l.x(t)
		align := browser.AlignCenter
		if x < l.left+20*s {
			align = browser.AlignLeft
		} else if l.x(t+step) > l.right+1 && x > l.right-20*s {
			align = browser.AlignRight
		}
		labs = append(labs, axisLabel{secondsLabel(t, step, l.from+l.span), x, align})
	}
	return labs
}

// box is where a's text is drawn on the line whose middle is y.
func (a axisLabel) box(l *layout, y float64) rect {
	w := fontWidth(a.text, fontSmall, l.scale)
	h := 11 * l.scale
	return rect{a.x - w*float64(a.align)/2, y - h/2, w, h}
}

// bottomAxisY is the middle of the time labels under the last panel.
func (l *layout) bottomAxisY() float64 { return l.bottom + 12*l.scale }

// lanesTitle is the lanes' title, in the top axis row: "workers", or a
// watch's "devices"; "" with no lanes.
func (l *layout) lanesTitle() string {
	switch {
	case l.workers == 0:
		return ""
	case l.names != nil:
		return "devices"
	}
	return "workers"
}

// paintTopAxis draws the row above the lanes: the time axis' labels, and
// the lanes' title at its left (the labels it would touch left out). The
// canvas has it at its top (paintFrame), and the sticky axis
// (paintStickyAxis) keeps the same row in view over a tall timeline.
func paintTopAxis(o *browser.Ops, l *layout, labs []axisLabel) {
	s := l.scale
	title := l.lanesTitle()
	titleEnd := 0.0 // the top axis' labels start after it
	if title != "" {
		titleEnd = 6 + fontWidth(title, fontTitle, s) + 6*s
	}
	o.FillStyle(colMuted)
	for _, a := range labs {
		if a.box(l, l.axisY).x >= titleEnd {
			o.Text(a.text, a.x, l.axisY, fontSmall, a.align, browser.BaselineMiddle)
		}
	}
	if title != "" {
		o.FillStyle(colText)
		o.Text(title, 6, l.axisY, fontTitle, browser.AlignLeft, browser.BaselineMiddle)
	}
}

// stickyAxisH is the height of the sticky axis (paintStickyAxis) of a
// layout without a PNG's head: the canvas's rows above the lanes, less the
// 2 px over their top that the top lane's marks may reach into (the
// lanes' clip, layers.paint): it lies over that row of the canvas as long
// as the canvas's top shows, and hides none of the lanes.
func (l *layout) stickyAxisH() float64 { return l.lanesTop - 2 }

// paintStickyAxis draws the sticky axis: the canvas's top axis row
// (paintTopAxis) on the background, ruled off at its foot from the lanes
// that scroll under it. web/app.css keeps it right under the legend while
// a timeline taller than the screen scrolls, and takes it away with the
// timeline before the axis under the last panel.
func paintStickyAxis(o *browser.Ops, l *layout, th *theme) {
	o.Reset()
	o.Palette, o.Fonts = th.palette, th.fonts
	h := l.stickyAxisH()
	o.FillStyle(colBG)
	o.Rect(0, 0, l.w, h)
	paintTopAxis(o, l, l.axisLabels())
	o.StrokeStyle(colGrid, 1, 0)
	o.Line(0, h-0.5, l.w, h-0.5)
}
