//go:build !(js && wasm)

package ui

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// replayedView is finishedView's run with a server outage at 500–700 ms
// told by the server's stream, and a hidden-tab stretch at 900–1000 ms.
func replayedView(t *testing.T) (*view, []fleet.Record) {
	t.Helper()
	v := newView()
	v.start(fleet.Default(), t0, "")
	recs := oneJob()
	for _, r := range recs {
		v.onRecord(r)
	}
	ev, _ := json.Marshal(mock.Event{Type: "outage", Key: "k", At: at(500), Until: at(700)})
	v.onServerEvent(string(ev))
	v.mu.Lock()
	v.ingest()
	v.m.setHidden(true, 900*time.Millisecond)
	v.m.setHidden(false, 1000*time.Millisecond)
	v.mu.Unlock()
	v.finish(at(1150))
	return v, recs
}

func TestReplayTakesTheRunInAgainAsThePlayheadPasses(t *testing.T) {
	v, recs := replayedView(t)
	full, whole := v.m, v.span(0)
	var got []fleet.Record
	ended := make(chan struct{}, 2)
	if !v.startReplay(recs, 1, func(r fleet.Record) { got = append(got, r) }, func() { ended <- struct{}{} }) {
		t.Fatal("a finished run did not start replaying")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == full || len(v.m.marks) != 0 || v.span(0) != whole {
		t.Fatalf("replay starts from the full model or an empty one with another axis: marks %d, span %v (want %v)", len(v.m.marks), v.span(0), whole)
	}

	tests := []struct {
		at              time.Duration
		marks, outages  int
		firstClass      fleet.Class
		hidden          []interval
		records, spans0 int
	}{
		// The first attempt is sent at 52 ms; its 429 comes at 100 ms.
		{at: 60 * time.Millisecond, marks: 1, firstClass: fleet.ClassPending, records: 2, spans0: 1},
		{at: 400 * time.Millisecond, marks: 1, firstClass: fleet.ClassLimited, records: 4, spans0: 2},
		// The server's outage message is taken in at its time.
		{at: 600 * time.Millisecond, marks: 1, outages: 1, firstClass: fleet.ClassLimited, records: 4, spans0: 2},
		// A hidden stretch going on at the playhead is open.
		{at: 950 * time.Millisecond, marks: 1, outages: 1, firstClass: fleet.ClassLimited, hidden: []interval{{900 * time.Millisecond, -1}}, records: 4, spans0: 2},
		{at: 1120 * time.Millisecond, marks: 2, outages: 1, firstClass: fleet.ClassLimited, hidden: []interval{{900 * time.Millisecond, 1000 * time.Millisecond}}, records: 5, spans0: 2},
	}
	for _, tt := range tests {
		v.replayTo(tt.at)
		m := v.m
		if len(m.marks) != tt.marks || len(m.outages) != tt.outages || len(got) != tt.records || len(m.spans) != tt.spans0 {
			t.Errorf("at %v: marks %d, outages %d, records %d, waits %d; want %d, %d, %d, %d",
				tt.at, len(m.marks), len(m.outages), len(got), len(m.spans), tt.marks, tt.outages, tt.records, tt.spans0)
			continue
		}
		if c := m.marks[0].class; c != tt.firstClass {
			t.Errorf("at %v: the first attempt is %v, want %v", tt.at, c, tt.firstClass)
		}
		if len(m.hidden) != len(tt.hidden) || len(tt.hidden) > 0 && m.hidden[0] != tt.hidden[0] {
			t.Errorf("at %v: hidden %v, want %v", tt.at, m.hidden, tt.hidden)
		}
		if _, in := v.frameFor(nil); !in.running || in.now != tt.at {
			t.Errorf("at %v: drawn as running %v at %v, want a run going on at the playhead", tt.at, in.running, in.now)
		}
	}

	v.replayTo(time.Hour)
	if v.m != full || v.replay != nil {
		t.Fatal("the whole run is not shown again at the end")
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("onEnd was not called")
	}
	if len(got) != len(recs) {
		t.Fatalf("onRecord saw %d records, want %d", len(got), len(recs))
	}
	for i := range recs {
		if g, w := got[i].Event, recs[i].Event; g.Kind != w.Kind || !g.At.Equal(w.At) || g.Attempt != w.Attempt {
			t.Errorf("record %d replayed as %v at %v (attempt %d), want %v at %v (attempt %d)", i, g.Kind, g.At, g.Attempt, w.Kind, w.At, w.Attempt)
		}
	}
}

func TestReplayStops(t *testing.T) {
	v, recs := replayedView(t)
	full := v.m
	var ended atomic.Bool
	v.startReplay(recs, 1, nil, func() { ended.Store(true) })
	v.mu.Lock()
	v.replayTo(300 * time.Millisecond)
	v.mu.Unlock()
	v.stopReplay()
	if v.m != full || v.replay != nil {
		t.Fatal("Stop replay does not show the whole run again")
	}
	if on, _, _ := v.replaying(); on {
		t.Error("still replaying after stop")
	}

	// A new run ends a replay too.
	v.startReplay(recs, 1, nil, func() { ended.Store(true) })
	v.start(fleet.Default(), at(5000), "")
	if v.replay != nil || v.srvLog != nil {
		t.Error("a new run keeps the replay or the last run's server messages")
	}
	time.Sleep(10 * time.Millisecond)
	if ended.Load() {
		t.Error("onEnd was called for a replay that was stopped")
	}
	// Nothing to replay while a run goes on.
	if v.startReplay(recs, 1, nil, nil) {
		t.Error("a replay started during a run")
	}
}

// Each frame moves the playhead by the wall time since the last one, times
// the speed, but never by more than maxReplayStep of it: a hidden tab
// pauses a replay instead of skipping to its end.
func TestReplayAdvancesWithTheClock(t *testing.T) {
	v, recs := replayedView(t)
	v.startReplay(recs, 2, nil, nil)
	v.mu.Lock()
	defer v.mu.Unlock()
	now := time.Now()
	v.replay.last = now.Add(-30 * time.Millisecond)
	v.advanceReplay(now)
	if v.replay.at != 60*time.Millisecond {
		t.Errorf("30 ms at 2× moved the playhead to %v, want 60ms", v.replay.at)
	}
	v.replay.last = now.Add(-time.Minute)
	v.advanceReplay(now)
	if want := 60*time.Millisecond + 2*maxReplayStep; v.replay.at != want {
		t.Errorf("a minute away moved the playhead to %v, want %v", v.replay.at, want)
	}
	v.replay.speed = 0.25
	v.replay.last = now.Add(-40 * time.Millisecond)
	v.advanceReplay(now)
	if want := 60*time.Millisecond + 2*maxReplayStep + 10*time.Millisecond; v.replay.at != want {
		t.Errorf("40 ms at 0.25× moved the playhead to %v, want %v", v.replay.at, want)
	}
}

// The server tells of a request's end a moment after the run's last record
// (the stream's messages come after the run ends, even during a replay):
// the replay still ends, the message is in the whole run's model, and the
// replay takes it in too.
func TestReplayTakesInTheServersLateMessages(t *testing.T) {
	v, recs := replayedView(t)
	full := v.m
	ended := make(chan struct{}, 1)
	v.startReplay(recs, 1, nil, func() { ended <- struct{}{} })
	ev, _ := json.Marshal(mock.Event{Type: "arrival", Key: "k", Tag: "w1.j0.a2", Seq: 9, At: at(1103), Outcome: "ok", Status: 200})
	v.onServerEvent(string(ev))
	end, _ := json.Marshal(mock.Event{Type: "end", Key: "k", Tag: "w1.j0.a2", Seq: 9, At: at(1160), End: "sent"})
	v.onServerEvent(string(end))
	v.mu.Lock()
	v.drawFrame() // takes the messages in, as a frame does
	if len(full.arrivals) != 1 || len(v.m.arrivals) != 0 {
		t.Errorf("a late arrival went to the replay (%d) instead of the run (%d)", len(v.m.arrivals), len(full.arrivals))
	}
	v.replayTo(1104 * time.Millisecond)
	if len(v.m.arrivals) != 1 {
		t.Errorf("the replay did not take the late arrival in at its time: %d arrivals", len(v.m.arrivals))
	}
	v.replayTo(time.Hour)
	if v.replay != nil || v.m != full {
		t.Error("a replay with a server message after the run's last record does not end")
	}
	v.mu.Unlock()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("onEnd was not called")
	}
}

