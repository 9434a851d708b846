package ui

import (
	"math"
	"slices"
	"testing"

	"retrylab/app/fleet"
)

// phoneSizes are the timeline's canvases on phones: 390, 375 and 320 px
// wide (their timelines 348, 333 and 278 px), in the normal, dark and
// presentation themes.
var phoneSizes = []frameSize{
	{"phone 390 px", 348, &normalTheme},
	{"phone 390 px, dark", 348, &darkTheme},
	{"phone 390 px, presentation", 348, &presentTheme},
	{"phone 375 px", 333, &normalTheme},
	{"phone 375 px, presentation", 333, &presentTheme},
	{"phone 320 px", 278, &normalTheme},
}

// A line's label in the histogram sits at its line, just above or just
// below it, inside the plot, in fewer words where the whole has no room
// there: on a 390 px phone, full jitter's "server limit 10 req/s (burst
// 10)" sat 25–35 px above its dashed line, over bars that reached above
// the line, where it read as a label of nothing in particular (a review).
func TestLineLabelsSitAtTheirLines(t *testing.T) {
	sizes := append(slices.Clone(frameSizes), phoneSizes...)
	for _, p := range fleet.Presets {
		v := simulatedView(t, p.ID, "")
		for _, sz := range sizes {
			name := p.ID + ", " + sz.name
			o, l := paintView(v, sz)
			marks, labels := frameContent(o, &l)
			for _, lb := range labels {
				if lb.col != colLimit && lb.col != colClient {
					continue
				}
				own, _ := ownLine(&l, marks, lb)
				if own.what == "" {
					t.Errorf("%s: %q lies across no line of its colour", name, lb.text)
					continue
				}
				y := own.r.y + own.r.h/2
				d := math.Min(math.Abs(lb.r.y-y), math.Abs(lb.r.y+lb.r.h-y))
				if lb.r.y < y && y < lb.r.y+lb.r.h {
					d = 0 // across it, on a plate
				}
				if d > lineLabelNear*l.scale {
					t.Errorf("%s: %q %v is %.0f px from its line at y %.0f: want it at the line (%v px)", name, lb.text, lb.r, d, y, lineLabelNear*l.scale)
				}
				if lb.r.y < l.histTop-0.5 || lb.r.y+lb.r.h > l.histTop+l.histH+0.5 || lb.r.x < l.left-0.5 || lb.r.x+lb.r.w > l.right+0.5 {
					t.Errorf("%s: %q %v is not inside the plot (%.0f–%.0f × %.0f–%.0f)", name, lb.text, lb.r, l.left, l.right, l.histTop, l.histTop+l.histH)
				}
			}
		}
	}
}
