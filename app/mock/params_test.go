package mock

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

func TestParseDefaults(t *testing.T) {
	for _, q := range []string{"", "&", "&&"} {
		p, err := ParseQuery(q)
		if err != nil || p != Defaults() {
			t.Errorf("ParseQuery(%q) = %+v, %v; want Defaults()", q, p, err)
		}
	}
	p, err := ParseParams(url.Values{})
	if err != nil || p != Defaults() {
		t.Errorf("ParseParams(empty) = %+v, %v; want Defaults()", p, err)
	}
	if err := Defaults().Valid(); err != nil {
		t.Errorf("Defaults().Valid() = %v", err)
	}
	if err := Defaults().LimiterConfig().Validate(); err != nil {
		t.Errorf("Defaults().LimiterConfig().Validate() = %v", err)
	}
}

// TestParseEachParam checks every parameter's accepted values (bounds
// included) and rejected values, through both decoders.
func TestParseEachParam(t *testing.T) {
	long := strings.Repeat("k", MaxKeyLen)
	type ok struct {
		value string
		check func(Params) bool
	}
	tests := []struct {
		name string
		good []ok
		bad  []string
	}{
		{"key", []ok{
			{"run-1", func(p Params) bool { return p.Key == "run-1" }},
			{long, func(p Params) bool { return p.Key == long }},
			{"A.b_c~d-9", func(p Params) bool { return p.Key == "A.b_c~d-9" }},
		}, []string{"", long + "k", "a b", "a/b", "ключ", "a%", "<script>", "a\x00"}},
		{"tag", []ok{
			{"", func(p Params) bool { return p.Tag == "" }},
			{"w3.a2", func(p Params) bool { return p.Tag == "w3.a2" }},
		}, []string{long + "k", "a b", "\"", "é"}},
		{"limiter", []ok{
			{"bucket", func(p Params) bool { return p.Limiter == core.LimitTokenBucket }},
			{"fixed", func(p Params) bool { return p.Limiter == core.LimitFixedWindow }},
			{"sliding", func(p Params) bool { return p.Limiter == core.LimitSlidingWindow }},
			{"none", func(p Params) bool { return p.Limiter == core.LimitNone }},
			{"token-bucket", func(p Params) bool { return p.Limiter == core.LimitTokenBucket }},
			{"fixed-window", func(p Params) bool { return p.Limiter == core.LimitFixedWindow }},
			{"sliding-window", func(p Params) bool { return p.Limiter == core.LimitSlidingWindow }},
		}, []string{"", "Bucket", "leaky", "0", "1"}},
		{"rate", []ok{
			{"0.001", func(p Params) bool { return p.Rate == 0.001 }},
			{"2.5", func(p Params) bool { return p.Rate == 2.5 }},
			{"1e6", func(p Params) bool { return p.Rate == 1e6 }},
		}, []string{"", "0", "0.0009", "1000001", "-1", "NaN", "Inf", "+Inf", "abc", "1,5", "0x1p-2", "1_0"}},
		{"burst", []ok{
			{"1", func(p Params) bool { return p.Burst == 1 }},
			{"1000000", func(p Params) bool { return p.Burst == 1000000 }},
		}, []string{"", "0", "1000001", "-3", "1.5", "1e3", "99999999999999999999"}},
		{"limit", []ok{
			{"1", func(p Params) bool { return p.Limit == 1 }},
			{"1000", func(p Params) bool { return p.Limit == 1000 }},
		}, []string{"", "0", "1001", "x"}},
		{"window", []ok{
			{"1ms", func(p Params) bool { return p.Window == time.Millisecond }},
			{"1.5s", func(p Params) bool { return p.Window == 1500*time.Millisecond }},
			{"24h", func(p Params) bool { return p.Window == 24*time.Hour }},
		}, []string{"", "0", "999us", "24h1ns", "-1s", "1y"}}, // "10", "1 s": TestDurationParamsSayAUnit
		{"status", []ok{
			{"429", func(p Params) bool { return p.Status == 429 }},
			{"503", func(p Params) bool { return p.Status == 503 }},
		}, []string{"", "200", "500", "430", "429.0"}},
		{"retry_after", []ok{
			{"none", func(p Params) bool { return p.RetryAfter == RetryNone }},
			{"seconds", func(p Params) bool { return p.RetryAfter == RetrySeconds }},
			{"date", func(p Params) bool { return p.RetryAfter == RetryDate }},
			{"fixed", func(p Params) bool { return p.RetryAfter == RetryFixed }},
			{"malformed", func(p Params) bool { return p.RetryAfter == RetryMalformed }},
		}, []string{"", "delta", "SECONDS"}},
		{"retry_value", []ok{
			{"0", func(p Params) bool { return p.RetryValue == 0 }},
			{"86400", func(p Params) bool { return p.RetryValue == 86400 }},
		}, []string{"", "-1", "86401", "1.5", "1s"}},
		{"malformed", []ok{
			{"mix", func(p Params) bool { return p.Malformed == MalformedMix }},
			{"iso8601", func(p Params) bool { return p.Malformed == MalformedISO8601 }},
			{"huge", func(p Params) bool { return p.Malformed == MalformedHuge }},
		}, []string{"", "random", "all"}},
		{"headers", []ok{
			{"none", func(p Params) bool { return p.Headers == HeadersNone }},
			{"ietf", func(p Params) bool { return p.Headers == HeadersIETF && p.Headers.IETF() && !p.Headers.X() }},
			{"x", func(p Params) bool { return p.Headers == HeadersX && p.Headers.X() && !p.Headers.IETF() }},
			{"both", func(p Params) bool { return p.Headers.IETF() && p.Headers.X() }},
		}, []string{"", "all", "X"}},
		{"latency", []ok{
			{"0", func(p Params) bool { return p.Latency == 0 }},
			{"200ms", func(p Params) bool { return p.Latency == 200*time.Millisecond }},
			{"30s", func(p Params) bool { return p.Latency == 30*time.Second }},
		}, []string{"", "-1ms", "30.001s", "1h"}}, // "200": TestDurationParamsSayAUnit
		{"spread", []ok{
			{"0s", func(p Params) bool { return p.Spread == 0 }},
			{"30s", func(p Params) bool { return p.Spread == 30*time.Second }},
		}, []string{"", "-1s", "31s"}},
		{"fail500", []ok{
			{"0", func(p Params) bool { return p.Fail500 == 0 }},
			{"0.5", func(p Params) bool { return p.Fail500 == 0.5 }},
			{"100", func(p Params) bool { return p.Fail500 == 100 }},
		}, []string{"", "-0.1", "100.1", "NaN", "1e400", "50%", "0x.8p0"}},
		{"fail503", []ok{{"100", func(p Params) bool { return p.Fail503 == 100 }}}, []string{"101", "-1"}},
		{"drop", []ok{{"100", func(p Params) bool { return p.Drop == 100 }}}, []string{"101", "x"}},
		{"hang", []ok{{"100", func(p Params) bool { return p.Hang == 100 }}}, []string{"101", "Inf"}},
		{"seed", []ok{
			{"0", func(p Params) bool { return p.Seeded && p.Seed == 0 }},
			{"18446744073709551615", func(p Params) bool { return p.Seeded && p.Seed == 1<<64-1 }},
			{"42", func(p Params) bool { return p.Seeded && p.Seed == 42 }},
			// A sign, as every other integer parameter takes (strconv.Atoi).
			{"+42", func(p Params) bool { return p.Seeded && p.Seed == 42 }},
		}, []string{"", "-1", "18446744073709551616", "1.5", "0x10", "++1", "+-1", "+", "1e3"}},
	}
	if len(tests) != len(Table()) {
		t.Errorf("%d parameters tested, Table has %d", len(tests), len(Table()))
	}
	for _, tt := range tests {
		info := Table()[paramIndex(tt.name)]
		for _, g := range tt.good {
			for _, p := range parseOne(t, tt.name, g.value) {
				if p.err != nil {
					t.Errorf("%s=%q: %s: unexpected error %v", tt.name, g.value, p.via, p.err)
				} else if !g.check(p.p) {
					t.Errorf("%s=%q: %s: got %+v", tt.name, g.value, p.via, p.p)
				}
			}
		}
		for _, b := range tt.bad {
			for _, p := range parseOne(t, tt.name, b) {
				var pe *ParamError
				if !errors.As(p.err, &pe) {
					t.Errorf("%s=%q: %s: error %v, want *ParamError", tt.name, b, p.via, p.err)
					continue
				}
				if pe.Param != tt.name || pe.Allowed != info.Allowed || pe.Value != Cut(b) {
					t.Errorf("%s=%q: %s: %+v, want param %q, value %q, allowed %q", tt.name, b, p.via, pe, tt.name, b, info.Allowed)
				}
				if !strings.HasPrefix(pe.Error(), "mock: "+tt.name+" ") {
					t.Errorf("%s=%q: Error() = %q", tt.name, b, pe.Error())
				}
			}
		}
	}
}

