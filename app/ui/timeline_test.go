package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
	"retrylab/core/sim"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// oneJob is worker 1's job 0: a bucket wait, a 429 with Retry-After, a
// Retry-After wait, a 200.
func oneJob() []fleet.Record {
	h := browser.Header("retry-after: 1\nratelimit: \"default\";r=0;t=1\n")
	return []fleet.Record{
		{Worker: 1, Event: core.Event{Kind: core.EventWait, At: at(0), Attempt: 1, Wait: 50 * time.Millisecond, Reason: core.ReasonBucket}},
		{Worker: 1, Event: core.Event{Kind: core.EventAttempt, At: at(52), Intended: at(50), Attempt: 1}},
		{Worker: 1, Attempt: &fleet.Attempt{Status: 429, Header: h, Handoff: 1500 * time.Microsecond, Queued: 3 * time.Millisecond, Measured: fleet.MeasuredHandoff | fleet.MeasuredQueued, ServerSeq: 7, ServerAt: at(56)},
			Event: core.Event{Kind: core.EventOutcome, At: at(100), Attempt: 1, Outcome: core.Outcome{Status: 429, Header: h}}},
		{Worker: 1, Event: core.Event{Kind: core.EventWait, At: at(100), Attempt: 2, Wait: time.Second, Reason: core.ReasonRetryAfter, Note: "spread +120ms"}},
		{Worker: 1, Event: core.Event{Kind: core.EventAttempt, At: at(1101), Intended: at(1100), Attempt: 2}},
		{Worker: 1, Attempt: &fleet.Attempt{Status: 200, ServerSeq: 9, ServerAt: at(1103)},
			Event: core.Event{Kind: core.EventOutcome, At: at(1150), Attempt: 2, Outcome: core.Outcome{Status: 200}}},
		{Worker: 1, Event: core.Event{Kind: core.EventDone, At: at(1150), Attempt: 2}},
	}
}