// A frame of a big run comes up to maxFrameGap after the last: a replay
// that moved less than that per frame would play slower than its speed.
func TestReplayStepOutlastsTheFrameGap(t *testing.T) {
	if maxReplayStep <= maxFrameGap {
		t.Errorf("maxReplayStep %v ≤ maxFrameGap %v: replays of big runs fall behind their speed", maxReplayStep, maxFrameGap)
	}
}

// A watch is never replayed: its messages are not kept twice.
func TestWatchKeepsNoReplayLog(t *testing.T) {
	v := newView()
	v.startWatch(fleet.Default(), t0)
	ev, _ := json.Marshal(mock.Event{Type: "arrival", Key: "room", Seq: 1, At: at(10), Outcome: "ok", Status: 200})
	v.onServerEvent(string(ev))
	if len(v.srvLog) != 0 {
		t.Errorf("a watch logged %d messages", len(v.srvLog))
	}
}

// A run kept as the baseline is not drawn against its own replay.
func TestReplayOfTheBaselineRun(t *testing.T) {
	v, recs := replayedView(t)
	v.mu.Lock()
	v.base, v.baseFrom = &baselineDraw{label: "it"}, v.m.id
	v.mu.Unlock()
	v.startReplay(recs, 1, nil, nil)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.shownBaseline() != nil {
		t.Error("the baseline is drawn over a replay of itself")
	}
}

