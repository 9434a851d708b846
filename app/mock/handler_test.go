//go:build !(js && wasm)

package mock

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"retrylab/core"
)

// t0 has a fractional second, so date rounding is exercised.
var t0 = time.Date(2026, 11, 5, 10, 0, 0, 250_000_000, time.UTC)

// fakeClock is a settable clock for Options.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixedRand returns the given values in turn, forever.
type fixedRand struct {
	mu   sync.Mutex
	vals []float64
	i    int
}

func (r *fixedRand) Float64() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := r.vals[r.i%len(r.vals)]
	r.i++
	return v
}

// newTestHandler returns a Handler on a fake clock starting at t0 (unless
// opts.Now is set), closed when the test ends.
func newTestHandler(t *testing.T, opts Options) (*Handler, *fakeClock) {
	t.Helper()
	clk := &fakeClock{t: t0}
	if opts.Now == nil {
		opts.Now = clk.Now
	}
	h := New(opts)
	t.Cleanup(h.Close)
	return h, clk
}

func get(h http.Handler, query string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mock?"+query, nil))
	return rec
}

func decodeBody(t *testing.T, rec *httptest.ResponseRecorder) Body {
	t.Helper()
	var b Body
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
		t.Fatalf("body %q: %v", rec.Body.String(), err)
	}
	return b
}

// step is one request in a limiter scenario: after advancing the clock by
// after, a request must get status, and the body must show remaining and
// retry_after_ms.
type step struct {
	after     time.Duration
	status    int
	remaining int
	retryMS   float64
}

func runSteps(t *testing.T, query string, steps []step) {
	t.Helper()
	h, clk := newTestHandler(t, Options{})
	for i, s := range steps {
		clk.Advance(s.after)
		rec := get(h, query)
		b := decodeBody(t, rec)
		if rec.Code != s.status || b.Remaining != s.remaining || b.RetryAfterMS != s.retryMS || b.Seq != uint64(i+1) {
			t.Errorf("%s step %d: status %d remaining %d retry_after_ms %v seq %d; want %d %d %v %d",
				query, i, rec.Code, b.Remaining, b.RetryAfterMS, b.Seq, s.status, s.remaining, s.retryMS, i+1)
		}
	}
}

func TestLimiterBucket(t *testing.T) {
	runSteps(t, "key=b&limiter=bucket&rate=2&burst=2", []step{
		{0, 200, 1, 0},
		{0, 200, 0, 0},
		{0, 429, 0, 500},                      // next token in 1/rate = 500ms
		{200 * time.Millisecond, 429, 0, 300}, // rejected requests take nothing
		{300 * time.Millisecond, 200, 0, 0},
		{time.Second, 200, 1, 0}, // refilled to 2, took one
	})
}

func TestLimiterFixedWindow(t *testing.T) {
	runSteps(t, "key=f&limiter=fixed&limit=2&window=1s", []step{
		{0, 200, 1, 0},
		{100 * time.Millisecond, 200, 0, 0},
		{100 * time.Millisecond, 429, 0, 800}, // until the window ends
		{800 * time.Millisecond, 200, 1, 0},   // new window
	})
}

func TestLimiterSlidingWindow(t *testing.T) {
	runSteps(t, "key=s&limiter=sliding&limit=2&window=1s", []step{
		{0, 200, 1, 0},
		{400 * time.Millisecond, 200, 0, 0},
		{400 * time.Millisecond, 429, 0, 200}, // the first leaves the window at 1s
		{200 * time.Millisecond, 200, 0, 0},   // t=1s: the first left, this one in
		{100 * time.Millisecond, 429, 0, 300}, // the second leaves at 1.4s
	})
}

func TestLimiterNone(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for i := 0; i < 100; i++ {
		rec := get(h, "key=n&limiter=none&headers=both")
		if rec.Code != 200 {
			t.Fatalf("request %d: %d", i, rec.Code)
		}
		if b := decodeBody(t, rec); !b.Allowed || b.Limit != 0 {
			t.Fatalf("body %+v", b)
		}
		for _, k := range []string{"RateLimit", "RateLimit-Policy", "X-RateLimit-Limit"} {
			if v := rec.Header().Get(k); v != "" {
				t.Fatalf("limiter=none sent %s: %q", k, v)
			}
		}
	}
}

func TestStatusParam(t *testing.T) {
	for _, status := range []int{429, 503} {
		h, _ := newTestHandler(t, Options{})
		q := "key=s&limiter=fixed&limit=1&status=" + strconv.Itoa(status)
		get(h, q)
		rec := get(h, q)
		b := decodeBody(t, rec)
		if rec.Code != status || b.Status != status || b.Outcome != "limited" || b.Allowed {
			t.Errorf("status=%d: got %d %+v", status, rec.Code, b)
		}
		if rec.Header().Get("Retry-After") != "1" {
			t.Errorf("status=%d: Retry-After %q", status, rec.Header().Get("Retry-After"))
		}
	}
}

// rejected returns the second response of a limit=1 fixed window of 2.5 s
// opened at t0 (so the exact wait is 2.5 s minus what elapsed).
func rejected(t *testing.T, extra string, elapsed time.Duration) *httptest.ResponseRecorder {
	t.Helper()
	h, clk := newTestHandler(t, Options{})
	q := "key=ra&limiter=fixed&limit=1&window=2500ms&" + extra
	if rec := get(h, q); rec.Code != 200 {
		t.Fatalf("first request: %d", rec.Code)
	}
	clk.Advance(elapsed)
	rec := get(h, q)
	if rec.Code != 429 {
		t.Fatalf("second request: %d", rec.Code)
	}
	return rec
}

func TestRetryAfterSeconds(t *testing.T) {
	tests := []struct {
		elapsed time.Duration
		want    string
	}{
		{0, "3"},                       // 2.5s rounded up
		{500 * time.Millisecond, "2"},  // exactly 2s
		{2499 * time.Millisecond, "1"}, // 1ms rounds up to 1
	}
	for _, tt := range tests {
		rec := rejected(t, "retry_after=seconds", tt.elapsed)
		v := rec.Header().Get("Retry-After")
		if v != tt.want {
			t.Errorf("elapsed %v: Retry-After %q, want %q", tt.elapsed, v, tt.want)
		}
		d, err := core.ParseRetryAfter(v, t0)
		exact := 2500*time.Millisecond - tt.elapsed
		if err != nil || d < exact || d >= exact+time.Second {
			t.Errorf("elapsed %v: core.ParseRetryAfter(%q) = %v, %v; want in [%v, %v)", tt.elapsed, v, d, err, exact, exact+time.Second)
		}
		if b := decodeBody(t, rec); b.RetryAfterMS != float64(exact.Milliseconds()) {
			t.Errorf("retry_after_ms %v, want %v", b.RetryAfterMS, exact.Milliseconds())
		}
	}
}

