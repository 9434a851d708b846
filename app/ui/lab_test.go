//go:build !(js && wasm)

package ui

import (
	"errors"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core"
	"retrylab/core/sim"
)

func TestLabSetValidAndInvalid(t *testing.T) {
	l := newLab()
	if !l.CanRun() || l.Invalid() != 0 {
		t.Fatalf("default configuration: CanRun %v, invalid %d", l.CanRun(), l.Invalid())
	}
	l.Set("workers", "120")
	if got := l.Scenario().Workers; got != 120 {
		t.Errorf("workers = %d, want 120", got)
	}
	l.Set("workers", "0")
	msg := l.Err("workers")
	if msg == "" || !strings.Contains(msg, `"0"`) || !strings.Contains(msg, "500") {
		t.Errorf("workers=0: message %q should name the value and the range", msg)
	}
	if l.CanRun() {
		t.Error("Run is enabled with an invalid field")
	}
	if got := l.Scenario().Workers; got != 120 {
		t.Errorf("an invalid value changed the configuration: workers = %d (never a silent clamp)", got)
	}
	if got := l.Text("workers"); got != "0" {
		t.Errorf("the input lost what was typed: %q", got)
	}
	l.Set("workers", "7")
	if l.Err("workers") != "" || !l.CanRun() {
		t.Errorf("fixed value still flagged: %q", l.Err("workers"))
	}
	l.Set("nope", "1") // unknown keys are ignored
}

func TestLabCrossFieldError(t *testing.T) {
	l := newLab()
	// Every field alone is in range, but together they break a rule
	// (the cap must not be below the base).
	l.Set("base", "5s")
	l.Set("cap", "1s")
	if l.CanRun() {
		t.Fatalf("cap < base accepted: errors %v", l.crossErrs)
	}
	found := false
	for _, k := range []string{"base", "cap"} {
		if l.Err(k) != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("the cross-field error is shown beside neither base nor cap: %+v", l.crossErrs)
	}
}

func TestLabPresets(t *testing.T) {
	l := newLab()
	for i, id := range presetIDs() {
		l.Preset(id)
		if got := l.ActivePreset(); got != id {
			t.Errorf("preset %d %q: active preset %q", i+1, id, got)
		}
		if !l.CanRun() {
			t.Errorf("preset %q does not validate", id)
		}
	}
	l.Preset("flood")
	if l.Text("base") != "2s" || l.Text("strategy") != "constant" {
		t.Errorf("flood preset inputs: base %q, strategy %q", l.Text("base"), l.Text("strategy"))
	}
	l.Set("workers", "49")
	if got := l.ActivePreset(); got != "" {
		t.Errorf("edited preset still active: %q", got)
	}
}

func TestLabLoadFieldByField(t *testing.T) {
	l := newLab()
	u, _ := url.Parse("http://localhost:8080/?workers=10001&seed=424242&bogus=1&strategy=equal")
	l.Load(u)
	s := l.Scenario()
	if s.Seed != 424242 || s.Strategy.String() != "equal" {
		t.Errorf("good fields lost: seed %d, strategy %v", s.Seed, s.Strategy)
	}
	if s.Workers != fleet.Default().Workers {
		t.Errorf("bad workers not reset to the default: %d", s.Workers)
	}
	var keys []string
	for _, n := range l.notices {
		keys = append(keys, n.Key)
	}
	if j := strings.Join(keys, ","); !strings.Contains(j, "workers") || !strings.Contains(j, "bogus") {
		t.Errorf("notices %v should name workers and bogus", keys)
	}
	// The empty timeline shows the loaded configuration's lanes.
	l2 := newLab()
	u3, _ := url.Parse("http://localhost:8080/?workers=20")
	l2.Load(u3)
	if got := l2.view.scen.Workers; got != 20 {
		t.Errorf("the empty timeline shows %d lanes after loading workers=20", got)
	}
	// OnNav runs again on every navigation: only the first load counts.
	u2, _ := url.Parse("http://localhost:8080/?seed=1")
	l.Load(u2)
	if l.Scenario().Seed != 424242 {
		t.Error("a second Load replaced the configuration")
	}
}

func TestLabShareAndEndpointURLs(t *testing.T) {
	l := newLab()
	u, _ := url.Parse("http://localhost:8090/?workers=33")
	l.Load(u)
	share, err := url.Parse(l.ShareURL())
	if err != nil {
		t.Fatal(err)
	}
	back, notes := fleet.FromQuery(share.Query())
	if len(notes) != 0 || back.Encode() != l.Scenario().Encode() {
		t.Errorf("share link does not reproduce the configuration: %v", notes)
	}
	if !strings.HasPrefix(l.ShareURL(), "http://localhost:8090/?") {
		t.Errorf("share link %q is not on the page's origin", l.ShareURL())
	}
	ep := l.EndpointURL()
	if !strings.HasPrefix(ep, "http://localhost:8090/mock?") || !strings.Contains(ep, "key=") {
		t.Errorf("endpoint URL %q", ep)
	}
	// The Go code calls the mock where the page found it, not :8080.
	if code := l.goCode(); !strings.Contains(code, `"http://localhost:8090/mock?`) {
		t.Errorf("the Go code does not call the page's mock at localhost:8090:\n%s", code)
	}
	l.Set("target", "https://api.example.com/items")
	if l.EndpointURL() != "https://api.example.com/items" {
		t.Errorf("custom target not shown: %q", l.EndpointURL())
	}
}

func TestStatListNames(t *testing.T) {
	st := fleet.Stats{Requests: 10, FirstTries: 4, Retries: 6, Limited: 5, Successes: 4, Jobs: 4}
	seen := map[string]bool{}
	for _, s := range statList(&st, 1.5, endLive, 0) {
		if seen[s.Name] {
			t.Errorf("stat %q listed twice", s.Name)
		}
		seen[s.Name] = true
	}
	for _, name := range []string{"requests", "successes", "limited", "failures", "wasted_per_success", "peak_rps",
		"first_tries", "retries", "amplification", "completion_p50_ms", "completion_p99_ms", "completion_max_ms",
		"drain_ms", "give_ups", "jobs", "aborted", "timeouts", "dispersion"} {
		if !seen[name] {
			t.Errorf("stat %q missing", name)
		}
	}
}

// Jobs Stop cut short are not "finished": during a run the successes'
// line counts them apart. Once the run is over it counts out of every job
// it was set up with (jobs), and says how many never started, as the PNG's
// numbers do (TestPNGNumbersTellHowTheRunEnded): after Stop it read "of
// 19 finished · 10 stopped", the PNG "19 of 200 jobs succeeded · 10
// cancelled by Stop · 171 never started". A count and what it counts stay
// on one line (no-break spaces, written _ here): in the narrowest card
// "of 10M · 9.87M not run" broke between "not" and "run".
func TestFinishedText(t *testing.T) {
	for _, c := range []struct {
		st   fleet.Stats
		jobs int
		num  func(int) string
		want string
	}{
		{fleet.Stats{Jobs: 71, Successes: 71}, 0, thousands, "of_71_finished"},
		{fleet.Stats{Jobs: 71, Successes: 24, GiveUps: 47, Cancelled: 47}, 0, thousands, "of_24_finished_· 47_stopped"},
		{fleet.Stats{Jobs: 20, GiveUps: 20, Cancelled: 20}, 0, thousands, "of_0_finished_· 20_stopped"},
		{fleet.Stats{Jobs: 3000, Successes: 1000, GiveUps: 2000, Cancelled: 1500}, 0, thousands, "of_1,500_finished_· 1,500_stopped"},
		{fleet.Stats{Jobs: 100, Successes: 98, GiveUps: 2}, 100, thousands, "of_100_jobs"},
		{fleet.Stats{Jobs: 1, Successes: 1}, 1, thousands, "of_1_job"}, // "of 1 job" (a review)
		{fleet.Stats{Jobs: 29, Successes: 19, GiveUps: 10, Cancelled: 10}, 200, thousands, "of_200_· 171_not_run"},
		{fleet.Stats{Jobs: 10, Successes: 10}, 80, thousands, "of_80_· 70_not_run"}, // Stop between an open workload's arrivals
		{fleet.Stats{Jobs: 130000, Successes: 30000, GiveUps: 100000, Cancelled: 10000}, 10_000_000, short, "of_10M_· 9.87M_not_run"},
	} {
		if got, want := finishedText(&c.st, c.jobs, c.num), nbsp(c.want); got != want {
			t.Errorf("%+v of %d jobs: %q, want %q", c.st, c.jobs, got, want)
		}
	}
}

// nbsp is s with its _ no-break spaces.
func nbsp(s string) string { return strings.ReplaceAll(s, "_", "\u00a0") }

// The numbers name what cut a run's cancelled jobs short, and a run cut
// short is not said to have drained. A simulation of 10,000 workers × 10
// jobs that reached its attempt limit said "give-ups 32,482 — 10,000 by
// Stop", though a simulation has no Stop, and a stopped run's time to
// drain read "Run → last job done" for jobs that were cancelled, not done.
func TestStatListNamesWhatCutJobsShort(t *testing.T) {
	for _, c := range []struct {
		name              string
		simulated, capped bool
		st                fleet.Stats
		giveUps, drain    string // the give-ups' line ("0 at the attempt limit" was noise), the time to drain's
		cancelled         string // the hidden number's label
		successes         string // the successes' line: as the PNG counts (keyNumbers); _ a no-break space
		failed            string // the other failures' line: the attempts aborted, and what cut them; likewise
		// The labels where the lines are not shown (presentation mode's
		// second row): a stopped run's "1.27 s time to drain" and "47
		// give-ups" lost their "not drained" and "by Stop" (found by a review).
		drainShort, giveUpsShort string
		// The first tries' label there keeps their retries: "first tries
		// vs retries" is what a presenter points at (a review found the
		// retries gone at 1280 × 720); its _ a space there, the line's a
		// no-break one, and the retries on a line of their own.
		firstShort string
	}{
		{"live, finished", false, false, fleet.Stats{Jobs: 200, Successes: 198, GiveUps: 2, Retries: 296},
			"", "Run → last job done", "jobs cancelled by Stop", "of_200_jobs", "0_timeouts_· 0_aborted", "", "", "first tries, 296_retries"},
		{"live, stopped", false, false, fleet.Stats{Jobs: 73, Successes: 23, GiveUps: 50, Cancelled: 50, Timeouts: 3, Aborted: 12},
			"50_by_Stop", "Run → Stop: not drained", "jobs cancelled by Stop", "of_200_· 127_not_run", "3_timeouts_· 12_aborted", "time to Stop: not drained", "give-ups, 50_by Stop", "first tries, 0_retries"},
		{"simulated, finished", true, false, fleet.Stats{Jobs: 200, Successes: 200, Retries: 12345},
			"", "Simulate → last job done", "jobs cancelled by Stop", "of_200_jobs", "0_timeouts_· 0_aborted", "", "", "first tries, 12.3k_retries"},
		// One timeout is one, not "1 timeouts" (a review).
		{"live, one timeout", false, false, fleet.Stats{Jobs: 200, Successes: 200, Timeouts: 1, Retries: 1},
			"", "Run → last job done", "jobs cancelled by Stop", "of_200_jobs", "1_timeout_· 0_aborted", "", "", "first tries, 1_retry"},
		// Stop interrupts a simulation as it stops a live run.
		{"simulated, stopped", true, false, fleet.Stats{Jobs: 73, Successes: 23, GiveUps: 50, Cancelled: 50, Aborted: 12},
			"50_by_Stop", "Simulate → Stop: not drained", "jobs cancelled by Stop", "of_200_· 127_not_run", "0_timeouts_· 12_aborted", "time to Stop: not drained", "give-ups, 50_by Stop", "first tries, 0_retries"},
		// Nobody pressed Stop: "238 aborted" read as Stop's.
		{"simulated, at the attempt limit", true, true, fleet.Stats{Jobs: 42482, Successes: 10000, GiveUps: 32482, Cancelled: 10000, Aborted: 238, AbortedAtLimit: 238},
			"10k_at_the page's_limit", "not drained: page's limit", "jobs cancelled at the page's limit", "of_50k_· 7,518_not_run", "0_timeouts_· 238_cut at_limit", "time to the limit: not drained", "give-ups, 10k_at limit", "first tries, 0_retries"},
	} {
		l := newLab()
		l.s.Workers, l.s.Jobs = 50, 4
		if c.capped {
			l.s.Workers, l.s.Jobs = 10000, 5
		}
		l.rec = fleet.NewRecording(l.s, time.Now(), c.simulated)
		l.simSum.Stopped = c.capped
		l.stats, l.hasStats = c.st, true
		got := map[string]stat{}
		for _, s := range l.statList() {
			got[s.Name] = s
		}
		if g := got["give_ups"].Figures; g != nbsp(c.giveUps) {
			t.Errorf("%s: give-ups' line %q, want %q", c.name, g, nbsp(c.giveUps))
		}
		if g := got["drain_ms"].Sub; g != c.drain {
			t.Errorf("%s: time to drain's line %q, want %q", c.name, g, c.drain)
		}
		if g := got["cancelled"].Label; g != c.cancelled {
			t.Errorf("%s: cancelled jobs' label %q, want %q", c.name, g, c.cancelled)
		}
		if g := got["successes"].Figures; g != nbsp(c.successes) {
			t.Errorf("%s: successes' line %q, want %q", c.name, g, nbsp(c.successes))
		}
		if g := got["failures"].Figures; g != nbsp(c.failed) {
			t.Errorf("%s: other failures' line %q, want %q", c.name, g, nbsp(c.failed))
		}
		if g := got["drain_ms"].Short; g != c.drainShort {
			t.Errorf("%s: time to drain's short label %q, want %q", c.name, g, c.drainShort)
		}
		if g := got["give_ups"].Short; g != nbsp(c.giveUpsShort) {
			t.Errorf("%s: give-ups' short label %q, want %q", c.name, g, nbsp(c.giveUpsShort))
		}
		if g := got["first_tries"].Short; g != strings.Replace(strings.ReplaceAll(c.firstShort, "_", " "), ", ", ",\n", 1) {
			t.Errorf("%s: first tries' short label %q, want %q", c.name, g, c.firstShort)
		}
		if g, want := got["first_tries"].Figures, strings.TrimPrefix(c.firstShort, "first tries, "); g != nbsp(want) && got["first_tries"].Full != nbsp(want) {
			t.Errorf("%s: first tries' line %q, want %q", c.name, g, nbsp(want))
		}
	}
}

