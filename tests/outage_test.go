//go:build e2e

package tests

import (
	"fmt"
	"math"
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
	boot(t, ctx, srv.URL+"/?workers=20&jobs=6&limiter=none&latency=50ms&strategy=full&base=200ms&cap=2s&attempts=20&ra_honour=on&room="+room)
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
	var outage mockEvent
	var arrivals []mockEvent
	for drained := false; !drained; {
		select {
		case ev := <-s.ch:
			switch ev.Type {
			case "outage":
				outage = ev
			case "arrival":
				arrivals = append(arrivals, ev)
			}
		case <-time.After(500 * time.Millisecond):
			drained = true
		}
	}
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
	type dbg struct {
		Outages [][2]float64 `json:"outages"`
	}
	d := eval[dbg](t, ctx, `JSON.parse(window.retrylab.debug())`)
	if len(d.Outages) != 1 || math.Abs(d.Outages[0][1]-d.Outages[0][0]-3000) > 0.01 {
		t.Errorf("outages on the timeline: %v, want one of 3000 ms", d.Outages)
	}
	screenshot(t, ctx, "outage")
}
