//go:build !(js && wasm)

package mock

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"retrylab/core"
)

// burstAnswer is the JSON answer of POST /mock/burst.
type burstAnswer struct {
	Key, At           string
	N                 int
	Allowed, Rejected int
	Outage            int
}

func postBurst(t *testing.T, h *Handler, query string) burstAnswer {
	t.Helper()
	rec := httptest.NewRecorder()
	h.Burst().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mock/burst?"+query, nil))
	var a burstAnswer
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" || json.Unmarshal(rec.Body.Bytes(), &a) != nil {
		t.Fatalf("POST /mock/burst?%s: %d %v %s", query, rec.Code, rec.Header(), rec.Body)
	}
	if a.Allowed+a.Rejected != a.N {
		t.Fatalf("POST /mock/burst?%s: allowed %d + rejected %d != n %d", query, a.Allowed, a.Rejected, a.N)
	}
	return a
}

// subscribe opens a stream for key on the hub directly (no connection) and
// returns a function reading what was published since, as the page would
// decode it.
func subscribe(t *testing.T, h *Handler, key string) func() []Event {
	t.Helper()
	s := h.hub.subscribe(key)
	if s == nil {
		t.Fatal("no stream")
	}
	t.Cleanup(func() { h.hub.unsubscribe(key, s) })
	return func() []Event {
		var evs []Event
		for {
			select {
			case ev := <-s.ch:
				data := strings.TrimSuffix(strings.TrimPrefix(string(appendEvent(nil, &ev)), "data: "), "\n\n")
				var e Event
				if err := json.Unmarshal([]byte(data), &e); err != nil {
					t.Fatalf("event %q: %v", data, err)
				}
				evs = append(evs, e)
			default:
				return evs
			}
		}
	}
}

// A burst drains the key's own bucket: 10 of 30 admitted from a full bucket
// of 10, the key's next GET is rejected, and a second later 10 more are.
func TestBurstDrainsTheBucket(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	const q = "key=k&limiter=bucket&rate=10&burst=10"
	rec := post(h.Burst(), q+"&n=30")
	if want := `{"key":"k","at":"2026-11-05T10:00:00.25Z","n":30,"allowed":10,"rejected":20,"outage":0}` + "\n"; rec.Code != 200 || rec.Body.String() != want || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("burst of 30: %d %q %s, want %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body, want)
	}
	if rec := get(h, q); rec.Code != 429 || decodeBody(t, rec).Seq != 31 {
		t.Errorf("the key's next GET: %d %s, want 429 as arrival 31", rec.Code, rec.Body)
	}
	clk.Advance(time.Second)
	if a := postBurst(t, h, q+"&n=30"); a.Allowed != 10 || a.Rejected != 20 || a.At != t0.Add(time.Second).Format(time.RFC3339Nano) {
		t.Errorf("a second later: %+v, want 10 allowed", a)
	}
	if a := postBurst(t, h, "key=k&limiter=bucket&rate=10&burst=10"); a.N != DefaultBurstN || a.Allowed != 0 {
		t.Errorf("n not given: %+v, want %d, none allowed", a, DefaultBurstN)
	}
}

// A burst with settings other than the room's clients' (the presenter's
// page) does not reset the key's limiter: the bucket its clients drained
// stays drained.
func TestBurstWithOtherSettingsKeepsTheLimit(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for range 5 {
		get(h, "key=room&limiter=bucket&rate=1&burst=5")
	}
	if a := postBurst(t, h, "key=room&limiter=bucket&rate=2&burst=5&n=10"); a.Allowed != 0 {
		t.Errorf("burst with rate=2 on a drained key: %+v, want none allowed", a)
	}
	if rec := get(h, "key=room&limiter=bucket&rate=1&burst=5"); rec.Code != 429 {
		t.Errorf("the clients' next GET: %d, want 429", rec.Code)
	}
}

