//go:build e2e

package tests

import (
	"encoding/json"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// Stopping the server (SIGTERM, as a workshop ends) answers a request that
// is waiting out its latency at once, with its real answer, and closes a
// hang's connection: neither is told it succeeded with an empty 200, as
// both were when shutting down cancelled the requests first.
func TestShutdownAnswersTruly(t *testing.T) {
	srv := startServer(t)
	type result struct {
		status int
		body   []byte
		err    error
	}
	get := func(query string) chan result {
		c := make(chan result, 1)
		go func() {
			resp, err := http.Get(srv.URL + "/mock?limiter=none&" + query)
			if err != nil {
				c <- result{err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			c <- result{resp.StatusCode, b, err}
		}()
		return c
	}
	slow, hang := get("key=shut-slow&latency=20s"), get("key=shut-hang&hang=100")
	time.Sleep(500 * time.Millisecond) // both at the server, waiting
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := <-slow
	var body struct{ Outcome string }
	if r.err != nil || r.status != 200 || json.Unmarshal(r.body, &body) != nil || body.Outcome != "ok" {
		t.Errorf("a request waiting out 20 s of latency, at shutdown: %d %q %v; want its answer, 200 with the mock's body", r.status, r.body, r.err)
	}
	if r := <-hang; r.err == nil {
		t.Errorf("a hang at shutdown was answered %d %q; want its connection closed", r.status, r.body)
	}
}
