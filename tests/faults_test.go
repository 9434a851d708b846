//go:build e2e

package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOutageDuringRun: during a live run a person presses o. The server
// answers every request of the run 503 for 3 s — its own stream says so —
// and then serves again; the page counts the 503s and shades the stretch
// on the timeline from the server's message.
func TestOutageDuringRun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-outage-%d", time.Now().UnixNano())
	// No limit, so every 503 is the outage's; Retry-After honoured.
	boot(t, ctx, srv.URL+"/?workers=20&jobs=30&limiter=none&latency=50ms&strategy=full&base=200ms&cap=2s&attempts=20&ra_honour=on&room="+room) // ~1.5 s before the outage: o lands during the run
	if !eval[bool](t, ctx, `document.getElementById("outage").disabled`) {
		t.Error("Outage offered before a run")
	}
	s := subscribe(t, srv, room)
	click(t, ctx, "run")
	if err := waitFor(10*time.Second, func() bool { st := state(t, ctx); return st.Running && st.Stats["requests"] >= 20 }); err != nil {
		t.Fatalf("the run did not start: %+v", state(t, ctx))
	}
	press(t, ctx, "o")
	// While the run goes on, the histogram (repainted at every frame) is
	// shaded too.
	outageShade := histPixels([3]int{0xfb, 0xe4, 0xde})
	if err := waitFor(3*time.Second, func() bool { return state(t, ctx).Running && eval[int](t, ctx, outageShade) > 200 }); err != nil {
		t.Errorf("no outage shading in the histogram during the run: %d pixels", eval[int](t, ctx, outageShade))
	}
	var st pageState
	if err := waitFor(60*time.Second, func() bool { st = state(t, ctx); return st.Runs > 0 && !st.Running }); err != nil {
		t.Fatalf("the run did not finish: %+v", st)
	}

	// What the server did, from its own stream.
	outage, arrivals := s.faultAndArrivals(st.Stats["requests"], "outage")
	if outage.Type == "" || outage.Until.Sub(outage.At) != 3*time.Second {
		t.Fatalf("no 3 s outage on the stream: %+v", outage)
	}
	var during, after, wrong int
	for _, a := range arrivals {
		in := !a.At.Before(outage.At) && a.At.Before(outage.Until)
		switch {
		case in && a.Status == 503 && a.Outcome == "outage":
			during++
		case in:
			wrong++
		case a.At.After(outage.Until) && a.Status == 200:
			after++
		}
	}
	t.Logf("outage %v–%v: %d requests answered 503 during it, %d other answers during it, %d 200s after", outage.At.Format("15:04:05.000"), outage.Until.Format("15:04:05.000"), during, wrong, after)
	if during == 0 || wrong != 0 || after == 0 {
		t.Errorf("during the outage %d requests got its 503 and %d something else; %d got 200 after it", during, wrong, after)
	}
	// The page counted them, and drew the stretch the server reported.
	if got := int(st.Stats["limited"]); got != during {
		t.Errorf("the page counted %d 429/503s, the server answered %d during the outage", got, during)
	}
	d := debugOf(t, ctx)
	if len(d.Outages) != 1 || math.Abs(d.Outages[0][1]-d.Outages[0][0]-3000) > 0.01 {
		t.Errorf("outages on the timeline: %v, want one of 3000 ms", d.Outages)
	}
	screenshot(t, ctx, "outage")
}

