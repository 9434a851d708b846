package ui

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// How the page writes numbers for people: counts, shares, ratios, rates
// and durations, one place for each, on the cards, in tooltips, in the
// canvas's labels and in the screen-reader summary alike.

// thousands writes n with comma separators: 10,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// wholePercent is n of tot in whole percent: "40%"; "<1%" for a few, and
// at most "99%" while some are not n.
func wholePercent(n, tot int) string {
	pct := math.Round(float64(n) / float64(max(tot, 1)) * 100)
	switch {
	case n > 0 && pct < 1:
		return "<1%"
	case pct >= 100 && n < tot:
		pct = 99
	}
	return strconv.FormatFloat(pct, 'f', -1, 64) + "%"
}

// percentOf is n of tot in percent to one decimal, as the cards write a
// share: "77.8%", "5.0%"; "0%" for none and "100%" for all, "<0.1%" for a
// few and at most "99.9%" while some are not n. (Two decimals trimmed of
// their zeros wrote "75.55%" beside "5%" and "75.5%": a review.)
func percentOf(n, tot int) string {
	switch {
	case n <= 0 || tot <= 0:
		return "0%"
	case n >= tot:
		return "100%"
	}
	pct := math.Round(float64(n)/float64(tot)*1000) / 10
	switch {
	case pct < 0.1:
		return "<0.1%"
	case pct > 99.9:
		pct = 99.9
	}
	return strconv.FormatFloat(pct, 'f', 1, 64) + "%"
}

