package core

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestBackoffDelay(t *testing.T) {
	const base, cap = 100 * ms, 1 * s
	exp := Backoff{Strategy: Exponential, Base: base, Multiplier: 2, Cap: cap}
	full := Backoff{Strategy: FullJitter, Base: base, Multiplier: 2, Cap: cap}
	equal := Backoff{Strategy: EqualJitter, Base: base, Multiplier: 2, Cap: cap}
	dec := Backoff{Strategy: DecorrelatedJitter, Base: base, Cap: cap}
	tests := []struct {
		name string
		b    Backoff
		n    int
		prev time.Duration
		u    float64
		want time.Duration
	}{
		{"none", Backoff{}, 1, 0, 0.5, 0},
		{"constant", Backoff{Strategy: Constant, Base: 250 * ms}, 7, 0, 0.9, 250 * ms},
		{"exponential first retry is base·mult", exp, 1, 0, 0.3, 200 * ms},
		{"exponential n=2", exp, 2, 0, 0, 400 * ms},
		{"exponential n=3", exp, 3, 0, 0, 800 * ms},
		{"exponential capped", exp, 4, 0, 0, cap},
		{"exponential capped far out", exp, 1000, 0, 0, cap},
		{"exponential n=0 is base", exp, 0, 0, 0, base},
		{"exponential mult 1.5", Backoff{Strategy: Exponential, Base: base, Multiplier: 1.5}, 2, 0, 0, 225 * ms},
		{"exponential mult 1 is constant", Backoff{Strategy: Exponential, Base: base, Multiplier: 1}, 50, 0, 0, base},
		{"exponential no cap saturates", Backoff{Strategy: Exponential, Base: base, Multiplier: 2}, 200, 0, 0, maxDuration},
		{"exponential huge n uses pow", Backoff{Strategy: Exponential, Base: base, Multiplier: 1.0001, Cap: time.Hour}, 1 << 20, 0, 0, time.Hour},
		{"full u=0", full, 3, 0, 0, 0},
		{"full u=0.5", full, 1, 0, 0.5, 100 * ms},
		{"full u=0.25 n=3", full, 3, 0, 0.25, 200 * ms},
		{"full capped", full, 10, 0, 0.999, 999 * ms},
		{"full u clamped to 1", full, 1, 0, 7, 200 * ms},
		{"full u NaN is 0", full, 1, 0, math.NaN(), 0},
		{"full negative u is 0", full, 1, 0, -3, 0},
		{"equal u=0 keeps half", equal, 1, 0, 0, 100 * ms},
		{"equal u=0.5", equal, 1, 0, 0.5, 150 * ms},
		{"equal capped", equal, 9, 0, 0.5, 750 * ms},
		{"decorrelated first from base, u=0", dec, 1, 0, 0, base},
		{"decorrelated first from base, u=0.5", dec, 1, 0, 0.5, 200 * ms},
		{"decorrelated from prev", dec, 2, 200 * ms, 0.5, 350 * ms},
		{"decorrelated capped", dec, 3, 500 * ms, 0.9, cap},
		{"decorrelated ignores n", dec, 99, 200 * ms, 0.5, 350 * ms},
		{"decorrelated prev below base/3", dec, 2, 10 * ms, 0.5, base},
		{"invalid negative base gives 0", Backoff{Strategy: Constant, Base: -1}, 1, 0, 0, 0},
		{"invalid NaN multiplier gives base", Backoff{Strategy: Exponential, Base: base, Multiplier: math.NaN()}, 3, 0, 0, base},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.Delay(tt.n, tt.prev, tt.u); got != tt.want {
				t.Errorf("%+v.Delay(%d, %v, %v) = %v, want %v", tt.b, tt.n, tt.prev, tt.u, got, tt.want)
			}
		})
	}
}

