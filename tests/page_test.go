//go:build e2e

package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// pageState is window.retrylab.state().
type pageState struct {
	Running   bool               `json:"running"`
	Simulated bool               `json:"simulated"`
	Runs      int                `json:"runs"`
	RunKey    string             `json:"run_key"`
	Records   int                `json:"records"`
	Invalid   int                `json:"invalid"`
	Preset    string             `json:"preset"`
	Stats     map[string]float64 `json:"stats"`
	Replaying bool               `json:"replaying"`
	// SimStopped: the simulation shown stopped at its attempt limit.
	SimStopped bool `json:"sim_stopped"`
	// A watch of the shared room: running is one (Watching), the numbers
	// are one's (Watched), its stream is open (WatchOpen).
	Watching  bool `json:"watching"`
	Watched   bool `json:"watched"`
	WatchOpen bool `json:"watch_open"`
	// Subdomains is the page's check of the *.localhost origins:
	// checking, reached, not reached ("" for a page not on this machine).
	Subdomains string `json:"subdomains"`
}

func state(t testing.TB, ctx context.Context) pageState {
	t.Helper()
	return eval[pageState](t, ctx, `JSON.parse(window.retrylab.state())`)
}

// debugState is the part of window.retrylab.debug() (debugJSON in
// app/ui/statejson.go) the tests read through debugOf; a test reading
// one figure takes it in its own JSON.parse(…).key.
type debugState struct {
	Window [2]float64 `json:"window_ms"`  // the time drawn: from, to
	Drawn  float64    `json:"drawn_ms"`   // when the run shown was first drawn complete
	Anew   int        `json:"live_anew"`  // a live run's kept drawing made again
	Whole  int        `json:"live_whole"` // a live run or a replay painted whole at a frame
	// The run shown's hidden-tab stretches and outages (from, to), scaled
	// limits (from, to, scale) and another client's bursts (at, n,
	// admitted); ms since its start.
	Hidden  [][2]float64 `json:"hidden"`
	Outages [][2]float64 `json:"outages"`
	Limits  [][3]float64 `json:"limits"`
	Bursts  [][3]float64 `json:"bursts"`
	// A watch's lanes (its devices) and the arrivals drawn in each.
	Lanes        []string `json:"lanes"`
	LaneArrivals []int    `json:"lane_arrivals"`
	// What a leak shows in.
	Goroutines int `json:"goroutines"`
	Funcs      int `json:"funcs"`
	Pending    int `json:"pending_waits"`
}

func debugOf(t testing.TB, ctx context.Context) debugState {
	t.Helper()
	return eval[debugState](t, ctx, `JSON.parse(window.retrylab.debug())`)
}

// click clicks #id with the mouse where it is on screen, and fails at once
// when the click went elsewhere: the page laid itself out again between the
// press and the release (the press on #id, the click on an ancestor of
// both), or before the press. (Pressing p and clicking at once did that:
// presentation mode's larger type moved the button away while the page's
// thread was busy, and the click was lost.)
//
// As a person would, it waits for a disabled control to be enabled first,
// and fails when it stays disabled: a disabled control takes no click, and
// one clicked a frame before the page enabled it (Run as a run's end is
// drawn, Keep as baseline) did nothing while the test went on.
func click(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `!(document.getElementById(`+strconv.Quote(id)+`) || {matches: () => false}).matches(":disabled")`)
	}); err != nil {
		t.Fatalf("click #%s: it stayed disabled for 5 s (state %+v)", id, state(t, ctx))
	}
	eval[bool](t, ctx, `(() => {
		const el = document.getElementById(`+strconv.Quote(id)+`), seen = window.retrylabClicks = [];
		const name = e => e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.className ? "." + String(e.className).trim().split(/\s+/).join(".") : "");
		for (const kind of ["mousedown", "mouseup", "click"])
			document.addEventListener(kind, e => seen.push({kind, on: el.contains(e.target), what: kind + " on " + name(e.target) + " at " + e.clientX + "," + e.clientY}), {capture: true, once: true});
		return true;
	})()`)
	// Bounded: a Click waits for its node for ever, and a mistyped id (or
	// a control that never shows) held a test until the suite's timeout,
	// 10 minutes in a probe, with no word of which click.
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(cctx, chromedp.Click(chromedp.ID(id), chromedp.NodeVisible)); err != nil {
		t.Fatalf("click #%s (no such element shown within 30 s?): %v", id, err)
	}
	if went := eval[string](t, ctx, `(() => {
		const seen = window.retrylabClicks || [], c = seen.find(s => s.kind === "click"); // none after a navigation
		delete window.retrylabClicks;
		// No click at all: a disabled control takes none.
		return !c || c.on ? "" : seen.map(s => s.what).join(", ");
	})()`); went != "" {
		t.Fatalf("click #%s went elsewhere (the page moved under the pointer): %s", id, went)
	}
}

// untilUnlocked waits for the setting #id to be enabled: the inputs are
// locked during a run (their fieldset disabled), and state() tells a
// run's end a frame before the page unlocks them. Focused at once, "Element
// is not focusable" (fresh-clone CIs: TestCustomTarget,
// TestStopAbortsInFlight, TestShortcutsWorkOnASwitch). One locked for
// another reason is used after 5 s, and fails as it would.
func untilUnlocked(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	_ = waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `!(document.getElementById("`+id+`") || {matches: () => false}).matches(":disabled")`)
	})
}

// typeInto replaces the text of input #f-<key> by typing, as a person would.
func typeInto(t testing.TB, ctx context.Context, key, text string) {
	t.Helper()
	sel := chromedp.ID("f-" + key)
	untilUnlocked(t, ctx, "f-"+key)
	if err := chromedp.Do(ctx,
		chromedp.Focus(sel),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("f-`+key+`").select()`),
		chromedp.SendKeys(sel, "\b"),
		chromedp.SendKeys(sel, text),
	); err != nil {
		t.Fatalf("type %q into #f-%s: %v", text, key, err)
	}
}

// press types key as a keyboard shortcut, with nothing focused (as after
// clicking the page's background).
func press(t testing.TB, ctx context.Context, key string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent(key)); err != nil {
		t.Fatalf("press %q: %v", key, err)
	}
}

// presentMode sets presentation mode on or off, pressing p when the page
// is not in that mode already (the browser remembers it across loads), and
// returns once the page has painted it: its larger type moves every
// control, and a click aimed before then lands where a control was.
func presentMode(t testing.TB, ctx context.Context, on bool) {
	t.Helper()
	presenting := `document.querySelector("main").classList.contains("present")`
	if eval[bool](t, ctx, presenting) == on {
		return
	}
	press(t, ctx, "p")
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `(`+presenting+`) === `+strconv.FormatBool(on)+` &&
			`+afterFrames+`.then(() => true)`)
	}); err != nil {
		t.Fatalf("p did not set presentation mode %v", on)
	}
}

// simulatedToEnd waits until the page shows a simulation whole: the one
// just started (by m, or its button).
func simulatedToEnd(t testing.TB, ctx context.Context) {
	t.Helper()
	if err := waitFor(30*time.Second, func() bool { s := state(t, ctx); return s.Simulated && !s.Running }); err != nil {
		t.Fatalf("the simulation did not finish: %v", err)
	}
	// And for the run bar to show it over (runToEnd): Stop disabled again
	// is the render that writes the status. Not Run: a fleet larger than
	// a live run takes leaves it disabled.
	if err := waitFor(5*time.Second, func() bool { return eval[bool](t, ctx, `document.getElementById("stop").disabled`) }); err != nil {
		t.Fatalf("the simulation ended but Stop stayed enabled: %v", err)
	}
}

// simulated opens url, presses Simulate and waits until its run is shown
// whole and drawn.
func simulated(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	boot(t, ctx, url)
	click(t, ctx, "simulate")
	simulatedToEnd(t, ctx)
	if err := waitFor(10*time.Second, func() bool {
		return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).drawn_ms`) > 0
	}); err != nil {
		t.Fatalf("the simulation was not drawn: %v", err)
	}
}