// Before a run the first tries' short label is the one the run's figures
// fill, "first tries," and "– retries" on a line of its own, as many lines
// as any count takes: the numbers grew 20 px as a run began at 1024 px in
// presentation mode (TestNumbersKeepTheirHeight).
func TestFirstTriesLabelBeforeARun(t *testing.T) {
	l := newLab()
	for _, s := range l.statList() {
		if s.Name == "first_tries" && s.Short != "first tries,\n– retries" {
			t.Errorf("before a run the first tries' short label is %q", s.Short)
		}
	}
	l.stats, l.hasStats = fleet.Stats{FirstTries: 10, Retries: 24}, true
	for _, s := range l.statList() {
		if s.Name == "first_tries" && s.Short != "first tries,\n24 retries" {
			t.Errorf("after a run the first tries' short label is %q", s.Short)
		}
	}
}

// Timeouts are failures: a run whose every request timed out showed "0
// other failures", its 15 timeouts only in the line under the 0. The card
// counts them; the export's failed (other 4xx/5xx, network errors) stays
// as it is, hidden in the page's numbers.
func TestOtherFailuresCountTimeouts(t *testing.T) {
	cases := []struct {
		name         string
		st           fleet.Stats
		card, failed float64
	}{
		{"every request timed out", fleet.Stats{Requests: 15, Timeouts: 15, Jobs: 5, GiveUps: 5}, 15, 0},
		{"errors and timeouts", fleet.Stats{Requests: 20, OK: 5, Successes: 5, Failed: 3, Timeouts: 7, Limited: 5, Jobs: 5}, 10, 3},
		{"aborted are not failures", fleet.Stats{Requests: 10, OK: 2, Successes: 2, Aborted: 8, Jobs: 2}, 0, 0},
	}
	for _, c := range cases {
		got := map[string]stat{}
		for _, s := range statList(&c.st, 0, endLive, 0) {
			got[s.Name] = s
		}
		if f := got["failures"]; f.Value != c.card || f.Hidden || f.Label != "other failures" {
			t.Errorf("%s: the other failures' card shows %v (hidden %v, %q), want %v", c.name, f.Value, f.Hidden, f.Label, c.card)
		}
		if f := got["failed"]; f.Value != c.failed || !f.Hidden {
			t.Errorf("%s: failed %v (hidden %v), want %v, hidden", c.name, f.Value, f.Hidden, c.failed)
		}
	}
	// Its completion p50 is of jobs that gave up: the card says so.
	st := fleet.Stats{Requests: 15, Timeouts: 15, Jobs: 5, GiveUps: 5, CompletionN: 5, CompletionP50: 3210 * time.Millisecond}
	for _, s := range statList(&st, 0, endLive, 0) {
		if s.Name == "completion_p50_ms" && s.Figures != nbsp("all_5 gave_up") {
			t.Errorf("every job gave up: completion p50's line %q, want \"all 5 gave up\"", s.Figures)
		}
	}
	// Half of them or more gave up: the median may be a give-up's (half
	// the jobs giving up at once read "0 µs", unexplained: a review).
	st.Successes, st.OK = 1, 1
	for _, s := range statList(&st, 0, endLive, 0) {
		if s.Name == "completion_p50_ms" && s.Figures != nbsp("incl. 4_give-ups") {
			t.Errorf("4 of 5 jobs gave up: completion p50's line %q, want \"incl. 4 give-ups\"", s.Figures)
		}
	}
	st.Successes, st.OK = 4, 4
	for _, s := range statList(&st, 0, endLive, 0) {
		if s.Name == "completion_p50_ms" && s.Figures != "" {
			t.Errorf("4 of 5 jobs succeeded: completion p50's line %q, want its description", s.Figures)
		}
	}
}

