//go:build !(js && wasm)

package ui

import (
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/fleet"
)

func renderHTML(c app.UI) string { return app.HTMLString(c) }

// tagWith returns the start tag holding attr (attributes print in any order).
func tagWith(out, attr string) string {
	i := strings.Index(out, attr)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(out[:i], "<")
	end := strings.Index(out[i:], ">")
	return out[start : i+end+1]
}

// isTrue reports whether a boolean attribute is set in a start tag: the
// static encoder prints "true" as the bare name.
func isTrue(tag, name string) bool {
	return strings.Contains(tag, " "+name+" ") || strings.Contains(tag, " "+name+">") || strings.Contains(tag, name+`="true"`)
}

// TestFieldErrorAlertsOnce: the message beside an invalid input is an
// alert as it appears, not at each key typed after: it quotes the value, so
// a screen reader read it out again on every keystroke. It stays tied to the
// input (aria-describedby, aria-invalid) all along, and a field that
// becomes invalid again alerts again.
func TestFieldErrorAlertsOnce(t *testing.T) {
	l := newLab()
	c := &Controls{Lab: l}
	steps := []struct {
		text  string
		shown bool // a message is shown
		alert bool // and is an alert
	}{
		{"a", true, true},
		{"ab", true, false},
		{"abc", true, false},
		{"5000000", true, false}, // another reason, still the same field being typed
		{"5", false, false},
		{"5x", true, true},
	}
	for _, s := range steps {
		l.Set("workers", s.text)
		c.Rev = l.cfgRev
		out := renderHTML(c)
		msg, input := tagWith(out, `id="err-workers"`), tagWith(out, `id="f-workers"`)
		if (msg != "") != s.shown {
			t.Errorf("%q: message shown %v, want %v", s.text, msg != "", s.shown)
			continue
		}
		if alert := strings.Contains(msg, `role="alert"`); alert != s.alert {
			t.Errorf("%q: the message is an alert: %v, want %v (%s)", s.text, alert, s.alert, msg)
		}
		if s.shown && (!isTrue(input, "aria-invalid") || !strings.Contains(input, "err-workers")) {
			t.Errorf("%q: the input is not tied to its message: %s", s.text, input)
		}
	}
}

// Every input with an allowed range is described by it, as by its help:
// a screen reader learnt "1ms – 1h (e.g. 250ms, 2s)" only from an error
// (an accessibility review). A switch or a menu has none.
func TestInputsAreDescribedByTheirRange(t *testing.T) {
	out := renderHTML(&Controls{Lab: newLab()})
	for _, c := range []struct{ key, rangeText string }{
		{"base", "1ms – 1h (e.g. 250ms, 2s)"},
		{"workers", "1 – 10000 (live runs ≤ 500)"},
		{"jobs", "1 – 1000 per worker"},
		{"jobs_of", ""},
		{"strategy", ""},
		{"bucket", ""},
	} {
		input, span := tagWith(out, `id="f-`+c.key+`"`), tagWith(out, `id="range-`+c.key+`"`)
		if c.rangeText == "" {
			if span != "" || strings.Contains(input, "range-") {
				t.Errorf("%s: a range where there is none: %s %s", c.key, span, input)
			}
			continue
		}
		i := strings.Index(out, span)
		if span == "" || !strings.HasPrefix(html.UnescapeString(out[i+len(span):]), c.rangeText+"<") {
			t.Errorf("%s: range %s, want %q", c.key, span, c.rangeText)
		}
		if !strings.Contains(input, "range-"+c.key) || !strings.Contains(input, "help-"+c.key) {
			t.Errorf("%s: the input is not described by its help and range: %s", c.key, input)
		}
	}
	// Jobs counted in total take up to the workers × a worker's most:
	// "1 – 1000 per worker" stood over a total of 5000 (a learner's review).
	l := newLab()
	l.Set("workers", "50")
	l.Set("jobs_of", "fleet")
	out = html.UnescapeString(renderHTML(&Controls{Lab: l}))
	if !strings.Contains(out, `id="range-jobs">1 – 50,000 in all (1000 a worker)<`) {
		t.Errorf("jobs in total: range %s", tagWith(out, `id="range-jobs"`))
	}
}

// TestReloadSaysOneAlert: a link with a value not allowed, reloaded with
// fields typed wrong over it (the tab's draft, adoptDraft), had a screen
// reader told three alerts at once as the page loaded: the link's notice
// and each field's message. The notice is the one alert; the fields'
// messages are shown, tied to their inputs, and the run status says how
// many to fix. A field typed wrong after that is an alert again.
func TestReloadSaysOneAlert(t *testing.T) {
	page, _ := url.Parse("http://localhost:8080/?workers=abc&jobs=3")
	st := &fakeStorage{m: map[string]string{}}
	first := newLab()
	first.Load(page)
	first.adoptDraft(st)
	first.Set("workers", "xyz")
	first.Set("fail503", "150")

	l := newLab() // the reload
	l.Load(page)
	l.adoptDraft(st)
	c := &Controls{Lab: l, Rev: l.cfgRev}
	controls := renderHTML(c)
	notice := renderHTML(&Notice{Lab: l, Rev: l.cfgRev})
	for _, key := range []string{"workers", "fail503"} {
		if msg := tagWith(controls, `id="err-`+key+`"`); msg == "" || strings.Contains(msg, `role="alert"`) {
			t.Errorf("%s after the reload: message %q, want it shown and no alert", key, msg)
		}
	}
	if n := strings.Count(controls+notice, `role="alert"`); n != 1 || !strings.Contains(tagWith(notice, `id="url-notice"`), `role="alert"`) {
		t.Errorf("the page loads with %d alerts, want one, the link's notice", n)
	}
	bar := renderHTML(&RunBar{Lab: l, Rev: l.cfgRev})
	if i := strings.Index(bar, `id="run-status"`); i < 0 || !strings.Contains(bar[i:], "Fix 2 fields to run") {
		t.Error("the run status does not say how many fields to fix")
	}
	l.Set("jobs", "x")
	c.Rev = l.cfgRev
	controls = renderHTML(c)
	if msg := tagWith(controls, `id="err-jobs"`); !strings.Contains(msg, `role="alert"`) {
		t.Errorf("a field typed wrong after the reload is no alert: %q", msg)
	}
	if msg := tagWith(controls, `id="err-workers"`); msg == "" || strings.Contains(msg, `role="alert"`) {
		t.Errorf("typing into jobs made workers' message %q", msg)
	}
}

