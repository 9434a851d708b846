package ui

import (
	"cmp"
	"context"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core"
)

// baseline is a finished run kept to compare the next ones against
// (Compare, key c): the presenter's "before" beside the "after". Its
// numbers stand beside the current run's, and its requests per second are
// an outline over the current histogram, on the same time axis.
type baseline struct {
	scen      fleet.Scenario // its configuration: the share link's vs=
	run       int            // Lab.runs of the run it was; -1 for one from the address
	simulated bool
	end       runEnd // how it ended: cut short (runEnd.cut), its numbers of work get no verdict
	stats     fleet.Stats
	list      []stat // its numbers, as the panel lists them
	pressed   string // the faults pressed during it (pressedFaults), "" for none
	draw      baselineDraw
	// noise is how far live reruns of its settings came from it on this
	// machine, per number (learnNoise): for comparisons against it, and
	// against a baseline kept in its place with the same settings.
	noise map[string]float64
}

// newBaseline makes a baseline of a finished recording, recs its records,
// with its numbers; run is the page's run number (-1: none), capped says
// it was stopped at the page's limit (Lab.atLimit).
func newBaseline(rec *fleet.Recording, recs []fleet.Record, st fleet.Stats, disp float64, run int, capped bool) *baseline {
	end := endOf(rec.Simulated, capped, cutShort(&st, rec))
	list := statList(&st, disp, end, jobsOf(rec.Scenario))
	if rec.Simulated {
		unmeasuredInSim(list)
	}
	b := &baseline{scen: rec.Scenario, run: run, simulated: rec.Simulated, end: end, stats: st, list: list, pressed: pressedFaults(rec.Scenario, rec.Faults(), rec.Start)}
	b.draw.label = runLabel(rec.Scenario, rec.Simulated, run)
	b.draw.sends = make([]time.Duration, 0, st.Requests)
	for i := range recs {
		if e := &recs[i].Event; e.Kind == core.EventAttempt {
			b.draw.sends = append(b.draw.sends, e.At.Sub(rec.Start))
			b.draw.span = max(b.draw.span, e.At.Sub(rec.Start))
		}
	}
	if end, ok := rec.End(); ok {
		b.draw.span = max(b.draw.span, end.Sub(rec.Start))
	}
	return b
}

// label names the baseline: "Full jitter (step 3), simulated (run 2)".
func (b *baseline) label() string { return b.draw.label }

// baselineDraw is what the timeline draws of a baseline: each attempt's
// send time (from its run's start) and how long the run lasted. rates
// keeps its last answer: a live run's frames ask for the same bins again
// and again.
type baselineDraw struct {
	label string
	sends []time.Duration
	span  time.Duration

	cachedSlice time.Duration
	cachedFirst int
	cachedN     int
	cached      []float64
}

// baselineState is the baseline in window.retrylab.state().
type baselineState struct {
	Label string             `json:"label"`
	Stats map[string]float64 `json:"stats"`
}

// showingBaseline reports whether the run shown is the baseline itself:
// it is then not compared with anything.
func (l *Lab) showingBaseline() bool {
	return l.base != nil && l.base.run == l.runs && !l.running
}

// comparedWith is the label of the baseline the run shown is compared
// with, or "".
func (l *Lab) comparedWith() string {
	if l.base == nil || l.showingBaseline() || l.watching || l.watched || (l.rec == nil && !l.running) {
		return ""
	}
	return l.base.label()
}

// CanCompare reports whether the run shown can become the baseline: a
// finished run or simulation (not a watch, not a failed simulation) that
// is not the baseline already.
func (l *Lab) CanCompare() bool {
	return !l.running && l.rec != nil && !l.watched && l.rec.Err == nil && !l.showingBaseline()
}

// Compare keeps the run shown as the baseline, replacing any earlier one;
// on the baseline itself, it clears it.
//
// It returns the label of the baseline the run shown replaced, if any: a
// baseline that gives way to another is told (replaced says how), not
// swapped without a word.
func (l *Lab) Compare() (replaced string) {
	l.StopReplay() // the whole run's numbers, not the playhead's
	switch {
	case l.showingBaseline():
		l.ClearBaseline()
	case l.CanCompare():
		if l.base != nil {
			replaced = l.base.label()
		}
		if fs, ok := l.view.faultsOf(l.rec.Start); ok && !l.rec.Simulated { // the faults its timeline drew, which the baseline says (a simulation has its own)
			l.rec.SetFaults(fs)
		}
		b := newBaseline(l.rec, l.rec.Shared(), l.stats, l.disp, l.runs, l.atLimit())
		if old := l.base; old != nil && !old.simulated && !b.simulated && len(changes(old.scen, b.scen)) == 0 {
			b.noise = old.noise // the same settings' reruns: what they taught holds
		}
		l.setBaseline(b, true)
	}
	return replaced
}

