package core

import (
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rfcNow is one second before the RFC 9110 §10.2.3 example date.
var rfcNow = time.Date(1999, time.December, 31, 23, 59, 58, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	nov94 := time.Date(1994, time.November, 6, 8, 49, 37, 0, time.UTC)
	tests := []struct {
		name  string
		value string
		now   time.Time
		want  time.Duration
		err   string
	}{
		// RFC 9110 §10.2.3 examples.
		{"rfc example date", "Fri, 31 Dec 1999 23:59:59 GMT", rfcNow, 1 * s, ""},
		{"rfc example seconds", "120", rfcNow, 120 * s, ""},
		// RFC 9110 §5.6.7: the three forms of one instant.
		{"imf-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT", nov94.Add(-90 * s), 90 * s, ""},
		{"rfc 850", "Sunday, 06-Nov-94 08:49:37 GMT", nov94.Add(-90 * s), 90 * s, ""},
		{"asctime", "Sun Nov  6 08:49:37 1994", nov94.Add(-90 * s), 90 * s, ""},
		{"asctime two-digit day", "Sun Nov 06 08:49:37 1994", nov94.Add(-90 * s), 90 * s, ""},
		{"names in any case", "SUN, 06 nOV 1994 08:49:37 GMT", nov94.Add(-1 * s), 1 * s, ""},
		{"weekday not checked", "Mon, 06 Nov 1994 08:49:37 GMT", nov94.Add(-1 * s), 1 * s, ""},
		{"past date means zero", "Sun, 06 Nov 1994 08:49:37 GMT", nov94.Add(time.Hour), 0, ""},
		{"date equal to now", "Sun, 06 Nov 1994 08:49:37 GMT", nov94, 0, ""},
		{"now in another zone", "Sun, 06 Nov 1994 08:49:37 GMT", nov94.Add(-s).In(time.FixedZone("X", 3600)), 1 * s, ""},
		{"leap day", "Tue, 29 Feb 2000 00:00:00 GMT", time.Date(2000, 2, 28, 0, 0, 0, 0, time.UTC), 24 * time.Hour, ""},
		{"far but representable", "Fri, 31 Dec 2200 00:00:00 GMT", t0, time.Date(2200, 12, 31, 0, 0, 0, 0, time.UTC).Sub(t0), ""},
		// RFC 850 two-digit years: more than 50 years ahead means last century.
		{"rfc 850 year in this century", "Monday, 02-Nov-26 09:30:10 GMT", t0, 10 * s, ""},
		{"rfc 850 year 50 years ahead", "Thursday, 02-Nov-76 09:30:00 GMT", t0, time.Date(2076, 11, 2, 9, 30, 0, 0, time.UTC).Sub(t0), ""},
		{"rfc 850 year over 50 years ahead is the past", "Friday, 02-Nov-77 09:30:01 GMT", t0, 0, ""},
		// delay-seconds.
		{"zero", "0", t0, 0, ""},
		{"leading zeros", "007", t0, 7 * s, ""},
		{"surrounding spaces", "  120 \t", t0, 120 * s, ""},
		{"spaces around a date", " Sun, 06 Nov 1994 08:49:37 GMT ", nov94.Add(-s), s, ""},
		{"largest representable", "9223372036", t0, 9223372036 * s, ""},
		// Past a Duration's reach delay-seconds saturate (1*DIGIT has no
		// upper bound): the caller's ceiling then decides, as for any long
		// delay, instead of the value being unreadable.
		{"one second more saturates", "9223372037", t0, maxDuration, ""},
		{"ten digits saturate", "9999999999", t0, maxDuration, ""},
		{"max int64 seconds saturate", "9223372036854775807", t0, maxDuration, ""},
		{"one digit more than max int64", "92233720368547758070", t0, maxDuration, ""},
		{"the mock's huge value", "99999999999999999999", t0, maxDuration, ""},
		{"a thousand digits", strings.Repeat("9", 1000), t0, maxDuration, ""},
		{"leading zeros do not overflow", "00000000000000000000009223372036", t0, 9223372036 * s, ""},
		{"leading zeros then huge", "000099999999999999999999", t0, maxDuration, ""},
		{"space before", " 5", t0, 5 * s, ""},
		{"space after", "5 ", t0, 5 * s, ""},
		{"tab after", "5\t", t0, 5 * s, ""},
		{"date too far ahead saturates", "Fri, 31 Dec 9999 23:59:59 GMT", t0, maxDuration, ""},
		// Errors.
		{"empty", "", t0, 0, `core: retry-after "": empty (want delay-seconds or an HTTP-date)`},
		{"only spaces", "   ", t0, 0, `core: retry-after "   ": empty (want delay-seconds or an HTTP-date)`},
		{"only a tab", "\t", t0, 0, `core: retry-after "\t": empty`},
		{"spaces and tabs", " \t \t", t0, 0, "empty (want delay-seconds or an HTTP-date)"},
		{"plus five", "+5", t0, 0, `core: retry-after "+5": sign not allowed`},
		{"five point zero", "5.0", t0, 0, `core: retry-after "5.0": fractional seconds not allowed`},
		{"huge then fraction", "99999999999999999999.5", t0, 0, "fractional seconds not allowed"},
		{"huge then junk", "99999999999999999999x", t0, 0, "invalid syntax"},
		{"negative huge", "-99999999999999999999", t0, 0, "negative delay"},
		{"negative", "-1", t0, 0, `core: retry-after "-1": negative delay`},
		{"negative zero", "-0", t0, 0, "negative delay"},
		{"decimal", "1.5", t0, 0, `core: retry-after "1.5": fractional seconds not allowed`},
		{"leading dot", ".5", t0, 0, "fractional seconds not allowed"},
		{"plus sign", "+120", t0, 0, `core: retry-after "+120": sign not allowed`},
		{"list", "120, 60", t0, 0, "a list is not allowed"},
		{"list without space", "1,2", t0, 0, "a list is not allowed"},
		{"two values", "120 60", t0, 0, "more than one value"},
		{"exponent", "1e3", t0, 0, "exponent not allowed"},
		{"unit", "120s", t0, 0, "invalid syntax"},
		{"hex", "0x10", t0, 0, "invalid syntax"},
		{"garbage", "abc", t0, 0, `core: retry-after "abc": invalid syntax (want delay-seconds or an HTTP-date)`},
		{"a word", "soon", t0, 0, `core: retry-after "soon": invalid syntax (want delay-seconds or an HTTP-date)`},
		{"words", "in 5 minutes", t0, 0, `core: retry-after "in 5 minutes": invalid syntax (want delay-seconds or an HTTP-date)`},
		{"misspelt day", "Mun, 06 Nov 1994 08:49:37 GMT", t0, 0, `core: retry-after "Mun, 06 Nov 1994 08:49:37 GMT": invalid date: unknown day name "Mun"`},
		{"misspelt long day", "Sundy, 06-Nov-94 08:49:37 GMT", t0, 0, `invalid date: unknown day name "Sundy"`},
		{"misspelt asctime day", "Snu Nov  6 08:49:37 1994", t0, 0, `invalid date: unknown day name "Snu"`},
		{"punctuation", "!!", t0, 0, "invalid syntax"},
		{"fullwidth digits", "１２０", t0, 0, "non-ASCII characters"},
		{"arabic-indic digits", "١٢٠", t0, 0, "non-ASCII characters"},
		{"nul byte", "12\x00", t0, 0, "invalid syntax"},
		// RFC 9110 §5.6.7: time-of-day runs 00:00:00 - 23:59:60 (leap
		// second); 23:59:60 is the instant after 23:59:59.
		{"leap second", "Fri, 31 Dec 1999 23:59:60 GMT", rfcNow, 2 * s, ""},
		{"leap second rfc 850", "Friday, 31-Dec-99 23:59:60 GMT", rfcNow, 2 * s, ""},
		{"leap second asctime", "Fri Dec 31 23:59:60 1999", rfcNow, 2 * s, ""},
		{"leap second june", "Tue, 30 Jun 2015 23:59:60 GMT", time.Date(2015, 6, 30, 23, 59, 0, 0, time.UTC), 60 * s, ""},
		{"leap second is after 23:59:59", "Fri, 31 Dec 1999 23:59:60 GMT", rfcNow.Add(s), 1 * s, ""},
		{"leap second passed", "Fri, 31 Dec 1999 23:59:60 GMT", rfcNow.Add(2 * s), 0, ""},
		{"second 60 not at 23:59", "Sun, 06 Nov 1994 08:49:60 GMT", t0, 0, `core: retry-after "Sun, 06 Nov 1994 08:49:60 GMT": invalid date: second 60 is a leap second, only at 23:59:60`},
		{"second 61", "Fri, 31 Dec 1999 23:59:61 GMT", rfcNow, 0, "invalid date: second 61 out of range"},
		{"second 99", "Fri, 31 Dec 1999 23:59:99 GMT", rfcNow, 0, "invalid date: second 99 out of range"},
		{"february 30", "Mon, 30 Feb 2026 10:00:00 GMT", t0, 0, "invalid date: Feb 2026 has no day 30"},
		{"february 29 not leap", "Sun, 29 Feb 2026 10:00:00 GMT", t0, 0, "has no day 29"},
		{"february 29 1900", "Thu, 29 Feb 1900 10:00:00 GMT", t0, 0, "has no day 29"},
		{"day 0", "Sun, 00 Nov 1994 08:49:37 GMT", t0, 0, "has no day 0"},
		{"april 31", "Thu, 31 Apr 2026 10:00:00 GMT", t0, 0, "has no day 31"},
		{"hour 24", "Sun, 06 Nov 1994 24:00:00 GMT", t0, 0, "hour 24 out of range"},
		{"minute 60", "Sun, 06 Nov 1994 08:60:00 GMT", t0, 0, "minute 60 out of range"},
		{"unknown month", "Sun, 06 Foo 1994 08:49:37 GMT", t0, 0, `unknown month "Foo"`},
		{"not gmt", "Sun, 06 Nov 1994 08:49:37 PST", t0, 0, "time zone must be GMT"},
		{"numeric zone", "Sun, 06 Nov 1994 08:49:37 +0000", t0, 0, "time zone must be GMT"},
		{"missing zone", "Sun, 06 Nov 1994 08:49:37", t0, 0, "invalid syntax"},
		{"one-digit hour", "Sun, 06 Nov 1994 8:49:37 GMT", t0, 0, "invalid syntax"},
		{"two-digit year in imf", "Sun, 06 Nov 94 08:49:37 GMT", t0, 0, "invalid syntax"},
		{"long day name in imf form", "Sunday, 06 Nov 1994 08:49:37 GMT", t0, 0, "invalid syntax"},
		{"trailing text", "Sun, 06 Nov 1994 08:49:37 GMT junk", t0, 0, "unexpected text after the date"},
		{"list of dates", "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT", t0, 0, "a list is not allowed"},
		{"fractional date seconds", "Sun, 06 Nov 1994 08:49:37.5 GMT", t0, 0, "invalid syntax"},
		{"date with now the zero time", "Sun, 06 Nov 1994 08:49:37 GMT", time.Time{}, 0, "of now, the zero time.Time: pass the current time"},
		{"rfc 850 date with now the zero time", "Sunday, 06-Nov-94 08:49:37 GMT", time.Time{}, 0, "two-digit year with now the zero time.Time: pass the current time"},
		{"asctime date with now the zero time", "Sun Nov  6 08:49:37 1994", time.Time{}, 0, "of now, the zero time.Time: pass the current time"},
		{"iso 8601", "2026-11-02T09:30:00Z", t0, 0, "invalid syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRetryAfter(tt.value, tt.now)
			wantErr(t, err, tt.err)
			if got != tt.want {
				t.Errorf("ParseRetryAfter(%q) = %v, want %v", tt.value, got, tt.want)
			}
		})
	}
}