// A wait of the largest Duration (a Retry-After past a Duration's reach
// that core saturates, honoured with no ceiling in a live run) ends at the
// end of time: its planned end overflowed to before its start, and the
// whole wait was drawn backwards and outlined as late.
func TestModelSaturatedWaitEndsLast(t *testing.T) {
	m := newModel(t0, 1)
	for _, r := range []fleet.Record{
		{Event: core.Event{Kind: core.EventAttempt, At: at(0), Attempt: 1}},
		{Event: core.Event{Kind: core.EventOutcome, At: at(50), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
		{Event: core.Event{Kind: core.EventWait, At: at(50), Attempt: 2, Wait: math.MaxInt64, Reason: core.ReasonRetryAfter}},
	} {
		m.add(&r)
	}
	if sp := m.spans[0]; sp.planned != math.MaxInt64 {
		t.Errorf("planned end of a saturated wait from %v: %v, want the largest Duration", sp.from, sp.planned)
	}
}

func TestModelBuildsAttemptsAndWaits(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	if len(m.marks) != 2 || len(m.spans) != 2 || len(m.ends) != 1 {
		t.Fatalf("marks %d, spans %d, ends %d; want 2, 2, 1", len(m.marks), len(m.spans), len(m.ends))
	}
	a, b := m.marks[0], m.marks[1]
	if a.class != fleet.ClassLimited || a.status != 429 || a.hdr.Get("Retry-After") != "1" || a.rateLimit() == "" {
		t.Errorf("first attempt %+v", a)
	}
	if a.bucketWait != 50*time.Millisecond || a.queued != 3*time.Millisecond || !a.hasServer || a.serverSeq != 7 {
		t.Errorf("first attempt facts %+v", a)
	}
	if !a.hasWait || a.waitReason != core.ReasonRetryAfter || a.waitAfter != time.Second || a.waitNote == "" {
		t.Errorf("wait after the first attempt not attached: %+v", a)
	}
	if a.next != 1 || b.prev != 0 || b.class != fleet.ClassOK {
		t.Errorf("attempts of one job not linked: %+v %+v", a, b)
	}
	if sp := m.spans[1]; sp.reason != core.ReasonRetryAfter || sp.to != 1101*time.Millisecond || sp.planned != 1100*time.Millisecond {
		t.Errorf("Retry-After wait span %+v", sp)
	}
	if got := a.sent - a.intended; got != 2*time.Millisecond {
		t.Errorf("lateness %v, want 2ms", got)
	}
	if !m.ends[0].ok || m.ends[0].cause != "success" {
		t.Errorf("job end %+v", m.ends[0])
	}
	bins := m.histogram(time.Second, 0, 2)
	if bins[0][fleet.ClassLimited] != 1 || bins[1][fleet.ClassOK] != 1 {
		t.Errorf("histogram %v", bins)
	}
}

// In an open workload a worker has several jobs in progress at once: each
// outcome, wait and end belongs to its own job's attempt, in one lane.
func TestModelOverlappingJobsOfOneWorker(t *testing.T) {
	m := newModel(t0, 1)
	ev := func(job int, e core.Event, a *fleet.Attempt) {
		m.add(&fleet.Record{Worker: 0, Job: job, Event: e, Attempt: a})
	}
	ev(0, core.Event{Kind: core.EventAttempt, At: at(0), Attempt: 1}, nil)
	ev(1, core.Event{Kind: core.EventAttempt, At: at(100), Attempt: 1}, nil)
	ev(0, core.Event{Kind: core.EventOutcome, At: at(150), Attempt: 1, Outcome: core.Outcome{Status: 429}}, &fleet.Attempt{Status: 429})
	ev(0, core.Event{Kind: core.EventWait, At: at(150), Attempt: 2, Wait: 200 * time.Millisecond, Reason: core.ReasonBackoff}, nil)
	ev(1, core.Event{Kind: core.EventOutcome, At: at(160), Attempt: 1, Outcome: core.Outcome{Status: 200}}, &fleet.Attempt{Status: 200})
	ev(1, core.Event{Kind: core.EventDone, At: at(160), Attempt: 1}, nil)
	ev(0, core.Event{Kind: core.EventAttempt, At: at(350), Attempt: 2}, nil)
	ev(2, core.Event{Kind: core.EventAttempt, At: at(360), Attempt: 1}, nil) // a state reused from job 1
	m.finish(400 * time.Millisecond)

	if len(m.marks) != 4 || len(m.lanes[0]) != 4 || len(m.spans) != 1 || len(m.ends) != 1 {
		t.Fatalf("marks %d, lane %d, spans %d, ends %d; want 4, 4, 1, 1", len(m.marks), len(m.lanes[0]), len(m.spans), len(m.ends))
	}
	j0a, j1, j0b, j2 := m.marks[0], m.marks[1], m.marks[2], m.marks[3]
	if j0a.class != fleet.ClassLimited || j0a.end != 150*time.Millisecond || !j0a.hasWait || j0a.next != 2 {
		t.Errorf("job 0's first attempt %+v", j0a)
	}
	if j1.class != fleet.ClassOK || j1.end != 160*time.Millisecond || j1.hasWait || j1.prev != -1 || j1.next != -1 {
		t.Errorf("job 1's attempt %+v", j1)
	}
	if j0b.prev != 0 || j0b.class != fleet.ClassAborted || j2.prev != -1 || j2.class != fleet.ClassAborted {
		t.Errorf("attempts in flight at the end: job 0's second %+v, job 2's %+v", j0b, j2)
	}
	if sp := m.spans[0]; sp.to != 350*time.Millisecond {
		t.Errorf("job 0's wait %+v: should end at its next attempt, 350ms", sp)
	}
	if len(m.jobs) != 2 {
		t.Errorf("%d jobs in progress after finish, want 2 (jobs 0 and 2)", len(m.jobs))
	}
}

func TestModelCancelledInFlightAndHidden(t *testing.T) {
	m := newModel(t0, 1)
	m.setHidden(true, 10*time.Millisecond)
	m.add(&fleet.Record{Event: core.Event{Kind: core.EventAttempt, At: at(20), Intended: at(20), Attempt: 1}})
	m.setHidden(false, 30*time.Millisecond)
	m.setHidden(true, 40*time.Millisecond)
	m.finish(60 * time.Millisecond)
	if m.marks[0].end != 60*time.Millisecond || m.marks[0].class != fleet.ClassAborted {
		t.Errorf("attempt in flight at the end not closed as aborted: %+v", m.marks[0])
	}
	if len(m.hidden) != 2 || m.hidden[0] != (interval{10 * time.Millisecond, 30 * time.Millisecond}) || m.hidden[1].to != 60*time.Millisecond {
		t.Errorf("hidden stretches %+v", m.hidden)
	}
	// Records of a worker outside the run are ignored, not a panic.
	m.add(&fleet.Record{Worker: 5, Event: core.Event{Kind: core.EventAttempt, At: at(1)}})
}

func TestLayoutSharesOneTimeAxis(t *testing.T) {
	l := newLayout(1000, 50, 10*time.Second, &normalTheme)
	for _, d := range []time.Duration{0, time.Second, 7500 * time.Millisecond} {
		if got := l.t(l.x(d)); got-d > time.Microsecond || d-got > time.Microsecond {
			t.Errorf("t(x(%v)) = %v", d, got)
		}
	}
	if !(l.lanesTop < l.histTop && l.histTop+l.histH < l.srvTop && l.srvTop+l.srvH <= l.bottom && l.bottom < l.h) {
		t.Errorf("panels overlap: %+v", l)
	}
	big := newLayout(1000, 500, 10*time.Second, &normalTheme)
	if big.laneH < 0.99 || big.laneH > 1.01 {
		t.Errorf("500 workers: lane height %v, want 1", big.laneH)
	}
	// A simulation's 10,000 workers share the 500 px of a 500-worker run.
	sim := newLayout(1000, 10000, 10*time.Second, &normalTheme)
	if lanes := sim.laneH * 10000; lanes < 499 || lanes > 501 || sim.h > big.h+1 {
		t.Errorf("10,000 workers: lanes %v px, canvas %v px (500 workers: %v)", lanes, sim.h, big.h)
	}
}

func TestNiceSteps(t *testing.T) {
	if got := niceStep(10*time.Second, 10, tickSteps); got != time.Second {
		t.Errorf("10 s over 10 ticks: %v", got)
	}
	if got := histSlice(12*time.Second, 1000); got != time.Second {
		t.Errorf("12 s run: histogram bin %v, want 1s", got)
	}
	if got := histSlice(3*time.Second, 1000); got != 250*time.Millisecond {
		t.Errorf("3 s run: histogram bin %v", got)
	}
	if got := histSlice(10*time.Minute, 100); got < 10*time.Second {
		t.Errorf("narrow canvas, long run: bin %v narrower than 4 px", got)
	}
}

func TestHistogramScale(t *testing.T) {
	for _, c := range []struct {
		name   string
		rates  []float64
		lim    limits
		lo, hi float64 // the top, inclusive
	}{
		{"one spike does not set the scale", []float64{5, 8, 12, 500}, limits{server: 10}, 40, 40},
		{"a run far under its limit is scaled to its bars", []float64{30, 40, 45}, limits{server: 1000}, 45, 100},
		{"empty", nil, limits{}, 10, 10},
		// A custom target (no limit known), four bins: the 40 was cut at 25.
		{"a peak under twice the rest's scale is not cut", []float64{20, 40, 10, 5}, limits{}, 40, 40},
		{"nor one just at it", []float64{20, 44, 10, 5}, limits{}, 44, 50},
		{"one past it is", []float64{20, 45, 10, 5}, limits{}, 22, 25},
		{"the limit's scale counts as the rest's", []float64{10, 70}, limits{server: 10}, 70, 80},
		{"a first wave far over the limit is cut", []float64{90, 10, 10, 10}, limits{server: 10}, 40, 40},
		{"the client's limit too", []float64{5, 5, 41}, limits{server: 1, client: 10}, 41, 50},
		// The fleet bucket preset: its scale was 40, four times the limit.
		{"bars held under the limits", []float64{8, 8, 8, 7, 3}, limits{server: 10, client: 8}, 15, 15},
		{"bars just at the limit", []float64{10, 10, 9}, limits{server: 10}, 15, 15},
	} {
		top := histogramScale(c.rates, c.lim, 1)
		if top < c.lo || top > c.hi {
			t.Errorf("%s: %v against %+v: top %v, want %v–%v", c.name, c.rates, c.lim, top, c.lo, c.hi)
		}
		peak := 0.0
		for _, r := range c.rates {
			peak = max(peak, r)
		}
		if cut := peak > top; cut != (c.hi < peak) {
			t.Errorf("%s: peak %v cut %v at top %v", c.name, peak, cut, top)
		}
	}
	if got := secondsLabel(1500*time.Millisecond, 500*time.Millisecond, 3*time.Second); got != "1.5 s" {
		t.Errorf("label %q", got)
	}
}

func TestPaintAndHit(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	if o.Len() < 100 {
		t.Errorf("display list has %d values", o.Len())
	}
	joined := strings.Join(o.Strings(), "|")
	// 250 ms bins: counted per bin, the limit scaled to it.
	for _, want := range []string{"server limit 10 req/s = 2.5 per 250 ms", "Requests sent per 250 ms", "Server arrivals", "0 s"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q drawn: %s", want, joined)
		}
	}
	k := m.marks[0]
	if got := hit(&l, m, l.x(k.sent)+2, l.laneY(1)+1); got != 0 {
		t.Errorf("hit on the first mark = %d", got)
	}
	if got := hit(&l, m, l.x(k.serverAt), l.srvY(k.serverSeq)); got != 0 {
		t.Errorf("hit on its server arrival = %d", got)
	}
	if got := hit(&l, m, l.x(1600*time.Millisecond), l.laneY(1)); got != -1 {
		t.Errorf("hit far from any mark, after the job's end = %d", got)
	}
	// Away from the marks, a lane's bars tell an attempt: the bucket wait
	// before it, its flight and the wait after it, up to the next.
	for _, c := range []struct {
		at   time.Duration
		lane int
		want int
	}{
		{20 * time.Millisecond, 1, 0},   // the fleet-bucket wait before attempt 1
		{600 * time.Millisecond, 1, 0},  // the Retry-After wait after it
		{1130 * time.Millisecond, 1, 1}, // attempt 2 in flight
		{600 * time.Millisecond, 0, -1}, // another worker's empty lane
		{1200 * time.Millisecond, 1, -1},
	} {
		if got := hitSpan(&l, m, l.x(c.at), l.laneY(c.lane)); got != c.want {
			t.Errorf("hit in lane %d at %v = %d, want %d", c.lane, c.at, got, c.want)
		}
	}
	paintOverlay(&o, &l, m, &normalTheme, 300, 0, -1, -1)
	if o.Len() == 0 {
		t.Error("overlay empty with a selection and a crosshair")
	}
}

func TestDescribe(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	tp := describe(&m.marks[0], shown{})
	text := tp.Title + "\n" + strings.Join(tp.Lines, "\n")
	for _, want := range []string{"Worker 2 · job 1 · attempt 1", "intended 0.050 s · sent 0.052 s (+2.0 ms late)", "fetch() started 1.5 ms after that (+3.5 ms late in all)",
		"waited 50.0 ms for a fleet-bucket token", "held 3.0 ms inside the browser", "arrival #7",
		"429 Too Many Requests", "Retry-After: 1", "then waited 1 s: Retry-After (spread +120 ms)"} {
		if !strings.Contains(text, want) {
			t.Errorf("tooltip lacks %q:\n%s", want, text)
		}
	}
}

// An attempt Stop aborted ends its job, which did not give up: the
// tooltip said "no retry: the job gave up here" of it, as of a job that
// ran out of attempts.
func TestDescribeSaysWhatEndedTheJob(t *testing.T) {
	for _, c := range []struct {
		name string
		k    mark
		want string
	}{
		{"exhausted", mark{class: fleet.ClassFailed, status: 500, next: -1}, "no retry: the job gave up here"},
		// Not Go's "context canceled" between the two (a review).
		{"stopped", mark{class: fleet.ClassAborted, err: context.Canceled, next: -1}, "aborted (Stop) after 1 s\nno retry: Stop ended the job here"},
		{"attempt limit", mark{class: fleet.ClassAborted, err: fmt.Errorf("sim: attempt aborted: %w (%w)", context.Canceled, sim.ErrLimit), next: -1},
			"no retry: the page's limit on a simulation's attempts ended the job here"},
		// Cancelled in the wait after it: it said "then waited 1 s" of a
		// wait Stop cut, and nothing of the cut.
		{"stopped in its wait", mark{class: fleet.ClassLimited, status: 429, hasWait: true, waitAfter: time.Second, cut: cutRun, next: -1},
			"then was to wait 1 s: backoff\nno retry: the run was stopped first"},
		{"attempt limit in its wait", mark{class: fleet.ClassLimited, status: 429, hasWait: true, waitAfter: time.Second, cut: cutLimit, next: -1},
			"then was to wait 1 s: backoff\nno retry: the page's limit on a simulation's attempts ended the job first"},
		// A Retry-After the run did not honour says so (the flood's waits
		// of 2 s after "Retry-After: 1"), one it honoured or could not use
		// does not.
		{"Retry-After not honoured", mark{class: fleet.ClassLimited, status: 429, hdr: http.Header{"Retry-After": {"1"}}, hasWait: true, waitAfter: 2 * time.Second, waitReason: core.ReasonBackoff, next: -1},
			"Retry-After: 1 (not honoured: Honour Retry-After is off)\nthen waited 2 s: backoff"},
		{"Retry-After honoured", mark{class: fleet.ClassLimited, status: 429, hdr: http.Header{"Retry-After": {"1"}}, hasWait: true, waitAfter: time.Second, waitReason: core.ReasonRetryAfter, next: -1},
			"Retry-After: 1\nthen waited 1 s: Retry-After"},
		{"Retry-After unusable", mark{class: fleet.ClassLimited, status: 429, hdr: http.Header{"Retry-After": {"soon"}}, hasWait: true, waitAfter: time.Second, waitReason: core.ReasonBackoff, waitNote: `retry-after "soon": not a number; fell back to backoff`, next: -1},
			"Retry-After: soon\nthen waited 1 s: backoff"},
	} {
		c.k.end = time.Second
		if text := strings.Join(describe(&c.k, shown{}).Lines, "\n"); !strings.Contains(text, c.want) {
			t.Errorf("%s: tooltip lacks %q:\n%s", c.name, c.want, text)
		}
	}
}

// Every status a client meets has its reason phrase, as net/http names it
// ("501 after 13.7 ms" had none), and a timeout is told once: "timeout
// after 1 s" was followed by the error's "fleet: request timeout after 1s"
// (both found by a review).
func TestDescribeNamesTheOutcomeOnce(t *testing.T) {
	for code := 100; code < 600; code++ {
		if got, want := statusText(code), http.StatusText(code); got != "" && got != want {
			t.Errorf("statusText(%d) = %q, net/http says %q", code, got, want)
		}
	}
	for _, code := range []int{400, 401, 403, 404, 408, 409, 422, 501, 505} {
		if statusText(code) == "" {
			t.Errorf("no reason phrase for %d", code)
		}
	}
	k := mark{class: fleet.ClassTimeout, err: fmt.Errorf("%w after 1s", fleet.ErrTimeout), end: time.Second, next: -1}
	if text := strings.Join(describe(&k, shown{}).Lines, "\n"); strings.Count(text, "timeout") != 1 {
		t.Errorf("a timeout's tooltip:\n%s", text)
	}
	k = mark{class: fleet.ClassFailed, err: errNetwork, end: time.Second, next: -1}
	if text := strings.Join(describe(&k, shown{}).Lines, "\n"); !strings.Contains(text, errNetwork.Error()) {
		t.Errorf("a network error's tooltip lacks the error:\n%s", text)
	}
}

// TestTooltipSaysTheBrowserPaces: in a browser that paces requests itself
// (Firefox), a request it held pacedMin or more says why, right after the
// time held; one held less (waiting on its connection, as anywhere), one
// not held, or one in a browser that does not pace, does not.
func TestTooltipSaysTheBrowserPaces(t *testing.T) {
	for _, c := range []struct {
		name   string
		queued time.Duration
		note   string
		want   bool
	}{
		{"held 30 ms in Firefox", 30 * time.Millisecond, pacedNote, true},
		{"held 10 ms in Firefox", pacedMin, pacedNote, true},
		{"held 5 ms in Firefox", 5 * time.Millisecond, pacedNote, false},
		{"not held in Firefox", 0, pacedNote, false},
		{"held 30 ms elsewhere", 30 * time.Millisecond, "", false},
	} {
		k := mark{class: fleet.ClassOK, status: 200, queued: c.queued, end: time.Second, next: -1}
		lines := describe(&k, shown{heldNote: c.note}).Lines
		at := slices.Index(lines, pacedNote)
		if (at >= 0) != c.want {
			t.Errorf("%s: the pacing note shown %v, want %v:\n%s", c.name, at >= 0, c.want, strings.Join(lines, "\n"))
			continue
		}
		if c.want && (at == 0 || !strings.HasPrefix(lines[at-1], "held ")) {
			t.Errorf("%s: the pacing note does not follow the time held:\n%s", c.name, strings.Join(lines, "\n"))
		}
	}
}

// The tooltip of the attempt a job gave up after says why, as core's loop
// told it: it said "no retry: the job gave up here" alone, whether the
// job had used its attempts, its next wait would have ended past max
// elapsed (long before that much time had passed), the fleet's retry
// budget was empty, or the server asked for more than the ceiling.
func TestTooltipSaysWhyAJobGaveUp(t *testing.T) {
	stage := "workers=20&jobs=1&rate=1&burst=1&retry_after=seconds&latency=0s&strategy=constant&base=1s&attempts=3&ra_honour=off"
	for _, c := range []struct {
		name, query, want string
	}{
		{"exhausted", "", "no retry: the job gave up here: max attempts 3 reached"},
		{"max elapsed", "elapsed=1500ms", "no retry: the job gave up here: backoff wait 1 s would end past max elapsed 1.5 s (1 s used)"},
		{"budget", "budget=on&budget_size=1&budget_refill=0", "no retry: the job gave up here: the fleet's retry budget is empty"},
		{"above ceiling", "ra_honour=on&ra_ceiling=2s&ra_above=stop&retry_after=fixed&retry_value=60",
			"no retry: the job gave up here: retry-after 1 min above ceiling 2 s"},
		// Valid delay-seconds past an int64 saturate to the longest wait,
		// which the ceiling refuses: it was read as unreadable and the job
		// retried on backoff until its attempts ran out.
		{"huge retry-after above the ceiling", "ra_honour=on&ra_ceiling=2s&ra_above=stop&retry_after=malformed&malformed=huge",
			"Retry-After: 99999999999999999999\nno retry: the job gave up here: retry-after over 292 years above ceiling 2 s"},
		{"none", "strategy=none", "no retry: the job gave up here: strategy none: no retries"},
		// After its backoff wait, the fleet bucket's wait would end past
		// max elapsed: the tooltip said only "then waited 1 s: backoff".
		{"bucket wait after a backoff wait", "workers=2&fail500=100&bucket=on&bucket_rate=1&bucket_cap=2&elapsed=1500ms",
			"then waited 1 s: backoff\nno retry: the job gave up after this wait: bucket wait 1 s would end past max elapsed 1.5 s (1 s used)"},
	} {
		q, _ := url.ParseQuery(stage)
		over, _ := url.ParseQuery(c.query)
		for k, v := range over {
			q[k] = v
		}
		s, ferrs := fleet.FromQuery(q)
		if ferrs != nil {
			t.Fatalf("%s: %v", c.name, ferrs)
		}
		rec := fleet.Simulate(s)
		recs := rec.Records()
		m := newModelFor(rec.Start, s.Workers, recs)
		for i := range recs {
			m.add(&recs[i])
		}
		found := false
		for i := range m.marks {
			if k := &m.marks[i]; k.next < 0 && k.class != fleet.ClassOK {
				text := strings.Join(describe(k, shown{}).Lines, "\n")
				if !strings.Contains(text, c.want) {
					t.Errorf("%s: the tooltip of the attempt its job gave up after lacks %q:\n%s", c.name, c.want, text)
				}
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: no job gave up", c.name)
		}
	}
}

// People read workers and jobs numbered from 1, as attempts are, in the
// tooltip and on the lanes alike: the tooltip said "Worker 1 · job 0 ·
// attempt 1" for the second worker's first job (workers and jobs counted
// from 0, attempts from 1), on the lane labelled "w1".
func TestPeopleCountWorkersAndJobsFromOne(t *testing.T) {
	lay := newLayout(1000, 50, time.Second, &normalTheme)
	for _, c := range []struct {
		worker, job, attempt int // as recorded: worker and job from 0, attempt from 1
		title, lane          string
	}{
		{0, 0, 1, "Worker 1 · job 1 · attempt 1", "w1"},
		{1, 0, 1, "Worker 2 · job 1 · attempt 1", "w2"},
		{49, 3, 10, "Worker 50 · job 4 · attempt 10", "w50"},
	} {
		k := mark{worker: c.worker, job: c.job, attempt: c.attempt, end: -1}
		if got := describe(&k, shown{running: true}).Title; got != c.title {
			t.Errorf("worker %d, job %d, attempt %d: tooltip %q, want %q", c.worker, c.job, c.attempt, got, c.title)
		}
		if got := lay.laneName(c.worker); got != c.lane {
			t.Errorf("worker %d: lane %q, want %q", c.worker, got, c.lane)
		}
	}
}

// The lanes are labelled every few workers, numbered from 1, with w1 on
// top where its lane holds it clear of the title above (every other lane
// is w1, w3, …): at 501 workers
// (lanes under 1 px) w1 touched "workers".
func TestLaneLabels(t *testing.T) {
	for _, c := range []struct {
		workers     int
		first, last string // the first and last lane labels drawn
		not         string
	}{
		{10, "w1", "w10", ""},
		{50, "w1", "w49", "w50|"}, // every other lane, from the top one (w2 … w50 left it bare)
		{100, "w1", "w100", ""},
		{501, "w20", "w500", "w1|"},
	} {
		lay := newLayout(1000, c.workers, 10*time.Second, &normalTheme)
		var o browser.Ops
		paintLaneLabels(&o, &lay)
		got := o.Strings()
		j := strings.Join(got, "|") + "|"
		if len(got) == 0 || got[0] != c.first || got[len(got)-1] != c.last || c.not != "" && strings.Contains(j, c.not) {
			t.Errorf("%d workers: lane labels %v, want %s … %s, no %q", c.workers, got, c.first, c.last, strings.TrimSuffix(c.not, "|"))
		}
	}
}

func TestViewKeyboardSelection(t *testing.T) {
	v := newView()
	s := fleet.Default()
	s.Workers = 3
	v.start(s, t0, "")
	for _, r := range oneJob() {
		v.onRecord(r)
	}
	v.finish(at(1200))
	v.Redraw() // lays the timeline out (in node there are no animation frames)
	if !v.key("ArrowRight") || v.sel != 0 {
		t.Fatalf("first key should select the first attempt, sel %d", v.sel)
	}
	v.key("ArrowRight")
	if v.sel != 1 {
		t.Errorf("ArrowRight: sel %d, want 1", v.sel)
	}
	v.key("Home")
	if v.sel != 0 {
		t.Errorf("Home: sel %d", v.sel)
	}
	if tp, ok := v.selection(); !ok || !strings.Contains(tp.Title, "attempt 1") {
		t.Errorf("selection %+v %v", tp, ok)
	}
	v.key("Escape")
	if _, ok := v.selection(); ok {
		t.Error("Escape kept the selection")
	}
	if v.key("x") {
		t.Error("an unknown key was handled")
	}
}

func TestTransportNative(t *testing.T) {
	s := fleet.Default()
	s.Workers = 13
	page := mustURL(t, "http://localhost:8090/")
	tr := newFetchTransport(page, nil, s, "run-x", "")
	if len(tr.bases) != 3 {
		t.Fatalf("13 workers over %d origins, want 3", len(tr.bases))
	}
	if !strings.HasPrefix(tr.base(0, 0), "http://w0.localhost:8090/mock?") || !strings.HasPrefix(tr.base(12, 0), "http://w2.localhost:8090/mock?") ||
		tr.base(12, 1) != tr.base(12, 0) {
		t.Errorf("worker origins %q, %q, %q", tr.base(0, 0), tr.base(12, 0), tr.base(12, 1))
	}
	if !strings.Contains(tr.base(5, 0), "key=run-x") {
		t.Errorf("run key missing: %q", tr.base(5, 0))
	}
	// An open workload: jobs take origins in arrival order, six each, so
	// 504 consecutive arrivals are on different origins than their own six.
	s.Open = true
	ot := newFetchTransport(page, nil, s, "run-x", "")
	if len(ot.bases) != openShards || openShards != 84 {
		t.Fatalf("open workload over %d origins, want %d = 84", len(ot.bases), openShards)
	}
	perOrigin := map[string]int{}
	for g := range 504 {
		perOrigin[ot.base(g%13, g/13)]++
	}
	for o, n := range perOrigin {
		if n != WorkersPerOrigin {
			t.Errorf("504 consecutive arrivals: %d on %s, want %d on each", n, o, WorkersPerOrigin)
		}
	}
	s.Open = false
	// Natively there is no fetch(), and in node nothing listens on
	// w0.localhost: the attempt fails, it does not panic.
	if a := tr.Do(context.Background(), 0, 0, 1); a.Err == nil || a.Status != 0 ||
		!errors.Is(a.Err, browser.ErrNoBrowser) && !errors.Is(a.Err, errMockNetwork) {
		t.Errorf("native attempt = %+v", a)
	}
	s.Target = "https://api.example.com/x"
	ct := newFetchTransport(page, nil, s, "run-x", "")
	if ct.base(7, 3) != s.Target || !ct.custom {
		t.Errorf("custom target base %q", ct.base(7, 3))
	}
	if ct.corsNote() != "" {
		t.Error("CORS note before any request")
	}
	// 429s without Retry-After: CORS may hide it, unless the rate-limit
	// headers came through (found by a review: the note told a server
	// that exposed them to expose them).
	ct.answered.Add(2)
	ct.limited.Add(2)
	ct.noRetryHdr.Add(2)
	// It says the server may send none (a 503 from an overloaded server
	// was blamed on CORS alone), and names each X-RateLimit header (the
	// list takes no prefix wildcard; X-RateLimit-* exposed nothing), or
	// "*": found by a review.
	for _, want := range []string{"your server sends none", "list Retry-After and the rate-limit headers you send, each by name", "RateLimit-Limit, RateLimit-Policy, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit", "with *"} {
		if n := ct.corsNote(); !strings.Contains(n, want) {
			t.Errorf("429s with no header readable: CORS note %q, want it to say %q", n, want)
		}
	}
	ct.hintedOnly.Add(1)
	if n := ct.corsNote(); !strings.Contains(n, "with rate-limit headers but no Retry-After: your server sends none, or leaves it out") || strings.Contains(n, "list Retry-After, RateLimit") {
		t.Errorf("429s with RateLimit readable: CORS note %q", n)
	}
	// Redirects are told too: the server counted more requests than the
	// page sent, unsaid (an API user's review).
	ct.redirects.Add(3)
	if n := ct.corsNote(); !strings.Contains(n, "with rate-limit headers but no Retry-After") || !strings.Contains(n, "Your server redirected 3 requests: fetch() follows a redirect with another request") {
		t.Errorf("429s and redirects: CORS note %q", n)
	}
	ct.networkErrs.Add(1)
	// A network error is as often a server down, or an https URL whose
	// certificate the browser refuses, as CORS: the note said CORS alone.
	for _, want := range []string{"Some requests failed with a network error", "Access-Control-Allow-Origin", "down", "certificate"} {
		if !strings.Contains(ct.corsNote(), want) {
			t.Errorf("CORS note %q: want it to say %q", ct.corsNote(), want)
		}
	}
	// When none got through it says so: "Some requests" read as a server
	// that answered now and then (a review: 180 of 180 failed).
	none := newFetchTransport(mustURL(t, "http://localhost:8080/"), nil, fleet.Scenario{Target: "https://api.example.com/items"}, "", "")
	none.networkErrs.Add(180)
	if n := none.corsNote(); !strings.HasPrefix(n, "Every request failed with a network error") {
		t.Errorf("every request a network error: CORS note %q", n)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestModelServerStream(t *testing.T) {
	m := newModel(t0, 3)
	recs := oneJob()
	for _, r := range recs[:2] { // bucket wait, attempt 1 sent
		m.add(&r)
	}
	// The stream tells of attempt 1 before its answer, by tag.
	m.serverEvent(&mock.Event{Type: "arrival", Seq: 7, Tag: "w1.j0.a1", At: at(55), Outcome: "limited"})
	// Another client's arrival in the same key.
	m.serverEvent(&mock.Event{Type: "arrival", Seq: 8, Tag: "w9.j0.a1", At: at(70), Outcome: "ok"})
	if len(m.arrivals) != 2 || m.arrivals[0].mark != 0 || m.arrivals[1].mark != -1 {
		t.Fatalf("arrivals %+v", m.arrivals)
	}
	if k := m.marks[0]; !k.hasServer || k.serverSeq != 7 || k.serverAt != 55*time.Millisecond {
		t.Errorf("mark not given its arrival: %+v", k)
	}
	for _, r := range recs[2:] {
		m.add(&r)
	}
	// The body's receive time wins over the stream's for the answered attempt.
	if k := m.marks[0]; k.serverAt != 56*time.Millisecond {
		t.Errorf("serverAt %v, want the body's 56ms", k.serverAt)
	}
	m.serverEvent(&mock.Event{Type: "end", Seq: 7, End: "cancelled"})
	if !m.arrivals[0].cancelled {
		t.Error("end event not taken")
	}

	// In a shared room a tag is this page's with its device name in front
	// (an unanswered attempt is known by that alone); another device's,
	// or one with no device (curl), is not.
	r := newModel(t0, 3)
	r.room, r.self = true, "heron-4k2"
	r.add(&recs[1])
	for i, tag := range []string{"w1.j0.a1", "otter-9zz.w1.j0.a1", "heron-4k2.w1.j0.a1"} {
		r.serverEvent(&mock.Event{Type: "arrival", Seq: uint64(5 + i), Tag: tag, At: at(55), Outcome: "limited"})
		if got, want := r.arrivals[i].mark, map[bool]int{false: -1, true: 0}[i == 2]; got != want {
			t.Errorf("room arrival tagged %s matched attempt %d, want %d", tag, got, want)
		}
	}
	r.add(&recs[2]) // the answer's body says arrival 7
	if r.arrivals[2].mark != 0 || r.marks[0].serverSeq != 7 {
		t.Errorf("room arrival not matched by its number once the answer came: %+v", r.marks[0])
	}
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, r, frameInput{th: &normalTheme})
	if !strings.Contains(strings.Join(o.Strings(), "|"), "shared room") {
		t.Error("room caption missing")
	}
}

// paintDenseLanes paints exactly what the waits and attempts cover: checked
// against the obvious way (mark every covered pixel of every wait, blend
// reason by reason, then each attempt's 2-px cell in the last class
// present) on random waits and attempts over 3,000 lanes.
func TestDenseLanesPicture(t *testing.T) {
	m := newModel(t0, 3000)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		from := time.Duration(rng.Int64N(int64(20 * time.Second)))
		sp := span{worker: rng.IntN(3000), reason: waitReasons[rng.IntN(len(waitReasons))], from: from, planned: from + time.Duration(rng.Int64N(int64(3*time.Second)))}
		sp.to = sp.planned
		if rng.IntN(10) == 0 {
			sp.to = -1 // still waiting: drawn to its planned end
		}
		m.spans = append(m.spans, sp)
	}
	for range 20000 {
		m.marks = append(m.marks, mark{worker: rng.IntN(3000), sent: time.Duration(rng.Int64N(int64(20 * time.Second))), class: fleet.Class(rng.IntN(int(fleet.NumClasses)))})
	}
	l := newLayout(1200, 3000, 22*time.Second, &normalTheme)
	if !l.dense() {
		t.Fatal("3,000 lanes are not dense")
	}
	in := frameInput{th: &normalTheme}
	var o browser.Ops
	paintDenseLanes(&o, &l, m, in)
	if len(o.Images()) != 1 {
		t.Fatalf("%d images drawn, want 1", len(o.Images()))
	}
	got := o.Images()[0]

	cols, rows := int(l.right-l.left)+2, int(l.laneH*float64(l.workers))+2
	want := make([]byte, cols*rows*4)
	for _, r := range waitReasons {
		cover := make([]bool, cols*rows)
		for _, sp := range m.spans {
			y := int(float64(sp.worker) * l.laneH)
			if sp.reason != r || y < 0 || y >= rows {
				continue
			}
			x1 := max(0, int(l.x(sp.from)-l.left))
			x2 := min(cols-1, int(l.x(openEnd(sp.to, sp.planned, in))-l.left))
			for x := x1; x <= x2; x++ {
				cover[y*cols+x] = true
			}
		}
		for i, c := range cover {
			if c {
				blendHalf(want[i*4:], normalTheme.rgb(reasonColour(r)))
			}
		}
	}
	sets := map[[2]int]uint8{}
	for _, k := range m.marks {
		cell := [2]int{int((l.x(k.sent) - l.left) / denseCell), int((l.laneY(k.worker) - l.lanesTop) / denseCell)}
		sets[cell] |= 1 << k.class
	}
	rank := paintRank(sets)
	last := map[[2]int]fleet.Class{}
	for cell, set := range sets {
		for c := fleet.Class(0); c < fleet.NumClasses; c++ {
			if set&(1<<c) != 0 {
				if l, ok := last[cell]; !ok || rank[c] > rank[l] {
					last[cell] = c
				}
			}
		}
	}
	for cell, class := range last {
		c := normalTheme.rgb(classColour[class])
		for y := cell[1] * denseCell; y < cell[1]*denseCell+denseCell && y < rows; y++ {
			for x := cell[0] * denseCell; x < cell[0]*denseCell+denseCell && x < cols; x++ {
				if x >= 0 && y >= 0 {
					copy(want[(y*cols+x)*4:], []byte{c[0], c[1], c[2], 255})
				}
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("picture of %d bytes, want %d", len(got), len(want))
	}
	diff := 0
	for i := range got {
		if got[i] != want[i] {
			diff++
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d bytes differ from the direct fill", diff, len(got))
	}
	painted := 0
	for i := 3; i < len(want); i += 4 {
		if want[i] > 0 {
			painted++
		}
	}
	if painted < cols*rows/10 {
		t.Errorf("the reference painted only %d of %d pixels", painted, cols*rows)
	}
}

// blendHalf is a canvas fill at globalAlpha 0.5 over one RGBA pixel.
func TestBlendHalf(t *testing.T) {
	p := []byte{0, 0, 0, 0}
	blendHalf(p, [3]byte{200, 100, 50})
	if fmt.Sprint(p) != "[200 100 50 128]" {
		t.Errorf("over transparent: %v", p)
	}
	p = []byte{0, 0, 0, 255}
	blendHalf(p, [3]byte{200, 100, 50})
	if fmt.Sprint(p) != "[100 50 25 255]" {
		t.Errorf("over opaque black: %v", p)
	}
	if c := normalTheme.rgb(colLimited); c != [3]byte{0xD5, 0x5E, 0x00} {
		t.Errorf("rgb(colLimited) = %v", c)
	}
}

// paintDenseServer paints a 3-px square per 2-px cell holding an arrival,
// class by class: checked against filling each arrival's square directly in
// class order.
func TestDenseServerPicture(t *testing.T) {
	m := newModel(t0, 3000)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 30000 {
		m.marks = append(m.marks, mark{worker: rng.IntN(3000), class: fleet.Class(rng.IntN(int(fleet.NumClasses))),
			hasServer: i%7 != 0, serverAt: time.Duration(rng.Int64N(int64(20 * time.Second))), serverSeq: rng.IntN(100000)})
	}
	l := newLayout(1200, 3000, 22*time.Second, &normalTheme)
	var o browser.Ops
	paintDenseServer(&o, &l, m, &normalTheme)
	if len(o.Images()) != 1 {
		t.Fatalf("%d images drawn, want 1", len(o.Images()))
	}
	got := o.Images()[0]
	cols, rows := int(l.right-l.left)+2, int(l.srvH)+2
	want := make([]byte, cols*rows*4)
	sets := map[[2]int]uint8{}
	for _, k := range m.marks {
		if k.hasServer {
			sets[[2]int{int((l.x(k.serverAt) - l.left) / denseCell), int((l.srvY(k.serverSeq) - l.srvTop) / denseCell)}] |= 1 << k.class
		}
	}
	for _, c := range byRank(paintRank(sets)) {
		rgb := normalTheme.rgb(classColour[c])
		for _, k := range m.marks {
			if !k.hasServer || k.class != c {
				continue
			}
			cx, cy := int((l.x(k.serverAt)-l.left)/denseCell), int((l.srvY(k.serverSeq)-l.srvTop)/denseCell)
			for y := cy*denseCell - 1; y < cy*denseCell+2; y++ {
				for x := cx*denseCell - 1; x < cx*denseCell+2; x++ {
					if x >= 0 && y >= 0 && x < cols && y < rows {
						copy(want[(y*cols+x)*4:], []byte{rgb[0], rgb[1], rgb[2], 255})
					}
				}
			}
		}
	}
	if !bytes.Equal(got, want) {
		n := 0
		for i := range got {
			if got[i] != want[i] {
				n++
			}
		}
		t.Errorf("%d of %d bytes differ from the direct fill", n, len(got))
	}
}

// The empty timeline's hint names the button that can run the fleet shown,
// or, with values to fix first, says so: neither button starts then.
func TestEmptyTimelineHint(t *testing.T) {
	for _, tc := range []struct {
		workers, invalid int
		want, not        string
	}{
		{50, 0, "Press Run (r): each lane will be one of the 50 workers", "Fix"},
		{1, 0, "Press Run (r): the lane will be the one worker's", "Fix"},
		{10000, 0, "Press Simulate (m): 10,000 workers", "Fix"},
		{10000, 1, "Fix 1 field first: Run and Simulate wait", "Press"},
		{50, 3, "Fix 3 fields first", "Press"},
		{0, 1, "Fix 1 field first", "Press"}, // Workers not a number: no lanes, the hint in the histogram
	} {
		l := newLayout(1000, tc.workers, 10*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, nil, frameInput{th: &normalTheme, invalid: tc.invalid})
		if j := strings.Join(o.Strings(), "|"); !strings.Contains(j, tc.want) || strings.Contains(j, tc.not) {
			t.Errorf("%d workers, %d invalid: want %q and no %q in %s", tc.workers, tc.invalid, tc.want, tc.not, j)
		}
	}
}

// The empty timeline follows the inputs as they are now. Workers 501, then
// "abc": Simulate was disabled, and the timeline still asked for it over
// 501 lanes (the configuration keeps the last valid value of a field).
func TestEmptyTimelineFollowsTheInputs(t *testing.T) {
	l := newLab()
	for _, step := range []struct {
		key, text      string
		lanes, invalid int
		want, unwanted string
	}{
		{"workers", "501", 501, 0, "Press Simulate (m): 501 workers", "Fix"},
		{"workers", "abc", 0, 1, "Fix 1 field first", "501"},
		{"workers", "30", 30, 0, "one of the 30 workers", "Fix"},
		{"jobs", "x", 30, 1, "Fix 1 field first", "Press"},
		{"workers", "-2", 0, 2, "Fix 2 fields first", "30 workers"},
		{"jobs", "2", 0, 1, "Fix 1 field first", "Press"},
		{"workers", "501", 501, 0, "Press Simulate (m): 501 workers", "Fix"},
		{"workers", "50", 50, 0, "Press Run (r)", "Simulate"},
		// Valid, but too many jobs a second for a live run: it said Press Run.
		{"workload", "open", 50, 0, "Press Run (r)", "Simulate"},                                        // every 1s: 50 jobs/s
		{"jobs", "20", 50, 0, "Press Run (r)", "Simulate"},                                              // 1000 jobs in all
		{"every", "20ms", 50, 0, "Press Simulate (m); Run cannot take this: Job interval", "Press Run"}, // 2500 jobs/s
		{"jobs", "10", 50, 0, "Press Run (r)", "Simulate"},                                              // 500 jobs in all: any rate
		{"jobs", "20", 50, 0, "Press Simulate (m); Run cannot take this: Job interval", "Press Run"},
		{"every", "1s", 50, 0, "Press Run (r)", "Simulate"},
		// A custom target with an outage: neither starts.
		{"target", "http://localhost:9000/x", 50, 0, "Press Run (r)", "Neither"},
		{"outage", "3s", 50, 0, "Neither Run nor Simulate can start", "Press"},
		// More workers than a live run takes, with a custom target: it
		// said "Press Simulate (m)", which the target disables.
		{"outage", "0s", 50, 0, "Press Run (r)", "Neither"},
		{"workers", "600", 600, 0, "Neither Run nor Simulate can start", "Press"},
	} {
		l.Set(step.key, step.text)
		l.view.mu.Lock()
		lay, in := l.view.frameFor(nil)
		var o browser.Ops
		paint(&o, &lay, l.view.m, in)
		l.view.mu.Unlock()
		j := strings.Join(o.Strings(), "|")
		if lay.workers != step.lanes || in.invalid != step.invalid || !strings.Contains(j, step.want) || strings.Contains(j, step.unwanted) {
			t.Errorf("%s %q: %d lanes, %d invalid, drawn %s; want %d lanes, %d invalid, %q and no %q",
				step.key, step.text, lay.workers, in.invalid, j, step.lanes, step.invalid, step.want, step.unwanted)
		}
	}
}

// The empty timeline of a simulation says what the page does with it:
// computes it, then draws it, then, left undrawn by Stop, waits for Run or
// Simulate again. While it was drawn it said "drawn when it is done, or
// when Stop (s) ends it", as the run bar said Stop leaves it undrawn.
func TestEmptyTimelineOfASimulation(t *testing.T) {
	s := fleet.Default()
	s.Workers, s.Jobs = 50, 4
	rec := fleet.Simulate(s)
	v := newView()
	hint := func() string {
		v.mu.Lock()
		defer v.mu.Unlock()
		lay, in := v.frameFor(nil)
		var o browser.Ops
		paint(&o, &lay, v.m, in)
		return strings.Join(o.Strings(), "|")
	}
	for _, step := range []struct {
		name, want, unwanted string
		do                   func()
	}{
		{"computing", "Simulating in virtual time: the timeline is drawn when it is done, or when Stop (s) ends it", "Drawing", func() { v.forget(s) }},
		{"computed", "Simulated in virtual time: drawing the timeline…", "Stop (s) ends it", v.computed},
		{"left undrawn", "Press Run (r)", "Drawing", func() {
			v.loadUnless(s, rec, rec.Records(), func() bool { return true })
			v.undrawn()
		}},
		{"computing again", "Simulating in virtual time: the timeline is drawn", "Drawing", func() { v.forget(s) }},
	} {
		step.do()
		if j := hint(); !strings.Contains(j, step.want) || strings.Contains(j, step.unwanted) {
			t.Errorf("%s: drawn %s; want %q and no %q", step.name, j, step.want, step.unwanted)
		}
	}
}

// A watch of a shared room has no lanes: its histogram counts the room's
// arrivals by receive time and what the server did, and its numbers count
// them, with the busiest second.
func TestWatchModelAndPaint(t *testing.T) {
	m := newModel(t0, 0)
	m.room, m.watch = true, true
	for i, ev := range []struct {
		ms      int
		outcome string
	}{{10, "ok"}, {20, "limited"}, {900, "limited"}, {950, "ok"}, {1200, "drop"}, {1990, "hang"}, {2500, "ok"}} {
		m.serverEvent(&mock.Event{Type: "arrival", Seq: uint64(i + 1), Tag: "w0.j0.a1", At: at(ev.ms), Outcome: ev.outcome})
	}
	bins := m.histogram(time.Second, 0, 3)
	want := [][fleet.NumClasses]int{
		{fleet.ClassOK: 2, fleet.ClassLimited: 2},
		{fleet.ClassFailed: 1, fleet.ClassTimeout: 1},
		{fleet.ClassOK: 1},
	}
	for i := range want {
		if bins[i] != want[i] {
			t.Errorf("bin %d = %v, want %v", i, bins[i], want[i])
		}
	}
	m.serverEvent(&mock.Event{Type: "dropped", Dropped: 3})
	// The busiest second: the first, with 10, 20, 900 and 950 ms.
	if st := m.wcount; st != (watchStats{Arrivals: 7, OK: 3, Limited: 2, Failed: 2, Peak: 4, Dropped: 3}) {
		t.Errorf("watch counts %+v", st)
	}

	// The busiest second slides, as the run's peak req/s does: ten
	// arrivals at 0.9 s and ten at 1.1 s are twenty within one second,
	// though no whole second of the clock holds more than ten; arrivals a
	// little out of order still count.
	p := newModel(t0, 0)
	p.room, p.watch = true, true
	for i, ms := range []int{900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 1100, 1101, 1102, 1103, 1104, 1105, 1106, 1108, 1107, 1109, 2200} {
		p.serverEvent(&mock.Event{Type: "arrival", Seq: uint64(i + 1), Tag: "w0.j0.a1", At: at(ms), Outcome: "ok"})
	}
	if p.wcount.Peak != 20 {
		t.Errorf("peak %d within any second, want 20", p.wcount.Peak)
	}

	l := newLayout(1000, 0, 3*time.Second, &normalTheme)
	if l.histTop-l.lanesTop > 40 {
		t.Errorf("a watch's layout keeps %v px of lanes", l.histTop-l.lanesTop)
	}
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, running: true, now: 3 * time.Second, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	joined := strings.Join(o.Strings(), "|")
	for _, want := range []string{"Requests received per 250 ms", "everyone in the shared room", "time since Watch"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q drawn: %s", want, joined)
		}
	}
	if strings.Contains(joined, "workers") {
		t.Error("a watch draws a workers title without lanes")
	}
	if got := hit(&l, m, l.x(time.Second), l.lanesTop); got != -1 {
		t.Errorf("hit in a watch's (absent) lanes = %d", got)
	}
}

// textY finds where o draws s: the y of its first opText (the display
// list's text op is 10, string index, x, y, font, align, baseline).
func textY(o *browser.Ops, s string) (float64, bool) {
	idx := -1
	for i, str := range o.Strings() {
		if str == s {
			idx = i
		}
	}
	buf := o.Buffer()
	for i := 0; i+3 < len(buf); i++ {
		if buf[i] == 10 && buf[i+1] == float32(idx) {
			return float64(buf[i+3]), true
		}
	}
	return 0, false
}

// A watch has no lanes: the hidden-tab label goes inside the histogram,
// not over its title.
func TestHiddenLabelInAWatch(t *testing.T) {
	m := newModel(t0, 0)
	m.room, m.watch = true, true
	m.setHidden(true, 100*time.Millisecond)
	m.setHidden(false, 900*time.Millisecond)
	l := newLayout(1000, 0, 3*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, now: 3 * time.Second})
	y, ok := textY(&o, "tab hidden: timers throttled, not measured truth")
	if !ok || y < l.histTop {
		t.Errorf("hidden-tab label at y %v (found %v), want inside the histogram (top %v)", y, ok, l.histTop)
	}
}

// An outage comes from the server's stream: a stretch, extended or ended
// early by the next message, shaded across every panel with a label.
func TestModelOutages(t *testing.T) {
	m := newModel(t0, 3)
	for _, ev := range []mock.Event{
		{Type: "outage", At: at(1000), Until: at(4000)},
		{Type: "outage", At: at(2500), Until: at(2500)}, // ended early
		{Type: "outage", At: at(6000), Until: at(9000)},
		{Type: "outage", At: at(7000), Until: at(10000)}, // extended
		{Type: "arrival", Seq: 1, Tag: "w0.j0.a1", At: at(6500), Outcome: "outage", Status: 503},
	} {
		m.serverEvent(&ev)
	}
	want := []interval{{time.Second, 2500 * time.Millisecond}, {6 * time.Second, 10 * time.Second}}
	if len(m.outages) != 2 || m.outages[0] != want[0] || m.outages[1] != want[1] {
		t.Errorf("outages %v, want %v", m.outages, want)
	}
	if c := m.arrivals[0].class; c != fleet.ClassLimited {
		t.Errorf("an outage's arrival is %v, want limited: its 503 is drawn as the client classes it", c)
	}
	l := newLayout(1000, 3, 12*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme})
	if y, ok := textY(&o, "server down"); !ok || y < l.srvTop || y > l.srvTop+l.srvH {
		t.Errorf("outage label at %v (found %v), want in the server panel", y, ok)
	}
	// Zoomed in between the two, neither is drawn.
	l.from, l.span = 3*time.Second, 2*time.Second
	o.Reset()
	paint(&o, &l, m, frameInput{th: &normalTheme})
	if _, ok := textY(&o, "server down"); ok {
		t.Error("an outage outside the window is drawn")
	}
}

// An outage during a halved limit is drawn over the halved limit's shading,
// in the histogram and the server panel as in the lanes: the server answers
// 503 to everything while it is down, whatever its limit.
func TestOutageOverHalvedLimit(t *testing.T) {
	m := newModel(t0, 3)
	m.serverEvent(&mock.Event{Type: "outage", At: at(1000), Until: at(4000)})
	m.serverEvent(&mock.Event{Type: "limit", At: at(2000), Until: at(7000), Scale: 0.5})
	l := newLayout(1000, 3, 8*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	// shade is the last of the two shadings filled over (x, y).
	shade := func(x, y float64) int {
		fill, got := -1, -1
		for _, op := range displayOps(&o) {
			switch {
			case op.code == 1:
				fill = int(op.args[0])
			case op.code == 3 && (fill == colOutage || fill == colSqueeze):
				a := op.args
				if float32(x) >= a[0] && float32(x) <= a[0]+a[2] && float32(y) >= a[1] && float32(y) <= a[1]+a[3] {
					got = fill
				}
			}
		}
		return got
	}
	for _, c := range []struct {
		panel string
		y     float64
	}{{"histogram", l.histTop + l.histH/2}, {"server panel", l.srvTop + l.srvH/2}} {
		if got := shade(l.x(3*time.Second), c.y); got != colOutage {
			t.Errorf("%s at 3 s (down, and the limit halved): shaded %d, want the outage's %d", c.panel, got, colOutage)
		}
		if got := shade(l.x(5*time.Second), c.y); got != colSqueeze {
			t.Errorf("%s at 5 s (the limit halved): shaded %d, want the halved limit's %d", c.panel, got, colSqueeze)
		}
	}
}

// Hovering another client's arrival (or anyone's, in a watch) in the server
// panel tells what the server did with it; the page's own attempts are
// described as attempts.
func TestArrivalTooltip(t *testing.T) {
	v := watchedView(t, at(2000),
		mock.Event{Type: "arrival", Seq: 1, Tag: "w0.j0.a1", At: at(100), Outcome: "ok", Status: 200},
		mock.Event{Type: "arrival", Seq: 2, Tag: "w3.j1.a2", At: at(900), Outcome: "limited", Status: 429},
		mock.Event{Type: "end", Seq: 2, At: at(950), End: "sent"},
	)
	v.mu.Lock()
	a := v.m.arrivals[1]
	x, y := v.lay.x(a.at), v.lay.srvY(a.seq)
	v.mu.Unlock()
	if !v.pointer(x+2, y+1) {
		t.Fatal("hovering an arrival changed nothing")
	}
	tp, ok := v.selection()
	if !ok || tp.Title != "Arrival #2" {
		t.Fatalf("tooltip %+v (%v)", tp, ok)
	}
	joined := strings.Join(tp.Lines, " | ")
	for _, want := range []string{"received at 0.900 s", "429 Too Many Requests (limited)", "client's tag: w3.j1.a2"} {
		if !strings.Contains(joined, want) {
			t.Errorf("tooltip lacks %q: %s", want, joined)
		}
	}
	v.mu.Lock()
	var o browser.Ops
	paintOverlay(&o, &v.lay, v.m, v.theme, x, v.sel, v.selArr, v.hovBin())
	v.mu.Unlock()
	if o.Len() < 10 {
		t.Error("no ring around the hovered arrival")
	}
	if v.pointer(x+200, y); v.selArr != -1 {
		t.Errorf("hovering empty space kept arrival %d", v.selArr)
	}
}

// A halved limit comes from the server's stream like an outage: a stretch,
// extended or ended early by the next message, with its scale. The
// histogram's limit line steps down to the scaled limit over it.
func TestModelScaledLimits(t *testing.T) {
	m := newModel(t0, 3)
	for _, ev := range []mock.Event{
		{Type: "limit", At: at(1000), Until: at(6000), Scale: 0.5},
		{Type: "limit", At: at(3000), Until: at(3000), Scale: 0.5}, // ended early
		{Type: "limit", At: at(8000), Until: at(10000), Scale: 0.5},
		{Type: "limit", At: at(9000), Until: at(12000), Scale: 0.5}, // extended
	} {
		m.serverEvent(&ev)
	}
	want := []squeeze{{interval{time.Second, 3 * time.Second}, 0.5}, {interval{8 * time.Second, 12 * time.Second}, 0.5}}
	if len(m.limits) != 2 || m.limits[0] != want[0] || m.limits[1] != want[1] {
		t.Fatalf("limits %v, want %v", m.limits, want)
	}
	l := newLayout(1000, 3, 14*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	y := func(rate float64) float32 {
		return float32(math.Round(l.histTop+l.histH-rate/l.histMax*l.histH) + 0.5)
	}
	// The line's horizontal segments (opLine: 5, x1, y1, x2, y2), in its
	// colour (its casing under it draws them too).
	type seg struct{ x1, x2, y float32 }
	var segs []seg
	stroke := -1
	for _, op := range displayOps(&o) {
		switch a := op.args; {
		case op.code == 2:
			stroke = int(a[0])
		case op.code == 5 && stroke == colLimit && a[1] == a[3] && a[0] != a[2] && (a[1] == y(10) || a[1] == y(5)):
			segs = append(segs, seg{a[0], a[2], a[1]})
		}
	}
	x := func(d time.Duration) float32 { return float32(l.x(d)) }
	wantSegs := []seg{
		{float32(l.left), x(time.Second), y(10)}, {x(time.Second), x(3 * time.Second), y(5)},
		{x(3 * time.Second), x(8 * time.Second), y(10)}, {x(8 * time.Second), x(12 * time.Second), y(5)},
		{x(12 * time.Second), float32(l.right), y(10)},
	}
	if len(segs) != len(wantSegs) {
		t.Fatalf("limit line segments %v, want %v", segs, wantSegs)
	}
	for i := range segs {
		if segs[i] != wantSegs[i] {
			t.Errorf("segment %d = %v, want %v", i, segs[i], wantSegs[i])
		}
	}
	if ly, ok := textY(&o, "limit ×0.5"); !ok || float32(ly) >= y(5) || ly < l.histTop {
		t.Errorf("scaled limit label at %v (found %v), want just above the stepped line at %v", ly, ok, y(5))
	}
	// Zoomed in between the two, the line is whole and unlabelled.
	l.from, l.span = 4*time.Second, 3*time.Second
	o.Reset()
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	if _, ok := textY(&o, "limit ×0.5"); ok {
		t.Error("a scaled limit outside the window is drawn")
	}
}

// A halved limit is drawn at what the mock's limiter then admits — a
// window's count is rounded and at least 1, so 1 per second halved is
// still 1 — and the label at the line's right end, over a stretch that is
// halved there, names the halved limit, not the full one.
func TestScaledLimitAsTheServerAdmitsIt(t *testing.T) {
	for _, c := range []struct {
		query    string
		full     float64
		scaled   float64
		endLabel string
	}{
		{"?limiter=bucket&rate=10&burst=10", 10, 5, "server limit 5 req/s (burst 5)"},
		{"?limiter=fixed&limit=1&window=1s", 1, 1, "server limit 1 per 1 s"},
		{"?limiter=sliding&limit=5&window=1s", 5, 3, "server limit 3 per 1 s"},
		{"?limiter=fixed&limit=60&window=1m", 1, 0.5, "server limit 30 per 1 min"}, // not "per 1m0s", nor "1m"
	} {
		s, notes := fleet.FromQuery(mustURL(t, "http://x/"+c.query).Query())
		if len(notes) > 0 {
			t.Fatalf("%s: %v", c.query, notes)
		}
		lim := limitsOf(&s)
		if rate, label := lim.scaledServer(0.5); lim.server != c.full || rate != c.scaled || label != c.endLabel {
			t.Errorf("%s halved: %v → %v %q, want %v → %v %q", c.query, lim.server, rate, label, c.full, c.scaled, c.endLabel)
		}
		m := newModel(t0, 3)
		m.serverEvent(&mock.Event{Type: "limit", At: at(2000), Until: at(20000), Scale: 0.5})
		l := newLayout(1000, 3, 8*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme, lim: lim})
		if _, ok := textY(&o, c.endLabel); !ok {
			t.Errorf("%s: no label %q at the halved line's end", c.query, c.endLabel)
		}
		if _, ok := textY(&o, lim.serverLabel); ok && lim.serverLabel != c.endLabel {
			t.Errorf("%s: the full limit's label %q is drawn over the halved end", c.query, lim.serverLabel)
		}
	}
}

// Burst sends twice what the limit lets through at once, within the
// endpoint's bound.
func TestBurstSize(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  int
	}{
		{"rate=10&burst=10", 20},
		{"limiter=bucket&rate=5&burst=1", 2},
		{"limiter=fixed&limit=100&window=1m", 200},
		{"limiter=sliding&limit=1000&window=1m", 1000},
		{"limiter=none", 20},
	} {
		q, _ := url.ParseQuery(tt.query)
		s, errs := fleet.FromQuery(q)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", tt.query, errs)
		}
		if got := BurstSize(&s); got != tt.want {
			t.Errorf("%s: BurstSize %d, want %d", tt.query, got, tt.want)
		}
	}
}

// Another client's requests in a run of its own (the Burst button) are
// drawn in grey in the server panel, and its note says what grey is; the
// run's own arrivals are not.
func TestModelOtherClientsArrivals(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.serverEvent(&mock.Event{Type: "arrival", Seq: 7, Tag: "w1.j0.a1", At: at(56), Outcome: "limited", Status: 429})
	if m.others {
		t.Fatal("the run's own arrival counted as another client's")
	}
	m.serverEvent(&mock.Event{Type: "arrival", Seq: 8, Tag: "burst", At: at(60), Outcome: "ok", Status: 200})
	if !m.others || m.arrivals[1].mark >= 0 {
		t.Fatalf("a burst's arrival: others %v, mark %d", m.others, m.arrivals[1].mark)
	}
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme})
	if _, ok := textY(&o, "each request when the server received it; grey: another client's (Burst)"); !ok {
		t.Error("the server panel's note does not say what grey is")
	}
}