// compareAndSay is Compare, saying so when a baseline was replaced or
// cleared.
func (l *Lab) compareAndSay(ctx app.Context) {
	clearing := l.showingBaseline()
	switch old := l.Compare(); {
	case old != "":
		l.Flash(ctx, "This run is the baseline now, in place of "+old+" (c on it clears it)")
	case clearing && l.base == nil: // the compare bar went without a word (an accessibility review)
		l.Flash(ctx, "Baseline cleared: runs are no longer compared")
	}
}

// setBaseline makes b the baseline (nil: none) everywhere it shows: the
// numbers, the timeline and the page's address. shown says b is the run
// on screen, which is not drawn against itself.
func (l *Lab) setBaseline(b *baseline, shown bool) {
	l.base, l.wantBase = b, nil
	if b != nil {
		l.view.setBaseline(&b.draw, shown)
	} else {
		l.view.setBaseline(nil, false)
	}
	l.runRev++
	l.saveURL()
	l.publish()
}

// ClearBaseline drops the baseline.
func (l *Lab) ClearBaseline() {
	if l.base == nil && l.wantBase == nil {
		return
	}
	l.setBaseline(nil, false)
}

// baselineKey is the page address's parameter for the baseline: the query
// of its configuration, itself URL-encoded. A link with it opens with the
// baseline simulated in the page (the same seed gives the same run).
const baselineKey = "vs"

// loadBaseline takes the address's vs= value: the baseline's
// configuration, read field by field like the page's own. Fields that
// could not be used become notices; a baseline that cannot be simulated
// (a custom target), an empty one, or one none of whose fields could be
// used, is dropped with a notice.
func (l *Lab) loadBaseline(raw string) {
	if strings.TrimSpace(raw) == "" { // asks for no configuration, not for every default
		l.notices = append(l.notices, fleet.FieldError{Key: baselineKey, Value: raw, Msg: "no baseline: the baseline (" + baselineKey + "=) is empty"})
		return
	}
	q, unread := fleet.ParseQuery(raw)
	s, notes := fleet.FromQuery(q)
	notes = append(unread, notes...)
	if usableFields(q) == 0 { // every field fell back: the defaults were not asked for
		// One notice: each field's own would say it uses its default,
		// in a baseline that is not used at all.
		var why []string
		for _, n := range notes {
			why = append(why, n.Problem())
		}
		msg := "no baseline: none of the baseline's (" + baselineKey + "=) fields could be used"
		if len(why) > 0 {
			msg += " (" + strings.Join(why, "; ") + ")"
		}
		l.notices = append(l.notices, fleet.FieldError{Key: baselineKey, Value: raw, Msg: msg})
		return
	}
	for _, n := range notes {
		n.Msg = "baseline (" + baselineKey + "=): " + n.Msg
		l.notices = append(l.notices, n)
	}
	errs := append(s.SimErrors(), s.Validate()...)
	if len(errs) > 0 {
		l.notices = append(l.notices, fleet.FieldError{Key: baselineKey, Value: raw, Msg: "no baseline: it cannot be simulated in the page (" + errs[0].Msg + ")"})
		return
	}
	l.wantBase = &s
}

// usableFields counts the fields of q whose (first) value can be used.
func usableFields(q url.Values) int {
	n := 0
	for k, vs := range q {
		if f, ok := fleet.FieldByKey(k); ok && len(vs) > 0 {
			s := fleet.Default()
			if f.Set(&s, vs[0]) == nil {
				n++
			}
		}
	}
	return n
}

// simulateBaseline computes the baseline the address asked for, in
// virtual time, off go-app's UI goroutine.
func (l *Lab) simulateBaseline(ctx app.Context) {
	want := l.wantBase
	if want == nil {
		return
	}
	s := *want
	ctx.Async(func() {
		// The page is drawn first: the baseline is not what was opened.
		browser.Clock{}.AfterPaint(context.Background())
		// Sharing the thread, as the page's own simulation does: a big
		// baseline held it for seconds.
		rec, sum := fleet.SimulateWith(s, fleet.SimOptions{MaxAttempts: SimMaxAttempts, Interrupt: sharing(nil, nil)})
		recs := rec.Shared()
		st, disp := rec.Numbers(recs)
		b := newBaseline(rec, recs, st, disp, -1, sum.Stopped)
		ctx.Dispatch(func(app.Context) {
			if l.wantBase != want || rec.Err != nil {
				return // cleared, or replaced, meanwhile
			}
			l.setBaseline(b, false)
		})
	})
}

