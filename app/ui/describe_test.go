//go:build !(js && wasm)

package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/app/mock"
	"retrylab/core"
	"retrylab/core/sim"
)

// TestTimelineSummary: a finished run's timeline is said in words for a
// screen reader: who sent what and what the server answered, the requests
// per time slice by send time with the rejected ones among them (the
// histogram), the server's limit, and the waits by reason.
func TestTimelineSummary(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := time.Millisecond
	s := fleet.Default()
	s.Workers, s.Jobs = 2, 1
	s.Mock.Rate, s.Mock.Burst = 1, 1
	recs := []fleet.Record{
		{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: t0, Attempt: 1}},
		{Worker: 1, Event: core.Event{Kind: core.EventAttempt, At: t0.Add(100 * ms), Attempt: 1}},
		{Worker: 0, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(50 * ms), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
		{Worker: 0, Event: core.Event{Kind: core.EventWait, At: t0.Add(50 * ms), Attempt: 2, Wait: time.Second, Reason: core.ReasonRetryAfter}},
		{Worker: 1, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(150 * ms), Attempt: 1, Outcome: core.Outcome{Status: 200}}},
		{Worker: 1, Event: core.Event{Kind: core.EventDone, At: t0.Add(150 * ms), Attempt: 1}},
		{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: t0.Add(1050 * ms), Attempt: 2}},
		{Worker: 0, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(1100 * ms), Attempt: 2, Outcome: core.Outcome{Status: 200}}},
		{Worker: 0, Event: core.Event{Kind: core.EventDone, At: t0.Add(1100 * ms), Attempt: 2}},
	}
	rec := &fleet.Recording{Start: t0, Scenario: s}
	rec.Append(recs...)
	l := newLab()
	if got := l.timelineSummary(); got != "" {
		t.Errorf("before a run the timeline is summarised: %q", got)
	}
	l.rec, l.stats = rec, fleet.StatsOf(t0, recs)
	got := l.timelineSummary()
	for _, want := range []string{
		"Timeline of the finished run: 2 workers sent 3 requests in 1.10 s (2 first tries, 1 retry).",
		"Outcomes: 2 succeeded, 1 rejected (429 or 503).",
		"Outcomes: 2 succeeded, 1 rejected (429 or 503). Server limit: 1 req/s (burst 1); at most 2 requests were sent in any one second.",
		"Requests sent per 0.25 s: 0 s–0.25 s 2 (1 rejected); 0.25 s–0.5 s none; 0.5 s–0.75 s none; 0.75 s–1 s none; 1 s–1.25 s 1.",
		" Waits: 1 Retry-After.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	out := renderHTML(&Timeline{Lab: l, Summary: got})
	if c := tagWith(out, `id="timeline"`); !strings.Contains(c, `aria-describedby="timeline-summary tooltip"`) {
		t.Errorf("the canvas is not described by its summary: %s", c)
	}
	if !strings.Contains(out, `id="timeline-summary"`) || !strings.Contains(out, "2 workers sent 3 requests") {
		t.Error("the summary is not on the page")
	}
	l.running, l.rec = true, nil
	if got := l.timelineSummary(); got != "" {
		t.Errorf("during a run the timeline is summarised: %q", got)
	}
}

// The description says why the jobs that gave up did, which the give-ups
// card says only in its tooltip, out of reach of a keyboard or a screen
// reader; the cancelled are not among them.
func TestSummarySaysWhyJobsGaveUp(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := fleet.Default()
	s.Workers, s.Jobs = 3, 1
	gaveUp := func(w int, cause error) []fleet.Record {
		return []fleet.Record{
			{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: t0, Attempt: 1}},
			{Worker: w, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(time.Second), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
			{Worker: w, Event: core.Event{Kind: core.EventDone, At: t0.Add(time.Second), Attempt: 1, Err: &core.StopError{Cause: cause, Attempts: 1}}},
		}
	}
	var recs []fleet.Record
	recs = append(recs, gaveUp(0, core.ErrBudgetEmpty)...)
	recs = append(recs, gaveUp(1, core.ErrBudgetEmpty)...)
	recs = append(recs, gaveUp(2, core.ErrExhausted)...)
	rec := fleet.NewRecording(s, t0, true)
	rec.Append(recs...)
	st := fleet.StatsOf(t0, recs)
	got := describeRun(rec, st, recs, histBin(st.Drain))
	if want := " 3 jobs gave up (out of attempts: 1; retry budget empty: 2)."; !strings.Contains(got, want) {
		t.Errorf("want %q in\n%s", want, got)
	}
}

