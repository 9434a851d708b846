//go:build js && wasm

package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hack-pad/safejs"
)

// fetchJS performs one fetch and settles through the bridge with
// [status, type, "name: value\n…", body, fetchStart, requestStart,
// responseStart, responseEnd]. It returns the AbortController. Doing the
// whole exchange in one routine costs two Go→JS calls per request instead of
// thirty (FACTS.md: ~2 µs each).
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
    settle(id, true, [r.status, r.type, h, body, t[0], t[1], t[2], t[3]]);
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
	var vals [8]safejs.Value
	for i := range vals {
		x, err := v.Index(i)
		if err != nil {
			return err
		}
		vals[i] = x
	}
	var err error
	if out.Status, err = vals[0].Int(); err != nil {
		return err
	}
	out.Type, _ = vals[1].String()
	raw, _ := vals[2].String()
	out.Header = parseHeaderLines(raw)
	out.Body, _ = vals[3].String()
	out.Timing.FetchStart, _ = vals[4].Float()
	out.Timing.RequestStart, _ = vals[5].Float()
	out.Timing.ResponseStart, _ = vals[6].Float()
	out.Timing.ResponseEnd, _ = vals[7].Float()
	return nil
}

// parseHeaderLines reads "name: value\n" lines (fetch joins repeated headers with ", ").
func parseHeaderLines(raw string) Header {
	h := make(Header, strings.Count(raw, "\n"))
	for line := range strings.SplitSeq(raw, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if ok {
			h[strings.ToLower(k)] = v
		}
	}
	return h
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
