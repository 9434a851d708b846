//go:build js && wasm

package browser

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hack-pad/safejs"
)

// fetchBody is the JavaScript that performs one fetch (cache "no-store",
// CORS mode, no credentials, an AbortController c) and calls done with one
// string: status, type, fetchStart, requestStart, responseStart,
// responseEnd, the headers ("name: value" lines) and the body, separated by
// U+0001 (parseFetchResult reads it), or fail with the error. The timings
// are moved by shift onto the page's performance.now() clock (a worker's
// clock starts when the worker does); 0 stays 0 (not exposed). Doing the
// whole exchange in JavaScript and handing one string back costs a couple
// of Go↔JS crossings per request instead of thirty (README: facts, ~2 µs each)
// and no JS object for Go's finalizers to track.
const fetchBody = `
fetch(url, {cache: "no-store", mode: "cors", credentials: "omit", signal: c.signal}).then(function (r) {
  return r.text().then(function (body) {
    var h = "";
    r.headers.forEach(function (v, k) { h += k + ": " + v + "\n"; });
    var t = [0, 0, 0, 0];
    var es = performance.getEntriesByName(r.url || url, "resource");
    if (es.length > 0) {
      var e = es[es.length - 1];
      t = [e.fetchStart, e.requestStart, e.responseStart, e.responseEnd].map(function (x) { return x > 0 ? x + shift : 0; });
    }
    var S = "\u0001";
    done(r.status + S + r.type + S + t[0] + S + t[1] + S + t[2] + S + t[3] + S + h + S + body);
  });
}).catch(fail);`

// fetchJS runs fetchBody on the page's thread (when no worker can be made)
// and returns the AbortController.
const fetchJS = `var c = new AbortController(), shift = 0;
var done = function (v) { settle(id, true, v); }, fail = function (e) { settle(id, false, e); };
` + fetchBody + `
return c;`

// workerJS is a dedicated worker that performs the fetches, so that
// fetch()'s own cost (0.5–1 ms of main-thread time per call in headless
// Chromium on two cores) is not paid on the page's thread: with hundreds of
// workers the page stays responsive. Messages in: [0, id, url] fetch,
// [1, id] abort, [2, n] raise the resource timing buffer to n and clear it.
// Messages out: [0] once the script runs (the worker loaded), then
// [id, 1, result] or [id, 0, name, message]. pageOrigin, the page's
// performance.timeOrigin, is set before this script runs.
const workerJS = `
var ctrls = new Map(), shift = performance.timeOrigin - pageOrigin;
function run(id, url) {
  var c = new AbortController();
  ctrls.set(id, c);
  var done = function (v) { ctrls.delete(id); postMessage([id, 1, v]); };
  var fail = function (e) { ctrls.delete(id); postMessage([id, 0, (e && e.name) || "", String((e && e.message) || e)]); };
` + fetchBody + `
}
onmessage = function (e) {
  var m = e.data;
  if (m[0] === 0) run(m[1], m[2]);
  else if (m[0] === 1) { var c = ctrls.get(m[1]); if (c) { ctrls.delete(m[1]); c.abort(); } }
  else if (m[0] === 2) { performance.setResourceTimingBufferSize(m[1]); performance.clearResourceTimings(); }
};
postMessage([0]);`

