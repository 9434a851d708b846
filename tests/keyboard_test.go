//go:build e2e

package tests

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// focused is the id of the element with the keyboard focus ("BODY" when
// the focus is nowhere), and whether the page shows it (:focus-visible).
func focused(t testing.TB, ctx context.Context) (id string, visible bool) {
	t.Helper()
	f := eval[struct {
		ID      string
		Visible bool
	}](t, ctx, `(() => { const e = document.activeElement;
		return !e || e === document.body ? {ID: "BODY", Visible: false} : {ID: e.id || e.tagName, Visible: e.matches(":focus-visible")}; })()`)
	return f.ID, f.Visible
}

// focusedID is focused's id alone.
func focusedID(t testing.TB, ctx context.Context) string {
	t.Helper()
	id, _ := focused(t, ctx)
	return id
}

// keyOnFocus sends key (with opts: modifiers) to whatever has the focus
// (press blurs it first).
func keyOnFocus(t testing.TB, ctx context.Context, key string, opts ...chromedp.KeyOption) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key, opts...)); err != nil {
		t.Fatalf("key %q: %v", key, err)
	}
}

// tabTo presses Tab, as a keyboard user does, until the element #id has
// the focus.
func tabTo(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	for range 100 {
		if got, _ := focused(t, ctx); got == id {
			return
		}
		keyOnFocus(t, ctx, kb.Tab)
	}
	got, _ := focused(t, ctx)
	t.Fatalf("100 presses of Tab never reached #%s (the focus is on %s)", id, got)
}

// TestFocusIsNeverLost: a keyboard user who presses a button that is then
// disabled or removed by what it does keeps a visible focus, on the
// control that comes next: Run hands it to Stop, Stop (and the run's end)
// back to Run, Simulate gets it back once the simulation is done, zooming
// out all the way hands it to Zoom in, dismissing the notice to the first
// step of the story. Chromium left it on the page's body: no outline, and
// a screen reader said nothing.
func TestFocusIsNeverLost(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	// rate=abc: the link's notice, with its Dismiss button.
	// The first run is long enough to be stopped.
	boot(t, ctx, srv.URL+"/?workers=3&jobs=100&latency=150ms&rate=abc&burst=100")
	idle := func() bool { return !state(t, ctx).Running }
	steps := []struct {
		name   string
		before func()
		from   string // Tab to it, then press Enter
		until  func() bool
		want   string // where the focus is then
	}{
		{"dismiss the link's notice", nil, "url-notice-dismiss", nil, "preset-flood"},
		{"Run", nil, "run", func() bool { return state(t, ctx).Running }, "stop"},
		{"Stop", nil, "stop", idle, "run"},
		{"Run to its end", func() { typeInto(t, ctx, "jobs", "1") }, "run", func() bool { return state(t, ctx).Runs == 2 && idle() }, "run"},
		{"Simulate", nil, "simulate", func() bool { s := state(t, ctx); return s.Simulated && idle() }, "simulate"},
		{"zoom in", nil, "zoom-in", nil, "zoom-in"},
		{"the whole run again", nil, "zoom-reset", nil, "zoom-in"},
		{"zoom in again", nil, "zoom-in", nil, "zoom-in"},
		{"zoom out all the way", nil, "zoom-out", nil, "zoom-in"},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
			if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("present"))); err != nil { // back to the top
				t.Fatal(err)
			}
		}
		tabTo(t, ctx, s.from)
		keyOnFocus(t, ctx, kb.Enter)
		if s.until != nil {
			if err := waitFor(30*time.Second, s.until); err != nil {
				t.Fatalf("%s: the page did not get there: %v (state %+v)", s.name, err, state(t, ctx))
			}
		}
		var id string
		var visible bool
		_ = waitFor(2*time.Second, func() bool { id, visible = focused(t, ctx); return id == s.want && visible })
		if id != s.want || !visible {
			t.Errorf("%s (Enter on #%s): the focus is on %s (shown: %v), want #%s, shown", s.name, s.from, id, visible, s.want)
		}
	}
}

