//go:build e2e

package tests

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStatusCountsUnreadRetryAfter: the mock sends Retry-After values the
// loop cannot read ("0.5", malformed=decimal). A live run's status says
// how many waits fell back to backoff because of it, with one such value,
// and that count is the JSON export's: its waits whose note names the
// unreadable Retry-After. Only the notes said it; the status said
// "Finished: 10 of 10 jobs succeeded", as of a run whose server sent none.
func TestStatusCountsUnreadRetryAfter(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?ra_honour=on&retry_after=malformed&malformed=decimal&workers=5&jobs=2&rate=2&burst=2&latency=20ms&seed=1")
	dir := allowDownloads(t, ctx)
	runToEnd(t, ctx, 60*time.Second)
	status := eval[string](t, ctx, `document.getElementById("run-status").textContent`)
	t.Logf("status: %s", status)
	m := regexp.MustCompile(`(\d+) waits? fell back to backoff because the server's Retry-After could not be read; one was "(\d+\.\d)": fractional seconds not allowed\.`).FindStringSubmatch(status)
	if m == nil {
		t.Fatalf("the run's status does not say that waits fell back for an unreadable Retry-After: %q", status)
	}
	name, data := download(t, ctx, dir, "export-json", ".json")
	var doc struct{ Events []map[string]any }
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	notes, example := 0, false
	for _, e := range doc.Events {
		if n, _ := e["note"].(string); e["kind"] == "wait" && strings.HasPrefix(n, `retry-after "`) && strings.HasSuffix(n, "; fell back to backoff") {
			notes++
			example = example || strings.HasPrefix(n, `retry-after "`+m[2]+`": fractional seconds not allowed`)
		}
	}
	if said, _ := strconv.Atoi(m[1]); notes == 0 || said != notes || !example {
		t.Errorf("the status says %s waits fell back (e.g. %q); %s has %d such waits (the example among them: %v)", m[1], m[2], name, notes, example)
	}
}
