package ui

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
)

// ExportBar downloads the last run's events (JSON, CSV) and the timeline
// (PNG), and copies the share link and the client settings as Go code.
type ExportBar struct {
	app.Compo

	Lab    *Lab
	Rev    int
	RunRev int
}

// Render draws the bar and the Go code.
func (x *ExportBar) Render() app.UI {
	l := x.Lab
	noRun := l.rec == nil
	blocked := l.copyBlocked()
	code := ""
	linkTitle, codeTitle := "The whole configuration, seed included, is in the link", "The client settings as a Go program that uses retrylab/core"
	switch {
	case blocked != "":
		code = "// Fix " + fieldCount(l.Invalid()) + " to see the code: the messages are beside the inputs."
		linkTitle, codeTitle = "Copy share link: "+blocked, "Copy as Go code: "+blocked
	case l.codeOpen: // made when shown, not on every load: see setCodeOpen
		code = l.goCode()
	}
	return app.Section().Class("exports").Aria("labelledby", "h-exports").Body(
		subHeading("h-exports", "Export and share"),
		app.Div().Class("export-row").Body(
			app.Button().ID("export-json").Class("ghost").Disabled(noRun).Text("Events JSON").
				Title("Every event of the last run, how it ended and what the server was made to do (outages, halved limits, bursts), schema "+fleet.Schema).
				OnClick(func(ctx app.Context, e app.Event) { l.export(ctx, "json") }),
			app.Button().ID("export-csv").Class("ghost").Disabled(noRun).Text("Events CSV").
				Title("Every event of the last run, a row each; how it ended and what the server was made to do are in the JSON").
				OnClick(func(ctx app.Context, e app.Event) { l.export(ctx, "csv") }),
			app.Button().ID("export-png").Class("ghost").Disabled(!l.view.hasModel()).Text("Timeline PNG").
				Title("The timeline as drawn, with what ran, its key numbers and its link above it").
				OnClick(func(ctx app.Context, e app.Event) { l.exportPNG(ctx) }),
			app.Span().Class("sep"),
			// While a value is not allowed the link and the code are not
			// offered (copyBlocked), as Run is not; the note says why.
			app.Button().ID("copy-link").Class("ghost").Text("Copy share link").
				Disabled(blocked != "").Title(linkTitle).
				OnClick(func(ctx app.Context, e app.Event) {
					l.copyConfig(ctx, "Copy share link", l.ShareURL, "Share link copied")
				}),
			app.Button().ID("copy-go").Class("ghost").Text("Copy as Go code").
				Disabled(blocked != "").Title(codeTitle).
				// The code as it is at the click, not code: see copyText.
				OnClick(func(ctx app.Context, e app.Event) { l.copyConfig(ctx, "Copy as Go code", l.goCode, "Go code copied") }),
			app.If(blocked != "", func() app.UI {
				return app.Span().ID("copy-blocked").Class("copy-blocked").
					Text("Fix " + fieldCount(l.Invalid()) + " to copy the link or the Go code: the messages are beside the inputs.")
			}),
		),
		app.Details().Class("gocode").Open(l.codeOpen).
			OnToggle(func(ctx app.Context, e app.Event) { l.setCodeOpen(ctx.JSSrc().Get("open").Bool()) }).Body(
			app.Summary().ID("go-code-show").Text("Client settings as Go code (uses retrylab/core)"),
			app.Pre().ID("go-code").Body(app.Code().Text(code)),
		),
	)
}

// goCode is the configuration as Go code, generated once per configuration,
// calling the mock on the page's own origin (as the endpoint URL shows it).
func (l *Lab) goCode() string {
	if l.codeRev != l.cfgRev || l.code == "" {
		l.code, l.codeRev = l.s.GoCodeAt(l.pageOrigin()), l.cfgRev
	}
	return l.code
}

// setCodeOpen notes that the Go code's <details> was opened or closed: the
// code is generated only while it is open. Generating it on every load cost
// the page's start-up a 20 KB function and fmt's formatting on the main
// thread, and sent both to Chromium's optimising compiler (fleet's package
// doc, "Start-up in the browser"). Copy as Go code makes it at the click.
func (l *Lab) setCodeOpen(open bool) {
	if l.codeOpen != open {
		l.codeOpen = open
		l.runRev++
	}
}

