//go:build e2e

package tests

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestJobsInTotal: jobs counted in total, set in the form as a person
// would (Workers and Jobs typed, "in total" chosen beside Jobs), and run
// live against the real server: 7 jobs over 3 workers are 7 jobs counted
// and said ("7 of 7 jobs succeeded"), and the export shows them dealt
// 3, 2, 2 over the workers' lanes; the link keeps jobs_of=fleet. A total
// past what the workers may run (1000 each) gets its message beside Jobs,
// with the range, and Run is disabled until it is fixed.
func TestJobsInTotal(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?latency=10ms&rate=100&burst=100&seed=3")
	typeInto(t, ctx, "workers", "3")
	typeInto(t, ctx, "jobs", "7")
	choose(t, ctx, "jobs_of", "fleet")
	search := func() string { return eval[string](t, ctx, `location.search`) }
	if err := waitFor(3*time.Second, func() bool {
		return strings.Contains(search(), "workers=3&jobs=7&jobs_of=fleet&")
	}); err != nil {
		t.Fatalf("the link does not say 7 jobs in total over 3 workers: %s", search())
	}

	st := runToEnd(t, ctx, 30*time.Second)
	if st.Stats["jobs"] != 7 || st.Stats["successes"] != 7 || st.Stats["requests"] != 7 {
		t.Errorf("3 workers, 7 jobs in total: %v jobs, %v succeeded, %v requests; want 7 each", st.Stats["jobs"], st.Stats["successes"], st.Stats["requests"])
	}
	if status := eval[string](t, ctx, `document.getElementById("run-status").textContent`); !strings.Contains(status, "7 of 7 jobs succeeded") {
		t.Errorf("the run's status: %q, want 7 of 7 jobs succeeded", status)
	}
	dir := allowDownloads(t, ctx)
	name, data := download(t, ctx, dir, "export-json", ".json")
	var doc struct {
		Scenario map[string]any   `json:"scenario"`
		Events   []map[string]any `json:"events"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	lanes := make([]int, 3) // jobs ended, by worker
	for _, e := range doc.Events {
		if w, ok := e["worker"].(float64); ok && e["kind"] == "done" && int(w) < len(lanes) {
			lanes[int(w)]++
		}
	}
	if !slices.Equal(lanes, []int{3, 2, 2}) || doc.Scenario["jobs_of"] != "fleet" || doc.Scenario["jobs"] != "7" {
		t.Errorf("%s: jobs per worker %v, scenario jobs %v of %v; want 3, 2, 2 of 7 in total (fleet)", name, lanes, doc.Scenario["jobs"], doc.Scenario["jobs_of"])
	}

	// 1000 a worker at most: 3001 in total is refused beside Jobs, 3000 taken.
	typeInto(t, ctx, "jobs", "3001")
	const msg = `(document.getElementById("err-jobs") || {}).textContent || ""`
	want := `Jobs "3001": must be an integer between 1 and 3000 in total`
	if err := waitFor(3*time.Second, func() bool { return strings.HasPrefix(eval[string](t, ctx, msg), want) }); err != nil {
		t.Errorf("3001 in total over 3 workers: message %q, want %q…", eval[string](t, ctx, msg), want)
	}
	if st := state(t, ctx); st.Invalid != 1 || !eval[bool](t, ctx, `document.getElementById("run").disabled`) {
		t.Errorf("3001 in total: %d fields invalid, Run disabled %v; want 1, disabled", st.Invalid, eval[bool](t, ctx, `document.getElementById("run").disabled`))
	}
	typeInto(t, ctx, "jobs", "3000")
	if err := waitFor(3*time.Second, func() bool { return eval[string](t, ctx, msg) == "" && state(t, ctx).Invalid == 0 }); err != nil {
		t.Errorf("3000 in total over 3 workers: message %q, want none", eval[string](t, ctx, msg))
	}
}
