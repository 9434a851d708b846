//go:build e2e

package tests

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tallQuery is a short run of 500 workers: its timeline's lanes alone are
// 500 px high, the whole canvas taller than a 720 px screen under the
// legend.
const tallQuery = "workers=500&jobs=2&rate=100&burst=100"

// axisRow is a row of the time axis' labels in the viewport (axisRowsJS).
type axisRow struct {
	Row    string   // "top" and "bottom": the canvas's own; "sticky": the sticky axis
	Y      float64  // its middle, viewport CSS px
	InView bool     // Y is in the viewport
	Labels int      // labels drawn in it (runs of ink along the plot)
	Shown  int      // of them, those that show whole: what is seen there is their canvas
	Over   []string // what covers the others
}

// axisRowsJS lists the rows of time labels, as the page is scrolled now:
// the canvas's top axis (14 px × scale down it), its axis under the last
// panel (18 px × scale above its end), and the sticky axis's, if there is
// one (#timeline-axis, 14 px × scale down it). A label is a run of ink in
// the row's canvas along the plot (right of the lanes' title), read from
// the canvas's pixels; in a row in the viewport it shows when what is seen
// at its ends and middle (elementFromPoint) is that canvas, not the legend
// or anything else over it.
const axisRowsJS = `((s) => {
	const dpr = devicePixelRatio || 1;
	const c = document.getElementById("timeline"), a = document.getElementById("timeline-axis");
	const rows = [["top", c, 14 * s], ["bottom", c, c.getBoundingClientRect().height - 18 * s]];
	if (a) rows.push(["sticky", a, 14 * s]);
	const name = e => { const i = e && e.closest("[id]"); return !e ? "nothing" : i ? "#" + i.id : e.tagName.toLowerCase(); };
	const out = [];
	for (const [row, el, y] of rows) {
		const r = el.getBoundingClientRect(), vy = r.top + y;
		if (el.width === 0) continue;
		const kx = el.width / r.width, w = el.width;
		const px = el.getContext("2d").getImageData(0, Math.max(0, Math.round(y * dpr) - 2), w, 5).data;
		const ink = new Uint8Array(w);
		for (let i = 0; i < px.length; i += 4) if (px[i] + px[i+1] + px[i+2] < 3 * 170) ink[(i / 4) % w] = 1;
		const labels = [];
		let from = -1, last = -1;
		for (let x = Math.round(60 * s * kx); x <= w; x++) {
			if (x < w && ink[x]) { if (from < 0) from = x; last = x; continue; }
			if (from >= 0 && (x === w || x - last > 6 * kx)) { labels.push([from / kx, last / kx]); from = -1; }
		}
		let shown = 0;
		const over = [], inView = vy >= 0 && vy < innerHeight;
		for (const [x0, x1] of inView ? labels : []) {
			const seen = [x0 + 0.5, (x0 + x1) / 2, x1 - 0.5].map(x => document.elementFromPoint(r.left + x, vy));
			const other = seen.find(e => e !== el);
			if (other === undefined) shown++; else over.push(name(other));
		}
		out.push({Row: row, Y: vy, InView: inView, Labels: labels.length, Shown: shown, Over: over});
	}
	return out;
})`