// httpDateForms formats t in the three HTTP-date forms.
func httpDateForms(t time.Time) [3]string {
	t = t.UTC()
	return [3]string{
		t.Format(http.TimeFormat),
		strings.Replace(t.Format(time.RFC850), "UTC", "GMT", 1),
		t.Format(time.ANSIC),
	}
}

// goYear2 is how time.Parse (and so net/http.ParseTime) reads a two-digit
// year: 69-99 are 19xx, 00-68 are 20xx.
func goYear2(year int) int {
	if yy := year % 100; yy >= 69 {
		return 1900 + yy
	} else {
		return 2000 + yy
	}
}

// TestHTTPDateMatchesNetHTTP is the differential test: every date in each
// of the three forms parses to the same instant as net/http.ParseTime.
// The one intended difference is the two-digit RFC 850 year, where we
// follow RFC 9110 (relative to now) and time.Parse uses a fixed pivot; it
// is compared only for years both rules read the same.
func TestHTTPDateMatchesNetHTTP(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for i := 0; i < 20000; i++ {
		want := time.Unix(lo+r.Int64N(hi-lo), 0).UTC()
		for form, v := range httpDateForms(want) {
			if form == 1 {
				ours := rfc850Year(want.Year()%100, int(want.Month()), want.Day(), 0, 0, 0, t0)
				if ours != goYear2(want.Year()) {
					continue
				}
			}
			hp, err := http.ParseTime(v)
			if err != nil {
				t.Fatalf("net/http cannot parse %q: %v", v, err)
			}
			got, problem := parseHTTPDate(v, t0)
			if problem != "" {
				t.Fatalf("parseHTTPDate(%q): %s", v, problem)
			}
			if !got.Equal(hp) {
				t.Fatalf("parseHTTPDate(%q) = %v, net/http.ParseTime = %v", v, got, hp)
			}
		}
	}
}

