package ui

import (
	"strconv"
	"strings"
	"time"

	"retrylab/app/fleet"
)

// stat is one number of the numbers panel. Name is its data-stat
// attribute and its key in window.retrylab.state().stats; Value is the raw
// number (durations in milliseconds) in data-value.
type stat struct {
	Name    string
	Label   string
	Value   float64
	Text    string // Value for people
	Sub     string // one line of context: what it is
	Figures string // the run's figures that replace Sub once there is a run
	Tip     string // how it is computed, for the tooltip only
	Primary bool   // shown large, in the first row
	Hidden  bool   // only told in another number's line (its element is hidden)
	// Not comparable: no stat is compared whole, and the equality
	// functions the compiler would generate for []stat's backing arrays
	// cost app.wasm ~16 KB.
	_ [0]func()
	// NotMeasured says why the number was not measured, shown as "–", not
	// as 0: a simulation's lateness and browser queueing (only a live run
	// measures them), the queueing of requests to a server whose timings
	// the browser hides, or wasted per success with no success (a ratio to
	// nothing). "" when it was.
	NotMeasured string

	// The baseline run's figure (Compare), when there is one.
	Base     float64
	BaseText string
	HasBase  bool

	// NoVerdict: the change from the baseline is not better or worse
	// (wasted per success when either run had no success: 0 says nothing).
	NoVerdict bool
	// NoDelta: the baseline's figure was not measured ("–"): there is no
	// change from it to tell.
	NoDelta bool
	// SoFar: the number is of a run not over (soFar). Beside it the
	// baseline's figure is its whole run's, and no change from it is told:
	// a partial run against a whole one is no comparison ("jobs succeeded
	// 50 · baseline 100 · −50% worse", 4 s into a replay of a run whose
	// 100 jobs all succeeded).
	SoFar bool
}

// runEnd is how the run whose numbers are shown ended, for the words of
// its numbers: the jobs it cancelled were cut short by Stop (a live run)
// or by the attempt limit (a simulation, which has no Stop), and a run cut
// short did not drain.
type runEnd uint8

const (
	endLive       runEnd = iota // a live run that finished or goes on, or no run yet
	endStopped                  // a live run Stop cut short
	endLiveCapped               // a live run stopped at the page's request limit (liveMaxRequests)
	endSimulated                // a simulation that ran to the end
	endCapped                   // a simulation that reached its attempt limit (fleet.SimSummary.Stopped)
)

// endOf is how a run ended: simulated, whether it was stopped at the
// page's limit (a simulation's attempts, a live run's requests), and
// whether a live run was cut short (cutShort).
func endOf(simulated, capped, cut bool) runEnd {
	switch {
	case simulated && capped:
		return endCapped
	case simulated:
		return endSimulated
	case capped:
		return endLiveCapped
	case cut:
		return endStopped
	}
	return endLive
}

// cutShort reports whether a live run with numbers st was cut short: by
// Stop or the request limit. It cancelled jobs, or, finished (rec, its
// Recording; nil while the run or a replay of it goes on), it did not
// drain (fleet.Recording.Drained): Stop between an open workload's
// arrivals cancels no job, as none is in progress. Counting cancellations
// alone, such a run read "Finished: 10 of 10 jobs succeeded", "Run → last
// job done", with 70 of its 80 jobs never started.
func cutShort(st *fleet.Stats, rec *fleet.Recording) bool {
	return st.Cancelled > 0 || rec != nil && !rec.Drained(st)
}