// TestArrowKeysSayOneLine: each attempt the arrow keys move to is said in
// one line, which attempt, its outcome and when (the tooltip, up to 8
// lines, was the live region, read out whole at each key); the tooltip
// keeps every line, Enter says them all, and the next move one line again.
func TestArrowKeysSayOneLine(t *testing.T) {
	v := finishedView(t)
	l := newLab()
	l.view = v
	said := func() (string, tip) {
		t.Helper()
		tp, _ := v.selection()
		out := renderHTML(&Timeline{Lab: l})
		if tag := tagWith(out, `id="tooltip"`); strings.Contains(tag, "aria-live") || strings.Contains(tag, `role="status"`) {
			t.Errorf("the tooltip is a live region: %s", tag)
		}
		i := strings.Index(out, `id="tip-said"`)
		if i < 0 || !strings.Contains(tagWith(out, `id="tip-said"`), `aria-live="polite"`) {
			t.Fatalf("no live region tip-said: %s", out)
		}
		return html.UnescapeString(out[i+strings.Index(out[i:], ">")+1 : i+strings.Index(out[i:], "</p>")]), tp
	}
	for _, c := range []struct {
		key, want string
		details   bool
	}{
		{"ArrowRight", "Worker 2 · job 1 · attempt 1: 429 Too Many Requests, sent at 0.052 s", false},
		{"Enter", "Worker 2 · job 1 · attempt 1: intended 0.050 s · sent 0.052 s", true},
		{"ArrowRight", "Worker 2 · job 1 · attempt 2: 200 OK, sent at 1.101 s", false},
	} {
		if !v.key(c.key) {
			t.Fatalf("%s was not handled", c.key)
		}
		got, tp := said()
		if len(tp.Lines) < 3 {
			t.Errorf("%s: the tooltip shows %d lines: %q", c.key, len(tp.Lines), tp.Lines)
		}
		if c.details {
			if want := tp.Title + ": " + strings.Join(tp.Lines, ". "); got != want {
				t.Errorf("%s said %q, want every line of the tooltip %q", c.key, got, want)
			}
		} else if got != c.want {
			t.Errorf("%s said %q, want %q", c.key, got, c.want)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s said %q, want it to start %q", c.key, got, c.want)
		}
	}
}

// TestGreyedFieldSaysWhy: a field of no effect (the bucket's rate with the
// bucket off) was only greyed: a screen reader, which the Tab key takes
// to it, heard nothing of it. It stays in the Tab order and editable (a
// value can be prepared for when it counts), and says why it has no
// effect, beside it and in its input's description; once in effect it
// says nothing of it.
func TestGreyedFieldSaysWhy(t *testing.T) {
	l := newLab()
	c := &Controls{Lab: l}
	for _, step := range []struct {
		key, text string // typed first
		off       map[string]string
	}{
		{"", "", map[string]string{"bucket_rate": "Not in effect while the fleet bucket is off.", "every": "Not in effect while the workload is closed.", "jobs": "",
			"hints": "Not in effect while the mock sends no rate-limit headers (Rate-limit headers: None, or Server limiter: No limit).", "ra_honour": ""}},
		{"bucket", "on", map[string]string{"bucket_rate": "", "bucket_cap": ""}},
		{"headers", "ietf", map[string]string{"hints": ""}},
		{"retry_after", "none", map[string]string{"ra_honour": "Not in effect while the mock sends no Retry-After (Retry-After sent: None)."}},
		{"target", "https://api.example.com/x", map[string]string{"rate": "Not in effect while a custom target replaces the mock.", "bucket_rate": "", "ra_honour": ""}},
	} {
		if step.key != "" {
			l.Set(step.key, step.text)
		}
		c.Rev = l.cfgRev
		out := renderHTML(c)
		for key, want := range step.off {
			input := tagWith(out, `id="f-`+key+`"`)
			said := tagWith(out, `id="off-`+key+`"`)
			if input == "" || isTrue(input, "disabled") || strings.Contains(input, "tabindex") {
				t.Errorf("after %s=%s: %s is not an input in the Tab order: %s", step.key, step.text, key, input)
			}
			if want == "" {
				if said != "" || strings.Contains(input, "off-"+key) {
					t.Errorf("after %s=%s: %s is in effect but says it is not: %s", step.key, step.text, key, said)
				}
				continue
			}
			i := strings.Index(out, `id="off-`+key+`"`)
			if i < 0 || !strings.Contains(out[i:i+strings.Index(out[i:], "</p>")], want) || !strings.Contains(input, "off-"+key) {
				t.Errorf("after %s=%s: %s does not say %q, tied to its input (%s)", step.key, step.text, key, want, input)
			}
		}
	}
}