// A burst told by the server's stream is marked in the server panel with
// its numbers, and down the histogram over the bars.
func TestModelBursts(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.serverEvent(&mock.Event{Type: "burst", At: at(600), N: 20, Admitted: 7})
	if len(m.bursts) != 1 || m.bursts[0] != (burst{600 * time.Millisecond, 20, 7}) {
		t.Fatalf("bursts %v", m.bursts)
	}
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme})
	if y, ok := textY(&o, "burst ×20, 7 admitted"); !ok || y < l.srvTop || y > l.srvTop+l.srvH {
		t.Errorf("burst label at %v (found %v), want in the server panel", y, ok)
	}
	// Its line down the histogram comes after the histogram's bars (path
	// rectangles inside the histogram).
	x := float32(math.Round(l.x(600*time.Millisecond)) + 0.5)
	lastBar, line := -1, -1
	for i, op := range displayOps(&o) {
		switch a := op.args; {
		case op.code == 5 && a[0] == x && a[2] == x && a[1] == float32(l.histTop):
			line = i
		case op.code == 15 && a[1] >= float32(l.histTop) && a[1] < float32(l.histTop+l.histH):
			lastBar = i
		}
	}
	if line < 0 || lastBar < 0 || line < lastBar {
		t.Errorf("burst line in the histogram at op %d, the last bar at %d: want it drawn, over the bars", line, lastBar)
	}
}