func TestRetryAfterDate(t *testing.T) {
	for _, elapsed := range []time.Duration{0, 250 * time.Millisecond, 1 * time.Second} {
		rec := rejected(t, "retry_after=date", elapsed)
		now := t0.Add(elapsed)
		allowedAt := t0.Add(2500 * time.Millisecond)
		v := rec.Header().Get("Retry-After")
		if !strings.HasSuffix(v, " GMT") || len(v) != len(http.TimeFormat) {
			t.Errorf("Retry-After %q is not an IMF-fixdate", v)
		}
		at, err := http.ParseTime(v)
		if err != nil || at.Before(allowedAt) || !at.Before(allowedAt.Add(time.Second)) {
			t.Errorf("http.ParseTime(%q) = %v, %v; want the first whole second at or after %v", v, at, err, allowedAt)
		}
		d, err := core.ParseRetryAfter(v, now)
		if err != nil || d != at.Sub(now) {
			t.Errorf("core.ParseRetryAfter(%q, %v) = %v, %v; want %v", v, now, d, err, at.Sub(now))
		}
	}
	// On an exact second, the date is that second.
	if got := (core.Decision{RetryAfter: time.Second}).RetryAt(time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)); !got.Equal(time.Date(2026, 1, 1, 0, 0, 2, 0, time.UTC)) {
		t.Errorf("retryDate on an exact second = %v", got)
	}
}

func TestRetryAfterFixedAndNone(t *testing.T) {
	for _, tt := range []struct{ query, want string }{
		{"retry_after=fixed&retry_value=7", "7"},
		{"retry_after=fixed", "1"},
		{"retry_after=fixed&retry_value=0", "0"},
		{"retry_after=fixed&retry_value=86400", "86400"},
	} {
		rec := rejected(t, tt.query, 0)
		v := rec.Header().Get("Retry-After")
		if v != tt.want {
			t.Errorf("%s: Retry-After %q, want %q", tt.query, v, tt.want)
		}
		want, _ := strconv.Atoi(tt.want)
		if d, err := core.ParseRetryAfter(v, t0); err != nil || d != time.Duration(want)*time.Second {
			t.Errorf("%s: core.ParseRetryAfter(%q) = %v, %v", tt.query, v, d, err)
		}
	}
	rec := rejected(t, "retry_after=none", 0)
	if _, ok := rec.Header()["Retry-After"]; ok {
		t.Errorf("retry_after=none sent Retry-After %q", rec.Header().Get("Retry-After"))
	}
	if b := decodeBody(t, rec); b.RetryAfterMS != 2500 {
		t.Errorf("retry_after=none: body retry_after_ms %v, want the exact 2500", b.RetryAfterMS)
	}
}

func TestRetryAfterMalformed(t *testing.T) {
	want := map[Malformed]string{
		MalformedText:     "soon",
		MalformedEmpty:    "",
		MalformedNegative: "-3",
		MalformedDecimal:  "2.5",
		MalformedUnit:     "3s",
		MalformedHuge:     hugeValue,
		MalformedRFC1123Z: "Thu, 05 Nov 2026 10:00:03 +0000",
		MalformedISO8601:  "2026-11-05T10:00:03Z",
	}
	for m := MalformedText; m <= MalformedISO8601; m++ {
		rec := rejected(t, "retry_after=malformed&malformed="+m.String(), 0)
		vs, ok := rec.Header()["Retry-After"]
		if !ok || len(vs) != 1 || vs[0] != want[m] {
			t.Errorf("%v: Retry-After %q (present %v), want %q", m, vs, ok, want[m])
			continue
		}
		v := vs[0]
		d, err := core.ParseRetryAfter(v, t0)
		switch {
		case m == MalformedHuge: // valid delay-seconds past an int64: core saturates, a naive Atoi fails
			if err != nil || d != math.MaxInt64 {
				t.Errorf("%v: core.ParseRetryAfter(%q) = %v, %v; want the largest Duration", m, v, d, err)
			}
		case err == nil:
			t.Errorf("%v: core.ParseRetryAfter(%q) = %v, want an error", m, v, d)
		}
		if _, err := http.ParseTime(v); err == nil {
			t.Errorf("%v: http.ParseTime(%q) succeeded", m, v)
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			t.Errorf("%v: %q reads as a valid delay with strconv.Atoi", m, v)
		}
	}
	// mix rotates through every kind by arrival number.
	h, _ := newTestHandler(t, Options{})
	seen := map[string]bool{}
	for i := 0; i < 1+2*len(want); i++ {
		rec := get(h, "key=mix&limiter=fixed&limit=1&window=1h&retry_after=malformed")
		if i == 0 {
			continue
		}
		seen[rec.Header().Get("Retry-After")] = true
		if b := decodeBody(t, rec); malformedKind(MalformedMix, b.Seq) == MalformedMix {
			t.Fatalf("mix resolved to mix at seq %d", b.Seq)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("mix sent %d distinct values, want %d: %v", len(seen), len(want), seen)
	}
}

func TestRateLimitHeaders(t *testing.T) {
	type hdrs map[string]string
	tests := []struct {
		query string
		want  hdrs
	}{
		{"limiter=fixed&limit=5&window=10s&headers=ietf", hdrs{
			"RateLimit-Policy": `"fixed";q=5;w=10`, "RateLimit": `"fixed";r=4;t=10`, "X-RateLimit-Limit": "",
		}},
		{"limiter=sliding&limit=5&window=1500ms&headers=x", hdrs{
			"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "4", "X-RateLimit-Reset": "2", "RateLimit": "",
		}},
		{"limiter=bucket&rate=2&burst=10&headers=both", hdrs{
			"RateLimit-Policy": `"bucket";q=10;w=5`, "RateLimit": `"bucket";r=9;t=1`,
			"X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "9", "X-RateLimit-Reset": "1",
		}},
		{"limiter=bucket&headers=none", hdrs{"RateLimit": "", "RateLimit-Policy": "", "X-RateLimit-Limit": ""}},
		{"limiter=fixed&limit=1&window=100ms&headers=ietf", hdrs{"RateLimit-Policy": `"fixed";q=10;w=1`, "RateLimit": `"fixed";r=0;t=1`}},
	}
	for _, tt := range tests {
		h, _ := newTestHandler(t, Options{})
		rec := get(h, "key=h&"+tt.query)
		for k, v := range tt.want {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", tt.query, k, got, v)
			}
		}
	}
	// On a rejection the headers say 0 remaining, and they come with Retry-After.
	h, _ := newTestHandler(t, Options{})
	get(h, "key=h&limiter=fixed&limit=1&window=3s&headers=both")
	rec := get(h, "key=h&limiter=fixed&limit=1&window=3s&headers=both")
	if rec.Code != 429 || rec.Header().Get("RateLimit") != `"fixed";r=0;t=3` || rec.Header().Get("X-RateLimit-Remaining") != "0" || rec.Header().Get("Retry-After") != "3" {
		t.Errorf("rejection headers: %d %v", rec.Code, rec.Header())
	}
}

func TestBody(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	clk.Advance(123456 * time.Nanosecond)
	rec := get(h, "key=body-1&tag=w2.a1&limiter=fixed&limit=3&window=1s")
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	b := decodeBody(t, rec)
	want := Body{Key: "body-1", Tag: "w2.a1", Seq: 1, Allowed: true, Status: 200, Outcome: "ok", Limit: 3, Remaining: 2,
		ResetMS: 1000, RetryAfterMS: 0, LatencyMS: 0, Received: t0.Add(123456 * time.Nanosecond)}
	if !b.Received.Equal(want.Received) {
		t.Errorf("received %v, want %v", b.Received, want.Received)
	}
	b.Received = want.Received
	if b != want {
		t.Errorf("body\n got %+v\nwant %+v", b, want)
	}
	if strings.Contains(rec.Body.String(), `"tag"`) != true {
		t.Error("tag missing")
	}
	// Without a tag, no tag field.
	if rec := get(h, "key=body-2"); strings.Contains(rec.Body.String(), "tag") {
		t.Errorf("untagged body has a tag: %s", rec.Body)
	}
}

