package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

// logActor records every firing as "name@offset:arg".
type logActor struct {
	name  string
	log   *[]string
	then  func(s *Scheduler, now time.Time, arg int) // optional follow-up
	sched *Scheduler
}

func (a *logActor) Fire(now time.Time, arg int) {
	*a.log = append(*a.log, fmt.Sprintf("%s@%v:%d", a.name, now.Sub(t0), arg))
	if a.then != nil {
		a.then(a.sched, now, arg)
	}
}

func TestSchedulerOrder(t *testing.T) {
	type sched struct {
		actor string
		at    time.Duration // offset from t0
		arg   int
	}
	tests := []struct {
		name string
		in   []sched
		want string
	}{
		{"empty", nil, ""},
		{"by time", []sched{{"a", 3 * time.Millisecond, 0}, {"b", time.Millisecond, 0}, {"c", 2 * time.Millisecond, 0}},
			"b@1ms:0 c@2ms:0 a@3ms:0"},
		{"ties in scheduling order", []sched{{"a", time.Second, 1}, {"b", time.Second, 2}, {"a", time.Second, 3}, {"c", 0, 4}},
			"c@0s:4 a@1s:1 b@1s:2 a@1s:3"},
		{"the past is now", []sched{{"a", -time.Hour, 0}, {"b", 0, 0}}, "a@0s:0 b@0s:0"},
		{"nanoseconds matter", []sched{{"a", 2, 0}, {"b", 1, 0}, {"c", 1, 1}}, "b@1ns:0 c@1ns:1 a@2ns:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Helper()
			s := NewScheduler(t0)
			var log []string
			actors := map[string]*logActor{}
			for _, e := range tt.in {
				a := actors[e.actor]
				if a == nil {
					a = &logActor{name: e.actor, log: &log}
					actors[e.actor] = a
				}
				s.At(t0.Add(e.at), a, e.arg)
			}
			if n := s.Run(); int(n) != len(tt.in) {
				t.Errorf("Run fired %d events, want %d", n, len(tt.in))
			}
			if got := strings.Join(log, " "); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if s.Len() != 0 || s.Step() {
				t.Error("events left after Run")
			}
		})
	}
}

// Many events in random order come out sorted by (time, scheduling order):
// the heap against a stable sort.
func TestSchedulerHeapMatchesStableSort(t *testing.T) {
	s := NewScheduler(t0)
	type ev struct {
		at  time.Duration
		arg int
	}
	var in []ev
	x := uint64(12345)
	var got []ev
	rec := ActorFunc(func(now time.Time, arg int) { got = append(got, ev{now.Sub(t0), arg}) })
	for i := range 5000 {
		x = x*6364136223846793005 + 1442695040888963407
		at := time.Duration(x>>58) * time.Millisecond // 64 distinct instants: many ties
		in = append(in, ev{at, i})
		s.After(at, rec, i)
	}
	s.Run()
	want := slices.Clone(in)
	slices.SortStableFunc(want, func(a, b ev) int { return int(a.at - b.at) })
	if !slices.Equal(got, want) {
		t.Fatal("heap order differs from a stable sort by time")
	}
}

func TestSchedulerEventsScheduledWhileRunning(t *testing.T) {
	s := NewScheduler(t0)
	var log []string
	var a, b *logActor
	a = &logActor{name: "a", log: &log, sched: s, then: func(s *Scheduler, now time.Time, arg int) {
		if arg < 3 {
			s.After(0, b, arg) // same instant: after everything already due now
			s.After(10*time.Millisecond, a, arg+1)
		}
	}}
	b = &logActor{name: "b", log: &log}
	s.After(0, a, 0)
	s.After(0, b, 100)
	s.Run()
	want := "a@0s:0 b@0s:100 b@0s:0 a@10ms:1 b@10ms:1 a@20ms:2 b@20ms:2 a@30ms:3"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if s.Elapsed() != 30*time.Millisecond || !s.Now().Equal(t0.Add(30*time.Millisecond)) {
		t.Errorf("clock at %v", s.Elapsed())
	}
	if s.Fired() != 8 {
		t.Errorf("fired %d", s.Fired())
	}
}

