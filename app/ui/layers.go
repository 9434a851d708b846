package ui

import (
	"errors"
	"math"
	"time"

	"retrylab/app/browser"
)

// layers draws a live run without drawing everything at every frame: the
// browser rasterises every shape it is given (about 20 µs a mark on a
// software canvas), so a full redraw of a 500-worker run, thirty times a
// second, kept the page's thread busy most of the time. What can no longer
// change (a finished attempt, a closed wait, a give-up, an arrival the
// server is done with) is drawn once onto a drawing kept aside
// (Canvas.DrawLayers); at each frame only what is still open, the "now"
// line, the histogram and the outlines are drawn over it. The kept drawing
// is started again when the layout changes (the axis grows, the canvas is
// resized, the theme or the run changes, a hatched stretch ends). A replay
// is drawn so too; a run that is over and a simulation are drawn whole
// (paint).
type layers struct {
	ok     bool           // the kept drawing holds key's frame and the items looked at
	key    layerKey       // what the kept drawing was laid out for
	slot   string         // the kept drawing's name on the canvas ("": the one shown first)
	canvas browser.Canvas // the canvas it is kept on, and shown on
	anew   bool           // the last paint started the kept drawing again

	spans, marks, arrivals, ends   int   // items of each list looked at so far
	openSpans, openMarks, openArrs []int // looked at, not final: drawn on top
	srvFromMarks                   bool  // the kept drawing has server marks from responses

	base, top browser.Ops
}

// layerKey is what the kept drawing depends on besides the items.
type layerKey struct {
	m          uint64 // the model's id: not the model, which the key kept alive after its run (a review)
	th         *theme
	w, h       float64
	workers    int
	sub        int // rows per lane (a new row moves every job's marks)
	from, span time.Duration
	room       bool
	baseline   *baselineDraw // its key is in the frame
	outages    int           // outages drawn under everything (a new one redraws all)
	outageTo   time.Duration // the last one's end (ended early: redraw)
	limits     int           // scaled-limit stretches, likewise
	limitTo    time.Duration
	bursts     int           // another client's bursts, marked on the kept drawing
	shift      time.Duration // the server's clock's (model.reclock): a move moves every arrival
	// Hatched stretches (the tab hidden, the stream lost): how many of
	// each, and the last one's end (-1: open, drawn on top).
	hidden, lost     int
	hiddenTo, lostTo time.Duration
}

// draw paints the frame: the new final items onto the kept drawing, the
// rest on top.
func (ly *layers) draw(l *layout, m *model, in frameInput) error {
	_, err := ly.drawUpTo(l, m, in, 0, true)
	return err
}

// build adds up to budget items of each list to the kept drawing, laid
// out as l, and shows nothing: the drawing for the axis a live run will
// grow to is made aside, a slice at each frame, while the run is shown on
// the axis it has (view.growAxis). It reports whether every item is in.
func (ly *layers) build(l *layout, m *model, in frameInput, budget int) (bool, error) {
	return ly.drawUpTo(l, m, in, budget, false)
}

func (ly *layers) drawUpTo(l *layout, m *model, in frameInput, budget int, show bool) (bool, error) {
	key := layerKey{m: m.id, th: in.th, w: l.w, h: l.h, workers: l.workers, sub: l.sub, from: l.from, span: l.span, room: m.room, baseline: in.base, outages: len(m.outages)}
	if n := len(m.outages); n > 0 {
		key.outageTo = m.outages[n-1].to
	}
	if n := len(m.limits); n > 0 {
		key.limits, key.limitTo = n, m.limits[n-1].to
	}
	key.bursts, key.shift = len(m.bursts), m.shift
	if n := len(m.hidden); n > 0 {
		key.hidden, key.hiddenTo = n, m.hidden[n-1].to
	}
	if n := len(m.lost); n > 0 {
		key.lost, key.lostTo = n, m.lost[n-1].to
	}
	// The server panel draws arrivals once the stream has any, responses'
	// arrival numbers before: a switch redraws everything.
	fromMarks := len(m.arrivals) == 0
	fresh := !ly.ok || ly.key != key || (ly.srvFromMarks && !fromMarks)
	err := ly.paint(l, m, in, key, fresh, fromMarks, budget, show)
	if errors.Is(err, browser.ErrBaseLost) && !fresh {
		err = ly.paint(l, m, in, key, true, fromMarks, budget, show)
	}
	ly.ok = err == nil
	return ly.ok && ly.spans == len(m.spans) && ly.marks == len(m.marks) && ly.arrivals == len(m.arrivals) && ly.ends == len(m.ends), err
}

