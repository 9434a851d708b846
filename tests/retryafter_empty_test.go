//go:build e2e

package tests

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
)

// TestRetryAfterEmpty: the mock sends "Retry-After: " with no value
// (malformed=empty). Live (fetch) and simulated, a 429's tooltip says the
// header came empty and that the loop fell back to the backoff because of
// it, as it says of every other malformed kind, and the JSON export has
// retry_after "" on every 429 (not the key left out, which is "none
// sent"). The review found the tooltip and the export saying nothing, as
// if no Retry-After had been sent.
func TestRetryAfterEmpty(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?ra_honour=on&retry_after=malformed&malformed=empty&workers=5&jobs=2&rate=2&burst=2&latency=20ms&seed=1")
	dir := allowDownloads(t, ctx)
	check := func(how string) {
		t.Helper()
		if err := waitFor(10*time.Second, func() bool {
			return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).drawn_ms`) > 0
		}); err != nil {
			t.Fatalf("%s: not drawn: %v", how, err)
		}
		tip := firstTipSaying(t, ctx, "429 Too Many Requests")
		for _, want := range []string{`Retry-After: "" (sent empty)`, `backoff (retry-after "": empty`, "fell back to backoff"} {
			if !strings.Contains(tip.Text, want) {
				t.Errorf("%s: the 429's tooltip lacks %q:\n%s", how, want, tip.Text)
			}
		}
		for _, e := range mustReadDir(t, dir) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
		name, data := download(t, ctx, dir, "export-json", ".json")
		var doc struct{ Events []map[string]any }
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %s is not JSON: %v", how, name, err)
		}
		limited, notes := 0, 0
		for _, e := range doc.Events {
			switch {
			case e["kind"] == "outcome" && e["status"] == 429.0:
				limited++
				if v, ok := e["retry_after"]; !ok || v != "" {
					t.Fatalf("%s: %s: a 429 with retry_after %v (present %v), want \"\": %v", how, name, v, ok, e)
				}
			case e["kind"] == "wait":
				if n, _ := e["note"].(string); strings.HasPrefix(n, `retry-after "": empty`) {
					notes++
				}
			}
		}
		if limited == 0 || notes == 0 {
			t.Errorf("%s: %s: %d 429s, %d waits noting the empty Retry-After", how, name, limited, notes)
		}
	}
	runToEnd(t, ctx, 60*time.Second)
	check("live")
	click(t, ctx, "simulate")
	simulatedToEnd(t, ctx)
	check("simulated")
}

// firstTipSaying walks the timeline's attempts with the keyboard (lane by
// lane, left to right) to the first whose tooltip says want and returns
// its tooltip.
func firstTipSaying(t *testing.T, ctx context.Context, want string) tipBox {
	t.Helper()
	eval[bool](t, ctx, `(() => { document.getElementById("timeline").focus({preventScroll: true}); return true; })()`)
	keyOnFocus(t, ctx, kb.Escape)
	keyOnFocus(t, ctx, kb.ArrowRight)
	prev := changedTip(t, ctx, tipBox{})
	for range 80 {
		if strings.Contains(prev.Text, want) {
			return prev
		}
		keyOnFocus(t, ctx, kb.ArrowRight)
		b := changedTip(t, ctx, prev)
		if b.Title == prev.Title { // the lane's last attempt: the next lane
			keyOnFocus(t, ctx, kb.ArrowDown)
			keyOnFocus(t, ctx, kb.Home)
			if b = changedTip(t, ctx, prev); b.Title == prev.Title {
				break
			}
		}
		prev = b
	}
	t.Fatalf("no attempt's tooltip says %q (walked with the keyboard); last tooltip:\n%s", want, prev.Text)
	return prev
}
