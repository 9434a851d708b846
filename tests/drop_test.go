//go:build e2e

package tests

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDroppedAttemptSentAgain: the mock drops an attempt on a reused
// keep-alive connection; Chromium sends the GET again on another
// connection before fetch() fails, and with seed the mock drops that too,
// so the server panel shows one attempt arriving several times. The
// attempt's tooltip says how many times the server received it and why,
// rather than leaving more arrivals than attempts unexplained.
func TestDroppedAttemptSentAgain(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=3&jobs=4&drop=30&seed=2&latency=20ms&strategy=constant&base=50ms&max_attempts=6")
	runToEnd(t, ctx, 60*time.Second)
	if err := waitFor(10*time.Second, func() bool {
		return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).drawn_ms`) > 0
	}); err != nil {
		t.Fatalf("not drawn: %v", err)
	}
	tip := firstTipSaying(t, ctx, "the server received it")
	m := regexp.MustCompile(`the server received it (\d+) times: its connection closed with no answer, and the client sent it again on another`).FindStringSubmatch(tip.Text)
	if m == nil {
		t.Fatalf("the tooltip of an attempt sent again:\n%s", tip.Text)
	}
	if n, _ := strconv.Atoi(m[1]); n < 2 {
		t.Errorf("received %d times", n)
	}
	t.Logf("%s\n%s", tip.Title, tip.Text)
}

// TestRequestsCardCountsWhatWasSentAgain: the requests' card counts each
// attempt once, and says how many more the server received, sent again by
// the browser after a drop: the server's own stream is the measure. A
// review counted 361 arrivals against 343 requests, and no number said so.
func TestRequestsCardCountsWhatWasSentAgain(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-again-%d", time.Now().UnixNano())
	events := subscribe(t, srv, room)
	boot(t, ctx, srv.URL+"/?room="+room+"&workers=3&jobs=4&drop=30&seed=2&latency=20ms&strategy=constant&base=50ms&max_attempts=6&limiter=none")
	st := runToEnd(t, ctx, 60*time.Second)
	requests := int(st.Stats["requests"])
	arrivals, _ := fleetArrivals(events.until(float64(requests), ""), "")
	again := arrivals - requests
	if again <= 0 {
		t.Fatalf("%d arrivals at the server for %d requests: nothing sent again, the test shows nothing", arrivals, requests)
	}
	want := fmt.Sprintf("+%d sent again", again)
	var line string
	if err := waitFor(5*time.Second, func() bool {
		line = strings.Join(strings.Fields(eval[string](t, ctx, `document.querySelector('[data-stat="requests"] .sub').textContent`)), " ")
		return strings.Contains(line, want)
	}); err != nil {
		t.Errorf("%d requests, %d arrivals at the server: the requests' card says %q, want %q in it", requests, arrivals, line, want)
	}
	if tip := eval[string](t, ctx, `document.querySelector('[data-stat="requests"] .sub').title`); !strings.Contains(tip, fmt.Sprintf("The server received %d more than these", again)) {
		t.Errorf("the requests' card's tooltip %q does not say how many more the server received", tip)
	}
}

// TestRoomKnowsItsUnansweredAttempts: in a shared room the page's
// attempts that got no answer (timed out here) are known by their tag,
// the page's device name in front: the export gives each its arrival
// number (the server panel draws them as the page's, not as another
// client's, by the same match). Every one was drawn grey and exported
// without server_seq.
func TestRoomKnowsItsUnansweredAttempts(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-tmo-%d", time.Now().UnixNano())
	boot(t, ctx, srv.URL+"/?room="+room+"&workers=5&jobs=1&latency=400ms&timeout=150ms&attempts=2&limiter=none")
	dir := allowDownloads(t, ctx)
	st := runToEnd(t, ctx, 30*time.Second)
	if st.Stats["timeouts"] != 10 {
		t.Fatalf("%v timeouts, want every one of the 10 attempts", st.Stats["timeouts"])
	}
	var doc struct{ Events []map[string]any }
	unknown, outcomes := 0, 0
	if err := waitFor(5*time.Second, func() bool {
		_, data := download(t, ctx, dir, "export-json", ".json")
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("the export is not JSON: %v", err)
		}
		unknown, outcomes = 0, 0
		for _, e := range doc.Events {
			if e["kind"] != "outcome" {
				continue
			}
			outcomes++
			if _, ok := e["server_seq"]; !ok {
				unknown++
			}
		}
		return unknown == 0 && outcomes == 10
	}); err != nil {
		t.Errorf("%d of the %d timed-out attempts exported without server_seq (want 10 outcomes, each with it)", unknown, outcomes)
	}
}