// presetName names a configuration: its step of the story, "Full jitter
// (step 3)"; one close to a step, by the step and what differs from it,
// "Full jitter (step 3) with Cap 5s and Workers 80" (every run of a
// tuning session read "Custom configuration", in the compare bar and the
// PNG's title alike: a review); else "Custom configuration". The shared
// room plays no part, nor, in a room, the seed (each device draws its
// own), as for presetIndex.
func presetName(s fleet.Scenario) string {
	if i := presetIndex(s); i >= 0 {
		return stepName(i)
	}
	return nearName(nearStep(s))
}

// nearName names a configuration near step near (nearStep) by the step and
// cs, what differs from it.
func nearName(near int, cs []change) string {
	switch {
	case near < 0:
		return customName
	case len(cs) == 0: // differs in settings that have no effect
		return stepName(near)
	}
	with := make([]string, len(cs))
	for i, c := range cs {
		with[i] = c.label + " " + c.to
	}
	return stepName(near) + " with " + strings.Join(with, " and ")
}

// nearStep is the step s is nearest, up to maxNamedChanges changes in
// effect from it, and those changes (none: s differs from it only in
// settings that have no effect); -1 when every step is further.
func nearStep(s fleet.Scenario) (int, []change) {
	near, nearest := -1, []change(nil)
	for i := range fleet.Presets {
		if cs := changes(asPreset(i, s), s); len(cs) <= maxNamedChanges && (near < 0 || len(cs) < len(nearest)) {
			near, nearest = i, cs
		}
	}
	return near, nearest
}

// customName is presetName's for a configuration far from every step.
const customName = "Custom configuration"

// maxNamedChanges is how many changes from a step presetName names; a
// configuration further from every step is a custom one.
const maxNamedChanges = 2

// stepName is preset i's title and step: "Full jitter (step 3)".
func stepName(i int) string {
	return fleet.Presets[i].Title + " (step " + strconv.Itoa(i+1) + ")"
}

// runLabel names a run for the comparison: its configuration, whether it
// was live or simulated, and its number in the page (run < 0: none).
func runLabel(s fleet.Scenario, simulated bool, run int) string {
	t := presetName(s) + ", live"
	if simulated {
		t = presetName(s) + ", simulated"
	}
	if run >= 0 {
		t += " (run " + strconv.Itoa(run) + ")"
	}
	return t
}

// change is a setting that differs between two configurations, its
// values as its field shows them; from is "" for a setting the change
// brought into effect.
type change struct{ key, label, from, to string }

// changes lists the settings that differ from base to cur, in the fields'
// order. A setting with no effect in either (the bucket's rate with the
// bucket off) is left out. A setting in effect on one side only is told
// by the one that turns it on or off ("Server outage 0s → 3s"): its value
// on the other side had no effect ("Outage starts 5s → 3s" after a step
// with no outage, a review). One it turned on is told with the value it
// now has ("Outage starts 5s", from ""): a fixed window's limit went
// untold (a review), but an option left off is not.
func changes(base, cur fleet.Scenario) []change {
	var out []change
	for i := range fleet.Fields {
		f := &fleet.Fields[i]
		on, wasOn := f.IsEnabled(&cur), f.IsEnabled(&base)
		if on && !wasOn {
			if v := f.Get(&cur); f.Kind != fleet.KindBool || v != "off" {
				out = append(out, change{f.Key, f.Label, "", choiceText(f, v)})
			}
			continue
		}
		if !on || !wasOn {
			continue
		}
		if a, b := f.Get(&base), f.Get(&cur); a != b {
			out = append(out, change{f.Key, f.Label, choiceText(f, a), choiceText(f, b)})
		}
	}
	return out
}

// settingsDiff says which settings differ from base to cur (changes), as
// the fields name them: "Strategy Exponential, full jitter → Exponential,
// no jitter; Base 100ms → 1s". Two custom configurations were told apart
// by their run numbers alone, and a run's status did not say the inputs
// had changed since it (review). Past maxDiffs, how many more; "" when
// none differ.
func settingsDiff(base, cur fleet.Scenario) string {
	cs := changes(base, cur)
	var parts []string
	for i, c := range cs {
		if i == maxDiffs {
			parts = append(parts, "and "+thousands(len(cs)-maxDiffs)+" more")
			break
		}
		if c.from == "" {
			parts = append(parts, c.label+" "+c.to)
		} else {
			parts = append(parts, c.label+" "+c.from+" → "+c.to)
		}
	}
	return strings.Join(parts, "; ")
}

// maxDiffs is how many changed settings settingsDiff names.
const maxDiffs = 4

// choiceText is v as f shows it: a choice's label, else v ("" as "none").
func choiceText(f *fleet.Field, v string) string {
	for _, c := range f.Choices {
		if c.Value == v {
			return c.Label
		}
	}
	if v == "" {
		return "none"
	}
	return v
}

