package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// RunBar holds Run, Stop and the (coming) Simulate button, what the run is
// doing, and the endpoint the workers call: a plain URL that also works
// with curl.
type RunBar struct {
	app.Compo

	Lab    *Lab
	Rev    int
	RunRev int
}

// Render draws the bar.
func (b *RunBar) Render() app.UI {
	l := b.Lab
	status := "Ready. Press Run (r) to fire real requests."
	switch {
	case l.stopping:
		status = "Stopping: aborting every request in flight…"
	case l.running:
		status = "Running: " + strconv.Itoa(l.stats.Requests) + " requests sent, " + strconv.Itoa(l.stats.Jobs) + " of " +
			strconv.Itoa(l.s.Workers*l.s.Jobs) + " jobs done"
	case l.Invalid() > 0:
		n := l.Invalid()
		status = "Fix " + strconv.Itoa(n) + " field"
		if n > 1 {
			status += "s"
		}
		status += " to run: the messages are beside the inputs."
	case l.rec != nil && l.stats.Cancelled > 0:
		status = "Stopped after " + fmtDur(l.stats.Drain) + "."
	case l.rec != nil:
		status = "Finished: " + strconv.Itoa(l.stats.Successes) + " of " + strconv.Itoa(l.stats.Jobs) + " jobs succeeded in " + fmtDur(l.stats.Drain) + "."
	}
	endpoint := l.EndpointURL()
	custom := l.s.Target != ""
	note := l.CORSNote()
	general := l.GeneralErrs()
	return app.Div().Class("runbar").Body(
		app.Div().Class("run-row").Body(
			app.Button().ID("run").Class("primary").
				Disabled(!l.CanRun()).
				Title("Run (r)").
				Body(app.Span().Class("icon").Text("▶"), app.Text(" Run")).
				OnClick(func(ctx app.Context, e app.Event) { l.Run(ctx) }),
			app.Button().ID("stop").Class("danger").
				Disabled(!l.running || l.stopping).
				Title("Stop (s or Esc): abort every request in flight").
				Body(app.Span().Class("icon").Text("■"), app.Text(" Stop")).
				OnClick(func(ctx app.Context, e app.Event) { l.Stop() }),
			app.Button().ID("simulate").Class("ghost").
				Disabled(true).
				Title("Simulate runs the same scenario in virtual time; it arrives with the simulator.").
				Text("Simulate (soon)"),
			app.P().ID("run-status").Class("status").Aria("live", "polite").Text(status),
			app.If(l.toast != "", func() app.UI { return app.Span().ID("toast").Class("toast").Role("status").Text(l.toast) }),
		),
		app.Range(general).Slice(func(i int) app.UI {
			return app.P().Class("err general").Role("alert").Text(general[i])
		}),
		app.Div().Class("endpoint").Body(
			app.Span().Class("endpoint-label").Text(map[bool]string{false: "Endpoint (works with curl):", true: "Custom target:"}[custom]),
			app.Code().ID("endpoint-url").Title("The workers call this URL (each on its own *.localhost origin); a Run uses a fresh key.").Text(endpoint),
			app.Button().ID("copy-endpoint").Class("ghost small").Text("Copy").
				OnClick(func(ctx app.Context, e app.Event) { l.copyText(ctx, endpoint, "Endpoint URL copied") }),
		),
		app.If(custom, func() app.UI {
			return app.Div().ID("cors-note").Class("cors").Body(
				app.P().Text("Your own URL is called with fetch() from this page, so the browser applies CORS: the server must send "+
					"Access-Control-Allow-Origin, and fetch() can read Retry-After and RateLimit headers only if it lists them in "+
					"Access-Control-Expose-Headers (e.g. Access-Control-Expose-Headers: Retry-After, RateLimit, RateLimit-Policy). "+
					"Without Timing-Allow-Origin the browser's queueing is not measured."),
				app.If(note != "", func() app.UI { return app.P().Class("warn").Role("alert").Text(note) }),
			)
		}),
	)
}

// copyText copies text to the clipboard and says so.
func (l *Lab) copyText(ctx app.Context, text, done string) {
	ctx.Async(func() {
		err := browser.CopyText(ctx, text)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				l.Flash(ctx, "Copy failed: "+err.Error())
				return
			}
			l.Flash(ctx, done)
		})
	})
}
