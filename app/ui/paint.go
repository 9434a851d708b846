package ui

import (
	"math"
	"slices"
	"strconv"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core"
)

// frameInput is everything one paint needs.
type frameInput struct {
	th        *theme
	running   bool
	now       time.Duration // the run's current time (the "now" line while running)
	lim       limits
	base      *baselineDraw // the baseline's outline on the histogram, or nil
	invalid   int           // before a run: values to fix in the inputs first (the empty timeline says so)
	cannot    cannot        // before a run: what the configuration, valid, cannot do
	computing bool          // a simulation is being computed: the empty timeline says so
	drawing   bool          // computing, and computed: it is being drawn (Stop leaves it undrawn)
}

// cannot is what a valid configuration cannot do, for the empty timeline's
// hint: why a live run cannot take it (the first of Scenario.LiveErrors),
// and whether Simulate cannot either.
type cannot struct {
	live     string
	sim      bool
	arrivals bool // the user's own URL: no arrivals stream to draw the server panel from
}

func cannotOf(s *fleet.Scenario) cannot {
	var c cannot
	if errs := s.LiveErrors(); len(errs) > 0 {
		c.live = errs[0].Msg
	}
	c.sim = s.SimErrors() != nil
	c.arrivals = s.Target != ""
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
		case m.drawsPictures(v.arrivals.n(len(m.arrivals))):
			paintDenseArrivals(o, l, m, v.arrivals, in.th)
		default:
			paintServer(o, l, m, v.arrivals)
		}
		var onStack [burstsOnStack]histBurst
		hist := paintServerLabels(o, l, m, onStack[:0])
		paintNow(o, l, in)
		o.Restore()
		paintHistogramPanel(o, l, m, in, hist)
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
	o.FillStyle(colPanel)
	o.Rect(l.left, l.lanesTop, plotW, l.lanesH())
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
	case m != nil && m.watch && in.running && l.from > 0: // watchWindow
		clock = []string{"time since Watch: its last minute (the whole of it once it ends)", "time since Watch: its last minute", "time since Watch"}
	case m != nil && m.watch:
		clock = []string{"time since Watch"}
	}
	o.Text(fitText(clock, l.right-4, fontSmall, s), l.right, l.bottom+24*s, fontSmall, browser.AlignRight, browser.BaselineMiddle)

	// Panel titles, above the panels (the lanes' is the top axis row's:
	// paintTopAxis).
	o.FillStyle(colText)
	// A panel's note says less, or nothing, where the whole of it does not
	// fit between its title and the plot's right edge (a phone).
	// The title names the unit, and so the bin under a second (each bar
	// the requests in it: "Requests sent per 250 ms"); a bin longer than
	// its unit is an average, under the peak card's most in any 1 s.
	// With no limit line (the user's own URL, a mock with no limiter and
	// no fleet bucket) a bar of a bin under a second needs no word: "limits
	// scaled to 500 ms" named limits not drawn (a review).
	bins := secondsLabel(l.slice, l.slice, l.slice) + " bins"
	if l.ratePer < 1 {
		bins = "limits scaled to " + l.rateWord
		if in.lim.server == 0 && in.lim.client == 0 {
			bins = ""
		}
	} else if l.slice.Seconds() > l.ratePer {
		bins = "averaged over " + bins
	}
	sent, stacked := "by send time", "stacked by outcome"
	if m != nil && m.watch {
		sent, stacked = "by arrival", "stacked by the server's answer"
	}
	histNotes := []string{sent + ", " + bins + ", " + stacked, sent + ", " + bins, bins}
	if bins == "" {
		histNotes = []string{sent + ", " + stacked, sent}
	}
	histTitle := "Requests sent per " + l.rateWord
	if m != nil && m.watch {
		histTitle = "Requests received per " + l.rateWord
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
	case m != nil && m.ownServer, m == nil && in.cannot.arrivals: // before a run too (a review)
		srvNotes = []string{"not available for your own URL: only the built-in mock streams its arrivals", "not available for your own URL", "not available"}
	case m != nil && m.simulated:
		srvNotes = []string{"each request when the simulated server received it (no other clients are simulated)", "each request when the simulated server received it", "simulated"}
	case m != nil && m.watch && m.pictured:
		srvNotes = []string{"everyone in the shared room, by the server's answer; by colour only, too many for shapes", "everyone in the shared room, by colour only", "the whole room"}
	case m != nil && m.watch:
		srvNotes = []string{"everyone in the shared room, by the server's answer", "everyone in the shared room", "the whole room"}
	case m != nil && m.room:
		srvNotes = []string{"the whole shared room: yours in colour, other clients in grey", "yours in colour, others in grey", "others in grey"}
	case m != nil && m.others:
		srvNotes = []string{"each request when the server received it; grey: another client's (Burst)", "grey: another client's (Burst)", "grey: Burst"}
	}
	if m != nil && m.shift != 0 { // what else the note says matters less than that the panel's times were moved
		off, ahead := m.shift, "ahead of"
		if off < 0 {
			off, ahead = -off, "behind"
		}
		d := human.Duration(off)
		srvNotes = []string{"the server's clock is about " + d + " " + ahead + " this device's: its times are drawn moved onto this device's", "server's clock ~" + d + " " + ahead + " this device's: moved", "clock moved " + d}
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
		case in.drawing:
			hints = []string{"Simulated in virtual time: drawing the timeline…", "Drawing the timeline…", "Drawing…"}
		case in.computing:
			hints = []string{"Simulating in virtual time: the timeline is drawn when it is done, or when Stop (s) ends it.", "Simulating in virtual time…", "Simulating…"}
		case in.invalid > 0:
			fix := "Fix " + fieldCount(in.invalid) + " first"
			hints = []string{fix + ": Run and Simulate wait for valid values (the messages are beside the inputs).", fix + " to run or simulate.", fix}
		case l.workers == 1:
			hints[0] = "Press Run (r): the lane will be the one worker's, each mark one real request."
		case l.workers > fleet.WorkersRange.Max && !in.cannot.sim:
			hints = []string{"Press Simulate (m): " + thousands(l.workers) + " workers are more than a live run takes; they run in virtual time.", "Press Simulate (m): too many workers for a live run.", "Press Simulate (m)"}
		case in.cannot.live != "" && !in.cannot.sim: // an open workload's jobs too many a second for a live run
			hints = []string{"Press Simulate (m); Run cannot take this: " + in.cannot.live + ".", "Press Simulate (m): too much for a live run.", "Press Simulate (m)"}
		case in.cannot.live != "": // a custom target with an outage, or more workers than a live run takes: neither starts
			hints = []string{"Neither Run nor Simulate can start: the status line says why.", "Run cannot start: see the status line.", "Run cannot start"}
		}
		// On as many lines as the plot's width needs (a phone), and as
		// the lanes' panel holds (one or two lanes hold one line): the
		// first hint that fits, else the shortest on one line.
		// Without lanes (no workers to draw) the hint is in the empty
		// histogram.
		top, height := l.lanesTop, l.lanesH()
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
		l.hint = rect{l.left, y - 8*s, l.right - l.left, float64(len(lines)) * 16 * s}
	}
}

