//go:build e2e

package tests

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
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
	if !eval[bool](t, ctx, `document.getElementById("replay-speed").disabled`) {
		t.Error("Replay's speed offered before any run: Tab reaches it while Replay is disabled")
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

	// A replay is drawn on the kept drawing, as a live run is: painted
	// whole at each frame, a 500-worker simulation's replay had long tasks
	// of up to 390 ms, the browser rasterising every mark each time.
	type whole struct {
		Whole int `json:"live_whole"`
	}
	paintedWhole := func() int { return eval[whole](t, ctx, `JSON.parse(window.retrylab.debug())`).Whole }
	wholeBefore := paintedWhole()
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
	if n := paintedWhole() - wholeBefore; n > 0 {
		t.Errorf("the replay painted the whole timeline at %d frames, want none: it is drawn on the kept drawing", n)
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

// TestReplayClearsTheSelection: an attempt selected from the keyboard
// (sent 6.2 s into the flood), then y pressed with the timeline still
// focused: the replay starts without the attempt's tooltip, which was
// left over the lanes describing an attempt seconds ahead of the playhead
// (a presenter's review), and its end, by s, leaves none either.
func TestReplayClearsTheSelection(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	simulated(t, ctx, srv.URL+"/?strategy=constant&base=2s&workers=50&jobs=2")
	press(t, ctx, "t")
	for range 5 { // worker 1's attempts, the fifth sent at 6.2 s
		keyOnFocus(t, ctx, kb.ArrowRight)
	}
	var sel tipBox
	if err := waitFor(3*time.Second, func() bool { sel = readTip(t, ctx); return strings.Contains(sel.Text, "sent 6.200 s") }); err != nil {
		t.Fatalf("the fifth attempt walked to has no tooltip: %+v", sel)
	}
	keyOnFocus(t, ctx, "y")
	var d replayDebug
	if err := waitFor(5*time.Second, func() bool { d = replayState(t, ctx); return d.Replay != nil && d.Replay.At > 500 }); err != nil {
		t.Fatalf("y did not start a replay: %+v", d.Replay)
	}
	if b := readTip(t, ctx); b.Shown {
		t.Errorf("at %.0f ms into the replay a tooltip says %q", d.Replay.At, b.Text)
	}
	keyOnFocus(t, ctx, "s")
	if err := waitFor(3*time.Second, func() bool { return !state(t, ctx).Replaying }); err != nil {
		t.Fatal("s did not stop the replay")
	}
	if b := readTip(t, ctx); b.Shown {
		t.Errorf("after the replay a tooltip says %q", b.Text)
	}
}

// numberCard is one card of the numbers panel as a person reads it.
type numberCard struct {
	Name string `json:"name"`
	Sub  string `json:"sub"`
	Base string `json:"base"`
}

// numberCards reads the numbers panel's cards: each one's line and its
// line against the baseline.
func numberCards(t testing.TB, ctx context.Context) []numberCard {
	t.Helper()
	return eval[[]numberCard](t, ctx, `[...document.querySelectorAll("#numbers .stat[data-stat]")].map(e => ({
		name: e.dataset.stat,
		sub: (e.querySelector(".sub") || {}).textContent || "",
		base: (e.querySelector(".base") || {}).textContent || "",
	}))`)
}

// judged lists the cards whose line against the baseline tells a change
// from it ("−5.3% better", "+12%", "same").
func judged(cards []numberCard) []string {
	var out []string
	for _, c := range cards {
		if strings.Contains(c.Base, "·") || strings.Contains(c.Base, "better") || strings.Contains(c.Base, "worse") || strings.Contains(c.Base, "same") {
			out = append(out, c.Name+": "+c.Base)
		}
	}
	return out
}

// TestReplayIsNotJudgedAgainstTheWholeBaseline, the UX review's steps: the
// flood run live and kept as the baseline (c), full jitter run live, then
// replayed (y). 4 s into the replay the cards said "requests sent 339 ·
// baseline 358 · −5.3% better", "jobs succeeded 50 · baseline 100 · −50%
// worse", "time to drain 4.1 s … −76% better": a partial run judged
// against a whole one. Midway a replay's numbers are told as a live run's
// going on are: the baseline's whole figures beside them, no change, no
// verdict, the time to drain "so far", and the compare bar says why; at
// the end of the replay the changes are back.
func TestReplayIsNotJudgedAgainstTheWholeBaseline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	bar := func() string {
		return eval[string](t, ctx, `(document.getElementById("compare") || {}).textContent || ""`)
	}
	press(t, ctx, "1")
	runToEnd(t, ctx, 90*time.Second)
	press(t, ctx, "c")
	if err := waitFor(3*time.Second, func() bool { return strings.Contains(bar(), "Synchronized flood") }); err != nil {
		t.Fatalf("c kept no baseline: %q", bar())
	}
	press(t, ctx, "3")

	// A live run against it, going on: told so far, not judged.
	click(t, ctx, "run")
	var cards []numberCard
	if err := waitFor(20*time.Second, func() bool {
		cards = numberCards(t, ctx)
		return state(t, ctx).Running && slices.ContainsFunc(cards, func(c numberCard) bool { return c.Name == "requests" && c.Base != "" })
	}); err != nil {
		t.Fatalf("no baseline beside the live run's numbers: %+v", cards)
	}
	if j := judged(cards); len(j) > 0 {
		t.Errorf("a live run going on is judged against the baseline: %q", j)
	}
	done := state(t, ctx)
	if err := waitFor(90*time.Second, func() bool { done = state(t, ctx); return !done.Running }); err != nil {
		t.Fatal("the full-jitter run did not finish")
	}
	var after []string
	if err := waitFor(3*time.Second, func() bool { after = judged(numberCards(t, ctx)); return len(after) >= 10 }); err != nil {
		t.Fatalf("the finished run is not compared with the baseline: %q", after)
	}

	press(t, ctx, "y")
	if err := waitFor(10*time.Second, func() bool { d := replayState(t, ctx); return d.Replay != nil && d.Replay.At > 3000 }); err != nil {
		t.Fatal("y did not replay the run 3 s in")
	}
	cards, text := numberCards(t, ctx), bar()
	if d := replayState(t, ctx); d.Replay == nil {
		t.Fatal("the replay ended before its cards were read")
	}
	if j := judged(cards); len(j) > 0 {
		t.Errorf("midway through the replay the partial run is judged against the whole baseline: %q", j)
	}
	for _, c := range cards {
		switch c.Name {
		case "requests", "successes", "drain_ms":
			if !strings.Contains(c.Base, "baseline") {
				t.Errorf("midway: %s shows no baseline figure: %+v", c.Name, c)
			}
		}
		if c.Name == "drain_ms" && !strings.Contains(c.Sub, "so far") {
			t.Errorf("midway: the time to drain says %q, not that it is so far", c.Sub)
		}
	}
	if !strings.Contains(text, "So far this run's numbers count up to the playhead") {
		t.Errorf("midway the compare bar does not say the numbers are so far: %q", text)
	}

	if err := waitFor(60*time.Second, func() bool { return !state(t, ctx).Replaying }); err != nil {
		t.Fatal("the replay did not end")
	}
	var end []string
	if err := waitFor(3*time.Second, func() bool { end = judged(numberCards(t, ctx)); return len(end) == len(after) }); err != nil {
		t.Errorf("after the replay %d changes from the baseline, before it %d: %q", len(end), len(after), end)
	}
}
