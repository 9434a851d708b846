//go:build !(js && wasm)

package ui

import (
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"retrylab/app/fleet"
	"retrylab/core"
)

// The status says why Run cannot start, and offers Simulate only when it
// can: it said "Live runs take at most 500 workers: press Simulate" for an
// open workload's too many jobs a second, an outage of a custom target and
// 600 workers at a custom target, the last two with Simulate disabled.
func TestStatusSaysWhyRunCannotStart(t *testing.T) {
	for _, c := range []struct {
		query        string
		want, unwant []string
	}{
		{"workers=600", []string{"Live runs take at most 500 workers: press Simulate (m) to run 600"}, nil},
		{"workload=open&every=10ms&workers=10&jobs=60", []string{"Run cannot start: Job interval", "1000 jobs/s", "Press Simulate (m)"}, []string{"500 workers"}},
		{"outage=5s&target=http://example.com/", []string{"Neither Run nor Simulate can start. Run: Server outage", "Simulate: A custom target cannot be simulated"}, []string{"Press Simulate", "500 workers"}},
		{"workers=600&target=http://example.com/", []string{"Neither Run nor Simulate can start. Run: Workers", "Simulate: A custom target cannot be simulated"}, []string{"Press Simulate", "press Simulate"}},
		{"target=http://example.com/", []string{"Ready. Press Run (r) to fire real requests at the target."}, []string{"Simulate (m)"}},
		{"", []string{"Ready. Press Run (r) to fire real requests, or Simulate (m)"}, nil},
		// The link's target refused: the run calls the mock, which the
		// status says (a review pressed r to test their own API).
		{"target=ftp%3A%2F%2Fexample.com%2Fx", []string{"Ready, with the built-in mock: the link's custom target could not be used (see Custom target). Press Run (r) to fire real requests, or Simulate (m)"}, nil},
		{"target=ftp%3A%2F%2Fexample.com%2Fx&room=r1", []string{"Ready, with the built-in mock: the link's custom target could not be used (see Custom target). Press Run (r) to fire real requests, Simulate (m) to compute the run in virtual time, or Watch room (w)"}, nil},
	} {
		u, _ := url.Parse("http://localhost:8080/?" + c.query)
		l := newLab()
		l.Load(u)
		out := renderHTML(&RunBar{Lab: l})
		status := out[strings.Index(out, `id="run-status"`):]
		status = html.UnescapeString(status[:strings.Index(status, "</p>")])
		for _, w := range c.want {
			if !strings.Contains(status, w) {
				t.Errorf("%s: status %s; want %q in it", c.query, status, w)
			}
		}
		for _, w := range c.unwant {
			if strings.Contains(status, w) {
				t.Errorf("%s: status %s; want no %q", c.query, status, w)
			}
		}
	}
}

// The Run and Simulate buttons' titles (a screen reader's description of
// them) say why they are disabled: values to fix first, as the status and
// the r key say. Workers "abc" after "9999" gave the last valid
// configuration's "live runs take at most 500", and Workers "0" gave "fire
// real requests" on a disabled button (an accessibility review).
func TestRunButtonsSayWhyTheyAreDisabled(t *testing.T) {
	for _, c := range []struct {
		query string
		typed map[string]string // key → text typed after the link loaded
		run   string
		sim   string
	}{
		{"", nil, "Run (r): fire real requests", "Simulate (m): compute"},
		{"workers=600", nil, "Run (r): Workers", "Simulate (m): compute"},
		{"workers=600", map[string]string{"workers": "abc"}, "Run (r): fix the value marked in the settings first", "Simulate (m): fix the value marked"},
		{"", map[string]string{"workers": "0"}, "Run (r): fix the value marked in the settings first", "Simulate (m): fix the value marked"},
		{"", map[string]string{"workers": "0", "jobs": "x"}, "Run (r): fix the 2 values marked", "Simulate (m): fix the 2 values marked"},
		{"target=http://example.com/", nil, "Run (r): fire real requests", "Simulate (m): A custom target cannot be simulated"},
	} {
		u, _ := url.Parse("http://localhost:8080/?" + c.query)
		l := newLab()
		l.Load(u)
		for k, v := range c.typed {
			l.Set(k, v)
		}
		out := html.UnescapeString(renderHTML(&RunBar{Lab: l}))
		for id, want := range map[string]string{"run": c.run, "simulate": c.sim} {
			if tag := tagWith(out, `id="`+id+`"`); !strings.Contains(tag, `title="`+want) {
				t.Errorf("%s %v: %s button %s; want its title to start %q", c.query, c.typed, id, tag, want)
			}
		}
	}
}

