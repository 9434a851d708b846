package mock

import "retrylab/core"

// This file is compiled for the browser too: the simulator in the page
// rolls each attempt's injected failure and spread with SeededRolls, as
// the endpoint does.

// SeededRolls are the two numbers in [0, 1) a request with a seed rolls:
// for its injected failure and for its latency spread. They are a fixed
// function of the seed and the tag, so the same attempt (the page tags
// each "w3.j0.a2") rolls the same in every run with that seed, whatever
// the order requests arrive in and whatever the run's key, and in the
// simulator (app/fleet's SimEndpoint rolls each attempt with its tag); a
// request without a tag (curl; a burst's, which are all tagged "burst")
// rolls by its key and seq instead, so a fresh key's sequence of requests
// is reproducible. Nearby inputs give unrelated numbers.
func SeededRolls(seed uint64, key, tag string, seq uint64) (fail, spread float64) {
	const golden = 0x9e3779b97f4a7c15
	h := core.Mix64(seed + golden)
	if tag != "" {
		h = hashString(h, tag)
	} else {
		h = core.Mix64(hashString(h^golden, key) + golden*seq) // ^golden: a key never rolls as the tag of the same text
	}
	return unit(core.Mix64(h + 1)), unit(core.Mix64(h + 2))
}

// hashString folds s into h, FNV-1a style, and mixes the result.
func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 0x100000001b3
	}
	return core.Mix64(h ^ uint64(len(s)))
}

// unit is a number in [0, 1) from the top 53 bits of z.
func unit(z uint64) float64 { return float64(z>>11) / (1 << 53) }
