//go:build e2e

package tests

import (
	"context"
	"testing"
	"time"
)

// TestLongLiveRunDrawsInSlices: a 500-worker live run going on while its
// events pile up into the tens of thousands, hidden for a second on the
// way, draws at each frame only what changed. Its time axis grows a step
// at a time: the drawing for the next axis is made aside, a slice at each
// frame (it was made at once when the run reached the axis's end: every
// attempt drawn again in one frame, a 250–560 ms freeze at every step). A
// hidden stretch no longer has every later frame paint the whole run
// (~200 ms each once it is big): its end starts the kept drawing once.
func TestLongLiveRunDrawsInSlices(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=500&jobs=1000&latency=10ms&limiter=none")
	type dbg struct {
		Window [2]float64 `json:"window_ms"`
		Anew   int        `json:"live_anew"`
		Whole  int        `json:"live_whole"`
	}
	read := func() dbg { return eval[dbg](t, ctx, `JSON.parse(window.retrylab.debug())`) }
	click(t, ctx, "run")
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Records > 0 }); err != nil {
		t.Fatalf("the run did not start: %v", err)
	}
	first := read().Window
	time.Sleep(2 * time.Second)
	setVisibility(t, ctx, "hidden")
	time.Sleep(time.Second)
	setVisibility(t, ctx, "visible")
	var d dbg
	if err := waitFor(14*time.Second, func() bool { d = read(); return d.Window[1] > first[1] }); err != nil {
		t.Fatalf("the axis did not grow past %v ms in 14 s: %+v", first[1], d)
	}
	time.Sleep(500 * time.Millisecond)
	d = read()
	records := state(t, ctx).Records
	click(t, ctx, "stop")
	if err := waitFor(10*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records; axis %v → %v ms; kept drawing made again for the axis %d times, the run painted whole %d times", records, first[1], d.Window[1], d.Anew, d.Whole)
	if d.Whole > 0 || d.Anew > 0 {
		t.Errorf("while running: painted whole %d times, the kept drawing made again at a frame for a longer axis %d times; want neither", d.Whole, d.Anew)
	}
}

// setVisibility makes the document say state ("hidden" or "visible") and
// fires visibilitychange, as a background tab would: headless Chromium
// does not hide a page on demand.
func setVisibility(t testing.TB, ctx context.Context, state string) {
	t.Helper()
	eval[any](t, ctx, `(() => {
		Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "`+state+`"});
		document.dispatchEvent(new Event("visibilitychange"));
	})()`)
}