// Every glyph beside a button's words is hidden from screen readers: "▶
// Run" was read "black right-pointing triangle Run", "⚡ Outage" "high
// voltage Outage" (an accessibility review).
func TestButtonGlyphsAreNotRead(t *testing.T) {
	l := newLab()
	l.Load(mustURL(t, "http://localhost:8080/?workers=33&room=r1")) // Watch room shown
	l.Preset("flood")                                               // "↶ Your configuration" shown
	finishRun(l, oneJob(), false)
	out := renderHTML(&RunBar{Lab: l}) + renderHTML(&ZoomBar{Lab: l}) + renderHTML(&PresetBar{Lab: l})
	n := 0
	for rest := out; ; n++ {
		i := strings.Index(rest, `class="icon"`)
		if i < 0 {
			break
		}
		start := strings.LastIndex(rest[:i], "<")
		tag := rest[start : i+strings.Index(rest[i:], ">")+1]
		if !isTrue(tag, "aria-hidden") {
			t.Errorf("a button's glyph is read out: %s", tag)
		}
		rest = rest[i+1:]
	}
	if n < 11 { // Run, Stop, Simulate, Watch room, Outage, Halve limit, Burst and Keep as baseline (the last three steady: twice), Replay, Your configuration
		t.Errorf("%d glyphs found, want the run bar's and Replay's", n)
	}
	if m := regexp.MustCompile(`>[▶■⚡½⇶⇆◉»↶] ?\pL`).FindString(out); m != "" {
		t.Errorf("%q: a glyph is written into a button's words, not as its icon", m)
	}
}

// A run over before its scheduled outage says the outage never came.
func TestStatusSaysTheOutageNeverCame(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{{"workers=10&jobs=2&outage=2s&outage_at=60s", true}, {"workers=10&jobs=2&outage=2s&outage_at=300ms", false}} {
		u, _ := url.Parse("http://localhost:8080/?" + c.query)
		l := newLab()
		l.Load(u)
		l.rec = fleet.Simulate(l.s)
		l.stats, l.hasStats = fleet.StatsOf(l.rec.Start, l.rec.Records()), true
		status := renderHTML(&RunBar{Lab: l})
		status = status[strings.Index(status, `id="run-status"`):]
		if got := strings.Contains(status, "after the start) never came: the run was over by then."); got != c.want {
			t.Errorf("%s: status says the outage never came: %v, want %v", c.query, got, c.want)
		}
	}
}

// A simulation whose jobs gave up at the end of virtual time says so: it
// read "1 of 5 jobs succeeded in 50.0 ms", where a live run waits 292 years.
func TestStatusSaysJobsRanPastVirtualTime(t *testing.T) {
	u, _ := url.Parse("http://localhost:8080/?workers=5&jobs=1&ra_honour=on&retry_after=malformed&malformed=huge&ra_ceiling=0s&rate=1&burst=1")
	l := newLab()
	l.Load(u)
	l.rec = fleet.Simulate(l.s)
	l.stats, l.hasStats = fleet.StatsOf(l.rec.Start, l.rec.Records()), true
	status := renderHTML(&RunBar{Lab: l})
	status = status[strings.Index(status, `id="run-status"`):]
	if !strings.Contains(status, "4 gave up because their next wait would end past the end of virtual time") {
		t.Errorf("status %s", status[:min(len(status), 300)])
	}
}

// TestEndpointTitleSaysHowTheWorkersCallIt: the endpoint's tooltip says
// where the requests come from, as the page sends them (MockOrigin): it
// said "each on its own *.localhost origin" for a custom target, which is
// called from the page's origin, and for a page on a LAN address.
func TestEndpointTitleSaysHowTheWorkersCallIt(t *testing.T) {
	for _, c := range []struct {
		page, target string
		want         string
	}{
		{"http://localhost:8080/", "", "from *.localhost origins, 6 workers to each"},
		{"http://127.0.0.1:8080/", "", "from *.localhost origins, 6 workers to each"},
		{"http://10.0.0.5:8080/", "", "from this page's origin, to which the browser opens at most six connections"},
		{"https://localhost:8443/", "", "from this page's origin"},
		{"http://localhost:8080/", "https://api.example.com/items", "as it is, from this page's origin: your server's CORS policy"},
	} {
		u, err := url.Parse(c.page)
		if err != nil {
			t.Fatal(err)
		}
		l := newLab()
		l.Load(u)
		if c.target != "" {
			l.Set("target", c.target)
		}
		if got := l.endpointLine().title; !strings.Contains(got, c.want) {
			t.Errorf("page %s, target %q: the endpoint's title is %q, want it to say %q", c.page, c.target, got, c.want)
		}
	}
}

