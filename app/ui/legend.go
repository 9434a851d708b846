package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Legend explains every mark, bar and line of the timeline. It stays in
// view (sticky) while the timeline scrolls.
type Legend struct {
	app.Compo
}

type legendItem struct{ swatch, label, title string }

var legendOutcomes = []legendItem{
	{"sw mark ok", "2xx success", "circle"},
	{"sw mark limited", "429 / 503", "triangle"},
	{"sw mark failed", "other failure", "square"},
	{"sw mark timeout", "timeout", "diamond"},
	{"sw mark aborted", "aborted", "cross"},
	{"sw mark pending", "in flight", "bar"},
}

var legendPhases = []legendItem{
	{"sw bar flight", "request in flight", "like the network panel's waiting (TTFB)"},
	{"sw bar queued", "held by the browser", "requestStart − fetchStart: connection limits"},
	{"sw bar backoff", "backoff wait", "like the network panel's stalled"},
	{"sw bar server", "Retry-After wait", "the server said how long"},
	{"sw bar hint", "reset-hint wait", "RateLimit / X-RateLimit reset"},
	{"sw bar bucket", "fleet-bucket wait", "like the network panel's queueing"},
	{"sw giveup", "gave up", "the job stopped retrying"},
	{"sw hidden", "tab hidden", "timers throttled: not measured truth"},
	{"sw line limit", "server limit", "dashed, in the histogram"},
	{"sw line client", "fleet bucket rate", "dotted, in the histogram"},
}

// Render draws the legend.
func (g *Legend) Render() app.UI {
	item := func(it legendItem) app.UI {
		return app.Li().Title(it.title).Body(app.Span().Class(it.swatch).Aria("hidden", "true"), app.Text(it.label))
	}
	return app.Div().ID("legend").Class("legend").Aria("label", "Legend").Body(
		app.Ul().Class("legend-outcomes").Body(app.Range(legendOutcomes).Slice(func(i int) app.UI { return item(legendOutcomes[i]) })),
		app.Ul().Class("legend-phases").Body(app.Range(legendPhases).Slice(func(i int) app.UI { return item(legendPhases[i]) })),
	)
}
