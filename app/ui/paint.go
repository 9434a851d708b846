package ui

import (
	"cmp"
	"iter"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
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
	// "0.00000075", wider than their column. ratePer is it in seconds,
	// rateWord its name ("second"), rateUnit its label ("req/s").
	ratePer            float64
	rateWord, rateUnit string
	srvRows            int
	names              []string   // a watch's lanes: one per device (model.devices); nil: worker lanes
	head               []headLine // the text above the timeline (a PNG's)
	// A PNG's legend, under its head: each item where it is drawn, from
	// legendTop down, in rows of legendRowH.
	legend                []legendCell
	legendTop, legendRowH float64
	legendRows            int
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
	if l.slice >= 24*time.Hour {
		l.ratePer, l.rateWord, l.rateUnit = 86400, "day", "req/day"
	} else if l.slice >= time.Hour {
		l.ratePer, l.rateWord, l.rateUnit = 3600, "hour", "req/h"
	}
	return l
}

// place puts the panels one under the other from top down, sizes the
// canvas to hold them and the marks to the lanes' rows (markRadius).
func (l *layout) place(top float64) {
	s := l.scale
	l.markR = markRadius(l.rowH, s, l.markMin)
	l.axisY = top + 14*s
	l.lanesTop = top + 26*s
	l.histTop = l.lanesTop + l.laneH*float64(l.workers) + 28*s
	l.histH = 130 * s
	l.srvTop = l.histTop + l.histH + 28*s
	l.srvH = 64 * s
	l.bottom = l.srvTop + l.srvH
	l.h = l.bottom + 30*s // the time axis under the last panel (web/app.css keeps the legend off it: --axis-room)
}

// markRadius is the radius of an attempt's mark in rows rowH high at
// scale: up to 0.42 of a row, and, where the theme asks for marks of
// markMin at least (a projector's), up to 0.9 of one, over the neighbours'
// edges, as long as a row is more than about a pixel.
func markRadius(rowH, scale, markMin float64) float64 {
	r := math.Max(1.6, math.Min(5.5*scale, rowH*0.42))
	return math.Max(r, math.Min(markMin, rowH*0.9))
}

// minFitRow is the thinnest fitHeight makes a lane's row, CSS px: as thin
// as the page draws 110 workers' lanes out of presentation mode, which
// still read as a fleet's picture (presentation mode's marks are bigger
// there: presentTheme's markMin).
const minFitRow = 4

// fitHeight shortens the lanes so that the whole canvas, lanes, histogram
// and server panel, is at most h px high: presentation mode at 1280 × 720
// drew 50 workers 868 px high, and a projector never showed the lanes
// with the histogram, under one crosshair. A row is made no thinner than
// minFitRow (nor than it was): a bigger fleet's canvas stays taller, and
// scrolls. Lanes never grow.
func (l *layout) fitHeight(h float64) {
	rows := float64(l.workers * l.sub)
	if h <= 0 || rows == 0 || l.h <= h {
		return
	}
	fit := (h - (l.h - l.laneH*float64(l.workers))) / rows
	row := math.Min(l.rowH, math.Max(fit, minFitRow))
	if row >= l.rowH {
		return
	}
	l.rowH = row
	l.laneH = row * float64(l.sub)
	l.place(l.headHeight())
}

// pngHead is what a PNG says above its timeline: what ran (title), its
// key numbers (separated by numbersSep), and the link that reproduces it.
type pngHead struct{ title, numbers, link string }

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
			return float64(c.Limit) / c.Window.Seconds(), "server limit " + strconv.Itoa(c.Limit) + " per " + core.FormatDuration(c.Window)
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

// frameInput is everything one paint needs.
type frameInput struct {
	th      *theme
	running bool
	now     time.Duration // the run's current time (the "now" line while running)
	lim     limits
	base    *baselineDraw // the baseline's outline on the histogram, or nil
	invalid int           // before a run: values to fix in the inputs first (the empty timeline says so)
	cannot  cannot        // before a run: what the configuration, valid, cannot do
}

// cannot is what a valid configuration cannot do, for the empty timeline's
// hint: why a live run cannot take it (the first of Scenario.LiveErrors),
// and whether Simulate cannot either.
type cannot struct {
	live string
	sim  bool
}

func cannotOf(s *fleet.Scenario) cannot {
	var c cannot
	if errs := s.LiveErrors(); len(errs) > 0 {
		c.live = errs[0].Msg
	}
	c.sim = s.SimErrors() != nil
	return c
}

// paint draws the whole timeline into o.
func paint(o *browser.Ops, l *layout, m *model, in frameInput) {
	paintFrame(o, l, m, in)
	if m != nil {
		l.plotClip(o, l.markReach(), 0)
		paintSqueezes(o, l, m, false)
		paintOutages(o, l, m, false) // over a halved limit: an outage comes first at the server
		paintHidden(o, l, m, in)
		v := inView(l, m)
		if l.dense() {
			paintDenseLanes(o, l, m, in)
		} else {
			paintWaits(o, l, m, in, v.spans)
			paintFlights(o, l, m, in, v.marks)
			paintMarks(o, l, m, v.marks)
		}
		paintGiveUps(o, l, m, v.ends)
		paintHiddenLabels(o, l, m, in)
		paintBursts(o, l, m, false)
		switch {
		case l.dense() && len(m.arrivals) == 0:
			paintDenseServer(o, l, m, in.th)
		case len(m.arrivals) == 0:
			paintServer(o, l, m, v.marks)
		default:
			paintServer(o, l, m, v.arrivals)
		}
		paintServerLabels(o, l, m)
		paintNow(o, l, in)
		o.Restore()
		paintHistogramPanel(o, l, m, in)
	}
	paintOutlines(o, l)
}

// visible picks the items of each list that reach into the window shown:
// every one when the whole run is shown, else those in view (a zoomed-in
// window of a big run would otherwise draw hundreds of thousands of
// shapes that the clip then hides).
type visible struct{ marks, spans, ends, arrivals pick }

func inView(l *layout, m *model) visible {
	if l.from == 0 && m.last <= l.span {
		return visible{every, every, every, every}
	}
	// A mark's shape reaches a few pixels either side of its time.
	margin := time.Duration(12 * l.scale / (l.right - l.left) * float64(l.span))
	lo, hi := l.from-margin, l.from+l.span+margin
	var v visible
	for i := range m.marks {
		k := &m.marks[i]
		last := max(k.sent, k.end, k.serverAt)
		if k.end < 0 {
			last = hi // in flight: it reaches "now"
		}
		if min(k.sent, k.serverAt) <= hi && last >= lo {
			v.marks.idx = append(v.marks.idx, i)
		}
	}
	for i := range m.spans {
		if sp := &m.spans[i]; sp.from <= hi && (sp.to < 0 || max(sp.to, sp.planned) >= lo) {
			v.spans.idx = append(v.spans.idx, i)
		}
	}
	for i := range m.ends {
		if e := &m.ends[i]; e.at >= lo && e.at <= hi {
			v.ends.idx = append(v.ends.idx, i)
		}
	}
	for i := range m.arrivals {
		if a := &m.arrivals[i]; a.at >= lo && a.at <= hi {
			v.arrivals.idx = append(v.arrivals.idx, i)
		}
	}
	return v
}

// pick selects items of one of the model's lists: every one, or those at
// the indices in idx (the layered redraw of a live run paints what changed).
type pick struct {
	all bool
	idx []int
}

var every = pick{all: true}

// n is how many items of a list of total are picked.
func (p pick) n(total int) int {
	if p.all {
		return total
	}
	return len(p.idx)
}

// at is the index of the j-th picked item.
func (p pick) at(j int) int {
	if p.all {
		return j
	}
	return p.idx[j]
}

