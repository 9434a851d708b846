//go:build js && wasm

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hack-pad/safejs"
)

// These tests run in node (PATH=$PATH:$(go env GOROOT)/lib/wasm GOOS=js
// GOARCH=wasm go test ./app/browser/): timers, promises and the bridge are
// the same there as in a browser.

// Sleep never returns early; how late it returns is a figure of the
// machine's load, measured by BenchmarkSleepLateness, not asserted here.
func TestClockSleepNeverEarly(t *testing.T) {
	var c Clock
	for range 20 {
		start := time.Now()
		if err := c.Sleep(context.Background(), 7*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got < 7*time.Millisecond-earlyEnough {
			t.Fatalf("Sleep(7ms) returned after %v: early", got)
		}
	}
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

// BenchmarkSleepLateness: how late a 7 ms wait returns, with Clock.Sleep (a
// JavaScript setTimeout) and with Go's time.Sleep (the runtime's own timer
// in wasm), in the same run. The README's facts give them in Chromium (p99 0.4 ms
// and 4 ms late); under node on 2026-11-30, 100 waits each: Clock p50
// 0.67 / p99 3.5 ms, time.Sleep p50 0.48 / p99 1.5 ms.
//
//	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -run='^$' -bench=SleepLateness ./app/browser/
func BenchmarkSleepLateness(b *testing.B) {
	for _, tc := range []struct {
		name  string
		sleep func(time.Duration)
	}{
		{"Clock", func(d time.Duration) { _ = Clock{}.Sleep(context.Background(), d) }},
		{"time.Sleep", time.Sleep},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var late []time.Duration
			for b.Loop() {
				start := time.Now()
				tc.sleep(7 * time.Millisecond)
				late = append(late, time.Since(start)-7*time.Millisecond)
			}
			sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
			ms := func(q float64) float64 {
				return float64(late[min(len(late)-1, int(q*float64(len(late))))]) / float64(time.Millisecond)
			}
			b.ReportMetric(ms(0.5), "late-p50-ms")
			b.ReportMetric(ms(0.99), "late-p99-ms")
		})
	}
}

func TestClockSleepCancel(t *testing.T) {
	var c Clock
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- c.Sleep(ctx, time.Hour) }()
	time.Sleep(5 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Sleep = %v, want context.Canceled", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Sleep did not return after cancel")
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("cancel took %v", d)
	}
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered after cancel", n)
	}
	// An already cancelled context returns at once, before arming anything.
	if err := c.Sleep(ctx, time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep on a cancelled ctx = %v", err)
	}
}

func TestClockManySleepers(t *testing.T) {
	var c Clock
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 500
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- c.Sleep(ctx, time.Duration(i%20)*time.Millisecond) }()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

