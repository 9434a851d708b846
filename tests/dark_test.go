//go:build e2e

package tests

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// darkLookJS says how the page looks: the canvas's theme (debug()), the
// page's ground and text (their relative luminance, WCAG's), and the
// timeline's commonest pixel, its ground, as "#rrggbb".
const darkLookJS = `(() => {
	const lum = (css) => {
		const m = css.match(/[\d.]+/g).slice(0, 3).map(Number);
		const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(m[0]) + 0.7152 * f(m[1]) + 0.0722 * f(m[2]);
	};
	const body = getComputedStyle(document.body);
	const c = document.getElementById("timeline");
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	const seen = new Map();
	for (let i = 0; i < d.length; i += 4 * 7) {
		const k = "#" + [d[i], d[i + 1], d[i + 2]].map(v => v.toString(16).padStart(2, "0")).join("");
		seen.set(k, (seen.get(k) || 0) + 1);
	}
	let ground = "", most = 0;
	for (const [k, n] of seen) if (n > most) { ground = k; most = n; }
	return {theme: JSON.parse(window.retrylab.debug()).theme, bg: lum(body.backgroundColor), ink: lum(body.color),
		ground: ground, scheme: getComputedStyle(document.documentElement).colorScheme};
})()`

type darkLook struct {
	Theme  string  `json:"theme"`
	BG     float64 `json:"bg"`
	Ink    float64 `json:"ink"`
	Ground string  `json:"ground"`
	Scheme string  `json:"scheme"`
}

// lookIs waits until the page looks as want says: the canvas's theme, a
// dark or light page, and the timeline's ground.
func lookIs(t *testing.T, ctx context.Context, how string, theme string, dark bool, grounds ...string) darkLook {
	t.Helper()
	var got darkLook
	ok := func() bool {
		got = eval[darkLook](t, ctx, darkLookJS)
		if got.Theme != theme || (got.BG < 0.05) != dark || (got.Ink < 0.2) == dark {
			return false
		}
		for _, g := range grounds {
			if got.Ground == g {
				return true
			}
		}
		return false
	}
	if err := waitFor(5*time.Second, ok); err != nil {
		t.Errorf("%s: the page looks %+v; want the canvas's theme %q, a dark page %v, the timeline's ground one of %q", how, got, theme, dark, grounds)
	}
	return got
}

