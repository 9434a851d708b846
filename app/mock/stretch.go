//go:build !(js && wasm)

package mock

import (
	"sync"
	"sync/atomic"
	"time"
)

// stretch is one key's fault over [from, until): an outage, or a limit
// multiplied by scale (0 for an outage).
type stretch struct {
	from, until time.Time
	scale       float64
	by          string // the remote address that started it (clients.take), "" for loopback
}

// refusal is why stretches.start started nothing.
type refusal uint8

const (
	refusedNot    refusal = iota // started
	refusedFull                  // the switch's keys are all in a stretch
	refusedClient                // the address has its share in a stretch (MaxStretchesPerClient)
)

// stretches are the keys under one fault switch (outages, limits) over a
// stretch of time. With none, checking costs one atomic load; ended ones
// are forgotten at most a second after they end.
type stretches struct {
	n         atomic.Int32 // len(m)
	mu        sync.Mutex
	m         map[string]stretch
	nextSweep time.Time
}

// at is key's stretch going on at now, if any.
func (s *stretches) at(key string, now time.Time) (stretch, bool) {
	if s.n.Load() == 0 {
		return stretch{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	st, ok := s.m[key]
	if !ok || now.Before(st.from) || !now.Before(st.until) {
		return stretch{}, false
	}
	return st, true
}

// sweep forgets the stretches that are over, at most once a second.
// s.mu must be held.
func (s *stretches) sweep(now time.Time) {
	if now.Before(s.nextSweep) {
		return
	}
	s.nextSweep = now.Add(time.Second)
	for k, st := range s.m {
		if !now.Before(st.until) {
			delete(s.m, k)
		}
	}
	s.n.Store(int32(len(s.m)))
}

// start begins key's stretch of d from now with scale (d == 0 ends its
// stretch now), reading the clock under the lock so that a request decided
// before it is never inside the stretch and one decided after it never
// outside. by is the remote address asking ("" when uncounted:
// Handler.counted).
// It refuses when max keys are already in a stretch, or when by has
// maxBy keys in a stretch going on, none of them key (a stretch it
// replaces is not one more); publish, when not nil, is called with the
// stretch before the lock is released, so stretches reach the stream in
// the order they took effect: with d == 0, only when a stretch was going
// on (the empty stretch [now, now) then tells that it ended now).
func (s *stretches) start(key, by string, d time.Duration, scale float64, max, maxBy int, clock func() time.Time, publish func(stretch)) (stretch, refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := clock()
	if s.m == nil {
		s.m = make(map[string]stretch)
	}
	st := stretch{now, now.Add(d), scale, by}
	tell := true
	if d == 0 {
		old, held := s.m[key]
		tell = held && !now.Before(old.from) && now.Before(old.until)
		delete(s.m, key)
	} else {
		old, held := s.m[key]
		if !held && len(s.m) >= max {
			s.nextSweep = time.Time{}
			s.sweep(now)
			if len(s.m) >= max {
				return st, refusedFull
			}
		}
		if by != "" && (!held || old.by != by || !now.Before(old.until)) && s.heldBy(by, now) >= maxBy {
			return st, refusedClient
		}
		s.m[key] = st
	}
	s.n.Store(int32(len(s.m)))
	if publish != nil && tell {
		publish(st)
	}
	return st, refusedNot
}

// heldBy is how many stretches going on at now by started. s.mu must be
// held.
func (s *stretches) heldBy(by string, now time.Time) int {
	n := 0
	for _, st := range s.m {
		if st.by == by && now.Before(st.until) {
			n++
		}
	}
	return n
}
