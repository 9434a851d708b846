//go:build e2e

package tests

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page must stay responsive while it works (issue #4): no task on the
// main thread longer than the long-task threshold (50 ms) during a 500-worker
// live run, and after Simulate the result must come in without freezing the
// page. These benchmarks print the figures; they do not assert them.

// watchMainThreadJS starts three witnesses of the main thread's stalls: a
// 50 ms setInterval probe (each gap beyond 50 ms is a stall, noted with the
// time it ended), a PerformanceObserver of "longtask" entries (every task
// over 50 ms, with its start and duration), and the Event Timing API's
// entries for keyboard interactions (the time from the key press to the
// next frame painted after its handlers, as INP measures it; the API
// reports only those of 16 ms or more, so keys counts every keydown).
// stopWatchJS reads them.
const watchMainThreadJS = `(() => {
	const w = {gaps: [], tasks: [], events: [], keys: 0};
	document.addEventListener("keydown", () => w.keys++, true);
	w.evs = new PerformanceObserver(list => {
		for (const e of list.getEntries()) if (e.interactionId && e.name.startsWith("key")) w.events.push([e.interactionId, e.startTime, e.duration]);
	});
	w.evs.observe({type: "event", durationThreshold: 16});
	window.__watch = w;
	let last = performance.now();
	w.probe = setInterval(() => {
		const now = performance.now();
		if (now - last - 50 > 1) w.gaps.push([now - (now - last - 50), now - last - 50]);
		last = now;
	}, 50);
	w.obs = new PerformanceObserver(list => {
		for (const e of list.getEntries()) w.tasks.push([e.startTime, e.duration]);
	});
	w.obs.observe({type: "longtask"});
})()`

// stopWatchJS stops the witnesses and returns {gaps, tasks}: [start, ms] pairs.
const stopWatchJS = `(() => {
	const w = window.__watch;
	clearInterval(w.probe);
	for (const e of w.obs.takeRecords()) w.tasks.push([e.startTime, e.duration]);
	w.obs.disconnect();
	for (const e of w.evs.takeRecords()) if (e.interactionId && e.name.startsWith("key")) w.events.push([e.interactionId, e.startTime, e.duration]);
	w.evs.disconnect();
	return {gaps: w.gaps, tasks: w.tasks, events: w.events, keys: w.keys};
})()`

// stalls is what the witnesses saw: [start ms, length ms] pairs, and the
// key events of 16 ms or more ([interaction id, start ms, key press to
// next paint ms]; a press's keydown and keyup share the id) out of keys
// keydowns.
type stalls struct {
	Gaps   [][2]float64 `json:"gaps"`
	Tasks  [][2]float64 `json:"tasks"`
	Events [][3]float64 `json:"events"`
	Keys   int          `json:"keys"`
}

// interactions is each key press's latency, as INP takes it (the longest
// of its events), slowest first: one per keydown, those the API did not
// report (< 16 ms) as 0.
func (s stalls) interactions() []float64 {
	byID := map[float64]float64{}
	for _, e := range s.Events {
		byID[e[0]] = max(byID[e[0]], e[2])
	}
	d := make([]float64, 0, max(s.Keys, len(byID)))
	for _, v := range byID {
		d = append(d, v)
	}
	for len(d) < s.Keys {
		d = append(d, 0)
	}
	slices.SortFunc(d, func(a, b float64) int { return cmp.Compare(b, a) })
	return d
}

// slowestInteraction is the longest key press to next paint (0: every
// press under 16 ms).
func (s stalls) slowestInteraction() float64 {
	if d := s.interactions(); len(d) > 0 {
		return d[0]
	}
	return 0
}

// p98Interaction is the 98th percentile of the key presses' latency.
func (s stalls) p98Interaction() float64 {
	d := s.interactions()
	if len(d) == 0 {
		return 0
	}
	return d[len(d)*2/100]
}

// pressDuringRun opens and closes the shortcuts dialog (? then Escape,
// which closes the dialog and leaves the run alone) every 500 ms, as a
// person poking at the page would, until done is closed. It returns the
// first error of a key press (it stops pressing there: a lost ? would make
// the next Escape stop the run).
func pressDuringRun(ctx context.Context, done <-chan struct{}) error {
	for {
		for _, key := range []string{"?", kb.Escape} {
			select {
			case <-done:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(250 * time.Millisecond):
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
				return fmt.Errorf("pressing %q: %w", key, err)
			}
		}
	}
}

// longest is the longest stretch of the pairs that lies after from (a
// stall that began earlier counts from there).
func longest(pairs [][2]float64, from float64) float64 {
	m := 0.0
	for _, p := range pairs {
		start, end := max(p[0], from), p[0]+p[1]
		m = max(m, end-start)
	}
	return m
}

// BenchmarkResponsiveLiveRun: a 500-worker live run (the most a live run
// takes) × 2 jobs against the mock at 100 req/s with 100 ms latency,
// clicked through the page. The figures are the main thread's longest stall
// (a 50 ms setInterval probe), the number of long tasks (> 50 ms, from a
// PerformanceObserver) and the longest of them, and how quickly the page
// answers a person: during the run the shortcuts dialog is opened and
// closed from the keyboard every 500 ms, and the Event Timing API measures
// each key press to the next paint (what INP measures; ≤ 200 ms is "good").
// Median of 3 runs, each in a freshly loaded page.
func BenchmarkResponsiveLiveRun(b *testing.B) {
	srv := startServer(b)
	ctx, _ := newBrowser(b)
	var stall, count, long, reqs, inp, p98 []float64
	for i := 0; i < 3; i++ {
		boot(b, ctx, srv.URL+"/?workers=500&jobs=2&latency=100ms&rate=100&burst=100")
		eval[any](b, ctx, watchMainThreadJS)
		type mem struct {
			GC     float64 `json:"gc_cycles"`
			Heap   float64 `json:"heap_mb"`
			Sys    float64 `json:"heap_sys_mb"`
			Stacks float64 `json:"stacks_mb"`
		}
		m0 := eval[mem](b, ctx, `JSON.parse(window.retrylab.debug())`)
		// Run; once the page says it is running, press keys until it ends.
		before := state(b, ctx).Runs
		click(b, ctx, "run")
		if err := waitFor(10*time.Second, func() bool { return state(b, ctx).Running }); err != nil {
			b.Fatalf("run %d did not start: %v", i+1, err)
		}
		done := make(chan struct{})
		pressed := make(chan error, 1)
		go func() { pressed <- pressDuringRun(ctx, done) }()
		var st pageState
		err := waitFor(120*time.Second, func() bool {
			st = state(b, ctx)
			return st.Runs > before && !st.Running
		})
		close(done)
		if perr := <-pressed; perr != nil {
			b.Fatalf("run %d: %v", i+1, perr)
		}
		if err != nil {
			b.Fatalf("run %d did not finish: %v (last state %+v)", i+1, err, st)
		}
		w := eval[stalls](b, ctx, stopWatchJS)
		m1 := eval[mem](b, ctx, `JSON.parse(window.retrylab.debug())`)
		if st.Stats["successes"]+st.Stats["give_ups"] != 1000 {
			b.Fatalf("run %d: %v successes + %v give-ups, want 1,000 jobs", i+1, st.Stats["successes"], st.Stats["give_ups"])
		}
		stall = append(stall, longest(w.Gaps, 0))
		count = append(count, float64(len(w.Tasks)))
		long = append(long, longest(w.Tasks, 0))
		reqs = append(reqs, st.Stats["requests"])
		inp = append(inp, w.slowestInteraction())
		p98 = append(p98, w.p98Interaction())
		slow := 0
		for _, d := range w.interactions() {
			if d >= 16 {
				slow++
			}
		}
		fmt.Printf("500-worker live run %d: %.0f requests, %d records; longest stall %.0f ms (probe), %d long tasks, longest %.0f ms; %d key presses, %d of them 16 ms or more to the next paint, slowest %.0f ms, p98 %.0f ms; %.0f GC cycles, heap %.1f MB (%.0f MB taken from the system), stacks %.1f MB at the end\n",
			i+1, st.Stats["requests"], st.Records, stall[i], len(w.Tasks), long[i], w.Keys, slow, inp[i], p98[i], m1.GC-m0.GC, m1.Heap, m1.Sys, m1.Stacks)
	}
	b.ReportMetric(median(stall), "longest-stall-ms")
	b.ReportMetric(median(count), "long-tasks")
	b.ReportMetric(median(long), "longest-task-ms")
	b.ReportMetric(median(inp), "slowest-interaction-ms")
	fmt.Printf("500-worker live run: medians of 3: longest main-thread stall %.0f ms %s (50 ms interval probe); long tasks %.0f %s, longest %.0f ms %s; key press to next paint: slowest %.0f ms %s, p98 %.0f ms %s; requests %.0f\n",
		median(stall), fmtMS(stall), median(count), fmtMS(count), median(long), fmtMS(long), median(inp), fmtMS(inp), median(p98), fmtMS(p98), median(reqs))

	// Stop, clicked 2 s into a run: every worker's fetch aborted and wait
	// ended. The figure is the click to the next paint (Event Timing).
	var stops []float64
	for i := 0; i < 3; i++ {
		boot(b, ctx, srv.URL+"/?workers=500&jobs=2&latency=100ms&rate=100&burst=100")
		click(b, ctx, "run")
		time.Sleep(2 * time.Second)
		eval[any](b, ctx, `(() => {
			window.__clicks = [];
			new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.name === "click") window.__clicks.push(e.duration); })
				.observe({type: "event", durationThreshold: 16});
		})()`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("stop"), chromedp.NodeVisible)); err != nil {
			b.Fatal(err)
		}
		if err := waitFor(10*time.Second, func() bool { return !state(b, ctx).Running }); err != nil {
			b.Fatalf("stop %d: the run did not stop: %v", i+1, err)
		}
		time.Sleep(200 * time.Millisecond) // the entry comes after the paint
		d := eval[[]float64](b, ctx, `window.__clicks`)
		stops = append(stops, slices.Max(append(d, 0))) // none reported: under 16 ms
	}
	b.ReportMetric(median(stops), "stop-click-ms")
	fmt.Printf("500-worker live run, Stop clicked 2 s in: click to next paint median %.0f ms %s (0: under 16 ms)\n", median(stops), fmtMS(stops))
}