// TestTimelineTabbedToClearOfTheLegend: tabbed back to from the zoom bar
// under it, the timeline comes into view below the legend stuck to the
// screen's top, not with its top lanes (where the arrow keys walk the
// attempts) under it. Chromium centres what it scrolls to for the focus:
// in presentation mode on an 800 × 600 screen, with 12 workers, the
// legend's four rows hid the canvas's first 52 px.
func TestTimelineTabbedToClearOfTheLegend(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 800, 600)
	boot(t, ctx, srv.URL+"/?workers=12&jobs=1&rate=50&burst=50&latency=20ms")
	runToEnd(t, ctx, 30*time.Second)
	presentMode(t, ctx, true)
	time.Sleep(300 * time.Millisecond) // laid out again for the new size
	// The zoom bar at the screen's top, the timeline above it, out of view.
	eval[chromedp.Void](t, ctx, `(() => { const z = document.getElementById("zoom-in"); z.focus(); scrollTo(0, z.getBoundingClientRect().top + scrollY - 5); })()`)
	keyOnFocus(t, ctx, kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))
	time.Sleep(200 * time.Millisecond)
	type box struct {
		Focused        string
		Legend, Canvas float64 // the legend's bottom, the canvas's top
	}
	b := eval[box](t, ctx, `({Focused: document.activeElement.id,
		Legend: document.getElementById("legend").getBoundingClientRect().bottom,
		Canvas: document.getElementById("timeline").getBoundingClientRect().top})`)
	if b.Focused != "timeline" {
		t.Fatalf("Shift+Tab from Zoom in reached #%s, want the timeline", b.Focused)
	}
	if b.Canvas < b.Legend {
		t.Errorf("the timeline came into view with its top %.0f px under the legend (its top at %.0f px, the legend's bottom at %.0f px)", b.Legend-b.Canvas, b.Canvas, b.Legend)
	}
}

// TestShortcutsSayWhyNot: a shortcut that cannot act yet says why, in the
// toast, instead of doing nothing: on a fresh page, before any run, the
// zoom keys, a and d, the fault switches, Replay, Compare, Watch without
// a room, and u with no configuration of the user's own to go back to;
// after a simulation, a and d until the run is zoomed in.
func TestShortcutsSayWhyNot(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	says := func(key, want string) { t.Helper(); saysWhyNot(t, ctx, key, want) }
	for _, c := range []struct{ key, want string }{
		// Each says something else than the key before it: the same words
		// twice would not show that the second key was answered.
		{"+", "Zoom: finish a run or a simulation first"},
		{"o", "Outage: only during a live run"},
		{"-", "Zoom: finish a run or a simulation first"},
		{"h", "Halve limit: only during a live run"},
		{"0", "Zoom: finish a run or a simulation first"},
		{"b", "Burst: only during a live run"},
		{"a", "Zoom: finish a run or a simulation first"},
		{"y", "Replay: finish a run or a simulation first"},
		{"c", "Compare: finish a run or a simulation first"},
		{"w", "Watch room: set a Shared room first"},
		{"u", "u: nothing to go back to"},
	} {
		says(c.key, c.want)
	}
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	says("w", "Watch room: set a Shared room first")
	says("d", "a and d move along a zoomed-in run: zoom in first (+)")
	// + now zooms in: the zoom's line says which part is shown. (Its toast
	// read at once was still d's, and passed whatever + did: a review.)
	press(t, ctx, "+")
	zoomed := ""
	if err := waitFor(3*time.Second, func() bool {
		zoomed = eval[string](t, ctx, `document.getElementById("zoom-window").textContent`)
		return strings.HasPrefix(zoomed, "Showing ") && zoomed != "Showing the whole run"
	}); err != nil {
		t.Errorf("+ after a simulation did not zoom in: %q, toast %q", zoomed, toastText(t, ctx))
	}
}

