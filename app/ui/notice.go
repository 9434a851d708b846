package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
)

// Notice tells what the page's address asked for that could not be used:
// each line says what the page did instead (a field's default, the first of
// several values, an unknown parameter ignored).
type Notice struct {
	app.Compo

	Lab *Lab
	Rev int

	dismissed bool
}

// Render draws the notice, or nothing.
func (n *Notice) Render() app.UI {
	notes := n.Lab.notices
	if len(notes) == 0 || n.dismissed {
		return app.Div().Hidden(true)
	}
	return app.Div().ID("url-notice").Class("notice").Role("alert").Body(
		app.Div().Body(
			app.Strong().Text("This link had settings that could not be used as written; each line says what the page did instead:"),
			app.Ul().Body(app.Range(notes).Slice(func(i int) app.UI {
				n := notes[i]
				return app.Li().DataSet("key", mock.Cut(n.Key)).Body(
					// Cut as every refused value is: a value of 10,000 digits
					// filled two screens above Run, and an alert read it all
					// out (a robustness review).
					app.If(n.Key != "", func() app.UI { return app.Code().Text(mock.Cut(n.Key) + "=" + mock.Cut(n.Value)) }),
					app.If(n.Key != "", func() app.UI { return app.Text(" — ") }),
					app.Text(n.Msg),
				)
			})),
		),
		app.Button().ID("url-notice-dismiss").Class("ghost").Attr(browser.FocusNextAttr, "preset-"+fleet.Presets[0].ID).Aria("label", "Dismiss").Text("✕").OnClick(func(ctx app.Context, e app.Event) {
			n.dismissed = true
		}),
	)
}