// Zoomed in on part of an outage, its dashed edges are drawn only where
// the outage starts or ends in the window, not at the window's edges, where
// it would look as if the server went down or came back there.
func TestOutageEdgesAtZoom(t *testing.T) {
	m := newModel(t0, 3)
	m.serverEvent(&mock.Event{Type: "outage", At: at(1000), Until: at(4000)})
	for _, c := range []struct {
		from, span time.Duration
		edges      int
	}{
		{0, 6 * time.Second, 2},
		{2 * time.Second, time.Second, 0},         // inside the outage
		{500 * time.Millisecond, time.Second, 1},  // its start only
		{3500 * time.Millisecond, time.Second, 1}, // its end only
	} {
		l := newLayout(1000, 3, 6*time.Second, &normalTheme)
		l.from, l.span = c.from, c.span
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme})
		stroke, edges := -1, 0
		for _, op := range displayOps(&o) {
			switch a := op.args; {
			case op.code == 2:
				stroke = int(a[0])
			case op.code == 5 && stroke == colOutageLn && a[0] == a[2] && a[1] == float32(l.lanesTop):
				edges++
			}
		}
		if edges != c.edges {
			t.Errorf("window %v+%v: %d outage edges drawn, want %d", c.from, c.span, edges, c.edges)
		}
	}
}

// displayOp is one operation of a display list: its code and arguments.
type displayOp struct {
	code int
	args []float32
}

// displayOps splits o's display list into its operations (the argument
// counts of app/browser's opcodes).
func displayOps(o *browser.Ops) []displayOp {
	nargs := map[int]int{1: 1, 2: 3, 3: 4, 4: 4, 5: 4, 6: 0, 7: 4, 8: 0, 9: 0, 10: 6, 11: 1, 12: 4, 13: 0, 14: 5, 15: 4, 16: 7, 17: 0}
	buf := o.Buffer()
	var ops []displayOp
	for i := 0; i < len(buf); {
		code := int(buf[i])
		n, ok := nargs[code]
		if !ok || i+1+n > len(buf) {
			panic("displayOps: unknown opcode " + strconv.Itoa(code))
		}
		ops = append(ops, displayOp{code, buf[i+1 : i+1+n]})
		i += 1 + n
	}
	return ops
}

// The labels on the histogram's limit line and in the server panel sit on
// a plate, so they read over the bars and marks under them.
func TestLabelsOnPlates(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.serverEvent(&mock.Event{Type: "limit", At: at(200), Until: at(800), Scale: 0.5})
	m.serverEvent(&mock.Event{Type: "burst", At: at(600), N: 20, Admitted: 7})
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	strs := o.Strings()
	ops := displayOps(&o)
	for _, label := range []string{"limit ×0.5", "burst ×20, 7 admitted", "server limit 10 req/s = 2.5 per 250 ms"} {
		found := false
		for i, op := range ops {
			if op.code != 10 || int(op.args[0]) >= len(strs) || strs[int(op.args[0])] != label {
				continue
			}
			found = true
			x, y := op.args[1], op.args[2]
			plated := false
			for j := max(0, i-5); j < i; j++ {
				if r := ops[j]; r.code == 3 && x >= r.args[0] && x <= r.args[0]+r.args[2] && y >= r.args[1]-1 && y <= r.args[1]+r.args[3]+1 {
					plated = true
				}
			}
			if !plated {
				t.Errorf("%q at (%v, %v) has no plate under it: %v", label, x, y, ops[max(0, i-5):i])
			}
		}
		if !found {
			t.Errorf("%q not drawn", label)
		}
	}
}

// A label's plate hugs its text: as wide as the text drawn in Chromium's
// sans-serif (DejaVu Sans, measured with measureText), a few pixels more,
// not a white box reaching past it (over a halved limit's shading, a
// stray one).
func TestPlatesHugTheirText(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.serverEvent(&mock.Event{Type: "limit", At: at(200), Until: at(800), Scale: 0.5})
	m.serverEvent(&mock.Event{Type: "burst", At: at(600), N: 20, Admitted: 7})
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s (burst 10)"}})
	strs := o.Strings()
	ops := displayOps(&o)
	for label, measured := range map[string]float32{"limit ×0.5": 59.35, "burst ×20, 7 admitted": 122.59, "server limit 10 req/s = 2.5 per 250 ms (burst 10)": 293.43} {
		found := false
		for i, op := range ops {
			if op.code != 10 || strs[int(op.args[0])] != label {
				continue
			}
			for j := i - 1; j >= max(0, i-5); j-- {
				if r := ops[j]; r.code == 3 {
					found = true
					if w := r.args[2]; w < measured || w > measured+8 {
						t.Errorf("%q: plate %.1f px wide for %.1f px of text", label, w, measured)
					}
					break
				}
			}
		}
		if !found {
			t.Errorf("%q not drawn on a plate", label)
		}
	}
}

// plates finds the plated labels o draws (a Rect, then the text, as
// platedText draws them): each text's plate.
func plates(o *browser.Ops) map[string]rect {
	strs := o.Strings()
	ops := displayOps(o)
	out := map[string]rect{}
	for i, op := range ops {
		if op.code != 10 {
			continue
		}
		for j := i - 1; j >= max(0, i-5); j-- {
			if r := ops[j]; r.code == 3 {
				out[strs[int(op.args[0])]] = rect{float64(r.args[0]), float64(r.args[1]), float64(r.args[2]), float64(r.args[3])}
				break
			}
			if ops[j].code == 10 {
				break
			}
		}
	}
	return out
}