// countsOfWork are the numbers that count what a workload did, and the
// time it took to do all of it: against a baseline of another size their
// change says more about the size than about the client (twenty times the
// jobs, six times the successes, most of them failed; 20 workers drained
// "−83% better" than 50), so it gets no verdict.
var countsOfWork = map[string]bool{"requests": true, "successes": true, "limited": true, "failures": true, "give_ups": true, "peak_rps": true, "drain_ms": true}

// jobsOf is the size of s's workload: the jobs its workers run.
func jobsOf(s fleet.Scenario) int { return s.TotalJobs() }

// withBaseline adds the baseline's figure to each of the current numbers
// that has one; with mixed (one run live, the other simulated), the
// numbers only a live run measures are left out; the numbers u names get
// no verdict (Lab.judged). A number this run has not measured, yet (no
// job completed so far, in a run or a replay going on) or at all (a
// dispersion with no retries), shows the baseline's figure beside its "–", with no change;
// the numbers only a live run measures are left out then too. A simulation
// against a live baseline shows the baseline's lateness and queueing
// beside its own "–", with no change.
func withBaseline(cur, base []stat, mixed bool, u unjudged) []stat {
	byName := make(map[string]*stat, len(base))
	for i := range base {
		byName[base[i].Name] = &base[i]
	}
	for i := range cur {
		b, ok := byName[cur[i].Name]
		live := pageTiming[cur[i].Name]
		switch {
		case !ok:
			continue
		case cur[i].NotMeasured == "" && !(mixed && live): // compared
		case cur[i].NotMeasured != "" && !live: // not yet, or not at all (no retries to disperse): the baseline's beside "–"
		case cur[i].NotMeasured != "" && mixed && live && b.NotMeasured == "":
			// A simulation against a live baseline: the baseline's own
			// figure beside the simulation's "–", not compared (it was
			// left out, as if the baseline had not measured it either).
		default:
			continue
		}
		cur[i].Base, cur[i].HasBase = b.Value, true
		cur[i].BaseText, cur[i].BaseExact = b.Text, cmp.Or(b.Exact, b.Text)
		cur[i].NoDelta = cur[i].NotMeasured != ""
		if b.NotMeasured != "" {
			cur[i].BaseText, cur[i].BaseExact, cur[i].NoDelta = "–", "–", true
		}
		cur[i].NoVerdict = cur[i].NoVerdict || b.NoVerdict || u.of(cur[i].Name)
		if u.live && !cur[i].NoVerdict {
			cur[i].Noise, cur[i].NoiseHere = u.noise(cur[i].Name, cur[i].Value, b.Value)
			cur[i].NoVerdict = cur[i].Noise > 0
		}
	}
	return cur
}

// endsEarly are the numbers a job that gives up lowers by ending early:
// what it would have sent, waited and been refused had it gone on. Against
// a baseline whose jobs succeeded in another share they get no verdict: a
// retry budget's run in which 121 of 200 jobs gave up drained "−58%
// better" than one in which all succeeded (a review).
var endsEarly = map[string]bool{"requests": true, "limited": true, "failures": true, "peak_rps": true, "amplification": true,
	"completion_p50_ms": true, "completion_p99_ms": true, "drain_ms": true}

// unjudged says which numbers of a run compared with a baseline get no
// verdict: all of them, the counts of work (countsOfWork) or those a job
// giving up lowers (endsEarly); and, with either run live, those whose
// change is within the live rerun spread (unjudged.noise), ours or this
// machine's (here: the baseline's noise, learnNoise).
type unjudged struct {
	all, work, early, live bool
	here                   map[string]float64
}

// liveNoise is, per number, how far apart two live runs of the same
// settings came, one after the other: the largest relative change between
// consecutive runs, over six live runs of each of the five steps of the
// story (BenchmarkLiveRerunNoise, tests/README.md), rounded up. Peak req/s
// moved 3.8% there, but 148–193 over a review's live runs of full jitter
// on a busier machine (the busiest second is how the page's sends bunch):
// its band is that review's 30%. With either run live, a change from the
// baseline within it is not called better or worse: a rerun alone moves
// the number that far (full jitter's completion p50 by up to 57%).
// Numbers a run's jobs decide (jobs succeeded, give-ups) did not move and
// are not listed.
var liveNoise = map[string]float64{
	"requests": 0.05, "amplification": 0.05, "peak_rps": 0.30,
	"limited": 0.10, "wasted_per_success": 0.10,
	"completion_p50_ms": 0.60, "completion_p99_ms": 0.30, "drain_ms": 0.30,
	"dispersion": 0.35,
}

// noisyChanges counts the numbers shown whose change from the baseline is
// not judged for being within the live rerun spread (stat.Noise).
func (l *Lab) noisyChanges() int {
	n := 0
	for _, s := range l.statList() {
		if s.Noise > 0 && s.Value != s.Base {
			n++
		}
	}
	return n
}