// Each request of a burst is decided as a GET with its query would be at
// that instant: an outage, a scaled limit and injected failures apply; the
// stream gets each one's arrival tagged "burst" and its end "sent".
func TestBurstDecidedAsAGet(t *testing.T) {
	bucket := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 10, Burst: 10}
	// What core's limiter says of 30 requests at once on a full bucket of
	// 10 halved at that instant.
	halved := core.NewLimiter(bucket, t0)
	halved.Reconfigure(bucket.Scaled(0.5), t0)
	halvedAllowed := 0
	for range 30 {
		if halved.Decide(t0).Allowed {
			halvedAllowed++
		}
	}
	tests := []struct {
		name     string
		setup    func(h *Handler)
		query    string
		rand     []float64
		allowed  int
		outcomes map[string]int
	}{
		{"bucket", nil, "limiter=bucket&rate=10&burst=10&n=30", nil,
			10, map[string]int{"ok": 10, "limited": 20}},
		{"rejection status", nil, "limiter=fixed&limit=4&status=503&n=6", nil,
			4, map[string]int{"ok": 4, "limited": 2}},
		{"no limit", nil, "limiter=none&n=1000", nil,
			1000, map[string]int{"ok": 1000}},
		{"outage", func(h *Handler) { post(h.Outage(), "key=k&for=3s") }, "limiter=bucket&rate=10&burst=10&n=30", nil,
			0, map[string]int{"outage": 30}},
		{"halved limit", func(h *Handler) {
			get(h, "key=k&limiter=bucket&rate=10&burst=10&fail500=100") // the key's bucket, full: a failure takes no token
			post(h.Limit(), "key=k&scale=0.5&for=5s")
		}, "limiter=bucket&rate=10&burst=10&n=30", nil,
			halvedAllowed, map[string]int{"ok": halvedAllowed, "limited": 30 - halvedAllowed}},
		{"outage over a halved limit", func(h *Handler) {
			post(h.Limit(), "key=k&scale=0.5&for=5s")
			post(h.Outage(), "key=k&for=3s")
		}, "limiter=bucket&rate=10&burst=10&n=30", nil,
			0, map[string]int{"outage": 30}},
		// Half the requests fail: they take no token; the other half drain
		// the bucket. No latency is chosen (spread would take a number).
		{"injected failures", nil, "limiter=bucket&rate=10&burst=10&fail500=30&fail503=20&spread=1s&n=30", []float64{0.1, 0.9, 0.4, 0.6},
			10, map[string]int{"fail500": 8, "fail503": 7, "ok": 10, "limited": 5}},
		{"drops and hangs answered at once", nil, "drop=50&hang=50&n=10", []float64{0.2, 0.7},
			0, map[string]int{"drop": 5, "hang": 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{StreamBuf: 4096}
			if tt.rand != nil {
				opts.Rand = (&fixedRand{vals: tt.rand}).Float64
			}
			h, _ := newTestHandler(t, opts)
			if tt.setup != nil {
				tt.setup(h)
			}
			events := subscribe(t, h, "k")
			a := postBurst(t, h, "key=k&tag=mine&"+tt.query)
			n, _ := strconv.Atoi(tt.query[strings.LastIndex(tt.query, "n=")+2:])
			if a.Key != "k" || a.N != n || a.Allowed != tt.allowed || a.At != t0.Format(time.RFC3339Nano) || a.Outage != tt.outcomes["outage"] {
				t.Errorf("answer %+v, want %d of %d allowed, %d by the outage", a, tt.allowed, n, tt.outcomes["outage"])
			}
			evs := events()
			if len(evs) != 2*n+1 {
				t.Fatalf("%d stream events, want %d", len(evs), 2*n+1)
			}
			// Last, the burst as a whole.
			if sum := evs[2*n]; sum.Type != "burst" || sum.Key != "k" || !sum.At.Equal(t0) || sum.N != n || sum.Admitted != tt.allowed {
				t.Errorf("the burst's own message %+v, want n %d, admitted %d at t0", sum, n, tt.allowed)
			}
			evs = evs[:2*n]
			outcomes := map[string]int{}
			for i := 0; i < len(evs); i += 2 {
				arr, end := evs[i], evs[i+1]
				if arr.Type != "arrival" || arr.Key != "k" || arr.Tag != BurstTag || arr.Seq != evs[0].Seq+uint64(i/2) || !arr.At.Equal(t0) || arr.LatencyMS != 0 {
					t.Fatalf("event %d: %+v, want an arrival tagged burst, seq %d, at t0, no latency", i, arr, evs[0].Seq+uint64(i/2))
				}
				if end.Type != "end" || end.End != "sent" || end.Seq != arr.Seq || end.Tag != BurstTag || end.Outcome != arr.Outcome || end.Status != arr.Status || end.ElapsedMS != 0 {
					t.Fatalf("event %d: %+v, want the end \"sent\" of %+v", i+1, end, arr)
				}
				if arr.Allowed != (arr.Outcome == "ok") {
					t.Fatalf("event %d: %+v: allowed disagrees with the outcome", i, arr)
				}
				outcomes[arr.Outcome]++
			}
			if len(outcomes) != len(tt.outcomes) {
				t.Errorf("outcomes %v, want %v", outcomes, tt.outcomes)
			}
			for o, c := range tt.outcomes {
				if outcomes[o] != c {
					t.Errorf("outcomes %v, want %v", outcomes, tt.outcomes)
					break
				}
			}
		})
	}
}

