package ui

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/human"
)

// stat is one number of the numbers panel. Name is its data-stat
// attribute and its key in window.retrylab.state().stats; Value is the raw
// number (durations in milliseconds) in data-value.
type stat struct {
	Name    string
	Label   string
	Value   float64
	Text    string // Value for people; a count or a ratio in at most five characters ("12.3k": short, shortFloat)
	Exact   string // a count or a ratio written whole ("12,345"), for its card's tooltip where Text shortens it; "" for others
	Sub     string // one line of context: what it is
	Figures string // the run's figures that replace Sub once there is a run, their counts short
	// Full is the line shown (Figures, or NotMeasured) with its counts
	// whole, for its tooltip, when the line shortens one; "" otherwise.
	Full string
	Tip  string // how it is computed, for the tooltip only
	// Short is the label where the line under the number is not shown
	// (presentation mode's second row, under 1600 px), when the line
	// changes what the number means: "to Stop: not drained" for a time to
	// drain that was no drain, "give-ups, 47 by Stop". "" for the label.
	Short   string
	Primary bool // shown large, in the first row
	Hidden  bool // only told in another number's line (its element is hidden)
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
	Base      float64
	BaseText  string
	BaseExact string // BaseText written whole ("12,345" for "12.3k")
	HasBase   bool

	// NoVerdict: the change from the baseline is not better or worse
	// (wasted per success when either run had no success: 0 says nothing).
	NoVerdict bool
	// Noise: with either run live, the change is within how far two live
	// runs of the same settings came apart (unjudged.noise), and is not
	// judged for that; NoiseHere: on this machine (baseline.noise), not on
	// our machines (liveNoise).
	Noise     float64
	NoiseHere bool
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
// its numbers: the jobs it cancelled were cut short by Stop or by the
// page's limit, and a run cut short did not drain.
type runEnd uint8

const (
	endLive       runEnd = iota // a live run that finished or goes on, or no run yet
	endStopped                  // a live run Stop cut short
	endLiveCapped               // a live run stopped at the page's request limit (liveMaxRequests)
	endSimulated                // a simulation that ran to the end
	endCapped                   // a simulation that reached its attempt limit (fleet.SimSummary.Stopped)
	endSimStopped               // a simulation Stop cut short (fleet.SimSummary.Interrupted)
)

// cut reports whether a run that ended so was cut short: by Stop, or at
// the page's limit.
func (e runEnd) cut() bool { return e != endLive && e != endSimulated }

// byStop reports whether Stop cut the run short.
func (e runEnd) byStop() bool { return e == endStopped || e == endSimStopped }

// endOf is how a run ended: simulated, whether it was stopped at the
// page's limit (a simulation's attempts, a live run's requests), and
// whether it was cut short (cutShort), which for a simulation not at its
// limit is Stop's.
func endOf(simulated, capped, cut bool) runEnd {
	switch {
	case simulated && capped:
		return endCapped
	case simulated && cut:
		return endSimStopped
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
		return stat{Name: name, Label: label, Value: float64(v), Text: short(v), Exact: thousands(v), Sub: sub, Primary: primary}
	}
	f := func(name, label string, v float64, sub string, primary bool) stat {
		return stat{Name: name, Label: label, Value: v, Text: shortFloat(v), Exact: wholeFloat(v), Sub: sub, Primary: primary}
	}
	d := func(name, label string, v time.Duration, sub string, primary bool) stat {
		return stat{Name: name, Label: label, Value: msOf(v), Text: durTogether(v), Sub: sub, Primary: primary}
	}
	hide := func(s stat) stat { // in no card: whole
		s.Hidden, s.Text = true, cmp.Or(s.Exact, s.Text)
		return s
	}
	figured := func(s stat, figures string) stat { s.Figures = figures; return s }
	// counted is figured with figures that hold counts, written by figs:
	// short in the card, whole in its tooltip.
	counted := func(s stat, figs func(num func(int) string) string) stat {
		s.Figures = figs(short)
		if whole := figs(thousands); whole != s.Figures {
			s.Full = whole
		}
		return s
	}
	inFlight := func(num func(int) string) string { return together(num(st.InFlight), "in", "flight") }
	finished := func(num func(int) string) string { return finishedText(st, jobs, num) }
	failed := func(num func(int) string) string { return failedText(st, num) }
	retryWord := plural(st.Retries, "retry", "retries")
	retries := func(num func(int) string) string { return together(num(st.Retries), retryWord) }
	cancelled := func(num func(int) string) string { return cancelledText(st, end, num) }
	// Aborted requests are wasted too, Stop's among them: "10.83 failed
	// requests per success" counted 90 Stop had cut of 195.
	wastedAborted := func(num func(int) string) string {
		if st.Aborted == 0 {
			return ""
		}
		// "incl." may break from the count: "incl. 238 aborted" whole
		// was wider than the card in presentation mode.
		return "incl. " + together(num(st.Aborted), "aborted")
	}
	noVerdict := func(s stat, no bool) stat { s.NoVerdict = no; return s }
	// One definition of a percentile everywhere (fleet.Stats): the
	// nearest rank, a value that occurred, never one interpolated.
	tip := func(s stat, t string) stat { s.Tip = t; return s }
	named := func(s stat, label string) stat { s.Short = label; return s } // the label where the line is not shown
	drainLine, drainShort := drainSub(end)
	pct := func(s stat) stat { return tip(s, percentileTip) }
	return []stat{
		counted(n("requests", "requests sent", st.Requests, "retries included", true), inFlight),
		counted(n("successes", "jobs succeeded", st.Successes, "got a 2xx in the end", true), finished),
		figured(n("limited", "429s", st.Limited, "rejected (429 or 503)", true), percentOf(st.Limited, st.Requests)+" of requests (429/503)"),
		// Timeouts are failures too: a run whose every request timed out
		// showed "0 other failures", its timeouts only in the line under
		// the 0. The figure counts them; requests sent are then the 2xx,
		// the 429s, these and those aborted or in flight.
		counted(n("failures", "other failures", st.Failed+st.Timeouts, "4xx/5xx, network errors, timeouts", true), failed),
		wasted(counted(noVerdict(f("wasted_per_success", "wasted / success", st.WastedPerSuccess, "failed requests per success", true), st.Successes == 0), wastedAborted), st),
		n("peak_rps", "peak req/s", st.PeakRPS, "most sent in any "+together("1", "s"), true),
		f("amplification", "amplification", st.Amplification, "requests ÷ first tries", true),
		// "First tries vs retries" is what a presenter points at: where the
		// line is not shown (presentation's second row under 1600 px) the
		// retries stay in the name, "first tries, 296 retries" (a review
		// found them gone at 1280 × 720). The count may part from its
		// word: "267k retries" whole was wider than the card at 320–650 px.
		named(counted(n("first_tries", "first tries", st.FirstTries, "one per job started", false), retries), firstTriesShort(short(st.Retries)+" "+retryWord)),
		unmeasured(pct(allGaveUp(d("completion_p50_ms", "completion p50", st.CompletionP50, "a job, due → done", false), st)), st.CompletionN, noneCompleted),
		unmeasured(pct(figured(d("completion_p99_ms", "completion p99", st.CompletionP99, "the slowest jobs", false), together("max", durTogether(st.CompletionMax)))), st.CompletionN, noneCompleted),
		named(d("drain_ms", "time to drain", st.Drain, drainLine, false), drainShort),
		tip(n("peak_jobs", "jobs at once", st.PeakJobs, "most in progress", false), peakJobsTip),
		named(tip(counted(n("give_ups", "give-ups", st.GiveUps, "jobs that stopped trying", false), cancelled), causesText(st.Causes)), giveUpsShort(st, end)),
		unmeasured(tip(figured(d("lateness_p99_ms", "lateness p99", st.LatenessP99, "fetch start − intended", false), together("p50", durTogether(st.LatenessP50))), latenessTip(st)), st.LatenessN, noOutcome(st)),
		pct(figured(d("queued_p99_ms", "browser queue p99", st.QueuedP99, "held in the browser", false), together("p50", durTogether(st.QueuedP50)))),
		dispersion(tip(f("dispersion", "dispersion", disp, "of retries; "+together("≫", "1", "=", "herds"), false), dispersionTip), st.Retries),
		hide(n("retries", "retries", st.Retries, "", false)),
		hide(unmeasured(d("completion_max_ms", "completion max", st.CompletionMax, "", false), st.CompletionN, noneCompleted)),
		hide(n("failed", "other 4xx/5xx and network errors", st.Failed, "", false)), // the export's failed
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
			list[i].Figures, list[i].Short = "so far: not drained yet", "drain time so far"
		}
	}
	return list
}

