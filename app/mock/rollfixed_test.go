package mock

import "testing"

// SeededRolls is a fixed function: the server rolls with it natively and
// the page's simulator in WebAssembly, and both must roll alike for one
// seed and tag, so its values are pinned here and this test runs on both
// (make wasmtest).
func TestSeededRollsArePinned(t *testing.T) {
	for _, tc := range []struct {
		seed         uint64
		key, tag     string
		seq          uint64
		fail, spread float64
	}{
		{1, "", "w0.j0.a1", 0, 0.7257375370984562, 0.15664818646727996},
		{5, "run-a", "w3.j0.a2", 0, 0.040473865379320184, 0.5005501460378143},
		{18446744073709551615, "", "w9999.j999.a1000", 0, 0.9524833859611576, 0.49104503756722784},
		{7, "try-me", "", 3, 0.930289268872598, 0.5824817548356349},
	} {
		if f, s := SeededRolls(tc.seed, tc.key, tc.tag, tc.seq); f != tc.fail || s != tc.spread {
			t.Errorf("SeededRolls(%d, %q, %q, %d) = %v, %v; want %v, %v", tc.seed, tc.key, tc.tag, tc.seq, f, s, tc.fail, tc.spread)
		}
	}
}
