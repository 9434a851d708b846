package human

import (
	"math"
	"testing"
	"time"
)

// A run's measurements keep their two decimals between a second and a
// minute: a review read a p50 of "1 s" beside a baseline of "2.55 s".
func TestMeasured(t *testing.T) {
	for d, want := range map[time.Duration]string{
		850 * time.Microsecond:    "850 µs",
		250 * time.Millisecond:    "250 ms",
		time.Second:               "1.00 s",
		999700 * time.Microsecond: "1.00 s", // not "1 s" beside "1.25 s"
		1004 * time.Millisecond:   "1.00 s",
		1250 * time.Millisecond:   "1.25 s",
		2 * time.Second:           "2.00 s",
		59990 * time.Millisecond:  "59.99 s",
		59996 * time.Millisecond:  "1 min", // not "60.00 s"
		time.Minute:               "1 min",
		125 * time.Second:         "2 min 5 s",
		-1500 * time.Millisecond:  "−1.50 s",
	} {
		if got := Measured(d); got != want {
			t.Errorf("Measured(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		850 * time.Microsecond:            "850 µs",
		152999985 * time.Nanosecond:       "153 ms", // rounded as the export is, not cut ("152 ms"; found by a review)
		999600 * time.Nanosecond:          "1.0 ms",
		1499 * time.Nanosecond:            "1 µs",
		99960 * time.Microsecond:          "100 ms",
		999600 * time.Microsecond:         "1 s",
		12300 * time.Microsecond:          "12.3 ms",
		250 * time.Millisecond:            "250 ms",
		1250 * time.Millisecond:           "1.25 s",
		2 * time.Second:                   "2 s",
		125 * time.Second:                 "2 min 5 s",
		-3 * time.Millisecond:             "−3.0 ms",
		59990 * time.Millisecond:          "59.99 s",
		59996 * time.Millisecond:          "1 min",
		time.Minute:                       "1 min",
		89667 * time.Millisecond:          "1 min 30 s", // rounded, not cut ("1 min 29 s")
		3599 * time.Second:                "59 min 59 s",
		3599600 * time.Millisecond:        "1 h",
		200 * time.Minute:                 "3 h 20 min",
		98 * time.Hour:                    "4 d 2 h",
		364*24*time.Hour + 40*time.Minute: "364 d 1 h",
		365 * 24 * time.Hour:              "1.0 years",
		4e9 * time.Second:                 "127 years",
		time.Duration(math.MaxInt64):      "292 years", // virtual time's end (it said "153722867 min 4 s")
		-125 * time.Second:                "−2 min 5 s",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}
