package ui

import (
	"testing"
	"time"

	"retrylab/app/browser"
)

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