func TestControlsRenderEveryField(t *testing.T) {
	l := newLab()
	out := renderHTML(&Controls{Lab: l, Rev: l.cfgRev})
	for _, f := range fleet.Fields {
		for _, id := range []string{`id="f-` + f.Key + `"`, `id="help-` + f.Key + `"`, `<label for="f-` + f.Key + `">`} {
			if !strings.Contains(out, id) {
				t.Errorf("no %s", id)
			}
		}
		if !strings.Contains(out, f.Label) {
			t.Errorf("label %q missing", f.Label)
		}
		// What may be typed is shown before a value is refused: the
		// custom target and the room showed nothing (a learner's review).
		if f.Kind != fleet.KindBool && f.Kind != fleet.KindChoice && !strings.Contains(out, `id="range-`+f.Key+`"`) {
			t.Errorf("%s shows no range or form", f.Key)
		}
	}
	if strings.Contains(out, `id="err-`) {
		t.Error("an error shown for the default configuration")
	}
	if !strings.Contains(out, "1 – 10000 (live runs ≤ 500)") {
		t.Error("the workers range is not shown")
	}
}

// The page's first mount renders the first group of settings alone; the
// rest come after its first paint, in steps (Playground.groups,
// mountSteps). Rendered whole, every field is there
// (TestControlsRenderEveryField).
func TestControlsGroups(t *testing.T) {
	for _, tt := range []struct {
		name   string
		page   bool // rendered by a Playground rather than alone
		shown  int  // Controls.Groups, Playground.groups
		groups int
	}{
		{"alone, whole", false, 0, len(groupTitles)},
		{"alone, first group", false, 1, 1},
		{"alone, to the budget", false, mountSteps[0], 5},
		{"alone, more than there are", false, 99, len(groupTitles)},
		{"page, first mount", true, 1, 1},
		{"page, a step on", true, mountSteps[0], 5},
		{"page, settled", true, 0, len(groupTitles)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newLab()
			var out string
			if tt.page {
				out = renderHTML(&Playground{lab: l, ready: true, groups: tt.shown})
			} else {
				out = renderHTML(&Controls{Lab: l, Rev: l.cfgRev, Groups: tt.shown})
			}
			if n := strings.Count(out, `id="group-`); n != tt.groups {
				t.Errorf("%d groups rendered, want %d", n, tt.groups)
			}
			for i, g := range groupTitles {
				if got := strings.Contains(out, `id="group-`+g.id+`"`); got != (i < tt.groups) {
					t.Errorf("group %s rendered: %v, want %v", g.id, got, i < tt.groups)
				}
			}
			for _, f := range fleet.Fields {
				if f.Group != groupTitles[0].id {
					continue
				}
				if !strings.Contains(out, `id="f-`+f.Key+`"`) {
					t.Errorf("the first group's %s is not rendered", f.Key)
				}
			}
			if tt.page {
				if got := isTrue(tagWith(out, `data-ready`), "data-settled"); got != (tt.shown == 0) {
					t.Errorf("main says settled: %v, want %v", got, tt.shown == 0)
				}
			}
		})
	}
}

func TestControlsShowErrorBesideInput(t *testing.T) {
	l := newLab()
	l.Set("workers", "abc")
	out := renderHTML(&Controls{Lab: l, Rev: l.cfgRev})
	i := strings.Index(out, `id="err-workers"`)
	if i < 0 {
		t.Fatal("no #err-workers")
	}
	if !strings.Contains(out[i:], `abc`) {
		t.Error("the message does not quote the value")
	}
	if !isTrue(tagWith(out, `id="f-workers"`), "aria-invalid") {
		t.Error("the input is not marked aria-invalid")
	}
	if !strings.Contains(out, `value="abc"`) {
		t.Error("the typed text is not kept in the input")
	}
	bar := renderHTML(&RunBar{Lab: l, Rev: l.cfgRev})
	if run := tagWith(bar, `id="run"`); !isTrue(run, "disabled") {
		t.Errorf("Run is not disabled with an invalid field: %s", run)
	}
	if !strings.Contains(bar, "Fix 1 field") {
		t.Error("the status does not say a field must be fixed")
	}
}

func TestPresetBarMarksActive(t *testing.T) {
	l := newLab()
	l.Preset("flood")
	out := renderHTML(&PresetBar{Lab: l, Rev: l.cfgRev})
	for _, p := range fleet.Presets {
		if !strings.Contains(out, `id="preset-`+p.ID+`"`) {
			t.Errorf("no button for preset %q", p.ID)
		}
	}
	flood := fleet.Presets[0]
	if !strings.Contains(out, flood.Caption[:40]) {
		t.Error("the active preset's caption is not shown")
	}
	if btn := tagWith(out, `id="preset-flood"`); !isTrue(btn, "aria-pressed") {
		t.Errorf("flood button not pressed: %s", btn)
	}
}

func TestNumbersCarryRawValues(t *testing.T) {
	l := newLab()
	l.stats = fleet.Stats{Requests: 42, Limited: 30, FirstTries: 12, Retries: 30}
	l.hasStats = true
	out := renderHTML(&Numbers{Lab: l, Rev: 1})
	for name, want := range map[string]string{"requests": "42", "limited": "30", "retries": "30", "first_tries": "12"} {
		if tag := tagWith(out, `data-stat="`+name+`"`); !strings.Contains(tag, `data-value="`+want+`"`) {
			t.Errorf("stat %s: %q, want data-value %s", name, tag, want)
		}
	}
}

