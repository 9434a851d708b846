package ui

import (
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/fleet"
	"retrylab/core"
)

// Legend explains every mark, bar and line of the timeline. It stays in
// view (sticky) while the timeline scrolls; on a phone it sits right above
// the timeline instead (web/app.css), as it would cover much of it.
//
// It lists what the timeline of what is shown can draw (legendItem.listed).
// A watch of a room draws the server's arrivals only, by its answer: its
// legend leaves out what only a fleet of this page draws (waits, bars in
// flight, aborts, give-ups). A simulation runs in virtual time, with no
// browser and no server: what only they make (time held by the browser,
// lateness of the page's thread, a hidden tab, a halved limit, another
// client's requests) is left out of its PNG's legend, and struck through in the
// page's, where it keeps its place.
type Legend struct {
	app.Compo

	Shows kindShown
}

// kindShown is what the timeline shows: a run of this page's fleet, a
// simulation of one, or a watch of a room.
type kindShown uint8

const (
	showsRun kindShown = iota
	showsSim
	showsWatch
	numShown
)

// drawnIn is a set of kindShown: where a legend item can be drawn.
type drawnIn uint8

const (
	inRun   drawnIn = 1 << showsRun
	inSim   drawnIn = 1 << showsSim
	inWatch drawnIn = 1 << showsWatch
	inAll           = inRun | inSim | inWatch
	inFleet         = inRun | inSim   // this page's own fleet: never in a watch
	inLive          = inRun | inWatch // in a browser, against the server: never in a simulation
)

type legendItem struct {
	swatch, label, title string
	in                   drawnIn // what the timeline can draw it in
	sample               sample  // how the PNG's legend draws it (paintSample)
}

// listed reports whether the legend of what is shown, k, lists it: the
// page's (legendHTML) and a PNG's (pngLegend, which also leaves out what
// did not happen in the run drawn) alike.
func (it legendItem) listed(k kindShown) bool { return it.in&(1<<k) != 0 }

// sample is how the timeline draws a legend item, for the legend painted
// into a PNG (paintSample): the same shapes and colours as the timeline's
// own painters, where the page's legend uses CSS (web/app.css, .sw).
type sample struct {
	kind   sampleKind
	class  fleet.Class // sampleMark: the attempt's outcome
	reason core.Reason // sampleWait: why the loop waited
}

type sampleKind uint8

const (
	sampleMark    sampleKind = iota // an attempt's mark, by outcome (paintMarks)
	sampleFlight                    // a request in flight (paintFlights)
	sampleQueued                    // held by the browser (paintFlights)
	sampleWait                      // a wait, by reason (paintWaits)
	sampleGiveUp                    // a job that gave up (paintGiveUps)
	sampleLate                      // late because the page was busy: outlined (pathLate)
	sampleHidden                    // the tab was hidden: hatched (paintHidden)
	sampleOutage                    // the server was down (paintOutages)
	sampleSqueeze                   // the server's limit was scaled down (paintSqueezes)
	sampleOther                     // another client's arrival (paintServer)
	sampleLimit                     // the server's limit line (paintHistogramAxis)
	sampleClient                    // the fleet bucket's rate line (paintHistogramAxis)
	sampleNow                       // the time a run or a replay has reached (paintNow)
)

// legendOutcomes: each outcome's mark, then its part of a histogram bar
// (classPattern): the legend's "sw seg" swatch after the mark's.
var legendOutcomes = []legendItem{
	{"sw mark ok", "2xx success", "circle; solid in the histogram", inAll, sample{kind: sampleMark, class: fleet.ClassOK}},
	{"sw mark limited", "429 / 503", "triangle; hatched / in the histogram", inAll, sample{kind: sampleMark, class: fleet.ClassLimited}},
	{"sw mark failed", "other failure", "square; hatched \\ in the histogram", inAll, sample{kind: sampleMark, class: fleet.ClassFailed}},
	{"sw mark timeout", "timeout", "diamond; dotted in the histogram", inAll, sample{kind: sampleMark, class: fleet.ClassTimeout}},
	{"sw mark aborted", "aborted", "cross; cross-hatched in the histogram", inFleet, sample{kind: sampleMark, class: fleet.ClassAborted}},
	{"sw mark pending", "in flight", "bar; solid in the histogram", inFleet, sample{kind: sampleMark, class: fleet.ClassPending}},
}