// The description says what aborted attempts: Stop, or a simulation's
// attempt limit, where nobody pressed Stop (10,000 workers × 1,000 jobs
// were said to have "238 aborted by Stop").
func TestSummarySaysWhatAborted(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := fleet.Default()
	s.Workers, s.Jobs = 1, 1
	for _, c := range []struct {
		name      string
		simulated bool
		err       error
		want, not string
	}{
		{"Stop", false, context.Canceled, "Outcomes: 1 aborted by Stop.", "attempt limit"},
		{"the attempt limit", true, fmt.Errorf("sim: attempt aborted: %w (%w)", context.Canceled, sim.ErrLimit), "Outcomes: 1 aborted at the page's limit.", "Stop"},
	} {
		recs := []fleet.Record{
			{Event: core.Event{Kind: core.EventAttempt, At: t0, Attempt: 1}},
			{Event: core.Event{Kind: core.EventOutcome, At: t0.Add(time.Second), Attempt: 1, Outcome: core.Outcome{Err: c.err}}},
		}
		rec := fleet.NewRecording(s, t0, c.simulated)
		rec.Append(recs...)
		st := fleet.StatsOf(t0, recs)
		got := describeRun(rec, st, recs, histBin(st.Drain))
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s: want %q and no %q in\n%s", c.name, c.want, c.not, got)
		}
	}
}

// The description's counts agree with their nouns, and a run of no
// length is said to be at once: one worker's one request read "1 first
// tries", "at most 1 requests were sent" and "in 0 µs".
func TestSummaryGrammar(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := fleet.Default()
	s.Workers, s.Jobs = 1, 1
	for _, c := range []struct {
		name      string
		took      time.Duration
		want, not []string
	}{
		{"one request, 1 s", time.Second, []string{"1 worker sent 1 request in 1.00 s (1 first try, 0 retries)", "at most 1 request was sent in any one second."}, []string{"first tries", "1 requests"}},
		{"one request, no time", 0, []string{"1 worker sent 1 request at once (1 first try, 0 retries)"}, []string{"µs", " in 0"}},
	} {
		recs := []fleet.Record{
			{Event: core.Event{Kind: core.EventAttempt, At: t0, Attempt: 1}},
			{Event: core.Event{Kind: core.EventOutcome, At: t0.Add(c.took), Attempt: 1, Outcome: core.Outcome{Status: 200}}},
			{Event: core.Event{Kind: core.EventDone, At: t0.Add(c.took), Attempt: 1}},
		}
		rec := fleet.NewRecording(s, t0, true)
		rec.Append(recs...)
		st := fleet.StatsOf(t0, recs)
		got := describeRun(rec, st, recs, histBin(st.Drain))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: want %q in\n%s", c.name, w, got)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: want no %q in\n%s", c.name, n, got)
			}
		}
	}
}

// TestSummarySlicesALongRun: a long run is counted in at most
// summaryMaxSlices wider slices, however long: a simulation over 169
// years was counted in 8.9 million slices of 10 minutes.
func TestSummarySlicesALongRun(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		name  string
		every time.Duration // between the 100 attempts
		want  string
		n     int
	}{
		{"90 s", 900 * time.Millisecond, "Requests sent per 5 s (5 of the histogram's 1 s bins): 0 s–5 s 6; 5 s–10 s 6; 10 s–15 s 5;", 18},
		{"10 hours", 6 * time.Minute, "Requests sent per 1800 s (6 of the histogram's 300 s bins): 0 s–1800 s 5;", 20},
		{"169 years", 169 * 365 * 24 * time.Hour / 100, "Requests sent per 5000 d (10 of the histogram's 500 d bins): 0 d–5000 d 9; 5000 d–10000 d 8;", 13},
	} {
		var recs []fleet.Record
		for i := range 100 {
			recs = append(recs, fleet.Record{Worker: i, Event: core.Event{Kind: core.EventAttempt, At: t0.Add(time.Duration(i) * c.every), Attempt: 1}})
		}
		got, _ := sliceCounts(t0, 100*c.every, histBin(100*c.every), recs)
		if !strings.HasPrefix(got, c.want) || strings.Count(got, ";") != c.n-1 {
			t.Errorf("%s: %.200q, want it to start %q, in %d slices", c.name, got, c.want, c.n)
		}
	}
}