// pngLegend is the legend a PNG carries under its head: the page's legend
// items (legendOutcomes, legendPhases) as the page lists them for what is
// drawn (legendItem.listed: a watch's without what only a fleet draws, a
// simulation's without what only a browser and a server make), less what
// did not happen in it (a hidden tab, an outage, a halved limit, another
// client's requests, a fleet bucket), so that it stays short.
func pngLegend(m *model, in *frameInput) []legendItem {
	k := m.shows()
	var out []legendItem
	for _, list := range [][]legendItem{legendOutcomes, legendPhases} {
		for _, it := range list {
			if it.listed(k) && it.sample.drawn(m, in) {
				out = append(out, it)
			}
		}
	}
	return out
}

// shows is what m is the timeline of (nil: a run's, none yet).
func (m *model) shows() kindShown {
	switch {
	case m == nil:
		return showsRun
	case m.watch:
		return showsWatch
	case m.simulated:
		return showsSim
	}
	return showsRun
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
	case sampleNow:
		return in.running
	case sampleWait:
		return sm.reason != core.ReasonBucket || in.lim.client > 0
	case sampleMark:
		return sm.class != fleet.ClassPending || m != nil && m.anyInFlight()
	}
	return true
}

// anyInFlight reports whether an attempt of m has had no answer yet.
func (m *model) anyInFlight() bool {
	for i := range m.marks {
		if m.marks[i].end < 0 {
			return true
		}
	}
	return false
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
		// The mark, then its part of a histogram bar, patterned
		// (classPattern), as the page's legend shows them.
		r := 5 * s
		sx, sw := x+w-7*s, 7*s
		o.FillStyle(classColour[sm.class])
		o.Rect(sx, y-6*s, sw, 12*s)
		o.Clip(sx, y-6*s, sw, 12*s)
		hatchClass(o, sm.class, sx, y-6*s, sw, 12*s, s)
		o.Restore()
		o.BeginPath()
		o.Shape(classShape[sm.class], x+6*s, y, r)
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
		if e := reasonEdge(sm.reason); e >= 0 {
			o.StrokeStyle(e, waitEdgeW, 0)
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
		strokeLimit(o, s, [4]float64{x, y + row/2 - 1, x + w, y + row/2 - 1})
	case sampleOther:
		o.BeginPath()
		o.Shape(browser.Circle, x+w/2, y, 4*s) // larger than in the server panel: its grey must show
		o.FillStyle(colOther)
		o.FillPath()
	case sampleLimit:
		strokeLimit(o, s, [4]float64{x, y, x + w, y})
	case sampleClient:
		o.StrokeStyle(colClient, 1.5*s, 2*s)
		o.Line(x, y, x+w, y)
	case sampleNow:
		o.StrokeStyle(colAxis, 1, 3)
		o.Line(x+w/2, y-row/2, x+w/2, y+row/2)
	}
}

