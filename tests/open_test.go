//go:build e2e

package tests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// choose picks value in the select #f-<key>, as a person would with the
// keyboard: focus, then the option, then the change event the page listens to.
func choose(t testing.TB, ctx context.Context, key, value string) {
	t.Helper()
	selectValue(t, ctx, "f-"+key, value)
}

// selectValue picks value in the select #id, as a person would.
func selectValue(t testing.TB, ctx context.Context, id, value string) {
	t.Helper()
	sel := chromedp.ID(id)
	untilUnlocked(t, ctx, id)
	if err := chromedp.Do(ctx, chromedp.Focus(sel), chromedp.SetValue(sel, value),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("`+id+`").dispatchEvent(new Event("change", {bubbles: true}))`)); err != nil {
		t.Fatalf("choose %q in #%s: %v", value, id, err)
	}
}

// TestOpenWorkload: an open workload in the page. The "Open arrivals"
// preset, simulated: more jobs in progress than workers, and 429s in every
// second of the arrivals. Then a small open fleet live against the real
// server, set up through the form: every job reached the server, a worker's
// jobs overlapped (jobs at once above the worker count), and the page's
// count is the server's. A rate above what a live run takes gets its
// message beside the interval and disables Run, not Simulate.
func TestOpenWorkload(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")

	click(t, ctx, "preset-open")
	workload := func() string { return eval[string](t, ctx, `document.getElementById("f-workload").value`) }
	if err := waitFor(3*time.Second, func() bool { return workload() == "open" }); err != nil {
		t.Fatalf("preset open: workload %q", workload())
	}
	click(t, ctx, "simulate")
	var st pageState
	if err := waitFor(30*time.Second, func() bool { st = state(t, ctx); return st.Simulated && !st.Running && st.Records > 0 }); err != nil {
		t.Fatalf("simulation did not finish: %v", err)
	}
	if st.Stats["peak_jobs"] <= 50 || st.Stats["jobs"] != 250 {
		t.Errorf("open arrivals simulated: %.0f jobs at once, %.0f jobs; want more than the 50 workers, and 250", st.Stats["peak_jobs"], st.Stats["jobs"])
	}
	screenshot(t, ctx, "preset-open-simulated")

	// Random arrivals: the same average rate at random moments. The choice
	// is in the link, and the simulation (deterministic for the seed)
	// starts the same 250 jobs on another schedule.
	steady := st
	choose(t, ctx, "arrivals", "random")
	if err := waitFor(3*time.Second, func() bool { return strings.Contains(eval[string](t, ctx, `location.search`), "arrivals=random") }); err != nil {
		t.Errorf("random arrivals are not in the link: %s", eval[string](t, ctx, `location.search`))
	}
	click(t, ctx, "simulate")
	if err := waitFor(30*time.Second, func() bool { st = state(t, ctx); return st.Simulated && !st.Running && st.Runs > steady.Runs }); err != nil {
		t.Fatalf("simulation with random arrivals did not finish: %v", err)
	}
	t.Logf("open arrivals simulated: steady %.0f requests, %.0f jobs at once; random %.0f requests, %.0f jobs at once",
		steady.Stats["requests"], steady.Stats["peak_jobs"], st.Stats["requests"], st.Stats["peak_jobs"])
	if st.Stats["jobs"] != 250 || st.Stats["requests"] == steady.Stats["requests"] && st.Stats["peak_jobs"] == steady.Stats["peak_jobs"] {
		t.Errorf("random arrivals simulated: %.0f jobs, %.0f requests, %.0f at once: want 250 jobs on another schedule than steady's (%.0f requests, %.0f at once)",
			st.Stats["jobs"], st.Stats["requests"], st.Stats["peak_jobs"], steady.Stats["requests"], steady.Stats["peak_jobs"])
	}
	screenshot(t, ctx, "open-random-simulated")
	choose(t, ctx, "arrivals", "steady")

	// A small open fleet, live: 6 workers, a job each every 400 ms, 3 jobs,
	// the server answering in 1 s: each worker has up to 3 jobs in flight.
	room := fmt.Sprintf("e2e-open-%d", time.Now().UnixNano()%1e6)
	for _, kv := range [][2]string{{"workers", "6"}, {"jobs", "3"}, {"every", "400ms"}, {"latency", "1s"}, {"room", room}} {
		typeInto(t, ctx, kv[0], kv[1])
	}
	choose(t, ctx, "limiter", "none")
	arr := watchArrivals(t, srv, room)
	st = runToEnd(t, ctx, 30*time.Second)
	_ = waitFor(5*time.Second, func() bool { return len(arr.snapshot()) >= int(st.Stats["requests"]) }) // the stream's last arrivals
	s := st.Stats
	t.Logf("open live: %.0f requests, %.0f successes, %.0f jobs at once, %d server arrivals, browser queueing p99 %.0f ms", s["requests"], s["successes"], s["peak_jobs"], len(arr.snapshot()), s["queued_p99_ms"])
	if s["successes"] != 18 || s["requests"] != 18 || int(s["requests"]) != len(arr.snapshot()) {
		t.Errorf("open live: %.0f successes, %.0f requests, server saw %d: want 18 of each", s["successes"], s["requests"], len(arr.snapshot()))
	}
	if s["peak_jobs"] <= 6 {
		t.Errorf("open live: %.0f jobs at once, want more than the 6 workers (each job takes 1 s, one arrives every 400 ms)", s["peak_jobs"])
	}
	// A worker's overlapping jobs go to different origins: over HTTP/1.1,
	// 18 requests of 1 s on one origin would wait a second or more in the
	// browser (six connections each); spread, they wait a few ms.
	if s["queued_p99_ms"] > 500 {
		t.Errorf("open live: browser queueing p99 %.0f ms: a worker's overlapping jobs share an origin's six connections", s["queued_p99_ms"])
	}
	screenshot(t, ctx, "open-live")

	// Past LiveArrivalMax: a note beside the interval (a valid value, just
	// not for a live run) names the field, the value and the rate.
	typeInto(t, ctx, "workers", "500")
	typeInto(t, ctx, "every", "100ms")
	var msg string
	waitFor(3*time.Second, func() bool {
		msg = eval[string](t, ctx, `(document.getElementById("note-every") || {}).textContent || ""`)
		return msg != ""
	})
	if !strings.Contains(msg, "100ms") || !strings.Contains(msg, "5000 jobs/s") || !strings.Contains(msg, "500 jobs/s") {
		t.Errorf("message beside the interval: %q", msg)
	}
	if !eval[bool](t, ctx, `document.getElementById("run").disabled`) || eval[bool](t, ctx, `document.getElementById("simulate").disabled`) {
		t.Error("a live rate above 500 jobs/s should disable Run and leave Simulate")
	}
}

// TestStopBetweenArrivalsDrainsToTheStop: Stop pressed between an open
// workload's arrivals, a second after the first job ended, cancels no job
// and leaves four unstarted. The time to drain is up to Stop, as its line
// ("Run → Stop: not drained") and the status say: it was the first job's
// end, a few milliseconds, on a run that lasted over a second.
func TestStopBetweenArrivalsDrainsToTheStop(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=1&jobs=5&workload=open&every=1m&latency=0s&limiter=none")
	click(t, ctx, "run")
	if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Stats["jobs"] == 1 }); err != nil {
		t.Fatalf("the first job did not end: %v", err)
	}
	time.Sleep(time.Second)
	click(t, ctx, "stop")
	var st pageState
	if err := waitFor(10*time.Second, func() bool { st = state(t, ctx); return !st.Running }); err != nil {
		t.Fatalf("the run did not stop: %v", err)
	}
	// The numbers are a component of their own: the state the run
	// publishes as it ends can come a frame before they are drawn again.
	var card string
	_ = waitFor(2*time.Second, func() bool {
		card = eval[string](t, ctx, `document.querySelector('[data-stat="drain_ms"]').innerText`)
		return strings.Contains(card, "Run → Stop")
	})
	// The figure's units are joined to it by no-break spaces, as the
	// status's are (unitsTogether).
	value := strings.ReplaceAll(eval[string](t, ctx, `document.querySelector('[data-stat="drain_ms"] .v').textContent`), "\u00a0", " ")
	status := eval[string](t, ctx, `document.getElementById("run-status").innerText`)
	if st.Stats["drain_ms"] < 1000 || st.Stats["cancelled"] != 0 || !strings.Contains(card, "Run → Stop: not drained") || !strings.Contains(strings.ReplaceAll(status, "\u00a0", " "), "Stopped after "+value+".") {
		t.Errorf("stopped a second after the only job ended: drain %.1f ms, %.0f cancelled, card %q, status %q; want over 1 s, none cancelled, up to Stop",
			st.Stats["drain_ms"], st.Stats["cancelled"], card, status)
	}
}
