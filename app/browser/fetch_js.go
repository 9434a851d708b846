//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hack-pad/safejs"
)

// fetchBody is the JavaScript that performs one fetch (cache "no-store",
// CORS mode, no credentials, an AbortController c) and calls done with one
// string: status, type, fetchStart, requestStart, responseStart,
// responseEnd, the answer's URL when the request was redirected (else ""),
// the headers ("name: value" lines) and the body (at most MaxBody bytes of
// it: bodyOf), separated by
// U+0001 (parseFetchResult reads it), or fail with the error. The timings
// are moved by shift onto the page's performance.now() clock (a worker's
// clock starts when the worker does); 0 stays 0 (not exposed). Doing the
// whole exchange in JavaScript and handing one string back costs a couple
// of Go↔JS crossings per request instead of thirty (README: facts, ~2 µs each)
// and no JS object for Go's finalizers to track.
const fetchBody = `
var called = performance.now();
fetch(url, {cache: "no-store", mode: "cors", credentials: "omit", signal: c.signal}).then(function (r) {
  return bodyOf(r).then(function (b) {
    return timingOf(url, r, called, b.read).then(function (e) {
      var h = "";
      r.headers.forEach(function (v, k) { h += k + ": " + v + "\n"; });
      var t = [0, 0, 0, 0];
      if (e) t = [e.fetchStart, e.requestStart, e.responseStart, e.responseEnd].map(function (x) { return x > 0 ? x + shift : 0; });
      var S = "\u0001";
      done(r.status + S + r.type + S + t[0] + S + t[1] + S + t[2] + S + t[3] + S + (r.redirected ? r.url : "") + S + h + S + b.text);
    });
  });
}).catch(fail);
// bodyOf is r's body, {text, read}: ` + maxBodyJS + ` bytes of it at most
// (MaxBody, what the native transport reads). A body its Content-Length
// says is within that is read with r.text(), whose end comes with its
// Resource Timing entry written; any other is read through a reader that
// is cancelled there (read true), so that a custom target's body of
// hundreds of megabytes (1.8 GB in the tab for four of 300 MB) or one that
// never ends neither fills the page's memory nor holds the attempt to its
// timeout (a security review). Read through the reader, the mock's entry
// was not yet there for 35, 37 and 4 of 50 answers, and attempts at one
// URL answered together took each other's entries (a fresh-clone CI:
// TestCustomTargetAttemptsHaveTheirOwnTimings). Left: a Content-Length is
// the length as sent, so a small compressed body still decodes whole.
function bodyOf(r) {
  var max = ` + maxBodyJS + `, len = r.headers.get("content-length");
  if (!r.body) return Promise.resolve({text: "", read: false});
  if (len !== null && +len <= max) return r.text().then(function (t) { return {text: t, read: false}; });
  var reader = r.body.getReader(), dec = new TextDecoder(), out = "", n = 0;
  return (function pump() {
    return reader.read().then(function (x) {
      if (x.done) return {text: out + dec.decode(), read: true};
      var v = x.value;
      if (n + v.length > max) { reader.cancel().catch(function () {}); return {text: out + dec.decode(v.subarray(0, max - n)), read: true}; }
      n += v.length; out += dec.decode(v, {stream: true});
      return pump();
    });
  })();
}
// timingOf is the fetch's Resource Timing entry (entryOf), or null. After
// a body read through the reader (read), the browser writes it a little
// later: 1.1–1.4 ms after a reader cancelled at 64 KiB, in an idle
// Chromium, and later under load (a fresh-clone CI lost a custom target's
// timings when this did not wait). So it waits for it then, up to 100 ms,
// unless none will come: the timing buffer is full
// (globalThis.retrylabTimingsFull, until the next run's prepare), or the
// page is hidden, where its timers wait a second.
function timingOf(url, r, called, read) {
  if (!globalThis.retrylabFullWatched && typeof performance.addEventListener === "function") {
    globalThis.retrylabFullWatched = true;
    performance.addEventListener("resourcetimingbufferfull", function () { globalThis.retrylabTimingsFull = true; });
  }
  var find = function () { return entryOf(entryName(url), called) || (r.url ? entryOf(r.url, called) : null); };
  var e = find();
  if (e || !read || globalThis.retrylabTimingsFull || (typeof document !== "undefined" && document.hidden)) return Promise.resolve(e);
  var until = performance.now() + 100;
  return new Promise(function (resolve) {
    (function look() {
      var e = find();
      if (e || performance.now() >= until) resolve(e);
      else setTimeout(look, 1);
    })();
  });
}
// entryName is the name of url's Resource Timing entry: the URL asked for,
// as the browser writes it (a fragment kept), which is not r.url, the
// answer's, after a redirect or with a fragment.
function entryName(url) { try { return new URL(url).href; } catch (e) { return url; } }
// entryOf is this fetch's Resource Timing entry among those named name:
// the earliest started at or after the call that no other fetch took
// (each takes its own, in globalThis.retrylabTaken). Every attempt at a custom
// target has one URL: the entry of its name written last, which this
// took before, was another attempt's whenever answers ended together.
function entryOf(name, called) {
  var taken = globalThis.retrylabTaken || (globalThis.retrylabTaken = new WeakSet()), best = null;
  performance.getEntriesByName(name, "resource").forEach(function (e) {
    if (e.startTime >= called && !taken.has(e) && (best === null || e.startTime < best.startTime)) best = e;
  });
  if (best) taken.add(best);
  return best;
}`

