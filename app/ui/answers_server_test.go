//go:build !(js && wasm)

package ui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"retrylab/app/jsonlite"
	"retrylab/app/mock"
)

// The page reads every member of the switches' answers as app/mock writes
// them, not only of answerCases' copies of them: the burst's copy there
// had no "outage", which the server had come to write and the page to
// read (the Burst button's message names it).
func TestAnswersReadWhatTheServerWrites(t *testing.T) {
	h := mock.New(mock.Options{})
	t.Cleanup(h.Close)
	for _, tt := range []struct {
		route   http.Handler
		query   string
		members func(r *jsonlite.Reader, key string) bool
		want    []string
	}{
		{h.Burst(), "key=answers&limiter=bucket&rate=1&burst=2&n=5", (&burstAnswer{}).member, []string{"allowed", "at", "key", "n", "outage", "rejected"}},
		{h.Outage(), "key=answers&for=1s", (&switchAnswer{}).member, []string{"from", "key", "until"}},
		{h.Limit(), "key=answers&for=1s&scale=0.5", (&switchAnswer{}).member, []string{"from", "key", "scale", "until"}},
		{h.Outage(), "key=answers&for=x", (&errorAnswer{}).member, nil}, // a refusal: the page reads its error only
	} {
		rec := httptest.NewRecorder()
		tt.route.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mock/x?"+tt.query, nil))
		body := rec.Body.String()
		checkAnswers(t, body) // as encoding/json reads it
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var unread []string
		if err := jsonlite.ReadObject(body, func(r *jsonlite.Reader, key string) bool {
			if !tt.members(r, key) {
				unread = append(unread, key)
				return false
			}
			return true
		}); err != nil {
			t.Errorf("%s: the page cannot read %s: %v", tt.query, body, err)
		}
		if tt.want == nil { // the page reads "error" and leaves the rest
			if rec.Code != http.StatusBadRequest || slices.Contains(unread, "error") {
				t.Errorf("%s: %d %s, its error unread", tt.query, rec.Code, body)
			}
			continue
		}
		if rec.Code != http.StatusOK || !slices.Equal(keys, tt.want) || len(unread) > 0 {
			t.Errorf("%s: %d %s: members %q, want %q; the page does not read %q", tt.query, rec.Code, body, keys, tt.want, unread)
		}
	}
}