// Jobs counted in total are told and counted as such: the simulation going
// on says the workers share them, the live run's count and a
// finished simulation's jobs succeeded are out of the total, and a run cut
// short tells the jobs of the total it never ran (they read 3 workers × 7
// jobs, out of 21).
func TestATotalIsToldAsSuch(t *testing.T) {
	l := newLab()
	for _, kv := range [][2]string{{"workers", "3"}, {"jobs", "7"}, {"jobs_of", "fleet"}, {"limiter", "none"}} {
		l.Set(kv[0], kv[1])
	}
	if l.Invalid() != 0 || !l.s.JobsTotal {
		t.Fatalf("3 workers, 7 jobs in total: %d fields invalid, JobsTotal %v", l.Invalid(), l.s.JobsTotal)
	}
	status := func() string {
		out := renderHTML(&RunBar{Lab: l})
		s := out[strings.Index(out, `id="run-status"`):]
		return html.UnescapeString(s[:strings.Index(s, "</p>")])
	}
	l.running, l.simulating = true, true
	if s := status(); !strings.Contains(s, "Simulating 3 workers sharing 7 jobs in virtual time") {
		t.Errorf("simulating: %s", s)
	}
	l.simulating = false
	l.stats = fleet.Stats{Requests: 5, Jobs: 4}
	if s := status(); !strings.Contains(s, "5 requests sent, 4 of 7 jobs done") {
		t.Errorf("running: %s", s)
	}
	l.running = false
	l.rec = fleet.Simulate(l.s)
	l.stats = l.rec.Stats()
	if s := status(); !strings.Contains(s, "7 of 7 jobs succeeded") {
		t.Errorf("simulated: %s", s)
	}
	if s := l.SimulatedText(); !strings.Contains(s, "3 workers, 7 jobs,") {
		t.Errorf("simulated: %s", s)
	}
	cut := fleet.Stats{Jobs: 4, Successes: 4}
	if got := finishedText(&cut, jobsOf(l.s), thousands); got != nbsp("of_7")+itemSep+nbsp("3_not_run") {
		t.Errorf("a run cut after 4 of 7 jobs: %q", got)
	}
	l.Set("jobs_of", "worker") // 7 each: 21
	if got := finishedText(&cut, jobsOf(l.s), thousands); got != nbsp("of_21")+itemSep+nbsp("17_not_run") {
		t.Errorf("per worker, cut after 4 of 21 jobs: %q", got)
	}
}

// A run whose server sent Retry-After values the loop could not read says
// in its status how many waits fell back for it, and one such value: the
// exports' notes said so of every wait, the status of none. Counted from
// the loop's events (here a simulation's, the same core loop a live run
// drives), against the waits whose note ends in the fallback.
func TestStatusSaysRetryAfterWasUnread(t *testing.T) {
	const q = "workers=5&jobs=2&rate=2&burst=2&ra_honour=on&retry_after=malformed&seed=1"
	for _, c := range []struct {
		query, want string
		fellBack    string // the note's end on the waits counted; "" for none
	}{
		{q + "&malformed=decimal", `waits fell back to backoff because the server's Retry-After could not be read; one was "0.5": fractional seconds not allowed.`, "; fell back to backoff"},
		{q + "&malformed=text", `waits fell back to backoff because the server's Retry-After could not be read; one was "soon": invalid syntax (want delay-seconds or an HTTP-date).`, "; fell back to backoff"},
		{q + "&malformed=empty", `waits fell back to backoff because the server's Retry-After could not be read; one was "": empty (want delay-seconds or an HTTP-date).`, "; fell back to backoff"},
		{q + "&malformed=decimal&headers=both&hints=on", `waits fell back to the reset hint because the server's Retry-After could not be read; one was "0.5": fractional seconds not allowed.`, "; fell back to reset hint"},
		{"workers=5&jobs=2&rate=2&burst=2&ra_honour=off&retry_after=malformed&malformed=decimal&seed=1", "", ""}, // not read: nothing unread
		{"workers=5&jobs=2&rate=2&burst=2&ra_honour=on&retry_after=seconds&seed=1", "", ""},
	} {
		u, _ := url.Parse("http://localhost:8080/?" + c.query)
		l := newLab()
		l.Load(u)
		if len(l.fieldErrs) > 0 || len(l.notices) > 0 {
			t.Fatalf("%s: %v %v", c.query, l.fieldErrs, l.notices)
		}
		sim := fleet.Simulate(l.s)
		n := 0
		for _, r := range sim.Records() {
			if r.Event.Kind == core.EventWait && c.fellBack != "" && strings.HasSuffix(r.Event.Note, c.fellBack) {
				n++
			}
		}
		if c.want != "" && n < 2 {
			t.Fatalf("%s: %d waits fell back, want a few to count", c.query, n)
		}
		for _, simulated := range []bool{true, false} {
			l.rec, l.unread.of = sim, nil
			if !simulated { // the same events, as a live run's
				l.rec = fleet.NewRecording(l.s, sim.Start, false)
				l.rec.Append(sim.Records()...)
				end, _ := sim.End()
				l.rec.Finish(end)
			}
			l.stats, l.hasStats = fleet.StatsOf(l.rec.Start, l.rec.Records()), true
			status := renderHTML(&RunBar{Lab: l})
			status = html.UnescapeString(status[strings.Index(status, `id="run-status"`):])
			status = status[:strings.Index(status, "</")]
			said := strings.Contains(status, "Retry-After could not be read")
			if c.want == "" {
				if said {
					t.Errorf("%s (simulated %v): status %q says a Retry-After was unread", c.query, simulated, status)
				}
				continue
			}
			if want := " " + strconv.Itoa(n) + " " + c.want; !strings.Contains(status, want) {
				t.Errorf("%s (simulated %v): status %q, want %q", c.query, simulated, status, want)
			}
		}
	}
}