// A run that measured no completion time (no job completed: each one that
// ended was cancelled, or none ended yet) or no lateness (no outcome in
// yet) shows "–" and why, not "0 µs" as if jobs had completed at once.
func TestNumbersSayWhatIsNotMeasuredYet(t *testing.T) {
	for _, c := range []struct {
		name    string
		st      fleet.Stats
		running bool
		want    map[string]string // a card's name: its line, with "–" as its value
	}{
		{"the first requests in flight", fleet.Stats{Requests: 2, FirstTries: 2, InFlight: 2, QueuedN: 0}, true,
			map[string]string{"completion_p50_ms": noneCompleted, "completion_p99_ms": noneCompleted, "lateness_p99_ms": "no outcome yet"}},
		{"stopped before any job completed", fleet.Stats{Requests: 2, FirstTries: 2, Aborted: 2, Jobs: 2, GiveUps: 2, Cancelled: 2, LatenessN: 2, Drain: 2 * time.Second}, false,
			map[string]string{"completion_p50_ms": noneCompleted, "completion_p99_ms": noneCompleted}},
		{"stopped before any request", fleet.Stats{}, false, map[string]string{"lateness_p99_ms": "no request sent"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLab()
			l.stats, l.hasStats, l.running = c.st, true, c.running
			out := renderHTML(&Numbers{Lab: l, Rev: 1})
			for name, line := range c.want {
				i := strings.Index(out, `data-stat="`+name+`"`)
				if i < 0 {
					t.Fatalf("no %s card", name)
				}
				card := out[i : i+strings.Index(out[i:], "</div>")]
				if !saysNone(card) || !strings.Contains(card, ">"+line+"<") || strings.Contains(card, "0 µs") {
					t.Errorf("%s: want – and %q:\n%s", name, line, card)
				}
			}
		})
	}
}

// Before a run the panel shows no figures: a dash for each number and what
// it is, no line made of zeros ("max 0 µs"); after a run the lines carry
// the run's figures, the description moving to the tooltip.
func TestNumbersBeforeARun(t *testing.T) {
	out := renderHTML(&Numbers{Lab: newLab(), Rev: 1})
	for _, absent := range []string{"max 0", "0 in flight", "p50 0", "0% of requests", "0 retries"} {
		if strings.Contains(out, absent) {
			t.Errorf("before a run the numbers say %q", absent)
		}
	}
	for _, present := range []string{"–", "fetch start − intended", "failed requests per success"} {
		if !strings.Contains(out, present) {
			t.Errorf("before a run the numbers lack %q", present)
		}
	}
	l := newLab()
	l.stats = fleet.Stats{Requests: 3, InFlight: 1, CompletionMax: 2 * time.Second, CompletionN: 1, LatenessN: 2}
	l.hasStats = true
	out = renderHTML(&Numbers{Lab: l, Rev: 1})
	for _, present := range []string{nbsp(">1_in_flight<"), nbsp(">max_2.00_s<"), `title="fetch start − intended; p50`} {
		if !strings.Contains(out, present) {
			t.Errorf("after a run the numbers lack %q", present)
		}
	}
}

// Wasted per success with no success is no ratio: a run whose every job
// gave up showed "0" (fleet.Stats's 0), which reads as nothing wasted. It
// shows "–" and what was wasted; against a baseline with no success, the
// baseline's figure is "–" with no change from it.
func TestWastedPerSuccessWithNoSuccess(t *testing.T) {
	inner := func(l *Lab) string {
		out := renderHTML(&Numbers{Lab: l, Rev: 1})
		i := strings.Index(out, `data-stat="wasted_per_success"`)
		return out[i : i+strings.Index(out[i:], "</div>")]
	}
	for _, c := range []struct {
		name string
		st   fleet.Stats
		want []string
	}{
		{"every job gave up", fleet.Stats{Requests: 15, Failed: 15, Jobs: 5, GiveUps: 5}, []string{`<span aria-hidden>–</span>`, `<span class="sr-only">none</span>`, "no success: 15 requests wasted"}},
		{"one answer", fleet.Stats{Requests: 2, Limited: 1, InFlight: 1}, []string{`<span aria-hidden>–</span>`, `<span class="sr-only">none</span>`, "no success: 1 request wasted"}},
		// Short enough for the narrowest card, whole in its tooltip.
		{"300,000 answers", fleet.Stats{Requests: 300000, Failed: 300000, Jobs: 30000, GiveUps: 30000},
			[]string{`<span aria-hidden>–</span>`, `<span class="sr-only">none</span>`, `title="failed requests per success; no success: 300,000 requests wasted"`, `>no success: 300k requests wasted<`}},
		{"nothing answered yet", fleet.Stats{Requests: 4, InFlight: 4}, []string{`<span aria-hidden>–</span>`, `<span class="sr-only">none</span>`, "no success yet"}},
		{"a success", fleet.Stats{Requests: 4, OK: 1, Limited: 3, Successes: 1, Jobs: 1, WastedPerSuccess: 3}, []string{`<span class="v">3</span>`, "failed requests per success"}},
		// Stop's aborted requests are among the wasted: the card says so.
		{"a success and aborts", fleet.Stats{Requests: 195 + 18, OK: 18, Limited: 105, Aborted: 90, Successes: 18, Jobs: 18, WastedPerSuccess: 195.0 / 18},
			[]string{`<span class="v">10.83</span>`, ">incl. 90\u00a0aborted<"}},
		// No success: the line says how many were wasted, aborts among them.
		{"no success, many aborted", fleet.Stats{Requests: 600000, Limited: 300000, Aborted: 300000, Jobs: 10, GiveUps: 10},
			[]string{`<span aria-hidden>–</span>`, `<span class="sr-only">none</span>`, `title="failed requests per success; no success: 600,000 requests wasted"`, `>no success: 600k requests wasted<`}},
	} {
		l := newLab()
		l.stats, l.hasStats = c.st, true
		got := inner(l)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the card %q lacks %q", c.name, got, w)
			}
		}
	}
	l := newLab()
	l.stats, l.hasStats = fleet.Stats{Requests: 4, OK: 1, Limited: 3, Successes: 1, Jobs: 1, WastedPerSuccess: 3}, true
	l.base = &baseline{run: -1, list: statList(&fleet.Stats{Requests: 15, Failed: 15, Jobs: 5, GiveUps: 5}, 0, endLive, 0)}
	if got := inner(l); !strings.Contains(got, ">baseline –</span>") {
		t.Errorf("against a baseline with no success: %q, want \"baseline –\" and no change", got)
	}
}

