//go:build !(js && wasm)

package mock

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"retrylab/core"
)

// limitAnswer is the JSON answer of POST /mock/limit.
type limitAnswer struct {
	Key, From, Until string
	Scale            float64
}

func postLimit(t *testing.T, h *Handler, query string) limitAnswer {
	t.Helper()
	rec := httptest.NewRecorder()
	h.Limit().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mock/limit?"+query, nil))
	var a limitAnswer
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" || json.Unmarshal(rec.Body.Bytes(), &a) != nil {
		t.Fatalf("POST /mock/limit?%s: %d %v %s", query, rec.Code, rec.Header(), rec.Body)
	}
	return a
}

// admitted sends a request every step for d and returns how many were
// admitted in each second since the first, checking each answer's limit.
func admitted(t *testing.T, h *Handler, clk *fakeClock, query string, d, step time.Duration, limit int) []int {
	t.Helper()
	var perSecond []int
	for at := time.Duration(0); at < d; at += step {
		rec := get(h, query)
		b := decodeBody(t, rec)
		if b.Limit != limit || rec.Header().Get("X-RateLimit-Limit") != strconv.Itoa(limit) {
			t.Fatalf("at +%v: limit %d, X-RateLimit-Limit %q, want %d", at, b.Limit, rec.Header().Get("X-RateLimit-Limit"), limit)
		}
		if i := int(at / time.Second); i == len(perSecond) {
			perSecond = append(perSecond, 0)
		}
		if rec.Code == 200 {
			perSecond[len(perSecond)-1]++
		}
		clk.Advance(step)
	}
	return perSecond
}

// The switch end to end on a token bucket of rate 10, burst 10: drained,
// then halved for 5 s. The bucket keeps its tokens (it is not a fresh full
// bucket of 5), admits at most 5 a second meanwhile, with the halved limit
// in the headers, and 10 a second afterwards.
func TestLimitHalvesATokenBucket(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	const q = "key=k&limiter=bucket&rate=10&burst=10&headers=both"
	for i := range 11 {
		if rec := get(h, q); rec.Code != 200 && i < 10 || rec.Code != 429 && i == 10 {
			t.Fatalf("draining, request %d: %d", i, rec.Code)
		}
	}
	clk.Advance(200 * time.Millisecond) // 2 tokens back
	a := postLimit(t, h, "key=k&scale=0.5&for=5s")
	from := t0.Add(200 * time.Millisecond)
	if a.Key != "k" || a.Scale != 0.5 || a.From != from.Format(time.RFC3339Nano) || a.Until != from.Add(5*time.Second).Format(time.RFC3339Nano) {
		t.Fatalf("answer %+v", a)
	}

	// The 2 tokens carried, not a fresh bucket of 5.
	for i, want := range []int{200, 200, 429} {
		rec := get(h, q)
		if rec.Code != want {
			t.Fatalf("right after halving, request %d: %d, want %d", i, rec.Code, want)
		}
		hdr := rec.Header()
		if hdr.Get("X-RateLimit-Limit") != "5" || hdr.Get("RateLimit-Policy") != `"bucket";q=5;w=1` {
			t.Errorf("headers during the stretch: %v", hdr)
		}
		if want == 429 && (hdr.Get("Retry-After") != "1" || decodeBody(t, rec).RetryAfterMS != 200) {
			t.Errorf("rejection during the stretch: Retry-After %q, body %s", hdr.Get("Retry-After"), rec.Body)
		}
	}
	during := admitted(t, h, clk, q, 5*time.Second, 10*time.Millisecond, 5)
	for i, n := range during {
		if n > 5 || n < 4 {
			t.Errorf("second %d of the stretch: %d admitted, want at most 5 (and about 5): %v", i, n, during)
		}
	}
	after := admitted(t, h, clk, q, 3*time.Second, 10*time.Millisecond, 10)
	for i, n := range after {
		if n != 10 {
			t.Errorf("second %d after the stretch: %d admitted, want 10: %v", i, n, after)
		}
	}
}

