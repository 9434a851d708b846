package sim

import (
	"fmt"
	"time"
)

// Actor is anything the Scheduler wakes: a client, a server, a message in
// flight. Fire is called at the instant the event was scheduled for, with
// the arg it was scheduled with (what the event is about: a message kind,
// an attempt number, ...).
type Actor interface {
	Fire(now time.Time, arg int)
}

// ActorFunc adapts a function to Actor.
type ActorFunc func(now time.Time, arg int)

// Fire calls f(now, arg).
func (f ActorFunc) Fire(now time.Time, arg int) { f(now, arg) }

// event is one scheduled wake-up. Events fire in order of at, and events
// scheduled for the same instant in the order they were scheduled (seq), so
// a run is a pure function of its inputs: no map iteration, no goroutine
// and no wall clock decides an order.
type event struct {
	at    int64  // nanoseconds since the scheduler's start
	seq   uint64 // scheduling order, the tie-breaker
	actor Actor
	arg   int
}

func (a *event) before(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// Scheduler is a discrete-event scheduler in virtual time: a priority queue
// of timed events and a clock that jumps from one event to the next. Nothing
// in it reads the wall clock or starts a goroutine; running the same
// schedule twice (natively or in WebAssembly) fires the same events at the
// same instants in the same order.
//
// Time is kept as integer nanoseconds since Start, so ordering never
// depends on time.Time's internals (monotonic readings, locations), and it
// ends at End, the longest time.Duration after Start (about 292 years): an
// event due later is never fired, and At and After refuse it rather than
// fire it early. A driver that waits on a core.Loop sets the loop's horizon
// to End (core.Loop.SetHorizon), so the loop never asks for such a wait. Not
// safe for concurrent use: run one scheduler per goroutine.
//
// NewScheduler starts the clock at a given instant; the zero Scheduler is
// ready to use, with nothing queued and its clock at the zero time.Time
// (January 1, year 1, UTC).
type Scheduler struct {
	start time.Time
	now   int64
	seq   uint64
	fired uint64
	q     []event
}

// NewScheduler returns an empty scheduler whose clock reads start. The
// monotonic reading of start, if any, is dropped.
func NewScheduler(start time.Time) *Scheduler {
	return &Scheduler{start: start.Round(0)}
}

// Start returns the instant the scheduler started at.
func (s *Scheduler) Start() time.Time { return s.start }

// endOfTime is End as nanoseconds since Start.
const endOfTime = 1<<63 - 1

// End returns the end of virtual time: the latest instant an event can be
// scheduled for, the longest time.Duration after Start (about 292 years).
func (s *Scheduler) End() time.Time { return s.start.Add(endOfTime) }

// Now returns the current virtual time: the instant of the event being
// fired (or of the last one fired).
func (s *Scheduler) Now() time.Time { return s.start.Add(time.Duration(s.now)) }

// Elapsed returns the virtual time since Start.
func (s *Scheduler) Elapsed() time.Duration { return time.Duration(s.now) }

// Len returns the number of events waiting.
func (s *Scheduler) Len() int { return len(s.q) }

// Fired returns the number of events fired so far.
func (s *Scheduler) Fired() uint64 { return s.fired }

// At schedules a.Fire(at, arg) and reports true. An instant before Now is
// taken as Now: the past cannot be changed. Events at the same instant fire
// in the order they were scheduled. An instant after End is not scheduled
// (At reports false): it never comes.
func (s *Scheduler) At(at time.Time, a Actor, arg int) bool {
	if at.After(s.End()) {
		return false
	}
	s.push(int64(at.Sub(s.start)), a, arg)
	return true
}

// After schedules a.Fire(Now+d, arg) and reports true; a negative d counts
// as 0. A d that would end after End is not scheduled (After reports
// false): the event would never fire, and firing it at the end of time
// instead would shorten the wait.
func (s *Scheduler) After(d time.Duration, a Actor, arg int) bool {
	if d > time.Duration(endOfTime-s.now) {
		return false
	}
	s.push(s.now+int64(max(d, 0)), a, arg)
	return true
}

func (s *Scheduler) push(at int64, a Actor, arg int) {
	if a == nil {
		panic("sim: nil actor scheduled")
	}
	if at < s.now {
		at = s.now
	}
	s.seq++
	s.q = append(s.q, event{at: at, seq: s.seq, actor: a, arg: arg})
	// Sift up.
	q := s.q
	i := len(q) - 1
	e := q[i]
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(&q[p]) {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = e
}

// pop removes and returns the earliest event.
func (s *Scheduler) pop() event {
	q := s.q
	top := q[0]
	n := len(q) - 1
	last := q[n]
	q[n] = event{} // drop the actor reference
	q = q[:n]
	s.q = q
	if n == 0 {
		return top
	}
	// Sift the last event down from the root.
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && q[r].before(&q[c]) {
			c = r
		}
		if !q[c].before(&last) {
			break
		}
		q[i] = q[c]
		i = c
	}
	q[i] = last
	return top
}

// Next returns the instant of the next event, and false if there is none.
func (s *Scheduler) Next() (time.Time, bool) {
	if len(s.q) == 0 {
		return time.Time{}, false
	}
	return s.start.Add(time.Duration(s.q[0].at)), true
}

// Step fires the next event, advancing the clock to it, and reports
// whether there was one.
func (s *Scheduler) Step() bool {
	if len(s.q) == 0 {
		return false
	}
	e := s.pop()
	s.now = e.at
	s.fired++
	e.actor.Fire(s.start.Add(time.Duration(e.at)), e.arg)
	return true
}

// Run fires events until none is left and returns how many it fired.
func (s *Scheduler) Run() uint64 {
	n := s.fired
	for s.Step() {
	}
	return s.fired - n
}

// RunUntil fires every event scheduled up to and including end (events
// they schedule included), then sets the clock to end if it is later. It
// returns how many events it fired.
func (s *Scheduler) RunUntil(end time.Time) uint64 {
	n := s.fired
	lim := int64(end.Sub(s.start))
	for len(s.q) > 0 && s.q[0].at <= lim {
		s.Step()
	}
	if lim > s.now {
		s.now = lim
	}
	return s.fired - n
}

// RunFor is RunUntil(Now+d).
func (s *Scheduler) RunFor(d time.Duration) uint64 { return s.RunUntil(s.Now().Add(d)) }

// String describes the scheduler's state, for debugging.
func (s *Scheduler) String() string {
	return fmt.Sprintf("sim.Scheduler{now: +%v, waiting: %d, fired: %d}", time.Duration(s.now), len(s.q), s.fired)
}
