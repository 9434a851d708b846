package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Help lists the keyboard shortcuts and how to read the timeline.
type Help struct {
	app.Compo

	Lab  *Lab
	Open bool
}

var shortcuts = [][2]string{
	{"r", "Run"},
	{"s or Esc", "Stop: abort every request in flight"},
	{"1 – 5", "Load a step of the story"},
	{"p", "Presentation mode (large type, high contrast)"},
	{"?", "This help"},
	{"Tab to the timeline, then ← →", "Previous / next attempt of the worker"},
	{"↑ ↓", "Nearest attempt of the worker above / below"},
	{"Home / End", "First / last attempt of the worker"},
	{"Esc (on the timeline)", "Clear the selection"},
}

// Render draws the dialog when open.
func (h *Help) Render() app.UI {
	if !h.Open {
		return app.Div().Hidden(true)
	}
	l := h.Lab
	closeHelp := func(ctx app.Context, e app.Event) {
		l.help = false
		l.runRev++
	}
	return app.Div().Class("modal-back").OnClick(closeHelp).Body(
		app.Div().ID("help").Class("modal").Role("dialog").Aria("modal", "true").Aria("labelledby", "help-title").
			OnClick(func(ctx app.Context, e app.Event) { e.StopImmediatePropagation() }).
			Body(
				app.H2().ID("help-title").Text("Keyboard shortcuts"),
				app.Table().Body(app.TBody().Body(app.Range(shortcuts).Slice(func(i int) app.UI {
					return app.Tr().Body(app.Td().Body(app.Kbd().Text(shortcuts[i][0])), app.Td().Text(shortcuts[i][1]))
				}))),
				app.H2().Text("Reading the timeline"),
				app.P().Text("Each lane is one worker. A mark is an attempt, placed when it was sent and shaped and coloured by its outcome; "+
					"the thin bar after it is the request in flight, yellow where the browser itself held it. Bars between attempts are waits, "+
					"coloured by why: backoff, the server's Retry-After, a rate-limit reset hint, or a token from the fleet bucket. "+
					"Below, the histogram counts requests by send time with the server's limit dashed across it, and the server panel shows "+
					"each request where the server received it."),
				app.Button().ID("help-close").Class("primary").Text("Close").OnClick(closeHelp),
			),
	)
}