// Each kind is scaled as core.LimiterConfig.Scaled says, and carries its
// state into the stretch and back out.
func TestLimitScalesEachKind(t *testing.T) {
	tests := []struct {
		query       string
		scale       string
		before      int // requests before the stretch
		limit       int // during the stretch
		allowedThen int // admitted at once during the stretch
		allowedBack int // admitted at once right after it
	}{
		{"limiter=bucket&rate=1&burst=10", "0.5", 2, 5, 5, 2},            // 8 tokens, capped at 5; 0.5/s for 5 s gives 2.5 back
		{"limiter=bucket&rate=1&burst=10", "0.2", 9, 2, 1, 1},            // 1 token kept; 0.2/s for 5 s gives 1 back
		{"limiter=fixed&limit=10&window=1m", "0.5", 3, 5, 2, 5},          // the count kept: 3 of 5, then 5 of 10
		{"limiter=fixed&limit=10&window=1m", "0.25", 6, 3, 0, 4},         // 6 over 3: rejections until the window ends
		{"limiter=sliding&limit=10&window=1m", "0.5", 3, 5, 2, 5},        // 3 kept, then 5
		{"limiter=sliding&limit=10&window=1m", "0.3", 6, 3, 0, 4},        // 6 in the window: none
		{"limiter=none", "0.5", 3, 0, 100, 1000},                         // nothing to scale
		{"limiter=sliding&limit=1000&window=1h", "0.05", 0, 50, 50, 950}, // a key new during the stretch; back up to 1000 with its 50
	}
	for _, tt := range tests {
		h, clk := newTestHandler(t, Options{})
		q := "key=s&headers=x&" + tt.query
		for range tt.before {
			get(h, q)
		}
		postLimit(t, h, "key=s&for=5s&scale="+tt.scale)
		n := 0
		for range 100 {
			rec := get(h, q)
			if b := decodeBody(t, rec); b.Limit != tt.limit {
				t.Fatalf("%s ×%s: limit %d during the stretch, want %d", tt.query, tt.scale, b.Limit, tt.limit)
			}
			if rec.Code == 200 {
				n++
			}
		}
		if n != tt.allowedThen {
			t.Errorf("%s ×%s: %d admitted during the stretch, want %d", tt.query, tt.scale, n, tt.allowedThen)
		}
		clk.Advance(5 * time.Second)
		n = 0
		for range 1000 {
			if get(h, q).Code == 200 {
				n++
			}
		}
		if n != tt.allowedBack {
			t.Errorf("%s ×%s: %d admitted after the stretch, want %d", tt.query, tt.scale, n, tt.allowedBack)
		}
	}
}

// The limiter moves at the instants the limit changed, not at the next
// request: a stretch that ran out gives the full rate from its end, and one
// that begins after a gap counts the gap at the full rate.
func TestLimitChangesAtItsInstants(t *testing.T) {
	const q = "key=g&limiter=bucket&rate=1&burst=10"
	h, clk := newTestHandler(t, Options{})
	postLimit(t, h, "key=g&scale=0.5&for=2s") // rate 0.5, burst 5
	for range 5 {
		get(h, q) // drained at t0
	}
	clk.Advance(6 * time.Second)
	// 0.5/s for 2 s, then 1/s for 4 s: 5 tokens (at 0.5/s throughout, 3).
	if b := decodeBody(t, get(h, q)); b.Remaining != 4 || b.Limit != 10 {
		t.Errorf("4 s after the stretch ran out: limit %d remaining %d, want 10 and 5-1", b.Limit, b.Remaining)
	}

	h, clk = newTestHandler(t, Options{})
	postLimit(t, h, "key=g&scale=0.5&for=2s")
	for range 5 {
		get(h, q)
	}
	clk.Advance(6 * time.Second)
	postLimit(t, h, "key=g&scale=0.5&for=5s") // a second stretch after a gap
	// 0.5/s for 2 s, 1/s for 4 s: 5 tokens, within the new burst of 5.
	if b := decodeBody(t, get(h, q)); b.Remaining != 4 || b.Limit != 5 {
		t.Errorf("a stretch after a gap: limit %d remaining %d, want 5 and 5-1", b.Limit, b.Remaining)
	}
}

