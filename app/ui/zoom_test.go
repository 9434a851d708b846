//go:build !(js && wasm)

package ui

import (
	"encoding/json"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// finishedView is a view showing oneJob's finished run (attempts at 52 ms
// and 1.101 s, over 1.15 s).
func finishedView(t *testing.T) *view {
	t.Helper()
	v := newView()
	v.start(fleet.Default(), t0, "")
	for _, r := range oneJob() {
		v.onRecord(r)
	}
	v.finish(at(1150))
	v.mu.Lock()
	v.redraw() // lays it out, as the first frame does
	v.mu.Unlock()
	return v
}

func TestLayoutWindow(t *testing.T) {
	l := newLayout(1000, 3, 4*time.Second, &normalTheme)
	l.from = 2 * time.Second
	for _, tt := range []time.Duration{2 * time.Second, 3500 * time.Millisecond, 6 * time.Second} {
		if got := l.t(l.x(tt)); (got - tt).Abs() > time.Microsecond {
			t.Errorf("t(x(%v)) = %v", tt, got)
		}
	}
	if x := l.x(2 * time.Second); x != l.left {
		t.Errorf("x(from) = %v, want the left edge %v", x, l.left)
	}
	ticks := l.ticks(time.Second)
	if len(ticks) != 5 || ticks[0] != 2*time.Second || ticks[4] != 6*time.Second {
		t.Errorf("ticks of [2 s, 6 s] = %v", ticks)
	}
	if got := l.bins(); got != int(6*time.Second/l.slice)+1 {
		t.Errorf("bins %d for a window to 6 s in %v slices", got, l.slice)
	}
	if got := histSlice(500*time.Millisecond, 900); got != 50*time.Millisecond {
		t.Errorf("a half-second window's bins are %v, want 50 ms", got)
	}
}

func TestZoomAndPan(t *testing.T) {
	v := finishedView(t)
	whole := v.span(0)
	if v.zoomText() != "" || v.pan(0.25) {
		t.Fatal("a run not zoomed in is already zoomed or pans")
	}
	if !v.zoom(0.5) {
		t.Fatal("zoom in did nothing")
	}
	v.mu.Lock()
	from, span := v.window(0)
	v.mu.Unlock()
	if span != whole/2 || from != whole/4 {
		t.Errorf("zoomed in around the middle: [%v, +%v], whole %v", from, span, whole)
	}
	// The run ends at 1.15 s, the time to drain; the axis goes 2% past it,
	// to 1.17 s. The text speaks of the run (it said "of 1.17 s").
	if txt := v.zoomText(); txt != "0.29 s – 0.88 s of 1.15 s" {
		t.Errorf("zoom text %q", txt)
	}
	// Panning stops at the run's ends.
	for range 10 {
		v.pan(0.25)
	}
	v.mu.Lock()
	from, _ = v.window(0)
	v.mu.Unlock()
	if from != whole-span {
		t.Errorf("panned to %v, want the end %v", from, whole-span)
	}
	if txt := v.zoomText(); txt != "0.59 s – 1.15 s of 1.15 s" {
		t.Errorf("zoom text at the end of the run %q: the window's end is the run's", txt)
	}
	// The narrowest window is minZoomSpan; zooming out far enough, or 0,
	// is the whole run again.
	for range 20 {
		v.zoom(0.5)
	}
	v.mu.Lock()
	_, span = v.window(0)
	v.mu.Unlock()
	if span != minZoomSpan {
		t.Errorf("narrowest window %v, want %v", span, minZoomSpan)
	}
	// The attempt under the pointer can still be picked in a narrow window.
	v.mu.Lock()
	v.zoomFrom = 0
	v.redraw()
	k := v.m.marks[0]
	x, y := v.lay.x(k.sent), v.lay.laneY(k.worker)
	v.mu.Unlock()
	if !v.pointer(x, y) || v.sel != 0 {
		t.Errorf("hover at the first attempt in a zoomed window: sel %d", v.sel)
	}
	if !v.zoom(0) || v.zoomText() != "" {
		t.Error("0 did not show the whole run")
	}
	// Zooming in keeps the time under the pointer where it is.
	v.mu.Lock()
	v.redraw()
	px := v.lay.x(800 * time.Millisecond)
	v.mu.Unlock()
	v.pointer(px, -1)
	v.zoom(0.5)
	v.mu.Lock()
	v.redraw()
	if got := v.lay.t(px); (got - 800*time.Millisecond).Abs() > 5*time.Millisecond {
		t.Errorf("under the pointer: %v, want 800 ms", got)
	}
	v.mu.Unlock()

	// A new run starts whole; a run going on is not zoomed.
	v.start(fleet.Default(), t0, "")
	if v.zoomText() != "" || v.zoom(0.5) {
		t.Error("a run going on zooms")
	}
}

func TestZoomBar(t *testing.T) {
	l := newLab()
	out := renderHTML(&ZoomBar{Lab: l})
	if !isTrue(tagWith(out, `id="zoom-in"`), "disabled") || !strings.Contains(out, "once a run is over") {
		t.Errorf("zoom bar before a run: %s", out)
	}
	l.view = finishedView(t)
	out = renderHTML(&ZoomBar{Lab: l})
	if isTrue(tagWith(out, `id="zoom-in"`), "disabled") || !isTrue(tagWith(out, `id="zoom-reset"`), "disabled") || !strings.Contains(out, "the whole run") {
		t.Errorf("zoom bar of a finished run: %s", out)
	}
	// A watch is no run.
	l.watched = true
	if out := renderHTML(&ZoomBar{Lab: l}); !strings.Contains(out, "Showing the whole watch") {
		t.Errorf("zoom bar of a finished watch: %s", out)
	}
	l.watched = false
	l.Zoom(0.5)
	out = renderHTML(&ZoomBar{Lab: l})
	if isTrue(tagWith(out, `id="zoom-reset"`), "disabled") || !strings.Contains(out, "Showing 0.") {
		t.Errorf("zoom bar zoomed in: %s", out)
	}
	var o browser.Ops
	l.view.mu.Lock()
	lay, in := l.view.frameFor(&pngHead{title: "Retry Lab"})
	l.view.mu.Unlock()
	paint(&o, &lay, l.view.m, in)
	if lay.from == 0 && lay.span >= l.view.span(0) {
		t.Error("the PNG's frame is not the zoomed window")
	}
}

// In a window that does not start at 0, hover finds what is drawn there,
// and nothing that the clip hides.
func TestZoomedHitAndAnchor(t *testing.T) {
	v := finishedView(t)
	v.mu.Lock()
	v.zoomFrom, v.zoomSpan = time.Second, 250*time.Millisecond
	v.redraw()
	k := v.m.marks[1] // sent at 1.101 s
	x, y := v.lay.x(k.sent), v.lay.laneY(k.worker)
	left := v.lay.left
	v.mu.Unlock()
	if v.pointer(x, y); v.sel != 1 {
		t.Errorf("hover on the attempt at 1.101 s in [1 s, 1.25 s]: sel %d", v.sel)
	}
	// At the window's left edge lies the Retry-After wait after attempt
	// 0, drawn outside the window: the wait is picked, its tooltip where
	// the pointer met it, not at the mark.
	if v.pointer(left+1, y); v.sel != 0 {
		t.Errorf("hover on the wait at the window's left edge picked %d", v.sel)
	}
	if tp, ok := v.selection(); !ok || tp.X < left || tp.X > left+2 {
		t.Errorf("its tooltip at x %v (shown %v), want at the pointer, %v", tp.X, ok, left+1)
	}
	if v.pointer(left+1, y-v.lay.laneH); v.sel != -1 {
		t.Errorf("hover over the lane before, with nothing there, picked %d", v.sel)
	}
	// Pan, then zoom before any frame: the time under the pointer stays.
	v.zoom(0)
	v.mu.Lock()
	v.redraw()
	v.mu.Unlock()
	v.zoom(0.5)
	v.mu.Lock()
	v.redraw()
	px := v.lay.x(500 * time.Millisecond)
	v.mu.Unlock()
	v.pointer(px, -1)
	v.frames.Stop() // frames do nothing from here on: v.lay stays the one drawn before the pan
	v.pan(0.25)
	v.mu.Lock()
	from, span := v.window(0)
	left, right := v.lay.left, v.lay.right
	v.mu.Unlock()
	under := from + time.Duration((px-left)/(right-left)*float64(span))
	v.zoom(0.5)
	v.mu.Lock()
	from2, span2 := v.window(0)
	v.mu.Unlock()
	if got := from2 + time.Duration((px-left)/(right-left)*float64(span2)); (got - under).Abs() > time.Millisecond {
		t.Errorf("after a pan and a zoom without a frame the pointer is over %v, was over %v", got, under)
	}
}

// The histogram's scale fits the bins in view: a busy stretch before the
// window does not flatten what is shown.
func TestZoomedHistogramScale(t *testing.T) {
	m := newModel(t0, 60)
	var recs []fleet.Record
	for i := range 240 { // 120 req/s for the first 2 s
		w, ms := i%60, i*2000/240
		recs = append(recs, fleet.Record{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: at(ms), Intended: at(ms), Attempt: 1}})
	}
	for w := range 3 { // and 3 requests at 3 s
		recs = append(recs, fleet.Record{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: at(3000 + 10*w), Intended: at(3000), Attempt: 2}})
	}
	for _, r := range recs {
		m.add(&r)
	}
	m.finish(4 * time.Second)
	var o browser.Ops
	whole := newLayout(1000, 60, 4*time.Second, &normalTheme)
	paint(&o, &whole, m, frameInput{th: &normalTheme})
	zoomed := newLayout(1000, 60, time.Second, &normalTheme)
	zoomed.from = 2500 * time.Millisecond
	paint(&o, &zoomed, m, frameInput{th: &normalTheme})
	if zoomed.histMax >= whole.histMax || zoomed.histMax > 20 {
		t.Errorf("scale zoomed on [2.5 s, 3.5 s]: %v req/s (whole run: %v)", zoomed.histMax, whole.histMax)
	}
	if got := zoomed.ticks(300 * time.Millisecond); len(got) == 0 || got[0] != 2700*time.Millisecond {
		t.Errorf("ticks every 300 ms from 2.5 s: %v, want the first at 2.7 s", got)
	}
}