// tabReachesFirst presses Tab from the top of the page (the header's first
// button), as a keyboard user does, until the focus is in the run's stage
// or in the settings, and says which ("stage" or "settings").
func tabReachesFirst(t testing.TB, ctx context.Context) string {
	t.Helper()
	// Focused, not blurred: Chromium starts the next Tab from the last
	// element focused or clicked (Run, after a run).
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("present").focus()`)); err != nil {
		t.Fatal(err)
	}
	for range 60 {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatalf("press Tab: %v", err)
		}
		if where := eval[string](t, ctx, `(() => {
			const e = document.activeElement;
			return !e ? "" : e.closest(".stage") ? "stage" : e.closest(".sidebar") ? "settings" : "";
		})()`); where != "" {
			return where
		}
	}
	t.Fatal("60 presses of Tab reached neither the run nor the settings")
	return ""
}

// runToEnd clicks Run and waits until the run has finished.
func runToEnd(t testing.TB, ctx context.Context, limit time.Duration) pageState {
	t.Helper()
	before := state(t, ctx).Runs
	// click waits for Run to be enabled: the state a run publishes as it
	// ends can reach window.retrylab.state() a frame before the button is
	// drawn again.
	click(t, ctx, "run")
	var st pageState
	if err := waitFor(limit, func() bool {
		st = state(t, ctx)
		return st.Runs > before && !st.Running
	}); err != nil {
		t.Fatalf("run did not finish: %v (last state %+v)", err, st)
	}
	// And for the run bar to say so: Run enabled again is the render
	// that also writes the run's status, a frame or more after the state
	// (a run of 7 requests at 10 ms had its status still at "Running: 0
	// requests sent" when read at once).
	if err := waitFor(5*time.Second, func() bool { return eval[bool](t, ctx, `!document.getElementById("run").disabled`) }); err != nil {
		t.Fatalf("the run ended but Run stayed disabled: %v", err)
	}
	return st
}

// arrivals collects the mock's arrivals for a key from its stream.
type arrivals struct {
	mu  sync.Mutex
	all []arrival
}

type arrival struct {
	At      time.Time
	Tag     string
	Status  int
	Attempt int
}

func watchArrivals(t *testing.T, srv *server, key string) *arrivals {
	t.Helper()
	s := subscribe(t, srv, key)
	a := &arrivals{}
	go func() {
		for ev := range s.ch {
			if ev.Type != "arrival" {
				continue
			}
			att := 0
			if i := strings.LastIndex(ev.Tag, ".a"); i >= 0 {
				fmt.Sscanf(ev.Tag[i+2:], "%d", &att)
			}
			a.mu.Lock()
			a.all = append(a.all, arrival{At: ev.At, Tag: ev.Tag, Status: ev.Status, Attempt: att})
			a.mu.Unlock()
		}
	}()
	return a
}

func (a *arrivals) snapshot() []arrival {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]arrival(nil), a.all...)
}

// returnArc measures how a fleet came back after a server outage (its
// 503s): each worker's first arrival after the last 503, and the shortest
// stretch of the second (arrival times modulo 1 s, around the clock) that
// holds the share frac of them. Told the seconds left in whole seconds,
// each worker returns at the same moment of a second it asked in: one
// herd is a short stretch, and a herd split by a second's turn into two,
// a second apart, is still one short stretch of the second. Retries
// spread at random fill the second. It also says how many workers
// returned.
func returnArc(as []arrival, frac float64) (time.Duration, int) {
	var end time.Time
	for _, a := range as {
		if a.Status == 503 && a.At.After(end) {
			end = a.At
		}
	}
	first := map[string]time.Time{}
	for _, a := range as {
		w, _, _ := strings.Cut(a.Tag, ".j") // the device (in a room) and the worker
		if a.At.After(end) && (first[w].IsZero() || a.At.Before(first[w])) {
			first[w] = a.At
		}
	}
	var phases []time.Duration
	for _, at := range first {
		phases = append(phases, at.Sub(end)%time.Second)
	}
	slices.Sort(phases)
	n := len(phases)
	k := int(math.Ceil(frac * float64(n)))
	if n == 0 || k < 1 {
		return 0, n
	}
	best := time.Second
	for i := range phases {
		j := i + k - 1
		span := phases[j%n] - phases[i]
		if j >= n {
			span += time.Second
		}
		best = min(best, span)
	}
	return best, n
}

// retryPeakShare is the share of retry arrivals (attempt ≥ 2) at the server
// that fall in the busiest tenth of the 100 ms slices between the first and
// the last retry: near 1 when retries come back in synchronized spikes, near
// 0.1 when they are spread evenly.
func retryPeakShare(as []arrival) float64 {
	const slice = 100 * time.Millisecond
	var first, last time.Time
	var retries []time.Time
	for _, a := range as {
		if a.Attempt < 2 {
			continue
		}
		retries = append(retries, a.At)
		if first.IsZero() || a.At.Before(first) {
			first = a.At
		}
		if a.At.After(last) {
			last = a.At
		}
	}
	if len(retries) == 0 {
		return 0
	}
	counts := make([]int, int(last.Sub(first)/slice)+1)
	for _, at := range retries {
		counts[int(at.Sub(first)/slice)]++
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	top := (len(counts) + 9) / 10
	in := 0
	for _, c := range counts[:top] {
		in += c
	}
	return float64(in) / float64(len(retries))
}

// maxWithin is the most arrivals at the server in any window.
func maxWithin(as []arrival, window time.Duration) int {
	ts := make([]time.Time, len(as))
	for i, a := range as {
		ts[i] = a.At
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	best, j := 0, 0
	for i := range ts {
		for ts[i].Sub(ts[j]) >= window {
			j++
		}
		best = max(best, i-j+1)
	}
	return best
}

// TestPresetsTellTheStory loads each preset by clicking it, runs it live
// against the real server, and checks what was counted and what the server
// saw, with the presets' fixed seed. Each finished preset is saved as a
// screenshot in tests/out/.
func TestPresetsTellTheStory(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")

	type result struct {
		st        pageState
		arrivals  []arrival
		peakShare float64
		peak      int
	}
	results := map[string]result{}
	for _, id := range []string{"flood", "exponential", "full-jitter", "retry-after", "outage", "bucket"} {
		t.Run(id, func(t *testing.T) {
			click(t, ctx, "preset-"+id)
			room := fmt.Sprintf("e2e-%s-%d", id, time.Now().UnixNano()%1e6)
			typeInto(t, ctx, "room", room)
			arr := watchArrivals(t, srv, room)
			st := runToEnd(t, ctx, 60*time.Second)
			// The last arrivals come on the stream a moment later; more than
			// the page counted still fails below.
			_ = waitFor(5*time.Second, func() bool { return len(arr.snapshot()) >= int(st.Stats["requests"]) })
			as := arr.snapshot()
			r := result{st: st, arrivals: as, peakShare: retryPeakShare(as), peak: maxWithin(as, time.Second)}
			results[id] = r
			s := st.Stats
			t.Logf("%s: requests %.0f, 429s %.0f, successes %.0f/%.0f, retries %.0f, server arrivals %d, retries in the busiest 10%% of 100 ms slices %.0f%%, server peak %d/s, drain %.1fs",
				id, s["requests"], s["limited"], s["successes"], s["jobs"], s["retries"], len(as), 100*r.peakShare, r.peak, s["drain_ms"]/1000)

			// What the page counted is what the server saw, and it adds up.
			if got := int(s["requests"]); got != len(as) {
				t.Errorf("page counted %d requests, the server saw %d arrivals", got, len(as))
			}
			rejected := 0
			for _, a := range as {
				if a.Status == 429 || a.Status == 503 {
					rejected++
				}
			}
			if got := int(s["limited"]); got != rejected {
				t.Errorf("page counted %d 429s, the server answered %d requests 429 or 503", got, rejected)
			}
			if s["requests"] != s["first_tries"]+s["retries"] {
				t.Errorf("requests %.0f != first tries %.0f + retries %.0f", s["requests"], s["first_tries"], s["retries"])
			}
			if s["jobs"] != 100 || s["successes"]+s["give_ups"] != s["jobs"] {
				t.Errorf("jobs %.0f, successes %.0f, give-ups %.0f: want 100 jobs, all accounted", s["jobs"], s["successes"], s["give_ups"])
			}
			if st.Preset != id {
				t.Errorf("page says preset %q is active, want %q", st.Preset, id)
			}
			// The timeline drew something: the canvas is not blank.
			painted := eval[int](t, ctx, `(() => {
				const c = document.getElementById("timeline");
				const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
				let n = 0; for (let i = 0; i < d.length; i += 16) if (d[i] !== d[0] || d[i+1] !== d[1] || d[i+2] !== d[2]) n++;
				return n;
			})()`)
			if painted < 1000 {
				t.Errorf("timeline canvas looks blank (%d differing samples)", painted)
			}
			screenshot(t, ctx, "preset-"+id)
		})
	}

	flood, full, exp, ra, bucket := results["flood"], results["full-jitter"], results["exponential"], results["retry-after"], results["bucket"]
	// Unloaded, the flood puts ~90% of its retries in the busiest tenth of
	// slices and full jitter ~58%; a busy machine (CPU taken by other
	// work) spreads the flood's herds to ~83%, so the margin is 15 points.
	if flood.peakShare < 0.75 || flood.peakShare < full.peakShare+0.15 {
		t.Errorf("flood retries should arrive in synchronized spikes: %.0f%% of them in the busiest tenth of slices, vs %.0f%% with full jitter",
			100*flood.peakShare, 100*full.peakShare)
	}
	if exp.peakShare <= full.peakShare {
		t.Errorf("exponential without jitter should be spikier than full jitter: %.0f%% vs %.0f%%", 100*exp.peakShare, 100*full.peakShare)
	}
	if ra.st.Stats["limited"] >= full.st.Stats["limited"] {
		t.Errorf("honouring Retry-After should give fewer 429s: %.0f vs %.0f ignoring it", ra.st.Stats["limited"], full.st.Stats["limited"])
	}
	// The outage (3–6 s) without spread: every 503 and every 429 tells the
	// fleet the same whole seconds, so its retries come back in the
	// flood's synchronized spikes (81–82% in the busiest tenth of slices,
	// against 31–35% with retry-after's 1 s of spread, on 2026-12-01; with
	// both cores kept busy by other work, 66% against 33%).
	if out := results["outage"]; out.peakShare < 0.5 || out.peakShare < ra.peakShare+0.2 {
		t.Errorf("outage, no spread: %.0f%% of the retries in the busiest tenth of slices, vs %.0f%% with 1 s of spread: want synchronized spikes",
			100*out.peakShare, 100*ra.peakShare)
	}
	// Its caption: the fleet returns in a herd, all 50 workers within a
	// tenth of a second simulated, within a few tenths live (the page's
	// own delays spread them), or as two herds a second apart.
	// (A worker whose two jobs were done by then does not return: 4 of 50
	// in a run on 2026-12-03.)
	if arc, n := returnArc(results["outage"].arrivals, 0.9); n < 40 || arc > 600*time.Millisecond {
		t.Errorf("outage, no spread: %d workers returned after it, 90%% of them within %v of a second: want most of the 50, in a herd within 600 ms", n, arc)
	} else {
		t.Logf("outage, no spread: 90%% of the %d workers that returned after it came within %v of a second", n, arc)
	}
	// Its caption: 8 a second, 9 with the saved token, and live one or two
	// more when the page held sends back (10 in a review's run; each send
	// held back 125 ms, the bucket's interval, can bring one more into a
	// second).
	if p := bucket.st.Stats["peak_rps"]; p < 8 || p > 11 {
		t.Errorf("with the fleet bucket the page counted a peak of %.0f requests a second, want 8 to 11", p)
	}
	if bucket.peak > 10 {
		t.Errorf("with the fleet bucket the server saw %d requests in one second, over its limit of 10/s", bucket.peak)
	}
	if bucket.st.Stats["limited"] > 0.05*bucket.st.Stats["requests"] {
		t.Errorf("with the fleet bucket 429s should be the exception: %.0f of %.0f", bucket.st.Stats["limited"], bucket.st.Stats["requests"])
	}
}

// TestInvalidInputStartsNothing: a bad value gets its message beside the
// input naming the field, the value and the range; Run is disabled and
// nothing reaches the server; fixing the value enables Run again. A bare
// number in a duration field (Latency 50, meant as 50 ms or 50 s) is
// offered the units that make it one allowed: 50ms, not 50s, which is
// past Latency's 30s.
func TestInvalidInputStartsNothing(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	typeInto(t, ctx, "room", "e2e-invalid")
	arr := watchArrivals(t, srv, "e2e-invalid")
	for _, tt := range []struct{ key, value, wantInMsg, hint string }{
		{"workers", "0", "500", ""},
		{"workers", "abc", "workers", ""},
		{"base", "-5s", "base", ""},
		{"rate", "0", "0.001", ""},
		{"latency", "50", "latency", "a number needs a unit: 50ms, perhaps"},
	} {
		typeInto(t, ctx, tt.key, tt.value)
		// The page re-renders after each keystroke; wait for it to settle.
		var msg string
		waitFor(3*time.Second, func() bool {
			msg = eval[string](t, ctx, `(document.getElementById("err-`+tt.key+`") || {}).textContent || ""`)
			return strings.Contains(msg, tt.value)
		})
		if msg == "" {
			t.Fatalf("%s=%q: no message beside the input", tt.key, tt.value)
		}
		if !strings.Contains(strings.ToLower(msg), tt.wantInMsg) || !strings.Contains(msg, tt.value) {
			t.Errorf("%s=%q: message %q should name the field, the value and the allowed range", tt.key, tt.value, msg)
		}
		if tt.hint != "" && (!strings.Contains(msg, tt.hint) || strings.Contains(msg, "50s")) {
			t.Errorf("%s=%q: message %q should say that a number needs a unit, %q", tt.key, tt.value, msg, tt.hint)
		}
		if !eval[bool](t, ctx, `document.getElementById("run").disabled`) {
			t.Errorf("%s=%q: Run is enabled", tt.key, tt.value)
		}
		// Pressing r (the shortcut) must not start a run either, and says
		// why it did not. The last row's toast goes first: it says the
		// same, and read while it lasted it passed whatever r did.
		if err := waitFor(10*time.Second, func() bool {
			return toastText(t, ctx) == ""
		}); err != nil {
			t.Fatalf("%s=%q: the last toast stayed 10 s", tt.key, tt.value)
		}
		press(t, ctx, "r")
		var toast string
		waitFor(3*time.Second, func() bool {
			toast = toastText(t, ctx)
			return toast != ""
		})
		if !strings.Contains(toast, "fix the value marked") {
			t.Errorf("%s=%q: r said %q, want why Run does not start", tt.key, tt.value, toast)
		}
		if st := state(t, ctx); st.Running || st.Runs != 0 {
			t.Fatalf("%s=%q: a run started: %+v", tt.key, tt.value, st)
		}
		defaults := map[string]string{"workers": "50", "base": "100ms", "rate": "10", "latency": "50ms"}
		typeInto(t, ctx, tt.key, defaults[tt.key])
	}
	if n := len(arr.snapshot()); n != 0 {
		t.Errorf("the server saw %d requests from an invalid configuration", n)
	}
	// The last key typed takes effect a moment after it is sent.
	if err := waitFor(3*time.Second, func() bool { return !eval[bool](t, ctx, `document.getElementById("run").disabled`) }); err != nil {
		t.Error("Run stays disabled after every value was fixed")
	}
}

// toastCoveredJS looks at the short message: its text, where it is, and
// the texts the page shows under it (a text node's line box, or a field,
// where elementFromPoint at the overlap's middle lands on it: the message
// does not take the pointer); null without one.
const toastCoveredJS = `(() => {
	const m = document.getElementById("toast");
	if (!m) return null;
	const box = m.getBoundingClientRect(), out = [];
	const seen = (r, node) => {
		const l = Math.max(r.left, box.left), rt = Math.min(r.right, box.right), t = Math.max(r.top, box.top), b = Math.min(r.bottom, box.bottom);
		if (rt - l < 1 || b - t < 1) return false;
		const at = document.elementFromPoint((l + rt) / 2, (t + b) / 2);
		return !!at && (at === node || node.contains(at) || at.contains(node));
	};
	const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), range = document.createRange();
	for (let n; (n = w.nextNode());) {
		if (!n.data.trim() || m.contains(n)) continue;
		range.selectNodeContents(n);
		for (const r of range.getClientRects()) if (r.width >= 2 && r.height >= 2 && seen(r, n.parentElement)) { out.push(n.data.trim().slice(0, 60)); break; }
	}
	for (const f of document.querySelectorAll("input:not([type=checkbox]):not([type=radio]), select, textarea"))
		if (seen(f.getBoundingClientRect(), f)) out.push("field " + (f.id || f.name));
	return {Text: m.textContent, Covered: out, Top: box.top, Bottom: box.bottom, Left: box.left, Right: box.right, W: innerWidth, H: innerHeight};
})()`

// TestToastLeavesTheCanvasTextClear: the message at the foot of the screen
// leaves the text the timeline's canvas draws clear too (the histogram's
// title, the time axes, the lane labels): a Burst's message lay over the
// histogram's title, a watch's over its time axis (a review), and a
// message over the empty timeline's hint. The page's own text was all it
// looked at.
func TestToastLeavesTheCanvasTextClear(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	boot(t, ctx, srv.URL+"/?workers=50&jobs=1")
	eval[chromedp.Void](t, ctx, canvasTextsJS)
	type box struct {
		Text                     string
		Left, Top, Right, Bottom float64
	}
	boxes := eval[[]box](t, ctx, `window.drawnTexts = [], window.retrylab.redraw(),
		window.drawnTexts.map(([text, , , left, top, right, bottom]) => ({text, left, top, right, bottom}))`)
	// The canvas's place on the page: its texts' boxes are from its top left.
	left, top := eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().left`), eval[float64](t, ctx, `document.getElementById("timeline").getBoundingClientRect().top + scrollY`)
	// Each text where the message goes: 40 px above the foot of the
	// screen. The empty timeline's hint ("Press Run (r)…") lay under the
	// message, its bands having been the axes, titles and labels only.
	for _, prefix := range []string{"Requests sent per", "Press Run"} {
		at := slices.IndexFunc(boxes, func(b box) bool { return strings.HasPrefix(b.Text, prefix) })
		if at < 0 {
			t.Fatalf("%q was not drawn: %v", prefix, boxes)
		}
		eval[chromedp.Void](t, ctx, fmt.Sprintf(`scrollTo(0, %f - (innerHeight - 40))`, top+boxes[at].Bottom))
		press(t, ctx, "c")
		var l *toastLook
		if err := waitFor(3*time.Second, func() bool {
			l = eval[*toastLook](t, ctx, toastCoveredJS)
			return l != nil && strings.Contains(l.Text, "finish a run")
		}); err != nil {
			t.Fatalf("c before a run said nothing of finishing one (%+v)", l)
		}
		time.Sleep(100 * time.Millisecond) // placed after the page drew it
		l = eval[*toastLook](t, ctx, toastCoveredJS)
		viewShot(t, ctx, "toast-canvas-text-"+strings.ToLower(strings.Fields(prefix)[0]))
		if l == nil {
			t.Fatal("the message went at once")
		}
		onScreen := top - eval[float64](t, ctx, `scrollY`)
		legend := eval[float64](t, ctx, `document.getElementById("legend").getBoundingClientRect().bottom`)
		var covered []string
		for _, b := range boxes {
			bt, bb := b.Top+onScreen, b.Bottom+onScreen
			if bb <= legend || bt >= l.H { // under the sticky legend, or off the screen
				continue
			}
			if b.Right+left > l.Left+0.5 && b.Left+left < l.Right-0.5 && bb > l.Top+0.5 && bt < l.Bottom-0.5 {
				covered = append(covered, b.Text)
			}
		}
		if len(covered) > 0 || len(l.Covered) > 0 {
			t.Errorf("%q at the foot: the message %q (x %.0f–%.0f, y %.0f–%.0f) covers the canvas's %q and the page's %q", prefix, l.Text, l.Left, l.Right, l.Top, l.Bottom, covered, l.Covered)
		}
		if err := waitFor(5*time.Second, func() bool { return eval[*toastLook](t, ctx, toastCoveredJS) == nil }); err != nil {
			t.Errorf("%q at the foot: the message stayed", prefix)
		}
	}
}