// statList turns Stats into the panel's numbers, in the order shown; end
// says what cut the run's cancelled jobs short, jobs how many jobs a
// finished run was set up with (0 while it goes on).
func statList(st *fleet.Stats, disp float64, end runEnd, jobs int) []stat {
	msOf := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	n := func(name, label string, v int, sub string, primary bool) stat {
		return stat{Name: name, Label: label, Value: float64(v), Text: thousands(v), Sub: sub, Primary: primary}
	}
	f := func(name, label string, v float64, sub string, primary bool) stat {
		return stat{Name: name, Label: label, Value: v, Text: trimFloat(v), Sub: sub, Primary: primary}
	}
	d := func(name, label string, v time.Duration, sub string, primary bool) stat {
		return stat{Name: name, Label: label, Value: msOf(v), Text: fmtDur(v), Sub: sub, Primary: primary}
	}
	rate429 := 0.0
	if st.Requests > 0 {
		rate429 = float64(st.Limited) / float64(st.Requests) * 100
	}
	hide := func(s stat) stat { s.Hidden = true; return s }
	figured := func(s stat, figures string) stat { s.Figures = figures; return s }
	noVerdict := func(s stat, no bool) stat { s.NoVerdict = no; return s }
	// One definition of a percentile everywhere (fleet.Stats): the
	// nearest rank, a value that occurred, never one interpolated.
	tip := func(s stat, t string) stat { s.Tip = t; return s }
	pct := func(s stat) stat { return tip(s, percentileTip) }
	return []stat{
		figured(n("requests", "requests sent", st.Requests, "retries included", true), thousands(st.InFlight)+" in flight"),
		figured(n("successes", "jobs succeeded", st.Successes, "got a 2xx in the end", true), finishedText(st, jobs)),
		figured(n("limited", "429s", st.Limited, "rejected (429 or 503)", true), trimFloat(rate429)+"% of requests (429/503)"),
		figured(n("failed", "other failures", st.Failed, "other 4xx/5xx, network errors", true), "and "+thousands(st.Timeouts)+" timeouts · "+abortedText(st)),
		wasted(noVerdict(f("wasted_per_success", "wasted / success", st.WastedPerSuccess, "failed requests per success", true), st.Successes == 0), st),
		n("peak_rps", "peak req/s", st.PeakRPS, "most sent in any 1 s", true),
		f("amplification", "amplification", st.Amplification, "requests ÷ first tries", true),
		figured(n("first_tries", "first tries", st.FirstTries, "one per job started", false), thousands(st.Retries)+" retries"),
		pct(d("completion_p50_ms", "completion p50", st.CompletionP50, "a job, due to done", false)),
		pct(figured(d("completion_p99_ms", "completion p99", st.CompletionP99, "the slowest jobs", false), "max "+fmtDur(st.CompletionMax))),
		d("drain_ms", "time to drain", st.Drain, drainSub(end), false),
		tip(n("peak_jobs", "jobs at once", st.PeakJobs, "most in progress", false), peakJobsTip),
		tip(figured(n("give_ups", "give-ups", st.GiveUps, "jobs that stopped trying", false), cancelledText(st, end)), causesText(st.Causes)),
		pct(figured(d("lateness_p99_ms", "lateness p99", st.LatenessP99, "fetch start − intended", false), "p50 "+fmtDur(st.LatenessP50))),
		pct(figured(d("queued_p99_ms", "browser queue p99", st.QueuedP99, "held in the browser", false), "p50 "+fmtDur(st.QueuedP50))),
		dispersion(tip(f("dispersion", "dispersion", disp, "of retries; ≫ 1 = herds", false), dispersionTip), st.Retries),
		hide(n("retries", "retries", st.Retries, "", false)),
		hide(d("completion_max_ms", "completion max", st.CompletionMax, "", false)),
		hide(n("timeouts", "timeouts", st.Timeouts, "", false)),
		hide(n("aborted", "aborted", st.Aborted, "", false)),
		hide(n("in_flight", "in flight", st.InFlight, "", false)),
		hide(n("jobs", "jobs finished", st.Jobs, "", false)),
		hide(n("cancelled", "jobs cancelled "+cutBy(end), st.Cancelled, "", false)),
	}
}

// soFar marks list as the numbers of a run not over, counted up to now: a
// run or a simulation going on, or a replay up to its playhead. Its time to
// drain is up to the last job done so far: it has not drained yet.
func soFar(list []stat) []stat {
	for i := range list {
		list[i].SoFar = true
		if list[i].Name == "drain_ms" {
			list[i].Figures = "so far: not drained yet"
		}
	}
	return list
}

