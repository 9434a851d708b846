//go:build e2e

package tests

import (
	"regexp"
	"strconv"
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