// A duration's card figure keeps each figure with its unit: in a narrow
// card "1 min 38 s" may break between "1 min" and "38 s", never before a
// unit ("1" / "min 38 s").
func TestStatListJoinsDurationsToTheirUnits(t *testing.T) {
	st := fleet.Stats{Requests: 10, Successes: 10, Jobs: 10, CompletionN: 10, CompletionP50: 980 * time.Millisecond, CompletionP99: 98 * time.Second, CompletionMax: 98 * time.Second, Drain: 3*time.Minute + 20*time.Second}
	want := map[string]string{"completion_p50_ms": "980_ms", "completion_p99_ms": "1_min 38_s", "drain_ms": "3_min 20_s"}
	for _, s := range statList(&st, 0, endLive, 0) {
		if w, ok := want[s.Name]; ok {
			if s.Text != nbsp(w) {
				t.Errorf("%s shows %q, want %q", s.Name, s.Text, nbsp(w))
			}
			delete(want, s.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("no card for %v", want)
	}
}

// The numbers a presenter points at are grouped in thousands, as the status
// line says them, up to 9,999; from 10,000 they are written short, in three
// figures, and whole in the card's tooltip: a 10,000-worker simulation
// sends 297,342 requests, "297k" in its card ("297342" before thousands
// were grouped, and "297,342" ran past a 119 px card, TestNumbersFitTheirCards).
func TestStatListShortensBigCounts(t *testing.T) {
	st := fleet.Stats{Requests: 297342, FirstTries: 30000, Retries: 267342, Limited: 296408, Successes: 934, Jobs: 30000, GiveUps: 29066, PeakRPS: 9999, WastedPerSuccess: 317.3504}
	want := map[string][2]string{"requests": {"297k", "297,342"}, "limited": {"296k", "296,408"}, "successes": {"934", "934"}, "first_tries": {"30k", "30,000"},
		"give_ups": {"29.1k", "29,066"}, "peak_rps": {"9,999", "9,999"}, "wasted_per_success": {"317", "317.35"}, "retries": {"267,342", "267,342"}}
	for _, s := range statList(&st, 0, endLive, 0) {
		if w, ok := want[s.Name]; ok && (s.Text != w[0] || s.Exact != w[1]) {
			t.Errorf("%s shows %q, whole %q; want %q, whole %q", s.Name, s.Text, s.Exact, w[0], w[1])
		}
		if s.Name == "successes" && (s.Figures != nbsp("of_30k_finished") || s.Full != nbsp("of_30,000_finished")) {
			t.Errorf("successes' line %q, whole %q; want \"of 30k finished\", whole \"of 30,000 finished\"", s.Figures, s.Full)
		}
		if s.Name == "first_tries" && (s.Figures != nbsp("267k_retries") || s.Full != nbsp("267,342_retries")) {
			t.Errorf("first tries' line %q, whole %q; want \"267k retries\", whole \"267,342 retries\"", s.Figures, s.Full)
		}
	}
	for _, s := range watchStatList(watchStats{Arrivals: 12345, OK: 1000}) {
		if w := map[string]string{"arrivals": "12.3k", "allowed": "1,000"}[s.Name]; w != "" && s.Text != w {
			t.Errorf("watch: %s shows %q, want %q", s.Name, s.Text, w)
		}
	}
	// The card shows the short figure, with the whole one in its tooltip
	// and for a screen reader.
	l := newLab()
	l.stats, l.hasStats = st, true
	out := renderHTML(&Numbers{Lab: l, Rev: 1})
	// (The static encoder writes attributes in any order, and aria-hidden="true" bare.)
	for _, w := range []string{`title="297,342"`, `<span aria-hidden>297k</span>`, `<span class="sr-only">297,342</span>`,
		`title="one per job started; 267,342\u00a0retries"` /* the encoder escapes a no-break space in an attribute */, nbsp(`>267k_retries<`), `<span class="v">934</span>`} {
		if !strings.Contains(out, w) {
			t.Errorf("the numbers lack %q:\n%s", w, out)
		}
	}
	// Against a baseline, the baseline's figure is short on its line,
	// whole in its tooltip and for a screen reader.
	l.base = &baseline{run: -1, list: statList(&st, 0, endLive, 0)}
	l.stats.Requests = 300000
	out = renderHTML(&Numbers{Lab: l, Rev: 2})
	for _, w := range []string{">baseline 297k · +0.9%<", `title="The baseline run's figure (297,342), and this run's change from it"`, `aria-label="baseline 297,342, 0.9% more"`} {
		if !strings.Contains(out, w) {
			t.Errorf("the numbers against a baseline lack %q:\n%s", w, out)
		}
	}
}

func TestShort(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 9999: "9,999", 10000: "10k", 12345: "12.3k", 46964: "47k", 99949: "99.9k", 99950: "100k",
		123456: "123k", 300000: "300k", 999499: "999k", 999500: "1M", 1234567: "1.23M", 9873679: "9.87M", 10_000_000: "10M", 999_999_999: "1B", -12345: "-12.3k"} {
		if got := short(n); got != want {
			t.Errorf("short(%d) = %q, want %q", n, got, want)
		}
	}
	for f, want := range map[float64]string{2.3749: "2.37", 15.05: "15.05", 99.994: "99.99", 99.996: "100", 260.226: "260", 493.23: "493", 1234.5: "1,235", 9999.4: "9,999", 299999.5: "300k"} {
		if got := shortFloat(f); got != want {
			t.Errorf("shortFloat(%v) = %q, want %q", f, got, want)
		}
	}
	for f, want := range map[float64]string{299999.5: "299,999.5", 1234.567: "1,234.57", 2.5: "2.5", 10000: "10,000"} {
		if got := wholeFloat(f); got != want {
			t.Errorf("wholeFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

// window.retrylab.state() follows the configuration as it changes, not
// only at runs: the preset it equals and the values refused.
func TestStateFollowsTheConfiguration(t *testing.T) {
	l := newLab()
	l.Load(mustURL(t, "http://localhost:8080/?workers=33"))
	want := func(frag string) {
		t.Helper()
		if s := l.stateJSON(); !strings.Contains(s, frag) {
			t.Errorf("state lacks %s: %s", frag, s)
		}
	}
	want(`"preset":""`)
	l.Preset("flood")
	want(`"preset":"flood"`)
	l.Set("workers", "abc")
	want(`"invalid":1`)
	l.RestoreCustom()
	want(`"preset":""`)
	want(`"invalid":0`)
}

func TestStateJSON(t *testing.T) {
	l := newLab()
	js := l.stateJSON()
	for _, want := range []string{`"running":false`, `"records":0`, `"stats":{`, `"requests":0`, `"preset":"full-jitter"`} {
		if !strings.Contains(js, want) {
			t.Errorf("state %s lacks %s", js, want)
		}
	}
}

func TestPresetKeepsRoom(t *testing.T) {
	l := newLab()
	l.Set("room", "workshop-1")
	l.Preset("flood")
	if l.Scenario().Room != "workshop-1" || l.Text("room") != "workshop-1" {
		t.Errorf("loading a preset dropped the room: %q", l.Scenario().Room)
	}
	if got := l.ActivePreset(); got != "flood" {
		t.Errorf("active preset with a room %q, want flood", got)
	}
}

// Above 500 workers Run is disabled with a note beside the workers input,
// and Simulate stays enabled; a custom target is the other way round.
func TestLabRunAndSimulateRules(t *testing.T) {
	l := newLab()
	if !l.CanRun() || !l.CanSimulate() || l.Note("workers") != "" {
		t.Fatalf("default: CanRun %v, CanSimulate %v, note %q", l.CanRun(), l.CanSimulate(), l.Note("workers"))
	}
	l.Set("workers", "10000")
	if l.Err("workers") != "" || l.Invalid() != 0 {
		t.Errorf("10000 workers: error %q", l.Err("workers"))
	}
	if l.CanRun() || !l.CanSimulate() {
		t.Errorf("10000 workers: CanRun %v, CanSimulate %v", l.CanRun(), l.CanSimulate())
	}
	if got, want := l.Note("workers"), `Workers "10000": live runs take at most 500; Simulate takes up to 10000`; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	out := renderHTML(&RunBar{Lab: l})
	if !strings.Contains(out, "Live runs take at most 500 workers") || isTrue(tagWith(out, `id="simulate"`), "disabled") {
		t.Errorf("run bar: %s", out)
	}
	if !strings.Contains(renderHTML(&Controls{Lab: l}), `id="note-workers"`) {
		t.Error("no note beside the workers input")
	}
	l.Set("workers", "10001")
	if l.Err("workers") == "" || l.CanSimulate() || l.Note("workers") != "" {
		t.Errorf("10001 workers: error %q, CanSimulate %v", l.Err("workers"), l.CanSimulate())
	}
	l.Set("workers", "50")
	l.Set("target", "https://api.example.com/x")
	if !l.CanRun() || l.CanSimulate() || !strings.Contains(l.Note("target"), "cannot be simulated") {
		t.Errorf("custom target: CanRun %v, CanSimulate %v, note %q", l.CanRun(), l.CanSimulate(), l.Note("target"))
	}
	if out := renderHTML(&RunBar{Lab: l}); !strings.Contains(out, `id="simulate-note"`) {
		t.Errorf("no note beside Simulate: %s", out)
	}
}

// A target being typed that is not valid yet is still the user's own URL
// to the run bar: its label and the CORS note stay (they went back to the
// mock's "Endpoint (works with curl):" at the first invalid character; a
// review).
func TestTypingATargetKeepsItsRunBar(t *testing.T) {
	for _, tt := range []struct {
		typed  string
		custom bool
	}{
		{"", false},
		{"http//localhost:18091/api", true},
		{"https://api.example.com/x", true},
	} {
		l := newLab()
		l.Set("target", tt.typed)
		out := renderHTML(&RunBar{Lab: l})
		if got := strings.Contains(out, "Custom target:") && strings.Contains(out, `id="cors-note"`); got != tt.custom {
			t.Errorf("target %q typed: custom target's label and note shown %v, want %v", tt.typed, got, tt.custom)
		}
	}
}

// Watch room needs a shared room on the built-in mock; its button shows
// only then, and the numbers of a watch are the room's.
func TestLabWatchRules(t *testing.T) {
	l := newLab()
	if l.CanWatch() || strings.Contains(renderHTML(&RunBar{Lab: l}), `id="watch"`) {
		t.Error("Watch room offered without a shared room")
	}
	l.Set("room", "room1")
	if !l.CanWatch() || isTrue(tagWith(renderHTML(&RunBar{Lab: l}), `id="watch"`), "disabled") {
		t.Errorf("room set: CanWatch %v", l.CanWatch())
	}
	l.Set("target", "https://api.example.com/x")
	if l.CanWatch() || strings.Contains(renderHTML(&RunBar{Lab: l}), `id="watch"`) {
		t.Error("Watch room offered with a custom target (it has no arrivals stream)")
	}
	l.Set("target", "")
	l.running = true
	if l.CanWatch() {
		t.Error("Watch room while a run goes on")
	}
	l.running = false
	l.watched, l.hasStats, l.wstats = true, true, watchStats{Arrivals: 30, OK: 11, Limited: 19, Peak: 30, For: 2 * time.Second}
	out := renderHTML(&Numbers{Lab: l})
	for stat, value := range map[string]string{"arrivals": "30", "allowed": "11", "limited": "19", "peak_rps": "30", "watched_ms": "2000"} {
		if tag := tagWith(out, `data-stat="`+stat+`"`); !strings.Contains(tag, `data-value="`+value+`"`) {
			t.Errorf("watch number %s: %q, want the value %s", stat, tag, value)
		}
	}
	for _, want := range []string{"requests received", "36.7% of requests", "63.3% of requests"} {
		if !strings.Contains(out, want) {
			t.Errorf("watch numbers lack %q:\n%s", want, out)
		}
	}
}

// TestWatchTimeIsOneLine: the watch-time tile reads as a clock, with no
// space a big number's line could wrap at ("1 min 38 s" took two lines in
// presentation mode after a minute, pushing the timeline down mid-watch).
func TestWatchTimeIsOneLine(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 2830 * time.Millisecond: "0:03", 98 * time.Second: "1:38",
		10*time.Minute + 5*time.Second: "10:05", time.Hour + 2*time.Minute + 5*time.Second: "1:02:05"} {
		var got string
		for _, s := range watchStatList(watchStats{For: d}) {
			if s.Name == "watched_ms" {
				got = s.Text
			}
		}
		if got != want {
			t.Errorf("watch time %v: %q, want %q", d, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 50000: "50,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPercents(t *testing.T) {
	for _, c := range []struct {
		n, tot     int
		one, whole string
	}{
		{0, 0, "0%", "0%"},
		{0, 10, "0%", "0%"},
		{10, 10, "100%", "100%"},
		{1, 20, "5.0%", "5%"},
		{350, 450, "77.8%", "78%"},
		{1, 3, "33.3%", "33%"},
		{1, 2000, "0.1%", "<1%"},
		{1, 20000, "<0.1%", "<1%"},
		{1999, 2000, "99.9%", "99%"},
		{19999, 20000, "99.9%", "99%"},
	} {
		if got := percentOf(c.n, c.tot); got != c.one {
			t.Errorf("percentOf(%d, %d) = %q, want %q", c.n, c.tot, got, c.one)
		}
		if got := wholePercent(c.n, c.tot); got != c.whole {
			t.Errorf("wholePercent(%d, %d) = %q, want %q", c.n, c.tot, got, c.whole)
		}
	}
}

// A simulation's status says how long it took to compute, never "0 µs".
func TestSimulatedTextTook(t *testing.T) {
	for _, c := range []struct {
		wall time.Duration
		want string
	}{
		{300 * time.Microsecond, "computed in under 1 ms"},
		{3400 * time.Microsecond, "computed in 3.0 ms"},
		{712 * time.Millisecond, "computed in 712 ms"},
		{1234 * time.Millisecond, "computed in 1.23 s"},
	} {
		l := newLab()
		l.rec = fleet.NewRecording(l.s, time.Now(), true)
		l.simSum.Wall = c.wall
		if got := l.SimulatedText(); !strings.HasSuffix(got, c.want) {
			t.Errorf("wall %v: %q, want it to end %q", c.wall, got, c.want)
		}
	}
}

// What was typed into fields whose value is not allowed survives a reload
// of the tab (the address bar keeps only valid configurations): the texts
// come back with their messages, and Run is disabled again. A draft typed
// over another address is not this page's, and a valid configuration
// clears it.
func TestDraftSurvivesAReload(t *testing.T) {
	page, _ := url.Parse("http://localhost:8080/?workers=20&seed=7")
	other, _ := url.Parse("http://localhost:8080/?workers=30")
	malformed, _ := url.Parse("http://localhost:8080/?workers=20&seed=7&base=-1s")
	open := func(u *url.URL, st *fakeStorage) *Lab {
		l := newLab()
		l.Load(u)
		l.adoptDraft(st)
		return l
	}
	for _, c := range []struct {
		name   string
		typed  [][2]string // key, text, in order
		reload *url.URL    // the address the tab reloads; nil: the one its address bar holds
		want   map[string]string
	}{
		{"a value not allowed", [][2]string{{"workers", "abc"}}, nil, map[string]string{"workers": "abc"}},
		{"a valid change, then one not allowed", [][2]string{{"jobs", "3"}, {"base", "-1s"}}, nil, map[string]string{"base": "-1s"}},
		{"values that are not allowed together", [][2]string{{"fail500", "60"}, {"fail503", "50"}}, nil, map[string]string{"fail503": "50"}},
		{"two fields, one fixed", [][2]string{{"workers", "abc"}, {"seed", "x"}, {"workers", "9"}}, nil, map[string]string{"seed": "x"}},
		{"fixed", [][2]string{{"workers", "abc"}, {"workers", "9"}}, nil, nil},
		{"another address", [][2]string{{"workers", "abc"}}, other, nil},
		// A link that falls back to the configuration the draft was typed
		// over is still another address (it came back over a fresh link).
		{"a malformed link to the same configuration", [][2]string{{"latency", "20s"}, {"spread", "15s"}}, malformed, nil},
	} {
		st := &fakeStorage{m: map[string]string{}}
		l := open(page, st)
		for _, kt := range c.typed {
			l.Set(kt[0], kt[1])
		}
		reload := c.reload
		if reload == nil { // the address bar: as opened, or the last valid configuration
			reload, _ = url.Parse("http://localhost:8080/?" + l.address)
		}
		r := open(reload, st)
		for key, text := range c.want {
			if r.Text(key) != text || r.Err(key) == "" {
				t.Errorf("%s: after the reload %s shows %q with message %q; want %q with its message", c.name, key, r.Text(key), r.Err(key), text)
			}
		}
		if got := r.Invalid(); (got > 0) != (c.want != nil) {
			t.Errorf("%s: %d fields to fix after the reload", c.name, got)
		}
		if c.want == nil && r.Text("workers") != strconv.Itoa(r.Scenario().Workers) {
			t.Errorf("%s: workers shows %q, not the address's %d", c.name, r.Text("workers"), r.Scenario().Workers)
		}
	}
	// A valid value chosen keeps nothing: it writes no storage.
	st := &fakeStorage{m: map[string]string{}}
	l := open(page, st)
	l.Set("workers", "9")
	l.Set("jobs", "4")
	if d, ok := st.m[draftStorageKey]; ok {
		t.Errorf("valid values set stored a draft: %s", d)
	}
	// A valid value typed and not yet committed (the input still
	// focused) is not in the address bar, and a reload keeps it; once
	// committed, it is in the address and the draft is cleared.
	st = &fakeStorage{m: map[string]string{}}
	l = open(page, st)
	before := l.address
	for _, k := range []string{"5", "50", "50m", "50ms"} { // cap under a base of 100ms: not allowed
		l.Type("cap", k)
	}
	if l.address != before || l.Err("cap") == "" {
		t.Errorf("typing 50ms into cap: the address went from %q to %q (message %q); want it kept, and a message", before, l.address, l.Err("cap"))
	}
	r := open(page, st)
	if r.Text("cap") != "50ms" || r.Err("cap") == "" {
		t.Errorf("after a reload, cap shows %q with message %q; want 50ms with its message", r.Text("cap"), r.Err("cap"))
	}
	st = &fakeStorage{m: map[string]string{}}
	l = open(page, st)
	l.Type("workers", "9")
	if l.address != before || l.Scenario().Workers != 9 {
		t.Errorf("typing 9 into workers: address %q, workers %d; want the address kept and 9 workers", l.address, l.Scenario().Workers)
	}
	if r := open(page, st); r.Text("workers") != "9" || r.Scenario().Workers != 9 {
		t.Errorf("after a reload, typed (not committed) workers shows %q, runs %d; want 9", r.Text("workers"), r.Scenario().Workers)
	}
	l.Type("timeout", "1500ms") // 1.5s, written another way
	l.Commit()
	if d := st.m[draftStorageKey]; !strings.Contains(l.address, "workers=9") || (d != "" && d != `""`) {
		t.Errorf("committed: address %q, draft %q; want workers=9 in it, and no draft", l.address, d)
	}
}

// A simulation stopped, at the attempt limit or by Stop, accounts for
// every job: those it cancelled and those it never started (10,000
// workers × 5 jobs, 33,088 begun).
func TestSimulationStoppedAccountsForEveryJob(t *testing.T) {
	for _, c := range []struct {
		name string
		sum  fleet.SimSummary
		want string
	}{
		{"at the attempt limit", fleet.SimSummary{Stopped: true, Attempts: SimMaxAttempts}, "it stopped at the limit of " + thousands(SimMaxAttempts) + " attempts"},
		{"by Stop", fleet.SimSummary{Interrupted: true, Attempts: 99101}, "Stop ended it after 99,101 attempts"},
	} {
		l := newLab()
		l.s.Workers, l.s.Jobs = 10000, 5
		l.rec = fleet.NewRecording(l.s, time.Now(), true)
		l.simSum = c.sum
		l.stats = fleet.Stats{Jobs: 33088, Successes: 607, GiveUps: 32481, Cancelled: 9999}
		want := "jobs, computed in under 1 ms; " + c.want + ": 9,999 jobs in progress were cancelled and 16,912 never started"
		if got := l.SimulatedText(); !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q, want it to end %q", c.name, got, want)
		}
		if got := renderHTML(&RunBar{Lab: l}); !strings.Contains(got, "607 of 50,000 jobs succeeded") || !strings.Contains(got, c.want+": 9,999 jobs in progress were cancelled and 16,912 never started") {
			t.Errorf("%s: run bar's status: want 607 of 50,000 jobs succeeded, %s, 9,999 cancelled and 16,912 never started:\n%s", c.name, c.want, got)
		}
	}
}

// A simulation going on says how far it has come, and Stop ends it; once
// it is computed, as the page draws it, Stop leaves it undrawn (it was
// disabled then, for 2–3 s after 300,000 attempts: a review). It said "the
// page is busy until it is done", with Stop disabled.
func TestSimulationGoingOnSaysHowFar(t *testing.T) {
	for _, c := range []struct {
		name               string
		soFar              sim.Progress
		drawing, stopping  bool
		want               []string
		stopOn, stopCalled bool
		dropped            bool // Stop leaves it undrawn
	}{
		{"starting", sim.Progress{}, false, false, []string{"Simulating 10,000 workers × 5 jobs in virtual time", "…"}, true, true, false},
		{"going on", sim.Progress{Attempts: 24269, Elapsed: 1500 * time.Millisecond}, false, false,
			[]string{"Simulating 10,000 workers × 5 jobs in virtual time", ": 24,269 attempts so far, 1.50 s into the run. Stop (s) ends it there."}, true, true, false},
		// A closed workload's first thousands of attempts are all at 0.
		{"at its start", sim.Progress{Attempts: 4096}, false, false, []string{": 4,096 attempts so far. Stop (s) ends it there."}, true, true, false},
		{"stopping", sim.Progress{Attempts: 24269}, false, true, []string{"Stopping the simulation…"}, false, false, false},
		{"computed", sim.Progress{Attempts: 300000, Over: true}, true, false, []string{"Drawing the simulation&#39;s 300,000 attempts…", "Stop (s) leaves it undrawn."}, true, true, true},
		// Stop pressed as it was computed: what it computed is drawn whole.
		{"computed, stopping", sim.Progress{Attempts: 300000, Over: true}, true, true, []string{"Drawing the simulation&#39;s 300,000 attempts…"}, false, false, false},
	} {
		l := newLab()
		l.s.Workers, l.s.Jobs = 10000, 5
		l.running, l.simulating, l.simSoFar, l.simDrawing, l.stopping = true, true, c.soFar, c.drawing, c.stopping
		l.simDrop = new(atomic.Bool) // as Simulate sets it
		l.cancel = func() {}         // Stop calls it after the next frame, on a goroutine of its own
		bar := renderHTML(&RunBar{Lab: l})
		for _, w := range c.want {
			if !strings.Contains(bar, w) {
				t.Errorf("%s: the status lacks %q:\n%s", c.name, w, tagWith(bar, `id="run-status"`))
			}
		}
		if on := !isTrue(tagWith(bar, `id="stop"`), "disabled"); on != c.stopOn {
			t.Errorf("%s: Stop enabled %v, want %v", c.name, on, c.stopOn)
		}
		l.Stop()
		if l.stopping != (c.stopCalled || c.stopping) {
			t.Errorf("%s: Stop did not take (stopping %v)", c.name, l.stopping)
		}
		if l.simDropping() != c.dropped {
			t.Errorf("%s: Stop left it undrawn %v, want %v", c.name, l.simDropping(), c.dropped)
		}
		if c.dropped {
			if bar := renderHTML(&RunBar{Lab: l}); !strings.Contains(bar, "Stopping: the simulation is left undrawn…") || !isTrue(tagWith(bar, `id="stop"`), "disabled") {
				t.Errorf("%s, Stop pressed: the status and Stop:\n%s\n%s", c.name, tagWith(bar, `id="run-status"`), tagWith(bar, `id="stop"`))
			}
		}
	}
}

// Stop as a simulation is drawn leaves it undrawn: taking its records in
// gives up after a slice once Stop says so, the model it was making never
// shown, and the timeline, computing no longer, is empty again (it took
// 1.3–1.6 s of 300,000 attempts' records in, Stop disabled). Not stopped,
// the records are all taken in.
func TestStopLeavesASimulationUndrawn(t *testing.T) {
	s := fleet.Default()
	s.Workers, s.Jobs = 50, 4
	rec := fleet.Simulate(s)
	recs := rec.Records()
	if len(recs) < 512 {
		t.Fatalf("%d records: too few for a slice to be asked after", len(recs))
	}
	v := newView()
	v.forget(s) // as Simulate does
	asked := 0
	if _, _, ok := v.loadUnless(s, rec, recs, func() bool { asked++; return true }); ok || asked == 0 {
		t.Fatalf("stopped: loadUnless reported taken in %v, asked %d times", ok, asked)
	}
	if v.m != nil || !v.computing {
		t.Errorf("stopped: the view has a model %v, computing %v; want none, still computing until undrawn", v.m != nil, v.computing)
	}
	v.undrawn()
	if v.m != nil || v.computing {
		t.Errorf("undrawn: the view has a model %v, computing %v; want neither", v.m != nil, v.computing)
	}
	st, _, ok := v.loadUnless(s, rec, recs, func() bool { return false })
	if !ok || v.m == nil || v.computing || st.Jobs != s.Workers*s.Jobs {
		t.Errorf("not stopped: taken in %v, a model %v, computing %v, %d jobs; want all %d", ok, v.m != nil, v.computing, st.Jobs, s.Workers*s.Jobs)
	}
}

// A finished simulation is told once, in the run bar's status: what it is
// (virtual time, no requests sent), how long it took to compute, the result
// and where it stopped. The status gave the result and a banner between
// the legend and the timeline the rest, saying "simulated" again and
// pushing the timeline off a 1280 × 720 projector's first screen.
func TestSimulationToldOnce(t *testing.T) {
	for _, stopped := range []bool{false, true} {
		l := newLab()
		l.s.Workers, l.s.Jobs = 50, 2
		l.rec = fleet.NewRecording(l.s, time.Now(), true)
		l.simSum.Stopped = stopped
		l.simSum.Wall = 7 * time.Millisecond
		l.stats = fleet.Stats{Jobs: 100, Successes: 100, Drain: 18980 * time.Millisecond}
		page := renderHTML(&Playground{lab: l, ready: true})
		bar := renderHTML(&RunBar{Lab: l})
		for _, want := range []string{nbsp("Simulated in virtual time (computed in 7.0_ms; nothing went over the network): 100 of 100 jobs succeeded in 18.98_s")} {
			if !strings.Contains(bar, want) {
				t.Errorf("stopped %v: run bar's status lacks %q:\n%s", stopped, want, bar)
			}
		}
		if got := strings.Contains(bar, "it stopped at the limit of "+thousands(SimMaxAttempts)+" attempts: 0 jobs in progress were cancelled"); got != stopped {
			t.Errorf("stopped %v: run bar says it stopped: %v", stopped, got)
		}
		if n := strings.Count(page, "computed in"); n != 1 {
			t.Errorf("stopped %v: the page says %d times how long the simulation took", stopped, n)
		}
		if strings.Contains(page, "sim-banner") {
			t.Errorf("stopped %v: the page still has a banner over the timeline", stopped)
		}
	}
}

// The Outage button applies to a live run on the built-in mock, or a watch.
func TestOutageRules(t *testing.T) {
	l := newLab()
	button := func() string { return tagWith(renderHTML(&RunBar{Lab: l}), `id="outage"`) }
	if l.CanOutage() || !isTrue(button(), "disabled") {
		t.Error("Outage offered with nothing running")
	}
	l.running = true
	if !l.CanOutage() || isTrue(button(), "disabled") {
		t.Error("Outage not offered during a live run")
	}
	l.simulating = true
	if l.CanOutage() {
		t.Error("Outage offered during a simulation")
	}
	l.simulating = false
	l.Set("target", "https://api.example.com/x")
	if l.CanOutage() {
		t.Error("Outage offered for a custom target (not our server)")
	}
	l.Set("target", "")
	l.stopping = true
	if l.CanOutage() {
		t.Error("Outage offered while stopping")
	}
	l.stopping, l.watching = false, true
	if !l.CanOutage() {
		t.Error("Outage not offered during a watch")
	}
}

// Picking a step of the story replaces the configuration, but a
// configuration of the user's own is kept: u (or the "Your configuration"
// step) brings it back, in the room the page is in now.
func TestPresetKeepsTheUsersConfiguration(t *testing.T) {
	l := newLab()
	l.Load(mustURL(t, "http://localhost:8080/?workers=33&strategy=equal&room=r1"))
	own := l.s
	if l.CustomKept() || strings.Contains(renderHTML(&PresetBar{Lab: l}), "preset-back") {
		t.Fatal("a way back before any step was picked")
	}
	l.Preset("flood")
	if l.ActivePreset() != "flood" || !l.CustomKept() || l.s.Room != "r1" {
		t.Fatalf("after step 1: preset %q, kept %v, room %q", l.ActivePreset(), l.CustomKept(), l.s.Room)
	}
	if bar := renderHTML(&PresetBar{Lab: l}); !strings.Contains(bar, `id="preset-back"`) || !strings.Contains(bar, "Your configuration") {
		t.Errorf("no way back in the steps: %s", bar)
	}
	l.Preset("full-jitter") // a step replacing a step keeps the user's own
	l.RestoreCustom()
	if l.s != own || l.CustomKept() || l.ActivePreset() != "" {
		t.Errorf("after u: workers %d, strategy %v, room %q, kept %v; want the user's own back", l.s.Workers, l.s.Strategy, l.s.Room, l.CustomKept())
	}
	if l.Text("workers") != "33" {
		t.Errorf("the Workers input shows %q after u, want 33", l.Text("workers"))
	}
	l.RestoreCustom() // nothing kept: nothing changes
	if l.s != own {
		t.Error("u with nothing kept changed the configuration")
	}

	// Kept across a reload of the tab (its session storage): after a
	// reload, or Back and Forward, the way back was gone (a review). Its
	// field not allowed comes back with it.
	st := &fakeStorage{m: map[string]string{}}
	l = newLab()
	l.Load(mustURL(t, "http://localhost:8080/?workers=33&strategy=equal"))
	l.adoptDraft(st)
	l.adoptCustom(st)
	l.Set("cap", "5")
	l.Preset("bucket")
	r := newLab()
	r.Load(mustURL(t, "http://localhost:8080/?"+l.address))
	r.adoptDraft(st)
	r.adoptCustom(st)
	if !r.CustomKept() || r.ActivePreset() != "bucket" {
		t.Fatalf("after a reload: kept %v, step %q", r.CustomKept(), r.ActivePreset())
	}
	r.RestoreCustom()
	if r.s.Workers != 33 || r.s.Strategy != core.EqualJitter || r.Text("cap") != "5" || r.Err("cap") == "" || r.CustomKept() {
		t.Errorf("u after a reload: workers %d, strategy %v, cap %q (%q), kept %v", r.s.Workers, r.s.Strategy, r.Text("cap"), r.Err("cap"), r.CustomKept())
	}
	r2 := newLab() // brought back, it is kept no more
	r2.adoptCustom(st)
	if r2.CustomKept() {
		t.Error("a configuration brought back is kept again after another reload")
	}

	// A step sets a custom target aside (the steps run against the mock)
	// and says which; u brings it back.
	l = newLab()
	l.Load(mustURL(t, "http://localhost:8080/?target="+url.QueryEscape("http://localhost:9000/api")))
	if got := l.Preset("full-jitter"); got != "http://localhost:9000/api" || l.s.Target != "" {
		t.Errorf("a step over a custom target: set aside %q, target now %q", got, l.s.Target)
	}
	if got := l.Preset("flood"); got != "" {
		t.Errorf("a step over a step set aside %q", got)
	}
	if l.RestoreCustom(); l.s.Target != "http://localhost:9000/api" {
		t.Errorf("u: target %q", l.s.Target)
	}
}

// Going back to the user's own configuration brings back what they typed
// that was not allowed, with its message, not only the valid values: even
// when the valid values are a preset's.
func TestPresetKeepsTextNotAllowed(t *testing.T) {
	for _, start := range []string{"?workers=33", "?" + mustPreset(t, "flood").Scenario().Encode()} {
		l := newLab()
		l.Load(mustURL(t, "http://localhost:8080/"+start))
		own := l.s
		l.Set("workers", "-3")
		l.Set("base", "fast")
		if l.Invalid() != 2 {
			t.Fatalf("%s: %d fields refused, want 2", start, l.Invalid())
		}
		l.Preset("full-jitter")
		if l.Invalid() != 0 || !l.CustomKept() {
			t.Fatalf("%s: after the step: %d refused, kept %v", start, l.Invalid(), l.CustomKept())
		}
		l.RestoreCustom()
		if l.Text("workers") != "-3" || l.Text("base") != "fast" {
			t.Errorf("%s: after u the inputs show workers %q, base %q; want what was typed", start, l.Text("workers"), l.Text("base"))
		}
		if l.Err("workers") == "" || l.Err("base") == "" || l.CanRun() {
			t.Errorf("%s: after u: messages %q, %q, CanRun %v; want both messages and Run disabled", start, l.Err("workers"), l.Err("base"), l.CanRun())
		}
		if l.s != own {
			t.Errorf("%s: the valid configuration changed: %+v", start, l.s)
		}
	}
}

func mustPreset(t *testing.T, id string) fleet.Preset {
	t.Helper()
	p, ok := fleet.PresetByID(id)
	if !ok {
		t.Fatalf("no preset %q", id)
	}
	return p
}

// A key for Run or Simulate that cannot start says why, as the disabled
// button's title does: a value to fix, a live run's limit, a target the
// simulator cannot model.
func TestBlockedSaysWhy(t *testing.T) {
	for _, c := range []struct {
		query         string
		typed         map[string]string // values typed after loading
		run, simulate string            // what RunBlocked and SimulateBlocked contain ("": nothing blocks)
	}{
		{"?workers=20", nil, "", ""},
		{"?workers=20", map[string]string{"workers": "abc"}, "Run: fix the value marked", "Simulate: fix the value marked"},
		{"?workers=20", map[string]string{"workers": "abc", "base": "soon"}, "Run: fix the 2 values marked", "Simulate: fix the 2 values marked"},
		{"?workers=10000", nil, "live runs take at most 500", ""},
		{"?target=http%3A%2F%2Fapi.example.com%2Fx", nil, "", "A custom target cannot be simulated"},
	} {
		l := newLab()
		l.Load(mustURL(t, "http://localhost:8080/"+c.query))
		for k, v := range c.typed {
			l.Set(k, v)
		}
		for _, g := range []struct {
			name, got, want string
			can             bool
		}{
			{"Run", l.RunBlocked(), c.run, l.CanRun()},
			{"Simulate", l.SimulateBlocked(), c.simulate, l.CanSimulate()},
		} {
			if g.want == "" && g.got != "" || g.want != "" && !strings.Contains(g.got, g.want) {
				t.Errorf("%s %v: %s blocked says %q, want %q", c.query, c.typed, g.name, g.got, g.want)
			}
			if (g.got == "") != g.can {
				t.Errorf("%s %v: %s blocked says %q while it can start: %v", c.query, c.typed, g.name, g.got, g.can)
			}
		}
	}
}

// Every key the shortcuts dialog lists is taken by the page (the list of
// keys the page claims once missed u, so u did nothing).
func TestShortcutsAreTaken(t *testing.T) {
	timeline := map[string]bool{"←": true, "→": true, "↑": true, "↓": true, "Home": true, "End": true, "Enter": true}
	names := map[string]string{"Esc": "Escape", "−": "-"}
	for _, sc := range shortcuts {
		for _, k := range sc.keys {
			if timeline[k] {
				continue // the focused timeline's own keys (ownKeys)
			}
			if n, ok := names[k]; ok {
				k = n
			}
			if !isShortcut(k) {
				t.Errorf("the help lists %q (%s), but the page does not take it", k, sc.what)
			}
		}
	}
	// "8" and "9": there are seven presets (both were taken, doing nothing).
	for _, k := range []string{"x", "Enter", strconv.Itoa(len(fleet.Presets) + 1), "9"} {
		if isShortcut(k) {
			t.Errorf("%q, which the help does not list, is taken", k)
		}
	}
}

// The single-key shortcuts can be switched off in the help (WCAG 2.1.4:
// speech input types letters, and o or b hit a shared room's server for
// everyone; an accessibility review), and the page remembers it. Off, it
// takes Escape alone.
func TestShortcutsCanBeSwitchedOff(t *testing.T) {
	st := &fakeStorage{m: map[string]string{}}
	l := newLab()
	l.adoptShortcuts(st)
	for _, k := range []string{"r", "o", "b", "1", "?", "Escape"} {
		if !l.takesKey(k) {
			t.Errorf("shortcuts on: %q not taken", k)
		}
	}
	if tag := tagWith(renderHTML(&Help{Lab: l, Open: true}), `id="shortcuts-on"`); !isTrue(tag, "checked") {
		t.Errorf("the help's switch with the shortcuts on: %s", tag)
	}
	l.SetShortcuts(false, st)
	again := newLab()
	again.adoptShortcuts(st)
	for _, lab := range []*Lab{l, again} {
		for _, k := range []string{"r", "s", "o", "b", "h", "1", "?", "+", "t"} {
			if lab.takesKey(k) {
				t.Errorf("shortcuts off: %q still taken", k)
			}
		}
		if !lab.takesKey("Escape") {
			t.Error("shortcuts off: Escape not taken: it stops a run and closes the help")
		}
	}
	if tag := tagWith(renderHTML(&Help{Lab: again, Open: true}), `id="shortcuts-on"`); isTrue(tag, "checked") || !strings.Contains(tag, `aria-describedby="shortcuts-help"`) {
		t.Errorf("the help's switch after a reload with the shortcuts off: %s", tag)
	}
	again.SetShortcuts(true, st)
	third := newLab()
	third.adoptShortcuts(st)
	if !third.takesKey("r") {
		t.Error("switched back on, then reloaded: r not taken")
	}
}

// In a shared room the status line tells the page its name there (its lane
// in the projector's watch): ready and while running.
func TestStatusNamesTheDeviceInARoom(t *testing.T) {
	l := newLab()
	l.Load(mustURL(t, "http://localhost:8080/?room=r1"))
	want := "where this page is " + l.Device()
	if l.Device() == "" || !strings.Contains(renderHTML(&RunBar{Lab: l}), want) {
		t.Errorf("ready in a room: no %q in %s", want, renderHTML(&RunBar{Lab: l}))
	}
	l.running = true
	if !strings.Contains(renderHTML(&RunBar{Lab: l}), want) {
		t.Errorf("running in a room: no %q", want)
	}
	l.running = false
	l.Set("room", "")
	if strings.Contains(renderHTML(&RunBar{Lab: l}), "where this page is") {
		t.Error("a page in no room is given a name there")
	}
}

// TestWatchShowsJoinLink: during a watch the run bar's endpoint line shows
// the room's link for the audience, not the presenter's local endpoint
// (http://localhost:…/mock?…, which the page does not call during a watch),
// or why there is none.
func TestWatchShowsJoinLink(t *testing.T) {
	l := newLab()
	l.Set("room", "room1")
	if out := renderHTML(&RunBar{Lab: l}); !strings.Contains(tagWith(out, `id="endpoint-url"`), "Endpoint URL") {
		t.Fatalf("before a watch the line is not the endpoint's: %s", tagWith(out, `id="endpoint-url"`))
	}
	link := "http://192.168.1.23:8080/?room=room1"
	l.watching, l.watched, l.running, l.watchRoom = true, true, true, "room1"
	for _, c := range []struct {
		join joinState
		want string
		copy bool // a link to copy; else why there is none, not in the link's box, and Copy disabled
	}{
		{joinState{Asked: true}, "Asking the server for its network address…", false},
		{joinState{Asked: true, Links: []string{link}}, link, true},
		{joinState{Asked: true, Hint: "The server listens on localhost only"}, "The server listens on localhost only", false},
	} {
		l.join = c.join
		out := renderHTML(&RunBar{Lab: l})
		if !strings.Contains(out, "Join link:") || !strings.Contains(out, c.want) || strings.Contains(out, "/mock?") {
			t.Errorf("watch, %+v: the endpoint line is %q, want the join link %q", c.join, out[strings.Index(out, `class="endpoint"`):], c.want)
		}
		box, button := tagWith(out, `id="endpoint-url"`), tagWith(out, `id="copy-endpoint"`)
		disabled := strings.Contains(button, " disabled") && !strings.Contains(button, `disabled="false"`)
		if strings.HasPrefix(box, "<code") != c.copy || disabled == c.copy {
			t.Errorf("watch, %+v: the line's box %s and its button %s: want a link to copy %v", c.join, box, button, c.copy)
		}
	}
}

// The join panel counts the room's devices, and says where the requests
// came from when none came from a device (a review saw "No device has
// sent a request yet" beside 53 requests received).
func TestDevicesText(t *testing.T) {
	for _, c := range []struct {
		devices, arrivals int
		want              string
	}{
		{0, 0, "No device has sent a request yet."},
		{0, 1, "No device has sent a request yet: the 1 request received came from a client without a device name (the others lane: curl, a script, a burst)."},
		{0, 53, "No device has sent a request yet: the 53 requests received came from clients without a device name (the others lane: curl, a script, a burst)."},
		{1, 53, "1 device has sent requests."},
		{3, 53, "3 devices have sent requests."},
	} {
		if got := devicesText(c.devices, c.arrivals); got != c.want {
			t.Errorf("%d devices, %d arrivals: %q, want %q", c.devices, c.arrivals, got, c.want)
		}
	}
}

// The live numbers carry the retries' dispersion as the records come in,
// not 0 until the end: a presenter points at it during the flood.
func TestLiveDispersion(t *testing.T) {
	rec := fleet.Simulate(mustPreset(t, "flood").Scenario())
	recs := rec.Records()
	var live liveRecords
	live.restart(rec.Start)
	half := len(recs) / 2
	for i, r := range recs {
		live.add(r)
		if i+1 == half {
			if _, disp := live.stats(time.Time{}); disp != fleet.Dispersion(recs[:half], fleet.DispersionSlice) || disp <= 1 {
				t.Errorf("halfway through the flood: dispersion %v, want %v (> 1)", disp, fleet.Dispersion(recs[:half], fleet.DispersionSlice))
			}
		}
	}
	if _, disp := live.stats(time.Time{}); disp != fleet.Dispersion(recs, fleet.DispersionSlice) {
		t.Errorf("at the end: dispersion %v, want the finished run's %v", disp, fleet.Dispersion(recs, fleet.DispersionSlice))
	}
}

// A run going on has not drained: its time to drain so far is at least the
// time since its start, not "0 µs" while every request is in flight (found
// by a review). A replay's numbers (no now) count to the playhead only.
func TestLiveDrainCountsUpToNow(t *testing.T) {
	var live liveRecords
	live.restart(t0)
	live.add(fleet.Record{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: at(1), Intended: at(1), Attempt: 1}})
	if st, _ := live.stats(t0.Add(5 * time.Second)); st.Drain != 5*time.Second {
		t.Errorf("5 s into a run with a request in flight: time to drain so far %v, want 5s", st.Drain)
	}
	if st, _ := live.stats(time.Time{}); st.Drain != 0 {
		t.Errorf("a replay's numbers: time to drain %v, want 0 (no job done yet)", st.Drain)
	}
}

// A room's link carries no seed, and each device that opens it draws its
// own, into its address: devices in a room are independent clients (with
// one seed their jittered retries came together). A link with a seed, or
// one to a custom target, keeps it.
func TestRoomDevicesDrawTheirOwnSeed(t *testing.T) {
	open := func(raw string) *Lab {
		u, _ := url.Parse(raw)
		l := newLab()
		l.Load(u)
		return l
	}
	a, b := open("http://localhost:8080/?room=r1&strategy=full"), open("http://localhost:8080/?room=r1&strategy=full")
	if a.Scenario().Seed == b.Scenario().Seed {
		t.Errorf("two devices on the room's link drew the same seed %d", a.Scenario().Seed)
	}
	for _, l := range []*Lab{a, b} {
		if want := "seed=" + strconv.FormatUint(l.Scenario().Seed, 10); !strings.Contains(l.address, want) || !strings.Contains(l.roomNote(), "its own random seed") {
			t.Errorf("address %q (want %s in it), note %q", l.address, want, l.roomNote())
		}
	}
	// The seed is added to the link as it was written: what the link
	// asked for that could not be used stays in the address, as it does
	// in any other link, with its notice. The address was rewritten to
	// the configuration fallen back to, and the custom target, the
	// workers and the misspelt key were gone from it.
	for _, tt := range []struct{ raw, kept string }{
		{"room=r1&workers=0&target=http://api.example.com/x&bogus=1", ""},
		{"room=r1&jobs=%ZZ", ""},
		{"room=r1&strategy=full&", "room=r1&strategy=full"},
	} {
		raw := tt.raw
		if tt.kept == "" {
			tt.kept = raw
		}
		l := open("http://localhost:8080/?" + raw)
		if want := tt.kept + "&seed=" + strconv.FormatUint(l.Scenario().Seed, 10); l.address != want || !l.drewSeed {
			t.Errorf("room link %q: address %q, want %q", raw, l.address, want)
		}
	}
	// The workshop's steps keep each device's seed.
	seedA, seedB := a.Scenario().Seed, b.Scenario().Seed
	for _, id := range []string{"full-jitter", "flood"} {
		a.Preset(id)
		b.Preset(id)
		if a.Scenario().Seed != seedA || b.Scenario().Seed != seedB || a.Scenario().Strategy != b.Scenario().Strategy {
			t.Errorf("preset %s in the room: seeds %d and %d, want the devices' own %d and %d", id, a.Scenario().Seed, b.Scenario().Seed, seedA, seedB)
		}
		if want := "seed=" + strconv.FormatUint(seedA, 10); !strings.Contains(a.query(), want) {
			t.Errorf("preset %s in the room: link %q without the device's %s", id, a.query(), want)
		}
	}
	if l := open("http://localhost:8080/?room=r1&seed=7"); l.Scenario().Seed != 7 || l.drewSeed {
		t.Errorf("a room link with seed=7: seed %d", l.Scenario().Seed)
	}
	if l := open("http://localhost:8080/?workers=3"); l.Scenario().Seed != fleet.Default().Seed {
		t.Errorf("no room: seed %d, want the default", l.Scenario().Seed)
	}
	s := fleet.Default()
	s.Room, s.Seed = "r1", 42
	if q := joinQuery(s); strings.Contains(q, "seed") || !strings.Contains(q, "room=r1") {
		t.Errorf("join link query %q: want the room and no seed", q)
	}
}

// A run against the user's own server that sends no Timing-Allow-Origin
// shows its browser queueing as not measured, saying why, not as 0 µs;
// against the mock, or with timings, it is a number. A run no answer told
// its queueing (network errors only: a server down or refusing CORS, every
// connection dropped) showed "0 µs", measured, where the export has null.
func TestQueueingNotMeasuredWithoutTimings(t *testing.T) {
	untimed := func() []fleet.Record {
		recs := oneJob()
		for i := range recs {
			if a := recs[i].Attempt; a != nil {
				c := *a
				c.Queued, c.Handoff, c.Measured = 0, 0, 0
				recs[i].Attempt = &c
			}
		}
		return recs
	}
	// Every attempt a network error: no answer, no timings.
	unanswered := func() []fleet.Record {
		recs := untimed()
		for i := range recs {
			if a := recs[i].Attempt; a != nil {
				a.Status, a.Header, a.Err = 0, nil, errors.New("network error")
				recs[i].Event.Outcome = a.Outcome()
			}
		}
		return recs
	}
	for _, c := range []struct {
		name   string
		target string
		recs   []fleet.Record
		want   string
	}{
		{"custom target, no timings", "https://api.example.com/items", untimed(), "not measured: your server sends no Timing-Allow-Origin"},
		{"custom target, timings", "https://api.example.com/items", oneJob(), ""},
		{"the mock", "", oneJob(), ""},
		{"custom target, network errors only", "https://api.example.com/items", unanswered(), "not measured: no answer told it"},
		{"the mock, every connection dropped", "", unanswered(), "not measured: no answer told it"},
	} {
		l := newLab()
		if c.target != "" {
			l.Set("target", c.target)
		}
		finishRun(l, c.recs, false)
		for _, s := range l.statList() {
			if s.Name == "queued_p99_ms" && s.NotMeasured != c.want {
				t.Errorf("%s: queueing card not measured %q, want %q", c.name, s.NotMeasured, c.want)
			}
		}
	}
}

// A custom target that is this very server is said so beside the field:
// its page answers every attempt 200, and its own mock is better called
// with the target empty (a review ran the page at itself without a word).
// Another port, another host, or a page elsewhere: the usual note.
func TestTargetAtThisServerIsSaid(t *testing.T) {
	for _, c := range []struct{ page, target, want string }{
		{"http://localhost:8080/", "http://localhost:8080/", "This is Retry Lab itself"},
		{"http://localhost:8080/", "http://127.0.0.1:8080/step/3", "This is Retry Lab itself"},
		{"http://localhost:8080/", "http://w3.localhost:8080/mock?rate=2&key=x", "This is Retry Lab's own mock"},
		{"http://[::1]:8080/", "http://localhost:8080/mock/", "This is Retry Lab's own mock"},
		{"http://192.168.1.5/", "http://192.168.1.5:80/mock", "This is Retry Lab's own mock"},
		{"http://localhost:8080/", "http://localhost:9090/", "A custom target cannot be simulated"},
		{"http://localhost:8080/", "https://localhost:8080/", "A custom target cannot be simulated"},
		{"http://192.168.1.5:8080/", "http://localhost:8080/", "A custom target cannot be simulated"},
		{"http://localhost:8080/", "http://localhost:8080/mockery", "This is Retry Lab itself"},
	} {
		u, _ := url.Parse(c.page)
		l := newLab()
		l.Load(u)
		l.Set("target", c.target)
		if got := l.Note("target"); !strings.HasPrefix(got, c.want) {
			t.Errorf("page %s, target %s: note %q, want %q…", c.page, c.target, got, c.want)
		}
	}
}

// A link's field that could not be used is said beside that field, not
// only in the notice at the top (README: "says so beside each field"),
// until the field is changed or a preset replaces the configuration; a
// key that is no field has no field to be beside.
func TestLinkNoticesBesideTheirFields(t *testing.T) {
	u, _ := url.Parse("http://localhost:8080/?workers=0&workers=3&base=1s&cap=1ms&bogus=1&rate=%FF&jobs=4")
	l := newLab()
	l.Load(u)
	for _, tt := range []struct{ key, want string }{
		{"workers", `Workers "0" (the first of 2 values given): must be an integer between 1 and 10000`},
		{"cap", `Cap "1ms": 0s (no cap) or at least the base, 1s; using the default 10s`},
		{"rate", `Server rate "\xff": must be a number between 0.001 and 1000000; using the default 10`},
		{"jobs", ""},
		{"base", ""},
	} {
		got := l.Note(tt.key)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("Note(%q) = %q, want it to say %q", tt.key, got, tt.want)
		}
	}
	if len(l.notices) == 0 {
		t.Error("the notice at the top is gone")
	}
	l.Set("workers", "7")
	if got := l.Note("workers"); got != "" {
		t.Errorf("after workers was typed: note %q", got)
	}
	if l.Note("cap") == "" {
		t.Error("typing into workers took cap's note away")
	}
	l.Preset(fleet.Presets[0].ID)
	if got := l.Note("cap"); got != "" {
		t.Errorf("after a preset: cap's note %q", got)
	}
}

// A live run is stopped when Stop cut it short, whether or not it cancelled
// a job (fleet.Recording.Stopped): Stop between an open workload's arrivals
// finds none in progress and leaves the rest unstarted. Such a run said "Finished: 10 of 10 jobs
// succeeded" and "Run → last job done". While a run or a replay goes on,
// jobs not yet ended are not a cut.
func TestStopBetweenArrivalsIsAStop(t *testing.T) {
	drainSub := func(l *Lab) string {
		for _, s := range l.statList() {
			if s.Name == "drain_ms" {
				return s.Sub
			}
		}
		return ""
	}
	for _, c := range []struct {
		name               string
		jobs, cancelled    int
		running, replaying bool
		capped             bool
		status, drain      string
	}{
		{"all 80 jobs ended", 80, 0, false, false, false, "Finished: 80 of 80 jobs succeeded", "Run → last job done"},
		{"stopped between arrivals", 10, 0, false, false, false, "Stopped after", "Run → Stop: not drained"},
		{"stopped with jobs in progress", 14, 4, false, false, false, "Stopped after", "Run → Stop: not drained"},
		{"stopped at the request limit", 14, 4, false, false, true, "Stopped at 100,000 requests, the most a live run sends", "not drained: request limit"},
		{"running", 10, 0, true, false, false, "jobs done", "Run → last job done"},
		{"replaying", 10, 0, false, true, false, "", "Run → last job done"},
	} {
		l := newLab()
		l.s.Workers, l.s.Jobs, l.s.Every = 4, 20, time.Second
		l.rec = fleet.NewRecording(l.s, time.Now(), false)
		l.rec.Finish(time.Now())
		l.rec.Stopped = c.jobs < 80
		l.stats = fleet.Stats{Requests: c.jobs, Jobs: c.jobs, Successes: c.jobs - c.cancelled, GiveUps: c.cancelled, Cancelled: c.cancelled}
		l.rec.Limited = c.capped
		l.hasStats, l.running, l.replaying = true, c.running, c.replaying
		if c.running {
			l.rec = nil
		}
		if got := drainSub(l); got != c.drain {
			t.Errorf("%s: time to drain says %q, want %q", c.name, got, c.drain)
		}
		if out := renderHTML(&RunBar{Lab: l}); c.status != "" && !strings.Contains(out, c.status) {
			t.Errorf("%s: the status lacks %q", c.name, c.status)
		}
		if got, want := strings.Contains(l.keyNumbers(), "stopped at the request limit after"), c.capped; got != want {
			t.Errorf("%s: the PNG's numbers %q: say the request limit %v, want %v", c.name, l.keyNumbers(), got, want)
		}
	}
}

// A finished live run whose requests waited in the browser says so in its
// status, with why: a phone that joined by the network link (one origin)
// waited 305–406 ms at p99, and the note on why lay 2,000 px below Run (a
// review on a slow phone). A simulation has no browser queue. The six
// connections are the reason only when more workers than they serve
// shared one origin: a run spread over *.localhost that waited on a busy
// machine was told it too (a review).
func TestFinishedSaysTheBrowserHeldRequests(t *testing.T) {
	const (
		six  = "Requests waited in this browser up to 406\u00a0ms (p99) before it sent them: over HTTP/1.1 a browser sends at most six at once to one server (drawn “held by the browser”)."
		busy = "Requests waited in this browser up to 406\u00a0ms (p99) before it sent them, though no server had more than six at once: the browser, on a busy machine, was slow to send them (drawn “held by the browser”)."
	)
	local, lan := &url.URL{Scheme: "http", Host: "localhost:8080"}, &url.URL{Scheme: "http", Host: "192.168.1.5:8080"}
	for _, c := range []struct {
		name      string
		page      *url.URL // the run's transport's; nil: none
		target    string
		workers   int
		queued    time.Duration
		simulated bool
		want      string // "": no note
	}{
		{"one origin", lan, "", 50, 406 * time.Millisecond, false, six},
		{"one origin, five workers", lan, "", 5, 406 * time.Millisecond, false, busy},
		{"a custom target", local, "http://api.example:9000/x", 50, 406 * time.Millisecond, false, six},
		{"spread over *.localhost, busy", local, "", 50, 406 * time.Millisecond, false, busy},
		{"spread over *.localhost", local, "", 50, 22 * time.Millisecond, false, ""},
		{"at the threshold", lan, "", 50, 100 * time.Millisecond, false, ""},
		{"simulated", nil, "", 50, 406 * time.Millisecond, true, ""},
	} {
		l := newLab()
		l.s.Workers, l.s.Target = c.workers, c.target
		if c.page != nil {
			l.tr = newFetchTransport(c.page, nil, l.s, "run-x", "")
		}
		l.rec = fleet.NewRecording(l.s, time.Now(), c.simulated)
		l.rec.Finish(time.Now())
		l.stats = fleet.Stats{Requests: 100, Jobs: 100, Successes: 100, QueuedP99: c.queued}
		l.hasStats = true
		out := renderHTML(&RunBar{Lab: l})
		if !strings.Contains(out, "100 of 100 jobs succeeded") {
			t.Fatalf("%s: the status is not a finished run's: %s", c.name, out)
		}
		if got := strings.Contains(out, "waited in this browser"); got != (c.want != "") || got && !strings.Contains(out, c.want) {
			t.Errorf("%s: the status says the browser held the requests: %v, want %q (%s)", c.name, got, c.want, out)
		}
	}
}

// A finished live run the page sent late (lateness p99 past latePast)
// says so in its status: a run whose timers fired 3 s late had 47 sends
// leave together past its fleet bucket, and only the hatching told it (a
// review). A simulation is never late.
func TestFinishedSaysThePageSentLate(t *testing.T) {
	for _, c := range []struct {
		late      time.Duration
		simulated bool
		want      bool
	}{{2950 * time.Millisecond, false, true}, {250 * time.Millisecond, false, false}, {40 * time.Millisecond, false, false}, {2950 * time.Millisecond, true, false}} {
		l := newLab()
		l.rec = fleet.NewRecording(l.s, time.Now(), c.simulated)
		l.rec.Finish(time.Now())
		l.stats = fleet.Stats{Requests: 100, Jobs: 100, Successes: 100, LatenessP99: c.late}
		l.hasStats = true
		out := renderHTML(&RunBar{Lab: l})
		said := strings.Contains(strings.Join(strings.Fields(out), " "), "This page sent up to "+human.Measured(c.late)+" late (lateness p99): its thread, or the machine, was busy")
		if said != c.want || !strings.Contains(out, "100 of 100 jobs succeeded") {
			t.Errorf("lateness %v, simulated %v: said %v, want %v (%s)", c.late, c.simulated, said, c.want, out)
		}
	}
}

// The rehearsal's configuration is valid, small, never a room's or a
// custom target's, and (simulated: the same events a live run gives) meets
// the code a real run meets: 429s with Retry-After, waits for the server,
// the bucket and the backoff, successes, in well under a second.
func TestRehearsalScenario(t *testing.T) {
	s, err := rehearsalScenario()
	if err != nil {
		t.Fatal(err)
	}
	if s.Target != "" || s.Room != "" || s.Workers*s.Jobs > 16 || s.Mock.Latency > 10*time.Millisecond {
		t.Fatalf("rehearsal scenario: target %q, room %q, %d × %d jobs, latency %v", s.Target, s.Room, s.Workers, s.Jobs, s.Mock.Latency)
	}
	rec := fleet.Simulate(s)
	recs := rec.Records()
	seen := map[string]int{}
	for _, r := range recs {
		switch r.Event.Kind {
		case core.EventOutcome:
			seen["status "+strconv.Itoa(r.Event.Outcome.Status)]++
			if h := r.Event.Outcome.Header; h != nil && h.Get("Retry-After") != "" {
				seen["retry-after header"]++
			}
		case core.EventWait:
			seen["wait "+r.Event.Reason.String()]++
		}
	}
	for _, want := range []string{"status 200", "status 429", "retry-after header", "wait retry-after", "wait bucket"} {
		if seen[want] == 0 {
			t.Errorf("the rehearsal never meets %q: %v", want, seen)
		}
	}
	st := fleet.StatsOf(rec.Start, recs)
	if st.Requests > rehearsalMaxRequests || st.Drain > time.Second {
		t.Errorf("the rehearsal sends %d requests (at most %d) and drains in %v (want under 1 s)", st.Requests, rehearsalMaxRequests, st.Drain)
	}
	t.Logf("rehearsal, simulated: %d requests, drained in %v, %v", st.Requests, st.Drain, seen)
}

// A draft is kept as a query string (go-app's browser build stores only
// strings and bools) and reads back whole, whatever was typed.
func TestDraftStringReadsBack(t *testing.T) {
	for _, d := range []draft{
		{Query: "", Texts: map[string]string{"workers": "abc"}},
		{Query: "workers=20&seed=7", Texts: map[string]string{"base": "-1s", "seed": ""}},
		{Query: "target=http%3A%2F%2Fx%2F%3Fa%3Db", Texts: map[string]string{"target": "ftp://a b/?c=d&e=%zz", "room": "héron 😀 =&+"}},
	} {
		s := d.String()
		if got := parseDraft(s); !reflect.DeepEqual(got, d) {
			t.Errorf("parseDraft(%q) = %#v; want %#v", s, got, d)
		}
	}
	if s := (draft{}).String(); s != "" || len(parseDraft(s).Texts) != 0 {
		t.Errorf("an empty draft is written %q", s)
	}
	for _, s := range []string{`{"query":"","texts":{"workers":"abc"}}`, "workers=abc", "%zz"} {
		if d := parseDraft(s); len(d.Texts) != 0 {
			t.Errorf("parseDraft(%q) = %#v; want no draft", s, d)
		}
	}
}

// A rule between fields is checked against what the inputs show: while a
// field it reads holds a value not allowed, the rule waits, so a field is
// never counted twice and no message quotes a value no longer on screen.
// (A review found "Fix 2 fields" with one field marked, the room's
// conflict with the target hidden behind the target's bad port; and the
// target's message quoting the room "a" while its input said "a b".)
func TestRulesWaitForHeldFields(t *testing.T) {
	l := newLab()
	steps := []struct {
		key, text   string
		invalid     int
		target      string // a part of the target's message ("" for none)
		room        string // a part of the room's
		whyNotRunIs string // a part of what the run bar says
	}{
		{"target", "http://localhost:6000/x", 1, "6000", "", "fix the value marked"},
		{"room", "abc", 1, "6000", "", "fix the value marked"},
		{"target", "http://example.com/", 1, `the shared room "abc"`, "", "fix the value marked"},
		{"room", "a b", 1, "", "room", "fix the value marked"},
		{"room", "", 0, "", "", ""},
	}
	for _, st := range steps {
		l.Set(st.key, st.text)
		what := st.key + " " + strconv.Quote(st.text)
		if got := l.Invalid(); got != st.invalid {
			t.Errorf("%s: Invalid %d, want %d (errors: target %q, room %q)", what, got, st.invalid, l.Err("target"), l.Err("room"))
		}
		for _, f := range []struct{ key, want string }{{"target", st.target}, {"room", st.room}} {
			got := l.Err(f.key)
			if (st.invalid == 0 || f.want == "") != (got == "") || !strings.Contains(got, f.want) {
				t.Errorf("%s: %s's message %q, want one with %q", what, f.key, got, f.want)
			}
		}
		if got := l.RunBlocked(); !strings.Contains(got, st.whyNotRunIs) || (st.whyNotRunIs == "") != (got == "") {
			t.Errorf("%s: Run blocked %q, want %q", what, got, st.whyNotRunIs)
		}
	}
}

// A field not allowed holds only the rules that read it: the endpoint's
// latency and failure rules were one rule over all sixteen endpoint
// fields, so a Window of "x" (not even in effect) hid the spread's error
// and the count said "Fix 1 field" with only Window marked (a review).
func TestHeldFieldHoldsOnlyItsOwnRules(t *testing.T) {
	l := newLab()
	l.Set("latency", "20s")
	l.Set("spread", "20s")
	l.Set("fail500", "60")
	l.Set("fail503", "60")
	if l.Invalid() != 2 || l.Err("spread") == "" || l.Err("fail503") == "" {
		t.Fatalf("before: %d invalid, spread %q, 503 errors %q", l.Invalid(), l.Err("spread"), l.Err("fail503"))
	}
	for _, key := range []string{"window", "retry_value", "rate"} {
		l.Set(key, "x")
		if got := l.Invalid(); got != 3 || !strings.Contains(l.Err("spread"), "at most 10s") || !strings.Contains(l.Err("fail503"), "at most 40") {
			t.Errorf("%s \"x\": %d invalid, spread %q, 503 errors %q; want 3, the spread's and the sum's errors kept", key, got, l.Err("spread"), l.Err("fail503"))
		}
		l.Set(key, fleet.Default().Query().Get(key))
	}
	// A field a rule reads holds that rule, as before.
	l.Set("latency", "x")
	if l.Err("spread") != "" || l.Invalid() != 2 {
		t.Errorf("latency \"x\": spread %q, %d invalid; want the spread's rule held, 2 invalid", l.Err("spread"), l.Invalid())
	}
}

// A room the page refused stays in its input, with its message, when a
// preset is picked: the preset took the last room allowed ("a", typed on
// the way to "a b"), showed it as valid and ran the fleet in that room,
// which the user never chose (a review).
func TestPresetKeepsARefusedRoom(t *testing.T) {
	l := newLab()
	l.Set("room", "a")
	l.Set("room", "a b")
	l.Preset(fleet.Presets[0].ID)
	if l.Text("room") != "a b" || !strings.Contains(l.Err("room"), "room") || l.CanRun() {
		t.Errorf("after a preset: the room input %q, its message %q, can run %v; want \"a b\" refused, and Run disabled", l.Text("room"), l.Err("room"), l.CanRun())
	}
	l.Set("room", "")
	if l.Err("room") != "" || !l.CanRun() || l.Scenario().Room != "" {
		t.Errorf("room cleared: message %q, can run %v, room %q", l.Err("room"), l.CanRun(), l.Scenario().Room)
	}
}

// An attendee who joined a room by the network link (the page not on
// localhost) ran 50 workers: the browser held most requests back for 8 s
// (HTTP/1.1's six connections to one origin), and nothing said why (found
// by a review). Beside Workers a note says so, where it applies.
func TestWorkersNoteOneOrigin(t *testing.T) {
	for _, c := range []struct {
		page, target string
		workers      int
		want         bool
	}{
		{"http://192.0.2.2:8080/?room=r1", "", 50, true},
		{"http://192.0.2.2:8080/", "", 5, false}, // five fit beside the arrivals stream
		{"http://192.0.2.2:8080/", "", 6, true},
		{"http://localhost:8080/", "", 50, false},                     // spread over *.localhost origins
		{"http://127.0.0.1:8080/", "", 50, false},                     // likewise
		{"http://192.0.2.2:8080/", "https://api.example/", 50, false}, // the user's own API: its origin, its protocol
	} {
		l := newLab()
		l.page = mustURL(t, c.page)
		l.Set("workers", strconv.Itoa(c.workers))
		if c.target != "" {
			l.Set("target", c.target)
		}
		got := l.Note("workers")
		if (got != "") != c.want || c.want && !strings.Contains(got, "at most 5 requests at once") {
			t.Errorf("%s, %d workers, target %q: note %q", c.page, c.workers, c.target, got)
		}
	}
}

// FuzzLoad: the page's address is anyone's to write. Load never panics,
// and the link the page then shares (ShareURL) loads back to the same
// configuration with no notice: what a malformed link fell back to is a
// configuration like any other.
func FuzzLoad(f *testing.F) {
	for _, q := range []string{
		"", "workers=20&seed=7", "workers=0&jobs=abc", "workers=" + strings.Repeat("9", 300), "strategy=Full&base=1h&cap=1ms",
		"room=heron&target=http://localhost:1/x", "vs=workers%3D5%26seed%3D2&vs=x", "vs=%zz", "%zz=1&;=2", "fail500=-0&fail503=1e-400",
		"latency=30s&spread=30s", "seed=%2B5", "bucket=maybe&budget=YES", "outage=2m&outage_at=-1s",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		l := newLab()
		l.Load(&url.URL{Scheme: "http", Host: "localhost:8080", Path: "/", RawQuery: raw})
		share, err := url.Parse(l.ShareURL())
		if err != nil {
			t.Fatalf("%q: the share link %q does not parse: %v", raw, l.ShareURL(), err)
		}
		again := newLab()
		again.Load(share)
		if again.s != l.s {
			t.Fatalf("%q: the share link %q loads\n%+v, the page had\n%+v", raw, share.RawQuery, again.s, l.s)
		}
		for _, n := range again.notices {
			if n.Key != baselineKey { // a baseline is simulated: its own notices are its link's
				t.Fatalf("%q: the share link %q has a notice: %s", raw, share.RawQuery, n.Msg)
			}
		}
	})
}

// FuzzParseDraft: a draft is read back from session storage, which another
// version of the page may have written. parseDraft never panics, and
// reads back exactly what String wrote.
func FuzzParseDraft(f *testing.F) {
	f.Add("", "workers", "abc", "@query=x")
	f.Add("workers=20&seed=7", "room", "héron 😀 =&+", "%zz")
	f.Fuzz(func(t *testing.T, query, key, text, stored string) {
		_ = parseDraft(stored)
		if key == draftQueryKey {
			return // no field has that key
		}
		d := draft{Query: query, Texts: map[string]string{key: text}}
		if got := parseDraft(d.String()); !reflect.DeepEqual(got, d) {
			t.Fatalf("parseDraft(%q) = %#v; want %#v", d.String(), got, d)
		}
	})
}

// A watch whose stream the server refused for good says with what, and
// that the page does not ask again: a 200 that is no stream (a proxy's
// page) as such.
func TestWatchSaysWhatRefusedItsStream(t *testing.T) {
	for _, tt := range []struct {
		status int
		says   string
	}{
		{404, "stream (404 Not Found)"},
		{200, "stream (200 OK, not an event stream)"},
	} {
		l := newLab()
		l.watching, l.watched, l.watchRoom = true, true, "r1"
		l.wstats.Refused = tt.status
		if out := renderHTML(&RunBar{Lab: l}); !strings.Contains(out, tt.says) || !strings.Contains(out, "does not ask again") {
			t.Errorf("refused with %d: the run bar lacks %q", tt.status, tt.says)
		}
	}
}

// The note over the locked settings says what goes on: a watch of the
// room is no run (it said "while the run goes on" during a watch, a
// review), and the settings' tooltip says the same.
func TestLockedNoteSaysWhatGoesOn(t *testing.T) {
	l := newLab()
	note := func() (string, string) {
		page := renderHTML(&Playground{lab: l, ready: true})
		i := strings.Index(page, `id="settings-locked"`)
		if i < 0 {
			t.Fatal("no #settings-locked on the page")
		}
		text := page[i:]
		text = text[strings.Index(text, ">")+1:]
		return text[:strings.Index(text, "<")], tagWith(page, `class="frame"`)
	}
	if text, _ := note(); text != "" {
		t.Errorf("nothing goes on, and the note says %q", text)
	}
	for _, c := range []struct {
		simulating, watching bool
		want, title          string
	}{
		{false, false, "Settings are locked while the run goes on: Stop\u00a0(s) to change them.", "Stop the run to change"},
		{true, false, "Settings are locked while the simulation goes on: Stop\u00a0(s) to change them.", "Stop the simulation to change"},
		{false, true, "Settings are locked while you watch the room: Stop\u00a0(s) to change them.", "Stop the watch to change"},
	} {
		l.running, l.simulating, l.watching = true, c.simulating, c.watching
		text, frame := note()
		if text != c.want {
			t.Errorf("simulating %v, watching %v: the note says %q, want %q", c.simulating, c.watching, text, c.want)
		}
		if !strings.Contains(frame, c.title) {
			t.Errorf("simulating %v, watching %v: the settings' fieldset %s, want its title to say %q", c.simulating, c.watching, frame, c.title)
		}
	}
}

// Max elapsed shorter than the request timeout is said beside it: it cuts
// no attempt short, and a review read it as a deadline (1 s against a 2 s
// timeout, jobs of 2 s). Not with the timeout within it, nor max elapsed 0.
func TestElapsedBelowTheTimeoutIsSaid(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"?elapsed=1s&timeout=2s", "Shorter than the request timeout (2s): an attempt in flight runs on to its timeout, so a job may outlast 1s by up to 2s."},
		{"?elapsed=1s&timeout=0s", "With no request timeout, an attempt in flight runs until it is answered, however long past max elapsed."},
		{"?elapsed=2s&timeout=2s", ""},
		{"?elapsed=0s&timeout=2s", ""},
	} {
		l := newLab()
		l.Load(mustURL(t, "http://localhost:8080/"+c.query))
		if got := l.Note("elapsed"); got != c.want {
			t.Errorf("%s: note %q, want %q", c.query, got, c.want)
		}
	}
}

// A rule between fields broken by the value just typed is said beside that
// value's input, with what it may be beside the others: a review typed
// Base "2s" under Cap "1s" and saw a message beside Cap alone, and 98.5
// into 503 errors and saw Hangs "1" refused.
func TestRuleBrokenIsSaidBesideTheValueTyped(t *testing.T) {
	for _, c := range []struct {
		query     string
		typed     [][2]string // in order
		key, want string      // the field with the message, and the message
		quiet     string      // a field of the rule with no message
	}{
		{"?cap=1s", [][2]string{{"base", "2s"}}, "base", `Base "2s": at most the cap, 1s (or a cap of 0s: no cap)`, "cap"},
		{"?base=2s&cap=5s", [][2]string{{"cap", "1s"}}, "cap", `Cap "1s": 0s (no cap) or at least the base, 2s`, "base"},
		// The field typed last, of the rule's: Workers typed after leaves it there.
		{"?cap=1s", [][2]string{{"base", "2s"}, {"workers", "7"}}, "base", `Base "2s": at most the cap, 1s`, "cap"},
		{"?hang=1&drop=1", [][2]string{{"fail503", "98.5"}}, "fail503", `503 errors "98.5": allowed at most 98: `, "hang"},
		{"?spread=10s", [][2]string{{"latency", "25s"}}, "latency", `Latency "25s": allowed at most 20s: `, "spread"},
	} {
		l := newLab()
		l.Load(mustURL(t, "http://localhost:8080/"+c.query))
		for _, kv := range c.typed {
			l.Set(kv[0], kv[1])
		}
		if got := l.Err(c.key); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s, typed %v: beside %s %q, want %q…", c.query, c.typed, c.key, got, c.want)
		}
		if got := l.Err(c.quiet); got != "" {
			t.Errorf("%s, typed %v: beside %s %q, want nothing", c.query, c.typed, c.quiet, got)
		}
	}
}