// TestDurationParamsSayAUnit: a bare number refused for a duration
// parameter says that it needs a unit, and which make it one the
// parameter takes: latency=50 was answered with the range alone,
// "allowed a duration between 0s and 30s; latency+spread ≤ 30s", which
// 50 seemed to be. Each way the query is decoded says it, and so does
// the endpoint's answer (TestBareNumberLatencyAnswer).
func TestDurationParamsSayAUnit(t *testing.T) {
	for _, c := range []struct{ name, value, hint string }{
		{"latency", "50", "; a number needs a unit: 50ms, perhaps"}, // 50s is past 30s
		{"spread", "2.5", "; a number needs a unit: 2.5ms or 2.5s, perhaps"},
		{"window", "10", "; a number needs a unit: 10ms or 10s or 10m, perhaps"},
		{"window", "1 s", "; without a space: 1s"},
		{"latency", " 50", " (a + in a query reads as a space: write it %2B); a number needs a unit: 50ms, perhaps"},
		{"window", "0", ""}, // 0s, a duration: too short, not unitless
		{"latency", "1h", ""},
		{"rate", "abc", ""}, // not a duration
	} {
		want := Table()[paramIndex(c.name)].Allowed + c.hint
		for _, p := range parseOne(t, c.name, c.value) {
			var pe *ParamError
			if !errors.As(p.err, &pe) || pe.Allowed != want {
				t.Errorf("%s=%q: %s: %v, want allowed %q", c.name, c.value, p.via, p.err, want)
			}
		}
	}
}