// paintFrame draws what does not depend on the run's events: background,
// panels, grid, axes, titles and lane labels (and, without a run, the hint).
func paintFrame(o *browser.Ops, l *layout, m *model, in frameInput) {
	th := in.th
	o.Reset()
	o.Palette, o.Fonts = th.palette, th.fonts
	s := l.scale

	o.FillStyle(colBG)
	o.Rect(0, 0, l.w, l.h)
	y := 8 * s
	for _, ln := range l.head {
		lh := l.headLineH(ln.font)
		o.FillStyle(ln.col)
		o.Text(ln.text, headX, y+lh/2, ln.font, browser.AlignLeft, browser.BaselineMiddle)
		y += lh
	}
	for _, c := range l.legend {
		paintSample(o, l, c.item.sample, c.x, c.y)
		o.FillStyle(colText)
		o.Text(c.item.label, c.x+(legendSampleW+5)*s, c.y, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
	}
	plotW := l.right - l.left
	lanesH := l.laneH * float64(l.workers)
	o.FillStyle(colPanel)
	o.Rect(l.left, l.lanesTop, plotW, lanesH)
	o.Rect(l.left, l.histTop, plotW, l.histH)
	o.Rect(l.left, l.srvTop, plotW, l.srvH)

	// Every fifth lane is shaded, so a lane can be followed by eye; lanes
	// split into rows (jobs at once) are shaded every other one, so a
	// worker's rows read as one.
	if l.laneH >= 4 {
		o.FillStyle(colLaneAlt)
		o.BeginPath()
		group := 5
		if l.sub > 1 {
			group = 1
		}
		for w := 0; w < l.workers; w += 2 * group {
			if w+group < l.workers {
				o.PathRect(l.left, l.lanesTop+float64(w+group)*l.laneH, plotW, l.laneH*float64(min(group, l.workers-w-group)))
			}
		}
		o.FillPath()
	}

	// Grid and the time axis, shared by every panel.
	labs := l.axisLabels()
	o.StrokeStyle(colGrid, 1, 0)
	for _, a := range labs {
		x := math.Round(a.x) + 0.5
		o.Line(x, l.lanesTop, x, l.bottom)
	}
	paintTopAxis(o, l, labs)
	o.FillStyle(colMuted)
	for _, a := range labs {
		o.Text(a.text, a.x, l.bottomAxisY(), fontSmall, a.align, browser.BaselineMiddle)
	}
	clock := []string{"time since Run"}
	switch {
	case m != nil && m.simulated:
		clock = []string{"virtual time since Simulate (simulated, not measured)", "virtual time since Simulate"}
	case m != nil && m.watch:
		clock = []string{"time since Watch"}
	}
	o.Text(fitText(clock, l.right-4, fontSmall, s), l.right, l.bottom+24*s, fontSmall, browser.AlignRight, browser.BaselineMiddle)

	// Panel titles, above the panels (the lanes' is the top axis row's:
	// paintTopAxis).
	o.FillStyle(colText)
	// A panel's note says less, or nothing, where the whole of it does not
	// fit between its title and the plot's right edge (a phone).
	bins := secondsLabel(l.slice, l.slice, l.slice) + " bins"
	histTitle, histNotes := "Requests sent per "+l.rateWord, []string{"by send time, " + bins + ", stacked by outcome", "by send time, " + bins, bins}
	if m != nil && m.watch {
		histTitle, histNotes = "Requests received per "+l.rateWord, []string{"by arrival, " + bins + ", stacked by the server's answer", "by arrival, " + bins, bins}
	}
	noteRoom := l.right - l.left - titleWidth(histTitle, s)
	o.Text(histTitle, l.left, l.histTop-9*s, fontTitle, browser.AlignLeft, browser.BaselineBottom)
	o.Text("Server arrivals", l.left, l.srvTop-9*s, fontTitle, browser.AlignLeft, browser.BaselineBottom)
	if in.base != nil {
		// The baseline's key, right-aligned on the title line: a sample of
		// its outline and what it was. The note gives way when both do
		// not fit.
		key := "baseline: " + in.base.label
		noteRoom -= smallWidth(key, s) + 22*s
		// The sample at the right end, the text right-aligned before it:
		// neither depends on the estimate of the text's width.
		y := l.histTop - 9*s
		o.StrokeStyle(colBase, 2*s, 0)
		o.Line(l.right-16*s, y-4*s, l.right, y-4*s)
		o.FillStyle(colBase)
		o.Text(key, l.right-22*s, y, fontSmall, browser.AlignRight, browser.BaselineBottom)
	}
	o.FillStyle(colMuted)
	o.Text(fitText(histNotes, noteRoom, fontSmall, s), l.left+titleWidth(histTitle, s), l.histTop-9*s, fontSmall, browser.AlignLeft, browser.BaselineBottom)
	srvNotes := []string{"each request when the server received it (rows cycle by arrival number)", "each request when the server received it", "by receive time"}
	switch {
	case m != nil && m.ownServer:
		srvNotes = []string{"not available for your own URL: only the built-in mock streams its arrivals", "not available for your own URL", "not available"}
	case m != nil && m.simulated:
		srvNotes = []string{"each request when the simulated server received it (no other clients are simulated)", "each request when the simulated server received it", "simulated"}
	case m != nil && m.watch:
		srvNotes = []string{"everyone in the shared room, by the server's answer", "everyone in the shared room", "the whole room"}
	case m != nil && m.room:
		srvNotes = []string{"the whole shared room: yours in colour, other clients in grey", "yours in colour, others in grey", "others in grey"}
	case m != nil && m.others:
		srvNotes = []string{"each request when the server received it; grey: another client's (Burst)", "grey: another client's (Burst)", "grey: Burst"}
	}
	o.Text(fitText(srvNotes, l.right-l.left-titleWidth("Server arrivals", s), fontSmall, s), l.left+titleWidth("Server arrivals", s), l.srvTop-9*s, fontSmall, browser.AlignLeft, browser.BaselineBottom)
	paintHistogramUnit(o, l)
	paintLaneLabels(o, l)

	if m == nil {
		o.FillStyle(colMuted)
		hints := []string{"Press Run (r): each lane will be one of the " + thousands(l.workers) + " workers, each mark one real request.", "Press Run (r) to fire real requests.", "Press Run (r)"}
		// What the inputs hold now: with a value to fix, neither Run nor
		// Simulate starts, and the fleet the lanes would show may not be
		// the one typed (Workers 501, then "abc", went on asking for
		// Simulate over 501 lanes; Lab.configureView).
		switch {
		case in.invalid > 0:
			fix := "Fix " + fieldCount(in.invalid) + " first"
			hints = []string{fix + ": Run and Simulate wait for valid values (the messages are beside the inputs).", fix + " to run or simulate.", fix}
		case l.workers == 1:
			hints[0] = "Press Run (r): the lane will be the one worker's, each mark one real request."
		case l.workers > fleet.WorkersRange.Max:
			hints = []string{"Press Simulate (m): " + thousands(l.workers) + " workers are more than a live run takes; they run in virtual time.", "Press Simulate (m): too many workers for a live run.", "Press Simulate (m)"}
		case in.cannot.live != "" && !in.cannot.sim: // an open workload's jobs too many a second for a live run
			hints = []string{"Press Simulate (m); Run cannot take this: " + in.cannot.live + ".", "Press Simulate (m): too much for a live run.", "Press Simulate (m)"}
		case in.cannot.live != "": // a custom target with an outage: neither starts
			hints = []string{"Neither Run nor Simulate can start: " + in.cannot.live + ".", "Run cannot start: see the status line.", "Run cannot start"}
		}
		// On as many lines as the plot's width needs (a phone), and as
		// the lanes' panel holds (one or two lanes hold one line): the
		// first hint that fits, else the shortest on one line.
		// Without lanes (no workers to draw) the hint is in the empty
		// histogram.
		top, height := l.lanesTop, lanesH
		if l.workers == 0 {
			top, height = l.histTop, l.histH
		}
		maxLines, room := max(1, int(height/(16*s))), l.right-l.left-16*s
		var lines []string
		for _, h := range hints {
			if w := wrapText(h, room, fontLabel, s); len(w) <= maxLines {
				lines = w
				break
			}
		}
		if lines == nil {
			lines = []string{fitText(hints, room, fontLabel, s)}
		}
		y := top + math.Min(height/2, 60*s) - float64(len(lines)-1)*8*s
		for i, line := range lines {
			o.Text(line, (l.left+l.right)/2, y+float64(i)*16*s, fontLabel, browser.AlignCenter, browser.BaselineMiddle)
		}
	}
}

// pngLegend is the legend a PNG carries under its head: the page's legend
// items (legendOutcomes, legendPhases) as the page shows them for the run
// drawn — a watch's without what only a fleet draws — less what did not
// happen in it (a hidden tab, an outage, a halved limit, another client's
// requests, a fleet bucket), so that it stays short.
func pngLegend(m *model, in *frameInput) []legendItem {
	watch := m != nil && m.watch
	var out []legendItem
	for _, list := range [][]legendItem{legendOutcomes, legendPhases} {
		for _, it := range list {
			if (!watch || !it.fleetOnly) && it.sample.drawn(m, in) {
				out = append(out, it)
			}
		}
	}
	return out
}

// drawn reports whether what the sample stands for can be in the picture
// of m: the marks and waits of every run, the rest only when it happened.
func (sm sample) drawn(m *model, in *frameInput) bool {
	switch sm.kind {
	case sampleHidden:
		return m != nil && len(m.hidden) > 0
	case sampleLate:
		return m != nil && m.anyLate(in)
	case sampleOutage:
		return m != nil && len(m.outages) > 0
	case sampleSqueeze:
		return m != nil && len(m.limits) > 0
	case sampleOther:
		return m != nil && !m.watch && (m.room || m.others)
	case sampleLimit:
		return in.lim.server > 0
	case sampleClient:
		return in.lim.client > 0
	case sampleWait:
		return sm.reason != core.ReasonBucket || in.lim.client > 0
	}
	return true
}

// paintSample draws a legend item's sample with its left edge at x,
// centred on y: what the timeline's painters draw for it, in their shapes,
// colours, heights (of a 14 px row) and dashes.
func paintSample(o *browser.Ops, l *layout, sm sample, x, y float64) {
	s := l.scale
	w, row := legendSampleW*s, 14*s
	bar := func(col int, h float64) {
		o.FillStyle(col)
		o.Rect(x, y-h/2, w, h)
	}
	switch sm.kind {
	case sampleMark:
		r := 5 * s
		o.BeginPath()
		o.Shape(classShape[sm.class], x+w/2, y, r)
		if classShape[sm.class] == browser.Cross {
			o.StrokeStyle(classColour[sm.class], math.Max(1, r*0.45), 0)
			o.StrokePath()
			return
		}
		o.FillStyle(classColour[sm.class])
		o.FillPath()
	case sampleFlight:
		bar(colFlight, math.Max(1, row*0.22))
	case sampleQueued:
		bar(colQueued, math.Max(1, row*0.4))
	case sampleWait:
		h := math.Max(1, row*0.5)
		bar(reasonColour(sm.reason), h)
		if sm.reason == core.ReasonBucket {
			o.StrokeStyle(colBucketLn, 0.75, 0)
			o.StrokeRect(x, y-h/2, w, h)
		}
	case sampleGiveUp:
		o.FillStyle(colGiveUp)
		o.Rect(x+w/2-1, y-row/2, 2, row)
	case sampleLate:
		h := math.Max(1, row*0.5)
		o.StrokeStyle(colHidden, 1, 0)
		o.StrokeRect(x, y-h/2, w, h)
	case sampleHidden:
		o.StrokeStyle(colHidden, 1, 0)
		o.Hatch(x, y-row/2, w, row, 6)
	case sampleOutage:
		bar(colOutage, row)
		o.StrokeStyle(colOutageLn, 1, 4*s)
		o.Line(x+0.5, y-row/2, x+0.5, y+row/2)
		o.Line(x+w-0.5, y-row/2, x+w-0.5, y+row/2)
	case sampleSqueeze:
		bar(colSqueeze, row)
		o.StrokeStyle(colLimit, 1.5*s, 6*s)
		o.Line(x, y+row/2-1, x+w, y+row/2-1)
	case sampleOther:
		o.BeginPath()
		o.Shape(browser.Circle, x+w/2, y, 4*s) // larger than in the server panel: its grey must show
		o.FillStyle(colOther)
		o.FillPath()
	case sampleLimit:
		o.StrokeStyle(colLimit, 1.5*s, 6*s)
		o.Line(x, y, x+w, y)
	case sampleClient:
		o.StrokeStyle(colClient, 1.5*s, 2*s)
		o.Line(x, y, x+w, y)
	}
}

// paintNow draws the "now" line of a run going on.
func paintNow(o *browser.Ops, l *layout, in frameInput) {
	if in.running {
		x := l.x(in.now)
		o.StrokeStyle(colAxis, 1, 3)
		o.Line(x, l.lanesTop, x, l.bottom)
	}
}

// paintHistogramPanel draws the histogram's bars (clipped to its panel), its
// y labels and its limit lines.
func paintHistogramPanel(o *browser.Ops, l *layout, m *model, in frameInput) {
	o.Clip(l.left, l.histTop, l.right-l.left, l.histH+1)
	marks, values := paintHistogram(o, l, m, in)
	marks = append(marks, paintBursts(o, l, m, true)...)
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
	paintHistogramAxis(o, l, m.limits, in, marks)
}

// cutValue is a cut bar's value and where it goes.
type cutValue struct {
	text string
	r    rect
	col  int // the bar's value: colText; the baseline's: colBase
}

// paintOutlines draws the panels' outlines, crisp over the content.
func paintOutlines(o *browser.Ops, l *layout) {
	plotW := l.right - l.left
	o.StrokeStyle(colAxis, 1, 0)
	if l.workers > 0 {
		o.StrokeRect(l.left+0.5, l.lanesTop+0.5, plotW-1, l.laneH*float64(l.workers))
	}
	o.StrokeRect(l.left+0.5, l.histTop+0.5, plotW-1, l.histH-1)
	o.StrokeRect(l.left+0.5, l.srvTop+0.5, plotW-1, l.srvH-1)
}

func paintLaneLabels(o *browser.Ops, l *layout) {
	s := l.scale
	every := 1
	for float64(every)*l.laneH < 13*s {
		switch every {
		case 1:
			every = 2
		case 2:
			every = 5
		default:
			every *= 2
		}
	}
	o.FillStyle(colMuted)
	label := func(w int) {
		o.Text(l.laneName(w), l.labelRight(), l.laneY(w), fontSmall, browser.AlignRight, browser.BaselineMiddle)
	}
	if l.names != nil {
		for w := 0; w < l.workers; w += every {
			label(w)
		}
		return
	}
	// Workers are numbered from 1, as the tooltip numbers them: every
	// every-th (w5, w10, …), and w1 when there is room above w<every> and
	// its lane is tall enough to hold its label clear of the panel's title
	// ("workers"), over the top lane: 501 workers' lanes are under 1 px,
	// and w1 touched the title.
	if every > 1 && float64(every-1)*l.laneH >= 13*s && l.laneH >= 4*s {
		label(0)
	}
	for n := every; n <= l.workers; n += every {
		label(n - 1)
	}
}

// labelRight is where the lanes' labels end, left of the plot: workers'
// clear of a mark at 0 s, drawn whole into the margin (plotClip); a
// watch's device names, up to 9 characters, take the margin's width.
func (l *layout) labelRight() float64 {
	if l.names != nil {
		return l.left - 6
	}
	return l.left - 10*l.scale
}

// plotClip is the clip of what is drawn over the lanes and the server
// panel: the plot, 2 px over the lanes' top (dy more for the selection's
// rings), and, where the axis starts at 0 s, reach px into the margin on
// its left, so that a mark sent at 0 s, centred on the plot's edge, is
// drawn whole (it was cut in half). Nothing is drawn before 0 s, so
// nothing else reaches there; a zoomed-in window still cuts what lies
// across its edges.
func (l *layout) plotClip(o *browser.Ops, reach, dy float64) {
	x := l.left
	if l.from == 0 {
		x -= reach
	}
	o.Clip(x, l.lanesTop-2-dy, l.right-x, l.bottom-l.lanesTop+4+2*dy)
}

// markReach is how far a mark reaches past its centre: its radius, its
// halo, a cross's stroke.
func (l *layout) markReach() float64 { return l.markR*1.25 + 1 }

// laneName labels lane w (0-based): "w4" for the fourth worker, numbered
// from 1 as the tooltip numbers it; a watch's device by its name (cut to
// fit the margin), "others" for the arrivals without one.
func (l *layout) laneName(w int) string {
	if l.names == nil {
		return "w" + strconv.Itoa(w+1)
	}
	if w >= len(l.names) || l.names[w] == "" {
		return "others"
	}
	name := l.names[w]
	if max := int((l.labelRight() - 2) / (6 * l.scale)); len(name) > max && max > 1 {
		name = name[:max-1] + "…"
	}
	return name
}

// end is where an open interval is drawn to.
func openEnd(to, planned time.Duration, in frameInput) time.Duration {
	if to >= 0 {
		return to
	}
	if in.running {
		return min(planned, in.now)
	}
	return planned
}

// paintHidden hatches the stretches that are not measured truth (the tab
// hidden, the server's stream lost) across the panels, under the marks;
// paintHiddenLabels says what they are, over the marks, where the marks
// and waits drawn after the hatch covered the words (a run that went on
// after the server came back).
func paintHidden(o *browser.Ops, l *layout, m *model, in frameInput) {
	paintStretches(o, l, m.hidden, in, nil)
	paintStretches(o, l, m.lost, in, nil)
}

func paintHiddenLabels(o *browser.Ops, l *layout, m *model, in frameInput) {
	paintStretches(o, l, m.hidden, in, []string{"tab hidden: timers throttled, not measured truth", "tab hidden: not measured truth", "tab hidden"})
	paintStretches(o, l, m.lost, in, []string{"connection to the server lost: its arrivals not seen", "connection lost: not seen", "connection lost"})
}

// paintStretches hatches stretches that are not measured truth across the
// panels or, given labels, labels each with the longest of them that fits
// (the last always).
func paintStretches(o *browser.Ops, l *layout, stretches []interval, in frameInput, labels []string) {
	for _, h := range stretches {
		to := h.to
		if to < 0 {
			to = in.now
		}
		x1, x2 := math.Max(l.left, l.x(h.from)), math.Min(l.right, l.x(to))
		if x2 < l.left || x1 > l.right {
			continue // outside the window shown
		}
		if labels == nil {
			o.StrokeStyle(colHidden, 1, 0)
			o.Hatch(x1, l.lanesTop, math.Max(2, x2-x1), l.bottom-l.lanesTop, 6)
			continue
		}
		// Shorter where the plot's right edge is near (a phone).
		label := fitText(labels[:len(labels)-1], l.right-x1-8*l.scale, fontSmall, l.scale)
		if label == "" {
			label = labels[len(labels)-1]
		}
		w := smallWidth(label, l.scale) + 8*l.scale
		// At the top of the lanes; a watch has none, and its histogram's
		// title is there: inside the histogram instead.
		top := l.lanesTop
		if l.workers == 0 {
			top = l.histTop
		}
		o.FillStyle(colBG)
		o.Alpha(0.9)
		o.Rect(x1+2, top+2, w, 16*l.scale)
		o.Alpha(1)
		o.FillStyle(colText)
		o.Text(label, x1+6, top+10*l.scale, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
	}
}

// paintOutages shades the stretches when the server was down (the Outage
// button) across every panel, under the marks, with a label; histOnly
// shades the histogram alone (a live run repaints it at every frame).
func paintOutages(o *browser.Ops, l *layout, m *model, histOnly bool) {
	s := l.scale
	for _, h := range m.outages {
		x1, x2 := math.Max(l.left, l.x(h.from)), math.Min(l.right, l.x(h.to))
		if x2 <= x1 {
			continue // outside the window shown
		}
		o.FillStyle(colOutage)
		o.Rect(x1, l.histTop, x2-x1, l.histH)
		if histOnly {
			continue
		}
		if l.workers > 0 {
			o.Rect(x1, l.lanesTop, x2-x1, l.laneH*float64(l.workers))
		}
		o.Rect(x1, l.srvTop, x2-x1, l.srvH)
		o.StrokeStyle(colOutageLn, 1, 4*s)
		for _, e := range []struct {
			x  float64
			at time.Duration
		}{{x1, h.from}, {x2, h.to}} {
			if x := l.x(e.at); x < l.left || x > l.right {
				continue // zoomed in, the outage goes on past the window's edge: no edge there
			}
			o.Line(math.Round(e.x)+0.5, l.lanesTop, math.Round(e.x)+0.5, l.bottom)
		}
	}
}

// paintBursts marks another client's bursts (the Burst button): a dashed
// line down the server panel (paintServerLabels says how many came and
// were admitted), or (hist) down the histogram, over its bars.
func paintBursts(o *browser.Ops, l *layout, m *model, hist bool) (lines []rect) {
	s := l.scale
	for _, b := range m.bursts {
		x := math.Round(l.x(b.at)) + 0.5
		if x < l.left || x > l.right {
			continue // outside the window shown
		}
		o.StrokeStyle(colMuted, 1, 3*s)
		if hist {
			o.Line(x, l.histTop, x, l.histTop+l.histH)
			// Wider than drawn: a label placed clear of it keeps a gap
			// (the fleet bucket's began on the line).
			lines = append(lines, lineRect(x, l.histTop, x, l.histTop+l.histH, 8*s))
			continue
		}
		o.Line(x, l.srvTop, x, l.srvTop+l.srvH)
	}
	return lines
}

// paintServerLabels writes, over the server panel's arrivals, "server
// down" in each outage and what each burst brought: each where it covers
// no arrival, no outage's edge, no burst's line and no other label — in
// its stretch (else across its edge) for an outage, beside its line for a
// burst, on the top row or as near it as there is room, in fewer words
// where the whole has none (a phone). Where there is none at all, the
// whole label is drawn on a plate over the dots.
func paintServerLabels(o *browser.Ops, l *layout, m *model) {
	if len(m.outages) == 0 && len(m.bursts) == 0 {
		return
	}
	s := l.scale
	type label struct {
		texts    []string // in fewer words where the whole does not fit
		col      int
		plate    bool
		from, to float64 // an outage's stretch; a burst's line: from == to
	}
	var labels []label
	var lines []rect // the outages' edges, the bursts' lines, the labels placed
	for _, h := range m.outages {
		x1, x2 := math.Max(l.left, l.x(h.from)), math.Min(l.right, l.x(h.to))
		if x2 <= x1 {
			continue // outside the window shown
		}
		for _, e := range [2]time.Duration{h.from, h.to} {
			if x := l.x(e); x >= l.left && x <= l.right {
				lines = append(lines, lineRect(math.Round(x)+0.5, l.srvTop, math.Round(x)+0.5, l.srvTop+l.srvH, 1))
			}
		}
		labels = append(labels, label{[]string{"server down", "down"}, colOutageLn, false, x1, x2})
	}
	for _, b := range m.bursts {
		x := math.Round(l.x(b.at)) + 0.5
		if x < l.left || x > l.right {
			continue
		}
		lines = append(lines, lineRect(x, l.srvTop, x, l.srvTop+l.srvH, 1))
		n, in := "×"+strconv.Itoa(b.n), strconv.Itoa(b.admitted)+" admitted"
		labels = append(labels, label{[]string{"burst " + n + ", " + in, n + ", " + in, n}, colMuted, true, x, x})
	}
	dots := serverDots(l, m)
	for _, lb := range labels {
		// place finds lb's box for a w×h text clear of obs.
		place := func(obs []rect, w, h float64) (rect, bool) {
			lo, hi := l.left+2, l.right-2-w
			if lb.from < lb.to { // an outage: inside it, else across its edge
				if r, ok := placeNear(obs, l, w, h, math.Max(lo, lb.from+2), math.Min(hi, lb.to-2-w), lb.from+2); ok {
					return r, true
				}
				return placeNear(obs, l, w, h, math.Max(lo, lb.from+12*s-w), math.Min(hi, lb.to-12*s), lb.from+2)
			}
			// A burst: beside its line, right or left, whichever is nearer;
			// lower down the panel rather than further along it (the
			// nearest clear place of a dense panel was seconds away).
			reach := burstReach * s
			r, ok := placeNear(obs, l, w, h, math.Max(lo, lb.from+2), math.Min(hi, lb.from+2+reach), lb.from+2)
			lr, lok := placeNear(obs, l, w, h, math.Max(lo, lb.from-2-w-reach), math.Min(hi, lb.from-2-w), lb.from-2-w)
			if lok && (!ok || placeCost(l, lr, lb.from-2-w) < placeCost(l, r, lb.from+2)) {
				return lr, true
			}
			return r, ok
		}
		// In fewer words only where the whole has no clear place.
		text, r, ok := lb.texts[0], rect{}, false
		for _, t := range lb.texts {
			pr := plateRect(l, t, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
			if r, ok = place(append(dots, lines...), pr.w, pr.h); ok {
				text = t
				break
			}
		}
		if !ok {
			// Nowhere clear of the dots: the whole label on a plate over
			// them, clear of the lines and the other labels if it can be.
			pr := plateRect(l, text, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
			if r, ok = place(lines, pr.w, pr.h); !ok {
				x := lb.from + 2
				if lb.from == lb.to && x+pr.w > l.right-2 {
					x = lb.from - 2 - pr.w // a burst near the right edge: at its left
				}
				r = rect{math.Max(l.left+2, math.Min(x, l.right-2-pr.w)), l.srvTop + 2, pr.w, pr.h}
			}
			lb.plate = true
		}
		lines = append(lines, r) // the next labels keep clear of it
		if lb.plate {
			platedText(o, l, text, r.x+2, r.y+r.h/2, fontSmall, browser.AlignLeft, browser.BaselineMiddle, lb.col)
			continue
		}
		o.FillStyle(lb.col)
		o.Text(text, r.x+2, r.y+r.h/2, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
	}
}

// burstReach is how far from its line a burst's label may lie, CSS px:
// any further, it is no longer beside the line.
const burstReach = 6

// placeNear finds a w×h box in the server panel clear of obs, its left
// edge between xlo and xhi: the nearest to the top row with its left edge
// at prefer, a pixel down costing as much as a pixel aside (placeCost).
func placeNear(obs []rect, l *layout, w, h, xlo, xhi, prefer float64) (r rect, ok bool) {
	best := math.Inf(1)
	for t := l.srvTop + 2; t+h <= l.srvTop+l.srvH-1; t += 2 {
		if x, xok := clearX(obs, t, h, w, xlo, xhi, prefer, 1); xok {
			if c := placeCost(l, rect{x, t, w, h}, prefer); c < best {
				r, ok, best = rect{x, t, w, h}, true, c
			}
		}
	}
	return r, ok
}

// placeCost is how far a label's box r in the server panel is from its
// place: the top row, its left edge at prefer.
func placeCost(l *layout, r rect, prefer float64) float64 {
	return math.Abs(r.x-prefer) + r.y - (l.srvTop + 2)
}

// serverDots are boxes covering the arrivals drawn in the server panel
// (paintServer, paintDenseServer): for each of its rows, a box per run of
// pixel columns its dots touch, so that a simulation's thousands of
// arrivals make at most a few hundred boxes, found in one pass.
func serverDots(l *layout, m *model) []rect {
	r := math.Max(2, 2.2*l.scale)
	if l.dense() && len(m.arrivals) == 0 {
		r = denseCell + 1 // paintDenseServer's 3-px squares, at their cells
	}
	cols, rows := int(l.right-l.left)+1, l.srvRows
	occ := make([]bool, rows*cols)
	add := func(at time.Duration, seq int) {
		x := l.x(at) - l.left
		c0, c1 := max(0, int(math.Floor(x-r))), min(cols-1, int(math.Ceil(x+r)))
		row := (seq%rows + rows) % rows // as srvY
		for c := c0; c <= c1; c++ {
			occ[row*cols+c] = true
		}
	}
	if len(m.arrivals) == 0 {
		for i := range m.marks {
			if k := &m.marks[i]; k.hasServer {
				add(k.serverAt, k.serverSeq)
			}
		}
	} else {
		for i := range m.arrivals {
			add(m.arrivals[i].at, m.arrivals[i].seq)
		}
	}
	var out []rect
	for row := range rows {
		y := l.srvY(row)
		for c := 0; c < cols; c++ {
			if !occ[row*cols+c] {
				continue
			}
			c0 := c
			for c < cols && occ[row*cols+c] {
				c++
			}
			out = append(out, rect{l.left + float64(c0), y - r, float64(c - c0), 2 * r})
		}
	}
	return out
}

// paintSqueezes shades the stretches when the server's limit was scaled
// down (the Halve limit button) in the histogram and the server panel,
// under the bars and marks; histOnly shades the histogram alone (a live
// run repaints it at every frame). The limit line steps down over them
// (paintHistogramAxis).
func paintSqueezes(o *browser.Ops, l *layout, m *model, histOnly bool) {
	for _, q := range m.limits {
		x1, x2 := math.Max(l.left, l.x(q.from)), math.Min(l.right, l.x(q.to))
		if x2 <= x1 {
			continue // outside the window shown
		}
		o.FillStyle(colSqueeze)
		o.Rect(x1, l.histTop, x2-x1, l.histH)
		if !histOnly {
			o.Rect(x1, l.srvTop, x2-x1, l.srvH)
		}
	}
}

// barRow is the row the waits' and flights' bars are sized to: the
// lane's row, up to 20 px × scale. A small fleet's taller rows (maxLaneH)
// give room around them; bars half a 36-px row high dwarfed the marks.
func (l *layout) barRow() float64 { return math.Min(l.rowH, 20*l.scale) }

func paintWaits(o *browser.Ops, l *layout, m *model, in frameInput, p pick) {
	h := math.Max(1, l.barRow()*0.5)
	for _, r := range []core.Reason{core.ReasonBackoff, core.ReasonRetryAfter, core.ReasonResetHint, core.ReasonBucket} {
		n := 0
		o.FillStyle(reasonColour(r))
		o.BeginPath()
		for j := range p.n(len(m.spans)) {
			sp := &m.spans[p.at(j)]
			if sp.reason != r {
				continue
			}
			x1, x2 := l.x(sp.from), l.x(min(openEnd(sp.to, sp.planned, in), sp.planned))
			if x2-x1 < 0.3 {
				continue
			}
			o.PathRect(x1, l.rowY(sp.worker, sp.slot)-h/2, x2-x1, h)
			n++
		}
		if n == 0 {
			continue
		}
		o.FillPath()
		if r == core.ReasonBucket && l.rowH >= 6 {
			o.StrokeStyle(colBucketLn, 0.75, 0)
			o.StrokePath()
		}
	}
	// Past a wait's planned end: the page's thread was busy when the
	// timer was due (late), not the loop's choice.
	o.BeginPath()
	for j := range p.n(len(m.spans)) {
		sp := &m.spans[p.at(j)]
		end := sp.to
		if end < 0 && in.running {
			end = in.now
		}
		pathLate(o, l, sp.worker, sp.slot, sp.planned, end, h)
	}
	strokeLate(o)
}

// anyLate reports whether m has anything drawn as late (pathLate).
func (m *model) anyLate(in *frameInput) bool {
	for i := range m.spans {
		sp := &m.spans[i]
		end := sp.to
		if end < 0 && in.running {
			end = in.now
		}
		if end-sp.planned >= lateMin {
			return true
		}
	}
	for i := range m.marks {
		if k := &m.marks[i]; k.end >= 0 && k.pickup >= lateMin {
			return true
		}
	}
	return false
}

// lateMin is the least lateness drawn as such: below it, the hop between
// the page's threads and a timer's usual slack.
const lateMin = 5 * time.Millisecond

// pathLate and strokeLate draw what ran late because the page's thread was
// busy (a wait past its planned end, an answer taken in after it came): an
// outlined bar in the tab-hidden colour, from from to to, when that is at
// least lateMin.
func pathLate(o *browser.Ops, l *layout, worker int, slot uint8, from, to time.Duration, h float64) {
	if to-from < lateMin {
		return
	}
	x1, x2 := l.x(from), l.x(to)
	if x2-x1 < 1 {
		return
	}
	o.PathRect(x1, l.rowY(worker, slot)-h/2, x2-x1, h)
}

func strokeLate(o *browser.Ops) {
	o.StrokeStyle(colHidden, 1, 0)
	o.StrokePath()
}

func paintFlights(o *browser.Ops, l *layout, m *model, in frameInput, p pick) {
	h := math.Max(1, l.barRow()*0.22)
	qh := math.Max(1, l.barRow()*0.4)
	o.FillStyle(colFlight)
	o.BeginPath()
	for j := range p.n(len(m.marks)) {
		k := &m.marks[p.at(j)]
		end := k.end - k.pickup // the answer came; the page took it in later
		if k.end < 0 {
			end = in.now
		}
		x1, x2 := l.x(k.sent), l.x(end)
		if x2-x1 < 0.5 {
			continue
		}
		o.PathRect(x1, l.rowY(k.worker, k.slot)-h/2, x2-x1, h)
	}
	o.FillPath()
	o.BeginPath()
	for j := range p.n(len(m.marks)) {
		if k := &m.marks[p.at(j)]; k.end >= 0 {
			pathLate(o, l, k.worker, k.slot, k.end-k.pickup, k.end, h)
		}
	}
	strokeLate(o)
	// What the page and the browser held before the request left (the
	// handoff to fetch(), then browser-side queueing): drawn where it
	// happened, never hidden.
	o.FillStyle(colQueued)
	o.BeginPath()
	any := false
	for j := range p.n(len(m.marks)) {
		k := &m.marks[p.at(j)]
		if k.handoff+k.queued <= 0 {
			continue
		}
		x1, x2 := l.x(k.sent), l.x(k.sent+k.handoff+k.queued)
		if x2-x1 < 0.5 {
			continue
		}
		o.PathRect(x1, l.rowY(k.worker, k.slot)-qh/2, x2-x1, qh)
		any = true
	}
	if any {
		o.FillPath()
	}
}

// dense reports whether lanes are thinner than a pixel (a simulation of
// more than 500 workers): the lanes are then drawn as a density picture,
// one square per 2-px cell that holds an attempt of a class and waits
// merged per pixel row, so drawing costs what the canvas holds in pixels,
// not what the run holds in attempts (300,000 marks took 3 s to rasterise
// as shapes). In-flight bars, thinner than a pixel, are left out.
func (l *layout) dense() bool { return l.laneH < 1 }

// denseCell is the grid of the dense attempt marks, in pixels.
const denseCell = 2

// paintDenseLanes draws the lanes of a run with more workers than pixel
// rows as one picture (Ops.Image), a pixel per CSS pixel: each wait covers
// its pixels in its reason's colour at half opacity, reasons in a fixed
// order; each attempt fills its 2-px cell in its outcome's colour, outcomes
// in class order, over the waits. Drawn as rectangles instead, a
// 10,000-worker simulation handed the browser ~150,000 of them.
func paintDenseLanes(o *browser.Ops, l *layout, m *model, in frameInput) {
	cols := int(l.right-l.left) + 2
	rows := int(l.laneH*float64(l.workers)) + 2
	px := o.Image(cols, rows, l.left, l.lanesTop, float64(cols), float64(rows))
	reasons := []core.Reason{core.ReasonBackoff, core.ReasonRetryAfter, core.ReasonResetHint, core.ReasonBucket}
	// One pass over the waits, constant work each: per reason and pixel
	// row a difference array (+1 where a wait starts, −1 past its end), so
	// a running sum along the row says whether any wait of that reason
	// covers a pixel. (Filling each wait's pixels instead cost ~80 ms for a
	// 10,000-worker simulation in wasm: its long waits span hundreds.) The
	// sums stay small: one wait at a time per worker, a few workers a row.
	diff := make([]int16, len(reasons)*rows*(cols+1))
	used := make([]bool, len(reasons))
	for i := range m.spans {
		sp := &m.spans[i]
		b := slices.Index(reasons, sp.reason)
		if b < 0 {
			continue
		}
		x1 := max(0, int(l.x(sp.from)-l.left))
		x2 := min(cols-1, int(l.x(openEnd(sp.to, sp.planned, in))-l.left))
		y := int(float64(sp.worker) * l.laneH)
		if y < 0 || y >= rows || x2 < x1 {
			continue
		}
		row := diff[(b*rows+y)*(cols+1):]
		row[x1]++
		row[x2+1]--
		used[b] = true
	}
	for b, r := range reasons {
		if !used[b] {
			continue
		}
		c := in.th.rgb(reasonColour(r))
		for y := 0; y < rows; y++ {
			row := diff[(b*rows+y)*(cols+1) : (b*rows+y+1)*(cols+1)]
			sum := int16(0)
			for x := 0; x < cols; x++ {
				if sum += row[x]; sum > 0 {
					blendHalf(px[(y*cols+x)*4:], c)
				}
			}
		}
	}

	// The attempts, over the waits.
	seen, ccols := denseCellsOf(m, cols, rows, func(k *mark) (x, y float64, ok bool) {
		return l.x(k.sent) - l.left, l.laneY(k.worker) - l.lanesTop, true
	})
	paintCells(px, cols, rows, in.th, seen, ccols, denseCell, 0)
}

// paintDenseServer draws the server panel of a big simulation (no arrivals
// stream: the arrivals the records tell of) as one picture: a 3-px square
// per 2-px cell that holds an arrival, in outcome colours.
func paintDenseServer(o *browser.Ops, l *layout, m *model, th *theme) {
	cols, rows := int(l.right-l.left)+2, int(l.srvH)+2
	px := o.Image(cols, rows, l.left, l.srvTop, float64(cols), float64(rows))
	seen, ccols := denseCellsOf(m, cols, rows, func(k *mark) (x, y float64, ok bool) {
		return l.x(k.serverAt) - l.left, l.srvY(k.serverSeq) - l.srvTop, k.hasServer
	})
	paintCells(px, cols, rows, th, seen, ccols, denseCell+1, -1)
}

// denseCellsOf sorts the attempts into the denseCell grid of a cols×rows
// picture, in one pass: for each cell (ccols a row), the set of classes it
// holds. at places an attempt in the picture, or says it has no place.
func denseCellsOf(m *model, cols, rows int, at func(k *mark) (x, y float64, ok bool)) (seen []uint8, ccols int) {
	ccols, crows := cols/denseCell+1, rows/denseCell+1
	seen = make([]uint8, ccols*crows)
	for i := range m.marks {
		k := &m.marks[i]
		x, y, ok := at(k)
		cx, cy := int(x/denseCell), int(y/denseCell)
		if !ok || x < 0 || y < 0 || cx >= ccols || cy >= crows {
			continue
		}
		seen[cy*ccols+cx] |= 1 << k.class
	}
	return seen, ccols
}

// paintCells paints a size×size square at (cx·denseCell+off, cy·denseCell+off)
// for every cell and class it holds, class by class in order, opaque: a
// later class covers an earlier one (and a neighbour's square where they
// overlap), as filling one path per class would.
func paintCells(px []byte, cols, rows int, th *theme, seen []uint8, ccols, size, off int) {
	for c := fleet.Class(0); c < fleet.NumClasses; c++ {
		rgb := th.rgb(classColour[c])
		for cell, set := range seen {
			if set&(1<<c) == 0 {
				continue
			}
			x0, y0 := (cell%ccols)*denseCell+off, (cell/ccols)*denseCell+off
			for y := max(0, y0); y < min(rows, y0+size); y++ {
				for x := max(0, x0); x < min(cols, x0+size); x++ {
					p := px[(y*cols+x)*4:]
					p[0], p[1], p[2], p[3] = rgb[0], rgb[1], rgb[2], 255
				}
			}
		}
	}
}

// blendHalf paints colour c at half opacity over the RGBA pixel p (not
// premultiplied), as a canvas fill with globalAlpha 0.5 would.
func blendHalf(p []byte, c [3]byte) {
	if p[3] == 0 { // the usual case: nothing there yet
		p[0], p[1], p[2], p[3] = c[0], c[1], c[2], 128
		return
	}
	da := float64(p[3]) / 255
	oa := 0.5 + da*0.5
	for i := range 3 {
		p[i] = byte((float64(c[i])*0.5+float64(p[i])*da*0.5)/oa + 0.5)
	}
	p[3] = byte(oa*255 + 0.5)
}

func paintMarks(o *browser.Ops, l *layout, m *model, p pick) {
	r := l.markR
	for c := fleet.Class(0); c < fleet.NumClasses; c++ {
		shape := classShape[c]
		n := 0
		o.BeginPath()
		for j := range p.n(len(m.marks)) {
			k := &m.marks[p.at(j)]
			if k.class != c {
				continue
			}
			o.Shape(shape, l.x(k.sent), l.rowY(k.worker, k.slot), r)
			n++
		}
		if n == 0 {
			continue
		}
		if shape == browser.Cross {
			o.StrokeStyle(classColour[c], math.Max(1, r*0.45), 0)
			o.StrokePath()
			continue
		}
		if r >= 3 {
			o.StrokeStyle(colBG, 1, 0) // a halo keeps touching marks apart
			o.StrokePath()
		}
		o.FillStyle(classColour[c])
		o.FillPath()
	}
}

func paintGiveUps(o *browser.Ops, l *layout, m *model, p pick) {
	n := 0
	o.FillStyle(colGiveUp)
	o.BeginPath()
	for j := range p.n(len(m.ends)) {
		e := &m.ends[p.at(j)]
		if e.ok || e.cause == "cancelled" {
			continue
		}
		o.PathRect(l.x(e.at)-1, l.rowTop(e.worker, e.slot), 2, math.Max(1, l.rowH))
		n++
	}
	if n > 0 {
		o.FillPath()
	}
}

// paintServer draws the server's arrivals: p picks from m.arrivals, or from
// m.marks when there are none (the arrivals the responses told of).
func paintServer(o *browser.Ops, l *layout, m *model, p pick) {
	r := math.Max(2, 2.2*l.scale)
	if len(m.arrivals) == 0 { // no stream: the arrivals the responses told of
		for c := fleet.Class(0); c < fleet.NumClasses; c++ {
			n := 0
			o.BeginPath()
			for j := range p.n(len(m.marks)) {
				k := &m.marks[p.at(j)]
				if !k.hasServer || k.class != c {
					continue
				}
				o.Shape(classShape[c], l.x(k.serverAt), l.srvY(k.serverSeq), r)
				n++
			}
			finishShapes(o, n, c, 1)
		}
		return
	}
	// Other clients of a shared room, in grey under ours (a watch has
	// only others: all in colour).
	n := 0
	o.BeginPath()
	for j := range p.n(len(m.arrivals)) {
		if a := &m.arrivals[p.at(j)]; a.mark < 0 && !m.watch {
			o.Shape(browser.Circle, l.x(a.at), l.srvY(a.seq), r*0.8)
			n++
		}
	}
	if n > 0 {
		o.FillStyle(colOther)
		o.FillPath()
	}
	lanes := m.watch && l.names != nil // a watch's device lanes: each arrival in its device's too
	for c := fleet.Class(0); c < fleet.NumClasses; c++ {
		n := 0
		o.BeginPath()
		for j := range p.n(len(m.arrivals)) {
			a := &m.arrivals[p.at(j)]
			cls := a.class
			if a.cancelled {
				cls = fleet.ClassAborted // the client went away before the answer
			}
			if (a.mark < 0 && !m.watch) || cls != c {
				continue
			}
			x := l.x(a.at)
			o.Shape(classShape[c], x, l.srvY(a.seq), r)
			if lanes && a.dev < l.workers {
				o.Shape(classShape[c], x, l.laneY(a.dev), l.markR)
			}
			n++
		}
		finishShapes(o, n, c, 1)
	}
}

// finishShapes fills (or, for crosses, strokes) the path of n marks of class c.
func finishShapes(o *browser.Ops, n int, c fleet.Class, width float64) {
	if n == 0 {
		return
	}
	if classShape[c] == browser.Cross {
		o.StrokeStyle(classColour[c], width, 0)
		o.StrokePath()
		return
	}
	o.FillStyle(classColour[c])
	o.FillPath()
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
// below its limit would draw bars too thin to see. A peak less than
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
		sort.Float64s(nz)
		p90, peak := nz[int(float64(len(nz)-1)*0.9)], nz[len(nz)-1]
		top = math.Max(top, p90*1.1)
		if highest := math.Max(lim.server, lim.client); peak*4 < highest {
			top = peak * 1.5
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
	for _, f := range []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if f*mag >= top*0.999 {
			return f * mag / per
		}
	}
	return 10 * mag / per
}

// paintHistogram draws the bars and the baseline's outline, and returns
// where they are, what the labels drawn over the histogram must leave in
// sight, and the values of the bars it cut, to write on them.
func paintHistogram(o *browser.Ops, l *layout, m *model, in frameInput) (marks []rect, values []cutValue) {
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
	l.histMax = top
	y := func(rate float64) float64 { return l.histTop + l.histH - math.Min(rate, top)/top*l.histH }
	bw := l.x(l.slice) - l.x(0)
	gap := 0.0
	if bw > 4 {
		gap = 1
	}
	// Stacked bars, one path per class, bottom up in a fixed order. A bar
	// cut at the top is drawn to it with each class's share in proportion
	// (cutShares): stacked as measured, its first classes filled the
	// scale and the later ones, the 429s of a first wave, were not drawn.
	order := histOrder
	shares := cutShares(rates, top)
	stack := make([]float64, len(bins)) // each bar's height so far
	for _, c := range order {
		cnt := 0
		o.FillStyle(classColour[c])
		o.BeginPath()
		for i := range bins {
			v := float64(bins[i][c]) * perSec * shares[i]
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
		}
	}
	for i, r := range rates {
		if r > 0 && first+i >= lo {
			y1 := y(r)
			marks = append(marks, rect{l.x(time.Duration(first+i) * l.slice), y1, bw - gap, l.histTop + l.histH - y1})
		}
	}
	// Bars cut at the top: a break mark, and under it their value in the
	// break, on the bar (else shifted along it, or rows lower) where it
	// covers no other value, no bar that is not cut and no boundary
	// between a cut bar's classes: the part of a cut bar that runs off the
	// scale, one colour, says nothing but that it goes on.
	outline := paintBaseline(o, l, baseRates, first, y)
	taken := slices.Clone(outline) // what the values keep clear of, and the values placed
	for i, r := range rates {
		if r <= 0 || first+i < lo {
			continue
		}
		low := r // the height under which the bar has boundaries
		if r > top {
			low = cutLow(bins[i], order, top)
		}
		if low > 0 {
			y1 := y(low)
			taken = append(taken, rect{l.x(time.Duration(first+i) * l.slice), y1, bw - gap, l.histTop + l.histH - y1})
		}
	}
	// The y axis' labels, which the values keep clear of by a few pixels
	// (a value half past the plot's left edge crowded "3000").
	for _, b := range histAxisBoxes(l, top) {
		taken = append(taken, rect{b.x - 3*s, b.y - 3*s, b.w + 6*s, b.h + 6*s})
	}
	for i, r := range rates {
		if r <= top || first+i < lo {
			continue
		}
		x := l.x(time.Duration(first+i) * l.slice)
		o.FillStyle(colPanel)
		o.Rect(x-1, l.histTop+5*s, bw+1, 3*s)
		tot := 0
		for _, n := range bins[i] {
			tot += n
		}
		if v, ok := placeCutValue(l, taken, r, rejectedShare(bins[i][fleet.ClassLimited], tot), x, bw, colText); ok {
			values = append(values, v)
			taken = append(taken, v.keep(s))
		}
	}
	// The baseline's outline where it runs along the top, off the scale:
	// its value, in its colour, as a cut bar's.
	// It may lie on the outline's steps up to the top and down from it at
	// the bin's edges, as a cut bar's on the part that runs off the scale
	// (wider than a narrow bin, it could lie nowhere else).
	for i, r := range baseRates {
		if r <= top || first+i < lo {
			continue
		}
		x0, x1 := l.x(time.Duration(first+i)*l.slice), l.x(time.Duration(first+i+1)*l.slice)
		obs := slices.DeleteFunc(slices.Clone(taken), func(q rect) bool {
			mid := q.x + q.w/2
			return q.h > q.w && slices.Contains(outline, q) && (math.Abs(mid-x0) < 0.5 || math.Abs(mid-x1) < 0.5)
		})
		if v, ok := placeCutValue(l, obs, r, "", x0, bw, colBase); ok {
			values = append(values, v)
			taken = append(taken, v.keep(s))
		}
	}
	return append(marks, outline...), values
}

// histOrder is the order the histogram stacks its classes in, bottom up.
var histOrder = []fleet.Class{fleet.ClassOK, fleet.ClassLimited, fleet.ClassFailed, fleet.ClassTimeout, fleet.ClassAborted, fleet.ClassPending}

// cutShares is, for each bar of rates, what its classes' heights are
// multiplied by: 1, or for a bar above top (cut at the top) top/rate, so
// that it reaches the top with each class's share of it in proportion.
func cutShares(rates []float64, top float64) []float64 {
	out := make([]float64, len(rates))
	for i, r := range rates {
		out[i] = 1
		if r > top {
			out[i] = top / r
		}
	}
	return out
}

// cutLow is the height, in req/s on the scale whose top is top, under
// which a bar of counts bin cut at the top has the boundaries between its
// classes: the bottom of its topmost class, the part its value may lie on.
func cutLow(bin [fleet.NumClasses]int, order []fleet.Class, top float64) float64 {
	tot, last := 0, -1
	for k, c := range order {
		if bin[c] > 0 {
			tot, last = tot+bin[c], k
		}
	}
	if last <= 0 {
		return 0
	}
	under := 0
	for _, c := range order[:last] {
		under += bin[c]
	}
	return float64(under) / float64(tot) * top
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
	pct := math.Round(float64(n) / float64(tot) * 100)
	switch {
	case pct < 1:
		return ", <1% rejected"
	case pct >= 100 && n < tot:
		pct = 99
	}
	return ", " + strconv.FormatFloat(pct, 'f', -1, 64) + "% rejected"
}

// placeCutValue finds where the value rate of a bin cut at the top, drawn
// from x, bw px wide, goes: under the break, on the bin (else shifted
// along it, or rows lower), clear of taken; with its rejected share
// (rejectedShare) after it where that has such a place, else without; in
// fewer digits ("19k") where the whole number has no such place; ok is
// false (no value) where none has.
func placeCutValue(l *layout, taken []rect, rate float64, share string, x, bw float64, col int) (v cutValue, ok bool) {
	texts := []string{rateText(rate * l.ratePer), shortRate(rate * l.ratePer)}
	if share != "" {
		texts = append([]string{texts[0] + share}, texts...)
	}
	for k, text := range texts {
		pr := plateRect(l, text, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
		w, h := pr.w, pr.h
		// Over its bar by at least half of the narrower of the two, and
		// at most half of it past the plot's edge.
		ov := math.Min(w, bw) / 2
		xlo, xhi := math.Max(l.left-w/2, x+ov-w), math.Min(l.right-w/2, x+bw-ov)
		rows := l.histTop + l.histH
		if share != "" && k == 0 {
			// With its share only under the break and inside the plot:
			// the number alone goes where that does not fit.
			xlo, xhi = math.Max(xlo, l.left), math.Min(xhi, l.right-w)
			rows = l.histTop + 8*l.scale + h + 1
		}
		for t := l.histTop + 8*l.scale; t+h < rows; t += h + 1 {
			if px, ok := clearX(taken, t, h, w, xlo, xhi, x+bw/2-w/2, 1); ok {
				return cutValue{text, rect{px, t, w, h}, col}, true
			}
		}
	}
	return cutValue{}, false
}

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
	return append(out, textBox(l, l.rateUnit, 6, l.histTop+l.histH/4, fontSmall, browser.AlignLeft))
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
	if len(rates) == 0 {
		return nil
	}
	s := l.scale
	for _, style := range [2]struct {
		col   int
		width float64
	}{{colBG, 4 * s}, {colBase, 2 * s}} {
		o.StrokeStyle(style.col, style.width, 0)
		prevY := math.NaN()
		for i, r := range rates {
			x0, x1 := l.x(time.Duration(first+i)*l.slice), l.x(time.Duration(first+i+1)*l.slice)
			yy := math.Round(y(r)) + 0.5
			if !math.IsNaN(prevY) && prevY != yy {
				o.Line(x0, prevY, x0, yy)
				if style.col == colBG {
					segs = append(segs, lineRect(x0, prevY, x0, yy, style.width))
				}
			}
			o.Line(x0, yy, x1, yy)
			if style.col == colBG {
				segs = append(segs, lineRect(x0, yy, x1, yy, style.width))
			}
			prevY = yy
		}
	}
	return segs
}

// lineRect is the rectangle a horizontal or vertical line of width w covers.
func lineRect(x1, y1, x2, y2, w float64) rect {
	return rect{math.Min(x1, x2) - w/2, math.Min(y1, y2) - w/2, math.Abs(x2-x1) + w, math.Abs(y2-y1) + w}
}

// paintHistogramUnit writes the histogram's unit in the y-label column, a
// quarter of the way down: between the top and middle ticks, so a long
// tick label (25000 in a 10,000-worker simulation) never runs into it.
func paintHistogramUnit(o *browser.Ops, l *layout) {
	o.Text(l.rateUnit, 6, l.histTop+l.histH/4, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
}

// paintHistogramAxis draws the histogram's y labels and its limit lines,
// over the bars and outside the clip. marks are where the bars, the
// baseline's outline and the bursts' lines are (paintHistogram): the
// lines' labels are placed where they hide none of them.
func paintHistogramAxis(o *browser.Ops, l *layout, squeezes []squeeze, in frameInput, marks []rect) {
	s := l.scale
	top := l.histMax
	if top <= 0 {
		return
	}
	y := func(rate float64) float64 { return l.histTop + l.histH - math.Min(rate, top)/top*l.histH }
	o.FillStyle(colMuted)
	for _, v := range []float64{0, top / 2, top} {
		o.Text(rateText(v*l.ratePer), l.left-6, y(v), fontSmall, browser.AlignRight, browser.BaselineMiddle)
	}
	// A label in as many words as fit (shorterLabels); a limit above the
	// scale is drawn along the top, its label saying so (in fewer words,
	// or none, in a narrow plot).
	labelTexts := func(label string, rate float64) []string {
		short := shorterLabels(label)
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
	var labels, scaled []lineLabel // scaled: "limit ×0.5", placed last (optional)
	if in.lim.server > 0 {
		// The line steps down where the limit was scaled; the label names
		// the part at its right end.
		yy := math.Round(y(in.lim.server)) + 0.5
		endY, endFrom, endLabel := yy, l.left, in.lim.serverLabel
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
				endY, endFrom, endLabel = qy, x1, label // the label at the right end names the limit there
			}
			scaled = append(scaled, lineLabel{texts: []string{"limit ×" + trimFloat(q.scale)}, y: qy, from: x1, to: x2, left: true, above: true, col: colLimit, optional: true})
			x = x2
		}
		if x < l.right {
			line(x, yy, l.right, yy)
		}
		// Dashes on a casing, which keeps them in sight on the bars.
		for _, style := range [2][3]float64{{colBG, 3.5 * s, 0}, {colLimit, 1.5 * s, 6 * s}} {
			o.StrokeStyle(int(style[0]), style[1], style[2])
			for _, g := range segs {
				o.Line(g[0], g[1], g[2], g[3])
			}
		}
		end := lineLabel{texts: shorterLabels(endLabel), y: endY, from: endFrom, to: l.right, above: true, col: colLimit}
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
		labels = append(labels, lineLabel{texts: labelTexts("fleet bucket "+rateText(in.lim.client)+" req/s", in.lim.client), y: yy, from: l.left, to: l.right, left: true, col: colClient})
	}
	for _, lb := range append(labels, scaled...) {
		placeLabel(o, l, &marks, lb)
	}
}

// placeLabel draws lb on a plate where it covers none of marks
// (placeLineLabel), and adds it to them. Where there is no such place it
// is left out if optional, else drawn at its line's end, as readable as
// it gets.
func placeLabel(o *browser.Ops, l *layout, marks *[]rect, lb lineLabel) {
	// In fewer words where the whole label does not fit, or only further
	// from its line by more than a line of text.
	text, r, ok, best := "", rect{}, false, math.Inf(1)
	for i, t := range lb.texts {
		if tr, d, tok := placeLineLabel(l, *marks, lb, t); tok && d+float64(i)*tr.h < best {
			text, r, ok, best = t, tr, true, d+float64(i)*tr.h
		}
	}
	if !ok {
		if lb.optional {
			return // "limit ×0.5": the shading and the line's step say it
		}
		if text = fitText(lb.texts, l.right-l.left-8, fontLabel, l.scale); text == "" {
			text = lb.texts[len(lb.texts)-1]
		}
		r = plateRect(l, text, l.right-4, lb.y-3, fontLabel, browser.AlignRight, browser.BaselineBottom)
		if lb.left {
			r = plateRect(l, text, lb.from+4, lb.y+3, fontLabel, browser.AlignLeft, browser.BaselineTop)
		}
	}
	*marks = append(*marks, platedText(o, l, text, r.x+2, r.y+r.h/2, fontLabel, browser.AlignLeft, browser.BaselineMiddle, lb.col))
}

// lineLabel is a label of a horizontal line across the histogram: the
// limit line's, a stretch's "limit ×0.5", the fleet bucket's.
type lineLabel struct {
	texts    []string // the label, then in fewer words (shorterLabels)
	y        float64  // the line's
	from, to float64  // the part of the line it names (x)
	left     bool     // nearest the part's left end (else its right end)
	above    bool     // above the line where both sides have room (else below)
	col      int
	optional bool // left out where there is no clear place
}

// shorterLabels is a line's label, then the same in fewer words, for a
// narrow plot: "server limit 10 req/s (burst 10)", "server limit 10
// req/s", "limit 10 req/s".
func shorterLabels(label string) []string {
	out := []string{label}
	if i := strings.IndexAny(label, "(;"); i > 0 {
		out = append(out, strings.TrimSpace(label[:i]))
	}
	for _, p := range []string{"server ", "fleet "} {
		if last := out[len(out)-1]; strings.HasPrefix(last, p) {
			out = append(out, strings.TrimPrefix(last, p))
		}
	}
	return out
}

// placeLineLabel finds where lb's plate for text goes: just above or below
// its line (lb.above: above first), as near its part's chosen end as it is
// clear of marks; else, further from the line (by d px), the clear place
// nearest to it, within the histogram. ok is false when there is none.
func placeLineLabel(l *layout, marks []rect, lb lineLabel, text string) (r rect, d float64, ok bool) {
	const gap = 3 // px between the line and the plate
	r = plateRect(l, text, 0, 0, fontLabel, browser.AlignLeft, browser.BaselineMiddle)
	// Over the part it names: at least half of it, or half the part.
	ov := math.Min(r.w, lb.to-lb.from) / 2
	lo, hi := math.Max(l.left+2, lb.from+ov-r.w), math.Min(l.right-2-r.w, lb.to-ov)
	prefer := hi
	if lb.left {
		prefer = lo
	}
	minY, maxY := l.histTop+1, l.histTop+l.histH-1
	for d := 0.0; d <= l.histH; d += 2 {
		for _, up := range [2]bool{lb.above, !lb.above} {
			t := lb.y + gap + d
			if up {
				t = lb.y - gap - r.h - d
			}
			if t < minY || t+r.h > maxY {
				continue
			}
			if x, ok := clearX(marks, t, r.h, r.w, lo, hi, prefer, 2*l.scale); ok {
				return rect{x, t, r.w, r.h}, d, true
			}
		}
	}
	return rect{}, 0, false
}

// clearX finds the left edge of a w px wide box across the band [top,
// top+h] that keeps pad px clear of every rectangle of obs, between xlo and
// xhi, nearest to prefer; ok is false when there is none.
func clearX(obs []rect, top, h, w, xlo, xhi, prefer, pad float64) (x float64, ok bool) {
	if xhi < xlo {
		return 0, false
	}
	type span struct{ a, b float64 }
	var busy []span
	for _, r := range obs {
		if r.y < top+h+pad && top-pad < r.y+r.h && r.x-pad < xhi+w && xlo < r.x+r.w+pad {
			busy = append(busy, span{r.x - pad, r.x + r.w + pad})
		}
	}
	slices.SortFunc(busy, func(p, q span) int { return cmp.Compare(p.a, q.a) })
	best, bestD := 0.0, math.Inf(1)
	gap := func(g0, g1 float64) { // free from g0 to g1
		lo, hi := math.Max(g0, xlo), math.Min(g1-w, xhi)
		if hi < lo {
			return
		}
		c := math.Max(lo, math.Min(prefer, hi))
		if d := math.Abs(c - prefer); d < bestD {
			best, bestD = c, d
		}
	}
	at := math.Inf(-1)
	for _, b := range busy {
		if b.a > at {
			gap(at, b.a)
		}
		at = math.Max(at, b.b)
	}
	gap(at, math.Inf(1))
	return best, !math.IsInf(bestD, 1)
}

// paintOverlay draws what follows the pointer and the selection: the
// crosshair across every panel, the selected attempt, its job's other
// attempts and its arrival at the server.
func paintOverlay(o *browser.Ops, l *layout, m *model, th *theme, crossX float64, sel, selArr int) {
	o.Reset()
	o.Palette, o.Fonts = th.palette, th.fonts
	s := l.scale
	if crossX >= l.left && crossX <= l.right {
		o.StrokeStyle(colCross, 1, 0)
		x := math.Round(crossX) + 0.5
		o.Line(x, l.lanesTop, x, l.bottom)
		t := l.t(crossX)
		lab := strconv.FormatFloat(t.Seconds(), 'f', 3, 64) + " s"
		w := math.Max(60*s, fontWidth(lab, fontSmall, s)+10*s)
		plate := rect{x - w/2, l.bottom + 3*s, w, 16 * s}
		// The axis' labels it would overlap (it covered part of "7.5 s")
		// are hidden under the background while it is there.
		o.FillStyle(colBG)
		for _, a := range l.axisLabels() {
			if b := a.box(l, l.bottomAxisY()); b.overlaps(rect{plate.x - 3*s, plate.y, plate.w + 6*s, plate.h}) {
				o.Rect(b.x-2, b.y-1, b.w+4, b.h+2)
			}
		}
		o.FillStyle(colText)
		o.Rect(plate.x, plate.y, plate.w, plate.h)
		o.FillStyle(colBG)
		o.Text(lab, x, l.bottom+11*s, fontSmall, browser.AlignCenter, browser.BaselineMiddle)
	}
	if m != nil && sel < 0 && selArr >= 0 && selArr < len(m.arrivals) {
		a := &m.arrivals[selArr]
		if x := l.x(a.at); x >= l.left && x <= l.right {
			o.StrokeStyle(colSelect, 2, 0)
			o.BeginPath()
			o.Shape(browser.Circle, x, l.srvY(a.seq), 6*s)
			if y, ok := l.devY(m, a); ok { // and in its device's lane
				o.Shape(browser.Circle, x, y, l.markR+4)
			}
			o.StrokePath()
		}
		return
	}
	if m == nil || sel < 0 || sel >= len(m.marks) {
		return
	}
	// The job's attempts, joined in order, inside the plot (zoomed in,
	// some lie outside the window).
	l.plotClip(o, l.markR+6, 6)
	defer o.Restore()
	first := sel
	for m.marks[first].prev >= 0 {
		first = m.marks[first].prev
	}
	o.StrokeStyle(colSelect, 1.25, 0)
	o.BeginPath()
	for i := first; i >= 0; i = m.marks[i].next {
		k := &m.marks[i]
		o.Shape(browser.Circle, l.x(k.sent), l.rowY(k.worker, k.slot), l.markR+2.5)
	}
	o.StrokePath()
	if m.marks[first].next >= 0 {
		o.StrokeStyle(colSelect, 1, 2)
		for i := first; m.marks[i].next >= 0; i = m.marks[i].next {
			a, b := &m.marks[i], &m.marks[m.marks[i].next]
			o.Line(l.x(a.sent), l.rowY(a.worker, a.slot), l.x(b.sent), l.rowY(b.worker, b.slot))
		}
	}
	k := &m.marks[sel]
	x, y := l.x(k.sent), l.rowY(k.worker, k.slot)
	o.StrokeStyle(colSelect, 2.5, 0)
	o.BeginPath()
	o.Shape(browser.Circle, x, y, l.markR+4)
	o.StrokePath()
	if k.hasServer {
		sx, sy := l.x(k.serverAt), l.srvY(k.serverSeq)
		o.StrokeStyle(colSelect, 1, 3)
		o.Line(x, y, sx, sy)
		o.StrokeStyle(colSelect, 2, 0)
		o.BeginPath()
		o.Shape(browser.Circle, sx, sy, 6*s)
		o.StrokePath()
	}
}

// hit finds the attempt drawn nearest to (x, y), within reach pixels: in
// the worker lanes by its send mark, in the server panel by its arrival.
// It returns -1 when there is none.
func hit(l *layout, m *model, x, y float64) int {
	if m == nil || x < l.left-8 || x > l.right+8 {
		return -1
	}
	const reach = 10.0
	best, bestD := -1, reach*reach
	consider := func(i int, px, py float64) {
		if px < l.left || px > l.right { // clipped away: not on screen
			return
		}
		if d := (px-x)*(px-x) + (py-y)*(py-y); d <= bestD {
			best, bestD = i, d
		}
	}
	lanesBottom := l.lanesTop + l.laneH*float64(l.workers)
	switch {
	case !m.watch && y >= l.lanesTop-reach && y <= lanesBottom+reach: // a watch's lanes hold arrivals (hitArrival)
		w := int((y - l.lanesTop) / l.laneH)
		d := int(math.Ceil(reach / l.laneH))
		tLo, tHi := l.t(x-reach), l.t(x+reach)
		for lw := max(0, w-d); lw <= min(l.workers-1, w+d); lw++ {
			lane := m.lanes[lw]
			j := sort.Search(len(lane), func(i int) bool { return m.marks[lane[i]].sent >= tLo })
			for ; j < len(lane) && m.marks[lane[j]].sent <= tHi; j++ {
				k := &m.marks[lane[j]]
				consider(lane[j], l.x(k.sent), l.rowY(lw, k.slot))
			}
		}
	case y >= l.srvTop && y <= l.srvTop+l.srvH:
		for i := range m.marks {
			if k := &m.marks[i]; k.hasServer {
				consider(i, l.x(k.serverAt), l.srvY(k.serverSeq))
			}
		}
	}
	return best
}

// hitArrival finds the arrival drawn nearest to (x, y) in the server
// panel that is not one of the page's attempts (those are hit as
// attempts), within reach pixels, or -1.
func hitArrival(l *layout, m *model, x, y float64) int {
	const reach = 8.0
	if m == nil || x < l.left || x > l.right {
		return -1
	}
	inLanes := m.watch && l.names != nil && y >= l.lanesTop-reach && y <= l.lanesTop+l.laneH*float64(l.workers)+reach
	if !inLanes && (y < l.srvTop || y > l.srvTop+l.srvH) {
		return -1
	}
	best, bestD := -1, reach*reach
	tLo, tHi := l.t(x-reach), l.t(x+reach)
	for i := range m.arrivals {
		a := &m.arrivals[i]
		if a.mark >= 0 || a.at < tLo || a.at > tHi {
			continue
		}
		px, py := l.x(a.at), l.srvY(a.seq)
		if inLanes {
			py, _ = l.devY(m, a)
		}
		if d := (px-x)*(px-x) + (py-y)*(py-y); d <= bestD {
			best, bestD = i, d
		}
	}
	return best
}

// devY is the y of a watch's arrival a in its device's lane, if it has one.
func (l *layout) devY(m *model, a *arrival) (float64, bool) {
	if !m.watch || l.names == nil || a.dev >= l.workers {
		return 0, false
	}
	return l.laneY(a.dev), true
}

// platedText draws text in colour col on a light plate, so that a label
// on the histogram's limit line or in the server panel reads over the bars
// and marks under it. The plate's size is estimated from the text
// (fontWidth); platedText returns where it is.
func platedText(o *browser.Ops, l *layout, text string, x, y float64, font, align, baseline, col int) rect {
	r := plateRect(l, text, x, y, font, align, baseline)
	o.FillStyle(colBG)
	o.Alpha(0.8)
	o.Rect(r.x, r.y, r.w, r.h)
	o.Alpha(1)
	o.FillStyle(col)
	o.Text(text, x, y, font, align, baseline)
	return r
}

// rect is a rectangle on the canvas.
type rect struct{ x, y, w, h float64 }

func (a rect) overlaps(b rect) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// plateRect is where platedText puts the plate of text.
func plateRect(l *layout, text string, x, y float64, font, align, baseline int) rect {
	w, h := fontWidth(text, font, l.scale), 13*l.scale
	if font != fontSmall {
		h = 15 * l.scale
	}
	px, py := x, y
	switch align {
	case browser.AlignRight:
		px -= w
	case browser.AlignCenter:
		px -= w / 2
	}
	switch baseline {
	case browser.BaselineBottom:
		py -= h
	case browser.BaselineMiddle:
		py -= h / 2
	}
	return rect{px - 2, py, w + 4, h}
}

// titleWidth estimates the width of a bold label, plus a gap (the canvas
// cannot be asked without a round trip to JavaScript).
func titleWidth(t string, scale float64) float64 {
	return fontWidth(t, fontTitle, scale) + 12*scale
}

// smallWidth is about how wide t is in the small font.
func smallWidth(t string, scale float64) float64 {
	return fontWidth(t, fontSmall, scale)
}

// fitText is the first of texts, longest first, no wider than w in font
// ("" when none is).
func fitText(texts []string, w float64, font int, scale float64) string {
	for _, t := range texts {
		if fontWidth(t, font, scale) <= w {
			return t
		}
	}
	return ""
}

// wrapText breaks t at spaces into lines no wider than w in font (a word
// wider than w alone on its line).
func wrapText(t string, w float64, font int, scale float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(t) {
		switch {
		case line == "":
			line = word
		case fontWidth(line+" "+word, font, scale) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// wrapLink breaks a link into lines no wider than w in font, after each
// '&' that lets the line fit; a part wider than w alone is broken where
// the line is full. Its lines joined are the link, character for
// character.
func wrapLink(link string, w float64, font int, scale float64) []string {
	var lines []string
	line := ""
	for part := range strings.SplitAfterSeq(link, "&") {
		if line != "" && fontWidth(line+part, font, scale) > w {
			lines = append(lines, line)
			line = ""
		}
		for _, r := range part {
			if line != "" && fontWidth(line+string(r), font, scale) > w {
				lines = append(lines, line)
				line = ""
			}
			line += string(r)
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// sansWidths are the advance widths of the printable ASCII characters,
// from ' ' to '~', in DejaVu Sans, thousandths of an em: the sans-serif a
// Linux browser draws the canvas's system-ui text in, and a little wider
// than Roboto, San Francisco or Segoe UI, so that text estimated with them
// fits where it is said to on any of them.
var sansWidths = [...]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // space to /
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // 0 to ?
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // @ to O
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // P to _
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // ` to o
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, // p to ~
}

// fontWidth estimates how wide t is in one of the theme's fonts (fontSmall,
// fontLabel, fontTitle: 11, 12 and bold 12 px, times scale), from the
// widths of its characters: sansWidths, × as wide as +, an em for any
// other (…, — and most letters are no wider), and bold about 14% wider.
func fontWidth(t string, font int, scale float64) float64 {
	em := 0
	for _, r := range t {
		if i := int(r - ' '); i >= 0 && i < len(sansWidths) {
			em += int(sansWidths[i])
		} else if r == '×' {
			em += int(sansWidths['+'-' '])
		} else {
			em += 1000
		}
	}
	px := 12 * scale
	if font == fontSmall {
		px = 11 * scale
	}
	w := float64(em) / 1000 * px
	if font == fontTitle {
		w *= 1.14
	}
	return w
}

// rateText formats a rate in req/s as trimFloat does, with the digits a
// rate under 0.1 needs to keep three significant ones (a limit of 0.001
// req/s, a long run's scale of 0.005): two decimals would write 0 or
// double it.
func rateText(f float64) string {
	if a := math.Abs(f); a == 0 || a >= 0.1 || math.IsNaN(a) || math.IsInf(a, 0) {
		return trimFloat(f)
	}
	prec := 2 - int(math.Floor(math.Log10(math.Abs(f))))
	s := strconv.FormatFloat(f, 'f', prec, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// trimFloat formats f with at most two decimals and no trailing zeros.
func trimFloat(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}