// toastLook is what toastCoveredJS sees.
type toastLook struct {
	Text                     string
	Covered                  []string
	Top, Bottom, Left, Right float64
	W, H                     float64
}

// TestToastLeavesTheTextClear: a short message at the foot of the screen
// covered the page's text there: at 1400 × 1000, Run refused for three
// invalid fields said so over "Fix 3 fields to copy the link or the Go
// code…" under the exports. The message now takes a place (the foot of the
// screen, a corner, the top) where it covers no text the page shows; also
// in presentation mode, with the timeline scrolled into view, and on a
// phone.
func TestToastLeavesTheTextClear(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	check := func(name, key, want string) {
		t.Helper()
		press(t, ctx, key)
		var l *toastLook
		if err := waitFor(3*time.Second, func() bool {
			l = eval[*toastLook](t, ctx, toastCoveredJS)
			return l != nil && strings.Contains(l.Text, want)
		}); err != nil {
			t.Fatalf("%s: %s said nothing of %q (%+v)", name, key, want, l)
		}
		time.Sleep(100 * time.Millisecond) // placed after the page drew it
		l = eval[*toastLook](t, ctx, toastCoveredJS)
		viewShot(t, ctx, "toast-"+name)
		if l == nil {
			t.Fatalf("%s: the message went at once", name)
		}
		if len(l.Covered) > 0 {
			t.Errorf("%s: the message %q (x %.0f–%.0f, y %.0f–%.0f) covers the page's %q", name, l.Text, l.Left, l.Right, l.Top, l.Bottom, l.Covered)
		}
		if l.Top < 0 || l.Bottom > l.H || l.Left < 0 || l.Right > l.W {
			t.Errorf("%s: the message spans x %.0f–%.0f, y %.0f–%.0f of a %.0f × %.0f screen", name, l.Left, l.Right, l.Top, l.Bottom, l.W, l.H)
		}
		if err := waitFor(5*time.Second, func() bool { return eval[*toastLook](t, ctx, toastCoveredJS) == nil }); err != nil {
			t.Errorf("%s: the message stayed", name)
		}
	}
	// A link's invalid values are replaced by defaults (and said so in a
	// notice): type them.
	invalid := func() {
		t.Helper()
		boot(t, ctx, srv.URL+"/")
		typeInto(t, ctx, "workers", "0")
		typeInto(t, ctx, "base", "5s")
		typeInto(t, ctx, "cap", "1s")
		if err := waitFor(3*time.Second, func() bool { return eval[bool](t, ctx, `document.querySelectorAll("[aria-invalid=true]").length >= 2`) }); err != nil {
			t.Fatal("the typed values are not marked invalid")
		}
		eval[bool](t, ctx, `(() => { document.activeElement.blur(); scrollTo(0, 0); return true; })()`)
	}
	viewport(t, ctx, 1400, 1000)
	invalid()
	check("invalid-1400x1000", "r", "fix the")
	// Before any run, c says why it keeps nothing: at the top, with the
	// timeline scrolled into view, and presenting.
	boot(t, ctx, srv.URL+"/?workers=8&jobs=1")
	check("top-1400x1000", "c", "finish a run")
	eval[bool](t, ctx, `(() => { document.getElementById("timeline").scrollIntoView(); return true; })()`)
	check("timeline-1400x1000", "c", "finish a run")
	viewport(t, ctx, 1280, 720)
	presentMode(t, ctx, true)
	invalid()
	check("invalid-present-1280x720", "r", "fix the")
	presentMode(t, ctx, false)
	viewport(t, ctx, 390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	invalid()
	check("invalid-phone-390x844", "r", "fix the")
}

// TestToastMovesWithThePage: a short message is placed again when the
// page moves under it, and goes when a run, a simulation or a watch
// starts. Placed once, "Compare: finish a run or a simulation first" was
// left over the Arrivals field and the legend once the simulation pressed
// after it had finished, saying what was no longer so (found by a review).
func TestToastMovesWithThePage(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1024, 768)
	boot(t, ctx, srv.URL+"/?workers=8&jobs=1")
	shown := func(want string) *toastLook {
		t.Helper()
		var l *toastLook
		if err := waitFor(3*time.Second, func() bool {
			l = eval[*toastLook](t, ctx, toastCoveredJS)
			return l != nil && strings.Contains(l.Text, want)
		}); err != nil {
			t.Fatalf("no message saying %q (%+v)", want, l)
		}
		return l
	}
	press(t, ctx, "c")
	before := shown("finish a run")
	// The page scrolled under it, in steps, as a wheel does.
	for _, dy := range []int{120, 120, 120, 120} {
		eval[chromedp.Void](t, ctx, fmt.Sprintf("scrollBy(0, %d)", dy))
		time.Sleep(80 * time.Millisecond)
	}
	time.Sleep(600 * time.Millisecond) // two looks (toastLook)
	after := eval[*toastLook](t, ctx, toastCoveredJS)
	viewShot(t, ctx, "toast-scrolled")
	if after == nil {
		t.Fatal("the message went within a second and a half")
	}
	if len(after.Covered) > 0 {
		t.Errorf("scrolled under it, the message (placed at y %.0f, now %.0f) covers the page's %q", before.Top, after.Top, after.Covered)
	}
	// Simulate starting takes it away, long before its time is up.
	eval[chromedp.Void](t, ctx, "scrollTo(0, 0)")
	press(t, ctx, "c")
	shown("finish a run")
	press(t, ctx, "m")
	if err := waitFor(time.Second, func() bool { return eval[*toastLook](t, ctx, toastCoveredJS) == nil }); err != nil {
		t.Error("the message why Compare could not keep a run stayed after Simulate was pressed")
	}
}

// canvasTextsJS makes the page note every text drawn on the timeline's
// canvas with where it goes (window.drawnTexts: [text, x, y, left, top,
// right, bottom], x and y as given, the box the text covers in CSS px from
// the canvas's top left), once.
const canvasTextsJS = `(() => {
	if (window.drawnTexts) return;
	window.drawnTexts = [];
	const fill = CanvasRenderingContext2D.prototype.fillText;
	CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
		const c = this.canvas;
		if (c.id === "timeline") {
			const m = this.measureText(String(text)), t = this.getTransform(), k = c.width / c.getBoundingClientRect().width;
			const px = (u, v) => [(t.a * u + t.c * v + t.e) / k, (t.b * u + t.d * v + t.f) / k];
			const [l, tp] = px(x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent), [r, b] = px(x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent);
			window.drawnTexts.push([String(text), x, y, l, tp, r, b]);
		}
		return fill.call(this, text, x, y, ...rest);
	};
})()`

// emptyTimeline redraws the timeline and says what it drew: its texts,
// joined by " | ", and how many worker lanes.
func emptyTimeline(t *testing.T, ctx context.Context) (texts string, lanes int) {
	t.Helper()
	eval[chromedp.Void](t, ctx, canvasTextsJS)
	texts = eval[string](t, ctx, `window.drawnTexts = [], window.retrylab.redraw(), window.drawnTexts.map(([s]) => s).join(" | ")`)
	return texts, eval[int](t, ctx, `JSON.parse(window.retrylab.debug()).lane_count`)
}

// TestEmptyTimelineFollowsTheInputs: before a run the timeline shows the
// configuration in the inputs, as it is now. Workers 501 (more than a live
// run takes) asks for Simulate over 501 lanes; Workers "abc" then disabled
// Simulate, and the canvas still said "Press Simulate (m): 501 workers are
// more than a live run takes…" over 501 lanes. It says the field is to be
// fixed, over no lanes (there are no workers to draw); an invalid field
// that is not Workers keeps the lanes of the workers typed.
func TestEmptyTimelineFollowsTheInputs(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 900)
	boot(t, ctx, srv.URL+"/?workers=20&jobs=3")
	for _, step := range []struct {
		key, value string
		lanes      int
		want       string // in the canvas's texts
		unwanted   string // not in them
		disabled   bool   // Simulate
	}{
		{"workers", "501", 501, "Press Simulate (m): 501 workers are more than a live run takes", "Fix", false},
		{"workers", "abc", 0, "Fix 1 field first", "501", true},
		{"workers", "30", 30, "each lane will be one of the 30 workers", "Fix", false},
		{"jobs", "x", 30, "Fix 1 field first", "Press", true},
		{"workers", "abc", 0, "Fix 2 fields first", "30 workers", true},
		{"jobs", "2", 0, "Fix 1 field first", "Press", true},
		{"workers", "501", 501, "Press Simulate (m): 501 workers", "Fix", false},
	} {
		typeInto(t, ctx, step.key, step.value)
		var texts string
		var lanes int
		if err := waitFor(5*time.Second, func() bool {
			texts, lanes = emptyTimeline(t, ctx)
			return lanes == step.lanes && strings.Contains(texts, step.want) && !strings.Contains(texts, step.unwanted) &&
				eval[bool](t, ctx, `document.getElementById("simulate").disabled`) == step.disabled
		}); err != nil {
			t.Errorf("%s %q: the empty timeline drew %d lanes and said %q; want %d lanes, %q and not %q (Simulate disabled %v)",
				step.key, step.value, lanes, texts, step.lanes, step.want, step.unwanted, step.disabled)
		}
		if step.value == "abc" && step.key == "workers" && step.want == "Fix 1 field first" {
			screenshot(t, ctx, "empty-timeline-invalid-workers")
		}
	}
}