type parsed struct {
	via string
	p   Params
	err error
}

// parseBoth decodes q with ParseParams and, encoded, with ParseQuery.
func parseBoth(t *testing.T, q url.Values) []parsed {
	t.Helper()
	p1, err1 := ParseParams(q)
	p2, err2 := ParseQuery(q.Encode())
	return []parsed{{"ParseParams", p1, err1}, {"ParseQuery", p2, err2}}
}

// parseOne decodes one parameter three ways: ParseParams, ParseQuery and
// Params.Set on the defaults.
func parseOne(t *testing.T, name, value string) []parsed {
	t.Helper()
	p := Defaults()
	err := p.Set(name, value)
	return append(parseBoth(t, url.Values{name: {value}}), parsed{"Set", p, err})
}

func TestSetUnknown(t *testing.T) {
	p := Defaults()
	var pe *ParamError
	if err := p.Set("rate_limit", "5"); !errors.As(err, &pe) || pe.Param != "rate_limit" || pe.Allowed != allowedKnown {
		t.Errorf("Set(rate_limit) = %v, want a *ParamError naming it", err)
	}
	if p != Defaults() {
		t.Errorf("Set of an unknown parameter changed the params: %+v", p)
	}
}

func TestParseSums(t *testing.T) {
	tests := []struct {
		query string
		param string // "" = valid
	}{
		{"fail500=25&fail503=25&drop=25&hang=25", ""},
		{"fail500=40&fail503=30&drop=20&hang=10.5", "hang"},
		{"fail500=100&hang=0.001", "hang"},
		// Sums of exactly 100 whose float addition is not: within 1e-9.
		{"fail500=0.2&fail503=85.4&drop=14.4", ""},
		{"fail500=0.2&fail503=85.4&hang=14.4", ""},
		{"fail500=0.1&fail503=0.2&drop=99.7", ""},
		{"fail500=33.3&fail503=33.3&drop=33.3&hang=0.1", ""},
		{"fail500=100&hang=0.000001", "hang"},
		{"latency=20s&spread=10s", ""},
		{"latency=20s&spread=10.001s", "spread"},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		for _, p := range parseBoth(t, q) {
			var pe *ParamError
			errors.As(p.err, &pe)
			switch {
			case tt.param == "" && p.err != nil:
				t.Errorf("%s: %s: unexpected error %v", tt.query, p.via, p.err)
			case tt.param != "" && (pe == nil || pe.Param != tt.param):
				t.Errorf("%s: %s: error %v, want one for %s", tt.query, p.via, p.err, tt.param)
			}
		}
	}
}

