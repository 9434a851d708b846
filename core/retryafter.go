package core

import (
	"fmt"
	"strings"
	"time"
)

// maxDelaySeconds is the largest delay-seconds a time.Duration holds.
const maxDelaySeconds = int64(maxDuration / time.Second) // 9223372036

// ParseRetryAfter parses a Retry-After field value (RFC 9110 §10.2.3) and
// returns how long after now the server asked the client to wait.
//
// The value is either delay-seconds (1*DIGIT: "120", "0", "007") or an
// HTTP-date in any of the three forms a recipient must accept (RFC 9110
// §5.6.7):
//
//	Sun, 06 Nov 1994 08:49:37 GMT    IMF-fixdate (the one servers should send)
//	Sunday, 06-Nov-94 08:49:37 GMT   obsolete RFC 850 format
//	Sun Nov  6 08:49:37 1994         ANSI C asctime() format
//
// A date is relative to now; a date in the past means 0. Surrounding spaces
// and tabs are ignored. Day and month names match in any case; the zone must
// be "GMT". The weekday is not checked against the date (it is redundant).
// The time of day runs from 00:00:00 to 23:59:60, the leap second RFC 9110
// allows: 23:59:60 (on any day) is read as the instant one second after
// 23:59:59, i.e. 00:00:00 the next day, as time.Date normalises it.
// A two-digit RFC 850 year is read as the RFC says (a date that appears to be
// more than 50 years in the future is in the most recent past year with those
// digits): it is the year that puts the date after now − 50 years and no
// later than now + 50 years, so at the end of 2099 "01-Jan-00" is 2100.
//
// A delay too long for a time.Duration saturates: delay-seconds over
// 9223372036 ("99999999999999999999" is valid: 1*DIGIT has no upper
// bound) and a date more than ~292 years ahead read as the largest
// Duration (math.MaxInt64 nanoseconds, about 292 years), as RFC 9111
// §1.2.2 tells a cache to read delta-seconds it cannot represent. A server
// asking for an enormous wait is then treated like one asking for any wait
// above the caller's limit (Policy.Ceiling clamps it or gives up), not as
// an unreadable value retried at the backoff's pace.
//
// Everything else is an error saying what was wrong: empty (a field sent
// with no value, or only spaces: RFC 9110's grammar has no empty
// Retry-After; LookupHeader tells it from one not sent), negative,
// fractional, signed ("+120"), a list ("1, 2"), non-ASCII digits, garbage,
// impossible dates (Feb 30, hour 24, second 61, second 60 other than at
// 23:59:60), and a date that saturates with now the zero time.Time (a
// caller who forgot to pass the current time) — never a negative wait.
// The error is a *RetryAfterError.
func ParseRetryAfter(value string, now time.Time) (time.Duration, error) {
	v := trimOWS(value)
	if v == "" {
		return 0, retryAfterError(value, "empty (want delay-seconds or an HTTP-date)")
	}
	for i := 0; i < len(v); i++ {
		if v[i] >= 0x80 {
			return 0, retryAfterError(value, "non-ASCII characters (delay-seconds are ASCII digits 0-9)")
		}
	}
	switch c := v[0]; {
	case isDigit(c):
		return parseDelaySeconds(value, v)
	case c == '-':
		if len(v) > 1 && (isDigit(v[1]) || v[1] == '.') {
			return 0, retryAfterError(value, "negative delay")
		}
	case c == '+':
		return 0, retryAfterError(value, "sign not allowed (delay-seconds are bare digits)")
	case c == '.':
		return 0, retryAfterError(value, "fractional seconds not allowed")
	}
	t, problem := parseHTTPDate(v, now)
	if problem != "" {
		return 0, retryAfterError(value, problem)
	}
	d, problem := until(t, now)
	if problem != "" {
		return 0, retryAfterError(value, "date "+problem)
	}
	return d, nil
}

// until is how long after now t is: 0 if t is not after now, the largest
// Duration if it is too far ahead for one (Sub saturates). With now the
// zero time.Time any real date is that far ahead: the caller's slip, more
// likely than a date 2,000 years ahead, is reported as a problem.
func until(t, now time.Time) (time.Duration, string) {
	if !t.After(now) {
		return 0, ""
	}
	d := t.Sub(now)
	if d == maxDuration && now.IsZero() {
		return 0, "too far ahead of now, the zero time.Time: pass the current time"
	}
	return d, ""
}