// noise is the live rerun spread that number name's change from base to
// cur is within, the larger of ours (liveNoise) and this page's own
// (u.here), and whether it is this page's; 0 when the change is past it.
func (u unjudged) noise(name string, cur, base float64) (band float64, here bool) {
	band = liveNoise[name]
	if h := u.here[name]; h > band {
		band, here = h, true
	}
	if band == 0 || base == 0 || math.Abs(cur-base) > band*math.Abs(base) {
		return 0, false
	}
	return band, here
}

// learnNoise keeps, when the live run just finished repeats its live
// baseline's settings and neither was disturbed (disturbed: cut short, a
// fault pressed, sent late) nor ran in a shared room (the others' requests
// share its limit: how far it came apart is theirs, not this machine's),
// how far each number that live timing moves (liveNoise's) came from the
// baseline's: baseline.noise, the largest per number over its reruns.
// How far live runs come apart is the machine's: ours (liveNoise) were
// measured on a quiet one, and on a busier one a review's two live runs
// of full jitter peaked at 148 and 193 req/s, and its Cap 10s → 5s read
// "requests +13% worse", past our 5%. A user who doubts a verdict reruns
// the baseline's settings, and comparisons against that baseline then
// allow for what the rerun showed. It is the baseline's, not the page's:
// a spread is of its settings (a few 429s against a few more is a large
// share), and clearing the baseline forgets it (a review: kept for the
// page's life, one rerun's spread silenced every later comparison).
func (l *Lab) learnNoise() {
	if l.base == nil || l.rec == nil || l.rec.Simulated || l.base.simulated || l.rec.Scenario.Room != "" ||
		len(changes(l.base.scen, l.rec.Scenario)) > 0 || len(l.disturbed()) > 0 {
		return
	}
	if l.base.noise == nil {
		l.base.noise = map[string]float64{}
	}
	byName := make(map[string]*stat, len(l.base.list))
	for i := range l.base.list {
		byName[l.base.list[i].Name] = &l.base.list[i]
	}
	for _, c := range statList(&l.stats, l.disp, l.runEnd(), jobsOf(l.rec.Scenario)) {
		b, ok := byName[c.Name]
		if !ok || liveNoise[c.Name] == 0 || c.NotMeasured != "" || b.NotMeasured != "" || b.Value == 0 {
			continue
		}
		if d := math.Abs(c.Value-b.Value) / math.Abs(b.Value); d > l.base.noise[c.Name] {
			l.base.noise[c.Name] = d
		}
	}
}

// noisierHere says which numbers the live reruns of the baseline's
// settings (baseline.noise) moved further than ours did (liveNoise), and
// how far: "peak req/s by 41%, requests by 8%"; "" for none.
func (l *Lab) noisierHere() string {
	var said []string
	for _, s := range l.base.list { // the same numbers, labelled (not statList: it asks judged, which asks this)
		// Further as the bar writes it: a learned 30.4% against our 30%
		// read "further than on ours (completion p99 by 30%)".
		if h := l.base.noise[s.Name]; h > liveNoise[s.Name] && percent(h) != percent(liveNoise[s.Name]) && !s.Hidden {
			said = append(said, strings.ToLower(s.Label)+" by "+percent(h))
		}
	}
	return strings.Join(said, ", ")
}

func (u unjudged) of(name string) bool {
	return u.all || u.work && countsOfWork[name] || u.early && endsEarly[name]
}

