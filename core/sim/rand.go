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
//
// Create it with NewNormal: the zero value has no source to draw from and
// is not usable. Not safe for concurrent use (nor is its core.PCG).
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

// ln 2 split in two for exactness, and the coefficients of the polynomial
// that logf and log1pf share (FreeBSD's e_log.c and s_log1p.c use the same).
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	lg1   = 6.666666666666735130e-01
	lg2   = 3.999999999940941908e-01
	lg3   = 2.857142874366239149e-01
	lg4   = 2.222219843214978396e-01
	lg5   = 1.818357216161805012e-01
	lg6   = 1.531383769920937332e-01
	lg7   = 1.479819860511658591e-01
)

// logf is the natural logarithm of x > 0: the algorithm of Go's pure-Go
// math.log (from FreeBSD's e_log.c), with every product rounded on its own
// so no platform fuses them. Exact to within 1 ulp, and the same bits on
// every platform.
func logf(x float64) float64 {
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
	t1 := float64(s2 * (lg1 + float64(s4*(lg3+float64(s4*(lg5+float64(s4*lg7)))))))
	t2 := float64(s4 * (lg2 + float64(s4*(lg4+float64(s4*lg6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// log1pf is ln(1+x): the algorithm of Go's pure-Go math.log1p (from
// FreeBSD's s_log1p.c), step for step, with every product rounded on its
// own (an explicit float64 conversion) so no platform fuses a multiply and
// an add. Where math.Log1p is that pure-Go code unfused (amd64 below v3,
// js/wasm) the two agree to the bit (a test checks it); on arm64, where
// the compiler fuses multiply-adds inside math.log1p, only log1pf gives
// the same bits as everywhere else.
func log1pf(x float64) float64 {
	const (
		sqrt2M1     = 4.142135623730950488017e-01  // Sqrt(2)-1
		sqrt2HalfM1 = -2.928932188134524755992e-01 // Sqrt(2)/2-1
		small       = 1.0 / (1 << 29)              // 2**-29
		tiny        = 1.0 / (1 << 54)              // 2**-54
		two53       = 1 << 53                      // 2**53
	)
	switch {
	case x < -1 || math.IsNaN(x): // includes -Inf
		return math.NaN()
	case x == -1:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return math.Inf(1)
	}
	absx := math.Abs(x)
	var f float64
	var iu uint64
	k := 1
	if absx < sqrt2M1 {
		if absx < small {
			if absx < tiny {
				return x
			}
			return x - float64(float64(x*x)*0.5)
		}
		if x > sqrt2HalfM1 {
			k, f, iu = 0, x, 1
		}
	}
	var c float64
	if k != 0 {
		var u float64
		if absx < two53 {
			u = 1.0 + x
			iu = math.Float64bits(u)
			k = int((iu >> 52) - 1023)
			if k > 0 { // correction term
				c = 1.0 - (u - x)
			} else {
				c = x - (u - 1.0)
			}
			c /= u
		} else {
			u = x
			iu = math.Float64bits(u)
			k = int((iu >> 52) - 1023)
			c = 0
		}
		iu &= 0x000fffffffffffff
		if iu < 0x0006a09e667f3bcd { // mantissa of Sqrt(2)
			u = math.Float64frombits(iu | 0x3ff0000000000000) // normalize u
		} else {
			k++
			u = math.Float64frombits(iu | 0x3fe0000000000000) // normalize u/2
			iu = (0x0010000000000000 - iu) >> 2
		}
		f = u - 1.0 // Sqrt(2)/2 < u < Sqrt(2)
	}
	fk := float64(k)
	hfsq := float64(float64(0.5*f) * f)
	if iu == 0 { // |f| < 2**-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += float64(fk * ln2Lo)
			return float64(fk*ln2Hi) + c
		}
		r := float64(hfsq * (1.0 - float64(0.66666666666666666*f)))
		if k == 0 {
			return f - r
		}
		return float64(fk*ln2Hi) - ((r - (float64(fk*ln2Lo) + c)) - f)
	}
	s := f / (2.0 + f)
	z := float64(s * s)
	p := lg6 + float64(z*lg7) // Horner, as math.log1p: z*(lg1 + z*(lg2 + … z*lg7))
	p = lg5 + float64(z*p)
	p = lg4 + float64(z*p)
	p = lg3 + float64(z*p)
	p = lg2 + float64(z*p)
	p = lg1 + float64(z*p)
	r := float64(z * p)
	if k == 0 {
		return f - (hfsq - float64(s*(hfsq+r)))
	}
	return float64(fk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + (float64(fk*ln2Lo) + c))) - f)
}
