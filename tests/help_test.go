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

// TestHelpKeepsItsPlace: on a short screen (1280 × 560, presentation mode:
// a projector's 720 px less a browser's bars; at 720 the dialog is taller
// than the screen by a few lines only) the shortcuts dialog is taller
// than the screen. Opened with ? while the
// presenter looks at the timeline, it shows its beginning (its title, which
// has the focus, and the first shortcuts), not its end where its Close
// button is; closed with Escape, the page is where it was, not scrolled
// back up to the header's ? button, and the focus is on what shows there
// (TestHelpGivesTheFocusBackInView), not on that button, off the screen.
func TestHelpKeepsItsPlace(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 560)
	boot(t, ctx, srv.URL+"/")
	presentMode(t, ctx, true)
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView("#timeline")); err != nil {
		t.Fatal(err)
	}
	scrolled := eval[float64](t, ctx, `scrollY`)
	if scrolled == 0 {
		t.Fatal("the timeline is on the first screen: nothing to scroll to")
	}
	press(t, ctx, "?")
	if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-title" }); err != nil {
		t.Fatalf("the focus is on %q, want the dialog's title", focusedID(t, ctx))
	}
	type look struct{ Title, ScrollTop, ClientHeight, ScrollHeight float64 }
	l := eval[look](t, ctx, `(() => { const h = document.getElementById("help");
		return {Title: document.getElementById("help-title").getBoundingClientRect().top - h.getBoundingClientRect().top,
			ScrollTop: h.scrollTop, ClientHeight: h.clientHeight, ScrollHeight: h.scrollHeight}; })()`)
	if l.ScrollHeight <= l.ClientHeight {
		t.Fatalf("the dialog fits the screen (%+v): nothing to check", l)
	}
	if l.ScrollTop != 0 || l.Title < 0 {
		t.Errorf("the dialog opened scrolled %.0f px down, its title %.0f px from its top: want its beginning shown", l.ScrollTop, l.Title)
	}
	press(t, ctx, kb.Escape)
	if err := waitFor(2*time.Second, func() bool {
		id, seen := focused(t, ctx)
		return id != "BODY" && id != "help-title" && seen
	}); err != nil {
		id, _ := focused(t, ctx)
		t.Fatalf("after Escape the focus is on %q, want a control in view", id)
	}
	time.Sleep(100 * time.Millisecond)
	if now := eval[float64](t, ctx, `scrollY`); math.Abs(now-scrolled) > 1 {
		t.Errorf("closing the dialog scrolled the page from %.0f px to %.0f px", scrolled, now)
	}
}

// TestHelpHoldsTheFocus: the shortcuts dialog is modal for the keyboard
// too. Opened with ? from the timeline, the focus goes to its title (the
// top, where a screen reader reads on from); Tab and Shift+Tab go round
// inside it (Tab from its Close button left the page: the page behind is
// inert, so Chromium took the focus out to its own window); Escape
// closes it and gives the focus back to the timeline.
func TestHelpHoldsTheFocus(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	where := func() string {
		return eval[string](t, ctx, `(() => { const e = document.activeElement, h = document.getElementById("help");
			return !e || e === document.body ? "BODY" : (h && h.contains(e) ? "in:" : "out:") + (e.id || e.tagName); })()`)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline")), chromedp.KeyEvent("?")); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(2*time.Second, func() bool { return where() == "in:help-title" }); err != nil {
		t.Fatalf("? opened the dialog with the focus on %s, want its title", where())
	}
	// Its two controls, the shortcuts' switch and Close, in turn.
	for _, c := range []struct {
		shift bool
		want  []string
	}{
		{false, []string{"in:shortcuts-on", "in:help-close", "in:shortcuts-on"}},
		{true, []string{"in:help-close", "in:shortcuts-on", "in:help-close"}},
	} {
		for i, want := range c.want {
			opt := []chromedp.KeyOption{}
			if c.shift {
				opt = append(opt, chromedp.KeyModifiers(chromedp.ModifierShift))
			}
			keyOnFocus(t, ctx, kb.Tab, opt...)
			if got := where(); got != want {
				t.Errorf("Tab (shift %v) %d: the focus is on %s, want %s", c.shift, i+1, got, want)
			}
		}
	}
	keyOnFocus(t, ctx, kb.Escape)
	if err := waitFor(2*time.Second, func() bool { return where() == "out:timeline" }); err != nil {
		t.Errorf("after Escape the focus is on %s, want the timeline, which had it before", where())
	}
	if open := eval[bool](t, ctx, `!!document.getElementById("help")`); open {
		t.Error("Escape did not close the dialog")
	}
}

