package sim

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"runtime"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// eventHash hashes every field of a stream of records: times as offsets
// from start in nanoseconds, errors and notes as text, header fields,
// server facts.
type eventHash struct {
	h     hash.Hash64
	start time.Time
	n     int
	first []string // the first few records, printed on failure
}

func newEventHash(start time.Time) *eventHash {
	return &eventHash{h: fnv.New64a(), start: start}
}

func (e *eventHash) int(v int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	e.h.Write(b[:])
}

func (e *eventHash) str(s string) {
	e.int(int64(len(s)))
	e.h.Write([]byte(s))
}

func (e *eventHash) time(t time.Time) {
	if t.IsZero() {
		e.int(-1)
		return
	}
	e.int(int64(t.Sub(e.start)))
}

func (e *eventHash) err(err error) {
	if err == nil {
		e.str("<nil>")
		return
	}
	e.str(err.Error())
}

func (e *eventHash) add(r *Record) {
	ev := &r.Event
	e.int(int64(r.Worker))
	e.int(int64(r.Job))
	e.int(int64(ev.Kind))
	e.time(ev.At)
	e.int(int64(ev.Attempt))
	e.time(ev.Intended)
	e.int(int64(ev.Outcome.Status))
	e.err(ev.Outcome.Err)
	if h, ok := ev.Outcome.Header.(*Header); ok {
		for _, f := range h.Fields() {
			e.str(f[0])
			e.str(f[1])
		}
	}
	e.int(int64(ev.Wait))
	e.int(int64(ev.Reason))
	e.str(ev.Note)
	e.err(ev.Err)
	if p := r.Response; p != nil {
		e.int(int64(p.Seq))
		e.time(p.Received)
		e.int(int64(p.Delay))
	}
	e.n++
	if len(e.first) < 3 {
		e.first = append(e.first, fmt.Sprintf("w%d j%d %v +%v a%d wait %v %q", r.Worker, r.Job, ev.Kind, ev.At.Sub(e.start), ev.Attempt, ev.Wait, ev.Note))
	}
}

func (e *eventHash) sum() string { return fmt.Sprintf("%016x/%d", e.h.Sum64(), e.n) }

// hashStart is deliberately not on a whole second, so Retry-After dates
// round.
var hashStart = time.Date(2026, 11, 29, 10, 0, 0, 123456789, time.UTC)

// mixedFleet is a fleet using every feature at once: a shared bucket and
// budget, timeouts, Retry-After dates with a ceiling and spread, reset
// hints, both header families, latency spread and every injected failure.
func mixedFleet(t *testing.T, seed uint64, observe func(*Record)) (*Fleet, *Scheduler) {
	t.Helper()
	srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{
		Limiter:    core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 20, Burst: 5},
		Status:     429,
		RetryAfter: endpoint.RetryAfterDate,
		IETF:       true, X: true,
		Latency: 30 * time.Millisecond, Spread: 40 * time.Millisecond,
		Fail500: 3, Fail503: 3, Drop: 2, Hang: 2,
	}}, hashStart, core.SubSeed(seed, 1<<20, 0))
	if err != nil {
		t.Fatal(err)
	}
	bucket, _ := core.NewBucket(30, 10)
	budget, _ := core.NewBudget(40, 0.2)
	return &Fleet{
		Workers: 40, Jobs: 3,
		Policy: core.Policy{
			Backoff:     core.Backoff{Strategy: core.FullJitter, Base: 50 * time.Millisecond, Multiplier: 2, Cap: 2 * time.Second},
			MaxAttempts: 6, MaxElapsed: 20 * time.Second,
			RetryAfter: true, Ceiling: 3 * time.Second, Spread: 200 * time.Millisecond, UseResetHints: true,
		},
		Bucket: bucket, Budget: budget, Seed: seed, Timeout: 500 * time.Millisecond,
		Server: srv, Observe: observe,
	}, NewScheduler(hashStart)
}

// openFleet is mixedFleet with an open workload: each worker's jobs arrive
// every 300 ms whether or not its earlier ones have ended.
func openFleet(t *testing.T, seed uint64, observe func(*Record)) (*Fleet, *Scheduler) {
	f, s := mixedFleet(t, seed, observe)
	f.Every = 300 * time.Millisecond
	return f, s
}

