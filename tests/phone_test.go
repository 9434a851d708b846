//go:build e2e

package tests

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPhoneFindsRunOnItsFirstScreen: an audience device joins a room from
// the projector's QR code on a phone (390 × 844 CSS pixels, touch). Run is
// on its first screen, above the settings, nothing overflows sideways, a
// tap on Run runs the fleet, and the timeline fits the screen's width.
func TestPhoneFindsRunOnItsFirstScreen(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	room := fmt.Sprintf("e2e-phone-%d", time.Now().UnixNano())
	boot(t, ctx, srv.URL+"/?room="+room+"&workers=6&jobs=2&latency=50ms&rate=5&burst=5&strategy=full")

	type box struct{ Top, Bottom, Left, Right float64 }
	type layout struct {
		Run, Sidebar, Stage, Timeline box
		Width, Height, ScrollWidth    float64
	}
	read := func() layout {
		return eval[layout](t, ctx, `(() => {
			const b = sel => { const r = document.querySelector(sel).getBoundingClientRect(); return {Top: r.top + scrollY, Bottom: r.bottom + scrollY, Left: r.left, Right: r.right}; };
			return {Run: b("#run"), Sidebar: b(".sidebar"), Stage: b(".stage"), Timeline: b("#timeline"),
				Width: innerWidth, Height: innerHeight, ScrollWidth: document.documentElement.scrollWidth};
		})()`)
	}
	// Smaller phones too: at 320 × 568 the header (its tagline seven
	// lines high beside the buttons) and the story's steps filled the
	// first screen, and Run was at 640 px.
	for _, size := range [][2]int64{{320, 568}, {360, 640}, {375, 667}} {
		viewport(t, ctx, size[0], size[1], chromedp.EmulateScale(2), chromedp.EmulateMobile)
		boot(t, ctx, srv.URL+"/?room="+room)
		if l := read(); l.Run.Top < 0 || l.Run.Bottom > l.Height || l.ScrollWidth > l.Width {
			t.Errorf("%v: Run spans %.0f–%.0f px of a %.0f px high screen, the page %.0f px wide: want Run on the first screen, nothing sideways", size, l.Run.Top, l.Run.Bottom, l.Height, l.ScrollWidth)
		}
		screenshot(t, ctx, fmt.Sprintf("phone-%dx%d", size[0], size[1]))
	}
	viewport(t, ctx, 390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	boot(t, ctx, srv.URL+"/?room="+room+"&workers=6&jobs=2&latency=50ms&rate=5&burst=5&strategy=full")
	l := read()
	if l.Width != 390 {
		t.Fatalf("viewport %v CSS pixels wide, want the phone's 390", l.Width)
	}
	if l.Run.Top < 0 || l.Run.Bottom > l.Height {
		t.Errorf("Run spans %.0f–%.0f px: not on the first screen (%.0f px high)", l.Run.Top, l.Run.Bottom, l.Height)
	}
	if l.Stage.Bottom > l.Sidebar.Top {
		t.Errorf("the run (ends at %.0f px) should come before the settings (start at %.0f px) on a phone", l.Stage.Bottom, l.Sidebar.Top)
	}
	if l.ScrollWidth > l.Width {
		t.Errorf("the page is %.0f px wide on a %.0f px screen: it scrolls sideways", l.ScrollWidth, l.Width)
	}
	// A narrow window with a keyboard (a laptop's split screen) tabs in
	// the order it shows.
	if got := tabReachesFirst(t, ctx); got != "stage" {
		t.Errorf("on a narrow screen Tab reaches the %s first; want the run, drawn first", got)
	}

	if err := chromedp.Do(ctx, chromedp.Tap(chromedp.ID("run"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	var st pageState
	if err := waitFor(30*time.Second, func() bool { st = state(t, ctx); return st.Runs == 1 && !st.Running }); err != nil {
		t.Fatalf("the tapped run did not finish: %v (%+v)", err, st)
	}
	if st.Stats["successes"] != 12 {
		t.Errorf("%v jobs succeeded, want 6 workers × 2 jobs", st.Stats["successes"])
	}
	l = read()
	if l.Timeline.Left < 0 || l.Timeline.Right > l.Width {
		t.Errorf("the timeline spans %.0f–%.0f px on a %.0f px screen", l.Timeline.Left, l.Timeline.Right, l.Width)
	}
	if l.ScrollWidth > l.Width {
		t.Errorf("after the run the page is %.0f px wide on a %.0f px screen", l.ScrollWidth, l.Width)
	}
	screenshot(t, ctx, "phone-run")

	// The smallest phones (320 CSS px: the timeline gets ~278) draw it at
	// its own width, not drawn wider and squeezed into it. (It is redrawn
	// once in sight: off screen it waits.)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(320, 568, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.ScrollIntoView("#timeline")); err != nil {
		t.Fatal(err)
	}
	type canvasSize struct{ Bitmap, CSS, Ratio float64 }
	var cs canvasSize
	if err := waitFor(5*time.Second, func() bool {
		cs = eval[canvasSize](t, ctx, `(() => { const c = document.getElementById("timeline"); return {Bitmap: c.width, CSS: c.clientWidth, Ratio: devicePixelRatio}; })()`)
		return cs.CSS < 300 && cs.Bitmap == cs.CSS*cs.Ratio
	}); err != nil {
		t.Errorf("on a 320 px phone the timeline's bitmap is %v px for %v CSS px at ratio %v: drawn at another width and squeezed", cs.Bitmap, cs.CSS, cs.Ratio)
	}
}

// TestTimelinePausesOffScreen: scrolled down to the settings during a live
// run, the timeline is not redrawn while the run goes on (the thread is
// the workers'); scrolled back, it catches up with every attempt.
func TestTimelinePausesOffScreen(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	boot(t, ctx, srv.URL+"/?workers=6&jobs=300&latency=50ms&limiter=none") // ~15 s: stopped below
	draws := func() float64 { return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).draws`) }
	showTimeline := `document.getElementById("timeline").scrollIntoView({block: "start"})`
	eval[chromedp.Void](t, ctx, showTimeline)
	start := draws()
	eval[chromedp.Void](t, ctx, `document.getElementById("run").click()`) // a tap would scroll the timeline away
	if err := waitFor(10*time.Second, func() bool { return draws() >= start+3 }); err != nil {
		t.Fatalf("in sight during the run, the timeline was redrawn %v times: %v", draws()-start, err)
	}
	eval[chromedp.Void](t, ctx, `window.scrollTo(0, document.documentElement.scrollHeight)`)
	if off := eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().bottom`); off > 0 {
		t.Fatalf("the timeline still shows (bottom at %.0f px) after scrolling to the settings' end", off)
	}
	// Once the observer has told the view, the count holds still.
	var paused float64
	if err := waitFor(5*time.Second, func() bool {
		before := draws()
		time.Sleep(300 * time.Millisecond)
		paused = draws()
		return paused == before
	}); err != nil {
		t.Fatalf("out of sight, the timeline kept being redrawn: %v", err)
	}
	records := state(t, ctx).Records
	time.Sleep(time.Second)
	if st := state(t, ctx); !st.Running || st.Records <= records {
		t.Fatalf("the run did not go on while scrolled away: %+v", st)
	}
	if now := draws(); now != paused {
		t.Errorf("the timeline was redrawn %v times in a second out of sight", now-paused)
	}
	eval[chromedp.Void](t, ctx, showTimeline)
	if err := waitFor(10*time.Second, func() bool { return draws() > paused }); err != nil {
		t.Errorf("back in sight the timeline was not redrawn: %v", err)
	}
	press(t, ctx, "s")
	var st pageState
	if err := waitFor(30*time.Second, func() bool { st = state(t, ctx); return st.Runs == 1 && !st.Running }); err != nil {
		t.Fatalf("the run did not stop: %v", err)
	}
	marks := eval[map[string]float64](t, ctx, `JSON.parse(window.retrylab.redraw())`)["marks"]
	if marks < st.Stats["requests"] {
		t.Errorf("the timeline shows %v marks for %v requests", marks, st.Stats["requests"])
	}
}

// TestPhoneLegendLeavesTheTimeline: on a phone (390 × 844, 320 × 568) the
// legend sits right above the timeline and scrolls away with the page:
// sticky, it took 147 and 186 px of the screen's top (a third of a 320 ×
// 568 one), over the timeline. On a desktop it stays in view (sticky) as
// the timeline scrolls.
func TestPhoneLegendLeavesTheTimeline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type boxes struct{ LegendTop, LegendBottom, TimelineTop float64 }
	read := func() boxes {
		return eval[boxes](t, ctx, `(() => {
			document.getElementById("timeline").scrollIntoView({block: "start"});
			const g = document.getElementById("legend").getBoundingClientRect(), c = document.getElementById("timeline").getBoundingClientRect();
			return {LegendTop: g.top, LegendBottom: g.bottom, TimelineTop: c.top};
		})()`)
	}
	for _, size := range [][2]int64{{390, 844}, {320, 568}} {
		viewport(t, ctx, size[0], size[1], chromedp.EmulateScale(2), chromedp.EmulateMobile)
		boot(t, ctx, srv.URL+"/")
		above := eval[boxes](t, ctx, `(() => { const g = document.getElementById("legend").getBoundingClientRect(), c = document.getElementById("timeline").getBoundingClientRect(); return {LegendTop: g.top, LegendBottom: g.bottom, TimelineTop: c.top}; })()`)
		if gap := above.TimelineTop - above.LegendBottom; gap < 0 || gap > 40 {
			t.Errorf("%v: the legend ends %.0f px above the timeline, want right above it", size, gap)
		}
		if b := read(); b.LegendBottom > b.TimelineTop+1 {
			t.Errorf("%v: with the timeline at the screen's top the legend covers its first %.0f px", size, b.LegendBottom-b.TimelineTop)
		}
	}
	viewport(t, ctx, 1400, 900)
	boot(t, ctx, srv.URL+"/")
	if b := read(); b.LegendTop < -1 || b.LegendTop > 1 || b.LegendBottom <= 0 {
		t.Errorf("on a desktop the legend does not stay in view with the timeline scrolled up: %+v", b)
	}
}

// TestLongValuesStayInTheWindow: on a 320 px phone, a link holding long
// unbroken values that cannot be used, and a long number typed into a
// field, leave the page as wide as the window, in presentation mode too.
// The link's notice quoted "workers=abcdef…" on one line and made the page
// 608 px wide (719 px presenting); the notes under Workers and Base made
// it 551 px wide presenting.
func TestLongValuesStayInTheWindow(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 320, 568)
	long := strings.Repeat("abcdefghij", 6)
	boot(t, ctx, srv.URL+"/?workers="+long+"&base="+strings.Repeat("9", 40)+"h")
	if !eval[bool](t, ctx, `document.getElementById("url-notice") !== null && document.getElementById("url-notice").textContent.includes("workers=`+long+`")`) {
		t.Fatal("no notice quoting the link's workers")
	}
	check := func(what string) {
		t.Helper()
		for _, present := range []bool{false, true} {
			presentMode(t, ctx, present)
			eval[chromedp.Void](t, ctx, afterFrames)
			if wide := eval[[]string](t, ctx, pageWiderJS); len(wide) > 0 {
				t.Errorf("%s, presentation mode %v: %q", what, present, wide)
			}
		}
		presentMode(t, ctx, false)
	}
	check("the link's values")
	typeInto(t, ctx, "jobs", strings.Repeat("1234567890", 6))
	if !eval[bool](t, ctx, `document.getElementById("f-jobs").closest(".field").classList.contains("invalid")`) {
		t.Fatal("the typed jobs are not marked invalid")
	}
	check("a long number typed into Jobs")
	screenshot(t, ctx, "phone-320-long-values")
}

