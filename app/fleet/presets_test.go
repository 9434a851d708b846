package fleet

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"retrylab/core"
)

// presetFigures is what the simulator gives for a preset: the figures its
// caption's claims are checked against.
type presetFigures struct {
	s      Scenario
	st     Stats
	disp   float64
	waits  map[int][]time.Duration // the backoff and Retry-After waits (not the bucket's), by the attempt they wait for
	ra     map[string]int          // Retry-After values received, by value
	spikes []spike                 // sends in clusters: a gap of more than 100 ms starts the next
	sends  []time.Duration         // every attempt's send, from the start, in order
	// 429s (and 503s) by whole second of the run; the last arrival of a
	// job (its first attempt), from the start.
	limitedBy   map[int]int
	lastArrival time.Duration
	// After the scheduled outage (if any): the first send, and how many
	// workers sent within 100 ms of it.
	backAt      time.Duration
	backWorkers int
}

// spike is a cluster of sends: when it began, how many attempts it held,
// and how many of them succeeded.
type spike struct {
	at        time.Duration
	sends, ok int
}

func simulatePreset(t *testing.T, id string) presetFigures {
	t.Helper()
	p, ok := PresetByID(id)
	if !ok {
		t.Fatalf("no preset %q", id)
	}
	s := p.Scenario()
	rec := Simulate(s)
	if rec.Err != nil {
		t.Fatalf("%s: %v", id, rec.Err)
	}
	recs := rec.Records()
	f := presetFigures{
		s: s, st: StatsOf(rec.Start, recs), disp: Dispersion(recs, DispersionSlice),
		waits: map[int][]time.Duration{}, ra: map[string]int{}, limitedBy: map[int]int{},
	}
	type attemptKey struct{ w, j, a int }
	spikeOf := map[attemptKey]int{} // the spike each attempt was sent in
	out := s.OutageStretch()
	backWorkers := map[int]bool{}
	for _, r := range recs {
		e := &r.Event
		at := e.At.Sub(rec.Start)
		switch e.Kind {
		case core.EventWait:
			if e.Reason != core.ReasonBucket {
				f.waits[e.Attempt] = append(f.waits[e.Attempt], e.Wait)
			}
		case core.EventAttempt:
			if n := len(f.sends); n == 0 || at-f.sends[n-1] > 100*time.Millisecond {
				f.spikes = append(f.spikes, spike{at: at})
			}
			f.sends = append(f.sends, at)
			f.spikes[len(f.spikes)-1].sends++
			spikeOf[attemptKey{r.Worker, r.Job, e.Attempt}] = len(f.spikes) - 1
			if e.Attempt == 1 {
				f.lastArrival = max(f.lastArrival, at)
			}
			if out.To > 0 && at >= out.To {
				if f.backAt == 0 {
					f.backAt = at
				}
				if at <= f.backAt+100*time.Millisecond {
					backWorkers[r.Worker] = true
				}
			}
		case core.EventOutcome:
			switch Classify(e.Outcome) {
			case ClassOK:
				f.spikes[spikeOf[attemptKey{r.Worker, r.Job, e.Attempt}]].ok++
			case ClassLimited:
				f.limitedBy[int(at/time.Second)]++
			}
			if e.Outcome.Header != nil {
				if v := e.Outcome.Header.Get("Retry-After"); v != "" {
					f.ra[v]++
				}
			}
		}
	}
	f.backWorkers = len(backWorkers)
	return f
}

// peakClosed is the most sends in any closed window [t, t+d].
func (f *presetFigures) peakClosed(d time.Duration) int {
	best, j := 0, 0
	for i := range f.sends {
		for j < len(f.sends) && f.sends[j] <= f.sends[i]+d {
			j++
		}
		best = max(best, j-i)
	}
	return best
}