// for=0s ends a stretch early: the limiter goes back then, carrying its
// tokens, and refills at the full rate from then on.
func TestLimitEndedEarly(t *testing.T) {
	const q = "key=e&limiter=bucket&rate=10&burst=10&headers=x"
	h, clk := newTestHandler(t, Options{})
	postLimit(t, h, "key=e&scale=0.5&for=1m")
	for range 5 {
		get(h, q)
	}
	if rec := get(h, q); rec.Code != 429 || rec.Header().Get("X-RateLimit-Limit") != "5" {
		t.Fatalf("during the stretch: %d %v", rec.Code, rec.Header())
	}
	clk.Advance(time.Second) // 5 tokens back at 5/s
	a := postLimit(t, h, "key=e&for=0s")
	if a.From != a.Until || a.Scale != 1 {
		t.Errorf("ending answer %+v: want until = from, scale 1", a)
	}
	clk.Advance(500 * time.Millisecond) // 5 more at 10/s
	n := 0
	for range 20 {
		rec := get(h, q)
		if rec.Header().Get("X-RateLimit-Limit") != "10" {
			t.Fatalf("after for=0s: %v", rec.Header())
		}
		if rec.Code == 200 {
			n++
		}
	}
	if n != 10 {
		t.Errorf("after for=0s: %d admitted, want the 5 carried + 5 at 10/s", n)
	}
}

// A client that changes its parameters during a stretch changes the key's
// limiter to them, scaled, keeping the window's admissions; afterwards they
// apply unscaled, carried over.
func TestLimitClientChangesDuringStretch(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	postLimit(t, h, "key=c&scale=0.5&for=5s")
	get(h, "key=c&limiter=fixed&limit=10&window=1m") // 1 of 5 admitted
	for i := range 7 {
		rec := get(h, "key=c&limiter=fixed&limit=6&window=1m")
		if b := decodeBody(t, rec); b.Limit != 3 || (rec.Code == 200) != (i < 2) {
			t.Fatalf("new parameters, request %d: %d limit %d", i, rec.Code, b.Limit)
		}
	}
	clk.Advance(5 * time.Second)
	if b := decodeBody(t, get(h, "key=c&limiter=fixed&limit=6&window=1m")); b.Limit != 6 || b.Remaining != 2 {
		t.Errorf("after the stretch: limit %d remaining %d, want 6 and 6-3-1", b.Limit, b.Remaining)
	}
}

// An outage still comes first during a scaled limit; the headers show the
// scaled limit, untouched.
func TestLimitUnderAnOutage(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	postLimit(t, h, "key=o&scale=0.5")
	post(h.Outage(), "key=o&for=1s")
	rec := get(h, "key=o&limiter=fixed&limit=4&headers=x")
	if rec.Code != 503 || decodeBody(t, rec).Outcome != "outage" || rec.Header().Get("X-RateLimit-Limit") != "2" || rec.Header().Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("during an outage and a scaled limit: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
}

func TestLimitAnswer(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for _, tt := range []struct{ query, want string }{
		{"", `{"key":"default","from":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:05.25Z","scale":0.5}`},
		{"key=k&scale=0.05&for=1m", `{"key":"k","from":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:01:00.25Z","scale":0.05}`},
		{"scale=1&for=1500ms&key=k", `{"key":"k","from":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:01.75Z","scale":1}`},
		// for=0s ends the stretch now: the key's own limit (scale 1) from then on.
		{"key=k&for=0s&scale=0.25", `{"key":"k","from":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:00.25Z","scale":1}`},
		{"key=zz&for=0s", `{"key":"zz","from":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:00.25Z","scale":1}`},
	} {
		rec := post(h.Limit(), tt.query)
		if got := strings.TrimSuffix(rec.Body.String(), "\n"); rec.Code != 200 || got != tt.want || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("POST /mock/limit?%s: %d %q\n got %s\nwant %s", tt.query, rec.Code, rec.Header().Get("Content-Type"), got, tt.want)
		}
	}
	// The outage's answer is as it was.
	if rec := post(h.Outage(), "key=k&for=2s"); rec.Body.String() != `{"key":"k","from":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:02.25Z"}`+"\n" {
		t.Errorf("POST /mock/outage: %s", rec.Body)
	}
}