// startWorkerJS starts the fetch worker from a Blob URL (no script file to
// serve) and returns [send(id, url), abort(id), prepare(n)]. A worker the
// browser refuses after constructing it (a Content-Security-Policy without
// blob: in worker-src: Chromium fires an error event, it does not throw)
// never loads: on an error before its first message, the fetches sent to
// it, and every later one, run on the page's thread (pageFetch: fetchJS)
// instead of waiting for their timeout, or for ever without one.
const startWorkerJS = `
var u = URL.createObjectURL(new Blob(["var pageOrigin = " + performance.timeOrigin + ";", src], {type: "text/javascript"}));
var w = new Worker(u);
URL.revokeObjectURL(u);
var ready = false, dead = false, sent = new Map(), local = new Map();
function runLocal(id, url) {
  local.set(id, pageFetch(url, id, function (i, ok, v) { local.delete(i); settle(i, ok, v); }));
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
  function (id, url) { if (dead) { runLocal(id, url); return; } sent.set(id, url); w.postMessage([0, id, url]); },
  function (id) {
    var c = local.get(id);
    if (c) { local.delete(id); c.abort(); return; }
    if (sent.delete(id)) w.postMessage([1, id]);
  },
  function (n) { if (!dead) w.postMessage([2, n]); }
];`

var (
	fetchOnce sync.Once
	fetchFn   safejs.Value
	fetchErr  error

	workerOnce              sync.Once
	workerSend, workerAbort safejs.Value
	workerPrepare           safejs.Value
	workerOK                bool
)

// startWorker starts the fetch worker once; workerOK says whether it runs.
func startWorker() {
	workerOnce.Do(func() {
		b, err := getBridge()
		if err != nil {
			return
		}
		fns, err := newFetchWorker(b)
		if err != nil {
			return // no workers here (an old runtime): fetch on the page's thread
		}
		var errs [3]error
		workerSend, errs[0] = fns.Index(0)
		workerAbort, errs[1] = fns.Index(1)
		workerPrepare, errs[2] = fns.Index(2)
		workerOK = errs[0] == nil && errs[1] == nil && errs[2] == nil
	})
}

// pageFetch is fetchJS compiled: one fetch on the page's thread.
func pageFetch() (safejs.Value, error) {
	fetchOnce.Do(func() { fetchFn, fetchErr = compile(fetchJS, "url", "id", "settle") })
	return fetchFn, fetchErr
}

// newFetchWorker runs startWorkerJS: [send, abort, prepare].
func newFetchWorker(b *bridge) (safejs.Value, error) {
	local, err := pageFetch()
	if err != nil {
		return safejs.Value{}, err
	}
	start, err := compile(startWorkerJS, "src", "settle", "pageFetch")
	if err != nil {
		return safejs.Value{}, err
	}
	return start.Invoke(workerJS, b.fn.Value(), local)
}

// Fetch performs one GET with fetch(): cache "no-store" (Chromium serializes
// identical URLs behind its cache lock otherwise, README: facts), CORS mode, no
// credentials, and an AbortController tied to ctx so that cancelling ctx
// aborts the request on the wire. The fetch runs in a dedicated worker when
// the browser allows one (off the page's thread), else on the page. It
// returns once the body has been read. url must be absolute. A network
// failure or CORS rejection is a *JSError named "TypeError"; a cancelled
// ctx returns ctx.Err() at once.
func Fetch(ctx context.Context, url string) (Response, error) {
	b, err := getBridge()
	if err != nil {
		return Response{}, err
	}
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	startWorker()
	out := Response{Sent: Now()}
	id, ch := b.register()
	var abort func()
	if workerOK {
		if _, err := workerSend.Invoke(id, url); err != nil {
			b.forget(id)
			return out, fmt.Errorf("browser: fetch %s: %w", url, err)
		}
		abort = func() { _, _ = workerAbort.Invoke(id) }
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
		b.forget(id)
		abort()
		return out, ctx.Err()
	}
	if r.err != nil {
		return out, r.err
	}
	return out, decodeFetch(r.v, &out)
}

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
// would lose their timing) and clears the entries of earlier runs.
func PrepareTimings(n int) error {
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
	startWorker()
	if workerOK {
		_, err = workerPrepare.Invoke(n)
	}
	return err
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
	status, body, _ := strings.Cut(raw, "\u0001")
	code, err := strconv.Atoi(status)
	if err != nil {
		return 0, "", fmt.Errorf("browser: POST %s: status %q", url, status)
	}
	return code, body, nil
}
