package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/app/mock"
	"retrylab/core"
)

// RunBar holds Run, Stop, Simulate and (with a shared room) Watch room,
// what the run is doing, and the endpoint the workers call: a plain URL
// that also works with curl.
type RunBar struct {
	app.Compo

	Lab    *Lab
	Rev    int
	RunRev int
}

// toastSaidID is the live region that says the short message (toastID)
// to a screen reader.
const toastSaidID = "toast-said"

// watchSince says from when the watch's counts are: "so far", or, for a
// watch a reload started again, "since the page reloaded": the server
// keeps no history, and a projector reloaded mid-workshop showed counts
// restarted with nothing lasting to say so (a presenter's review).
func (l *Lab) watchSince() string {
	if l.watchAgain {
		return "since the page reloaded"
	}
	return "so far"
}

// stopTitle is the Stop button's title: what it stops.
func stopTitle(simulating, drawing bool) string {
	switch {
	case drawing:
		return "Stop (s or Esc): leave the simulation undrawn, and show nothing of it"
	case simulating:
		return "Stop (s or Esc): end the simulation where it is, and show what it computed"
	}
	return "Stop (s or Esc): abort every request in flight"
}

// Render draws the bar.
func (b *RunBar) Render() app.UI {
	l := b.Lab
	status := "Ready. Press Run (r) to fire real requests, or Simulate (m) to compute the run in virtual time."
	live := l.s.LiveErrors()
	simErr := l.s.SimErrors()
	if simErr != nil {
		status = "Ready. Press Run (r) to fire real requests at the target."
	}
	if l.s.Room != "" && l.s.Target == "" {
		status = "Ready. Press Run (r) to fire real requests, Simulate (m) to compute the run in virtual time, or Watch room (w) to see everyone in room “" + l.s.Room + "”" + l.asDevice() + "."
	}
	if l.s.Target == "" && l.linkNotes["target"] != "" {
		// Another field fallen back changes a number of the run; this one
		// what it calls (a review pressed r to test their API, and ran
		// the mock).
		status = "Ready, with the built-in mock: the link's custom target could not be used (see Custom target). " + strings.TrimPrefix(status, "Ready. ")
	}
	counts := "" // after status, changing as the run goes on: not announced
	switch {
	case l.simDropping():
		status = "Stopping: the simulation is left undrawn…"
	case l.simDrawing:
		status = "Drawing the simulation's " + thousands(l.simSoFar.Attempts) + " attempts…"
		// Said once, in the status itself: in the counts after it, its
		// text moved with the status's length, a shift of the page
		// (TestRunBarStaysPut).
		if !l.stopping { // else Stop came as it was computed: what it computed is drawn
			status += " Stop (s) leaves it undrawn."
		}
	case l.simulating && l.stopping:
		status = "Stopping the simulation…"
	case l.simulating:
		of := " workers × " // jobs each
		if l.s.JobsTotal {
			of = " workers sharing "
		}
		status = "Simulating " + thousands(l.s.Workers) + of + thousands(l.s.Jobs) + " jobs in virtual time"
		counts = "…"
		if p := l.simSoFar; p.Attempts > 0 {
			counts = ": " + thousands(p.Attempts) + " attempts so far"
			if p.Elapsed > 0 {
				counts += ", " + human.Measured(p.Elapsed) + " into the run"
			}
			counts += ". Stop (s) ends it there."
		}
	case l.stopping && l.watching:
		status = "Stopping the watch…"
	case l.stopping:
		status = "Stopping: aborting every request in flight…"
	case l.watching && l.wstats.Refused != 0:
		answer := strings.TrimSpace(strconv.Itoa(l.wstats.Refused) + " " + statusText(l.wstats.Refused))
		if l.wstats.Refused == 200 {
			answer += ", not an event stream"
		}
		status = "Watching room “" + l.watchRoom + "”: the server refused the room's stream (" + answer + "), so requests are not seen; the page does not ask again. A proxy between the page and Retry Lab may not pass /mock/events. Stop (s) ends the watch."
	case l.watching && !l.watchOpen && l.wstats.For > 3*time.Second:
		status = "Watching room “" + l.watchRoom + "”: the server's stream of the room did not open (it has too many streams open, or cannot be reached); the page tries again, waiting longer each time. Stop (s) ends the watch."
	case l.watching && !l.watchOpen:
		status = "Watching room “" + l.watchRoom + "”: connecting to the server's stream of the room…"
	case l.watching && l.wstats.Lost:
		status = "Watching room “" + l.watchRoom + "”: the connection to the server is lost, reconnecting; requests meanwhile are not seen."
		counts = " " + thousands(l.wstats.Arrivals) + " seen so far. Stop (s) ends the watch."
	case l.watching:
		status = "Watching room “" + l.watchRoom + "”"
		counts = ": " + thousands(l.wstats.Arrivals) + " requests from everyone " + l.watchSince() + " (" +
			thousands(l.wstats.OK) + " allowed, " + thousands(l.wstats.Limited) + " rejected)" + droppedText(l.wstats.Dropped) + lostText(l.wstats.LostFor) + ". Stop (s) ends the watch."
	case l.replaying:
		status = "Replaying"
		counts = strings.TrimPrefix(l.view.replayText(), "Replaying") + ": " + thousands(l.stats.Requests) + " requests sent by then. Stop replay (y, s or Esc) shows the whole run again."
	case l.running:
		status = "Running"
		counts = ": " + strconv.Itoa(l.stats.Requests) + " requests sent, " + strconv.Itoa(l.stats.Jobs) + " of " +
			strconv.Itoa(jobsOf(l.s)) + " jobs done"
		if l.s.Room != "" && l.s.Target == "" {
			counts += " — in room “" + l.s.Room + "”" + l.asDevice()
		}
	case l.Invalid() > 0:
		status = "Fix " + fieldCount(l.Invalid()) + " to run: the messages are beside the inputs."
	case l.rec != nil && l.rec.Simulated && l.rec.Err != nil:
		status = "Simulation failed: " + l.rec.Err.Error()
	case l.rec != nil && l.rec.Simulated:
		// Told once, here: what a simulation is, how long it took, the
		// result and where it stopped. (A banner between the legend and
		// the timeline said it again, and pushed the timeline off a
		// projector's first screen.)
		status = "Simulated in virtual time (computed in " + l.simTook() + "; nothing went over the network): " + succeededOf(l.stats.Successes, jobsOf(l.rec.Scenario)) + " in " + human.Measured(l.stats.Drain)
		if l.simSum.Stopped || l.simSum.Interrupted {
			status += "; " + l.simStopped()
		}
		if n := l.stats.Causes["horizon"]; n > 0 {
			// Their next wait (a Retry-After of 292 years) would end past
			// virtual time's end: "1 of 5 jobs succeeded in 50 ms" read as
			// a run that was over, where a live run still waits.
			status += "; " + thousands(n) + " gave up because their next wait would end past the end of virtual time (a live run would still be waiting)"
		}
		status += "." + l.outageNotReached() + l.unreadNote()
	case l.watched && l.watchFull:
		status = "The watch of room “" + l.watchRoom + "” stopped at " + thousands(WatchMaxArrivals) + " requests, the most the page keeps."
	case l.watched:
		status = "Watched room “" + l.watchRoom + "” for " + human.Measured(l.wstats.For) + ": " + thousands(l.wstats.Arrivals) + " requests from everyone" + droppedText(l.wstats.Dropped) + "."
		if l.watchAgain {
			status = strings.TrimSuffix(status, ".") + " " + l.watchSince() + "."
		}
	case live != nil:
		status = cannotRun(&l.s, live, simErr)
	case l.rec == nil && l.s.Target == "" && l.subdomains.down():
		// Said in the status, not only flashed: after an offline
		// reload the page read "Ready" and a Run spent a minute failing
		// (a review). Asked again until the server is back.
		status = l.serverDownMsg()
	case l.rec != nil && l.runEnd() == endLiveCapped:
		status = "Stopped at " + thousands(liveMaxRequests) + " requests, the most a live run sends (the tab keeps every one), after " + human.Measured(l.stats.Drain) +
			": " + succeededOf(l.stats.Successes, jobsOf(l.rec.Scenario)) + "." + l.outageFailed() + l.unreadNote()
	case l.rec != nil && l.runEnd() == endStopped:
		status = "Stopped after " + human.Measured(l.stats.Drain) + "." + l.outageFailed() + l.unreadNote()
	case l.rec != nil:
		status = "Finished: " + succeededOf(l.stats.Successes, l.stats.Jobs) + " in " + human.Measured(l.stats.Drain) + "." + l.outageFailed() + l.outageNotReached() + l.noAnswerNote() + l.unreadNote() + l.heldNote() + l.lateNote()
	}
	changed := ""
	if d := l.changedSinceShown(); d != "" {
		changed = " Changed since: " + d + l.toSeeThem()
	}
	ep := l.endpointLine()
	custom := l.customTarget()
	note := l.CORSNote()
	general := l.GeneralErrs()
	return app.Div().Class("runbar").Body(
		app.Div().Class("run-row").Body(
			app.Button().ID("run").Class("primary").
				Disabled(!l.CanRun()).
				Attr(browser.FocusNextAttr, "stop").
				Title(l.buttonTitle("Run (r)", live, "fire real requests at the endpoint")).
				Body(icon("▶"), app.Text("Run")).
				OnClick(func(ctx app.Context, e app.Event) { l.Run(ctx) }),
			app.Button().ID("stop").Class("danger").
				Disabled(!l.running || l.stopping).
				Attr(browser.FocusNextAttr, "run watch").
				Title(stopTitle(l.simulating, l.simDrawing)).
				Body(icon("■"), app.Text("Stop")).
				OnClick(func(ctx app.Context, e app.Event) { l.Stop() }),
			app.Button().ID("simulate").Class("ghost").
				Disabled(!l.CanSimulate()).
				Title(l.buttonTitle("Simulate (m)", simErr, "compute the same configuration in virtual time against a model of the built-in mock, at once, "+
					"for up to "+thousands(fleet.SimWorkersRange.Max)+" workers (no requests are sent)")).
				Body(steadyLabel(l.simulating, "»", "Simulate", "Simulating…")).
				OnClick(func(ctx app.Context, e app.Event) { l.Simulate(ctx) }),
			app.If(l.s.Room != "" && l.s.Target == "", func() app.UI {
				return app.Button().ID("watch").Class("ghost").
					Disabled(!l.CanWatch()).
					Attr(browser.FocusNextAttr, "stop").
					Title("Watch room (w): everyone's requests to the shared room as the server sees them, with no fleet of your own: the projector's view of a workshop").
					Body(steadyLabel(l.watching, "◉", "Watch room", "Watching…")).
					OnClick(func(ctx app.Context, e app.Event) { l.Watch(ctx) })
			}),
			app.Button().ID("outage").Class("ghost").Attr(browser.FocusNextAttr, "run").
				Disabled(!l.CanOutage()).
				Title(l.faultTitle("Outage (o): take the server down for "+human.Duration(OutageLength)+" — every request of this run (or of the watched room) is answered 503 — and watch what the fleet does when it comes back")).
				Body(icon("⚡"), app.Text("Outage "+human.Duration(OutageLength))).
				OnClick(func(ctx app.Context, e app.Event) { l.Outage(ctx) }),
			app.Button().ID("halve-limit").Class("ghost").Attr(browser.FocusNextAttr, "run").
				Disabled(!l.CanOutage()).
				Title(l.faultTitle(halveTitle(&l.s))).
				Body(icon("½"), app.Text("Halve limit "+human.Duration(LimitLength))).
				OnClick(func(ctx app.Context, e app.Event) { l.HalveLimit(ctx) }),
			app.Button().ID("burst").Class("ghost").Attr(browser.FocusNextAttr, "run").
				Disabled(!l.CanOutage()).
				Title(l.faultTitle(burstTitle(&l.s))).
				Body(icon("⇶"), app.Text("Burst ×"+strconv.Itoa(BurstSize(&l.s)))).
				OnClick(func(ctx app.Context, e app.Event) { l.Burst(ctx) }),
			app.Button().ID("compare-keep").Class("ghost").Attr(browser.FocusNextAttr, "run").
				Disabled(!l.CanCompare() && !l.showingBaseline()).
				Aria("pressed", strconv.FormatBool(l.showingBaseline())).
				Title("Compare (c): keep the finished run as the baseline; the next runs show its numbers beside theirs and its requests per second as an outline on the histogram. Pressed on the baseline itself, it clears it.").
				Body(steadyLabel(l.showingBaseline(), "⇆", "Keep as baseline", "Baseline kept")).
				OnClick(func(ctx app.Context, e app.Event) { l.compareAndSay(ctx) }),
			app.If(simErr != nil, func() app.UI {
				return app.Span().ID("simulate-note").Class("help").Text("Simulate: only the built-in mock can be simulated, not a custom target.")
			}),
			// While a run, a watch or a replay goes on the status counts
			// its requests, four times a second: read out as a live
			// region, each count was queued behind the last for as long as
			// the run went on. The counts (also in the numbers) are hidden
			// from a screen reader: it is told once what goes on, then
			// how it ended.
			//
			// What changed since the run is read with the status, and not
			// said as it changes: it changes with each key typed in a
			// field, and each was read out (an accessibility review).
			app.P().ID("run-status").Class("status").TabIndex(-1).Aria("live", "polite").Body(
				app.Text(unitsTogether(status)),
				app.If(counts != "", func() app.UI { return app.Span().Aria("hidden", "true").Text(counts) }),
				app.If(changed != "", func() app.UI { return app.Span().Class("changed").Aria("live", "off").Text(changed) }),
			),
			// The short message is said by a live region that is always on
			// the page, empty but while a message shows: a screen reader
			// (NVDA with Chromium) seldom says a live region that arrives
			// holding its text already, as the message did, inserted with
			// it. The message seen is hidden from a screen reader, which
			// would meet its words twice.
			app.Span().ID(toastSaidID).Class("sr-only").Role("status").Text(l.toast),
			app.If(l.toast != "", func() app.UI {
				toast := app.Span().ID(toastID).Class(strings.TrimSpace("toast "+l.toastAt+map[bool]string{false: " placing"}[l.toastSet])).Aria("hidden", "true")
				if l.toastTop >= 0 {
					toast = toast.Style("top", strconv.FormatFloat(l.toastTop, 'f', 1, 64)+"px").Style("bottom", "auto")
				}
				return toast.Text(l.toast)
			}),
		),
		app.Range(general).Slice(func(i int) app.UI {
			return app.P().Class("err general").Role("alert").Text(general[i])
		}),
		app.Div().Class("endpoint").Body(
			app.Span().Class("endpoint-label").Text(ep.label),
			app.If(ep.blocked == "", func() app.UI {
				// Focusable: a long URL scrolls sideways, and a keyboard must reach it too.
				// A read-only text box to a screen reader, so that its name does
				// not replace the URL it reads out on focus (a name on a plain
				// code element did; an accessibility review).
				return app.Code().ID("endpoint-url").TabIndex(0).Role("textbox").Aria("readonly", "true").Aria("label", ep.name).
					Title(ep.title).Text(ep.text)
			}).Else(func() app.UI {
				return app.Span().ID("endpoint-url").Class("endpoint-invalid").Text(ep.text)
			}),
			app.Button().ID("copy-endpoint").Class("ghost small").Text("Copy").Aria("label", "Copy "+ep.name).
				Disabled(ep.blocked != "").
				Title(map[bool]string{false: "Copy it to the clipboard", true: "Copy: " + ep.blocked}[ep.blocked != ""]).
				// The line as it is at the click, not ep: see copyText.
				OnClick(func(ctx app.Context, e app.Event) {
					ep := l.endpointLine()
					if ep.blocked != "" {
						l.Flash(ctx, "Copy: "+ep.blocked)
						return
					}
					l.copyText(ctx, ep.text, ep.name+" copied")
				}),
			app.If(l.watched && l.join.Hidden, func() app.UI {
				return app.Button().ID("join-show").Class("ghost small").Title("Show the join panel again: its link and QR code, for latecomers").
					Text("Show join panel").OnClick(func(ctx app.Context, e app.Event) { l.setJoinHidden(false) })
			}),
		),
		app.If(custom, func() app.UI {
			// What always holds, folded under one line: open, its six lines
			// stood over the run's own note, which said the header list
			// again (a review).
			return app.Div().ID("cors-note").Class("cors").Body(
				app.Details().Body(app.Summary().Text("What your server must send: CORS headers, and why six connections at a time"), app.P().Text("Your own URL is called with fetch() from this page, so the browser applies CORS: the server must send "+
					"Access-Control-Allow-Origin, and fetch() can read Retry-After and RateLimit headers only if it lists them in "+
					"Access-Control-Expose-Headers, each by name (e.g. Access-Control-Expose-Headers: Retry-After, RateLimit, RateLimit-Policy; the rate-limit headers the page reads are "+
					fleet.RateLimitHeaderNames+"). "+
					"Over HTTP/1.1 the browser opens at most six connections to your server, so more workers than that wait in the browser: "+
					"without Timing-Allow-Origin that queueing is not measured and reads as time in flight; with it, it is drawn as held by the browser "+
					"(the browser's timings are matched by URL: two attempts sent at the same moment may swap theirs).")),
				app.If(note != "", func() app.UI { return app.P().Class("warn").Role("alert").Text(note) }),
			)
		}),
	)
}

