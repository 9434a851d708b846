//go:build !(js && wasm)

package ui

import (
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
)

// finishedView is a view showing oneJob's finished run (attempts at 52 ms
// and 1.101 s, over 1.15 s).
func finishedView(t *testing.T) *view {
	t.Helper()
	v := newView()
	v.start(fleet.Default(), t0)
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
	l := newLayout(1000, 3, 4*time.Second, &normalTheme, false)
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
	if txt := v.zoomText(); txt != "0.29 s – 0.88 s of 1.17 s" {
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
	v.start(fleet.Default(), t0)
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
	l.Zoom(0.5)
	out = renderHTML(&ZoomBar{Lab: l})
	if isTrue(tagWith(out, `id="zoom-reset"`), "disabled") || !strings.Contains(out, "Showing 0.") {
		t.Errorf("zoom bar zoomed in: %s", out)
	}
	var o browser.Ops
	l.view.mu.Lock()
	lay, in := l.view.frameFor(true)
	l.view.mu.Unlock()
	paint(&o, &lay, l.view.m, in)
	if lay.from == 0 && lay.span >= l.view.span(0) {
		t.Error("the PNG's frame is not the zoomed window")
	}
}
