//go:build e2e

package tests

import (
	"fmt"
	"testing"
	"time"
)

// A request's timeout is what happened to the request, not what the page's
// thread noticed when it was free again. Requests answered in 50 ms, with a
// 300 ms timeout, while the page's thread is blocked for a second (a long
// task: the answers and the timers both wait behind it): none is a
// timeout. And a server that never answers gives timeouts.
func TestTimeoutsAreWhatHappened(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=6&jobs=4&latency=50ms&limiter=none&timeout=300ms&strategy=constant&base=100ms&seed=3")
	// A first run, so that the fetch workers have started: a worker's
	// script runs only once the page's thread is free (measured: a
	// worker made just before a 1 s long task starts after it), and a
	// request handed to a worker not yet started is not in flight. The
	// page starts them after its first paint, which a click right after
	// the page is ready can beat on a busy machine (the fresh-clone CI
	// run of 2 December: 1 timeout of 24 answers).
	if st := runToEnd(t, ctx, 20*time.Second); st.Stats["successes"] != 24 {
		t.Fatalf("first run: %v successes of 24", st.Stats["successes"])
	}
	// The long task starts right after a run's first requests are handed
	// to a fetch worker: they are in flight while the page's thread is
	// held. With slow, the page's thread is first kept 15 ms by the hand-
	// off of the first request, as by a slow machine: the page lets the
	// browser run before the later workers' first attempts (a 1 ms timer:
	// browser.Clock.Pace), and they are sent after the long task. Their
	// timeouts start then: an attempt held back by the page has not timed
	// out (3 of them once did in a fresh clone's CI, never sent).
	for _, slow := range []bool{false, true} {
		eval[bool](t, ctx, fmt.Sprintf(`(() => {
			const post = Worker.prototype.postMessage, micro = window.queueMicrotask;
			let blocked = false, slowed = !%t;
			Worker.prototype.postMessage = function (m) {
				post.apply(this, arguments);
				if (!blocked && Array.isArray(m) && m[0] === 0) {
					blocked = true;
					Worker.prototype.postMessage = post;
					setTimeout(() => { const t = performance.now(); while (performance.now() - t < 1000) {} }, 0);
				}
			};
			window.queueMicrotask = function (f) {
				if (!slowed) { slowed = true; window.queueMicrotask = micro; const t = performance.now(); while (performance.now() - t < 15) {} }
				return micro.call(window, f);
			};
			return true;
		})()`, slow))
		st := runToEnd(t, ctx, 20*time.Second)
		if st.Stats["timeouts"] != 0 || st.Stats["successes"] != 24 {
			t.Errorf("answered in 50 ms behind a 1 s long task (the hand-off slow: %t): %v timeouts, %v successes of 24; want none, all",
				slow, st.Stats["timeouts"], st.Stats["successes"])
		}
	}

	boot(t, ctx, srv.URL+"/?workers=3&jobs=1&hang=100&limiter=none&timeout=300ms&strategy=constant&base=100ms&attempts=2&seed=3")
	st := runToEnd(t, ctx, 20*time.Second)
	if st.Stats["timeouts"] != 6 || st.Stats["give_ups"] != 3 {
		t.Errorf("a server that never answers: %v timeouts of 6, %v give-ups of 3", st.Stats["timeouts"], st.Stats["give_ups"])
	}
}
