package ui

import (
	"strconv"

	"retrylab/app/browser"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Timeline is the canvas where a run is drawn: a lane per worker, the
// histogram of requests per time slice and the server's arrivals, all on
// one time axis, with a crosshair across them. Hovering a mark, clicking it,
// or moving with the arrow keys once the canvas has focus shows its facts.
// The drawing itself is done by the Lab's view at animation frames; go-app
// only renders the elements and the tooltip.
type Timeline struct {
	app.Compo

	Lab      *Lab
	Baseline string // the baseline's label when its outline is drawn, else ""
	Watch    bool   // a watch of a shared room is shown: no lanes
	Zoom     string // the zoomed window (view.zoomText): a change re-renders the tooltip
	Summary  string // what the finished run's timeline shows, in words (Lab.timelineSummary)
	// Replaying: a replay goes on. Its start and its end clear the
	// selection (view.startReplay, endReplay), and the change re-renders
	// the tooltip: a replay kept the tooltip of an attempt selected
	// before it, seconds ahead of the playhead (a review).
	Replaying bool

	stopWatch func() // stops browser.WatchOnScreen
	stopFloat func() // stops browser.FloatBeside
	stopSize  func() // stops browser.WatchResize of the legend
	stopStick func() // stops browser.StickBelow of the sticky axis
}

// tipID is the tooltip's element id; tipSaidID that of the live region
// that tells a screen reader what is selected (tip.Said).
const tipID, tipSaidID = "tooltip", "tip-said"

// OnMount draws into the fresh canvas, and from then on only while some of
// it shows in the viewport (view.setOnScreen). The tooltip is kept beside
// its mark and in the viewport (placeTip) as it changes and as the page
// scrolls: where it goes depends on its own size, known once rendered.
func (t *Timeline) OnMount(ctx app.Context) {
	t.Lab.view.invalidate()
	if stop, err := browser.WatchOnScreen(canvasID, t.Lab.view.setOnScreen); err == nil {
		t.stopWatch = stop
	}
	if stop, err := browser.FloatBeside(tipID, canvasID, placeTipInSight); err == nil {
		t.stopFloat = stop
	}
	// The legend sticks over the timeline's top: presentation mode fits
	// the timeline under it, so a legend of another height (another font,
	// another number of lines) lays the timeline out again.
	if stop, err := browser.WatchResize(legendID, t.Lab.view.resized); err == nil {
		t.stopSize = stop
	}
	// The sticky axis sticks right under the legend, of whatever height.
	if stop, err := browser.StickBelow(axisID, legendID); err == nil {
		t.stopStick = stop
	}
}

// OnDismount stops watching whether the timeline is on screen and the
// legend's size, and placing the tooltip and the sticky axis.
func (t *Timeline) OnDismount() {
	for _, stop := range []*func(){&t.stopWatch, &t.stopFloat, &t.stopSize, &t.stopStick} {
		if *stop != nil {
			(*stop)()
			*stop = nil
		}
	}
	t.Lab.view.setOnScreen(true)
}

func offset(e app.Event) (x, y float64) {
	return e.Get("offsetX").Float(), e.Get("offsetY").Float()
}

// navKeys are the keys that walk the attempts while the timeline has the
// focus (view.key).
const navKeys = "ArrowLeft,ArrowRight,ArrowUp,ArrowDown,Home,End,Enter, "

// ownKeys is what the focused timeline claims from the page's shortcuts
// (browser.ListenKeys): the walking keys, which must not scroll the page
// (go-app runs the handler too late to prevent that), and, while an attempt
// is selected, Escape, which then clears the selection rather than stopping
// the run.
func ownKeys(selected bool) string {
	if selected {
		return navKeys + ",Escape"
	}
	return navKeys
}

// Render draws the canvases and the tooltip.
func (t *Timeline) Render() app.UI {
	v := t.Lab.view
	tp, ok := v.selection()
	label := "Timeline of the run: a lane per worker, requests per time slice, and the server's arrivals. "
	walk := "Focus it and use the arrow keys to step through attempts; Enter says all of one's details."
	if t.Watch {
		label = "Timeline of the shared room as the server sees it: a lane per device, requests received per time slice, stacked by the server's answer, and every arrival. "
		walk = "Focus it and use the arrow keys to step through the arrivals; Enter says all of one's details."
	}
	if t.Baseline != "" {
		label += "A violet outline over the requests per time slice is the baseline, " + t.Baseline + ". "
	}
	return app.Div().ID("timeline-wrap").Class("timeline-wrap").Body(
		app.Canvas().ID(canvasID).
			TabIndex(0).
			Attr(browser.OwnKeysAttr, ownKeys(v.escapable())).
			// An application, not an image: on an image a screen reader's
			// browse mode keeps the arrow keys to read on. The walk's
			// attempts are said in a line each (tipSaidID); the tooltip,
			// up to 8 lines, is the canvas's description, and Enter says it.
			Role("application").
			Aria("label", label+walk).
			Aria("describedby", "timeline-summary tooltip").
			OnMouseMove(func(ctx app.Context, e app.Event) {
				if !v.pointer(offset(e)) {
					ctx.PreventUpdate()
				}
			}).
			OnMouseLeave(func(ctx app.Context, e app.Event) { v.pointer(-1, -1) }).
			OnClick(func(ctx app.Context, e app.Event) { v.click(offset(e)) }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if !v.key(e.Get("key").String()) {
					ctx.PreventUpdate()
					return
				}
				revealSelected(v)
			}).
			// Tabbed back to with an attempt still selected: show it, as
			// the arrow keys would (the browser scrolls only the canvas's
			// edge into view). Not when a click focused it: the pointer is
			// on what the person wants to see.
			OnFocus(func(ctx app.Context, e app.Event) {
				ctx.PreventUpdate()
				// Focused by t with its foot shown (presentation mode, a
				// timeline taller than the screen): it stays so.
				if tgt := e.Get("target"); tgt.Call("hasAttribute", "data-foot").Bool() {
					tgt.Call("removeAttribute", "data-foot")
					return
				}
				if e.Get("target").Call("matches", ":focus-visible").Bool() && !revealSelected(v) {
					revealTop()
				}
			}).
			// Left by t (browser.ToggleView marks it data-left), back up to
			// the run bar: the attempt selected is no longer, as with
			// Escape; its tooltip stayed over the lanes the person had
			// left (a review). Left by Tab or a click the selection stays,
			// shown again when the timeline is tabbed back to.
			OnBlur(func(ctx app.Context, e app.Event) {
				tgt := e.Get("target")
				if !tgt.Call("hasAttribute", "data-left").Bool() {
					ctx.PreventUpdate()
					return
				}
				tgt.Call("removeAttribute", "data-left")
				if !v.key("Escape") {
					ctx.PreventUpdate()
				}
			}),
		app.Canvas().ID(overlayID).Class("overlay").Aria("hidden", "true"),
		// The sticky axis (paintStickyAxis), in a track as tall as the
		// canvas less the axis under its last panel: it sticks within it
		// (web/app.css).
		// Over it the pointer reads a time as on the canvas's own axis row:
		// the crosshair follows it (it took the pointer, and showed none),
		// and no attempt under it, hidden, is picked.
		app.Div().Class("axis-track").Aria("hidden", "true").Body(app.Canvas().ID(axisID).
			OnMouseMove(func(ctx app.Context, e app.Event) {
				if x, _ := offset(e); !v.pointer(x, -1) {
					ctx.PreventUpdate()
				}
			}).
			OnMouseLeave(func(ctx app.Context, e app.Event) { v.pointer(-1, -1) })),
		// The canvas's text alternative, read by a screen reader with it.
		app.P().ID("timeline-summary").Class("sr-only").Text(t.Summary),
		app.If(ok, func() app.UI {
			// Placed by placeTip (see OnMount) beside the mark at data-x,
			// data-y (CSS px in the canvas), clear of its ring (data-r).
			return app.Div().ID(tipID).Class("tip "+tp.Class).
				DataSet("x", strconv.FormatFloat(tp.X, 'f', 1, 64)).
				DataSet("y", strconv.FormatFloat(tp.Y, 'f', 1, 64)).
				DataSet("r", strconv.FormatFloat(tp.R, 'f', 1, 64)).
				Body(
					app.Strong().Text(tp.Title),
					app.Range(tp.Lines).Slice(func(i int) app.UI { return app.Div().Text(tp.Lines[i]) }),
				)
		}).Else(func() app.UI {
			return app.Div().ID(tipID).Class("tip-empty")
		}),
		app.P().ID(tipSaidID).Class("sr-only").Role("status").Aria("live", "polite").
			Text(map[bool]string{true: tp.Title + ": " + tp.Said}[ok]),
	)
}