func promise(t *testing.T, body string) safejs.Value {
	t.Helper()
	fn, err := compile(body)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fn.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAwait(t *testing.T) {
	ctx := context.Background()
	v, err := Await(ctx, promise(t, `return new Promise(function (ok) { setTimeout(function () { ok(42); }, 2); });`))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := v.Int(); n != 42 {
		t.Errorf("resolved %v, want 42", n)
	}

	_, err = Await(ctx, promise(t, `return Promise.reject(new TypeError("Failed to fetch"));`))
	var je *JSError
	if !errors.As(err, &je) || je.Name != "TypeError" || je.Message != "Failed to fetch" {
		t.Errorf("rejection = %#v, want a *JSError TypeError", err)
	}
	_, err = Await(ctx, promise(t, `return Promise.reject("plain string");`))
	if !errors.As(err, &je) || je.Message != "plain string" {
		t.Errorf("string rejection = %v", err)
	}

	// A promise that never settles: cancelling returns at once and leaves nothing registered.
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if _, err := Await(cctx, promise(t, `return new Promise(function () {});`)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("never-settling promise = %v, want DeadlineExceeded", err)
	}
	// A promise settling after the wait was cancelled is ignored.
	lctx, lcancel := context.WithCancel(ctx)
	p := promise(t, `return new Promise(function (ok) { setTimeout(function () { ok(1); }, 20); });`)
	lcancel()
	if _, err := Await(lctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled await = %v", err)
	}
	time.Sleep(40 * time.Millisecond)
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

func TestFuncsAreCountedAndReleased(t *testing.T) {
	fakeDocument(t)
	live0, perm0 := LiveFuncs()
	for range 100 {
		stop, err := WatchVisibility(func(bool) {})
		if err != nil {
			t.Fatal(err)
		}
		if live, _ := LiveFuncs(); live != live0+1 {
			t.Fatalf("live funcs %d while watching, want %d", live, live0+1)
		}
		stop()
		stop() // idempotent
	}
	doc, _ := safejs.Global().Get("document")
	if l, _ := doc.Get("listeners"); !l.IsUndefined() {
		if n, _ := l.Int(); n != 0 {
			t.Errorf("%d visibilitychange listeners left", n)
		}
	}
	live, perm := LiveFuncs()
	if live != live0 || perm != perm0 {
		t.Errorf("live/permanent funcs %d/%d after 100 watch/stop cycles, want %d/%d", live, perm, live0, perm0)
	}
}

func TestBridgeIsPermanentAndSingle(t *testing.T) {
	if _, err := getBridge(); err != nil {
		t.Fatal(err)
	}
	live0, perm0 := LiveFuncs()
	ctx, cancel := context.WithCancel(context.Background())
	for range 200 {
		go Clock{}.Sleep(ctx, time.Hour)
	}
	runtime.Gosched()
	time.Sleep(5 * time.Millisecond)
	if live, perm := LiveFuncs(); live != live0 || perm != perm0 {
		t.Errorf("200 sleepers created functions: live %d→%d, permanent %d→%d", live0, live, perm0, perm)
	}
	if n := PendingWaits(); n != 200 {
		t.Errorf("pending waits %d, want 200", n)
	}
	cancel()
	time.Sleep(5 * time.Millisecond)
	if n := PendingWaits(); n != 0 {
		t.Errorf("pending waits %d after cancel, want 0", n)
	}
}

func TestFetchRejectsAndCancels(t *testing.T) {
	// node has fetch(); nothing listens on port 9 of the loopback.
	_, err := Fetch(context.Background(), "http://127.0.0.1:9/mock")
	var je *JSError
	if !errors.As(err, &je) || je.Name != "TypeError" {
		t.Errorf("fetch to a closed port = %v, want a TypeError *JSError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fetch(ctx, "http://127.0.0.1:9/mock"); !errors.Is(err, context.Canceled) {
		t.Errorf("fetch with a cancelled ctx = %v", err)
	}
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

func TestExpose(t *testing.T) {
	err := Expose("echo", func(args []string) string { return `{"n":` + args[0] + `}` })
	if err != nil {
		t.Fatal(err)
	}
	fn, err := compile(`return JSON.parse(globalThis.retrylab.echo(7)).n;`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := fn.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := v.Int(); n != 7 {
		t.Errorf("retrylab.echo(\"7\").n = %v, want 7", n)
	}
}

// fakeDocument gives node the little of document that WatchVisibility uses,
// counting listeners so the test can see they are removed.
func fakeDocument(t *testing.T) {
	t.Helper()
	if d, _ := safejs.Global().Get("document"); !d.IsUndefined() {
		return
	}
	fn, err := compile(`globalThis.document = {
  visibilityState: "visible", listeners: 0,
  addEventListener: function () { this.listeners++; },
  removeEventListener: function () { this.listeners--; }
};`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fn.Invoke(); err != nil {
		t.Fatal(err)
	}
}

func TestStreamDeliversAndReleases(t *testing.T) {
	// node has no EventSource: a fake that sends one message when opened.
	fake, err := compile(`globalThis.EventSource = function (url) {
  var self = this; self.url = url; self.closed = false; globalThis.lastES = self;
  setTimeout(function () { if (self.onmessage) self.onmessage({data: "hello " + url}); }, 1);
};
globalThis.EventSource.prototype.close = function () { this.closed = true; };`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fake.Invoke(); err != nil {
		t.Fatal(err)
	}
	live0, _ := LiveFuncs()
	got := make(chan string, 1)
	stop, err := Stream("/mock/events?key=k", false, func(d string) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-got:
		if d != "hello /mock/events?key=k" {
			t.Errorf("data %q", d)
		}
	case <-time.After(time.Second):
		t.Fatal("no message")
	}
	stop()
	stop()
	if live, _ := LiveFuncs(); live != live0 {
		t.Errorf("live funcs %d after stop, want %d", live, live0)
	}
	es, _ := safejs.Global().Get("lastES")
	if closed, _ := es.Get("closed"); !mustBool(closed) {
		t.Error("EventSource not closed")
	}
}

// A stream the server refused (EventSource closed for good, as after a
// 503) is opened again when Stream is asked to, after a wait, and told
// lost once; without retry it stays closed.
func TestStreamOpensARefusedStreamAgain(t *testing.T) {
	// node has no EventSource: a fake refused twice, then open with a
	// hello. The page asks what the refusal was with fetch (a fake too,
	// answering globalThis.status): a 503 is asked again, a 404 is told
	// and not asked again.
	fake, err := compile(`globalThis.opened = 0; globalThis.asked = 0; globalThis.aborted = 0;
var realFetch = globalThis.fetch, realEventSource = globalThis.EventSource;
globalThis.EventSource = function (url) {
  var self = this, n = ++globalThis.opened; self.readyState = 0; self.closed = false;
  setTimeout(function () {
    if (n <= 2) { self.readyState = 2; if (self.onerror) self.onerror({}); return; }
    self.readyState = 1; if (self.onmessage) self.onmessage({data: "hello"});
  }, 1);
};
globalThis.EventSource.prototype.close = function () { this.closed = true; this.readyState = 2; };
globalThis.fetch = function (url, opts) {
  globalThis.asked++;
  opts.signal.addEventListener("abort", function () { globalThis.aborted++; });
  if (globalThis.status < 0) return new Promise(function (ok, fail) { opts.signal.addEventListener("abort", function () { fail(new Error("aborted")); }); });
  var type = globalThis.status === 200 ? globalThis.type : "application/json";
  return Promise.resolve({status: globalThis.status, ok: globalThis.status === 200,
    headers: {get: function (k) { return k.toLowerCase() === "content-type" ? type : null; }}});
};
return function () { globalThis.fetch = realFetch; globalThis.EventSource = realEventSource; };`)
	if err != nil {
		t.Fatal(err)
	}
	restore, err := fake.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	// The fakes go: the next tests fetch for real (TestFetchWorkerRefusedLater
	// got the fake, and failed, when run after this one; a review).
	defer func() { _, _ = restore.Invoke() }()
	after, jitter := streamRetryAfter, streamRetryJitter
	streamRetryAfter, streamRetryJitter = time.Millisecond, time.Millisecond
	defer func() { streamRetryAfter, streamRetryJitter = after, jitter }()
	count := func(name string) int { v, _ := safejs.Global().Get(name); n, _ := v.Int(); return n }
	for _, tt := range []struct {
		retry  bool
		status int
		typ    string // a 200's Content-Type
		// opens of the stream, asks with fetch, and whether it ends
		// with the hello or a refusal
		opens, asks int
		ends        string
	}{
		{true, 503, "", 3, 2, "hello"},
		{true, 502, "", 3, 2, "hello"}, // a proxy's, its server away a moment
		{true, 200, "text/event-stream", 3, 2, "hello"},
		{true, 404, "", 1, 1, `"type":"refused","status":404`},
		{true, 401, "", 1, 1, `"type":"refused","status":401`},
		// A proxy's page or a login form: asked again for ever, told as
		// too many streams (a review).
		{true, 200, "text/html; charset=utf-8", 1, 1, `"type":"refused","status":200`},
		// Stopped while asking: the question is aborted, nothing opens.
		{true, -1, "", 1, 1, `"type":"lost"`},
		{false, 503, "", 1, 0, `"type":"lost"`},
	} {
		for _, k := range []string{"opened", "asked", "aborted"} {
			if err := safejs.Global().Set(k, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := safejs.Global().Set("status", tt.status); err != nil {
			t.Fatal(err)
		}
		if err := safejs.Global().Set("type", tt.typ); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 10)
		stop, err := Stream("/mock/events?key=k", tt.retry, func(d string) { got <- d })
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		wait := 2 * time.Second
		if tt.ends != "hello" {
			wait = 300 * time.Millisecond // nothing more comes
		}
		deadline := time.After(wait)
	read:
		for {
			select {
			case d := <-got:
				said = append(said, d)
				if d == "hello" {
					break read
				}
			case <-deadline:
				break read
			}
		}
		stop()
		lost := 0
		for _, d := range said {
			if strings.Contains(d, `"type":"lost"`) {
				lost++
			}
		}
		if n := len(said); count("opened") != tt.opens || count("asked") != tt.asks || count("aborted") != tt.asks ||
			lost != 1 || n == 0 || !strings.Contains(said[n-1], tt.ends) {
			t.Errorf("retry %v, refused with %d: opened %d, asked %d (aborted %d), told %q; want %d opens, %d asks, lost once, last %s",
				tt.retry, tt.status, count("opened"), count("asked"), count("aborted"), said, tt.opens, tt.asks, tt.ends)
		}
	}
}

func mustBool(v safejs.Value) bool {
	b, _ := v.Bool()
	return b
}

// Yield comes back through the event loop and leaves nothing registered; a
// cancelled context returns at once.
func TestClockYield(t *testing.T) {
	var c Clock
	ran := make(chan struct{})
	go func() { close(ran) }() // runnable before the yield: it runs first
	c.Yield(context.Background())
	select {
	case <-ran:
	default:
		t.Error("a runnable goroutine did not run during Yield")
	}
	for range 100 {
		c.Yield(context.Background())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c.Yield(ctx)
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

// AfterPaint comes back with no frames to wait for (node has no
// requestAnimationFrame, like a hidden page): by its 100 ms fallback, not
// sooner than a task later, and it leaves nothing registered; a context
// that ends first returns at once.
func TestClockAfterPaint(t *testing.T) {
	var c Clock
	t0 := time.Now()
	c.AfterPaint(context.Background())
	if d := time.Since(t0); d < 90*time.Millisecond || d > 2*time.Second {
		t.Errorf("AfterPaint without frames took %v, want the 100 ms fallback", d)
	}
	// The quickest of three: on a busy machine node's event loop can stall
	// past the 100 ms fallback (143 ms once during a parallel build), and
	// a stall delays the return whichever way it comes.
	fastest := time.Hour
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		t0 = time.Now()
		c.AfterPaint(ctx)
		fastest = min(fastest, time.Since(t0))
		cancel()
	}
	if fastest > 80*time.Millisecond {
		t.Errorf("AfterPaint took at least %v after its context ended at 10 ms", fastest)
	}
	time.Sleep(150 * time.Millisecond) // the abandoned fallback fires and is ignored
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

// Without IntersectionObserver (node has none) WatchOnScreen says the
// element shows, once, so a page never waits for frames that would not come.
func TestWatchOnScreenWithoutObserver(t *testing.T) {
	var calls []bool
	stop, err := WatchOnScreen("timeline", func(on bool) { calls = append(calls, on) })
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if len(calls) != 1 || !calls[0] {
		t.Errorf("calls %v, want [true]", calls)
	}
}

// A fetch worker the browser refuses after constructing it (Chromium, for
// a Content-Security-Policy without blob: in worker-src, fires an error
// event; it does not throw) never answers: the fetches sent to it, and
// the later ones, run on the page's thread instead of waiting for their
// timeout (or for ever without one).
func TestFetchWorkerRefusedLater(t *testing.T) {
	// node has no Worker: a fake that fails to load, as a blocked one does.
	fake, err := compile(`var saved = globalThis.Worker;
globalThis.Worker = function () {
  var self = this; self.posted = 0;
  setTimeout(function () { if (self.onerror) self.onerror({type: "error"}); }, 20);
};
globalThis.Worker.prototype.postMessage = function () { this.posted++; };
return function () { globalThis.Worker = saved; };`)
	if err != nil {
		t.Fatal(err)
	}
	restore, err := fake.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = restore.Invoke() }()
	b, err := getBridge()
	if err != nil {
		t.Fatal(err)
	}
	fns, err := newFetchWorker(b, false)
	if err != nil {
		t.Fatal(err)
	}
	send, _ := fns.Index(0)
	for i, url := range []string{"data:text/plain,before", "data:text/plain,after"} {
		if i == 1 {
			time.Sleep(50 * time.Millisecond) // the worker has failed by now
		}
		id, ch := b.register()
		if _, err := send.Invoke(id, url); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-ch:
			var out Response
			if r.err != nil {
				t.Fatalf("%s: %v", url, r.err)
			}
			if err := decodeFetch(r.v, &out); err != nil || out.Status != 200 || out.Body != url[len("data:text/plain,"):] {
				t.Errorf("%s: %+v, %v", url, out, err)
			}
		case <-time.After(3 * time.Second):
			b.forget(id)
			t.Errorf("%s: sent to a worker that never loaded, no answer", url)
		}
	}
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

// fakeWorkersJS replaces Worker with a fake that loads at once and answers
// every fetch with 200 and, as its body, its own index among the fakes
// made; navigator.hardwareConcurrency is cores (none when 0); with noData
// it throws for a data: URL, as a browser that refuses such workers. It returns
// [restore(), the fakes' URLs, how many fetches each fake was sent].
const fakeWorkersJS = `var saved = globalThis.Worker, savedNav = Object.getOwnPropertyDescriptor(globalThis, "navigator");
var urls = [], sent = [];
Object.defineProperty(globalThis, "navigator", {value: cores ? {hardwareConcurrency: cores} : undefined, configurable: true, writable: true});
globalThis.Worker = function (url) {
  if (noData && String(url).indexOf("data:") === 0) throw new DOMException("data: workers are not allowed", "SecurityError");
  var self = this, i = urls.length;
  urls.push(String(url)); sent.push("0");
  setTimeout(function () { self.onmessage({data: [0]}); }, 0);
  self.postMessage = function (m) {
    if (m[0] !== 0) return;
    m[1].forEach(function (r) {
      sent[i] = String(Number(sent[i]) + 1);
      var S = "\u0001";
      setTimeout(function () { self.onmessage({data: [r[0], 1, "200" + S + "cors" + S + "0" + S + "0" + S + "0" + S + "0" + S + S + S + i]}); }, 0);
    });
  };
};
return [function () {
  globalThis.Worker = saved;
  if (savedNav) Object.defineProperty(globalThis, "navigator", savedNav); else delete globalThis.navigator;
}, urls, sent];`

// fakeWorkers installs fakeWorkersJS for the test.
func fakeWorkers(t *testing.T, cores int, noData bool) (urls, sent func() []string) {
	t.Helper()
	fake, err := compile(fakeWorkersJS, "cores", "noData")
	if err != nil {
		t.Fatal(err)
	}
	r, err := fake.Invoke(cores, noData)
	if err != nil {
		t.Fatal(err)
	}
	restore, _ := r.Index(0)
	t.Cleanup(func() { _, _ = restore.Invoke() })
	list := func(i int) func() []string {
		return func() []string {
			a, _ := r.Index(i)
			n, _ := a.Length()
			out := make([]string, n)
			for j := range n {
				v, _ := a.Index(j)
				out[j], _ = v.String()
			}
			return out
		}
	}
	return list(1), list(2)
}

// FetchOpen's workers start from data: URLs (an opaque origin, which no
// service worker controls: their requests start sooner); a worker that is
// not opaque from a Blob URL (the page's origin). A browser that throws
// for a data: worker gets a Blob URL one. Fetch, for a custom target,
// starts none: its requests run on the page's thread, past the service
// worker (pageThread).
func TestFetchWorkerOrigins(t *testing.T) {
	if pageThread.start(); pageThread.ok {
		t.Error("Fetch started a worker: a worker of the page's origin has its requests wait for the service worker")
	}
	for _, noData := range []bool{false, true} {
		urls, _ := fakeWorkers(t, 1, noData)
		for _, w := range []*fetchWorker{{opaque: true}, {}} {
			r, err := w.fetch(context.Background(), "http://example.test/")
			if err != nil || r.Status != 200 || !w.ok {
				t.Fatalf("opaque %v, data: refused %v: %+v, %v (worker runs: %v)", w.opaque, noData, r, err, w.ok)
			}
		}
		want := "data:text/javascript"
		if noData {
			want = "blob:"
		}
		if got := urls(); len(got) != 2 || !strings.HasPrefix(got[0], want) || !strings.HasPrefix(got[1], "blob:") {
			t.Errorf("data: refused %v: workers made from %.60q, want %s, then blob:", noData, got, want)
		}
	}
}

// FetchOpen's pool has a worker per core, at most four (two when the
// browser does not say), and sends the requests to them in turn.
func TestFetchPoolTakesTurns(t *testing.T) {
	for _, c := range []struct{ cores, want int }{{0, 2}, {1, 1}, {3, 3}, {16, 4}} {
		_, sent := fakeWorkers(t, c.cores, false)
		p := &workerPool{}
		bodies := map[string]int{}
		for range 4 * c.want {
			r, err := p.fetch(context.Background(), "http://example.test/")
			if err != nil {
				t.Fatal(err)
			}
			bodies[r.Body]++
		}
		if got := sent(); len(got) != c.want || len(bodies) != c.want {
			t.Errorf("%d cores: %d workers made, answers from %v; want %d", c.cores, len(got), bodies, c.want)
		}
		for i, n := range sent() {
			if n != "4" {
				t.Errorf("%d cores: worker %d was sent %s requests of %d, want 4", c.cores, i, n, 4*c.want)
			}
		}
	}
}

// FloatBeside reads no layout while its element has no point to be placed
// at: it also runs at once, inside the page's first mount, where reading
// offsetParent forced a layout of the whole page (~60 ms, before the page
// was interactive). Given a point, it places the element where place says.
func TestFloatBesideReadsNoLayoutUntilPlaced(t *testing.T) {
	fake, err := compile(`var saved = {doc: globalThis.document, mo: globalThis.MutationObserver, add: globalThis.addEventListener, remove: globalThis.removeEventListener};
var reads = 0, observed = null;
var rect = function (l, t, w, h) { return function () { reads++; return {left: l, top: t, width: w, height: h}; }; };
var parent = {clientLeft: 0, clientTop: 0, getBoundingClientRect: rect(10, 20, 800, 600)};
var tip = {dataset: {}, style: {left: "9px", top: "9px"}, getBoundingClientRect: rect(0, 0, 120, 40)};
Object.defineProperty(tip, "offsetParent", {get: function () { reads++; return parent; }});
var canvas = {getBoundingClientRect: rect(100, 200, 600, 300)};
globalThis.document = {documentElement: {clientWidth: 1400, clientHeight: 1000},
  getElementById: function (id) { return id === "tip" ? tip : id === "canvas" ? canvas : null; }};
globalThis.MutationObserver = function (f) { observed = f; };
globalThis.MutationObserver.prototype.observe = function () {};
globalThis.MutationObserver.prototype.disconnect = function () {};
globalThis.addEventListener = globalThis.removeEventListener = function () {};
return {
  reads: function () { return reads; },
  style: function () { return tip.style.left + " " + tip.style.top; },
  point: function () { tip.dataset.x = "5"; tip.dataset.y = "7"; observed(); },
  restore: function () { globalThis.document = saved.doc; globalThis.MutationObserver = saved.mo; globalThis.addEventListener = saved.add; globalThis.removeEventListener = saved.remove; },
};`)
	if err != nil {
		t.Fatal(err)
	}
	h, err := fake.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	call := func(name string) safejs.Value {
		t.Helper()
		v, err := h.Call(name)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	defer call("restore")
	var got Float
	stop, err := FloatBeside("tip", "canvas", func(f Float) (float64, float64) { got = f; return f.X + 10, f.Y + 10 })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if n, _ := call("reads").Int(); n != 0 {
		t.Errorf("with no point, setting up read layout %d times", n)
	}
	if s, _ := call("style").String(); s != " " {
		t.Errorf("with no point, the element's left and top are %q, want cleared", s)
	}
	call("point")
	if n, _ := call("reads").Int(); n == 0 {
		t.Error("given a point, the element was placed without reading where things are")
	}
	// The point is (5, 7) in the canvas at (100, 200): (105, 207) in the
	// viewport; place puts the box 10 px further, and the style is in the
	// offset parent at (10, 20).
	if got.X != 105 || got.Y != 207 || got.W != 120 || got.H != 40 || got.ViewW != 1400 || got.ViewH != 1000 {
		t.Errorf("place got %+v", got)
	}
	if s, _ := call("style").String(); s != "105px 197px" {
		t.Errorf("placed at %q, want 105px 197px", s)
	}
}

// sandboxWorker runs workerJS as a worker would, with fetch() the fake
// fetchJS defines, and returns deliver(message) and the messages the
// worker posted, as JSON.
func sandboxWorker(t *testing.T, fetchJS string) (deliver, posted safejs.Value) {
	t.Helper()
	fn, err := compile(`var posted = [], onmessage, pageOrigin = performance.timeOrigin;
var postMessage = function (m) { posted.push(JSON.stringify(m)); };
` + fetchJS + workerJS + `
return [function (m) { onmessage({data: m}); }, posted];`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := fn.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	deliver, _ = r.Index(0)
	posted, _ = r.Index(1)
	return deliver, posted
}

// workerAnswers is what a sandboxed worker posted for each request id:
// "ok <body>" or "failed <name>".
func workerAnswers(t *testing.T, posted safejs.Value) map[float64]string {
	t.Helper()
	n, _ := posted.Length()
	got := map[float64]string{}
	for i := range n {
		v, _ := posted.Index(i)
		raw, _ := v.String()
		var m []any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		if len(m) < 3 {
			continue // [0]: loaded
		}
		id, _ := m[0].(float64)
		if _, dup := got[id]; dup {
			t.Errorf("request %v answered twice", id)
		}
		if m[1] == 1.0 {
			body, _ := m[2].(string)
			got[id] = "ok " + body[strings.LastIndex(body, "\u0001")+len("\u0001"):]
		} else {
			got[id] = fmt.Sprint("failed ", m[2])
		}
	}
	return got
}

// slowFastFetchJS is a fake fetch(): "fast" answers after 5 ms, "slow"
// after 80 ms, each with its URL as its body and its Content-Length (read
// with r.text(): no wait for a Resource Timing entry, which node never
// writes for a fake); both reject with an AbortError when aborted first.
const slowFastFetchJS = `var fetch = function (url, opts) {
  return new Promise(function (resolve, reject) {
    var t = setTimeout(function () {
      resolve(new Response(url, {status: 200, headers: {"Content-Length": String(url.length)}}));
    }, url === "fast" ? 5 : 80);
    opts.signal.addEventListener("abort", function () { clearTimeout(t); reject(new DOMException("aborted", "AbortError")); });
  });
};
`

// The fetch worker keeps a request's deadline on its own clock: at it the
// request is aborted and fails as a TimeoutError; an answer before it, or
// an abort from the page, is posted as before.
func TestWorkerKeepsTheDeadline(t *testing.T) {
	deliver, posted := sandboxWorker(t, slowFastFetchJS)
	now := Now()
	if _, err := deliver.Invoke([]any{0, []any{
		[]any{1, "slow", now + 20},  // the deadline comes first
		[]any{2, "fast", now + 200}, // the answer comes first
		[]any{3, "slow", 0},         // no deadline: aborted by the page below
		[]any{4, "slow", now - 5},   // a deadline already past
	}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if _, err := deliver.Invoke([]any{1, 3}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	got := workerAnswers(t, posted)
	want := map[float64]string{1: "failed TimeoutError", 2: "ok fast", 3: "failed AbortError", 4: "failed TimeoutError"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the worker posted %v, want %v", got, want)
	}
}

// deadlineWorkersJS replaces Worker with a fake whose answer depends on the
// URL: "late" answers 200 after 300 ms, whatever comes (an answer posted
// before the page's abort reached it); "hang" answers only an abort, with
// an AbortError; "expire" fails as a TimeoutError after 10 ms (its own
// deadline came first). It returns [restore(), the deadlines it was sent].
const deadlineWorkersJS = `var saved = globalThis.Worker, deadlines = [];
globalThis.Worker = function () {
  var self = this, urls = new Map();
  setTimeout(function () { self.onmessage({data: [0]}); }, 0);
  var answer = function (m, delay) { setTimeout(function () { self.onmessage({data: m}); }, delay); };
  self.postMessage = function (m) {
    if (m[0] === 1) {
      if (urls.get(m[1]) === "hang") answer([m[1], 0, "AbortError", "aborted"], 0);
      return;
    }
    if (m[0] !== 0) return;
    m[1].forEach(function (r) {
      urls.set(r[0], r[1]);
      deadlines.push(r[2]);
      var S = "\u0001";
      if (r[1] === "late") answer([r[0], 1, "200" + S + "cors" + S + "0" + S + "0" + S + "0" + S + "0" + S + S + S + "late"], 300);
      if (r[1] === "expire") answer([r[0], 0, "TimeoutError", "no answer by the deadline"], 10);
    });
  };
};
return [function () { globalThis.Worker = saved; }, deadlines];`

// After a timeout the fetch's own side says how the request ended: an
// answer the worker sent before the page's abort reached it is the
// request's outcome (the page's timer was late, say behind a long task),
// not a timeout; a request still out is aborted and times out; the
// worker's own deadline (sent with each request) is a timeout too. Stop
// returns at once.
func TestFetchTimeoutAsTheWorkerSawIt(t *testing.T) {
	deadlines, _ := install(t, deadlineWorkersJS).Index(1)
	w := &fetchWorker{opaque: true}
	// Started before the cases' clocks: making the worker (compiling its
	// script) took over 30 ms on a loaded machine, and a request whose
	// timeout had run out before it was handed over is never sent. For the
	// same reason the timeouts are 150 ms, not the 30 ms they were: under
	// a load of 10 (three e2e suites alongside) a 30 ms timeout once ran
	// out before the request was handed to the worker, and "late" timed
	// out.
	w.start()
	for _, c := range []struct {
		url     string
		timeout time.Duration
		stop    bool // cancel at 20 ms instead
		want    string
	}{
		{"late", 150 * time.Millisecond, false, "200 late"},
		{"hang", 150 * time.Millisecond, false, "timeout"},
		{"expire", time.Second, false, "timeout"},
		{"late", 0, true, "cancelled"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
		if c.stop {
			ctx, cancel = context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
		}
		start := time.Now()
		sentAt := Now()
		res, err := w.fetch(ctx, c.url)
		took := time.Since(start)
		cancel()
		got := fmt.Sprint(res.Status, " ", res.Body)
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			got = "timeout"
		case errors.Is(err, context.Canceled):
			got = "cancelled"
		case err != nil:
			got = err.Error()
		}
		if got != c.want || took >= settleGrace {
			t.Errorf("%s, timeout %v, stop %v: %s after %v; want %s, before the grace runs out", c.url, c.timeout, c.stop, got, took, c.want)
		}
		n, _ := deadlines.Length()
		v, _ := deadlines.Index(n - 1)
		d, _ := v.Float()
		want := sentAt + float64(c.timeout)/float64(time.Millisecond)
		if c.stop {
			want = 0
		}
		if d < want-20 || d > want+20 {
			t.Errorf("%s: deadline sent %.1f, want %.1f (the page's clock)", c.url, d, want)
		}
	}
	if n := PendingWaits(); n != 0 {
		t.Errorf("%d waits still registered", n)
	}
}

// The fetches asked of a worker in one task reach it in one message, once
// the task is done (a run's opening burst of fifty cost the page's thread
// fifty postMessage calls); one aborted before then is never sent.
func TestFetchWorkerBatchesATask(t *testing.T) {
	messages, _ := install(t, `var saved = globalThis.Worker, messages = [];
globalThis.Worker = function () {
  var self = this;
  setTimeout(function () { self.onmessage({data: [0]}); }, 0);
  self.postMessage = function (m) { messages.push(JSON.stringify(m)); };
};
return [function () { globalThis.Worker = saved; }, messages];`).Index(1)
	b, err := getBridge()
	if err != nil {
		t.Fatal(err)
	}
	fns, err := newFetchWorker(b, true)
	if err != nil {
		t.Fatal(err)
	}
	send, _ := fns.Index(0)
	abort, _ := fns.Index(1)
	// One JavaScript task: five sends, then an abort of the third.
	task, err := compile(`for (var i = 1; i <= 5; i++) send(i, "http://example.test/" + i, 0); abort(3);`, "send", "abort")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := task.Invoke(send, abort); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	var got []string
	n, _ := messages.Length()
	for i := range n {
		v, _ := messages.Index(i)
		s, _ := v.String()
		got = append(got, s)
	}
	want := `[0,[[1,"http://example.test/1",0],[2,"http://example.test/2",0],[4,"http://example.test/4",0],[5,"http://example.test/5",0]]]`
	if len(got) != 1 || got[0] != want {
		t.Errorf("the worker was sent %q, want one message %s", got, want)
	}
}

// A stream whose connection drops tells fn once, {"type":"lost",…}, until
// the next message (the browser's reconnects may fail many times over).
func TestStreamSaysWhenLost(t *testing.T) {
	got := fakeStream(t)
	fire, err := compile(`var es = globalThis.lastES;
es.onerror({}); es.onerror({});
setTimeout(function () { es.onmessage({data: "back"}); es.onerror({}); }, 40);`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fire.Invoke(); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	deadline := time.After(time.Second)
	for len(msgs) < 3 {
		select {
		case d := <-got:
			msgs = append(msgs, d)
		case <-deadline:
			t.Fatalf("got %q, want lost, back, lost", msgs)
		}
	}
	if !strings.HasPrefix(msgs[0], `{"type":"lost","at":"`) || msgs[1] != "back" || !strings.HasPrefix(msgs[2], `{"type":"lost"`) {
		t.Errorf("got %q, want one lost for two errors, the message, then lost again", msgs)
	}
	select {
	case d := <-got:
		t.Errorf("one more message: %q", d)
	case <-time.After(50 * time.Millisecond):
	}
}

// A stream's hello is handed over at once, not after the batch's wait
// (streamFlushMS): a run waits for it before it starts. Other messages
// still wait for their batch.
func TestStreamHandsTheHelloOverAtOnce(t *testing.T) {
	got := fakeStream(t)
	say, err := compile(`globalThis.lastES.onmessage({data: d});`, "d")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := say.Invoke(`{"type":"arrival","seq":1}`); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-got:
		t.Fatalf("an arrival handed over at once: %q, want it in its batch", d)
	default:
	}
	hello := `{"type":"hello","key":"k","at":"2026-12-07T10:00:00Z"}`
	if _, err := say.Invoke(hello); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for len(msgs) < 2 {
		select {
		case d := <-got:
			msgs = append(msgs, d)
		default:
			t.Fatalf("after the hello's message event returned, Go had %q, want the arrival and the hello at once", msgs)
		}
	}
	if msgs[1] != hello {
		t.Errorf("got %q, want the arrival, then the hello", msgs)
	}
}

// A stream's loss is told by the wall clock as it reads when Go is told,
// less the time since the loss by the monotonic clock: a device's clock
// set back 2 s between the loss and the hand-over (up to streamFlushMS; a
// hidden tab's timers, up to a minute) moved the loss 2 s, and with it the
// bounds a watch puts on the server's clock (helper-151's review).
func TestStreamLossIsTimedOnTheMonotonicClock(t *testing.T) {
	install(t, `var saved = globalThis.Date; return function () { globalThis.Date = saved; };`)
	got := fakeStream(t)
	// The stream is lost, then the clock is set back 2 s (Go's time.Now
	// reads the same Date), before the batch is handed over.
	fire, err := compile(`globalThis.lastES.onerror({});
var real = Date, skew = -2000;
function Skewed(...a) { return a.length ? new real(...a) : new real(real.now() + skew); }
Skewed.now = function () { return real.now() + skew; };
Skewed.prototype = real.prototype;
globalThis.Date = Skewed;`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fire.Invoke(); err != nil {
		t.Fatal(err)
	}
	var d string
	select {
	case d = <-got:
	case <-time.After(time.Second):
		t.Fatal("no message after the stream was lost")
	}
	now := time.Now().Round(0)
	var e struct {
		Type string    `json:"type"`
		At   time.Time `json:"at"`
	}
	if err := json.Unmarshal([]byte(d), &e); err != nil || e.Type != "lost" {
		t.Fatalf("got %q (%v), want a lost message", d, err)
	}
	if ago := now.Sub(e.At); ago < 0 || ago > 500*time.Millisecond {
		t.Errorf("the loss is told %v before now by the page's clock set back 2 s after it, want 0–500 ms (the hand-over's wait, %v)", ago, streamFlushMS*time.Millisecond)
	}
}

// fakeStream opens a Stream on a fake EventSource (globalThis.lastES, to
// fire its events from) for the test, and returns what it hands over.
func fakeStream(t *testing.T) <-chan string {
	t.Helper()
	install(t, `var saved = globalThis.EventSource;
globalThis.EventSource = function (url) { globalThis.lastES = this; };
globalThis.EventSource.prototype.close = function () {};
return function () { globalThis.EventSource = saved; };`)
	got := make(chan string, 10)
	stop, err := Stream("/mock/events?key=k", false, func(d string) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return got
}

// install runs js, a fake of a browser API that returns [restore(), …],
// puts the API back when the test ends, and returns what it returned.
func install(t *testing.T, js string) safejs.Value {
	t.Helper()
	fake, err := compile(js)
	if err != nil {
		t.Fatal(err)
	}
	r, err := fake.Invoke()
	if err != nil {
		t.Fatal(err)
	}
	restore, err := r.Index(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = restore.Invoke() })
	return r
}

// bodyFetchJS is a fake fetch() answering real Responses: "small" a body
// of 5 bytes, "big" 1 MB with no Content-Length, "endless" a stream that
// never ends, "compressed" 1 MB under a Content-Length of 60,000 (the
// length as sent: a gzip body decodes to more), "empty" a 204 with no body.
const bodyFetchJS = `var fetch = function (url, opts) {
  var chunk = new Uint8Array(16384).fill(120);
  switch (url) {
  case "small": return Promise.resolve(new Response("hello", {status: 200}));
  case "big": return Promise.resolve(new Response("x".repeat(1 << 20), {status: 200}));
  case "endless": return Promise.resolve(new Response(new ReadableStream({pull: function (c) { c.enqueue(chunk); }}), {status: 200}));
  case "compressed": return Promise.resolve(new Response("x".repeat(1 << 20), {status: 200, headers: {"Content-Length": "60000"}}));
  }
  return Promise.resolve(new Response(null, {status: 204}));
};
`

// TestFetchReadsAtMostMaxBody: a fetch reads at most MaxBody bytes of a
// body that does not say it is shorter, and ends on a body that never
// does; a short body, or none, is read whole.
func TestFetchReadsAtMostMaxBody(t *testing.T) {
	deliver, posted := sandboxWorker(t, bodyFetchJS)
	if _, err := deliver.Invoke([]any{0, []any{[]any{1, "small", 0}, []any{2, "big", 0}, []any{3, "endless", 0}, []any{4, "empty", 0}}}); err != nil {
		t.Fatal(err)
	}
	var got map[float64]string
	for deadline := time.Now().Add(5 * time.Second); len(got) < 4 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		got = workerAnswers(t, posted)
	}
	read := map[float64]int{} // id: the body's length
	for id, a := range got {
		body, ok := strings.CutPrefix(a, "ok ")
		if !ok {
			t.Fatalf("request %v: %s", id, a)
		}
		read[id] = len(body)
	}
	want := map[float64]int{1: 5, 2: MaxBody, 3: MaxBody, 4: 0}
	if fmt.Sprint(read) != fmt.Sprint(want) {
		t.Errorf("bodies read: %v bytes, want %v", read, want)
	}
}
