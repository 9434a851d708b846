//go:build !(js && wasm)

package mock

// Tests over real connections (httptest.Server): latency and cancellation,
// hang, drop, write deadlines, the arrivals stream, Close.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveServer serves h at /mock and /mock/events. returned receives the time
// each /mock request's ServeHTTP returned.
type liveServer struct {
	*httptest.Server
	h        *Handler
	returned chan time.Time
}

func newLive(t *testing.T, opts Options) *liveServer {
	t.Helper()
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := New(opts)
	ls := &liveServer{h: h, returned: make(chan time.Time, 100)}
	mux := http.NewServeMux()
	mux.HandleFunc("/mock", func(w http.ResponseWriter, r *http.Request) {
		defer func() { ls.returned <- time.Now() }()
		h.ServeHTTP(w, r)
	})
	mux.Handle("/mock/events", h.Events())
	ls.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		h.Close()
		ls.Server.CloseClientConnections()
		ls.Server.Close()
	})
	return ls
}

// client returns an HTTP client that opens a new connection per request, so
// a dropped connection is never retried transparently by the transport.
func (ls *liveServer) client() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
}

// sseClient reads an open arrivals stream.
type sseClient struct {
	hello  Event // the stream's first message
	events chan Event
	lines  chan string // comment lines
	close  func()
}

func openStream(t *testing.T, url string) *sseClient {
	t.Helper()
	return openStreamFrom(t, url, "")
}

// openStreamFrom is openStream with the X-Test-From header set to from
// (fromHeader), when not "".
func openStreamFrom(t *testing.T, url, from string) *sseClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if from != "" {
		req.Header.Set("X-Test-From", from)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		cancel()
		t.Fatalf("stream: %d %v", resp.StatusCode, resp.Header)
	}
	s := &sseClient{events: make(chan Event, 1000), lines: make(chan string, 100), close: cancel}
	go func() {
		defer resp.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "data: "):
				var ev Event
				if err := json.Unmarshal([]byte(line[len("data: "):]), &ev); err != nil {
					t.Errorf("stream data %q: %v", line, err)
					return
				}
				s.events <- ev
			case strings.HasPrefix(line, ":"):
				select {
				case s.lines <- line:
				default:
				}
			}
		}
	}()
	t.Cleanup(cancel)
	if s.hello = s.next(t); s.hello.Type != "hello" {
		t.Fatalf("first event %+v, want hello", s.hello)
	}
	return s
}

func (s *sseClient) next(t *testing.T) Event {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatal("stream ended")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no stream event within 5s")
	}
	return Event{}
}

func TestLatencyApplied(t *testing.T) {
	r := &fixedRand{vals: []float64{0.5}}
	ls := newLive(t, Options{Rand: r.Float64})
	start := time.Now()
	resp, err := ls.client().Get(ls.URL + "/mock?key=lat&latency=150ms&spread=100ms")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	took := time.Since(start)
	var b Body
	json.NewDecoder(resp.Body).Decode(&b)
	if resp.StatusCode != 200 || b.LatencyMS != 200 {
		t.Errorf("%d latency_ms %v, want 200 (150 + 0.5·100)", resp.StatusCode, b.LatencyMS)
	}
	if took < 200*time.Millisecond || took > 2*time.Second {
		t.Errorf("response took %v, want about 200ms", took)
	}
}

