//go:build !(js && wasm)

package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"retrylab/app/browser"
	"retrylab/app/mock"
)

// HTTPTransport performs attempts with net/http, for the native tests that
// run a fleet against a real server, and compare it with the simulator.
// It reads at most browser.MaxBody of a body, as the page's fetch() does.
// (The page uses fetch() through app/browser: net/http in the browser
// cannot bypass the HTTP cache, see the README's facts.) It is safe for
// concurrent use.
type HTTPTransport struct {
	Client *http.Client            // nil: NewHTTPTransport's own client (idle connections for every worker), else http.DefaultClient
	URL    func(worker int) string // the base URL of worker's attempts
	Tag    bool                    // append tag=AttemptTag(…) and read the mock's body (built-in mock only)
	// The built-in mock's origin and the key its requests use (the room,
	// or the run's key), for Outage; empty for a custom target, which
	// cannot be taken down.
	Origin, Key string

	own *http.Client
}

// NewHTTPTransport returns a transport for s: with the built-in mock it
// calls s.MockURL(origin, runKey) with a tag per attempt; with a custom
// target it calls s.SentTarget(), the URL the page's fetch() calls.
func NewHTTPTransport(s Scenario, origin, runKey string) *HTTPTransport {
	if s.Target != "" {
		target := s.SentTarget()
		return &HTTPTransport{URL: func(int) string { return target }, own: fleetClient(s.Workers)}
	}
	base := s.MockURL(origin, runKey)
	return &HTTPTransport{URL: func(int) string { return base }, Tag: true, Origin: origin, Key: s.MockKey(runKey), own: fleetClient(s.Workers)}
}

// fleetClient is a client that keeps a connection per worker alive.
func fleetClient(workers int) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = workers
	tr.MaxIdleConns = workers
	return &http.Client{Transport: tr}
}

func (t *HTTPTransport) client() *http.Client {
	if t.Client != nil {
		return t.Client
	}
	if t.own != nil {
		return t.own
	}
	return http.DefaultClient
}

// Do sends one GET and reads up to browser.MaxBody of the answer.
func (t *HTTPTransport) Do(ctx context.Context, worker, job, attempt int) Attempt {
	tag := ""
	if t.Tag {
		tag = AttemptTag("", worker, job, attempt)
	}
	u := AttemptURL(t.URL(worker), tag)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Attempt{Err: err}
	}
	resp, err := t.client().Do(req)
	if err != nil {
		return Attempt{Err: err}
	}
	defer resp.Body.Close()
	a := Attempt{Status: resp.StatusCode, Header: resp.Header}
	body, err := io.ReadAll(io.LimitReader(resp.Body, browser.MaxBody))
	if err != nil {
		a.Err = err
		return a
	}
	if t.Tag {
		a.ServerSeq, a.ServerAt, _ = MockFacts(body)
	}
	return a
}

// Outage takes the built-in mock's server down for d for the transport's
// key (POST mock.OutageURL): the scenario's scheduled outage (Outager).
func (t *HTTPTransport) Outage(ctx context.Context, d time.Duration) error {
	if t.Origin == "" {
		return errors.New("fleet: only the built-in mock can be taken down")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, mock.OutageURL(t.Origin, t.Key, d), nil)
	if err != nil {
		return err
	}
	resp, err := t.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, browser.MaxBody))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fleet: POST /mock/outage: %s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return nil
}

// Close closes the idle connections of the transport's own client.
func (t *HTTPTransport) Close() {
	if t.own != nil {
		t.own.CloseIdleConnections()
	}
}