// judged says which of the shown run's numbers are not called better or
// worse than the baseline's (u), and why, in sentences for the compare
// bar: none of them when either run was disturbed (disturbed), when a
// live run repeats the baseline's settings (the differences are the
// machine's timing: a rerun's p50 was "+23% worse"; learnNoise keeps how
// far) or only the seed differs (chance); the counts of work when the
// workloads differ; those a job giving up lowers (endsEarly) when the
// share of jobs that succeeded differs by more than 5 points; with either
// run live, those within the live rerun spread (unjudged.noise).
func (l *Lab) judged() (u unjudged, why []string) {
	cur := l.shownScenario()
	n, b := jobsOf(cur), jobsOf(l.base.scen)
	if n != b {
		u.work = true
		why = append(why, "The workloads differ ("+thousands(n)+" jobs against "+thousands(b)+"): the counts and the time to drain are not called better or worse.")
	}
	if d := l.disturbed(); len(d) > 0 {
		u.all = true
		why = append(why, d...)
	}
	cs := changes(l.base.scen, cur)
	switch {
	case u.all:
	case l.rec != nil && !l.rec.Simulated && !l.base.simulated && len(cs) == 0:
		u.all = true
		w := "The settings in effect are the baseline's: the differences are live timing (this machine, the browser, the network), so none is called better or worse."
		if h := l.noisierHere(); h != "" {
			// What learnNoise kept of it, said where it is learned.
			w += " Live runs of these settings came apart further on this machine than on ours (" + h + "): against this baseline, a change within that is not called better or worse either."
		}
		why = append(why, w)
	case len(cs) == 1 && cs[0].key == "seed":
		// Another draw of the same settings: "Random seed 1 → 7" had
		// its p50 called "−30% better".
		u.all = true
		switch live := l.rec != nil && !l.rec.Simulated; {
		case live == l.base.simulated: // one live, one simulated (a review)
			why = append(why, "Only the random seed differs, and one run was live, the other simulated: the differences are chance and live timing, so none is called better or worse.")
		case sameOutcome(l.stats, l.base.stats): // "chance" with every card "same" (a review)
			why = append(why, "Only the random seed differs, and these settings draw nothing from it that changed the outcome: the runs came out the same.")
		default:
			why = append(why, "Only the random seed differs: the differences are chance (another draw of the same settings), so none is called better or worse.")
		}
	}
	u.live, u.here = l.rec != nil && !l.rec.Simulated || !l.base.simulated, l.base.noise
	if !u.all && n > 0 && b > 0 && !l.numbersSoFar() {
		share, baseShare := float64(l.stats.Successes)/float64(n), float64(l.base.stats.Successes)/float64(b)
		if math.Abs(share-baseShare) > 0.05 {
			u.early = true
			why = append(why, "This run's jobs succeeded "+percent(share)+" of the time, the baseline's "+percent(baseShare)+
				": a job that gives up ends early and sends less, so the times and counts are not called better or worse; the successes, give-ups and wasted per success are.")
		}
	}
	return u, why
}

// disturbed says why the shown run's numbers and the baseline's cannot be
// told apart fairly, in sentences for the compare bar: either was cut
// short (each tells only its start: a stopped baseline's 17 cancelled
// jobs were "−100% better" give-ups, and the flood's whole run "wasted /
// success −61% better" than a full-jitter run stopped in its first wave),
// a fault was pressed during either (the cards called a run whose limit
// was halved for 5 s "+21% worse", and the bar did not say why: a
// review), or either sent late past latePast (the page bunched its
// sends). None: nil.
func (l *Lab) disturbed() (why []string) {
	switch thisCut := l.shownCut(); {
	case l.base.end.cut() && thisCut:
		why = append(why, "Both runs were cut short: their numbers are not called better or worse.")
	case l.base.end.cut():
		why = append(why, "The baseline was cut short "+cutBy(l.base.end)+" ("+succeededOf(l.base.stats.Successes, jobsOf(l.base.scen))+"): its numbers tell only its start, so none is called better or worse.")
	case thisCut:
		why = append(why, "This run was cut short "+cutBy(l.runEnd())+": its numbers tell only its start, so none is called better or worse.")
	}
	if l.rec != nil && !l.numbersSoFar() {
		fs, ok := l.view.faultsOf(l.rec.Start)
		if !ok {
			fs = l.rec.Faults()
		}
		if p := pressedFaults(l.shownScenario(), fs, l.rec.Start); p != "" {
			why = append(why, "During this run "+p+": its numbers are not called better or worse.")
		}
	}
	if l.base.pressed != "" {
		why = append(why, "During the baseline "+l.base.pressed+": its numbers are not called better or worse.")
	}
	if l.rec != nil && !l.numbersSoFar() && !l.rec.Simulated && l.stats.LatenessP99 > latePast {
		why = append(why, "This page sent this run's requests up to "+human.Measured(l.stats.LatenessP99)+" late (lateness p99), bunching them: its numbers are not called better or worse.")
	}
	if !l.base.simulated && l.base.stats.LatenessP99 > latePast {
		why = append(why, "This page sent the baseline's requests up to "+human.Measured(l.base.stats.LatenessP99)+" late (lateness p99), bunching them: its numbers are not called better or worse.")
	}
	return why
}

// sameOutcome reports whether two runs' main numbers are the same.
func sameOutcome(a, b fleet.Stats) bool {
	return a.Requests == b.Requests && a.Limited == b.Limited && a.Failed == b.Failed && a.Successes == b.Successes &&
		a.CompletionP50 == b.CompletionP50 && a.CompletionP99 == b.CompletionP99 && a.Drain == b.Drain
}

// percent is a share as a whole percentage: "40%".
func percent(f float64) string { return strconv.FormatFloat(math.Round(f*100), 'f', 0, 64) + "%" }