// TestDarkScheme: a system that prefers a dark colour scheme gets a dark
// page and a dark timeline, from the first paint and through a run; axe
// finds no contrast or other violation in it (fresh, after a run, with an
// invalid input, comparing with a baseline, with the shortcuts dialog);
// the page follows the system's scheme when it changes, the canvas too;
// and presentation mode stays light whatever the system prefers (a
// projector washes out a dark ground). The light page is
// TestPageIsAccessible's.
func TestDarkScheme(t *testing.T) {
	axe := axeScript(t)
	srv := startServer(t)
	ctx, log := newBrowser(t)
	viewport(t, ctx, 1400, 1000)
	prefersDark(t, ctx, true)
	boot(t, ctx, srv.URL+"/?workers=20&jobs=3&seed=7")
	// The dark canvas's ground and lanes (darkTheme: colBG, colPanel,
	// colLaneAlt); the light one's (normalTheme and presentTheme).
	darkGrounds := []string{"#151922", "#1a1f29", "#202633"}
	lightGrounds := []string{"#ffffff", "#fafaf7", "#f3f3ee", "#f4f4f0"}
	if got := lookIs(t, ctx, "a fresh page", "dark", true, darkGrounds...); got.Scheme != "dark" {
		t.Errorf("a fresh page: color-scheme %q, want dark (the browser's own controls and scroll bars dark too)", got.Scheme)
	}
	audit(t, ctx, axe, "dark: fresh page")
	press(t, ctx, "1")
	st := runToEnd(t, ctx, 60*time.Second)
	if st.Stats["successes"] == 0 {
		t.Fatalf("the run had no success: %+v", st)
	}
	lookIs(t, ctx, "after a run", "dark", true, darkGrounds...)
	viewShot(t, ctx, "dark-after-run")
	eval[chromedp.Void](t, ctx, `document.getElementById("timeline").scrollIntoView({block: "end"})`)
	eval[chromedp.Void](t, ctx, afterFrames)
	viewShot(t, ctx, "dark-histogram")
	eval[chromedp.Void](t, ctx, `scrollTo(0, 0)`)
	audit(t, ctx, axe, "dark: after a run")
	press(t, ctx, "c")
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	audit(t, ctx, axe, "dark: compared with a simulated run")
	typeInto(t, ctx, "workers", "abc")
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `((document.getElementById("err-workers") || {}).textContent || "").includes("abc")`)
	}); err != nil {
		t.Fatal("the invalid input's message did not show")
	}
	audit(t, ctx, axe, "dark: invalid input")
	viewShot(t, ctx, "dark-invalid-input")
	typeInto(t, ctx, "workers", "20")
	press(t, ctx, "?")
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `(() => { const h = document.getElementById("help"); return !!h && h.offsetParent !== null; })()`)
	}); err != nil {
		t.Fatal("the shortcuts dialog did not open")
	}
	time.Sleep(300 * time.Millisecond)
	audit(t, ctx, axe, "dark: shortcuts dialog")
	viewShot(t, ctx, "dark-shortcuts")
	press(t, ctx, kb.Escape)

	// The system's scheme changes while the page is open.
	prefersDark(t, ctx, false)
	lookIs(t, ctx, "the system turned light", "normal", false, lightGrounds...)
	prefersDark(t, ctx, true)
	lookIs(t, ctx, "the system turned dark again", "dark", true, darkGrounds...)

	// Presentation mode, on and off, with the system dark.
	presentMode(t, ctx, true)
	if got := lookIs(t, ctx, "presentation mode", "present", false, lightGrounds...); got.Scheme == "dark" {
		t.Errorf("presentation mode: color-scheme %q, want light", got.Scheme)
	}
	audit(t, ctx, axe, "dark system: presentation mode")
	// Its ticked boxes are its accent, black (the light page's, navy, came
	// through a variable set once on the page's root).
	if got := eval[string](t, ctx, `getComputedStyle(document.getElementById("f-bucket")).accentColor`); got != "rgb(0, 0, 0)" {
		t.Errorf("presentation mode: a box's accent-color is %s, want rgb(0, 0, 0)", got)
	}
	presentMode(t, ctx, false)
	lookIs(t, ctx, "presentation mode off", "dark", true, darkGrounds...)

	// A room's QR code, enlarged: the code keeps its white ground, the
	// screen around it is the page's dark (it was a white sheet).
	lan := startServer(t, "-host", "0.0.0.0")
	boot(t, ctx, lan.URL+"/?room=e2e-dark-qr-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	press(t, ctx, "w")
	if ok, body := joinable(t, lan); !ok {
		t.Logf("this machine has no network address (GET /join: %s): the join panel has no QR code to enlarge", body) // TestAudienceJoinsRoom says why
	} else if err := waitFor(5*time.Second, func() bool { return eval[bool](t, ctx, `!!document.getElementById("join-zoom")`) }); err != nil {
		t.Error("the join panel shows no QR code, where the server gives a join address")
	} else {
		click(t, ctx, "join-zoom")
		if err := waitFor(2*time.Second, func() bool { return eval[bool](t, ctx, `!!document.querySelector(".join-big")`) }); err != nil {
			t.Fatal("the QR code did not enlarge")
		}
		eval[chromedp.Void](t, ctx, afterFrames)
		// (The code's white ground and quiet zone are the SVG's own.)
		if g := eval[string](t, ctx, `getComputedStyle(document.querySelector(".join-big")).backgroundColor`); g != "rgb(15, 18, 24)" {
			t.Errorf("the enlarged QR code: the screen's ground is %s, want the page's dark, rgb(15, 18, 24)", g)
		}
		audit(t, ctx, axe, "dark: the enlarged QR code")
		viewShot(t, ctx, "dark-qr")
		press(t, ctx, kb.Escape)
		press(t, ctx, "s")
	}
	prefersDark(t, ctx, false)
	if ex := log.exceptions(); len(ex) > 0 {
		t.Errorf("page exceptions: %q", ex)
	}
}
