// The message at the foot of the screen (the toast): what an action did,
// or why it could not.

package ui

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// toastID is the short message's element.
const toastID = "toast"

// Flash shows a short message for a few seconds (toastTime), at the foot of the
// screen, or nearest it where it covers none of the page's text
// (browser.ClearSpot), and moves it when the page moves under it.
func (l *Lab) Flash(ctx app.Context, msg string) {
	l.toastN++
	n := l.toastN
	l.toast, l.toastAt, l.toastTop, l.toastSet = msg, "", -1, false
	l.runRev++
	// Drawn where it covers no text the page shows (it covered "Fix 3
	// fields to copy the link…" under the exports at 1400 × 1000), once
	// the page has drawn it.
	// (A Flash from another component than the run bar's parent may come
	// before the run bar drew it: then after the next paint.)
	place := func(force, last bool) bool {
		if l.toastN != n {
			return true
		}
		at, top, err := browser.ClearSpot(toastID, force, canvasID, l.view.textBands())
		if err == nil && (at != l.toastAt || top != l.toastTop || !l.toastSet) {
			l.toastAt, l.toastTop = at, top
			l.toastSet = true
			l.runRev++
		} else if err != nil && last {
			l.toastSet = true
			l.runRev++
		}
		return err == nil
	}
	ctx.Defer(func(ctx app.Context) {
		if !place(true, false) {
			ctx.Async(func() {
				browser.Clock{}.AfterPaint(context.Background())
				ctx.Dispatch(func(app.Context) { place(true, true) })
			})
		}
	})
	// While it shows, it is placed again whenever the page has moved
	// under it (a simulation's numbers came in, presentation mode, a
	// scroll): placed once, it was left over a field and the legend.
	ctx.Async(func() {
		end := time.Now().Add(toastTime(msg))
		for left := time.Until(end); left > 0; left = time.Until(end) {
			_ = browser.Clock{}.Sleep(context.Background(), min(toastLook, left))
			ctx.Dispatch(func(app.Context) {
				if l.toastN == n && l.toastSet {
					place(false, false)
				}
			})
		}
		ctx.Dispatch(func(app.Context) {
			if l.toastN == n {
				l.toast = ""
				l.runRev++
			}
		})
	})
}

// toastLook is how often a short message looks whether the page has
// moved under it.
const toastLook = 250 * time.Millisecond

// dismissToast takes the short message away at once: a run, a simulation
// or a watch starting makes what it said old news ("Compare: finish a run
// first" stayed over the simulation that had just finished).
func (l *Lab) dismissToast() {
	if l.toast != "" {
		l.toastN++
		l.toast = ""
		l.runRev++
	}
}

// toastTime is how long a short message shows: 2.5 s, or the time to read
// it, at 50 ms a character (20 a second), when that is longer.
func toastTime(msg string) time.Duration {
	return max(2500*time.Millisecond, time.Duration(utf8.RuneCountInString(msg))*50*time.Millisecond)
}