func TestReplayText(t *testing.T) {
	v, recs := replayedView(t)
	if got := v.replayText(); got != "" {
		t.Errorf("before a replay: %q", got)
	}
	v.startReplay(recs, 0.5, nil, nil)
	v.mu.Lock()
	v.replayTo(320 * time.Millisecond)
	v.mu.Unlock()
	if got, want := v.replayText(), "Replaying 0.3 s of 1.1 s at 0.5×"; got != want {
		t.Errorf("replayText = %q, want %q", got, want)
	}
}

// replaying reports whether a replay goes on, its playhead and its end.
func (v *view) replaying() (on bool, at, end time.Duration) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.replay == nil {
		return false, 0, 0
	}
	return true, v.replay.at, v.replay.end
}

// A replay of a run in a shared room knows the page's own unanswered
// attempts by their tags, as the run did: it took the room and not the
// page's device name, and drew them as another client's again.
func TestReplayKnowsTheRoomsOwnAttempts(t *testing.T) {
	v := newView()
	s := fleet.Default()
	s.Room = "r1"
	v.start(s, t0, "heron-4k2")
	recs := []fleet.Record{
		{Event: core.Event{Kind: core.EventAttempt, At: at(0), Intended: at(0), Attempt: 1}},
		{Event: core.Event{Kind: core.EventOutcome, At: at(100), Attempt: 1, Outcome: core.Outcome{Err: errNetwork}}},
		{Event: core.Event{Kind: core.EventDone, At: at(100), Attempt: 1, Err: errNetwork}},
	}
	for _, r := range recs {
		v.onRecord(r)
	}
	ev, _ := json.Marshal(mock.Event{Type: "arrival", Key: "r1", Tag: "heron-4k2.w0.j0.a1", Seq: 4, At: at(5), Outcome: "drop"})
	v.onServerEvent(string(ev))
	v.mu.Lock()
	v.ingest()
	v.mu.Unlock()
	v.finish(at(100))
	if v.m.arrivals[0].mark != 0 {
		t.Fatalf("the run: the page's dropped attempt's arrival is attempt %d", v.m.arrivals[0].mark)
	}
	v.startReplay(recs, 1, nil, nil)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.replayTo(50 * time.Millisecond)
	if len(v.m.arrivals) != 1 || v.m.arrivals[0].mark != 0 {
		t.Errorf("the replay: arrivals %+v, want the page's attempt's", v.m.arrivals)
	}
}

// TestWatchFramesLeaveTheThread: a watch, painted whole at every frame,
// waits 30 µs an arrival it draws as a shape between frames, none when it
// draws them as pictures (model.drawsPictures), and 4 times its last
// redraw, up to a second; a run, whose drawing is kept between frames,
// 10 µs a mark, up to maxFrameGap. A watch of 28,000 arrivals took ~200 ms
// a frame every 250 ms (a soak review), as shapes. Only the arrivals in
// view count.
func TestWatchFramesLeaveTheThread(t *testing.T) {
	for _, tt := range []struct {
		watch, pictured bool
		arrivals        int
		drawCost        time.Duration
		want            time.Duration
	}{
		{true, false, 28_000, 0, 840 * time.Millisecond},
		{true, false, 100_000, 0, maxWatchGap},
		{true, true, 28_000, 0, 33 * time.Millisecond},
		{true, true, 28_000, 50 * time.Millisecond, 200 * time.Millisecond},
		{true, true, 100_000, 300 * time.Millisecond, maxWatchGap},
		{true, false, 100, 0, 33 * time.Millisecond},
		{false, false, 28_000, 0, maxFrameGap},
		{false, false, 10_000, 0, 100 * time.Millisecond},
	} {
		v := quietView()
		v.m = newModel(time.Unix(0, 0), 0)
		v.m.watch, v.m.pictured = tt.watch, tt.pictured
		v.m.arrivals = make([]arrival, tt.arrivals)
		if tt.watch {
			v.m.inView = tt.arrivals // all in view
		}
		v.drawCost = tt.drawCost
		if got := v.minGap(); got != tt.want {
			t.Errorf("watch %v, %d arrivals: frames %v apart, want %v", tt.watch, tt.arrivals, got, tt.want)
		}
	}
	// A room gone quiet: 40,000 arrivals seen, 100 in view.
	v := quietView()
	v.m = newModel(time.Unix(0, 0), 0)
	v.m.watch, v.m.arrivals, v.m.inView = true, make([]arrival, 40_000), 100
	if got := v.minGap(); got != 33*time.Millisecond {
		t.Errorf("a quiet watch after 40,000 arrivals: frames %v apart, want 33ms", got)
	}
}