func (ly *layers) paint(l *layout, m *model, in frameInput, key layerKey, fresh, fromMarks bool, budget int, show bool) error {
	b, t := &ly.base, &ly.top
	ly.anew = fresh
	if fresh {
		ly.key = key
		ly.spans, ly.marks, ly.arrivals, ly.ends = 0, 0, 0, 0
		ly.openSpans, ly.openMarks, ly.openArrs = ly.openSpans[:0], ly.openMarks[:0], ly.openArrs[:0]
		ly.srvFromMarks = false
		paintFrame(b, l, m, in)
		l.plotClip(b, l.markReach(), 0)
		paintSqueezes(b, l, m, false)
		paintOutages(b, l, m, false) // over a halved limit: an outage comes first at the server
		if !openStretch(key) {
			paintHidden(b, l, m, in)
		}
		paintBursts(b, l, m, false)
		b.Restore()
	} else {
		b.Reset()
		b.Palette, b.Fonts = in.th.palette, in.th.fonts
	}
	// Take the new items in (up to budget of each list, 0: all), then
	// split what was open into final and open.
	upTo := func(at, n int) int {
		if budget > 0 {
			return min(n, at+budget)
		}
		return n
	}
	for n := upTo(ly.spans, len(m.spans)); ly.spans < n; ly.spans++ {
		ly.openSpans = append(ly.openSpans, ly.spans)
	}
	for n := upTo(ly.marks, len(m.marks)); ly.marks < n; ly.marks++ {
		ly.openMarks = append(ly.openMarks, ly.marks)
	}
	for n := upTo(ly.arrivals, len(m.arrivals)); ly.arrivals < n; ly.arrivals++ {
		ly.openArrs = append(ly.openArrs, ly.arrivals)
	}
	finSpans, openSpans := split(ly.openSpans, func(i int) bool { return m.spans[i].to >= 0 })
	ly.openSpans = openSpans
	finMarks, openMarks := split(ly.openMarks, func(i int) bool { return m.marks[i].end >= 0 })
	ly.openMarks = openMarks
	// An arrival is final once the server is done with it and it is matched
	// to an attempt (an unmatched one, another client's in a shared room,
	// may still be).
	finArrs, openArrs := split(ly.openArrs, func(i int) bool { return m.arrivals[i].ended && m.arrivals[i].mark >= 0 })
	ly.openArrs = openArrs
	var newEnds pick
	for n := upTo(ly.ends, len(m.ends)); ly.ends < n; ly.ends++ {
		newEnds.idx = append(newEnds.idx, ly.ends)
	}

	// Onto the kept drawing, in the order paint uses.
	l.plotClip(b, l.markReach(), 0)
	paintWaits(b, l, m, in, pick{idx: finSpans})
	paintFlights(b, l, m, in, pick{idx: finMarks})
	paintMarks(b, l, m, pick{idx: finMarks})
	paintGiveUps(b, l, m, newEnds)
	if fromMarks {
		paintServer(b, l, m, pick{idx: finMarks})
		ly.srvFromMarks = ly.srvFromMarks || len(finMarks) > 0
	} else {
		paintServer(b, l, m, pick{idx: finArrs})
	}
	b.Restore()
	if !show {
		return ly.canvas.DrawLayers(ly.slot, b, fresh, nil, l.w, l.h)
	}

	// On top: what is still open, the "now" line, the histogram (its bars
	// and scale change at every frame) and the outlines.
	t.Reset()
	t.Palette, t.Fonts = in.th.palette, in.th.fonts
	l.plotClip(t, l.markReach(), 0)
	paintWaits(t, l, m, in, pick{idx: ly.openSpans})
	paintFlights(t, l, m, in, pick{idx: ly.openMarks})
	paintMarks(t, l, m, pick{idx: ly.openMarks})
	if fromMarks {
		paintServer(t, l, m, pick{idx: ly.openMarks})
	} else {
		paintServer(t, l, m, pick{idx: ly.openArrs})
	}
	if openStretch(key) { // it grows with now
		paintHidden(t, l, m, in)
	}
	paintHiddenLabels(t, l, m, in) // over every mark, kept or open
	var onStack [burstsOnStack]histBurst
	hist := paintServerLabels(t, l, m, onStack[:0]) // over every arrival, kept or open
	paintNow(t, l, in)
	t.Restore()
	clearHistogram(t, l)
	if len(m.outages) > 0 || len(m.limits) > 0 {
		t.Clip(l.left, l.histTop, l.right-l.left, l.histH)
		paintSqueezes(t, l, m, true)
		paintOutages(t, l, m, true)
		t.Restore()
	}
	paintHistogramPanel(t, l, m, in, hist)
	paintOutlines(t, l)
	return ly.canvas.DrawLayers(ly.slot, b, fresh, t, l.w, l.h)
}

// split sorts the indices in idx into those for which final holds (a new
// slice) and the others (in idx's own memory), both in order.
func split(idx []int, final func(int) bool) (fin, open []int) {
	open = idx[:0]
	for _, i := range idx {
		if final(i) {
			fin = append(fin, i)
		} else {
			open = append(open, i)
		}
	}
	return fin, open
}

// clearHistogram repaints the histogram's panel and its y-label column as
// paintFrame left them, so the bars and labels of the last frame go.
func clearHistogram(o *browser.Ops, l *layout) {
	s := l.scale
	o.FillStyle(colBG)
	o.Rect(0, l.histTop-7*s, l.left-1, l.histH+14*s)
	o.FillStyle(colMuted)
	paintHistogramUnit(o, l)
	o.FillStyle(colPanel)
	o.Rect(l.left, l.histTop, l.right-l.left, l.histH)
	o.StrokeStyle(colGrid, 1, 0)
	for _, t := range l.ticks(l.tickStep()) {
		x := math.Round(l.x(t)) + 0.5
		o.Line(x, l.histTop, x, l.histTop+l.histH)
	}
}

// openStretch reports whether a hatched stretch of key's run goes on.
func openStretch(k layerKey) bool {
	return k.hidden > 0 && k.hiddenTo < 0 || k.lost > 0 && k.lostTo < 0
}