// TestHalveLimitDuringRun: during a live run against a 20 req/s bucket of
// 20 a person presses h. For 5 s the server admits half as many — its own
// stream says so, with the scale — and its answers tell the halved limit;
// then it serves 20 req/s again. The page steps the histogram's limit line
// down over the stretch the server reported.
func TestHalveLimitDuringRun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-halve-%d", time.Now().UnixNano())
	boot(t, ctx, srv.URL+"/?workers=40&jobs=12&limiter=bucket&rate=20&burst=20&latency=50ms&strategy=full&base=200ms&cap=1s&attempts=50&ra_honour=on&room="+room)
	if !eval[bool](t, ctx, `document.getElementById("halve-limit").disabled`) {
		t.Error("Halve limit offered before a run")
	}
	s := subscribe(t, srv, room)
	click(t, ctx, "run")
	if err := waitFor(10*time.Second, func() bool { st := state(t, ctx); return st.Running && st.Stats["requests"] >= 60 }); err != nil {
		t.Fatalf("the run did not get going: %+v", state(t, ctx))
	}
	press(t, ctx, "h")
	shade := histPixels([3]int{0xe3, 0xe9, 0xf4})
	if err := waitFor(3*time.Second, func() bool { return state(t, ctx).Running && eval[int](t, ctx, shade) > 200 }); err != nil {
		t.Errorf("no shading of the halved limit in the histogram during the run: %d pixels", eval[int](t, ctx, shade))
	}
	var st pageState
	if err := waitFor(90*time.Second, func() bool { st = state(t, ctx); return st.Runs > 0 && !st.Running }); err != nil {
		t.Fatalf("the run did not finish: %+v", st)
	}

	limit, arrivals := s.faultAndArrivals(st.Stats["requests"], "limit")
	if limit.Type == "" || limit.Until.Sub(limit.At) != 5*time.Second || limit.Scale != 0.5 {
		t.Fatalf("no 5 s halving on the stream: %+v", limit)
	}
	// A bucket of 10 at 10/s admits at most the 10 tokens it carried in
	// plus 10 a second over the 5 s stretch, 60, where the full bucket
	// (20 at 20/s) would have let up to 120 through; no second more than
	// 10 + 10. Every answer during the stretch tells the halved quota.
	perSec := map[int]int{}
	var wrongLimit, before, total int
	for _, a := range arrivals {
		in := !a.At.Before(limit.At) && a.At.Before(limit.Until)
		if in && a.Limit != 10 {
			wrongLimit++
		}
		if a.Allowed && in {
			perSec[int(a.At.Sub(limit.At)/time.Second)]++
			total++
		}
		if a.Allowed && a.At.Before(limit.At) && a.At.After(limit.At.Add(-time.Second)) {
			before++
		}
	}
	t.Logf("halved %v–%v: admitted %d in the stretch, per second %v; in the second before it %d", limit.At.Format("15:04:05.000"), limit.Until.Format("15:04:05.000"), total, perSec, before)
	if total > 61 || total < 20 {
		t.Errorf("the halved stretch admitted %d, want at most 10 carried + 10/s × 5 s (+1 at a boundary), and the service going on", total)
	}
	for sec, n := range perSec {
		if n > 20 {
			t.Errorf("second %d of the halved stretch admitted %d, want at most 10 + 10", sec, n)
		}
	}
	if wrongLimit > 0 || before < 15 {
		t.Errorf("%d answers during the stretch told another limit than 10; %d admitted in the second before (want the full ~20)", wrongLimit, before)
	}
	d := debugOf(t, ctx)
	if len(d.Limits) != 1 || math.Abs(d.Limits[0][1]-d.Limits[0][0]-5000) > 0.01 || d.Limits[0][2] != 0.5 {
		t.Errorf("scaled limits on the timeline: %v, want one of 5000 ms at 0.5", d.Limits)
	}
	screenshot(t, ctx, "halve-limit")
}