// trimFloat formats f with at most two decimals and no trailing zeros.
func trimFloat(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

// rateText formats a rate in req/s as trimFloat does, with the digits a
// rate under 0.1 needs to keep three significant ones (a limit of 0.001
// req/s, a long run's scale of 0.005): two decimals would write 0 or
// double it.
func rateText(f float64) string {
	if a := math.Abs(f); a == 0 || a >= 0.1 || math.IsNaN(a) || math.IsInf(a, 0) {
		return trimFloat(f)
	}
	prec := 2 - int(math.Floor(math.Log10(math.Abs(f))))
	s := strconv.FormatFloat(f, 'f', prec, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// short is a count as a number's card writes it: whole up to 9,999, and
// from 10,000 in three significant figures, "12.3k", "300k", "9.87M" (the
// card's tooltip has it whole, stat.Exact and stat.Full). A card 119 px
// wide holds five characters of its number in presentation mode, and two
// lines of its figures hold two of them: "300,000" ran past its card at
// 800 to 1280 px, "18,692" in presentation mode at 1024 px, and the other
// failures' "and 133,747 timeouts · 46,964 cut at the limit" was cut.
func short(n int) string { return shortFloat(float64(n)) }

// shortFloat is a number as a card writes it, in at most five characters:
// a ratio to two decimals under 100 ("2.37"), whole under 10,000 ("260",
// where trimFloat wrote "260.23"; "1,235"), and beyond in three figures,
// as short does ("300k", where trimFloat wrote "299999.5"). A tenth above
// 100, "493.2", was wider than its card in presentation mode at 350–375
// px, where "10.83", its ones narrow, fits.
func shortFloat(f float64) string {
	a := math.Abs(f)
	switch {
	case a < 99.995:
		return trimFloat(f)
	case a < 9999.5:
		return thousands(int(math.Round(f)))
	}
	unit := "k"
	for _, u := range "MB" { // a thousand of the unit or more (999,999 is 1M, not 1000k)
		if math.Round(a/1e3) < 1e3 {
			break
		}
		a, unit = a/1e3, string(u)
	}
	a /= 1e3
	prec := 0
	switch {
	case a < 9.995:
		prec = 2
	case a < 99.95:
		prec = 1
	}
	t := strconv.FormatFloat(a, 'f', prec, 64)
	if prec > 0 {
		t = strings.TrimSuffix(strings.TrimRight(t, "0"), ".")
	}
	if f < 0 {
		t = "-" + t
	}
	return t + unit
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fmtSeconds is an offset from the run's start: "2.104 s".
func fmtSeconds(d time.Duration) string { return secondsTo(d, 3) }

// secondsTo is d in seconds with the given decimals: "3.2 s" with one, for
// a replay's playhead, which moves too fast for milliseconds.
func secondsTo(d time.Duration, decimals int) string {
	return strconv.FormatFloat(d.Seconds(), 'f', decimals, 64) + " s"
}

// fmtDur is a duration for people: "850 µs", "12.3 ms", "1.25 s",
// "2 min 5 s", "3 h 20 min", "4 d 2 h", "292 years". Past a minute it
// rounds to its two largest units (1m29.7s is "1 min 30 s"), and leaves
// out a second one that rounds to 0 ("2 min").
func fmtDur(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	// Each unit up to where it would round to the next one's: 152.99998 ms
	// is "153 ms" (the export's 153, not "152"), 999.7 ms "1 s", 59.996 s
	// "1 min", not "60 s".
	case d < time.Millisecond-time.Microsecond/2:
		s = strconv.FormatInt(d.Round(time.Microsecond).Microseconds(), 10) + " µs"
	case d < 100*time.Millisecond-50*time.Microsecond:
		s = strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + " ms"
	case d < time.Second-time.Millisecond/2:
		s = strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + " ms"
	case d < time.Minute-5*time.Millisecond:
		s = strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(d.Seconds(), 'f', 2, 64), "0"), ".") + " s"
	case d < time.Hour-time.Second/2:
		s = twoUnits(d, time.Minute, "min", time.Second, "s")
	case d < 24*time.Hour-time.Minute/2:
		s = twoUnits(d, time.Hour, "h", time.Minute, "min")
	case d < 365*24*time.Hour-time.Hour/2:
		s = twoUnits(d, 24*time.Hour, "d", time.Hour, "h")
	default:
		y, prec := d.Hours()/(365.25*24), 0
		if y < 10 {
			prec = 1
		}
		s = strconv.FormatFloat(y, 'f', prec, 64) + " years"
	}
	if neg {
		return "−" + s
	}
	return s
}

// FormatMeasured is fmtDur for what a run measured: between a second and a
// minute it keeps both decimals ("1.00 s" beside a baseline's "2.55 s",
// where fmtDur writes "1 s", as a setting reads: "Outage 3 s"). The page
// and `retrylab sim` write their numbers with it.
func FormatMeasured(d time.Duration) string {
	if a := d.Abs(); a < time.Second-time.Millisecond/2 || a >= time.Minute-5*time.Millisecond {
		return fmtDur(d)
	}
	s := strconv.FormatFloat(d.Abs().Seconds(), 'f', 2, 64) + " s"
	if d < 0 {
		return "−" + s
	}
	return s
}

// twoUnits is d rounded to small and written in big and small: "2 min 5 s",
// or "2 min" when the small part is 0.
func twoUnits(d, big time.Duration, bigName string, small time.Duration, smallName string) string {
	d = d.Round(small)
	s := strconv.FormatInt(int64(d/big), 10) + " " + bigName
	if rest := d % big / small; rest != 0 {
		s += " " + strconv.FormatInt(int64(rest), 10) + " " + smallName
	}
	return s
}

// fmtSigned is a lateness: "+0.8 ms", "−0.2 ms".
func fmtSigned(d time.Duration) string {
	if d >= 0 {
		return "+" + fmtDur(d)
	}
	return fmtDur(d)
}

// durTogether is FormatMeasured(d) with each figure and its unit joined by a
// no-break space: "max 4.37 s" broke before its "s", and "p50 1 min 3 s"
// may break only between "1 min" and "3 s".
func durTogether(d time.Duration) string { return unitsTogether(FormatMeasured(d)) }

// unitsTogether is s with each figure joined to the unit after it (one of
// fmtDur's) by a no-break space: the run bar's status broke "in 18.55" /
// "s." and "computed in 11.0" / "ms" at some widths
// (TestNumbersWholeAtEveryWidth).
func unitsTogether(s string) string {
	words := strings.Split(s, " ")
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			prev := words[i-1]
			if isDurUnit(strings.TrimRight(w, ".,;:)")) && prev != "" && prev[len(prev)-1] >= '0' && prev[len(prev)-1] <= '9' {
				b.WriteString("\u00a0")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

// isDurUnit reports whether w is one of the units fmtDur writes.
func isDurUnit(w string) bool {
	switch w {
	case "µs", "ms", "s", "min", "h", "d", "years":
		return true
	}
	return false
}