func TestLimitErrors(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	const (
		forAllowed   = "a duration between 0s (end the stretch) and 1m, e.g. 5s"
		scaleAllowed = "a number between 0.05 and 1, the factor on the key's limit, e.g. 0.5"
	)
	checkSwitchErrors(t, h.Limit(), "/mock/limit", []switchError{
		{http.MethodGet, "key=a", 405, "method", "GET", "POST, OPTIONS"},
		{http.MethodPut, "key=a", 405, "method", "PUT", "POST, OPTIONS"},
		{http.MethodPost, "key=a&scale=0.01", 400, "scale", "0.01", scaleAllowed},
		{http.MethodPost, "key=a&scale=0.04999", 400, "scale", "0.04999", scaleAllowed},
		{http.MethodPost, "key=a&scale=1.01", 400, "scale", "1.01", scaleAllowed},
		{http.MethodPost, "key=a&scale=0", 400, "scale", "0", scaleAllowed},
		{http.MethodPost, "key=a&scale=half", 400, "scale", "half", scaleAllowed},
		{http.MethodPost, "key=a&scale=NaN", 400, "scale", "NaN", scaleAllowed},
		{http.MethodPost, "key=a&scale=", 400, "scale", "", scaleAllowed},
		{http.MethodPost, "key=a&scale=0.5&scale=0.5", 400, "scale", "0.5", AllowedOnce},
		{http.MethodPost, "key=a&for=2m", 400, "for", "2m", forAllowed},
		{http.MethodPost, "key=a&for=-1s", 400, "for", "-1s", forAllowed},
		{http.MethodPost, "key=a&for=5", 400, "for", "5", forAllowed + "; a number needs a unit: 5ms or 5s, perhaps"},
		{http.MethodPost, "key=a&for=90", 400, "for", "90", forAllowed + "; a number needs a unit: 90ms, perhaps"}, // 90s is past 1m
		{http.MethodPost, "key=a&for=1s&for=2s", 400, "for", "2s", AllowedOnce},
		{http.MethodPost, "key=a%20b", 400, "key", "a b", table[pKey].Allowed},
		{http.MethodPost, "key=a&key=b", 400, "key", "b", AllowedOnce},
		{http.MethodPost, "key=a&rate=3", 400, "rate", "3", "only key=..., scale=... and for=..."},
		{http.MethodPost, "key=a&=3", 400, "query", "=3", "only key=..., scale=... and for=..."},
		{http.MethodPost, "key=%zz", 400, "query", "key=%zz", "a percent-encoded query"},
	})
	// The outage takes no scale.
	if rec := post(h.Outage(), "key=a&scale=0.5"); rec.Code != 400 || !strings.Contains(rec.Body.String(), `"param":"scale"`) {
		t.Errorf("POST /mock/outage with scale: %d %s", rec.Code, rec.Body)
	}
}

