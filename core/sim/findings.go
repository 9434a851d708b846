package sim

import (
	"fmt"
	"strings"
)

// Finding is one published claim of the AWS post checked against results.
type Finding struct {
	Claim    string
	Holds    bool
	Evidence string // the numbers it was judged on
}

// AWSFindings checks the findings of "Exponential Backoff And Jitter" on
// results with the AWSCurves names (none, exponential, full, equal,
// decorrelated), at least two client counts, and 100 among them (else the
// count closest to 100 stands in):
//
//  1. Work grows faster than linearly with clients: for every curve, calls
//     per client rise from each client count to the next.
//  2. Exponential backoff without jitter has by far the worst completion
//     time: at every client count, at least 3 times the slowest other
//     curve.
//  3. Full and equal jitter do about the same work: their calls summed over
//     all client counts differ by less than 5%.
//  4. At 100 clients, full jitter needs less than half the calls of
//     exponential backoff without jitter.
//  5. Decorrelated jitter does more work than full jitter: more calls
//     summed over all client counts, and at every count from 50 clients.
//  6. Equal jitter takes noticeably longer than full jitter: at every client
//     count, at least 10% longer.
func AWSFindings(r *Results) []Finding {
	curves := []string{"none", "exponential", "full", "equal", "decorrelated"}
	for _, c := range curves {
		if _, ok := r.Point(c, r.Experiment.Clients[0]); !ok {
			return []Finding{{Claim: "the AWS curves are present", Evidence: "no curve named " + c}}
		}
	}
	clients := r.Experiment.Clients
	pt := func(c string, n int) Point { p, _ := r.Point(c, n); return p }
	calls := func(c string, n int) float64 { return pt(c, n).CallsMean }
	secs := func(c string, n int) float64 { return pt(c, n).CompletionMean.Seconds() }
	sum := func(c string) float64 {
		s := 0.0
		for _, n := range clients {
			s += calls(c, n)
		}
		return s
	}
	n100 := clients[0]
	for _, n := range clients {
		if abs(n-100) < abs(n100-100) {
			n100 = n
		}
	}
	first, last := clients[0], clients[len(clients)-1]
	var out []Finding

	// 1.
	f := Finding{Claim: "work grows faster than linearly with clients", Holds: len(clients) >= 2}
	var ev []string
	for _, c := range curves {
		for i := 1; i < len(clients); i++ {
			if calls(c, clients[i])/float64(clients[i]) <= calls(c, clients[i-1])/float64(clients[i-1]) {
				f.Holds = false
				ev = append(ev, fmt.Sprintf("%s: calls per client fall from %d to %d clients", c, clients[i-1], clients[i]))
			}
		}
		ev = append(ev, fmt.Sprintf("%s %.1f→%.1f", c, calls(c, first)/float64(first), calls(c, last)/float64(last)))
	}
	f.Evidence = fmt.Sprintf("calls per client from %d to %d clients: ", first, last) + strings.Join(ev, ", ")
	out = append(out, f)

	// 2.
	f = Finding{Claim: "exponential backoff without jitter has by far the worst completion time", Holds: true}
	worst := 1e300
	for _, n := range clients {
		other := 0.0
		for _, c := range curves {
			if c != "exponential" {
				other = max(other, secs(c, n))
			}
		}
		ratio := secs("exponential", n) / other
		worst = min(worst, ratio)
		if ratio < 3 {
			f.Holds = false
		}
	}
	f.Evidence = fmt.Sprintf("at least %.1f× the slowest other curve at every client count (at %d clients: %.1f s vs %.1f s for full jitter)",
		worst, n100, secs("exponential", n100), secs("full", n100))
	out = append(out, f)

	// 3.
	ratio := sum("equal") / sum("full")
	out = append(out, Finding{Claim: "full and equal jitter do about the same work", Holds: ratio > 0.95 && ratio < 1.05,
		Evidence: fmt.Sprintf("equal/full calls over all points: %.3f (at %d clients %.0f vs %.0f)", ratio, n100, calls("equal", n100), calls("full", n100))})

	// 4.
	ratio = calls("full", n100) / calls("exponential", n100)
	out = append(out, Finding{Claim: fmt.Sprintf("at %d clients full jitter needs less than half the calls of exponential backoff", n100),
		Holds: ratio < 0.5, Evidence: fmt.Sprintf("%.0f vs %.0f calls: %.2f×", calls("full", n100), calls("exponential", n100), ratio)})

	// 5.
	ratio = sum("decorrelated") / sum("full")
	f = Finding{Claim: "decorrelated jitter does more work than full jitter", Holds: ratio > 1}
	for _, n := range clients {
		if n >= 50 && calls("decorrelated", n) <= calls("full", n) {
			f.Holds = false
		}
	}
	f.Evidence = fmt.Sprintf("decorrelated/full calls over all points: %.2f (at %d clients %.0f vs %.0f)", ratio, n100, calls("decorrelated", n100), calls("full", n100))
	out = append(out, f)

	// 6.
	f = Finding{Claim: "equal jitter takes noticeably longer than full jitter", Holds: true}
	least := 1e300
	for _, n := range clients {
		r := secs("equal", n) / secs("full", n)
		least = min(least, r)
		if r < 1.1 {
			f.Holds = false
		}
	}
	f.Evidence = fmt.Sprintf("at least %.2f× as long at every client count (at %d clients %.2f s vs %.2f s)", least, n100, secs("equal", n100), secs("full", n100))
	out = append(out, f)
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