// TestHTTPDateNeverDisagreesWithNetHTTP mutates valid dates byte by byte:
// whenever we accept a string, net/http accepts it too and gives the same
// instant (we are stricter, never different).
func TestHTTPDateNeverDisagreesWithNetHTTP(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	const alphabet = "0123456789 ,:-adeghlnortuyADGJMNOSTW\t"
	for i := 0; i < 20000; i++ {
		base := time.Unix(r.Int64N(4e9), 0).UTC()
		forms := httpDateForms(base)
		form := r.IntN(3)
		if form == 1 {
			continue // two-digit years differ by design (see above)
		}
		b := []byte(forms[form])
		for k := r.IntN(3); k >= 0; k-- {
			b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
		}
		v := string(b)
		got, problem := parseHTTPDate(v, t0)
		if problem != "" || strings.Contains(v, "23:59:60") {
			continue // time.Parse refuses the leap second RFC 9110 allows
		}
		hp, err := http.ParseTime(v)
		if err != nil {
			t.Fatalf("we accept %q (%v), net/http does not: %v", v, got, err)
		}
		if !got.Equal(hp) {
			t.Fatalf("%q: we say %v, net/http says %v", v, got, hp)
		}
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, v := range []string{"120", "0", "", " ", "\t \t", " 5 ", "-1", "1.5", "+3", "9999999999",
		"Fri, 31 Dec 1999 23:59:59 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
		"Fri, 31 Dec 1999 23:59:60 GMT", "Sun, 06 Nov 1994 08:49:60 GMT", "１２０"} {
		f.Add(v, int64(946684798))
	}
	f.Fuzz(func(t *testing.T, value string, nowUnix int64) {
		now := time.Unix(nowUnix, 0)
		d, err := ParseRetryAfter(value, now)
		if d < 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v: negative", value, d)
		}
		if err != nil {
			if d != 0 {
				t.Fatalf("ParseRetryAfter(%q) = %v with error %v", value, d, err)
			}
			if !strings.HasPrefix(err.Error(), "core: retry-after ") {
				t.Fatalf("error %q lacks the prefix", err)
			}
			var ra *RetryAfterError
			if !errors.As(err, &ra) || ra.Value != value || ra.Problem == "" {
				t.Fatalf("ParseRetryAfter(%q) error %#v: want a *RetryAfterError of the value, saying what is wrong", value, err)
			}
		}
		// Against independent parsers: strconv for delay-seconds, and
		// net/http for the dates it writes itself (IMF-fixdate, asctime).
		v := strings.Trim(value, " \t")
		n, perr := strconv.ParseUint(v, 10, 64)
		if errors.Is(perr, strconv.ErrRange) && strings.Trim(v, "0123456789") == "" { // digits past a uint64: saturated too
			n, perr = math.MaxUint64, nil
		}
		if perr == nil && v[0] != '+' {
			want := maxDuration // saturated
			if n <= uint64(maxDelaySeconds) {
				want = time.Duration(n) * time.Second
			}
			if err != nil || d != want {
				t.Fatalf("ParseRetryAfter(%q) = %v, %v; strconv reads %d seconds", value, d, err, n)
			}
			return
		}
		at, herr := http.ParseTime(v)
		if herr != nil || (v != at.Format(http.TimeFormat) && v != at.Format(time.ANSIC)) || strings.Contains(v, ":60") {
			return // not a date net/http would write (RFC 850 years, leap seconds: see the tests above)
		}
		want := max(at.Sub(now), 0)
		if want == maxDuration && now.IsZero() { // saturated, and the caller forgot to pass the time
			if err == nil || !strings.Contains(err.Error(), "pass the current time") {
				t.Fatalf("ParseRetryAfter(%q) at the zero time = %v, %v; want an error", value, d, err)
			}
			return
		}
		if err != nil || d != want {
			t.Fatalf("ParseRetryAfter(%q) at %v = %v, %v; net/http's date is %v away", value, now, d, err, want)
		}
	})
}

