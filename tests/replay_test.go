//go:build e2e

package tests

import (
	"context"
	"strings"
	"testing"
	"time"
)

// replayDebug is window.retrylab.debug()'s replay: where the playhead is,
// and what the timeline has drawn so far.
type replayDebug struct {
	Replay *struct {
		At        float64 `json:"at_ms"`
		End       float64 `json:"end_ms"`
		Marks     float64 `json:"marks"`
		FullMarks float64 `json:"full_marks"`
	} `json:"replay"`
	Drawn float64 `json:"drawn_ms"`
}

func replayState(t testing.TB, ctx context.Context) replayDebug {
	t.Helper()
	return eval[replayDebug](t, ctx, `JSON.parse(window.retrylab.debug())`)
}

// TestReplayAFinishedRun: a person simulates the flood, picks 4× and
// presses Replay. Midway the timeline holds only the attempts sent before
// the playhead, the numbers count only those, and the status says where
// the replay is; at the end the whole run and its numbers are back. Then a
// live run, replayed from the keyboard (y) and stopped with s.
func TestReplayAFinishedRun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?strategy=constant&base=2s&workers=50&jobs=2")
	if !eval[bool](t, ctx, `document.getElementById("replay").disabled`) {
		t.Error("Replay offered before any run")
	}
	click(t, ctx, "simulate")
	var final pageState
	if err := waitFor(30*time.Second, func() bool { final = state(t, ctx); return final.Simulated && !final.Running }); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(5*time.Second, func() bool { return replayState(t, ctx).Drawn > 0 }); err != nil {
		t.Fatal("the simulated run was not drawn")
	}
	requests := final.Stats["requests"]

	selectValue(t, ctx, "replay-speed", "4")
	click(t, ctx, "replay")
	var mid replayDebug
	if err := waitFor(10*time.Second, func() bool {
		mid = replayState(t, ctx)
		return mid.Replay != nil && mid.Replay.At > 1500
	}); err != nil {
		t.Fatalf("the replay did not get 1.5 s in: %+v", mid.Replay)
	}
	r := mid.Replay
	if r.Marks == 0 || r.Marks >= r.FullMarks || r.End < 4000 {
		t.Errorf("midway (playhead %.0f of %.0f ms): %v of %v attempts drawn", r.At, r.End, r.Marks, r.FullMarks)
	}
	st := state(t, ctx)
	status := eval[string](t, ctx, `document.querySelector(".runbar").textContent`)
	button := eval[string](t, ctx, `document.getElementById("replay").textContent`)
	if !st.Replaying || st.Stats["requests"] >= requests || st.Records >= final.Records {
		t.Errorf("midway the numbers count %v of %v requests, %d of %d records (replaying %v)", st.Stats["requests"], requests, st.Records, final.Records, st.Replaying)
	}
	if !strings.Contains(status, "Replaying ") || !strings.Contains(status, " at 4×") || !strings.Contains(button, "Stop replay") {
		t.Errorf("midway: status %q, button %q", status, button)
	}
	screenshot(t, ctx, "replay-flood-midway")

	// The flood's run is ~6.5 s: at 4× the replay ends within seconds.
	if err := waitFor(15*time.Second, func() bool { st = state(t, ctx); return !st.Replaying }); err != nil {
		t.Fatalf("the replay did not end: %+v", replayState(t, ctx).Replay)
	}
	if st.Stats["requests"] != requests || st.Records != final.Records || replayState(t, ctx).Replay != nil {
		t.Errorf("after the replay: %v requests, %d records; want the whole run's %v and %d", st.Stats["requests"], st.Records, requests, final.Records)
	}

	// A live run, replayed with y and stopped with s.
	boot(t, ctx, srv.URL+"/?workers=10&jobs=3&latency=300ms&rate=5&burst=5&strategy=full&base=300ms")
	done := runToEnd(t, ctx, 60*time.Second)
	selectValue(t, ctx, "replay-speed", "0.5")
	press(t, ctx, "y")
	if err := waitFor(5*time.Second, func() bool { d := replayState(t, ctx); return d.Replay != nil && d.Replay.At > 200 }); err != nil {
		t.Fatal("y did not start a replay of the live run")
	}
	press(t, ctx, "s")
	if err := waitFor(3*time.Second, func() bool { st = state(t, ctx); return !st.Replaying }); err != nil {
		t.Fatal("s did not stop the replay")
	}
	if st.Stats["requests"] != done.Stats["requests"] || st.Records != done.Records || replayState(t, ctx).Replay != nil {
		t.Errorf("after stopping the replay: %v requests, %d records; want the run's %v and %d", st.Stats["requests"], st.Records, done.Stats["requests"], done.Records)
	}
}