// buttonTitle is Run's or Simulate's title (a screen reader's description
// of the button), as "Run (r): …": why it cannot start, values to fix
// first before what rules the configuration out (errs, which Render has
// already), else what it does. It gave the last valid configuration's
// reason, "live runs take at most 500 workers", while Workers read "abc"
// (an accessibility review).
func (l *Lab) buttonTitle(what string, errs []fleet.FieldError, does string) string {
	if why := l.blocked(what, errs); why != "" {
		return why
	}
	return what + ": " + does
}

// noAnswerNote says, after a live run at the built-in mock that got not
// one answer (every attempt a network error), that the server may be
// down: a review ran the page from the service worker's cache, the server
// stopped, and read "Finished: 0 of 100 jobs succeeded in 1 min 1 s" with
// the reason only in a mark's tooltip. "" otherwise.
func (l *Lab) noAnswerNote() string {
	if l.rec == nil || l.rec.Simulated || l.rec.Scenario.Target != "" {
		return ""
	}
	if l.noAnswer.of != l.rec {
		l.noAnswer.of, l.noAnswer.none = l.rec, noAnswer(l.rec)
	}
	if !l.noAnswer.none {
		return ""
	}
	return " No request got an answer (network errors): is the server at " + l.pageURL().Host + " running? Simulate works without it."
}