var legendPhases = []legendItem{
	{"sw bar flight", "request in flight", "like the network panel's waiting (TTFB)", inFleet, sample{kind: sampleFlight}},
	{"sw bar queued", "held by the browser", "until the request left: the call to fetch(), then connection limits (requestStart − fetchStart)", inRun, sample{kind: sampleQueued}},
	{"sw bar backoff", "backoff wait", "like the network panel's stalled", inFleet, sample{kind: sampleWait, reason: core.ReasonBackoff}},
	{"sw bar server", "Retry-After wait", "the server said how long", inFleet, sample{kind: sampleWait, reason: core.ReasonRetryAfter}},
	{"sw bar hint", "reset-hint wait", "RateLimit / X-RateLimit reset", inFleet, sample{kind: sampleWait, reason: core.ReasonResetHint}},
	{"sw bar bucket", "fleet-bucket wait", "like the network panel's queueing", inFleet, sample{kind: sampleWait, reason: core.ReasonBucket}},
	{"sw giveup", "gave up", "the job stopped retrying", inFleet, sample{kind: sampleGiveUp}},
	{"sw bar late", "late", "outlined: the page's thread was busy: a wait past its planned end, or an answer taken in after it came", inRun, sample{kind: sampleLate}},
	{"sw hidden", "tab hidden", "timers throttled: not measured truth", inLive, sample{kind: sampleHidden}},
	{"sw outage", "server down", "the Outage button, or the Server outage setting: every request answered 503", inAll, sample{kind: sampleOutage}},
	{"sw squeeze", "limit halved", "the Halve limit button: the limit line steps down", inLive, sample{kind: sampleSqueeze}},
	{"sw mark other", "another client", "grey in the server panel: a shared room's others, or the Burst button's requests", inLive, sample{kind: sampleOther}},
	{"sw line limit", "server limit", "dashed, in the histogram", inAll, sample{kind: sampleLimit}},
	{"sw line client", "fleet bucket rate", "dotted, in the histogram", inFleet, sample{kind: sampleClient}},
	// Always listed, as the other marks of what happens only at times:
	// the legend keeps its height as a run starts and ends.
	{"sw line now", "now", "dashed, down the timeline: the time a live run, a watch or a replay has reached", inAll, sample{kind: sampleNow}},
}

// Render draws the legend: its two lists static HTML, in one element
// that stays the same whatever is shown. Only the lists are made again
// when another kind of run is shown: the sticky axis under the legend
// (browser.StickBelow) and the timeline's fitting to it
// (browser.WatchResize) keep following the element they found (a legend
// made again whole left them with one out of the page: the axis stuck
// at the viewport's top, under the legend).
func (g *Legend) Render() app.UI {
	lists := legendHTML()[min(g.Shows, numShown-1)]
	return app.Div().ID(legendID).Class("legend").Aria("label", "Legend").Body(app.Raw(lists[0]), app.Raw(lists[1]))
}

// legendID is the legend's element id.
const legendID = "legend"

// legendHTML is the legend's two lists' HTML for what is shown, by
// kindShown: the outcomes', then the phases'.
var legendHTML = sync.OnceValue(func() [numShown][2]string {
	var out [numShown][2]string
	for i := range out {
		list := func(class string, items []legendItem) string {
			var b strings.Builder
			b.WriteString(`<ul class="` + class + `">`)
			for _, it := range items {
				li := `<li title="` + escapeHTML(it.title) + `">`
				switch {
				case it.listed(kindShown(i)):
				case kindShown(i) == showsSim && it.listed(showsRun):
					// Kept in its place, struck through and not read out: the legend
					// keeps its height from a run to a simulation and back,
					// and the timeline under it stays put (one row fewer
					// moved it 26 px up at Simulate in presentation mode,
					// under the presenter's pointer).
					li = `<li class="absent" aria-hidden="true" title="Not in a simulation: virtual time has no browser, no page thread and no other client.">`
				default:
					continue
				}
				b.WriteString(li + `<span class="` + it.swatch + `" aria-hidden="true"></span>`)
				if it.sample.kind == sampleMark {
					b.WriteString(`<span class="sw seg ` + strings.TrimPrefix(it.swatch, "sw mark ") + `" aria-hidden="true"></span>`)
				}
				b.WriteString(escapeHTML(it.label) + `</li>`)
			}
			b.WriteString(`</ul>`)
			return b.String()
		}
		out[i] = [2]string{list("legend-outcomes", legendOutcomes), list("legend-phases", legendPhases)}
	}
	return out
})