// withSentAgain adds to the requests' card (s) that the server received n
// more than it counts: attempts whose connection closed with no answer (a
// drop), sent again by the browser on another before the page saw an
// error. The card counts each attempt once; a review measured 361
// arrivals at the server against 343 requests, and no number said so.
func withSentAgain(s *stat, n int) {
	more := together("+"+short(n), "sent", "again")
	s.Figures += itemSep + more
	if s.Full != "" {
		s.Full += itemSep + together("+"+thousands(n), "sent", "again")
	}
	s.Tip = "The server received " + thousands(n) + " more than these: attempts whose connection closed with no answer (a drop), " +
		"which the browser sent again on another before the page saw an error (browsers and Go's HTTP client do so for a GET on a reused keep-alive connection). " +
		"Each attempt counts once here and in the export."
}

// failedText is the other failures' figures: the timeouts, and the
// attempts aborted, "12 timeouts · 3 aborted" (by Stop), "238 timeouts ·
// 238 cut at limit" (aborted by a simulation's attempt limit, which has no
// Stop: it said "238 aborted", and the run's description "aborted by
// Stop"). Two lines of the narrowest first-row card, 99 px of text at 800
// to 1280 px, hold it with counts of five figures, written short (num):
// "and 133,747 timeouts · 46,964 cut at the limit" was cut after "46,96",
// and "and 8,888 timeouts · 8,888 aborted" after "8,888".
func failedText(st *fleet.Stats, num func(int) string) string {
	aborted := together(num(st.Aborted), "aborted")
	if st.AbortedAtLimit > 0 && st.AbortedAtLimit == st.Aborted {
		aborted = together(num(st.Aborted), "cut") + " " + together("at", "limit")
	}
	return together(num(st.Timeouts), plural(st.Timeouts, "timeout", "timeouts")) + itemSep + aborted
}

