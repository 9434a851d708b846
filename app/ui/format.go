package ui

import (
	"math"
	"strconv"
	"strings"
	"time"

	"retrylab/app/human"
)

// How the page writes numbers for people: counts, shares, ratios, rates
// and durations, one place for each, on the cards, in tooltips, in the
// canvas's labels and in the screen-reader summary alike. A duration on
// its own is app/human's (human.Duration, human.Measured), which
// `retrylab sim` writes with too.

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

// fmtSigned is a lateness: "+0.8 ms", "−0.2 ms".
func fmtSigned(d time.Duration) string {
	if d >= 0 {
		return "+" + human.Duration(d)
	}
	return human.Duration(d)
}

// durTogether is human.Measured(d) with each figure and its unit joined by a
// no-break space: "max 4.37 s" broke before its "s", and "p50 1 min 3 s"
// may break only between "1 min" and "3 s".
func durTogether(d time.Duration) string { return unitsTogether(human.Measured(d)) }

// unitsTogether is s with each figure joined to the unit after it (one of
// human.Duration's) by a no-break space: the run bar's status broke "in
// 18.55" / "s." and "computed in 11.0" / "ms" at some widths
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

// isDurUnit reports whether w is one of the units human.Duration writes.
func isDurUnit(w string) bool {
	switch w {
	case "µs", "ms", "s", "min", "h", "d", "years":
		return true
	}
	return false
}