// A burst's messages are a GET's, tag and all: a burst of one and a GET
// with tag=burst, each on a fresh handler at the same instant, publish the
// same bytes, so stream consumers need nothing new.
func TestBurstEventsAreAGetsEvents(t *testing.T) {
	for _, q := range []string{
		"key=k&limiter=fixed&limit=3&window=10s",
		"key=k&limiter=sliding&limit=1&window=1s&headers=both&retry_after=date",
	} {
		var got [2][]byte
		for i, send := range []func(h *Handler){
			func(h *Handler) { post(h.Burst(), q+"&n=1") },
			func(h *Handler) { get(h, q+"&tag=burst") },
		} {
			h, _ := newTestHandler(t, Options{})
			get(h, q) // an earlier arrival: seq 2, a token already taken
			s := h.hub.subscribe("k")
			send(h)
			for range 2 {
				ev := <-s.ch
				got[i] = appendEvent(got[i], &ev)
			}
		}
		if string(got[0]) != string(got[1]) {
			t.Errorf("%s:\nburst %s\nGET   %s", q, got[0], got[1])
		}
	}
}

// The stream over a real connection, through serveEvents, with the
// default buffer of 256 events: a burst of 1000 (2000 events) waits for the
// consumer rather than dropping what does not fit.
func TestBurstOnTheStream(t *testing.T) {
	ls := newLive(t, Options{})
	ls.Config.Handler.(*http.ServeMux).Handle("/mock/burst", ls.h.Burst())
	s := openStream(t, ls.URL+"/mock/events?key=room")
	resp, err := http.Post(ls.URL+"/mock/burst?key=room&limiter=fixed&limit=300&window=1m&n=1000", "", nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST: %v %v", resp, err)
	}
	resp.Body.Close()
	for i := range MaxBurstN {
		arr, end := s.next(t), s.next(t)
		wantOutcome := "ok"
		if i >= 300 {
			wantOutcome = "limited"
		}
		if arr.Type != "arrival" || arr.Tag != "burst" || arr.Seq != uint64(i+1) || arr.Outcome != wantOutcome || end.Type != "end" || end.Seq != arr.Seq || end.End != "sent" {
			t.Fatalf("request %d: %+v then %+v", i, arr, end)
		}
	}
	if sum := s.next(t); sum.Type != "burst" || sum.N != MaxBurstN || sum.Admitted != 300 {
		t.Errorf("after the requests: %+v, want the burst's own message (1000, 300 admitted)", sum)
	}
	if st := ls.h.Stats(); st.EventsDropped != 0 {
		t.Errorf("%d events dropped", st.EventsDropped)
	}
}

// A stream that stops reading delays a burst only until the caller goes
// away (or MaxBurstStreamWait): the rest of its events are dropped and
// counted, and every request is still decided.
func TestBurstStalledStream(t *testing.T) {
	h, _ := newTestHandler(t, Options{StreamBuf: 10})
	h.hub.subscribe("k") // never read
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	rec := httptest.NewRecorder()
	start := time.Now()
	h.Burst().ServeHTTP(rec, httptest.NewRequestWithContext(ctx, http.MethodPost, "/mock/burst?key=k&limiter=none&n=1000", nil))
	if took := time.Since(start); took > time.Second || rec.Code != 200 || !strings.Contains(rec.Body.String(), `"allowed":1000,`) {
		t.Errorf("a burst into a stalled stream: %d %s after %v", rec.Code, rec.Body, took)
	}
	if st := h.Stats(); st.EventsDropped != 2001-10 {
		t.Errorf("%d events dropped, want 2000 and the burst's own message, less the 10 buffered", st.EventsDropped)
	}
}