// Zoomed in on a big run, the display list holds what is in view, not
// every attempt of the run.
func TestZoomedDrawsWhatIsInView(t *testing.T) {
	s := fleet.Default()
	s.Workers = 200
	rec := simulatedRun(s, 40000)
	if rec.Len() < 30000 {
		t.Fatalf("a simulated run of %d events, want about 40,000", rec.Len())
	}
	recs := rec.Records()
	m := newModel(rec.Start, s.Workers)
	for i := range recs {
		m.add(&recs[i])
	}
	m.finish(m.since(recs[len(recs)-1].Event.At))
	size := func(from, span time.Duration) int {
		l := newLayout(1200, s.Workers, span, &normalTheme)
		l.from = from
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme})
		return o.Len()
	}
	whole := size(0, m.last+m.last/50)
	zoomed := size(m.last/2, 250*time.Millisecond)
	if zoomed*5 > whole {
		t.Errorf("display list zoomed to 250 ms: %d values, whole run %d", zoomed, whole)
	}
}

// Zoomed in at the end of a run lasting days, the histogram counts the
// bins in view, not every bin since the start: at a quarter of a second
// (50 ms bins) a 100 h run has 7.2 million of them, and each frame took
// 440 MB (a 1000 h run, 4.4 GB: past what the page's wasm can hold).
func TestZoomedHistogramOfALongRun(t *testing.T) {
	m := newModel(t0, 1)
	for h := range 101 {
		ts := t0.Add(time.Duration(h) * time.Hour)
		for _, r := range []fleet.Record{
			{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: ts, Intended: ts, Attempt: h + 1}},
			{Worker: 0, Event: core.Event{Kind: core.EventOutcome, At: ts.Add(50 * time.Millisecond), Attempt: h + 1, Outcome: core.Outcome{Status: 500}}},
		} {
			m.add(&r)
		}
	}
	m.finish(100*time.Hour + 100*time.Millisecond)
	l := newLayout(1000, 1, minZoomSpan, &normalTheme)
	l.from = m.last - minZoomSpan // the last attempt, at 100 h, is in view
	var o browser.Ops
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	paint(&o, &l, m, frameInput{th: &normalTheme})
	runtime.ReadMemStats(&after)
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 16 {
		t.Errorf("a zoomed frame of a 100 h run allocated %d MB", mb)
	}
	// Its bar is drawn, at its bin, 20 req/s high (1 in 50 ms).
	if l.histMax < 20 {
		t.Errorf("histogram scale %v req/s: the attempt in view is not counted", l.histMax)
	}
	x := float32(l.x(100 * time.Hour))
	found := false
	for _, op := range displayOps(&o) {
		if op.code == 15 && op.args[0] == x && op.args[1] >= float32(l.histTop) {
			found = true
		}
	}
	if !found {
		t.Errorf("no bar at x %v for the attempt at 100 h", x)
	}
}