// A rule between parameters is reported on one of them, as every other
// error is: param was "latency+spread" or "fail500+fail503+drop+hang",
// which a client reading param as a parameter's name could not use. The
// one named is the last in Table order that could mend it alone, with the value
// it was given, and allowed says how much it may be beside the others —
// without float noise (0.2+85.4 leaves 14.4, not 14.399999999999991) —
// and the rule.
func TestRuleErrorsNameOneParameter(t *testing.T) {
	for _, tt := range []struct {
		query, param, value, allowed string
	}{
		{"latency=20s&spread=10001ms", "spread", "10001ms", "at most 10s: latency+spread ≤ 30s"},
		{"spread=30s&latency=30s", "spread", "30s", "at most 0s: latency+spread ≤ 30s"},
		{"latency=29.5s&spread=1s", "spread", "1s", "at most 500ms: latency+spread ≤ 30s"},
		{"fail500=60&fail503=50", "fail503", "50", "at most 40: fail500+fail503+drop+hang ≤ 100"},
		{"hang=1e1&fail500=95", "hang", "1e1", "at most 5: fail500+fail503+drop+hang ≤ 100"},
		{"fail500=0.2&fail503=85.4&drop=14.5", "drop", "14.5", "at most 14.4: fail500+fail503+drop+hang ≤ 100"},
		{"fail500=40&fail503=30&drop=20&hang=10.5", "hang", "10.5", "at most 10: fail500+fail503+drop+hang ≤ 100"},
		{"fail500=100&fail503=100&drop=100", "drop", "100", "at most 0: fail500+fail503+drop+hang ≤ 100, and the others add up to 200"},
		// drop cannot mend it (at most 0 still leaves 120); fail503 can.
		{"fail500=60&fail503=60&drop=10", "fail503", "60", "at most 30: fail500+fail503+drop+hang ≤ 100"},
		{"fail500=60&fail503=10&drop=60&hang=5", "drop", "60", "at most 25: fail500+fail503+drop+hang ≤ 100"},
		{"drop=0&fail503=100&fail500=1", "fail503", "100", "at most 99: fail500+fail503+drop+hang ≤ 100"},
	} {
		q, _ := url.ParseQuery(tt.query)
		for _, p := range parseBoth(t, q) {
			var pe *ParamError
			if !errors.As(p.err, &pe) || pe.Param != tt.param || pe.Value != tt.value || pe.Allowed != tt.allowed {
				t.Errorf("%s: %s: %#v\nwant param %q value %q allowed %q", tt.query, p.via, pe, tt.param, tt.value, tt.allowed)
			}
		}
	}
}