// On a narrow canvas (a 320 px phone's 278 px) a halved stretch's "limit
// ×0.5" would sit on the limit line's own label at the right end: it
// goes where it covers nothing, or gives way. On a wide one both are
// drawn.
func TestLimitLabelsKeepApart(t *testing.T) {
	s, _ := fleet.FromQuery(mustURL(t, "http://x/?limiter=bucket&rate=10&burst=10").Query())
	lim := limitsOf(&s)
	for _, c := range []struct {
		width float64
		both  bool // both drawn (else the stretch's may give way)
	}{{278, false}, {348, false}, {1000, true}} {
		m := newModel(t0, 3)
		for _, r := range oneJob() {
			m.add(&r)
		}
		m.serverEvent(&mock.Event{Type: "limit", At: at(1200), Until: at(6200), Scale: 0.5})
		l := newLayout(c.width, 3, 2*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme, lim: lim})
		p := plates(&o)
		// 250 ms bins: the label says the limit per bin too, in as many
		// words as fit.
		var end rect
		ok := false
		for text, r := range p {
			if strings.HasSuffix(text, "limit 5 req/s = 1.25 per 250 ms (burst 5)") || strings.HasSuffix(text, "limit 5 req/s = 1.25 per 250 ms") || text == "limit 1.25 per 250 ms" {
				end, ok = r, true
			}
		}
		if !ok {
			t.Fatalf("%v px: no limit label at the line's end: %v", c.width, p)
		}
		scaled, ok := p["limit ×0.5"]
		if !ok && c.both {
			t.Errorf("%v px: the stretch's label drawn %v, want %v", c.width, ok, c.both)
		}
		if ok && scaled.overlaps(end) {
			t.Errorf("%v px: the stretch's label %v overlaps the limit's %v", c.width, scaled, end)
		}
	}
}

// A line's label keeps a gap from a burst's line down the histogram: the
// fleet bucket's label, pushed along its line by a burst near its start,
// began on the burst's dashed line (found by the page review).
func TestLineLabelsKeepClearOfBursts(t *testing.T) {
	p, _ := fleet.PresetByID("bucket") // 8 req/s under the server's 10
	s := p.Scenario()
	lim := limitsOf(&s)
	rec := fleet.Simulate(s)
	const label = "fleet bucket 8 req/s"
	for ms := 0; ms <= 3000; ms += 50 {
		v := newView()
		v.load(s, rec, rec.Records())
		m := v.m
		m.serverEvent(&mock.Event{Type: "burst", At: m.start.Add(time.Duration(ms) * time.Millisecond), N: 20, Admitted: 10})
		l := newLayout(1000, s.Workers, 13*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme, lim: lim})
		// In fewer words where it lies on the bars (placeLabel).
		r, ok := plates(&o)[label]
		if !ok {
			r, ok = plates(&o)[strings.TrimPrefix(label, "fleet ")]
		}
		if !ok {
			t.Fatalf("burst at %d ms: no %q drawn: %v", ms, label, plates(&o))
		}
		x := math.Round(l.x(time.Duration(ms)*time.Millisecond)) + 0.5
		if gap := math.Max(r.x-x, x-(r.x+r.w)); gap < 4 {
			t.Errorf("burst at %d ms (x %.1f): %q's plate %.1f–%.1f is %.1f px from the burst's line, want at least 4", ms, x, label, r.x, r.x+r.w, gap)
		}
	}
}

// On a phone's canvas (348 or 278 px) every text lies within it: the
// empty timeline's hint on several lines, the panels' notes shorter or
// left out, the other labels in fewer words. (Measured with fontWidth, an
// upper bound for the browsers' sans-serifs.)
func TestTextFitsANarrowCanvas(t *testing.T) {
	run := func(mod func(m *model)) *model {
		m := newModel(t0, 3)
		for _, r := range oneJob() {
			m.add(&r)
		}
		m.serverEvent(&mock.Event{Type: "limit", At: at(1500), Until: at(1900), Scale: 0.5})
		m.setHidden(true, 1400*time.Millisecond)
		m.setHidden(false, 1600*time.Millisecond)
		mod(m)
		return m
	}
	s, _ := fleet.FromQuery(mustURL(t, "http://x/?limiter=bucket&rate=10&burst=10").Query())
	lim := limitsOf(&s)
	for _, c := range []struct {
		name    string
		workers int
		m       *model
		lim     limits
	}{
		{"idle, 50 workers", 50, nil, lim},
		{"idle, 1 worker", 1, nil, lim},
		{"idle, 10,000 workers", 10000, nil, lim},
		{"a run", 3, run(func(*model) {}), lim},
		{"a simulation", 3, run(func(m *model) { m.simulated = true }), lim},
		{"a room", 3, run(func(m *model) { m.room = true }), lim},
		{"a burst", 3, run(func(m *model) { m.others = true }), lim},
		{"a watch", 0, run(func(m *model) { m.room, m.watch = true, true }), lim},
		{"limits above the scale", 3, run(func(*model) {}), limits{server: 1000, serverLabel: "server limit 1000 req/s (burst 10)", client: 500}},
	} {
		for _, width := range []float64{278, 348} {
			l := newLayout(width, c.workers, 2*time.Second, &normalTheme)
			var o browser.Ops
			paint(&o, &l, c.m, frameInput{th: &normalTheme, lim: c.lim})
			strs := o.Strings()
			for _, op := range displayOps(&o) {
				if op.code != 10 || strs[int(op.args[0])] == "" {
					continue
				}
				text := strs[int(op.args[0])]
				w := fontWidth(text, int(op.args[3]), l.scale)
				x0 := float64(op.args[1]) - w*float64(op.args[4])/2 // left, centre, right
				if x0 < 0 || x0+w > l.w {
					t.Errorf("%s, %v px: %q spans %.0f–%.0f px", c.name, width, text, x0, x0+w)
				}
			}
		}
	}
}

// A simulated run's scheduled outage reaches the model as the mock's
// stream tells of a live one: the same message, kept for a replay too.
func TestSimulatedOutageIsDrawn(t *testing.T) {
	s := fleet.Default()
	s.Workers, s.Jobs, s.Outage, s.OutageAt = 5, 4, time.Second, 500*time.Millisecond
	rec := fleet.Simulate(s)
	v := newView()
	v.load(s, rec, rec.Records())
	v.mu.Lock()
	m, log := v.m, v.srvLog
	v.mu.Unlock()
	if len(m.outages) != 1 || m.outages[0] != (interval{500 * time.Millisecond, 1500 * time.Millisecond}) {
		t.Errorf("outages %v, want [500ms, 1.5s)", m.outages)
	}
	if len(log) != 1 || !strings.Contains(log[0], `"type":"outage"`) {
		t.Errorf("server messages kept for a replay: %q", log)
	}
	l := newLayout(1000, s.Workers, 3*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme})
	if _, ok := textY(&o, "server down"); !ok {
		t.Error("the outage is not drawn")
	}
	s.Outage = 0
	rec = fleet.Simulate(s)
	v.load(s, rec, rec.Records())
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.m.outages) != 0 || len(v.srvLog) != 0 {
		t.Errorf("no outage configured: %v, %q", v.m.outages, v.srvLog)
	}
}

// The server panel draws each arrival as the client classes the answer it
// got: every outcome the mock names, with what the client sees of it.
func TestServerClassMatchesTheClient(t *testing.T) {
	for _, c := range []struct {
		outcome mock.Outcome
		client  core.Outcome // what the attempt's outcome is
	}{
		{mock.OutcomeOK, core.Outcome{Status: 200}},
		{mock.OutcomeLimited, core.Outcome{Status: 429}},
		{mock.OutcomeFail500, core.Outcome{Status: 500}},
		{mock.OutcomeFail503, core.Outcome{Status: 503}},
		{mock.OutcomeDrop, core.Outcome{Err: errors.New("network error")}},
		{mock.OutcomeHang, core.Outcome{Err: fleet.ErrTimeout}},
		{mock.OutcomeOutage, core.Outcome{Status: 503}},
	} {
		if got, want := serverClass(c.outcome.String()), fleet.Classify(c.client); got != want {
			t.Errorf("%s: drawn as %v, the client counts %v", c.outcome, got, want)
		}
	}
	if got := serverClass("something new"); got != fleet.ClassFailed {
		t.Errorf("an unknown outcome is drawn as %v, want failed", got)
	}
}

// What held a request before it left is drawn from the loop's send: the
// handoff to fetch() and then the browser's queueing, as one "held by the
// browser" segment, so the flight bar starts where the request left.
func TestHeldSegmentStartsAtTheSend(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	k := m.marks[0]
	if k.handoff != 1500*time.Microsecond || k.queued != 3*time.Millisecond {
		t.Fatalf("mark handoff %v, queued %v", k.handoff, k.queued)
	}
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme})
	ops := displayOps(&o)
	for i, op := range ops {
		if op.code != 1 || int(op.args[0]) != colQueued {
			continue
		}
		for _, r := range ops[i+1:] {
			if r.code != 15 { // the first rectangle of the path
				continue
			}
			x1, x2 := l.x(k.sent), l.x(k.sent+k.handoff+k.queued)
			if math.Abs(float64(r.args[0])-x1) > 0.01 || math.Abs(float64(r.args[2])-(x2-x1)) > 0.01 {
				t.Errorf("held segment x %v width %v, want x %.2f (the send) width %.2f (handoff + queueing)", r.args[0], r.args[2], x1, x2-x1)
			}
			return
		}
	}
	t.Error("no held-by-the-browser segment drawn")
}

// In an open workload a worker's jobs overlap: each takes the lowest row
// of the worker's lane free when it started, and gives it back when it
// ends; the lane splits into as many rows as the most jobs at once (up to
// maxRows, each row at least a pixel), and every attempt, wait and end is
// drawn, and found by the pointer, in its job's row.
func TestOverlappingJobsTakeRows(t *testing.T) {
	ev := func(w, j int, kind core.EventKind, ms int) fleet.Record {
		r := fleet.Record{Worker: w, Job: j, Event: core.Event{Kind: kind, At: at(ms), Attempt: 1}}
		if kind == core.EventOutcome {
			r.Event.Outcome = core.Outcome{Status: 200}
			r.Attempt = &fleet.Attempt{Status: 200}
		}
		return r
	}
	m := newModel(t0, 2)
	for _, r := range []fleet.Record{
		ev(0, 0, core.EventAttempt, 0),
		ev(0, 1, core.EventAttempt, 100), // job 0 still going: the next row
		ev(0, 0, core.EventOutcome, 250),
		ev(0, 0, core.EventDone, 250), // row 0 free again
		ev(0, 2, core.EventAttempt, 400),
		ev(0, 3, core.EventAttempt, 450), // jobs 1 and 2 going: row 2
		ev(1, 0, core.EventAttempt, 500),
	} {
		m.add(&r)
	}
	var slots []uint8
	for _, k := range m.marks {
		slots = append(slots, k.slot)
	}
	if want := []uint8{0, 1, 0, 2, 0}; !slices.Equal(slots, want) || m.rows != 3 || m.ends[0].slot != 0 {
		t.Errorf("rows of the attempts %v (want %v), rows %d (want 3), end's row %d", slots, want, m.rows, m.ends[0].slot)
	}

	for _, c := range []struct{ workers, jobs, want int }{
		{50, 1, 1}, {6, 3, 3}, {6, 9, maxRows}, {200, 4, 2}, {500, 4, 1}, {10000, 4, 1}, {0, 0, 1},
	} {
		if got := laneRows(c.workers, c.jobs); got != c.want {
			t.Errorf("laneRows(%d workers, %d jobs at once) = %d, want %d", c.workers, c.jobs, got, c.want)
		}
	}

	l := newLayoutRows(1000, 2, laneRows(2, m.rows), time.Second, &normalTheme)
	one := newLayout(1000, 2, time.Second, &normalTheme)
	six := newLayout(1000, 6, time.Second, &normalTheme) // as many lanes as the 2 workers' rows
	if l.sub != 3 || l.rowH != six.laneH || one.rowY(1, 0) != one.laneY(1) {
		t.Errorf("3 rows of %v px (a lane of 6 workers: %v px); unsplit row y %v, lane y %v", l.rowH, six.laneH, one.rowY(1, 0), one.laneY(1))
	}
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, now: 600 * time.Millisecond, running: true})
	for i, k := range m.marks {
		y := l.rowY(k.worker, k.slot)
		if top := l.lanesTop + float64(k.worker)*l.laneH; y < top || y > top+l.laneH {
			t.Errorf("attempt %d drawn at y %v, outside its worker's lane [%v, %v]", i, y, top, top+l.laneH)
		}
		if got := hit(&l, m, l.x(k.sent), y); got != i {
			t.Errorf("hit on attempt %d (worker %d, row %d) = %d", i, k.worker, k.slot, got)
		}
	}
	// Each attempt's mark is drawn in its row: a shape at its send time
	// and its row's middle.
	shapes := map[[2]float32]bool{}
	for _, op := range displayOps(&o) {
		if op.code == 7 {
			shapes[[2]float32{op.args[1], op.args[2]}] = true
		}
	}
	for i, k := range m.marks {
		if p := [2]float32{float32(l.x(k.sent)), float32(l.rowY(k.worker, k.slot))}; !shapes[p] {
			t.Errorf("no mark drawn for attempt %d at %v (worker %d, row %d)", i, p, k.worker, k.slot)
		}
	}
	if l.rowY(0, 0) == l.rowY(0, 1) {
		t.Error("two jobs at once share a row")
	}
}

// A run that ends while the page is hidden closes the hidden stretch at
// its end: the timeline marks it to there, not forever.
func TestHiddenStretchOpenAtTheEnd(t *testing.T) {
	m := newModel(t0, 2)
	m.setHidden(true, 500*time.Millisecond)
	m.setHidden(true, 600*time.Millisecond) // a second "hidden" changes nothing
	m.finish(900 * time.Millisecond)
	if len(m.hidden) != 1 || m.hidden[0] != (interval{from: 500 * time.Millisecond, to: 900 * time.Millisecond}) {
		t.Errorf("hidden stretches %+v, want one from 500 ms closed at the end, 900 ms", m.hidden)
	}
	m.setHidden(false, 1200*time.Millisecond) // shown after the end: already closed
	if m.hidden[0].to != 900*time.Millisecond {
		t.Errorf("the closed stretch moved to %v", m.hidden[0].to)
	}
}