// wholeFloat is f written whole, for the tooltip of a number shortFloat
// shortens: to two decimals, with its thousands grouped ("299,999.5").
func wholeFloat(f float64) string {
	whole, frac, dot := strings.Cut(trimFloat(f), ".")
	if i, err := strconv.Atoi(whole); err == nil {
		whole = thousands(i)
	}
	if dot {
		return whole + "." + frac
	}
	return whole
}

// percentileTip says how the panel's percentiles are computed.
const percentileTip = "nearest-rank percentile: of n values sorted, the ⌈p·n⌉-th (p99 of 50 is the largest)"

// latenessTip is the send lateness card's tooltip: the percentiles' rule,
// and how late the page took the answers in, the other side of its
// thread's being busy (drawn as "late" outlines; a job's completion
// counts it). Under load a flood's first answers were taken in 0.45 s
// late, and no number said so.
//
// It starts by saying whose lateness it is: this device's, never the
// server's (a phone 4× slower than a laptop sent 171 ms late at p99 and
// nothing on its screen said whose doing that was; a review on a slow phone).
func latenessTip(st *fleet.Stats) string {
	const whose = "this device's own delay (its timers, its busy thread), not the server's"
	if st.PickupN == 0 {
		return whose + "; " + percentileTip
	}
	return whose + ". The page took the answers in " + durTogether(st.PickupP99) + " after they came at p99 (at most " + durTogether(st.PickupMax) +
		"), its thread busy elsewhere; a job's completion counts that. " + strings.ToUpper(percentileTip[:1]) + percentileTip[1:] + "."
}

// giveUpCauses names fleet.Cause's reasons for giving up, in the order
// the give-ups' tooltip lists them ("cancelled" is the line's own).
var giveUpCauses = [...][2]string{
	{"exhausted", "out of attempts"}, {"max-elapsed", "next wait past max elapsed"}, {"budget-empty", "retry budget empty"},
	{"above-ceiling", "Retry-After above the ceiling"}, {"permanent", "not retryable"}, {"horizon", "past the end of virtual time"}, {"invalid", "invalid policy"},
}