// TestReloadKeepsWhatWasTyped: the address bar holds only valid
// configurations, yet a reload of the tab keeps what was typed: the values
// not allowed come back in their inputs with their messages, Run stays
// disabled, and a valid change typed before them is in the address.
func TestReloadKeepsWhatWasTyped(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	typeInto(t, ctx, "jobs", "3")
	typeInto(t, ctx, "workers", "abc")
	typeInto(t, ctx, "fail500", "60")
	typeInto(t, ctx, "fail503", "50")
	waitFor(3*time.Second, func() bool {
		return eval[string](t, ctx, `(document.getElementById("err-fail503") || {}).textContent || ""`) != ""
	})
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(rctx, chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(settled))); err != nil {
		t.Fatalf("reload: %v", err)
	}
	type field struct {
		Value string `json:"value"`
		Err   string `json:"err"`
	}
	read := func() map[string]field {
		return eval[map[string]field](t, ctx, `Object.fromEntries(["jobs", "workers", "fail500", "fail503"].map(k =>
			[k, {value: document.getElementById("f-" + k).value, err: (document.getElementById("err-" + k) || {}).textContent || ""}]))`)
	}
	var got map[string]field
	waitFor(3*time.Second, func() bool { got = read(); return got["workers"].Err != "" })
	for key, want := range map[string]string{"jobs": "3", "workers": "abc", "fail500": "60", "fail503": "50"} {
		if got[key].Value != want {
			t.Errorf("after the reload %s shows %q, want %q", key, got[key].Value, want)
		}
	}
	if got["workers"].Err == "" || got["fail503"].Err == "" {
		t.Errorf("after the reload the messages are gone: %+v", got)
	}
	if !eval[bool](t, ctx, `document.getElementById("run").disabled`) {
		t.Error("Run is enabled after the reload")
	}
	if q := eval[string](t, ctx, `location.search`); !strings.Contains(q, "jobs=3") || strings.Contains(q, "abc") {
		t.Errorf("the address holds %q: want the valid jobs=3, not the text not allowed", q)
	}
}

// TestAddressHoldsWhatWasEntered: the address bar takes a typed value
// when the user leaves its input or presses Enter, not at each key.
// Written at each key allowed, "50ms" typed into Cap (not allowed under
// the base of 100ms) left cap=50m, 50 minutes, in the address, while the
// copy buttons were disabled: copying the address shared a cap the user
// never chose (a review).
func TestAddressHoldsWhatWasEntered(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	capIn := func() string {
		return eval[string](t, ctx, `new URL(location.href).searchParams.get("cap") || "(none)"`)
	}
	before := capIn()
	typeInto(t, ctx, "cap", "50ms")
	if err := waitFor(3*time.Second, func() bool {
		return eval[string](t, ctx, `(document.getElementById("err-cap") || {}).textContent || ""`) != ""
	}); err != nil {
		t.Fatal("50ms in Cap under a base of 100ms: no message")
	}
	if got := capIn(); got != before {
		t.Errorf("typing 50ms into Cap: the address has cap=%s, want it as it was (%s)", got, before)
	}
	eval[chromedp.Void](t, ctx, `document.activeElement.blur()`)
	if got := capIn(); got != before {
		t.Errorf("50ms left in Cap: the address has cap=%s, want it as it was (%s)", got, before)
	}
	typeInto(t, ctx, "cap", "5s")
	if got := capIn(); got != before {
		t.Errorf("5s typed into Cap, the input still focused: the address has cap=%s, want it as it was (%s)", got, before)
	}
	keyOnFocus(t, ctx, kb.Enter)
	if err := waitFor(3*time.Second, func() bool { return capIn() == "5s" }); err != nil {
		t.Errorf("5s entered into Cap: the address has cap=%s, want 5s", capIn())
	}
}

// TestSharedURLReproducesConfiguration: what is set on the page is in the
// URL; opening that URL elsewhere sets up the same run, and a malformed
// field falls back with a visible notice.
func TestSharedURLReproducesConfiguration(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	click(t, ctx, "preset-retry-after")
	typeInto(t, ctx, "workers", "37")
	typeInto(t, ctx, "seed", "424242")
	eval[chromedp.Void](t, ctx, `document.activeElement.blur()`) // the address takes it as the input is left
	link := eval[string](t, ctx, `location.href`)
	q, err := url.Parse(link)
	if err != nil || q.Query().Get("workers") != "37" || q.Query().Get("seed") != "424242" || q.Query().Get("ra_honour") != "on" {
		t.Fatalf("the URL does not carry the configuration: %s", link)
	}
	// A step of the story picked by mistake loses nothing: u brings the
	// configuration back, and the address with it.
	workers := func() string { return eval[string](t, ctx, `document.getElementById("f-workers").value`) }
	press(t, ctx, "1")
	if err := waitFor(3*time.Second, func() bool { return workers() != "37" }); err != nil {
		t.Fatal("step 1 did not replace the configuration")
	}
	press(t, ctx, "u")
	if err := waitFor(3*time.Second, func() bool { return workers() == "37" && eval[string](t, ctx, `location.href`) == link }); err != nil {
		t.Errorf("after u: workers %q and the address %s, want 37 and %s", workers(), eval[string](t, ctx, `location.href`), link)
	}

	ctx2, _ := newBrowser(t)
	boot(t, ctx2, link)
	for key, want := range map[string]string{"workers": "37", "seed": "424242", "strategy": "full", "ra_spread": "1s"} {
		got := eval[string](t, ctx2, `document.getElementById("f-`+key+`").value`)
		if got != want {
			t.Errorf("opened link: #f-%s = %q, want %q", key, got, want)
		}
	}
	if got := eval[bool](t, ctx2, `document.getElementById("f-ra_honour").checked`); !got {
		t.Error("opened link: honour Retry-After is off")
	}

	bad := strings.Replace(link, "workers=37", "workers=20000", 1) + "&bogus=1"
	boot(t, ctx2, bad)
	notice, err := chromedp.Run(ctx2, chromedp.Text(chromedp.ID("url-notice")))
	if err != nil {
		t.Fatalf("no notice for a malformed link: %v", err)
	}
	if !strings.Contains(notice, "workers") || !strings.Contains(notice, "bogus") {
		t.Errorf("notice %q should name the bad field and the unknown one", notice)
	}
	if got := eval[string](t, ctx2, `document.getElementById("f-seed").value`); got != "424242" {
		t.Errorf("the good fields of a malformed link are lost: seed %q", got)
	}
}

// TestStopAbortsInFlight: Stop aborts every in-flight fetch at once (the
// server sees the cancellations), and Run again starts clean.
func TestStopAbortsInFlight(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	typeInto(t, ctx, "workers", "20")
	typeInto(t, ctx, "latency", "5s")
	typeInto(t, ctx, "room", "e2e-stop")
	events := subscribe(t, srv, "e2e-stop")
	click(t, ctx, "run")
	// Wait until all twenty requests are held by the server.
	seen := 0
	for seen < 20 {
		events.next(t, 10*time.Second, func(e mockEvent) bool { return e.Type == "arrival" })
		seen++
	}
	stopAt := time.Now()
	click(t, ctx, "stop")
	cancelled := 0
	for cancelled < 20 {
		ev := events.next(t, 3*time.Second, func(e mockEvent) bool { return e.Type == "end" })
		if ev.End != "cancelled" {
			t.Errorf("request %s ended as %q, want cancelled", ev.Tag, ev.End)
		}
		cancelled++
	}
	t.Logf("all 20 in-flight requests cancelled at the server %.0f ms after Stop", float64(time.Since(stopAt).Milliseconds()))
	if err := waitFor(2*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
		t.Fatalf("page still running after Stop: %v", err)
	}
	st := state(t, ctx)
	if st.Stats["aborted"] != 20 || st.Stats["successes"] != 0 {
		t.Errorf("after Stop: aborted %.0f, successes %.0f; want 20 and 0", st.Stats["aborted"], st.Stats["successes"])
	}
	// Run again starts clean: fresh numbers.
	typeInto(t, ctx, "latency", "0s")
	typeInto(t, ctx, "workers", "5")
	typeInto(t, ctx, "jobs", "1")
	st = runToEnd(t, ctx, 20*time.Second)
	if st.Stats["aborted"] != 0 || st.Stats["jobs"] != 5 {
		t.Errorf("second run is not clean: %+v", st.Stats)
	}
}

// TestRunStopCyclesLeakNothing: 100 run/stop cycles leave no goroutines and
// no JS callbacks behind.
func TestRunStopCyclesLeakNothing(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	typeInto(t, ctx, "workers", "20")
	typeInto(t, ctx, "latency", "2s")
	read := func() debugState { return debugOf(t, ctx) }
	// The baseline is read after a first cycle: what a page sets up once
	// and keeps (the fetch workers, which start once it has painted) is
	// there by then, and is not a leak.
	var before debugState
	for i := 0; i <= 100; i++ {
		if i == 1 {
			before = read()
		}
		click(t, ctx, "run")
		// This cycle's run: the last one's records are there until a run
		// starts.
		if err := waitFor(5*time.Second, func() bool { st := state(t, ctx); return st.Runs == i+1 && st.Records >= 20 }); err != nil {
			t.Fatalf("cycle %d: run never got going: %v (state %+v)", i, err, state(t, ctx))
		}
		click(t, ctx, "stop")
		if err := waitFor(5*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
			t.Fatalf("cycle %d: stop did not finish: %v", i, err)
		}
	}
	// The last run winds down (its aborts, its stream) a moment after it
	// reads as stopped: what is still there after 10 s leaked.
	var after debugState
	_ = waitFor(10*time.Second, func() bool {
		after = read()
		return after.Goroutines <= before.Goroutines+5 && after.Funcs <= before.Funcs && after.Pending == 0
	})
	t.Logf("100 run/stop cycles: goroutines %d → %d, live JS funcs %d → %d, pending waits %d → %d",
		before.Goroutines, after.Goroutines, before.Funcs, after.Funcs, before.Pending, after.Pending)
	if after.Goroutines > before.Goroutines+5 || after.Funcs > before.Funcs || after.Pending > 0 {
		t.Errorf("leak after 100 cycles: before %+v, after %+v", before, after)
	}
}

// TestKeyboardInspectsAnAttempt: after a run, the timeline takes keyboard
// focus and the arrow keys walk the attempts; the tooltip tells worker,
// attempt, intended and actual send time, status and the wait chosen.
func TestKeyboardInspectsAnAttempt(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=5&jobs=1&rate=2&burst=2&ra_honour=on")
	runToEnd(t, ctx, 30*time.Second)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline"))); err != nil {
		t.Fatalf("the timeline cannot take focus: %v", err)
	}
	scrollY := eval[float64](t, ctx, `window.scrollY`)
	var tips []string
	for i := 0; i < 12; i++ {
		key := kb.ArrowRight // the next attempt of this worker
		if i%2 == 1 {
			key = kb.ArrowDown // the next worker
		}
		// And the frames after it, which draw the selection and its tooltip
		// (not a fixed 150 ms, which a slow machine may overrun).
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key), chromedp.Evaluate[chromedp.Void](afterFrames, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		tip, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("tooltip")))
		if err != nil {
			t.Fatalf("no tooltip after an arrow key: %v", err)
		}
		tips = append(tips, tip)
	}
	all := strings.ToLower(strings.Join(tips, "\n"))
	for _, want := range []string{"worker", "attempt", "intended", "429", "retry-after"} {
		if !strings.Contains(all, want) {
			t.Errorf("walking the attempts never showed %q; tooltips:\n%s", want, strings.Join(tips, "\n---\n"))
		}
	}
	if y := eval[float64](t, ctx, `window.scrollY`); y != scrollY {
		t.Errorf("the arrow keys on the timeline scrolled the page from %v to %v", scrollY, y)
	}
	screenshot(t, ctx, "keyboard-tooltip")
}

// TestEscapeOnTheTimeline: while a run goes on, Escape on the focused
// timeline first clears the selected attempt (the run goes on), and only
// then, with nothing selected, stops the run as it does anywhere else.
func TestEscapeOnTheTimeline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=4&jobs=100&latency=150ms&rate=1000&burst=100")
	click(t, ctx, "run")
	if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Records >= 20 }); err != nil {
		t.Fatalf("the run never got going: %v", err)
	}
	tip := func() string {
		return eval[string](t, ctx, `document.getElementById("tooltip").textContent`)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline")), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(2*time.Second, func() bool { return strings.Contains(tip(), "Worker") }); err != nil {
		t.Fatalf("an arrow key selected nothing: %v", err)
	}
	keyOnFocus(t, ctx, kb.Escape)
	if err := waitFor(2*time.Second, func() bool { return tip() == "" }); err != nil {
		t.Errorf("Escape did not clear the selection: tooltip %q", tip())
	}
	time.Sleep(300 * time.Millisecond)
	if !state(t, ctx).Running {
		t.Fatal("Escape on a selected attempt stopped the run")
	}
	keyOnFocus(t, ctx, kb.Escape)
	if err := waitFor(5*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
		t.Errorf("Escape with nothing selected did not stop the run: %v", err)
	}
}