// TestRunAnnouncedOnce: while a run goes on the status counts its
// requests, several times a second; what of it a screen reader is told
// (the live region #run-status, less what is aria-hidden) does not change
// with the counts. Once the run is over it is told the outcome.
func TestRunAnnouncedOnce(t *testing.T) {
	// spoken is the live region's text, as a screen reader has it, and all
	// of its text, as seen.
	spoken := func(out string) (said, shown string) {
		i := strings.Index(out, `id="run-status"`)
		if i < 0 {
			t.Fatal("no #run-status")
		}
		if tag := tagWith(out, `id="run-status"`); !strings.Contains(tag, `aria-live="polite"`) {
			t.Fatalf("the status is no live region: %s", tag)
		}
		inner := out[i+strings.Index(out[i:], ">")+1:]
		inner = inner[:strings.Index(inner, "</p>")]
		shown = inner
		// The static encoder prints aria-hidden="true" bare.
		if h := strings.Index(inner, `<span aria-hidden`); h >= 0 {
			rest := inner[h:]
			said = inner[:h]
			shown = inner[:h] + strings.TrimSuffix(rest[strings.Index(rest, ">")+1:], "</span>")
		} else {
			said = inner
		}
		// (and indents the elements it prints: the page has no space there)
		return strings.TrimSpace(said), strings.ReplaceAll(strings.Join(strings.Fields(shown), " "), " :", ":")
	}
	l := newLab()
	l.running = true
	var said, shown []string
	for n := range 3 {
		l.stats = fleet.Stats{Requests: 10 * n, Jobs: n}
		sa, sh := spoken(renderHTML(&RunBar{Lab: l, Rev: l.cfgRev, RunRev: n}))
		said, shown = append(said, sa), append(shown, sh)
	}
	if said[0] != said[1] || said[1] != said[2] || said[0] != "Running" {
		t.Errorf("what is announced changes with the counts: %q", said)
	}
	if !strings.Contains(shown[2], "Running: 20 requests sent, 2 of") {
		t.Errorf("the counts are not shown: %q", shown[2])
	}
	l.running = false
	l.rec = &fleet.Recording{Scenario: l.s}
	l.stats = fleet.Stats{Successes: 3, Jobs: 3, Drain: 2 * time.Second}
	if sa, _ := spoken(renderHTML(&RunBar{Lab: l, Rev: l.cfgRev, RunRev: 9})); !strings.HasPrefix(sa, "Finished: 3 of 3 jobs succeeded") {
		t.Errorf("the run's outcome is not announced: %q", sa)
	}
}

// A run Stop cut short between an open workload's arrivals cancelled no
// job; its summary still says it was stopped (cutShort, as the numbers do).
func TestSummarySaysStopBetweenArrivals(t *testing.T) {
	t0 := time.Unix(1000, 0)
	s := fleet.Default()
	s.Workers, s.Jobs = 2, 5
	recs := []fleet.Record{
		{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: t0, Attempt: 1}},
		{Worker: 0, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(time.Millisecond), Attempt: 1, Outcome: core.Outcome{Status: 200}}},
		{Worker: 0, Event: core.Event{Kind: core.EventDone, At: t0.Add(time.Millisecond), Attempt: 1}},
	}
	rec := &fleet.Recording{Start: t0, Scenario: s, Stopped: true}
	rec.Append(recs...)
	st := fleet.StatsOf(t0, recs)
	if got := describeRun(rec, st, recs, histBin(st.Drain)); !strings.HasPrefix(got, "Timeline of the stopped run: ") {
		t.Errorf("a run stopped with 1 of 10 jobs ended reads %q", got)
	}
}

// histBin is the histogram's bin for a finished run of drain shown whole
// on a canvas 1,000 px wide.
func histBin(drain time.Duration) time.Duration {
	return newLayout(1000, 1, wholeSpan(drain), &normalTheme).slice
}