// TestHelpOverTheEnlargedQRCode: ? while the room's QR code fills the
// screen opened the shortcuts dialog under it (the code's overlay is
// z-index 50, the dialog's 20): the focus went into a dialog nobody could
// see. The dialog opens on top, the code's overlay behind it inert;
// Escape closes the dialog and gives the focus back to the code, and the
// next Escape puts the code back.
func TestHelpOverTheEnlargedQRCode(t *testing.T) {
	srv := startServer(t, "-host", "0.0.0.0")
	if ok, body := joinable(t, srv); !ok {
		t.Skipf("this machine has no network address (GET /join: %s): the join panel has no QR code", body) // TestAudienceJoinsRoom says why
	}
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?room=e2e-help-qr-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	press(t, ctx, "w")
	if err := waitFor(5*time.Second, func() bool { return eval[bool](t, ctx, `!!document.getElementById("join-zoom")`) }); err != nil {
		t.Fatal("the join panel shows no QR code, where the server gives a join address")
	}
	click(t, ctx, "join-zoom")
	if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "join-unzoom" }); err != nil {
		t.Fatalf("the QR code did not enlarge (focus on %q)", focusedID(t, ctx))
	}
	press(t, ctx, "?")
	if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-title" }); err != nil {
		t.Fatalf("? did not open the dialog (focus on %q)", focusedID(t, ctx))
	}
	type look struct {
		OnTop     string // what is drawn at the dialog's centre
		CodeInert bool
	}
	var l look
	if err := waitFor(2*time.Second, func() bool {
		l = eval[look](t, ctx, `(() => { const r = document.getElementById("help").getBoundingClientRect();
			const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return {OnTop: e && e.closest("#help") ? "help" : (e && (e.id || e.className)) || "",
				CodeInert: document.getElementById("join-big").inert}; })()`)
		return l.OnTop == "help" && l.CodeInert
	}); err != nil {
		t.Errorf("with the QR code enlarged, ? shows %q at the dialog's centre and the code's overlay is inert %v: want the dialog on top, the code behind it inert",
			l.OnTop, l.CodeInert)
	}
	t.Logf("screenshot %s", screenshot(t, ctx, "help-over-qr"))
	press(t, ctx, kb.Escape)
	if err := waitFor(2*time.Second, func() bool {
		return focusedID(t, ctx) == "join-unzoom" && !eval[bool](t, ctx, `!!document.getElementById("help") || document.getElementById("join-big").inert`)
	}); err != nil {
		t.Errorf("after Escape the focus is on %q, want the enlarged code, the dialog closed", focusedID(t, ctx))
	}
	press(t, ctx, kb.Escape)
	if err := waitFor(2*time.Second, func() bool { return eval[bool](t, ctx, `!document.getElementById("join-big")`) }); err != nil {
		t.Error("the second Escape did not put the QR code back")
	}
}

// TestHelpFitsTheScreen: on a 1024 × 768 screen and a 1280 × 720 one (two
// common projectors), in presentation mode too, the shortcuts dialog shows
// all of itself without scrolling (it was 1219 px high, 1549 px in
// presentation mode, in a 728 px window: its shortcuts now in two columns,
// three on a wider screen, where two left Close below a 720 px screen),
// and says that Esc closes it (it did not).
func TestHelpFitsTheScreen(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	for _, c := range []struct {
		w, h    int64
		present bool
	}{{1024, 768, false}, {1024, 768, true}, {1280, 720, false}, {1280, 720, true}} {
		viewport(t, ctx, c.w, c.h)
		boot(t, ctx, srv.URL+"/")
		present := c.present
		presentMode(t, ctx, present)
		press(t, ctx, "?")
		type look struct {
			ClientHeight, ScrollHeight, Top, Bottom, Screen float64
			Text                                            string
		}
		var l look
		if err := waitFor(2*time.Second, func() bool {
			l = eval[look](t, ctx, `(() => { const h = document.getElementById("help"); if (!h) return {};
				const r = h.getBoundingClientRect();
				return {ClientHeight: h.clientHeight, ScrollHeight: h.scrollHeight, Top: r.top, Bottom: r.bottom, Screen: innerHeight, Text: h.innerText}; })()`)
			return l.ClientHeight > 0
		}); err != nil {
			t.Fatalf("presentation mode %v: ? did not open the dialog", present)
		}
		if l.ScrollHeight > l.ClientHeight || l.Top < 0 || l.Bottom > l.Screen {
			t.Errorf("%d × %d, presentation mode %v: the dialog is %.0f px high in a %.0f px box, from %.0f to %.0f px on a %.0f px screen: want all of it shown, no scrolling",
				c.w, c.h, present, l.ScrollHeight, l.ClientHeight, l.Top, l.Bottom, l.Screen)
		}
		// On a projector nothing in it is under 14 px (the key names were 13.6).
		if small := eval[float64](t, ctx, `Math.min(...[...document.querySelectorAll("#help p, #help dt, #help dd, #help kbd")].map(e => parseFloat(getComputedStyle(e).fontSize)))`); present && small < 14 {
			t.Errorf("%d × %d, presentation mode: the dialog's smallest type is %.1f px, want at least 14", c.w, c.h, small)
		}
		if !strings.Contains(l.Text, "Esc closes it") {
			t.Errorf("presentation mode %v: the dialog does not say that Esc closes it", present)
		}
		t.Logf("screenshot %s", screenshot(t, ctx, fmt.Sprintf("help-fits-%d-present-%v", c.w, present)))
		press(t, ctx, kb.Escape)
		if err := waitFor(2*time.Second, func() bool { return eval[bool](t, ctx, `!document.getElementById("help")`) }); err != nil {
			t.Fatal("Escape did not close the dialog")
		}
	}
}

