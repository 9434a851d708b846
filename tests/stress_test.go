//go:build e2e

package tests

import (
	"context"
	"strings"
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
	read := func() debugState { return debugOf(t, ctx) }
	click(t, ctx, "run")
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Records > 0 }); err != nil {
		t.Fatalf("the run did not start: %v", err)
	}
	first := read().Window
	time.Sleep(2 * time.Second)
	setVisibility(t, ctx, "hidden")
	time.Sleep(time.Second)
	setVisibility(t, ctx, "visible")
	var d debugState
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
// does not hide a page on demand. It returns when, on the page's
// performance.now() clock.
func setVisibility(t testing.TB, ctx context.Context, state string) float64 {
	t.Helper()
	return eval[float64](t, ctx, `(() => {
		const at = performance.now();
		Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "`+state+`"});
		document.dispatchEvent(new Event("visibilitychange"));
		return at;
	})()`)
}

// TestRunStopsAtTheRequestLimit: a live run keeps every attempt in the
// tab, so the page stops one at its request limit (ui.LiveMaxRequests,
// lowered here through window.retrylab.requestLimit to be reached in a
// second): no request leaves after the limit's, the requests in flight
// are answered (not aborted), and the status and numbers say why the run
// ended. The next run is not capped.
func TestRunStopsAtTheRequestLimit(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=20&jobs=1000&latency=20ms&limiter=none&room=e2e-limit")
	events := watchArrivals(t, srv, "e2e-limit")
	const limit = 400
	if got := eval[map[string]any](t, ctx, `JSON.parse(window.retrylab.requestLimit(400))`); got["limit"] != float64(limit) {
		t.Fatalf("requestLimit(400) = %v", got)
	}
	st := runToEnd(t, ctx, 30*time.Second)
	capped := eval[bool](t, ctx, `JSON.parse(window.retrylab.state()).capped === true`)
	status := eval[string](t, ctx, `document.getElementById("run-status").textContent`)
	drain := eval[string](t, ctx, `document.querySelector('#numbers [data-stat="drain_ms"]').textContent`)
	t.Logf("status %q; %v requests, %v aborted, %v successes", status, st.Stats["requests"], st.Stats["aborted"], st.Stats["successes"])
	if !capped || st.Stats["requests"] != limit {
		t.Errorf("capped %v with %v requests; want a run stopped at exactly %d", capped, st.Stats["requests"], limit)
	}
	if st.Stats["aborted"] != 0 || st.Stats["successes"] != limit {
		t.Errorf("%v successes and %v aborted: want every request answered (the server has no limit), those in flight at the limit too", st.Stats["successes"], st.Stats["aborted"])
	}
	if !strings.Contains(status, "Stopped at 400 requests, the most a live run sends") {
		t.Errorf("the status %q does not say the run stopped at the request limit", status)
	}
	if !strings.Contains(drain, "not drained: request limit") {
		t.Errorf("the numbers do not say time to drain ended at the limit: %q", drain)
	}
	// The stream's last arrivals come a moment later (a lag over the
	// second slept undercounted them); then no request after the
	// limit's: the count stays.
	_ = waitFor(10*time.Second, func() bool { return len(events.snapshot()) >= limit })
	time.Sleep(time.Second)
	if n := len(events.snapshot()); n != limit {
		t.Errorf("the server saw %d requests, want %d", n, limit)
	}
	typeInto(t, ctx, "jobs", "5")
	st = runToEnd(t, ctx, 30*time.Second)
	if eval[bool](t, ctx, `JSON.parse(window.retrylab.state()).capped === true`) || st.Stats["requests"] != 100 {
		t.Errorf("the next run (100 requests): capped %v, %v requests", eval[bool](t, ctx, `JSON.parse(window.retrylab.state()).capped === true`), st.Stats["requests"])
	}
}
