package ui

// sortStable sorts the indices ix by less, keeping the order of those
// neither is less than the other, as slices.SortStableFunc does: a
// bottom-up merge sort, in time n·log n. Not generic: each element type
// slices.SortStableFunc was instantiated for (int, fleet.Class) cost app.wasm
// ~6.5 KB of code.
func sortStable(ix []int, less func(a, b int) bool) {
	const run = 8 // sorted by insertion first
	n := len(ix)
	for lo := 0; lo < n; lo += run {
		hi := min(lo+run, n)
		for i := lo + 1; i < hi; i++ {
			for j := i; j > lo && less(ix[j], ix[j-1]); j-- {
				ix[j], ix[j-1] = ix[j-1], ix[j]
			}
		}
	}
	if n <= run {
		return
	}
	buf := make([]int, n)
	src, dst := ix, buf
	for w := run; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(lo+w, n), min(lo+2*w, n)
			i, j, k := lo, mid, lo
			for ; i < mid && j < hi; k++ {
				if less(src[j], src[i]) { // the right one only when strictly less: stable
					dst[k], j = src[j], j+1
				} else {
					dst[k], i = src[i], i+1
				}
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &ix[0] {
		copy(ix, src)
	}
}
