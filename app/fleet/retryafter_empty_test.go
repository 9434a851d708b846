//go:build !(js && wasm)

package fleet

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// exportedOutcomes reads rec's JSON export back: its 429 outcomes, each
// as a map (to tell a key left out from one present with ""), and the
// notes of its waits.
func exportedOutcomes(t *testing.T, rec *Recording) (limited []map[string]any, notes []string) {
	t.Helper()
	var buf bytes.Buffer
	if err := rec.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Events []map[string]any }
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range doc.Events {
		switch e["kind"] {
		case "outcome":
			if e["status"] == 429.0 {
				limited = append(limited, e)
			}
		case "wait":
			n, _ := e["note"].(string)
			notes = append(notes, n)
		}
	}
	if len(limited) == 0 || len(notes) == 0 {
		t.Fatalf("%d 429s and %d waits: the scenario was to be limited", len(limited), len(notes))
	}
	return limited, notes
}

// checkEmptyRetryAfter: every 429 of a run against malformed=empty exports
// retry_after "" (sent empty), not a key left out (not sent), and every
// wait, Retry-After being honoured, notes it invalid and falls back to the
// backoff, as for the other malformed kinds. The CSV's cell is empty.
func checkEmptyRetryAfter(t *testing.T, rec *Recording) {
	t.Helper()
	limited, notes := exportedOutcomes(t, rec)
	for _, e := range limited {
		if v, ok := e["retry_after"]; !ok || v != "" {
			t.Fatalf("429 outcome %v: retry_after %q (present %v), want \"\" present", e, v, ok)
		}
	}
	const want = `retry-after "": empty (want delay-seconds or an HTTP-date); fell back to backoff`
	for _, n := range notes {
		if n != want {
			t.Fatalf("wait note %q, want %q", n, want)
		}
	}
	rows := csvRows(t, rec)
	col := -1
	for i, c := range rows[0] {
		if c == "retry_after" {
			col = i
		}
	}
	for _, r := range rows[1:] {
		if r[col] != "" {
			t.Fatalf("CSV row %q: retry_after %q, want an empty cell", r, r[col])
		}
	}
}

var emptyRetryAfter = []string{"workers", "5", "jobs", "2", "ra_honour", "on", "retry_after", "malformed", "malformed", "empty",
	"strategy", "full", "base", "20ms", "cap", "200ms", "attempts", "30", "rate", "20", "burst", "2", "latency", "1ms"}

func TestEmptyRetryAfterSimulated(t *testing.T) {
	checkEmptyRetryAfter(t, Simulate(simScenario(t, emptyRetryAfter...)))
}

func TestEmptyRetryAfterLive(t *testing.T) {
	srv, _ := mockServer(t)
	s := scenario(t, emptyRetryAfter...)
	checkEmptyRetryAfter(t, runLive(t, srv, s, "empty-ra"))
}

// Retry-After not sent at all: no retry_after key, no note.
func TestNoRetryAfterIsNotEmpty(t *testing.T) {
	kv := append(append([]string(nil), emptyRetryAfter...), "retry_after", "none")
	rec := Simulate(simScenario(t, kv...))
	limited, notes := exportedOutcomes(t, rec)
	for _, e := range limited {
		if v, ok := e["retry_after"]; ok {
			t.Fatalf("429 outcome %v: retry_after %q present, none was sent", e, v)
		}
	}
	for _, n := range notes {
		if strings.Contains(n, "retry-after") {
			t.Fatalf("wait note %q: no Retry-After was sent", n)
		}
	}
}
