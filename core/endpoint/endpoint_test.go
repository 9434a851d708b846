package endpoint

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"retrylab/core"
)

func TestValidate(t *testing.T) {
	ok := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 1}
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{}, ""},
		{Config{Limiter: ok, Status: 503, RetryAfter: RetryAfterFixed, RetryValue: MaxRetryValue, Latency: time.Second, Spread: time.Second, Fail500: 50, Hang: 50}, ""},
		{Config{Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 0, Burst: 1}}, "core: limiter rate 0"},
		{Config{Limiter: ok, Status: 500}, "endpoint: status 500: must be 429 or 503"},
		{Config{Limiter: ok, RetryAfter: 9}, "endpoint: retry-after mode 9"},
		{Config{Limiter: ok, RetryValue: 86401}, "endpoint: retry value 86401: must be between 0 and 86400"},
		{Config{Limiter: ok, RetryValue: -1}, "endpoint: retry value -1"},
		{Config{Limiter: ok, Latency: -1}, "endpoint: latency -1ns"},
		{Config{Limiter: ok, Spread: -1}, "endpoint: latency 0s, spread -1ns"},
		{Config{Limiter: ok, Drop: 101}, "endpoint: drop 101: must be between 0 and 100"},
		{Config{Limiter: ok, Fail503: -0.5}, "endpoint: fail503 -0.5"},
		{Config{Limiter: ok, Fail500: 60, Hang: 50}, "endpoint: fail500+fail503+drop+hang 110: must be at most 100"},
	} {
		err := tc.c.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%+v: got %v, want %q", tc.c, err, tc.want)
		}
	}
}

// inject takes the percentages in order, each from where the last ends: a
// roll's place in [0, 100) decides, the same for the mock and the simulator.
func TestInjectTakesThemInOrder(t *testing.T) {
	for _, c := range []struct {
		u                         float64
		fail500, fail503, d, hang float64
		want                      Outcome // OutcomeOK: none injected
		status                    int
	}{
		{0, 0, 0, 0, 0, OutcomeOK, 0},
		{0, 10, 0, 0, 0, OutcomeFail500, 500},
		{0.0999, 10, 0, 0, 0, OutcomeFail500, 500},
		{0.1, 10, 0, 0, 0, OutcomeOK, 0},
		{0.1, 10, 5, 0, 0, OutcomeFail503, 503},
		{0.15, 10, 5, 5, 0, OutcomeDrop, 0},
		{0.2, 10, 5, 5, 5, OutcomeHang, 0},
		{0.25, 10, 5, 5, 5, OutcomeOK, 0},
		{0.5, 0, 0, 0, 100, OutcomeHang, 0},
		{0.9999, 25, 25, 25, 25, OutcomeHang, 0},
		{0.3, 0, 50, 0, 0, OutcomeFail503, 503},
	} {
		o, status, ok := inject(c.u, c.fail500, c.fail503, c.d, c.hang)
		if o != c.want || status != c.status || ok != (c.want != OutcomeOK) {
			t.Errorf("inject(%v, %v, %v, %v, %v) = %v, %d, %v; want %v, %d", c.u, c.fail500, c.fail503, c.d, c.hang, o, status, ok, c.want, c.status)
		}
	}
}