// stickyIDs are the elements that stick over the timeline as the page
// scrolls: the legend, and the sticky axis under it.
const stickyIDs = legendID + "," + axisID

// revealSelected scrolls the page, when the selected attempt's mark (the
// keyboard's) is under the legend or the sticky axis or off the screen,
// just enough to show it clear of them (revealBy): the arrow keys walked
// on through lanes out of sight.
// It reports whether an attempt is selected.
func revealSelected(v *view) bool {
	tp, ok := v.selection()
	if !ok {
		return false
	}
	if c, err := browser.Clearance(canvasID, stickyIDs); err == nil {
		if dy := revealBy(c.Top+tp.Y, tp.R, c.Clear, c.ViewH); dy != 0 {
			_ = browser.ScrollBy(dy)
		}
	}
	return true
}

// revealTop scrolls the timeline's top out from under what sticks to the
// viewport's top, where the browser's scroll for the focus left it there:
// Chromium centres a canvas taller than the screen with its scroll margin
// (web/app.css, #timeline:focus), and a legend of five rows (800 px wide,
// presentation mode) hid its first lanes, where the arrow keys walk.
func revealTop() {
	// Clear of the legend alone: the sticky axis lies over the canvas's
	// own axis row, no lanes.
	if c, err := browser.Clearance(canvasID, legendID); err == nil && c.Top < c.Clear && c.Top > -c.ViewH {
		_ = browser.ScrollBy(c.Top - c.Clear - 1) // a pixel clear: the scroll rounds
	}
}