// At most MaxLimitKeys keys have a scaled limit at once: beyond, 503 with
// Retry-After, like the outage's bound. Extending one held is accepted.
func TestLimitsBounded(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	for i := range MaxLimitKeys {
		if _, no := h.limits.start("k"+strconv.Itoa(i), "", time.Second, 0.5, MaxLimitKeys, 0, clk.Now, nil); no != refusedNot {
			t.Fatalf("stretch %d refused", i)
		}
	}
	rec := post(h.Limit(), "key=one-more")
	var e struct{ Param, Value, Allowed string }
	if json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != 503 || rec.Header().Get("Retry-After") != "5" || e.Param != "limits" || e.Value != "10001" ||
		e.Allowed != "at most 10000 keys with a scaled limit at once; try again when one ends" {
		t.Errorf("beyond MaxLimitKeys: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	if rec := post(h.Limit(), "key=k1&for=3s"); rec.Code != 200 {
		t.Errorf("extending a stretch held: %d %s", rec.Code, rec.Body)
	}
	clk.Advance(time.Second)
	if rec := post(h.Limit(), "key=one-more"); rec.Code != 200 {
		t.Errorf("after the others ended: %d %s", rec.Code, rec.Body)
	}
}

// The stream tells of a stretch with its scale, in the JSON the page reads,
// and a stream opened during one hears of it right after hello (after an
// outage begun before it).
func TestLimitOnTheStream(t *testing.T) {
	ls := newLive(t, Options{})
	mux := ls.Config.Handler.(*http.ServeMux)
	mux.Handle("/mock/limit", ls.h.Limit())
	mux.Handle("/mock/outage", ls.h.Outage())
	s := openStream(t, ls.URL+"/mock/events?key=room")
	for _, path := range []string{"/mock/outage?key=room&for=10s", "/mock/limit?key=room&scale=0.25&for=20s"} {
		resp, err := http.Post(ls.URL+path, "", nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("POST %s: %v %v", path, resp, err)
		}
		resp.Body.Close()
	}
	out, lim := s.next(t), s.next(t)
	if out.Type != "outage" || out.Scale != 0 || lim.Type != "limit" || lim.Key != "room" || lim.Scale != 0.25 || lim.Until.Sub(lim.At) != 20*time.Second || lim.At.Before(out.At) {
		t.Errorf("stream events %+v, %+v; want the outage, then a limit ×0.25 for 20 s", out, lim)
	}
	late := openStream(t, ls.URL+"/mock/events?key=room")
	if ev := late.next(t); ev != out {
		t.Errorf("a stream opened during both got %+v first, want the outage %+v", ev, out)
	}
	if ev := late.next(t); ev != lim {
		t.Errorf("then %+v, want the limit %+v", ev, lim)
	}
}

// The stream's stretch messages, byte for byte.
func TestStretchEventJSON(t *testing.T) {
	from, until := t0, t0.Add(5*time.Second)
	for _, tt := range []struct {
		ev   streamEvent
		want string
	}{
		{streamEvent{a: arrival{key: "k", at: from}, at: until, sw: &limitSwitch, scale: 0.5},
			`{"type":"limit","key":"k","at":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:05.25Z","scale":0.5}`},
		{streamEvent{a: arrival{key: "k", at: from}, at: from, sw: &limitSwitch, scale: 0.05},
			`{"type":"limit","key":"k","at":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:00.25Z","scale":0.05}`},
		{streamEvent{a: arrival{key: "k", at: from}, at: until, sw: &outageSwitch},
			`{"type":"outage","key":"k","at":"2026-11-05T10:00:00.25Z","until":"2026-11-05T10:00:05.25Z"}`},
	} {
		got := string(appendEvent(nil, &tt.ev))
		if got != "data: "+tt.want+"\n\n" {
			t.Errorf("got  %q\nwant %q", got, "data: "+tt.want+"\n\n")
		}
		var ev Event
		if err := json.Unmarshal([]byte(tt.want), &ev); err != nil || ev.Scale != tt.ev.scale || !ev.At.Equal(tt.ev.a.at) || !ev.Until.Equal(tt.ev.at) {
			t.Errorf("%s decodes to %+v, %v", tt.want, ev, err)
		}
	}
}

// Stretches started, ended and checked from many goroutines (run with -race).
func TestLimitConcurrent(t *testing.T) {
	h, _ := newTestHandler(t, Options{Now: time.Now})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				switch j % 10 {
				case 0:
					post(h.Limit(), "key=c&scale=0.5&for=50ms")
				case 5:
					post(h.Limit(), "key=c&for=0s")
				}
				q := "key=c&limiter=sliding&limit=10&window=1s"
				if i%2 == 1 {
					q = "key=c&limiter=bucket&rate=100&burst=20"
				}
				if rec := get(h, q); rec.Code != 200 && rec.Code != 429 {
					t.Errorf("goroutine %d: %d", i, rec.Code)
				}
			}
		})
	}
	wg.Wait()
}

// A stretch no request falls in still changes the limiter: a client asleep
// through it (on a long Retry-After, say) finds the bucket refilled at the
// halved rate up to the halved burst meanwhile, not as if nothing had
// happened. The reference is core's limiter taken through the same
// instants.
func TestLimitStretchWithNoRequestInIt(t *testing.T) {
	const q = "key=s&limiter=bucket&rate=1&burst=10"
	h, clk := newTestHandler(t, Options{})
	t0 := clk.Now()
	for range 10 {
		get(h, q) // drained at t0
	}
	clk.Advance(500 * time.Millisecond)
	postLimit(t, h, "key=s&scale=0.5&for=1m")
	clk.Advance(61 * time.Second)
	got := decodeBody(t, get(h, q))

	cfg := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 10}
	ref := core.NewLimiter(cfg, t0)
	for range 10 {
		ref.Decide(t0)
	}
	ref.Reconfigure(cfg.Scaled(0.5), t0.Add(500*time.Millisecond))
	ref.Reconfigure(cfg, t0.Add(60500*time.Millisecond))
	want := ref.Decide(t0.Add(61500 * time.Millisecond))
	if got.Remaining != want.Remaining || got.Limit != 10 || want.Remaining >= 9 {
		t.Errorf("after a stretch with no request in it: limit %d remaining %d, want 10 and %d (as if never halved: 9)", got.Limit, got.Remaining, want.Remaining)
	}
}