func TestAppendMS(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"}, {-5, "0"}, {1, "0.001"}, {time.Millisecond, "1"}, {1500 * time.Microsecond, "1.5"},
		{1234567 * time.Nanosecond, "1.235"}, {2500 * time.Millisecond, "2500"}, {10*time.Millisecond + 10*time.Microsecond, "10.01"},
	} {
		if got := string(appendMS(nil, tt.d)); got != tt.want {
			t.Errorf("appendMS(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestInjectedFailures(t *testing.T) {
	// Rand values u pick by u*100 against the cumulative percentages 10, 30, 60, 100.
	const q = "key=inj&limiter=fixed&limit=1&window=1h&fail500=10&fail503=20&drop=30&hang=40"
	tests := []struct {
		u       float64
		outcome string
		status  int
	}{
		{0.05, "fail500", 500},
		{0.15, "fail503", 503},
		{0.299, "fail503", 503},
	}
	for _, tt := range tests {
		r := &fixedRand{vals: []float64{tt.u}}
		h, _ := newTestHandler(t, Options{Rand: r.Float64})
		rec := get(h, q+"&headers=x")
		b := decodeBody(t, rec)
		if rec.Code != tt.status || b.Outcome != tt.outcome || b.Allowed {
			t.Errorf("u=%v: %d %+v, want %d %s", tt.u, rec.Code, b, tt.status, tt.outcome)
		}
		if v, ok := rec.Header()["Retry-After"]; ok {
			t.Errorf("u=%v: injected failure sent Retry-After %q", tt.u, v)
		}
		// The limiter was only peeked at: its one request is still available.
		if rec.Header().Get("X-RateLimit-Remaining") != "1" || b.Remaining != 1 {
			t.Errorf("u=%v: remaining %q / %d, want 1 (not consumed)", tt.u, rec.Header().Get("X-RateLimit-Remaining"), b.Remaining)
		}
	}
	// Percentages in aggregate, with the default random source.
	h, _ := newTestHandler(t, Options{})
	counts := map[int]int{}
	for i := 0; i < 4000; i++ {
		counts[get(h, "key=agg&limiter=none&fail500=25&fail503=50").Code]++
	}
	if counts[500] < 850 || counts[500] > 1150 || counts[503] < 1800 || counts[503] > 2200 || counts[200] < 850 {
		t.Errorf("fail500=25&fail503=50 over 4000 requests: %v", counts)
	}
}

func TestNewConfigCarriesState(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	get(h, "key=cfg&limiter=fixed&limit=1&window=1h")
	if rec := get(h, "key=cfg&limiter=fixed&limit=1&window=1h"); rec.Code != 429 {
		t.Fatalf("second request %d, want 429", rec.Code)
	}
	// Unused fields do not count as a new configuration.
	if rec := get(h, "key=cfg&limiter=fixed&limit=1&window=1h&rate=77&headers=both&latency=0s"); rec.Code != 429 {
		t.Fatalf("same limiter, other params: %d, want 429", rec.Code)
	}
	// A larger limit applies from now on, the window's admission kept.
	rec := get(h, "key=cfg&limiter=fixed&limit=2&window=1h")
	b := decodeBody(t, rec)
	if rec.Code != 200 || b.Remaining != 0 || b.Limit != 2 || b.Seq != 4 {
		t.Errorf("new config: %d %+v; want 200, limit 2, remaining 0 (1 kept + this one), seq 4", rec.Code, b)
	}
	if rec := get(h, "key=cfg&limiter=fixed&limit=1&window=1h"); rec.Code != 429 {
		t.Errorf("back to limit 1: %d, want 429", rec.Code)
	}
	// Another key is independent.
	if rec := get(h, "key=cfg2&limiter=fixed&limit=1&window=1h"); rec.Code != 200 || decodeBody(t, rec).Seq != 1 {
		t.Errorf("other key: %d", rec.Code)
	}
}

// Two clients with different settings taking turns on a shared key do not
// reset it: each request is decided by the key's one limiter, reconfigured
// to the settings of the request, its used quota kept.
func TestAlternatingConfigsShareOneLimit(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	codes := func(queries ...string) []int {
		var got []int
		for i := range 10 {
			got = append(got, get(h, queries[i%len(queries)]).Code)
		}
		return got
	}
	want := []int{200, 429, 429, 429, 429, 429, 429, 429, 429, 429}
	if got := codes("key=room8&rate=1&burst=1"); !slices.Equal(got, want) {
		t.Errorf("one setting: %v, want %v", got, want)
	}
	if got := codes("key=room9&rate=1&burst=1", "key=room9&rate=1.5&burst=1"); !slices.Equal(got, want) {
		t.Errorf("alternating rate=1 / rate=1.5: %v, want %v", got, want)
	}
	// Windows of the same length keep their admissions.
	if got := codes("key=room10&limiter=fixed&limit=1&window=1m", "key=room10&limiter=fixed&limit=2&window=1m"); !slices.Equal(got, []int{200, 200, 429, 429, 429, 429, 429, 429, 429, 429}) {
		t.Errorf("alternating fixed limit=1 / limit=2: %v", got)
	}
	if got := codes("key=room11&limiter=sliding&limit=1&window=1m", "key=room11&limiter=sliding&limit=2&window=1m"); !slices.Equal(got, []int{200, 200, 429, 429, 429, 429, 429, 429, 429, 429}) {
		t.Errorf("alternating sliding limit=1 / limit=2: %v", got)
	}
	// Another kind, or another window, starts with the same share of its
	// quota used, rounded up: a drained limiter is drained.
	if got := codes("key=room12&rate=1&burst=1", "key=room12&limiter=fixed&limit=5&window=1m", "key=room12&limiter=sliding&limit=5&window=1m"); !slices.Equal(got, want) {
		t.Errorf("alternating kinds: %v, want %v", got, want)
	}
	if got := codes("key=room13&limiter=fixed&limit=1&window=1m", "key=room13&limiter=fixed&limit=1&window=2m"); !slices.Equal(got, want) {
		t.Errorf("alternating windows: %v, want %v", got, want)
	}
}

// A change of kind carries the share of the quota used: a bucket of 10 with
// 3 tokens taken becomes a window of 4 with ⌈0.3·4⌉ = 2 used; a window of
// 4 with 3 used becomes a bucket of 10 with 0.75·10 = 7.5 tokens taken
// (exactly: a bucket holds fractions).
func TestNewKindStartsAtTheShareUsed(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for range 3 {
		get(h, "key=k&limiter=bucket&rate=0.001&burst=10")
	}
	if b := decodeBody(t, get(h, "key=k&limiter=fixed&limit=4&window=1h")); b.Remaining != 1 || b.Limit != 4 {
		t.Errorf("bucket 3/10 used, then fixed limit=4: remaining %d limit %d, want 1 (2 carried + 1) of 4", b.Remaining, b.Limit)
	}
	if b := decodeBody(t, get(h, "key=k&limiter=bucket&rate=0.001&burst=10")); b.Remaining != 1 || b.Limit != 10 {
		t.Errorf("fixed 3/4 used, then bucket burst=10: remaining %d limit %d, want 1 (7.5 carried + 1 taken) of 10", b.Remaining, b.Limit)
	}
	if b := decodeBody(t, get(h, "key=k&limiter=none")); b.Limit != 0 || !b.Allowed {
		t.Errorf("limiter=none: %+v", b)
	}
	// An unlimited request leaves the key's limit as it was: 8.5 of 10
	// used, carried into a sliding window of 3 as ⌈0.85·3⌉ = 3 used.
	if r := get(h, "key=k&limiter=sliding&limit=3&window=1h"); r.Code != 429 || decodeBody(t, r).Remaining != 0 {
		t.Errorf("bucket 8.5/10 used, none, then sliding limit=3: %d, remaining %d; want 429, 0 (none leaves the limit as it is)", r.Code, decodeBody(t, r).Remaining)
	}
}

// A client sending limiter=none between its requests on a shared key does
// not refill the key's limit: before, every limiter=none request carried
// the used share into none (0) and back out, and a bucket of 2 refilling
// once in 1000 s admitted 20 of 20.
func TestUnlimitedRequestsLeaveTheLimit(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for i, limited := range []string{"rate=0.001&burst=2", "limiter=fixed&limit=2&window=1h", "limiter=sliding&limit=2&window=1h"} {
		key := "key=shared-" + strconv.Itoa(i)
		admitted := 0
		for range 20 {
			if r := get(h, key+"&limiter=none"); r.Code != 200 {
				t.Fatalf("limiter=none answered %d", r.Code)
			}
			if get(h, key+"&"+limited).Code == 200 {
				admitted++
			}
		}
		if admitted != 2 {
			t.Errorf("%s, each request after a limiter=none one: %d of 20 admitted, want 2", limited, admitted)
		}
	}
}

// Clients that take turns on a shared key with different settings, each
// well under its limit, are all admitted, however long they go on. A
// change of kind or window length used to count the share of the quota in
// use as admitted at the change, so a key whose clients alternated more
// often than once a window never got it back and locked up: fixed 10/1s
// and sliding 10/1s taking turns every 500 ms admitted 2 a second for 5 s,
// then none.
func TestAlternatingConfigsKeepAdmitting(t *testing.T) {
	tests := []struct {
		a, b  string        // the two clients' limiter parameters
		every time.Duration // between requests, the clients taking turns
	}{
		// As reported: each of these admitted nothing after a few seconds.
		{"limiter=fixed&limit=10&window=1s", "limiter=sliding&limit=10&window=1s", 500 * time.Millisecond},
		{"limiter=fixed&limit=10&window=1s", "limiter=fixed&limit=10&window=2s", 500 * time.Millisecond},
		{"limiter=bucket&rate=1&burst=10", "limiter=sliding&limit=3&window=1s", 500 * time.Millisecond},
		// Several changes within a window, long windows against short ones,
		// buckets that refill in seconds or minutes against windows.
		{"limiter=fixed&limit=10&window=1s", "limiter=sliding&limit=10&window=1s", 100 * time.Millisecond},
		{"limiter=sliding&limit=10&window=1s", "limiter=sliding&limit=20&window=2s", 200 * time.Millisecond},
		{"limiter=sliding&limit=100&window=1s", "limiter=sliding&limit=50&window=10s", 500 * time.Millisecond},
		{"limiter=fixed&limit=7&window=700ms", "limiter=fixed&limit=10&window=1s", 250 * time.Millisecond},
		{"limiter=fixed&limit=50&window=10s", "limiter=sliding&limit=10&window=1s", 400 * time.Millisecond},
		{"limiter=bucket&rate=10&burst=10", "limiter=fixed&limit=10&window=1s", 200 * time.Millisecond},
		{"limiter=bucket&rate=5&burst=10", "limiter=sliding&limit=7&window=700ms", 500 * time.Millisecond},
		{"limiter=bucket&rate=3&burst=30", "limiter=sliding&limit=3&window=1s", time.Second},
		{"limiter=bucket&rate=10&burst=1000", "limiter=sliding&limit=10&window=1s", 400 * time.Millisecond},
		{"limiter=none", "limiter=fixed&limit=2&window=1s", 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			h, clk := newTestHandler(t, Options{})
			qs := [2]string{"key=room&" + tt.a, "key=room&" + tt.b}
			for i := range int(2 * time.Minute / tt.every) {
				if rec := get(h, qs[i%2]); rec.Code != 200 {
					t.Fatalf("request %d at +%v (%s): %d %s", i, time.Duration(i)*tt.every, qs[i%2], rec.Code, rec.Body)
				}
				clk.Advance(tt.every)
			}
		})
	}
}

// One request with a long window cannot lock a shared key for the
// window's length: a bucket takes the share in use back no later than it
// refills from empty (burst ÷ rate). A request with limiter=sliding&limit=1
// &window=24h, once admitted on a room's key, had every request of the
// room's bucket of 10 a second answered 429 with Retry-After: 86397 (a
// security review). A window gives it back by its own end, as before.
//
// Nor through a bucket that refills in 31 years first: it took the 24-hour
// admission in, capped at its own refill, then handed it on to the room's
// bucket as it was (a review of the fix).
func TestOneRequestCannotLockAKey(t *testing.T) {
	for _, c := range []struct {
		room string
		back time.Duration // at the latest: the room's own recovery
		via  string        // a request with other settings between the 24-hour one and the room's
	}{
		{"rate=10&burst=10", time.Second, ""},
		{"rate=2&burst=5", 2500 * time.Millisecond, ""},
		{"limiter=fixed&limit=10&window=1s", time.Second, ""},
		{"limiter=sliding&limit=10&window=2s", 2 * time.Second, ""},
		{"rate=10&burst=10", time.Second, "rate=0.001&burst=1000000"},
		{"limiter=fixed&limit=10&window=1s", time.Second, "rate=0.001&burst=1000000"},
	} {
		h, clk := newTestHandler(t, Options{})
		room := "key=room&" + c.room
		for get(h, room).Code == 200 { // the room's quota used up
		}
		if rec := get(h, "key=room&limiter=sliding&limit=1&window=24h"); rec.Code != 429 {
			t.Fatalf("%s: the 24-hour request on a full key: %d", c.room, rec.Code)
		}
		clk.Advance(c.back)
		if rec := get(h, "key=room&limiter=sliding&limit=1&window=24h"); rec.Code != 200 {
			t.Fatalf("%s: the 24-hour request %v later: %d %s", c.room, c.back, rec.Code, rec.Body)
		}
		if c.via != "" {
			if rec := get(h, "key=room&"+c.via); rec.Code != 429 {
				t.Fatalf("%s, %s at once after the 24-hour request: %d, want 429 (its share in use carried)", c.room, c.via, rec.Code)
			}
		}
		if rec := get(h, room); rec.Code != 429 {
			t.Errorf("%s, at once after the 24-hour request was admitted: %d, want 429 (its share in use carried)", c.room, rec.Code)
		}
		clk.Advance(c.back)
		if rec := get(h, room); rec.Code != 200 {
			b := decodeBody(t, rec)
			t.Errorf("%s, %v after the 24-hour request was admitted: %d, reset in %.0f ms; want 200", c.room, c.back, rec.Code, b.ResetMS)
		}
	}
}

// A key that is full stays full when a client with other settings comes
// in, and when the first comes back: a change of settings makes no room.
// The room is back when the first settings would have had it back (their
// reset), whichever settings ask then.
func TestFullKeyStaysFullAcrossChange(t *testing.T) {
	settings := []string{
		"limiter=bucket&rate=2&burst=5",
		"limiter=fixed&limit=4&window=3s",
		"limiter=sliding&limit=6&window=2s",
		"limiter=sliding&limit=3&window=10s",
	}
	for _, a := range settings {
		for _, b := range settings {
			if a == b {
				continue
			}
			t.Run(a+"|"+b, func(t *testing.T) {
				h, clk := newTestHandler(t, Options{})
				qa, qb := "key=room&"+a, "key=room&"+b
				for get(h, qa).Code == 200 {
				}
				reset := time.Duration(decodeBody(t, get(h, qa)).ResetMS * float64(time.Millisecond))
				for i, q := range []string{qb, qa, qb, qb, qa} {
					if rec := get(h, q); rec.Code != 429 {
						t.Fatalf("change %d to %s, at once: %d %s, want 429", i, q, rec.Code, rec.Body)
					}
				}
				clk.Advance(reset)
				if rec := get(h, qb); rec.Code != 200 {
					t.Errorf("%v later, when %s is back in full: %s gets %d %s", reset, a, b, rec.Code, rec.Body)
				}
			})
		}
	}
}

func TestIdleKeysExpire(t *testing.T) {
	h, clk := newTestHandler(t, Options{IdleTTL: time.Minute})
	// A key whose limit has recovered (its window of 1s is over) is
	// forgotten once idle for longer than the TTL: it starts again at seq 1.
	const q = "key=idle&limiter=fixed&limit=1&window=1s"
	get(h, q)
	clk.Advance(time.Minute) // exactly the TTL: still held
	if rec := get(h, q); rec.Code != 200 || decodeBody(t, rec).Seq != 2 {
		t.Fatalf("within TTL: %d, want 200 seq 2", rec.Code)
	}
	clk.Advance(time.Minute + time.Nanosecond)
	rec := get(h, q)
	if b := decodeBody(t, rec); rec.Code != 200 || b.Seq != 1 {
		t.Errorf("after TTL: %d seq %d, want a fresh key", rec.Code, b.Seq)
	}
	// The janitor's sweep forgets idle keys.
	for i := 0; i < 100; i++ {
		get(h, "key=k"+strconv.Itoa(i))
	}
	if n := h.Stats().Keys; n != 101 {
		t.Fatalf("keys %d, want 101", n)
	}
	clk.Advance(30 * time.Second)
	get(h, "key=k7")
	clk.Advance(31 * time.Second)
	if n := h.store.sweep(clk.Now()); n != 100 {
		t.Errorf("sweep removed %d, want 100", n)
	}
	if st := h.Stats(); st.Keys != 1 || st.Expired != 101 {
		t.Errorf("after sweep: %+v", st)
	}
}

// An idle key whose limit has not recovered keeps its state past the TTL
// (the default 10 minutes): the server never admits a request it told the
// client to wait for, and the key's arrival numbers go on. It is forgotten
// once idle for longer than both the TTL and the time its limiter takes to
// recover fully, where a fresh limiter would admit the same.
func TestIdleKeyKeptUntilItsLimitRecovers(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	const fixed = "key=w&limiter=fixed&limit=1&window=1h"
	get(h, fixed)
	if rec := get(h, fixed); rec.Code != 429 || rec.Header().Get("Retry-After") != "3600" {
		t.Fatalf("fixed window, 2nd request: %d Retry-After %q; want 429 3600", rec.Code, rec.Header().Get("Retry-After"))
	}
	const bucket = "key=b&rate=0.001&burst=3"
	for i := 0; i < 3; i++ {
		get(h, bucket)
	}
	if rec := get(h, bucket); rec.Code != 429 || rec.Header().Get("Retry-After") != "1000" {
		t.Fatalf("bucket, 4th request: %d Retry-After %q; want 429 1000", rec.Code, rec.Header().Get("Retry-After"))
	}

	clk.Advance(10*time.Minute + time.Second)
	if n := h.store.sweep(clk.Now()); n != 0 {
		t.Errorf("sweep at 10m01s removed %d keys, want 0: neither limit has recovered", n)
	}
	rec := get(h, fixed)
	if b := decodeBody(t, rec); rec.Code != 429 || rec.Header().Get("Retry-After") != "2999" || b.Seq != 3 {
		t.Errorf("fixed window after 10m01s idle: %d Retry-After %q seq %d; want 429 2999 seq 3", rec.Code, rec.Header().Get("Retry-After"), b.Seq)
	}
	for i := 0; i < 3; i++ {
		rec := get(h, bucket)
		if b := decodeBody(t, rec); rec.Code != 429 || rec.Header().Get("Retry-After") != "399" || b.Seq != uint64(5+i) {
			t.Errorf("bucket after 10m01s idle, request %d: %d Retry-After %q seq %d; want 429 399 seq %d", i, rec.Code, rec.Header().Get("Retry-After"), b.Seq, 5+i)
		}
	}

	// The bucket is full again 3000 s after its admissions at 0s, at 50m;
	// the window ends at 1h. Idle past both the TTL and its recovery, each
	// key is forgotten, by the sweep or at its next request.
	clk.Advance(20 * time.Minute) // 30m01s
	if n := h.store.sweep(clk.Now()); n != 0 {
		t.Errorf("sweep at 30m01s removed %d keys, want 0", n)
	}
	clk.Advance(20 * time.Minute) // 50m01s
	if n := h.store.sweep(clk.Now()); n != 1 {
		t.Errorf("sweep at 50m01s removed %d keys, want 1 (the bucket)", n)
	}
	if rec := get(h, bucket); rec.Code != 200 || decodeBody(t, rec).Seq != 1 {
		t.Errorf("bucket after recovery: %d, want 200 seq 1", rec.Code)
	}
	clk.Advance(10*time.Minute - time.Second - time.Nanosecond) // 1h - 1ns
	if n := h.store.sweep(clk.Now()); n != 0 {
		t.Errorf("sweep at 1h - 1ns removed %d keys, want 0", n)
	}
	clk.Advance(time.Nanosecond)
	if rec := get(h, fixed); rec.Code != 200 || decodeBody(t, rec).Seq != 1 {
		t.Errorf("fixed window idle past its window and the TTL: %d seq %d, want 200 seq 1 (forgotten)", rec.Code, decodeBody(t, rec).Seq)
	}
}

// A key with an arrivals stream open (a watch) is not forgotten for being
// idle: its arrival numbers never start again under the watch.
func TestWatchedKeyKept(t *testing.T) {
	h, clk := newTestHandler(t, Options{IdleTTL: time.Minute})
	const q = "key=watched&limiter=fixed&limit=1&window=1s"
	s := h.hub.subscribe("watched")
	get(h, q)
	clk.Advance(2 * time.Minute)
	if n := h.store.sweep(clk.Now()); n != 0 {
		t.Errorf("sweep removed %d keys, want 0: the key is watched", n)
	}
	if b := decodeBody(t, get(h, q)); b.Seq != 2 {
		t.Errorf("watched key after 2m idle: seq %d, want 2", b.Seq)
	}
	h.hub.unsubscribe("watched", s)
	clk.Advance(2 * time.Minute)
	if n := h.store.sweep(clk.Now()); n != 1 {
		t.Errorf("sweep removed %d keys once the stream closed, want 1", n)
	}
}

func TestEvictionUnderFlood(t *testing.T) {
	const maxKeys = 1000
	h, _ := newTestHandler(t, Options{MaxKeys: maxKeys})
	var hot uint64
	for i := 0; i < 100_000; i++ {
		get(h, "key=flood-"+strconv.Itoa(i))
		if i%10 == 0 {
			hot = decodeBody(t, get(h, "key=hot")).Seq
		}
	}
	st := h.Stats()
	if st.Keys > maxKeys || st.Keys < maxKeys*9/10 {
		t.Errorf("keys %d after a flood, want at most %d (and close to it)", st.Keys, maxKeys)
	}
	if st.Evicted < 100_000-maxKeys {
		t.Errorf("evicted %d", st.Evicted)
	}
	if hot != 10_000 {
		t.Errorf("the often-used key was evicted: seq %d, want 10000", hot)
	}
	// A least recently used key is gone: it starts again at seq 1.
	if b := decodeBody(t, get(h, "key=flood-0")); b.Seq != 1 {
		t.Errorf("flood-0 seq %d, want 1", b.Seq)
	}
}

// A watched key (a room's, with an arrivals stream open) outlasts a flood
// of new keys, however long it has been idle: the flood evicts the others.
// A LAN client's 110,000 new keys evicted a room's key idle between runs,
// its used-up limit and its arrival numbers starting again under the
// watch (a security review).
func TestWatchedKeyOutlastsAFlood(t *testing.T) {
	const maxKeys = 1000
	h, _ := newTestHandler(t, Options{MaxKeys: maxKeys})
	const room = "key=room&limiter=fixed&limit=2&window=24h"
	s := h.hub.subscribe("room")
	defer h.hub.unsubscribe("room", s)
	for get(h, room).Code == 200 { // the room's quota used up: seq 1, 2 allowed, 3 refused
	}
	get(h, "key=idle&limiter=fixed&limit=2&window=24h")
	for i := range 20 * maxKeys {
		get(h, "key=flood-"+strconv.Itoa(i))
	}
	if rec := get(h, room); rec.Code != 429 || decodeBody(t, rec).Seq != 4 {
		t.Errorf("the watched room after a flood of %d keys: %d seq %d, want 429 seq 4 (its limit and numbers kept)", 20*maxKeys, rec.Code, decodeBody(t, rec).Seq)
	}
	if b := decodeBody(t, get(h, "key=idle&limiter=fixed&limit=2&window=24h")); b.Seq != 1 {
		t.Errorf("an unwatched key idle through the flood: seq %d, want 1 (evicted)", b.Seq)
	}
	if n := h.Stats().Keys; n > maxKeys {
		t.Errorf("keys %d after the flood, want at most %d", n, maxKeys)
	}
}

func TestEvictionBySize(t *testing.T) {
	// Sliding windows of 1000 cost ~8.5 KB each: the byte budget binds first.
	const maxBytes = 1 << 20
	h, _ := newTestHandler(t, Options{MaxBytes: maxBytes})
	for i := 0; i < 5000; i++ {
		get(h, "limiter=sliding&limit=1000&key=big-"+strconv.Itoa(i))
	}
	perKey := entryCost(1000) // a sliding window of 1000 holds 1000 instants
	if n := h.Stats().Keys; n > maxBytes/perKey || n < maxBytes/perKey/2 {
		t.Errorf("keys %d, want at most %d", n, maxBytes/perKey)
	}
	for i := range h.store.shards {
		if sh := &h.store.shards[i]; sh.bytes > sh.budget {
			t.Errorf("shard %d holds %d bytes, budget %d", i, sh.bytes, sh.budget)
		}
	}
}

func TestShardsFor(t *testing.T) {
	for _, tt := range []struct{ maxKeys, want int }{{1, 1}, {127, 1}, {128, 2}, {1000, 8}, {4096, 64}, {100_000, 64}} {
		if got := shardsFor(tt.maxKeys); got != tt.want {
			t.Errorf("shardsFor(%d) = %d, want %d", tt.maxKeys, got, tt.want)
		}
	}
	s := newStore(10, 1<<20, time.Hour, t0)
	for i := 0; i < 100; i++ {
		s.decide("k"+strconv.Itoa(i), core.LimiterConfig{}, nil, t0, func(uint64, *core.Limiter) {})
	}
	if s.len() != 10 {
		t.Errorf("MaxKeys 10 holds %d", s.len())
	}
}

// TestBareNumberLatencyAnswer: GET /mock?latency=50 is answered with a
// 400 that says a number needs a unit (TestDurationParamsSayAUnit).
func TestBareNumberLatencyAnswer(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mock?latency=50", nil))
	const want = `mock: latency "50": allowed a duration between 0s and 30s; latency+spread ≤ 30s; a number needs a unit: 50ms, perhaps`
	var e struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != 400 || err != nil || e.Error != want {
		t.Errorf("GET /mock?latency=50: %d %s, want 400 saying %q", rec.Code, rec.Body, want)
	}
}

func TestErrorResponses(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	tests := []struct {
		method, query string
		status        int
		param         string
	}{
		{"GET", "rate=0", 400, "rate"},
		{"GET", "bogus=1", 400, "bogus"},
		{"GET", "key=a&key=b", 400, "key"},
		{"GET", "key=%zz", 400, "query"},
		{"GET", "fail500=60&drop=60", 400, "drop"},
		{"GET", "latency=30s&spread=1ms", 400, "spread"},
		{"GET", "window=1s&limiter=sliding&limit=1001", 400, "limit"},
		{"GET", "key=" + strings.Repeat("x", 65), 400, "key"},
		{"POST", "", 405, "method"},
		{"DELETE", "rate=0", 405, "method"},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/mock?"+tt.query, nil))
		var e struct{ Error, Param, Value, Allowed string }
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Errorf("%s %s: body %q: %v", tt.method, tt.query, rec.Body, err)
		}
		if rec.Code != tt.status || e.Param != tt.param || e.Allowed == "" || !strings.HasPrefix(e.Error, "mock: ") {
			t.Errorf("%s %s: %d %+v, want %d for %s", tt.method, tt.query, rec.Code, e, tt.status, tt.param)
		}
		if rec.Header().Get("Access-Control-Allow-Origin") != "*" || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: error lacks CORS or JSON headers: %v", tt.method, tt.query, rec.Header())
		}
		if tt.status == 405 && rec.Header().Get("Allow") != "GET, HEAD, OPTIONS" {
			t.Errorf("405 Allow = %q", rec.Header().Get("Allow"))
		}
	}
	if n := h.Stats().Keys; n != 0 {
		t.Errorf("refused requests created %d keys", n)
	}
}