// syntheticRun is a run of workers, each sending attempts at random times
// over took, every third rejected: its recording and numbers, and its
// model as the page draws it (view.load).
func syntheticRun(workers int, took time.Duration, seed uint64) (*fleet.Recording, fleet.Stats, *model) {
	t0 := time.Unix(1000, 0)
	rnd := rand.New(rand.NewPCG(seed, 1))
	s := fleet.Default()
	s.Workers, s.Jobs = workers, 1
	var recs []fleet.Record
	for w := range workers {
		var at time.Duration
		for a := 1; ; a++ {
			at += time.Duration(rnd.Int64N(int64(took) / 8))
			if at >= took || a > 40 {
				recs = append(recs, fleet.Record{Worker: w, Event: core.Event{Kind: core.EventDone, At: t0.Add(at), Attempt: a - 1}})
				break
			}
			status := 200
			if rnd.IntN(3) == 0 {
				status = 429
			}
			recs = append(recs,
				fleet.Record{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: t0.Add(at), Attempt: a}},
				fleet.Record{Worker: w, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(at), Attempt: a, Outcome: core.Outcome{Status: status}}},
				fleet.Record{Worker: w, Event: core.Event{Kind: core.EventWait, At: t0.Add(at), Attempt: a + 1, Wait: time.Millisecond, Reason: core.ReasonBackoff}})
		}
	}
	slices.SortStableFunc(recs, func(a, b fleet.Record) int { return a.Event.At.Compare(b.Event.At) })
	rec := fleet.NewRecording(s, t0, true)
	rec.Append(recs...)
	m := newModelFor(t0, workers, recs)
	for i := range recs {
		m.add(&recs[i])
	}
	end, _ := rec.End()
	m.finish(m.since(end))
	return rec, fleet.StatsOf(t0, recs), m
}

// sliceNumbers reads a summary's requests per slice: its slices' width,
// what it says of the histogram's bins ("" or "5 of the histogram's 1 s
// bins"), and each slice's count (none: 0).
func sliceNumbers(t *testing.T, text string) (width, bins string, counts []int) {
	t.Helper()
	i := strings.Index(text, "Requests sent per ")
	if i < 0 {
		t.Fatalf("no requests per slice in %q", text)
	}
	text = text[i+len("Requests sent per "):]
	if end := strings.Index(text, ". "); end >= 0 { // the waits' sentence after it
		text = text[:end+1]
	}
	head, list, _ := strings.Cut(text, ": ")
	width, bins, _ = strings.Cut(head, " (")
	bins = strings.TrimSuffix(bins, ")")
	for _, p := range strings.Split(strings.TrimSuffix(list, "."), "; ") {
		_, after, _ := strings.Cut(p, "–") // "0 s–1 s 8 (4 rejected)": after the range's end
		f := strings.Fields(after)
		if len(f) < 3 {
			t.Fatalf("slice %q in %q", p, list)
		}
		n := 0
		if f[2] != "none" {
			v, err := strconv.Atoi(strings.ReplaceAll(f[2], ",", ""))
			if err != nil {
				t.Fatalf("slice %q: %v", p, err)
			}
			n = v
		}
		counts = append(counts, n)
	}
	return width, bins, counts
}

// TestSummaryCountsInTheHistogramsBins: the summary counts requests in the
// bins the histogram draws, or in slices of whole bins where those are too
// many to read out (and says so), so that its peaks are the histogram's.
// It counted in slices of its own: a 10 s run in 0.5 s slices beside bins
// of 1 s; 2 min 44 s of 500 workers in 10 s slices beside bins of 5 s.
func TestSummaryCountsInTheHistogramsBins(t *testing.T) {
	for _, c := range []struct {
		workers int
		took    time.Duration
	}{{20, 3 * time.Second}, {20, 10 * time.Second}, {50, 45 * time.Second}, {50, 164 * time.Second}, {20, 10 * time.Minute}, {10, 30 * time.Hour}} {
		rec, st, m := syntheticRun(c.workers, c.took, uint64(c.took))
		for _, f := range []struct {
			width float64
			th    *theme
		}{{1000, &normalTheme}, {300, &normalTheme}, {1280, &presentTheme}} {
			l := newLayout(f.width, c.workers, wholeSpan(m.last), f.th)
			bins := m.histogram(l.slice, 0, l.bins())
			text := describeRun(rec, st, rec.Records(), l.slice)
			width, said, counts := sliceNumbers(t, text)
			name := fmt.Sprintf("%s run, %.0f px %s", human.Duration(c.took), f.width, f.th.name)
			k := 1 // bins to a slice, as the summary says
			if said != "" {
				fmt.Sscanf(said, "%d", &k)
				if want := fmt.Sprintf("%d of the histogram's %s bins", k, secondsLabel(l.slice, l.slice, l.slice)); said != want {
					t.Errorf("%s: the histogram's bins are %v, the summary says %q", name, l.slice, said)
				}
			}
			if want := sliceText(time.Duration(k)*l.slice, time.Duration(k)*l.slice); width != want {
				t.Errorf("%s: slices of %s, want %d bins of %v: %s", name, width, k, l.slice, want)
			}
			if len(counts) > summaryMaxSlices {
				t.Errorf("%s: %d slices", name, len(counts))
			}
			for i, n := range counts {
				sum := 0
				for b := i * k; b < min(len(bins), (i+1)*k); b++ {
					for _, v := range bins[b] {
						sum += v
					}
				}
				if n != sum {
					t.Errorf("%s: slice %d of %s says %d requests, the histogram's bins %d–%d of %v hold %d", name, i, width, n, i*k, (i+1)*k-1, l.slice, sum)
					break
				}
			}
		}
	}
}

