//go:build e2e

package tests

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestServerPanelSaysTheClocksDiffer: a workshop's laptop joining the
// presenter's server has its own clock, seconds off the server's at worst.
// The server's arrivals are drawn by the server's clock, and with the
// device 2 s ahead most of a run's arrivals were drawn left of the axis,
// the rest under the wrong requests, without a word (a review with the
// page's clock moved). They are now drawn moved onto the device's clock,
// each within its request's flight, and the server panel's note says by
// how much. On one machine nothing moves, and the note says nothing of it.
func TestServerPanelSaysTheClocksDiffer(t *testing.T) {
	srv := startServer(t)
	drawn := func(ctx context.Context) string {
		eval[chromedp.Void](t, ctx, canvasTextsJS)
		return eval[string](t, ctx, `window.drawnTexts = [], window.retrylab.redraw(), window.drawnTexts.map(([s]) => s).join(" | ")`)
	}
	// One machine: the page's first run (50 workers, a few hundred
	// answers) finds the clocks agree.
	one, _ := newBrowser(t)
	boot(t, one, srv.URL+"/")
	runToEnd(t, one, 60*time.Second)
	if texts := drawn(one); strings.Contains(texts, "clock") {
		t.Errorf("on the server's machine, the timeline drew %q", texts)
	}
	if n := eval[int](t, one, `JSON.parse(window.retrylab.debug()).arrivals_outside`); n != 0 {
		t.Errorf("on the server's machine, %d arrivals drawn outside their requests' flights", n)
	}

	ctx, _ := newBrowser(t)
	// The device's clock 2 s ahead: Go's wall clock in wasm reads Date.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const D = Date;
			class Ahead extends D { constructor(...a) { if (a.length) super(...a); else super(D.now() + 2000); } static now() { return D.now() + 2000; } }
			globalThis.Date = Ahead;
		})()`})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	boot(t, ctx, srv.URL+"/?workers=4&jobs=2&rate=4&burst=2&latency=20ms&seed=5")
	runToEnd(t, ctx, 30*time.Second)
	if texts := drawn(ctx); !regexp.MustCompile(`the server's clock is about (1\.9\d*|2|2\.0\d*) s behind this device's: its times are drawn moved onto this device's`).MatchString(texts) {
		t.Errorf("the device's clock 2 s ahead of the server's, the timeline drew %q", texts)
	}
	// Each of the run's arrivals drawn within its request's flight: by the
	// server's clock, 26 of 30 lay left of the axis, the rest under the
	// wrong requests.
	if n := eval[int](t, ctx, `JSON.parse(window.retrylab.debug()).arrivals_outside`); n != 0 {
		t.Errorf("the device's clock 2 s ahead: %d arrivals drawn outside their requests' flights", n)
	}
}