// unreadRetryAfter is what a run's waits fell back to for a Retry-After
// the loop could not read ("1.5", "soon", an empty value): the backoff,
// or (with reset hints honoured) the rate-limit headers' reset.
type unreadRetryAfter struct {
	backoff, resetHint int
	example            string // the first: the value and why, `"1.5": fractional seconds not allowed`
}

// countUnread counts the waits of recs that fell back for a Retry-After
// the loop could not read, from the loop's own events: a wait of reason
// backoff or reset hint that carries the value's *core.RetryAfterError.
func countUnread(recs []fleet.Record) unreadRetryAfter {
	var u unreadRetryAfter
	for i := range recs {
		e := &recs[i].Event
		ra, ok := e.Err.(*core.RetryAfterError)
		if e.Kind != core.EventWait || !ok {
			continue
		}
		switch e.Reason {
		case core.ReasonBackoff:
			u.backoff++
		case core.ReasonResetHint:
			u.resetHint++
		default:
			continue
		}
		if u.example == "" {
			u.example = unreadExample(ra)
		}
	}
	return u
}

// unreadMax is the longest value an example quotes whole: a custom
// target's garbage may be long.
const unreadMax = 40

// unreadExample is the value and why, `"1.5": fractional seconds not
// allowed`, the value cut to unreadMax bytes.
func unreadExample(ra *core.RetryAfterError) string {
	v := ra.Value
	if len(v) > unreadMax {
		v = mock.CutTo(v, unreadMax)
	}
	return strconv.Quote(v) + ": " + ra.Problem
}

