//go:build !(js && wasm)

package fleet

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
)

// handlerTransport calls a mock handler in-process (no sockets), so a whole
// run can execute inside a testing/synctest bubble in virtual time.
type handlerTransport struct {
	h    http.Handler
	base string
}

func newHandlerTransport(h http.Handler, s Scenario, runKey string) *handlerTransport {
	return &handlerTransport{h: h, base: s.MockURL("http://mock.test", runKey)}
}

var errDropped = errors.New("connection dropped")

func (t *handlerTransport) Do(ctx context.Context, worker, job, attempt int) (a Attempt) {
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, AttemptURL(t.base, AttemptTag("", worker, job, attempt)), nil)
	rec := httptest.NewRecorder()
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			a = Attempt{Err: errDropped}
		}
	}()
	t.h.ServeHTTP(rec, req)
	if ctx.Err() != nil {
		return Attempt{Err: context.Cause(ctx)}
	}
	res := rec.Result()
	a = Attempt{Status: res.StatusCode, Header: res.Header}
	a.ServerSeq, a.ServerAt, _ = MockFacts(rec.Body.Bytes())
	return a
}