// paintNow draws the "now" line of a run going on (the legend's "now",
// sampleNow: the same colour and dashes).
func paintNow(o *browser.Ops, l *layout, in frameInput) {
	if in.running {
		x := l.x(in.now)
		o.StrokeStyle(colAxis, 1, 3)
		o.Line(x, l.lanesTop, x, l.bottom)
	}
}

// paintOutlines draws the panels' outlines, crisp over the content.
func paintOutlines(o *browser.Ops, l *layout) {
	plotW := l.right - l.left
	o.StrokeStyle(colAxis, 1, 0)
	if l.workers > 0 {
		o.StrokeRect(l.left+0.5, l.lanesTop+0.5, plotW-1, l.lanesH())
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
		o.Text(l.laneName(w), l.labelRight(), l.laneLabelY(w), fontSmall, browser.AlignRight, browser.BaselineMiddle)
	}
	if l.names != nil {
		for w := 0; w < l.workers; w += every {
			label(w)
		}
		return
	}
	// Workers are numbered from 1, as the tooltip numbers them. Every
	// other lane is w1, w3, …, so that the top lane has its label (w2, w4,
	// … left it bare). Sparser, every every-th (w5, w10, …), and w1 when
	// there is room above w<every> for it, moved down into the lanes
	// (laneLabelY), and its lane is tall enough to hold its label clear
	// of the panel's title ("workers"), over the top lane: 501 workers'
	// lanes are under 1 px, and w1 touched the title.
	if every == 2 {
		for w := 0; w < l.workers; w += 2 {
			label(w)
		}
		return
	}
	if every > 1 && l.laneLabelY(every-1)-l.laneLabelY(0) >= 13*s && l.laneH >= 4*s {
		label(0)
	}
	for n := every; n <= l.workers; n += every {
		label(n - 1)
	}
}

// laneLabelY is the middle of lane w's label: its lane's middle, moved
// down or up as far as it takes to keep the label's text inside the lanes.
// Centred on a lane thinner than the text, w1 reached over the lanes' top
// edge, under the sticky time axis (layout.stickyAxisH), which cut it off
// (presentation mode's flood: 12 px of text on 5.6 px lanes).
func (l *layout) laneLabelY(w int) float64 {
	half := laneLabelH * l.scale / 2
	top, bottom := l.lanesTop+half, l.lanesBottom()-half
	return math.Max(top, math.Min(bottom, l.laneY(w)))
}

// laneLabelH is the height of a lane's label (the small font's box,
// textBox), CSS px at scale 1.
const laneLabelH = 11

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
// button) across every panel, under the marks, and edges them with a
// dashed line in the lanes and the server panel; histOnly
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
			o.Rect(x1, l.lanesTop, x2-x1, l.lanesH())
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
			// Down the lanes and the server panel: one line from the
			// lanes to the foot crossed the titles between the panels
			// (a review). The histogram has its shading alone: its
			// labels (the limit's, a cut bar's value) lay over the line.
			x := math.Round(e.x) + 0.5
			if l.workers > 0 {
				o.Line(x, l.lanesTop, x, l.lanesBottom())
			}
			o.Line(x, l.srvTop, x, l.srvTop+l.srvH)
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