// fetchJS runs fetchBody on the page's thread (when no worker can be made)
// and returns the AbortController.
const fetchJS = `var c = new AbortController(), shift = 0;
var done = function (v) { settle(id, true, v); }, fail = function (e) { settle(id, false, e); };
` + fetchBody + `
return c;`

// workerJS is a dedicated worker that performs the fetches, so that
// fetch()'s own cost (0.5–1 ms of main-thread time per call in headless
// Chromium on two cores) is not paid on the page's thread: with hundreds of
// workers the page stays responsive. Messages in: [0, [[id, url,
// deadline], …]] fetch each, [1, id] abort, [2, n] raise the resource
// timing buffer to n and clear it. Messages out: [0] once the script runs
// (the worker loaded), then [id, 1, result] or [id, 0, name, message].
// pageOrigin, the page's performance.timeOrigin, is set before this script
// runs.
//
// deadline (on the page's performance.now() clock; 0: none) is the
// request's timeout, kept here on the worker's own clock: at it the request
// is aborted and fails as a "TimeoutError". The page's thread may be busy
// when its own timer is due (a long task, a frozen tab), and whatever it
// then learns first would decide; here the answer and the deadline are
// taken in order, as they happened.
const workerJS = `
var ctrls = new Map(), shift = performance.timeOrigin - pageOrigin;
function run(id, url, deadline) {
  var c = new AbortController(), timer = 0, timedOut = false;
  ctrls.set(id, c);
  var done = function (v) { clearTimeout(timer); ctrls.delete(id); postMessage([id, 1, v]); };
  var fail = function (e) {
    clearTimeout(timer); ctrls.delete(id);
    if (timedOut) postMessage([id, 0, "TimeoutError", "no answer by the deadline"]);
    else postMessage([id, 0, (e && e.name) || "", String((e && e.message) || e)]);
  };
  if (deadline > 0) timer = setTimeout(function () { timedOut = true; c.abort(); }, Math.max(0, deadline - (performance.now() + shift)));
` + fetchBody + `
}
onmessage = function (e) {
  var m = e.data;
  if (m[0] === 0) m[1].forEach(function (r) { run(r[0], r[1], r[2]); });
  else if (m[0] === 1) { var c = ctrls.get(m[1]); if (c) { ctrls.delete(m[1]); c.abort(); } }
  else if (m[0] === 2) { performance.setResourceTimingBufferSize(m[1]); performance.clearResourceTimings(); globalThis.retrylabTimingsFull = false; }
};
postMessage([0]);`