// viewShot saves what the viewport shows (not the whole page: a capture
// beyond it lays the page out at its full height, where nothing sticks)
// under tests/out/NAME.png.
func viewShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	dir := filepath.Join(repoRoot, "tests", "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// scrollCanvasTo scrolls the page so that the timeline's top is at y in
// the viewport (as near as the page's length allows), and returns once
// the page has painted there.
func scrollCanvasTo(t *testing.T, ctx context.Context, y float64) {
	t.Helper()
	eval[chromedp.Void](t, ctx, fmt.Sprintf(`scrollBy(0, document.getElementById("timeline").getBoundingClientRect().top - %f)`, y))
	eval[chromedp.Void](t, ctx, afterFrames)
}

// TestTimeAxisInViewThroughATallTimeline: with 500 workers the timeline is
// taller than the screen, and scrolled partway through it the lanes in
// view had no time labels: the axis at its top had scrolled away, or lay
// under the legend stuck to the screen's top, and the one under its last
// panel was not in view yet. At 360, 1280 and 1920 px, in the normal and
// the presentation theme, at every scroll position from the timeline's
// top in the screen's upper third to its end in the screen's middle, a row
// of the time axis' labels (as many as the canvas draws at its top) shows
// whole in the viewport, covered by neither the legend nor anything else;
// and the axis under the last panel, when in view, is never covered.
func TestTimeAxisInViewThroughATallTimeline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	// 1920 px wide and 800 high: at 1080 the whole timeline fits under the
	// legend (806 px, 928 in presentation mode: the lanes of a bigger
	// fleet share 500 px).
	for _, size := range [][2]int64{{1280, 720}, {360, 740}, {1920, 800}} {
		viewport(t, ctx, size[0], size[1])
		simulated(t, ctx, srv.URL+"/?"+tallQuery)
		for _, present := range []bool{false, true} {
			presentMode(t, ctx, present)
			scale := map[bool]float64{false: 1, true: 1.4}[present]
			what := fmt.Sprintf("%d × %d, presentation %v", size[0], size[1], present)
			h := eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().height`)
			if h <= float64(size[1]) {
				t.Fatalf("%s: the timeline is %.0f px high: not taller than the screen", what, h)
			}
			// From the canvas's top at 30% of the screen down to its end
			// at the screen's middle.
			const steps = 10
			from, to := 0.3*float64(size[1]), 0.5*float64(size[1])-h
			for i := 0; i <= steps; i++ {
				scrollCanvasTo(t, ctx, from+(to-from)*float64(i)/steps)
				top := eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().top`)
				rows := eval[[]axisRow](t, ctx, fmt.Sprintf("%s(%g)", axisRowsJS, scale))
				// As many labels as the canvas draws at its top: at 360
				// px that is one ("10 s"; "0 s" gives way to the lanes'
				// title).
				want := 0
				for _, r := range rows {
					if r.Row == "top" {
						want = max(1, r.Labels)
					}
				}
				readable := false
				for _, r := range rows {
					readable = readable || r.InView && r.Shown >= want
					if r.Row == "bottom" && len(r.Over) > 0 {
						t.Errorf("%s, the timeline's top at %.0f px: the axis under its last panel, at %.0f px, is covered by %s",
							what, top, r.Y, strings.Join(r.Over, ", "))
					}
				}
				if !readable {
					t.Errorf("%s, the timeline's top at %.0f px (%.0f px high): no row of the time axis' %d labels readable in the viewport: %+v", what, top, h, want, rows)
				}
				if i == steps/2 {
					viewShot(t, ctx, fmt.Sprintf("axis-mid-scroll-%dx%d-%s", size[0], size[1], map[bool]string{false: "normal", true: "present"}[present]))
				}
			}
		}
	}
	presentMode(t, ctx, false)
}

// stickyMatchJS compares the sticky axis's pixels with the canvas's own
// top axis row, above the sticky axis's rule at its foot: the same row,
// drawn from the same layout, so the same pixels. It returns how many
// differ, how many are ink (text), and a fingerprint of where the ink is.
const stickyMatchJS = `(() => {
	const c = document.getElementById("timeline"), a = document.getElementById("timeline-axis");
	if (!a) return {Missing: true};
	if (a.width !== c.width || a.width === 0) return {Missing: true, Widths: [a.width, c.width]};
	const h = a.height - Math.ceil(3 * (devicePixelRatio || 1));
	const pa = a.getContext("2d").getImageData(0, 0, a.width, h).data, pc = c.getContext("2d").getImageData(0, 0, c.width, h).data;
	let diff = 0, ink = 0, print = 0;
	for (let i = 0; i < pa.length; i += 4) {
		if (Math.max(Math.abs(pa[i] - pc[i]), Math.abs(pa[i+1] - pc[i+1]), Math.abs(pa[i+2] - pc[i+2])) > 24) diff++;
		if (pa[i] + pa[i+1] + pa[i+2] < 3 * 170) { ink++; print = (print * 31 + i) % 1000000007; }
	}
	return {Diff: diff, Ink: ink, Print: print};
})()`

