package ui

import (
	"math"
	"strconv"
	"strings"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core"
)

// The timeline is a canvas: what it shows is said in words too, for a
// screen reader (the canvas's aria-describedby), once a run is over.

// summaryMaxSlices is the most time slices the summary counts requests in:
// a long run's slices are whole multiples of the histogram's bins.
const summaryMaxSlices = 20

// summarySlices are the widths a summary's slices may take when the
// histogram's bins are too many to read out, narrowest first; past a day,
// 2, 5, 10, … days (niceSteps). A slice is a whole number of bins.
var summarySlices = []time.Duration{
	250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second,
	10 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute,
	30 * time.Minute, time.Hour, 6 * time.Hour, 24 * time.Hour,
}

// runSummary is a run's timelineSummary, kept with the histogram bin it
// counts in.
type runSummary struct {
	rec    *fleet.Recording
	watch  watchStats // a watch's counts, when it is a watch's (rec nil)
	bin    time.Duration
	faults int // the shown model's faultRev when it was made
	text   string
}

// timelineSummary is the text alternative of the finished run or watch
// shown, "" while there is none (before the first run, during a run or a
// watch). It
// is computed once per run, and again when the histogram drawing it takes
// other bins (the canvas got narrower or wider, a baseline's longer axis).
func (l *Lab) timelineSummary() string {
	if l.watched && !l.watching {
		bin := l.view.wholeBin(l.wstats.For)
		if l.summary.rec != nil || l.summary.watch != l.wstats || l.summary.bin != bin {
			l.summary = runSummary{watch: l.wstats, bin: bin, text: l.view.describeWatch(l.watchRoom, l.wstats, bin)}
		}
		return l.summary.text
	}
	if l.rec == nil || l.running {
		return ""
	}
	bin := l.view.wholeBin(l.stats.Drain)
	if rev := l.view.faultRev(); l.summary.rec != l.rec || l.summary.bin != bin || l.summary.faults != rev {
		l.summary.rec, l.summary.bin, l.summary.faults = l.rec, bin, rev
		if !l.rec.Simulated { // a simulation's are its own
			if fs, _, _, ok := l.view.told(l.rec.Start); ok {
				l.rec.SetFaults(fs) // as the exports have them
			}
		}
		// Shared: the run is over, and a copy of a big simulation's
		// 900,000 records held the page's thread for 1.3–1.7 s.
		l.summary.text = describeRun(l.rec, l.stats, l.rec.Shared(), bin)
	}
	return l.summary.text
}

// wholeBin is the bin of the histogram with the finished run shown whole
// (not zoomed in), at the canvas's width: the summary counts requests in
// it, as a sighted reader sees them counted. A view with no finished run
// (a test's) has it for a run of drain. It notes the bin given: when a
// frame lays the histogram out in others, onBin is called (noteBin).
func (v *view) wholeBin(drain time.Duration) time.Duration {
	v.mu.Lock()
	defer v.mu.Unlock()
	span := wholeSpan(drain)
	if v.m != nil && !v.running {
		span = v.span(0)
	}
	v.binSaid = newLayout(v.width, 1, span, v.theme).slice
	if m := v.shownModel(); m != nil {
		v.faultsSaid = m.faultRev
	}
	return v.binSaid
}

// faultRev is the shown model's faultRev, 0 with none.
func (v *view) faultRev() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if m := v.shownModel(); m != nil {
		return m.faultRev
	}
	return 0
}

// noteBin notes at a frame whether the histogram of the finished run shown
// whole has other bins than wholeBin last gave (v.width or v.theme changed
// since): the summary is then made again. v.mu must be held.
func (v *view) noteBin() {
	if v.binSaid == 0 || v.m == nil || v.running {
		return
	}
	if newLayout(v.width, 1, v.span(0), v.theme).slice != v.binSaid {
		v.binSaid, v.binMoved = 0, true
	}
	// A fault told after the summary was made (a burst's answer after
	// the run's end): the summary names it too.
	if m := v.shownModel(); m != nil && m.faultRev != v.faultsSaid {
		v.faultsSaid, v.binMoved = m.faultRev, true
	}
}