// fileStamp names exported files after the run: when it started, by the
// wall clock, in UTC as the JSON's start, and saying so (Z), not in the
// browser's local time (Go's time.Local in the page is the browser's
// offset). A simulation's Start is virtual time's origin, the same for
// every simulation (fleet.SimEpoch), so its files are named after the
// moment it was simulated: two simulations' files never share a name. A
// watch, which has no recording, names its PNG after when it began
// (simAt): every PNG of one watch has the one name, its start's.
func (l *Lab) fileStamp() string {
	t := time.Now()
	switch {
	case (l.Simulated() || l.watched) && !l.simAt.IsZero():
		t = l.simAt
	case l.rec != nil:
		t = l.rec.Start
	}
	name := "retrylab-" + t.UTC().Format("2006-01-02T15-04-05Z")
	if near, cs := nearStep(l.shownScenario()); near >= 0 && !l.watched {
		// The step it ran, and what it changed of it, as the compare bar
		// names the run ("Full jitter (step 3) with Cap 5s"): after ten
		// runs, files named by their times alone could not be told apart
		// (a review), and a tuning session's runs, near a step, were
		// named by their times alone (a review).
		name += "-" + fleet.Presets[near].ID
		for _, c := range cs {
			to := c.to
			if u, err := url.Parse(to); c.key == "target" && err == nil && u.Host != "" {
				to = u.Host // your API's host: its path and query were cut mid-word (a review)
			}
			name += "-" + fileWord(c.key+" "+to)
		}
	}
	if l.Simulated() {
		name += "-simulated" // and every event says "simulated": true
	}
	if l.watched {
		name += "-watch"
	}
	return name
}

// fileWord is s for a file name: lower-case ASCII letters, digits and
// dots, µ as u ("latency-500us": dropped, it read "latency-500-s", 500
// seconds), every other run of characters one hyphen ("cap-5s",
// "strategy-exponential-no-jitter"), and at most fileWordMax bytes: a
// custom target's URL made a name of 396 bytes, past the 255 a file
// system takes.
func fileWord(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(s) {
		if r == 'µ' || r == 'μ' { // time.Duration's micro sign, and the Greek letter
			r = 'u'
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			need := 1 // the byte r is (ASCII by now), and the hyphen before it
			if gap && b.Len() > 0 {
				need = 2
			}
			if b.Len()+need > fileWordMax {
				break
			}
			if need == 2 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			gap = false
			continue
		}
		gap = true
	}
	return b.String()
}

// fileWordMax is how long a change's word in a file name may be (fileWord).
const fileWordMax = 40

// export downloads the last run as JSON or CSV. The file is written in
// pieces that give the page's thread back every browser.PaceAfter
// (exportWriter): a simulation stopped at the attempt limit (900,000
// events) took the thread for 9 s (CSV) and 15 s (JSON) in one go, the
// page frozen with no word of what it was doing.
func (l *Lab) export(ctx app.Context, format string) {
	rec := l.exported()
	if rec == nil {
		return
	}
	name := l.fileStamp() + "." + format // of this run, whatever is shown by the time it is written
	ctx.Async(func() {
		w := &exportWriter{ctx: context.Background()}
		var err error
		mime := "application/json"
		if format == "csv" {
			mime = "text/csv"
			err = rec.CSV(w)
		} else {
			err = rec.JSON(w)
		}
		if err == nil {
			err = browser.Download(w.ctx, name, mime, w.parts)
		}
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				l.Flash(ctx, "Export failed: "+err.Error())
				return
			}
			l.Flash(ctx, "Downloaded "+name) // said, as Copy's are (an accessibility review)
		})
	})
}

// exported is the last run's recording as the exports write it: a live
// run's with the faults the server's stream told of and the gaps the
// timeline hatched (told), which Run does not know; a simulation's has its
// own faults, and no gaps. nil before a run.
func (l *Lab) exported() *fleet.Recording {
	rec := l.rec
	if rec != nil && !rec.Simulated {
		if fs, gs, hs, ok := l.view.told(rec.Start); ok {
			rec.SetFaults(fs)
			rec.SetGaps(gs)
			rec.SetHeard(hs)
		}
	}
	return rec
}