// The dispersion of a run without retries measured nothing: its 0 read as
// retries perfectly paced (the fleet-bucket step of the story sends none).
// With every retry in one slice it is their number, and says so.
func TestDispersionWithoutRetries(t *testing.T) {
	for _, c := range []struct {
		name string
		st   fleet.Stats
		disp float64
		want []string
	}{
		{"no retries", fleet.Stats{Requests: 4, FirstTries: 4, OK: 4}, 0, []string{`<span aria-hidden>–</span>`, `<span class="sr-only">none</span>`, `>no retries</span>`}},
		{"retries", fleet.Stats{Requests: 8, FirstTries: 4, Retries: 4}, 2.5, []string{`<span class="v">2.5</span>`}},
		// Every retry in one slice, the most synchronised run: it showed 0,
		// which reads as retries evenly paced (fleet.Dispersion).
		{"all in one slice", fleet.Stats{Requests: 40, FirstTries: 20, Retries: 20}, 20, []string{`<span class="v">20</span>`, nbsp(`>all in one 100_ms_slice</span>`)}},
		{"a single retry", fleet.Stats{Requests: 5, FirstTries: 4, Retries: 1}, 1, []string{`<span class="v">1</span>`, `>a single retry</span>`}},
	} {
		l := newLab()
		l.stats, l.disp, l.hasStats = c.st, c.disp, true
		out := renderHTML(&Numbers{Lab: l, Rev: 1})
		i := strings.Index(out, `data-stat="dispersion"`)
		card := out[i : i+strings.Index(out[i:], "</div>")]
		for _, w := range c.want {
			if !strings.Contains(card, w) {
				t.Errorf("%s: the card %q lacks %q", c.name, card, w)
			}
		}
	}
}

// The percentiles' tooltips say how they are computed: nearest rank, as
// fleet.Stats does for every one of them.
func TestPercentilesSayHowTheyAreComputed(t *testing.T) {
	l := newLab()
	l.stats, l.hasStats = fleet.Stats{Requests: 3, Jobs: 3, Successes: 3, CompletionP50: time.Second, CompletionP99: 2 * time.Second}, true
	out := renderHTML(&Numbers{Lab: l, Rev: 1})
	for _, name := range []string{"completion_p50_ms", "completion_p99_ms", "lateness_p99_ms", "queued_p99_ms"} {
		i := strings.Index(out, `data-stat="`+name+`"`)
		card := out[i : i+strings.Index(out[i:], "</div>")]
		if !strings.Contains(card, "nearest-rank percentile") {
			t.Errorf("%s: the tooltip does not say how it is computed: %s", name, card)
		}
	}
}

func TestNoticeNamesBadFields(t *testing.T) {
	l := newLab()
	u, _ := url.Parse("http://localhost/?workers=10001&bogus=1")
	l.Load(u)
	out := renderHTML(&Notice{Lab: l, Rev: l.cfgRev})
	if !strings.Contains(out, `id="url-notice"`) || !strings.Contains(out, "bogus") || !strings.Contains(out, "10001") {
		t.Errorf("notice: %s", out)
	}
	if got := renderHTML(&Notice{Lab: newLab()}); strings.Contains(got, "url-notice") {
		t.Error("notice shown for a clean URL")
	}

	// A long value, or a long unknown name, is cut as every refused
	// value is (64 bytes and "…"): 10,000 digits filled two screens above
	// Run, and the alert read them all out (a robustness review).
	long, name := strings.Repeat("9", 10000), strings.Repeat("x", 5000)
	l = newLab()
	u, _ = url.Parse("http://localhost/?workers=" + long + "&" + name + "=1&jobs=3")
	l.Load(u)
	out = renderHTML(&Notice{Lab: l, Rev: l.cfgRev})
	if strings.Contains(out, long[:65]) || strings.Contains(out, name[:65]) || !strings.Contains(out, long[:64]+"…") || !strings.Contains(out, name[:64]+"…") {
		t.Errorf("a long value or name is not cut to 64 bytes in the notice (%d bytes)", len(out))
	}
	if len(out) > 3000 {
		t.Errorf("the notice is %d bytes long", len(out))
	}
}

func TestCustomTargetExplainsCORS(t *testing.T) {
	l := newLab()
	l.Set("target", "https://api.example.com/items")
	out := renderHTML(&RunBar{Lab: l, Rev: l.cfgRev})
	if !strings.Contains(out, `id="cors-note"`) || !strings.Contains(out, "Access-Control-Expose-Headers") {
		t.Error("no CORS explanation with a custom target")
	}
	// Twenty workers against a server answering in 300 ms: the server saw
	// six at once, and the page drew 1.5 s flights, the browser's queue
	// counted as the server's time (no Timing-Allow-Origin): say so.
	if !strings.Contains(out, "six connections") || !strings.Contains(out, "reads as time in flight") {
		t.Errorf("the CORS note does not say that workers past six wait in the browser, unseen: %s", out)
	}
}

func TestPlaygroundPage(t *testing.T) {
	e := app.NewTestEngine()
	p := &Playground{}
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	out := renderHTML(p)
	for _, want := range []string{`<main`, `id="timeline"`, `id="timeline-overlay"`, `id="legend"`, `id="run"`, `id="stop"`,
		`id="export-json"`, `id="copy-link"`, `id="numbers"`, `id="endpoint-url"`} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Natively OnMount is not called: the page is not marked ready.
	if strings.Contains(out, `data-ready="true"`) {
		t.Error("marked ready without OnMount")
	}
}