// burstReach is how far from its line a burst's label may lie, CSS px:
// any further, it is no longer beside the line.
const burstReach = 6

// paintServerLabels writes, over the server panel's arrivals, "server
// down" in each outage and what each burst brought: each where it covers
// no arrival, no outage's edge, no burst's line and no other label — in
// its stretch (else across its edge) for an outage, beside its line for a
// burst, on the top row or as near it as there is room, in fewer words
// where the whole has none (a phone). A burst's label with no such place
// goes beside the same line in the histogram (paintHistBurstLabels): at
// 1024 px, among a run's columns of retries, it lay on a plate over the
// arrivals beside its line (a review). Where there is none at all, the
// whole label is drawn on a plate over the dots. It returns hist with
// those bursts' labels appended, for paintHistBurstLabels.
func paintServerLabels(o *browser.Ops, l *layout, m *model, hist []histBurst) []histBurst {
	if len(m.outages) == 0 && len(m.bursts) == 0 {
		return hist
	}
	s := l.scale
	type label struct {
		texts    []string // in fewer words where the whole does not fit
		col      int
		plate    bool
		from, to float64 // an outage's stretch; a burst's line: from == to
	}
	var labels []label
	var lines []rect  // the outages' edges, the bursts' lines, the labels placed
	var placed []rect // the labels placed
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
	reach := burstReach * s
	for _, lb := range labels {
		// What may lie where lb can go: the dots within reach of its
		// stretch or line (every dot, copied for each of its texts and
		// scanned at each row tried, made a frame with 16 bursts take
		// twice as long: a review).
		wmax := plateRect(l, lb.texts[0], 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle).w
		near := within(dots, lb.from-wmax-reach-16*s, lb.to+wmax+reach+16*s)
		obs := append(near, lines...)
		// place finds lb's box clear of obs, in fewer words only where
		// the whole has no such place, and in which words.
		place := func(obs []rect) (string, rect, bool) {
			for _, t := range lb.texts {
				pr := plateRect(l, t, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
				w, h := pr.w, pr.h
				lo, hi := l.left+2, l.right-2-w
				r, ok := rect{}, false
				if lb.from < lb.to { // an outage: inside it, else across its edge
					if r, ok = placeNear(obs, l, w, h, math.Max(lo, lb.from+2), math.Min(hi, lb.to-2-w), lb.from+2); !ok {
						r, ok = placeNear(obs, l, w, h, math.Max(lo, lb.from+12*s-w), math.Min(hi, lb.to-12*s), lb.from+2)
					}
				} else {
					r, ok = placeBeside(obs, l, l.srvTop, l.srvH, w, h, lb.from)
				}
				if ok {
					return t, r, true
				}
			}
			return "", rect{}, false
		}
		text, r, ok := place(obs)
		overDots := !ok
		if !ok && lb.from == lb.to {
			// A burst's, nowhere clear of the dots: beside its line in the
			// histogram (paintHistBurstLabels), else here in its fewest
			// words where it covers the fewest.
			text = lb.texts[len(lb.texts)-1]
			pr := plateRect(l, text, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
			r, ok = coverFewest(lines, near, l, pr.w, pr.h, lb.from)
		}
		if !ok {
			// Nowhere clear of the dots: on a plate over them, clear of
			// the lines and the other labels.
			if text, r, ok = place(lines); !ok {
				// Across a line, then: the whole label, by its line or
				// stretch, below the labels placed before it (a burst's
				// plate lay over the outage's "server down").
				text = lb.texts[0]
				pr := plateRect(l, text, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
				x := lb.from + 2
				if lb.from == lb.to && x+pr.w > l.right-2 {
					x = lb.from - 2 - pr.w // a burst near the right edge: at its left
				}
				r = rect{math.Max(l.left+2, math.Min(x, l.right-2-pr.w)), l.srvTop + 2, pr.w, pr.h}
				r.y = below(r, placed, l.srvTop+l.srvH-1)
			}
			lb.plate = true
		}
		lines = append(lines, r) // the next labels keep clear of it
		placed = append(placed, r)
		if overDots && lb.from == lb.to {
			// A burst's: in the histogram, else here (kept for it).
			hist = append(hist, histBurst{lb.texts, lb.from, text, r})
			continue
		}
		if lb.plate {
			platedText(o, l, text, r.x+2, r.y+r.h/2, fontSmall, browser.AlignLeft, browser.BaselineMiddle, lb.col, plateAlpha)
			continue
		}
		o.FillStyle(lb.col)
		o.Text(text, r.x+2, r.y+r.h/2, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
	}
	return hist
}

// within is a new list of the boxes of rs that reach into [x0, x1].
func within(rs []rect, x0, x1 float64) []rect {
	var out []rect
	for _, r := range rs {
		if r.x+r.w >= x0 && r.x <= x1 {
			out = append(out, r)
		}
	}
	return out
}

// placeBeside finds a w×h box beside a burst's line at x in the panel
// from top, height px high, clear of obs: right or left of it, within
// burstReach, whichever is nearer the top row; lower down the panel
// rather than further along it (the nearest clear place of a dense panel
// was seconds away).
func placeBeside(obs []rect, l *layout, top, height, w, h, x float64) (rect, bool) {
	right, left := burstSides(l, w, x)
	r, ok := placeIn(obs, top, height, w, h, right.lo, right.hi, right.prefer)
	lr, lok := placeIn(obs, top, height, w, h, left.lo, left.hi, left.prefer)
	if lok && (!ok || placeCost(lr, top, left.prefer) < placeCost(r, top, right.prefer)) {
		return lr, true
	}
	return r, ok
}

// burstSide is where a w px wide label's left edge may go on one side
// of a burst's line (lo to hi, inside the plot), and where it would best.
type burstSide struct{ lo, hi, prefer float64 }

// burstSides are the two sides of a burst's line at x, within burstReach
// of it, for a w px wide label: right, then left.
func burstSides(l *layout, w, x float64) (right, left burstSide) {
	reach := burstReach * l.scale
	lo, hi := l.left+2, l.right-2-w
	return burstSide{math.Max(lo, x+2), math.Min(hi, x+2+reach), x + 2},
		burstSide{math.Max(lo, x-2-w-reach), math.Min(hi, x-2-w), x - 2 - w}
}

// coverFewest finds a w×h box beside a burst's line at x in the server
// panel (within burstReach of it, either side) clear of hard that covers
// the least of soft's area, the nearest the top row of those.
func coverFewest(hard, soft []rect, l *layout, w, h, x float64) (r rect, ok bool) {
	right, left := burstSides(l, w, x)
	best := math.Inf(1)
	for t := l.srvTop + 2; t+h <= l.srvTop+l.srvH-1; t += 2 {
		for _, side := range [2]burstSide{right, left} {
			if bx, a, bok := leastCovering(hard, soft, t, h, w, side.lo, side.hi, side.prefer, 1); bok {
				if c := a + placeCost(rect{bx, t, w, h}, l.srvTop, side.prefer)*1e-3; c < best {
					r, ok, best = rect{bx, t, w, h}, true, c
				}
			}
		}
	}
	return r, ok
}

// histBurst is a burst's label for the histogram: its texts, longest
// first, its line's x, and where it goes over the server panel's
// arrivals, in which words, where the histogram has no clear place.
type histBurst struct {
	texts   []string
	x       float64
	srvText string
	srv     rect
}

// burstsOnStack is how many bursts' labels paint and layers.paint keep
// on the stack for the histogram (paintServerLabels appends them to an
// array's slice), more growing on the heap. Kept on the layout, which
// frameFor makes anew at each frame and which is copied (into v.lay),
// they were allocated again at each frame of a run with bursts.
// BenchmarkPaint's 16 bursts all go to the histogram, at 1000 px and at
// 390 px: twice as many fit.
const burstsOnStack = 32

// paintHistBurstLabels writes the labels of the bursts paintServerLabels
// found no clear place for beside their lines in the server panel (hist)
// beside the same lines in the histogram, where they cover
// none of marks (its lines, their labels, the cut bars' values, the
// bursts' lines) and of under (the bars, the baseline's outline), on the
// top row or as near it as there is room, in fewer words where the whole
// has none; else over the server panel's arrivals, as before.
func paintHistBurstLabels(o *browser.Ops, l *layout, hist []histBurst, marks []rect, under ...[]rect) {
	all := slices.Clone(marks) // not into the caller's
	for _, u := range under {
		all = append(all, u...)
	}
	var placed []rect
	for _, b := range hist {
		text, r, ok := b.srvText, b.srv, false
		// What lies within its reach only, as paintServerLabels's.
		wmax := plateRect(l, b.texts[0], 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle).w
		reach := burstReach*l.scale + wmax + 16*l.scale
		obs := append(within(all, b.x-reach, b.x+reach), placed...)
		for _, t := range b.texts {
			pr := plateRect(l, t, 0, 0, fontSmall, browser.AlignLeft, browser.BaselineMiddle)
			if rr, rok := placeBeside(obs, l, l.histTop, l.histH, pr.w, pr.h, b.x); rok {
				text, r, ok = t, rr, true
				break
			}
		}
		if ok {
			placed = append(placed, r)
		}
		platedText(o, l, text, r.x+2, r.y+r.h/2, fontSmall, browser.AlignLeft, browser.BaselineMiddle, colMuted, plateAlpha)
	}
}

// below is the least top edge, from r's, at which r covers none of
// taken, or r's own where it fits nowhere above bottom.
func below(r rect, taken []rect, bottom float64) float64 {
	y := r.y
	for moved := true; moved; {
		moved = false
		for _, o := range taken {
			c := rect{r.x, y, r.w, r.h}
			if c.overlaps(o) {
				y, moved = o.y+o.h+1, true
			}
		}
	}
	if y+r.h > bottom {
		return r.y
	}
	return y
}

// serverDots are boxes covering the arrivals drawn in the server panel
// (paintServer, paintDenseServer): for each of its rows, a box per run of
// pixel columns its dots touch, so that a simulation's thousands of
// arrivals make at most a few hundred boxes, found in one pass.
func serverDots(l *layout, m *model) []rect {
	r := math.Max(2, 2.2*l.scale)
	switch {
	case l.dense() && len(m.arrivals) == 0:
		r = denseCell + 1 // paintDenseServer's 3-px squares, at their cells
	case m.pictured:
		r = math.Max(r, float64(arrivalSquare(l))/2+denseCell) // paintDenseArrivals' squares, at their cells
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

// waitEdgeW is a wait's outline's width, CSS px: drawn where a lane's row
// is 6 px high or more; a thinner bar would be all outline.
const waitEdgeW = 0.75

func paintWaits(o *browser.Ops, l *layout, m *model, in frameInput, p pick) {
	h := math.Max(1, l.barRow()*0.5)
	for _, r := range waitReasons {
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
		if e := reasonEdge(r); e >= 0 && l.rowH >= 6 {
			o.StrokeStyle(e, waitEdgeW, 0)
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
	rows := int(l.lanesH()) + 2
	px := o.Image(cols, rows, l.left, l.lanesTop, float64(cols), float64(rows))
	reasons := waitReasons[:]
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
	return cellsOf(len(m.marks), cols, rows, func(i int) (x, y float64, c fleet.Class, ok bool) {
		k := &m.marks[i]
		x, y, ok = at(k)
		return x, y, k.class, ok
	})
}

// cellsOf sorts n items into the denseCell grid of a cols×rows picture,
// in one pass: for each cell (ccols a row), the set of classes it holds.
// at places item i in the picture, with its class, or says it has no place.
func cellsOf(n, cols, rows int, at func(i int) (x, y float64, c fleet.Class, ok bool)) (seen []uint8, ccols int) {
	ccols, crows := cols/denseCell+1, rows/denseCell+1
	seen = make([]uint8, ccols*crows)
	for i := range n {
		x, y, c, ok := at(i)
		cx, cy := int(x/denseCell), int(y/denseCell)
		if !ok || x < 0 || y < 0 || cx >= ccols || cy >= crows {
			continue
		}
		seen[cy*ccols+cx] |= 1 << c
	}
	return seen, ccols
}

// paintCells paints a size×size square at (cx·denseCell+off, cy·denseCell+off)
// for every cell and class it holds, opaque, class by class from the one
// in the most cells to the one in the fewest: a later class covers an
// earlier one (and a neighbour's square where they overlap), so the rare
// outcome stays seen among the common one (in class order, a success
// among 429s shrank to a 1-px sliver: 3.3% of the server panel's coloured
// pixels were green for 7.9% of the arrivals; a review).
func paintCells(px []byte, cols, rows int, th *theme, seen []uint8, ccols, size, off int) {
	var cells [fleet.NumClasses]int
	for _, set := range seen {
		for c := range cells {
			if set&(1<<c) != 0 {
				cells[c]++
			}
		}
	}
	order := make([]fleet.Class, 0, fleet.NumClasses)
	for c := fleet.Class(0); c < fleet.NumClasses; c++ {
		if cells[c] > 0 {
			order = append(order, c)
		}
	}
	for i := 1; i < len(order); i++ { // most cells first, ties in class order: an insertion sort of at most NumClasses
		for j := i; j > 0 && cells[order[j]] > cells[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, c := range order {
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
			// A halo keeps touching marks apart. A success's is wider: a
			// ring of the ground between its circle and the wait it ends
			// on, whose grey its green takes in greyscale on the dark
			// lanes (and for a deuteranope), the circle read as the bar's
			// rounded end.
			w := 1.0
			if c == fleet.ClassOK {
				w = 2.5
			}
			o.StrokeStyle(colBG, w, 0)
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

// denseArrivals is the most arrivals in view a watch draws a shape each:
// past it (30 devices sending 10 requests a second each put 18,000 in its
// minute, twice over with the devices' lanes), they are one picture of
// cells, as a big simulation's attempts are. The browser took 120–350 ms
// of the page's thread to fill that many shapes at every frame. A run's
// arrivals stay shapes: its drawing is kept between frames, and a finished
// one is seldom redrawn.
const denseArrivals = 4000

// drawsPictures reports whether a watch with n arrivals in view draws them
// as pictures: past denseArrivals, and once it does, until fewer than half
// of it (a window sliding over a steady room stays drawn one way: with no
// margin, one at 70 requests a second changed at every step). It notes
// the answer, and n, in the model (its frame gap, the labels' room and
// the server panel's note follow them).
func (m *model) drawsPictures(n int) bool {
	m.pictured = m.watch && (n > denseArrivals || m.pictured && n > denseArrivals/2)
	m.inView = n
	return m.pictured
}

// arrivalSquare is the side of the squares of paintDenseArrivals, in
// pixels: 3 (a 2-px cell and its neighbours' edges), larger with the
// presentation theme's scale, so that a projector shows them.
func arrivalSquare(l *layout) int {
	return max(denseCell+1, int(math.Round(float64(denseCell+1)*l.scale)))
}

// paintDenseArrivals draws a watch's arrivals as pictures (drawsPictures):
// the server panel and the devices' lanes, each one picture with a square
// (arrivalSquare) per 2-px cell that holds an arrival, in outcome colours,
// the rarest on top (paintCells).
func paintDenseArrivals(o *browser.Ops, l *layout, m *model, p pick, th *theme) {
	size := arrivalSquare(l)
	off := -(size - denseCell + 1) / 2
	class := func(a *arrival) fleet.Class {
		if a.cancelled {
			return fleet.ClassAborted // the client went away before the answer
		}
		return a.class
	}
	cols, rows := int(l.right-l.left)+2, int(l.srvH)+2
	px := o.Image(cols, rows, l.left, l.srvTop, float64(cols), float64(rows))
	seen, ccols := cellsOf(p.n(len(m.arrivals)), cols, rows, func(j int) (x, y float64, c fleet.Class, ok bool) {
		a := &m.arrivals[p.at(j)]
		return l.x(a.at) - l.left, l.srvY(a.seq) - l.srvTop, class(a), true
	})
	paintCells(px, cols, rows, th, seen, ccols, size, off)
	if l.names == nil {
		return
	}
	rows = int(l.lanesH()) + 2
	px = o.Image(cols, rows, l.left, l.lanesTop, float64(cols), float64(rows))
	seen, ccols = cellsOf(p.n(len(m.arrivals)), cols, rows, func(j int) (x, y float64, c fleet.Class, ok bool) {
		a := &m.arrivals[p.at(j)]
		return l.x(a.at) - l.left, l.laneY(a.dev) - l.lanesTop, class(a), a.dev < l.workers
	})
	paintCells(px, cols, rows, th, seen, ccols, size, off)
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