// TestPresentationModeAndHelp: p switches presentation mode (large type,
// high contrast: the numbers and the timeline grow; on a 1280 × 720
// projector the timeline starts on the first screen, the settings below
// it) and back; ? opens the shortcuts dialog and Escape closes it, without
// stopping anything.
func TestPresentationModeAndHelp(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	boot(t, ctx, srv.URL+"/?workers=8&jobs=1&rate=4&burst=2")
	runToEnd(t, ctx, 30*time.Second)
	type look struct {
		Present bool    `json:"present"`
		Pressed string  `json:"pressed"`
		Number  float64 `json:"number"` // font size of a big number, px
		Canvas  float64 `json:"canvas"` // the timeline's CSS height, px
		Help    bool    `json:"help"`   // the shortcuts dialog is shown
		// Where the timeline starts and the settings start, px from the
		// page's top, and the screen's height.
		Timeline float64 `json:"timeline"`
		Settings float64 `json:"settings"`
		Screen   float64 `json:"screen"`
	}
	read := func() look {
		return eval[look](t, ctx, `(() => {
			const h = document.getElementById("help");
			return {
				present: document.querySelector("main").classList.contains("present"),
				pressed: document.getElementById("present").getAttribute("aria-pressed"),
				number: parseFloat(getComputedStyle(document.querySelector(".stat.big .v")).fontSize),
				canvas: document.getElementById("timeline").getBoundingClientRect().height,
				help: !!h && h.offsetParent !== null,
				timeline: document.getElementById("timeline").getBoundingClientRect().top + scrollY,
				settings: document.querySelector(".sidebar").getBoundingClientRect().top + scrollY,
				screen: innerHeight,
			};
		})()`)
	}
	pressAndWait := func(key string) {
		t.Helper()
		press(t, ctx, key)
		time.Sleep(300 * time.Millisecond)
	}
	// pressUntil presses key and waits until the page shows what it should.
	pressUntil := func(key string, shown func(look) bool) {
		t.Helper()
		press(t, ctx, key)
		_ = waitFor(3*time.Second, func() bool { return shown(read()) })
	}
	before := read()
	if before.Present || before.Help {
		t.Fatalf("presentation mode or help on at load: %+v", before)
	}
	pressUntil("p", func(l look) bool { return l.Present && l.Number > before.Number*1.2 && l.Canvas > before.Canvas }) // the canvas grows at the next frame
	on := read()
	if !on.Present || on.Pressed != "true" || on.Number <= before.Number*1.2 || on.Canvas <= before.Canvas {
		t.Errorf("p did not switch to large type: before %+v, after %+v", before, on)
	}
	if on.Timeline >= on.Screen || on.Settings <= on.Timeline {
		t.Errorf("in presentation mode the timeline starts at %.0f px and the settings at %.0f px: want the timeline on the first %.0f px, the settings after it", on.Timeline, on.Settings, on.Screen)
	}
	// The keyboard meets what the room sees in the order it sees it.
	if got := tabReachesFirst(t, ctx); got != "stage" {
		t.Errorf("in presentation mode Tab reaches the %s first; want the run, drawn first", got)
	}
	screenshot(t, ctx, "presentation-mode")
	pressUntil("p", func(l look) bool { return !l.Present && l.Number == before.Number && l.Canvas == before.Canvas })
	if off := read(); off.Present || off.Number != before.Number || off.Canvas != before.Canvas {
		t.Errorf("p again did not switch back: %+v, want %+v", off, before)
	}
	pressUntil("?", func(l look) bool { return l.Help })
	if !read().Help {
		t.Fatal("? did not open the shortcuts dialog")
	}
	text := eval[string](t, ctx, `document.getElementById("help").innerText`)
	for _, want := range []string{"Run", "Stop", "Presentation"} {
		if !strings.Contains(text, want) {
			t.Errorf("the shortcuts dialog does not mention %q: %q", want, text)
		}
	}
	// The dialog is modal: the focus moves into it (its title), and the
	// page behind it takes none.
	if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-title" }); err != nil {
		t.Errorf("the focus is on %q, want the dialog's title", focusedID(t, ctx))
	}
	behind := `(() => { document.getElementById("run").focus(); return document.querySelector("main > .page").inert + "," + (document.activeElement && document.activeElement.id); })()`
	if got := eval[string](t, ctx, behind); got != "true,help-title" {
		t.Errorf("with the shortcuts dialog open the page behind it took the focus (inert, focused element: %s)", got)
	}
	// Nor its shortcuts: r behind the dialog starts nothing (checked below).
	pressAndWait("r")
	pressUntil(kb.Escape, func(l look) bool { return !l.Help })
	if read().Help {
		t.Error("Escape did not close the shortcuts dialog")
	}
	if err := waitFor(2*time.Second, func() bool { return focusedID(t, ctx) == "help-open" }); err != nil {
		t.Errorf("after the dialog closed the focus is on %q, want the button that opens it", focusedID(t, ctx))
	}
	if got := eval[string](t, ctx, behind); got != "false,run" {
		t.Errorf("after the dialog closed the page is still inert (inert, focused element: %s)", got)
	}
	if st := state(t, ctx); st.Running || st.Runs != 1 {
		t.Errorf("the keys changed the run: %+v", st)
	}
	// Presentation mode survives a reload (the projector's page reopened
	// from a link), and so does switching it off.
	// Its button says how to leave it once it is on.
	for _, want := range []bool{true, false} {
		pressUntil("p", func(l look) bool { return l.Present == want })
		if title := eval[string](t, ctx, `document.getElementById("present").title`); strings.Contains(title, "to leave it") != want {
			t.Errorf("presentation mode %v: its button's title %q", want, title)
		}
		boot(t, ctx, srv.URL+"/?workers=8&jobs=1&rate=4&burst=2")
		if got := read().Present; got != want {
			t.Errorf("presentation mode switched to %v, then the page reloaded: %v", want, got)
		}
	}
}

// TestPresentationFitsTheTimeline: on a 1280 × 720 projector, a finished
// 50-worker simulation's timeline — lanes, histogram and server panel —
// fits on the screen once scrolled to, under the legend that sticks to
// the top, so one crosshair runs across all of it (the canvas was 868 px
// high); out of presentation mode the lanes keep their height.
func TestPresentationFitsTheTimeline(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 720)
	simulated(t, ctx, srv.URL+"/?workers=50&jobs=2")
	type box struct {
		Top    float64 `json:"top"` // the canvas's, in the viewport
		Height float64 `json:"height"`
		Legend float64 `json:"legend"` // the legend's bottom
		Screen float64 `json:"screen"`
		Zoom   float64 `json:"zoom"` // the zoom and replay row's bottom
	}
	// read scrolls the canvas to just under the legend (stuck to the
	// viewport's top once the page scrolls past it) and measures. The
	// legend's height is fractional (76.83 px) and the page scrolls by
	// whole pixels: scrolling by exactly that put the canvas 0.33 px under
	// the legend, so it scrolls a pixel more.
	read := func() box {
		return eval[box](t, ctx, `(() => {
			const c = document.getElementById("timeline"), g = document.getElementById("legend");
			c.scrollIntoView({block: "start"});
			scrollBy(0, -Math.ceil(g.getBoundingClientRect().height) - 1);
			const r = c.getBoundingClientRect();
			return {top: r.top, height: r.height, legend: g.getBoundingClientRect().bottom, screen: innerHeight, zoom: document.getElementById("zoombar").getBoundingClientRect().bottom};
		})()`)
	}
	var normal box
	if err := waitFor(5*time.Second, func() bool { normal = read(); return normal.Height > 720 }); err != nil {
		t.Fatalf("out of presentation mode, 50 lanes of 8.8 px: a canvas %.0f px high", normal.Height)
	}
	press(t, ctx, "p")
	var on box
	if err := waitFor(5*time.Second, func() bool {
		on = read()
		return eval[bool](t, ctx, `document.querySelector("main").classList.contains("present")`) && on.Top+on.Height <= on.Screen
	}); err != nil || on.Height > on.Screen {
		t.Errorf("presentation mode at 1280 × 720: the timeline is %.0f px high on a %.0f px screen", on.Height, on.Screen)
	}
	if on.Top < on.Legend || on.Top+on.Height > on.Screen {
		t.Errorf("presentation mode, scrolled to the timeline: it spans %.2f–%.2f px of %.0f, the legend over it down to %.2f px", on.Top, on.Top+on.Height, on.Screen, on.Legend)
	}

	// The legend stuck over the page is opaque there: what scrolls under
	// it does not show through.
	if bg := eval[string](t, ctx, `getComputedStyle(document.getElementById("legend")).backgroundColor`); strings.HasPrefix(bg, "rgba") {
		t.Errorf("presentation mode: the legend's background %s lets the page show through", bg)
	}
	// The open arrivals step: each lane splits into rows for the jobs piled
	// up past the 50 workers; its lanes go thinner than a row does, and
	// its histogram, the 429s the step is about, is on the screen with them
	// (the canvas was 868 px high).
	press(t, ctx, "7")
	time.Sleep(200 * time.Millisecond)
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	if err := waitFor(5*time.Second, func() bool { on = read(); return on.Top+on.Height <= on.Screen }); err != nil || on.Top < on.Legend {
		t.Errorf("presentation mode, open arrivals simulated: the timeline spans %.2f–%.2f px of %.0f, the legend down to %.2f px", on.Top, on.Top+on.Height, on.Screen, on.Legend)
	}
	screenshot(t, ctx, "presentation-1280x720-open-arrivals")
	// The zoom and replay row under the timeline is fitted in with it
	// where the lanes leave room (20 workers; 50 lanes at their thinnest
	// do not): it lay at 726–758 px after t, and a replay's "Replaying 2.7
	// s of 14.9 s" with it (a review).
	simulated(t, ctx, srv.URL+"/?workers=20&jobs=2")
	if err := waitFor(5*time.Second, func() bool { on = read(); return on.Zoom <= on.Screen }); err != nil || on.Top < on.Legend {
		t.Errorf("presentation mode, 20 workers simulated: the timeline spans %.2f–%.2f px, its zoom and replay row ends at %.2f px, on a %.0f px screen, the legend down to %.2f px",
			on.Top, on.Top+on.Height, on.Zoom, on.Screen, on.Legend)
	}
}

// TestPresentationShowsTheLanesFirst: on a 1280 × 720 projector in
// presentation mode the timeline's lanes are on the first screen, without
// scrolling, before any run and after Simulate: its top is at least 140
// px above the fold (its axis row and ~100 px of lanes). The timeline
// started at 682 px before a run, only its axis row in sight, and at 744
// px after Simulate, below the fold: a banner saying "Simulated in virtual
// time…" again sat between the legend and the timeline. Also at 1920 ×
// 1080.
func TestPresentationShowsTheLanesFirst(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		viewport(t, ctx, size[0], size[1])
		boot(t, ctx, srv.URL+"/")
		presentMode(t, ctx, true)
		type fold struct{ Top, Screen float64 }
		read := func() fold {
			return eval[fold](t, ctx, `(() => {
				window.scrollTo(0, 0);
				return {Top: document.getElementById("timeline").getBoundingClientRect().top, Screen: innerHeight};
			})()`)
		}
		check := func(when string) {
			t.Helper()
			if f := read(); f.Top > f.Screen-140 {
				t.Errorf("%v, presentation mode, %s: the timeline starts at %.0f px of a %.0f px screen; want its lanes on the first screen (top at most %.0f px)", size, when, f.Top, f.Screen, f.Screen-140)
			}
		}
		check("before any run")
		screenshot(t, ctx, fmt.Sprintf("presentation-%dx%d-before", size[0], size[1]))
		click(t, ctx, "simulate")
		simulatedToEnd(t, ctx)
		time.Sleep(300 * time.Millisecond) // the page's render after the result
		check("after Simulate")
		readable(t, ctx, size)
		screenshot(t, ctx, fmt.Sprintf("presentation-%dx%d-simulated", size[0], size[1]))
		// Each step of the story, simulated: step 7's caption, four lines
		// at 1280 px, put the timeline at 595 px.
		for i := range eval[int](t, ctx, `document.querySelectorAll(".step").length`) {
			key := fmt.Sprint(i + 1)
			press(t, ctx, key)
			time.Sleep(200 * time.Millisecond)
			press(t, ctx, "m")
			simulatedToEnd(t, ctx)
			time.Sleep(300 * time.Millisecond)
			check("step " + key + " simulated")
		}
	}
}

