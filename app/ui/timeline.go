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

	stopWatch func() // stops browser.WatchOnScreen
}

// OnMount draws into the fresh canvas, and from then on only while some of
// it shows in the viewport (view.setOnScreen).
func (t *Timeline) OnMount(ctx app.Context) {
	t.Lab.view.invalidate()
	if stop, err := browser.WatchOnScreen(canvasID, t.Lab.view.setOnScreen); err == nil {
		t.stopWatch = stop
	}
}

// OnDismount stops watching whether the timeline is on screen.
func (t *Timeline) OnDismount() {
	if t.stopWatch != nil {
		t.stopWatch()
		t.stopWatch = nil
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
	if t.Watch {
		label = "Timeline of the shared room as the server sees it: requests received per time slice, stacked by the server's answer, and every arrival. "
	}
	if t.Baseline != "" {
		label += "A violet outline over the requests per time slice is the baseline, " + t.Baseline + ". "
	}
	return app.Div().ID("timeline-wrap").Class("timeline-wrap").Body(
		app.Canvas().ID(canvasID).
			TabIndex(0).
			Attr(browser.OwnKeysAttr, ownKeys(ok)).
			Role("img").
			Aria("label", label+"Focus it and use the arrow keys to step through attempts.").
			Aria("describedby", "tooltip").
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
				}
			}),
		app.Canvas().ID(overlayID).Class("overlay").Aria("hidden", "true"),
		app.If(ok, func() app.UI {
			cls := "tip " + tp.Class
			left := tp.X + 14
			if tp.X > v.lay.w-360 {
				cls += " flip"
				left = tp.X - 14
			}
			return app.Div().ID("tooltip").Class(cls).Role("status").Aria("live", "polite").
				Style("left", strconv.FormatFloat(left, 'f', 0, 64)+"px").
				Style("top", strconv.FormatFloat(tp.Y+10, 'f', 0, 64)+"px").
				Body(
					app.Strong().Text(tp.Title),
					app.Range(tp.Lines).Slice(func(i int) app.UI { return app.Div().Text(tp.Lines[i]) }),
				)
		}).Else(func() app.UI {
			return app.Div().ID("tooltip").Class("tip-empty").Role("status").Aria("live", "polite")
		}),
	)
}

// SimBanner is the timeline's header when the run shown was simulated:
// what was simulated, how long it took to compute, and whether the attempt
// limit cut it short. Empty for a live run.
type SimBanner struct {
	app.Compo

	Lab *Lab
	Rev int
}

// Render draws the banner, or an empty placeholder.
func (b *SimBanner) Render() app.UI {
	text := b.Lab.SimulatedText()
	if text == "" {
		return app.Div().ID("sim-banner").Hidden(true)
	}
	return app.Div().ID("sim-banner").Class("notice").Role("status").
		Style("margin", "6px 0").Style("padding", "6px 10px").Style("font-weight", "600").
		Text(text + ". Virtual time: no requests were sent; the endpoint is the simulator's model of the built-in mock.")
}
