//go:build e2e

package tests

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// miniBrowserPath finds WebKitGTK's MiniBrowser, the browser its
// WebDriver drives: RETRYLAB_WEBKIT, then the one Debian's
// libwebkit2gtk-4.1 installs.
func miniBrowserPath(tb testing.TB) string {
	tb.Helper()
	return browserPath(tb, "RETRYLAB_WEBKIT", "run `make webkit` (apt-get install webkit2gtk-driver xvfb)", "/usr/lib/*/webkit2gtk-4.1/MiniBrowser")
}

// webDriver is a W3C WebDriver session with WebKitGTK (WebKitWebDriver
// and its MiniBrowser, in a virtual X display): WebKit and JavaScriptCore,
// Safari's engine, though not Safari's network stack.
type webDriver struct {
	base string // http://127.0.0.1:PORT/session/ID
	http *http.Client
}

// newWebKit starts WebKitWebDriver under xvfb-run and opens a session on a
// window of width × height.
func newWebKit(tb testing.TB, width, height int) *webDriver {
	tb.Helper()
	browser := miniBrowserPath(tb)
	for _, c := range []string{"xvfb-run", "WebKitWebDriver"} {
		if _, err := exec.LookPath(c); err != nil {
			tb.Fatalf("%s not found: run `make webkit` (apt-get install webkit2gtk-driver xvfb)", c)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("xvfb-run", "-a", "-s", fmt.Sprintf("-screen 0 %dx%dx24", width+100, height+200), "WebKitWebDriver", "--port="+strconv.Itoa(port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // xvfb-run's children go with it
	// os/exec copies the driver's output into out on its own goroutine.
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	w := &webDriver{base: "http://127.0.0.1:" + strconv.Itoa(port), http: &http.Client{Timeout: 90 * time.Second}}
	if err := waitFor(30*time.Second, func() bool { _, err := w.do("GET", "/status", nil); return err == nil }); err != nil {
		tb.Fatalf("WebKitWebDriver did not answer in 30 s:\n%s", out.String())
	}
	v, err := w.do("POST", "/session", map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"webkitgtk:browserOptions": map[string]any{"binary": browser, "args": []string{"--automation"}},
	}}})
	if err != nil {
		tb.Fatalf("new WebKit session: %v\n%s", err, out.String())
	}
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(v, &sess); err != nil || sess.SessionID == "" {
		tb.Fatalf("new WebKit session: %s", v)
	}
	w.base += "/session/" + sess.SessionID
	w.call(tb, "POST", "/window/rect", map[string]any{"width": width, "height": height})
	return w
}

// do sends one request and returns the answer's value.
func (w *webDriver) do(method, path string, body any) (json.RawMessage, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, w.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var answer struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return nil, fmt.Errorf("%s %s: %d %q", method, path, resp.StatusCode, data)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, answer.Value)
	}
	return answer.Value, nil
}

func (w *webDriver) call(tb testing.TB, method, path string, body any) json.RawMessage {
	tb.Helper()
	v, err := w.do(method, path, body)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

func (w *webDriver) open(tb testing.TB, url string) {
	tb.Helper()
	w.call(tb, "POST", "/url", map[string]any{"url": url})
	// WebDriver tells nothing of the console: the page keeps what it logs
	// as an error, and what it throws, for errors. (From here on: an error
	// before the load event shows in what the test reads of the page.)
	w.evalJSON(tb, `(() => {
		const errs = window.retrylabErrors = [], said = console.error.bind(console);
		console.error = (...a) => { errs.push("console.error: " + a.join(" ")); said(...a); };
		addEventListener("error", e => errs.push("error: " + e.message));
		addEventListener("unhandledrejection", e => errs.push("unhandled rejection: " + e.reason));
		return true;
	})()`)
}

func (w *webDriver) evalJSON(tb testing.TB, js string) string {
	tb.Helper()
	v := w.call(tb, "POST", "/execute/async", map[string]any{
		"script": "const done = arguments[arguments.length - 1];" +
			"(async () => JSON.stringify(await (" + js + ")))().then(done, e => done({error: String(e)}));",
		"args": []any{},
	})
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		tb.Fatalf("evaluate %s: %s", firstLine(js), v)
	}
	return s
}

// clickOn clicks #id: WebDriver's element click moves the mouse to the
// element's centre and clicks there.
func (w *webDriver) clickOn(tb testing.TB, id string) {
	tb.Helper()
	v := w.call(tb, "POST", "/element", map[string]any{"using": "css selector", "value": "#" + id})
	var el map[string]string
	if err := json.Unmarshal(v, &el); err != nil || len(el) != 1 {
		tb.Fatalf("find #%s: %s", id, v)
	}
	for _, ref := range el {
		w.call(tb, "POST", "/element/"+ref+"/click", map[string]any{})
	}
}

func (w *webDriver) shot(tb testing.TB, name string) {
	tb.Helper()
	var s string
	if err := json.Unmarshal(w.call(tb, "GET", "/screenshot", nil), &s); err != nil {
		tb.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		tb.Fatal(err)
	}
	saveShot(tb, name, png)
}

// errors is what the page logged as an error or threw since open.
func (w *webDriver) errors(tb testing.TB) []string {
	tb.Helper()
	var errs []string
	if err := json.Unmarshal([]byte(w.evalJSON(tb, `window.retrylabErrors || ["the page lost its error hooks (a navigation?)"]`)), &errs); err != nil {
		tb.Fatalf("reading the page's errors: %v", err)
	}
	return errs
}

// TestWebKitRunsThePage: the page works in WebKit and JavaScriptCore,
// Safari's engine (WebKitGTK, driven over WebDriver; otherEngineRuns).
// WebKitGTK resolves *.localhost, as Safari does not (its network stack is
// not WebKit's): TestBrowserWithoutLocalhostNames covers that in Chromium.
func TestWebKitRunsThePage(t *testing.T) {
	srv := startServer(t)
	otherEngineRuns(t, srv, newWebKit(t, 1400, 1000), "webkit", false)
}