func TestSchedulerRunUntil(t *testing.T) {
	s := NewScheduler(t0)
	var log []string
	a := &logActor{name: "a", log: &log}
	for _, ms := range []int{5, 10, 10, 15} {
		s.After(time.Duration(ms)*time.Millisecond, a, ms)
	}
	if n := s.RunUntil(t0.Add(10 * time.Millisecond)); n != 3 {
		t.Errorf("RunUntil(10ms) fired %d, want 3 (the end is included)", n)
	}
	if next, ok := s.Next(); !ok || next.Sub(t0) != 15*time.Millisecond {
		t.Errorf("Next = %v, %v", next, ok)
	}
	if n := s.RunFor(2 * time.Millisecond); n != 0 || s.Elapsed() != 12*time.Millisecond {
		t.Errorf("RunFor(2ms): fired %d, clock %v; want 0 and 12ms", n, s.Elapsed())
	}
	// An event scheduled in the past (before the clock) fires now.
	s.At(t0, a, 99)
	s.Run()
	want := "a@5ms:5 a@10ms:10 a@10ms:10 a@12ms:99 a@15ms:15"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, ok := s.Next(); ok {
		t.Error("Next on an empty scheduler")
	}
}

// Virtual time ends at End, the longest Duration after Start: an event due
// later is refused (At and After report false) and never fires, rather than
// fire at the end of time, early; one due at End fires then.
func TestSchedulerEndOfTime(t *testing.T) {
	const end = time.Duration(1<<63 - 1)
	s := NewScheduler(t0)
	if got := s.End().Sub(t0); got != end {
		t.Fatalf("End is %v after the start, want %v", got, end)
	}
	var fired []time.Duration
	a := ActorFunc(func(time.Time, int) { fired = append(fired, s.Elapsed()) })
	s.After(time.Hour, a, 0)
	s.Step()
	for _, tt := range []struct {
		name     string
		schedule func() bool
		want     bool
	}{
		{"After past the end", func() bool { return s.After(end, a, 0) }, false},
		{"After to the end", func() bool { return s.After(end-time.Hour, a, 0) }, true},
		{"At past the end", func() bool { return s.At(s.End().Add(1), a, 0) }, false},
		{"At the end", func() bool { return s.At(s.End(), a, 0) }, true},
		{"After a negative d: now", func() bool { return s.After(-time.Second, a, 0) }, true},
	} {
		if got := tt.schedule(); got != tt.want {
			t.Errorf("%s: scheduled %v, want %v", tt.name, got, tt.want)
		}
	}
	s.Run()
	if want := []time.Duration{time.Hour, time.Hour, end, end}; !slices.Equal(fired, want) {
		t.Errorf("fired at %v, want %v", fired, want)
	}
}

func TestSchedulerDropsMonotonicReading(t *testing.T) {
	start := time.Now() // has a monotonic reading
	s := NewScheduler(start)
	if s.Start() != start.Round(0) {
		t.Error("monotonic reading kept")
	}
}

func TestSchedulerNilActorPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	NewScheduler(t0).After(0, nil, 0)
}

// The zero Scheduler is ready to use, its clock at the zero time.Time, as
// its doc says.
func TestSchedulerZeroValue(t *testing.T) {
	var s Scheduler
	var fired []time.Time
	a := ActorFunc(func(now time.Time, arg int) { fired = append(fired, now) })
	if !s.Now().IsZero() || s.Len() != 0 || !s.After(time.Second, a, 0) {
		t.Fatalf("zero Scheduler: Now %v, Len %d", s.Now(), s.Len())
	}
	if n := s.Run(); n != 1 || len(fired) != 1 || !fired[0].Equal(time.Time{}.Add(time.Second)) {
		t.Fatalf("Run fired %d events at %v, want 1 at the zero time + 1s", n, fired)
	}
}