// unreadNote says, after a run whose server sent Retry-After values the
// loop could not read, how many waits fell back to the backoff (or the
// reset hint) for it, with one such value: the exports' notes said so of
// each wait, and the run's status of none, so a server's broken header
// read as a client that ignored it. "" otherwise.
func (l *Lab) unreadNote() string {
	if l.rec == nil {
		return ""
	}
	if l.unread.of != l.rec {
		l.unread.of, l.unread.n = l.rec, countUnread(l.rec.Shared())
	}
	u := l.unread.n
	n := u.backoff + u.resetHint
	if n == 0 {
		return ""
	}
	waits := thousands(n) + " waits fell back"
	if n == 1 {
		waits = "1 wait fell back"
	}
	switch {
	case u.resetHint == 0:
		waits += " to backoff"
	case u.backoff == 0:
		waits += " to the reset hint"
	default:
		waits += ", " + thousands(u.backoff) + " to backoff and " + thousands(u.resetHint) + " to the reset hint,"
	}
	// "; one was …", not "(e.g. …)": core's reasons carry parentheses of
	// their own, "(want delay-seconds or an HTTP-date)" (a review).
	return " " + waits + " because the server's Retry-After could not be read; one was " + u.example + "."
}

// heldPast is the browser queue p99 past which a finished live run's
// status says the browser held its requests: on the *.localhost origins a
// burst of 50 waits 15–45 ms at p99 (tests/README.md).
const heldPast = 100 * time.Millisecond