type stickyMatch struct {
	Missing   bool
	Widths    []int
	Diff, Ink int
	Print     float64
}

// TestStickyAxisFollowsTheTimeline: the sticky axis shows the timeline's
// own time axis, pixel for pixel, as the timeline changes under it: after
// a simulation, zoomed in with the zoom bar and moved along with it,
// during a replay (zoomed in and out as it plays), and in presentation
// mode; its labels change as the timeline's do.
func TestStickyAxisFollowsTheTimeline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	simulated(t, ctx, srv.URL+"/?"+tallQuery)
	window := func() [2]float64 {
		return eval[[2]float64](t, ctx, `JSON.parse(window.retrylab.debug()).window_ms`)
	}
	var last stickyMatch
	same := func(what string, changed bool) {
		t.Helper()
		var m stickyMatch
		// The canvas and its axis are drawn at the same frame: wait
		// for one after what was done.
		_ = waitFor(2*time.Second, func() bool {
			m = eval[stickyMatch](t, ctx, afterFrames+`.then(() => `+stickyMatchJS+`)`)
			return !m.Missing && m.Diff == 0 && (!changed || m.Print != last.Print)
		})
		switch {
		case m.Missing:
			t.Fatalf("%s: no sticky axis (#timeline-axis) of the timeline's width: %+v", what, m)
		case m.Diff > 0:
			t.Errorf("%s: the sticky axis differs from the timeline's own top axis in %d pixels", what, m.Diff)
		case m.Ink == 0:
			t.Errorf("%s: the sticky axis is blank", what)
		case changed && m.Print == last.Print:
			t.Errorf("%s: the sticky axis's labels did not change", what)
		}
		last = m
	}
	same("after the simulation", false)
	whole := window()
	click(t, ctx, "zoom-in")
	click(t, ctx, "zoom-in")
	// The window is the view's once the clicks are handled: read at once,
	// it was the whole run's in one full e2e run.
	var w [2]float64
	if err := waitFor(3*time.Second, func() bool { w = window(); return w != whole }); err != nil {
		t.Fatalf("Zoom in did not zoom: window %v", w)
	}
	same("zoomed in twice", true)
	click(t, ctx, "pan-right")
	same("moved along", true)
	selectValue(t, ctx, "replay-speed", "0.25")
	click(t, ctx, "replay")
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Replaying }); err != nil {
		t.Fatal("Replay did not start")
	}
	same("replaying, zoomed in", false)
	click(t, ctx, "zoom-reset")
	same("replaying, the whole run", true)
	click(t, ctx, "zoom-in")
	same("replaying, zoomed in again", true)
	if !state(t, ctx).Replaying {
		t.Error("the replay ended before the checks: they were not made during it")
	}
	click(t, ctx, "replay") // stops it
	presentMode(t, ctx, true)
	same("in presentation mode", true)
	presentMode(t, ctx, false)
}

// stickyBottomJS is how far down the viewport what sticks to its top
// reaches: the legend's bottom while it sticks there, the sticky axis's
// while that does (0: nothing stuck).
const stickyBottomJS = `(() => {
	let b = 0;
	for (const id of ["legend", "timeline-axis"]) {
		const e = document.getElementById(id);
		if (!e) continue;
		const c = getComputedStyle(e), r = e.getBoundingClientRect();
		if ((c.position === "sticky" || c.position === "fixed") && r.top <= (parseFloat(c.top) || 0) + 0.5 && r.bottom > 0) b = Math.max(b, r.bottom);
	}
	return b;
})()`