// AllowedBeside words any one parameter's bound under the rules, as the
// errors do (the page blames the field just typed, not ParseParams's
// choice); "" for a parameter no rule reads.
func TestAllowedBeside(t *testing.T) {
	for _, tt := range []struct {
		query, param, allowed string
	}{
		{"latency=25s&spread=10s", "latency", "at most 20s: latency+spread ≤ 30s"},
		{"latency=25s&spread=10s", "spread", "at most 5s: latency+spread ≤ 30s"},
		{"fail503=98.5&hang=1&drop=1", "fail503", "at most 98: fail500+fail503+drop+hang ≤ 100"},
		{"fail503=98.5&hang=1&drop=1", "hang", "at most 0.5: fail500+fail503+drop+hang ≤ 100"},
		{"fail500=100&fail503=100&drop=100", "fail500", "at most 0: fail500+fail503+drop+hang ≤ 100, and the others add up to 200"},
		{"rate=5", "rate", ""},
	} {
		p := Defaults()
		q, _ := url.ParseQuery(tt.query)
		for k, v := range q {
			if err := p.Set(k, v[0]); err != nil {
				t.Fatal(err)
			}
		}
		if got := p.AllowedBeside(tt.param); got != tt.allowed {
			t.Errorf("%s: AllowedBeside(%s) = %q, want %q", tt.query, tt.param, got, tt.allowed)
		}
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		raw, param, allowed string
		msg                 string // the message begins so ("": "mock: " and param)
	}{
		// A name the mock has not says so, and one it has in other case
		// names it: "mock: RATE \"5\": allowed key, tag, …" read as a
		// value refused (a review).
		{"bogus=1", "bogus", allowedKnown, `mock: unknown parameter bogus "1": allowed key, tag`},
		{"RATE=5", "RATE", allowedKnown, `mock: unknown parameter RATE "5" (names are lower case: rate): allowed key, tag`},
		{"Key=a", "Key", allowedKnown, `mock: unknown parameter Key "a" (names are lower case: key): allowed`},
		{"rate=1&rate=2", "rate", AllowedOnce, ""},
		{"key=a%zz", "query", "a percent-encoded query", ""},
		{"=1", "query", "name=value pairs with names " + allowedKnown, ""},
		{"ke%zz=a", "query", "a percent-encoded query", ""},
		{"rate", "rate", Table()[pRate].Allowed, ""},
		{"key=a;rate=1", "key", Table()[pKey].Allowed, ""},
		{"a;b=1", "a;b", allowedKnown, ""},
		{"burst=+1000", "burst", Table()[pBurst].Allowed + " (a + in a query reads as a space: write it %2B)", ""},
		{"burst=%2B1000&rate=+x", "rate", Table()[pRate].Allowed + " (a + in a query reads as a space: write it %2B)", ""},
		{strings.Repeat("x", 500) + "=1", strings.Repeat("x", 64) + "… (500 bytes)", allowedKnown, ""},
	}
	for _, tt := range tests {
		_, err := ParseQuery(tt.raw)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != tt.param || pe.Allowed != tt.allowed {
			t.Errorf("ParseQuery(%.40q) = %v, want param %q allowed %q", tt.raw, err, tt.param, tt.allowed)
		}
		if err == nil {
			continue
		}
		said := err.Error()
		if tt.msg == "" {
			said = strings.Replace(said, "unknown parameter ", "", 1)
		}
		if msg := cmp.Or(tt.msg, "mock: "+tt.param); !strings.HasPrefix(said, msg) {
			t.Errorf("ParseQuery(%.40q) says %q, want it to begin %q", tt.raw, err, msg)
		}
	}
	// url.Values: unknown names are reported in a deterministic order, after known ones.
	_, err := ParseParams(url.Values{"zeta": {"1"}, "alpha": {"1"}, "rate": {"2"}})
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Param != "alpha" {
		t.Errorf("ParseParams(unknowns) = %v, want param alpha", err)
	}
	_, err = ParseParams(url.Values{"burst": {"1", "2"}})
	if !errors.As(err, &pe) || pe.Param != "burst" || pe.Allowed != AllowedOnce || pe.Value != "1,2" {
		t.Errorf("ParseParams(duplicate) = %v", err)
	}
}

func TestParamErrorValueIsCut(t *testing.T) {
	v := strings.Repeat("é", 100) // 200 bytes
	_, err := ParseQuery("key=" + url.QueryEscape(v))
	var pe *ParamError
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	if !wellCut(pe.Value) || !strings.HasSuffix(pe.Value, "… (200 bytes)") || !utf8Valid(pe.Value) {
		t.Errorf("Value = %q (%d bytes), want at most 64 bytes of valid UTF-8, then … (200 bytes)", pe.Value, len(pe.Value))
	}
}

