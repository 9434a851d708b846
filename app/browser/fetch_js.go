//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hack-pad/safejs"
)

// Fetch performs one GET with fetch(): cache "no-store" (Chromium serializes
// identical URLs behind its cache lock otherwise, FACTS.md), CORS mode, and an
// AbortController tied to ctx so cancelling ctx aborts the request on the
// wire. It returns once the body has been read.
func Fetch(ctx context.Context, url string) (Response, error) {
	g := safejs.Global()
	ctrl, err := newObject(g, "AbortController")
	if err != nil {
		return Response{}, err
	}
	signal, err := ctrl.Get("signal")
	if err != nil {
		return Response{}, err
	}
	opts, err := newObject(g, "Object")
	if err != nil {
		return Response{}, err
	}
	for k, v := range map[string]any{"cache": "no-store", "mode": "cors", "credentials": "omit"} {
		if err := opts.Set(k, v); err != nil {
			return Response{}, err
		}
	}
	if err := opts.Set("signal", signal); err != nil {
		return Response{}, err
	}
	abort := func() { _, _ = ctrl.Call("abort") }

	var out Response
	out.Sent = Now()
	promise, err := g.Call("fetch", url, opts)
	if err != nil {
		return out, fmt.Errorf("browser: fetch %s: %w", url, err)
	}
	resp, err := await(ctx, promise, abort)
	if err != nil {
		return out, err
	}
	if out.Status, err = getInt(resp, "status"); err != nil {
		return out, err
	}
	if out.Header, err = readHeaders(resp); err != nil {
		return out, err
	}
	textP, err := resp.Call("text")
	if err != nil {
		return out, err
	}
	body, err := await(ctx, textP, abort)
	if err != nil {
		return out, err
	}
	if out.Body, err = body.String(); err != nil {
		return out, err
	}
	out.Timing = resourceTiming(g, url)
	return out, nil
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

func newObject(g safejs.Value, ctor string) (safejs.Value, error) {
	c, err := g.Get(ctor)
	if err != nil {
		return safejs.Value{}, err
	}
	return c.New()
}

func getInt(v safejs.Value, prop string) (int, error) {
	p, err := v.Get(prop)
	if err != nil {
		return 0, err
	}
	return p.Int()
}

func getFloat(v safejs.Value, prop string) float64 {
	p, err := v.Get(prop)
	if err != nil {
		return 0
	}
	f, _ := p.Float()
	return f
}

// readHeaders copies every header fetch() exposes: Array.from(headers).
func readHeaders(resp safejs.Value) (Header, error) {
	hs, err := resp.Get("headers")
	if err != nil {
		return nil, err
	}
	arrayCtor, err := safejs.Global().Get("Array")
	if err != nil {
		return nil, err
	}
	pairs, err := arrayCtor.Call("from", hs)
	if err != nil {
		return nil, err
	}
	n, err := pairs.Length()
	if err != nil {
		return nil, err
	}
	h := make(Header, n)
	for i := 0; i < n; i++ {
		pair, err := pairs.Index(i)
		if err != nil {
			return nil, err
		}
		k, err1 := pair.Index(0)
		v, err2 := pair.Index(1)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		ks, err1 := k.String()
		vs, err2 := v.String()
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		h[strings.ToLower(ks)] = vs
	}
	return h, nil
}

// resourceTiming reads the newest PerformanceResourceTiming entry for url.
func resourceTiming(g safejs.Value, url string) Timing {
	perf, err := g.Get("performance")
	if err != nil {
		return Timing{}
	}
	entries, err := perf.Call("getEntriesByName", url, "resource")
	if err != nil {
		return Timing{}
	}
	n, err := entries.Length()
	if err != nil || n == 0 {
		return Timing{}
	}
	e, err := entries.Index(n - 1)
	if err != nil {
		return Timing{}
	}
	return Timing{
		FetchStart:    getFloat(e, "fetchStart"),
		RequestStart:  getFloat(e, "requestStart"),
		ResponseStart: getFloat(e, "responseStart"),
		ResponseEnd:   getFloat(e, "responseEnd"),
	}
}

type settled struct {
	v   safejs.Value
	err error
}

// await waits for a JS promise. The callbacks only send on a buffered
// channel (a JS callback must never block) and are released afterwards. When
// ctx ends first, onCancel runs (it aborts the fetch, which settles the
// promise) and await still waits for the settlement so that the callbacks
// are never released while JS may call them.
func await(ctx context.Context, promise safejs.Value, onCancel func()) (safejs.Value, error) {
	ch := make(chan settled, 1)
	then, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		var v safejs.Value
		if len(args) > 0 {
			v = args[0]
		}
		ch <- settled{v: v}
		return nil
	})
	if err != nil {
		return safejs.Value{}, err
	}
	defer then.Release()
	catch, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		msg := "promise rejected"
		if len(args) > 0 {
			if s, err := args[0].Call("toString"); err == nil {
				if str, err := s.String(); err == nil {
					msg = str
				}
			}
		}
		ch <- settled{err: errors.New(msg)}
		return nil
	})
	if err != nil {
		return safejs.Value{}, err
	}
	defer catch.Release()
	if _, err := promise.Call("then", then.Value(), catch.Value()); err != nil {
		return safejs.Value{}, err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return safejs.Value{}, fmt.Errorf("browser: %s", r.err.Error())
		}
		return r.v, nil
	case <-ctx.Done():
		onCancel()
		<-ch
		return safejs.Value{}, ctx.Err()
	}
}