// TestBurstDuringRun: during a live run against a bucket of 10 a person
// presses b. Another client's 20 requests reach the server at once — its
// stream shows them tagged "burst" — and take from the same limit: at most
// the bucket's 10 are admitted. The page says how many were, draws them in
// grey, marks the burst on the timeline, and counts only its own requests.
func TestBurstDuringRun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-burst-%d", time.Now().UnixNano())
	boot(t, ctx, srv.URL+"/?workers=10&jobs=8&limiter=bucket&rate=10&burst=10&latency=50ms&strategy=full&base=200ms&cap=1s&attempts=50&ra_honour=on&room="+room)
	if !eval[bool](t, ctx, `document.getElementById("burst").disabled`) {
		t.Error("Burst offered before a run")
	}
	if label := eval[string](t, ctx, `document.getElementById("burst").textContent`); !strings.Contains(label, "Burst ×20") {
		t.Errorf("burst button %q, want it to say ×20 (twice the bucket's 10)", label)
	}
	s := subscribe(t, srv, room)
	click(t, ctx, "run")
	if err := waitFor(10*time.Second, func() bool { st := state(t, ctx); return st.Running && st.Stats["requests"] >= 20 }); err != nil {
		t.Fatalf("the run did not get going: %+v", state(t, ctx))
	}
	press(t, ctx, "b")
	var toast string
	if err := waitFor(3*time.Second, func() bool {
		toast = toastText(t, ctx)
		return strings.HasPrefix(toast, "Another client sent 20 requests at once")
	}); err != nil {
		t.Errorf("no word of the burst: %q", toast)
	}
	var st pageState
	if err := waitFor(90*time.Second, func() bool { st = state(t, ctx); return st.Runs > 0 && !st.Running }); err != nil {
		t.Fatalf("the run did not finish: %+v", st)
	}

	var burst, ours []mockEvent
	for _, ev := range s.until(st.Stats["requests"], "") {
		if ev.Type != "arrival" {
			continue
		}
		if ev.Tag == "burst" {
			burst = append(burst, ev)
		} else {
			ours = append(ours, ev)
		}
	}
	allowed := 0
	for _, a := range burst {
		if a.Allowed {
			allowed++
		}
		if !a.At.Equal(burst[0].At) {
			t.Errorf("burst arrivals at %v and %v: want one instant", burst[0].At, a.At)
			break
		}
	}
	t.Logf("burst: %d arrivals, %d admitted; the fleet's arrivals %d, its requests %v", len(burst), allowed, len(ours), st.Stats["requests"])
	if len(burst) != 20 || allowed > 10 {
		t.Errorf("the server saw %d burst arrivals (%d admitted), want 20 with at most the bucket's 10 admitted", len(burst), allowed)
	}
	if int(st.Stats["requests"]) != len(ours) {
		t.Errorf("the page counted %v requests, the server received %d of the fleet's", st.Stats["requests"], len(ours))
	}
	// The timeline marks the burst the server told of, with its numbers.
	if d := debugOf(t, ctx); len(d.Bursts) != 1 || d.Bursts[0][1] != 20 || int(d.Bursts[0][2]) != allowed {
		t.Errorf("bursts on the timeline: %v, want one of 20 with %d admitted", d.Bursts, allowed)
	}
	screenshot(t, ctx, "burst")
}

