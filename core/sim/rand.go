package sim

import (
	"math"
	"time"

	"retrylab/core"
)

// Normal draws normally distributed numbers from a core.PCG, identically on
// every platform.
//
// math/rand's NormFloat64 is not used: its slow path calls math.Exp and
// math.Log, which have assembly implementations on some architectures
// (amd64's Exp among them) that may differ from the pure-Go code js/wasm
// runs in the last bit, and one bit is enough to change a comparison and
// with it every later event. Normal uses Marsaglia's polar method with a
// logarithm written out here in basic arithmetic (which IEEE 754 rounds the
// same way everywhere) and math.Sqrt (correctly rounded everywhere), with
// explicit conversions that forbid fused multiply-add.
type Normal struct {
	rng   *core.PCG
	spare float64
	has   bool
}

// NewNormal returns a standard normal source drawing from rng.
func NewNormal(rng *core.PCG) *Normal { return &Normal{rng: rng} }

// Float64 returns a standard normal number (mean 0, standard deviation 1).
func (n *Normal) Float64() float64 {
	if n.has {
		n.has = false
		return n.spare
	}
	for {
		u := float64(2*n.rng.Float64()) - 1
		v := float64(2*n.rng.Float64()) - 1
		s := float64(u*u) + float64(v*v)
		if s >= 1 || s == 0 {
			continue
		}
		m := math.Sqrt(float64(-2*logf(s)) / s)
		n.spare, n.has = float64(v*m), true
		return float64(u * m)
	}
}

// AbsDelay returns |Normal(mean, sd)| as a duration, truncated to the
// nanosecond: the per-message network delay of the AWS experiment.
func (n *Normal) AbsDelay(mean, sd time.Duration) time.Duration {
	x := float64(mean) + float64(float64(sd)*n.Float64())
	return time.Duration(math.Abs(x))
}

// logf is the natural logarithm of x > 0: the algorithm of Go's pure-Go
// math.log (from FreeBSD's e_log.c), with every product rounded on its own
// so no platform fuses them. Exact to within 1 ulp, and the same bits on
// every platform.
func logf(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x) // exact: bit manipulation
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}