// pressedFaults says the faults of a run that its configuration s did not
// schedule (a button pressed, on this page or another in the room): "the
// limit was scaled ×0.5 at 3.1 s" (start is the run's). Its scheduled outage,
// the one at s.OutageAt, is the configuration's.
func pressedFaults(s fleet.Scenario, fs []fleet.Fault, start time.Time) string {
	var said []string
	scheduled := s.Outage > 0
	for _, f := range fs {
		at := human.Measured(f.From.Sub(start))
		switch f.Kind {
		case "outage":
			if scheduled && (f.From.Sub(start)-s.OutageAt).Abs() < time.Second {
				scheduled = false
				continue
			}
			said = append(said, "the server went down at "+at)
		case "limit":
			said = append(said, "the limit was scaled ×"+core.FormatFloat(f.Scale)+" at "+at)
		case "burst":
			said = append(said, "another client sent a burst of "+thousands(f.N)+" at "+at)
		}
	}
	return strings.Join(said, ", ")
}

// baseDelta says how a number compares with its baseline: "−74%", "+4.0%",
// "same", or from a baseline of 0 the number itself, "+37" (curText is
// the number as shown).
func baseDelta(cur, base float64, curText string) string {
	switch {
	case cur == base:
		return "same"
	case base == 0 && cur > 0:
		return "+" + curText
	case base == 0:
		return "−" + strings.TrimPrefix(curText, "−")
	}
	pct := (cur - base) / base * 100
	sign := "+"
	if pct < 0 {
		sign = "−"
		pct = -pct
	}
	switch {
	case math.Round(pct*10) >= 100: // 9.96 as "10%", as 10.4 is, not "10.0%"
		return sign + strconv.FormatFloat(pct, 'f', 0, 64) + "%"
	case pct >= 0.05:
		return sign + strconv.FormatFloat(pct, 'f', 1, 64) + "%"
	}
	return "same"
}

// betterWhen says which way each number improves, for the verdict beside
// its change from the baseline: -1 lower is better, +1 higher is better.
// The numbers not listed get no verdict: first tries are the workload's,
// jobs at once follow from it, and send lateness and browser queueing are
// the page's timing as much as the configuration's (pageTiming).
var betterWhen = map[string]int{
	"requests": -1, "successes": +1, "limited": -1, "failures": -1, "wasted_per_success": -1,
	"peak_rps": -1, "amplification": -1, "completion_p50_ms": -1, "completion_p99_ms": -1,
	"drain_ms": -1, "give_ups": -1, "dispersion": -1,
}

// pageTiming are the numbers that measure the page's own timing as much as
// the configuration: how late the browser's thread let the loop send
// (lateness), and how long the browser held a request (queueing), which
// the machine, the browser and whatever else they ran at the time decide.
// Two live runs of the same configuration, one after the other, differ
// by tens of percent in them: their change from the baseline is shown
// without a verdict ("−40% better" judged the machine, not the client),
// and the line's tooltip says why (pageTimingWhy). Only a live run
// measures them (a simulation's are 0): they are not compared between a
// live run and a simulation.
var pageTiming = map[string]bool{"lateness_p99_ms": true, "queued_p99_ms": true}

// unmeasuredInSim marks the numbers of list a simulation does not measure
// (pageTiming), as the panel and a simulated baseline show them.
func unmeasuredInSim(list []stat) {
	for i := range list {
		if pageTiming[list[i].Name] {
			list[i].NotMeasured, list[i].Full = "not measured in a simulation", ""
		}
	}
}

// pageTimingWhy is why a pageTiming number's change is not judged.
const pageTimingWhy = "not called better or worse: it measures this page's timing (the browser, the machine, what else they ran) as much as the configuration"

// verdict is "better" or "worse" for number name's change delta from the
// baseline (baseDelta's "+12%", "−3"), "" when it is the same or has no
// better direction.
func verdict(name, delta string) string {
	dir := betterWhen[name]
	up := strings.HasPrefix(delta, "+")
	if dir == 0 || !up && !strings.HasPrefix(delta, "−") {
		return ""
	}
	if up == (dir > 0) {
		return "better"
	}
	return "worse"
}

// verdict is the verdict on s's change delta from the baseline, unless s
// has none.
func (s *stat) verdict(delta string) string {
	if s.NoVerdict {
		return ""
	}
	return verdict(s.Name, delta)
}

// spokenDelta is baseDelta for a screen reader: "74% less", "37 more".
func spokenDelta(d string) string {
	switch {
	case strings.HasPrefix(d, "+"):
		return strings.TrimPrefix(d, "+") + " more"
	case strings.HasPrefix(d, "−"):
		return strings.TrimPrefix(d, "−") + " less"
	}
	return d
}

// CompareBar says which run is the baseline and what the page compares
// with it, with a button to clear it.
type CompareBar struct {
	app.Compo

	Lab *Lab
	Rev int
}

