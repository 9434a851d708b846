//go:build e2e

package tests

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// firefoxPath finds Firefox: RETRYLAB_FIREFOX, then firefox-esr or firefox
// on PATH. A missing browser is a failure, never a skip.
func firefoxPath(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("RETRYLAB_FIREFOX"); p != "" {
		return p
	}
	for _, name := range []string{"firefox-esr", "firefox"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Fatal("firefox not found: run `make firefox` (apt-get install firefox-esr) or set RETRYLAB_FIREFOX")
	return ""
}

// bidi is a WebDriver BiDi session with a headless Firefox: the protocol
// Firefox speaks itself (no geckodriver), over a WebSocket. It sends
// commands and collects the page's console and errors (log.entryAdded).
type bidi struct {
	conn    net.Conn
	context string // the top-level browsing context (the tab)

	mu      sync.Mutex
	next    int
	waiting map[int]chan bidiAnswer
	logs    []string // "level: text" of every log entry
}

type bidiAnswer struct {
	result json.RawMessage
	err    string
}

var bidiURL = regexp.MustCompile(`WebDriver BiDi listening on (ws://\S+)`)

// newFirefox starts a headless Firefox with a fresh profile, opens a BiDi
// session on it and sets the tab's viewport.
func newFirefox(tb testing.TB, width, height int) *bidi {
	tb.Helper()
	profile := tb.TempDir()
	// No first-run pages, no update or telemetry traffic in the test.
	prefs := `user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("app.update.disabledForTesting", true);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
`
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(prefs), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(firefoxPath(tb), "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port", "0", "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	var said strings.Builder
	var saidMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			saidMu.Lock()
			said.WriteString(sc.Text() + "\n")
			saidMu.Unlock()
			if m := bidiURL.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	var url string
	select {
	case url = <-found:
	case <-time.After(60 * time.Second):
		saidMu.Lock()
		defer saidMu.Unlock()
		tb.Fatalf("firefox did not open WebDriver BiDi in 60 s:\n%s", said.String())
	}
	conn, _, _, err := ws.Dial(context.Background(), url+"/session")
	if err != nil {
		tb.Fatalf("connect to %s: %v", url, err)
	}
	tb.Cleanup(func() { conn.Close() })
	b := &bidi{conn: conn, waiting: map[int]chan bidiAnswer{}}
	go b.read()
	b.call(tb, "session.new", map[string]any{"capabilities": map[string]any{}})
	b.call(tb, "session.subscribe", map[string]any{"events": []string{"log.entryAdded"}})
	var tree struct {
		Contexts []struct {
			Context string `json:"context"`
		} `json:"contexts"`
	}
	if err := json.Unmarshal(b.call(tb, "browsingContext.getTree", map[string]any{}), &tree); err != nil || len(tree.Contexts) == 0 {
		tb.Fatalf("browsingContext.getTree: no tab (%v)", err)
	}
	b.context = tree.Contexts[0].Context
	b.call(tb, "browsingContext.setViewport", map[string]any{"context": b.context, "viewport": map[string]any{"width": width, "height": height}})
	return b
}

func (b *bidi) read() {
	for {
		data, err := wsutil.ReadServerText(b.conn)
		if err != nil {
			b.mu.Lock()
			for id, ch := range b.waiting {
				ch <- bidiAnswer{err: "connection closed: " + err.Error()}
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var m struct {
			ID      *int            `json:"id"`
			Type    string          `json:"type"`
			Result  json.RawMessage `json:"result"`
			Error   string          `json:"error"`
			Message string          `json:"message"`
			Method  string          `json:"method"`
			Params  struct {
				Level string `json:"level"`
				Text  string `json:"text"`
			} `json:"params"`
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != nil {
			if ch := b.waiting[*m.ID]; ch != nil {
				a := bidiAnswer{result: m.Result}
				if m.Type == "error" {
					a.err = m.Error + ": " + m.Message
				}
				ch <- a
				delete(b.waiting, *m.ID)
			}
		} else if m.Method == "log.entryAdded" {
			b.logs = append(b.logs, m.Params.Level+": "+m.Params.Text)
		}
		b.mu.Unlock()
	}
}

// call sends one command and returns its result; an error answer fails
// the test.
func (b *bidi) call(tb testing.TB, method string, params any) json.RawMessage {
	tb.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan bidiAnswer, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err := wsutil.WriteClientText(b.conn, msg); err != nil {
		tb.Fatalf("%s: %v", method, err)
	}
	select {
	case a := <-ch:
		if a.err != "" {
			tb.Fatalf("%s: %s", method, a.err)
		}
		return a.result
	case <-time.After(60 * time.Second):
		tb.Fatalf("%s: no answer in 60 s", method)
	}
	return nil
}

// eval evaluates a JavaScript expression in the tab (awaiting a promise)
// and decodes its value, passed through JSON.stringify, into T.
func bidiEval[T any](tb testing.TB, b *bidi, js string) T {
	tb.Helper()
	r := b.call(tb, "script.evaluate", map[string]any{
		"expression":   "(async () => JSON.stringify(await (" + js + ")))()",
		"target":       map[string]any{"context": b.context},
		"awaitPromise": true,
	})
	var res struct {
		Type   string `json:"type"`
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	var v T
	if err := json.Unmarshal(r, &res); err != nil {
		tb.Fatalf("evaluate %s: %v", firstLine(js), err)
	}
	if res.Type == "exception" {
		tb.Fatalf("evaluate %s: %s", firstLine(js), res.ExceptionDetails.Text)
	}
	if err := json.Unmarshal([]byte(res.Result.Value), &v); err != nil {
		tb.Fatalf("evaluate %s: %q: %v", firstLine(js), res.Result.Value, err)
	}
	return v
}

// clickOn clicks the element #id with the mouse, at its centre, as a
// person would (input.performActions).
func (b *bidi) clickOn(tb testing.TB, id string) {
	tb.Helper()
	at := bidiEval[[2]float64](tb, b, `(() => { const r = document.getElementById("`+id+`").getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; })()`)
	b.call(tb, "input.performActions", map[string]any{
		"context": b.context,
		"actions": []any{map[string]any{
			"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"},
			"actions": []any{
				map[string]any{"type": "pointerMove", "x": int(at[0]), "y": int(at[1])},
				map[string]any{"type": "pointerDown", "button": 0},
				map[string]any{"type": "pointerUp", "button": 0},
			},
		}},
	})
}

// shot saves the tab's viewport under tests/out/NAME.png.
func (b *bidi) shot(tb testing.TB, name string) {
	tb.Helper()
	var res struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(b.call(tb, "browsingContext.captureScreenshot", map[string]any{"context": b.context}), &res); err != nil {
		tb.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil {
		tb.Fatal(err)
	}
	saveShot(tb, name, png)
}

func (b *bidi) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, l := range b.logs {
		if strings.HasPrefix(l, "error:") {
			out = append(out, l)
		}
	}
	return out
}

// TestFirefoxRunsThePage: the page works in a second engine, Firefox's
// (Gecko and SpiderMonkey), driven over WebDriver BiDi: it loads, reaches
// the *.localhost origins, and a live run clicked with the mouse ends
// with every job done, its requests counted and drawn, and nothing
// logged as an error; and Stop aborts the requests in flight, which the
// server sees cancelled. The page's Chromium-only paths (static routes of
// the service worker, data: URL workers and their fallbacks) must not be
// the only paths. Firefox paces HTTP/1.1 requests past six busy
// connections (README: browser connection limits): the browser queue's
// p99 is logged, not judged.
func TestFirefoxRunsThePage(t *testing.T) {
	srv := startServer(t)
	b := newFirefox(t, 1400, 1000)
	b.call(t, "browsingContext.navigate", map[string]any{"context": b.context, "url": srv.URL + "/?workers=20&jobs=2&seed=3", "wait": "complete"})
	if err := waitFor(30*time.Second, func() bool {
		return bidiEval[bool](t, b, `!!document.querySelector("main[data-ready=true]") && !!window.retrylab && ["reached", "not reached"].includes(JSON.parse(window.retrylab.state()).subdomains)`)
	}); err != nil {
		b.shot(t, "firefox-not-ready")
		t.Fatalf("the page did not become ready in Firefox in 30 s; logged errors %q", b.errors())
	}
	st := bidiEval[pageState](t, b, `JSON.parse(window.retrylab.state())`)
	if st.Subdomains != "reached" {
		t.Errorf("Firefox resolves *.localhost (since 84), yet the page's check says %q", st.Subdomains)
	}
	if err := waitFor(10*time.Second, func() bool { return bidiEval[bool](t, b, `!document.getElementById("run").disabled`) }); err != nil {
		t.Fatal("Run stayed disabled")
	}
	b.clickOn(t, "run")
	if err := waitFor(60*time.Second, func() bool {
		st = bidiEval[pageState](t, b, `JSON.parse(window.retrylab.state())`)
		return st.Runs == 1 && !st.Running
	}); err != nil {
		b.shot(t, "firefox-run-unfinished")
		t.Fatalf("the run did not finish in 60 s: %+v", st)
	}
	s := st.Stats
	if s["jobs"] != 40 || s["successes"] != 40 || s["first_tries"] != 40 || s["requests"] < 40 || s["failed"] != 0 || s["timeouts"] != 0 {
		t.Errorf("20 workers × 2 jobs in Firefox: jobs %v, successes %v, first tries %v, requests %v, other failures %v, timeouts %v; want 40 jobs, every one a success",
			s["jobs"], s["successes"], s["first_tries"], s["requests"], s["failed"], s["timeouts"])
	}
	if st.Records < int(s["requests"]) {
		t.Errorf("the run recorded %d events for %v requests", st.Records, s["requests"])
	}
	dbg := bidiEval[map[string]any](t, b, `JSON.parse(window.retrylab.debug())`)
	if d, _ := dbg["draws"].(float64); d < 1 {
		t.Errorf("the timeline was never drawn: debug() %v", dbg["draws"])
	}
	// The canvas shows the outcomes: the success's bluish green among its pixels.
	if n := bidiEval[int](t, b, `(() => {
		const c = document.getElementById("timeline"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i] === 0x00 && d[i + 1] === 0x9e && d[i + 2] === 0x73) n++;
		return n;
	})()`); n < 100 {
		t.Errorf("the timeline has %d pixels of the success's colour: its marks were not drawn", n)
	}
	b.shot(t, "firefox-run")
	t.Logf("Firefox: %v requests, browser queue p99 %v ms, lateness p99 %v ms", s["requests"], s["queued_p99_ms"], s["lateness_p99_ms"])

	// Stop aborts every request in flight: the server sees each cancelled
	// (no service worker in Firefox's path swallows the abort).
	room := fmt.Sprintf("e2e-ff-stop-%d", time.Now().UnixNano())
	events := subscribe(t, srv, room)
	b.call(t, "browsingContext.navigate", map[string]any{"context": b.context, "url": srv.URL + "/?workers=20&jobs=1&latency=5s&room=" + room, "wait": "complete"})
	if err := waitFor(30*time.Second, func() bool {
		return bidiEval[bool](t, b, `!!document.querySelector("main[data-ready=true]") && !document.getElementById("run").disabled && ["reached", "not reached"].includes(JSON.parse(window.retrylab.state()).subdomains)`)
	}); err != nil {
		t.Fatal("the page did not become ready again")
	}
	b.clickOn(t, "run")
	for seen := 0; seen < 20; seen++ {
		events.next(t, 15*time.Second, func(e mockEvent) bool { return e.Type == "arrival" })
	}
	b.clickOn(t, "stop")
	for cancelled := 0; cancelled < 20; cancelled++ {
		if ev := events.next(t, 3*time.Second, func(e mockEvent) bool { return e.Type == "end" }); ev.End != "cancelled" {
			t.Errorf("after Stop, request %s ended as %q, want cancelled", ev.Tag, ev.End)
		}
	}
	if err := waitFor(5*time.Second, func() bool {
		st = bidiEval[pageState](t, b, `JSON.parse(window.retrylab.state())`)
		return !st.Running
	}); err != nil {
		t.Fatalf("the page still runs after Stop: %+v", st)
	}
	if st.Stats["aborted"] != 20 || st.Stats["successes"] != 0 {
		t.Errorf("after Stop in Firefox: aborted %v, successes %v; want 20 and 0", st.Stats["aborted"], st.Stats["successes"])
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("Firefox logged errors: %q", errs)
	}
}
