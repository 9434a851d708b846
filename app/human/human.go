// Package human writes durations for people, as the page (app/ui) and
// `retrylab sim` show them: "850 µs", "12.3 ms", "1.25 s", "2 min 5 s"
// (Duration), and what a run measured with both decimals between a second
// and a minute, "1.00 s" (Measured). It is a package of its own so that
// the command line writes its numbers as the page does without importing
// the page. Standard library only.
package human

import (
	"strconv"
	"strings"
	"time"
)

// Duration is a duration for people: "850 µs", "12.3 ms", "1.25 s",
// "2 min 5 s", "3 h 20 min", "4 d 2 h", "292 years". Past a minute it
// rounds to its two largest units (1m29.7s is "1 min 30 s"), and leaves
// out a second one that rounds to 0 ("2 min").
func Duration(d time.Duration) string {
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

// Measured is Duration for what a run measured: between a second and a
// minute it keeps both decimals ("1.00 s" beside a baseline's "2.55 s",
// where Duration writes "1 s", as a setting reads: "Outage 3 s"). The page
// and `retrylab sim` write their numbers with it.
func Measured(d time.Duration) string {
	if a := d.Abs(); a < time.Second-time.Millisecond/2 || a >= time.Minute-5*time.Millisecond {
		return Duration(d)
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