// BenchmarkResponsiveSimulate: Simulate (the button) of 10,000 workers × 5
// jobs at a server rate of 500 req/s. The figures, from the click: when the
// simulation's result was in (debug().sim_computed_ms), when the numbers
// were on screen (state().simulated), when the timeline was first drawn
// complete (debug().drawn_ms); and the longest main-thread stall, over
// the whole and after the result was in, by the longest long task and by a
// 50 ms interval probe (the simulation lets the event loop run every 20 ms
// of work; it held the thread for the whole computation). Median of 3,
// each in a freshly loaded page.
func BenchmarkResponsiveSimulate(b *testing.B) {
	srv := startServer(b)
	ctx, _ := newBrowser(b)
	var computed, shown, drawn, postTask, postGap, task, gap, simWall []float64
	for i := 0; i < 3; i++ {
		boot(b, ctx, srv.URL+"/?workers=10000&jobs=5&rate=500")
		eval[any](b, ctx, watchMainThreadJS)
		// Click from the page, noting the time; the numbers' arrival is
		// watched by a MutationObserver (no polling into Go meanwhile).
		t0 := eval[float64](b, ctx, `(() => {
			window.__shown = 0;
			const obs = new MutationObserver(() => {
				const s = JSON.parse(window.retrylab.state());
				if (s.simulated && !s.running && !window.__shown) { window.__shown = performance.now(); obs.disconnect(); }
			});
			obs.observe(document.getElementById("numbers"), {subtree: true, childList: true, characterData: true, attributes: true});
			const t = performance.now();
			document.getElementById("simulate").click();
			return t;
		})()`)
		type dbg struct {
			Computed float64 `json:"sim_computed_ms"`
			Drawn    float64 `json:"drawn_ms"`
		}
		var d dbg
		var shownAt float64
		if err := waitFor(60*time.Second, func() bool {
			d = eval[dbg](b, ctx, `JSON.parse(window.retrylab.debug())`)
			shownAt = eval[float64](b, ctx, `window.__shown`)
			return d.Computed > t0 && d.Drawn > t0 && shownAt > 0
		}); err != nil {
			b.Fatalf("simulation %d was not shown: %v (debug %+v, numbers at %.0f)", i+1, err, d, shownAt)
		}
		// Let whatever follows the drawing run before the witnesses stop.
		time.Sleep(500 * time.Millisecond)
		w := eval[stalls](b, ctx, stopWatchJS)
		st := eval[struct {
			Simulated bool               `json:"simulated"`
			Wall      float64            `json:"sim_wall_ms"`
			Records   int                `json:"records"`
			Stats     map[string]float64 `json:"stats"`
		}](b, ctx, `JSON.parse(window.retrylab.state())`)
		if !st.Simulated || st.Stats["successes"]+st.Stats["give_ups"]+st.Stats["cancelled"] != 50000 {
			b.Fatalf("simulation %d: state %+v, want 50,000 jobs", i+1, st)
		}
		computed = append(computed, d.Computed-t0)
		shown = append(shown, shownAt-t0)
		drawn = append(drawn, d.Drawn-t0)
		postTask = append(postTask, longest(w.Tasks, d.Computed))
		postGap = append(postGap, longest(w.Gaps, d.Computed))
		task = append(task, longest(w.Tasks, 0))
		gap = append(gap, longest(w.Gaps, 0))
		simWall = append(simWall, st.Wall)
		fmt.Printf("simulate 10,000 × 5 (%d): %d records, simulation %.0f ms; from the click: computed %.0f ms, numbers %.0f ms, drawn %.0f ms; after computed: longest task %.0f ms, longest probe stall %.0f ms; overall: longest task %.0f ms, longest probe stall %.0f ms\n",
			i+1, st.Records, st.Wall, computed[i], shown[i], drawn[i], postTask[i], postGap[i], task[i], gap[i])
	}
	b.ReportMetric(median(computed), "ms-to-computed")
	b.ReportMetric(median(shown), "ms-to-numbers")
	b.ReportMetric(median(drawn), "ms-to-drawn")
	b.ReportMetric(median(postTask), "post-longest-task-ms")
	b.ReportMetric(median(postGap), "post-longest-stall-ms")
	b.ReportMetric(median(task), "longest-task-ms")
	b.ReportMetric(median(gap), "longest-stall-ms")
	fmt.Printf("simulate 10,000 × 5: medians of 3: simulation %.0f ms; computed %.0f ms %s, numbers %.0f ms %s, drawn %.0f ms %s from the click; after computed: longest task %.0f ms %s, longest probe stall %.0f ms %s; overall: longest task %.0f ms %s, longest probe stall %.0f ms %s\n",
		median(simWall), median(computed), fmtMS(computed), median(shown), fmtMS(shown), median(drawn), fmtMS(drawn),
		median(postTask), fmtMS(postTask), median(postGap), fmtMS(postGap), median(task), fmtMS(task), median(gap), fmtMS(gap))
}