// told is what the timeline of the run drawn, which started at start (its
// recording's Start), tells beyond the events, as the timeline draws it:
// the outages, scaled limits and bursts the server's stream told of, and
// the stretches the page did not see as usual (the tab hidden, the stream
// lost), each list in the order they began. ok is false when the run drawn
// is another.
func (v *view) told(start time.Time) (fs []fleet.Fault, gs []fleet.Gap, hs []fleet.Heard, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ingest() // what the stream told since the last frame (frames wait while the tab is hidden)
	m := v.shownModel()
	if m == nil || !m.start.Equal(start) {
		return nil, nil, nil, false
	}
	for i := range m.marks {
		if k := &m.marks[i]; k.hasServer && k.serverSeq > 0 && k.status == 0 { // no answer: the stream is the only witness
			hs = append(hs, fleet.Heard{Worker: k.worker, Job: k.job, Attempt: k.attempt, Seq: k.serverSeq, At: start.Add(k.serverAt)})
		}
	}
	for _, k := range [...]struct {
		kind string
		list []interval
	}{{"hidden", m.hidden}, {"stream_lost", m.lost}} {
		for _, g := range k.list {
			gap := fleet.Gap{Kind: k.kind, From: start.Add(g.from)}
			if g.to >= 0 {
				gap.Until = start.Add(g.to)
			}
			gs = append(gs, gap)
		}
	}
	byStart(gs, func(g fleet.Gap) time.Time { return g.From })
	return m.faults(), gs, hs, true
}

// faults are the outages, scaled limits and bursts the server's stream
// told m of, as the timeline draws them, in the order they began.
// faultsOf is the faults the shown model drew for the run that began at
// start; ok is false when the model shown is another run's.
func (v *view) faultsOf(start time.Time) (fs []fleet.Fault, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if m := v.shownModel(); m != nil && m.start.Equal(start) {
		return m.faults(), true
	}
	return nil, false
}

func (m *model) faults() []fleet.Fault {
	var fs []fleet.Fault
	for _, o := range m.outages {
		fs = append(fs, fleet.Fault{Kind: "outage", From: m.start.Add(o.from), Until: m.start.Add(o.to)})
	}
	for _, q := range m.limits {
		fs = append(fs, fleet.Fault{Kind: "limit", From: m.start.Add(q.from), Until: m.start.Add(q.to), Scale: q.scale})
	}
	for _, b := range m.bursts {
		fs = append(fs, fleet.Fault{Kind: "burst", From: m.start.Add(b.at), N: b.n, Admitted: b.admitted})
	}
	byStart(fs, func(f fleet.Fault) time.Time { return f.From })
	return fs
}

// byStart orders s by when each began, keeping the order of those that
// began together: an insertion sort, as each list comes in pieces already
// in order, and there are few (slices.SortStableFunc's instantiation cost
// 3.5 KB of app.wasm's gzip).
func byStart[T any](s []T, from func(T) time.Time) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && from(s[j]).Before(from(s[j-1])); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// exportWriter collects an export, letting the page's event loop run
// whenever Go has held the thread for browser.PaceAfter.
type exportWriter struct {
	ctx   context.Context
	parts [][]byte // each at most exportPart long: a growing buffer copied the whole at each doubling
}

// exportPart is the size of an export's parts: a copy of one (into the
// file's Blob) is well under a frame.
const exportPart = 1 << 20

func (w *exportWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if k := len(w.parts); k == 0 || len(w.parts[k-1]) == exportPart {
			w.parts = append(w.parts, make([]byte, 0, exportPart))
		}
		last := &w.parts[len(w.parts)-1]
		c := min(len(p), exportPart-len(*last))
		*last = append(*last, p[:c]...)
		p = p[c:]
	}
	if browser.Busy() > browser.PaceAfter {
		browser.Clock{}.Yield(w.ctx)
	}
	return n, nil
}

// exportPNG downloads the timeline as a PNG, with what ran, its key
// numbers and its link above it (pngHead).
func (l *Lab) exportPNG(ctx app.Context) {
	l.StopReplay() // the image is of the whole run its title names
	head := l.pngHead()
	name := l.fileStamp() + ".png"
	ctx.Async(func() {
		err := l.view.png(ctx, name, head)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				l.Flash(ctx, "PNG export failed: "+err.Error())
				return
			}
			l.Flash(ctx, "Downloaded "+name)
		})
	})
}