// heldNote says, after a live run whose requests waited in this browser
// (browser queue p99 past heldPast), why: a phone that joined a room by
// the network link ran 50 workers on one origin, queue p99 305–406 ms, the
// "held by the browser" bars filling the run's opening, and the note that
// says why (oneOriginNote, beside Workers) lay 2,000 px below Run (a
// review on a slow phone). The six connections are the reason only where
// more workers than they serve shared one origin: a run spread over the
// *.localhost origins, six workers each, that waited 347 ms on a busy
// machine was told it too (a review).
func (l *Lab) heldNote() string {
	if l.rec == nil || l.rec.Simulated || l.stats.QueuedP99 <= heldPast {
		return ""
	}
	held := " Requests waited in this browser up to " + human.Measured(l.stats.QueuedP99) + " (p99) before it sent them"
	if s := &l.rec.Scenario; l.tr.oneOrigin() && (s.Open || s.Workers > oneOriginFree) {
		return held + ": over HTTP/1.1 a browser sends at most six at once to one server (drawn “held by the browser”)."
	}
	return held + ", though no server had more than six at once: the browser, on a busy machine, was slow to send them (drawn “held by the browser”)."
}

// latePast is the send lateness p99 past which a finished live run's
// status says the page sent late: a run here is 28–116 ms late at p99
// (tests/README.md); past a quarter second the page stalled.
const latePast = 250 * time.Millisecond