// BenchmarkResponsiveWatch: a watch of a busy shared room, as a workshop's
// projector shows it: 30 devices each sending 10 requests a second (plain
// HTTP clients tagged with a device name, as the audience's pages are).
// After 30 s of it (9,000 arrivals in view), over the next 10 s: the long
// tasks (count and longest), the longest probe stall, and the frames the
// timeline drew a second. A watch is painted whole at every frame; with
// shapes for every arrival the browser took 120–350 ms a frame.
func BenchmarkResponsiveWatch(b *testing.B) {
	srv := startServer(b)
	ctx, _ := newBrowser(b)
	room := fmt.Sprintf("bench-watch-%d", time.Now().UnixNano())
	boot(b, ctx, srv.URL+"/?room="+room)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("w")); err != nil {
		b.Fatal(err)
	}
	if err := waitFor(10*time.Second, func() bool { return eval[bool](b, ctx, `JSON.parse(window.retrylab.state()).watch_open`) }); err != nil {
		b.Fatal("the watch did not open its stream")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for d := range 30 {
		wg.Go(func() {
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				wg.Go(func() {
					resp, err := http.Get(fmt.Sprintf("%s/mock?key=%s&limiter=bucket&rate=100&burst=50&latency=20ms&tag=dev%d.w0.j%d.a1", srv.URL, room, d, j))
					if err == nil {
						resp.Body.Close()
					}
				})
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(30 * time.Second)
	type dbg struct {
		Draws int `json:"draws"`
	}
	eval[any](b, ctx, watchMainThreadJS)
	before := eval[dbg](b, ctx, `JSON.parse(window.retrylab.debug())`)
	time.Sleep(10 * time.Second)
	after := eval[dbg](b, ctx, `JSON.parse(window.retrylab.debug())`)
	w := eval[stalls](b, ctx, stopWatchJS)
	arrivals := eval[float64](b, ctx, `JSON.parse(window.retrylab.state()).stats.arrivals`)
	fps := float64(after.Draws-before.Draws) / 10
	b.ReportMetric(float64(len(w.Tasks)), "long-tasks-in-10s")
	b.ReportMetric(longest(w.Tasks, 0), "longest-task-ms")
	b.ReportMetric(longest(w.Gaps, 0), "longest-stall-ms")
	b.ReportMetric(fps, "frames/s")
	fmt.Printf("watch of 30 devices × 10 req/s, from 30 to 40 s (%.0f arrivals by then): %d long tasks, the longest %.0f ms; longest probe stall %.0f ms; %.1f frames a second\n",
		arrivals, len(w.Tasks), longest(w.Tasks, 0), longest(w.Gaps, 0), fps)
}

// BenchmarkResponsiveReplay: a simulation of 10,000 workers with open
// arrivals (90 jobs each, one a second) stops at the attempt limit with
// 955,000 records in 6.2 s of run; it is replayed at 8×, where a frame
// passes up to 2.4 s of it. The figures are the replay's wall time, its
// long tasks (> 50 ms) and the longest. Unbudgeted, each frame took every
// record the playhead passed: 5 tasks of 90–490 ms and the replay over in
// under a second; a frame now takes records in for an eighth of the time
// to the next (replay.go).
func BenchmarkResponsiveReplay(b *testing.B) {
	srv := startServer(b)
	ctx, _ := newBrowser(b)
	boot(b, ctx, srv.URL+"/?workers=10000&jobs=90&workload=open&every=1s&rate=500")
	click(b, ctx, "simulate")
	var final pageState
	if err := waitFor(120*time.Second, func() bool { final = state(b, ctx); return final.Simulated && !final.Running }); err != nil {
		b.Fatal(err)
	}
	if err := waitFor(30*time.Second, func() bool { return replayState(b, ctx).Drawn > 0 }); err != nil {
		b.Fatal("the simulation was not drawn")
	}
	time.Sleep(time.Second)
	selectValue(b, ctx, "replay-speed", "8")
	eval[any](b, ctx, watchMainThreadJS)
	start := time.Now()
	click(b, ctx, "replay")
	var slowed bool
	if err := waitFor(120*time.Second, func() bool {
		st := state(b, ctx)
		status := eval[string](b, ctx, `document.querySelector(".runbar").textContent`)
		slowed = slowed || strings.Contains(status, "slowed")
		return !st.Replaying && time.Since(start) > time.Second
	}); err != nil {
		b.Fatal("the replay did not end")
	}
	wall := time.Since(start)
	w := eval[stalls](b, ctx, stopWatchJS)
	top := longest(w.Tasks, 0)
	b.ReportMetric(float64(wall.Milliseconds()), "replay-ms")
	b.ReportMetric(float64(len(w.Tasks)), "long-tasks")
	b.ReportMetric(top, "longest-task-ms")
	fmt.Printf("replay at 8× of a simulation's %d records (%.0f requests): %.1f s; %d long tasks, the longest %.0f ms, %s; the status said it was slowed: %v\n",
		final.Records, final.Stats["requests"], wall.Seconds(), len(w.Tasks), top, fmtMS(taskLengths(w.Tasks)), slowed)
}

// BenchmarkResponsiveReplayLanes: a 500-worker simulation (full jitter,
// 10 jobs each: ~39,000 records, lanes drawn as marks, not as dense
// cells) replayed at 8×, as a workshop replays a run: the long tasks on
// the page's thread and the frames drawn. Painted whole at every frame,
// it had 28 long tasks, the longest 296 ms, at 8× (135 at 1×, up to
// 387 ms); drawn on the kept drawing as a live run is, 1 (72 ms).
func BenchmarkResponsiveReplayLanes(b *testing.B) {
	srv := startServer(b)
	ctx, _ := newBrowser(b)
	simulated(b, ctx, srv.URL+"/?workers=500&jobs=10&rate=100&strategy=full")
	final := state(b, ctx)
	time.Sleep(time.Second)
	selectValue(b, ctx, "replay-speed", "8")
	type draws struct {
		Draws int `json:"draws"`
		Whole int `json:"live_whole"`
	}
	d0 := eval[draws](b, ctx, `JSON.parse(window.retrylab.debug())`)
	eval[any](b, ctx, watchMainThreadJS)
	start := time.Now()
	click(b, ctx, "replay")
	if err := waitFor(60*time.Second, func() bool { return !state(b, ctx).Replaying && time.Since(start) > time.Second }); err != nil {
		b.Fatal("the replay did not end")
	}
	wall := time.Since(start)
	d1 := eval[draws](b, ctx, `JSON.parse(window.retrylab.debug())`)
	w := eval[stalls](b, ctx, stopWatchJS)
	top := longest(w.Tasks, 0)
	b.ReportMetric(float64(len(w.Tasks)), "long-tasks")
	b.ReportMetric(top, "longest-task-ms")
	fmt.Printf("replay at 8× of a 500-worker simulation's %d records: %.1f s, %d frames (%d painted whole); %d long tasks, the longest %.0f ms, %s\n",
		final.Records, wall.Seconds(), d1.Draws-d0.Draws, d1.Whole-d0.Whole, len(w.Tasks), top, fmtMS(taskLengths(w.Tasks)))
}

// taskLengths is each task's length, ms.
func taskLengths(tasks [][2]float64) []float64 {
	out := make([]float64, len(tasks))
	for i, t := range tasks {
		out[i] = t[1]
	}
	return out
}
