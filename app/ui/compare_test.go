//go:build !(js && wasm)

package ui

import (
	"cmp"
	"context"
	"encoding/json"
	"html"
	"math"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// finishRun shows a finished run of recs for the lab's configuration, as
// Run's end does: the view's model, the recording and the numbers.
func finishRun(l *Lab, recs []fleet.Record, simulated bool) {
	l.runs++
	l.view.start(l.s, t0, "")
	for _, r := range recs {
		l.view.onRecord(r)
	}
	end := recs[len(recs)-1].Event.At
	l.view.finish(end)
	l.rec = fleet.NewRecording(l.s, t0, simulated)
	l.rec.Append(recs...)
	l.rec.Finish(end)
	l.stats = fleet.StatsOf(t0, recs)
	l.hasStats = true
	l.running = false
	l.learnNoise()
}

func TestCompareRules(t *testing.T) {
	l := newLab()
	if l.CanCompare() || !isTrue(tagWith(renderHTML(&RunBar{Lab: l}), `id="compare-keep"`), "disabled") {
		t.Fatal("Keep as baseline offered before any run")
	}
	l.Preset("full-jitter")
	finishRun(l, oneJob(), true)
	if !l.CanCompare() {
		t.Fatal("a finished simulation cannot become the baseline")
	}
	l.Compare()
	if l.base == nil || l.base.label() != "Full jitter (step 3), simulated (run 1)" {
		t.Fatalf("baseline %+v", l.base)
	}
	if d := l.view.base; len(d.sends) != 2 || d.sends[0] != 52*time.Millisecond || d.span != 1150*time.Millisecond {
		t.Errorf("the baseline's outline: %+v, want sends at 52 ms and 1.101 s over 1.15 s", d)
	}

	// Just kept, it is the run shown: not compared with itself, and the
	// button says so (pressing it again clears it).
	if l.CanCompare() {
		t.Error("the baseline itself is offered as a baseline again")
	}
	if tag := tagWith(renderHTML(&RunBar{Lab: l}), `id="compare-keep"`); isTrue(tag, "disabled") || !isTrue(tag, "aria-pressed") {
		t.Errorf("Keep as baseline on the baseline itself: %s", tag)
	}
	if out := renderHTML(&Numbers{Lab: l}); strings.Contains(out, "data-base") {
		t.Error("the baseline's own numbers are compared with themselves")
	}
	l.view.mu.Lock()
	_, in := l.view.frameFor(nil)
	l.view.mu.Unlock()
	if in.base != nil || l.comparedWith() != "" {
		t.Error("the baseline's outline is drawn over its own run")
	}
	if bar := renderHTML(&CompareBar{Lab: l}); !strings.Contains(bar, "Full jitter (step 3), simulated (run 1)") ||
		!strings.Contains(bar, "the next run or simulation is drawn") || !strings.Contains(bar, `id="clear-baseline"`) {
		t.Errorf("compare bar: %s", bar)
	} else if strings.Contains(tagWith(bar, `id="compare"`), "role=") || !strings.Contains(tagWith(bar, `class="compare-said"`), `role="status"`) ||
		strings.Count(bar, `role="status"`) != 1 {
		// The live region is the words alone, not the bar with its button:
		// "…against it.Clear baseline" was said (an accessibility review).
		t.Errorf("the compare bar's live region is not its words alone: %s", bar)
	}

	// While the next run goes on, each number shows the baseline's whole
	// run's figure, without a change: the run's numbers are partial.
	l.Set("cap", "5s") // a change in effect (another seed alone is chance)
	l.runs++
	l.running, l.rec, l.stats = true, nil, fleet.Stats{Requests: 1}
	if out := renderHTML(&Numbers{Lab: l}); !strings.Contains(out, ">baseline 2 (whole run)<") || strings.Contains(out, "−100%") {
		t.Errorf("numbers during the next run:\n%s", out)
	}
	l.runs--

	// Once over, it is counted against the baseline: the figure and the
	// change; lateness and queueing, which a simulation does not measure,
	// are not compared between a live run and a simulation.
	recs := append(oneJob(), oneJob()...)
	for i := range recs[len(recs)/2:] {
		recs[len(recs)/2+i].Worker = 2
	}
	finishRun(l, recs, false)
	if !l.CanCompare() {
		t.Error("a later run cannot replace the baseline")
	}
	out := renderHTML(&Numbers{Lab: l})
	if tag := tagWith(out, `data-stat="requests"`); !strings.Contains(tag, `data-value="4"`) || !strings.Contains(tag, `data-base="2"`) {
		t.Errorf("requests against the baseline: %q", tag)
	}
	for _, want := range []string{"baseline 2 · +100%\n", `<span class="verdict worse"> worse</span>`, `aria-label="baseline 2, 100% more, worse"`, ">baseline 1 · same<"} {
		if !strings.Contains(out, want) {
			t.Errorf("numbers lack %q:\n%s", want, out)
		}
	}
	if tag := tagWith(out, `data-stat="lateness_p99_ms"`); strings.Contains(tag, "data-base") {
		t.Errorf("a live run's lateness compared with a simulation's: %s", tag)
	}
	l.view.mu.Lock()
	_, in = l.view.frameFor(&pngHead{title: "Retry Lab"}) // the PNG's frame too
	l.view.mu.Unlock()
	if in.base == nil || l.comparedWith() != "Full jitter (step 3), simulated (run 1)" {
		t.Error("no outline over the next run")
	}
	if bar := renderHTML(&CompareBar{Lab: l}); !strings.Contains(bar, "against Full jitter (step 3) with Cap 5s, live (run 2): its numbers are beside each of this run") {
		t.Errorf("compare bar after the next run: %s", bar)
	}
	l.publish()
	if s := l.stateJSON(); !strings.Contains(s, `"baseline":{"label":"Full jitter (step 3), simulated (run 1)","stats":{`) || !strings.Contains(s, `"requests":2`) {
		t.Errorf("state lacks the baseline: %s", s)
	}

	// Another workload's size: its counts are set beside the baseline's
	// but not called better or worse, and the bar says why.
	l.Set("workers", "7")
	finishRun(l, recs, false)
	out = renderHTML(&Numbers{Lab: l})
	if !strings.Contains(out, `aria-label="baseline 2, 100% more"`) || strings.Contains(out, "verdict worse") {
		t.Errorf("counts judged against a baseline of another size:\n%s", out)
	}
	if bar := renderHTML(&CompareBar{Lab: l}); !strings.Contains(bar, "The workloads differ (14 jobs against 100): the counts and the time to drain are not called better or worse.") {
		t.Errorf("compare bar with another workload size: %s", bar)
	}

	// A watch is not compared, and compares nothing.
	l.watched = true
	if l.CanCompare() || strings.Contains(renderHTML(&Numbers{Lab: l}), "data-base") || l.comparedWith() != "" {
		t.Error("a watch offers or shows a comparison")
	}
	if bar := renderHTML(&CompareBar{Lab: l}); !strings.Contains(bar, "a watch of a shared room is not compared") {
		t.Errorf("compare bar during a watch: %s", bar)
	}
	l.watched = false

	// c on the baseline itself clears it; the clear button too.
	if old := l.Compare(); old != "Full jitter (step 3), simulated (run 1)" { // the later run becomes the baseline, and says which it replaced
		t.Errorf("Compare on a later run replaced %q", old)
	}
	if l.base == nil || l.base.label() != "Full jitter (step 3) with Workers 7 and Cap 5s, live (run 3)" {
		t.Fatalf("baseline after a second Compare: %+v", l.base)
	}
	if old := l.Compare(); old != "" || l.base != nil || l.view.base != nil {
		t.Error("Compare on the baseline itself did not clear it")
	}
	if strings.Contains(renderHTML(&Numbers{Lab: l}), "data-base") {
		t.Error("numbers still compared after the baseline was cleared")
	}
	l.Compare()
	l.ClearBaseline()
	if l.base != nil || !strings.Contains(renderHTML(&CompareBar{Lab: l}), "hidden") {
		t.Error("Clear baseline left it")
	}
	l.running = true
	if l.CanCompare() {
		t.Error("Compare offered while a run goes on")
	}
}

// A replay's numbers count up to its playhead: 4 s into a replay of a
// run whose 100 jobs all succeeded they said "jobs succeeded 50 · baseline
// 100 · −50% worse", and "time to drain 4.1 s … baseline 17.33 s · −76%
// better" of a run that had not drained. Midway they are told as a run's
// going on are: beside the baseline's whole run's figures, with no change
// and no verdict, the time to drain so far, and the compare bar says so;
// at the end of the replay the changes are back.
func TestReplayIsNotJudgedAgainstTheWholeBaseline(t *testing.T) {
	l := newLab()
	l.Preset("flood")
	finishRun(l, oneJob(), true)
	l.Compare()
	l.Preset("full-jitter")
	recs := append(oneJob(), oneJob()...)
	for i := range recs[len(recs)/2:] {
		recs[len(recs)/2+i].Worker = 2
	}
	finishRun(l, recs, true)
	whole := l.stats
	partial := fleet.StatsOf(t0, recs[:len(recs)/2-1]) // the first job's records, short of its end

	card := func(out, name string) string {
		t.Helper()
		i := strings.Index(out, `data-stat="`+name+`"`)
		if i < 0 {
			t.Fatalf("no %s card", name)
		}
		return out[i : i+strings.Index(out[i:], "</div>")]
	}
	for _, c := range []struct {
		name               string
		running, replaying bool
		upTo, ends         string
	}{
		{"a replay midway", false, true, "the playhead", "the replay ends"},
		{"a run going on", true, false, "now", "the run ends"},
	} {
		l.running, l.replaying, l.stats = c.running, c.replaying, partial
		out := renderHTML(&Numbers{Lab: l})
		for _, name := range []string{"requests", "successes", "drain_ms", "completion_p99_ms"} {
			got := card(out, name)
			if !strings.Contains(got, ">baseline ") || !strings.Contains(got, " (whole run)<") || strings.Contains(got, " · ") || strings.Contains(got, "verdict") {
				t.Errorf("%s: the %s card is judged against the whole baseline, or does not say its figure is the whole run's:\n%s", c.name, name, got)
			}
		}
		if got := card(out, "drain_ms"); !strings.Contains(got, ">so far: not drained yet<") {
			t.Errorf("%s: the time to drain is not said to be so far:\n%s", c.name, got)
		}
		bar := html.UnescapeString(renderHTML(&CompareBar{Lab: l}))
		if want := "So far this run's numbers count up to " + c.upTo + ", the baseline's its whole run: the change from each is told when " + c.ends + "."; !strings.Contains(bar, want) {
			t.Errorf("%s: the compare bar %s lacks %q", c.name, bar, want)
		}
	}

	// The replay over, the whole run is judged again.
	l.running, l.replaying, l.stats = false, false, whole
	out := renderHTML(&Numbers{Lab: l})
	if got := card(out, "requests"); !strings.Contains(got, "baseline 2 · +100%") || strings.Contains(got, "whole run") {
		t.Errorf("after the replay the requests card is not compared:\n%s", got)
	}
	if got := card(out, "drain_ms"); strings.Contains(got, "so far") {
		t.Errorf("after the replay the time to drain is still so far:\n%s", got)
	}
	if bar := renderHTML(&CompareBar{Lab: l}); strings.Contains(bar, "So far") {
		t.Errorf("after the replay the compare bar says the numbers are so far: %s", bar)
	}
}

func TestBaseDelta(t *testing.T) {
	for _, c := range []struct {
		cur, base float64
		text      string
		want      string
	}{
		{100, 100, "100", "same"},
		{26, 100, "26", "−74%"},
		{104, 100, "104", "+4.0%"},
		{100.01, 100, "100.01", "same"},
		{37, 0, "37", "+37"},
		{39.2, 0, "39.2 ms", "+39.2 ms"},
		{0, 0, "0", "same"},
		{0, 3, "0", "−100%"},
		{1000, 10, "1000", "+9900%"},
		// 9.96% is written as 10% is, in the precision of its rounded
		// value: "−10.0%" made a card's baseline line a line longer than
		// "−9.9%" or "−10%" at 1280 px, so the numbers grew 13 px as a
		// run ended (TestNumbersKeepTheirHeight, in a fresh clone's CI).
		{3.39, 3.7663, "3.39 s", "−10%"},
		{90.04, 100, "90.04", "−10%"},
		{109.96, 100, "109.96", "+10%"},
		{109.94, 100, "109.94", "+9.9%"},
		{100.049, 100, "100.049", "same"},
	} {
		if got := baseDelta(c.cur, c.base, c.text); got != c.want {
			t.Errorf("baseDelta(%v, %v) = %q, want %q", c.cur, c.base, got, c.want)
		}
	}
	for d, want := range map[string]string{"−74%": "74% less", "+37": "37 more", "same": "same"} {
		if got := spokenDelta(d); got != want {
			t.Errorf("spokenDelta(%q) = %q, want %q", d, got, want)
		}
	}
}

func TestBaselineRates(t *testing.T) {
	d := baselineDraw{sends: []time.Duration{0, 100 * time.Millisecond, 900 * time.Millisecond, 1500 * time.Millisecond, 5 * time.Second}, span: 2 * time.Second}
	got := d.rates(500*time.Millisecond, 0, 10)
	want := []float64{4, 2, 0, 2, 0} // per second, in 0.5 s bins up to the run's end; the 5 s send is past it
	if len(got) != len(want) {
		t.Fatalf("rates %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("rates %v, want %v", got, want)
		}
	}
	if r := d.rates(0, 0, 10); r != nil {
		t.Errorf("rates with a zero slice: %v", r)
	}
	// From bin 2 on (zoomed in): only those bins, counted the same.
	if got := d.rates(500*time.Millisecond, 2, 10); len(got) != 3 || got[0] != 0 || math.Abs(got[1]-2) > 1e-9 || got[2] != 0 {
		t.Errorf("rates from bin 2: %v, want [0 2 0]", got)
	}
	if got := d.rates(500*time.Millisecond, 7, 10); got != nil {
		t.Errorf("rates past the run's end: %v", got)
	}
	// Zoomed in at the end of a baseline lasting 100 h: the bins in view,
	// not the 36 million before them.
	long := baselineDraw{sends: []time.Duration{0, 100 * time.Hour}, span: 100 * time.Hour}
	slice := 10 * time.Millisecond
	last := int(long.span / slice)
	if got := long.rates(slice, last-25, last+1); len(got) != 26 || got[25] != 100 {
		t.Errorf("the last bins of a 100 h baseline: %d bins, last %v", len(got), got[len(got)-1])
	}
}

// The outline and its key are drawn over the histogram, and the axis spans
// the longer of the two runs.
func TestPaintBaseline(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.finish(1150 * time.Millisecond)
	base := &baselineDraw{label: "Synchronized flood (step 1), simulated", sends: []time.Duration{0, 0, 0, 2 * time.Second, 2 * time.Second}, span: 4 * time.Second}
	l := newLayout(1000, 3, 4*time.Second, &normalTheme)
	draw := func(in frameInput) (size int, texts string) {
		var o browser.Ops
		paint(&o, &l, m, in)
		return o.Len(), strings.Join(o.Strings(), "|")
	}
	in := frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}}
	without, texts := draw(in)
	if strings.Contains(texts, "baseline") {
		t.Errorf("no baseline, yet its key is drawn: %s", texts)
	}
	in.base = base
	with, texts := draw(in)
	if !strings.Contains(texts, "baseline: Synchronized flood (step 1), simulated") {
		t.Errorf("no key for the baseline: %s", texts)
	}
	// The outline: two passes (underlay, colour) of at least one line per
	// bin of the baseline's 4 s, 5 values each.
	bins := int(4*time.Second/l.slice) + 1
	if with-without < 2*bins*5 {
		t.Errorf("the baseline added %d values to the display list, want at least %d (an outline over %d bins)", with-without, 2*bins*5, bins)
	}

	v := newView()
	v.start(fleet.Default(), t0, "")
	for _, r := range oneJob() {
		v.onRecord(r)
	}
	v.finish(at(1150))
	if got := v.span(0); got > 2*time.Second {
		t.Errorf("span without a baseline %v", got)
	}
	v.setBaseline(base, false)
	if got := v.span(0); got < 4*time.Second {
		t.Errorf("span with a 4 s baseline %v, want it all", got)
	}
}