// describeRun says what the timeline of a finished run shows: who sent how
// many requests over how long and what the server answered, the requests
// per time slice by send time with the rejected and failed ones among
// them (the histogram, whose bins are bin), the server's limit, and what
// the workers waited for (the bars between attempts).
func describeRun(rec *fleet.Recording, st fleet.Stats, recs []fleet.Record, bin time.Duration) string {
	s := rec.Scenario
	var b strings.Builder
	switch {
	case rec.Simulated:
		b.WriteString("Timeline of the simulated run: ")
	case cutShort(&st, rec):
		b.WriteString("Timeline of the stopped run: ")
	default:
		b.WriteString("Timeline of the finished run: ")
	}
	over := " in " + human.Measured(st.Drain)
	if st.Drain == 0 { // a simulation with no latency: "in 0 µs"
		over = " at once"
	}
	b.WriteString(thousands(s.Workers) + plural(s.Workers, " worker", " workers") + " sent " + thousands(st.Requests) +
		plural(st.Requests, " request", " requests") + over + " (" + thousands(st.FirstTries) + plural(st.FirstTries, " first try, ", " first tries, ") +
		thousands(st.Retries) + plural(st.Retries, " retry", " retries") + "). Outcomes: ")
	answers := []struct {
		n    int
		what string
	}{
		{st.OK, "succeeded"}, {st.Limited, "rejected (429 or 503)"}, {st.Failed, "failed"},
		{st.Timeouts, "timed out"}, {st.Aborted - st.AbortedAtLimit, "aborted by Stop"},
		{st.AbortedAtLimit, "aborted at the page's limit"}, // a simulation's: nobody pressed Stop
	}
	var parts []string
	for _, a := range answers {
		if a.n > 0 {
			parts = append(parts, thousands(a.n)+" "+a.what)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	b.WriteString(strings.Join(parts, ", ") + ". ")
	if lim := limitsOf(&s); lim.serverLabel != "" {
		// "The server limit 10 req/s (burst 10);" had no verb (a review).
		b.WriteString("Server limit: " + strings.TrimPrefix(lim.serverLabel, "server limit ") + "; at most " + peakSent(st.PeakRPS))
	} else {
		b.WriteString("At most " + peakSent(st.PeakRPS))
	}
	b.WriteString(faultsText(rec.Faults(), rec.Start))
	slices, waits := sliceCounts(rec.Start, st.Drain, bin, recs)
	b.WriteString(slices)
	b.WriteString(waitText(waits))
	b.WriteString(giveUpsText(&st, rec))
	return b.String()
}

// giveUpsText counts the give-ups as their card does, the cancelled among
// them said apart with what cut them: " 32,481 give-ups: 22,482 gave up
// (out of attempts: 22,482), 9,999 cancelled at the page's limit."; " 3
// jobs gave up (…)." when none was cancelled. Why the others gave up is in
// the card's tooltip too, which a keyboard or a screen reader does not
// reach. (It counted the others only: "22,482 jobs gave up" beside a card
// of 32,481.)
func giveUpsText(st *fleet.Stats, rec *fleet.Recording) string {
	if st.GiveUps == 0 {
		return ""
	}
	n, why := st.GiveUps-st.Cancelled, ""
	if c := causeCounts(st.Causes); c != "" {
		why = " (" + c + ")"
	}
	if st.Cancelled == 0 {
		return " " + thousands(n) + plural(n, " job", " jobs") + " gave up" + why + "."
	}
	t := " " + thousands(st.GiveUps) + plural(st.GiveUps, " give-up: ", " give-ups: ")
	if n > 0 {
		t += thousands(n) + " gave up" + why + ", "
	}
	return t + thousands(st.Cancelled) + " cancelled " + cutBy(endOf(rec.Simulated, rec.Limited, true)) + "."
}

// sliceCounts counts the requests sent in each time slice of the run, and
// among them those rejected and failed (timed out included): "Requests
// sent per 1 s: 0 s–1 s 8 (4 rejected); 1 s–2 s 5; 2 s–3 s none." Its
// slices are the histogram's bins of bin, or, where the run holds more
// than summaryMaxSlices of them, whole numbers of bins ("Requests sent per
// 10 s (10 of the histogram's 1 s bins): …"), so that a screen reader and
// a sighted colleague find the same peaks. (They were slices of their
// own: 10 s against bins of 5 s, 0.5 s against 1 s.)
// It counts the waits between attempts by their reason on the way (one
// pass over a big simulation's records instead of two: they are read
// from memory, 176 bytes each).
func sliceCounts(start time.Time, drain, bin time.Duration, recs []fleet.Record) (string, waitCount) {
	// At most summaryMaxSlices, however long the run: a simulation over
	// 169 years was counted in 10-minute slices, 8.9 million of them (a
	// text of ~200 MB, the page frozen for 46 s).
	//
	// A job has one attempt in flight at most, and the job's next record
	// after it is its outcome: each worker's list holds the slices of its
	// attempts in flight only, one in a closed workload, a few in an open
	// one. (Keyed by every attempt, a map held 300,000 entries after a big
	// simulation; keyed by job, its hashing took 3/4 of the summary's
	// 125 ms, BenchmarkDescribeRun.)
	c := newSliceCounter(drain, bin)
	type flight struct{ job, slice int }
	var inFlight [][]flight // by worker
	var waits waitCount
	for i := range recs {
		r := &recs[i]
		if e := &r.Event; e.Kind == core.EventWait && int(e.Reason) < len(waits) {
			waits[e.Reason]++
		}
		if r.Worker < 0 {
			continue
		}
		if r.Worker >= len(inFlight) {
			inFlight = append(inFlight, make([][]flight, r.Worker+1-len(inFlight))...)
		}
		fl := inFlight[r.Worker]
		switch r.Event.Kind {
		case core.EventAttempt:
			inFlight[r.Worker] = append(fl, flight{r.Job, c.add(r.Event.At.Sub(start))})
		case core.EventOutcome:
			for j := range fl {
				if fl[j].job == r.Job {
					c.answer(fl[j].slice, fleet.Classify(r.Event.Outcome))
					fl[j] = fl[len(fl)-1]
					inFlight[r.Worker] = fl[:len(fl)-1]
					break
				}
			}
		}
	}
	return c.text("Requests sent per "), waits
}

// sliceCounter counts requests in a summary's time slices (summaryWidth),
// and the rejected and failed among them.
type sliceCounter struct {
	bin, width time.Duration
	counts     []sliceCount
}

type sliceCount struct{ sent, rejected, failed int }

func newSliceCounter(span, bin time.Duration) *sliceCounter {
	bin = max(bin, time.Millisecond)
	width := summaryWidth(span, bin)
	return &sliceCounter{bin: bin, width: width, counts: make([]sliceCount, max(1, int((span+width-1)/width)))}
}

// add counts a request at t (since the start) and returns its slice.
func (c *sliceCounter) add(t time.Duration) int {
	i := min(len(c.counts)-1, max(0, int(t/c.width)))
	c.counts[i].sent++
	return i
}

// answer counts the answer of a request of slice i.
func (c *sliceCounter) answer(i int, class fleet.Class) {
	switch class {
	case fleet.ClassLimited:
		c.counts[i].rejected++
	case fleet.ClassFailed, fleet.ClassTimeout:
		c.counts[i].failed++
	}
}

// text writes the counts after head: "Requests sent per 1 s: 0 s–1 s 8 (4
// rejected); 1 s–2 s 5; 2 s–3 s none."
func (c *sliceCounter) text(head string) string {
	width, bin := c.width, c.bin
	parts := make([]string, len(c.counts))
	for i, c := range c.counts {
		p := sliceText(time.Duration(i)*width, width) + "–" + sliceText(time.Duration(i+1)*width, width) + " "
		switch {
		case c.sent == 0:
			p += "none"
		default:
			p += thousands(c.sent)
			var of []string
			if c.rejected > 0 {
				of = append(of, thousands(c.rejected)+" rejected")
			}
			if c.failed > 0 {
				of = append(of, thousands(c.failed)+" failed")
			}
			if of != nil {
				p += " (" + strings.Join(of, ", ") + ")"
			}
		}
		parts[i] = p
	}
	head += sliceText(width, width)
	if width != bin {
		head += " (" + strconv.FormatInt(int64(width/bin), 10) + " of the histogram's " + secondsLabel(bin, bin, bin) + " bins)"
	}
	return head + ": " + strings.Join(parts, "; ") + "."
}

// summaryWidth is the width of the summary's slices for a run of drain
// whose histogram has bins of bin: bin, while the run holds at most
// summaryMaxSlices of them; past that, the narrowest of
// niceSteps(summarySlices) that is a whole number of bins and makes few
// enough slices (a bin of 2 s: 10 s, not 5 s); failing that, the fewest
// whole bins that do. bin must be positive.
func summaryWidth(drain, bin time.Duration) time.Duration {
	fits := func(w time.Duration) bool { return float64(drain) <= float64(w)*summaryMaxSlices }
	if fits(bin) {
		return bin
	}
	for w := range niceSteps(summarySlices) {
		if w > bin && w%bin == 0 && fits(w) {
			return w
		}
	}
	k := math.Ceil(float64(drain) / summaryMaxSlices / float64(bin))
	return bin * time.Duration(k)
}

// sliceText writes d, a multiple of a summary's slices of width, in
// seconds without trailing zeros ("0.25 s", "2 s"), or in hours or days
// when width is whole ones ("5000 d").
func sliceText(d, width time.Duration) string {
	if width%time.Hour == 0 {
		return secondsLabel(d, width, width)
	}
	return trimFloat(d.Seconds()) + " s"
}

// waitCount is how many waits between attempts there were of each reason.
type waitCount [len(waitReasons)]int

// waitText says the waits by their reason: " Waits: 30 backoff, 7
// Retry-After." A fleet bucket's come before first tries too: "Waits
// between attempts: 99 fleet bucket" was said of a run with no retries (a
// review).
func waitText(n waitCount) string {
	var parts []string
	for _, r := range waitReasons {
		if c := n[r]; c > 0 {
			parts = append(parts, thousands(c)+" "+reasonLabel[r])
		}
	}
	if parts == nil {
		return " No waits."
	}
	return " Waits: " + strings.Join(parts, ", ") + "."
}

// summaryMaxFaults is the most faults the summary names; the rest it counts.
const summaryMaxFaults = 5

// faultsText names what the server was made to do during a run or a watch
// that began at start, in the canvas's words, each with its time: "Faults:
// the server was down from 3 s to 6 s; the limit was halved (limit ×0.5)
// from 5 s to 10 s; a burst of 20 requests at 7.2 s, 0 admitted. " "" when
// nothing.
func faultsText(fs []fleet.Fault, start time.Time) string {
	if len(fs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Faults: ")
	for i, f := range fs {
		if i > 0 {
			b.WriteString("; ")
		}
		if i == summaryMaxFaults {
			b.WriteString("and " + thousands(len(fs)-i) + " more")
			break
		}
		from := faultTime(f.From.Sub(start))
		span := " from " + from + " to " + faultTime(f.Until.Sub(start))
		switch f.Kind {
		case "outage":
			b.WriteString("the server was down" + span)
		case "limit":
			how := "lowered"
			switch f.Scale {
			case LimitScale:
				how = "halved"
			case 1:
				how = "set back"
			}
			b.WriteString("the limit was " + how + " (limit ×" + trimFloat(f.Scale) + ")" + span)
		default: // a burst
			if !f.From.Before(start) {
				from = "at " + from
			}
			b.WriteString("a burst of " + thousands(f.N) + plural(f.N, " request", " requests") + " " + from + ", " + thousands(f.Admitted) + " admitted")
		}
	}
	return b.String() + ". "
}

// faultTime is when a fault began or ended, d after the run's start, as
// the summary says it: in seconds ("7.25 s") under a minute, past it in
// two units ("1 h 20 min": a long simulation's faults read "4800 s"), and
// "before the run" for a fault already on when the run began (it read
// "0 s").
func faultTime(d time.Duration) string {
	switch {
	case d < 0:
		return "before the run"
	case d < time.Minute-5*time.Millisecond:
		return trimFloat(d.Seconds()) + " s"
	}
	return human.Duration(d)
}

// peakSent ends the summary's sentence on the peak: "1 request was sent
// in any one second." (it said "1 requests were").
func peakSent(n int) string {
	return thousands(n) + plural(n, " request was", " requests were") + " sent in any one second. "
}

// succeededOf says how many of jobs succeeded: "1 of 1 job succeeded",
// "98 of 1,000 jobs succeeded".
func succeededOf(ok, jobs int) string {
	return thousands(ok) + " of " + thousands(jobs) + " " + plural(jobs, "job", "jobs") + " succeeded"
}

// describeWatch says what the timeline of a finished watch shows (st its
// counts): who sent how many requests to the room over how long, what the
// server answered, and the requests received per time slice (the
// histogram's bins of bin), with the rejected and failed among them. A
// watch had no text alternative: the canvas's name promised one (an
// accessibility review).
func (v *view) describeWatch(room string, st watchStats, bin time.Duration) string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || !v.m.watch {
		return ""
	}
	var b strings.Builder
	b.WriteString("Timeline of the watch of room “" + room + "” over " + human.Measured(st.For) + ": " + thousands(st.Arrivals) +
		plural(st.Arrivals, " request", " requests") + " reached the server")
	if st.Devices > 0 { // pages in the room; curl's and a burst's have no device
		b.WriteString(" from " + thousands(st.Devices) + plural(st.Devices, " device", " devices"))
	}
	b.WriteString(" (" + thousands(st.OK) + " allowed, " + thousands(st.Limited) + " rejected with 429 or 503, " + thousands(st.Failed) + " failed)")
	if st.Arrivals > 0 {
		b.WriteString(", at most " + thousands(st.Peak) + " in one second")
	}
	b.WriteString(". " + faultsText(v.m.faults(), v.m.start))
	c := newSliceCounter(st.For, bin)
	for i := range v.m.arrivals {
		a := &v.m.arrivals[i]
		c.answer(c.add(a.at), a.class)
	}
	b.WriteString(c.text("Requests received per "))
	if st.Dropped > 0 || st.LostFor > 0 {
		b.WriteString(" Not all were seen: " + strings.TrimPrefix(droppedText(st.Dropped)+lostText(st.LostFor), "; ") + ".")
	}
	return b.String()
}