// Zoomed in, the keyboard walks the attempts in the window: the first key
// selects the first one shown (it selected attempt 0, outside the
// window: no tooltip, no ring), and the arrows and Home/End stay inside.
func TestZoomedKeyboardStaysInView(t *testing.T) {
	v := finishedView(t) // attempts at 52 ms and 1.101 s, one lane
	v.mu.Lock()
	v.zoomFrom, v.zoomSpan = time.Second, 250*time.Millisecond
	v.redraw()
	v.mu.Unlock()
	for _, keys := range [][]string{{"ArrowRight"}, {"Home"}, {"ArrowRight", "ArrowLeft"}, {"ArrowRight", "Home"}, {"End", "ArrowUp"}} {
		v.key("Escape")
		for _, k := range keys {
			v.key(k)
		}
		if v.sel != 1 {
			t.Errorf("%v in [1 s, 1.25 s]: selected %d, want 1 (the attempt at 1.101 s)", keys, v.sel)
		}
		if tp, ok := v.selection(); !ok || tp.X < v.lay.left || tp.X > v.lay.right {
			t.Errorf("%v: no tooltip on the plot (%+v, %v)", keys, tp, ok)
		}
	}
	// A selection the window no longer shows: the next key starts again in it.
	v.key("Escape")
	v.mu.Lock()
	v.zoomFrom = 0
	v.redraw()
	v.mu.Unlock()
	v.key("ArrowRight")
	if v.sel != 0 {
		t.Fatalf("in [0, 0.25 s]: selected %d, want 0", v.sel)
	}
	v.mu.Lock()
	v.zoomFrom = time.Second
	v.redraw()
	v.mu.Unlock()
	if v.key("ArrowLeft"); v.sel != 1 {
		t.Errorf("after a pan away from the selection, ArrowLeft selected %d, want 1", v.sel)
	}
	// Nothing in the window: the key is not taken.
	v.key("Escape")
	v.mu.Lock()
	v.zoomFrom = 400 * time.Millisecond
	v.redraw()
	v.mu.Unlock()
	if v.key("ArrowRight") || v.sel != -1 {
		t.Errorf("in [0.4 s, 0.65 s], no attempt: sel %d", v.sel)
	}
}