// The baseline is in the page's address as vs=<its query>: a link opens
// with it (simulated in the page), field by field like the configuration.
func TestBaselineInTheAddress(t *testing.T) {
	l := newLab()
	l.Preset("flood")
	finishRun(l, oneJob(), false)
	l.Compare()
	l.Preset("full-jitter")
	share, err := url.Parse(l.ShareURL())
	if err != nil {
		t.Fatal(err)
	}
	q := share.Query()
	floodQ := func() string { s, _ := fleet.PresetByID("flood"); sc := s.Scenario(); return sc.Encode() }()
	if q.Get(baselineKey) != floodQ {
		t.Errorf("share link's vs=%q, want the flood's %q", q.Get(baselineKey), floodQ)
	}

	opened := newLab()
	opened.Load(share)
	if len(opened.notices) != 0 {
		t.Errorf("a link with a baseline has notices: %v", opened.notices)
	}
	if opened.ActivePreset() != "full-jitter" || opened.wantBase == nil || presetIndex(*opened.wantBase) != 0 {
		t.Errorf("opened: preset %q, baseline wanted %+v", opened.ActivePreset(), opened.wantBase)
	}
	if got, want := opened.query(), l.query(); got != want {
		t.Errorf("the opened page's query %q differs from the link's %q", got, want)
	}
	if bar := renderHTML(&CompareBar{Lab: opened}); !strings.Contains(bar, "simulating it from the link") {
		t.Errorf("compare bar while the baseline is computed: %s", bar)
	}

	for _, c := range []struct {
		name, vs, notice string
		want             bool
	}{
		{"a bad field falls back", "workers=abc&strategy=full", "baseline (vs=): ", true},
		{"a custom target cannot be simulated", "target=https%3A%2F%2Fapi.example.com%2Fx", "no baseline: it cannot be simulated", false},
		{"bad encoding", "%zz", "not valid URL encoding", false},
		{"nothing usable: no baseline", "zzz", "no baseline: none of the baseline's (vs=) fields could be used", false},
		{"no field usable: no baseline", "workers=abc", "no baseline: none of the baseline's (vs=) fields could be used", false},
		{"given twice: the first is used", "workers=7", "given 2 times; using the first", true},
		{"empty: no baseline", "", "no baseline: the baseline (vs=) is empty", false},
	} {
		u, _ := url.Parse("http://localhost:8080/?workers=20&vs=" + url.QueryEscape(c.vs))
		switch c.name {
		case "bad encoding":
			u, _ = url.Parse("http://localhost:8080/?workers=20&vs=%25zz")
		case "given twice: the first is used":
			u, _ = url.Parse("http://localhost:8080/?workers=20&vs=" + url.QueryEscape(c.vs) + "&vs=" + url.QueryEscape("target=https://x.example"))
		}
		o := newLab()
		o.Load(u)
		var msgs []string
		for _, n := range o.notices {
			msgs = append(msgs, n.Msg)
		}
		if all := strings.Join(msgs, " | "); !strings.Contains(all, c.notice) {
			t.Errorf("%s: notices %q, want one with %q", c.name, all, c.notice)
		} else if !c.want && strings.Contains(all, "using the default") {
			// It said the baseline's workers used the default 50, then
			// that there was no baseline.
			t.Errorf("%s: notices %q: a field of a baseline that is not used uses nothing", c.name, all)
		}
		if (o.wantBase != nil) != c.want || o.s.Workers != 20 {
			t.Errorf("%s: baseline wanted %v (want %v), workers %d", c.name, o.wantBase != nil, c.want, o.s.Workers)
		}
		if c.name == "given twice: the first is used" && (o.wantBase == nil || o.wantBase.Workers != 7) {
			t.Errorf("%s: baseline %+v, want the first vs= (7 workers)", c.name, o.wantBase)
		}
	}
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct{ name, delta, want string }{
		{"limited", "−17%", "better"},
		{"limited", "+3", "worse"},
		{"successes", "+5%", "better"},
		{"successes", "−5%", "worse"},
		{"completion_p99_ms", "+18%", "worse"},
		{"dispersion", "−76%", "better"},
		{"lateness_p99_ms", "+40%", ""}, // the page's timing (TestPageTimingIsNotJudged)
		{"queued_p99_ms", "−40%", ""},
		{"limited", "same", ""},
		{"first_tries", "+10%", ""},
		{"peak_jobs", "−10%", ""},
		{"unknown", "+1", ""},
	} {
		if got := verdict(c.name, c.delta); got != c.want {
			t.Errorf("verdict(%s, %s) = %q, want %q", c.name, c.delta, got, c.want)
		}
	}
	// Wasted per success says nothing when either run had no success (it
	// is 0 then): no verdict.
	for _, c := range []struct {
		cur, base int
		want      bool
	}{{0, 5, true}, {5, 0, true}, {5, 5, false}} {
		nums := withBaseline(statList(&fleet.Stats{Successes: c.cur}, 0, endLive, 0), statList(&fleet.Stats{Successes: c.base, WastedPerSuccess: 2.3}, 0, endLive, 0), false, unjudged{})
		for _, s := range nums {
			if s.Name == "wasted_per_success" && (s.verdict("−100%") == "") != c.want {
				t.Errorf("successes %d against %d: verdict %q", c.cur, c.base, s.verdict("−100%"))
			}
		}
	}
	// Against a baseline of another workload size the counts of work get no
	// verdict (4,000 jobs of which 618 succeeded is not "better" than 100 of
	// 100), nor does the time to drain them all; the ratios and a job's
	// completion keep theirs.
	cur, base := fleet.Stats{Successes: 618, Requests: 9000, Limited: 8000, WastedPerSuccess: 13.5}, fleet.Stats{Successes: 100, Requests: 300, Limited: 200, WastedPerSuccess: 2}
	// Against a run cut short (or of one), no number: a stopped baseline's
	// cancelled jobs were "−100% better" give-ups, its time up to Stop a
	// drain, and the flood's whole run "wasted / success −61% better"
	// than a full jitter run stopped in its first wave (found by reviews).
	cur.CompletionP99, base.CompletionP99, cur.CompletionN, base.CompletionN = 3*time.Second, time.Second, 618, 100
	cur.Drain, base.Drain = 4*time.Second, 2*time.Second
	cur.Amplification, base.Amplification = 14.6, 3
	for _, c := range []struct{ otherSize, cut bool }{{false, false}, {true, false}, {false, true}} {
		for _, s := range withBaseline(statList(&cur, 0, endLive, 0), statList(&base, 0, endLive, 0), false, unjudged{all: c.cut, work: c.otherSize}) {
			judged := s.verdict(baseDelta(s.Value, s.Base, s.Text)) != ""
			switch s.Name {
			case "successes", "requests", "limited", "drain_ms": // the time to drain is the whole workload's (20 workers' "−83% better" than 50's)
				if judged == (c.otherSize || c.cut) {
					t.Errorf("%+v: %s judged %v", c, s.Name, judged)
				}
			case "completion_p99_ms":
				if judged == c.cut {
					t.Errorf("%+v: %s judged %v", c, s.Name, judged)
				}
			case "wasted_per_success", "amplification":
				if judged == c.cut {
					t.Errorf("%+v: %s judged %v", c, s.Name, judged)
				}
			}
		}
	}
	// Every number with a direction is one the panel shows.
	shown := map[string]bool{}
	for _, s := range statList(&fleet.Stats{}, 0, endLive, 0) {
		shown[s.Name] = !s.Hidden
	}
	for name := range betterWhen {
		if !shown[name] {
			t.Errorf("betterWhen names %q, not a number shown", name)
		}
	}
}

