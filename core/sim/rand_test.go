package sim

import (
	"math"
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
