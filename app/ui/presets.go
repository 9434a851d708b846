package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
)

// captionID is the element id of the step's caption (PresetBar), which a
// run in presentation mode keeps on the screen where it can (showRun).
const captionID = "preset-caption"

// PresetBar shows the story as numbered steps (keys 1–7), with the active
// step's caption beside them, and, once a step replaced a configuration of
// the user's own, a way back to it (key u).
type PresetBar struct {
	app.Compo

	Lab     *Lab
	Rev     int
	Running bool
}

// Render draws the steps.
func (b *PresetBar) Render() app.UI {
	l := b.Lab
	active := l.ActivePreset()
	caption := "Custom configuration: pick a step of the story to reset every field, or keep tuning."
	if near, cs := nearStep(l.s); active == "" && near >= 0 {
		// Near a step: which, and what differs, as the compare bar and
		// the PNG name it; or that what differs has no effect ("a step
		// with your changes" named none: a review).
		caption = nearName(near, cs) + ": a step with your changes. Pick a step of the story to reset every field, or keep tuning."
		if len(cs) == 0 {
			caption = stepName(near) + ": what you changed has no effect with the step's settings. Pick a step of the story to reset every field, or keep tuning."
		}
	}
	step := 0
	for i, p := range fleet.Presets {
		if p.ID == active {
			caption, step = p.Caption, i+1
		}
	}
	room := ""
	if l.s.Room != "" && l.s.Target == "" {
		// A device in a room: what Run does there. On a configuration of
		// its own it is the whole caption. On a step it comes under the
		// step's caption, which the presenter teaches from (on the
		// projector, a wide screen or presentation mode); a phone (one
		// column, under 961 px, not presenting) hides the step's caption
		// and keeps the room's line with the step's number: a step's
		// caption of four lines pushed Run off a 320 × 568 phone's first
		// screen (web/app.css, .caption.in-room).
		as, on := "", ""
		if l.device != "" {
			as = " as " + l.device
		}
		if step > 0 {
			on = ", step " + strconv.Itoa(step)
		}
		room = "In room “" + l.s.Room + "”" + as + on + ": press Run, your requests share the room's limit."
		if step == 0 {
			caption, room = room, ""
		}
	}
	if l.watching || l.watched {
		// The lanes are the room's devices, not this configuration's run.
		caption = "The room “" + l.watchRoom + "” as its server saw it: a lane per device that sends, and everyone's requests in the histogram. Each device runs its own configuration."
		room = ""
	}
	text := app.P().ID(captionID).Class("caption").Aria("live", "polite").Text(caption)
	if room != "" {
		text = app.P().ID(captionID).Class("caption in-room").Aria("live", "polite").Body(
			app.Span().Class("step-text").Text(caption),
			app.Text(" "),
			app.Span().Class("room-line").Text(room),
		)
	}
	return app.Nav().Class("story").Aria("labelledby", "h-presets").Body(
		regionHeading("h-presets", "Presets: the story, step by step"),
		app.Ol().Class("steps").Body(app.Range(fleet.Presets).Slice(func(i int) app.UI {
			p := fleet.Presets[i]
			cls := "step"
			if p.ID == active {
				cls += " active"
			}
			return app.Li().Body(
				app.Button().ID("preset-"+p.ID).Class(cls).
					Aria("pressed", strconv.FormatBool(p.ID == active)).
					Title(p.Caption).
					Disabled(b.Running).
					Body(
						app.Span().Class("num").Text(strconv.Itoa(i+1)),
						app.Span().Class("title").Text(p.Title),
					).
					OnClick(func(ctx app.Context, e app.Event) { l.presetAndSay(ctx, p.ID) }),
			)
		}), app.If(l.CustomKept(), func() app.UI {
			return app.Li().Body(app.Button().ID("preset-back").Class("step back").
				Attr(browser.FocusNextAttr, "preset-"+fleet.Presets[len(fleet.Presets)-1].ID).
				Title("Back to the configuration you had before you picked a step (u)").
				Disabled(b.Running).
				Body(app.Span().Class("num").Text("u"), app.Span().Class("title").Body(icon("↶"), app.Text("Your configuration"))).
				OnClick(func(ctx app.Context, e app.Event) { l.RestoreCustom() }))
		})),
		text,
	)
}