// A route's preflight allows exactly the methods it serves: each method
// the preflight lists is not refused, and each other one gets 405 with
// Allow listing the same methods.
func TestPreflightMatchesMethods(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for _, route := range []struct {
		path    string
		handler http.Handler
	}{{"/mock", h}, {"/mock/events", h.Events()}, {"/mock/outage", h.Outage()}, {"/mock/limit", h.Limit()}, {"/mock/burst", h.Burst()}} {
		rec := httptest.NewRecorder()
		route.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodOptions, route.path, nil))
		allowed := rec.Header().Get("Access-Control-Allow-Methods")
		for _, m := range []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"} {
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a stream returns at once
			rec := httptest.NewRecorder()
			route.handler.ServeHTTP(rec, httptest.NewRequest(m, route.path, nil).WithContext(ctx))
			listed := slices.Contains(strings.Split(allowed, ", "), m)
			if refused := rec.Code == 405; refused == listed {
				t.Errorf("%s %s: %d, but the preflight allows %q", m, route.path, rec.Code, allowed)
			}
			if rec.Code == 405 && rec.Header().Get("Allow") != allowed {
				t.Errorf("%s %s: Allow %q, preflight %q", m, route.path, rec.Header().Get("Allow"), allowed)
			}
		}
	}
}

// A page on another origin may call every route, the fault switches
// included: a POST with a header a simple request may not carry
// (Content-Type: application/json, an X-Request-Id its fetch wrapper adds)
// is preflighted, and the switches answered the preflight 405, so the
// browser never sent the POST.
func TestCORS(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for _, route := range []struct {
		handler http.Handler
		method  string // what the preflight asks for
		methods string
	}{{h, "GET", "GET, HEAD, OPTIONS"}, {h.Events(), "GET", "GET, OPTIONS"},
		{h.Outage(), "POST", "POST, OPTIONS"}, {h.Limit(), "POST", "POST, OPTIONS"}, {h.Burst(), "POST", "POST, OPTIONS"}} {
		handler := route.handler
		req := httptest.NewRequest(http.MethodOptions, "/mock?key=x", nil)
		req.Header.Set("Origin", "http://other.example:9000")
		req.Header.Set("Access-Control-Request-Method", route.method)
		req.Header.Set("Access-Control-Request-Headers", "x-worker, content-type")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		want := map[string]string{
			"Access-Control-Allow-Origin":  "*",
			"Access-Control-Allow-Methods": route.methods,
			"Access-Control-Allow-Headers": "x-worker, content-type",
			"Access-Control-Max-Age":       "7200",
		}
		if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
			t.Errorf("preflight: %d %q", rec.Code, rec.Body)
		}
		for k, v := range want {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("preflight %s = %q, want %q", k, got, v)
			}
		}
		// A hostile request-headers value is not echoed.
		req.Header.Set("Access-Control-Request-Headers", "x\r\nSet-Cookie: a=b")
		rec = httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if v := rec.Header().Get("Access-Control-Allow-Headers"); v != "" {
			t.Errorf("echoed %q", v)
		}
	}
	if n := h.Stats().Keys; n != 0 {
		t.Errorf("preflights created %d keys", n)
	}
	if _, down := h.outages.active("x", h.opts.Now()); down {
		t.Error("a preflight of /mock/outage took the key down")
	}
	// Every GET response exposes the rate-limit headers to cross-origin scripts.
	for _, q := range []string{"key=c", "key=c&limiter=fixed&limit=1", "rate=-1"} {
		rec := get(h, q)
		exposed := strings.Split(rec.Header().Get("Access-Control-Expose-Headers"), ", ")
		for _, name := range []string{"Retry-After", "RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			if !contains(exposed, name) {
				t.Errorf("%s: %s not exposed: %q", q, name, exposed)
			}
		}
		for k, v := range map[string]string{"Access-Control-Allow-Origin": "*", "Timing-Allow-Origin": "*", "Cache-Control": "no-store"} {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", q, k, got, v)
			}
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestHEADCountsAsArrival(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/mock?key=head&limiter=fixed&limit=1", nil))
	if rec.Code != 200 {
		t.Fatalf("HEAD: %d", rec.Code)
	}
	if rec := get(h, "key=head&limiter=fixed&limit=1"); rec.Code != 429 {
		t.Errorf("GET after HEAD: %d, want 429", rec.Code)
	}
}

