package sim

import (
	"math"
	"strings"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

func newEndpoint(t *testing.T, e Endpoint) *EndpointServer {
	t.Helper()
	s, err := NewEndpointServer(e, hashStart, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEndpointAnswers(t *testing.T) {
	bucket := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 10, Burst: 2}
	type arrival struct {
		at                     time.Duration // after hashStart
		status                 int
		retryAfter, rl, policy string
		xLimit, xRem, xReset   string
	}
	tests := []struct {
		name string
		e    Endpoint
		in   []arrival
	}{
		{"seconds, IETF", Endpoint{Config: endpoint.Config{Limiter: bucket, RetryAfter: endpoint.RetryAfterSeconds, IETF: true}}, []arrival{
			{0, 200, "", `"bucket";r=1;t=1`, `"bucket";q=10;w=1`, "", "", ""},
			{0, 200, "", `"bucket";r=0;t=1`, `"bucket";q=10;w=1`, "", "", ""},
			{0, 429, "1", `"bucket";r=0;t=1`, `"bucket";q=10;w=1`, "", "", ""},
			{100 * time.Millisecond, 200, "", `"bucket";r=0;t=1`, `"bucket";q=10;w=1`, "", "", ""},
			{2 * time.Second, 200, "", `"bucket";r=1;t=1`, `"bucket";q=10;w=1`, "", "", ""},
		}},
		{"date, X, 503", Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitFixedWindow, Limit: 1, Window: 10 * time.Second}, Status: 503, RetryAfter: endpoint.RetryAfterDate, X: true}}, []arrival{
			{0, 200, "", "", "", "1", "0", "10"},
			// Rejected 1 s in: the window resets in 9 s, at 10:00:10.123456789;
			// the date names the next whole second.
			{time.Second, 503, "Sun, 29 Nov 2026 10:00:11 GMT", "", "", "1", "0", "9"},
		}},
		{"fixed", Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitSlidingWindow, Limit: 1, Window: time.Second}, RetryAfter: endpoint.RetryAfterFixed, RetryValue: 7}}, []arrival{
			{0, 200, "", "", "", "", "", ""},
			{0, 429, "7", "", "", "", "", ""},
		}},
		{"none: no header at all", Endpoint{Config: endpoint.Config{Limiter: bucket}}, []arrival{
			{0, 200, "", "", "", "", "", ""}, {0, 200, "", "", "", "", "", ""}, {0, 429, "", "", "", "", "", ""},
		}},
		{"no limiter: no rate-limit headers", Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitNone}, IETF: true, X: true}}, []arrival{
			{0, 200, "", "", "", "", "", ""},
		}},
		{"custom value", Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 1}}, RetryAfterValue: func(d core.Decision, now time.Time, seq int) (string, bool) {
			return "soon" + strings.Repeat("!", seq), true
		}}, []arrival{
			{0, 200, "", "", "", "", "", ""}, {0, 429, "soon!!", "", "", "", "", ""},
		}},
		// Down from 100 ms to 2.1 s: 503 with the seconds left, rounded up;
		// the limiter untouched, so its burst of 2 is whole afterwards.
		{"outage", Endpoint{Config: endpoint.Config{Limiter: bucket, RetryAfter: endpoint.RetryAfterSeconds}, Outages: []Outage{{100 * time.Millisecond, 2100 * time.Millisecond}}}, []arrival{
			{0, 200, "", "", "", "", "", ""},
			{100 * time.Millisecond, 503, "2", "", "", "", "", ""},
			{1200 * time.Millisecond, 503, "1", "", "", "", "", ""},
			{2099 * time.Millisecond, 503, "1", "", "", "", "", ""},
			{2100 * time.Millisecond, 200, "", "", "", "", "", ""},
			{2100 * time.Millisecond, 200, "", "", "", "", "", ""},
			{2100 * time.Millisecond, 429, "1", "", "", "", "", ""},
		}},
		// Retry-After written as the endpoint writes it, for a wait until
		// the outage ends (at 10:00:02.223456789).
		{"outage, date", Endpoint{Config: endpoint.Config{Limiter: bucket, RetryAfter: endpoint.RetryAfterDate}, Outages: []Outage{{100 * time.Millisecond, 2100 * time.Millisecond}}}, []arrival{
			{1200 * time.Millisecond, 503, "Sun, 29 Nov 2026 10:00:03 GMT", "", "", "", "", ""},
		}},
		{"outage, fixed", Endpoint{Config: endpoint.Config{Limiter: bucket, RetryAfter: endpoint.RetryAfterFixed, RetryValue: 7}, Outages: []Outage{{0, 2 * time.Second}}}, []arrival{
			{time.Second, 503, "7", "", "", "", "", ""},
		}},
		{"outage, custom value: the wait until it ends", Endpoint{Config: endpoint.Config{Limiter: bucket}, Outages: []Outage{{0, 2 * time.Second}}, RetryAfterValue: func(d core.Decision, now time.Time, seq int) (string, bool) {
			return d.RetryAfter.String(), true
		}}, []arrival{
			{500 * time.Millisecond, 503, "1.5s", "", "", "", "", ""},
		}},
		{"outage, no Retry-After, X headers from Peek", Endpoint{Config: endpoint.Config{Limiter: bucket, X: true}, Outages: []Outage{{0, time.Second}}}, []arrival{
			{0, 503, "", "", "", "2", "2", "0"},
			{time.Second, 200, "", "", "", "2", "1", "1"},
		}},
		{"an outage comes before injected failures", Endpoint{Config: endpoint.Config{Limiter: bucket, Fail500: 100, RetryAfter: endpoint.RetryAfterSeconds}, Outages: []Outage{{0, time.Second}}}, []arrival{
			{0, 503, "1", "", "", "", "", ""},
			{time.Second, 500, "", "", "", "", "", ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.e.Latency = 25 * time.Millisecond
			s := newEndpoint(t, tt.e)
			for i, a := range tt.in {
				now := hashStart.Add(a.at)
				r := s.Arrive(now, Request{})
				var h *Header
				if r.Header != nil {
					h = r.Header.(*Header)
				}
				got := arrival{a.at, r.Status, h.Get("Retry-After"), h.Get("ratelimit"), h.Get("RateLimit-Policy"),
					h.Get("X-RateLimit-Limit"), h.Get("x-ratelimit-remaining"), h.Get("X-RateLimit-Reset")}
				if got != a {
					t.Errorf("arrival %d:\ngot  %+v\nwant %+v", i+1, got, a)
				}
				if r.Seq != i+1 || !r.Received.Equal(now) || r.Delay != 25*time.Millisecond || r.Err != nil {
					t.Errorf("arrival %d: seq %d, received %v, delay %v, err %v", i+1, r.Seq, r.Received, r.Delay, r.Err)
				}
				if h != nil && len(h.Fields()) == 0 {
					t.Errorf("arrival %d: an empty header instead of nil", i+1)
				}
			}
			if s.Arrivals() != len(tt.in) {
				t.Errorf("Arrivals %d", s.Arrivals())
			}
		})
	}
}

