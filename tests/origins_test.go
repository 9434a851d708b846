//go:build e2e

package tests

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// TestBrowserWithoutLocalhostNames: Safari resolves no *.localhost name
// (macOS knows localhost alone), so a run there sent every request to
// w0.localhost & co. and got nothing but failures: 100 requests, 0
// successes, for 10 workers × 1 job. Chromium is made to refuse those
// names as Safari does (--host-resolver-rules); the page finds it out once
// it has painted, says so, and its workers call the page's own origin: the
// run succeeds. In the "pressed at once" case the check's request is held
// (the Fetch domain) while Run is pressed: the run waits for the answer
// rather than send to origins it may not reach. Chromium as it is keeps
// the workers spread, and says nothing.
func TestBrowserWithoutLocalhostNames(t *testing.T) {
	srv := startServer(t)
	const saysSo = "This browser does not reach w0.localhost"
	for _, c := range []struct {
		name      string
		resolves  bool // the browser resolves *.localhost names
		holdCheck bool // Run is pressed while the check's request is held
	}{
		{"Chromium", true, false},
		{"like Safari", false, false},
		{"like Safari, Run pressed at once", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var flags []chromedp.ExecAllocatorOption
			if !c.resolves {
				flags = append(flags, chromedp.Flag("host-resolver-rules", "MAP *.localhost ~NOTFOUND"))
			}
			ctx, log := newBrowser(t, flags...)
			log.allow("ERR_NAME_NOT_RESOLVED")
			held := make(chan fetch.RequestID, 1)
			if c.holdCheck {
				if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*w0.localhost*/web/icon.svg"}}}); err != nil {
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
			boot(t, ctx, srv.URL+"/?workers=10&jobs=1&attempts=2&limiter=none")
			if c.holdCheck {
				var id fetch.RequestID
				select {
				case id = <-held:
				case <-time.After(10 * time.Second):
					t.Fatal("the page did not ask for w0.localhost's icon")
				}
				click(t, ctx, "run")
				time.Sleep(500 * time.Millisecond)
				if st := state(t, ctx); st.Running || st.Runs > 0 {
					t.Errorf("the run started before the page knew where to send it: %+v", st)
				}
				// Let it go on, to the name the browser does not resolve.
				if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
					t.Fatal(err)
				}
				if err := waitFor(10*time.Second, func() bool { return state(t, ctx).Runs > 0 }); err != nil {
					t.Fatalf("the run pressed during the check never started: %v", err)
				}
			}
			toast := ""
			if err := waitFor(5*time.Second, func() bool {
				toast = textOf(t, ctx, "toast")
				return strings.Contains(toast, saysSo) == !c.resolves
			}); err != nil && !c.resolves {
				t.Errorf("the page did not say the browser reaches no *.localhost origin: toast %q", toast)
			}
			var st pageState
			if c.holdCheck {
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
			if strings.Contains(textOf(t, ctx, "toast"), saysSo) && c.resolves {
				t.Errorf("in a browser that reaches *.localhost the page said %q", saysSo)
			}
			title := eval[string](t, ctx, `document.getElementById("endpoint-url").title`)
			want := map[bool]string{true: "from *.localhost origins, 6 workers to each", false: "does not reach *.localhost origins (Safari resolves none)"}[c.resolves]
			if !strings.Contains(title, want) {
				t.Errorf("the endpoint's title is %q, want it to say %q", title, want)
			}
			screenshot(t, ctx, "origins-"+strings.NewReplacer(" ", "-", ",", "").Replace(c.name))
		})
	}
}