// countUnread counts the waits that fell back for an unreadable
// Retry-After (their *core.RetryAfterError), by what they fell back to,
// and quotes the first value, cut when long. Other waits, with notes that
// begin "retry-after" too, and a job's end are not counted.
func TestCountUnread(t *testing.T) {
	long := strings.Repeat("x", 100)
	wait := func(r core.Reason, note string, err error) fleet.Record {
		return fleet.Record{Event: core.Event{Kind: core.EventWait, Reason: r, Note: note, Err: err}}
	}
	unread := func(v, problem string) error { return &core.RetryAfterError{Value: v, Problem: problem} }
	recs := []fleet.Record{
		wait(core.ReasonRetryAfter, "retry-after date already past: a server clock behind, or a slow answer", nil),
		wait(core.ReasonRetryAfter, "retry-after 1h above ceiling 1m", nil),
		wait(core.ReasonBackoff, `retry-after "x": invalid syntax; fell back to backoff`, nil),
		wait(core.ReasonBucket, "bucket empty", nil),
		{Event: core.Event{Kind: core.EventDone, Note: `retry-after "x": invalid syntax; fell back to backoff; max elapsed …`, Err: unread("x", "invalid syntax")}},
		wait(core.ReasonBackoff, "", unread(long, "invalid syntax (want delay-seconds or an HTTP-date)")),
		wait(core.ReasonResetHint, "", unread("1; 2", "a list is not allowed (one value only)")),
		wait(core.ReasonBackoff, "", unread("-1", "negative delay")),
	}
	got := countUnread(recs)
	want := unreadRetryAfter{backoff: 2, resetHint: 1, example: `"` + strings.Repeat("x", unreadMax) + `…": invalid syntax (want delay-seconds or an HTTP-date)`}
	if got != want {
		t.Errorf("countUnread = %+v, want %+v", got, want)
	}
	if got := countUnread(recs[6:]).example; got != `"1; 2": a list is not allowed (one value only)` {
		t.Errorf("example %q", got)
	}
}

// unreadNote's words: one wait, and waits that fell back to both.
func TestUnreadNoteWords(t *testing.T) {
	l := newLab()
	l.rec = fleet.NewRecording(l.s, t0, false)
	for _, c := range []struct {
		n    unreadRetryAfter
		want string
	}{
		{unreadRetryAfter{}, ""},
		{unreadRetryAfter{backoff: 1, example: `"soon": invalid`}, ` 1 wait fell back to backoff because the server's Retry-After could not be read; one was "soon": invalid.`},
		{unreadRetryAfter{resetHint: 1, example: `"soon": invalid`}, ` 1 wait fell back to the reset hint because the server's Retry-After could not be read; one was "soon": invalid.`},
		{unreadRetryAfter{backoff: 1200, resetHint: 3, example: `"1.5": fractional seconds not allowed`},
			` 1,203 waits fell back, 1,200 to backoff and 3 to the reset hint, because the server's Retry-After could not be read; one was "1.5": fractional seconds not allowed.`},
	} {
		l.unread.of, l.unread.n = l.rec, c.n
		if got := l.unreadNote(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.n, got, c.want)
		}
	}
}