// TestPresentationHeaderIsOneLine: in presentation mode the header is one
// line, the title, the tagline (cut short where it must be) and the
// buttons side by side, from a 1024 px projector up: at 1024 px the
// tagline wrapped under the title, 29 px of header the timeline needs.
func TestPresentationHeaderIsOneLine(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	presentMode(t, ctx, true)
	for _, w := range []int64{1024, 1280, 1920} {
		viewport(t, ctx, w, 768)
		type row struct{ Title, Tagline, Button, Header, TitleH float64 }
		var r row
		if err := waitFor(2*time.Second, func() bool {
			r = eval[row](t, ctx, `(() => {
				const mid = e => { const b = e.getBoundingClientRect(); return (b.top + b.bottom) / 2; };
				const h1 = document.querySelector(".top h1");
				return {Title: mid(h1), Tagline: mid(document.querySelector(".tagline")), Button: mid(document.getElementById("present")),
					Header: document.querySelector(".top").getBoundingClientRect().height, TitleH: h1.getBoundingClientRect().height};
			})()`)
			return math.Abs(r.Title-r.Tagline) < 4 && math.Abs(r.Title-r.Button) < 4 && r.TitleH < 40
		}); err != nil {
			t.Errorf("presentation mode at %d px: the title's middle at %.1f px (%.1f px high), the tagline's at %.1f, the button's at %.1f; the header %.1f px high", w, r.Title, r.TitleH, r.Tagline, r.Button, r.Header)
		}
	}
}

// TestPresentationTaglineIsWhole: in presentation mode the tagline beside
// the title is never cut: from 601 to 1279 px it was cut with an ellipsis
// ("…calls from many wor…" at 800 px; a presentation review). Where the
// whole does not fit it says it short, still of retries and a server,
// and wraps rather than be cut; the page is never wider than the window.
func TestPresentationTaglineIsWhole(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	presentMode(t, ctx, true)
	type tag struct {
		Shown             string
		Cut, Ellipsis     bool
		PageW, WindowW, H float64
	}
	for _, w := range []int64{601, 700, 800, 900, 960, 1024, 1099, 1100, 1279, 1280, 1920} {
		viewport(t, ctx, w, 768)
		eval[chromedp.Void](t, ctx, afterFrames)
		got := eval[tag](t, ctx, `(() => {
			const e = document.querySelector(".tagline"), cs = getComputedStyle(e);
			// What shows: the text of the parts wider than a pixel.
			const shown = (e.children.length ? [...e.children] : [e]).filter(c => c.getBoundingClientRect().width > 1).map(c => c.textContent).join("");
			return {Shown: shown, Cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
				Ellipsis: cs.textOverflow === "ellipsis" && cs.whiteSpace === "nowrap",
				PageW: document.documentElement.scrollWidth, WindowW: innerWidth, H: e.getBoundingClientRect().height};
		})()`)
		if got.Cut || got.Ellipsis || got.PageW > got.WindowW || !strings.Contains(got.Shown, "retries") || !strings.Contains(got.Shown, "server") {
			t.Errorf("presentation mode at %d px: the tagline shows %q (%.0f px high), cut %v, ellipsis %v; the page %.0f px wide in a %.0f px window",
				w, got.Shown, got.H, got.Cut, got.Ellipsis, got.PageW, got.WindowW)
		}
	}
}

// TestPresentationRunShowsTheLanes: on a 1024 × 768 projector in
// presentation mode the header, the story's two rows of steps, its caption
// and the numbers put the timeline's top 60–100 px above the fold (four
// lanes), and a run, a simulation and a replay went on there unseen. They
// now bring the run bar, the numbers and the timeline to the top of the
// screen, with at least 140 px of the timeline in sight; where that much
// shows already (1280 × 720), or out of presentation mode, the page stays
// where it is. With a baseline kept, its banner over the numbers, the
// timeline showed 129 px at 1280 × 720, and 98 px at 1024 × 768 with the
// run bar at the screen's top; measured before the run's numbers took
// their lines, the page scrolled too little (the timeline's top was still
// 31 px below the fold at 1280 × 720). The page then puts the banner at
// the top, the run bar whole above the screen, not cut.
func TestPresentationRunShowsTheLanes(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type where struct {
		Lanes        float64 // px of the timeline on the screen
		Status       float64 // the run's status line's top
		StatusHeight float64
		ScrollY      float64
	}
	read := func() where {
		return eval[where](t, ctx, `(() => {
			const r = document.getElementById("timeline").getBoundingClientRect();
			return {Lanes: Math.min(r.bottom, innerHeight) - Math.max(r.top, 0),
				Status: document.getElementById("run-status").getBoundingClientRect().top,
				StatusHeight: document.getElementById("run-status").getBoundingClientRect().height, ScrollY: scrollY};
		})()`)
	}
	// m, y and r on step 3; then, that live run kept as the baseline, r on
	// step 4.
	all := []string{"m", "y", "r", "c 4 r"}
	for _, c := range []struct {
		w, h    int64
		present bool
		scrolls []string // the keys that scroll the page
	}{{1024, 768, true, all}, {1280, 720, true, []string{"c 4 r"}}, {1024, 768, false, nil}} {
		viewport(t, ctx, c.w, c.h)
		boot(t, ctx, srv.URL+"/")
		presentMode(t, ctx, c.present)
		press(t, ctx, "3") // a caption of four lines at 1024 px
		for _, keys := range all {
			scrolls, key := slices.Contains(c.scrolls, keys), keys
			if k, ok := strings.CutPrefix(key, "c 4 "); ok {
				press(t, ctx, "c")
				press(t, ctx, "4")
				key = k
			}
			eval[chromedp.Void](t, ctx, `window.scrollTo(0, 0)`)
			if err := waitFor(5*time.Second, func() bool { return read().ScrollY == 0 }); err != nil {
				t.Fatal("the page did not scroll back to its top")
			}
			before, runs := read(), state(t, ctx).Runs
			press(t, ctx, key)
			// Read once the run's figures come in: its numbers' cards grow
			// then (by 18 px at 1024 × 768 with a baseline).
			var got where
			if err := waitFor(10*time.Second, func() bool {
				s := state(t, ctx)
				got = read()
				return (s.Runs > runs && (s.Simulated || s.Records > 100) || s.Replaying) && (got.ScrollY > 0) == scrolls
			}); err != nil {
				t.Errorf("%d × %d, presentation mode %v, %s: the page scrolled by %.0f px (want scrolled: %v); %.0f px of the timeline on the screen before, %.0f after",
					c.w, c.h, c.present, keys, got.ScrollY, scrolls, before.Lanes, got.Lanes)
			}
			if scrolls && (got.Lanes < 140 || got.Status < 0 && got.Status > -got.StatusHeight) {
				t.Errorf("%d × %d, %s: %.0f px of the timeline on the screen, the run's status at %.0f px: want at least 140 px, and the status in sight or above the screen, not cut", c.w, c.h, keys, got.Lanes, got.Status)
			}
			switch keys {
			case "c 4 r":
				press(t, ctx, "s")
			case "y":
				press(t, ctx, "y")
			}
			if err := waitFor(60*time.Second, func() bool { s := state(t, ctx); return !s.Running && !s.Replaying }); err != nil {
				t.Fatalf("%s did not end: %v", key, err)
			}
		}
	}
}

// TestPresentationRunKeepsTheCaption: in presentation mode, where a run
// brings the timeline up (TestPresentationRunShowsTheLanes), the step's
// caption, which the presenter teaches from, stays on the screen above the
// run bar when that still leaves 140 px of the timeline, with room for the
// numbers to grow as the figures come in: at 1280 × 690 (a 1280 × 800
// laptop's browser window) r and m scrolled the run bar to the screen's
// top and the caption 100 px above it, off the screen (a review). At
// 1024 × 768 the caption at the top would leave 126 px once a
// simulation's figures are in: the run bar goes to the top there, as
// before.
func TestPresentationRunKeepsTheCaption(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type where struct {
		Caption [2]float64 // its top and bottom on the screen
		Lanes   float64    // px of the timeline on the screen
		Inner   float64
		ScrollY float64
	}
	read := func() where {
		return eval[where](t, ctx, `(() => {
			const c = document.getElementById("preset-caption").getBoundingClientRect(), r = document.getElementById("timeline").getBoundingClientRect();
			return {Caption: [c.top, c.bottom], Lanes: Math.min(r.bottom, innerHeight) - Math.max(r.top, 0), Inner: innerHeight, ScrollY: scrollY};
		})()`)
	}
	for _, size := range [][2]int64{{1280, 690}} {
		viewport(t, ctx, size[0], size[1])
		boot(t, ctx, srv.URL+"/")
		presentMode(t, ctx, true)
		press(t, ctx, "3") // a caption of three lines
		for _, key := range []string{"r", "m"} {
			eval[chromedp.Void](t, ctx, `window.scrollTo(0, 0)`)
			runs := state(t, ctx).Runs
			press(t, ctx, key)
			var got where
			if err := waitFor(10*time.Second, func() bool {
				s := state(t, ctx)
				got = read()
				return s.Runs > runs && (s.Simulated || s.Records > 100) && got.ScrollY > 0
			}); err != nil {
				t.Fatalf("%v, %s: the page did not bring the run up (%+v)", size, key, got)
			}
			if got.Caption[0] < -1 || got.Caption[1] > got.Inner || got.Lanes < 140 {
				t.Errorf("%v, %s: the caption spans %.0f–%.0f px of a %.0f px screen, %.0f px of the timeline show: want the caption whole and at least 140 px of the timeline",
					size, key, got.Caption[0], got.Caption[1], got.Inner, got.Lanes)
			}
			if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil { // the screen, not the page
				saveShot(t, fmt.Sprintf("run-keeps-caption-%dx%d-%s", size[0], size[1], key), png)
			}
			if key == "r" {
				press(t, ctx, "s")
			}
			if err := waitFor(60*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
				t.Fatalf("%s did not end: %v", key, err)
			}
		}
	}
}

// presentedSimulation is a page in presentation mode showing a finished
// simulation of its first configuration.
func presentedSimulation(t *testing.T) context.Context {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	presentMode(t, ctx, true)
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	return ctx
}

// timelineWhere is where the timeline lies on the screen, CSS px from the
// viewport's top: its top and bottom, the sticky legend's bottom, and the
// screen's height.
type timelineWhere struct{ Top, Bottom, Legend, Inner float64 }

func timelineNow(t *testing.T, ctx context.Context) timelineWhere {
	return eval[timelineWhere](t, ctx, `(() => {
		const r = document.getElementById("timeline").getBoundingClientRect();
		return {Top: r.top, Bottom: r.bottom, Legend: document.getElementById("legend").getBoundingClientRect().bottom, Inner: innerHeight};
	})()`)
}

// TestTimelineKeyShowsTheTimeAxis: in presentation mode t shows the
// timeline's foot, its time axis and the caption under it ("time since
// Run"), where the timeline is taller than the screen under the legend:
// its 50 lanes fitted to the screen are 4 px each at the thinnest, and the
// timeline 628 px high; with its top under the legend the caption was
// half off a screen a few px shorter, or wholly (a presentation review).
// Where the timeline fits (1024 × 768, 1280 × 720) its top still goes
// under the legend (TestTimelineKey).
func TestTimelineKeyShowsTheTimeAxis(t *testing.T) {
	ctx := presentedSimulation(t)
	for _, c := range [][2]int64{{1280, 700}, {1024, 680}, {900, 720}, {1024, 768}, {1280, 720}} {
		viewport(t, ctx, c[0], c[1])
		eval[chromedp.Void](t, ctx, `scrollTo(0, 0)`)
		eval[chromedp.Void](t, ctx, afterFrames)
		press(t, ctx, "t")
		var w timelineWhere
		if err := waitFor(5*time.Second, func() bool {
			w = timelineNow(t, ctx)
			return eval[string](t, ctx, `(document.activeElement && document.activeElement.id) || ""`) == "timeline" && w.Top < w.Inner/2
		}); err != nil {
			t.Fatalf("%d × %d: t did not bring the timeline up: %+v", c[0], c[1], w)
		}
		eval[chromedp.Void](t, ctx, afterFrames)
		fits := w.Bottom-w.Top <= w.Inner-w.Legend
		if w.Bottom > w.Inner+0.5 {
			t.Errorf("%d × %d: after t the timeline ends at %.0f px, below the %.0f px screen: its time axis' caption is cut", c[0], c[1], w.Bottom, w.Inner)
			screenshot(t, ctx, fmt.Sprintf("t-key-axis-%dx%d", c[0], c[1]))
		}
		if fits && math.Abs(w.Top-w.Legend) > 2 {
			t.Errorf("%d × %d: the timeline fits under the legend, and after t its top is at %.0f px, not under the legend (%.0f px)", c[0], c[1], w.Top, w.Legend)
		}
	}
}