// Every claim a preset's caption makes with a number, or a comparison with
// another preset, holds for what Simulate gives for the presets. Each row
// names the words of the caption it checks: a caption that no longer says
// them fails here, to be checked again and its row updated; a preset (or a
// simulator) change that makes the words false fails its check. Full
// jitter's caption said the run "drains in little more than half the
// time": 13.55 s against the flood's 18.55 s, 73%.
func TestPresetCaptionsMatchSimulation(t *testing.T) {
	figs := map[string]presetFigures{}
	for _, p := range Presets {
		figs[p.ID] = simulatePreset(t, p.ID)
	}
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	claims := []struct {
		preset, claim string
		check         func(f presetFigures) error
	}{
		{"flood", "waits exactly 2 s", func(f presetFigures) error {
			for a, ws := range f.waits {
				for _, w := range ws {
					if w != 2*time.Second {
						return fmt.Errorf("a wait before attempt %d of %v", a, w)
					}
				}
			}
			return nil
		}},
		{"flood", "a spike every 2 s", func(f presetFigures) error {
			// 2 s of wait after an answer that takes the mock's 50 ms.
			for i := 1; i < len(f.spikes); i++ {
				if gap := f.spikes[i].at - f.spikes[i-1].at; gap < 2*time.Second || gap > 2100*time.Millisecond {
					return fmt.Errorf("spikes %v apart (%v)", gap, f.spikes)
				}
			}
			return nil
		}},
		{"flood", "the limit lets about 10 through", func(f presetFigures) error {
			for _, sp := range f.spikes {
				if sp.ok < 9 || sp.ok > 11 {
					return fmt.Errorf("%d of the %d attempts sent at %v succeeded", sp.ok, sp.sends, sp.at)
				}
			}
			return nil
		}},
		{"exponential", "Waits double (0.2 s, 0.4 s, 0.8 s … up to 10 s)", func(f presetFigures) error {
			for a, ws := range f.waits {
				want := min(100*time.Millisecond<<(a-1), 10*time.Second)
				for _, w := range ws {
					if w != want {
						return fmt.Errorf("a wait before attempt %d of %v, want %v", a, w, want)
					}
				}
			}
			if len(f.waits[2]) == 0 || len(f.waits[4]) == 0 {
				return fmt.Errorf("no second or fourth attempt: %v", f.waits)
			}
			return nil
		}},
		{"exponential", "the spikes just move further apart", func(f presetFigures) error {
			var big []time.Duration // spikes of at least 20 attempts
			for _, sp := range f.spikes {
				if sp.sends >= 20 {
					big = append(big, sp.at)
				}
			}
			for i := 2; i < len(big); i++ {
				if big[i]-big[i-1] <= big[i-1]-big[i-2] {
					return fmt.Errorf("spikes of 20 attempts or more at %v", big)
				}
			}
			if len(big) < 5 {
				return fmt.Errorf("only %d spikes of 20 attempts or more", len(big))
			}
			return nil
		}},
		{"exponential", "the run takes even longer", func(f presetFigures) error {
			if flood := figs["flood"].st.Drain; f.st.Drain <= flood {
				return fmt.Errorf("drains in %v, the flood in %v", f.st.Drain, flood)
			}
			return nil
		}},
		{"full-jitter", "retries spread out instead of arriving in spikes", func(f presetFigures) error {
			if flood, expo := figs["flood"].disp, figs["exponential"].disp; f.disp > flood/2 || f.disp > expo/2 {
				return fmt.Errorf("dispersion %.1f (flood %.1f, exponential %.1f)", f.disp, flood, expo)
			}
			return nil
		}},
		{"full-jitter", "(their dispersion falls to about a quarter of the flood's)", func(f presetFigures) error {
			if r := f.disp / figs["flood"].disp; r < 0.15 || r > 0.35 {
				return fmt.Errorf("dispersion %.1f, %.0f%% of the flood's %.1f", f.disp, 100*r, figs["flood"].disp)
			}
			return nil
		}},
		{"full-jitter", "in about three quarters of the flood's time", func(f presetFigures) error {
			if r := ratio(f.st.Drain, figs["flood"].st.Drain); r < 0.7 || r > 0.8 {
				return fmt.Errorf("drains in %v, %.0f%% of the flood's %v", f.st.Drain, 100*r, figs["flood"].st.Drain)
			}
			return nil
		}},
		{"full-jitter", "under two thirds of exponential's", func(f presetFigures) error {
			if r := ratio(f.st.Drain, figs["exponential"].st.Drain); r >= 2.0/3 {
				return fmt.Errorf("drains in %v, %.0f%% of exponential's %v", f.st.Drain, 100*r, figs["exponential"].st.Drain)
			}
			return nil
		}},
		{"full-jitter", "The busiest second gets busier", func(f presetFigures) error {
			if flood, expo := figs["flood"].st.PeakRPS, figs["exponential"].st.PeakRPS; f.st.PeakRPS <= max(flood, expo) {
				return fmt.Errorf("peak %d req/s (flood %d, exponential %d)", f.st.PeakRPS, flood, expo)
			}
			return nil
		}},
		{"full-jitter", "the first waits are guesses of 0–0.2 s", func(f presetFigures) error {
			for _, w := range f.waits[2] {
				if w < 0 || w > 200*time.Millisecond {
					return fmt.Errorf("a first wait of %v", w)
				}
			}
			return nil
		}},
		{"retry-after", "(Retry-After: 1)", func(f presetFigures) error {
			if len(f.ra) != 1 || f.ra["1"] == 0 {
				return fmt.Errorf("Retry-After values %v", f.ra)
			}
			return nil
		}},
		{"retry-after", "plus up to 1 s of spread", func(f presetFigures) error {
			for a, ws := range f.waits {
				for _, w := range ws {
					if w < time.Second || w >= 2*time.Second {
						return fmt.Errorf("a wait before attempt %d of %v", a, w)
					}
				}
			}
			return nil
		}},
		{"retry-after", "over a third fewer 429s than full jitter", func(f presetFigures) error {
			full := figs["full-jitter"].st.Limited
			if fewer := 1 - float64(f.st.Limited)/float64(full); fewer < 1.0/3 || fewer >= 0.5 {
				return fmt.Errorf("%d 429s, full jitter %d: %.0f%% fewer", f.st.Limited, full, 100*fewer)
			}
			return nil
		}},
		{"outage", "the server goes down from 3 s to 6 s", func(f presetFigures) error {
			if o := f.s.OutageStretch(); o.From != 3*time.Second || o.To != 6*time.Second {
				return fmt.Errorf("outage %v–%v", o.From, o.To)
			}
			return nil
		}},
		{"outage", "the fleet returns in a herd (simulated, all 50 workers within a tenth of a second", func(f presetFigures) error {
			if f.s.Workers != 50 || f.backWorkers != f.s.Workers || f.backAt > 6500*time.Millisecond {
				return fmt.Errorf("%d of %d workers sent within 100 ms of %v", f.backWorkers, f.s.Workers, f.backAt)
			}
			return nil
		}},
		{"outage", "is told “1” and returns in step again", func(f presetFigures) error {
			// Apart from the outage's own answers, the seconds left (3 at
			// 3.15 s and 3.2 s), every rejection says 1 s.
			if len(f.ra) != 2 || f.ra["1"] == 0 || f.ra["3"] == 0 {
				return fmt.Errorf("Retry-After values %v", f.ra)
			}
			if flood := figs["flood"].disp; f.disp < flood/2 {
				return fmt.Errorf("dispersion %.1f (flood %.1f)", f.disp, flood)
			}
			return nil
		}},
		{"bucket", "starts 8 attempts per second, under the server's 10", func(f presetFigures) error {
			if f.s.BucketRate != 8 || f.s.BucketCapacity != 1 || f.s.Mock.Rate != 10 {
				return fmt.Errorf("bucket %v/s of %v, server %v/s", f.s.BucketRate, f.s.BucketCapacity, f.s.Mock.Rate)
			}
			if p := f.peakClosed(time.Second); p != 9 || f.st.PeakRPS != 8 {
				return fmt.Errorf("at most %d sends in a closed second, %d in a half-open one", p, f.st.PeakRPS)
			}
			if n := len(f.sends); n < 2 || math.Abs(float64(n-1)/(f.sends[n-1]-f.sends[0]).Seconds()-8) > 0.01 {
				return fmt.Errorf("%d sends from %v to %v", n, f.sends[0], f.sends[n-1])
			}
			return nil
		}},
		{"bucket", "A second can hold 9 with the bucket's one saved token", func(f presetFigures) error {
			if p := f.peakClosed(time.Second); p != 9 {
				return fmt.Errorf("at most %d sends in a closed second", p)
			}
			return nil
		}},
		{"bucket", "No 429s, no retries", func(f presetFigures) error {
			if f.st.Limited != 0 || f.st.Retries != 0 {
				return fmt.Errorf("%d 429s, %d retries", f.st.Limited, f.st.Retries)
			}
			return nil
		}},
		{"open", "each worker gets one every 3 s", func(f presetFigures) error {
			if !f.s.Open || f.s.Every != 3*time.Second {
				return fmt.Errorf("open %v, every %v", f.s.Open, f.s.Every)
			}
			return nil
		}},
		{"open", "17 per second against a limit of 10", func(f presetFigures) error {
			if r := f.s.ArrivalRate(); math.Round(r) != 17 || f.s.Mock.Rate != 10 {
				return fmt.Errorf("%.2f jobs/s against %v/s", r, f.s.Mock.Rate)
			}
			return nil
		}},
		{"open", "after the first second, 429s come in every second while the arrivals last and for seconds after", func(f presetFigures) error {
			// The server's burst of 10 takes the first second's arrivals.
			last := int(f.lastArrival / time.Second)
			for sec := 1; sec <= last+2; sec++ {
				if f.limitedBy[sec] == 0 {
					return fmt.Errorf("no 429 in second %d (arrivals end at %v): %v", sec, f.lastArrival, f.limitedBy)
				}
			}
			return nil
		}},
		{"open", "the jobs in progress pile up past the 50 workers", func(f presetFigures) error {
			if f.s.Workers != 50 || f.st.PeakJobs <= f.s.Workers {
				return fmt.Errorf("%d jobs at once, %d workers", f.st.PeakJobs, f.s.Workers)
			}
			return nil
		}},
	}
	checked := map[string]bool{}
	for _, c := range claims {
		checked[c.preset] = true
		p, _ := PresetByID(c.preset)
		if !strings.Contains(p.Caption, c.claim) {
			t.Errorf("%s: the caption no longer says %q: check what it says now against the simulation and update this row\n%s", c.preset, c.claim, p.Caption)
			continue
		}
		if err := c.check(figs[c.preset]); err != nil {
			t.Errorf("%s: caption says %q, the simulation: %v", c.preset, c.claim, err)
		}
	}
	// A new preset's caption is checked too.
	for _, p := range Presets {
		if !checked[p.ID] {
			t.Errorf("preset %q: no claim of its caption is checked here", p.ID)
		}
	}
}
