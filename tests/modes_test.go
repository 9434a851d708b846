//go:build e2e

package tests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestForcedColours: in Windows' High Contrast (forced colours) the browser
// replaces the page's colours and drops its backgrounds, but not the
// canvas's (a display-modes review found the legend's swatches gone, the
// story step on and Presentation pressed looking as the others, the help
// dialog without an edge, and an invalid field marked as a valid one).
func TestForcedColours(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1400, 1000)
	emulateMedia(t, ctx, &emulation.MediaFeature{Name: "forced-colors", Value: "active"})
	boot(t, ctx, srv.URL+"/?workers=5&jobs=1&latency=10ms&limiter=none")
	if !eval[bool](t, ctx, `matchMedia("(forced-colors: active)").matches`) {
		t.Fatal("forced colours are not on: the emulation did not take")
	}
	press(t, ctx, "1")
	st := runToEnd(t, ctx, 60*time.Second)
	if st.Stats["requests"] == 0 {
		t.Fatalf("the run sent nothing: %+v", st)
	}
	type look struct {
		OK, Backoff         string // two legend swatches' colours
		On, Off             string // a story step on and one off: background
		Present             string // Presentation's background
		InvalidBorder, Edge string // Workers' border; the help dialog's edge
	}
	get := func() look {
		return eval[look](t, ctx, `(() => {
			const bg = sel => { const e = document.querySelector(sel); return e ? getComputedStyle(e).backgroundColor : "none"; };
			const inv = document.getElementById("f-workers"), m = document.querySelector(".modal");
			return {
				OK: bg(".legend .sw.mark.ok"), Backoff: bg(".legend .sw.bar.backoff"),
				On: bg('.step[aria-pressed="true"]'), Off: bg('.step[aria-pressed="false"]'),
				Present: bg("#present"),
				InvalidBorder: inv ? getComputedStyle(inv).borderTopStyle + " " + getComputedStyle(inv).borderTopWidth : "none",
				Edge: m ? getComputedStyle(m).borderTopWidth : "no dialog",
			};
		})()`)
	}
	l := get()
	// The canvas's own colours (app/ui/theme.go: colOK, colBackoff).
	if l.OK != "rgb(0, 158, 115)" || l.Backoff != "rgb(185, 185, 180)" {
		t.Errorf("the legend's swatches are %s (success) and %s (backoff wait), want the canvas's rgb(0, 158, 115) and rgb(185, 185, 180)", l.OK, l.Backoff)
	}
	if l.On == l.Off {
		t.Errorf("the story step that is on looks as those that are off: background %s", l.On)
	}
	if l.InvalidBorder == "double 3px" {
		t.Errorf("a valid field is marked invalid: %s", l.InvalidBorder)
	}
	viewShot(t, ctx, "forced-colours-after-run")
	offPresent := l.Present
	presentMode(t, ctx, true)
	if on := get().Present; on == offPresent {
		t.Errorf("Presentation pressed looks as when not: background %s", on)
	}
	viewShot(t, ctx, "forced-colours-present")
	presentMode(t, ctx, false)

	typeInto(t, ctx, "workers", "0")
	if err := waitFor(5*time.Second, func() bool { return get().InvalidBorder == "double 3px" }); err != nil {
		t.Errorf("Workers 0 is not marked beside the message: its border is %s", get().InvalidBorder)
	}
	typeInto(t, ctx, "workers", "5")
	press(t, ctx, "?")
	if err := waitFor(5*time.Second, func() bool { return get().Edge == "2px" }); err != nil {
		t.Errorf("the help dialog's edge is %s, want 2px", get().Edge)
	}
	viewShot(t, ctx, "forced-colours-help")
}

// TestPageFollowsTheFontSize: a person who set a larger default font in
// the browser gets larger type (the page kept 14 px whatever the
// setting), in presentation mode too.
func TestPageFollowsTheFontSize(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1400, 1000)
	sizes := func() (root, label, present float64) {
		s := eval[[]float64](t, ctx, `[document.documentElement, document.querySelector(".field label"), document.querySelector("main")].map(e => parseFloat(getComputedStyle(e).fontSize))`)
		return s[0], s[1], s[2]
	}
	boot(t, ctx, srv.URL+"/")
	root, label, _ := sizes()
	if root != 14 {
		t.Errorf("at the browser's default 16 px the page's type is %v px, want 14 as it was", root)
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.SetFontSizes, page.SetFontSizesParams{FontSizes: &page.FontSizes{Standard: 24, Fixed: 20}})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	boot(t, ctx, srv.URL+"/")
	bigRoot, bigLabel, _ := sizes()
	if bigRoot != 21 || bigLabel < label*1.4 {
		t.Errorf("with a 24 px default font the page's type is %v px and a field's label %v px (%v at 16 px), want 21 px and 1.5 times as large", bigRoot, bigLabel, label)
	}
	presentMode(t, ctx, true)
	if _, _, present := sizes(); present < 17*1.4 {
		t.Errorf("with a 24 px default font presentation mode's type is %v px, want 1.5 times its 17 px", present)
	}
	presentMode(t, ctx, false)
}