// TestSharedHeaderValuesUnchanged guards the shared header slices that every
// response's map points at.
// sharedValues are the header value slices every response shares, with
// what they must hold.
var sharedValues = map[string]struct {
	v    *[]string
	want string
}{
	"hvStar": {&hvStar, "*"}, "hvNoStore": {&hvNoStore, "no-store"}, "hvNoSniff": {&hvNoSniff, "nosniff"},
	"hvJSON": {&hvJSON, "application/json"}, "hvEventStream": {&hvEventStream, "text/event-stream"},
	"hvMethods": {&hvMethods, "GET, HEAD, OPTIONS"}, "hvStreamMethods": {&hvStreamMethods, "GET, OPTIONS"},
	"hvSwitchMethods": {&hvSwitchMethods, "POST, OPTIONS"}, "hvMaxAge": {&hvMaxAge, "7200"},
	"hvVaryPreflight": {&hvVaryPreflight, "Access-Control-Request-Headers"},
	"hvExpose":        {&hvExpose, "Retry-After, RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset"},
}

// sharedCases are requests that between them take every path that sets
// headers: answers, rejections with every header, injected failures, an
// outage, errors, 405s, preflights, the switches, a burst and a stream.
var sharedCases = []struct{ method, path string }{
	{"GET", "/mock?key=sh&limiter=fixed&limit=1&window=1h&headers=both&retry_after=date"},
	{"GET", "/mock?key=sh&limiter=fixed&limit=1&window=1h&headers=both&retry_after=date"},
	{"HEAD", "/mock?key=sh&limiter=fixed&limit=1&window=1h&headers=both&retry_after=seconds"},
	{"GET", "/mock?key=sh2&fail503=100&headers=both"},
	{"GET", "/mock?key=sh&rate=-1"},
	{"DELETE", "/mock?key=sh"},
	{"OPTIONS", "/mock?key=sh"},
	{"OPTIONS", "/mock/events?key=sh"},
	{"PUT", "/mock/events?key=sh"},
	{"GET", "/mock/events?key=a%20b"},
	{"POST", "/mock/limit?key=sh&for=1s"},
	{"GET", "/mock/limit?key=sh"},
	{"POST", "/mock/outage?key=sh3&for=1s"},
	{"GET", "/mock?key=sh3&headers=both"},
	{"POST", "/mock/outage?key=sh&for=2m"},
	{"POST", "/mock/burst?key=sh&n=3&headers=both"},
	{"POST", "/mock/burst?key=sh&n=0"},
}

