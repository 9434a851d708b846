package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// Zoom and pan of a finished run: the timeline shows a window of it, every
// panel on the same axis, with finer histogram bins. A run going on is
// always shown whole; a new run starts unzoomed.

// minZoomSpan is the narrowest window: a quarter of a second still shows
// the spread of a herd's retries, mark by mark.
const minZoomSpan = 250 * time.Millisecond

// window is the time shown, [from, from+span]: the zoomed window of a
// finished run, else the whole of span(now). v.mu must be held.
func (v *view) window(now time.Duration) (from, span time.Duration) {
	whole := v.span(now)
	if v.zoomSpan >= whole {
		v.zoomFrom, v.zoomSpan = 0, 0 // the run's axis grew past it (a baseline cleared)
	}
	if v.running && v.replay == nil && v.m != nil && v.m.watch && now >= watchSpan-watchLead {
		return watchWindow(now), watchSpan
	}
	if v.running || v.m == nil || v.zoomSpan <= 0 {
		return 0, whole
	}
	return min(max(0, v.zoomFrom), whole-v.zoomSpan), v.zoomSpan
}

// A watch of a shared room goes on for as long as the workshop does: past
// its first minute the timeline shows the last minute of it, not the whole
// (after 10 minutes the whole drew two 30 s runs in ~50 px, in 10 s bins,
// and a flood's 2 s spikes were gone). The window moves on a step at a
// time, so its grid and bins hold still in between, with now at least
// watchLead from its right edge. Once the watch ends, the whole of it is
// shown, to zoom into.
const (
	watchSpan = time.Minute
	watchStep = 10 * time.Second
	watchLead = 2 * time.Second
)

// watchWindow is where the window of a watch going on for now begins, once
// now is past watchSpan-watchLead.
func watchWindow(now time.Duration) time.Duration {
	return max(0, (now-(watchSpan-watchLead-watchStep))/watchStep*watchStep)
}

// zoom narrows (factor < 1) or widens (factor > 1) the window of a
// finished run around the crosshair, or the window's middle when the
// pointer is elsewhere; factor 0 shows the whole run again. It reports
// whether the window changed.
func (v *view) zoom(factor float64) bool {
	v.mu.Lock()
	changed := v.rezoom(factor)
	v.mu.Unlock()
	if changed {
		v.request()
	}
	return changed
}

func (v *view) rezoom(factor float64) bool {
	if v.m == nil || v.running {
		return false
	}
	whole := v.span(0)
	from, span := v.window(0)
	if factor == 0 {
		v.zoomFrom, v.zoomSpan = 0, 0
		return v.redrawn(span != whole)
	}
	centre := from + span/2
	if v.crossX >= 0 && v.laid && v.crossX >= v.lay.left && v.crossX <= v.lay.right {
		// The pointer's time in the window now (the last frame may be
		// older than a pan or zoom just made).
		centre = from + time.Duration((v.crossX-v.lay.left)/(v.lay.right-v.lay.left)*float64(span))
	}
	next := min(whole, max(minZoomSpan, time.Duration(float64(span)*factor)))
	if next == span {
		return false
	}
	if next >= whole {
		v.zoomFrom, v.zoomSpan = 0, 0
		return v.redrawn(true)
	}
	// The time under the centre stays where it is on screen.
	nextFrom := centre - time.Duration(float64(centre-from)*float64(next)/float64(span))
	v.zoomFrom, v.zoomSpan = min(max(0, nextFrom), whole-next), next
	return v.redrawn(true)
}

// pan moves the window of a zoomed-in run by frac of its width (negative:
// earlier). It reports whether the window moved.
func (v *view) pan(frac float64) bool {
	v.mu.Lock()
	changed := false
	if v.m != nil && !v.running && v.zoomSpan > 0 {
		whole := v.span(0)
		from, span := v.window(0)
		next := min(max(0, from+time.Duration(frac*float64(span))), whole-span)
		v.zoomFrom = next
		changed = v.redrawn(next != from)
	}
	v.mu.Unlock()
	if changed {
		v.request()
	}
	return changed
}

// redrawn marks everything for redrawing when changed. v.mu must be held.
func (v *view) redrawn(changed bool) bool {
	if changed {
		v.dirty, v.ovlDirty = true, true
	}
	return changed
}

