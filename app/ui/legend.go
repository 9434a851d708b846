package ui

import (
	"html"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Legend explains every mark, bar and line of the timeline. It stays in
// view (sticky) while the timeline scrolls; on a phone it sits right above
// the timeline instead (web/app.css), as it would cover much of it.
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
	{"sw bar queued", "held by the browser", "until the request left: the call to fetch(), then connection limits (requestStart − fetchStart)"},
	{"sw bar backoff", "backoff wait", "like the network panel's stalled"},
	{"sw bar server", "Retry-After wait", "the server said how long"},
	{"sw bar hint", "reset-hint wait", "RateLimit / X-RateLimit reset"},
	{"sw bar bucket", "fleet-bucket wait", "like the network panel's queueing"},
	{"sw giveup", "gave up", "the job stopped retrying"},
	{"sw hidden", "tab hidden", "timers throttled: not measured truth"},
	{"sw outage", "server down", "the Outage button: every request answered 503"},
	{"sw squeeze", "limit halved", "the Halve limit button: the limit line steps down"},
	{"sw mark other", "another client", "grey in the server panel: a shared room's others, or the Burst button's requests"},
	{"sw line limit", "server limit", "dashed, in the histogram"},
	{"sw line client", "fleet bucket rate", "dotted, in the histogram"},
}

// Render draws the legend: static HTML, one element for go-app to mount.
func (g *Legend) Render() app.UI { return app.Raw(legendHTML()) }

var legendHTML = sync.OnceValue(func() string {
	var b strings.Builder
	list := func(class string, items []legendItem) {
		b.WriteString(`<ul class="` + class + `">`)
		for _, it := range items {
			b.WriteString(`<li title="` + html.EscapeString(it.title) + `"><span class="` + it.swatch + `" aria-hidden="true"></span>` +
				html.EscapeString(it.label) + `</li>`)
		}
		b.WriteString(`</ul>`)
	}
	b.WriteString(`<div id="legend" class="legend" aria-label="Legend">`)
	list("legend-outcomes", legendOutcomes)
	list("legend-phases", legendPhases)
	b.WriteString(`</div>`)
	return b.String()
})
