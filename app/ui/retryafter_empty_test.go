package ui

import (
	"net/http"
	"strings"
	"testing"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
	"retrylab/core/sim"
)

// TestDescribeEmptyRetryAfter: a 429 whose Retry-After was sent with an
// empty value (the mock's malformed=empty) says so in its tooltip, live
// (fetch's header lines), simulated (core/sim's Header) and native
// (net/http), with the loop's note on the fallback; one sent with no
// Retry-After at all has no Retry-After line.
func TestDescribeEmptyRetryAfter(t *testing.T) {
	const note = `retry-after "": empty (want delay-seconds or an HTTP-date); fell back to backoff`
	for _, c := range []struct {
		name string
		hdr  core.Header
		want string // the Retry-After line, "" for none
	}{
		{"live", browser.Header("retry-after: \ncontent-type: application/json\n"), `Retry-After: "" (sent empty)`},
		{"simulated", &sim.Header{RetryAfterEmpty: true}, `Retry-After: "" (sent empty)`},
		{"native", http.Header{"Retry-After": {""}}, `Retry-After: "" (sent empty)`},
		{"a value", browser.Header("retry-after: soon\n"), "Retry-After: soon"},
		{"none sent", browser.Header("content-type: application/json\n"), ""},
		{"no headers", nil, ""},
	} {
		m := newModel(t0, 1)
		for _, r := range []fleet.Record{
			{Event: core.Event{Kind: core.EventAttempt, At: at(0), Attempt: 1}},
			{Event: core.Event{Kind: core.EventOutcome, At: at(50), Attempt: 1, Outcome: core.Outcome{Status: 429, Header: c.hdr}}},
			{Event: core.Event{Kind: core.EventWait, At: at(50), Attempt: 2, Wait: 92400 * 1000, Reason: core.ReasonBackoff, Note: note}},
		} {
			m.add(&r)
		}
		text := strings.Join(describe(&m.marks[0], shown{}).Lines, "\n")
		if got := strings.Contains(text, "Retry-After:"); c.want == "" && got {
			t.Errorf("%s: a Retry-After line, none was sent:\n%s", c.name, text)
		}
		if c.want != "" && !strings.Contains(text, c.want+"\n") {
			t.Errorf("%s: tooltip lacks %q:\n%s", c.name, c.want, text)
		}
		if !strings.Contains(text, `then waited 92.4 ms: backoff (retry-after "": empty`) {
			t.Errorf("%s: tooltip lacks the fallback note:\n%s", c.name, text)
		}
	}
}
