package core

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestRange(t *testing.T) {
	r := Range[time.Duration]{time.Millisecond, time.Hour}
	for _, tt := range []struct {
		v    time.Duration
		want bool
	}{{0, false}, {time.Millisecond, true}, {time.Minute, true}, {time.Hour, true}, {time.Hour + 1, false}} {
		if got := r.Contains(tt.v); got != tt.want {
			t.Errorf("%v.Contains(%v) = %v", r, tt.v, got)
		}
	}
	if got := r.String(); got != "between 1ms and 1h" {
		t.Errorf("String() = %q", got)
	}
	f := Range[float64]{0.001, 1e6}
	if f.Contains(math.NaN()) || f.Contains(math.Inf(1)) || !f.Contains(1e6) {
		t.Error("float range: NaN/Inf contained or bound excluded")
	}
	if got := f.String(); got != "between 0.001 and 1000000" {
		t.Errorf("String() = %q", got)
	}
	wantErr(t, Range[int]{1, 10}.check("widget count", 11), "core: widget count 11: must be between 1 and 10")
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", time.Hour: "1h", 24 * time.Hour: "24h", time.Minute: "1m", 90 * time.Second: "1m30s",
		time.Hour + time.Second: "1h0m1s", 1500 * time.Millisecond: "1.5s", 100 * time.Millisecond: "100ms",
		-time.Second: "-1s", 2*time.Hour + 30*time.Minute: "2h30m",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestParseFloat(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.5", 0.5, true}, {"2", 2, true}, {"-2", -2, true}, {"+5", 5, true}, {".5", 0.5, true},
		{"5.", 5, true}, {"1e3", 1000, true}, {"2.5E-3", 0.0025, true}, {"0429", 429, true},
		// Zero has no sign: a link said "fail500=-0" (a robustness review).
		{"-0", 0, true}, {"-0.0e5", 0, true}, {"-1e-400", 0, true},
		// Go's other spellings: not what anyone configuring a run means.
		{"0x1p-2", 0, false}, {"0x.8p0", 0, false}, {"1_000", 0, false}, {"1_0", 0, false},
		{"Inf", 0, false}, {"infinity", 0, false}, {"NaN", 0, false},
		{"", 0, false}, {" 1", 0, false}, {"1.2.3", 0, false}, {"e", 0, false}, {"--1", 0, false},
	} {
		got, err := ParseFloat(tt.in)
		if (err == nil) != tt.ok || tt.ok && (got != tt.want || math.Signbit(got) != math.Signbit(tt.want)) {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// FuzzParseFloat: ParseFloat accepts a subset of strconv.ParseFloat, with
// the same value, and never a non-finite one from a short input.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0.5", "1e3", "0x1p-2", "1_000", "NaN", "Inf", "-.5e-3", "9e999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFloat(s)
		want, werr := strconv.ParseFloat(s, 64)
		if err == nil && (werr != nil || got != want) {
			t.Fatalf("ParseFloat(%q) = %v, nil; strconv gives %v, %v", s, got, want, werr)
		}
		if err == nil && math.IsNaN(got) {
			t.Fatalf("ParseFloat(%q) = NaN", s)
		}
		if got == 0 && math.Signbit(got) {
			t.Fatalf("ParseFloat(%q) = -0", s)
		}
		if strings.ContainsAny(strings.ToLower(s), "x_in") && err == nil {
			t.Fatalf("ParseFloat(%q) accepted a Go-only spelling", s)
		}
	})
}

// TestRangesAreSane: every exported range is non-empty and the defaults
// fit inside them.
func TestRangesAreSane(t *testing.T) {
	if err := DefaultPolicy().Validate(); err != nil {
		t.Fatal(err)
	}
	for name, ok := range map[string]bool{
		"BackoffBaseRange":       BackoffBaseRange.Min <= BackoffBaseRange.Max,
		"BackoffMultiplierRange": BackoffMultiplierRange.Min <= BackoffMultiplierRange.Max,
		"BackoffCapRange":        BackoffCapRange.Min <= BackoffCapRange.Max,
		"PolicyMaxAttemptsRange": PolicyMaxAttemptsRange.Min >= 1,
		"PolicyMaxElapsedRange":  PolicyMaxElapsedRange.Min == 0,
		"PolicyCeilingRange":     PolicyCeilingRange.Min == 0,
		"PolicySpreadRange":      PolicySpreadRange.Min == 0,
		"BucketRateRange":        BucketRateRange.Min > 0,
		"BucketCapacityRange":    BucketCapacityRange.Min >= 1,
		"BudgetCapacityRange":    BudgetCapacityRange.Min >= 1,
		"BudgetRefillRange":      BudgetRefillRange.Min == 0,
		"LimiterRateRange":       LimiterRateRange.Min > 0,
		"LimiterBurstRange":      LimiterBurstRange.Min >= 1,
		"LimiterLimitRange":      LimiterLimitRange.Min >= 1 && LimiterLimitRange.Max <= 1000,
		"LimiterWindowRange":     LimiterWindowRange.Min > 0,
	} {
		if !ok {
			t.Errorf("%s is not sane", name)
		}
	}
}