// A simulation does not measure what only the browser does (send lateness,
// browser queueing): its numbers say "–", not a measured-looking 0 µs, and
// are not compared with a baseline's.
// Against a live baseline, the baseline's figures are said beside the
// simulation's "–", with no change (they were left out, as if the baseline
// had not measured them either; review).
func TestSimulationLeavesBrowserNumbersOut(t *testing.T) {
	var l *Lab
	for _, liveBase := range []bool{false, true} {
		l = newLab()
		finishRun(l, oneJob(), !liveBase)
		l.Compare()
		finishRun(l, oneJob(), true)
		out := renderHTML(&Numbers{Lab: l})
		for _, name := range []string{"lateness_p99_ms", "queued_p99_ms"} {
			card := out[strings.Index(out, `data-stat="`+name+`"`):]
			card = card[:strings.Index(card, "</div>")]
			if !saysNone(card) || !strings.Contains(card, "not measured in a simulation") ||
				strings.Contains(card, "baseline ") != liveBase || strings.Contains(card, "%") || strings.Contains(card, "verdict") {
				t.Errorf("%s of a simulation, live baseline %v: %s", name, liveBase, card)
			}
		}
	}
	finishRun(l, oneJob(), false)
	out := renderHTML(&Numbers{Lab: l})
	if strings.Contains(out, "not measured in a simulation") {
		t.Error("a live run's lateness is said not to be measured")
	}
}