// TestHelpGivesTheFocusBackInView: the shortcuts dialog opened with ? from
// the page (nothing focused), then closed with Escape, gave the focus to
// the header's ? button, off the screen once the page was scrolled (at
// 360 × 800 scrolled 1500 px it was 1490 px above it): a keyboard user saw
// no focus, and Tab went on from the page's top. Where the ? button shows
// it still takes the focus back; where it does not, the first control in
// view does, and the page stays where it was, on a phone's width, a
// desktop's and a projector's.
func TestHelpGivesTheFocusBackInView(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type focus struct {
		ID, Tag              string
		Top, Bottom, ScrollY float64
		Inner                float64
		Ring                 bool // :focus-visible: its outline shows
	}
	for _, c := range []struct {
		w, h    int64
		present bool
		scroll  float64 // where the page is scrolled to; -1: the timeline's top
	}{{360, 800, false, 0}, {360, 800, false, 1500}, {1280, 800, false, 600}, {1280, 800, true, -1}, {1280, 800, true, 1200}} {
		viewport(t, ctx, c.w, c.h)
		boot(t, ctx, srv.URL+"/")
		presentMode(t, ctx, c.present)
		to := strconv.FormatFloat(c.scroll, 'f', 0, 64)
		if c.scroll < 0 {
			to = `document.getElementById("timeline").getBoundingClientRect().top + scrollY`
		}
		y := eval[float64](t, ctx, `(() => { scrollTo(0, `+to+`); return scrollY; })()`)
		name := fmt.Sprintf("%d × %d, presentation mode %v, scrolled %.0f px", c.w, c.h, c.present, y)
		press(t, ctx, "?")
		if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-title" }); err != nil {
			t.Fatalf("%s: ? left the focus on %q, want the dialog's title", name, focusedID(t, ctx))
		}
		keyOnFocus(t, ctx, kb.Escape)
		var f focus
		read := func() focus {
			return eval[focus](t, ctx, `(() => { const e = document.activeElement, r = e.getBoundingClientRect();
				return {ID: e.id, Tag: e.tagName, Top: r.top, Bottom: r.bottom, ScrollY: scrollY, Inner: innerHeight, Ring: e.matches(":focus-visible")}; })()`)
		}
		if err := waitFor(2*time.Second, func() bool {
			f = read()
			return f.Tag != "BODY" && !eval[bool](t, ctx, `!!document.getElementById("help")`)
		}); err != nil {
			t.Fatalf("%s: after Escape the focus is on %+v, the dialog open %v", name, f, eval[bool](t, ctx, `!!document.getElementById("help")`))
		}
		time.Sleep(200 * time.Millisecond) // a focus handler that would scroll has run
		f = read()
		if f.Bottom <= 0 || f.Top >= f.Inner || !f.Ring || f.ScrollY != y {
			t.Errorf("%s: after Escape the focus is on #%s (%s) at %.0f–%.0f px of a %.0f px screen, its ring shown %v, the page scrolled to %.0f px: want it in view with its ring, the page where it was",
				name, f.ID, f.Tag, f.Top, f.Bottom, f.Inner, f.Ring, f.ScrollY)
		}
		if y == 0 && f.ID != "help-open" {
			t.Errorf("%s: after Escape the focus is on #%s, want the ? button, in view", name, f.ID)
		}
		t.Logf("%s: the focus went back to #%s (%s), %.0f px from the top", name, f.ID, f.Tag, f.Top)
		if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil { // the screen, not the page
			saveShot(t, fmt.Sprintf("help-back-%dx%d-%v-%.0f", c.w, c.h, c.present, y), png)
		}
	}
}
