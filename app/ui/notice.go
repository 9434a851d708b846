package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Notice tells what the page's address asked for that could not be used:
// each malformed field fell back to its default, and says so.
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
			app.Strong().Text("This link had settings that could not be used; each one fell back to its default:"),
			app.Ul().Body(app.Range(notes).Slice(func(i int) app.UI {
				return app.Li().DataSet("key", notes[i].Key).Text(notes[i].Msg)
			})),
		),
		app.Button().Class("ghost").Aria("label", "Dismiss").Text("✕").OnClick(func(ctx app.Context, e app.Event) {
			n.dismissed = true
		}),
	)
}