func sharedMux(h *Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/mock", h)
	mux.Handle("/mock/events", h.Events())
	mux.Handle("/mock/outage", h.Outage())
	mux.Handle("/mock/limit", h.Limit())
	mux.Handle("/mock/burst", h.Burst())
	return mux
}

// TestSharedHeaderValuesUnchanged: responses share the slices above rather
// than allocate their own (TestAllocsPerRequest), so two things must hold,
// or one response would change every later one's headers:
//   - every value slice a response's header holds, shared or its own, has
//     no spare capacity, so that Header.Add (an append) by whatever handles
//     the response after the mock copies it instead of writing into the
//     shared array (or, for headerVals.set's values, into the next
//     header's value);
//   - nothing on the way out writes into a value's elements in place
//     (hdr[k][0] = ...): neither the mock nor net/http, over HTTP/1.1 and
//     HTTP/2 (net/http clones the handler's header before changing it).
func TestSharedHeaderValuesUnchanged(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	mux := sharedMux(h)
	for _, c := range sharedCases {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a stream returns at once
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil).WithContext(ctx))
		if len(rec.Header()) < 5 {
			t.Errorf("%s %s: %d headers %v, want the common ones at least", c.method, c.path, rec.Code, rec.Header())
		}
		for k, v := range rec.Header() {
			if len(v) != cap(v) {
				t.Errorf("%s %s: header %s has len %d, cap %d: an Add would write into a shared array", c.method, c.path, k, len(v), cap(v))
			}
		}
	}

	live := New(Options{})
	t.Cleanup(live.Close)
	srv := httptest.NewUnstartedServer(sharedMux(live))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	h1 := &http.Client{Transport: &http.Transport{TLSClientConfig: srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()}}
	for _, client := range []*http.Client{h1, srv.Client()} {
		for _, c := range sharedCases {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond) // a stream is cut
			req, _ := http.NewRequestWithContext(ctx, c.method, srv.URL+c.path, nil)
			if resp, err := client.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
					t.Errorf("%s %s over %s: headers %v", c.method, c.path, resp.Proto, resp.Header)
				}
			} else if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s %s: %v", c.method, c.path, err)
			}
			cancel()
		}
	}

	for name, s := range sharedValues {
		if len(*s.v) != 1 || cap(*s.v) != 1 || (*s.v)[0] != s.want {
			t.Errorf("%s is %q (cap %d), want [%q] (cap 1)", name, *s.v, cap(*s.v), s.want)
		}
	}
}