// abortedText is the attempts aborted, in the other failures' figures:
// "12 aborted" (by Stop), "238 cut at the limit" (aborted by a
// simulation's attempt limit, which has no Stop: it said "238 aborted",
// and the run's description "aborted by Stop"). "238 aborted at the
// limit" did not fit a 97 px card's two lines.
func abortedText(st *fleet.Stats) string {
	if st.AbortedAtLimit > 0 && st.AbortedAtLimit == st.Aborted {
		return thousands(st.Aborted) + " cut at the limit"
	}
	return thousands(st.Aborted) + " aborted"
}

// percentileTip says how the panel's percentiles are computed.
const percentileTip = "nearest-rank percentile: of n values sorted, the ⌈p·n⌉-th (p99 of 50 is the largest)"

// giveUpCauses names fleet.Cause's reasons for giving up, in the order
// the give-ups' tooltip lists them ("cancelled" is the line's own).
var giveUpCauses = [...][2]string{
	{"exhausted", "out of attempts"}, {"max-elapsed", "next wait past max elapsed"}, {"budget-empty", "retry budget empty"},
	{"above-ceiling", "Retry-After above the ceiling"}, {"permanent", "not retryable"}, {"horizon", "past the end of virtual time"}, {"invalid", "invalid policy"},
}

// causesText says why the jobs that gave up did: "why: out of attempts 9,
// retry budget empty 2"; "" when none did but by Stop.
func causesText(causes map[string]int) string {
	var parts []string
	for _, c := range giveUpCauses {
		if n := causes[c[0]]; n > 0 {
			parts = append(parts, c[1]+" "+thousands(n))
		}
	}
	if parts == nil {
		return ""
	}
	return "why: " + strings.Join(parts, ", ")
}

// peakJobsTip says what bounds the jobs at once: the card's line had it
// too, cut off ("most in progress; close…") where the cards are narrow.
const peakJobsTip = "a closed workload has at most one per worker; an open one's jobs keep arriving, so it can have more"

// dispersionTip says what the dispersion measures (fleet.Dispersion).
const dispersionTip = "variance ÷ mean of the retries sent per 100 ms, from the first retry to the last: about 1 when retries come independently, about k when they come back in herds of k; k retries all in one slice count k, the most they can give"

// wasted is the wasted-per-success number s of st: with no success it is
// no ratio (fleet.Stats gives 0, which read as "nothing wasted" after a run
// whose every job gave up), so it shows "–" and says what was wasted.
func wasted(s stat, st *fleet.Stats) stat {
	if st.Successes > 0 {
		return s
	}
	s.Text = "–"
	switch answered := st.Requests - st.InFlight; answered {
	case 0:
		s.NotMeasured = "no success yet"
	case 1:
		s.NotMeasured = "no success: the 1 answer was wasted"
	default:
		s.NotMeasured = "no success: all " + thousands(answered) + " answers wasted"
	}
	return s
}

// dispersion is the dispersion number s of a run with retries retries:
// with none it measured nothing, and its 0 read as retries perfectly
// paced, so it shows "–"; with all of them in one slice it is their number
// (fleet.Dispersion), and says so.
func dispersion(s stat, retries int) stat {
	switch {
	case retries == 0:
		s.Text, s.NotMeasured = "–", "no retries"
	case retries == 1:
		s.Figures = "a single retry"
	case fleet.DispersionOneSlice(s.Value, retries):
		s.Figures = "all in one " + fmtDur(fleet.DispersionSlice) + " slice"
	}
	return s
}

// cutBy says what cancels a run's jobs: Stop, or the page's limit on a
// simulation's attempts or a live run's requests.
func cutBy(end runEnd) string {
	switch end {
	case endSimulated, endCapped:
		return "at the attempt limit"
	case endLiveCapped:
		return "at the request limit"
	}
	return "by Stop"
}

// drainSub is what the time to drain measures: up to the last job's end,
// or, for a run cut short, up to the cut (fleet.Recording.Final): the jobs
// in progress then ended cancelled, and those still to come never started.
// Two lines of the second row's narrowest card, 79 px at 1280 px, hold
// it: "Simulate → attempt limit: not drained" lost its "not drained".
func drainSub(end runEnd) string {
	switch end {
	case endStopped:
		return "Run → Stop: not drained"
	case endLiveCapped:
		return "not drained: request limit"
	case endCapped:
		return "not drained: attempt limit"
	case endSimulated:
		return "Simulate → last job done"
	}
	return "Run → last job done"
}

