package sim

import (
	"math"
	"runtime"
	"testing"
	"time"

	"retrylab/core"
)

// logf is within one ulp of math.Log (whose pure-Go version it copies) for
// normal numbers. (For subnormals amd64's assembly math.Log is the one that
// is off: math.Log(5e-324) = -709.09 there, ln(5e-324) = -744.44 — an
// example of why the simulator carries its own logarithm.)
func TestLogfMatchesMathLog(t *testing.T) {
	rng := core.NewPCG(1)
	check := func(x float64) {
		t.Helper()
		got, want := logf(x), math.Log(x)
		if got != want && math.Abs(got-want) > 1.01*math.Abs(math.Nextafter(want, math.Inf(1))-want) {
			t.Fatalf("logf(%v) = %v, math.Log = %v", x, got, want)
		}
	}
	for range 100000 {
		check(rng.Float64())
	}
	for _, x := range []float64{2.3e-308, 1e-300, 0.5, 1, math.E, 2, 10, 1e300, math.MaxFloat64} {
		check(x)
	}
	if logf(1) != 0 || !math.IsInf(logf(0), -1) || !math.IsNaN(logf(-1)) || !math.IsInf(logf(math.Inf(1)), 1) {
		t.Error("special cases")
	}
}

// The first draws of a seed are fixed on every platform (this test also
// runs under GOOS=js GOARCH=wasm).
func TestNormalGolden(t *testing.T) {
	n := NewNormal(core.NewPCG(42))
	want := []float64{-1.2476565077523687, 0.8628423192836514, -0.20945481717480047}
	for i, w := range want {
		if got := n.Float64(); got != w {
			t.Errorf("draw %d = %v, want %v", i, got, w)
		}
	}
}

func TestNormalMoments(t *testing.T) {
	n := NewNormal(core.NewPCG(7))
	const draws = 200000
	var s, ss float64
	for range draws {
		x := n.Float64()
		s += x
		ss += x * x
	}
	mean := s / draws
	sd := math.Sqrt(ss/draws - mean*mean)
	if math.Abs(mean) > 0.01 || math.Abs(sd-1) > 0.01 {
		t.Errorf("mean %.4f, sd %.4f", mean, sd)
	}
	// |Normal(10ms, 2ms)|: mean 10 ms, never negative.
	var sum time.Duration
	for range draws {
		d := n.AbsDelay(10*time.Millisecond, 2*time.Millisecond)
		if d < 0 {
			t.Fatal("negative delay")
		}
		sum += d
	}
	if m := sum / draws; m < 9950*time.Microsecond || m > 10050*time.Microsecond {
		t.Errorf("mean delay %v", m)
	}
}

// stdMathUnfused reports whether the standard library's pure-Go math
// functions run unfused here (no multiply-add fusion): js/wasm, and amd64
// below GOAMD64=v3 (see fused_amd64v3_test.go).
var stdMathUnfused = runtime.GOARCH == "wasm" || runtime.GOARCH == "amd64"

// log1pf is math.Log1p's algorithm with products rounded on their own:
// where math.Log1p runs unfused they agree to the bit, on the arrival
// gaps' inputs -u (u a PCG draw) and across the whole range.
func TestLog1pfMatchesMathLog1p(t *testing.T) {
	if !stdMathUnfused {
		t.Skip("math.Log1p may be fused on " + runtime.GOARCH + ": no bit-exact reference")
	}
	check := func(x float64) {
		t.Helper()
		got, want := log1pf(x), math.Log1p(x)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("log1pf(%v) = %v, math.Log1p = %v", x, got, want)
		}
	}
	rng := core.NewPCG(3)
	for range 1000000 {
		u := rng.Float64()
		check(-u)
		check(math.Ldexp(u, int(rng.Float64()*2100)-1075)) // any magnitude
		check(-u * 1e-6)
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -1, -0.5, 1e-300, 1e-20, -1e-9, 1e-9, 0.41, -0.29, 0.5, 1, math.E, 1e15, 1e300,
		math.MaxFloat64, math.Nextafter(-1, 0), -2, math.Inf(1), math.Inf(-1), math.NaN()} {
		check(x)
	}
}

// The first random arrival gaps of a seed are fixed on every platform
// (this test also runs under GOOS=js GOARCH=wasm): they come from log1pf,
// not from math.Log1p, whose multiply-adds arm64 fuses.
func TestArrivalGapsGolden(t *testing.T) {
	a := Arrivals{Every: time.Second, Workers: 3, Random: true, Seed: 42}
	want := []time.Duration{201472578, 1909526269, 335015795, 792616829, 1019484692, 435791549, 415250894, 3306672973, 773141378}
	for i, w := range want {
		if got := a.Gap(i%3, i/3); got != w {
			t.Errorf("gap %d = %d, want %d", i, got, w)
		}
	}
}