// Send lateness and browser queueing measure the page's own timing (the
// browser, the machine) as much as the configuration: two live runs of the
// same configuration differ by tens of percent in them, and the compare
// view called a second run "+40% worse" on lateness. Their change is shown
// with no verdict, and the line's tooltip says why; the numbers the
// configuration decides keep theirs.
func TestPageTimingIsNotJudged(t *testing.T) {
	run := func(lateness, queued, p99 time.Duration) fleet.Stats {
		return fleet.Stats{Requests: 100, FirstTries: 100, OK: 100, Jobs: 100, Successes: 100, QueuedN: 100, LatenessN: 100, CompletionN: 100,
			LatenessP99: lateness, QueuedP99: queued, CompletionP99: p99}
	}
	l := newLab()
	l.base = &baseline{run: -1, list: statList(new(run(5*time.Millisecond, 2*time.Millisecond, 100*time.Millisecond)), 0, endLive, 0)}
	l.stats, l.hasStats = run(7*time.Millisecond, 1200*time.Microsecond, 140*time.Millisecond), true
	out := renderHTML(&Numbers{Lab: l, Rev: 1})
	card := func(name string) string {
		t.Helper()
		i := strings.Index(out, `data-stat="`+name+`"`)
		if i < 0 {
			t.Fatalf("no %s card", name)
		}
		return out[i : i+strings.Index(out[i:], "</div>")]
	}
	for name, change := range map[string]string{"lateness_p99_ms": "· +40%", "queued_p99_ms": "· −40%"} {
		c := card(name)
		if !strings.Contains(c, change+"</span>") || strings.Contains(c, `class="verdict`) ||
			!strings.Contains(c, "change from it, not called better or worse: it measures this page's timing") || !strings.Contains(c, "% more, not judged: this page's timing") && !strings.Contains(c, "% less, not judged: this page's timing") {
			t.Errorf("%s: want the change %q with no verdict, and why in its title and for a screen reader:\n%s", name, change, c)
		}
	}
	if c := card("completion_p99_ms"); !strings.Contains(c, "· +40%") || !strings.Contains(c, `<span class="verdict worse"> worse</span>`) || strings.Contains(c, "timing") {
		t.Errorf("completion p99, which the configuration decides, is not judged as before:\n%s", c)
	}
}