// TestSummaryFollowsTheCanvas: the page's summary counts in the bins the
// histogram is drawn in at the canvas's width, and is made again when a
// frame draws it at a width that takes other bins (the bins of a 60 s run
// are 1 s at 1,000 px, 2 s at 300 px).
func TestSummaryFollowsTheCanvas(t *testing.T) {
	rec, st, m := syntheticRun(20, 60*time.Second, 7)
	l := newLab()
	l.view.m, l.view.width = m, 1000
	l.rec, l.stats = rec, st
	if got := l.timelineSummary(); !strings.Contains(got, "Requests sent per 5 s (5 of the histogram's 1 s bins): ") {
		t.Errorf("at 1,000 px: %.400s", got)
	}
	called := 0
	l.view.setOnBin(func() { called++ })
	l.view.mu.Lock()
	l.view.width = 300 // as a frame finds the canvas
	l.view.mu.Unlock()
	l.view.frame()
	if called != 1 {
		t.Errorf("a frame at 300 px asked for the summary again %d times, want 1", called)
	}
	if got := l.timelineSummary(); !strings.Contains(got, "Requests sent per 10 s (5 of the histogram's 2 s bins): ") {
		t.Errorf("at 300 px: %.400s", got)
	}
	l.view.frame()
	if called != 1 {
		t.Errorf("the next frame asked again (%d)", called)
	}
}

// TestWatchClockAgreesWithTheStatus: the watch time card (fmtClock) and
// the status (human.Measured) give a watch the same seconds.
func TestWatchClockAgreesWithTheStatus(t *testing.T) {
	for _, tt := range []struct {
		d             time.Duration
		clock, status string
	}{
		{98600 * time.Millisecond, "1:39", "1 min 39 s"},
		{98400 * time.Millisecond, "1:38", "1 min 38 s"},
		{59999 * time.Millisecond, "1:00", "1 min"},
		{3725 * time.Second, "1:02:05", "1 h 2 min"},
		{0, "0:00", ""},
		{-time.Second, "0:00", ""},
	} {
		if got := fmtClock(tt.d); got != tt.clock {
			t.Errorf("fmtClock(%v) = %q, want %q", tt.d, got, tt.clock)
		}
		if got := human.Measured(tt.d); tt.status != "" && got != tt.status {
			t.Errorf("human.Measured(%v) = %q, want %q", tt.d, got, tt.status)
		}
	}
}

