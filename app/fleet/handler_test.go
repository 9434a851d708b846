//go:build !(js && wasm)

package fleet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"retrylab/app/mock"
)

// handlerTransport calls a mock handler in-process (no sockets), so a whole
// run can execute inside a testing/synctest bubble in virtual time.
type handlerTransport struct {
	h    http.Handler
	base string
	key  string
}

func newHandlerTransport(h http.Handler, s Scenario, runKey string) *handlerTransport {
	return &handlerTransport{h: h, base: s.MockURL("http://mock.test", runKey), key: s.MockKey(runKey)}
}

// liveAgainstMock runs s live against the real mock handler, on key, in a
// synctest bubble: virtual time, so that it is as exact as a simulation.
func liveAgainstMock(t *testing.T, s Scenario, key string) *Recording {
	var rec *Recording
	synctest.Test(t, func(t *testing.T) {
		h := mock.New(mock.Options{})
		defer h.Close()
		rec = Run(context.Background(), s, newHandlerTransport(h, s, key), nil, nil)
	})
	return rec
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

// Outage takes the key's server down through the mock's own switch
// (Handler.Outage), as POST /mock/outage does.
func (t *handlerTransport) Outage(ctx context.Context, d time.Duration) error {
	m, ok := t.h.(*mock.Handler)
	if !ok {
		return errors.New("handlerTransport: not a *mock.Handler")
	}
	rec := httptest.NewRecorder()
	m.Outage().ServeHTTP(rec, httptest.NewRequestWithContext(ctx, http.MethodPost, mock.OutageURL("http://mock.test", t.key, d), nil))
	if rec.Code != http.StatusOK {
		return fmt.Errorf("POST /mock/outage: %d %s", rec.Code, rec.Body)
	}
	return nil
}
