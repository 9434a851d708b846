//go:build e2e

package tests

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// TestBrowserWithoutLocalhostNames: Safari resolves no *.localhost name
// (macOS knows localhost alone), so a run there sent every request to
// w0.localhost & co. and got nothing but failures: 20 requests, 0
// successes, for 10 workers × 1 job of 2 attempts. Chromium is made to
// refuse those names as Safari does (--host-resolver-rules); the page
// finds it out once it has painted, says so, and its workers call the
// page's own origin: the run succeeds. In the "pressed at once" case the
// check's request is held (the Fetch domain) while Run is pressed: the run
// starts (Stop can end it) but sends nothing until the answer is in, then
// sends to the page's origin. Chromium as it is keeps the workers spread,
// and says nothing; when the check's request is held until the check gives
// up (5 s), the page says nothing either, and the next Run asks again.
func TestBrowserWithoutLocalhostNames(t *testing.T) {
	srv := startServer(t)
	const saysSo = "This browser did not reach w0.localhost"
	for _, c := range []struct {
		name      string
		resolves  bool // the browser resolves *.localhost names
		holdCheck bool // Run is pressed while the check's request is held
		expire    bool // the check's request is held until the check gives up
	}{
		{"Chromium", true, false, false},
		{"like Safari", false, false, false},
		{"like Safari, Run pressed at once", false, true, false},
		{"Chromium, the check unanswered in time", true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var flags []chromedp.ExecAllocatorOption
			if !c.resolves {
				flags = append(flags, chromedp.Flag("host-resolver-rules", "MAP *.localhost ~NOTFOUND"))
			}
			ctx, log := newBrowser(t, flags...)
			log.allow("ERR_NAME_NOT_RESOLVED")
			held := make(chan fetch.RequestID, 1)
			if c.holdCheck || c.expire {
				if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*w0.localhost*/mock?key=origins-*"}}}); err != nil {
					t.Fatal(err)
				}
				go func() {
					for ev, err := range chromedp.Events(ctx, fetch.RequestPaused) {
						if err != nil {
							return
						}
						held <- ev.RequestID
					}
				}()
			}
			page := srv.URL + "/?workers=10&jobs=1&attempts=2&limiter=none"
			if !c.holdCheck {
				boot(t, ctx, page)
			} else {
				// The check gives up 5 s after the page's first paint:
				// Run is pressed as soon as the page is interactive.
				if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS(`main[data-ready="true"]`))); err != nil {
					t.Fatal(err)
				}
				var id fetch.RequestID
				select {
				case id = <-held:
				case <-time.After(10 * time.Second):
					t.Fatal("the page did not ask for the mock on w0.localhost")
				}
				click(t, ctx, "run")
				time.Sleep(300 * time.Millisecond)
				if st := state(t, ctx); !st.Running || st.Stats["requests"] != 0 || st.Subdomains != "checking" {
					t.Errorf("Run pressed during the check: running %v, %v requests sent, the check %q; want it running, nothing sent until the check's answer",
						st.Running, st.Stats["requests"], st.Subdomains)
				}
				// Let it go on, to the name the browser does not resolve.
				if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
					t.Fatal(err)
				}
			}
			if c.expire {
				// No answer in 5 s: taken as not reached for now, without
				// a word, and asked again at the next Run.
				select {
				case <-held:
				case <-time.After(10 * time.Second):
					t.Fatal("the page did not ask for the mock on w0.localhost")
				}
				if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Subdomains == "not reached" }); err != nil {
					t.Fatalf("the check held past its time: %q, want %q", state(t, ctx).Subdomains, "not reached")
				}
				if toast := toastText(t, ctx); strings.Contains(toast, saysSo) {
					t.Errorf("a check that only ran out of time said %q", toast)
				}
				click(t, ctx, "run")
				var id fetch.RequestID
				select {
				case id = <-held:
				case <-time.After(10 * time.Second):
					t.Fatal("the next Run did not ask again")
				}
				if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
					t.Fatal(err)
				}
			}
			want := map[bool]string{true: "reached", false: "not reached"}[c.resolves]
			if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Subdomains == want }); err != nil {
				t.Fatalf("the page's check of the *.localhost origins: %q, want %q", state(t, ctx).Subdomains, want)
			}
			if c.resolves {
				if toast := toastText(t, ctx); strings.Contains(toast, saysSo) {
					t.Errorf("in a browser that reaches *.localhost the page said %q", toast)
				}
			} else {
				waitText(t, ctx, "toast", saysSo)
			}
			var st pageState
			if c.holdCheck || c.expire {
				if err := waitFor(60*time.Second, func() bool { st = state(t, ctx); return !st.Running }); err != nil {
					t.Fatalf("the run did not finish: %v", err)
				}
			} else {
				st = runToEnd(t, ctx, 60*time.Second)
			}
			if st.Stats["successes"] != 10 || st.Stats["failures"] != 0 || st.Stats["requests"] != 10 {
				t.Errorf("10 workers × 1 job against an unlimited server: %v requests, %v successes, %v failures; want 10, 10, 0",
					st.Stats["requests"], st.Stats["successes"], st.Stats["failures"])
			}
			title := eval[string](t, ctx, `document.getElementById("endpoint-url").title`)
			says := map[bool]string{true: "from *.localhost origins, 6 workers to each", false: "did not reach the mock on *.localhost origins (Safari, for one, resolves no *.localhost name)"}[c.resolves]
			if !strings.Contains(title, says) {
				t.Errorf("the endpoint's title is %q, want it to say %q", title, says)
			}
			screenshot(t, ctx, "origins-"+strings.NewReplacer(" ", "-", ",", "").Replace(c.name))
		})
	}
}

// TestWorkersNoteOnOneOrigin: an attendee who opened the room by the
// network link ran 50 workers, and the browser held most of their
// requests back (HTTP/1.1's six connections to the page's one origin; the
// *.localhost origins the workers are spread over reach only a page on
// this machine), with no word of why (found by a review). Beside Workers
// the page says so; on localhost it has nothing to say. 127.0.0.2 stands
// for the network address: a loopback address the *.localhost names do
// not reach.
func TestWorkersNoteOnOneOrigin(t *testing.T) {
	srv := startServer(t, "-host", "0.0.0.0")
	ctx, _ := newBrowser(t)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	note := func() string {
		return eval[string](t, ctx, `(document.getElementById("note-workers") || {}).textContent || ""`)
	}
	boot(t, ctx, "http://127.0.0.2:"+u.Port()+"/?workers=50")
	if n := note(); !strings.Contains(n, "at most 5 requests at once") {
		t.Errorf("workers=50 on 127.0.0.2: the note beside Workers is %q", n)
	}
	typeInto(t, ctx, "workers", "5")
	if err := waitFor(3*time.Second, func() bool { return note() == "" }); err != nil {
		t.Errorf("5 workers on 127.0.0.2: the note is still %q", note())
	}
	boot(t, ctx, "http://localhost:"+u.Port()+"/?workers=50")
	if n := note(); n != "" {
		t.Errorf("workers=50 on localhost: the note beside Workers is %q", n)
	}
}