// switchError is a bad request to a fault switch and what it gets.
type switchError struct {
	method, query         string
	status                int
	param, value, allowed string
}

// checkSwitchErrors sends each case to h at path and checks the status, the
// JSON body naming the param, its value and what is allowed, the JSON and
// CORS headers, and Allow: POST on a 405.
func checkSwitchErrors(t *testing.T, h http.Handler, path string, cases []switchError) {
	t.Helper()
	for _, c := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, path+"?"+c.query, nil))
		var e struct{ Error, Param, Value, Allowed string }
		if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != c.status || err != nil || e.Param != c.param || e.Value != c.value || e.Allowed != c.allowed || !strings.HasPrefix(strings.Replace(e.Error, "unknown parameter ", "", 1), "mock: "+c.param) {
			t.Errorf("%s %s: %d %s, want %d naming %q %q allowed %q", c.method, c.query, rec.Code, rec.Body, c.status, c.param, c.value, c.allowed)
		}
		if rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s %s: headers %v", c.method, c.query, rec.Header())
		}
		if c.status == 405 && rec.Header().Get("Allow") != "POST, OPTIONS" {
			t.Errorf("%s: Allow %q", c.method, rec.Header().Get("Allow"))
		}
	}
}

// A bucket halved while idle recovers later than it would have: its idle
// expiry (see store.settle) waits for that. rate=0.01&burst=2, drained at
// 0s, would be full at 200s; halved at 0s for 1m it refills 0.3 tokens at
// 0.005/s, and back at 0.01/s from 60s it is full at 230s. At 215s it is
// still the same key, holding 1.85 tokens.
func TestIdleExpiryFollowsAStretch(t *testing.T) {
	const q = "key=st&limiter=bucket&rate=0.01&burst=2"
	h, clk := newTestHandler(t, Options{IdleTTL: time.Nanosecond})
	get(h, q)
	get(h, q)
	postLimit(t, h, "key=st&scale=0.5&for=1m")
	clk.Advance(215 * time.Second)
	if n := h.store.sweep(clk.Now()); n != 0 {
		t.Errorf("sweep at 215s removed %d keys, want 0: the bucket is not full until 230s", n)
	}
	if rec := get(h, q); rec.Code != 200 || decodeBody(t, rec).Seq != 3 || decodeBody(t, rec).Remaining != 0 {
		t.Errorf("at 215s: %d %+v, want 200 seq 3 remaining 0 (the same bucket)", rec.Code, decodeBody(t, rec))
	}
}

// Halving still applies to a key whose clients take turns with different
// settings: each request is decided by the one limiter, reconfigured to
// its settings scaled by the stretch. Fixed windows of 1s with limit 10
// and 12 alternate: halved, a window admits max(5, 6) = 6; afterwards 12.
func TestLimitWithAlternatingConfigs(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	qs := []string{"key=alt&limiter=fixed&limit=10&window=1s&headers=x", "key=alt&limiter=fixed&limit=12&window=1s&headers=x"}
	postLimit(t, h, "key=alt&scale=0.5&for=3s")
	perSecond := make([]int, 5)
	for i := range 500 { // every 10 ms for 5 s
		rec := get(h, qs[i%2])
		lim := rec.Header().Get("X-RateLimit-Limit")
		halved := i < 300
		if halved && lim != strconv.Itoa(5+i%2) || !halved && lim != strconv.Itoa(10+2*(i%2)) {
			t.Fatalf("request %d at +%dms: X-RateLimit-Limit %q", i, 10*i, lim)
		}
		if rec.Code == 200 {
			perSecond[i/100]++
		}
		clk.Advance(10 * time.Millisecond)
	}
	if want := []int{6, 6, 6, 12, 12}; !slices.Equal(perSecond, want) {
		t.Errorf("admitted per second: %v, want %v", perSecond, want)
	}
}