// windowFleet: a sliding window with fixed Retry-After values it ignores,
// decorrelated jitter, a hard attempt limit that stops the run.
func windowFleet(t *testing.T, seed uint64, observe func(*Record)) (*Fleet, *Scheduler) {
	t.Helper()
	srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{
		Limiter:    core.LimiterConfig{Kind: core.LimitSlidingWindow, Limit: 7, Window: 500 * time.Millisecond},
		Status:     503,
		RetryAfter: endpoint.RetryAfterFixed, RetryValue: 2,
		Latency: 5 * time.Millisecond,
	}}, hashStart, core.SubSeed(seed, 1<<20, 0))
	if err != nil {
		t.Fatal(err)
	}
	return &Fleet{
		Workers: 25, Jobs: 4,
		Policy:      core.Policy{Backoff: core.Backoff{Strategy: core.DecorrelatedJitter, Base: 20 * time.Millisecond, Cap: time.Second}, MaxAttempts: 8},
		Seed:        seed,
		Server:      srv,
		MaxAttempts: 250,
		Observe:     observe,
	}, NewScheduler(hashStart)
}

func hashFleet(t *testing.T, build func(*testing.T, uint64, func(*Record)) (*Fleet, *Scheduler), seed uint64) (string, FleetResult) {
	t.Helper()
	h := newEventHash(hashStart)
	f, s := build(t, seed, h.add)
	res, err := f.Run(s)
	if err != nil {
		t.Fatal(err)
	}
	return h.sum(), res
}

func hashContention(t *testing.T, seed uint64) string {
	t.Helper()
	h := newEventHash(time.Time{})
	for _, c := range AWSCurves(5*time.Millisecond, 2*time.Second) {
		m := Contention{Clients: 20, Policy: core.Policy{Backoff: c.Backoff, MaxAttempts: 1000},
			NetMean: 10 * time.Millisecond, NetSD: 2 * time.Millisecond, Seed: seed, Observe: h.add}
		res, err := m.Run(time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		h.int(int64(res.Calls))
		h.int(int64(res.Completion))
	}
	return h.sum()
}

// The golden hashes of the event streams, computed natively (linux/amd64).
// The same test passes under GOOS=js GOARCH=wasm, which proves the
// simulator produces bit-identical events in the browser. A change to
// core's loop, limiter or backoff, or to the simulator, changes them:
// check the change is intended, then update them from the failure message.
const (
	goldenMixed      = "20693c1c7b308d8a/703"
	goldenWindow     = "40019c1368cf262c/772"
	goldenContention = "65588044ed2f600f/1812"
	goldenOpen       = "8b3a7e0ef19f41ff/702"
)

func TestEventStreamGolden(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		got        func() string
	}{
		{"mixed fleet", goldenMixed, func() string { s, _ := hashFleet(t, mixedFleet, 7); return s }},
		{"window fleet", goldenWindow, func() string { s, _ := hashFleet(t, windowFleet, 7); return s }},
		{"open fleet", goldenOpen, func() string { s, _ := hashFleet(t, openFleet, 7); return s }},
		{"contention", goldenContention, func() string { return hashContention(t, 7) }},
	} {
		if got := tc.got(); got != tc.want {
			t.Errorf("%s on %s/%s: event stream hash %s, want %s", tc.name, runtime.GOOS, runtime.GOARCH, got, tc.want)
		}
	}
}

func TestSameSeedSameEvents(t *testing.T) {
	a, ra := hashFleet(t, mixedFleet, 11)
	b, rb := hashFleet(t, mixedFleet, 11)
	c, _ := hashFleet(t, mixedFleet, 12)
	if a != b || ra != rb {
		t.Errorf("same seed: %s %+v vs %s %+v", a, ra, b, rb)
	}
	if oa, _ := hashFleet(t, openFleet, 11); oa == a || oa != func() string { s, _ := hashFleet(t, openFleet, 11); return s }() {
		t.Errorf("open workload: same seed must give the same events, and others than the closed one's (%s)", oa)
	}
	if a == c {
		t.Error("another seed gave the same events")
	}
	// Run twice: a run that drew from a shared source would differ.
	if first, again := hashContention(t, 3), hashContention(t, 3); first != again || first == hashContention(t, 4) {
		t.Error("contention: same seed must give the same events, another seed others")
	}
}