// pngHead is what the PNG says above the timeline, so that a picture
// pasted alone tells its story: what ran, its key numbers, and the link
// that sets up the run drawn (not the settings changed since).
func (l *Lab) pngHead() pngHead {
	title := "Retry Lab: " + presetName(l.shownScenario())
	if t := l.SimulatedText(); t != "" {
		title += " — " + t
	}
	if l.rec != nil && l.rec.OutageErr != nil { // outageFailed
		title += " — its scheduled outage did not start"
	}
	against := l.base != nil && !l.showingBaseline()
	if against {
		title += " — against the baseline " + l.base.label()
	}
	if l.watched {
		title = "Retry Lab: watch of room “" + l.watchRoom + "” — " + thousands(l.wstats.Arrivals) + " requests from everyone in " + human.Measured(l.wstats.For)
	}
	numbers := l.keyNumbers()
	if w := l.view.zoomText(); w != "" {
		// Zoomed in, the picture is part of the run: it says which, and
		// that its numbers are the whole run's (a 10–16 s window read
		// "peak 55 req/s · drained in 15.71 s" as if of what it showed).
		title += " — showing " + w
		if numbers != "" {
			numbers = "whole run: " + numbers
		}
	}
	h := pngHead{title: title, numbers: numbers, link: l.runURL(against)}
	if against && !l.watched {
		h.base = "baseline: " + keyNumbers(&l.base.stats, l.base.scen, l.base.end)
		if d := settingsDiff(l.base.scen, l.shownScenario()); d != "" {
			h.changed = "Changed from the baseline: " + d + "."
		}
	}
	return h
}

// runURL is the link that reproduces the run shown: its own scenario, and
// with against the baseline it is drawn against.
func (l *Lab) runURL(against bool) string {
	s := l.shownScenario()
	q := s.Encode()
	if against {
		q += baselineParam(l.base.scen)
	}
	return l.pageAddress() + "?" + q
}

// keyNumbers is the run's numbers a presenter points at, on one line
// ("" before a run, and for a watch: its title has them). A run cut short,
// by Stop or by a simulation's attempt limit, counts its successes against
// every job it was set up with, names the jobs it cancelled and those it
// never started, and says when it was cut instead of when it drained.
func (l *Lab) keyNumbers() string {
	if w := &l.wstats; l.watched {
		return thousands(w.OK) + " allowed" + numbersSep + thousands(w.Limited) + " 429s (" + percentOf(w.Limited, w.Arrivals) + ")" + numbersSep +
			thousands(w.Failed) + " other failures" + numbersSep + "peak " + thousands(w.Peak) + " req/s"
	}
	if !l.hasStats || l.rec == nil {
		return ""
	}
	return keyNumbers(&l.stats, l.rec.Scenario, l.runEnd())
}

// keyNumbers is Lab.keyNumbers of a run of s with numbers st that ended as
// end says.
func keyNumbers(st *fleet.Stats, s fleet.Scenario, end runEnd) string {
	jobs := []string{succeededOf(st.Successes, st.Jobs)}
	last := "drained in " + human.Measured(st.Drain)
	if end.cut() {
		jobs[0] = succeededOf(st.Successes, jobsOf(s))
		if st.Cancelled > 0 { // Stop between an open workload's arrivals cancels none
			jobs = append(jobs, thousands(st.Cancelled)+" cancelled "+cutBy(end))
		}
		if n := neverStarted(st, jobsOf(s)); n > 0 {
			jobs = append(jobs, thousands(n)+" never started")
		}
		last = "stopped after " + human.Measured(st.Drain)
		if end == endCapped || end == endLiveCapped {
			last = "stopped " + cutBy(end) + " after " + human.Measured(st.Drain)
		}
	}
	return strings.Join(append(append([]string{thousands(st.Requests) + " requests"}, jobs...),
		thousands(st.Limited)+" 429s ("+percentOf(st.Limited, st.Requests)+")",
		"peak "+thousands(st.PeakRPS)+" req/s",
		"completion p50 "+human.Measured(st.CompletionP50)+", p99 "+human.Measured(st.CompletionP99),
		last,
	), numbersSep)
}

// png draws the timeline with head above it and encodes it, on a canvas
// of its own (browser.DrawPNG): the page's canvas, and what it keeps
// drawn, are left as they are, and no frame waits for the export. It
// paints in a task of its own, after the click's.
func (v *view) png(ctx context.Context, name string, head pngHead) error {
	browser.Clock{}.Yield(ctx)
	v.mu.Lock()
	v.ingest()
	lay, in := v.frameFor(&head)
	var ops browser.Ops
	paint(&ops, &lay, v.m, in)
	v.mu.Unlock()
	blob, err := browser.DrawPNG(ctx, &ops, lay.w, lay.h)
	if err != nil {
		return err
	}
	return blob.Save(name)
}