// Injected failures bypass the limiter (its headers show it unchanged),
// carry no Retry-After, and come in the configured proportions.
func TestEndpointInjectedFailures(t *testing.T) {
	e := Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 3}, RetryAfter: endpoint.RetryAfterSeconds, X: true,
		Latency: 10 * time.Millisecond, Spread: 20 * time.Millisecond, Fail500: 20, Fail503: 20, Drop: 20, Hang: 20}}
	s := newEndpoint(t, e)
	counts := map[string]int{}
	for i := range 20000 {
		r := s.Arrive(hashStart.Add(time.Duration(i)*time.Hour), Request{}) // the bucket is full again each time
		key := ""
		switch {
		case r.Err == ErrDropped && r.Status == 0 && r.Delay >= 10*time.Millisecond && r.Delay < 30*time.Millisecond:
			key = "drop"
		case r.Err == ErrHangClosed && r.Status == 0 && r.Delay == endpoint.DefaultHangLimit:
			key = "hang"
		case r.Err == nil && (r.Status == 500 || r.Status == 503 || r.Status == 200):
			key = http(r.Status)
			if h := r.Header.(*Header); h.RetryAfter != "" || h.XRateLimitRemaining != map[int]string{200: "2", 500: "3", 503: "3"}[r.Status] {
				t.Fatalf("status %d with headers %+v", r.Status, h)
			}
		default:
			t.Fatalf("unexpected response %+v", r)
		}
		counts[key]++
	}
	for _, k := range []string{"200", "500", "503", "drop", "hang"} {
		if math.Abs(float64(counts[k])-4000) > 250 {
			t.Errorf("%s: %d of 20000, want about 4000", k, counts[k])
		}
	}
}