// The shell the server prerenders is the header alone.
func TestPlaygroundShell(t *testing.T) {
	e := app.NewTestEngine()
	p := &Playground{Shell: true}
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	out := renderHTML(p)
	if !strings.Contains(out, "Retry Lab") || !strings.Contains(out, "<noscript") {
		t.Errorf("shell lacks the title or the noscript note:\n%s", out)
	}
	for _, absent := range []string{`id="timeline"`, `id="run"`, `id="numbers"`, `<input`} {
		if strings.Contains(out, absent) {
			t.Errorf("shell renders %s", absent)
		}
	}
}

// A watch's legend leaves out what only this page's own fleet draws
// (waits, bars in flight, aborts, give-ups, its bucket's line) and keeps
// what a watch draws: the server's answers, its limit, its outages.
func TestWatchLegend(t *testing.T) {
	fleetOnly := []string{"aborted", "in flight", "request in flight", "held by the browser", "backoff wait", "Retry-After wait", "reset-hint wait", "fleet-bucket wait", "gave up", "fleet bucket rate"}
	both := []string{"2xx success", "429 / 503", "other failure", "timeout", "tab hidden", "server down", "limit halved", "another client", "server limit"}
	run, watch := renderHTML(&Legend{}), renderHTML(&Legend{Shows: showsWatch})
	for _, label := range append(fleetOnly, both...) {
		if !strings.Contains(run, ">"+label+"<") {
			t.Errorf("a run's legend lacks %q", label)
		}
	}
	for _, label := range fleetOnly {
		if strings.Contains(watch, ">"+label+"<") {
			t.Errorf("a watch's legend lists %q, which a watch never draws", label)
		}
	}
	for _, label := range both {
		if !strings.Contains(watch, ">"+label+"<") {
			t.Errorf("a watch's legend lacks %q", label)
		}
	}
}

// A simulation's legend, on the page, leaves out what only a browser and a
// server make, which virtual time never draws: time held by the browser,
// lateness of the page's thread, a hidden tab, a halved limit, another
// client's requests. It listed them all, as a run's.
func TestSimulationLegend(t *testing.T) {
	never := []string{"held by the browser", "late", "tab hidden", "limit halved", "another client"}
	l := newLab()
	l.page = &url.URL{Scheme: "http", Host: "localhost:8080", Path: "/"}
	finishRun(l, oneJob(), false)
	run := renderHTML(&Playground{lab: l, ready: true})
	finishRun(l, oneJob(), true)
	page := renderHTML(&Playground{lab: l, ready: true})
	for _, it := range append(slices.Clone(legendOutcomes), legendPhases...) {
		if !strings.Contains(run, ">"+it.label+"</li>") {
			t.Errorf("a run's legend lacks %q", it.label)
		}
		// What a simulation never draws keeps its place, struck through and not
		// read out (class absent, aria-hidden): the legend keeps its height.
		li := regexp.MustCompile(`<li( class="absent" aria-hidden="true")?[^>]*>(?:<span[^>]*></span>)+` + regexp.QuoteMeta(it.label) + `</li>`).FindStringSubmatch(page)
		switch {
		case li == nil:
			t.Errorf("a simulation's legend lacks %q, even struck through", it.label)
		case li[1] == "" && slices.Contains(never, it.label):
			t.Errorf("a simulation's legend lists %q, which a simulation never draws", it.label)
		case li[1] != "" && !slices.Contains(never, it.label):
			t.Errorf("a simulation's legend strikes through %q", it.label)
		}
	}
}

// During a watch, and after it, the caption under the steps says what the
// lanes are: the room's devices. It read "Custom configuration: pick a
// step…", about a run nobody made.
func TestWatchCaption(t *testing.T) {
	l := newLab()
	l.watching, l.running, l.watchRoom = true, true, "room1"
	for _, phase := range []string{"watching", "watched"} {
		out := renderHTML(&PresetBar{Lab: l, Running: l.running})
		if !strings.Contains(out, "The room “room1” as its server saw it") || strings.Contains(out, "Custom configuration") {
			t.Errorf("%s: the caption does not say what is drawn:\n%s", phase, out)
		}
		l.watching, l.running, l.watched = false, false, true
	}
	l.watched = false
	if out := renderHTML(&PresetBar{Lab: l}); strings.Contains(out, "The room") {
		t.Error("a page that never watched speaks of a room")
	}
}

