package ui

import (
	"context"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/fleet"
	"retrylab/app/mock"
)

// Replay of a finished run: its records and the server's messages go
// through a fresh model again, in the order they came, as a playhead passes
// their time, and each frame draws that model as a run going on (attempts
// in flight open, waits growing, the "now" line at the playhead). Nothing
// is recomputed: the timeline at 3 s into the replay is what the live view
// showed 3 s into the run. The finished model is kept aside and shown again
// when the replay ends or is stopped.

// ReplaySpeeds are the replay speeds offered, as multiples of real time.
var ReplaySpeeds = []float64{0.25, 0.5, 1, 2, 4, 8}

// maxReplayStep is the most wall time one frame advances the playhead by
// (times the speed): more than the longest gap between two frames of a
// big run (maxFrameGap), so a replay keeps its speed, while a tab
// hidden for a minute pauses the replay rather than jumping to its end.
const maxReplayStep = 300 * time.Millisecond

// A replay's frame takes records in for a replayShare of the time between
// two frames (minGap), at least minReplayBudget, checking the clock every
// replayCheck records (replay.check): a frame's drawing takes a quarter of
// it at most, so the page keeps more than half of its thread. Unbudgeted,
// 2.4 s of a simulation's run (a frame at 8×) held up to 140,000 of its
// 955,000 records: frames of 250–400 ms, during which the page answered
// nothing.
const (
	replayShare     = 8
	minReplayBudget = 8 * time.Millisecond
)

const replayCheck = 256

// replay is a replay in progress.
type replay struct {
	full     *model         // the finished run's model, shown again at the end
	recs     []fleet.Record // the run's records, in the order they came
	srv      []string       // the server's messages (JSON), in the order they came
	ri, si   int            // the next record and message to take in
	next     mock.Event     // srv[si], decoded (when hasNext)
	hasNext  bool
	at       time.Duration // the playhead, since the run's start
	end      time.Duration // where the replay ends: the run's last record
	span     time.Duration // the axis: the finished run's, fixed
	speed    float64
	last     time.Time          // when the playhead last moved (wall clock)
	budget   time.Duration      // a frame's time to take records in; 0: no limit
	check    int                // records taken in between two looks at the clock (replayCheck)
	slowed   time.Time          // when a frame last ran out of its budget
	onRecord func(fleet.Record) // each record as the playhead passes it
	onEnd    func()             // the replay reached its end (not called on stop)
}

// startReplay replays the run shown from its start at speed, passing each
// record to onRecord as it is taken in and calling onEnd (on its own
// goroutine) when the playhead reaches the end. recs are the run's records
// in the order they came. It reports false when there is no finished run
// to replay.
func (v *view) startReplay(recs []fleet.Record, speed float64, onRecord func(fleet.Record), onEnd func()) bool {
	v.mu.Lock()
	if v.replay != nil {
		v.endReplay()
	}
	if v.m == nil || v.running {
		v.mu.Unlock()
		return false
	}
	full := v.m
	r := &replay{
		full: full, recs: recs, srv: v.srvLog, end: full.last, span: v.span(0),
		speed: speed, last: time.Now(), onRecord: onRecord, onEnd: onEnd, check: replayCheck,
	}
	m := newModelFor(full.start, full.workers, recs)
	m.room, m.watch, m.simulated, m.self, m.ownServer = full.room, full.watch, full.simulated, full.self, full.ownServer
	v.m, v.replay = m, r
	v.unselect()
	v.dirty, v.ovlDirty = true, true
	v.mu.Unlock()
	v.request()
	return true
}

// stopReplay ends a replay where it is and shows the whole run again.
func (v *view) stopReplay() {
	v.mu.Lock()
	if v.replay != nil {
		v.endReplay()
	}
	v.mu.Unlock()
	v.request()
}

// setReplaySpeed changes the speed of a replay going on (and of the next).
func (v *view) setReplaySpeed(speed float64) {
	v.mu.Lock()
	if r := v.replay; r != nil {
		r.speed = speed
	}
	v.mu.Unlock()
}

// endReplay shows the finished model again. v.mu must be held.
func (v *view) endReplay() {
	v.m, v.replay = v.replay.full, nil
	v.unselect()
	v.dirty, v.ovlDirty = true, true
}

// advanceReplay moves the playhead by the wall time since it last moved
// (times the speed, at most maxReplayStep at 1×) and takes in what it
// passed. v.mu must be held.
func (v *view) advanceReplay(now time.Time) {
	r := v.replay
	step := min(now.Sub(r.last), maxReplayStep)
	r.last = now
	r.budget = max(minReplayBudget, v.minGap()/replayShare)
	v.replayTo(r.at + time.Duration(float64(step)*r.speed))
}