// tipOnTopJS reports what is seen at the tooltip's corners and middle, if
// not the tooltip: something drawn over it. (It takes no pointer events,
// which elementFromPoint would see through: it does for the call.)
const tipOnTopJS = `(() => {
	const el = document.getElementById("tooltip");
	if (!el || !el.classList.contains("tip")) return ["no tooltip"];
	const r = el.getBoundingClientRect(), over = [];
	el.style.pointerEvents = "auto";
	for (const [x, y] of [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]]) {
		if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
		const e = document.elementFromPoint(x, y);
		if (!e || !el.contains(e)) { const i = e && e.closest("[id]"); over.push(i ? "#" + i.id : String(e)); }
	}
	el.style.pointerEvents = "";
	return over;
})()`

// markNearJS finds an attempt's mark (a success's green or a 429's
// vermilion, in the canvas's pixels) between two heights of the viewport,
// and returns where it is in the viewport ([] if none).
const markNearJS = `((y0, y1) => {
	const c = document.getElementById("timeline"), r = c.getBoundingClientRect(), k = c.width / r.width;
	const top = Math.round((y0 - r.top) * k), h = Math.round((y1 - y0) * k);
	const px = c.getContext("2d").getImageData(0, top, c.width, h).data;
	for (let i = 0; i < px.length; i += 4) {
		const [R, G, B] = [px[i], px[i+1], px[i+2]], x = (i / 4) % c.width;
		if (x > 100 * k && (R < 60 && G > 120 && B < 140 || R > 180 && G < 120 && B < 60))
			return [r.left + x / k, y0 + Math.floor(i / 4 / c.width) / k];
	}
	return [];
})`