// wellCut reports whether v is a refused value as Cut writes it: at most
// MaxKeyLen bytes, or at most MaxKeyLen bytes then "… (N bytes)".
func wellCut(v string) bool {
	if len(v) <= MaxKeyLen {
		return true
	}
	i := strings.LastIndex(v, "… (")
	n, err := strconv.Atoi(strings.TrimSuffix(v[max(i, 0)+len("… ("):], " bytes)"))
	return i >= 0 && i <= MaxKeyLen && strings.HasSuffix(v, " bytes)") && err == nil && n > MaxKeyLen
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// randomParams draws valid parameters, hitting bounds often.
func randomParams(r *rand.Rand) Params {
	pick := func(xs ...float64) float64 { return xs[r.IntN(len(xs))] }
	p := Defaults()
	p.Key = []string{"default", "r", "room-1", strings.Repeat("z", MaxKeyLen)}[r.IntN(4)]
	p.Tag = []string{"", "w1.a3", "t"}[r.IntN(3)]
	p.Limiter = core.LimiterKind(r.IntN(4))
	p.Rate = pick(core.LimiterRateRange.Min, core.LimiterRateRange.Max, 5, 0.1+r.Float64()*100)
	p.Burst = int(pick(1, float64(core.LimiterBurstRange.Max), 10, float64(1+r.IntN(1000))))
	p.Limit = int(pick(1, float64(core.LimiterLimitRange.Max), 10, float64(1+r.IntN(1000))))
	p.Window = time.Duration(pick(float64(core.LimiterWindowRange.Min), float64(core.LimiterWindowRange.Max), float64(time.Second), float64(time.Millisecond+time.Duration(r.Int64N(int64(time.Hour))))))
	p.Status = []int{429, 503}[r.IntN(2)]
	p.RetryAfter = RetryMode(r.IntN(len(retryModeNames)))
	p.RetryValue = r.IntN(MaxRetryValue + 1)
	p.Malformed = Malformed(r.IntN(len(malformedNames)))
	p.Headers = Headers(r.IntN(len(headersNames)))
	p.Latency = time.Duration(r.Int64N(int64(MaxLatency)))
	p.Spread = time.Duration(r.Int64N(int64(MaxLatency - p.Latency + 1)))
	p.Fail500 = pick(0, 0, r.Float64()*25)
	p.Fail503 = pick(0, 0, r.Float64()*25)
	p.Drop = pick(0, 0, r.Float64()*25)
	p.Hang = pick(0, 0, 25)
	p.Seed, p.Seeded = []uint64{0, 1, 1<<64 - 1}[r.IntN(3)], r.IntN(2) == 0
	if !p.Seeded {
		p.Seed = 0
	}
	return p
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		p := randomParams(r)
		if err := p.Valid(); err != nil {
			t.Fatalf("randomParams gave invalid %+v: %v", p, err)
		}
		got, err := ParseParams(p.Query())
		if err != nil || got != p {
			t.Fatalf("ParseParams(%v.Query()) = %+v, %v", p, got, err)
		}
		got, err = ParseQuery(p.Encode())
		if err != nil || got != p {
			t.Fatalf("ParseQuery(%q) = %+v, %v; want %+v", p.Encode(), got, err, p)
		}
		if c := p.Endpoint(); c.Validate() != nil { // the simulator takes what the mock does
			t.Fatalf("valid params %q give an invalid endpoint: %v", p.Encode(), c.Validate())
		}
	}
}

func TestEncode(t *testing.T) {
	p := Defaults()
	if got := p.Encode(); got != "" {
		t.Errorf("Defaults().Encode() = %q, want empty", got)
	}
	// Numbers as the page's link writes them (core.FormatFloat): "1e+06" and
	// "1e-07" were the endpoint's where the link said 1000000 and 0.0000001.
	p.Key, p.Limiter, p.Limit, p.Window, p.RetryAfter, p.Rate, p.Fail500 = "room1", core.LimitFixedWindow, 5, 10*time.Second, RetryDate, 1e6, 1e-7
	const want = "key=room1&limiter=fixed&rate=1000000&limit=5&window=10s&retry_after=date&fail500=0.0000001"
	if got := p.Encode(); got != want {
		t.Errorf("Encode() = %q, want %q", got, want)
	}
}

