package ui

import (
	"testing"

	"retrylab/app/fleet"
	"retrylab/core"
)

// BenchmarkDescribeRun: the screen-reader summary of a big simulation,
// made once in the render after it (the full-jitter preset at 10,000
// workers × 10 jobs: ~330,000 attempts).
func BenchmarkDescribeRun(b *testing.B) {
	s := fleet.Default()
	s.Workers, s.Jobs = 10000, 10
	s.Strategy = core.FullJitter
	rec := fleet.Simulate(s)
	st := rec.Stats()
	recs := rec.Records()
	bin := newLayout(1000, 1, wholeSpan(st.Drain), &normalTheme).slice // the histogram's at 1000 px
	b.ResetTimer()
	for range b.N {
		_ = describeRun(rec, st, recs, bin)
	}
	b.ReportMetric(float64(st.Requests), "attempts")
	b.ReportMetric(float64(len(recs)), "records")
}