// TestJitterBounds is the property test: every jitter mode stays inside
// its formula's bounds for random inputs.
func TestJitterBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 200000; i++ {
		b := Backoff{
			Strategy:   Strategy(1 + r.IntN(5)),
			Base:       time.Duration(1+r.Int64N(int64(time.Second))) + BackoffBaseRange.Min,
			Multiplier: 1 + 9*r.Float64(),
		}
		if r.IntN(4) > 0 {
			b.Cap = b.Base + time.Duration(r.Int64N(int64(time.Minute)))
		}
		if err := b.Validate(); err != nil {
			t.Fatal(err)
		}
		n := 1 + r.IntN(80)
		prev := time.Duration(r.Int64N(int64(2 * time.Minute)))
		u := r.Float64()
		d := b.Delay(n, prev, u)
		limit := b.Cap
		if limit == 0 {
			limit = maxDuration
		}
		// The exponential term, min(cap, Base·Multiplier^n), computed here
		// with math.Pow rather than by b.expo, the code under test: the two
		// round differently, so the bounds allow a part in 10⁹.
		t0 := toDuration(math.Min(float64(b.Base)*math.Pow(b.Multiplier, float64(n)), float64(limit)))
		slack := t0/1e9 + 1
		up := min(limit, t0+min(slack, limit-t0)) // t0+slack, not past the limit (or overflowing)
		lo, hi := time.Duration(0), limit
		switch b.Strategy {
		case Constant:
			lo, hi = b.Base, b.Base
		case Exponential:
			lo, hi = t0-slack, up
		case FullJitter:
			hi = up
		case EqualJitter:
			lo, hi = t0/2-slack, up
		case DecorrelatedJitter:
			lo = min(b.Base, limit)
			hi = min(limit, max(b.Base, 3*prev))
		}
		if d < lo || d > hi || d > limit || d < 0 {
			t.Fatalf("%+v.Delay(%d, %v, %v) = %v, outside [%v, %v]", b, n, prev, u, d, lo, hi)
		}
	}
}

// TestScheduleMatchesDelay: a Schedule's k-th delay equals Delay(k, prev, u)
// with the same random draws, for every strategy, to the nanosecond.
func TestScheduleMatchesDelay(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < 500; i++ {
		b := Backoff{
			Strategy:   Strategy(r.IntN(len(strategyNames))), // every strategy, a new one too
			Base:       BackoffBaseRange.Min + time.Duration(r.Int64N(int64(500*ms))),
			Multiplier: []float64{1, 1.5, 2, 3.7, 10}[r.IntN(5)],
		}
		if r.IntN(3) > 0 {
			b.Cap = b.Base * time.Duration(1+r.IntN(1000))
		}
		seed := r.Uint64()
		s := NewSchedule(b, NewRand(seed))
		draws := NewRand(seed)
		var prev time.Duration
		for k := 1; k <= 100; k++ {
			u := 0.0
			if b.Strategy.Random() { // as the schedule draws
				u = draws.Float64()
			}
			want := b.Delay(k, prev, u)
			if got := s.Next(); got != want {
				t.Fatalf("%+v seed %d: Next #%d = %v, Delay = %v", b, seed, k, got, want)
			}
			prev = want
		}
		if s.Attempt() != 100 {
			t.Fatalf("Attempt() = %d", s.Attempt())
		}
		s.Reset()
		if s.Attempt() != 0 {
			t.Fatalf("Attempt() after Reset = %d", s.Attempt())
		}
	}
}

// TestScheduleIsReproducible pins one seeded full-jitter schedule: the same
// numbers must come out natively and under js/wasm.
func TestScheduleIsReproducible(t *testing.T) {
	s := NewSchedule(Backoff{Strategy: FullJitter, Base: 100 * ms, Multiplier: 2, Cap: 10 * s}, NewRand(42))
	var got []time.Duration
	for i := 0; i < 6; i++ {
		got = append(got, s.Next())
	}
	want := []time.Duration{goldenFull42[0], goldenFull42[1], goldenFull42[2], goldenFull42[3], goldenFull42[4], goldenFull42[5]}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("schedule for seed 42 = %v, want %v", got, want)
		}
	}
}