// Render draws the bar, or nothing without a baseline.
func (c *CompareBar) Render() app.UI {
	l := c.Lab
	var label, what string
	switch {
	case l.base == nil && l.wantBase != nil:
		label, what = runLabel(*l.wantBase, true, -1), "simulating it from the link…"
	case l.base == nil:
		return app.Div().ID("compare").Hidden(true)
	case l.watching || l.watched:
		label, what = l.base.label(), "a watch of a shared room is not compared with it; the next run or simulation is."
	case l.showingBaseline() || (l.rec == nil && !l.running):
		label, what = l.base.label(), "the next run or simulation is drawn and counted against it."
		if l.base.scen.Target != "" {
			what += " It stays out of the page's link: a link's baseline is simulated, and only the built-in mock can be."
		}
	default:
		this := "this run"
		if l.rec != nil {
			this = runLabel(l.rec.Scenario, l.rec.Simulated, l.runs)
		}
		label, what = l.base.label(), "against "+this+"."
		if l.base.run < 0 || l.runs <= l.base.run+1 {
			// Told with the first run against it, not after every run:
			// the bar ran to three lines (a review).
			what = "against " + this + ": its numbers are beside each of this run's, its requests per second the violet outline on the histogram."
		}
		if d := settingsDiff(l.base.scen, l.shownScenario()); d != "" {
			what += " Changed from the baseline: " + d + "."
		}
		_, why := l.judged()
		for _, w := range why {
			what += " " + w
		}
		if n := l.noisyChanges(); n > 0 {
			// Said here, not in the tooltips alone: a run whose every
			// change was within the spread read as one with no verdicts
			// and no reason.
			what += " Live runs vary: " + thousands(n) + map[bool]string{true: " change is", false: " changes are"}[n == 1] +
				" within how far two live runs of the same settings come apart, and not called better or worse (each number's tooltip says how far)."
		}
		if l.numbersSoFar() {
			upTo, ends := "now", "the run ends"
			if l.replaying {
				upTo, ends = "the playhead", "the replay ends"
			}
			what += " So far this run's numbers count up to " + upTo + ", the baseline's its whole run: the change from each is told when " + ends + "."
		}
	}
	// The live region holds the words, not the button after them: a
	// screen reader heard "…against it.Clear baseline" (an accessibility
	// review).
	return app.Div().ID("compare").Class("compare").Body(
		app.Span().Class("compare-said").Role("status").Body(
			app.Span().Class("swatch").Aria("hidden", "true"),
			app.Strong().Text("Baseline: "),
			app.Span().ID("baseline-label").Text(label),
			app.Text(" — "+what),
		),
		app.Button().ID("clear-baseline").Class("ghost small").Attr(browser.FocusNextAttr, "compare-keep").Title("Stop comparing (c on the baseline itself)").Text("Clear baseline").
			OnClick(func(ctx app.Context, e app.Event) { l.ClearBaseline() }),
	)
}

// setBaseline draws d's outline over the histogram from now on (nil:
// none); shown says d is the run on screen, drawn against the next run
// only.
func (v *view) setBaseline(d *baselineDraw, shown bool) {
	v.mu.Lock()
	v.base, v.baseFrom = d, 0
	if shown && v.m != nil {
		v.baseFrom = v.m.id
	}
	v.dirty = true
	v.mu.Unlock()
	v.request()
}

// shownBaseline is the baseline to draw over the run shown, or nil: none,
// the run shown is the baseline itself, or a watch. v.mu must be held.
func (v *view) shownBaseline() *baselineDraw {
	if v.m == nil || v.m.watch || v.m.id == v.baseFrom || v.replay != nil && v.replay.full.id == v.baseFrom {
		return nil
	}
	return v.base
}

// sentIn is how many requests the baseline sent in bin b of slice.
func (d *baselineDraw) sentIn(slice time.Duration, b int) int {
	n := 0
	for _, t := range d.sends {
		if int(t/slice) == b {
			n++
		}
	}
	return n
}

// rates is the baseline's requests sent per second in bins first to n-1
// of slice (out[i] is bin first+i), up to the end of its run: the bins in
// view, not all those before them (zoomed in at the end of a run lasting
// days, those are millions).
func (d *baselineDraw) rates(slice time.Duration, first, n int) []float64 {
	if slice <= 0 {
		return nil
	}
	if d.cached != nil && d.cachedSlice == slice && d.cachedFirst == first && d.cachedN == n {
		return d.cached
	}
	want := n
	n = min(n, int(d.span/slice)+1)
	if n <= first {
		return nil
	}
	counts := make([]int, n-first)
	for _, t := range d.sends {
		if b := int(t/slice) - first; b >= 0 && b < len(counts) {
			counts[b]++
		}
	}
	perSec := float64(time.Second) / float64(slice)
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = float64(c) * perSec
	}
	d.cachedSlice, d.cachedFirst, d.cachedN, d.cached = slice, first, want, out
	return out
}