// saysWhyNot presses key as a shortcut and fails the test unless the
// toast comes to say want within 3 s.
func saysWhyNot(t *testing.T, ctx context.Context, key, want string) {
	t.Helper()
	press(t, ctx, key)
	var toast string
	if err := waitFor(3*time.Second, func() bool {
		toast = toastText(t, ctx)
		return strings.Contains(toast, want)
	}); err != nil {
		t.Errorf("%s: the toast says %q, want it to say %q", key, toast, want)
	}
}

// TestShortcutsWorkOnASwitch: a person who has just ticked the fleet
// bucket's switch presses m and the page simulates (the switch takes no
// letters; the shortcuts were silent there). In a text field or a select
// the same key is the field's: it simulates nothing.
func TestShortcutsWorkOnASwitch(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	keyOn := func(id, key string) {
		t.Helper()
		untilUnlocked(t, ctx, id)
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(key)); err != nil {
			t.Fatalf("%s on #%s: %v", key, id, err)
		}
	}
	keyOn("f-bucket", "m")
	simulatedToEnd(t, ctx)
	// The room's text field (where m is a valid name) and a select.
	for _, id := range []string{"f-room", "f-strategy"} {
		keyOn(id, "m")
		time.Sleep(500 * time.Millisecond) // a shortcut is answered within a frame or two
		if st := state(t, ctx); st.Runs != 1 || st.Running {
			t.Errorf("m typed into #%s simulated again: %+v", id, st)
		}
	}
}

// TestShortcutsSwitchedOff: a person who switches the single-key
// shortcuts off in the help (speech input, WCAG 2.1.4) presses m, then r,
// on the page and nothing starts; Escape still closes the help; a reload
// keeps them off, and the switch says so. Switched on again, m simulates.
func TestShortcutsSwitchedOff(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	switchTo := func(on bool) {
		t.Helper()
		press(t, ctx, "?")
		if err := waitFor(2*time.Second, func() bool { return eval[bool](t, ctx, `!!document.getElementById("shortcuts-on")`) }); err != nil {
			t.Fatal("? did not open the help with its shortcuts switch")
		}
		if eval[bool](t, ctx, `document.getElementById("shortcuts-on").checked`) != on {
			click(t, ctx, "shortcuts-on")
		}
		press(t, ctx, kb.Escape)
		if err := waitFor(2*time.Second, func() bool { return eval[bool](t, ctx, `!document.getElementById("help")`) }); err != nil {
			t.Fatal("Escape did not close the help with the shortcuts off")
		}
	}
	switchTo(false)
	for _, k := range []string{"m", "r", "?"} {
		press(t, ctx, k)
		time.Sleep(500 * time.Millisecond) // a shortcut is answered within a frame or two
		if st := state(t, ctx); st.Runs != 0 || st.Running || eval[bool](t, ctx, `!!document.getElementById("help")`) {
			t.Errorf("shortcuts off: %s did something: %+v", k, st)
		}
	}
	boot(t, ctx, srv.URL+"/")
	press(t, ctx, "m")
	time.Sleep(500 * time.Millisecond)
	if st := state(t, ctx); st.Runs != 0 {
		t.Errorf("shortcuts off, then a reload: m simulated: %+v", st)
	}
	click(t, ctx, "help-open")
	if err := waitFor(2*time.Second, func() bool {
		return eval[bool](t, ctx, `(e => !!e && !e.checked)(document.getElementById("shortcuts-on"))`)
	}); err != nil {
		t.Error("after a reload the help's switch does not say the shortcuts are off")
	}
	click(t, ctx, "shortcuts-on")
	press(t, ctx, kb.Escape)
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
}

