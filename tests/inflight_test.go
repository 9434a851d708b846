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
	// Requests in flight for 30 s, the most the mock waits: the run is
	// still going whatever this machine's speed, and s ends it.
	boot(t, ctx, srv.URL+"/?workers=4&jobs=1&attempts=1&timeout=0s&seed=1&latency=30s")
	click(t, ctx, "run")
	draws := func() float64 { return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).draws`) }
	if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Stats["requests"] == 4 }); err != nil {
		t.Fatalf("the 4 requests were not sent: %v", err)
	}
	// The timeline is drawn again and again, and the time to drain counts
	// up, with nothing news. How often a frame comes (at most maxFrameGap
	// after the last) is app/ui's frames test; here, that they come.
	before := draws()
	var st pageState
	var n float64
	err := waitFor(20*time.Second, func() bool {
		st, n = state(t, ctx), draws()-before
		return n >= 4 && st.Stats["drain_ms"] >= 2000
	})
	press(t, ctx, "s")
	if !st.Running || st.Stats["jobs"] != 0 {
		t.Fatalf("the run was over (running %v, %v jobs done) before its requests' 30 s", st.Running, st.Stats["jobs"])
	}
	if err != nil {
		t.Errorf("with 4 requests in flight: %v redraws, time to drain so far %v ms; want the timeline to move on and the time to count up past 2 s", n, st.Stats["drain_ms"])
	}
}
