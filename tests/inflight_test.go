//go:build e2e

package tests

import (
	"testing"
	"time"
)

// A live run whose every request is in flight for seconds sends no news,
// yet its timeline moves on: the "now" line and the bars of the requests
// in flight grow, and the time to drain counts up. (The timeline stood
// still, drawn 4 times from 1.5 s to 4.5 s, and time to drain read 0 µs;
// found by a review.)
func TestTimelineMovesWhileRequestsAreInFlight(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=4&jobs=1&attempts=1&timeout=0s&seed=1&latency=6s")
	click(t, ctx, "run")
	draws := func() float64 { return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).draws`) }
	if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Stats["requests"] == 4 }); err != nil {
		t.Fatalf("the 4 requests were not sent: %v", err)
	}
	time.Sleep(time.Second)
	before, at := draws(), time.Now()
	time.Sleep(1500 * time.Millisecond)
	n, took := draws()-before, time.Since(at)
	st := state(t, ctx)
	click(t, ctx, "stop")
	if !st.Running || st.Stats["jobs"] != 0 {
		t.Fatalf("the run was over (running %v, %v jobs done) before its requests' 6 s", st.Running, st.Stats["jobs"])
	}
	// A frame comes at most maxFrameGap (250 ms) after the last.
	if n < 4 {
		t.Errorf("%v redraws in %v with 4 requests in flight; want the timeline to move on", n, took.Round(time.Millisecond))
	}
	if d := st.Stats["drain_ms"]; d < 2000 {
		t.Errorf("over 2.5 s into the run, time to drain so far %v ms", d)
	}
}
