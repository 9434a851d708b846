//go:build e2e

package tests

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkLiveRerunNoise: how far apart two live runs of the same
// settings come, one after the other, in one page: each step of the story
// run live six times, and for each number the relative change between
// consecutive runs. The page's compare view does not judge a change from
// a baseline within the largest of these when either run is live
// (liveNoise in app/ui/compare.go, which cites these figures). Prints
// each step's runs and, over all steps, the median, p90 and largest
// change per number; reports the largest.
func BenchmarkLiveRerunNoise(b *testing.B) {
	srv := startServer(b)
	ctx, _ := newBrowser(b)
	boot(b, ctx, srv.URL+"/")
	time.Sleep(5 * time.Second) // the page's rehearsal, as a person reads it first
	names := []string{"requests", "successes", "limited", "failures", "wasted_per_success", "peak_rps", "amplification",
		"completion_p50_ms", "completion_p99_ms", "drain_ms", "give_ups", "dispersion"}
	changes := map[string][]float64{}
	for _, id := range []string{"flood", "exponential", "full-jitter", "retry-after", "bucket"} {
		click(b, ctx, "preset-"+id)
		var runs []map[string]float64
		for range 6 {
			runs = append(runs, runToEnd(b, ctx, 3*time.Minute).Stats)
		}
		for _, n := range names {
			var vals []string
			for i, r := range runs {
				vals = append(vals, fmt.Sprintf("%.4g", r[n]))
				if a := runs[max(i-1, 0)][n]; i > 0 && a != 0 {
					changes[n] = append(changes[n], math.Abs(r[n]-a)/a)
				}
			}
			fmt.Printf("live reruns, %s, %s: %s\n", id, n, strings.Join(vals, " "))
		}
	}
	for _, n := range names {
		c := changes[n]
		if len(c) == 0 {
			continue
		}
		sort.Float64s(c)
		q := func(p float64) float64 { return 100 * c[int(math.Ceil(p*float64(len(c))))-1] }
		fmt.Printf("live reruns, %s: change between consecutive runs over %d pairs: median %.1f%%, p90 %.1f%%, largest %.1f%%\n", n, len(c), q(0.5), q(0.9), q(1))
		b.ReportMetric(q(1), n+"-largest-%")
	}
}
