//go:build js && wasm

package browser

import (
	"context"
	"fmt"
	"sync"

	"github.com/hack-pad/safejs"
)

// fetchJS performs one fetch and settles through the bridge with one
// string: status, type, fetchStart, requestStart, responseStart,
// responseEnd, the headers ("name: value" lines) and the body, separated by
// U+0001. It returns the AbortController. Doing the whole exchange in one
// routine, and handing one string back, costs a handful of Go↔JS crossings
// per request instead of thirty (FACTS.md: ~2 µs each), and no JS object
// references for Go's finalizers to track.
const fetchJS = `
var c = new AbortController();
fetch(url, {cache: "no-store", mode: "cors", credentials: "omit", signal: c.signal}).then(function (r) {
  return r.text().then(function (body) {
    var h = "";
    r.headers.forEach(function (v, k) { h += k + ": " + v + "\n"; });
    var t = [0, 0, 0, 0];
    var es = performance.getEntriesByName(r.url || url, "resource");
    if (es.length > 0) {
      var e = es[es.length - 1];
      t = [e.fetchStart, e.requestStart, e.responseStart, e.responseEnd];
    }
    var S = "\u0001";
    settle(id, true, r.status + S + r.type + S + t[0] + S + t[1] + S + t[2] + S + t[3] + S + h + S + body);
  });
}).catch(function (e) { settle(id, false, e); });
return c;`

var (
	fetchOnce sync.Once
	fetchFn   safejs.Value
	fetchErr  error
)

// Fetch performs one GET with fetch(): cache "no-store" (Chromium serializes
// identical URLs behind its cache lock otherwise, FACTS.md), CORS mode, no
// credentials, and an AbortController tied to ctx so that cancelling ctx
// aborts the request on the wire. It returns once the body has been read. A
// network failure or CORS rejection is a *JSError named "TypeError"; a
// cancelled ctx returns ctx.Err() at once.
func Fetch(ctx context.Context, url string) (Response, error) {
	b, err := getBridge()
	if err != nil {
		return Response{}, err
	}
	fetchOnce.Do(func() { fetchFn, fetchErr = compile(fetchJS, "url", "id", "settle") })
	if fetchErr != nil {
		return Response{}, fetchErr
	}
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	out := Response{Sent: Now()}
	id, ch := b.register()
	ctrl, err := fetchFn.Invoke(url, id, b.fn.Value())
	if err != nil {
		b.forget(id)
		return out, fmt.Errorf("browser: fetch %s: %w", url, err)
	}
	var r settled
	select {
	case r = <-ch:
	case <-ctx.Done():
		b.forget(id)
		_, _ = ctrl.Call("abort")
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
	_, err = perf.Call("clearResourceTimings")
	return err
}