// A hovered arrival that a zoom or a pan (keys, with the pointer still)
// takes out of the window loses its tooltip, as an attempt does: it
// pointed off the plot (its left edge at x < 0 or past the canvas).
func TestArrivalTooltipZoomedAway(t *testing.T) {
	v := watchedView(t, at(2000),
		mock.Event{Type: "arrival", Seq: 1, Tag: "w0.j0.a1", At: at(100), Outcome: "ok", Status: 200},
		mock.Event{Type: "arrival", Seq: 2, Tag: "w3.j1.a2", At: at(1900), Outcome: "limited", Status: 429},
	)
	v.mu.Lock()
	a := v.m.arrivals[0]
	x, y := v.lay.x(a.at), v.lay.srvY(a.seq)
	v.mu.Unlock()
	v.pointer(x, y)
	if _, ok := v.selection(); !ok {
		t.Fatal("no tooltip on the hovered arrival")
	}
	v.mu.Lock()
	v.zoomFrom, v.zoomSpan = time.Second, 500*time.Millisecond
	v.redraw()
	v.mu.Unlock()
	if tp, ok := v.selection(); ok {
		t.Errorf("arrival at 0.1 s, window [1 s, 1.5 s]: tooltip at x %v (plot %v–%v)", tp.X, v.lay.left, v.lay.right)
	}
}