// causesText says why the jobs that gave up did: "why: out of attempts: 9;
// retry budget empty: 2"; "" when none did but by Stop.
func causesText(causes map[string]int) string {
	if c := causeCounts(causes); c != "" {
		return "why: " + c
	}
	return ""
}

// causeCounts counts the give-ups by cause, "out of attempts: 9; retry
// budget empty: 2", leaving the cancelled out.
func causeCounts(causes map[string]int) string {
	var parts []string
	for _, c := range giveUpCauses {
		if n := causes[c[0]]; n > 0 {
			parts = append(parts, c[1]+": "+thousands(n)) // "out of attempts 6" read as the setting
		}
	}
	return strings.Join(parts, "; ")
}

// peakJobsTip says what bounds the jobs at once: the card's line had it
// too, cut off ("most in progress; close…") where the cards are narrow.
const peakJobsTip = "a closed workload has at most one per worker; an open one's jobs keep arriving, so it can have more"

// dispersionTip says what the dispersion measures (fleet.Dispersion).
const dispersionTip = "variance ÷ mean of the retries sent per 100 ms, from the first retry to the last: about 1 when retries come independently, about k when they come back in herds of k; k retries all in one slice count k, the most they can give"

// unmeasured is s as a run shows it that measured none of what its figure
// is over (n 0): "–" and why, where fleet.Stats has 0 (it read "0 µs",
// as if jobs had completed at once). The export has null.
func unmeasured(s stat, n int, why string) stat {
	if n == 0 {
		s.Text, s.Exact, s.Figures, s.NotMeasured = "–", "", "", why
	}
	return s
}

// noneCompleted says why the completion times are not measured: no job
// ended but cancelled (by Stop, or a limit), or none ended yet.
const noneCompleted = "no job completed"

// noOutcome says why the send lateness is not measured: it counts an
// attempt when its outcome is in (fleet.Stats).
func noOutcome(st *fleet.Stats) string {
	if st.Requests == 0 {
		return "no request sent"
	}
	return "no outcome yet"
}

// wasted is the wasted-per-success number s of st: with no success it is
// no ratio (fleet.Stats gives 0, which read as "nothing wasted" after a run
// whose every job gave up), so it shows "–" and says what was wasted.
func wasted(s stat, st *fleet.Stats) stat {
	if st.Successes > 0 {
		return s
	}
	// "no success: all 8,888 answers wasted" was cut in the narrowest
	// first-row card. They are requests, not answers: timeouts and aborts
	// among them had none.
	why := "no success yet"
	switch wasted := st.Requests - st.InFlight; wasted {
	case 0:
	case 1:
		why = "no success: 1 request wasted"
	default:
		// Not joined: "300k requests" on one line made the line three
		// lines long in a 119 px card (TestNumbersFitTheirCards).
		why = "no success: " + short(wasted) + " requests wasted"
		if short(wasted) != thousands(wasted) {
			s.Full = "no success: " + thousands(wasted) + " requests wasted"
		}
	}
	return unmeasured(s, 0, why)
}

// allGaveUp is the completion number s of st, its line saying when every
// job it measured gave up: a run whose every request timed out showed
// "completion p50 3.21 s · a job, due → done" beside "0 jobs succeeded",
// as if jobs had been done in 3 s.
func allGaveUp(s stat, st *fleet.Stats) stat {
	switch gave := st.CompletionN - st.Successes; {
	case st.Successes == 0 && st.CompletionN > 0:
		// It may break before "gave up": "all 53.5k gave up" whole ran
		// past a 93 px card (TestNumbersFitTheirCards).
		s.Figures = together("all", short(st.CompletionN)) + " " + together("gave", "up")
		if short(st.CompletionN) != thousands(st.CompletionN) {
			s.Full = together("all", thousands(st.CompletionN)) + " " + together("gave", "up")
		}
	case gave > 0 && 2*gave >= st.CompletionN:
		// Give-ups count at their end, and as many as half of the jobs
		// may make the median one's: half the jobs giving up at once (a
		// fleet bucket's wait past max elapsed) read "completion p50 0
		// µs", unexplained (a review).
		s.Figures = "incl. " + together(short(gave), plural(gave, "give-up", "give-ups"))
		if short(gave) != thousands(gave) {
			s.Full = "incl. " + together(thousands(gave), "give-ups")
		}
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
		s = unmeasured(s, retries, "no retries")
	case retries == 1:
		s.Figures = "a single retry"
	case fleet.DispersionOneSlice(s.Value, retries):
		s.Figures = "all in one " + together(unitsTogether(human.Duration(fleet.DispersionSlice)), "slice")
	}
	return s
}

