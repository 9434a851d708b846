package ui

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortStableIsSortStableFunc: sortStable orders indices as
// slices.SortStableFunc does, ties (many: keys from a small range) in their
// order, for lengths around its runs and merges.
func TestSortStableIsSortStableFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200; n++ {
		for _, keys := range []int{1, 3, 1000} {
			key := make([]int, n)
			for i := range key {
				key[i] = r.IntN(keys)
			}
			ix := r.Perm(n)
			want := slices.Clone(ix)
			slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
			sortStable(ix, func(a, b int) bool { return key[a] < key[b] })
			if !slices.Equal(ix, want) {
				t.Fatalf("n=%d keys<%d: %v, want %v", n, keys, ix, want)
			}
		}
	}
}
