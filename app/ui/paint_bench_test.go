package ui

import (
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// BenchmarkPaint: a whole frame of the timeline of a simulated full
// jitter run of 500 workers × 2 jobs (~13,000 records), at 1000 and 390
// px, with no faults and with a burst every half second of its first 8 s
// (a live run paints its histogram and labels at every frame).
func BenchmarkPaint(b *testing.B) {
	s := fleet.Default()
	s.Workers, s.Jobs = 500, 2
	s.Strategy = core.FullJitter
	rec := fleet.Simulate(s)
	recs := rec.Records()
	for _, bursts := range []int{0, 16} {
		m := newModelFor(rec.Start, s.Workers, recs)
		for i := range recs {
			m.add(&recs[i])
		}
		for i := range bursts {
			m.serverEvent(&mock.Event{Type: "burst", At: rec.Start.Add(time.Duration(i) * 500 * time.Millisecond), N: 20, Admitted: 3})
		}
		lim := limitsOf(&s)
		for _, w := range []float64{1000, 390} {
			l := newLayout(w, s.Workers, wholeSpan(m.last), &normalTheme)
			name := map[int]string{0: "no-faults", 16: "16-bursts"}[bursts] + "/" + map[float64]string{1000: "1000px", 390: "390px"}[w]
			b.Run(name, func(b *testing.B) {
				var o browser.Ops
				for range b.N {
					o.Reset()
					paint(&o, &l, m, frameInput{th: &normalTheme, lim: lim})
				}
			})
		}
	}
}