// The compare bar names the settings that differ, as the fields name them:
// two custom configurations were told apart by their run numbers alone.
func TestCompareBarSaysWhatChanged(t *testing.T) {
	scen := func(q string) fleet.Scenario {
		s, notes := fleet.FromQuery(mustURL(t, "http://x/?"+q).Query())
		if len(notes) > 0 {
			t.Fatalf("%s: %v", q, notes)
		}
		return s
	}
	base := scen("workers=20&jobs=2&strategy=full")
	tests := []struct {
		query, want string
	}{
		{"workers=20&jobs=2&strategy=full", ""},
		{"workers=20&jobs=2&strategy=exponential", "Strategy Exponential, full jitter → Exponential, no jitter"},
		{"workers=20&jobs=2&strategy=full&bucket_rate=7", ""}, // no effect with the bucket off
		// The bucket turned on: its rate had no effect before, and is not
		// told as a change from the value it had then, but with its value
		// now (a fixed window's limit went untold: a review).
		{"workers=20&jobs=2&strategy=full&bucket=on&bucket_rate=7", "Fleet token bucket off → on; Bucket rate 7; Bucket capacity 5"},
		{"workers=20&jobs=2&strategy=full&limiter=fixed&limit=20", "Server limiter Token bucket → Fixed window; Requests per window 20; Window 1s"},
		// Turned off: told by what turned it off alone.
		{"workers=20&jobs=2&strategy=none", "Strategy Exponential, full jitter → None (never retry)"},
		{"workers=30&jobs=3&strategy=constant&base=1s&seed=9", "Workers 20 → 30; Jobs 2 → 3; Random seed 1 → 9; Strategy Exponential, full jitter → Constant; and 1 more"},
	}
	for _, tt := range tests {
		if got := settingsDiff(base, scen(tt.query)); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.query, got, tt.want)
		}
	}
}

// A configuration close to a step of the story is named by the step and
// what differs from it: every run of a tuning session read "Custom
// configuration", in the compare bar and the PNG's title (a review).
func TestPresetNameSaysTheNearestStep(t *testing.T) {
	step := func(id string, set ...string) fleet.Scenario {
		for _, p := range fleet.Presets {
			if p.ID != id {
				continue
			}
			q := url.Values{}
			for k, v := range p.Query {
				q[k] = v
			}
			for i := 0; i < len(set); i += 2 {
				q.Set(set[i], set[i+1])
			}
			s, notes := fleet.FromQuery(q)
			if len(notes) > 0 {
				t.Fatalf("%v: %v", set, notes)
			}
			return s
		}
		t.Fatalf("no preset %q", id)
		return fleet.Scenario{}
	}
	for _, tt := range []struct {
		name string
		s    fleet.Scenario
		want string
	}{
		{"a step", step("full-jitter"), "Full jitter (step 3)"},
		{"a step in a room", step("full-jitter", "room", "r1", "seed", "99"), "Full jitter (step 3)"},
		{"one change", step("full-jitter", "cap", "5s"), "Full jitter (step 3) with Cap 5s"},
		{"two changes", step("full-jitter", "cap", "5s", "workers", "80"), "Full jitter (step 3) with Workers 80 and Cap 5s"},
		{"nearest of two steps", step("retry-after", "ra_spread", "250ms"), "+ honour Retry-After (step 4) with Retry-After spread 250ms"},
		{"a setting turned on, with its value", step("full-jitter", "outage", "2s"), "Full jitter (step 3) with Server outage 2s and Outage starts 5s"},
		{"three changes", step("full-jitter", "cap", "5s", "workers", "80", "jobs", "9"), "Custom configuration"},
		{"a setting with no effect", step("full-jitter", "bucket_rate", "3"), "Full jitter (step 3)"}, // the settings in effect are the step's
	} {
		if got := presetName(tt.s); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The caption under the steps says which step a configuration of the
// user's own is near, and what differs, as the compare bar names it.
func TestCaptionNamesTheNearestStep(t *testing.T) {
	l := newLab()
	l.Preset("full-jitter")
	l.Set("cap", "5s")
	if out := html.UnescapeString(renderHTML(&PresetBar{Lab: l})); !strings.Contains(out, "Full jitter (step 3) with Cap 5s: a step with your changes.") {
		t.Errorf("the caption near step 3: %s", out)
	}
	for _, kv := range [][2]string{{"workers", "80"}, {"jobs", "9"}} {
		l.Set(kv[0], kv[1])
	}
	if out := html.UnescapeString(renderHTML(&PresetBar{Lab: l})); !strings.Contains(out, "Custom configuration: pick a step") {
		t.Errorf("the caption three changes from every step: %s", out)
	}
	// Changes with no effect: said so, not "a step with your changes"
	// naming none (a review).
	l.Preset("full-jitter")
	l.Set("bucket_rate", "3") // the fleet bucket is off
	if out := html.UnescapeString(renderHTML(&PresetBar{Lab: l})); !strings.Contains(out, "Full jitter (step 3): what you changed has no effect with the step's settings.") {
		t.Errorf("the caption after a change with no effect: %s", out)
	}
}

// A finished run's status says when the inputs were edited after it, and
// what changed: the timeline and numbers are the run's, Copy share link and
// the Go code the inputs' (review).
func TestRunStatusSaysTheInputsChanged(t *testing.T) {
	for _, c := range []struct {
		name, key, value string
		want             string // what follows "Changed since: "
	}{
		{"workers", "workers", "20", "Workers 50 → 20; Run or Simulate to see them."},
		// A custom target cannot be simulated: only Run would show it.
		{"custom target", "target", "https://api.example.com/items", "Custom target none → https://api.example.com/items; Run to see them."},
		// Past a live run's 500 workers: only Simulate.
		{"too many to run live", "workers", "600", "Workers 50 → 600; Simulate to see them."},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLab()
			finishRun(l, oneJob(), false)
			if bar := renderHTML(&RunBar{Lab: l}); strings.Contains(bar, "Changed since") {
				t.Errorf("the run's own settings said changed: %s", bar)
			}
			was := l.Text(c.key)
			l.Set(c.key, c.value)
			want := "Changed since: " + c.want
			bar := renderHTML(&RunBar{Lab: l})
			if !strings.Contains(bar, want) {
				t.Errorf("after setting %s=%s, the status lacks %q: %s", c.key, c.value, want, bar)
			}
			// Read with the status, not said at each key typed.
			if !regexp.MustCompile(`aria-live="off"[^>]*>\s*Changed since`).MatchString(bar) {
				t.Errorf("what changed is said as it changes (it is not in an aria-live=off part of the status): %s", bar)
			}
			// A replay of the run says where it is, and only that (found
			// by a review).
			l.replaying = true
			if bar := renderHTML(&RunBar{Lab: l}); strings.Contains(bar, "Changed since") || !strings.Contains(bar, "Replaying") {
				t.Errorf("replaying, the status is %s", bar)
			}
			l.replaying = false
			l.Set(c.key, was)
			if bar := renderHTML(&RunBar{Lab: l}); strings.Contains(bar, "Changed since") {
				t.Errorf("set back, the settings are still said changed: %s", bar)
			}
		})
	}
}