// TestPhoneTapShowsTheTitles: a touch screen shows no title, and the page
// explains much of what it draws in titles (each number's card, each
// legend item). On a phone a tap on a number's name, or on a legend item,
// shows its title, in the screen; the next touch, a scroll or Esc takes it
// away; a tap on a control only does what the control does, and a mouse's
// click shows nothing (its hover shows the title). A phone in a workshop
// room read "lateness p99 171 ms" with no word on whose lateness it was
// (a review on a slow phone).
func TestPhoneTapShowsTheTitles(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 360, 740, chromedp.EmulateScale(3), chromedp.EmulateMobile)
	boot(t, ctx, srv.URL+"/?workers=4&jobs=2&latency=20ms")
	runToEnd(t, ctx, 30*time.Second)
	type tipRead struct {
		Shown                    bool
		Text, Title              string
		Left, Top, Right, Bottom float64
		W, H                     float64
	}
	read := func(sel string) tipRead {
		return eval[tipRead](t, ctx, `(() => {
			const tip = document.querySelector(".touch-tip"), el = document.querySelector(`+strconv.Quote(sel)+`);
			const de = document.documentElement;
			if (!tip) return {Shown: false, Title: el.title, W: de.clientWidth, H: de.clientHeight};
			const r = tip.getBoundingClientRect();
			return {Shown: true, Text: tip.textContent, Title: el.title, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, W: de.clientWidth, H: de.clientHeight};
		})()`)
	}
	tap := func(sel string) tipRead {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(sel)), chromedp.Tap(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
		var r tipRead
		_ = waitFor(2*time.Second, func() bool { r = read(sel); return r.Shown })
		return r
	}
	for i, sel := range []string{`[data-stat="lateness_p99_ms"] .k`, `[data-stat="queued_p99_ms"] .sub`, `#legend li:has(.sw.bar.late)`, `#legend li:has(.sw.bar.queued)`} {
		r := tap(sel)
		switch {
		case !r.Shown:
			t.Errorf("a tap on %s showed nothing; its title is %q", sel, r.Title)
		case r.Text != r.Title || r.Title == "":
			t.Errorf("a tap on %s showed %q, want its title %q", sel, r.Text, r.Title)
		case r.Left < 0 || r.Top < 0 || r.Right > r.W || r.Bottom > r.H:
			t.Errorf("a tap on %s showed its title at x %.0f–%.0f, y %.0f–%.0f: outside the %.0f × %.0f screen", sel, r.Left, r.Right, r.Top, r.Bottom, r.W, r.H)
		}
		// The screen as it is (a full-page shot resizes it, which hides the title).
		if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
			saveShot(t, fmt.Sprintf("phone-tap-title-%d", i), png)
		}
	}
	sel := `[data-stat="lateness_p99_ms"] .k`
	tap(sel)
	eval[chromedp.Void](t, ctx, `window.scrollBy(0, 40)`)
	if err := waitFor(2*time.Second, func() bool { return !read(sel).Shown }); err != nil {
		t.Errorf("the title shown stayed through a scroll")
	}
	tap(sel)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if read(sel).Shown {
		t.Errorf("the title shown stayed after Esc")
	}
	// A control: Copy share link (it has a title when disabled only) and
	// Run (titled) do what they do, with no title shown.
	if r := tap("#run"); r.Shown {
		t.Errorf("a tap on Run showed its title %q", r.Text)
	}
	if err := waitFor(30*time.Second, func() bool { st := state(t, ctx); return st.Runs == 2 && !st.Running }); err != nil {
		t.Fatalf("the tapped run did not run to its end: %v", err)
	}
	// A disabled button takes no click: a tap shows its title, which says
	// why it is off (the fault switches say nothing of it otherwise).
	if r := tap("#outage"); !r.Shown || !strings.Contains(r.Text, "Off now: only during a live run") {
		t.Errorf("a tap on the disabled Outage showed %q (shown %v), want its title saying why it is off (its title %q)", r.Text, r.Shown, r.Title)
	}
	// A mouse's click shows nothing: its hover shows the title.
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if read(sel).Shown {
		t.Errorf("a mouse click on %s showed its title", sel)
	}
}
