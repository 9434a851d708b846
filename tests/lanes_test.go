//go:build e2e

package tests

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lanesDrawn is what the page drew of the lanes: their plot and a lane's
// height (debug()), and where it wrote "w1".
type lanesDrawn struct {
	Rect  [4]float64 `json:"rect"` // left, top, right, bottom, CSS px of the canvas
	LaneH float64    `json:"laneH"`
	Count int        `json:"count"`
	W1    []float64  `json:"w1"` // x, y of the label "w1" (nil: not drawn)
}

func drawnLanes(t *testing.T, ctx context.Context) lanesDrawn {
	t.Helper()
	eval[chromedp.Void](t, ctx, canvasTextsJS)
	return eval[lanesDrawn](t, ctx, `(() => {
		window.drawnTexts = [];
		window.retrylab.redraw();
		const d = JSON.parse(window.retrylab.debug());
		const w1 = window.drawnTexts.find(([s]) => s === "w1");
		return {rect: d.lanes_rect, laneH: d.lane_h, count: d.lane_count, w1: w1 ? w1.slice(1, 3) : null};
	})()`)
}

// TestOneWorkerLane runs one worker's four jobs in the page at 1400 × 1000
// and in presentation mode: the timeline draws its lane 36 px high (50.4
// in presentation mode) and labels it w1, left of the plot, in the lane's
// middle. The lane was 14 px high, unlabelled.
func TestOneWorkerLane(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1400, 1000)
	boot(t, ctx, srv.URL+"/?workers=1&jobs=4")
	if st := runToEnd(t, ctx, 30*time.Second); st.Stats["requests"] < 4 {
		t.Fatalf("the run sent %v requests, want 4 at least", st.Stats["requests"])
	}
	for _, c := range []struct {
		mode  string
		laneH float64
	}{{"page", 36}, {"presentation mode", 36 * 1.4}} {
		if c.mode == "presentation mode" {
			presentMode(t, ctx, true)
		}
		d := drawnLanes(t, ctx)
		if d.Count != 1 || d.LaneH < c.laneH-0.01 || d.LaneH > c.laneH+0.01 || d.Rect[3]-d.Rect[1] < c.laneH-0.01 {
			t.Errorf("%s: %d lanes of %.1f px (plot %v), want one of %.1f px", c.mode, d.Count, d.LaneH, d.Rect, c.laneH)
		}
		if len(d.W1) != 2 {
			t.Errorf("%s: the lane is not labelled w1", c.mode)
			continue
		}
		if x, y := d.W1[0], d.W1[1]; x >= d.Rect[0] || x < d.Rect[0]-20*c.laneH/36 || y < d.Rect[1]+c.laneH/2-1 || y > d.Rect[1]+c.laneH/2+1 {
			t.Errorf("%s: w1 written at (%.1f, %.1f), want just left of the plot (x %.1f) in the lane's middle (y %.1f)", c.mode, x, y, d.Rect[0], d.Rect[1]+c.laneH/2)
		}
	}
	press(t, ctx, "p")
}
