package ui

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestClearXIsTheFreeGapNearestPreferred: on random rectangles (many
// beginning together, on a coarse grid) and widths, clearX's place is
// clear of every obstacle in its row band, within [xlo, xhi], and no
// other whole-pixel place there is nearer prefer; and the order of the
// obstacles changes nothing (its spans are put in order by sortStable,
// which replaced slices.SortFunc to keep app.wasm smaller).
func TestClearXIsTheFreeGapNearestPreferred(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	clear := func(obs []rect, top, h, w, pad, x float64) bool {
		for _, o := range obs {
			if o.y < top+h+pad && top-pad < o.y+o.h && o.x-pad < x+w && x < o.x+o.w+pad {
				return false
			}
		}
		return true
	}
	for range 5000 {
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
		what := func() string {
			return "clearX(obs, top " + trimFloat(top) + ", h " + trimFloat(h) + ", w " + trimFloat(w) + ", xlo " + trimFloat(xlo) + ", xhi " + trimFloat(xhi) + ", prefer " + trimFloat(prefer) + ")"
		}
		if ok && (x < xlo || x > xhi || !clear(obs, top, h, w, pad, x)) {
			t.Fatalf("%s = %v: outside [xlo, xhi] or on an obstacle (%v)", what(), x, obs)
		}
		// No whole-pixel place nearer prefer is clear (the gaps' ends are
		// whole here: every coordinate is).
		for c := math.Ceil(xlo); c <= xhi; c++ {
			if clear(obs, top, h, w, pad, c) && (!ok || math.Abs(c-prefer) < math.Abs(x-prefer)) {
				t.Fatalf("%s = %v, %v; %v is clear and nearer (%v)", what(), x, ok, c, obs)
			}
		}
		// The obstacles in another order: the same place.
		shuffled := append([]rect(nil), obs...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if x2, ok2 := clearX(shuffled, top, h, w, xlo, xhi, prefer, pad); x2 != x || ok2 != ok {
			t.Fatalf("%s = %v, %v; with the obstacles shuffled %v, %v", what(), x, ok, x2, ok2)
		}
	}
}
