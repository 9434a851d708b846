package ui

import (
	"math"
	"testing"
	"time"

	"retrylab/app/browser"
)

// TestRevealBy: a mark walked to with the keyboard is scrolled to just
// clear of what sticks to the screen's top (the legend and the sticky
// axis) when it is under them or above the screen, just above the
// screen's bottom when it is below it, and not at all when it shows; where
// the room between them is too low for it, it goes under their edge.
func TestRevealBy(t *testing.T) {
	const r = 5.6 // a 1-px lane's mark's ring
	for _, c := range []struct {
		name               string
		y, clear, viewH, d float64
	}{
		{"in the clear", 300, 100, 720, 0},
		{"just clear of the sticky axis", 100 + r + revealPad, 100, 720, 0},
		{"just above the screen's bottom", 720 - r - revealPad, 100, 720, 0},
		{"under the sticky axis: up, to its edge", 95, 100, 720, 95 - r - revealPad - 100},
		{"above the screen", -50, 100, 720, -50 - r - revealPad - 100},
		{"below the screen", 760, 100, 720, 760 + r + revealPad - 720},
		{"a phone, nothing stuck, above the screen", -10, 0, 740, -10 - r - revealPad},
		{"too little room, below: its top at the edge", 800, 700, 710, 800 - r - revealPad - 700},
		{"too little room, under the edge: down to it", 690, 700, 710, 690 - r - revealPad - 700},
	} {
		if got := revealBy(c.y, r, c.clear, c.viewH); math.Abs(got-c.d) > 1e-9 {
			t.Errorf("%s: mark at %v, stuck down to %v, screen %v high: scroll by %v, want %v", c.name, c.y, c.clear, c.viewH, got, c.d)
		}
		if d := revealBy(c.y, r, c.clear, c.viewH); c.viewH-c.clear >= 2*(r+revealPad) {
			if y := c.y - d; y-r-revealPad < c.clear-1e-9 || y+r+revealPad > c.viewH+1e-9 {
				t.Errorf("%s: scrolled by %v, the mark is at %v: not clear of %v–%v", c.name, d, y, c.clear, c.viewH)
			}
		}
	}
}

// TestStickyAxisIsTheTopAxisRow: the sticky axis draws the canvas's own
// row above the lanes — the same time labels and lanes' title, at the
// same places — for every width and theme, with lanes, a watch's lanes,
// none, and zoomed in; it is no higher than that row, so that lying over
// it it hides none of the top lane's marks (drawn from 2 px above the
// lanes' top), and high enough for the labels.
func TestStickyAxisIsTheTopAxisRow(t *testing.T) {
	for _, sz := range frameSizes {
		for _, c := range []struct {
			name       string
			workers    int
			names      []string
			from, span time.Duration
		}{
			{"500 workers", 500, nil, 0, 16 * time.Second},
			{"3 workers", 3, nil, 0, 10 * time.Second},
			{"no lanes", 0, nil, 0, 10 * time.Second},
			{"a watch's devices", 2, []string{"a", "b"}, 0, time.Minute},
			{"zoomed in", 500, nil, 7 * time.Second, 1500 * time.Millisecond},
		} {
			what := sz.name + ", " + c.name
			l := newLayout(sz.width, c.workers, c.span, sz.th)
			l.from, l.names = c.from, c.names
			var canvas, axis browser.Ops
			paint(&canvas, &l, nil, frameInput{th: sz.th})
			paintStickyAxis(&axis, &l, sz.th)
			h := l.stickyAxisH()
			if want := l.lanesTop - 2; h > want {
				t.Errorf("%s: the sticky axis is %v px high, over the lanes' marks from %v px", what, h, want)
			}
			type text struct {
				s    string
				x, y float64
			}
			row := func(o *browser.Ops) (out []text) {
				boxes, texts := textBoxes(o, l.scale)
				for i, b := range boxes {
					if b[1] < h {
						out = append(out, text{texts[i], b[0], b[1]})
						if b[3] > h {
							t.Errorf("%s: %q reaches %v px down, past the sticky axis's %v", what, texts[i], b[3], h)
						}
					}
				}
				return out
			}
			top, stuck := row(&canvas), row(&axis)
			if len(stuck) == 0 || len(stuck) != len(top) {
				t.Errorf("%s: the sticky axis draws %v, the canvas's top row %v", what, stuck, top)
				continue
			}
			for i := range top {
				if top[i] != stuck[i] {
					t.Errorf("%s: the sticky axis draws %v, the canvas's top row %v", what, stuck[i], top[i])
				}
			}
			labels := 0
			for _, s := range stuck {
				if s.s != l.lanesTitle() {
					labels++
				}
			}
			if labels == 0 {
				t.Errorf("%s: the sticky axis has no time label: %v", what, stuck)
			}
		}
	}
}
