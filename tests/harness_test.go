//go:build e2e

package tests

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// repoRoot is where make put bin/retrylab, web/app.wasm and wasm_exec.js.
var repoRoot = func() string {
	abs, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	return abs
}()

// server is one running retrylab process.
type server struct {
	URL    string // http://localhost:PORT
	cmd    *exec.Cmd
	mu     sync.Mutex
	output strings.Builder
	done   chan error
}

var urlLine = regexp.MustCompile(`serving the playground at (http://\S+?)/?$`)

// startServer runs the real binary on a free port and waits for its URL.
func startServer(tb testing.TB, args ...string) *server {
	tb.Helper()
	bin := filepath.Join(repoRoot, "bin", "retrylab")
	for _, f := range []string{bin, filepath.Join(repoRoot, "web", "app.wasm"), filepath.Join(repoRoot, "wasm_exec.js")} {
		if _, err := os.Stat(f); err != nil {
			tb.Fatalf("%s is missing: run `make build` first (make e2e does)", f)
		}
	}
	cmd := exec.Command(bin, append([]string{"serve", "-port", "0", "-root", repoRoot}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	s := &server{cmd: cmd, done: make(chan error, 1)}
	cmd.Stderr = &lockedWriter{s: s}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.output.WriteString(line + "\n")
			s.mu.Unlock()
			if m := urlLine.FindStringSubmatch(line); m != nil {
				urlc <- m[1]
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case s.URL = <-urlc:
	case err := <-s.done:
		tb.Fatalf("server exited before serving: %v\n%s", err, s.Output())
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		tb.Fatalf("server did not print its URL in 20s:\n%s", s.Output())
	}
	tb.Cleanup(func() { s.Stop(tb) })
	return s
}

type lockedWriter struct{ s *server }

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.output.Write(p)
}

// Output is everything the server printed so far.
func (s *server) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.output.String()
}

// Stop sends SIGTERM and expects a graceful exit within 10 s.
func (s *server) Stop(tb testing.TB) {
	tb.Helper()
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		if err != nil {
			tb.Errorf("server did not exit cleanly on SIGTERM: %v\n%s", err, s.Output())
		}
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		tb.Errorf("server did not stop within 10s of SIGTERM\n%s", s.Output())
	}
}

// get fetches a URL from the server with Go's client.
func (s *server) get(tb testing.TB, path string, header ...string) (*http.Response, []byte) {
	tb.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
		if header[i] == "Host" {
			req.Host = header[i+1] // net/http sends req.Host, not the header
		}
	}
	tr := &http.Transport{DisableCompression: true}
	resp, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp, body
}

// browserPath finds a browser: the path the environment variable env
// names, then the first of names on PATH (a name with a slash is a glob).
// A missing browser is a failure, never a skip; the message says how to
// get it (install) or to set env.
func browserPath(tb testing.TB, env, install string, names ...string) string {
	tb.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	for _, name := range names {
		if strings.Contains(name, "/") {
			if ps, _ := filepath.Glob(name); len(ps) > 0 {
				return ps[0]
			}
		} else if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Fatalf("%s not found: %s, or set %s", names[0], install, env)
	return ""
}

// chromiumPath finds Chromium: RETRYLAB_CHROMIUM, then chromium on PATH.
func chromiumPath(tb testing.TB) string {
	tb.Helper()
	return browserPath(tb, "RETRYLAB_CHROMIUM", "run `make chromium` (apt-get install chromium)", "chromium", "chromium-browser")
}

// newBrowser starts a fresh headless Chromium with its own profile and
// returns a tab context. Console errors and uncaught exceptions are
// collected; the test fails on an uncaught exception unless allowed.
func newBrowser(tb testing.TB, extra ...chromedp.ExecAllocatorOption) (context.Context, *pageLog) {
	tb.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(tb)),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.WindowSize(1400, 1000),
	)
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	log := &pageLog{}
	messages := chromedp.Console(ctx)
	if err := chromedp.Do(ctx); err != nil {
		cancelCtx()
		cancelAlloc()
		tb.Fatalf("start chromium: %v", err)
	}
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			log.add(m)
		}
	}()
	tb.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		if ex := log.exceptions(); len(ex) > 0 {
			tb.Errorf("uncaught page errors:\n%s", strings.Join(ex, "\n"))
		}
	})
	return ctx, log
}