// TestRateLimitHeadersParseWithCore: what the mock sends is what core's
// client side reads.
func TestRateLimitHeadersParseWithCore(t *testing.T) {
	for _, tt := range []struct {
		query, source string
	}{
		{"headers=ietf", "RateLimit"},
		{"headers=x", "X-RateLimit"},
		{"headers=both", "RateLimit"},
	} {
		h, _ := newTestHandler(t, Options{})
		q := "key=parse&limiter=fixed&limit=3&window=20s&" + tt.query
		get(h, q)
		rec := get(h, q)
		hint, err := core.ParseRateLimit(rec.Header(), t0)
		if err != nil {
			t.Errorf("%s: core.ParseRateLimit: %v (headers %v)", tt.query, err, rec.Header())
			continue
		}
		if hint.Source != tt.source || !hint.HasRemaining || hint.Remaining != 1 || !hint.HasReset || hint.Reset != 20*time.Second {
			t.Errorf("%s: hint %+v, want remaining 1, reset 20s from %s", tt.query, hint, tt.source)
		}
		if tt.source == "RateLimit" && (!hint.HasLimit || hint.Limit != 3 || !hint.HasWindow || hint.Window != 20*time.Second) {
			t.Errorf("%s: hint %+v, want limit 3 and window 20s from RateLimit-Policy", tt.query, hint)
		}
	}
}