// The timeline's text reads the finished run's records where they are: a
// copy of a big simulation's 900,000 records held the page's thread for
// 1.3–1.7 s after the simulation (BenchmarkResponsiveSimulate). It
// allocates far less than the records take.
func TestTimelineSummaryCopiesNoRecords(t *testing.T) {
	s := fleet.Default()
	s.Workers, s.Jobs, s.Mock.Rate, s.Mock.Burst = 2000, 10, 500, 100
	rec := fleet.Simulate(s)
	if rec.Err != nil {
		t.Fatal(rec.Err)
	}
	l := newLab()
	l.s = s
	l.rec, l.stats = rec, rec.Stats()
	size := uint64(rec.Len()) * uint64(unsafe.Sizeof(fleet.Record{}))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	text := l.timelineSummary()
	runtime.ReadMemStats(&after)
	if text == "" {
		t.Fatal("no summary")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size/4 {
		t.Errorf("the summary of %d records (%d MB) allocated %d MB", rec.Len(), size>>20, got>>20)
	}
}

// The description names what the server was made to do during the run, as
// the canvas draws it ("server down", "limit ×0.5", "burst ×40, 20
// admitted"), each with its time: a live run's faults as its stream told
// the timeline, a simulation's scheduled outage, a watch's; a long list
// is cut, saying how many more. A screen reader heard nothing of them.
func TestSummarySaysTheFaults(t *testing.T) {
	l := newLab()
	l.view.start(l.s, t0, "")
	for _, r := range oneJob() {
		l.view.onRecord(r)
	}
	for _, e := range []mock.Event{
		{Type: "outage", Key: "k", At: at(500), Until: at(3500)},
		{Type: "limit", Key: "k", At: at(600), Until: at(5600), Scale: 0.5},
		{Type: "outage", Key: "k", At: at(2000), Until: at(5000)}, // Outage again inside it: the same stretch, longer
		{Type: "burst", Key: "k", At: at(7250), N: 40, Admitted: 20},
	} {
		b, _ := json.Marshal(e)
		l.view.onServerEvent(string(b))
	}
	l.view.finish(at(1150))
	l.rec = fleet.NewRecording(l.s, t0, false)
	l.rec.Append(oneJob()...)
	l.rec.Finish(at(1150))
	l.stats = l.rec.Stats()
	want := " Faults: the server was down from 0.5 s to 5 s; the limit was halved (limit ×0.5) from 0.6 s to 5.6 s; a burst of 40 requests at 7.25 s, 20 admitted. Requests sent per "
	if got := l.timelineSummary(); !strings.Contains(got, want) {
		t.Errorf("a live run's summary\n%s\nwant %q in it", got, want)
	}
	// A burst told after the summary was made (its answer after the
	// run's end): the frame that takes it in has the summary made again.
	b, _ := json.Marshal(mock.Event{Type: "burst", Key: "k", At: at(8000), N: 10, Admitted: 0})
	l.view.onServerEvent(string(b))
	l.view.mu.Lock()
	l.view.ingest()
	l.view.noteBin()
	moved := l.view.binMoved
	l.view.mu.Unlock()
	if got := l.timelineSummary(); !moved || !strings.Contains(got, "a burst of 10 requests at 8 s, 0 admitted") {
		t.Errorf("a burst told after the summary: the frame called for it again %v; it says\n%s", moved, got)
	}

	p, _ := fleet.PresetByID("outage")
	sim := newLab()
	sim.rec = fleet.Simulate(p.Scenario())
	sim.stats = sim.rec.Stats()
	if got, want := sim.timelineSummary(), " Faults: the server was down from 3 s to 6 s. "; !strings.Contains(got, want) {
		t.Errorf("preset %q simulated:\n%s\nwant %q in it", p.Title, got, want)
	}

	rec := fleet.NewRecording(l.s, t0, false)
	rec.Append(oneJob()...)
	var fs []fleet.Fault
	for i := range 8 {
		fs = append(fs, fleet.Fault{Kind: "burst", From: at(1000 * i), N: 20, Admitted: 1})
	}
	rec.SetFaults(fs)
	st := rec.Stats()
	got := describeRun(rec, st, rec.Records(), time.Second)
	if want := "a burst of 20 requests at 4 s, 1 admitted; and 3 more. "; !strings.Contains(got, want) || strings.Contains(got, "at 5 s") {
		t.Errorf("8 bursts:\n%s\nwant %q and no more", got, want)
	}
	rec.SetFaults(nil)
	if got := describeRun(rec, st, rec.Records(), time.Second); strings.Contains(got, "Faults") {
		t.Errorf("a run with no faults: %s", got)
	}

	v := watchedView(t, at(2000),
		mock.Event{Type: "arrival", Seq: 1, Tag: "heron-4k2.w0.j0.a1", At: at(100), Outcome: "ok", Status: 200},
		mock.Event{Type: "outage", At: at(1000), Until: at(4000)},
	)
	ws := v.watchStats()
	ws.For = 2 * time.Second
	if got, want := v.describeWatch("workshop", ws, time.Second), " Faults: the server was down from 1 s to 4 s."; !strings.Contains(got, want) {
		t.Errorf("a watch's summary\n%s\nwant %q in it", got, want)
	}
}

// TestFaultTimes: the summary says a fault's times as the run reads
// them. A long simulation's faults were said in seconds ("4800 s"), a
// fault already on when the run began "from 0 s", and any scale of the
// limit but a half "scaled".
func TestFaultTimes(t *testing.T) {
	for _, c := range []struct {
		f    fleet.Fault
		want string
	}{
		{fleet.Fault{Kind: "outage", From: at(-2000), Until: at(3000)}, "the server was down from before the run to 3 s"},
		{fleet.Fault{Kind: "outage", From: at(59_994), Until: at(60_000)}, "the server was down from 59.99 s to 1 min"},
		{fleet.Fault{Kind: "outage", From: at(4_800_000), Until: at(5_400_000)}, "the server was down from 1 h 20 min to 1 h 30 min"},
		{fleet.Fault{Kind: "limit", From: at(90_000), Until: at(95_500), Scale: 0.5}, "the limit was halved (limit ×0.5) from 1 min 30 s to 1 min 36 s"},
		{fleet.Fault{Kind: "limit", From: at(1000), Until: at(2000), Scale: 0.25}, "the limit was lowered (limit ×0.25) from 1 s to 2 s"},
		{fleet.Fault{Kind: "limit", From: at(1000), Until: at(2000), Scale: 1}, "the limit was set back (limit ×1) from 1 s to 2 s"},
		{fleet.Fault{Kind: "burst", From: at(-10), N: 1, Admitted: 1}, "a burst of 1 request before the run, 1 admitted"},
		{fleet.Fault{Kind: "burst", From: at(86_400_000), N: 5, Admitted: 0}, "a burst of 5 requests at 1 d, 0 admitted"},
	} {
		if got, want := faultsText([]fleet.Fault{c.f}, t0), "Faults: "+c.want+". "; got != want {
			t.Errorf("%+v:\n got %q\nwant %q", c.f, got, want)
		}
	}
}

// The description counts the give-ups as their card does, the cancelled
// among them, and says those apart: what cut them (Stop, the page's
// limit) and why the others gave up. It counted only the others: a
// simulation of 10,000 workers × 5 jobs said "22,482 jobs gave up" beside
// a card of 32,481 give-ups, 9,999 at the limit.
func TestSummaryCountsTheGiveUpsAsTheCard(t *testing.T) {
	s := fleet.Default()
	s.Workers, s.Jobs = 3, 1
	job := func(w int, err error) []fleet.Record {
		return []fleet.Record{
			{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: t0, Attempt: 1}},
			{Worker: w, Event: core.Event{Kind: core.EventOutcome, At: t0.Add(time.Second), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
			{Worker: w, Event: core.Event{Kind: core.EventDone, At: t0.Add(time.Second), Attempt: 1, Err: err}},
		}
	}
	for _, c := range []struct {
		name             string
		simulated, limit bool
		want             string
	}{
		{"Stop", false, false, " 3 give-ups: 1 gave up (out of attempts: 1), 2 cancelled by Stop."},
		{"the page's limit", true, true, " 3 give-ups: 1 gave up (out of attempts: 1), 2 cancelled at the page's limit."},
		{"the request limit", false, true, " 3 give-ups: 1 gave up (out of attempts: 1), 2 cancelled at the request limit."},
	} {
		var recs []fleet.Record
		recs = append(recs, job(0, &core.StopError{Cause: core.ErrExhausted, Attempts: 1})...)
		recs = append(recs, job(1, &core.StopError{Cause: core.ErrCancelled, Attempts: 1})...)
		recs = append(recs, job(2, &core.StopError{Cause: core.ErrCancelled, Attempts: 1})...)
		rec := fleet.NewRecording(s, t0, c.simulated)
		rec.Append(recs...)
		rec.Stopped, rec.Limited = !c.limit, c.limit
		st := fleet.StatsOf(t0, recs)
		if st.GiveUps != 3 || st.Cancelled != 2 {
			t.Fatalf("%s: %d give-ups, %d cancelled; want 3, 2", c.name, st.GiveUps, st.Cancelled)
		}
		if got := describeRun(rec, st, recs, time.Second); !strings.Contains(got, c.want) {
			t.Errorf("%s: want %q in\n%s", c.name, c.want, got)
		}
	}
}
