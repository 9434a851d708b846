package ui

import (
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/app/fleet"
)

// The histogram's numbers agree with the numbers' cards. Its bins of
// 250 or 500 ms drew each bar as a rate, count ÷ bin width, against a
// "req/s" axis: the budget's first wave of 109 requests in 250 ms was a
// bar cut and labelled "436, 89% rejected", in a run of 110 requests whose
// peak req/s card said 110. A bin shorter than a second is now counted:
// "Requests sent per 250 ms", its bars the requests in it (never more than
// the most sent in any 1 s, the peak card) and the limit lines scaled to
// it ("= 2.5 per 250 ms"). A bin of a second or more keeps req/s, its bar
// the average over the bin, again never above the peak card.
func TestHistogramAgreesWithTheCards(t *testing.T) {
	for _, c := range []struct {
		name, query string
		slice       time.Duration // the bins at 1,400 px
		unit, title string        // drawn at every size, the title at 1,400 px
		limit       string        // a limit line's label drawn at 1,400 px holds it
	}{
		{"budget", "budget=on&budget_size=10&budget_refill=0.1", 250 * time.Millisecond, "250 ms", "Requests sent per 250 ms", "= 2.5 per 250 ms"},
		{"fail503", "fail503=100&workers=5&jobs=1&limiter=none&attempts=3", 250 * time.Millisecond, "250 ms", "Requests sent per 250 ms", ""},
		{"hang, 1 s timeout", "rate=10&latency=50ms&hang=100&timeout=1s&workers=5&jobs=2&attempts=3", 500 * time.Millisecond, "500 ms", "Requests sent per 500 ms", "= 5 per 500 ms"},
		{"full jitter", "", time.Second, "req/s", "Requests sent per second", "server limit 10 req/s"},
	} {
		q, _ := url.ParseQuery(c.query)
		s, ferrs := fleet.FromQuery(q)
		if ferrs != nil {
			t.Fatal(ferrs)
		}
		rec := fleet.Simulate(s)
		v := newView()
		st, _ := v.load(s, rec, rec.Records())
		for _, sz := range frameSizes {
			name := c.name + ", " + sz.name
			o, l := paintView(v, sz)
			texts := o.Strings()
			all := "|" + strings.Join(texts, "|") + "|"
			if sz.width > 1000 && l.slice != c.slice {
				t.Errorf("%s: bins of %v, want %v", name, l.slice, c.slice)
			}
			if !strings.Contains(all, c.unit) {
				t.Errorf("%s: the unit %q not drawn: %s", name, c.unit, all)
			}
			if sz.width > 1000 {
				if !strings.Contains(all, "|"+c.title+"|") {
					t.Errorf("%s: the title %q not drawn: %s", name, c.title, all)
				}
				if c.limit != "" && !strings.Contains(all, c.limit) {
					t.Errorf("%s: no limit label with %q: %s", name, c.limit, all)
				}
				// The title's note names scaled limits only where one is
				// drawn: with none it named limits not there (a review).
				if said := strings.Contains(all, "limits scaled to "+c.unit); l.ratePer < 1 && said != (c.limit != "") {
					t.Errorf("%s: the note says the limits are scaled: %v, with a limit line %v: %s", name, said, c.limit != "", all)
				}
			}
			if l.slice < time.Second && strings.Contains(all, "req/s|") {
				t.Errorf("%s: bins of %v with a req/s axis: %s", name, l.slice, all)
			}
			// Every bar's value in the axis' unit, and the scale's top.
			for i, b := range v.m.histogram(l.slice, 0, l.bins()) {
				n := 0
				for _, k := range b {
					n += k
				}
				val := float64(n) * float64(time.Second) / float64(l.slice) * l.ratePer
				if l.slice <= time.Second && val > float64(st.Requests) {
					t.Errorf("%s: the bar at %v reads %g, more than the run's %d requests", name, time.Duration(i)*l.slice, val, st.Requests)
				}
				if l.ratePer == 1 || l.slice <= time.Second {
					if val > float64(st.PeakRPS)+1e-9 {
						t.Errorf("%s: the bar at %v reads %g, over the peak card's %d", name, time.Duration(i)*l.slice, val, st.PeakRPS)
					}
				}
				if l.slice < time.Second && val != float64(n) {
					t.Errorf("%s: the bar at %v of %d requests reads %g", name, time.Duration(i)*l.slice, n, val)
				}
			}
			// A cut bar's value is its count.
			for _, cb := range cutBins(v.m, &l) {
				if l.slice >= time.Second {
					continue
				}
				want := strconv.Itoa(cb.n)
				found := false
				for _, s := range texts {
					if s == want || strings.HasPrefix(s, want+",") {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: the cut bar at %v (%d requests) does not say %s: %s", name, time.Duration(cb.i)*l.slice, cb.n, want, all)
				}
			}
		}
	}
}

// A limit line's label in bins under a second says what the line is in
// the bin, down to a phone's fewest words; in bins of a second or more it
// is the label as it was.
func TestLimitTextsScaleToTheBin(t *testing.T) {
	for _, c := range []struct {
		span  time.Duration // the layout's: its bins
		label string
		rate  float64
		want  []string
	}{
		{2 * time.Second, "server limit 10 req/s (burst 10)", 10, []string{"server limit 10 req/s = 2.5 per 250 ms (burst 10)", "server limit 10 req/s = 2.5 per 250 ms", "limit 10 req/s = 2.5 per 250 ms", "limit 2.5 per 250 ms"}},
		{5 * time.Second, "server limit 5 per 1 s", 5, []string{"server limit 5 per 1 s = 2.5 per 500 ms", "limit 5 per 1 s = 2.5 per 500 ms", "limit 2.5 per 500 ms"}},
		{2 * time.Second, "fleet bucket 8 req/s", 8, []string{"fleet bucket 8 req/s = 2 per 250 ms", "bucket 8 req/s = 2 per 250 ms", "bucket 2 per 250 ms"}},
		{2 * time.Second, "server limit 10 req/s (burst 10) as set here; devices asked for others", 10, []string{"server limit 10 req/s = 2.5 per 250 ms (burst 10) as set here; devices asked for others", "server limit 10 req/s = 2.5 per 250 ms", "limit 10 req/s = 2.5 per 250 ms", "limit 2.5 per 250 ms"}},
		{20 * time.Second, "server limit 10 req/s (burst 10)", 10, []string{"server limit 10 req/s (burst 10)", "server limit 10 req/s", "limit 10 req/s"}},
	} {
		l := newLayout(1000, 3, c.span, &normalTheme)
		if got := limitTexts(&l, c.label, c.rate); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q in %v bins: %q, want %q", c.label, l.slice, got, c.want)
		}
	}
}

// Counted, the axis' middle is a whole number of requests: a top of 5
// per 250 ms had "2.5" in the middle.
func TestCountedAxisTicksAreWhole(t *testing.T) {
	for _, c := range []struct {
		span time.Duration
		top  float64 // in the axis' unit
		want []float64
	}{
		{2 * time.Second, 5, []float64{0, 2, 5}},
		{2 * time.Second, 10, []float64{0, 5, 10}},
		{2 * time.Second, 1, []float64{0, 1}},
		{2 * time.Second, 15, []float64{0, 7, 15}},
		{20 * time.Second, 5, []float64{0, 2.5, 5}}, // req/s: a rate may be 2.5
	} {
		l := newLayout(1000, 3, c.span, &normalTheme)
		l.histMax = c.top / l.ratePer
		var got []float64
		for _, v := range histTicks(&l) {
			got = append(got, math.Round(v*l.ratePer*1e6)/1e6)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("bins of %v, top %g: ticks %v, want %v", l.slice, c.top, got, c.want)
		}
	}
}
