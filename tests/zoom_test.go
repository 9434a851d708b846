//go:build e2e

package tests

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestZoomAFinishedRun: after simulating the flood, a person zooms into
// the timeline (the + button, then + and a from the keyboard), reads which
// part of the run is shown, and goes back to the whole run with 0.
func TestZoomAFinishedRun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?strategy=constant&base=2s&workers=50&jobs=2")
	debug := func() debugState { return debugOf(t, ctx) }
	window := func() [2]float64 { return debug().Window }
	zoomText := func() string { return eval[string](t, ctx, `document.getElementById("zoom-window").textContent`) }
	if !eval[bool](t, ctx, `document.getElementById("zoom-in").disabled`) {
		t.Error("zoom offered before any run")
	}
	click(t, ctx, "simulate")
	simulatedToEnd(t, ctx)
	// The simulated run drawn (before, the empty timeline's 10 s show).
	var whole [2]float64
	if err := waitFor(5*time.Second, func() bool { d := debug(); whole = d.Window; return d.Drawn > 0 }); err != nil {
		t.Fatalf("the finished run was not drawn: window %v", whole)
	}
	if whole[0] != 0 || zoomText() != "Showing the whole run" {
		t.Errorf("before zooming: window %v, %q", whole, zoomText())
	}

	click(t, ctx, "zoom-in")
	press(t, ctx, "+")
	var w [2]float64
	if err := waitFor(3*time.Second, func() bool { w = window(); return w[1]-w[0] < (whole[1]-whole[0])/3 }); err != nil {
		t.Fatalf("after zooming in twice: window %v of %v", w, whole)
	}
	if got, want := w[1]-w[0], (whole[1]-whole[0])/4; math.Abs(got-want) > 1 {
		t.Errorf("zoomed twice: %v ms shown, want a quarter of the run (%v ms)", got, want)
	}
	// "Showing 4.5 s – 9.25 s of 18.55 s": of the run, as long as its time
	// to drain (it said "of 18.92 s", the axis, which goes 2% past it).
	drain := eval[float64](t, ctx, `+document.querySelector('#numbers [data-stat="drain_ms"]').dataset.value`)
	txt := zoomText()
	_, ofText, _ := strings.Cut(strings.TrimSuffix(txt, " s"), " of ")
	if of, err := strconv.ParseFloat(ofText, 64); !strings.HasPrefix(txt, "Showing ") || err != nil || math.Abs(of*1000-drain) > 5 {
		t.Errorf("zoom text %q, want \"Showing … of %.2f s\" (the time to drain)", txt, drain/1000)
	}
	screenshot(t, ctx, "zoom-flood")
	if err := chromedp.Do(ctx, chromedp.KeyEvent("a")); err != nil {
		t.Fatal(err)
	}
	var panned [2]float64
	if err := waitFor(3*time.Second, func() bool { panned = window(); return panned[0] < w[0] }); err != nil {
		t.Errorf("a did not pan earlier: %v → %v", w, panned)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("0")); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(3*time.Second, func() bool { return window() == whole }); err != nil {
		t.Errorf("0 did not show the whole run: %v, want %v", window(), whole)
	}
}

// TestOverlayFollowsTheTimeline: the overlay canvas (crosshair, selection)
// takes the timeline's size when the timeline changes size, not at the
// pointer's next move. Fewer workers made the timeline shorter while the
// overlay kept its old height: the page scrolled 212 px past its content,
// and the next press shrank it, scrolled the page under the pointer, and
// lost the click (TestInvalidFieldsStopTheCopies's lost copies).
func TestOverlayFollowsTheTimeline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=50&jobs=2")
	heights := func() [2]float64 {
		return eval[[2]float64](t, ctx, `[document.getElementById("timeline").getBoundingClientRect().height, document.getElementById("timeline-overlay").getBoundingClientRect().height]`)
	}
	before := heights()
	typeInto(t, ctx, "workers", "7")
	var h [2]float64
	if err := waitFor(5*time.Second, func() bool { h = heights(); return h[0] < before[0] }); err != nil {
		t.Fatalf("7 workers: the timeline stayed %.0f px high", before[0])
	}
	if err := waitFor(2*time.Second, func() bool { h = heights(); return h[0] == h[1] }); err != nil {
		t.Errorf("7 workers: the timeline is %.0f px high and its overlay %.0f px (50 workers: %.0f and %.0f)", h[0], h[1], before[0], before[1])
	}
}

// TestPresentationZoomRowReads: in presentation mode the zoom bar
// ("Showing the whole run", + − ⤢ ◀ ▶, Replay, its speed) and the
// "Client settings as Go code" line were 11.9 px and the tooltip 13.3 px,
// the rest of what a presenter points at 16 px and more. They now read as
// the legend does, at 1024 × 768, 1280 × 720, 1920 × 1080 and on a
// 390 × 844 phone, with nothing past the screen's edge: the zoom bar wraps.
func TestPresentationZoomRowReads(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	for _, size := range [][2]int64{{1024, 768}, {1280, 720}, {1920, 1080}, {390, 844}} {
		if size[0] < 600 {
			viewport(t, ctx, size[0], size[1], chromedp.EmulateScale(2), chromedp.EmulateMobile)
		} else {
			viewport(t, ctx, size[0], size[1])
		}
		boot(t, ctx, srv.URL+"/?workers=8&jobs=1&rate=4&burst=2")
		presentMode(t, ctx, true)
		click(t, ctx, "simulate")
		simulatedToEnd(t, ctx)
		time.Sleep(300 * time.Millisecond)
		readableRules(t, ctx, size, underTimeline)
		type fit struct {
			Page, Screen float64
			Out          []string
		}
		f := eval[fit](t, ctx, `(() => {
			const out = [];
			for (const e of document.querySelectorAll(".zoombar, .zoombar *, .gocode summary, .export-row > *")) {
				const r = e.getBoundingClientRect();
				if (r.width && (r.left < 0 || r.right > innerWidth + 0.5)) out.push((e.id || e.className || e.nodeName) + " " + Math.round(r.left) + "–" + Math.round(r.right));
			}
			return {Page: document.documentElement.scrollWidth, Screen: innerWidth, Out: out};
		})()`)
		if f.Page > f.Screen || len(f.Out) > 0 {
			t.Errorf("%v, presentation mode: the page %.0f px wide on a %.0f px screen; past its edge: %q", size, f.Page, f.Screen, f.Out)
		}
		eval[bool](t, ctx, `(() => { document.getElementById("zoombar").scrollIntoView({block: "center"}); return true; })()`)
		viewShot(t, ctx, fmt.Sprintf("present-zoombar-%dx%d", size[0], size[1]))
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline"))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		viewShot(t, ctx, fmt.Sprintf("present-tooltip-%dx%d", size[0], size[1]))
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
			t.Fatal(err)
		}
	}
}