// TestAllocsPerRequest guards the hot path: an allowed request allocates
// nothing in the handler itself, a rejection with every header two.
func TestAllocsPerRequest(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for _, tt := range []struct {
		query string
		max   float64
	}{
		{"key=allocs&limiter=bucket&rate=1000000&burst=1000000", 0},
		{"key=allocs2&limiter=fixed&limit=1&window=24h&headers=both&retry_after=date", 2},
	} {
		req := httptest.NewRequest(http.MethodGet, "/mock?"+tt.query, nil)
		w := &discard{h: http.Header{}}
		h.ServeHTTP(w, req) // create the key
		n := testing.AllocsPerRun(200, func() {
			clear(w.h)
			h.ServeHTTP(w, req)
		})
		if n > tt.max {
			t.Errorf("%s: %v allocations per request, want at most %v", tt.query, n, tt.max)
		}
	}
}

// TestConcurrentRequestsShareOneLimit: a room hammered from many goroutines
// admits exactly its limit.
func TestConcurrentRequestsShareOneLimit(t *testing.T) {
	h, _ := newTestHandler(t, Options{Now: time.Now})
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	seqs := map[uint64]bool{}
	for g := 0; g < 50; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				rec := get(h, "key=room&limiter=sliding&limit=100&window=24h")
				var b Body
				json.Unmarshal(rec.Body.Bytes(), &b)
				mu.Lock()
				codes[rec.Code]++
				seqs[b.Seq] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if codes[200] != 100 || codes[429] != 900 {
		t.Errorf("codes %v, want exactly 100 allowed of 1000", codes)
	}
	if len(seqs) != 1000 || !seqs[1] || !seqs[1000] {
		t.Errorf("%d distinct seqs, want 1..1000", len(seqs))
	}
}

// TestReadmeStatesTheServersLimits keeps the README's mock-endpoint section
// exact about what the server does on its own: it closes a hang after
// DefaultHangLimit (the hang row, from Table, says so) and forgets an idle
// key after DefaultIdleTTL once its limit has recovered.
func TestReadmeStatesTheServersLimits(t *testing.T) {
	src, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(src)
	start := strings.Index(readme, "## The mock endpoint")
	end := strings.Index(readme[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no mock endpoint section")
	}
	section := readme[start : start+1+end]
	hang := strconv.Itoa(int(DefaultHangLimit/time.Second)) + " s"
	if !strings.Contains(Table()[pHang].Meaning, hang) {
		t.Errorf("hang's meaning %q does not say the connection is closed after %s", Table()[pHang].Meaning, hang)
	}
	for _, want := range []string{
		"closed after " + hang,
		"unused for more than " + strconv.Itoa(int(DefaultIdleTTL/time.Minute)) + " minutes",
		"fully recovered",
	} {
		if !strings.Contains(strings.Join(strings.Fields(section), " "), want) {
			t.Errorf("README.md's mock endpoint section does not say %q", want)
		}
	}
}

// retry_value and malformed are accepted with any retry_after (the page
// sends every field) but apply only with their mode, and the table says so.
func TestModeParamsOnlyWithTheirMode(t *testing.T) {
	for _, tt := range []struct{ param, mode string }{{"retry_value", "retry_after=fixed"}, {"malformed", "retry_after=malformed"}} {
		m := Table()[paramIndex(tt.param)].Meaning
		if !strings.Contains(m, "only with "+tt.mode) || !strings.Contains(m, "ignored otherwise") {
			t.Errorf("%s's meaning %q does not say it applies only with %s", tt.param, m, tt.mode)
		}
	}
	h, _ := newTestHandler(t, Options{})
	for i, tt := range []struct{ query, want string }{
		{"retry_after=seconds&retry_value=7", "3600"},
		{"retry_after=seconds&malformed=huge", "3600"},
		{"retry_after=none&retry_value=7&malformed=text", ""},
		{"retry_after=fixed&retry_value=7&malformed=text", "7"},
	} {
		q := "limiter=fixed&limit=1&window=1h&key=mode" + strconv.Itoa(i) + "&" + tt.query
		get(h, q)
		if rec := get(h, q); rec.Code != 429 || rec.Header().Get("Retry-After") != tt.want {
			t.Errorf("%s: %d Retry-After %q, want 429 %q", tt.query, rec.Code, rec.Header().Get("Retry-After"), tt.want)
		}
	}
}

// The arrivals stream's query: a key, or a refusal that names the
// parameter, as /mock's does (a pair without a name is given whole).
func TestParseEventsQuery(t *testing.T) {
	for _, tt := range []struct {
		raw, key, param, value string
	}{
		{"", "default", "", ""},
		{"key=room-1", "room-1", "", ""},
		{"foo=1", "", "foo", "1"},
		{"key=a&tag=x", "", "tag", "x"},
		{"=1", "", "query", "=1"},
		{"key=a&key=b", "", "key", "b"},
		{"key=a%20b", "", "key", "a b"},
	} {
		key, perr := parseEventsQuery(tt.raw)
		switch {
		case tt.param == "" && (perr != nil || key != tt.key):
			t.Errorf("%q: key %q, error %v; want key %q", tt.raw, key, perr, tt.key)
		case tt.param != "" && (perr == nil || perr.Param != tt.param || perr.Value != tt.value || perr.Allowed == ""):
			t.Errorf("%q: error %+v; want one naming %s=%q", tt.raw, perr, tt.param, tt.value)
		}
	}
}