// cutBy says what cancels a run's jobs: Stop, or the page's limit on a
// simulation's attempts or a live run's requests.
func cutBy(end runEnd) string {
	switch end {
	case endCapped:
		// Not "the attempt limit": a learner read it as Max attempts,
		// the limit the other give-ups had reached (a review).
		return "at the page's limit"
	case endLiveCapped:
		return "at the request limit"
	}
	return "by Stop"
}

// firstTriesShort is the first tries' label where their line is not
// shown: "first tries," and their retries ("296 retries", or "– retries"
// before a run) on a line of their own (web/app.css keeps the break), so
// that it takes as many lines before a run as with any count: "first
// tries, – retries" fitted one line at 1024 px where "first tries, 24
// retries" took two, and the numbers grew 20 px as a run began
// (TestNumbersKeepTheirHeight).
func firstTriesShort(retries string) string { return "first tries,\n" + retries }

// drainSub is what the time to drain measures: up to the last job's end,
// or, for a run cut short, up to the cut (fleet.Recording.Final): the jobs
// in progress then ended cancelled, and those still to come never started.
// Two lines of the second row's narrowest card, 79 px at 1280 px, hold
// it: "Simulate → attempt limit: not drained" lost its "not drained".
// short is the label where that line is not shown (stat.Short): it says
// what the number is, a time ("to Stop: not drained" did not), for a run
// cut short; "" for one that drained.
func drainSub(end runEnd) (sub, short string) {
	switch end {
	case endStopped:
		return "Run → Stop: not drained", "time to Stop: not drained"
	case endSimStopped:
		return "Simulate → Stop: not drained", "time to Stop: not drained"
	case endLiveCapped:
		return "not drained: request limit", "time to the limit: not drained"
	case endCapped:
		return "not drained: page's limit", "time to the limit: not drained"
	case endSimulated:
		return "Simulate → last job done", ""
	}
	return "Run → last job done", ""
}

// giveUpsShort is the give-ups' label where their line is not shown, when
// the run's end cancelled some: "give-ups, 47 by Stop", "give-ups, 49.7k
// at limit" (short enough for the second row's narrowest card, as "49,699
// at the attempt limit" was not); "" when it cancelled none.
func giveUpsShort(st *fleet.Stats, end runEnd) string {
	if st.Cancelled == 0 {
		return ""
	}
	// The count kept with the word after it, the rest free to break:
	// "49.7k at limit" whole was wider than the card.
	if !end.byStop() {
		return "give-ups, " + together(short(st.Cancelled), "at") + " limit"
	}
	return "give-ups, " + together(short(st.Cancelled), "by") + " Stop"
}

// finishedText is the successes' figures, counts written by num. Of a
// finished run, out of every job it was set up with (jobs), and those it
// never started, as its PNG's numbers count them (keyNumbers): "of 200
// jobs", "of 200 · 127 not run" (the ones cancelled are the give-ups'
// figures, cancelledText). After Stop it read "of 19 finished · 10
// stopped", with 171 jobs never started unsaid. It is short enough for two
// lines of a 97 px card: "of 10,000,000 jobs · 9,966,911 never started"
// was cut after "never" (and "of 50,000 jobs · 16,912 never started" after
// "never" too); with num short it is "of 10M · 9.97M not run". Of a run
// going on (jobs 0), out of those finished so far, the jobs Stop cut short
// apart: "of 24 finished · 47 stopped".
//
// Each of its items is kept on one line (together): in the narrowest card
// "of 10M · 9.87M not run" broke between "not" and "run".
func finishedText(st *fleet.Stats, jobs int, num func(int) string) string {
	if jobs > 0 {
		if n := neverStarted(st, jobs); n > 0 {
			return together("of", num(jobs)) + itemSep + together(num(n), "not", "run")
		}
		return together("of", num(jobs), plural(jobs, "job", "jobs"))
	}
	t := together("of", num(st.Jobs-st.Cancelled), "finished")
	if st.Cancelled > 0 {
		t += itemSep + together(num(st.Cancelled), "stopped")
	}
	return t
}