// finishedText is the successes' figures. Of a finished run, out of every
// job it was set up with (jobs), and those it never started, as its PNG's
// numbers count them (keyNumbers): "of 200 jobs", "of 200 · 127 not run"
// (the ones cancelled are the give-ups' figures, cancelledText). After
// Stop it read "of 19 finished · 10 stopped", with 171 jobs never started
// unsaid. It is short enough for two lines of a 97 px card: "of 10,000,000
// jobs · 9,966,911 never started" was cut after "never" (and "of 50,000
// jobs · 16,912 never started" after "never" too). Of a run going on (jobs
// 0), out of those finished so far, the jobs Stop cut short apart: "of 24
// finished · 47 stopped".
func finishedText(st *fleet.Stats, jobs int) string {
	if jobs > 0 {
		if n := neverStarted(st, jobs); n > 0 {
			return "of " + thousands(jobs) + " · " + thousands(n) + " not run"
		}
		return "of " + thousands(jobs) + " jobs"
	}
	t := "of " + thousands(st.Jobs-st.Cancelled) + " finished"
	if st.Cancelled > 0 {
		t += " · " + thousands(st.Cancelled) + " stopped"
	}
	return t
}

// neverStarted is how many of the jobs a run was set up with it never
// began: Stop or a limit came first.
func neverStarted(st *fleet.Stats, jobs int) int { return max(0, jobs-st.Jobs) }

// cancelledText is the give-ups' figures: how many of them a run's end
// cancelled, "10 by Stop"; "" when it cancelled none ("0 at the attempt
// limit" was said of every simulation).
func cancelledText(st *fleet.Stats, end runEnd) string {
	if st.Cancelled == 0 {
		return ""
	}
	return thousands(st.Cancelled) + " " + cutBy(end)
}

// watchStatList is the panel's numbers during and after a watch of a shared
// room: what the server received from everyone, and what it answered.
func watchStatList(w watchStats) []stat {
	pct := func(n int) string {
		if w.Arrivals == 0 {
			return "0% of requests"
		}
		return trimFloat(float64(n)/float64(w.Arrivals)*100) + "% of requests"
	}
	return []stat{
		{Name: "arrivals", Label: "requests received", Value: float64(w.Arrivals), Text: thousands(w.Arrivals), Sub: "from everyone in the room", Primary: true},
		{Name: "devices", Label: "devices", Value: float64(w.Devices), Text: thousands(w.Devices), Sub: "pages that sent requests", Primary: true},
		{Name: "allowed", Label: "allowed", Value: float64(w.OK), Text: thousands(w.OK), Sub: "answered 2xx", Figures: pct(w.OK), Primary: true},
		{Name: "limited", Label: "429s", Value: float64(w.Limited), Text: thousands(w.Limited), Sub: "rejected (429 or 503)", Figures: pct(w.Limited), Primary: true},
		{Name: "failed", Label: "other failures", Value: float64(w.Failed), Text: thousands(w.Failed), Sub: "injected 500s, drops, hangs", Primary: true},
		{Name: "peak_rps", Label: "peak req/s", Value: float64(w.Peak), Text: thousands(w.Peak), Sub: "most received in any 1 s", Primary: true},
		{Name: "watched_ms", Label: "watch time", Value: float64(w.For) / float64(time.Millisecond), Text: fmtClock(w.For), Sub: "since the watch began", Primary: true},
	}
}

// fmtClock is a watch's time as a clock reads it, "1:38" or "1:02:05": a
// big number's tile holds it on one line (fmtDur's "1 min 38 s" wrapped
// onto two in presentation mode, growing the numbers' row mid-watch).
func fmtClock(d time.Duration) string {
	s := int(max(d, 0) / time.Second)
	two := func(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }
	if s >= 3600 {
		return strconv.Itoa(s/3600) + ":" + two(s/60%60) + ":" + two(s%60)
	}
	return strconv.Itoa(s/60) + ":" + two(s%60)
}
