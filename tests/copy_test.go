//go:build e2e

package tests

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// captureClipboard makes the page keep what it copies in
// window.__copied instead of (as well as asking for) the system
// clipboard: browser.CopyText calls navigator.clipboard.writeText.
func captureClipboard(t testing.TB, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `(() => {
		window.__copied = [];
		navigator.clipboard.writeText = (text) => { window.__copied.push(text); return Promise.resolve(); };
		return true;
	})()`)
}

// copied clicks the copy button #id and returns what it put on the
// clipboard.
func copied(t testing.TB, ctx context.Context, id string) string {
	t.Helper()
	n := eval[int](t, ctx, `window.__copied.length`)
	click(t, ctx, id)
	if err := waitFor(5*time.Second, func() bool { return eval[int](t, ctx, `window.__copied.length`) > n }); err != nil {
		t.Fatalf("#%s copied nothing: %v", id, err)
	}
	return eval[string](t, ctx, `window.__copied[window.__copied.length-1]`)
}

// textOf is the text of the element #id ("" when there is none).
func textOf(t testing.TB, ctx context.Context, id string) string {
	t.Helper()
	return eval[string](t, ctx, `(document.getElementById("`+id+`") || {}).textContent || ""`)
}

// waitText waits until the text of #id holds want.
func waitText(t testing.TB, ctx context.Context, id, want string) {
	t.Helper()
	if err := waitFor(5*time.Second, func() bool { return strings.Contains(textOf(t, ctx, id), want) }); err != nil {
		t.Fatalf("#%s never showed %q: %v (it shows %q)", id, want, err, textOf(t, ctx, id))
	}
}

// TestCopyButtonsCopyWhatIsShown: Copy as Go code, the endpoint line's
// Copy and Copy share link put on the clipboard the settings the page
// shows at the time of the click, however often the settings changed since
// the page was first drawn. (go-app keeps an element's first event
// handler: the first two copied the first render's settings, the defaults,
// whatever the page showed.)
func TestCopyButtonsCopyWhatIsShown(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	captureClipboard(t, ctx)

	for _, step := range []struct {
		name    string
		do      func()
		goCode  string // in the Go code shown and copied
		mockURL string // in the endpoint shown and copied
		link    map[string]string
	}{
		{"first render", func() {}, "workers = 50", "key=try-me", map[string]string{"workers": "50"}},
		{"preset 5 (outage)", func() { click(t, ctx, "preset-outage") }, "RetryAfter:    true", "key=try-me", map[string]string{"outage": "3s"}},
		{"workers 7", func() { typeInto(t, ctx, "workers", "7") }, "workers = 7", "key=try-me", map[string]string{"workers": "7"}},
		{"preset 1 (flood)", func() { click(t, ctx, "preset-flood") }, "RetryAfter:    false", "key=try-me", map[string]string{"strategy": "constant"}},
		{"server rate 3", func() { typeInto(t, ctx, "rate", "3") }, "rate=3", "rate=3", map[string]string{"rate": "3"}},
		{"after a run", func() {
			typeInto(t, ctx, "workers", "2")
			typeInto(t, ctx, "jobs", "1")
			runToEnd(t, ctx, 30*time.Second)
		}, "workers = 2", "key=run-", map[string]string{"workers": "2", "jobs": "1"}},
	} {
		step.do()
		waitText(t, ctx, "go-code", step.goCode)
		waitText(t, ctx, "endpoint-url", step.mockURL)

		if got, shown := copied(t, ctx, "copy-go"), textOf(t, ctx, "go-code"); got != shown {
			t.Errorf("%s: Copy as Go code copied other code than the page shows: %s", step.name, firstDiff(got, shown))
		}
		if got, shown := copied(t, ctx, "copy-endpoint"), textOf(t, ctx, "endpoint-url"); got != shown {
			t.Errorf("%s: the endpoint's Copy copied %s while the page shows %s", step.name, got, shown)
		}
		link := copied(t, ctx, "copy-link")
		u, err := url.Parse(link)
		if err != nil {
			t.Fatalf("%s: Copy share link copied %q: %v", step.name, link, err)
		}
		for key, want := range step.link {
			if got := u.Query().Get(key); got != want {
				t.Errorf("%s: the share link has %s=%q, want %q: %s", step.name, key, got, want, link)
			}
		}
	}
}

// firstDiff names the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d is %q, want %q", i+1, gl, wl)
		}
	}
	return "no line differs"
}
