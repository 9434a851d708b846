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
//
// A watch of a room draws the server's arrivals only, by its answer: its
// legend leaves out what only a fleet of this page draws (waits, bars in
// flight, aborts, give-ups).
type Legend struct {
	app.Compo

	Watch bool
}

type legendItem struct {
	swatch, label, title string
	fleetOnly            bool // drawn for this page's own fleet, never in a watch
}

var legendOutcomes = []legendItem{
	{"sw mark ok", "2xx success", "circle", false},
	{"sw mark limited", "429 / 503", "triangle", false},
	{"sw mark failed", "other failure", "square", false},
	{"sw mark timeout", "timeout", "diamond", false},
	{"sw mark aborted", "aborted", "cross", true},
	{"sw mark pending", "in flight", "bar", true},
}

var legendPhases = []legendItem{
	{"sw bar flight", "request in flight", "like the network panel's waiting (TTFB)", true},
	{"sw bar queued", "held by the browser", "until the request left: the call to fetch(), then connection limits (requestStart − fetchStart)", true},
	{"sw bar backoff", "backoff wait", "like the network panel's stalled", true},
	{"sw bar server", "Retry-After wait", "the server said how long", true},
	{"sw bar hint", "reset-hint wait", "RateLimit / X-RateLimit reset", true},
	{"sw bar bucket", "fleet-bucket wait", "like the network panel's queueing", true},
	{"sw giveup", "gave up", "the job stopped retrying", true},
	{"sw bar late", "late: page busy", "outlined: a wait past its planned end, or an answer the page took in after it came: the page's thread was busy", true},
	{"sw hidden", "tab hidden", "timers throttled: not measured truth", false},
	{"sw outage", "server down", "the Outage button: every request answered 503", false},
	{"sw squeeze", "limit halved", "the Halve limit button: the limit line steps down", false},
	{"sw mark other", "another client", "grey in the server panel: a shared room's others, or the Burst button's requests", false},
	{"sw line limit", "server limit", "dashed, in the histogram", false},
	{"sw line client", "fleet bucket rate", "dotted, in the histogram", true},
}

// Render draws the legend: static HTML, one element for go-app to mount.
func (g *Legend) Render() app.UI {
	if g.Watch {
		return app.Raw(legendHTML()[1])
	}
	return app.Raw(legendHTML()[0])
}

// legendID is the legend's element id.
const legendID = "legend"

// legendHTML is the legend's HTML: [0] for a run or a simulation, [1] for
// a watch.
var legendHTML = sync.OnceValue(func() [2]string {
	var out [2]string
	for i, watch := range []bool{false, true} {
		var b strings.Builder
		list := func(class string, items []legendItem) {
			b.WriteString(`<ul class="` + class + `">`)
			for _, it := range items {
				if watch && it.fleetOnly {
					continue
				}
				b.WriteString(`<li title="` + html.EscapeString(it.title) + `"><span class="` + it.swatch + `" aria-hidden="true"></span>` +
					html.EscapeString(it.label) + `</li>`)
			}
			b.WriteString(`</ul>`)
		}
		b.WriteString(`<div id="` + legendID + `" class="legend" aria-label="Legend">`)
		list("legend-outcomes", legendOutcomes)
		list("legend-phases", legendPhases)
		b.WriteString(`</div>`)
		out[i] = b.String()
	}
	return out
})