// TestWalkedMarkShowsBelowTheStickyAxis: the arrow keys walk a tall
// timeline's attempts; each one walked to is scrolled into view, clear of
// the legend and the sticky axis stuck over the lanes and above the
// screen's bottom: the first attempt, in the top lane, with the page
// scrolled halfway down the timeline; the top lane's last with that lane
// just under the sticky axis; then, from a mark clicked near the screen's
// bottom, lanes down past it. Its tooltip is over
// the sticky parts, never under them; so is a hovered mark's, just under
// the sticky axis. In the normal and the presentation theme.
func TestWalkedMarkShowsBelowTheStickyAxis(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	simulated(t, ctx, srv.URL+"/?"+tallQuery)
	for _, present := range []bool{false, true} {
		presentMode(t, ctx, present)
		what := map[bool]string{false: "normal", true: "presentation mode"}[present]
		h := eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().height`)
		eval[bool](t, ctx, `(() => { document.getElementById("timeline").focus({preventScroll: true}); return true; })()`)
		var prev tipBox
		walk := func(key, how string) tipBox {
			t.Helper()
			keyOnFocus(t, ctx, key)
			b := changedTip(t, ctx, prev)
			prev = b
			// Settled: the page scrolled, the tooltip placed again.
			eval[chromedp.Void](t, ctx, afterFrames)
			b = readTip(t, ctx)
			clear := eval[float64](t, ctx, stickyBottomJS)
			r := eval[float64](t, ctx, `+document.getElementById("tooltip").dataset.r`)
			switch {
			case !b.Shown:
				t.Errorf("%s, %s: no tooltip", what, how)
			case b.MarkY-r < clear-0.5:
				t.Errorf("%s, %s: the mark %q at %.0f px (ring %.1f px) is under what sticks to the screen's top, down to %.0f px",
					what, how, b.Title, b.MarkY, r, clear)
			case b.MarkY+r > b.ViewH+0.5:
				t.Errorf("%s, %s: the mark %q at %.0f px (ring %.1f px) is below the %.0f px screen", what, how, b.Title, b.MarkY, r, b.ViewH)
			}
			if over := eval[[]string](t, ctx, tipOnTopJS); len(over) > 0 {
				t.Errorf("%s, %s: the tooltip is under %s", what, how, strings.Join(over, ", "))
			}
			return b
		}
		// Halfway down the timeline: the top lane above the screen.
		scrollCanvasTo(t, ctx, 360-h/2)
		first := walk(kb.ArrowRight, "the first attempt, the timeline scrolled halfway")
		// The top lane just under the sticky axis, hidden.
		scrollCanvasTo(t, ctx, 0)
		clear := eval[float64](t, ctx, stickyBottomJS)
		scrollCanvasTo(t, ctx, clear-3-first.Y)
		walk(kb.End, "the top lane's last attempt, its lane under the sticky axis")
		viewShot(t, ctx, "axis-walked-"+map[bool]string{false: "normal", true: "present"}[present])
		// A mark near the screen's bottom, clicked, then lanes down past
		// the screen's bottom: the lanes 300 px into the screen, the
		// rest of them below it.
		scrollCanvasTo(t, ctx, 720-first.Y-300)
		at := eval[[]float64](t, ctx, markNearJS+"(680, 700)")
		if len(at) == 0 {
			t.Fatalf("%s: no attempt's mark 680–700 px down the screen", what)
		}
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(at[0], at[1])); err != nil {
			t.Fatal(err)
		}
		if prev = changedTip(t, ctx, prev); !prev.Shown || prev.MarkY < 670 {
			t.Fatalf("%s: clicking the mark at (%.0f, %.0f) selected %+v", what, at[0], at[1], prev)
		}
		before := eval[float64](t, ctx, `scrollY`)
		for i := range 45 {
			walk(kb.ArrowDown, fmt.Sprintf("%d lanes down from %.0f px", i+1, at[1]))
		}
		if eval[float64](t, ctx, `scrollY`) <= before {
			t.Errorf("%s: 45 lanes down from %.0f px, the page never scrolled", what, at[1])
		}
		// The last one walked to, hovered just under the sticky axis: its
		// tooltip over the axis.
		last := prev
		keyOnFocus(t, ctx, kb.Escape)
		scrollCanvasTo(t, ctx, 0)
		clear = eval[float64](t, ctx, stickyBottomJS)
		scrollCanvasTo(t, ctx, clear+12-last.Y)
		at = eval[[]float64](t, ctx, `(() => { const r = document.getElementById("timeline").getBoundingClientRect(); return [r.left, r.top]; })()`)
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0]+last.X, at[1]+last.Y)); err != nil {
			t.Fatal(err)
		}
		var hit tipBox
		if err := waitFor(2*time.Second, func() bool { hit = readTip(t, ctx); return hit.Shown }); err != nil {
			t.Errorf("%s: hovering %q at (%.0f, %.0f), %.0f px under the sticky axis, showed no tooltip",
				what, last.Title, at[0]+last.X, at[1]+last.Y, at[1]+last.Y-clear)
		} else if over := eval[[]string](t, ctx, tipOnTopJS); len(over) > 0 {
			t.Errorf("%s: a hovered mark's tooltip, at %.0f px, is under %s", what, hit.MarkY, strings.Join(over, ", "))
		}
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 5, 5)); err != nil {
			t.Fatal(err)
		}
	}
	presentMode(t, ctx, false)
}

// TestTabBackShowsTheSelectedMark: an attempt walked to with the keyboard,
// the page scrolled away from it and the focus gone on to the next control,
// Shift+Tab back to the timeline shows the attempt again below the sticky
// axis, as the arrow keys would (the browser scrolls only the canvas's edge
// into view: before, the mark was left above the screen, at -59 px). A
// click on the canvas, which focuses it too, scrolls nothing.
func TestTabBackShowsTheSelectedMark(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	simulated(t, ctx, srv.URL+"/?"+tallQuery)
	h := eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().height`)
	scrollCanvasTo(t, ctx, 200)
	eval[bool](t, ctx, `(() => { document.getElementById("timeline").focus({preventScroll: true}); return true; })()`)
	keyOnFocus(t, ctx, kb.ArrowRight)
	first := changedTip(t, ctx, tipBox{})
	if !first.Shown {
		t.Fatal("ArrowRight on the timeline selected nothing")
	}
	keyOnFocus(t, ctx, kb.Tab)
	if eval[string](t, ctx, `document.activeElement.id`) == "timeline" {
		t.Fatal("Tab left the focus on the timeline")
	}
	// The timeline's bottom near the screen's: its first lanes far above.
	scrollCanvasTo(t, ctx, 600-h)
	keyOnFocus(t, ctx, kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "timeline" {
		t.Fatalf("Shift+Tab focused %q, not the timeline", id)
	}
	var b tipBox
	clear := 0.0
	shown := func() bool {
		b, clear = readTip(t, ctx), eval[float64](t, ctx, stickyBottomJS)
		return b.Shown && b.Title == first.Title && b.MarkY-6 >= clear && b.MarkY+6 <= b.ViewH
	}
	if err := waitFor(2*time.Second, shown); err != nil {
		t.Errorf("back on the timeline, the selected attempt %q is at %.0f px: not between the sticky parts' bottom, %.0f px, and the screen's %.0f px (tooltip %+v)",
			first.Title, b.MarkY, clear, b.ViewH, b)
	}
	viewShot(t, ctx, "axis-tab-back")
	// A click elsewhere on the canvas focuses it without a scroll.
	keyOnFocus(t, ctx, kb.Tab)
	scrollCanvasTo(t, ctx, 600-h)
	before := eval[float64](t, ctx, `scrollY`)
	at := eval[[]float64](t, ctx, `(() => { const r = document.getElementById("timeline").getBoundingClientRect(); return [r.left + r.width / 2, r.bottom - 120]; })()`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	// Not afterFrames alone: 100 ms first (as it waited before), time for
	// a scroll the click might still start, then the frames after it.
	eval[chromedp.Void](t, ctx, `new Promise(r => setTimeout(r, 100)).then(() => `+afterFrames+`)`)
	if after := eval[float64](t, ctx, `scrollY`); after != before {
		t.Errorf("a click on the canvas scrolled the page from %.0f to %.0f px", before, after)
	}
}

// TestCrosshairOverTheStickyAxis: the pointer over the sticky axis reads a
// time as over the canvas's own axis row did before the sticky axis lay on
// it: the crosshair follows it down the lanes (the sticky axis took the
// pointer, and the overlay drew no crosshair), and no attempt is picked.
func TestCrosshairOverTheStickyAxis(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 900)
	simulated(t, ctx, srv.URL+"/?workers=20&jobs=2")
	scrollCanvasTo(t, ctx, 200)
	// The overlay's pixels drawn in the column at x, down the lanes.
	const columnJS = `((x) => {
		const o = document.getElementById("timeline-overlay"), r = o.getBoundingClientRect(), k = o.width / r.width;
		const px = o.getContext("2d").getImageData(Math.round((x - r.left) * k), 0, 1, o.height).data;
		let n = 0;
		for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
		return n;
	})`
	at := eval[[]float64](t, ctx, `(() => { const r = document.getElementById("timeline-axis").getBoundingClientRect(); return [r.left + 0.4 * r.width, r.top + r.height / 2]; })()`)
	if on := eval[string](t, ctx, fmt.Sprintf(`document.elementFromPoint(%f, %f).id`, at[0], at[1])); on != "timeline-axis" {
		t.Fatalf("at (%.0f, %.0f), over the axis row, is %q, not the sticky axis", at[0], at[1], on)
	}
	move := func(x, y float64) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
			t.Fatal(err)
		}
	}
	var n float64
	drawn := func(want bool) func() bool {
		return func() bool {
			n = eval[float64](t, ctx, columnJS+"("+strconv.FormatFloat(at[0], 'f', 1, 64)+")")
			return (n > 50) == want
		}
	}
	move(at[0], at[1])
	if err := waitFor(2*time.Second, drawn(true)); err != nil {
		t.Errorf("the pointer over the sticky axis at %.0f px: %.0f px of the overlay drawn in its column, want a crosshair down the lanes", at[0], n)
	}
	if b := readTip(t, ctx); b.Shown {
		t.Errorf("the pointer over the sticky axis picked %q", b.Title)
	}
	viewShot(t, ctx, "axis-crosshair")
	// Off the timeline (onto the legend above): no crosshair.
	legend := eval[[]float64](t, ctx, `(() => { const r = document.getElementById("legend").getBoundingClientRect(); return [r.left + 0.4 * r.width, r.top + 4]; })()`)
	move(legend[0], legend[1])
	if err := waitFor(2*time.Second, drawn(false)); err != nil {
		t.Errorf("the pointer gone from the sticky axis to the legend: %.0f px of the overlay still drawn in the column", n)
	}
}