func TestLimiterConfigIgnoresUnusedFields(t *testing.T) {
	a, b := Defaults(), Defaults()
	a.Limiter, b.Limiter = core.LimitFixedWindow, core.LimitFixedWindow
	b.Rate, b.Burst = 99, 99
	if a.LimiterConfig() != b.LimiterConfig() {
		t.Errorf("fixed window configs differ by bucket fields: %+v vs %+v", a.LimiterConfig(), b.LimiterConfig())
	}
	a.Limiter, b.Limiter = core.LimitNone, core.LimitNone
	if a.LimiterConfig() != (core.LimiterConfig{}) {
		t.Errorf("none config = %+v, want zero", a.LimiterConfig())
	}
}

func TestParamIndex(t *testing.T) {
	for i, p := range Table() {
		if paramIndex(p.Name) != i {
			t.Errorf("paramIndex(%q) = %d, want %d", p.Name, paramIndex(p.Name), i)
		}
	}
	for _, s := range []string{"", "Key", "keys", "rate ", "retry-after"} {
		if paramIndex(s) != -1 {
			t.Errorf("paramIndex(%q) = %d", s, paramIndex(s))
		}
	}
}

func TestEnumStrings(t *testing.T) {
	for i, n := range endpoint.LimiterNames {
		if endpoint.LimiterName(core.LimiterKind(i)) != n {
			t.Errorf("endpoint.LimiterName(%d) = %q", i, endpoint.LimiterName(core.LimiterKind(i)))
		}
	}
	if s := RetryMode(99).String(); s != "invalid(99)" {
		t.Errorf("RetryMode(99) = %q", s)
	}
	if Outcome(0).String() != "ok" || EndCancelled.String() != "cancelled" || MalformedISO8601.String() != "iso8601" || HeadersBoth.String() != "both" {
		t.Error("enum names changed")
	}
}

// TestChoices: Choices lists exactly the values of its parameter that Set
// accepts, among every member the parameter's type can name (and every
// status from 0 to 999), and nothing for parameters without a fixed set.
func TestChoices(t *testing.T) {
	tests := []struct {
		param string
		want  []string
		name  func(i int) string // the i-th member as the query writes it
		n     int                // members tried: 0 to n-1
	}{
		{"limiter", []string{"none", "bucket", "fixed", "sliding"}, func(i int) string { return endpoint.LimiterName(core.LimiterKind(i)) }, 256},
		{"status", []string{"429", "503"}, strconv.Itoa, 1000},
		{"retry_after", []string{"none", "seconds", "date", "fixed", "malformed"}, func(i int) string { return RetryMode(i).String() }, 256},
		{"malformed", []string{"mix", "text", "empty", "negative", "decimal", "unit", "huge", "rfc1123z", "iso8601"}, func(i int) string { return Malformed(i).String() }, 256},
		{"headers", []string{"none", "ietf", "x", "both"}, func(i int) string { return Headers(i).String() }, 256},
	}
	listed := map[string]bool{}
	for _, tt := range tests {
		listed[tt.param] = true
		got := Choices(tt.param)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Choices(%q) = %q, want %q", tt.param, got, tt.want)
		}
		for i := 0; i < tt.n; i++ {
			v := tt.name(i)
			p := Defaults()
			if accepted := p.Set(tt.param, v) == nil; accepted != slices.Contains(got, v) {
				t.Errorf("%s=%s: Set accepts it: %v, Choices lists it: %v", tt.param, v, accepted, !accepted)
			}
		}
		got[0] = "changed"
		if Choices(tt.param)[0] == "changed" {
			t.Errorf("Choices(%q) hands out the package's own list", tt.param)
		}
	}
	for _, info := range Table() {
		if !listed[info.Name] && Choices(info.Name) != nil {
			t.Errorf("Choices(%q) = %q, want nil", info.Name, Choices(info.Name))
		}
	}
	if Choices("nope") != nil {
		t.Error("Choices of an unknown parameter is not nil")
	}
}

// TestDocTable keeps doc.go's parameter table equal to Table.
func TestDocTable(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(MarkdownTable()), "\n") {
		if !strings.Contains(string(src), "//\t"+line+"\n") {
			t.Errorf("doc.go lacks the table line\n%s\n(regenerate it from MarkdownTable)", line)
		}
	}
}

