package fleet

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"retrylab/app/mock"
)

// MockFacts reads the arrival number and receive time from a mock
// response's JSON body (mock.Body). ok is false for any other body.
func MockFacts(body []byte) (seq int, at time.Time, ok bool) {
	if seq, at, ok, sure := mockFactsFast(body); sure {
		return seq, at, ok
	}
	var b mock.Body
	if json.Unmarshal(body, &b) != nil || b.Seq == 0 {
		return 0, time.Time{}, false
	}
	return int(b.Seq), b.Received, true
}

// mockFactsFast reads seq and received from the mock's flat JSON body
// without encoding/json (whose reflection costs tens of microseconds per
// response in wasm, thousands of times a second in a big run). sure is
// false when the body is not the plain shape it expects (an escape, a
// missing field): MockFacts then decodes it properly.
func mockFactsFast(body []byte) (seq int, at time.Time, ok, sure bool) {
	s := strings.TrimSpace(string(body))
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' || strings.IndexByte(s, '\\') >= 0 {
		return 0, time.Time{}, false, false
	}
	i := strings.Index(s, `"seq":`)
	j := strings.Index(s, `"received":"`)
	if i < 0 || j < 0 || strings.Index(s[i+1:], `"seq":`) >= 0 || strings.Index(s[j+1:], `"received":"`) >= 0 {
		return 0, time.Time{}, false, false
	}
	num := s[i+len(`"seq":`):]
	n := 0
	for n < len(num) && num[n] >= '0' && num[n] <= '9' {
		n++
	}
	if n == 0 || n > 18 || (n < len(num) && num[n] != ',' && num[n] != '}') {
		return 0, time.Time{}, false, false
	}
	v, err := strconv.Atoi(num[:n])
	if err != nil {
		return 0, time.Time{}, false, false
	}
	ts := s[j+len(`"received":"`):]
	k := strings.IndexByte(ts, '"')
	if k < 0 {
		return 0, time.Time{}, false, false
	}
	t, err := time.Parse(time.RFC3339Nano, ts[:k])
	if err != nil {
		return 0, time.Time{}, false, false
	}
	if v == 0 {
		return 0, time.Time{}, false, true
	}
	return v, t, true, true
}

// AttemptURL is the URL of one attempt: base, plus "tag=" + AttemptTag
// when tag is set (the built-in mock echoes it in its body and arrivals
// stream; a custom target gets its URL unchanged).
func AttemptURL(base string, tag bool, worker, job, attempt int) string {
	if !tag {
		return base
	}
	sep := "&"
	if !strings.Contains(base, "?") {
		sep = "?"
	} else if strings.HasSuffix(base, "?") || strings.HasSuffix(base, "&") {
		sep = ""
	}
	return base + sep + "tag=" + AttemptTag(worker, job, attempt)
}

// MaxBody is the most of a response body a transport reads; the rest is
// discarded unread.
const MaxBody = 64 << 10

// HTTPTransport performs attempts with net/http: for native tests, the
// server-side comparison with the simulator, and tools. (The page uses
// fetch() through app/browser instead: net/http in the browser cannot
// bypass the HTTP cache, see FACTS.md.) It is safe for concurrent use.
type HTTPTransport struct {
	Client *http.Client            // nil: NewHTTPTransport's own client (idle connections for every worker), else http.DefaultClient
	URL    func(worker int) string // the base URL of worker's attempts
	Tag    bool                    // append tag=AttemptTag(…) and read the mock's body (built-in mock only)

	own *http.Client
}

// NewHTTPTransport returns a transport for s: with the built-in mock it
// calls s.MockURL(origin, runKey) with a tag per attempt; with a custom
// target it calls s.Target as is.
func NewHTTPTransport(s Scenario, origin, runKey string) *HTTPTransport {
	if s.Target != "" {
		target := s.Target
		return &HTTPTransport{URL: func(int) string { return target }, own: fleetClient(s.Workers)}
	}
	base := s.MockURL(origin, runKey)
	return &HTTPTransport{URL: func(int) string { return base }, Tag: true, own: fleetClient(s.Workers)}
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

// Do sends one GET and reads up to MaxBody of the answer.
func (t *HTTPTransport) Do(ctx context.Context, worker, job, attempt int) Attempt {
	u := AttemptURL(t.URL(worker), t.Tag, worker, job, attempt)
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
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody))
	if err != nil {
		a.Err = err
		return a
	}
	if t.Tag {
		a.ServerSeq, a.ServerAt, _ = MockFacts(body)
	}
	return a
}

// Close closes the idle connections of the transport's own client.
func (t *HTTPTransport) Close() {
	if t.own != nil {
		t.own.CloseIdleConnections()
	}
}