// Rates under 0.1 req/s are written with their digits: the slowest limit
// the page takes (0.001 req/s) and a long run's histogram scale (one
// request per 5-minute bin is 0.0033 req/s) read 0 with two decimals.
func TestSmallRatesKeepTheirDigits(t *testing.T) {
	s, errs := fleet.FromQuery(url.Values{"rate": {"0.001"}, "bucket": {"on"}, "bucket_rate": {"0.002"}})
	if errs != nil {
		t.Fatal(errs)
	}
	lim := limitsOf(&s)
	if !strings.Contains(lim.serverLabel, "server limit 0.001 req/s") {
		t.Errorf("server label %q", lim.serverLabel)
	}
	for _, tt := range []struct {
		f    float64
		want string
	}{{0, "0"}, {12.5, "12.5"}, {0.25, "0.25"}, {0.05, "0.05"}, {0.005, "0.005"}, {0.0025, "0.0025"}, {0.00125, "0.00125"}, {0.0033333, "0.00333"}} {
		if got := rateText(tt.f); got != tt.want {
			t.Errorf("rateText(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
	// One request an hour for 49 hours: 5-minute bins, a scale of 0.005 req/s.
	m := newModel(t0, 1)
	for h := range 50 {
		ts := t0.Add(time.Duration(h) * time.Hour)
		for _, r := range []fleet.Record{
			{Worker: 0, Event: core.Event{Kind: core.EventAttempt, At: ts, Intended: ts, Attempt: h + 1}},
			{Worker: 0, Event: core.Event{Kind: core.EventOutcome, At: ts.Add(50 * time.Millisecond), Attempt: h + 1, Outcome: core.Outcome{Status: 500}}},
		} {
			m.add(&r)
		}
	}
	m.finish(49*time.Hour + time.Second)
	l := newLayout(1000, 1, m.last+m.last/50, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: lim})
	var labels []string
	for _, op := range displayOps(&o) {
		if op.code == 10 && op.args[1] == float32(l.left-6) && op.args[2] >= float32(l.histTop) && op.args[2] <= float32(l.histTop+l.histH) {
			labels = append(labels, o.Strings()[int(op.args[0])])
		}
	}
	want := []string{"0", rateText(l.histMax / 2), rateText(l.histMax)}
	if l.histMax >= 0.1 || !slices.Equal(labels, want) || labels[1] == "0" || labels[1] == labels[2] {
		t.Errorf("histogram scale %v req/s labelled %q, want %q", l.histMax, labels, want)
	}
	joined := strings.Join(o.Strings(), "|")
	if !strings.Contains(joined, "fleet bucket 0.002 req/s") {
		t.Errorf("no fleet bucket label with its rate: %s", joined)
	}
}

// A simulation can last days (1,000 attempts an hour apart, or a server
// asking for a day each time): the axis labels stay apart and the
// histogram's bins stay at least 4 px wide, as for a run of minutes.
func TestLongRunAxis(t *testing.T) {
	for _, span := range []time.Duration{time.Minute, 49 * time.Hour, 1000 * time.Hour, 1000 * 24 * time.Hour, 100 * 365 * 24 * time.Hour} {
		for _, th := range []*theme{&normalTheme, &presentTheme} {
			l := newLayout(1000, 1, span, th)
			plotW := l.right - l.left
			step := niceStep(l.span, plotW/(90*th.scale), tickSteps)
			ticks := l.ticks(step)
			if gap := l.x(step) - l.x(0); gap < 60*th.scale || len(ticks) < 2 {
				t.Errorf("%v (%s): %d ticks every %v, %.1f px apart", span, th.name, len(ticks), step, gap)
			}
			if bw := l.x(l.slice) - l.x(0); bw < 4 {
				t.Errorf("%v (%s): histogram bins of %v, %.2f px wide", span, th.name, l.slice, bw)
			}
		}
	}
}

// A burst pressed seconds after an outage has its label a row under the
// outage's "server down", not over it (the presenter's o, then b, during
// a watch: the plate of one hid the other); apart, both sit on the top
// row.
func TestBurstLabelClearsServerDown(t *testing.T) {
	for _, c := range []struct {
		burstAt int // ms
		lower   bool
	}{{700, true}, {1800, false}} {
		m := newModel(t0, 3)
		for _, r := range oneJob() {
			m.add(&r)
		}
		m.serverEvent(&mock.Event{Type: "outage", At: at(600), Until: at(1200)})
		m.serverEvent(&mock.Event{Type: "burst", At: at(c.burstAt), N: 20, Admitted: 0})
		l := newLayout(1000, 3, 2*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme})
		down, ok1 := textY(&o, "server down")
		burst, ok2 := textY(&o, "burst ×20, 0 admitted")
		if !ok1 || !ok2 {
			t.Fatalf("burst at %d ms: labels drawn %v %v", c.burstAt, ok1, ok2)
		}
		if lower := burst-down >= 13*l.scale; lower != c.lower || burst > l.srvTop+l.srvH {
			t.Errorf("burst at %d ms: its label at y %v, server down at %v (panel %v–%v): want a row lower %v", c.burstAt, burst, down, l.srvTop, l.srvTop+l.srvH, c.lower)
		}
	}
}

// textBoxes are the boxes of the texts o draws, in CSS px: left, top,
// right, bottom (fontWidth's estimate of the width; the font's size as
// the height).
func textBoxes(o *browser.Ops, scale float64) (boxes [][4]float64, texts []string) {
	strs := o.Strings()
	for _, op := range displayOps(o) {
		if op.code != 10 || strs[int(op.args[0])] == "" {
			continue
		}
		text, x, y, font := strs[int(op.args[0])], float64(op.args[1]), float64(op.args[2]), int(op.args[3])
		w := fontWidth(text, font, scale)
		h := 12 * scale
		if font == fontSmall {
			h = 11 * scale
		}
		x0 := x - w*float64(op.args[4])/2 // left, centre, right
		y0 := y - h/2
		switch int(op.args[5]) {
		case browser.BaselineTop:
			y0 = y
		case browser.BaselineBottom:
			y0 = y - h
		}
		boxes = append(boxes, [4]float64{x0, y0, x0 + w, y0 + h})
		texts = append(texts, text)
	}
	return boxes, texts
}

// The empty timeline's texts keep apart at every width and fleet size:
// its hint stays in the lanes' panel (a one-worker lane, 14 px high, took
// a phone's three wrapped lines over the histogram's title), and the
// lanes' title "workers" does not run into the axis' first label.
func TestIdleTextsKeepApart(t *testing.T) {
	const gap = 3 // px between two texts on one line
	for _, width := range []float64{278, 348, 1000} {
		for _, workers := range []int{1, 2, 3, 50, 600} {
			for _, th := range []*theme{&normalTheme, &presentTheme} {
				if th == &presentTheme && width < 1000 {
					continue // a projector's
				}
				l := newLayout(width, workers, 10*time.Second, th)
				var o browser.Ops
				paint(&o, &l, nil, frameInput{th: th})
				boxes, texts := textBoxes(&o, l.scale)
				for i := range boxes {
					for j := i + 1; j < len(boxes); j++ {
						a, b := boxes[i], boxes[j]
						if a[0] < b[2]+gap && b[0] < a[2]+gap && a[1] < b[3] && b[1] < a[3] {
							t.Errorf("%v px, %d workers, scale %v: %q (%.0f–%.0f, %.0f–%.0f) and %q (%.0f–%.0f, %.0f–%.0f) overlap",
								width, workers, l.scale, texts[i], a[0], a[2], a[1], a[3], texts[j], b[0], b[2], b[1], b[3])
						}
					}
				}
				lanesBottom := l.lanesTop + l.laneH*float64(l.workers)
				for i, b := range boxes {
					if strings.HasPrefix(texts[i], "Press ") && (b[1] < l.lanesTop || b[3] > lanesBottom) {
						t.Errorf("%v px, %d workers, scale %v: the hint %q spans %.0f–%.0f px, out of the lanes (%.0f–%.0f)", width, workers, l.scale, texts[i], b[1], b[3], l.lanesTop, lanesBottom)
					}
				}
			}
		}
	}
}

// bottomAxisTexts are the texts o draws on the time axis under the last
// panel, with their boxes.
func bottomAxisTexts(o *browser.Ops, l *layout) (boxes []rect, texts []string) {
	bs, ts := textBoxes(o, l.scale)
	for i, b := range bs {
		if math.Abs((b[1]+b[3])/2-l.bottomAxisY()) < 1 {
			boxes = append(boxes, rect{b[0], b[1], b[2] - b[0], b[3] - b[1]})
			texts = append(texts, ts[i])
		}
	}
	return boxes, texts
}

// An axis speaks one unit: a short run's read "0.0 s, 200 ms, 400 ms",
// and a 2.5 s run's "0.0 s, 500 ms, 1.0 s" (t = 0 took the seconds'
// format, the ticks under 1 s milliseconds). Every label of an axis has
// the same unit and, in seconds, the same decimals.
func TestAxisSpeaksOneUnit(t *testing.T) {
	for _, c := range []struct {
		from, span time.Duration
		unit       string
	}{
		{0, 600 * time.Millisecond, " ms"},
		{0, 900 * time.Millisecond, " ms"},
		{200 * time.Millisecond, 300 * time.Millisecond, " ms"}, // zoomed into a short run
		{0, 1100 * time.Millisecond, " s"},
		{0, 2500 * time.Millisecond, " s"},
		{0, 3 * time.Second, " s"},
		{7 * time.Second, time.Second, " s"}, // zoomed in
		{900 * time.Millisecond, 400 * time.Millisecond, " s"},
		{0, 10 * time.Second, " s"},
		{0, 90 * time.Second, " s"},
	} {
		for _, sz := range frameSizes {
			l := newLayout(sz.width, 3, c.span, sz.th)
			l.from = c.from
			var o browser.Ops
			paint(&o, &l, nil, frameInput{th: sz.th})
			_, texts := bottomAxisTexts(&o, &l)
			if len(texts) < 2 {
				t.Errorf("%v+%v, %s: axis labels %q", c.from, c.span, sz.name, texts)
				continue
			}
			decimals := func(s string) int {
				if i := strings.IndexByte(s, '.'); i >= 0 {
					return len(strings.TrimSuffix(s, " s")) - i - 1
				}
				return 0
			}
			for _, tx := range texts {
				if !strings.HasSuffix(tx, c.unit) || strings.HasSuffix(c.unit, " s") && strings.HasSuffix(tx, " ms") || decimals(tx) != decimals(texts[0]) {
					t.Errorf("%v+%v, %s: the axis reads %q, want every label in %q alike", c.from, c.span, sz.name, texts, c.unit)
					break
				}
			}
		}
	}
}

// The crosshair's time label, on a plate under the last panel, hides the
// axis labels it would overlap (zoomed in, it covered part of "7.5 s",
// whose ends stuck out of it): the overlay paints the background over
// each of them, whole, before the plate.
func TestCrosshairLabelHidesTheTicksUnderIt(t *testing.T) {
	for _, sz := range frameSizes {
		l := newLayout(sz.width, 3, time.Second, sz.th)
		l.from = 7 * time.Second
		var frame browser.Ops
		paint(&frame, &l, nil, frameInput{th: sz.th})
		labels, texts := bottomAxisTexts(&frame, &l)
		covered := 0
		for x := l.left; x <= l.right; x += 2 {
			var o browser.Ops
			paintOverlay(&o, &l, nil, sz.th, x, -1, -1, -1)
			fill := -1
			var covers []rect
			var plate rect
			for _, op := range displayOps(&o) {
				a := op.args
				switch op.code {
				case 1:
					fill = int(a[0])
				case 3:
					r := rect{float64(a[0]), float64(a[1]), float64(a[2]), float64(a[3])}
					if fill == colBG {
						covers = append(covers, r)
					} else if fill == colText {
						plate = r
					}
				}
			}
			if plate.w == 0 {
				t.Fatalf("%s: no crosshair label at x %.0f", sz.name, x)
			}
			for i, b := range labels {
				if !b.overlaps(plate) {
					continue
				}
				hidden := false
				for _, c := range covers {
					hidden = hidden || c.x <= b.x && c.y <= b.y && c.x+c.w >= b.x+b.w && c.y+c.h >= b.y+b.h
				}
				if !hidden {
					t.Errorf("%s: the crosshair's label at x %.0f (%v) covers part of the axis' %q (%v)", sz.name, x, plate, texts[i], b)
					break
				}
				covered++
			}
		}
		if covered == 0 {
			t.Errorf("%s: the crosshair never met an axis label", sz.name)
		}
	}
}

// fitHeight shortens the lanes until the canvas fits the height it is
// given, never below minFitRow a lane (a pixel a row, split for
// overlapping jobs) nor above the lanes' own height: 50 workers fit a 1280 ×
// 720 projector under its 77 px legend, and so do 50 of 2 or 4 rows (the
// open arrivals preset's), 80 stop at the minimum and scroll, as do 100 of
// 4 rows, and a few workers and 200 keep their lanes.
func TestFitHeight(t *testing.T) {
	const h = 720 - 77 - fitMargin
	for _, c := range []struct {
		workers, sub int
		h            float64
		fits, min    bool // the canvas fits h; its rows are fitRow high
	}{
		{50, 1, h, true, false},
		{25, 2, h, true, false},
		{50, 2, h, true, false},
		{50, 4, h, true, false},
		{100, 4, h, false, true}, // 1 px rows
		{3, 1, h, true, false},
		{80, 1, h, false, true},
		{200, 1, h, false, false}, // 2.2 px lanes already
		{50, 1, 0, false, false},  // the viewport not known yet
	} {
		l := newLayoutRows(1238, c.workers, c.sub, 10*time.Second, &presentTheme)
		before := l
		l.fitHeight(c.h)
		if fits := l.h <= c.h; fits != c.fits {
			t.Errorf("%d workers × %d rows in %v px: %v px high", c.workers, c.sub, c.h, l.h)
		}
		if l.rowH > before.rowH || l.rowH < math.Min(before.rowH, fitRow(c.sub)) || (l.rowH == fitRow(c.sub)) != c.min {
			t.Errorf("%d workers × %d rows in %v px: rows of %v px, were %v", c.workers, c.sub, c.h, l.rowH, before.rowH)
		}
		if l.laneH != l.rowH*float64(c.sub) || l.histTop != l.snap(l.lanesTop+l.laneH*float64(c.workers)+28*l.scale) || l.markR != markRadius(l.rowH, l.scale, l.markMin) {
			t.Errorf("%d workers: lanes %v, rows %v, histogram at %v, marks %v: not laid out again", c.workers, l.laneH, l.rowH, l.histTop, l.markR)
		}
	}
}

// fitHeight keeps the canvas within the height it is given whatever the
// fleet and the device pixel ratio, once the lanes may thin to fit, and
// the panels lie on whole device pixels: placed on whole CSS pixels, the
// canvas grew up to half a pixel past the height, and at a 150% zoom the
// histogram's top fell between two device pixels.
func TestFitHeightOnWholePixels(t *testing.T) {
	onPixel := func(y, ratio float64) bool { return math.Abs(y*ratio-math.Round(y*ratio)) < 1e-6 }
	for _, ratio := range []float64{1, 1.25, 1.5, 2} {
		for workers := 2; workers <= 120; workers += 3 {
			for sub := 1; sub <= 4; sub++ {
				for h := 300.0; h <= 900; h += 37 {
					l := newLayoutRows(1238, workers, sub, 10*time.Second, &presentTheme)
					l.setPixelRatio(ratio)
					l.fitHeight(h)
					if l.h > h && l.rowH > fitRow(sub) {
						t.Fatalf("%d workers × %d rows at %gx in %v px: %v px high, rows of %v", workers, sub, ratio, h, l.h, l.rowH)
					}
					for _, y := range []float64{l.lanesTop, l.histTop, l.histTop + l.histH, l.srvTop, l.srvTop + l.srvH} {
						if !onPixel(y, ratio) {
							t.Fatalf("%d workers × %d rows at %gx in %v px: a panel's edge at %v px, %v device pixels", workers, sub, ratio, h, y, y*ratio)
						}
					}
				}
			}
		}
	}
}

// lateRects are the rectangles drawn as late (outlined in the tab-hidden
// colour), as [x1, x2] pairs.
func lateRects(o *browser.Ops) [][2]float64 {
	var path, late [][2]float64
	stroke := -1
	for _, op := range displayOps(o) {
		switch op.code {
		case 6: // begin
			path = path[:0]
		case 15: // path rect
			path = append(path, [2]float64{float64(op.args[0]), float64(op.args[0] + op.args[2])})
		case 2: // stroke style
			stroke = int(op.args[0])
		case 9: // stroke path
			if stroke == colHidden {
				late = append(late, path...)
			}
		}
	}
	return late
}

// What ran late because the page's thread was busy is drawn as such, where
// it happened: a wait past its planned end (the timer fired late) and an
// answer taken in after it came (the flight ends at the response's end).
// The wait itself is drawn as long as the loop chose, and a few
// milliseconds of slack are not drawn at all.
func TestLateIsDrawnAsLate(t *testing.T) {
	recs := []fleet.Record{
		{Event: core.Event{Kind: core.EventAttempt, At: at(0), Intended: at(0), Attempt: 1}},
		{Attempt: &fleet.Attempt{Status: 503, Pickup: 300 * time.Millisecond},
			Event: core.Event{Kind: core.EventOutcome, At: at(400), Attempt: 1, Outcome: core.Outcome{Status: 503}}},
		{Event: core.Event{Kind: core.EventWait, At: at(400), Attempt: 2, Wait: 100 * time.Millisecond, Reason: core.ReasonBackoff}},
		{Event: core.Event{Kind: core.EventAttempt, At: at(1300), Intended: at(500), Attempt: 2}},
		{Attempt: &fleet.Attempt{Status: 503, Pickup: 2 * time.Millisecond},
			Event: core.Event{Kind: core.EventOutcome, At: at(1350), Attempt: 2, Outcome: core.Outcome{Status: 503}}},
		{Event: core.Event{Kind: core.EventWait, At: at(1350), Attempt: 3, Wait: 100 * time.Millisecond, Reason: core.ReasonBackoff}},
		{Event: core.Event{Kind: core.EventAttempt, At: at(1452), Intended: at(1450), Attempt: 3}},
		{Attempt: &fleet.Attempt{Status: 200}, Event: core.Event{Kind: core.EventOutcome, At: at(1500), Attempt: 3, Outcome: core.Outcome{Status: 200}}},
		{Event: core.Event{Kind: core.EventDone, At: at(1500), Attempt: 3}},
	}
	m := newModel(t0, 1)
	for _, r := range recs {
		m.add(&r)
	}
	l := newLayout(1000, 1, 2*time.Second, &normalTheme)
	var o browser.Ops
	paintWaits(&o, &l, m, frameInput{th: &normalTheme}, every)
	paintFlights(&o, &l, m, frameInput{th: &normalTheme}, every)
	got := lateRects(&o)
	want := [][2]float64{
		{l.x(500 * time.Millisecond), l.x(1300 * time.Millisecond)}, // the first wait's timer, 800 ms late
		{l.x(100 * time.Millisecond), l.x(400 * time.Millisecond)},  // the first answer, taken in 300 ms after it came
	}
	if len(got) != len(want) {
		t.Fatalf("late drawn at %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i][0]-want[i][0]) > 0.01 || math.Abs(got[i][1]-want[i][1]) > 0.01 {
			t.Errorf("late %d drawn over %v, want %v", i, got[i], want[i])
		}
	}
	for i, want := range []string{"503 Service Unavailable after 100 ms\nanswered at 0.100 s; the page took it in 300 ms later (its thread was busy)",
		"(+800 ms late)\nsent late: the page's thread was busy"} {
		tp := describe(&m.marks[i], shown{})
		if text := strings.Join(tp.Lines, "\n"); !strings.Contains(text, want) {
			t.Errorf("attempt %d's tooltip lacks %q:\n%s", i+1, want, text)
		}
	}
	if text := strings.Join(describe(&m.marks[2], shown{}).Lines, "\n"); strings.Contains(text, "late:") || strings.Contains(text, "took it in") {
		t.Errorf("attempt 3, 2 ms late, is not late:\n%s", text)
	}
	// A simulation measures no lateness: its tooltips said "(+0 µs late)"
	// while the lateness card said "not measured in a simulation".
	on := m.marks[2]
	on.sent = on.intended
	if text := strings.Join(describe(&on, shown{simulated: true}).Lines, "\n"); strings.Contains(text, "late") || strings.Contains(text, "intended") || !strings.Contains(text, "sent "+fmtSeconds(on.sent)+" (virtual time)") {
		t.Errorf("a simulated attempt's tooltip:\n%s\nwant its send time in virtual time, nothing of lateness", text)
	}
	// The first wait's backoff bar: as long as the loop chose.
	var path [][2]float64
	fill := -1
	for _, op := range displayOps(&o) {
		switch op.code {
		case 6:
			path = path[:0]
		case 15:
			path = append(path, [2]float64{float64(op.args[0]), float64(op.args[0] + op.args[2])})
		case 1:
			fill = int(op.args[0])
		case 8:
			if fill == colBackoff && (len(path) != 2 || math.Abs(path[0][1]-l.x(500*time.Millisecond)) > 0.01) {
				t.Errorf("backoff bars %v: the first should end at its planned end, x %.1f", path, l.x(500*time.Millisecond))
			}
		}
	}
}

// An attempt a simulation cut at its attempt limit says so: no one
// pressed Stop.
func TestAttemptCutAtTheLimitSaysSo(t *testing.T) {
	p, _ := fleet.PresetByID("flood")
	s := p.Scenario()
	rec, sum := fleet.SimulateWith(s, fleet.SimOptions{MaxAttempts: 30}) // the 31st of the first 50 sends: 30 in flight
	if !sum.Stopped {
		t.Fatal("the simulation did not reach its attempt limit")
	}
	m := newModel(rec.Start, s.Workers)
	m.simulated = true
	for _, r := range rec.Records() {
		m.add(&r)
	}
	cut := 0
	for i := range m.marks {
		k := &m.marks[i]
		if k.class != fleet.ClassAborted {
			continue
		}
		cut++
		if text := strings.Join(describe(k, shown{}).Lines, "\n"); !strings.Contains(text, "aborted (the page's limit on a simulation's attempts)") || strings.Contains(text, "Stop") {
			t.Errorf("an attempt cut at the limit:\n%s", text)
		}
	}
	if cut == 0 {
		t.Error("no attempt was cut at the limit")
	}
}

// A watch whose connection to the server drops says so while it is down
// (its arrivals meanwhile are not seen), hatches the stretch, and once the
// stream says hello again qualifies its count by how long it was lost.
func TestWatchConnectionLost(t *testing.T) {
	v := newView()
	s := fleet.Default()
	s.Room = "r1"
	v.startWatch(s, time.Now().Add(-2*time.Second))
	v.onServerEvent(`{"type":"lost","at":"2026-12-02T04:00:00Z"}`)
	if st := v.watchStats(); !st.Lost {
		t.Fatalf("after the connection dropped: %+v", st)
	}
	time.Sleep(20 * time.Millisecond)
	if c := v.onServerEvent(`{"type":"hello","key":"r1"}`); c != "hello" {
		t.Error("the stream's hello again is not a hello")
	}
	st := v.watchStats()
	if st.Lost || st.LostFor < 20*time.Millisecond {
		t.Errorf("after the reconnect: %+v, want lost for at least 20 ms", st)
	}
	if got := lostText(st.LostFor); !strings.Contains(got, "not counting") {
		t.Errorf("the count is not qualified: %q", got)
	}
	l := newLayout(1000, 0, 3*time.Second, &normalTheme)
	var o browser.Ops
	v.mu.Lock()
	paint(&o, &l, v.m, frameInput{th: &normalTheme, now: 3 * time.Second})
	v.mu.Unlock()
	if !slices.ContainsFunc(o.Strings(), func(s string) bool { return strings.HasPrefix(s, "connection") }) {
		t.Errorf("no 'connection lost' stretch drawn: %q", o.Strings())
	}
}

// A watch has no answers of its own to tell the clocks apart: the
// stream's hello, sent between the stream's opening (or its last loss)
// and its arrival, bounds them, and a projector whose clock is off the
// server's draws the room's arrivals on its own clock, and says so. It
// drew them seconds off its "now" line.
func TestWatchTakesTheClockFromTheHello(t *testing.T) {
	js := func(ts time.Time) string { return ts.UTC().Format(time.RFC3339Nano) }
	for _, c := range []struct {
		name      string
		skew      time.Duration
		reconnect bool
		note      string
	}{
		{"one machine", 0, false, ""},
		{"server ahead", 2 * time.Second, false, "ahead of this device's"},
		{"server behind", -3 * time.Second, false, "behind this device's"},
		{"server behind, after a reconnect", -3 * time.Second, true, "behind this device's"},
	} {
		v := newViewOn("c", "o")
		s := fleet.Default()
		s.Room = "r1"
		start := time.Now()
		v.startWatch(s, start)
		v.opening(time.Now())
		if c.reconnect {
			v.opening(start.Add(-time.Hour)) // the first hello's bounds, had it come, would be loose
			v.onServerEvent(`{"type":"lost","at":"` + js(time.Now()) + `"}`)
		}
		v.onServerEvent(`{"type":"hello","key":"r1","at":"` + js(time.Now().Add(c.skew)) + `"}`)
		sent := time.Now()
		v.mu.Lock()
		v.m.serverEvent(&mock.Event{Type: "arrival", Seq: 1, Tag: "laptop-1.w1.1", At: sent.Add(c.skew), Outcome: "ok", Status: 200})
		a, shift := v.m.arrivals[0], v.m.shift
		l := newLayout(1000, 0, 3*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, v.m, frameInput{th: &normalTheme, now: time.Since(start)})
		v.mu.Unlock()
		if want := sent.Sub(start); (a.at - want).Abs() > 50*time.Millisecond {
			t.Errorf("%s: the arrival drawn at %v (shift %v), want %v on this device's clock", c.name, a.at, shift, want)
		}
		if tip := strings.Join(describeArrival(&a, true, shift != 0).Lines, "\n"); strings.Contains(tip, "moved onto this device's") != (c.note != "") {
			t.Errorf("%s: the arrival's tip says %q", c.name, tip)
		}
		said := slices.ContainsFunc(o.Strings(), func(s string) bool { return strings.Contains(s, "the server's clock is about") })
		if c.note == "" && said || c.note != "" && !slices.ContainsFunc(o.Strings(), func(s string) bool { return strings.Contains(s, c.note) }) {
			t.Errorf("%s: the notes %q, want one saying %q", c.name, o.Strings(), c.note)
		}
	}
}

// onMonotonic puts a wall-clock time (the browser's, from JavaScript) on
// the monotonic clock at its distance from now: a second ago stays a
// second ago, now with a monotonic reading, which model.since then reads.
func TestOnMonotonic(t *testing.T) {
	for _, ago := range []time.Duration{0, time.Second, -time.Second, time.Hour} {
		wall := time.Now().Add(-ago).Round(0)
		got := onMonotonic(wall)
		if !strings.Contains(got.String(), " m=") {
			t.Errorf("%v ago: %v has no monotonic reading", ago, got)
		}
		if d := time.Since(got) - ago; d < 0 || d > 50*time.Millisecond {
			t.Errorf("%v ago: onMonotonic is %v ago", ago, time.Since(got))
		}
	}
}

// A run's clocks are told apart by its own stream and its own answers,
// not by the last stream's: the bounds a closed stream's hello left were
// taken in by the next run before its own stream opened. A laptop 2 s
// behind the server that set its clock right between two runs (joining
// the venue's network) drew the second run's arrivals 2 s off, outside
// their requests, with a note that the server's clock was 2 s ahead.
func TestRunTakesNoClockFromTheLastStream(t *testing.T) {
	js := func(ts time.Time) string { return ts.UTC().Format(time.RFC3339Nano) }
	v := newViewOn("c", "o")
	s := fleet.Default()
	v.start(s, time.Now(), "")
	v.opening(time.Now())
	v.onServerEvent(`{"type":"hello","key":"run-1","at":"` + js(time.Now().Add(2*time.Second)) + `"}`)
	// The next run, the device's clock now the server's.
	v.start(s, t0, "")
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, r := range oneJob() {
		v.m.add(&r)
	}
	if v.m.shift != 0 {
		t.Errorf("the next run takes the server's clock %v off this device's, want 0", v.m.shift)
	}
	for _, k := range v.m.marks {
		if k.hasServer && (k.serverAt < k.sent || k.serverAt > k.end) {
			t.Errorf("an arrival drawn at %v, its request in flight %v–%v", k.serverAt, k.sent, k.end)
		}
	}
}

// A live run's model from its real start (view.restart, after its
// stream's hello) keeps what that stream told the model Run made at the
// click: the hello's bounds on the clocks, which put the first arrivals
// on this device's clock before any answer came, and a loss before the
// run began.
func TestRunKeepsWhatItsStreamToldBeforeItStarted(t *testing.T) {
	js := func(ts time.Time) string { return ts.UTC().Format(time.RFC3339Nano) }
	s := fleet.Default()
	v := newViewOn("c", "o")
	v.start(s, time.Now(), "") // the click's
	v.opening(time.Now())
	v.onServerEvent(`{"type":"hello","key":"run-1","at":"` + js(time.Now().Add(2*time.Second)) + `"}`)
	start := time.Now()
	v.restart(s, start, "")
	v.mu.Lock()
	v.m.serverEvent(&mock.Event{Type: "arrival", Seq: 1, Tag: "w0.j0.a1", At: start.Add(2*time.Second + 10*time.Millisecond), Outcome: "ok", Status: 200})
	a, n := v.m.arrivals[0], v.m.clockN
	v.mu.Unlock()
	if n != 1 || (a.at-10*time.Millisecond).Abs() > 50*time.Millisecond {
		t.Errorf("the first arrival, 10 ms into the run by a server 2 s ahead, drawn at %v (%d bounds), want about 10 ms", a.at, n)
	}

	v = newViewOn("c", "o")
	v.start(s, time.Now(), "")
	v.opening(time.Now())
	v.onServerEvent(`{"type":"lost","at":"` + js(time.Now()) + `"}`)
	v.restart(s, time.Now(), "")
	v.mu.Lock()
	lost, _ := v.m.lostFor(time.Second)
	v.mu.Unlock()
	if !lost {
		t.Error("a stream lost before the run began is not drawn lost")
	}
}

// A run waits for its stream's hello (up to streamWait) before it starts,
// but not for a stream that failed: a run's is not asked again, so its
// wait was in vain (a stream the server refused held the run 2 s). A
// watch, which asks again, waits on; arrivals signal nothing.
func TestRunStopsWaitingForAStreamThatFailed(t *testing.T) {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for _, c := range []struct {
		msg    string
		retry  bool
		signal bool
	}{
		{`{"type":"hello","key":"run-1","at":"` + now + `"}`, false, true},
		{`{"type":"hello","key":"room","at":"` + now + `"}`, true, true},
		{`{"type":"lost","at":"` + now + `"}`, false, true},
		{`{"type":"refused","status":404,"at":"` + now + `"}`, false, true},
		{`{"type":"lost","at":"` + now + `"}`, true, false},
		{`{"type":"arrival","key":"run-1","seq":1,"tag":"w0.j0.a1","at":"` + now + `","outcome":"ok","status":200}`, false, false},
	} {
		v := newViewOn("c", "o")
		v.start(fleet.Default(), time.Now(), "")
		h := make(chan struct{}, 1)
		streamed(v, h, c.retry)(c.msg)
		if got := len(h) == 1; got != c.signal {
			t.Errorf("%s with retry %v: the run's wait ends %v, want %v", c.msg, c.retry, got, c.signal)
		}
	}
}

// A limit message inside the latest stretch extends it when its scale is
// the same, ends it when it is an end (to = from), and with another scale
// (another client's switch in a room: the mock holds one stretch a key,
// the latest) ends it there and begins its own. The model kept the first
// scale over the whole of both.
func TestModelLimitTakesTheLatestScale(t *testing.T) {
	for _, tt := range []struct {
		name string
		evs  []mock.Event
		want []squeeze
	}{
		{"extended", []mock.Event{{Type: "limit", At: at(1000), Until: at(6000), Scale: 0.5}, {Type: "limit", At: at(3000), Until: at(9000), Scale: 0.5}},
			[]squeeze{{interval{time.Second, 9 * time.Second}, 0.5}}},
		{"ended", []mock.Event{{Type: "limit", At: at(1000), Until: at(6000), Scale: 0.5}, {Type: "limit", At: at(3000), Until: at(3000), Scale: 1}},
			[]squeeze{{interval{time.Second, 3 * time.Second}, 0.5}}},
		{"another scale", []mock.Event{{Type: "limit", At: at(1000), Until: at(6000), Scale: 0.5}, {Type: "limit", At: at(3000), Until: at(5000), Scale: 0.25}},
			[]squeeze{{interval{time.Second, 3 * time.Second}, 0.5}, {interval{3 * time.Second, 5 * time.Second}, 0.25}}},
		{"another scale at once", []mock.Event{{Type: "limit", At: at(1000), Until: at(6000), Scale: 0.5}, {Type: "limit", At: at(1000), Until: at(4000), Scale: 0.25}},
			[]squeeze{{interval{time.Second, 4 * time.Second}, 0.25}}},
		{"after it", []mock.Event{{Type: "limit", At: at(1000), Until: at(2000), Scale: 0.5}, {Type: "limit", At: at(3000), Until: at(4000), Scale: 0.25}},
			[]squeeze{{interval{time.Second, 2 * time.Second}, 0.5}, {interval{3 * time.Second, 4 * time.Second}, 0.25}}},
	} {
		m := newModel(t0, 3)
		for _, ev := range tt.evs {
			m.serverEvent(&ev)
		}
		if !slices.Equal(m.limits, tt.want) {
			t.Errorf("%s: limits %v, want %v", tt.name, m.limits, tt.want)
		}
	}
}

// A burst told twice (by the Burst button's answer and by the stream) is
// one burst; two bursts are two.
func TestModelTakesABurstOnce(t *testing.T) {
	m := newModel(t0, 3)
	for _, ev := range []mock.Event{
		{Type: "burst", At: at(900), N: 20, Admitted: 10},
		{Type: "burst", At: at(900), N: 20, Admitted: 10},
		{Type: "burst", At: at(2000), N: 20, Admitted: 0},
	} {
		m.serverEvent(&ev)
	}
	if want := []burst{{900 * time.Millisecond, 20, 10}, {2 * time.Second, 20, 0}}; !slices.Equal(m.bursts, want) {
		t.Errorf("bursts %v, want %v", m.bursts, want)
	}
}

// An attempt the server left unanswered (a drop) and its client sent again
// on another connection (a browser's resend of a GET on a reused
// connection) shows several arrivals in the server panel: the attempt's
// tooltip, and each arrival's in a watch, say it is the same attempt sent
// again; another attempt's, or a first arrival's, say nothing of it.
func TestArrivalsSentAgainAreTold(t *testing.T) {
	m := newModel(t0, 1)
	for _, r := range []fleet.Record{
		{Event: core.Event{Kind: core.EventAttempt, At: at(0), Attempt: 1}},
		{Event: core.Event{Kind: core.EventOutcome, At: at(30), Attempt: 1, Outcome: core.Outcome{Err: errNetwork}}},
		{Event: core.Event{Kind: core.EventAttempt, At: at(500), Attempt: 2}},
	} {
		m.add(&r)
	}
	watch := newModel(t0, 0)
	watch.room, watch.watch = true, true
	for _, mm := range []*model{m, watch} {
		for i, c := range []struct {
			e     mock.Event
			again int
		}{
			{mock.Event{Type: "arrival", Seq: 1, Tag: "w0.j0.a1", At: at(5), Outcome: "drop"}, 0},
			{mock.Event{Type: "arrival", Seq: 2, Tag: "w0.j0.a1", At: at(10), Outcome: "drop"}, 1},
			{mock.Event{Type: "arrival", Seq: 3, Tag: "w0.j0.a1", At: at(20), Outcome: "drop"}, 2},
			{mock.Event{Type: "arrival", Seq: 4, Tag: "w0.j0.a2", At: at(505), Outcome: "ok", Status: 200}, 0},
			{mock.Event{Type: "arrival", Seq: 5, Tag: "w0.j0.a2", At: at(506), Outcome: "ok", Status: 200}, 0}, // not after a drop
		} {
			mm.serverEvent(&c.e)
			if got := mm.arrivals[i].again; got != c.again {
				t.Errorf("watch %v, arrival %d: sent again %d times, want %d", mm.watch, i+1, got, c.again)
			}
		}
		text := strings.Join(describeArrival(&mm.arrivals[2], mm.watch, false).Lines, "\n")
		if !strings.Contains(text, "arrival 3: its connection closed with no answer") {
			t.Errorf("watch %v, the third arrival of a dropped attempt: %s", mm.watch, text)
		}
		if text := strings.Join(describeArrival(&mm.arrivals[0], mm.watch, false).Lines, "\n"); strings.Contains(text, "sent it again") {
			t.Errorf("watch %v, the first arrival: %s", mm.watch, text)
		}
	}
	if text := strings.Join(describe(&m.marks[0], shown{}).Lines, "\n"); !strings.Contains(text, "the server received it 3 times: its connection closed with no answer, and the client sent it again") {
		t.Errorf("the dropped attempt's tooltip: %s", text)
	}
	if text := strings.Join(describe(&m.marks[1], shown{}).Lines, "\n"); strings.Contains(text, "sent it again") {
		t.Errorf("the next attempt's tooltip: %s", text)
	}
}

// A custom target's 429 or 503 with no Retry-After readable says that the
// server sent none or did not expose it: told apart from nothing, as a
// 429 whose Retry-After came through is, and as the mock's is not.
func TestCrossOriginRejectionSaysRetryAfterMayBeHidden(t *testing.T) {
	const hidden = "no Retry-After readable: your server sent none, or it is not listed in Access-Control-Expose-Headers"
	ra := browser.Header("retry-after: 2\n")
	for _, c := range []struct {
		name        string
		k           mark
		crossOrigin bool
		want        bool
	}{
		{"a custom target's 429, no header", mark{class: fleet.ClassLimited, status: 429, next: -1}, true, true},
		{"a custom target's 503, no header", mark{class: fleet.ClassLimited, status: 503, next: -1}, true, true},
		{"a custom target's 429 with Retry-After", mark{class: fleet.ClassLimited, status: 429, hdr: ra, next: -1}, true, false},
		{"a custom target's 200", mark{class: fleet.ClassOK, status: 200, next: -1}, true, false},
		{"the mock's 429, no header", mark{class: fleet.ClassLimited, status: 429, next: -1}, false, false},
	} {
		text := strings.Join(describe(&c.k, shown{crossOrigin: c.crossOrigin}).Lines, "\n")
		if strings.Contains(text, hidden) != c.want {
			t.Errorf("%s: tooltip\n%s", c.name, text)
		}
	}
}

// paintRank is the order paintCells paints classes in, as each class's
// place in it: by the cells each is in (sets: each cell's classes), the
// most first, ties in class order. byRank lists the classes in it.
func paintRank(sets map[[2]int]uint8) (rank [fleet.NumClasses]int) {
	var n [fleet.NumClasses]int
	for _, set := range sets {
		for c := range n {
			if set&(1<<c) != 0 {
				n[c]++
			}
		}
	}
	order := []fleet.Class{0, 1, 2, 3, 4, 5}
	slices.SortStableFunc(order, func(a, b fleet.Class) int { return n[b] - n[a] })
	for i, c := range order {
		rank[c] = i
	}
	return rank
}

func byRank(rank [fleet.NumClasses]int) []fleet.Class {
	out := make([]fleet.Class, fleet.NumClasses)
	for c, r := range rank {
		out[r] = fleet.Class(c)
	}
	return out
}

// The rare outcome is painted last: one success among 429s in the next
// cells keeps its whole square. (In class order, the 429s' squares covered
// it to a 1-px sliver; a review.)
func TestDenseCellsRareOnTop(t *testing.T) {
	cols, rows := 20, 4
	ccols := cols/denseCell + 1
	seen := make([]uint8, ccols*(rows/denseCell+1))
	for cx := range 8 {
		seen[cx] |= 1 << fleet.ClassLimited
	}
	seen[3] = 1<<fleet.ClassOK | 1<<fleet.ClassLimited // a success, and a 429, in one cell
	px := make([]byte, cols*rows*4)
	paintCells(px, cols, rows, &normalTheme, seen, ccols, denseCell+1, -1)
	ok := normalTheme.rgb(classColour[fleet.ClassOK])
	for y := range 2 {
		for x := 5; x < 8; x++ { // cell 3's square: x 5–7, y 0–1 (its top row cut)
			if p := px[(y*cols+x)*4:]; [3]byte(p[:3]) != ok {
				t.Errorf("pixel (%d, %d) is %v, not the success's %v", x, y, p[:3], ok)
			}
		}
	}
}

// A watch with more than denseArrivals arrivals in view draws them as
// pictures, as paintDenseServer does: a square per 2-px cell, the rarest
// class last, in the server panel and the devices' lanes; up to it,
// shapes. (A busy watch's 36,000 shapes took the browser 120–350 ms at
// every frame.) A run's arrivals stay shapes. Checked against filling each
// arrival's square directly.
func TestDenseArrivalsPicture(t *testing.T) {
	for _, c := range []struct {
		name     string
		watch    bool
		n        int
		scale    float64
		pictures int
	}{
		{"a watch, busy", true, denseArrivals + 1, 1, 2},
		{"a watch, busy, on a projector", true, 2 * denseArrivals, 1.6, 2},
		{"a watch, quiet", true, denseArrivals, 1, 0},
		{"a room's run, busy", false, 3 * denseArrivals, 1, 0},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		workers := 20
		m := newModel(t0, workers)
		m.watch, m.room = c.watch, !c.watch
		for d := range workers {
			m.devices = append(m.devices, fmt.Sprintf("dev%d", d))
		}
		for i := range c.n {
			m.arrivals = append(m.arrivals, arrival{at: time.Duration(rng.Int64N(int64(20 * time.Second))), seq: i,
				class: fleet.Class(rng.IntN(int(fleet.NumClasses))), mark: -1, cancelled: rng.IntN(10) == 0, dev: rng.IntN(workers)})
		}
		m.marks = []mark{{class: fleet.ClassOK}}
		m.last = 20 * time.Second
		th := normalTheme
		th.scale = c.scale
		l := newLayout(1200, workers, 22*time.Second, &th)
		if c.watch {
			l.names = m.devices
		}
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &th})
		if got := len(o.Images()); got != c.pictures {
			t.Errorf("%s: %d pictures drawn, want %d", c.name, got, c.pictures)
			continue
		}
		if c.pictures == 0 {
			continue
		}
		size := max(3, int(math.Round(3*c.scale)))
		cols := int(l.right-l.left) + 2
		panels := []struct {
			rows int
			at   func(a *arrival) (x, y float64)
		}{
			{int(l.srvH) + 2, func(a *arrival) (float64, float64) { return l.x(a.at) - l.left, l.srvY(a.seq) - l.srvTop }},
			{int(l.laneH*float64(workers)) + 2, func(a *arrival) (float64, float64) { return l.x(a.at) - l.left, l.laneY(a.dev) - l.lanesTop }},
		}
		classOf := func(a *arrival) fleet.Class {
			if a.cancelled {
				return fleet.ClassAborted
			}
			return a.class
		}
		for p := range c.pictures {
			rows := panels[p].rows
			sets := map[[2]int]uint8{}
			for i := range m.arrivals {
				x, y := panels[p].at(&m.arrivals[i])
				sets[[2]int{int(x / denseCell), int(y / denseCell)}] |= 1 << classOf(&m.arrivals[i])
			}
			want := make([]byte, cols*rows*4)
			for _, cls := range byRank(paintRank(sets)) {
				rgb := th.rgb(classColour[cls])
				for i := range m.arrivals {
					a := &m.arrivals[i]
					if classOf(a) != cls {
						continue
					}
					x, y := panels[p].at(a)
					x0, y0 := int(x/denseCell)*denseCell-(size-1)/2, int(y/denseCell)*denseCell-(size-1)/2
					for py := max(0, y0); py < min(rows, y0+size); py++ {
						for px := max(0, x0); px < min(cols, x0+size); px++ {
							copy(want[(py*cols+px)*4:], []byte{rgb[0], rgb[1], rgb[2], 255})
						}
					}
				}
			}
			if !bytes.Equal(o.Images()[p], want) {
				t.Errorf("%s: picture %d differs from each arrival's square filled, the rarest class last", c.name, p)
			}
		}
	}
}

