//go:build e2e

package tests

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// rehearsalState is window.retrylab.state().rehearsal.
type rehearsalState struct {
	State    string  `json:"state"`
	Key      string  `json:"key"`
	Requests int     `json:"requests"`
	MS       float64 `json:"ms"`
}

func rehearsalOf(t testing.TB, ctx context.Context) rehearsalState {
	t.Helper()
	return eval[rehearsalState](t, ctx, `JSON.parse(window.retrylab.state()).rehearsal`)
}

// TestRehearsal: a page left alone after it has painted rehearses a run
// (app/ui/rehearsal.go) — real fetches from its workers to its own mock,
// under a key of its own — and nothing of it shows: no run counted, no
// numbers, nothing drawn, no export, its hidden canvases gone, and a room
// the page is in sees none of it. A Run pressed during the rehearsal
// stops it and runs as usual; one pressed before it begins means no
// rehearsal at all.
func TestRehearsal(t *testing.T) {
	srv := startServer(t)

	t.Run("alone", func(t *testing.T) {
		room := watchArrivals(t, srv, "rehearse-room")
		ctx, _ := newBrowser(t)
		boot(t, ctx, srv.URL+"/?room=rehearse-room&workers=6&jobs=2&seed=5")
		var r rehearsalState
		if err := waitFor(15*time.Second, func() bool { r = rehearsalOf(t, ctx); return r.State == "done" }); err != nil {
			t.Fatalf("the rehearsal did not end: %v (%+v)", err, r)
		}
		t.Logf("rehearsal: %+v", r)
		if !strings.HasPrefix(r.Key, "rehearsal-") || r.Requests == 0 {
			t.Errorf("rehearsal %+v: want requests under a rehearsal- key", r)
		}
		// The server saw them under that key: its next arrival there is
		// numbered after them.
		_, body := srv.get(t, "/mock?limiter=none&key="+r.Key)
		var ans struct {
			Seq int `json:"seq"`
		}
		if err := json.Unmarshal(body, &ans); err != nil || ans.Seq != r.Requests+1 {
			t.Errorf("the mock's next arrival under %s is number %d (%s), want %d: the rehearsal's %d requests before it", r.Key, ans.Seq, body, r.Requests+1, r.Requests)
		}
		st := state(t, ctx)
		if st.Runs != 0 || st.Records != 0 || st.Stats["requests"] != 0 || st.Running {
			t.Errorf("after the rehearsal the page counts runs %d, records %d, requests %v (running %v): want nothing", st.Runs, st.Records, st.Stats["requests"], st.Running)
		}
		type shown struct {
			FirstSent float64 `json:"first_sent_ms"`
			Canvases  int     `json:"canvases"`
			ExportOff bool    `json:"export_off"`
		}
		// The state says "done" as the rehearsal ends, and the render
		// that removes its canvases comes after it (the CI of 6959b53
		// found both still there when it read them at once).
		var got shown
		_ = waitFor(2*time.Second, func() bool {
			got = eval[shown](t, ctx, `({
				first_sent_ms: JSON.parse(window.retrylab.debug()).first_sent_ms,
				canvases: document.querySelectorAll("#rehearsal, #rehearsal-overlay").length,
				export_off: document.getElementById("export-json").disabled,
			})`)
			return got.Canvases == 0
		})
		if got.FirstSent >= 0 || got.Canvases != 0 || !got.ExportOff {
			t.Errorf("after the rehearsal: first attempt drawn at %v ms (want none), %d rehearsal canvases left, Events JSON disabled %v", got.FirstSent, got.Canvases, got.ExportOff)
		}
		time.Sleep(300 * time.Millisecond) // the room's stream is a moment behind
		if n := len(room.snapshot()); n != 0 {
			t.Errorf("the room the page is in saw %d of the rehearsal's requests", n)
		}
	})

	t.Run("run during it", func(t *testing.T) {
		ctx, _ := newBrowser(t)
		// The rehearsal's requests are held (the DevTools protocol's
		// Fetch domain), so that it is still going when Run is pressed:
		// it lasts a fraction of a second, and polled for, it could end
		// between the poll and the click.
		if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*key=rehearsal-*"}}}); err != nil {
			t.Fatal(err)
		}
		held := make(chan struct{}, 64)
		go func() {
			for _, err := range chromedp.Events(ctx, fetch.RequestPaused) {
				if err != nil {
					return
				}
				held <- struct{}{}
			}
		}()
		boot(t, ctx, srv.URL+"/?workers=6&jobs=2&limiter=none&latency=20ms&seed=5")
		select {
		case <-held:
		case <-time.After(15 * time.Second):
			t.Fatalf("no rehearsal request within 15 s (%+v)", rehearsalOf(t, ctx))
		}
		if r := rehearsalOf(t, ctx); r.State != "running" {
			t.Fatalf("a rehearsal request is held, and the rehearsal is %+v", r)
		}
		st := runToEnd(t, ctx, 30*time.Second)
		if r := rehearsalOf(t, ctx); r.State != "stopped" {
			t.Errorf("a Run pressed during the rehearsal: rehearsal %+v, want stopped", r)
		}
		if st.Runs != 1 || st.Stats["requests"] != 12 || st.Stats["successes"] != 12 {
			t.Errorf("the run pressed during the rehearsal: runs %d, requests %v, successes %v; want 1, 12, 12", st.Runs, st.Stats["requests"], st.Stats["successes"])
		}
	})

	t.Run("run at once", func(t *testing.T) {
		ctx, _ := newBrowser(t)
		// A rehearsal that began is held from ending (its requests are
		// held, as above): on a loaded machine the click came 1.5 s after
		// the page settled, and found the rehearsal done (a fresh-clone
		// CI at load 13).
		if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*key=rehearsal-*"}}}); err != nil {
			t.Fatal(err)
		}
		boot(t, ctx, srv.URL+"/?workers=6&jobs=2&limiter=none&latency=20ms&seed=5")
		click(t, ctx, "run") // before the page has painted and been quiet 300 ms
		// (On a slow machine the click may land just after the rehearsal
		// began: it is stopped then.)
		if r := rehearsalOf(t, ctx); r.State != "skipped" && r.State != "stopped" {
			t.Errorf("a Run pressed at once: rehearsal %+v, want skipped", r)
		}
		time.Sleep(time.Second) // past the moment it would have begun
		if r := rehearsalOf(t, ctx); r.State != "skipped" && r.State != "stopped" {
			t.Errorf("a page in use rehearsed: %+v", r)
		}
	})
}
