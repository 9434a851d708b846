package ui

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// clearXSortFunc is clearX as it was with slices.SortFunc, the oracle of
// TestClearXAsWithSortFunc.
func clearXSortFunc(obs []rect, top, h, w, xlo, xhi, prefer, pad float64) (x float64, ok bool) {
	if xhi < xlo {
		return 0, false
	}
	type span struct{ a, b float64 }
	var busy []span
	for _, r := range obs {
		if r.y < top+h+pad && top-pad < r.y+r.h && r.x-pad < xhi+w && xlo < r.x+r.w+pad {
			busy = append(busy, span{r.x - pad, r.x + r.w + pad})
		}
	}
	slices.SortFunc(busy, func(p, q span) int { return cmp.Compare(p.a, q.a) })
	best, bestD := 0.0, math.Inf(1)
	gap := func(g0, g1 float64) {
		lo, hi := math.Max(g0, xlo), math.Min(g1-w, xhi)
		if hi < lo {
			return
		}
		c := math.Max(lo, math.Min(prefer, hi))
		if d := math.Abs(c - prefer); d < bestD {
			best, bestD = c, d
		}
	}
	at := math.Inf(-1)
	for _, b := range busy {
		if b.a > at {
			gap(at, b.a)
		}
		at = math.Max(at, b.b)
	}
	gap(at, math.Inf(1))
	return best, !math.IsInf(bestD, 1)
}

// TestClearXAsWithSortFunc: clearX, its spans ordered by sortStable, finds
// what it found with slices.SortFunc, on random rectangles (many beginning
// together, on a coarse grid) and widths.
func TestClearXAsWithSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		obs := make([]rect, r.IntN(40))
		grid := float64(1 + r.IntN(20))
		for i := range obs {
			obs[i] = rect{float64(r.IntN(30)) * grid, float64(r.IntN(10)) * 10, float64(r.IntN(8)) * grid, float64(1 + r.IntN(30))}
		}
		top, h, w := float64(r.IntN(100)), float64(1+r.IntN(20)), float64(r.IntN(100))
		xlo := float64(r.IntN(300)) - 50
		xhi := xlo + float64(r.IntN(400)) - 20
		prefer, pad := float64(r.IntN(500))-100, float64(r.IntN(3))
		x, ok := clearX(obs, top, h, w, xlo, xhi, prefer, pad)
		wx, wok := clearXSortFunc(obs, top, h, w, xlo, xhi, prefer, pad)
		if x != wx || ok != wok {
			t.Fatalf("clearX(%v, %v, %v, %v, %v, %v, %v, %v) = %v, %v; with SortFunc %v, %v", obs, top, h, w, xlo, xhi, prefer, pad, x, ok, wx, wok)
		}
	}
}