// TestTimelineKeyHoldsThroughAResize: after t, the timeline stays in view
// when the window changes size (a presenter's full screen, the projector):
// t at 1024 × 768 then a window of 1280 × 720 left lanes w1–w35 under the
// sticky legend and axis, w40–w50 alone in sight (a review); and the
// other way round, the lanes' foot below the screen. The browser's scroll
// anchoring keeps nothing: the timeline's height changes with the window.
func TestTimelineKeyHoldsThroughAResize(t *testing.T) {
	ctx := presentedSimulation(t)
	for _, c := range [][2][2]int64{{{1024, 768}, {1280, 720}}, {{1280, 720}, {1024, 768}}} {
		from, to := c[0], c[1]
		viewport(t, ctx, from[0], from[1])
		eval[chromedp.Void](t, ctx, `scrollTo(0, 0)`)
		eval[chromedp.Void](t, ctx, afterFrames)
		press(t, ctx, "t")
		if err := waitFor(5*time.Second, func() bool {
			w := timelineNow(t, ctx)
			return eval[string](t, ctx, `(document.activeElement && document.activeElement.id) || ""`) == "timeline" && math.Abs(w.Top-w.Legend) <= 2
		}); err != nil {
			t.Fatalf("%d × %d: t did not bring the timeline under the legend: %+v", from[0], from[1], timelineNow(t, ctx))
		}
		viewport(t, ctx, to[0], to[1])
		var w timelineWhere
		if err := waitFor(3*time.Second, func() bool {
			eval[chromedp.Void](t, ctx, afterFrames)
			w = timelineNow(t, ctx)
			return math.Abs(w.Top-w.Legend) <= 2 && w.Bottom <= w.Inner+0.5
		}); err != nil {
			t.Errorf("t at %d × %d, then a window of %d × %d: the timeline spans %.0f–%.0f px, want it under the legend (%.0f px) and on the %.0f px screen",
				from[0], from[1], to[0], to[1], w.Top, w.Bottom, w.Legend, w.Inner)
			screenshot(t, ctx, fmt.Sprintf("t-key-resized-%dx%d", to[0], to[1]))
		}
		press(t, ctx, "t") // back up to the run: the next round starts from the top
	}
}

// TestTimelineKey: t brings the whole timeline into view under the legend
// and focuses it, and t again goes back up to the run. In presentation
// mode at 1280 × 720 the first screen holds the numbers and the top lanes,
// and the histogram (the flood's picture) is below the fold; after t the
// timeline, fitted to the screen under the legend, shows whole, and the
// arrows walk its attempts. On a desktop screen, where the timeline is
// taller than the screen, its top goes under the legend.
func TestTimelineKey(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type where struct {
		Top, Bottom, Legend, Inner, Stage, ScrollY float64
		Focused                                    string
	}
	read := func() where {
		return eval[where](t, ctx, `(() => {
			const r = document.getElementById("timeline").getBoundingClientRect();
			return {Top: r.top, Bottom: r.bottom, Legend: document.getElementById("legend").getBoundingClientRect().bottom,
				Inner: innerHeight, Stage: document.getElementById("stage").getBoundingClientRect().top, ScrollY: scrollY,
				Focused: document.activeElement ? document.activeElement.id : ""};
		})()`)
	}
	// key sends a key to whatever has the focus (press blurs it first).
	settled := func(cond func(w where) bool) where {
		t.Helper()
		var w where
		if err := waitFor(5*time.Second, func() bool { w = read(); return cond(w) }); err != nil {
			t.Fatalf("the page did not get there: %+v", w)
		}
		return w
	}
	for _, c := range []struct {
		w, h    int64
		present bool
	}{{1280, 720, true}, {1280, 800, false}} {
		viewport(t, ctx, c.w, c.h)
		boot(t, ctx, srv.URL+"/")
		presentMode(t, ctx, c.present)
		press(t, ctx, "1")
		press(t, ctx, "m")
		simulatedToEnd(t, ctx)
		before := read()
		if before.Bottom <= before.Inner || before.ScrollY != 0 {
			t.Fatalf("%d × %d: the timeline shows whole on the first screen already (%+v): nothing to test", c.w, c.h, before)
		}
		keyOnFocus(t, ctx, "t")
		got := settled(func(w where) bool { return w.Focused == "timeline" && w.ScrollY > 0 })
		if math.Abs(got.Top-got.Legend) > 2 {
			t.Errorf("%d × %d: after t the timeline's top is at %.0f px, want it right under the legend stuck at the top (its bottom %.0f px)", c.w, c.h, got.Top, got.Legend)
		}
		if c.present && got.Bottom > got.Inner+1 {
			t.Errorf("%d × %d, presentation mode: after t the timeline ends at %.0f px, below the screen (%.0f px): its histogram or server panel is cut", c.w, c.h, got.Bottom, got.Inner)
		}
		keyOnFocus(t, ctx, kb.ArrowRight)
		if err := waitFor(5*time.Second, func() bool {
			return eval[string](t, ctx, `(document.querySelector("#tooltip strong") || {}).textContent || ""`) != ""
		}); err != nil {
			t.Errorf("%d × %d: after t the arrow selected no attempt", c.w, c.h)
		}
		// The focus ring goes round the timeline's frame, outside it: drawn
		// inside the canvas, its top edge lay under the sticky axis (a
		// display-modes review).
		if ring := eval[string](t, ctx, `getComputedStyle(document.getElementById("timeline-wrap")).outlineStyle + " " + getComputedStyle(document.getElementById("timeline")).outlineStyle`); ring != "solid none" {
			t.Errorf("%d × %d: the focused timeline's ring (its frame's, the canvas's): %s, want solid none", c.w, c.h, ring)
		}
		keyOnFocus(t, ctx, kb.Escape) // the selection goes
		keyOnFocus(t, ctx, "t")
		back := settled(func(w where) bool { return w.Focused != "timeline" })
		if math.Abs(back.Stage) > 2 {
			t.Errorf("%d × %d: t again left the run's section at %.0f px, want it at the screen's top", c.w, c.h, back.Stage)
		}
		// Focused, then scrolled back up with the wheel: t brings the
		// timeline back (it took the focus away, off screen, and a second
		// press was needed; found by a review).
		keyOnFocus(t, ctx, "t")
		settled(func(w where) bool { return w.Focused == "timeline" && w.ScrollY > 0 })
		eval[chromedp.Void](t, ctx, `scrollTo(0, 0)`)
		if w := read(); w.Focused != "timeline" || w.ScrollY != 0 {
			t.Fatalf("%d × %d: scrolled up with the timeline focused: %+v", c.w, c.h, w)
		}
		keyOnFocus(t, ctx, "t")
		var w where
		if err := waitFor(5*time.Second, func() bool { w = read(); return w.Focused == "timeline" && w.ScrollY > 0 }); err != nil {
			t.Errorf("%d × %d: t on the focused timeline scrolled out of sight: focus on %q, scrolled to %.0f px", c.w, c.h, w.Focused, w.ScrollY)
		}
		// From a control, t and t again give the focus back to it, so Tab
		// goes on from there (it dropped to the body; an accessibility
		// review).
		keyOnFocus(t, ctx, "t")
		settled(func(w where) bool { return w.Focused != "timeline" })
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("copy-link"))); err != nil {
			t.Fatal(err)
		}
		keyOnFocus(t, ctx, "t")
		settled(func(w where) bool { return w.Focused == "timeline" })
		keyOnFocus(t, ctx, "t")
		if err := waitFor(5*time.Second, func() bool { w = read(); return w.Focused == "copy-link" }); err != nil {
			t.Errorf("%d × %d: t, then t again from Copy share link left the focus on %q", c.w, c.h, w.Focused)
		}
	}
}

// readable checks, in presentation mode, the type of what a presenter
// points at: in px, on a 14 px root the legend was 13.3, the numbers'
// names 10.5 to 13.3 and the lines under them 10.1, a step's title 13.9,
// a field's help 10.9; the zoom bar (its window, its buttons, Replay and
// its speed) and the Go code's line 11.9, the tooltip 13.3.
func readable(t *testing.T, ctx context.Context, size [2]int64) {
	t.Helper()
	readableRules(t, ctx, size, append([]typeRule{
		{".caption", 16}, {".step .title", 15}, {"#run-status", 16}, {".legend li", 16},
		{".stat.big .v", 28}, {".stats.secondary .v", 20}, {".stat .k", 16}, {".stat .sub", 15},
		{".field label", 16}, {".field .help", 15}, {".field .range", 15}, {".group-note", 15},
	}, underTimeline...))
}

// typeRule: what a selector's shown elements' type is at least, px.
type typeRule struct {
	sel string
	min float64
}

// underTimeline: the workshop's controls under the timeline, and the
// tooltip a presenter points at, in presentation mode.
var underTimeline = []typeRule{
	{".zoombar .zoom-label", 16}, {"#zoom-window", 16}, {".zoombar button", 16}, {"#replay-speed", 16}, {"#replay-status", 16},
	{".gocode summary", 16}, {".tip", 16}, {".tip strong", 16},
}

// readableRules checks rules, in presentation mode, with the tooltip of the
// timeline's first attempt open (the timeline focused, →).
func readableRules(t *testing.T, ctx context.Context, size [2]int64, rules []typeRule) {
	t.Helper()
	y := eval[float64](t, ctx, `scrollY`)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline"))); err != nil {
		t.Fatalf("the timeline cannot take focus: %v", err)
	}
	keyOnFocus(t, ctx, kb.ArrowRight)
	if err := waitFor(3*time.Second, func() bool { return eval[bool](t, ctx, `!!document.querySelector(".tip")`) }); err != nil {
		t.Errorf("%v, presentation mode: → on the timeline opened no tooltip", size)
	}
	for _, r := range rules {
		got := eval[float64](t, ctx, `(() => {
			let min = 0;
			for (const e of document.querySelectorAll(`+"`"+r.sel+"`"+`)) {
				if (!e.getClientRects().length || !e.textContent.trim()) continue; // not shown
				const s = parseFloat(getComputedStyle(e).fontSize);
				if (!min || s < min) min = s;
			}
			return min;
		})()`)
		if got == 0 {
			if r.sel != ".stat .sub" && r.sel != ".group-note" && r.sel != "#replay-status" {
				t.Errorf("%v, presentation mode: nothing shown for %s", size, r.sel)
			}
			continue
		}
		if got < r.min {
			t.Errorf("%v, presentation mode: %s at %.1f px, want at least %.0f px on a projector", size, r.sel, got, r.min)
		}
	}
	if tip := eval[[]float64](t, ctx, `(() => { const e = document.querySelector(".tip"); if (!e) return [0, 0, innerWidth];
		const r = e.getBoundingClientRect(); return [r.left, r.right, innerWidth]; })()`); tip[0] < 0 || tip[1] > tip[2] {
		t.Errorf("%v, presentation mode: the tooltip spans x %.0f–%.0f of a %.0f px screen", size, tip[0], tip[1], tip[2])
	}
	// Escape clears the selection (the tooltip goes); the page goes back
	// to where it was.
	keyOnFocus(t, ctx, kb.Escape)
	eval[bool](t, ctx, fmt.Sprintf(`(() => { document.activeElement.blur(); scrollTo(0, %f); return true; })()`, y))
}