func TestBackoffValidate(t *testing.T) {
	tests := []struct {
		b    Backoff
		want string
	}{
		{Backoff{}, ""},
		{Backoff{Strategy: None, Base: -5}, ""}, // unused fields are not checked
		{Backoff{Strategy: Constant, Base: 0}, "core: backoff base 0s: must be between 1ms and 1h"},
		{Backoff{Strategy: Constant, Base: 2 * time.Hour}, "core: backoff base 2h: must be between 1ms and 1h"},
		{Backoff{Strategy: Constant, Base: s, Cap: -1}, ""},
		{Backoff{Strategy: Exponential, Base: s, Multiplier: 0}, "core: backoff multiplier 0: must be between 1 and 10"},
		{Backoff{Strategy: FullJitter, Base: s, Multiplier: math.NaN()}, "core: backoff multiplier NaN: must be between 1 and 10"},
		{Backoff{Strategy: EqualJitter, Base: s, Multiplier: 2, Cap: 25 * time.Hour}, "core: backoff cap 25h: must be between 0s and 24h"},
		{Backoff{Strategy: FullJitter, Base: s, Multiplier: 2, Cap: 500 * ms}, "core: backoff cap 500ms: must be 0 (no cap) or at least base 1s"},
		{Backoff{Strategy: DecorrelatedJitter, Base: s, Multiplier: 0, Cap: time.Minute}, ""},
		{Backoff{Strategy: 6}, "core: backoff strategy 6"},
	}
	for _, tt := range tests {
		err := tt.b.Validate()
		wantErr(t, err, tt.want)
		// Only the rule between Cap and Base matches its sentinel.
		if got, want := errors.Is(err, ErrCapBelowBase), strings.Contains(tt.want, "at least base"); got != want {
			t.Errorf("%+v: errors.Is(%v, ErrCapBelowBase) = %v, want %v", tt.b, err, got, want)
		}
	}
}

func TestParseStrategy(t *testing.T) {
	for s := None; s <= DecorrelatedJitter; s++ {
		got, err := ParseStrategy(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStrategy(%q) = %v, %v", s.String(), got, err)
		}
	}
	for _, bad := range []string{"", "Full", " full", "jitter", "full-jitter"} {
		_, err := ParseStrategy(bad)
		wantErr(t, err, "core: backoff strategy")
	}
	if got := Strategy(9).String(); got != "Strategy(9)" {
		t.Errorf("Strategy(9).String() = %q", got)
	}
}

func FuzzParseStrategy(f *testing.F) {
	for _, s := range strategyNames {
		f.Add(s)
	}
	f.Add("FULL")
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStrategy(s)
		if err != nil {
			return
		}
		if st.String() != s {
			t.Fatalf("ParseStrategy(%q) = %v, which prints as %q", s, st, st.String())
		}
		if d := (Backoff{Strategy: st, Base: s2d(len(s)), Multiplier: 2}).Delay(len(s), 0, 0.5); d < 0 {
			t.Fatalf("negative delay %v", d)
		}
	})
}

func s2d(n int) time.Duration { return time.Duration(n+1) * ms }

// stdMathUnfused reports whether the standard library's pure-Go math runs
// unfused here (no multiply-add fusion): js/wasm, and amd64 below
// GOAMD64=v3 (see fused_amd64v3_test.go).
var stdMathUnfused = runtime.GOARCH == "wasm" || runtime.GOARCH == "amd64"

// powInt takes math.Pow's steps for an integer exponent, without anything
// a compiler could fuse: where math.Pow runs unfused they agree to the bit,
// so Delay beyond expoLoopMax gives the values it gave with math.Pow.
func TestPowIntMatchesMathPow(t *testing.T) {
	if !stdMathUnfused {
		t.Skip("math.Pow may be fused on " + runtime.GOARCH + ": no bit-exact reference")
	}
	rng := NewPCG(5)
	for range 200000 {
		m := 1 + 9*rng.Float64()
		if rng.Float64() < 0.5 {
			m = 1 + rng.Float64()*1e-3 // a hair above 1: the case the loop bound is for
		}
		n := expoLoopMax + 1 + int(rng.Float64()*1e6)
		if got, want := powInt(m, n), math.Pow(m, float64(n)); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("powInt(%v, %d) = %v, math.Pow = %v", m, n, got, want)
		}
	}
	for _, c := range []struct {
		m float64
		n int
	}{{2, 0}, {2, 1}, {2, 1023}, {2, 1024}, {10, 308}, {10, 309}, {math.Nextafter(1, 2), 1 << 40}, {1.5, math.MaxInt}} {
		if got, want := powInt(c.m, c.n), math.Pow(c.m, float64(c.n)); got != want {
			t.Errorf("powInt(%v, %d) = %v, math.Pow = %v", c.m, c.n, got, want)
		}
	}
}