// A device that joined a room from its link (its own seed: no step of the
// story) read "Custom configuration: pick a step of the story to reset
// every field, or keep tuning." as the first line on its phone, and of the
// room only a name at the end of the status. The caption now says the page
// is in the room, and what Run does there. On a step the step's caption
// stays, the room's line (with the step's number) under it: the presenter
// on a projector opened on /?room=room1 (no seed: it drew its own, as a
// phone does) lost the text they teach from. A phone hides the step's
// caption in CSS (.caption.in-room .step-text, under 961 px, not
// presenting): four lines pushed Run off a 320 × 568 phone's first screen.
// With its own target the page is in no room.
func TestRoomCaption(t *testing.T) {
	type parts struct{ class, step, room, all string }
	caption := func(l *Lab) parts {
		t.Helper()
		out := renderHTML(&PresetBar{Lab: l})
		// The paragraph's tag whole: its attributes come in any order.
		at := strings.Index(out, `id="preset-caption"`)
		p, _, _ := strings.Cut(out[strings.LastIndex(out[:at], "<p"):], "</p>")
		attrs, inner, _ := strings.Cut(p, ">")
		_, cls, _ := strings.Cut(attrs, `class="`)
		cls, _, _ = strings.Cut(cls, `"`)
		span := func(c string) string {
			_, r, ok := strings.Cut(inner, `class="`+c+`">`)
			if !ok {
				return ""
			}
			r, _, _ = strings.Cut(r, "<")
			return html.UnescapeString(strings.TrimSpace(r))
		}
		all := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(inner, "")
		return parts{cls, span("step-text"), span("room-line"), html.UnescapeString(strings.Join(strings.Fields(all), " "))}
	}
	l := newLab()
	l.s.Room, l.s.Seed, l.s.Workers, l.device = "room1", 4242, 33, "finch-09b"
	if got, want := caption(l).all, "In room “room1” as finch-09b: press Run, your requests share the room's limit."; got != want {
		t.Errorf("a page in a room on its own configuration: caption %q, want %q", got, want)
	}
	l.Preset("full-jitter")
	if l.s.Room != "room1" {
		t.Errorf("a step of the story left the room: %q", l.s.Room)
	}
	roomLine := "In room “room1” as finch-09b, step 3: press Run, your requests share the room's limit."
	want := parts{"caption in-room", fleet.Presets[2].Caption, roomLine, fleet.Presets[2].Caption + " " + roomLine}
	if got := caption(l); got != want {
		t.Errorf("step 3 on a page that set the room itself: caption %+v, want %+v", got, want)
	}
	// The presenter's projector opened on /?room=room1 (the README's
	// setup) drew a seed of its own, as a phone that joined from the
	// room's link does: step 5's caption stays, the room's line under it.
	l.s.Seed, l.drewSeed = 4242, true
	l.Preset("outage")
	roomLine = "In room “room1” as finch-09b, step 5: press Run, your requests share the room's limit."
	if got, want := caption(l), (parts{"caption in-room", fleet.Presets[4].Caption, roomLine, fleet.Presets[4].Caption + " " + roomLine}); got != want {
		t.Errorf("a page that drew its seed, on step 5: caption %+v, want %+v", got, want)
	}
	if l.ActivePreset() != "outage" {
		t.Errorf("step 5 in a room, the device's own seed: active step %q", l.ActivePreset())
	}
	l.s.Target = "http://example.com/api"
	if got := caption(l); !strings.HasPrefix(got.all, "Custom configuration") || got.class != "caption" {
		t.Errorf("a page with its own target: caption %+v, want the custom one", got)
	}
}

// The fault buttons' titles say what they do to this configuration's
// server: the Burst's "twice what it lets through at once" was false with
// no limiter (20 requests) and past the 1,000 cap, and Halve limit's "says
// so in its headers" with no rate-limit headers (found by review).
func TestFaultTitlesFitTheServer(t *testing.T) {
	for _, c := range []struct {
		query      string
		burst      string
		halve      string
		halveNotIn string
	}{
		{"limiter=bucket&burst=10", "sends 20 requests at once to the same limit — twice what it lets through at once —", "allows half its limit", "headers"},
		{"limiter=fixed&limit=7&headers=ietf", "sends 14 requests at once to the same limit — twice", "and its rate-limit headers say so", "changes nothing"},
		{"limiter=bucket&burst=900", "sends 1000 requests at once to the same limit (the most the button sends)", "allows half its limit", "twice"},
		{"limiter=none", "sends 20 requests at once to the same server; it has no limit", "changes nothing", "allows half"},
	} {
		q, _ := url.ParseQuery(c.query)
		s, notes := fleet.FromQuery(q)
		if len(notes) > 0 {
			t.Fatalf("%s: %v", c.query, notes)
		}
		if got := burstTitle(&s); !strings.Contains(got, c.burst) {
			t.Errorf("%s: Burst's title %q, want it to say %q", c.query, got, c.burst)
		}
		if got := halveTitle(&s); !strings.Contains(got, c.halve) || strings.Contains(got, c.halveNotIn) {
			t.Errorf("%s: Halve limit's title %q, want %q and not %q", c.query, got, c.halve, c.halveNotIn)
		}
	}
	// With a custom target, off: each title says why (they said only what
	// they would do; a review).
	l := newLab()
	bar := renderHTML(&RunBar{Lab: l})
	if strings.Contains(bar, "Off with a custom target") {
		t.Error("the fault switches say they are off for a custom target, on the mock")
	}
	// Before a run, off too, and each says when they work (a phone's tap
	// on a disabled switch shows its title, and showed what it would do).
	if strings.Count(bar, "Off now: "+faultWhen) != 3 {
		t.Errorf("before a run, the fault switches' titles: %s", bar)
	}
	l.running = true
	if bar = renderHTML(&RunBar{Lab: l}); strings.Contains(bar, "Off now") {
		t.Errorf("during a live run, a fault switch's title says it is off: %s", bar)
	}
	l.running = false
	l.s.Target = "http://example.com/api"
	if bar = renderHTML(&RunBar{Lab: l}); strings.Count(bar, "Off with a custom target: only the built-in mock can be switched from here") != 3 {
		t.Errorf("with a custom target, the fault switches' titles: %s", bar)
	}
}