// pageLog keeps what the page wrote to the console.
type pageLog struct {
	mu      sync.Mutex
	msgs    []chromedp.ConsoleMessage
	allowed []string // what a test provokes on purpose: not counted as errors
}

// allow stops console errors containing text from failing the test: the
// browser's own messages about what the test provokes on purpose.
func (l *pageLog) allow(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.allowed = append(l.allowed, text)
}

func (l *pageLog) add(m chromedp.ConsoleMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, m)
}

// said reports whether the page wrote text to the console, in any message.
func (l *pageLog) said(text string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.msgs, func(m chromedp.ConsoleMessage) bool { return strings.Contains(m.String(), text) })
}

// exceptions lists uncaught exceptions and console errors, except
// Chromium's "Failed to load resource" lines, which it logs for every
// non-2xx fetch (README: facts) — a 429 is the point of this page.
func (l *pageLog) exceptions() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, m := range l.msgs {
		text := m.String()
		if strings.Contains(text, "Failed to load resource") || strings.Contains(text, "net::ERR_ABORTED") ||
			slices.ContainsFunc(l.allowed, func(a string) bool { return strings.Contains(text, a) }) {
			continue
		}
		if m.IsException() || m.Type == chromedp.ConsoleError {
			out = append(out, text)
		}
	}
	return out
}

// settled selects the page once it is interactive and all of it is
// mounted: the settings' groups below the first screen come a frame after
// the page is interactive (main[data-ready="true"]; app/ui/routes.go).
const settled = `main[data-settled="true"]`

// boot navigates to url and waits until the wasm has started and the page
// is interactive with all its settings mounted (go-app removes its loader
// once Go runs).
func boot(tb testing.TB, ctx context.Context, url string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitReady(chromedp.CSS(settled)),
	); err != nil {
		tb.Fatalf("page at %s did not become ready: %v", url, err)
	}
}

// viewport sets the tab's viewport to w × h CSS px (opts: a phone's scale
// and touch), as a window of that size would be.
func viewport(tb testing.TB, ctx context.Context, w, h int64, opts ...chromedp.EmulateViewportOption) {
	tb.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, opts...)); err != nil {
		tb.Fatalf("set the viewport to %d × %d: %v", w, h, err)
	}
}

// eval runs a JS expression (awaiting a promise) and decodes its value.
func eval[T any](tb testing.TB, ctx context.Context, js string) T {
	tb.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("evaluate %s: %v", firstLine(js), err)
	}
	return v
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// screenshot saves a full-page PNG under tests/out/ (gitignored).
func screenshot(tb testing.TB, ctx context.Context, name string) string {
	tb.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	// Capturing beyond the viewport resizes it twice (the page hears two
	// resize events: measured), and the page lays itself out again: a
	// click right after may land where a button was a moment before (in
	// one full e2e run TestCompareTwoRuns's click on Clear baseline, right
	// after a screenshot, did nothing). Let it settle first.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](afterFrames, chromedp.EvalAwaitPromise)); err != nil {
		tb.Errorf("screenshot %s: waiting for the page to settle: %v", name, err)
	}
	return saveShot(tb, name, buf)
}

// saveShot writes a PNG under tests/out/ (gitignored) as name.png and
// returns its path.
func saveShot(tb testing.TB, name string, png []byte) string {
	tb.Helper()
	dir := filepath.Join(repoRoot, "tests", "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// seenJS is a JS function telling whether an element is drawn: laid out,
// and not visually hidden for a screen reader alone (.sr-only's
// clip-path; presentation mode's numbers keep their lines so).
const seenJS = `(e => e.offsetParent !== null && getComputedStyle(e).clipPath != "inset(50%)")`

// afterFrames resolves (to undefined) after three animation frames, time
// for the page to handle a resize, a scroll or an event and draw what it
// laid out, or after a second in a hidden tab, which has no frames. Chain
// a read with .then(() => …) to take it after those frames.
const afterFrames = `new Promise(r => { setTimeout(r, 1000); requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))) })`

var errTimeout = errors.New("timed out")

// waitFor polls cond every 20 ms until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) error {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("%w after %s", errTimeout, d)
}