// TestShortcutsSayWhyNotDuringARun: during a live run a step's key (1–7),
// u and the zoom keys can do nothing (the settings are locked, the run
// not over); they did nothing and said nothing, or said to finish a run
// (found by a review). Each says to wait for the run's end, or stop it.
func TestShortcutsSayWhyNotDuringARun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	// Requests in flight 30 s, the mock's most: the run outlasts the three
	// keys' toasts on a slow machine too, and s ends it.
	boot(t, ctx, srv.URL+"/?workers=2&jobs=1&attempts=1&timeout=0s&latency=30s")
	click(t, ctx, "run")
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Running }); err != nil {
		t.Fatal("the run did not start")
	}
	for _, c := range []struct{ key, want string }{
		{"3", "Steps: once this run is over (s stops it)"},
		{"+", "Zoom: once this run is over (s stops it)"},
		{"u", "u: once this run is over (s stops it)"},
		// r and m did nothing and said nothing (a review).
		{"r", "Run: once this run is over (s stops it)"},
		{"m", "Simulate: once this run is over (s stops it)"},
	} {
		saysWhyNot(t, ctx, c.key, c.want)
	}
	if st := state(t, ctx); st.Preset == "full-jitter" || !st.Running || st.Runs != 1 {
		t.Errorf("3, r and m during a run: %+v", st)
	}
	press(t, ctx, "s")
}

// TestTimelineKeyGoesBackToTheRunBar: t focuses the timeline, and t again
// on it goes back up to the run bar with the focus, so that Tab goes on
// from there. Pressed with nothing focused before (the shortcuts 1, m and
// t from the page), the second t left the focus on the body, and the
// next Tab went to the zoom bar under the timeline, scrolling the page
// back down (142 → 831 px at 1280 × 700; a review): the focus goes to the
// run bar's first enabled control, Run. The attempt the arrows selected is
// no longer selected: its tooltip stayed over the lanes the person left.
func TestTimelineKeyGoesBackToTheRunBar(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 700)
	boot(t, ctx, srv.URL+"/")
	press(t, ctx, "1")
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	tip := `(document.querySelector("#tooltip strong") || {}).textContent || ""`
	keyOnFocus(t, ctx, "t")
	if err := waitFor(5*time.Second, func() bool { id, _ := focused(t, ctx); return id == "timeline" }); err != nil {
		t.Fatal("t did not focus the timeline")
	}
	keyOnFocus(t, ctx, kb.ArrowRight)
	if err := waitFor(5*time.Second, func() bool { return eval[string](t, ctx, tip) != "" }); err != nil {
		t.Fatal("the arrow selected no attempt")
	}
	keyOnFocus(t, ctx, "t")
	var id string
	if err := waitFor(5*time.Second, func() bool { id, _ = focused(t, ctx); return id != "timeline" }); err != nil {
		t.Fatal("t again left the focus on the timeline")
	}
	eval[chromedp.Void](t, ctx, afterFrames)
	if id != "run" {
		t.Errorf("t again gave the focus to %q, want the run bar's Run", id)
	}
	if err := waitFor(2*time.Second, func() bool { return eval[string](t, ctx, tip) == "" }); err != nil {
		t.Errorf("t again left the timeline with the attempt %q selected, its tooltip over the lanes", eval[string](t, ctx, tip))
	}
	screenshot(t, ctx, "t-key-back")
	y := eval[float64](t, ctx, `scrollY`)
	keyOnFocus(t, ctx, kb.Tab)
	eval[chromedp.Void](t, ctx, afterFrames)
	next := eval[struct {
		InRunBar bool
		ScrollY  float64
		ID       string
	}](t, ctx, `({InRunBar: !!document.activeElement.closest(".runbar"), ScrollY: scrollY, ID: document.activeElement.id})`)
	if !next.InRunBar || next.ScrollY > y+1 {
		t.Errorf("Tab after t again went to %q (in the run bar %v) and scrolled the page from %.0f to %.0f px", next.ID, next.InRunBar, y, next.ScrollY)
		screenshot(t, ctx, "t-key-back-tab")
	}
}