// TestHelpListsEveryShortcut: the shortcuts dialog, its text written as
// HTML (helpHTML), shows each shortcut's keys as key caps, escaped, beside
// what it does (a run of keys, the story's steps, as its first and last),
// under the title that names the dialog.
func TestHelpListsEveryShortcut(t *testing.T) {
	out := renderHTML(&Help{Lab: newLab(), Open: true})
	if !strings.Contains(out, `aria-labelledby="help-title"`) || !strings.Contains(out, `<h2 id="help-title"`) {
		t.Errorf("the dialog is not named by its title: %.200s", out)
	}
	for _, sc := range shortcuts {
		caps := ""
		for _, k := range sc.keys {
			caps += "<kbd>" + html.EscapeString(k) + "</kbd>"
		}
		if len(sc.keys) > 3 { // a run of keys: its first and last
			caps = "<kbd>" + sc.keys[0] + "</kbd>–<kbd>" + sc.keys[len(sc.keys)-1] + "</kbd>"
		}
		if row := "<div><dt>" + caps + "</dt><dd>" + html.EscapeString(sc.what) + "</dd></div>"; !strings.Contains(out, row) {
			t.Errorf("the dialog lacks the row %s", row)
		}
	}
	if !strings.Contains(out, "<kbd>1</kbd>–<kbd>"+strconv.Itoa(min(len(fleet.Presets), 9))+"</kbd>") {
		t.Error("the dialog does not show the story's steps' keys as a run, 1–7")
	}
}

// saysNone: a number card shows "–" for no figure, and a screen reader
// hears "none" (it said "en dash": an accessibility review).
func saysNone(card string) bool {
	return strings.Contains(card, `<span aria-hidden>–</span>`) && strings.Contains(card, `<span class="sr-only">none</span>`)
}

// Before any run every card shows "–", and a screen reader hears "no run
// yet", not "en dash".
func TestNumbersBeforeARunSayNoRunYet(t *testing.T) {
	out := renderHTML(&Numbers{Lab: newLab(), Rev: 1})
	cards := len(regexp.MustCompile(`<div[^>]*data-stat=`).FindAllString(out, -1))
	if cards == 0 {
		t.Fatal("no number cards")
	}
	if n := strings.Count(out, `<span class="sr-only">no run yet</span>`); n != cards {
		t.Errorf("%d of %d cards say \"no run yet\" to a screen reader:\n%s", n, cards, out)
	}
	if strings.Contains(out, `<span class="v">–</span>`) {
		t.Errorf("a card's \"–\" is read out:\n%s", out)
	}
}

// A note that only says what Simulate cannot do while Run works as set (a
// custom target) is information, not drawn as a warning; a note on what
// Run cannot do (more than 500 workers) or on a link's refused value is
// (a review took the custom target's note for something to fix).
func TestNotesWarnOnlyWhenRunIsAffected(t *testing.T) {
	for _, c := range []struct {
		query, key string
		warn       bool
	}{
		{"?target=http%3A%2F%2Fapi.example.com%2Fx", "target", false},
		{"?workers=600", "workers", true},
		{"?workers=0", "workers", true},
	} {
		l := newLab()
		l.Load(mustURL(t, "http://localhost:8080/"+c.query))
		out := renderHTML(&Controls{Lab: l, Rev: l.cfgRev})
		i := strings.Index(out, `id="note-`+c.key+`"`)
		if i < 0 {
			t.Errorf("%s: no note beside %s", c.query, c.key)
			continue
		}
		start := strings.LastIndex(out[:i], "<p")
		tag := out[start : i+strings.Index(out[i:], ">")]
		if got := strings.Contains(tag, "var(--warn)"); got != c.warn {
			t.Errorf("%s: note beside %s drawn as a warning %v, want %v (%s)", c.query, c.key, got, c.warn, tag)
		}
	}
}

// The join panel warns the presenter when the link gives each device more
// workers than its browser sends at once on the network address (a
// review's phones ran 50 each, held by the browser); not at 5 or fewer.
func TestJoinPanelWarnsOfTooManyWorkers(t *testing.T) {
	for _, c := range []struct {
		workers int
		warn    bool
	}{{50, true}, {6, true}, {5, false}, {1, false}} {
		l := newLab()
		l.watched, l.watchRoom = true, "room1"
		l.join = joinState{Asked: true, Links: []string{"http://192.168.1.5:8080/?room=room1"}, Workers: c.workers}
		out := renderHTML(&JoinPanel{Lab: l})
		i := strings.Index(out, `id="join-workers"`)
		if (i >= 0) != c.warn {
			t.Errorf("%d workers a device: warned %v, want %v", c.workers, i >= 0, c.warn)
			continue
		}
		if c.warn && !strings.Contains(out[i:], "Each device runs "+strconv.Itoa(c.workers)+" workers, and on this address its browser sends at most 5 requests at once") {
			t.Errorf("%d workers a device: %s", c.workers, out[i:min(len(out), i+400)])
		}
	}
}

// "1.000", as German writes a thousand, typed into a number field is 1: the
// field says what it read, beside the input and in its description, lest
// a server rate of 1 be run for one of 1000 without a word (a review in
// a German browser). "1.5" says nothing, nor does a count field, which
// refuses "1.000" saying how to write it.
func TestFieldSaysAPointWasReadAsADecimalPoint(t *testing.T) {
	l := newLab()
	l.Type("rate", "1.000")
	l.Type("mult", "1.5")
	l.Type("workers", "1.000")
	out := renderHTML(&Controls{Lab: l, Rev: l.cfgRev})
	i := strings.Index(out, `id="info-rate"`)
	if i < 0 {
		t.Fatal("no #info-rate beside Server rate 1.000")
	}
	if want := "Read as 1: a point is a decimal point here (a thousand is 1000, with no separator)."; !strings.Contains(out[i:], want) {
		t.Errorf("#info-rate does not say %q", want)
	}
	if d := tagWith(out, `id="f-rate"`); !strings.Contains(d, "info-rate") {
		t.Errorf("the input is not described by its info: %s", d)
	}
	if strings.Contains(out, `id="info-mult"`) {
		t.Error("Multiplier 1.5 says how it read a point")
	}
	if i := strings.Index(out, `id="err-workers"`); i < 0 || !strings.Contains(out[i:], "with no thousands separator: 1000") {
		t.Error("Workers 1.000 is not refused saying how to write a thousand")
	}
}
