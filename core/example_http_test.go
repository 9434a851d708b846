//go:build !js

// net/http's test server cannot listen under js/wasm.

package core_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"retrylab/core"
)

// Do retries requests made with net/http: the Operation makes one request
// under the context Do gives it and returns the status and headers, so the
// loop honours Retry-After. Cancelling the context (the caller's own, or a
// deadline) stops the job at once, here in the middle of a 30 s wait.
func ExampleDo_http() {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n := hits.Add(1); {
		case r.URL.Path == "/busy":
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		case n <= 2:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			fmt.Fprintln(w, "ok")
		}
	}))
	defer srv.Close()

	get := func(url string) core.Operation {
		return func(ctx context.Context, attempt int) core.Outcome {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second) // per attempt
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return core.Outcome{Err: err}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return core.Outcome{Err: err} // retried unless ctx was cancelled
			}
			defer resp.Body.Close()
			_, err = io.Copy(io.Discard, resp.Body)
			return core.Outcome{Status: resp.StatusCode, Header: resp.Header, Err: err}
		}
	}
	show := func(e core.Event) {
		switch e.Kind {
		case core.EventOutcome:
			fmt.Println("attempt", e.Attempt, "status", e.Outcome.Status)
		case core.EventWait:
			fmt.Println("wait", e.Wait, e.Reason)
		}
	}
	policy := core.DefaultPolicy() // full jitter, 5 attempts, Retry-After honoured up to 1m
	l := core.NewLoop(policy, core.NewPCG(1), nil, nil, show)
	fmt.Println("err:", core.Do(context.Background(), l, nil, get(srv.URL)))

	ctx, cancel := context.WithCancel(context.Background())
	l = core.NewLoop(policy, core.NewPCG(1), nil, nil, func(e core.Event) {
		show(e)
		if e.Kind == core.EventWait {
			cancel() // say, the user gave up
		}
	})
	err := core.Do(ctx, l, nil, get(srv.URL+"/busy"))
	fmt.Println("err:", err)
	fmt.Println(errors.Is(err, core.ErrCancelled), errors.Is(err, context.Canceled))
	// Output:
	// attempt 1 status 503
	// wait 0s retry-after
	// attempt 2 status 503
	// wait 0s retry-after
	// attempt 3 status 200
	// err: <nil>
	// attempt 1 status 429
	// wait 30s retry-after
	// err: core: cancelled after 1 attempt: context canceled; last error: http status 429
	// true true
}
