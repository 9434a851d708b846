//go:build !(js && wasm)

package mock

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

func post(h http.Handler, query string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mock/outage?"+query, nil))
	return rec
}

// During an outage every request for the key is answered 503 with
// Retry-After written as retry_after asks for the time left (the seconds
// left, the moment it ends, a fixed value, garbage, or none), the limiter
// untouched; other keys are
// not affected; afterwards the key's limiter is as it was.
func TestOutage(t *testing.T) {
	h, clk := newTestHandler(t, Options{})
	const q = "key=k1&limiter=bucket&rate=1&burst=2"
	if rec := post(h.Outage(), "key=k1&for=3s"); rec.Code != 200 {
		t.Fatalf("POST outage: %d %s", rec.Code, rec.Body)
	} else {
		var b struct{ Key, From, Until string }
		if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil || b.Key != "k1" || b.From != t0.Format(time.RFC3339Nano) || b.Until != t0.Add(3*time.Second).Format(time.RFC3339Nano) {
			t.Errorf("POST outage body %s (%v)", rec.Body, err)
		}
	}
	for _, c := range []struct {
		after      time.Duration
		query      string
		status     int
		retryAfter string
		outcome    string
	}{
		{0, q, 503, "3", "outage"},
		{1200 * time.Millisecond, q, 503, "2", "outage"},
		{0, q + "&retry_after=none", 503, "", "outage"},
		// Retry-After as the request asks it written, for a wait until
		// the outage ends (1.8 s left, at 10:00:03.25).
		{0, q + "&retry_after=date", 503, "Thu, 05 Nov 2026 10:00:04 GMT", "outage"},
		{0, q + "&retry_after=fixed&retry_value=7", 503, "7", "outage"},
		{0, q + "&retry_after=malformed&malformed=text", 503, "soon", "outage"},
		{0, q + "&retry_after=malformed&malformed=unit", 503, "2s", "outage"},
		{0, q + "&retry_after=malformed&malformed=decimal", 503, "1.8", "outage"},
		{0, "key=k2&limiter=bucket&rate=1&burst=2", 200, "", "ok"}, // another key
		{1800 * time.Millisecond, q, 200, "", "ok"},                // over: the bucket is still full
		{0, q, 200, "", "ok"},
		{0, q, 429, "1", "limited"},
	} {
		clk.Advance(c.after)
		rec := get(h, c.query)
		b := decodeBody(t, rec)
		if rec.Code != c.status || rec.Header().Get("Retry-After") != c.retryAfter || b.Outcome != c.outcome {
			t.Errorf("%v after, %s: %d Retry-After %q outcome %q, want %d %q %q", c.after, c.query, rec.Code, rec.Header().Get("Retry-After"), b.Outcome, c.status, c.retryAfter, c.outcome)
		}
		if c.outcome == "outage" && b.Allowed {
			t.Error("an outage's answer says allowed")
		}
		// The body's exact wait: until the outage ends (3 s after t0).
		if c.outcome == "outage" && b.RetryAfterMS != float64((3*time.Second-clk.Now().Sub(t0))/time.Millisecond) {
			t.Errorf("%v in, an outage's retry_after_ms %v, want the %v left", clk.Now().Sub(t0), b.RetryAfterMS, 3*time.Second-clk.Now().Sub(t0))
		}
	}

	// for=0s ends an outage early.
	post(h.Outage(), "key=k3&for=10s")
	if rec := get(h, "key=k3&limiter=none"); rec.Code != 503 {
		t.Fatalf("k3 in an outage: %d", rec.Code)
	}
	if rec := post(h.Outage(), "key=k3&for=0s"); rec.Code != 200 {
		t.Fatalf("end outage: %d %s", rec.Code, rec.Body)
	}
	if rec := get(h, "key=k3&limiter=none"); rec.Code != 200 {
		t.Errorf("after for=0s: %d", rec.Code)
	}
}