// A baseline cut short (here at the request limit; by Stop alike) did part
// of its work: against it, the counts and the times of work are set beside
// this run's without a verdict, and the bar says why. A stopped baseline's
// cancelled jobs were "−100% better" give-ups, its time up to Stop "+69%
// worse" against a drain (found by a review).
func TestCutShortBaselineGetsNoVerdict(t *testing.T) {
	l := newLab()
	l.Set("workers", "1")
	l.Set("jobs", "1")
	finishRun(l, oneJob(), false)
	l.setBaseline(newBaseline(l.rec, oneJob(), l.stats, 0, 1, true), true)
	l.Set("seed", "2")
	quick := []fleet.Record{ // one attempt, done in 50 ms
		{Worker: 1, Event: core.Event{Kind: core.EventAttempt, At: at(0), Intended: at(0), Attempt: 1}},
		{Worker: 1, Attempt: &fleet.Attempt{Status: 200}, Event: core.Event{Kind: core.EventOutcome, At: at(50), Attempt: 1, Outcome: core.Outcome{Status: 200}}},
		{Worker: 1, Event: core.Event{Kind: core.EventDone, At: at(50), Attempt: 1}},
	}
	finishRun(l, quick, false)
	bar := renderHTML(&CompareBar{Lab: l})
	if !strings.Contains(bar, "The baseline was cut short at the request limit (1 of 1 job succeeded): its numbers tell only its start, so none is called better or worse.") {
		t.Errorf("compare bar against a cut baseline: %s", bar)
	}
	out := renderHTML(&Numbers{Lab: l})
	for _, name := range []string{"requests", "limited", "drain_ms", "completion_p99_ms", "wasted_per_success"} {
		i := strings.Index(out, `data-stat="`+name+`"`)
		if i < 0 {
			t.Fatalf("no %s card", name)
		}
		c := out[i:] // up to the next card
		if j := strings.Index(c[1:], "data-stat="); j >= 0 {
			c = c[:j+1]
		}
		if !strings.Contains(c, "baseline ") {
			t.Errorf("%s: not set beside the baseline's: %s", name, c)
		}
		if strings.Contains(c, `class="verdict`) { // wasted / success too: the flood was "−61% better" than a stopped full jitter (found by a review)
			t.Errorf("%s: judged against a cut baseline: %s", name, c)
		}
	}
}

// A number this run could not measure, as it ended, still has the
// baseline's figure beside its "–", with no change: the fleet bucket's
// run, with no retries, showed "– no retries" for dispersion and dropped
// Retry-After's 5.3 beside it (found by a review).
func TestUnmeasuredNumberKeepsTheBaselines(t *testing.T) {
	cur := statList(&fleet.Stats{Requests: 100, Successes: 100, FirstTries: 100}, 0, endLive, 100)
	base := statList(&fleet.Stats{Requests: 300, Successes: 100, FirstTries: 100, Retries: 200}, 5.3, endLive, 100)
	for _, s := range withBaseline(cur, base, false, unjudged{}) {
		if s.Name != "dispersion" {
			continue
		}
		if s.NotMeasured == "" || !s.HasBase || s.Base != 5.3 || !s.NoDelta {
			t.Errorf("dispersion with no retries against 5.3: not measured %q, baseline %v %v, no change %v", s.NotMeasured, s.HasBase, s.Base, s.NoDelta)
		}
	}
}

// A custom target's run kept as the baseline stays out of the page's
// address and its links: a link's baseline is simulated, and only the mock
// can be. The page wrote it there, then refused its own link on a reload
// with a notice of the whole baseline's query (found by a review). The
// compare bar says why; a mock run's baseline is in the link.
func TestCustomTargetBaselineStaysOutOfTheLink(t *testing.T) {
	l := newLab()
	l.s.Target = "http://localhost:9000/api"
	finishRun(l, oneJob(), false)
	l.Compare()
	if l.base == nil {
		t.Fatal("no baseline kept")
	}
	if q := l.query(); strings.Contains(q, baselineKey+"=") {
		t.Errorf("the address with a custom target's baseline: %s", q)
	}
	if bar := renderHTML(&CompareBar{Lab: l}); !strings.Contains(bar, "stays out of the page&#39;s link") {
		t.Errorf("the compare bar does not say the baseline stays out of the link: %s", bar)
	}
	l = newLab()
	finishRun(l, oneJob(), false)
	l.Compare()
	if q := l.query(); !strings.Contains(q, baselineKey+"=") {
		t.Errorf("the address with a mock run's baseline: %s", q)
	}
}

// TestBaselineKeepsNotItsRun: a baseline kept from the run shown remembers
// which run it was, not the run's model, which the next run lets go (so
// does the key of a live run's kept drawing, by its type); and forget lets
// the run shown go before a simulation. The view held both: a
// 300,000-attempt run's model stayed for as long as its baseline did, and
// a simulation was made beside the run before it (a soak review).
func TestBaselineKeepsNotItsRun(t *testing.T) {
	v := quietView()
	v.start(fleet.Default(), time.Unix(0, 0), "")
	v.lyr.key.m = v.m.id // a live run's kept drawing names its model (layers.drawUpTo)
	old := weak.Make(v.m)
	v.setBaseline(&baselineDraw{label: "it"}, true)
	if v.shownBaseline() != nil {
		t.Error("the baseline is drawn over its own run")
	}
	v.start(fleet.Default(), time.Unix(10, 0), "")
	if v.shownBaseline() == nil {
		t.Error("the baseline is not drawn over the next run")
	}
	runtime.GC()
	if old.Value() != nil {
		t.Error("the baseline's run's model is still held once another run is shown")
	}

	shown := weak.Make(v.m)
	v.forget(fleet.Default())
	runtime.GC()
	if shown.Value() != nil {
		t.Error("forget kept the run shown's model")
	}
}