// lateNote says, after a live run whose sends left late (lateness p99
// past latePast), that the page, not the configuration, bunched them: a
// run on a loaded machine had its timers fire 3 s late, the 47 sends due
// meanwhile left in 70 ms, past a fleet bucket of 20/s, and only the
// hatching and the lateness card told it (a review).
func (l *Lab) lateNote() string {
	if l.rec == nil || l.rec.Simulated || l.stats.LatenessP99 <= latePast {
		return ""
	}
	return " This page sent up to " + human.Measured(l.stats.LatenessP99) + " late (lateness p99): its thread, or the machine, was busy, and the sends due meanwhile left together (drawn “late”), a bunching the configuration did not make."
}

// noAnswer reports whether rec, a finished run's, got not one answer:
// each attempt ended in a network error (no status), none timed out or
// was aborted. It reads the records without copying them.
func noAnswer(rec *fleet.Recording) bool {
	n := 0
	for _, r := range rec.Shared() {
		if r.Attempt == nil {
			continue
		}
		if r.Attempt.Status != 0 || fleet.Classify(r.Event.Outcome) != fleet.ClassFailed {
			return false
		}
		n++
	}
	return n > 0
}

// outageNotReached says, after a run that was over before its scheduled
// outage began, that the outage never came; "" otherwise.
func (l *Lab) outageNotReached() string {
	if l.rec == nil || l.rec.OutageErr != nil {
		return ""
	}
	s := &l.rec.Scenario
	if s.Outage <= 0 || s.OutageAt < l.stats.Drain {
		return ""
	}
	return " The scheduled outage (" + human.Duration(s.OutageAt) + " after the start) never came: the run was over by then."
}