func TestBurstErrors(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	checkSwitchErrors(t, h.Burst(), "/mock/burst", []switchError{
		{http.MethodGet, "n=5", 405, "method", "GET", "POST, OPTIONS"},
		{http.MethodPut, "n=5", 405, "method", "PUT", "POST, OPTIONS"},
		{http.MethodPost, "n=0", 400, "n", "0", burstNAllowed},
		{http.MethodPost, "n=1001", 400, "n", "1001", burstNAllowed},
		{http.MethodPost, "n=-1", 400, "n", "-1", burstNAllowed},
		{http.MethodPost, "n=abc", 400, "n", "abc", burstNAllowed},
		{http.MethodPost, "n=2.5", 400, "n", "2.5", burstNAllowed},
		{http.MethodPost, "n=", 400, "n", "", burstNAllowed},
		{http.MethodPost, "n", 400, "n", "", burstNAllowed},
		{http.MethodPost, "n=5&key=a&n=6", 400, "n", "6", AllowedOnce},
		{http.MethodPost, "%6E=5&n=5", 400, "n", "5", AllowedOnce},
		{http.MethodPost, "n=%zz", 400, "query", "n=%zz", "a percent-encoded query"},
		{http.MethodPost, "key=a&rate=abc&n=5", 400, "rate", "abc", table[pRate].Allowed},
		{http.MethodPost, "key=a%20b", 400, "key", "a b", table[pKey].Allowed},
		{http.MethodPost, "key=a&key=b", 400, "key", "b", AllowedOnce},
		{http.MethodPost, "status=418", 400, "status", "418", table[pStatus].Allowed},
		{http.MethodPost, "fail500=60&fail503=50", 400, "fail503", "50", "at most 40: " + allowedSum},
		{http.MethodPost, "x=1&n=5", 400, "x", "1", "n, " + allowedKnown},
		{http.MethodPost, "=1", 400, "query", "=1", "name=value pairs with names n, " + allowedKnown},
		{http.MethodPost, "key=%zz", 400, "query", "key=%zz", "a percent-encoded query"},
	})
	if h.Stats().Keys != 0 {
		t.Errorf("refused bursts made %d keys", h.Stats().Keys)
	}
}

// The burst query parser: n read out, the rest as ParseQuery reads it.
func TestParseBurstQuery(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		n    int
		want string // the rest, as ParseQuery reads it, encoded
	}{
		{"", DefaultBurstN, ""},
		{"n=1", 1, ""},
		{"n=1000", 1000, ""},
		{"key=a&n=7&limiter=fixed&limit=5", 7, "key=a&limiter=fixed&limit=5"},
		{"&&n=07&&key=a&", 7, "key=a"},
		{"%6E=3&tag=t", 3, "tag=t"},
		{"nn=3", 0, ""}, // unknown, not n
	} {
		n, p, perr := parseBurstQuery(tt.raw)
		if tt.n == 0 {
			if perr == nil || perr.Param != "nn" {
				t.Errorf("%q: %v, want nn refused", tt.raw, perr)
			}
			continue
		}
		if perr != nil || n != tt.n || p.Encode() != tt.want {
			t.Errorf("%q: n %d, %q, %v; want %d, %q", tt.raw, n, p.Encode(), perr, tt.n, tt.want)
		}
	}
}

// Bursts and GETs on one key from many goroutines (run with -race): the
// limiter admits exactly its limit between them.
func TestBurstConcurrentWithGets(t *testing.T) {
	h, _ := newTestHandler(t, Options{Now: time.Now})
	const q = "key=c&limiter=sliding&limit=1000&window=1h"
	events := subscribe(t, h, "c")
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				if (i+j)%4 == 0 {
					rec := post(h.Burst(), q+"&n=50")
					var a burstAnswer
					if err := json.Unmarshal(rec.Body.Bytes(), &a); rec.Code != 200 || err != nil {
						t.Errorf("burst: %d %s", rec.Code, rec.Body)
						return
					}
					admitted.Add(int64(a.Allowed))
					continue
				}
				switch rec := get(h, q); rec.Code {
				case 200:
					admitted.Add(1)
				case 429:
				default:
					t.Errorf("GET: %d", rec.Code)
				}
			}
		})
	}
	done := make(chan struct{})
	var reader sync.WaitGroup
	reader.Go(func() { // a stream open meanwhile, read concurrently
		for {
			select {
			case <-done:
				return
			default:
				events()
			}
		}
	})
	wg.Wait()
	close(done)
	reader.Wait()
	// 40 bursts of 50 and 120 GETs: 2120 requests for a limit of 1000.
	if n := admitted.Load(); n != 1000 {
		t.Errorf("%d admitted between bursts and GETs, want the limit, 1000", n)
	}
}