// With a baseline and no run of its own yet (a shared link with vs=), the
// cards show the baseline's figures, the numbers to beat, in the room they
// keep for them, which stood empty (a review): no change and no verdict,
// and none for a figure the baseline did not measure.
func TestCardsShowTheBaselineBeforeARun(t *testing.T) {
	l := newLab()
	l.Preset("flood")
	finishRun(l, oneJob(), true)
	l.Compare()
	l.hasStats, l.stats, l.rec = false, fleet.Stats{}, nil // as a link with vs= opens
	out := renderHTML(&Numbers{Lab: l, Rev: 1})
	card := func(name string) string {
		i := strings.Index(out, `data-stat="`+name+`"`)
		if i < 0 {
			t.Fatalf("no %s card", name)
		}
		// The card runs to the next card's data-stat, or to the end.
		j := len(out) - i
		if k := strings.Index(out[i+1:], `data-stat="`); k >= 0 {
			j = k + 1
		}
		return out[i : i+j]
	}
	if c := card("requests"); !strings.Contains(c, `class="base"`) || !strings.Contains(c, "baseline 2") || strings.Contains(c, "·") {
		t.Errorf("requests' card before a run, against a baseline of 2 requests: %s", c)
	}
	for _, name := range []string{"lateness_p99_ms", "queued_p99_ms"} {
		if c := card(name); strings.Contains(c, "baseline") {
			t.Errorf("a simulated baseline measured no page timing: %s", c)
		}
	}
}

// A run is called better or worse than the baseline only like for like
// (a review of tuning with a baseline):
//   - when the share of jobs that succeeded differs, the numbers a job that
//     gives up lowers get no verdict (a retry budget's run in which 121 of
//     200 jobs gave up drained "−58% better"), and the bar says why; the
//     successes and give-ups keep theirs;
//   - a live run with the baseline's settings gets none (its differences
//     are the machine's timing: a rerun's p50 was "+23% worse");
//   - nor does a run during which a fault was pressed, and the bar names
//     it (a halved limit made a run "+21% worse", and nothing said why).
func TestCompareJudgesLikeForLike(t *testing.T) {
	verdicts := func(l *Lab) map[string]string {
		out := map[string]string{}
		for _, s := range l.statList() {
			if s.HasBase && !s.NoDelta {
				out[s.Name] = s.verdict(baseDelta(s.Value, s.Base, s.Text))
			}
		}
		return out
	}
	simulate := func(l *Lab) {
		l.runs++
		rec := fleet.Simulate(l.s)
		l.rec = rec
		l.stats, l.disp = rec.Numbers(rec.Shared())
		l.hasStats = true
		l.view.start(l.s, rec.Start, "")
		l.view.finish(rec.Start.Add(l.stats.Drain))
	}

	l := newLab()
	q := url.Values{"workers": {"20"}, "jobs": {"5"}, "rate": {"10"}, "burst": {"5"}, "seed": {"3"}, "attempts": {"20"}}
	for k, v := range q {
		l.Set(k, v[0])
	}
	simulate(l)
	l.Compare()
	l.Set("budget", "on")
	l.Set("budget_size", "1")
	l.Set("budget_refill", "0")
	simulate(l)
	v, bar := verdicts(l), html.UnescapeString(renderHTML(&CompareBar{Lab: l}))
	if l.stats.GiveUps < 10 {
		t.Fatalf("the budget's run gave up %d jobs: not the case this test is about", l.stats.GiveUps)
	}
	for _, name := range []string{"drain_ms", "requests", "limited", "completion_p99_ms", "amplification"} {
		if v[name] != "" {
			t.Errorf("with %d of 100 jobs given up against none, %s is called %q", l.stats.GiveUps, name, v[name])
		}
	}
	if v["successes"] != "worse" || v["give_ups"] != "worse" || !strings.Contains(bar, "of the time, the baseline's 100%: a job that gives up ends early") {
		t.Errorf("successes %q, give-ups %q; bar %s", v["successes"], v["give_ups"], bar)
	}

	// The same settings, live, twice.
	l = newLab()
	finishRun(l, oneJob(), false)
	l.Compare()
	recs := oneJob()
	recs[len(recs)-1].Event.At = recs[len(recs)-1].Event.At.Add(300 * time.Millisecond)
	finishRun(l, recs, false)
	if v := verdicts(l); v["drain_ms"] != "" || v["completion_p50_ms"] != "" || !strings.Contains(html.UnescapeString(renderHTML(&CompareBar{Lab: l})), "The settings in effect are the baseline's: the differences are live timing") {
		t.Errorf("a rerun of the baseline's settings: verdicts %v; bar %s", v, renderHTML(&CompareBar{Lab: l}))
	}
	// Another seed alone: another draw of the same settings, chance.
	l.Set("seed", "9")
	finishRun(l, recs, false)
	if v, bar := verdicts(l), html.UnescapeString(renderHTML(&CompareBar{Lab: l})); v["drain_ms"] != "" || !strings.Contains(bar, "Only the random seed differs: the differences are chance") {
		t.Errorf("a run with another seed alone: verdicts %v; bar %s", v, bar)
	}
	{
		// The same outcome: not "the differences are chance" (a review).
		l := newLab()
		finishRun(l, oneJob(), false)
		l.Compare()
		l.Set("seed", "10")
		finishRun(l, oneJob(), false)
		if bar := html.UnescapeString(renderHTML(&CompareBar{Lab: l})); !strings.Contains(bar, "Only the random seed differs, and these settings draw nothing from it that changed the outcome: the runs came out the same.") {
			t.Errorf("a seed-only run with the same outcome: bar %s", bar)
		}
		// One live, one simulated: chance and live timing.
		l.Set("seed", "11")
		finishRun(l, recs, true)
		if bar := html.UnescapeString(renderHTML(&CompareBar{Lab: l})); !strings.Contains(bar, "Only the random seed differs, and one run was live, the other simulated: the differences are chance and live timing") {
			t.Errorf("a seed-only simulation against a live baseline: bar %s", bar)
		}
	}
	// A change in effect: judged again, past the spread of live reruns
	// (liveNoise) and not within it.
	l.Set("cap", "5s")
	finishRun(l, recs, false)
	if v := verdicts(l); v["drain_ms"] != "" || v["completion_p50_ms"] != "" {
		t.Errorf("a drain 26%% longer, within live reruns' 30%%: verdicts %v", v)
	}
	if card := tagWith(html.UnescapeString(renderHTML(&Numbers{Lab: l})), `title="The baseline run's figure, and this run's change from it, not called better or worse: within ±30%`); !strings.Contains(card, "not judged: within live runs' spread") {
		t.Errorf("the drain's change within the spread does not say why it is not judged: %q", card)
	}
	if bar := html.UnescapeString(renderHTML(&CompareBar{Lab: l})); !strings.Contains(bar, "Live runs vary: ") || !strings.Contains(bar, "within how far two live runs of the same settings come apart") {
		t.Errorf("the compare bar does not say why changes within the spread are not judged: %s", bar)
	} else if strings.Contains(bar, "violet outline") {
		t.Errorf("the compare bar explains the comparison again after the first run against it: %s", bar)
	}
	recs[len(recs)-1].Event.At = recs[len(recs)-1].Event.At.Add(time.Second)
	finishRun(l, recs, false)
	if v := verdicts(l); v["drain_ms"] != "worse" {
		t.Errorf("a drain twice as long after a change: no verdict (%v)", v)
	}

	// A fault pressed during the run.
	ev, _ := json.Marshal(mock.Event{Type: "limit", Key: "k", At: at(300), Until: at(800), Scale: 0.5})
	l.view.onServerEvent(string(ev))
	l.view.mu.Lock()
	l.view.ingest()
	l.view.mu.Unlock()
	if v, bar := verdicts(l), html.UnescapeString(renderHTML(&CompareBar{Lab: l})); v["drain_ms"] != "" || !strings.Contains(bar, "During this run the limit was scaled ×0.5 at 300 ms: its numbers are not called better or worse.") {
		t.Errorf("a run whose limit was halved: verdicts %v; bar %s", v, bar)
	}
	// Kept as the baseline, it says so against the next run.
	l.Compare()
	finishRun(l, oneJob(), false)
	if bar := html.UnescapeString(renderHTML(&CompareBar{Lab: l})); !strings.Contains(bar, "During the baseline the limit was scaled ×0.5 at 300 ms") {
		t.Errorf("against a baseline whose limit was halved: %s", bar)
	}
}