// TestLatencyAbandonedOnDisconnect: a client that gives up while the server
// waits makes the handler return at once, and the stream reports the
// arrival as cancelled.
func TestLatencyAbandonedOnDisconnect(t *testing.T) {
	ls := newLive(t, Options{})
	st := openStream(t, ls.URL+"/mock/events?key=gone")
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ls.URL+"/mock?key=gone&tag=w1&latency=20s", nil)
	errc := make(chan error, 1)
	go func() {
		resp, err := ls.client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	arr := st.next(t)
	if arr.Type != "arrival" || arr.Seq != 1 || arr.Tag != "w1" || arr.LatencyMS != 20000 || arr.Outcome != "ok" {
		t.Fatalf("arrival %+v", arr)
	}
	cancel()
	cancelled := time.Now()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("client error %v, want context.Canceled", err)
	}
	select {
	case at := <-ls.returned:
		if d := at.Sub(cancelled); d > time.Second {
			t.Errorf("handler returned %v after the client left", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("handler still waiting 3s after the client left")
	}
	end := st.next(t)
	if end.Type != "end" || end.End != "cancelled" || end.Seq != 1 || end.Tag != "w1" || end.ElapsedMS > 5000 {
		t.Errorf("end event %+v, want cancelled", end)
	}
}

func TestHang(t *testing.T) {
	ls := newLive(t, Options{HangLimit: 300 * time.Millisecond})
	st := openStream(t, ls.URL+"/mock/events?key=hang")

	// Until the server's bound: the connection is closed without a response.
	start := time.Now()
	resp, err := ls.client().Get(ls.URL + "/mock?key=hang&hang=100")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("hang answered %d", resp.StatusCode)
	}
	if d := time.Since(start); d < 300*time.Millisecond || d > 3*time.Second {
		t.Errorf("hang ended after %v, want about the 300ms bound", d)
	}
	if ev := st.next(t); ev.Type != "arrival" || ev.Outcome != "hang" || ev.Status != 0 {
		t.Errorf("arrival %+v", ev)
	}
	if ev := st.next(t); ev.End != "timeout" {
		t.Errorf("end %+v, want timeout", ev)
	}

	// Until the client gives up.
	c := ls.client()
	c.Timeout = 100 * time.Millisecond
	if _, err := c.Get(ls.URL + "/mock?key=hang&hang=100"); err == nil {
		t.Fatal("hang answered")
	}
	st.next(t)
	if ev := st.next(t); ev.End != "cancelled" || ev.ElapsedMS > 1000 {
		t.Errorf("end %+v, want cancelled after about 100ms", ev)
	}
	// A hang does not consume the limit.
	resp, err = ls.client().Get(ls.URL + "/mock?key=hang&limiter=fixed&limit=1")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after hangs: %v", err)
	}
	resp.Body.Close()
}

func TestDrop(t *testing.T) {
	ls := newLive(t, Options{})
	st := openStream(t, ls.URL+"/mock/events?key=drop")
	start := time.Now()
	resp, err := ls.client().Get(ls.URL + "/mock?key=drop&drop=100&latency=100ms")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("drop answered %d", resp.StatusCode)
	}
	if !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "reset") {
		t.Errorf("client error %v, want EOF or reset", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("dropped after %v, before the latency", d)
	}
	if ev := st.next(t); ev.Outcome != "drop" {
		t.Errorf("arrival %+v", ev)
	}
	if ev := st.next(t); ev.End != "dropped" {
		t.Errorf("end %+v, want dropped", ev)
	}
	// The server is fine afterwards.
	resp, err = ls.client().Get(ls.URL + "/mock?key=drop")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after a drop: %v", err)
	}
	resp.Body.Close()
}

// TestWriteTimeoutExtended: a latency longer than the server's WriteTimeout
// still gets its response.
func TestWriteTimeoutExtended(t *testing.T) {
	h := New(Options{})
	defer h.Close()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.WriteTimeout = 100 * time.Millisecond
	srv.Start()
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/mock?key=wt&latency=400ms")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err != nil || resp.StatusCode != 200 {
		t.Errorf("%d %v", resp.StatusCode, err)
	}
}