func TestValidRejects(t *testing.T) {
	bad := []func(*Params){
		func(p *Params) { p.Key = "" },
		func(p *Params) { p.Tag = "a b" },
		func(p *Params) { p.Limiter = 9 },
		func(p *Params) { p.Rate = math.NaN() },
		func(p *Params) { p.Status = 200 },
		func(p *Params) { p.Fail500, p.Fail503 = 60, 50 },
	}
	for i, f := range bad {
		p := Defaults()
		f(&p)
		if p.Valid() == nil {
			t.Errorf("case %d: %+v is valid", i, p)
		}
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "key=a&rate=2", "limiter=fixed&limit=5&window=1s", "fail500=50&drop=50",
		"retry_after=malformed&malformed=huge", "latency=1s&spread=29s", "rate=NaN", "key=%zz", "a;b", "tag=&key=x",
		"window=1e3h", "status=429&status=503", "burst=+5", "rate=0x1p-2", "latency=-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := ParseQuery(raw)
		if err != nil {
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseQuery(%q) error %T, want *ParamError", raw, err)
			}
			if pe.Param == "" || pe.Allowed == "" || !wellCut(pe.Value) {
				t.Fatalf("ParseQuery(%q): incomplete %+v", raw, pe)
			}
			return
		}
		if c := p.Endpoint(); c.Validate() != nil { // the simulator takes what the mock does
			t.Fatalf("ParseQuery(%q) accepted an invalid endpoint: %v", raw, c.Validate())
		}
		if q, err := ParseQuery(p.Encode()); err != nil || q != p {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", raw, q, err, p)
		}
		if vals, err := url.ParseQuery(raw); err == nil {
			q, err := ParseParams(vals)
			if err != nil || q != p {
				t.Fatalf("ParseParams(%q) = %+v, %v; ParseQuery gave %+v", raw, q, err, p)
			}
		}
	})
}

// Used leaves out only what the mock does not read: the same limiter, the
// same Retry-After, and a URL without the parameters that change nothing.
func TestUsedAsksForTheSame(t *testing.T) {
	for _, kind := range []core.LimiterKind{core.LimitNone, core.LimitTokenBucket, core.LimitFixedWindow, core.LimitSlidingWindow} {
		for _, mode := range []RetryMode{RetryNone, RetrySeconds, RetryDate, RetryFixed, RetryMalformed} {
			p := Defaults()
			p.Limiter, p.RetryAfter = kind, mode
			p.Rate, p.Burst, p.Limit, p.Window = 3, 7, 9, 4*time.Second
			p.RetryValue, p.Malformed = 42, Malformed(1)
			u := p.Used()
			if u.LimiterConfig() != p.LimiterConfig() {
				t.Errorf("%v/%v: limiter %+v, want %+v", kind, mode, u.LimiterConfig(), p.LimiterConfig())
			}
			if u.RetryAfter != mode || mode == RetryFixed && u.RetryValue != 42 || mode == RetryMalformed && u.Malformed != p.Malformed {
				t.Errorf("%v/%v: Retry-After changed: %+v", kind, mode, u)
			}
			back, err := ParseQuery(u.Encode())
			if err != nil || back != u {
				t.Errorf("%v/%v: %q reads back as %+v (%v)", kind, mode, u.Encode(), back, err)
			}
			q := "&" + u.Encode() + "&"
			unused := map[string]bool{
				"rate":        kind != core.LimitTokenBucket,
				"burst":       kind != core.LimitTokenBucket,
				"limit":       kind != core.LimitFixedWindow && kind != core.LimitSlidingWindow,
				"window":      kind != core.LimitFixedWindow && kind != core.LimitSlidingWindow,
				"retry_value": mode != RetryFixed,
				"malformed":   mode != RetryMalformed,
			}
			for name, out := range unused {
				if strings.Contains(q, "&"+name+"=") == out {
					t.Errorf("%v/%v: %q has %s: %v, want %v", kind, mode, u.Encode(), name, !out, !out)
				}
			}
		}
	}
}