// startWorkerJS starts a fetch worker and returns [send(id, url),
// abort(id), prepare(n)]. The script, src, is the worker's whole source:
// a Blob URL keeps the page's origin (no script file to serve); with
// opaque, a data: URL gives the worker an opaque origin of its own, which
// no service worker controls (see workerPool), or a Blob URL where the
// browser throws for a data: worker. A worker the browser
// refuses after constructing it (a Content-Security-Policy without blob:
// or data: in worker-src: Chromium fires an error event, it does not
// throw) never loads: on an error before its first message, the fetches
// sent to it, and every later one, run on the page's thread (pageFetch:
// fetchJS) instead of waiting for their timeout, or for ever without one.
const startWorkerJS = `
var flushAfter = ` + flushAfterJS + `;
var script = "var pageOrigin = " + performance.timeOrigin + ";" + src, w;
if (opaque) {
  try {
    w = new Worker("data:text/javascript;charset=utf-8," + encodeURIComponent(script));
  } catch (e) {
    // a browser that refuses data: workers outright: the page's origin
  }
}
if (!w) {
  var u = URL.createObjectURL(new Blob([script], {type: "text/javascript"}));
  w = new Worker(u);
  URL.revokeObjectURL(u);
}
var ready = false, dead = false, sent = new Map(), local = new Map(), queue = [], queuedAt = 0;
function runLocal(id, url) {
  local.set(id, pageFetch(url, id, function (i, ok, v) { local.delete(i); settle(i, ok, v); }));
}
// The fetches asked for in one task go to the worker in one message, once
// the task is done: a run's opening burst is one postMessage, not fifty
// (each cost the page's thread ~0.2 ms on two cores). In a long task
// (a new page's first run, its code compiled as it first runs: 20–80 ms
// for the opening burst) those waiting flushAfter go at the next request:
// the first requests waited for the task's end, their hand-off that long.
function flush() {
  var q = queue; queue = [];
  if (dead) q.forEach(function (r) { if (sent.delete(r[0])) runLocal(r[0], r[1]); });
  else if (q.length > 0) w.postMessage([0, q]);
}
w.onmessage = function (e) {
  var d = e.data;
  if (d[0] === 0) { ready = true; return; }
  sent.delete(d[0]);
  if (d[1]) settle(d[0], true, d[2]); else settle(d[0], false, {name: d[2], message: d[3]});
};
w.onerror = function () {
  if (ready || dead) return;
  dead = true;
  var s = sent; sent = new Map();
  s.forEach(function (url, id) { runLocal(id, url); });
};
return [
  function (id, url, deadline) {
    if (dead) { runLocal(id, url); return; }
    sent.set(id, url);
    var now = performance.now();
    if (queue.push([id, url, deadline]) === 1) { queuedAt = now; queueMicrotask(flush); }
    else if (now - queuedAt >= flushAfter) flush();
  },
  function (id) {
    var c = local.get(id);
    if (c) { local.delete(id); c.abort(); return; }
    if (!sent.delete(id)) return;
    var i = queue.findIndex(function (r) { return r[0] === id; });
    if (i >= 0) queue.splice(i, 1); // not sent yet: never is
    else w.postMessage([1, id]);
  },
  function (n) { if (!dead) w.postMessage([2, n]); }
];`

// flushAfterJS is how long, in ms, a request waits in the page for the
// task that asked for it to end before the next request sends it to its
// worker (startWorkerJS's flush): one message per task, unless the task
// is long. (Handing a worker a burst in pieces of 6, 12 or 16 requests
// measured as in one: tests/README.md.)
const flushAfterJS = "5"

// fetchWorker is one dedicated worker that performs fetches (workerJS),
// started on first use, or the page's own thread.
type fetchWorker struct {
	opaque bool // started from a data: URL (an opaque origin) rather than a Blob URL
	page   bool // no worker: the fetches run on the page's thread

	once                 sync.Once
	send, abort, prepare safejs.Value
	ok                   bool // it runs: send, abort and prepare are set
}

var (
	fetchOnce sync.Once
	fetchFn   safejs.Value
	fetchErr  error

	// pageThread fetches with the page's origin, what a custom target's
	// CORS policy names, on the page's thread. A worker of the page's
	// origin (from a Blob URL) would have each of its requests handed to
	// the page's service worker first (see workerPool), and wait for it
	// to start or to finish installing: in TestCustomTargetAttemptsHave-
	// TheirOwnTimings, a page's first run had its first request start
	// 0.5–0.6 s after it was sent, in 2 of 4 runs (none of 4 on the
	// page's thread), and a first run's lateness p99 read 0.5–0.9 s
	// against 0.2–0.4 s (20 workers, 300 ms answers; later runs 50–80 ms
	// either way). The page's own requests to another origin go past the
	// service worker (app-worker.js's static routes).
	pageThread = &fetchWorker{page: true}
	// openPool fetches from an opaque origin, for servers that allow
	// every origin (Access-Control-Allow-Origin and Timing-Allow-Origin
	// "*", as the mock).
	openPool = &workerPool{}
)