// zoomText says what part of the run is shown when zoomed in: "2 s – 4 s
// of 13.6 s", or "" for the whole run. The "of" is where the run ends, the
// number the numbers' time to drain says, not the axis's end a little
// past it; a window reaching into that margin ends at the run's end.
func (v *view) zoomText() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		return ""
	}
	from, span := v.window(0)
	if span >= v.span(0) {
		return ""
	}
	end := v.runEnd()
	to := from + span
	if from < end {
		to = min(to, end)
	}
	sec := func(d time.Duration) string {
		return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(d.Seconds(), 'f', 2, 64), "0"), ".") + " s"
	}
	return sec(from) + " – " + sec(to) + " of " + sec(end)
}

// zoomable reports whether the run shown can be zoomed: it is over.
func (v *view) zoomable() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m != nil && !v.running
}

// Zoom zooms the timeline of a finished run (see view.zoom) and re-renders
// the zoom bar.
func (l *Lab) Zoom(factor float64) {
	if l.view.zoom(factor) {
		l.runRev++
	}
}

// Pan moves a zoomed-in timeline (see view.pan).
func (l *Lab) Pan(frac float64) {
	if l.view.pan(frac) {
		l.runRev++
	}
}

// ZoomBar zooms, pans and replays a finished run's timeline, and says
// which part of the run is shown.
type ZoomBar struct {
	app.Compo

	Lab  *Lab
	Text string // view.zoomText when rendered by the page (a change re-renders the bar)
	Rev  int
}

// Render draws the bar.
func (z *ZoomBar) Render() app.UI {
	l := z.Lab
	on := l.view.zoomable()
	text := l.view.zoomText()
	// A watch is no run: after one it said "Showing the whole run" (a
	// review).
	what := "run"
	if l.watching || l.watched {
		what = "watch"
	}
	shown := "Showing the whole " + what
	if text != "" {
		shown = "Showing " + text
	}
	if !on {
		shown = "Zooming works once a " + what + " is over"
	}
	btn := func(id, icon, title string, act func()) app.UI {
		return app.Button().ID(id).Class("ghost small").Disabled(!on || (text == "" && (id == "zoom-out" || id == "zoom-reset" || id == "pan-left" || id == "pan-right"))).
			Title(title).Aria("label", title).Text(icon).
			Attr(browser.FocusNextAttr, map[bool]string{true: "zoom-in"}[id != "zoom-in"]).
			OnClick(func(ctx app.Context, e app.Event) { act() })
	}
	return app.Div().ID("zoombar").Class("zoombar").Role("group").Aria("label", "Zoom the timeline").Body(
		app.Span().Class("zoom-label").Text("Zoom"),
		btn("zoom-in", "+", "Zoom in (+), around the pointer", func() { l.Zoom(0.5) }),
		btn("zoom-out", "−", "Zoom out (−)", func() { l.Zoom(2) }),
		btn("zoom-reset", "⤢", "The whole run (0)", func() { l.Zoom(0) }),
		btn("pan-left", "◀", "Earlier (a)", func() { l.Pan(-0.25) }),
		btn("pan-right", "▶", "Later (d)", func() { l.Pan(0.25) }),
		app.Span().ID("zoom-window").Class("zoom-window").Aria("live", "polite").Text(shown),
		z.replayControls(),
	)
}

// replayControls are the Replay button and its speed: the run played again
// as it happened, on the same timeline.
func (z *ZoomBar) replayControls() app.UI {
	l := z.Lab
	glyph, label, title := "▶", "Replay", "Replay the run as it happened (y)"
	if l.Replaying() {
		glyph, label, title = "■", "Stop replay", "Stop the replay and show the whole run (y)"
	}
	speed := l.ReplaySpeed()
	return app.Span().Class("replay").Role("group").Aria("label", "Replay").Body(
		app.Button().ID("replay").Class("ghost small").Disabled(!l.CanReplay()).
			Title(title).Aria("pressed", l.Replaying()).Body(icon(glyph), app.Text(label)).
			OnClick(func(ctx app.Context, e app.Event) { l.Replay(ctx) }),
		app.Label().For("replay-speed").Class("zoom-label").Text("speed"),
		app.Select().ID("replay-speed").Class("small").Title("Replay speed, × real time (or virtual time for a simulation)").
			Disabled(!l.CanReplay()). // as Replay is: Tab reached it before any run
			OnChange(func(ctx app.Context, e app.Event) {
				if v, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64); err == nil {
					l.SetReplaySpeed(v)
				}
			}).Body(
			app.Range(ReplaySpeeds).Slice(func(i int) app.UI {
				v := ReplaySpeeds[i]
				return app.Option().Value(strconv.FormatFloat(v, 'f', -1, 64)).Selected(v == speed).Text(speedText(v))
			}),
		),
		app.Span().ID("replay-status").Class("zoom-window").Text(l.view.replayText()),
	)
}