// replayTo moves the playhead to at and takes in every record and server
// message up to it, each list in its own order (a record a little earlier
// than one before it waits for that one: the model takes a worker's records
// in the order they came). At the end the finished model is shown again
// and onEnd called. v.mu must be held.
//
// A frame takes in records for r.budget at most: the playhead then
// stops at the last one taken, and the replay goes slower than its speed
// (replayText says so).
func (v *view) replayTo(at time.Duration) {
	r := v.replay
	to := min(at, r.end)
	m := v.m
	t0, reached, cut := time.Now(), r.at, false
	for taken := 0; r.ri < len(r.recs); taken++ {
		rc := &r.recs[r.ri]
		t := m.since(rc.Event.At)
		if t > to {
			break
		}
		if r.budget > 0 && taken > 0 && taken%r.check == 0 && time.Since(t0) >= r.budget {
			to, r.slowed, cut = reached, time.Now(), true
			break
		}
		m.add(rc)
		if r.onRecord != nil {
			r.onRecord(*rc)
		}
		reached = max(reached, t)
		r.ri++
	}
	r.at = to
	for r.si < len(r.srv) {
		if !r.hasNext {
			if mock.DecodeEvent(r.srv[r.si], &r.next) != nil || r.next.Type == "hello" {
				r.si++
				continue
			}
			r.hasNext = true
		}
		if m.sinceServer(r.next.At) > r.at {
			break
		}
		m.serverEvent(&r.next)
		r.hasNext = false
		r.si++
	}
	// Stretches the tab was hidden, as they were at the playhead.
	m.hidden = m.hidden[:0]
	for _, h := range r.full.hidden {
		if h.from > r.at {
			break
		}
		if h.to > r.at || h.to < 0 {
			h.to = -1
		}
		m.hidden = append(m.hidden, h)
	}
	v.dirty = true
	// The end is the run's last record: the server may tell of the last
	// requests' ends (a cancellation, say) a moment later, and the whole
	// run, shown from here, has those.
	if r.at >= r.end && !cut {
		done := r.onEnd
		v.endReplay()
		if done != nil {
			go done()
		}
	}
}

// replayText says where a replay is: "Replaying 3.2 s of 12.4 s at 2×".
func (v *view) replayText() string {
	v.mu.Lock()
	r := v.replay
	if r == nil {
		v.mu.Unlock()
		return ""
	}
	at, end, speed, slowed := r.at, r.end, r.speed, r.slowed
	v.mu.Unlock()
	text := "Replaying " + secondsTo(at, 1) + " of " + secondsTo(end, 1) + " at " + speedText(speed)
	if !slowed.IsZero() && time.Since(slowed) < time.Second {
		text += ", slowed: too many attempts to draw at that speed"
	}
	return text
}

// speedText is a replay speed: "0.25×", "2×".
func speedText(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) + "×" }

// CanReplay reports whether the run shown can be replayed: it is over and
// its records are here (a watch has the room's arrivals only).
func (l *Lab) CanReplay() bool {
	return !l.running && l.rec != nil && !l.watched
}

// Replaying reports whether a replay goes on.
func (l *Lab) Replaying() bool { return l.replaying }

// Replay replays the run shown at the chosen speed, or stops the replay
// going on. The numbers count what the playhead has passed, as they did
// while the run went on; at the end they are the whole run's again.
func (l *Lab) Replay(ctx app.Context) {
	if l.replaying {
		l.StopReplay()
		return
	}
	if !l.CanReplay() {
		l.Flash(ctx, "Replay: finish a run or a simulation first")
		return
	}
	rec := l.rec
	done := replayDone{live: l.live, stats: l.stats, disp: l.disp}
	live := &liveRecords{acc: fleet.NewStatsAcc(rec.Start, 0), countOnly: true}
	tickCtx, stopTick := context.WithCancel(context.Background())
	ok := l.view.startReplay(rec.Shared(), l.ReplaySpeed(), live.add, func() {
		stopTick()
		ctx.Dispatch(func(app.Context) {
			if l.live == live {
				l.endReplay()
			}
		})
	})
	if !ok {
		stopTick()
		return
	}
	l.replayDone, l.stopTick = done, stopTick
	l.replaying, l.live, l.stats, l.disp = true, live, fleet.Stats{}, 0
	l.runRev++
	l.publish()
	l.showRun(ctx)
	// The status says where the playhead is: at 4×, 250 ms is a second of
	// the run.
	go l.tick(ctx, tickCtx, live, 100*time.Millisecond, false)
}

// replayDone is what a replay puts back when it ends.
type replayDone struct {
	live  *liveRecords
	stats fleet.Stats
	disp  float64
}

// StopReplay ends a replay and shows the whole run and its numbers again.
func (l *Lab) StopReplay() {
	if !l.replaying {
		return
	}
	l.view.stopReplay()
	l.endReplay()
}

// endReplay puts the finished run's numbers back.
func (l *Lab) endReplay() {
	if l.stopTick != nil {
		l.stopTick()
		l.stopTick = nil
	}
	l.replaying = false
	l.live, l.stats, l.disp = l.replayDone.live, l.replayDone.stats, l.replayDone.disp
	l.replayDone = replayDone{}
	l.runRev++
	l.publish()
}

// ReplaySpeed is the speed of the next replay (and of the one going on).
func (l *Lab) ReplaySpeed() float64 {
	if l.replaySpeed <= 0 {
		return 1
	}
	return l.replaySpeed
}

// SetReplaySpeed sets the replay speed; other values than ReplaySpeeds are
// ignored.
func (l *Lab) SetReplaySpeed(speed float64) {
	for _, s := range ReplaySpeeds {
		if s == speed {
			l.replaySpeed = speed
			l.view.setReplaySpeed(speed)
			l.runRev++
			return
		}
	}
}