// cannotRun is the status while Run cannot take the configuration (live,
// Scenario.LiveErrors): why, and whether Simulate can (simErr).
func cannotRun(s *fleet.Scenario, live, simErr []fleet.FieldError) string {
	switch {
	case simErr != nil:
		return "Neither Run nor Simulate can start. Run: " + live[0].Msg + ". Simulate: " + simErr[0].Msg
	case live[0].Key == "workers":
		return "Live runs take at most " + strconv.Itoa(fleet.WorkersRange.Max) + " workers: press Simulate (m) to run " +
			thousands(s.Workers) + " in virtual time."
	}
	return "Run cannot start: " + live[0].Msg + ". Press Simulate (m) to compute it in virtual time."
}

// endpointLine is the run bar's endpoint line: what the workers call (the
// mock URL, or a custom target) or, during and after a watch, the room's
// join link.
type endpointLine struct {
	label   string // before the text
	name    string // the text's accessible name ("Endpoint URL")
	title   string // the text's title
	text    string // the URL, or why there is none
	blocked string // why there is no URL to copy, "" when there is one
}

// endpointLine is the endpoint line of the page as it is now. While a
// field's value is not allowed there is no URL: the configuration keeps a
// field's last valid value, or holds values the server rejects together
// (fail500=60&fail503=50), so the URL would not be what the inputs say.
// The line says how many fields to fix instead, as the run's status does.
func (l *Lab) endpointLine() endpointLine {
	if l.watched {
		// A watch sends nothing of its own: the line shows the room's
		// link for the audience instead of the presenter's local
		// endpoint (what the join panel says when there is none).
		line := endpointLine{"Join link:", "Join link", "Other devices join the room at this address, then press Run.", l.joinLine(), ""}
		if len(l.join.Links) == 0 {
			// Why there is none, not in the link's box, and nothing to
			// copy: Copy copied the sentence as if it were the link.
			line.blocked = "there is no link for other devices yet: " + l.joinLine()
		}
		return line
	}
	label := "Endpoint (works with curl):"
	if l.customTarget() {
		label = "Custom target:"
	}
	if why := l.copyBlocked(); why != "" {
		return endpointLine{label, "Endpoint URL", "", "No URL: fix " + fieldCount(l.Invalid()) + " first (the messages are beside the inputs).", why}
	}
	return endpointLine{label, "Endpoint URL", l.endpointTitle(), l.EndpointURL(), ""}
}

// customTarget reports whether the inputs call the user's own URL: a
// target set, or one being typed that is not valid yet (the line went back
// to the mock's label, and the CORS note went away, at the first invalid
// character; a review).
func (l *Lab) customTarget() bool { return l.s.Target != "" || l.fieldErrs["target"] != "" }

// endpointTitle says how the workers reach the endpoint line's URL: a
// custom target as it is, from the page's origin; the mock from *.localhost
// origins, six workers to each, when the page is on this machine (MockOrigin)
// and the browser was not found unable to reach them there (subdomainCheck),
// else from the page's own origin.
func (l *Lab) endpointTitle() string {
	switch {
	case l.s.Target != "":
		return "The workers call this URL as it is, from this page's origin: your server's CORS policy decides what they may read."
	case !l.spread():
		why := ""
		if l.subdomains.failed() {
			why = ": this browser did not reach the mock on *.localhost origins (Safari, for one, resolves no *.localhost name)"
		}
		return "The workers call this URL from this page's origin, to which the browser opens at most six connections" + why + "; a Run uses a fresh key."
	}
	return "The workers call this URL from *.localhost origins, " + strconv.Itoa(WorkersPerOrigin) + " workers to each (the browser opens at most six connections to one); a Run uses a fresh key."
}

// copyBlocked says why nothing made of the configuration can be copied
// (the endpoint, the share link, the Go code), "" when it can: a field's
// value is not allowed, so what would be copied is not what the inputs
// say. Whoever opened a share link made then would run another
// configuration, or see a field fall back to its default.
func (l *Lab) copyBlocked() string {
	if n := l.Invalid(); n > 0 {
		return "fix " + fieldCount(n) + " first: the messages are beside the inputs"
	}
	return ""
}