// A RetryAfterError is a Retry-After value ParseRetryAfter could not read:
// the value as received and what is wrong with it. The loop's wait that
// fell back for it carries it (Event.Err), so a page counts a server's
// broken header, and quotes it, without reading the wait's note.
type RetryAfterError struct {
	Value   string // as received
	Problem string // "fractional seconds not allowed"
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("core: retry-after %q: %s", e.Value, e.Problem)
}

func retryAfterError(value, problem string) error {
	return &RetryAfterError{Value: value, Problem: problem}
}

func parseDelaySeconds(value, v string) (time.Duration, error) {
	i := 0
	for i < len(v) && isDigit(v[i]) {
		i++
	}
	if i < len(v) {
		switch v[i] {
		case '.':
			return 0, retryAfterError(value, "fractional seconds not allowed")
		case ',':
			return 0, retryAfterError(value, "a list is not allowed (one value only)")
		case 'e', 'E':
			return 0, retryAfterError(value, "exponent not allowed (delay-seconds are bare digits)")
		}
		if isOWS(v[i]) && i+1 < len(v) {
			return 0, retryAfterError(value, "more than one value")
		}
		return 0, retryAfterError(value, "invalid syntax (want delay-seconds or an HTTP-date)")
	}
	return delaySeconds(v), nil
}

// delaySeconds reads ASCII digits as seconds, saturating at the largest
// Duration: past maxDelaySeconds the value means "longer than a Duration
// holds" (RFC 9111 §1.2.2 reads delta-seconds it cannot represent so).
func delaySeconds(digits string) time.Duration {
	var n int64
	for i := 0; i < len(digits); i++ {
		c := int64(digits[i] - '0')
		if n > (maxDelaySeconds-c)/10 {
			return maxDuration
		}
		n = n*10 + c
	}
	return time.Duration(n) * time.Second
}