// A watch past its first minute shows its last minute, on a grid that moves
// a step at a time, in bins fine enough for a flood's 2 s spikes; once it
// ends, the whole of it.
func TestWatchShowsItsLastMinute(t *testing.T) {
	for _, c := range []struct {
		now, from time.Duration
	}{
		{0, 0}, {57 * time.Second, 0}, {58 * time.Second, 10 * time.Second},
		{67900 * time.Millisecond, 10 * time.Second}, {68 * time.Second, 20 * time.Second},
		{10 * time.Minute, 550 * time.Second},
	} {
		if got := watchWindow(c.now); got != c.from {
			t.Errorf("watchWindow(%v) = %v, want %v", c.now, got, c.from)
		}
		if c.now >= watchSpan-watchLead && (c.now < c.from+watchSpan-watchLead-watchStep || c.now >= c.from+watchSpan-watchLead) {
			t.Errorf("at %v the window [%v, +%v] puts now off its last step", c.now, c.from, watchSpan)
		}
	}

	v := newView()
	start := time.Now().Add(-10 * time.Minute)
	v.startWatch(fleet.Default(), start)
	var seq uint64
	arrive := func(after time.Duration, n int) {
		for range n {
			seq++
			b, _ := json.Marshal(mock.Event{Type: "arrival", Seq: seq, Tag: "w0.j0.a1", At: start.Add(after), Outcome: "limited", Status: 429})
			v.onServerEvent(string(b))
		}
	}
	arrive(30*time.Second, 20)  // long gone from the window
	arrive(580*time.Second, 40) // a spike 20 s ago
	v.mu.Lock()
	v.ingest()
	v.redraw()
	l := v.lay
	var o browser.Ops
	_, in := v.frameFor(nil)
	paint(&o, &l, v.m, in)
	v.mu.Unlock()
	if l.from < 540*time.Second || l.from > 560*time.Second || l.span != watchSpan {
		t.Fatalf("10 minutes into a watch: window [%v, +%v], want its last minute", l.from, l.span)
	}
	if l.slice > time.Second {
		t.Errorf("bins of %v: a 2 s spike is not drawn as one", l.slice)
	}
	if !slices.ContainsFunc(o.Strings(), func(s string) bool { return strings.Contains(s, "its last minute") }) {
		t.Errorf("the axis does not say it shows the last minute: %q", o.Strings())
	}
	v.finish(start.Add(10 * time.Minute))
	v.mu.Lock()
	v.redraw()
	l = v.lay
	v.mu.Unlock()
	if l.from != 0 || l.span < 10*time.Minute {
		t.Errorf("a watch over: window [%v, +%v], want the whole of it", l.from, l.span)
	}
}