// TestStickyPartsLetGoOnAShortScreen: at 200% zoom on a 1280 × 720 screen
// (a viewport of 640 × 360 CSS px) the legend and the time axis stuck to
// its top covered 31% of it, 49% in presentation mode, and the
// histogram's "limit 10 req/s" went under them as the page scrolled: on a
// screen that short (and at 150%, 480 px high) nothing sticks. On a
// 1280 × 720 screen both stick, as before. And a window made taller, its
// width the same, sticks the axis right under the legend again, not under
// it at the screen's top (the legend did not change size: its
// ResizeObserver alone did not place the axis again).
func TestStickyPartsLetGoOnAShortScreen(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	simulated(t, ctx, srv.URL+"/?"+tallQuery)
	stuck := func(what string, w, h int64, scale float64) float64 {
		t.Helper()
		viewport(t, ctx, w, h, chromedp.EmulateScale(scale))
		eval[chromedp.Void](t, ctx, afterFrames)
		scrollCanvasTo(t, ctx, -150)
		b := eval[float64](t, ctx, stickyBottomJS)
		viewShot(t, ctx, fmt.Sprintf("short-screen-%dx%d-%s", w, h, what))
		return b
	}
	for _, present := range []bool{false, true} {
		presentMode(t, ctx, present)
		what := map[bool]string{false: "normal", true: "present"}[present]
		for _, s := range []struct {
			w, h  int64
			scale float64
		}{{640, 360, 2}, {853, 480, 1.5}} {
			if b := stuck(what, s.w, s.h, s.scale); b > 0 {
				t.Errorf("%s, %d × %d: the legend and the time axis stick over the top %.0f px (%.0f%%) of the screen, want nothing stuck", what, s.w, s.h, b, 100*b/float64(s.h))
			}
		}
		if b := stuck(what, 1280, 720, 1); b == 0 {
			t.Errorf("%s, 1280 × 720: nothing sticks over the timeline, want the legend and the time axis", what)
		}
		viewport(t, ctx, 640, 360, chromedp.EmulateScale(2))
		eval[chromedp.Void](t, ctx, afterFrames)
		viewport(t, ctx, 640, 720, chromedp.EmulateScale(2))
		eval[chromedp.Void](t, ctx, afterFrames)
		scrollCanvasTo(t, ctx, -150)
		gap := eval[[2]float64](t, ctx, `[document.getElementById("legend").getBoundingClientRect().bottom, document.getElementById("timeline-axis").getBoundingClientRect().top]`)
		if gap[1] < 1 || gap[1]-gap[0] > 1 || gap[0]-gap[1] > 1 {
			t.Errorf("%s, 640 × 360 made 640 × 720: the sticky axis's top is at %.0f px, want right under the legend's bottom at %.0f px", what, gap[1], gap[0])
		}
	}
	presentMode(t, ctx, false)
}