func http(status int) string { return map[int]string{200: "200", 500: "500", 503: "503"}[status] }

// TestEndpointValidate: what a simulation adds to the endpoint's Config is
// checked too.
func TestEndpointValidate(t *testing.T) {
	ok := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 1}
	for _, tc := range []struct {
		e    Endpoint
		want string
	}{
		{Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 0, Burst: 1}}}, "core: limiter rate 0"},
		{Endpoint{Config: endpoint.Config{Limiter: ok, Status: 500}}, "endpoint: status 500: must be 429 or 503"}, // the Config's own (endpoint.TestValidate)
		{Endpoint{Config: endpoint.Config{Limiter: ok}, HangLimit: -1}, "sim: endpoint hang limit -1ns"},
		{Endpoint{Config: endpoint.Config{Limiter: ok}, Outages: []Outage{{-1, time.Second}}}, "sim: endpoint outage [-1ns, 1s)"},
		{Endpoint{Config: endpoint.Config{Limiter: ok}, Outages: []Outage{{time.Second, time.Second}}}, "sim: endpoint outage [1s, 1s)"},
	} {
		_, err := NewEndpointServer(tc.e, hashStart, 0)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

func TestHeaderGet(t *testing.T) {
	var nilHeader *Header
	if nilHeader.Get("Retry-After") != "" || nilHeader.Fields() != nil {
		t.Error("nil header")
	}
	h := &Header{RetryAfter: "1", RateLimit: "a", RateLimitPolicy: "b", XRateLimitLimit: "c", XRateLimitRemaining: "d", XRateLimitReset: "e"}
	for key, want := range map[string]string{"retry-after": "1", "RATELIMIT": "a", "Ratelimit-Policy": "b", "x-ratelimit-limit": "c",
		"X-Ratelimit-Remaining": "d", "X-RateLimit-Reset": "e", "Content-Type": "", "": "", "Retry-Afte": ""} {
		if got := h.Get(key); got != want {
			t.Errorf("Get(%q) = %q, want %q", key, got, want)
		}
	}
	if len(h.Fields()) != 6 {
		t.Error("fields")
	}
}

// With Endpoint.Rolls, a request's failure and spread are its rolls,
// whatever order requests arrive in: fail·100 falls among Fail500,
// Fail503, Drop and Hang in that order, the delay is Latency +
// spread·Spread, an outage uses the spread roll only, and an endpoint with
// nothing to roll asks for none.
func TestEndpointTakesTheRequestsRolls(t *testing.T) {
	rolls := map[int][2]float64{1: {0.05, 0.5}, 2: {0.15, 0.25}, 3: {0.25, 0}, 4: {0.35, 0.75}, 5: {0.9, 0.1}}
	asked := 0
	byAttempt := func(r Request) (float64, float64) {
		asked++
		v := rolls[r.Attempt]
		return v[0], v[1]
	}
	type want struct {
		status int
		err    error
		delay  time.Duration
	}
	none := core.LimiterConfig{Kind: core.LimitNone}
	tests := []struct {
		name  string
		e     Endpoint
		order []int // attempts, in arrival order
		want  map[int]want
		asked int
	}{
		{"each attempt its own, in any order",
			Endpoint{Config: endpoint.Config{Limiter: none, Fail500: 10, Fail503: 10, Drop: 10, Hang: 10, Latency: 10 * time.Millisecond, Spread: time.Second}, HangLimit: time.Minute},
			[]int{5, 3, 1, 4, 2},
			map[int]want{
				1: {500, nil, 510 * time.Millisecond}, 2: {503, nil, 260 * time.Millisecond}, 3: {0, ErrDropped, 10 * time.Millisecond},
				4: {0, ErrHangClosed, time.Minute}, 5: {200, nil, 110 * time.Millisecond},
			}, 5},
		{"spread only", Endpoint{Config: endpoint.Config{Limiter: none, Spread: time.Second}}, []int{1, 4},
			map[int]want{1: {200, nil, 500 * time.Millisecond}, 4: {200, nil, 750 * time.Millisecond}}, 2},
		{"nothing to roll", Endpoint{Config: endpoint.Config{Limiter: none, Latency: time.Millisecond}}, []int{1, 2},
			map[int]want{1: {200, nil, time.Millisecond}, 2: {200, nil, time.Millisecond}}, 0},
		{"outage: the spread roll only", Endpoint{Config: endpoint.Config{Limiter: none, Fail500: 100, Spread: time.Second}, Outages: []Outage{{0, time.Hour}}}, []int{1, 2},
			map[int]want{1: {503, nil, 500 * time.Millisecond}, 2: {503, nil, 250 * time.Millisecond}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			asked = 0
			tc.e.Rolls = byAttempt
			s := newEndpoint(t, tc.e)
			for _, a := range tc.order {
				r := s.Arrive(hashStart, Request{Attempt: a})
				if w := tc.want[a]; r.Status != w.status || r.Err != w.err || r.Delay != w.delay {
					t.Errorf("attempt %d: status %d, err %v, delay %v; want %d, %v, %v", a, r.Status, r.Err, r.Delay, w.status, w.err, w.delay)
				}
			}
			if asked != tc.asked {
				t.Errorf("rolls asked for %d times, want %d", asked, tc.asked)
			}
		})
	}
}

// The zero Endpoint is valid and answers every request 200 at once, with
// no header core reads, as its doc says.
func TestEndpointZeroValue(t *testing.T) {
	s := newEndpoint(t, Endpoint{})
	for i := range 100 {
		r := s.Arrive(hashStart, Request{Attempt: 1, Job: i})
		if r.Status != 200 || r.Err != nil || r.Delay != 0 || r.Header != nil || r.Seq != i+1 {
			t.Fatalf("request %d: %+v, want 200 at once without headers", i+1, r)
		}
	}
}

// TestEmptyRetryAfterIsSent: a Retry-After the endpoint sends with an empty
// value (the mock's malformed=empty) is a field sent empty, not an absent
// one: Values and core.LookupHeader say so, Fields lists it, and the loop
// driven by the fleet notes it as invalid and falls back to the backoff,
// as for any other malformed value.
func TestEmptyRetryAfterIsSent(t *testing.T) {
	bucket := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 1}
	empty := func(core.Decision, time.Time, int) (string, bool) { return "", true }
	s := newEndpoint(t, Endpoint{Config: endpoint.Config{Limiter: bucket}, RetryAfterValue: empty})
	s.Arrive(hashStart, Request{})
	r := s.Arrive(hashStart, Request{})
	if r.Status != 429 || r.Header == nil {
		t.Fatalf("second arrival: status %d, header %v", r.Status, r.Header)
	}
	h := r.Header.(*Header)
	if v, ok := core.LookupHeader(h, "retry-after"); v != "" || !ok {
		t.Errorf("LookupHeader = %q, %v; want \"\", true", v, ok)
	}
	if got := h.Fields(); len(got) != 1 || got[0] != [2]string{"Retry-After", ""} {
		t.Errorf("Fields = %q", got)
	}
	if vs := h.Values("RateLimit"); vs != nil {
		t.Errorf("Values(RateLimit) = %q, want nil", vs)
	}
	// Not sent at all: no header.
	none := newEndpoint(t, Endpoint{Config: endpoint.Config{Limiter: bucket}})
	none.Arrive(hashStart, Request{})
	if r := none.Arrive(hashStart, Request{}); r.Header != nil {
		t.Errorf("no Retry-After: header %v", r.Header)
	}

	policy := core.Policy{Backoff: core.Backoff{Strategy: core.Constant, Base: 100 * time.Millisecond}, MaxAttempts: 3, RetryAfter: true}
	srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 1}}, RetryAfterValue: empty}, t0, 0)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := runFleet(t, Fleet{Workers: 2, Jobs: 1, Policy: policy, Server: srv})
	waits := 0
	for _, r := range recs {
		if r.Event.Kind != core.EventWait {
			continue
		}
		waits++
		const want = `retry-after "": empty (want delay-seconds or an HTTP-date); fell back to backoff`
		if r.Event.Reason != core.ReasonBackoff || r.Event.Note != want {
			t.Errorf("wait %s, note %q; want backoff, %q", r.Event.Reason, r.Event.Note, want)
		}
	}
	if waits == 0 {
		t.Error("no wait: the test's endpoint rejected nothing")
	}
}
