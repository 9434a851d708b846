//go:build !(js && wasm)

package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/human"
)

// A live run whose scheduled outage could not be started says so once it
// is over: the transport returns why (natively every POST fails: there is
// no browser), fleet.Run keeps it in Recording.OutageErr, and the status,
// the PNG's title and the JSON's outage_error say that the server stayed
// up, and why. The transport returned nil whatever happened: the page
// flashed the failure for a few seconds, then said "Finished" as if the
// run had had its outage, and its file said nothing of it.
func TestScheduledOutageThatFailedIsTold(t *testing.T) {
	l := newLab()
	for k, v := range map[string]string{"workers": "1", "jobs": "1", "limiter": "none", "attempts": "3", "strategy": "constant", "base": "200ms", "outage": "2s", "outage_at": "100ms"} {
		l.Set(k, v)
	}
	if l.Invalid() > 0 {
		t.Fatalf("%d fields invalid", l.Invalid())
	}
	s := l.s
	var rec *fleet.Recording
	var flashed []string
	synctest.Test(t, func(t *testing.T) {
		tr := newFetchTransport(l.pageURL(), nil, s, "run-t", "")
		tr.onOutage = l.scheduledOutage("run-t", func(msg string) { flashed = append(flashed, msg) })
		rec = fleet.RunFrom(context.Background(), time.Now(), s, tr, nil, fleet.RunOptions{}, nil)
	})
	const why = "POST /mock/outage: " // and browser.ErrNoBrowser
	if rec.Err != nil || rec.OutageErr == nil || !strings.HasPrefix(rec.OutageErr.Error(), why) {
		t.Fatalf("run: %v; OutageErr %v, want %q…", rec.Err, rec.OutageErr, why)
	}
	if len(flashed) != 1 || flashed[0] != "Scheduled outage failed: "+rec.OutageErr.Error() {
		t.Errorf("flashed %q", flashed)
	}
	l.rec, l.stats, l.hasStats = rec, rec.Stats(), true
	said := "The scheduled outage (" + human.Duration(2*time.Second) + ", " + human.Duration(100*time.Millisecond) + " after the start) did not start, so the server stayed up: " + rec.OutageErr.Error() + "."
	if out := renderHTML(&RunBar{Lab: l}); !strings.Contains(out, unitsTogether(said)) { // each figure joined to its unit
		t.Errorf("the status does not say %q:\n%s", said, tagWith(out, `id="run-status"`))
	}
	if title := l.pngHead().title; !strings.Contains(title, "its scheduled outage did not start") {
		t.Errorf("the PNG's title %q", title)
	}
	var buf bytes.Buffer
	if err := l.exported().JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OutageError string `json:"outage_error"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil || doc.OutageError != rec.OutageErr.Error() {
		t.Errorf("the JSON's outage_error %q (%v), want %q", doc.OutageError, err, rec.OutageErr)
	}

	// A run whose outage started says nothing of the kind.
	rec.OutageErr = nil
	if out := renderHTML(&RunBar{Lab: l}); strings.Contains(out, "did not start") || strings.Contains(l.pngHead().title, "did not start") {
		t.Error("a run whose outage started: the status or the PNG says it did not")
	}
}

// The Outage button's answer says what the endpoint's clients are told
// during the outage, as the mock writes Retry-After for them.
func TestOutageTextSaysWhatRetryAfterSays(t *testing.T) {
	for _, tt := range []struct {
		query, want string
	}{
		{"retry_after=seconds", "Server down for 3 s: every request gets 503 with Retry-After, the seconds left"},
		{"retry_after=date", "Server down for 3 s: every request gets 503 with Retry-After, the date it is back"},
		{"retry_after=fixed&retry_value=2", "Server down for 3 s: every request gets 503 with Retry-After: 2, as always"},
		{"retry_after=malformed", "Server down for 3 s: every request gets 503 with a malformed Retry-After, as always"},
		{"retry_after=none", "Server down for 3 s: every request gets 503 (no Retry-After: the endpoint sends none)"},
	} {
		s, errs := fleet.FromQuery(mustURL(t, "http://x/?"+tt.query).Query())
		if len(errs) > 0 {
			t.Fatalf("%s: %v", tt.query, errs)
		}
		if got := outageText(&s, 3*time.Second); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.query, got, tt.want)
		}
	}
}
