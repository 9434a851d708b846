//go:build e2e

package tests

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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

	ctx := aheadBrowser(t)
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

// aheadBrowser is a new browser whose pages' clock is 2 s ahead of this
// machine's: Go's wall clock in wasm reads Date.
func aheadBrowser(t *testing.T) context.Context {
	ctx, _ := newBrowser(t)
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
	return ctx
}

// TestWatchSaysTheClocksDiffer: a projector watching a workshop's room
// sends nothing of its own, so no answer tells its clock from the
// server's; with its clock 2 s ahead, it drew the room's arrivals 2 s
// before they came ("received at 0.298 s" for one sent about 2.3 s into
// the watch). The stream's hello bounds the difference, and the arrivals are
// drawn on the projector's clock, with the server panel's note saying so.
func TestWatchSaysTheClocksDiffer(t *testing.T) {
	srv := startServer(t)
	ctx := aheadBrowser(t)
	room := fmt.Sprintf("e2e-clock-%d", time.Now().UnixNano())
	boot(t, ctx, srv.URL+"/?room="+room)
	began := time.Now() // the watch starts after: in the key's task
	press(t, ctx, "w")
	if err := waitFor(5*time.Second, func() bool { s := state(t, ctx); return s.Watching && s.WatchOpen }); err != nil {
		t.Fatalf("w did not start watching the room: %+v", state(t, ctx))
	}
	time.Sleep(time.Second)
	sent := time.Since(began)
	resp, err := http.Get(srv.URL + "/mock?key=" + room)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Stats["arrivals"] == 1 }); err != nil {
		t.Fatalf("the watch counted %v arrivals, want 1", state(t, ctx).Stats["arrivals"])
	}
	eval[chromedp.Void](t, ctx, canvasTextsJS)
	if texts := eval[string](t, ctx, `window.drawnTexts = [], window.retrylab.redraw(), window.drawnTexts.map(([s]) => s).join(" | ")`); !regexp.MustCompile(`the server's clock is about (1\.9\d*|2|2\.0\d*) s behind this device's`).MatchString(texts) {
		t.Errorf("the projector's clock 2 s ahead of the server's, the timeline drew %q", texts)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline")), chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	var said string
	at := regexp.MustCompile(`received at (-?[0-9.]+) s`)
	if err := waitFor(2*time.Second, func() bool {
		said = eval[string](t, ctx, `document.getElementById("tip-said").textContent`)
		return at.MatchString(said)
	}); err != nil {
		t.Fatalf("the arrival's tip said %q", said)
	}
	got, _ := strconv.ParseFloat(at.FindStringSubmatch(said)[1], 64)
	// The watch started after began, by the press's delivery (and the
	// server's clock taken for the page's by up to its round trips).
	if d := got - sent.Seconds(); d < -0.5 || d > 0.1 {
		t.Errorf("the arrival sent %.2f s into the watch is drawn received at %.3f s", sent.Seconds(), got)
	}
	t.Logf("said %q; screenshot %s", said, screenshot(t, ctx, "watch-clock"))
}