// A watch draws its arrivals as pictures past denseArrivals in view, and,
// once it does, until fewer than half of it: a window sliding over a
// steady room is drawn one way. A run never does.
func TestWatchPicturesHold(t *testing.T) {
	m := newModel(t0, 0)
	m.watch = true
	for i, step := range []struct {
		n    int
		want bool
	}{{3000, false}, {denseArrivals, false}, {denseArrivals + 1, true}, {3000, true}, {denseArrivals/2 + 1, true}, {denseArrivals / 2, false}, {3000, false}} {
		if got := m.drawsPictures(step.n); got != step.want {
			t.Errorf("step %d, %d arrivals in view: pictures %v, want %v", i, step.n, got, step.want)
		}
	}
	run := newModel(t0, 10)
	if run.drawsPictures(10 * denseArrivals) {
		t.Error("a run draws its arrivals as pictures")
	}
}

// A custom target's header of 5,000 characters (a Retry-After of nines)
// made a tooltip line that ran out of the tooltip across the page: the
// document grew to 36,069 px wide (a review). A tooltip line is cut to
// maxTipLine bytes, and says how long it was.
func TestTooltipCutsLongLines(t *testing.T) {
	v := newView()
	s := fleet.Default()
	s.Workers = 1
	v.start(s, t0, "")
	long := strings.Repeat("9", 5000)
	h := browser.Header("retry-after: " + long + "\nratelimit: \"default\";r=0;t=" + strings.Repeat("1", 400) + "\n")
	for _, r := range []fleet.Record{
		{Event: core.Event{Kind: core.EventAttempt, At: at(0), Intended: at(0), Attempt: 1}},
		{Attempt: &fleet.Attempt{Status: 429, Header: h}, Event: core.Event{Kind: core.EventOutcome, At: at(50), Attempt: 1, Outcome: core.Outcome{Status: 429, Header: h}}},
		{Event: core.Event{Kind: core.EventDone, At: at(50), Attempt: 1}},
	} {
		v.onRecord(r)
	}
	v.finish(at(100))
	v.Redraw()
	v.key("ArrowRight")
	tp, ok := v.selection()
	if !ok {
		t.Fatal("no selection")
	}
	var ra string
	for _, line := range tp.Lines {
		if len(line) > maxTipLine+len("… (5,013 characters)") {
			t.Errorf("a line of %d bytes: %.80q…", len(line), line)
		}
		if strings.HasPrefix(line, "Retry-After: ") {
			ra = line
		}
	}
	if !strings.HasSuffix(ra, "9… (5,013 characters)") {
		t.Errorf("the Retry-After line ends %q, want it cut, saying its length", ra[max(0, len(ra)-40):])
	}
	if got := cutLine("é" + strings.Repeat("é", maxTipLine)); !utf8.ValidString(got) {
		t.Errorf("cutLine split a UTF-8 sequence: %q", got[len(got)-30:])
	}
}