// TestRFC850CenturyWindow checks the two-digit year around century
// boundaries: RFC 9110 §5.6.7 reads a date that appears to be more than 50
// years in the future as the most recent past year with the same digits;
// the year is chosen so the date lies in (now − 50 years, now + 50 years].
func TestRFC850CenturyWindow(t *testing.T) {
	endOf2099 := time.Date(2099, 12, 31, 23, 59, 50, 0, time.UTC)
	startOf2000 := time.Date(2000, 1, 1, 0, 0, 5, 0, time.UTC)
	for _, tt := range []struct {
		value string
		now   time.Time
		want  time.Time // zero: an error
	}{
		// At the end of a century, 00 is the coming year, not 100 years ago.
		{"Friday, 01-Jan-00 00:00:10 GMT", endOf2099, time.Date(2100, 1, 1, 0, 0, 10, 0, time.UTC)},
		{"Thursday, 31-Dec-99 23:59:55 GMT", endOf2099, time.Date(2099, 12, 31, 23, 59, 55, 0, time.UTC)},
		{"Friday, 31-Dec-49 23:59:50 GMT", endOf2099, time.Date(2149, 12, 31, 23, 59, 50, 0, time.UTC)}, // now + 50y exactly: the future
		{"Friday, 31-Dec-49 23:59:51 GMT", endOf2099, time.Date(2049, 12, 31, 23, 59, 51, 0, time.UTC)}, // past now + 50y: the past
		{"Monday, 29-Feb-00 00:00:00 GMT", endOf2099, time.Time{}},                                      // 2100 is no leap year
		// At the start of a century, 99 is the year just gone.
		{"Friday, 31-Dec-99 23:59:59 GMT", startOf2000, time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC)},
		{"Saturday, 01-Jan-00 00:00:10 GMT", startOf2000, time.Date(2000, 1, 1, 0, 0, 10, 0, time.UTC)},
		{"Tuesday, 29-Feb-00 00:00:00 GMT", startOf2000, time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"Friday, 01-Jan-50 00:00:05 GMT", startOf2000, time.Date(2050, 1, 1, 0, 0, 5, 0, time.UTC)}, // now + 50y exactly
		{"Friday, 01-Jan-50 00:00:06 GMT", startOf2000, time.Date(1950, 1, 1, 0, 0, 6, 0, time.UTC)},
		// Mid-century.
		{"Thursday, 02-Nov-76 09:30:00 GMT", t0, time.Date(2076, 11, 2, 9, 30, 0, 0, time.UTC)},
		{"Thursday, 02-Nov-76 09:30:01 GMT", t0, time.Date(1976, 11, 2, 9, 30, 1, 0, time.UTC)},
		{"Monday, 02-Nov-26 09:29:59 GMT", t0, time.Date(2026, 11, 2, 9, 29, 59, 0, time.UTC)},
	} {
		got, problem := parseHTTPDate(tt.value, tt.now)
		switch {
		case tt.want.IsZero() && problem == "":
			t.Errorf("parseHTTPDate(%q) at %v = %v, want an error", tt.value, tt.now, got)
		case !tt.want.IsZero() && !got.Equal(tt.want):
			t.Errorf("parseHTTPDate(%q) at %v = %v (%s), want %v", tt.value, tt.now, got, problem, tt.want)
		}
	}
	if d, err := ParseRetryAfter("Friday, 01-Jan-00 00:00:10 GMT", endOf2099); err != nil || d != 20*time.Second {
		t.Errorf("ParseRetryAfter at the end of 2099 = %v, %v; want 20s", d, err)
	}
}