// together joins words with no-break spaces: a count and what it counts
// stay on one line of a card, which breaks a line of its figures only
// between their items (itemSep).
func together(words ...string) string { return strings.Join(words, "\u00a0") }

// itemSep parts the items of a card's line ("3 timeouts · 12 aborted"):
// a line broken there breaks after the dot, not before it (the next line
// began "· 0 aborted"). A card draws each item as a box of its own, kept
// on one line where the card is wide enough (Numbers).
const itemSep = "\u00a0· "

// neverStarted is how many of the jobs a run was set up with it never
// began: Stop or a limit came first.
func neverStarted(st *fleet.Stats, jobs int) int { return max(0, jobs-st.Jobs) }

// cancelledText is the give-ups' figures: how many of them a run's end
// cancelled (written by num), "10 by Stop"; "" when it cancelled none ("0
// at the attempt limit" was said of every simulation).
func cancelledText(st *fleet.Stats, end runEnd, num func(int) string) string {
	if st.Cancelled == 0 {
		return ""
	}
	// "10 by Stop" on one line, "10k at the page's limit" on one or
	// broken before "page's limit" (too long for one line of the
	// narrowest card).
	words := strings.Fields(cutBy(end))
	if n := len(words); n > 2 {
		return together(append([]string{num(st.Cancelled)}, words[:n-2]...)...) + " " + together(words[n-2:]...)
	}
	return together(append([]string{num(st.Cancelled)}, words...)...)
}

// watchStatList is the panel's numbers during and after a watch of a shared
// room: what the server received from everyone, and what it answered.
func watchStatList(w watchStats) []stat {
	pct := func(n int) string { return percentOf(n, w.Arrivals) + " of requests" }
	list := []stat{
		{Name: "arrivals", Label: "requests received", Value: float64(w.Arrivals), Sub: "from everyone in the room", Primary: true},
		{Name: "devices", Label: "devices", Value: float64(w.Devices), Sub: "pages that sent requests", Primary: true},
		{Name: "allowed", Label: "allowed", Value: float64(w.OK), Sub: "answered 2xx", Figures: pct(w.OK), Primary: true},
		{Name: "limited", Label: "429s", Value: float64(w.Limited), Sub: "rejected (429 or 503)", Figures: pct(w.Limited) + " (429/503)", Primary: true}, // as a run's card says: an outage's 503s count (a review)
		{Name: "failed", Label: "other failures", Value: float64(w.Failed), Sub: "injected 500s, drops, hangs", Primary: true},
		{Name: "peak_rps", Label: "peak req/s", Value: float64(w.Peak), Sub: "most received in any " + together("1", "s"), Primary: true},
		{Name: "watched_ms", Label: "watch time", Value: float64(w.For) / float64(time.Millisecond), Text: fmtClock(w.For), Sub: "since the watch began", Primary: true},
	}
	for i := range list[:6] { // the counts, as a run's cards write them
		list[i].Text, list[i].Exact = short(int(list[i].Value)), thousands(int(list[i].Value))
	}
	return list
}

// fmtClock is a watch's time as a clock reads it, "1:38" or "1:02:05": a
// big number's tile holds it on one line (human.Duration's "1 min 38 s"
// wrapped onto two in presentation mode, growing the numbers' row
// mid-watch). It rounds to the second as the status's human.Measured
// does: cut, a watch of 98.6 s read "1:38" on its card and "1 min 39 s" in
// the status (a soak review).
func fmtClock(d time.Duration) string {
	s := int((max(d, 0) + time.Second/2) / time.Second)
	two := func(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }
	if s >= 3600 {
		return strconv.Itoa(s/3600) + ":" + two(s/60%60) + ":" + two(s%60)
	}
	return strconv.Itoa(s/60) + ":" + two(s%60)
}