// Before a run at the user's own URL, the server panel says it will stay
// empty, as after one: it said "each request when the server received it"
// until the run was over (a review).
func TestEmptyServerPanelOfACustomTarget(t *testing.T) {
	for _, target := range []string{"", "http://localhost:18092/api"} {
		v := quietView()
		s := fleet.Default()
		s.Target = target
		v.configure(s, 0)
		v.mu.Lock()
		v.redraw()
		said := strings.Join(v.ops.Strings(), "|")
		v.mu.Unlock()
		if got := strings.Contains(said, "not available for your own URL"); got != (target != "") {
			t.Errorf("target %q: the empty server panel says %q", target, said)
		}
	}
}

// A halved limit's label stays at its line when bars rise through the
// line all along the stretch: on them, on an opaque plate, as the limit's
// own label does. Optional, it was left out wherever nothing was clear at
// its line: gone from every finished run with a halved limit, which it
// had named while the run went on (a presenter's review).
func TestScaledLimitLabelOnItsBars(t *testing.T) {
	m := newModel(t0, 1)
	m.serverEvent(&mock.Event{Type: "limit", At: at(1000), Until: at(3000), Scale: 0.5})
	for i := range 100 { // 25 a second for 4 s, every one rejected
		ms := 40 * i
		for _, r := range []fleet.Record{
			{Job: i, Event: core.Event{Kind: core.EventAttempt, At: at(ms), Intended: at(ms), Attempt: 1}},
			{Job: i, Event: core.Event{Kind: core.EventOutcome, At: at(ms + 10), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
			{Job: i, Event: core.Event{Kind: core.EventDone, At: at(ms + 10), Attempt: 1}},
		} {
			m.add(&r)
		}
	}
	l := newLayout(1000, 1, 4*time.Second, &normalTheme)
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
	line := l.histTop + l.histH - 5/l.histMax*l.histH
	ly, ok := textY(&o, "limit ×0.5")
	if !ok || math.Abs(ly-line) > lineLabelNear*l.scale+l.scale*16 {
		t.Errorf("scaled limit label at y %v (drawn %v), want at its line, y %v", ly, ok, line)
	}
}

// A wait's bar is hit where it is drawn: a saturated Retry-After's to
// the end of time (its end overflowed: not hit at all), a wait Stop cut
// short only up to the cut (it was hit 2 s past its bar's end).
func TestHitSpanFollowsTheDrawnWait(t *testing.T) {
	// A 5 s backoff after a 429, Stop at 1 s.
	cutByStop := []fleet.Record{
		{Event: core.Event{Kind: core.EventAttempt, At: at(0), Attempt: 1}},
		{Event: core.Event{Kind: core.EventOutcome, At: at(50), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
		{Event: core.Event{Kind: core.EventWait, At: at(50), Attempt: 2, Wait: 5 * time.Second, Reason: core.ReasonBackoff}},
		{Event: core.Event{Kind: core.EventDone, At: at(1000), Attempt: 1, Err: context.Canceled}},
	}
	for _, c := range []struct {
		name string
		recs []fleet.Record
		at   time.Duration
		want int
	}{
		{"a saturated Retry-After's wait", []fleet.Record{
			{Event: core.Event{Kind: core.EventAttempt, At: at(0), Attempt: 1}},
			{Event: core.Event{Kind: core.EventOutcome, At: at(50), Attempt: 1, Outcome: core.Outcome{Status: 429}}},
			{Event: core.Event{Kind: core.EventWait, At: at(50), Attempt: 2, Wait: math.MaxInt64, Reason: core.ReasonRetryAfter}},
		}, 2 * time.Second, 0},
		{"a wait cut by Stop, inside it", cutByStop, 900 * time.Millisecond, 0},
		{"a wait cut by Stop, past the cut", cutByStop, 3 * time.Second, -1},
		{"a bucket wait before a job's first attempt", []fleet.Record{
			{Event: core.Event{Kind: core.EventWait, At: at(0), Attempt: 1, Wait: 400 * time.Millisecond, Reason: core.ReasonBucket}},
			{Event: core.Event{Kind: core.EventAttempt, At: at(400), Intended: at(400), Attempt: 1}},
			{Event: core.Event{Kind: core.EventOutcome, At: at(450), Attempt: 1, Outcome: core.Outcome{Status: 200}}},
		}, 200 * time.Millisecond, 0},
	} {
		m := newModel(t0, 1)
		for _, r := range c.recs {
			m.add(&r)
		}
		l := newLayout(1000, 1, 4*time.Second, &normalTheme)
		if got := hitSpan(&l, m, l.x(c.at), l.laneY(0)); got != c.want {
			t.Errorf("%s: hit at %v = %d, want %d", c.name, c.at, got, c.want)
		}
	}
}

// The server's arrivals are drawn by its clock: on another machine (a
// workshop's laptops joining the presenter's server) it may be seconds off
// the page's, and the panel was drawn that much off without a word (a
// laptop 2 s ahead: 26 of a run's 30 arrivals left of the axis, the other
// 4 under the wrong requests). The answers bound the difference, each
// received between its send and its answer, and the panel's note says it.
func TestServerPanelSaysTheClocksDiffer(t *testing.T) {
	shifted := func(d time.Duration) []fleet.Record {
		recs := oneJob()
		for i := range recs {
			if a := recs[i].Attempt; a != nil {
				a.ServerAt = a.ServerAt.Add(d)
			}
		}
		return recs
	}
	for _, c := range []struct {
		skew time.Duration
		want string
	}{
		{0, "each request when the server received it (rows cycle by arrival number)"},
		{15 * time.Millisecond, "each request when the server received it (rows cycle by arrival number)"}, // within the answers' bounds: second 1's 1101–1150 ms
		{-2 * time.Second, "the server's clock is about 2.02 s behind this device's: its times are drawn moved onto this device's"},
		{3 * time.Second, "the server's clock is about 2.98 s ahead of this device's: its times are drawn moved onto this device's"},
	} {
		m := newModel(t0, 3)
		// The stream tells of the first arrival before its answer comes,
		// and of an outage; of the second arrival after its answer.
		for i, r := range shifted(c.skew) {
			m.add(&r)
			if i == 1 { // the first attempt sent
				m.serverEvent(&mock.Event{Type: "arrival", Seq: 7, Tag: fleet.AttemptTag("", 1, 0, 1), At: at(56).Add(c.skew), Outcome: "limited", Status: 429})
				m.serverEvent(&mock.Event{Type: "outage", At: at(300).Add(c.skew), Until: at(600).Add(c.skew)})
			}
		}
		m.serverEvent(&mock.Event{Type: "arrival", Seq: 9, Tag: fleet.AttemptTag("", 1, 0, 2), At: at(1103).Add(c.skew), Outcome: "ok", Status: 200})
		l := newLayout(1400, 3, 2*time.Second, &normalTheme)
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: &normalTheme})
		if _, ok := textY(&o, c.want); !ok {
			var notes []string
			for _, s := range o.Strings() {
				if strings.Contains(s, "server") || strings.Contains(s, "clock") {
					notes = append(notes, s)
				}
			}
			t.Errorf("server's clock %v off: the panel's note is none of %q, want %q", c.skew, notes, c.want)
		}
		// Each arrival is drawn within its request's flight, and the
		// outage where it was by the page's clock, however far off the
		// server's clock is: drawn by it, 2 s behind, every arrival lay
		// left of its request.
		for _, a := range m.arrivals {
			k := m.marks[a.mark]
			if a.at < k.sent || a.at > k.end || k.serverAt != a.at {
				t.Errorf("server's clock %v off: arrival %d at %v (its answer's %v), its request in flight %v–%v", c.skew, a.seq, a.at, k.serverAt, k.sent, k.end)
			}
		}
		if o := m.outages[0]; (o.from-300*time.Millisecond).Abs() > 50*time.Millisecond || o.to-o.from != 300*time.Millisecond {
			t.Errorf("server's clock %v off: the outage drawn %v–%v, want about 300ms–600ms", c.skew, o.from, o.to)
		}
		// The run ends with its last answer: an arrival taken in by the
		// server's clock before the first answer moved it no further.
		if m.last != 1150*time.Millisecond {
			t.Errorf("server's clock %v off: the run drawn to %v, want 1.15s", c.skew, m.last)
		}
	}
}

// load is loadUnless to the end, as the tests draw a recording.
func (v *view) load(s fleet.Scenario, rec *fleet.Recording, recs []fleet.Record) (fleet.Stats, float64) {
	st, disp, _ := v.loadUnless(s, rec, recs, nil)
	return st, disp
}