func TestStreamDeliversArrivals(t *testing.T) {
	ls := newLive(t, Options{})
	st := openStream(t, ls.URL+"/mock/events?key=room")
	other := openStream(t, ls.URL+"/mock/events?key=elsewhere")
	c := ls.client()
	for i := 1; i <= 3; i++ {
		resp, err := c.Get(ls.URL + "/mock?key=room&limiter=fixed&limit=2&window=1h&tag=a" + strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []struct {
		typ, outcome string
		status       int
	}{
		{"arrival", "ok", 200}, {"end", "ok", 200},
		{"arrival", "ok", 200}, {"end", "ok", 200},
		{"arrival", "limited", 429}, {"end", "limited", 429},
	}
	for i, w := range want {
		ev := st.next(t)
		seq := uint64(i/2 + 1)
		if ev.Type != w.typ || ev.Outcome != w.outcome || ev.Status != w.status || ev.Seq != seq || ev.Key != "room" || ev.Tag != "a"+strconv.Itoa(int(seq)) || ev.At.IsZero() {
			t.Errorf("event %d: %+v, want %s %s %d seq %d", i, ev, w.typ, w.outcome, w.status, seq)
		}
		if w.typ == "end" && ev.End != "sent" {
			t.Errorf("event %d: end %q, want sent", i, ev.End)
		}
		if w.typ == "arrival" && ev.Limit != 2 {
			t.Errorf("event %d: limit %d", i, ev.Limit)
		}
	}
	select {
	case ev := <-other.events:
		t.Errorf("another key's stream got %+v", ev)
	case <-time.After(50 * time.Millisecond):
	}
	if n := ls.h.Stats().Streams; n != 2 {
		t.Errorf("streams %d, want 2", n)
	}
	other.close()
	deadline := time.Now().Add(2 * time.Second)
	for ls.h.Stats().Streams != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := ls.h.Stats().Streams; n != 1 {
		t.Errorf("streams %d after one closed, want 1", n)
	}
}

// The hello says the server's time, by the handler's clock: a page whose
// clock is off the server's bounds the difference by it.
func TestStreamHelloSaysTheServersTime(t *testing.T) {
	at := time.Date(2026, 12, 7, 3, 4, 5, 678901234, time.FixedZone("CET", 3600))
	ls := newLive(t, Options{Now: func() time.Time { return at }})
	st := openStream(t, ls.URL+"/mock/events?key=room")
	if h := st.hello; h.Key != "room" || !h.At.Equal(at) {
		t.Errorf("hello %+v, want key room at %v", h, at)
	}
}

func TestStreamKeepalive(t *testing.T) {
	ls := newLive(t, Options{Keepalive: 30 * time.Millisecond})
	st := openStream(t, ls.URL+"/mock/events?key=ka")
	select {
	case line := <-st.lines:
		if line != ": keepalive" {
			t.Errorf("comment %q", line)
		}
	case <-time.After(2 * time.Second):
		t.Error("no keepalive")
	}
}

func TestStreamErrors(t *testing.T) {
	ls := newLive(t, Options{MaxStreams: 1})
	for _, tt := range []struct {
		method, query string
		status        int
	}{
		{"GET", "key=a%20b", 400},
		{"GET", "key=a&rate=1", 400},
		{"GET", "key=a&key=b", 400},
		{"GET", "key=%zz", 400},
		{"POST", "key=a", 405},
	} {
		req, _ := http.NewRequest(tt.method, ls.URL+"/mock/events?"+tt.query, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Param, Allowed string }
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != tt.status || e.Param == "" || e.Allowed == "" {
			t.Errorf("%s %s: %d %+v, want %d", tt.method, tt.query, resp.StatusCode, e, tt.status)
		}
	}
	openStream(t, ls.URL+"/mock/events") // key defaults to "default"
	resp, err := http.Get(ls.URL + "/mock/events?key=b")
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Param, Value, Allowed string }
	json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "5" || e.Param != "streams" || e.Value != "2" ||
		e.Allowed != "at most 1 arrivals streams open at once; try again when one closes" {
		t.Errorf("beyond MaxStreams: %d Retry-After %q %+v", resp.StatusCode, resp.Header.Get("Retry-After"), e)
	}
}

// blockedWriter is a ResponseWriter whose Write blocks until released: a
// consumer that stopped reading.
type blockedWriter struct {
	hdr     http.Header
	mu      sync.Mutex
	buf     strings.Builder
	gate    chan struct{}
	writing chan struct{}
	once    sync.Once
}

func (w *blockedWriter) Header() http.Header { return w.hdr }
func (w *blockedWriter) WriteHeader(int)     {}
func (w *blockedWriter) Flush()              {}
func (w *blockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	first := w.buf.Len() == 0
	w.buf.Write(b)
	w.mu.Unlock()
	if !first { // the hello goes through; then the consumer stalls
		w.once.Do(func() { close(w.writing) })
		<-w.gate
	}
	return len(b), nil
}

func (w *blockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestSlowConsumerDoesNotBlock: a stream whose consumer stopped reading
// loses events, never slows the endpoint, and is told what it lost.
func TestSlowConsumerDoesNotBlock(t *testing.T) {
	h, _ := newTestHandler(t, Options{StreamBuf: 4})
	w := &blockedWriter{hdr: http.Header{}, gate: make(chan struct{}), writing: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		h.Events().ServeHTTP(w, httptest.NewRequest("GET", "/mock/events?key=slow", nil).WithContext(ctx))
		close(done)
	}()
	for h.Stats().Streams != 1 {
		time.Sleep(time.Millisecond)
	}
	get(h, "key=slow&limiter=none") // its arrival is taken by the stream, which then blocks writing it
	<-w.writing
	start := time.Now()
	for i := 0; i < 1000; i++ {
		if rec := get(h, "key=slow&limiter=none"); rec.Code != 200 {
			t.Fatalf("request %d: %d", i, rec.Code)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("1000 requests took %v with a stalled stream", d)
	}
	// 1000 arrivals + 1000 ends (+ the first end, unless the stream took
	// it with the first arrival) were published; the buffer holds 4.
	if st := h.Stats(); st.EventsDropped != 2000-4 && st.EventsDropped != 2001-4 {
		t.Errorf("dropped %d, want %d or %d", st.EventsDropped, 2000-4, 2001-4)
	}
	close(w.gate)
	get(h, "key=slow&limiter=none") // wakes the stream after the backlog is written
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(w.String(), `"type":"dropped"`) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	// The drop is reported with the running total (the wake-up request's
	// events may be dropped too while the backlog drains).
	m := regexp.MustCompile(`\{"type":"dropped","key":"slow","dropped":(\d+)\}`).FindStringSubmatch(w.String())
	if m == nil {
		t.Fatalf("stream never reported the drop:\n%s", w.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 1996 || n > 1999 {
		t.Errorf("reported %d dropped, want 1996–1999", n)
	}
	cancel()
	<-done
}

func TestCloseEndsStreamsAndHangs(t *testing.T) {
	ls := newLive(t, Options{HangLimit: time.Minute})
	st := openStream(t, ls.URL+"/mock/events?key=bye")
	errc := make(chan error, 1)
	go func() {
		resp, err := ls.client().Get(ls.URL + "/mock?key=bye&hang=100")
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	st.next(t) // the hang arrived
	start := time.Now()
	ls.h.Close()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("hang answered")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("hang still held 2s after Close")
	}
	for ev := range st.events { // drains until the stream ends
		_ = ev
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stream ended %v after Close", d)
	}
	ls.h.Close() // idempotent
}

// TestHTTP2DropAndCancel: over HTTP/2 (no hijacking) a drop resets the
// stream, and a client that gives up during the latency is seen.
func TestHTTP2DropAndCancel(t *testing.T) {
	h := New(Options{})
	defer h.Close()
	mux := http.NewServeMux()
	mux.Handle("/mock", h)
	mux.Handle("/mock/events", h.Events())
	srv := httptest.NewUnstartedServer(mux)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	c := srv.Client()

	resp, err := c.Get(srv.URL + "/mock?key=h2")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.StatusCode != 200 {
		t.Fatalf("%s %d, want HTTP/2 200", resp.Proto, resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/mock/events?key=h2", nil)
	sresp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sresp.Body.Close()
	events := bufio.NewScanner(sresp.Body)
	nextData := func() Event {
		t.Helper()
		for events.Scan() {
			if line := events.Text(); strings.HasPrefix(line, "data: ") {
				var ev Event
				json.Unmarshal([]byte(line[6:]), &ev)
				return ev
			}
		}
		t.Fatal("stream ended")
		return Event{}
	}
	nextData() // hello

	if resp, err := c.Get(srv.URL + "/mock?key=h2&drop=100"); err == nil {
		resp.Body.Close()
		t.Fatalf("drop over HTTP/2 answered %d", resp.StatusCode)
	}
	if ev := nextData(); ev.Outcome != "drop" {
		t.Errorf("arrival %+v", ev)
	}
	if ev := nextData(); ev.End != "dropped" {
		t.Errorf("end %+v", ev)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/mock?key=h2&latency=10s", nil)
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("answered before the latency")
	}
	nextData()
	if ev := nextData(); ev.End != "cancelled" || ev.ElapsedMS > 2000 {
		t.Errorf("end %+v, want cancelled after about 100ms", ev)
	}
}

// TestDropOnReusedConnectionIsRetried documents a client behaviour the page
// must expect: a GET whose reused keep-alive connection is closed without a
// response is resent once by Go's Transport (Chromium does the same), so
// one client call shows two drop arrivals at the server.
func TestDropOnReusedConnectionIsRetried(t *testing.T) {
	ls := newLive(t, Options{})
	st := openStream(t, ls.URL+"/mock/events?key=reuse")
	c := &http.Client{Transport: &http.Transport{}} // keep-alive on
	defer c.CloseIdleConnections()
	resp, err := c.Get(ls.URL + "/mock?key=reuse")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := c.Get(ls.URL + "/mock?key=reuse&drop=100"); err == nil {
		t.Fatal("drop answered")
	}
	var drops int
	for i := 0; i < 6; i++ { // 3 arrivals, 3 ends
		if ev := st.next(t); ev.Type == "arrival" && ev.Outcome == "drop" {
			drops++
		}
	}
	if drops != 2 {
		t.Errorf("one client call on a reused connection made %d drop arrivals, want 2 (the transport resends once)", drops)
	}
}
