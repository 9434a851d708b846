package ui

import (
	"math"
	"sort"
	"strconv"
	"time"

	"retrylab/app/browser"
)

// paintOverlay draws what follows the pointer and the selection: the
// crosshair across every panel, the selected attempt, its job's other
// attempts and its arrival at the server, or the hovered arrival or
// histogram bin.
func paintOverlay(o *browser.Ops, l *layout, m *model, th *theme, crossX float64, sel, selArr, selBin int) {
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
	if m != nil && sel < 0 && selArr < 0 && selBin >= 0 {
		// The hovered bin's column, across the histogram (its bar's
		// height is the drawing's: the overlay draws over it).
		x0, x1 := math.Max(l.left, l.x(time.Duration(selBin)*l.slice)), math.Min(l.right, l.x(time.Duration(selBin+1)*l.slice))
		if x1 > x0 {
			o.StrokeStyle(colSelect, 2, 0)
			o.StrokeRect(x0, l.histTop, x1-x0, l.histH)
		}
		return
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
	switch {
	case !m.watch && y >= l.lanesTop-reach && y <= l.lanesBottom()+reach: // a watch's lanes hold arrivals (hitArrival)
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

// hitSpan finds, where hit found no mark, the attempt whose stretch of
// its lane's row holds (x, y), as drawn: its flight, the wait after it
// (model.spans: to where it ended, a cancelled one where it was cut), or
// the fleet-bucket wait before it. Its tooltip says the wait, its reason
// and its note: a wait's bar had none (a review), and a long one lies far
// from the mark that tells it. -1 when none does.
func hitSpan(l *layout, m *model, x, y float64) int {
	if m == nil || m.watch || x < l.left || x > l.right || y < l.lanesTop || l.laneH <= 0 {
		return -1
	}
	w, t := int((y-l.lanesTop)/l.laneH), l.t(x)
	if w >= l.workers || w >= len(m.lanes) || t < 0 {
		return -1
	}
	row := int((y - l.lanesTop - float64(w)*l.laneH) / l.rowH)
	inRow := func(k *mark) bool { return int(k.slot)%l.sub == row }
	// spanHolds reports whether the wait drawn as span i holds t.
	spanHolds := func(i int32) bool {
		if i < 0 || int(i) >= len(m.spans) {
			return false
		}
		sp := &m.spans[i]
		end := sp.to
		if end < 0 { // going on
			end = sp.planned
		}
		return t >= sp.from && t <= end
	}
	lane := m.lanes[w]
	j := sort.Search(len(lane), func(i int) bool { return m.marks[lane[i]].sent > t })
	// The row's next attempt, if t lies in the bucket wait before it.
	for i := j; i < len(lane) && i < j+maxRowScan; i++ {
		if n := &m.marks[lane[i]]; inRow(n) {
			if spanHolds(n.bucketSpan) {
				return lane[i]
			}
			break
		}
	}
	// The row's attempt sent last by t, if t lies in its flight or the
	// wait after it.
	for i := j - 1; i >= 0 && i >= j-maxRowScan; i-- {
		k := &m.marks[lane[i]]
		if !inRow(k) {
			continue
		}
		if k.end < 0 || t <= k.end || spanHolds(k.waitSpan) {
			return lane[i]
		}
		return -1
	}
	return -1
}

// hitBin is the time pointed at over the histogram, in the run's span,
// or -1: its bin is the one hovered, whatever the bins are when it is
// drawn (a live run's grow, the zoom changes them).
func hitBin(l *layout, m *model, x, y float64) time.Duration {
	if m == nil || l.slice <= 0 || x < l.left || x > l.right || y < l.histTop || y > l.histTop+l.histH {
		return -1
	}
	if t := l.t(x); t >= 0 {
		return t
	}
	return -1
}

// maxRowScan bounds hitSpan's walk along a lane to its row's attempts:
// the rows of a lane with many jobs at once interleave.
const maxRowScan = 256

// hitArrival finds the arrival drawn nearest to (x, y) in the server
// panel that is not one of the page's attempts (those are hit as
// attempts), within reach pixels, or -1.
func hitArrival(l *layout, m *model, x, y float64) int {
	const reach = 8.0
	if m == nil || x < l.left || x > l.right {
		return -1
	}
	inLanes := m.watch && l.names != nil && y >= l.lanesTop-reach && y <= l.lanesBottom()+reach
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