// copyConfig copies what text makes of the configuration at the click,
// or, while a field's value is not allowed, says why it does not (button
// names the button).
func (l *Lab) copyConfig(ctx app.Context, button string, text func() string, done string) {
	if why := l.copyBlocked(); why != "" {
		l.Flash(ctx, button+": "+why)
		return
	}
	l.copyText(ctx, text(), done)
}

// fieldCount is "1 field" or "n fields".
func fieldCount(n int) string { return strconv.Itoa(n) + plural(n, " field", " fields") }

// copyText copies text to the clipboard and says so.
//
// A handler that copies must compute what it copies when the click comes,
// from the Lab, never capture a value computed in Render: on an update
// go-app keeps an element's event handler when the new one is the same
// function literal (eventHandler.Equal compares the closures' code
// pointers, not what they captured), so a captured value stays the first
// render's. Copy as Go code and the endpoint's Copy copied the defaults
// that way, whatever the page showed (TestCopyButtonsCopyWhatIsShown,
// TestEventHandlersCaptureNoRenderValues).
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

// droppedText tells of the arrivals the server's stream dropped for this
// page (it reads too slowly): the counts are that much short.
func droppedText(n int) string {
	if n == 0 {
		return ""
	}
	return "; " + thousands(n) + " more the server's stream dropped for this page, not counted"
}

// lostText qualifies a watch's count when its connection to the server
// was lost for a while: the requests then were not seen.
func lostText(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return "; not counting " + human.Duration(d) + " when the page had no stream from the server (lost, or not open yet; had the server restarted, the room's limit started afresh)"
}

// icon is a button's glyph, beside its words: hidden from screen readers,
// which read "▶ Run" as "black right-pointing triangle Run" and "⚡ Outage"
// as "high voltage Outage" (an accessibility review).
func icon(glyph string) app.UI {
	return app.Span().Class("icon").Aria("hidden", "true").Text(glyph + " ")
}

// steadyLabel is a button's icon and label, saying off or on, laid out as
// wide as the wider of the two (both in one grid cell, the other hidden:
// not read out), so that the buttons beside it stay where they are when it
// changes: "Simulating…" pushed the run bar's next four buttons 33 px
// right in presentation mode for as long as a simulation took, under a
// presenter's pointer.
func steadyLabel(on bool, glyph, off, onText string) app.UI {
	label := func(hidden bool, text string) app.UI {
		return app.Span().Class(map[bool]string{true: "off"}[hidden]).Body(icon(glyph), app.Text(text))
	}
	return app.Span().Class("steady").Body(label(on, off), label(!on, onText))
}

// changedSinceShown is how the inputs differ from the finished run on
// screen ("Workers 50 → 20"), "" when they do not, or when no such run is
// shown: the run on screen is no longer the inputs' (they were edited after
// it, or a step replaced them): Copy share link and the Go code give the
// inputs. Not during a replay, which tells where it is (it read "Replaying
// Changed since: …; Run or Simulate to see them. 1.2 s of 3.1 s").
func (l *Lab) changedSinceShown() string {
	if !l.showsFinishedRun() || l.Invalid() > 0 {
		return ""
	}
	return settingsDiff(l.rec.Scenario, l.s)
}

// shownIsStale reports whether the finished run on screen is no longer
// the inputs' (changedSinceShown), or the inputs hold a value not allowed,
// which is no run's: the stage dims it. Bright while a field was empty on
// the way from "5" to "50", it flickered as a person typed.
func (l *Lab) shownIsStale() bool {
	return l.changedSinceShown() != "" || l.Invalid() > 0 && l.showsFinishedRun() // the first tests showsFinishedRun itself
}

// showsFinishedRun reports whether the page shows a finished run, or
// simulation, of its own: not one going on, a watch or a replay.
func (l *Lab) showsFinishedRun() bool {
	return l.rec != nil && !l.running && !l.watched && !l.replaying
}

// toSeeThem ends the status's "Changed since" with what would show the
// inputs, of Run and Simulate, as the configuration allows them (a custom
// target cannot be simulated; 600 workers cannot run live).
func (l *Lab) toSeeThem() string {
	switch run, sim := l.s.LiveErrors() == nil, l.s.SimErrors() == nil; {
	case run && sim:
		return "; Run or Simulate to see them."
	case run:
		return "; Run to see them."
	case sim:
		return "; Simulate to see them."
	}
	return "."
}