// Hovering the histogram tells what a bin counts, by outcome, with its
// tooltip at the bar's top and the bin's column outlined; an empty bin
// says none were sent; keys and the pointer leaving clear it.
func TestHoverOnAHistogramBin(t *testing.T) {
	v := finishedView(t)
	v.mu.Lock()
	l := v.lay
	v.mu.Unlock()
	y := l.histTop + l.histH - 1
	for _, c := range []struct {
		at          time.Duration
		title, line string
	}{
		{60 * time.Millisecond, " s: 1 request sent", "rejected (429/503): 1"},
		{1120 * time.Millisecond, " s: 1 request sent", "success (2xx): 1"},
		{600 * time.Millisecond, " s: 0 requests sent", ""},
	} {
		if !v.pointer(l.x(c.at), y) && c.at == 60*time.Millisecond {
			t.Errorf("hover on the bin at %v: no change", c.at)
		}
		tp, ok := v.selection()
		if !ok || !strings.HasSuffix(tp.Title, c.title) || c.line != "" && !slices.Contains(tp.Lines, c.line) || c.line == "" && len(tp.Lines) != 0 {
			t.Errorf("bin at %v: tooltip %q %q (shown %v), want …%q with %q", c.at, tp.Title, tp.Lines, ok, c.title, c.line)
			continue
		}
		bin := int(c.at / l.slice)
		if want := l.x(time.Duration(bin)*l.slice + l.slice/2); math.Abs(tp.X-want) > 0.5 || tp.Y < l.histTop || tp.Y > l.histTop+l.histH {
			t.Errorf("bin at %v: tooltip at (%v, %v), want x %v and y in the histogram", c.at, tp.X, tp.Y, want)
		}
		if c.line != "" && tp.Y >= l.histTop+l.histH-1 {
			t.Errorf("bin at %v: tooltip at y %v, not at its bar's top", c.at, tp.Y)
		}
		var o browser.Ops
		paintOverlay(&o, &l, v.m, &normalTheme, -1, v.sel, v.selArr, v.hovBin())
		if o.Len() <= 1 {
			t.Errorf("bin at %v: no outline drawn", c.at)
		}
	}
	if v.pointer(-1, -1); v.hovBin() != -1 {
		t.Errorf("the pointer left: bin %d still hovered", v.hovBin())
	}
	// A hovered bin is no selection: Escape is not claimed from Stop. A
	// click on it keeps it hovered, its tooltip shown.
	v.pointer(l.x(60*time.Millisecond), y)
	if v.escapable() {
		t.Error("a hovered bin claims Escape")
	}
	if v.click(l.x(60*time.Millisecond), y); v.hovBin() < 0 {
		t.Error("a click on the hovered bin unhovered it")
	}
	if _, ok := v.selection(); !ok {
		t.Error("a click on the hovered bin hid its tooltip")
	}
	// With a baseline kept, the bin says the baseline's count too.
	v.mu.Lock()
	v.base = &baselineDraw{label: "Synchronized flood (step 1), simulated (run 1)", sends: []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 1200 * time.Millisecond}, span: 2 * time.Second}
	v.mu.Unlock()
	v.pointer(-1, -1)
	v.pointer(l.x(60*time.Millisecond), y)
	if tp, _ := v.selection(); !slices.Contains(tp.Lines, "baseline: 2 requests sent (Synchronized flood (step 1), simulated (run 1))") {
		t.Errorf("with a baseline, the first bin's tooltip %q", tp.Lines)
	}
	v.mu.Lock()
	v.base.span = 500 * time.Millisecond // it ended before the second bin
	v.mu.Unlock()
	v.pointer(l.x(1120*time.Millisecond), y)
	if tp, _ := v.selection(); len(tp.Lines) != 1 {
		t.Errorf("past the baseline's end, a bin's tooltip %q, want its own count only", tp.Lines)
	}
	v.pointer(l.x(60*time.Millisecond), y)
	if v.key("ArrowRight"); v.hovBin() != -1 || v.sel < 0 || !v.escapable() {
		t.Errorf("a key walked to attempt %d, the bin %d still hovered", v.sel, v.hovBin())
	}
}