// TestHiddenTabIsMarked: when the page is hidden during a run (timers are
// throttled then), the stretch is recorded and drawn as such. Headless
// Chromium does not hide a page on demand, so the test makes the document
// say "hidden" and fires visibilitychange, as a background tab would.
func TestHiddenTabIsMarked(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=4&jobs=60&latency=100ms&rate=1000&burst=100") // ~6 s: still running when shown again
	// The run starts after this moment.
	clicked := eval[float64](t, ctx, `performance.now()`)
	click(t, ctx, "run")
	// The run starts once the arrivals stream has said hello (up to 500 ms
	// after the click): its first records say it has.
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Records > 0 }); err != nil {
		t.Fatalf("the run did not start: %v", err)
	}
	time.Sleep(500 * time.Millisecond)
	hidden := setVisibility(t, ctx, "hidden")
	time.Sleep(time.Second)
	if !state(t, ctx).Running {
		t.Fatal("the run ended while the page was hidden: make it longer")
	}
	shown := setVisibility(t, ctx, "visible")
	if err := waitFor(30*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
		t.Fatalf("the run did not finish: %v", err)
	}
	d := debugOf(t, ctx)
	if len(d.Hidden) != 1 {
		t.Fatalf("hidden stretches %v, want one", d.Hidden)
	}
	// As long as the page was hidden, from when it was: at least the 500
	// ms slept after the first record, and no later than the hiding
	// after the click (the run starts after it). Held to the moments the
	// test hid and showed it (performance.now()), not to a window that a
	// slow machine's round trips could overrun; the 250 ms allow for the
	// page's taking the event in.
	h := d.Hidden[0]
	if long := shown - hidden; h[0] < 450 || h[0] > hidden-clicked+250 || math.Abs(h[1]-h[0]-long) > 250 {
		t.Errorf("hidden stretch %v ms: want one from 500 ms into the run (at most %.0f ms, the hiding after the click), %.0f ms long (hidden to shown)", h, hidden-clicked, long)
	}
	screenshot(t, ctx, "hidden-tab")

	// The JSON tells the stretch as the timeline hatched it: a file read
	// alone took the browser's late sends in it for the strategy's.
	name, data := download(t, ctx, allowDownloads(t, ctx), "export-json", ".json")
	var doc struct {
		Gaps []map[string]any `json:"gaps"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	want := map[string]any{"kind": "hidden", "from_ms": exportedMS(h[0]), "until_ms": exportedMS(h[1])}
	if len(doc.Gaps) != 1 || !reflect.DeepEqual(doc.Gaps[0], want) {
		t.Errorf("%s: gaps %v, want %v (as the timeline hatched it)", name, doc.Gaps, want)
	}
}

// cutNumbersJS lists the numbers' values, names, lines and lines against
// a baseline cut off in their cards, or running past them, and the lines
// taller than the room a card keeps for them (two lines; three in
// presentation mode under 1280 px): no line is clamped to it (a reader's
// text spacing grows the card instead), so a line past it would move the
// timeline as a run's figures replace the description.
const cutNumbersJS = `[...document.querySelectorAll("#numbers .stat")].flatMap(c => [...c.querySelectorAll(".v, .k, .sub, .base")]
	.filter(e => ` + seenJS + `(e) && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1 ||
		e.getBoundingClientRect().right > c.getBoundingClientRect().right + 1 ||
		e.classList.contains("sub") && e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).minHeight) + 1))
	.map(e => c.dataset.stat + " " + e.className + " (" + Math.round(c.getBoundingClientRect().width) + " px): " + e.textContent))`

// bigCountsQuery is a simulation with counts of five and six figures in
// every part of every card: 10,000 jobs a second for 10,000 workers (open),
// answered late, rejected, failed or hung, stopped at the page's 300,000
// attempts with tens of thousands in flight (aborted there) and 9,873,679
// jobs never started. 300,000 requests, 18,692 successes, 80,687 429s,
// 19,910 other failures with 133,747 timeouts and 46,964 cut at the
// limit, 173,679 retries, 107,629 give-ups (49,699 cancelled), 49,726
// jobs at once, a peak of 28,410 req/s.
const bigCountsQuery = "workers=10000&jobs=1000&workload=open&every=1s&latency=500ms&spread=3s&timeout=2s&hang=10&fail500=15&rate=3000&burst=3000&attempts=3"

// TestNumbersFitTheirCards: every number's value, name, line and line
// against a baseline is whole in its card, after a simulation, at 800,
// 1280 and 1920 px and in presentation mode at 1280 and 1920 px: at 1280
// px "jobs at once" read "most in progress; close…" (its line is clamped
// to two lines, and cut with "…"). And after a simulation of 10,000
// workers × 1,000 jobs stopped at its attempt limit, whose numbers are
// long: at 1400 px the successes read "of 10,000,000 jobs · 9,966,911
// never…", the time to drain "Simulate → attempt limit: n…", and
// "300,000" requests ran past its card at 800 to 1280 px. And with counts
// in the tens of thousands in every card (bigCountsQuery), and against a
// baseline with them, and during its replay: the other failures' line
// read "and 133,747 timeouts · 46,96…" at 800 to 1400 px, "18,692"
// successes ran past their card in presentation mode at 1024 px, and a
// run with no success was "no success: all 300,000 answers wasted".
func TestNumbersFitTheirCards(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	type size struct {
		width   int64
		present bool
	}
	every := []size{{800, false}, {1024, false}, {1280, false}, {1400, false}, {1920, false}, {1024, true}, {1280, true}, {1400, true}, {1920, true}}
	fits := func(name string, c size) {
		t.Helper()
		viewport(t, ctx, c.width, 900)
		presentMode(t, ctx, c.present)
		var cut []string
		if err := waitFor(3*time.Second, func() bool {
			cut = eval[[]string](t, ctx, cutNumbersJS)
			return eval[bool](t, ctx, `document.querySelector("main").classList.contains("present")`) == c.present && len(cut) == 0
		}); err != nil {
			t.Errorf("%s, %d px wide, presentation mode %v: cut off %q", name, c.width, c.present, cut)
		}
		if c.width >= 1280 {
			if tops := eval[[]float64](t, ctx, `[...new Set([...document.querySelectorAll(".stats.secondary .stat")].map(c => Math.round(c.getBoundingClientRect().top)))]`); len(tops) != 1 {
				t.Errorf("%s, %d px wide, presentation mode %v: the second row's cards are on %d rows (tops %v), want one", name, c.width, c.present, len(tops), tops)
			}
		}
	}
	for _, run := range []struct {
		name, query string
		sizes       []size
	}{
		{"small", "workers=20&jobs=3", []size{{800, false}, {1280, false}, {1920, false}, {1024, true}, {1280, true}, {1920, true}}}, // 1024: a common projector
		{"capped", "workers=10000&jobs=1000", every},
		{"tens of thousands", bigCountsQuery, every},
		// No success, against the run above: "no success: 300k answers
		// wasted", and every card's line against a baseline of tens of
		// thousands.
		{"against tens of thousands", "workers=10000&jobs=1000&fail500=100&attempts=5&vs=" + url.QueryEscape(bigCountsQuery), every},
	} {
		boot(t, ctx, srv.URL+"/?"+run.query)
		if strings.Contains(run.query, "vs=") {
			if err := waitFor(120*time.Second, func() bool { return eval[bool](t, ctx, `!!JSON.parse(window.retrylab.state()).baseline`) }); err != nil {
				t.Fatalf("%s: the baseline was not simulated: %v", run.name, err)
			}
		}
		press(t, ctx, "m")
		if err := waitFor(120*time.Second, func() bool { s := state(t, ctx); return s.Simulated && !s.Running }); err != nil {
			t.Fatalf("%s: the simulation did not finish: %v", run.name, err)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("#numbers .base").length`); strings.Contains(run.query, "vs=") && n < 10 {
			t.Errorf("%s: %d numbers against the baseline", run.name, n)
		}
		for _, c := range run.sizes {
			fits(run.name, c)
			eval[chromedp.Void](t, ctx, `document.getElementById("numbers").scrollIntoView()`)
			screenshot(t, ctx, fmt.Sprintf("numbers-%s-%d-present-%v", strings.ReplaceAll(run.name, " ", "-"), c.width, c.present))
		}
		if run.query == bigCountsQuery {
			// Its replay counts up to the playhead: tens of thousands in
			// flight, of those finished so far.
			press(t, ctx, "y")
			if err := waitFor(10*time.Second, func() bool { s := state(t, ctx); return s.Replaying && s.Stats["in_flight"] >= 10_000 }); err != nil {
				t.Fatalf("%s: no replay with 10,000 in flight: %+v", run.name, state(t, ctx))
			}
			for _, c := range []size{{800, false}, {1024, true}} {
				fits(run.name+", replayed", c)
			}
			press(t, ctx, "y")
		}
	}
}

// TestNumbersKeepTheirHeight: the numbers are as high before a live run,
// all through it and after it, so the timeline below them stays under the
// presenter's pointer; with a baseline kept too. Each card's line went
// from its description to the run's figures, one line to two and back:
// the numbers were 25 px lower for a moment as a run started, then grew
// back in two steps. Every height the numbers take is recorded (a
// ResizeObserver), not sampled. Against a baseline each card gained its
// line "baseline …" as the run started, and its change as it ended: 188 →
// 251 px at 1280 px, 264 → 404 px at 1024 px in presentation mode; the
// room for it is kept from the moment the baseline is (c).
func TestNumbersKeepTheirHeight(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	for _, c := range []struct {
		width, height int64
		present       bool
	}{{1280, 900, false}, {1024, 768, true}} {
		viewport(t, ctx, c.width, c.height)
		boot(t, ctx, srv.URL+"/?workers=8&jobs=2&rate=4&burst=2")
		presentMode(t, ctx, c.present)
		for _, phase := range []string{"first run", "second run", "against the baseline"} {
			if phase == "against the baseline" {
				press(t, ctx, "c")
			}
			eval[chromedp.Void](t, ctx, afterFrames)
			eval[chromedp.Void](t, ctx, `window.numbersHeights = new Set(); window.numbersSeen = new ResizeObserver(es => { for (const e of es) window.numbersHeights.add(Math.round(e.target.getBoundingClientRect().height)); });
				window.numbersSeen.observe(document.getElementById("numbers"))`)
			runToEnd(t, ctx, 30*time.Second)
			eval[chromedp.Void](t, ctx, afterFrames)
			if hs := eval[[]float64](t, ctx, `window.numbersSeen.disconnect(), [...window.numbersHeights]`); len(hs) != 1 {
				t.Errorf("%d px, presentation mode %v, %s: the numbers were %v px high before, during and after the run: want one height",
					c.width, c.present, phase, hs)
			}
		}
		screenshot(t, ctx, fmt.Sprintf("numbers-height-%d-present-%v", c.width, c.present))
	}
}

// TestLegendLeavesTheAxis: the legend sticks at the screen's top while the
// timeline is read, and scrolls away with the timeline before it reaches
// the time axis under the last panel: scrolled on towards the settings
// (below the timeline in presentation mode, and in a window under 960 px),
// the legend stayed stuck over the axis' labels, then over the zoom bar
// and the exports (found by the page review). At every scroll position
// from the server panel's top to the timeline's end, the axis' labels,
// the zoom bar and the export buttons are what shows where they are, not
// the legend, nor the sticky axis stuck under it.
func TestLegendLeavesTheAxis(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	for _, c := range []struct {
		w, h    int64
		present bool
	}{{1280, 720, true}, {900, 800, false}} {
		viewport(t, ctx, c.w, c.h)
		boot(t, ctx, srv.URL+"/")
		presentMode(t, ctx, c.present)
		click(t, ctx, "simulate")
		simulatedToEnd(t, ctx)
		scale := eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).scale`) // the canvas's (theme.scale)
		if scale < 1 {
			t.Fatalf("debug() says the canvas's scale is %v", scale)
		}
		type cover struct {
			Bottom float64  // the canvas's, in the viewport
			Legend float64  // the legend's bottom
			Over   []string // what covers each row checked, where the legend does
		}
		// The rows checked: the bottom axis' labels (18 px × scale above
		// the canvas's end: paint.go, bottomAxisY), the zoom bar's, the
		// export buttons'; at a quarter, half and three quarters of the width.
		js := fmt.Sprintf(`((below) => {
			const c = document.getElementById("timeline"), g = document.getElementById("legend");
			c.scrollIntoView({block: "start"});
			scrollBy(0, c.getBoundingClientRect().height - below);
			const r = c.getBoundingClientRect(), over = [];
			const rows = [["axis", r.bottom - 18 * %g], ["zoom bar", document.getElementById("zoombar").getBoundingClientRect().top + 12],
				["exports", document.getElementById("export-json").getBoundingClientRect().top + 8]];
			for (const [name, y] of rows) {
				if (y < 0 || y >= innerHeight) continue;
				for (const f of [0.25, 0.5, 0.75]) {
					const e = document.elementFromPoint(r.left + f * r.width, y);
					if (e && e.closest("#legend, #timeline-axis")) { over.push(e.closest("[id]").id + " over the " + name + " at " + Math.round(y) + " px"); break; }
				}
			}
			return {Bottom: r.bottom, Legend: g.getBoundingClientRect().bottom, Over: over};
		})`, scale)
		// below: how far below the screen's top the canvas ends, from
		// under the server panel's top to past the screen's top.
		for below := 140 * scale; below >= -20; below -= 4 {
			got := eval[cover](t, ctx, js+"("+strconv.FormatFloat(below, 'f', 1, 64)+")")
			if len(got.Over) > 0 {
				t.Errorf("%d × %d (presentation %v), the timeline ending %.0f px down the screen (the legend down to %.0f px): %s",
					c.w, c.h, c.present, got.Bottom, got.Legend, strings.Join(got.Over, ", "))
				screenshot(t, ctx, fmt.Sprintf("legend-over-axis-%dx%d", c.w, c.h))
				break
			}
		}
	}
}

// TestReadmeScreenshot takes the README's picture, as a person sees the
// page at 1400 × 1400 after running the full-jitter step: it lands in
// tests/out/readme-screenshot.png, which is copied to
// web/readme/screenshot.png when the page changes.
func TestReadmeScreenshot(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1400, 1400)
	boot(t, ctx, srv.URL+"/")
	click(t, ctx, "preset-full-jitter")
	time.Sleep(5 * time.Second) // as a person reads the step's caption first (the page rehearses meanwhile)
	if st := runToEnd(t, ctx, 60*time.Second); st.Stats["successes"] != 100 || st.Preset != "full-jitter" {
		t.Fatalf("the full-jitter step ran %v of 100 jobs to success, preset %q", st.Stats["successes"], st.Preset)
	}
	eval[chromedp.Void](t, ctx, `scrollTo(0, 0)`)
	eval[chromedp.Void](t, ctx, afterFrames)
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()) // the viewport, not the whole page
	if err != nil {
		t.Fatal(err)
	}
	saveShot(t, "readme-screenshot", buf)
}
