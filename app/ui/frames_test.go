//go:build !(js && wasm)

// Natively a FrameLoop runs its frame on Request (there are no animation
// frames), so these tests see every frame the view asks for; node, where
// the js/wasm tests run, has no requestAnimationFrame to draw with.

package ui

import (
	"testing"
	"time"

	"retrylab/app/fleet"
	"retrylab/core"
)

// Scrolled out of sight the timeline is not redrawn: records wait, and
// the frame missed runs as soon as some of it shows again.
func TestTimelineWaitsWhileOffScreen(t *testing.T) {
	v := newView()
	v.start(fleet.Default(), t0, "")
	drawn := v.draws
	v.setOnScreen(false)
	for ms := range 5 {
		v.onRecord(fleet.Record{Worker: ms, Event: core.Event{Kind: core.EventAttempt, At: at(ms), Intended: at(ms), Attempt: 1}})
	}
	v.mu.Lock()
	waiting, draws := len(v.pending), v.draws
	v.mu.Unlock()
	if draws != drawn || waiting != 5 {
		t.Fatalf("off screen: %d redraws (before: %d), %d records waiting; want none drawn and 5 waiting", draws, drawn, waiting)
	}
	v.setOnScreen(true) // while running, the frame comes minGap after the last
	deadline := time.Now().Add(5 * time.Second)
	for {
		v.mu.Lock()
		if v.draws > drawn || time.Now().After(deadline) {
			break
		}
		v.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	defer v.mu.Unlock()
	if v.draws != drawn+1 || len(v.pending) != 0 || len(v.m.marks) != 5 {
		t.Errorf("back on screen: %d redraws, %d waiting, %d marks; want one redraw with the 5 attempts", v.draws-drawn, len(v.pending), len(v.m.marks))
	}
}

// A run that ends out of sight is drawn whole at once, and only then: the
// canvas is ready before it is scrolled to, printed or captured beyond the
// viewport (a full-page screenshot of a phone showed the empty timeline's
// hint under a finished run's numbers).
func TestRunEndIsDrawnOffScreen(t *testing.T) {
	v := newView()
	v.start(fleet.Default(), t0, "")
	v.setOnScreen(false)
	v.onRecord(fleet.Record{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: at(1), Intended: at(1), Attempt: 1}})
	v.mu.Lock()
	drawn := v.draws
	v.mu.Unlock()
	v.finish(at(100))
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.draws != drawn+1 || len(v.pending) != 0 || len(v.m.marks) != 1 {
		t.Errorf("a run ended out of sight: %d redraws, %d records waiting, %d marks; want one redraw with the attempt", v.draws-drawn, len(v.pending), len(v.m.marks))
	}
}

// A live run's timeline moves on with no news: its "now" line and the
// bars of the requests in flight grow. With every request in flight for
// seconds, no record came, and it stood still (found by a review); once the
// run is over, it is drawn no more.
func TestLiveTimelineMovesWithoutNews(t *testing.T) {
	v := newView()
	v.start(fleet.Default(), t0, "")
	v.onRecord(fleet.Record{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: at(1), Intended: at(1), Attempt: 1}})
	draws := func() int {
		v.mu.Lock()
		defer v.mu.Unlock()
		return v.draws
	}
	before := draws()
	deadline := time.Now().Add(5 * time.Second)
	for draws() < before+3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := draws() - before; n < 3 {
		t.Fatalf("%d redraws in 5 s of a run with a request in flight and no news; want the timeline to move on", n)
	}
	v.finish(at(2000))
	time.Sleep(50 * time.Millisecond) // a tick asked for before the end may come
	over := draws()
	time.Sleep(300 * time.Millisecond)
	if n := draws() - over; n > 0 {
		t.Errorf("%d redraws after the run was over, with nothing new", n)
	}
}