// A frame takes records in for its budget at most (checked every
// replayCheck records): the playhead stops at the last one taken, the
// status says the replay is slowed, and the next frames take the rest, in
// order, to the end. A big simulation's frame at 8× took 140,000 records
// in one task of 250–400 ms.
func TestReplayTakesABudgetAFrame(t *testing.T) {
	v, recs := replayedView(t)
	full := v.m
	var got []fleet.Record
	ended := make(chan struct{}, 1)
	v.startReplay(recs, 8, func(r fleet.Record) { got = append(got, r) }, func() { ended <- struct{}{} })
	v.mu.Lock()
	// The replay's own, not the package's: a frame the test asked for
	// may still run as it ends (a data race under -race, restoring it).
	v.replay.budget, v.replay.check = time.Nanosecond, 2
	v.mu.Unlock()
	for i, want := range []struct {
		records int
		at      time.Duration
	}{
		{2, 52 * time.Millisecond},
		{4, 100 * time.Millisecond},
		{6, 1150 * time.Millisecond}, // the end's time, with a record left
	} {
		v.mu.Lock()
		v.replayTo(time.Hour)
		on, at := v.replay != nil, time.Duration(0)
		if on {
			at = v.replay.at
		}
		v.mu.Unlock()
		if !on || len(got) != want.records || at != want.at {
			t.Fatalf("frame %d: replaying %v, %d records taken, playhead at %v; want %d, %v", i+1, on, len(got), at, want.records, want.at)
		}
		if text := v.replayText(); !strings.HasSuffix(text, " at 8×, slowed: too many attempts to draw at that speed") {
			t.Errorf("frame %d: replayText = %q", i+1, text)
		}
	}
	v.mu.Lock()
	v.replayTo(time.Hour)
	v.mu.Unlock()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the replay did not end once every record was taken")
	}
	if v.m != full || len(got) != len(recs) {
		t.Fatalf("at the end: the whole run shown %v, %d of %d records taken", v.m == full, len(got), len(recs))
	}
	for i := range recs {
		if got[i].Event != recs[i].Event {
			t.Errorf("record %d taken out of order", i)
		}
	}

	// Within the budget, a frame takes every record up to the playhead.
	got = nil
	v.startReplay(recs, 1, func(r fleet.Record) { got = append(got, r) }, nil)
	v.mu.Lock()
	v.replay.budget = time.Hour
	v.replayTo(1120 * time.Millisecond)
	v.mu.Unlock()
	if len(got) != 5 || strings.Contains(v.replayText(), "slowed") {
		t.Errorf("within the budget: %d records taken (want 5), %q", len(got), v.replayText())
	}
}

// A frame's budget is an eighth of the time to the next frame, at least
// minReplayBudget: frames of a big replay come 250 ms apart, and took 8 ms
// of records each (a replay of 955,000 records took 30 s at 8×).
func TestReplayBudgetFollowsTheFrameGap(t *testing.T) {
	for _, tt := range []struct {
		drawCost, want time.Duration
	}{
		{0, minReplayBudget},
		{10 * time.Millisecond, minReplayBudget},
		{50 * time.Millisecond, 25 * time.Millisecond},
		{time.Second, maxFrameGap / replayShare},
	} {
		v, recs := replayedView(t)
		v.startReplay(recs, 1, nil, nil)
		v.mu.Lock()
		v.drawCost = tt.drawCost
		v.advanceReplay(time.Now())
		if got := v.replay.budget; got != tt.want {
			t.Errorf("last redraw %v: budget %v, want %v", tt.drawCost, got, tt.want)
		}
		v.mu.Unlock()
	}
}
