//go:build e2e

package tests

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCustomTarget: the workers call your own API instead of the mock,
// from the page's origin. An API that allows that origin alone answers
// every attempt; its 429s are counted and retried, and as it does not
// expose Retry-After, the page says to list it in
// Access-Control-Expose-Headers. An API that allows no origin fails every
// attempt with a network error, which the page explains as CORS.
func TestCustomTarget(t *testing.T) {
	srv := startServer(t)
	var mu sync.Mutex
	origins := map[string]int{}
	n := 0
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		origins[r.Header.Get("Origin")]++
		n++
		odd := n%2 == 1
		mu.Unlock()
		if r.URL.Path == "/closed" {
			w.WriteHeader(200) // no Access-Control-Allow-Origin: the browser hides the answer
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", srv.URL) // this page's origin, and no other
		w.Header().Set("Vary", "Origin")
		if odd {
			w.Header().Set("Retry-After", "1") // not exposed: the page cannot read it
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(200)
	}))
	t.Cleanup(api.Close)
	target := strings.Replace(api.URL, "127.0.0.1", "localhost", 1)

	ctx, log := newBrowser(t)
	log.allow("has been blocked by CORS policy") // Chromium's console line for /closed
	boot(t, ctx, srv.URL+"/?workers=2&jobs=2&strategy=constant&base=100ms&attempts=5&seed=1&target="+url.QueryEscape(target+"/open"))
	st := runToEnd(t, ctx, 30*time.Second)
	if st.Stats["successes"] != 4 || st.Stats["limited"] < 1 || st.Stats["failed"] != 0 {
		t.Errorf("an API that allows the page's origin: %v successes of 4, %v 429s, %v other failures", st.Stats["successes"], st.Stats["limited"], st.Stats["failed"])
	}
	mu.Lock()
	if len(origins) != 1 || origins[srv.URL] == 0 {
		t.Errorf("the API saw requests from origins %v, want only the page's, %s", origins, srv.URL)
	}
	mu.Unlock()
	if note := eval[string](t, ctx, `(document.getElementById("cors-note") || {}).textContent || ""`); !strings.Contains(note, "Access-Control-Expose-Headers") {
		t.Errorf("429s without a readable Retry-After: the note says %q, want it to name Access-Control-Expose-Headers", note)
	}

	boot(t, ctx, srv.URL+"/?workers=1&jobs=1&attempts=2&base=100ms&seed=1&target="+url.QueryEscape(target+"/closed"))
	st = runToEnd(t, ctx, 30*time.Second)
	if st.Stats["successes"] != 0 || st.Stats["failed"] != 2 {
		t.Errorf("an API that allows no origin: %v successes, %v other failures; want 0 and 2", st.Stats["successes"], st.Stats["failed"])
	}
	if note := eval[string](t, ctx, `(document.getElementById("cors-note") || {}).textContent || ""`); !strings.Contains(note, "Access-Control-Allow-Origin") {
		t.Errorf("network errors from a custom target: the note says %q, want it to name Access-Control-Allow-Origin", note)
	}
}

// TestCustomTargetTimings: a custom target with a fragment, or one that
// redirects, has its browser queueing measured when it sends
// Timing-Allow-Origin. The page looked its Resource Timing entry up by the
// answer's URL, which has no fragment and is the redirect's end, while the
// entry is named after the URL asked for: it found none, drew no queueing,
// and said the server sent no Timing-Allow-Origin.
func TestCustomTargetTimings(t *testing.T) {
	srv := startServer(t)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Timing-Allow-Origin", "*")
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/ok", http.StatusFound)
		}
	}))
	t.Cleanup(api.Close)
	target := strings.Replace(api.URL, "127.0.0.1", "localhost", 1)
	ctx, _ := newBrowser(t)
	for _, u := range []string{target + "/ok#section", target + "/redirect"} {
		boot(t, ctx, srv.URL+"/?workers=2&jobs=2&attempts=1&seed=1&target="+url.QueryEscape(u))
		if st := runToEnd(t, ctx, 30*time.Second); st.Stats["successes"] != 4 {
			t.Fatalf("%s: %v successes of 4", u, st.Stats["successes"])
		}
		card := `(() => { const e = document.querySelector('[data-stat="queued_p99_ms"]'); return e ? e.textContent : "" })()`
		var text string
		if err := waitFor(5*time.Second, func() bool {
			text = eval[string](t, ctx, card)
			return text != "" && !strings.Contains(text, "–")
		}); err != nil {
			t.Errorf("%s, with Timing-Allow-Origin: the browser queue card reads %q, want a time measured", u, text)
		}
	}
}
