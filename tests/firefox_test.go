//go:build e2e

package tests

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
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
// on PATH.
func firefoxPath(tb testing.TB) string {
	tb.Helper()
	return browserPath(tb, "RETRYLAB_FIREFOX", "run `make firefox` (apt-get install firefox-esr)", "firefox-esr", "firefox")
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

// evalJSON evaluates a JavaScript expression in the tab, awaiting a
// promise, and returns its value through JSON.stringify.
func (b *bidi) evalJSON(tb testing.TB, js string) string {
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
	if err := json.Unmarshal(r, &res); err != nil {
		tb.Fatalf("evaluate %s: %v", firstLine(js), err)
	}
	if res.Type == "exception" {
		tb.Fatalf("evaluate %s: %s", firstLine(js), res.ExceptionDetails.Text)
	}
	return res.Result.Value
}

// open loads url in the tab and waits for its load event.
func (b *bidi) open(tb testing.TB, url string) {
	tb.Helper()
	b.call(tb, "browsingContext.navigate", map[string]any{"context": b.context, "url": url, "wait": "complete"})
}

// clickOn clicks the element #id with the mouse, at its centre, as a
// person would (input.performActions).
func (b *bidi) clickOn(tb testing.TB, id string) {
	tb.Helper()
	at := engineEval[[2]float64](tb, b, `(() => { const r = document.getElementById("`+id+`").getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; })()`)
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

// errors is what the page logged as an error.
func (b *bidi) errors(testing.TB) []string {
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

// TestFirefoxRunsThePage: the page works in Firefox's engine (Gecko and
// SpiderMonkey), driven over WebDriver BiDi (otherEngineRuns). Firefox
// paces HTTP/1.1 requests past six busy connections (README: browser
// connection limits): the browser queue's p99 is logged, not judged,
// and the page knows it, to say so in its tooltips.
func TestFirefoxRunsThePage(t *testing.T) {
	srv := startServer(t)
	otherEngineRuns(t, srv, newFirefox(t, 1400, 1000), "firefox", true)
}