// The byte estimate follows every limiter change: after a mix of
// configurations, stretches and expiries, each shard's bytes are the sum of
// its keys' costs, each key is charged for the instants its limiter holds,
// and a sliding window holds at least its limit.
func TestBytesFollowReconfiguration(t *testing.T) {
	h, clk := newTestHandler(t, Options{MaxKeys: 64, IdleTTL: time.Second})
	r := rand.New(rand.NewPCG(1, 2))
	kinds := []string{"bucket", "fixed", "sliding", "none"}
	for i := range 5000 {
		key := "k" + strconv.Itoa(r.IntN(80))
		switch r.IntN(20) {
		case 0:
			postLimit(t, h, "key="+key+"&scale=0.5&for="+strconv.Itoa(r.IntN(3))+"s")
		case 1:
			clk.Advance(time.Duration(r.IntN(3000)) * time.Millisecond)
		case 2:
			h.store.sweep(clk.Now())
		default:
			get(h, "key="+key+"&limiter="+kinds[r.IntN(4)]+"&limit="+strconv.Itoa(1+r.IntN(1000))+"&window="+strconv.Itoa(1+r.IntN(3))+"s&burst="+strconv.Itoa(1+r.IntN(5)))
		}
		if i%500 != 0 {
			continue
		}
		for j := range h.store.shards {
			sh := &h.store.shards[j]
			sh.mu.Lock()
			sum := 0
			for _, e := range sh.m {
				sum += entryCost(e.instants)
				if c := e.lim.Config(); e.instants != e.lim.Instants() || c.Kind == core.LimitSlidingWindow && e.instants < c.Limit {
					t.Errorf("key %s: charged for %d instants, holds %d, for %+v", e.key, e.instants, e.lim.Instants(), c)
				}
			}
			if sum != sh.bytes {
				t.Errorf("step %d shard %d: bytes %d, keys cost %d", i, j, sh.bytes, sum)
			}
			sh.mu.Unlock()
		}
	}
}

// for=0s means "end now" on both switches: a stretch going on is ended and
// its stream told (an event from now until now, which ends the one drawn);
// with none going on (never started, or already over) nothing is ended and
// the stream gets nothing.
func TestSwitchEndNow(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	events := subscribe(t, h, "zz")
	post(h.Outage(), "key=zz&for=0s")
	post(h.Limit(), "key=zz&for=0s")
	if evs := events(); len(evs) != 0 {
		t.Errorf("for=0s on a key with no stretch: events %+v, want none", evs)
	}
	post(h.Outage(), "key=zz&for=1s")
	post(h.Limit(), "key=zz&for=1s&scale=0.25")
	clk.Advance(2 * time.Second)
	events()
	post(h.Outage(), "key=zz&for=0s")
	post(h.Limit(), "key=zz&for=0s")
	if evs := events(); len(evs) != 0 {
		t.Errorf("for=0s after the stretches ran out: events %+v, want none", evs)
	}
	post(h.Outage(), "key=zz&for=10s")
	post(h.Limit(), "key=zz&for=10s&scale=0.25")
	clk.Advance(time.Second)
	events()
	post(h.Outage(), "key=zz&for=0s")
	post(h.Limit(), "key=zz&for=0s")
	now := clk.Now().UTC().Format(time.RFC3339Nano)
	evs := events()
	if len(evs) != 2 || evs[0].Type != "outage" || evs[1].Type != "limit" || evs[1].Scale != 1 {
		t.Fatalf("for=0s ending stretches: events %+v, want an outage and a limit (scale 1) ending now", evs)
	}
	for _, e := range evs {
		if e.At.UTC().Format(time.RFC3339Nano) != now || !e.Until.Equal(e.At) {
			t.Errorf("end event %+v, want at = until = %s", e, now)
		}
	}
}

// for=0s after a stretch ran out leaves the limiter as the stretch left it
// at its end: rate=10&burst=10 drained, halved for 1s (5 tokens back by
// then), then 4 s at the full rate: full.
func TestLimitEndedAfterItRanOut(t *testing.T) {
	const q = "key=ro&limiter=bucket&rate=10&burst=10"
	h, clk := newTestHandler(t, Options{})
	for range 10 {
		get(h, q)
	}
	postLimit(t, h, "key=ro&scale=0.5&for=1s")
	clk.Advance(5 * time.Second)
	postLimit(t, h, "key=ro&for=0s")
	if b := decodeBody(t, get(h, q)); b.Limit != 10 || b.Remaining != 9 {
		t.Errorf("after for=0s: limit %d remaining %d, want 10 and 9", b.Limit, b.Remaining)
	}
}