func TestOutageErrors(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	for _, c := range []struct {
		method, query string
		status        int
		param         string
	}{
		{http.MethodGet, "key=a", 405, "method"},
		{http.MethodPut, "key=a", 405, "method"},
		{http.MethodPost, "key=a&for=2m", 400, "for"},
		{http.MethodPost, "key=a&for=-1s", 400, "for"},
		{http.MethodPost, "key=a&for=soon", 400, "for"},
		{http.MethodPost, "key=a%20b", 400, "key"},
		{http.MethodPost, "key=a&key=b", 400, "key"},
		{http.MethodPost, "key=a&for=1s&for=2s", 400, "for"},
		{http.MethodPost, "key=a&rate=3", 400, "rate"},
		{http.MethodPost, "key=%zz", 400, "query"},
	} {
		rec := httptest.NewRecorder()
		h.Outage().ServeHTTP(rec, httptest.NewRequest(c.method, "/mock/outage?"+c.query, nil))
		var e struct{ Error, Param, Value, Allowed string }
		if err := json.Unmarshal(rec.Body.Bytes(), &e); rec.Code != c.status || err != nil || e.Param != c.param || e.Allowed == "" {
			t.Errorf("%s %s: %d %s, want %d naming %q", c.method, c.query, rec.Code, rec.Body, c.status, c.param)
		}
		if c.status == 405 && rec.Header().Get("Allow") != "POST, OPTIONS" {
			t.Errorf("%s: Allow %q", c.method, rec.Header().Get("Allow"))
		}
	}
}

// At most MaxOutages keys are down at once; the ones that are over make
// room, and once every outage is over, checking is lock-free again.
func TestOutagesBounded(t *testing.T) {
	var o outages
	now := t0
	clock := func() time.Time { return now }
	for i := range MaxOutages {
		if _, _, ok := o.start("k"+strconv.Itoa(i), time.Second, clock, nil); !ok {
			t.Fatalf("outage %d refused", i)
		}
	}
	if _, _, ok := o.start("one-more", time.Second, clock, nil); ok {
		t.Error("an outage beyond MaxOutages was accepted")
	}
	if _, _, ok := o.start("k1", 2*time.Second, clock, nil); !ok {
		t.Error("extending an outage already held was refused")
	}
	now = now.Add(time.Second)
	if _, _, ok := o.start("one-more", 2*time.Second, clock, nil); !ok || o.n.Load() != 2 {
		t.Errorf("after the others ended: accepted %v, %d held", ok, o.n.Load())
	}
	// Every outage over: the next check, for any key, forgets them.
	now = now.Add(5 * time.Second)
	if _, down := o.active("another", now); down || o.n.Load() != 0 {
		t.Errorf("after every outage ended: %d still held", o.n.Load())
	}
	// A request decided before an outage started is not inside it.
	o.start("late", time.Second, clock, nil)
	if _, down := o.active("late", now.Add(-time.Millisecond)); down {
		t.Error("a request from before the outage started was answered as down")
	}
}

// A HEAD request during an outage is answered 503 too (it counts as an arrival).
func TestOutageHEAD(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	post(h.Outage(), "key=h&for=2s")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/mock?key=h", nil))
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "2" {
		t.Errorf("HEAD during an outage: %d Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
}

// The arrivals stream tells of the outage; the page marks it from there.
func TestOutageOnTheStream(t *testing.T) {
	ls := newLive(t, Options{})
	ls.Config.Handler.(*http.ServeMux).Handle("/mock/outage", ls.h.Outage())
	s := openStream(t, ls.URL+"/mock/events?key=room")
	resp, err := http.Post(ls.URL+"/mock/outage?key=room&for=2s", "", nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST: %v %v", resp, err)
	}
	resp.Body.Close()
	ev := s.next(t)
	if ev.Type != "outage" || ev.Key != "room" || ev.Until.Sub(ev.At) != 2*time.Second {
		t.Errorf("stream event %+v, want an outage of 2 s", ev)
	}
	// A stream opened during the outage hears of it right after hello.
	late := openStream(t, ls.URL+"/mock/events?key=room")
	if ev2 := late.next(t); ev2.Type != "outage" || !ev2.At.Equal(ev.At) || !ev2.Until.Equal(ev.Until) {
		t.Errorf("a stream opened during the outage got %+v first, want the outage %+v", ev2, ev)
	}
}

// Outages started and checked from many goroutines (run with -race).
func TestOutageConcurrent(t *testing.T) {
	h, _ := newTestHandler(t, Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				if j%10 == 0 {
					post(h.Outage(), "key=c&for=1s")
				}
				if rec := get(h, "key=c&limiter=none"); rec.Code != 503 && rec.Code != 200 {
					t.Errorf("goroutine %d: %d", i, rec.Code)
				}
			}
		})
	}
	wg.Wait()
}