// TestTextIsNotCutNarrowOrSpaced: each field's allowed range, the tagline
// and the numbers' lines after a run are whole on a 320 px screen (WCAG
// 1.4.10: a 1280 px screen at 400% zoom) and with a reader's text spacing
// (WCAG 1.4.12), in presentation mode too. A range was cut with an
// ellipsis ("1 – 10000 (live runs ≤ 5…"), and said nowhere else;
// presentation mode's tagline too, at 320 px; and under text spacing the
// numbers' lines, clamped to two lines, read "68.35% of requests…".
func TestTextIsNotCutNarrowOrSpaced(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	const cut = `[...document.querySelectorAll(".range, .tagline, #numbers .sub")].filter(e => ` + seenJS + `(e) && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)).map(e => e.textContent)`
	const spacing = `(() => { const s = document.createElement("style"); s.textContent = "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }"; document.head.append(s); return true; })()`
	for _, c := range []struct {
		w, h    int64
		spacing bool
	}{{320, 640, false}, {1400, 1000, true}} {
		viewport(t, ctx, c.w, c.h)
		boot(t, ctx, srv.URL+"/")
		// A run's figures in the numbers' lines, at 429s and wasted
		// requests in the default configuration.
		press(t, ctx, "m")
		simulatedToEnd(t, ctx)
		if c.spacing {
			eval[bool](t, ctx, spacing)
		}
		for _, present := range []bool{false, true} {
			presentMode(t, ctx, present)
			eval[chromedp.Void](t, ctx, afterFrames)
			what := fmt.Sprintf("%d px wide, text spacing %v, presentation %v", c.w, c.spacing, present)
			if n := eval[int](t, ctx, `document.querySelectorAll(".range").length`); n < 20 {
				t.Fatalf("%s: %d ranges on the page", what, n)
			}
			if got := eval[[]string](t, ctx, cut); len(got) > 0 {
				t.Errorf("%s: %d cut: %s", what, len(got), strings.Join(got, " | "))
			}
		}
		presentMode(t, ctx, false)
	}
}

// overlappingCardsJS lists the numbers' cards that overlap another card.
const overlappingCardsJS = `(() => {
	const cs = [...document.querySelectorAll("#numbers .stat")].filter(c => c.offsetParent !== null);
	const out = [];
	for (let i = 0; i < cs.length; i++) for (let j = i + 1; j < cs.length; j++) {
		const a = cs[i].getBoundingClientRect(), b = cs[j].getBoundingClientRect();
		if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
			out.push(cs[i].dataset.stat + " over " + cs[j].dataset.stat);
		}
	}
	return out;
})()`

// TestNumbersFollowTheFontSize: with a larger default font in the browser
// (20 to 28 px, not 16), the numbers' cards are as wide as their larger
// words need, in rows that break evenly, at widths from a phone's to
// 1920 px, in presentation mode too. Their grids switched columns at fixed widths in px: at
// 1280 × 720, after the flood was simulated, "completion p50" read
// "completio" at 24 px, and at 28 px the cards overlapped and the page was
// 1294 px wide, scrolling sideways (a display-modes review).
func TestNumbersFollowTheFontSize(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	cardsJS := afterFrames + `.then(() => [...` +
		cutNumbersJS + `, ...` + overlappingCardsJS + `])`
	for _, size := range []int64{20, 24, 28} {
		if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, page.SetFontSizes, page.SetFontSizesParams{FontSizes: &page.FontSizes{Standard: size, Fixed: size * 13 / 16}})
			return err
		})); err != nil {
			t.Fatal(err)
		}
		viewport(t, ctx, 1280, 720)
		boot(t, ctx, srv.URL+"/")
		press(t, ctx, "1")
		press(t, ctx, "m")
		simulatedToEnd(t, ctx)
		for _, present := range []bool{false, true} {
			presentMode(t, ctx, present)
			bad := 0
			for _, w := range []int64{1280, 320, 390, 600, 768, 800, 900, 961, 1024, 1366, 1600, 1920} {
				viewport(t, ctx, w, 720)
				what := eval[[]string](t, ctx, cardsJS)
				// At 320 px and 28 px, as narrow as a 183 px window at 16
				// px, the zoom bar's Replay and speed are wider than the
				// window in presentation mode: not the numbers'.
				if w >= 360 {
					what = append(what, eval[[]string](t, ctx, pageWiderJS)...)
				}
				rows := eval[map[string]any](t, ctx, `JSON.parse(`+numbersRowsJS+`)`)
				for _, g := range []string{"primary", "secondary"} {
					var n []int
					for _, r := range rows[g].([]any) {
						n = append(n, int(r.(float64)))
					}
					if len(n) > 1 && hasLone(n) {
						what = append(what, fmt.Sprintf("the %s numbers break into rows of %v", g, n))
					}
				}
				if len(what) > 0 {
					if bad++; bad <= 6 {
						t.Errorf("default font %d px, %d px wide, presentation mode %v: %q", size, w, present, what)
					}
				}
			}
			viewport(t, ctx, 1280, 720)
			eval[chromedp.Void](t, ctx, afterFrames)
			eval[chromedp.Void](t, ctx, `document.getElementById("numbers").scrollIntoView()`)
			viewShot(t, ctx, fmt.Sprintf("font-%d-numbers-present-%v", size, present))
		}
		presentMode(t, ctx, false)
	}
}
