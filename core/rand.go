package core

import "math/rand/v2"

// Rand is the randomness the policies consume: Float64 returns a number in
// [0, 1). *math/rand/v2.Rand satisfies it; NewRand returns one.
//
// Every Loop should have its own Rand. Sharing one between goroutines makes
// each loop's draws depend on goroutine scheduling, so a run would no longer
// be reproducible from its seed (and a *rand.Rand is not safe for concurrent
// use anyway).
type Rand interface{ Float64() float64 }

// pcgStream is the fixed second PCG word; the seed picks the first.
const pcgStream = 0x5265747279204c61 // "Retry La"

// NewRand returns a PCG-seeded generator. The same seed gives the same
// sequence on every platform (amd64, arm64, js/wasm).
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, pcgStream))
}

// PCG is the generator NewRand wraps, as a Rand of its own: NewPCG(seed)
// draws exactly the numbers NewRand(seed).Float64 draws, without the
// *rand.Rand indirection. Not safe for concurrent use. Create it with
// NewPCG: the zero PCG draws too, but not the numbers of NewPCG(0).
type PCG struct{ src rand.PCG }

// NewPCG returns the generator for seed (see PCG).
func NewPCG(seed uint64) *PCG {
	p := &PCG{}
	p.src.Seed(seed, pcgStream)
	return p
}

// Float64 returns a number in [0, 1), as math/rand/v2's Rand.Float64 does.
func (p *PCG) Float64() float64 {
	return float64(p.src.Uint64()<<11>>11) / (1 << 53)
}

// SubSeed derives the seed for one worker's job from a run's seed:
//
//	rng := core.NewRand(core.SubSeed(runSeed, worker, job))
//
// It is a fixed function (two rounds of the SplitMix64 finaliser), so the
// page and the simulator give worker w's job j the same random numbers for
// the same run seed, whatever order the goroutines run in. Pass job 0 when a
// worker keeps one Rand for all its jobs. Nearby inputs give unrelated
// outputs.
func SubSeed(seed uint64, worker, job int) uint64 {
	const golden = 0x9e3779b97f4a7c15
	h := Mix64(seed + golden*(uint64(worker)+1))
	return Mix64(h ^ (golden * (uint64(job) + 1)))
}

// Mix64 is the SplitMix64 finaliser: z's bits mixed into a 64-bit hash,
// each input bit flipping each output bit with probability about 1/2.
// SubSeed derives seeds with it, and the mock endpoint its rolls.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