// A live rerun of the baseline's settings teaches the page how far live
// runs come apart on this machine (learnNoise): a later change within it
// is not called better or worse, its tooltip saying the spread is this
// machine's, where our machines' bands (liveNoise) called it worse. A
// simulated rerun, one cut short, or one in a shared room teaches
// nothing.
func TestCompareLearnsLiveNoiseFromAReRun(t *testing.T) {
	later := func(d time.Duration) []fleet.Record { // one job, done d later
		recs := oneJob()
		recs[len(recs)-1].Event.At = recs[len(recs)-1].Event.At.Add(d)
		return recs
	}
	drainVerdict := func(l *Lab) (verdict string, here bool, title string) {
		for _, s := range l.statList() {
			if s.Name == "drain_ms" {
				verdict, here = s.verdict(baseDelta(s.Value, s.Base, s.Text)), s.NoiseHere
			}
		}
		title = tagWith(html.UnescapeString(renderHTML(&Numbers{Lab: l})), `how far two live runs of the same settings came apart on this machine`)
		return verdict, here, title
	}
	for _, c := range []struct {
		name     string
		rerun    func(l *Lab)
		learned  bool
		barWords string
		drain    time.Duration // the change's run's: 43% longer than the baseline's
	}{
		{"a live rerun", func(l *Lab) { finishRun(l, later(600*time.Millisecond), false) }, true,
			"Live runs of these settings came apart further on this machine than on ours (completion p99 by 52%, time to drain by 52%): against this baseline, a change within that is not called better or worse either.", 0},
		// The rerun kept as the baseline in its place: the same settings,
		// what their reruns taught holds (its drain 1.75 s).
		{"a live rerun kept as the baseline", func(l *Lab) {
			finishRun(l, later(600*time.Millisecond), false)
			l.Compare()
		}, true, "", 1350 * time.Millisecond},
		// The baseline cleared: a spread is of its settings and runs, and
		// one rerun's silenced every later comparison for the page's life.
		{"a live rerun, then the baseline cleared", func(l *Lab) {
			finishRun(l, later(600*time.Millisecond), false)
			l.ClearBaseline()
			finishRun(l, oneJob(), false)
			l.Compare()
		}, false, "", 0},
		{"no rerun", func(*Lab) {}, false, "", 0},
		{"a simulated rerun", func(l *Lab) { finishRun(l, later(600*time.Millisecond), true) }, false, "", 0},
		{"a rerun cut short", func(l *Lab) { // stopped: its one job cancelled
			recs := later(600 * time.Millisecond)
			recs[len(recs)-1].Event.Err = &core.StopError{Cause: core.ErrCancelled, Attempts: 2, Context: context.Canceled}
			finishRun(l, recs, false)
		}, false, "", 0},
		{"a rerun in a shared room", func(l *Lab) { // the others' requests share its limit
			l.Set("room", "workshop")
			finishRun(l, oneJob(), false)
			l.Compare()
			finishRun(l, later(600*time.Millisecond), false)
			l.Set("room", "")
			finishRun(l, oneJob(), false) // the baseline again, alone
			l.Compare()
		}, false, "", 0},
		{"a rerun with another seed", func(l *Lab) {
			l.Set("seed", "99")
			finishRun(l, later(600*time.Millisecond), false)
			l.Set("seed", l.base.scen.Query().Get("seed"))
		}, false, "", 0},
	} {
		l := newLab()
		finishRun(l, oneJob(), false) // drain 1.15 s
		l.Compare()
		c.rerun(l)
		if bar := html.UnescapeString(renderHTML(&CompareBar{Lab: l})); c.barWords != "" && !strings.Contains(bar, c.barWords) {
			t.Errorf("%s: the bar does not say what it learned: %s", c.name, bar)
		}
		// A change in effect, its drain 43% longer: past our 30%, within
		// the 52% this machine's rerun came apart.
		l.Set("cap", "5s")
		finishRun(l, later(cmp.Or(c.drain, 500*time.Millisecond)), false)
		verdict, here, title := drainVerdict(l)
		switch {
		case c.learned && (verdict != "" || !here || !strings.Contains(title, "within ±52%, how far two live runs of the same settings came apart on this machine (your rerun of a baseline's settings)")):
			t.Errorf("%s: a drain 43%% longer, within this machine's 52%%: verdict %q, this machine's %v, tooltip %q", c.name, verdict, here, title)
		case !c.learned && (verdict != "worse" || title != ""):
			t.Errorf("%s: a drain 43%% longer, past our 30%%: verdict %q, tooltip %q", c.name, verdict, title)
		}
	}
}

// The bar names a number that came apart further than ours only when it
// reads further: a rerun's 30.4% against our 30% was "by 30%".
func TestNoisierHereSaysOnlyWhatReadsFurther(t *testing.T) {
	l := newLab()
	finishRun(l, oneJob(), false)
	l.Compare()
	l.base.noise = map[string]float64{"completion_p99_ms": 0.304, "drain_ms": 0.52}
	if got, want := l.noisierHere(), "time to drain by 52%"; got != want {
		t.Errorf("noisierHere = %q, want %q", got, want)
	}
}