// workerPool is FetchOpen's workers: one per core up to four, started on
// first use, taking the requests in turn. Two reasons, both measured in
// headless Chromium on two cores (README: facts):
//   - Chromium hands every fetch() of a dedicated worker the page created
//     (from a Blob URL or a script URL alike) to the page's service worker
//     first, and the static routes that send the page's own requests past
//     it do not apply to a worker's: in a burst of fifty that added 2–4 ms
//     before a request started (fetchStart − fetch() call, p99). A worker
//     from a data: URL has an opaque origin, which no service worker
//     controls: 0.5 ms.
//   - A fetch() call costs its thread 0.25–0.7 ms, so in a burst the last
//     request waits for every call before it; two threads make them two at
//     a time.
type workerPool struct {
	once sync.Once
	ws   []*fetchWorker
	next atomic.Uint32
}

// workers returns the pool's workers, deciding how many on first use.
func (p *workerPool) workers() []*fetchWorker {
	p.once.Do(func() {
		n := 2 // navigator.hardwareConcurrency unknown
		if nav, err := safejs.Global().Get("navigator"); err == nil {
			if c, err := nav.Get("hardwareConcurrency"); err == nil {
				if v, err := c.Int(); err == nil && v > 0 {
					n = min(v, 4)
				}
			}
		}
		for range n {
			p.ws = append(p.ws, &fetchWorker{opaque: true})
		}
	})
	return p.ws
}

// fetch sends the request to the next worker in turn.
func (p *workerPool) fetch(ctx context.Context, url string) (Response, error) {
	ws := p.workers()
	return ws[p.next.Add(1)%uint32(len(ws))].fetch(ctx, url)
}

// start starts the worker once; w.ok says whether it runs.
func (w *fetchWorker) start() {
	w.once.Do(func() {
		if w.page {
			return
		}
		b, err := getBridge()
		if err != nil {
			return
		}
		fns, err := newFetchWorker(b, w.opaque)
		if err != nil {
			return // no workers here (an old runtime): fetch on the page's thread
		}
		var errs [3]error
		w.send, errs[0] = fns.Index(0)
		w.abort, errs[1] = fns.Index(1)
		w.prepare, errs[2] = fns.Index(2)
		w.ok = errs[0] == nil && errs[1] == nil && errs[2] == nil
	})
}

// pageFetch is fetchJS compiled: one fetch on the page's thread.
func pageFetch() (safejs.Value, error) {
	fetchOnce.Do(func() { fetchFn, fetchErr = compile(fetchJS, "url", "id", "settle") })
	return fetchFn, fetchErr
}

// newFetchWorker runs startWorkerJS: [send, abort, prepare].
func newFetchWorker(b *bridge, opaque bool) (safejs.Value, error) {
	local, err := pageFetch()
	if err != nil {
		return safejs.Value{}, err
	}
	start, err := compile(startWorkerJS, "src", "opaque", "settle", "pageFetch")
	if err != nil {
		return safejs.Value{}, err
	}
	return start.Invoke(workerJS, opaque, b.fn.Value(), local)
}

// Fetch performs one GET with fetch(): cache "no-store" (Chromium serializes
// identical URLs behind its cache lock otherwise, README: facts), CORS mode
// with the page's origin, no credentials, and an AbortController tied to
// ctx so that cancelling ctx aborts the request on the wire. The fetch runs
// on the page's thread (pageThread says why). It returns once the body has
// been read. url must be absolute. A network failure or CORS rejection is
// a *JSError named "TypeError"; a cancelled ctx returns ctx.Err() at once.
func Fetch(ctx context.Context, url string) (Response, error) {
	return pageThread.fetch(ctx, url)
}

// FetchOpen is Fetch for a server that allows every origin, as the mock
// does (Access-Control-Allow-Origin and Timing-Allow-Origin "*"): the
// request comes from a worker with an opaque origin (Origin: null), out of
// the page's service worker's way, so it starts sooner. A server that
// names the origins it allows refuses it: use Fetch.
func FetchOpen(ctx context.Context, url string) (Response, error) {
	return openPool.fetch(ctx, url)
}

