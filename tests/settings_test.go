//go:build e2e

package tests

import (
	"context"
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
	eachSizeWithHelp(t, ctx, srv, func(size [2]int64, present bool) {
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
	}, func(size [2]int64) {
		// Scrolled to first: at 1280 px the group is in the sidebar's own
		// scrolling box, and its picture was blank.
		eval[chromedp.Void](t, ctx, `document.getElementById("group-retry-after").scrollIntoView()`)
		if png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#group-retry-after"))); err == nil {
			saveShot(t, fmt.Sprintf("checkboxes-%dx%d", size[0], size[1]), png)
		}
	})
}

// TestSettingsHelpIsReadable: the line under each setting that says what
// it does (and the notes beside it, and the help dialog's) is at least
// 12 px, on a phone's width and a desktop's, and in presentation mode: it
// was 0.78rem, 10.9 px on the page's 14 px root, at every width (a review).
func TestSettingsHelpIsReadable(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	eachSizeWithHelp(t, ctx, srv, func(size [2]int64, present bool) {
		type small struct {
			ID   string
			Size float64
			N    int
		}
		s := eval[small](t, ctx, `(() => {
				let m = {ID: "", Size: 0, N: 0};
				for (const e of document.querySelectorAll(".help")) {
					if (!e.getClientRects().length || !e.textContent.trim()) continue;
					const px = parseFloat(getComputedStyle(e).fontSize);
					m.N++;
					if (!m.Size || px < m.Size) { m.ID = e.id; m.Size = px; }
				}
				return m;
			})()`)
		if s.N < 60 {
			t.Errorf("%v presentation mode %v: %d help lines shown, want every setting's and the dialog's", size, present, s.N)
		}
		if s.Size < 12 {
			t.Errorf("%v presentation mode %v: help #%s is %.2f px, want at least 12", size, present, s.ID, s.Size)
		}
	}, func(size [2]int64) {
		eval[chromedp.Void](t, ctx, `document.getElementById("group-fleet").scrollIntoView()`)
		eval[chromedp.Void](t, ctx, afterFrames)
		if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
			saveShot(t, fmt.Sprintf("settings-help-%dx%d", size[0], size[1]), png)
		}
	})
}

// eachSizeWithHelp boots the page on a phone's width and a desktop's and
// calls open with the help dialog open, out of presentation mode and in
// it, then after with the dialog closed and presentation mode off.
func eachSizeWithHelp(t *testing.T, ctx context.Context, srv *server, open func(size [2]int64, present bool), after func(size [2]int64)) {
	t.Helper()
	for _, size := range [][2]int64{{360, 800}, {1280, 1000}} {
		viewport(t, ctx, size[0], size[1])
		boot(t, ctx, srv.URL+"/")
		for _, present := range []bool{false, true} {
			presentMode(t, ctx, present)
			press(t, ctx, "?")
			if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-title" }); err != nil {
				t.Fatalf("%v: ? did not open the help dialog", size)
			}
			open(size, present)
			press(t, ctx, "?")
		}
		presentMode(t, ctx, false)
		after(size)
	}
}
