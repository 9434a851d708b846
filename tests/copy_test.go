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

// toastText is the text of the page's message, the toast ("" when none
// shows).
func toastText(t testing.TB, ctx context.Context) string {
	t.Helper()
	return textOf(t, ctx, "toast")
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
	// The code is made when it is shown, not on load.
	if code := textOf(t, ctx, "go-code"); code != "" {
		t.Errorf("the Go code was made before it was opened: %.80q…", code)
	}
	click(t, ctx, "go-code-show")

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

// TestInvalidFieldsStopTheCopies: while a value typed is not allowed,
// nothing made of the configuration is offered as if it were what the
// inputs say. The endpoint line says how many fields to fix instead of a
// URL (it showed fail500=60&fail503=50, which the server rejects, and
// key=bad for "bad room!", left over from mid-typing); its Copy, Copy
// share link and Copy as Go code are disabled with the reason (the link
// had workers=50 for Workers "abc", "Share link copied" and no warning).
// What was typed stays in the inputs; once fixed, each copy gives what the
// inputs say, and the endpoint works with curl.
func TestInvalidFieldsStopTheCopies(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	captureClipboard(t, ctx)
	click(t, ctx, "go-code-show")

	type typed struct{ key, text string }
	for _, tt := range []struct {
		name     string
		bad      []typed
		fix      []typed
		fields   string            // the count the page names
		endpoint string            // in the endpoint once fixed
		link     map[string]string // in the share link once fixed
	}{
		{"failures over 100%", []typed{{"fail500", "60"}, {"fail503", "50"}}, []typed{{"fail503", "10"}}, "1 field",
			"fail500=60&fail503=10", map[string]string{"fail500": "60", "fail503": "10"}},
		{"a room with a space", []typed{{"room", "bad room!"}}, []typed{{"room", "good-room"}}, "1 field",
			"key=good-room", map[string]string{"room": "good-room"}},
		{"workers not a number", []typed{{"workers", "abc"}}, []typed{{"workers", "7"}}, "1 field",
			"key=good-room", map[string]string{"workers": "7"}},
		{"two at once", []typed{{"workers", "abc"}, {"rate", "0"}}, []typed{{"workers", "8"}, {"rate", "4"}}, "2 fields",
			"rate=4", map[string]string{"workers": "8", "rate": "4"}},
	} {
		for _, in := range tt.bad {
			typeInto(t, ctx, in.key, in.text)
		}
		waitText(t, ctx, "endpoint-url", "fix "+tt.fields)
		if got := textOf(t, ctx, "endpoint-url"); strings.Contains(got, "/mock") {
			t.Errorf("%s: the endpoint line shows a URL: %q", tt.name, got)
		}
		for _, id := range []string{"copy-endpoint", "copy-link", "copy-go"} {
			if !eval[bool](t, ctx, `document.getElementById("`+id+`").disabled`) {
				t.Errorf("%s: #%s is enabled", tt.name, id)
			}
			if title := eval[string](t, ctx, `document.getElementById("`+id+`").title`); !strings.Contains(title, "fix "+tt.fields) {
				t.Errorf("%s: #%s's title %q does not say why it is disabled", tt.name, id, title)
			}
		}
		if note := textOf(t, ctx, "copy-blocked"); !strings.Contains(note, "Fix "+tt.fields) {
			t.Errorf("%s: beside the copy buttons %q, want why they are disabled", tt.name, note)
		}
		if code := textOf(t, ctx, "go-code"); strings.Contains(code, "package main") || !strings.Contains(code, "Fix "+tt.fields) {
			t.Errorf("%s: the Go code shown is %.80q…, want why there is none", tt.name, code)
		}
		for _, in := range tt.bad {
			if got := eval[string](t, ctx, `document.getElementById("f-`+in.key+`").value`); got != in.text {
				t.Errorf("%s: #f-%s holds %q, want what was typed, %q", tt.name, in.key, got, in.text)
			}
		}

		for _, in := range tt.fix {
			typeInto(t, ctx, in.key, in.text)
		}
		waitText(t, ctx, "endpoint-url", tt.endpoint)
		endpoint := copied(t, ctx, "copy-endpoint")
		if shown := textOf(t, ctx, "endpoint-url"); endpoint != shown {
			t.Errorf("%s, fixed: the endpoint's Copy copied %s while the page shows %s", tt.name, endpoint, shown)
		}
		u, err := url.Parse(endpoint)
		if err != nil {
			t.Fatalf("%s, fixed: endpoint %q: %v", tt.name, endpoint, err)
		}
		if resp, body := srv.get(t, u.RequestURI()); resp.StatusCode == 400 {
			t.Errorf("%s, fixed: the server rejects the endpoint %s: %s", tt.name, endpoint, body)
		}
		link, err := url.Parse(copied(t, ctx, "copy-link"))
		if err != nil {
			t.Fatal(err)
		}
		for key, want := range tt.link {
			if got := link.Query().Get(key); got != want {
				t.Errorf("%s, fixed: the share link has %s=%q, want %q", tt.name, key, got, want)
			}
		}
		if got, shown := copied(t, ctx, "copy-go"), textOf(t, ctx, "go-code"); got != shown || !strings.Contains(got, "package main") {
			t.Errorf("%s, fixed: Copy as Go code copied other code than the page shows: %s", tt.name, firstDiff(got, shown))
		}
	}
}