func (w *fetchWorker) fetch(ctx context.Context, url string) (Response, error) {
	b, err := getBridge()
	if err != nil {
		return Response{}, err
	}
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	w.start()
	out := Response{Sent: Now()}
	deadline := 0.0 // on the page's clock, as Now
	if d, ok := ctx.Deadline(); ok {
		deadline = max(out.Sent+float64(time.Until(d))/float64(time.Millisecond), 1e-3)
	}
	id, ch := b.register()
	var abort func()
	if w.ok {
		if _, err := w.send.Invoke(id, url, deadline); err != nil {
			b.forget(id)
			return out, fmt.Errorf("browser: fetch %s: %w", url, err)
		}
		abort = func() { _, _ = w.abort.Invoke(id) }
	} else {
		fn, err := pageFetch()
		if err != nil {
			b.forget(id)
			return out, err
		}
		ctrl, err := fn.Invoke(url, id, b.fn.Value())
		if err != nil {
			b.forget(id)
			return out, fmt.Errorf("browser: fetch %s: %w", url, err)
		}
		abort = func() { _, _ = ctrl.Call("abort") }
	}
	var r settled
	select {
	case r = <-ch:
	case <-ctx.Done():
		abort()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			b.forget(id) // Stop: at once, whatever was on its way
			return out, ctx.Err()
		}
		// The timeout, as this thread's timer saw it: late if the thread
		// was busy when it was due, and an answer that came in time may
		// be waiting behind it. The fetch's own side says which came
		// first: the worker keeps the deadline on its clock (workerJS),
		// and its messages arrive in order, so an answer it sent before
		// this abort reached it comes before the abort's failure.
		select {
		case r = <-ch:
		case <-time.After(settleGrace):
			b.forget(id)
			return out, ctx.Err()
		}
		if r.err != nil {
			return out, ctx.Err()
		}
	}
	if r.err != nil {
		var je *JSError
		if errors.As(r.err, &je) && je.Name == "TimeoutError" {
			return out, context.DeadlineExceeded // the worker's deadline came first
		}
		return out, r.err
	}
	return out, decodeFetch(r.v, &out)
}

// settleGrace bounds the wait, after a timeout, for the fetch to say how it
// ended: a worker answers an abort at once unless it is gone.
const settleGrace = time.Second

func decodeFetch(v safejs.Value, out *Response) error {
	raw, err := v.String()
	if err != nil {
		return err
	}
	return parseFetchResult(raw, out)
}

// Now returns performance.now() in milliseconds.
func Now() float64 {
	perf, err := safejs.Global().Get("performance")
	if err != nil {
		return 0
	}
	v, err := perf.Call("now")
	if err != nil {
		return 0
	}
	f, _ := v.Float()
	return f
}

// PrepareTimings raises the resource timing buffer to n entries (the
// default of 250 fills after a few seconds of a busy run, and later requests
// would lose their timing) and clears the entries of earlier runs, on the
// page and in the fetch worker a run will use: FetchOpen's when open, else
// Fetch's.
func PrepareTimings(n int, open bool) error {
	perf, err := safejs.Global().Get("performance")
	if err != nil {
		return err
	}
	if _, err := perf.Call("setResourceTimingBufferSize", n); err != nil {
		return err
	}
	if _, err = perf.Call("clearResourceTimings"); err != nil {
		return err
	}
	if err := safejs.Global().Set("retrylabTimingsFull", false); err != nil { // timingOf: entries come again
		return err
	}
	ws := []*fetchWorker{pageThread}
	if open {
		ws = openPool.workers()
	}
	for _, w := range ws {
		w.start() // before the run: its start-up is not the first request's
		if w.ok {
			if _, err := w.prepare.Invoke(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// httpPostJS sends one POST with fetch() and calls settle with its status and
// body, separated by U+0001.
const httpPostJS = `fetch(url, {method: "POST", cache: "no-store"}).then(function (r) {
  return r.text().then(function (t) { settle(id, true, r.status + "\u0001" + t); });
}).catch(function (e) { settle(id, false, e); });`

var httpPostFn lazyFunc

// Post sends an empty POST to url (the page's own server: the mock's fault
// switch) and returns the status and the body. A network failure is a
// *JSError; a cancelled ctx returns ctx.Err() (the request itself runs to
// its end).
func Post(ctx context.Context, url string) (int, string, error) {
	b, err := getBridge()
	if err != nil {
		return 0, "", err
	}
	fn, err := compiled(&httpPostFn, httpPostJS, "url", "id", "settle")
	if err != nil {
		return 0, "", err
	}
	id, ch := b.register()
	if _, err := fn.Invoke(url, id, b.fn.Value()); err != nil {
		b.forget(id)
		return 0, "", fmt.Errorf("browser: POST %s: %w", url, err)
	}
	var r settled
	select {
	case r = <-ch:
	case <-ctx.Done():
		b.forget(id)
		return 0, "", ctx.Err()
	}
	if r.err != nil {
		return 0, "", r.err
	}
	raw, err := r.v.String()
	if err != nil {
		return 0, "", err
	}
	return parsePostResult(raw) // its error unwrapped: the caller says which POST (a review read "POST /mock/outage: browser: POST http://…: browser: malformed …")
}