var (
	dayNames  = [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longDays  = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthAbbr = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// dateScanner reads an HTTP-date left to right. Every read method records
// the first problem and then does nothing, so callers check once at the end.
type dateScanner struct {
	s       string
	i       int
	problem string
}

func (p *dateScanner) fail(problem string) {
	if p.problem == "" {
		p.problem = problem
	}
}

func (p *dateScanner) lit(c byte) {
	if p.problem != "" {
		return
	}
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return
	}
	p.fail("invalid syntax (want delay-seconds or an HTTP-date)")
}

func (p *dateScanner) word() string {
	start := p.i
	for p.i < len(p.s) && isLetter(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// digits reads exactly n ASCII digits.
func (p *dateScanner) digits(n int) int {
	if p.problem != "" {
		return 0
	}
	v := 0
	for k := 0; k < n; k++ {
		if p.i >= len(p.s) || !isDigit(p.s[p.i]) {
			p.fail("invalid syntax (want delay-seconds or an HTTP-date)")
			return 0
		}
		v = v*10 + int(p.s[p.i]-'0')
		p.i++
	}
	return v
}

func (p *dateScanner) month() int {
	if p.problem != "" {
		return 0
	}
	w := p.word()
	for m, name := range monthAbbr {
		if equalFold(w, name) {
			return m + 1
		}
	}
	p.fail(fmt.Sprintf("invalid date: unknown month %q", w))
	return 0
}

// clock reads time-of-day "HH:MM:SS".
func (p *dateScanner) clock() (h, m, s int) {
	h = p.digits(2)
	p.lit(':')
	m = p.digits(2)
	p.lit(':')
	s = p.digits(2)
	return h, m, s
}

func (p *dateScanner) gmt() {
	if p.problem != "" {
		return
	}
	if !strings.HasPrefix(p.s[p.i:], "GMT") {
		p.fail("invalid date: time zone must be GMT")
		return
	}
	p.i += 3
}

func (p *dateScanner) end() {
	switch {
	case p.problem != "" || p.i == len(p.s):
	case p.s[p.i] == ',':
		p.fail("a list is not allowed (one value only)")
	default:
		p.fail("invalid syntax: unexpected text after the date")
	}
}

// parseHTTPDate parses the three HTTP-date forms; on failure it returns a
// description of the problem.
func parseHTTPDate(s string, now time.Time) (time.Time, string) {
	p := &dateScanner{s: s}
	day := p.word()
	short := dayIndex(day, dayNames[:]) >= 0
	long := dayIndex(day, longDays[:]) >= 0
	if !short && !long {
		// A word ("soon", "in 5 minutes") is no date with a misspelt day:
		// it is neither form, and "unknown day name" sent a learner
		// looking for a date. A date's day name is followed by a comma
		// ("Mun, 06 Nov 1994 …", "Sundy, 06-Nov-94 …"), or is three
		// letters followed by more ("Snu Nov  6 08:49:37 1994").
		if day == "" || p.i >= len(s) || s[p.i] != ',' && len(day) != 3 {
			return time.Time{}, "invalid syntax (want delay-seconds or an HTTP-date)"
		}
		return time.Time{}, fmt.Sprintf("invalid date: unknown day name %q", day)
	}
	var year, month, mday, hh, mm, ss int
	switch {
	case short && p.i < len(s) && s[p.i] == ',': // IMF-fixdate
		p.lit(',')
		p.lit(' ')
		mday = p.digits(2)
		p.lit(' ')
		month = p.month()
		p.lit(' ')
		year = p.digits(4)
		p.lit(' ')
		hh, mm, ss = p.clock()
		p.lit(' ')
		p.gmt()
	case long && p.i < len(s) && s[p.i] == ',': // rfc850-date
		p.lit(',')
		p.lit(' ')
		mday = p.digits(2)
		p.lit('-')
		month = p.month()
		p.lit('-')
		year = p.digits(2)
		p.lit(' ')
		hh, mm, ss = p.clock()
		p.lit(' ')
		p.gmt()
		if p.problem == "" && now.IsZero() {
			// The century comes from now: with the zero time.Time the
			// date fell in year 94 or -6, in the past, and read as 0 with
			// no error, where the other two forms say what was missed.
			p.fail("two-digit year with now the zero time.Time: pass the current time")
		}
		if p.problem == "" {
			year = rfc850Year(year, month, mday, hh, mm, ss, now)
		}
	case short: // asctime-date: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP year
		p.lit(' ')
		month = p.month()
		p.lit(' ')
		if p.i < len(s) && s[p.i] == ' ' {
			p.i++
			mday = p.digits(1)
		} else {
			mday = p.digits(2)
		}
		p.lit(' ')
		hh, mm, ss = p.clock()
		p.lit(' ')
		year = p.digits(4)
	default:
		p.fail("invalid syntax (want delay-seconds or an HTTP-date)")
	}
	p.end()
	if p.problem != "" {
		return time.Time{}, p.problem
	}
	if problem := checkDate(year, month, mday, hh, mm, ss); problem != "" {
		return time.Time{}, problem
	}
	return time.Date(year, time.Month(month), mday, hh, mm, ss, 0, time.UTC), ""
}

// rfc850Year applies RFC 9110 §5.6.7 to a two-digit year: a date that
// appears to be more than 50 years in the future is in the most recent past
// year with the same last two digits. Of the years ending in yy it picks the
// one that puts the date within (now − 50 years, now + 50 years]: at the end
// of 2099, "01-Jan-00" is 2100, not 2000. The date's validity is checked
// afterwards, in the chosen year (29-Feb-00 is valid in 2000, not in 2100).
func rfc850Year(yy, month, mday, hh, mm, ss int, now time.Time) int {
	now = now.UTC()
	year := now.Year() - now.Year()%100 + yy
	if checkDate(year, month, 1, hh, mm, ss) != "" {
		return year // let checkDate report the time of day
	}
	// time.Date normalises an invalid day (Feb 29 in a common year is
	// Mar 1), which is close enough to place it; checkDate then refuses it.
	t := time.Date(year, time.Month(month), mday, hh, mm, ss, 0, time.UTC)
	switch {
	case t.After(now.AddDate(50, 0, 0)):
		year -= 100
	case !t.After(now.AddDate(-50, 0, 0)):
		year += 100
	}
	return year
}

func checkDate(year, month, mday, hh, mm, ss int) string {
	switch {
	case mday < 1 || mday > daysIn(month, year):
		return fmt.Sprintf("invalid date: %s %d has no day %d", monthAbbr[month-1], year, mday)
	case hh > 23:
		return fmt.Sprintf("invalid date: hour %d out of range", hh)
	case mm > 59:
		return fmt.Sprintf("invalid date: minute %d out of range", mm)
	case ss == 60 && (hh != 23 || mm != 59):
		return "invalid date: second 60 is a leap second, only at 23:59:60"
	case ss > 60:
		return fmt.Sprintf("invalid date: second %d out of range", ss)
	}
	return ""
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func dayIndex(w string, names []string) int {
	for i, n := range names {
		if equalFold(w, n) {
			return i
		}
	}
	return -1
}

// equalFold compares ASCII letters case-insensitively.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i]|0x20 != b[i]|0x20 {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isOWS(c byte) bool    { return c == ' ' || c == '\t' }

// trimOWS removes optional whitespace (SP, HTAB) around a field value.
func trimOWS(s string) string {
	for len(s) > 0 && isOWS(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isOWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}