// TestScheduledOutage: the configuration holds an outage (outage=2s,
// outage_at=1s). Simulated, the virtual server is down then, and the
// timeline shows the stretch; run live, the page takes the mock down at
// that time after Run, the server's stream tells of it, and the page
// counts the 503s it answered. Both ways a fleet that honours Retry-After
// sends nothing while the server said to wait.
func TestScheduledOutage(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-scheduled-%d", time.Now().UnixNano())
	query := "workers=20&jobs=60&limiter=none&latency=50ms&strategy=constant&base=200ms&attempts=30&ra_honour=on&outage=2s&outage_at=1s&room=" + room
	boot(t, ctx, srv.URL+"/?"+query)
	// Simulated.
	press(t, ctx, "m")
	var st pageState
	if err := waitFor(10*time.Second, func() bool { st = state(t, ctx); return st.Simulated && !st.Running }); err != nil {
		t.Fatalf("no simulation: %+v", st)
	}
	if d := debugOf(t, ctx); len(d.Outages) != 1 || d.Outages[0] != [2]float64{1000, 3000} {
		t.Errorf("simulated outages on the timeline: %v, want [1000 3000]", d.Outages)
	}
	if st.Stats["limited"] < 20 {
		t.Errorf("simulated: %v 503s, want every worker's attempt in the outage", st.Stats["limited"])
	}
	simulated := st.Stats["limited"]

	// Live.
	s := subscribe(t, srv, room)
	st = runToEnd(t, ctx, 60*time.Second)
	var outage mockEvent
	var during int
	for _, ev := range s.until(st.Stats["requests"], "outage") {
		switch {
		case ev.Type == "outage":
			outage = ev
		case ev.Type == "arrival" && ev.Outcome == "outage":
			during++
		}
	}
	if outage.Type == "" || outage.Until.Sub(outage.At) != 2*time.Second {
		t.Fatalf("no 2 s outage on the stream: %+v", outage)
	}
	d := debugOf(t, ctx)
	// The page asks for it at 1 s (measured 1,027 ms); a loaded machine
	// may run the timer late, not early, and within the run.
	if len(d.Outages) != 1 || d.Outages[0][0] < 1000 || d.Outages[0][0] > st.Stats["drain_ms"] || math.Abs(d.Outages[0][1]-d.Outages[0][0]-2000) > 0.01 {
		t.Errorf("live outages on the timeline: %v, want one of 2000 ms from 1000 ms (or later, within the run's %v ms)", d.Outages, st.Stats["drain_ms"])
	}
	if got := int(st.Stats["limited"]); got != during || during < 20 {
		t.Errorf("the page counted %d 503s, the server answered %d in the outage (want at least one per worker)", got, during)
	}
	// Honouring Retry-After (the seconds left, rounded up), a worker told
	// to wait sends nothing until the server is back: about one 503 per
	// worker, where its 200 ms backoff alone would send ten in the 2 s.
	if during > 40 || simulated > 40 {
		t.Errorf("503s in the outage: %d live, %v simulated: a fleet honouring Retry-After sends about one per worker (20), at most 40", during, simulated)
	}
	t.Logf("simulated: %v 503s; live: outage from %.0f ms, %d 503s", simulated, d.Outages[0][0], during)
	screenshot(t, ctx, "scheduled-outage")
}