// FuzzFormatDuration: time.ParseDuration reads FormatDuration's text back
// exactly, as its doc says, for every Duration.
func FuzzFormatDuration(f *testing.F) {
	for _, d := range []int64{0, 1, -1, int64(time.Hour), int64(90 * time.Second), int64(time.Hour + time.Nanosecond), math.MaxInt64, math.MinInt64} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		d := time.Duration(n)
		s := FormatDuration(d)
		back, err := time.ParseDuration(s)
		if err != nil || back != d {
			t.Fatalf("FormatDuration(%d) = %q, which parses as %v, %v", n, s, back, err)
		}
		if strings.HasSuffix(s, "h0m") || strings.HasSuffix(s, "m0s") {
			t.Fatalf("FormatDuration(%d) = %q: a trailing zero unit", n, s)
		}
	})
}

// FuzzFormatFloat: ParseFloat reads FormatFloat's text back exactly for
// every finite float64, so the ranges and errors show values a user can
// type back.
func FuzzFormatFloat(f *testing.F) {
	for _, v := range []float64{0, 0.001, 1e6, -2.5, 1e21, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return
		}
		s := FormatFloat(v)
		back, err := ParseFloat(s)
		if err != nil || back != v || math.Signbit(back) != math.Signbit(v) {
			t.Fatalf("FormatFloat(%v) = %q, which ParseFloat reads as %v, %v", v, s, back, err)
		}
	})
}

// A bare number refused as a duration says that it needs a unit, and
// which units make it one allowed: the mock answered latency=50 with the
// range alone, "allowed a duration between 0s and 30s", which 50 seemed
// to be.
func TestDurationHint(t *testing.T) {
	latency := DurationIn(Range[time.Duration]{0, 30 * time.Second})
	base := DurationIn(BackoffBaseRange)
	for _, c := range []struct {
		v    string
		ok   func(string) bool
		want string
	}{
		{"50", latency, "; a number needs a unit: 50ms, perhaps"}, // 50s is past 30s: not offered
		{"100", base, "; a number needs a unit: 100ms or 100s, perhaps"},
		{" 2.5 ", base, "; a number needs a unit: 2.5ms or 2.5s or 2.5m, perhaps"},
		{".5", base, "; a number needs a unit: .5s or .5m, perhaps"}, // 0.5ms is under 1ms
		{"1e9", base, "; a number needs a unit: ms, s or m"},         // Go's durations take no exponent
		{"-5", latency, "; a number needs a unit: ms, s or m"},
		{"1 s", base, "; without a space: 1s"},
		{"1m 30s", base, "; without a space: 1m30s"},
		{"2 h", base, ""}, // 2h is not allowed either
		{"50ms", base, ""},
		{"0", base, ""}, // a duration, 0s, under 1ms: "needs a unit" would mislead
		{"-0", base, ""},
		{"fast", base, ""},
		{"", base, ""},
		{"0x10", base, ""}, // no number as people write one (ParseFloat)
	} {
		if got := DurationHint(c.v, c.ok); got != c.want {
			t.Errorf("DurationHint(%q) = %q, want %q", c.v, got, c.want)
		}
	}
}

// FuzzDurationHint: every duration DurationHint offers is one its ok
// takes.
func FuzzDurationHint(f *testing.F) {
	for _, s := range []string{"50", "1 s", " 2.5 ", "1e9", "fast", "1m 30s", "-0"} {
		f.Add(s)
	}
	ok := DurationIn(Range[time.Duration]{time.Millisecond, time.Minute})
	f.Fuzz(func(t *testing.T, s string) {
		h := DurationHint(s, ok)
		_, offered, found := strings.Cut(h, ": ")
		if !found || offered == "ms, s or m" {
			return
		}
		offered = strings.TrimSuffix(offered, ", perhaps")
		for _, d := range strings.Split(offered, " or ") {
			if !ok(d) {
				t.Fatalf("DurationHint(%q) = %q offers %q, which ok refuses", s, h, d)
			}
		}
	})
}