// TestRateLimitValuesReadBack: the RateLimit and RateLimit-Policy values
// an endpoint writes (the mock's and the simulated one's) read back through
// core.ParseRateLimit as the quota, window, remaining and reset written.
func TestRateLimitValuesReadBack(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		kind             core.LimiterKind
		quota            int
		window           int64
		remaining, reset int
		policy, value    string
	}{
		{core.LimitTokenBucket, 10, 1, 3, 1, `"bucket";q=10;w=1`, `"bucket";r=3;t=1`},
		{core.LimitFixedWindow, 5, 10, 0, 7, `"fixed";q=5;w=10`, `"fixed";r=0;t=7`},
		{core.LimitSlidingWindow, 100, 60, 99, 60, `"sliding";q=100;w=60`, `"sliding";r=99;t=60`},
	}
	for _, tt := range tests {
		policy := string(AppendRateLimitPolicy(nil, tt.kind, tt.quota, tt.window))
		value := string(AppendRateLimit([]byte("kept "), tt.kind, tt.remaining, tt.reset))
		if policy != tt.policy || value != "kept "+tt.value {
			t.Errorf("%v: policy %q, value %q; want %q, %q", tt.kind, policy, value, tt.policy, "kept "+tt.value)
			continue
		}
		h, err := core.ParseRateLimit(http.Header{"Ratelimit": {tt.value}, "Ratelimit-Policy": {policy}}, now)
		if err != nil {
			t.Errorf("%v: %v", tt.kind, err)
			continue
		}
		if h.Limit != tt.quota || h.Window != time.Duration(tt.window)*time.Second || h.Remaining != tt.remaining || h.Reset != time.Duration(tt.reset)*time.Second {
			t.Errorf("%v: read back %+v", tt.kind, h)
		}
	}
	if got := LimiterName(core.LimiterKind(9)); got != "invalid(9)" {
		t.Errorf("LimiterName(9) = %q", got)
	}
}

// ParseLimiterName reads each kind in both spellings, the mock's and
// core's: a link written with core's (limiter=token-bucket) still works.
func TestParseLimiterName(t *testing.T) {
	for i, short := range LimiterNames {
		want := core.LimiterKind(i)
		for _, name := range []string{short, want.String()} {
			if k, ok := ParseLimiterName(name); !ok || k != want {
				t.Errorf("ParseLimiterName(%q) = %v, %v; want %v", name, k, ok, want)
			}
		}
	}
	for _, bad := range []string{"", "Bucket", "Token-Bucket", "leaky", "window", "0", " fixed"} {
		if k, ok := ParseLimiterName(bad); ok {
			t.Errorf("ParseLimiterName(%q) = %v, true; want refused", bad, k)
		}
	}
}

// FuzzParseLimiterName: ParseLimiterName takes exactly the two spellings
// of a kind, its name in LimiterNames and core's.
func FuzzParseLimiterName(f *testing.F) {
	for i, name := range LimiterNames {
		f.Add(name)
		f.Add(core.LimiterKind(i).String())
	}
	f.Add("Bucket")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		k, ok := ParseLimiterName(s)
		if ok != (LimiterName(k) == s || k.String() == s) || !ok && k != 0 {
			t.Fatalf("ParseLimiterName(%q) = %v, %v", s, k, ok)
		}
	})
}

// The injected failures may add up to 100 percent: the sum is float64
// addition, so shares that add up to 100 in decimal (0.2 + 85.4 + 14.4 is
// 100.00000000000001 in float64) are allowed within 1e-9.
func TestValidateFailureSum(t *testing.T) {
	ok := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 1}
	for _, tc := range []struct {
		fail500, fail503, drop, hang float64
		valid                        bool
	}{
		{0.2, 85.4, 14.4, 0, true},
		{0, 0.2, 85.4, 14.4, true},
		{0.1, 0.2, 99.7, 0, true},
		{33.3, 33.3, 33.4, 0, true},
		{25, 25, 25, 25, true},
		{100, 0, 0, 0, true},
		{0.2, 85.4, 14.4, 0.000001, false},
		{50, 50.00001, 0, 0, false},
		{60, 50, 0, 0, false},
	} {
		e := Config{Limiter: ok, Fail500: tc.fail500, Fail503: tc.fail503, Drop: tc.drop, Hang: tc.hang}
		err := e.Validate()
		if (err == nil) != tc.valid {
			t.Errorf("%v + %v + %v + %v: err %v, want valid %v", tc.fail500, tc.fail503, tc.drop, tc.hang, err, tc.valid)
		}
	}
}