// TestFaultsInTheExport: during a live run a person presses o, h and b.
// The JSON downloaded after the run tells all three in its faults, at the
// times the timeline drew them (the server's stream's), with the stream's
// lengths, scale and burst numbers. The file said nothing of them: a run
// in which the server was down had the file of one where it was up. The
// timeline's text summary names them too.
func TestFaultsInTheExport(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=10&jobs=8&limiter=bucket&rate=10&burst=10&latency=50ms&strategy=full&base=200ms&cap=1s&attempts=50&ra_honour=on")
	click(t, ctx, "run")
	if err := waitFor(10*time.Second, func() bool { st := state(t, ctx); return st.Running && st.Stats["requests"] >= 20 }); err != nil {
		t.Fatalf("the run did not get going: %+v", state(t, ctx))
	}
	for _, k := range []struct {
		key  string
		seen func(debugState) bool
	}{
		{"o", func(d debugState) bool { return len(d.Outages) == 1 }},
		{"h", func(d debugState) bool { return len(d.Limits) == 1 }},
		{"b", func(d debugState) bool { return len(d.Bursts) == 1 }},
	} {
		press(t, ctx, k.key)
		if err := waitFor(5*time.Second, func() bool { return k.seen(debugOf(t, ctx)) }); err != nil {
			t.Fatalf("%s: not on the timeline: %+v", k.key, debugOf(t, ctx))
		}
	}
	if st := state(t, ctx); !st.Running {
		t.Fatalf("the run was over before the faults were all pressed: %+v", st)
	}
	runDone := func() bool { st := state(t, ctx); return st.Runs > 0 && !st.Running }
	if err := waitFor(90*time.Second, runDone); err != nil {
		t.Fatalf("the run did not finish: %+v", state(t, ctx))
	}
	d := debugOf(t, ctx)
	us := exportedMS
	want := []map[string]any{
		{"kind": "outage", "from_ms": us(d.Outages[0][0]), "until_ms": us(d.Outages[0][1])},
		{"kind": "limit", "from_ms": us(d.Limits[0][0]), "until_ms": us(d.Limits[0][1]), "scale": d.Limits[0][2]},
		{"kind": "burst", "from_ms": us(d.Bursts[0][0]), "n": d.Bursts[0][1], "admitted": d.Bursts[0][2]},
	}
	if d.Outages[0][1]-d.Outages[0][0] != 3000 || d.Limits[0][1]-d.Limits[0][0] != 5000 || d.Limits[0][2] != 0.5 || d.Bursts[0][1] != 20 {
		t.Errorf("the timeline drew %+v, want an outage of 3 s, a halving of 5 s and a burst of 20", d)
	}
	// A screen reader hears them too, at the times drawn (the summary
	// said nothing of them).
	sec := func(ms float64) string { return strconv.FormatFloat(math.Round(ms/10)/100, 'f', -1, 64) + " s" }
	said := fmt.Sprintf("Faults: the server was down from %s to %s; the limit was halved (limit ×0.5) from %s to %s; a burst of 20 requests at %s, %.0f admitted. ",
		sec(d.Outages[0][0]), sec(d.Outages[0][1]), sec(d.Limits[0][0]), sec(d.Limits[0][1]), sec(d.Bursts[0][0]), d.Bursts[0][2])
	if summary := eval[string](t, ctx, `document.getElementById("timeline-summary").textContent`); !strings.Contains(summary, said) {
		t.Errorf("the timeline's summary does not say %q:\n%s", said, summary)
	}

	dir := allowDownloads(t, ctx)
	name, data := download(t, ctx, dir, "export-json", ".json")
	var doc struct {
		Faults []map[string]any `json:"faults"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	if len(doc.Faults) != 3 {
		t.Fatalf("%s: faults %v, want the outage, the halving and the burst", name, doc.Faults)
	}
	for _, w := range want { // in the order they began: the order pressed
		got := doc.Faults[0]
		doc.Faults = doc.Faults[1:]
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: fault\n got %v\nwant %v (as the timeline drew it)", name, got, w)
		}
	}
}

// TestScheduledOutageThatFailsIsTold: the mock holds at most 10,000 keys
// in an outage at once. With all of them taken by another client, a live
// run's scheduled outage is refused: the run goes on with the server up,
// and once it is over the status says that the outage did not start, and
// why, and the JSON's outage_error says it too. The refusal was flashed for
// a few seconds, then the run said "Finished" as if it had had its outage.
func TestScheduledOutageThatFailsIsTold(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	post := func(key string) int {
		resp, err := client.Post(srv.URL+"/mock/outage?for=1m&key="+key, "", nil)
		if err != nil {
			t.Error(err)
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := g; i < 10_000; i += 8 {
				if code := post(fmt.Sprintf("e2e-other-%d", i)); code != 200 {
					t.Errorf("outage %d: status %d", i, code)
					return
				}
			}
		})
	}
	wg.Wait()
	if code := post("e2e-one-too-many"); code != 503 {
		t.Fatalf("the 10,001st outage: status %d, want 503", code)
	}

	boot(t, ctx, srv.URL+"/?workers=5&jobs=10&limiter=none&latency=50ms&outage=2s&outage_at=300ms")
	st := runToEnd(t, ctx, 60*time.Second)
	if st.Stats["limited"] != 0 {
		t.Errorf("%v requests answered 503: the server went down", st.Stats["limited"])
	}
	said := "The scheduled outage (2 s, 300 ms after the start) did not start, so the server stayed up: POST /mock/outage: the server refused it (503): "
	var status string
	if err := waitFor(5*time.Second, func() bool {
		status = eval[string](t, ctx, `document.getElementById("run-status").textContent`)
		return strings.Contains(strings.ReplaceAll(status, "\u00a0", " "), said) // its figures joined to their units
	}); err != nil {
		t.Errorf("the status %q does not say %q", status, said)
	}

	dir := allowDownloads(t, ctx)
	name, data := download(t, ctx, dir, "export-json", ".json")
	var doc struct {
		OutageError string           `json:"outage_error"`
		Faults      []map[string]any `json:"faults"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	if !strings.HasPrefix(doc.OutageError, "POST /mock/outage: the server refused it (503): ") || len(doc.Faults) != 0 {
		t.Errorf("%s: outage_error %q, faults %v; want the refusal and no outage", name, doc.OutageError, doc.Faults)
	}
	screenshot(t, ctx, "scheduled-outage-refused")
}