// Delay beyond the multiplication loop: fixed values, the same on every
// platform (this test also runs under GOOS=js GOARCH=wasm).
func TestDelayBeyondTheLoopGolden(t *testing.T) {
	b := Backoff{Strategy: Exponential, Base: time.Millisecond, Multiplier: 1.001}
	for _, c := range []struct {
		n    int
		want time.Duration
	}{{5000, 148042836}, {10000, 21916681339}, {20000, 480340920917391}} {
		if got := b.Delay(c.n, 0, 0); got != c.want {
			t.Errorf("Delay(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// Every strategy ParseStrategy knows is one Validate allows, and both
// errors name every strategy there is: a strategy added to the names
// passes both, with nothing else to update (a review found the two lists
// written out by hand, and a new strategy refused by Validate).
func TestStrategyNamesAreTheStrategies(t *testing.T) {
	for i, name := range strategyNames {
		s, err := ParseStrategy(name)
		if err != nil || s != Strategy(i) || s.String() != name {
			t.Errorf("%q: parsed as %v (%v), want %d", name, s, err, i)
		}
		b := Backoff{Strategy: s, Base: 100 * time.Millisecond, Multiplier: 2, Cap: time.Second}
		if err := b.Validate(); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	last := strategyNames[len(strategyNames)-1]
	_, err := ParseStrategy("linear")
	if err == nil || !strings.HasSuffix(err.Error(), strings.Join(strategyNames[:], ", ")) {
		t.Errorf("an unknown name: %v", err)
	}
	err = Backoff{Strategy: Strategy(len(strategyNames))}.Validate()
	if err == nil || !strings.Contains(err.Error(), "("+last+")") {
		t.Errorf("a strategy past the last: %v", err)
	}
}

// Grows, Random and Capped say what each strategy's delays depend on, and
// they are what Validate, Delay, Schedule, the loop and the page's fields
// read: a strategy's properties were written out as lists in five places
// (a newcomer's review), and which strategies the cap limits in two more
// (Validate and the page's cap field; a maintainer's review). Here each is
// checked against Delay itself: Random exactly where the delay moves with
// u, Grows exactly where it moves with the multiplier, Capped exactly
// where it moves with the cap; Validate checks the multiplier exactly
// where it grows and the cap exactly where it is capped.
func TestStrategyPropertiesAreWhatDelayDoes(t *testing.T) {
	for i := range strategyNames {
		s := Strategy(i)
		b := Backoff{Strategy: s, Base: 100 * time.Millisecond, Multiplier: 2, Cap: time.Hour}
		const n, prev = 3, 400 * time.Millisecond
		random := b.Delay(n, prev, 0.1) != b.Delay(n, prev, 0.9)
		m := b
		m.Multiplier = 3
		grows := b.Delay(n, prev, 0.5) != m.Delay(n, prev, 0.5)
		c := b
		c.Cap = 150 * time.Millisecond // under every uncapped delay above, at least Base
		capped := b.Delay(n, prev, 0.5) != c.Delay(n, prev, 0.5)
		if s.Random() != random || s.Grows() != grows || s.Capped() != capped {
			t.Errorf("%s: Random %v, Grows %v, Capped %v; its delays move with u: %v, with the multiplier: %v, with the cap: %v", s, s.Random(), s.Grows(), s.Capped(), random, grows, capped)
		}
		m.Multiplier = 0 // outside BackoffMultiplierRange
		if checked := m.Validate() != nil; checked != s.Grows() {
			t.Errorf("%s: Validate checks the multiplier: %v, want %v", s, checked, s.Grows())
		}
		c.Cap = -time.Second // outside BackoffCapRange
		if checked := c.Validate() != nil; checked != s.Capped() {
			t.Errorf("%s: Validate checks the cap: %v, want %v", s, checked, s.Capped())
		}
	}
}
