//go:build e2e

package tests

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestCheckboxesAreTargets: every checkbox on the page (the settings'
// switches, and the shortcuts' switch in the help dialog) is at least
// 24 × 24 CSS px, the target WCAG 2.2 asks (2.5.8), on a phone's width and
// a desktop's, in presentation mode too: they were 18 px (13 px in the
// dialog). And the settings' grid holds: each switch stays on its label's
// row, right of it and inside its field, with its help under both.
func TestCheckboxesAreTargets(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type box struct {
		ID                        string
		W, H                      float64
		Inside, RightOfLabel, Row bool // inside its field; right of its label; on the label's row, above the help
	}
	for _, size := range [][2]int64{{360, 800}, {1280, 1000}} {
		viewport(t, ctx, size[0], size[1])
		boot(t, ctx, srv.URL+"/")
		for _, present := range []bool{false, true} {
			presentMode(t, ctx, present)
			press(t, ctx, "?")
			if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-title" }); err != nil {
				t.Fatalf("%v: ? did not open the help dialog", size)
			}
			boxes := eval[[]box](t, ctx, `[...document.querySelectorAll('input[type="checkbox"]')].filter(e => e.getClientRects().length).map(e => {
				const r = e.getBoundingClientRect(), f = e.closest(".field");
				const b = {ID: e.id, W: r.width, H: r.height, Inside: true, RightOfLabel: true, Row: true};
				if (f) {
					const fr = f.getBoundingClientRect(), lr = f.querySelector("label").getBoundingClientRect(), hr = f.querySelector(".help").getBoundingClientRect();
					b.Inside = r.left >= fr.left && r.right <= fr.right + 0.5;
					b.RightOfLabel = r.left >= lr.right;
					b.Row = r.top < lr.bottom && r.bottom > lr.top && r.bottom <= hr.top + 0.5;
				}
				return b;
			})`)
			if len(boxes) < 5 {
				t.Fatalf("%v presentation mode %v: %d checkboxes shown, want the settings' four and the dialog's", size, present, len(boxes))
			}
			for _, b := range boxes {
				if b.W < 24 || b.H < 24 {
					t.Errorf("%v presentation mode %v: checkbox #%s is %.1f × %.1f px, under 24 × 24", size, present, b.ID, b.W, b.H)
				}
				if !b.Inside || !b.RightOfLabel || !b.Row {
					t.Errorf("%v presentation mode %v: checkbox #%s: inside its field %v, right of its label %v, on its label's row above its help %v; want all", size, present, b.ID, b.Inside, b.RightOfLabel, b.Row)
				}
			}
			press(t, ctx, "?")
		}
		presentMode(t, ctx, false)
		// Scrolled to first: at 1280 px the group is in the sidebar's own
		// scrolling box, and its picture was blank.
		eval[chromedp.Void](t, ctx, `document.getElementById("group-retry-after").scrollIntoView()`)
		if png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#group-retry-after"))); err == nil {
			saveShot(t, fmt.Sprintf("checkboxes-%dx%d", size[0], size[1]), png)
		}
	}
}