// revealPad is the least room revealBy leaves between a mark's ring and
// what hides it, CSS px.
const revealPad = 8

// revealBy is how far to scroll the page (CSS px, down when > 0) to show
// a mark whose middle is y down the viewport, with its ring of radius r,
// between the elements stuck to the viewport's top (reaching clear down)
// and the viewport's bottom (viewH), revealPad clear of both; 0 when it
// shows so already. Where the room between them is too low for that, the
// mark goes under the stuck elements' edge.
func revealBy(y, r, clear, viewH float64) float64 {
	top, bottom := y-r-revealPad, y+r+revealPad
	switch {
	case top < clear:
		return top - clear
	case bottom > viewH:
		return min(bottom-viewH, top-clear)
	}
	return 0
}

// placeTipInSight places the tooltip (placeTipBelow) under what sticks to
// the viewport's top as the page scrolls (the legend, the sticky axis:
// browser.Clearance), as far down as they reach now.
func placeTipInSight(f browser.Float) (left, top float64) {
	clear := 0.0
	if c, err := browser.Clearance(canvasID, stickyIDs); err == nil {
		clear = c.Clear
	}
	return placeTipBelow(f, clear)
}

// placeTipBelow is where the tooltip goes (placeTip) in the part of the
// viewport below clear, the bottom of what sticks to its top: it never
// lies over the legend or the sticky axis. While its mark is out of sight
// (its middle under them, or off the screen) the tooltip is put away
// above the page (tipAway), where it still describes the canvas to a
// screen reader, and comes back beside the mark once the mark shows
// again; the selection stays, and the arrow keys walk on from it (and
// scroll it back into sight: revealSelected). Clamped into the screen, it
// stood over the legend and the sticky axis in presentation mode, pointing
// at nothing, or just under the axis, at a mark hidden by it.
func placeTipBelow(f browser.Float, clear float64) (left, top float64) {
	if f.Y < clear || f.Y > f.ViewH || f.X < 0 || f.X > f.ViewW {
		return tipMargin, tipAway - f.H
	}
	f.Y -= clear
	f.ViewH -= clear
	left, top = placeTip(f)
	return left, top + clear
}

// tipAway is how far above the viewport's top the tooltip of a mark out
// of sight ends, CSS px: off the page, which does not grow for it.
const tipAway = -10000

// tipMargin is the least room between the tooltip and the viewport's
// edges, CSS px (web/app.css caps its width at the viewport's less twice this).
const tipMargin = 8

// tipDrop is how far below the mark (or above it, flipped) the tooltip's
// edge is when it stands beside the mark.
const tipDrop = 10

// placeTip says where the tooltip goes: its top-left corner, given the
// mark it describes (f.X, f.Y, and f.R its selection ring's radius), its
// size and the viewport's, all in viewport CSS px. It stands beside the
// mark, to the right and just below as the pointer's own tooltips do,
// flipped to the left and upwards where that side has no room. Where
// neither side has room (a phone), it goes below the mark or above it
// instead, across the screen. Where nothing fits it is clamped into the
// viewport, tipMargin clear of its edges: it may then cover the mark, but
// it is read whole. The page places it below what sticks to the
// viewport's top, and puts it away while its mark is out of sight
// (placeTipBelow).
func placeTip(f browser.Float) (left, top float64) {
	x, y, w, h, vw, vh := f.X, f.Y, f.W, f.H, f.ViewW, f.ViewH
	m := float64(tipMargin)
	gap := max(14, f.R+4) // clear of the mark and its ring
	fits := func(at, size, room float64) bool { return at >= m && at+size <= room-m }
	clamp := func(at, size, room float64) float64 { return max(m, min(at, room-m-size)) }
	beside := func(near, far float64, size, room float64) float64 {
		switch {
		case fits(near, size, room):
			return near
		case fits(far, size, room):
			return far
		}
		return clamp(near, size, room)
	}
	right, leftSide := x+gap, x-gap-w
	if fits(right, w, vw) || fits(leftSide, w, vw) {
		return beside(right, leftSide, w, vw), beside(y+tipDrop, y-tipDrop-h, h, vh)
	}
	return clamp(x-w/2, w, vw), beside(y+gap, y-gap-h, h, vh)
}
