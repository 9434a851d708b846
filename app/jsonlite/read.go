package jsonlite

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// Reader reads one JSON text (RFC 8259) a value at a time, strictly: what
// it accepts, json.Unmarshal accepts, and the values it reads into Go
// types are those json.Unmarshal would store there. A decoder written by
// hand for a struct reads an object member by member:
//
//	r := jsonlite.NewReader(data)
//	if r.Object() { // false for null, which leaves v as it is
//		for {
//			key, ok := r.Key()
//			if !ok {
//				break
//			}
//			switch key {
//			case "name":
//				r.String(&v.Name)
//			default:
//				r.Skip() // or match jsonlite.Fold(key), as encoding/json does
//			}
//		}
//	}
//	err := r.End()
//
// The first error stops the reading: every method after it reads nothing
// and End returns it. The value readers (String, Int, Uint, Float, Bool,
// Time) leave their target as it is for null, as json.Unmarshal does, and
// refuse a value of another kind, or a number out of the target's range.
// Strings read point into the text read.
type Reader struct {
	_     [0]func() // not comparable: app.wasm then needs no equality function for it
	s     string
	i     int   // the next byte of s
	err   error // the first error
	depth int   // objects and arrays open
	first bool  // just inside an object or array: no comma before the next member
}

// maxDepth is encoding/json's limit on nested objects and arrays.
const maxDepth = 10000

// NewReader returns a Reader of the JSON text s.
func NewReader(s string) Reader { return Reader{s: s} }

// ReadError is a Reader's error: what was wrong and where.
type ReadError struct {
	_      [0]func() // not comparable, as Reader
	Offset int       // in bytes, from the start of the text
	What   string
}

func (e *ReadError) Error() string {
	return "jsonlite: " + e.What + " at offset " + strconv.Itoa(e.Offset)
}

// Err returns the first error, or nil.
func (r *Reader) Err() error { return r.err }

// fail records the first error, what, at the current offset, and stops
// the reading.
func (r *Reader) fail(what string) { r.failAt(r.i, what) }

// failAt records the first error, what, at offset at, and stops the
// reading. Not inlined: its copies at every error cost app.wasm 4 KB.
//
//go:noinline
func (r *Reader) failAt(at int, what string) {
	if r.err == nil {
		r.err = &ReadError{Offset: at, What: what}
	}
	r.i = len(r.s)
}

// peek skips whitespace and returns the next byte, or 0 at the end (and
// after an error).
func (r *Reader) peek() byte {
	for ; r.i < len(r.s); r.i++ {
		switch c := r.s[r.i]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// End checks that nothing but whitespace follows the value read and
// returns the first error, or nil.
func (r *Reader) End() error {
	if r.peek() != 0 || r.i < len(r.s) {
		r.fail("data after the value")
	}
	return r.err
}

// Object reads the start of an object, or null, and reports whether it
// was an object: then Key reads its members.
func (r *Reader) Object() bool { return r.open('{') }

// Array reads the start of an array, or null, and reports whether it was
// an array: then Item reads its elements.
func (r *Reader) Array() bool { return r.open('[') }

func (r *Reader) open(c byte) bool {
	switch r.peek() {
	case c:
		r.i++
		if r.depth++; r.depth > maxDepth {
			r.fail("exceeded max depth")
			return false
		}
		r.first = true
		return true
	case 'n':
		r.lit("null")
	default:
		r.fail("want " + string(c) + " or null")
	}
	return false
}

// Key reads the next member's key, unquoted, and the colon after it, and
// reports whether there was one: false at the end of the object (read
// too) or after an error. The member's value is read next.
func (r *Reader) Key() (string, bool) {
	if !r.more('}') {
		return "", false
	}
	k := r.str(true)
	if r.peek() != ':' {
		r.fail("want a colon")
		return "", false
	}
	r.i++
	return k, true
}

// Item reports whether another element of the array follows, to be read
// next: false at the end of the array (read too) or after an error.
func (r *Reader) Item() bool { return r.more(']') }

// more reads the comma before the next member or element, or the end of
// the object or array, close, and reports whether a member follows.
func (r *Reader) more(close byte) bool {
	c := r.peek()
	switch {
	case r.err != nil:
		return false
	case c == close:
		r.i++
		r.depth--
		r.first = false
		return false
	case r.first:
		r.first = false
		return true
	case c == ',':
		r.i++
		return true
	}
	r.fail("want , or " + string(close))
	return false
}

// Null reads null if it comes next, and reports whether it did.
func (r *Reader) Null() bool {
	if r.peek() == 'n' {
		r.lit("null")
		return true
	}
	return false
}

// lit reads the literal word.
func (r *Reader) lit(word string) {
	if len(r.s)-r.i >= len(word) && r.s[r.i:r.i+len(word)] == word {
		r.i += len(word)
		return
	}
	r.fail("want " + word)
}

// Skip reads any value.
func (r *Reader) Skip() {
	switch r.peek() {
	case '{':
		r.Object()
		for {
			if _, ok := r.Key(); !ok {
				return
			}
			r.Skip()
		}
	case '[':
		r.Array()
		for r.Item() {
			r.Skip()
		}
	case '"':
		r.str(false)
	case 't':
		r.lit("true")
	case 'f':
		r.lit("false")
	case 'n':
		r.lit("null")
	default:
		r.number()
	}
}

// String reads a string into p, unquoted as json.Unmarshal unquotes it
// (a lone surrogate or invalid UTF-8 becomes U+FFFD).
func (r *Reader) String(p *string) {
	if !r.Null() {
		if s := r.str(true); r.err == nil {
			*p = s
		}
	}
}

// Bool reads true or false into p.
func (r *Reader) Bool(p *bool) {
	switch r.peek() {
	case 't':
		r.lit("true")
		*p = true
	case 'f':
		r.lit("false")
		*p = false
	case 'n':
		r.lit("null")
	default:
		r.fail("want a boolean")
	}
}

// Int reads an integer into p; a fraction, an exponent or a number out of
// int64's range is an error.
func (r *Reader) Int(p *int) {
	if r.Null() {
		return
	}
	if n, ok := r.integer(); ok {
		*p = n
		return
	}
	at := r.i
	if n, err := strconv.ParseInt(r.number(), 10, 64); err == nil {
		*p = int(n)
	} else {
		r.failAt(at, "want an integer (int64)")
	}
}

// Uint reads an unsigned integer into p; a sign, a fraction, an exponent
// or a number out of uint64's range is an error.
func (r *Reader) Uint(p *uint64) {
	if r.Null() {
		return
	}
	if r.i < len(r.s) && r.s[r.i] != '-' {
		if n, ok := r.integer(); ok {
			*p = uint64(n)
			return
		}
	}
	at := r.i
	if n, err := strconv.ParseUint(r.number(), 10, 64); err == nil {
		*p = n
	} else {
		r.failAt(at, "want an unsigned integer (uint64)")
	}
}

// integer reads, when one comes next, a plain integer of at most 18
// digits (the common case, read without strconv) and reports whether it
// did; else it reads nothing.
func (r *Reader) integer() (int, bool) {
	s, i := r.s, r.i
	neg := i < len(s) && s[i] == '-'
	if neg {
		i++
	}
	n, j := 0, i
	for ; j < len(s) && j-i < 19 && '0' <= s[j] && s[j] <= '9'; j++ {
		n = n*10 + int(s[j]-'0')
	}
	switch {
	case j == i, j-i > 18, j-i > 1 && s[i] == '0':
		return 0, false
	case j < len(s) && (s[j] == '.' || s[j] == 'e' || s[j] == 'E'):
		return 0, false
	}
	r.i = j
	if neg {
		n = -n
	}
	return n, true
}

// Float reads a number into p; one beyond float64's range is an error.
func (r *Reader) Float(p *float64) {
	if r.Null() {
		return
	}
	at := r.i
	if f, err := strconv.ParseFloat(r.number(), 64); err == nil {
		*p = f
	} else {
		r.failAt(at, "want a number within float64's range")
	}
}

// Time reads a string into p as time.Time's UnmarshalJSON does: RFC 3339,
// as written, escapes and all.
func (r *Reader) Time(p *time.Time) {
	if r.Null() {
		return
	}
	at := r.i
	s := r.str(false)
	if r.err != nil {
		return
	}
	if t, ok := parseRFC3339(s); ok {
		*p = t
	} else {
		r.failAt(at, "want an RFC 3339 time")
	}
}

// parseRFC3339 parses s as time.Time's UnmarshalText does, to the same
// time in the same location. Not UnmarshalText itself: where its own scan
// fails, it calls time.Parse for the error, which links time's layout
// parser into app.wasm: 17 KB of gzip, for an error this package words
// itself.
func parseRFC3339(s string) (time.Time, bool) {
	ok := true
	num := func(s string, lo, hi int) (x int) {
		for _, c := range []byte(s) {
			if c < '0' || '9' < c {
				ok = false
				return lo
			}
			x = x*10 + int(c-'0')
		}
		if x < lo || hi < x {
			ok = false
			return lo
		}
		return x
	}
	if len(s) < len("2006-01-02T15:04:05") {
		return time.Time{}, false
	}
	year := num(s[0:4], 0, 9999)
	month := num(s[5:7], 1, 12)
	day := num(s[8:10], 1, daysIn(time.Month(month), year))
	hour := num(s[11:13], 0, 23)
	minute := num(s[14:16], 0, 59)
	sec := num(s[17:19], 0, 59)
	if !ok || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	s = s[19:]
	nsec := 0
	if len(s) >= 2 && s[0] == '.' && isDigit(s[1]) {
		n := 2
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		for i := 1; i < 10; i++ { // nine digits, the rest ignored
			nsec *= 10
			if i < n {
				nsec += int(s[i] - '0')
			}
		}
		s = s[n:]
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if s == "Z" {
		return t, true
	}
	if len(s) != len("-07:00") {
		return time.Time{}, false
	}
	hr, mm := num(s[1:3], 0, 23), num(s[4:6], 0, 59)
	if !ok || s[0] != '-' && s[0] != '+' || s[3] != ':' {
		return time.Time{}, false
	}
	offset := (hr*60 + mm) * 60
	if s[0] == '-' {
		offset = -offset
	}
	t = t.Add(-time.Duration(offset) * time.Second)
	// In the local zone where it has that offset then, as time does.
	if _, off := t.In(time.Local).Zone(); off == offset {
		return t.In(time.Local), true
	}
	return t.In(time.FixedZone("", offset)), true
}

// daysIn is how many days month has in year.
func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number reads a number in JSON's grammar and returns it as written ("" on
// an error): -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *Reader) number() string {
	r.peek()
	s, i := r.s, r.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch j := digits(s, i); {
	case j == i, j > i+1 && s[i] == '0':
		r.fail("want a value")
		return ""
	default:
		i = j
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			r.i = j
			r.fail("want a digit")
			return ""
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			r.i = j
			r.fail("want a digit")
			return ""
		}
		i = j
	}
	lit := s[r.i:i]
	r.i = i
	return lit
}

// digits returns the index of the first byte of s from i on that is not a
// decimal digit.
func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// str reads a string and returns it unquoted, or as written between its
// quotes (validated all the same) when not unquote; "" on an error.
func (r *Reader) str(unquote bool) string {
	if r.peek() != '"' {
		r.fail("want a string")
		return ""
	}
	s := r.s
	start := r.i + 1
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			r.i = i + 1
			return s[start:i]
		case c == '\\' || c < ' ':
			return r.strSlow(start, i, unquote)
		case c < utf8.RuneSelf:
			i++
		default:
			rr, n := utf8.DecodeRuneInString(s[i:])
			if rr == utf8.RuneError && n == 1 && unquote {
				return r.strSlow(start, i, unquote)
			}
			i += n
		}
	}
	r.i = i
	r.fail("unterminated string")
	return ""
}

// strSlow goes on reading the string of str at i, where an escape, a
// control character or invalid UTF-8 is, unquoting as encoding/json does.
func (r *Reader) strSlow(start, i int, unquote bool) string {
	s := r.s
	b := append(make([]byte, 0, len(s)-start), s[start:i]...)
	for i < len(s) {
		var rr rune
		switch c := s[i]; {
		case c == '"':
			r.i = i + 1
			if unquote {
				return string(b)
			}
			return s[start:i]
		case c < ' ':
			r.i = i
			r.fail("control character in a string")
			return ""
		case c != '\\':
			var n int
			rr, n = utf8.DecodeRuneInString(s[i:]) // U+FFFD for each invalid byte
			i += n
		case i+1 == len(s):
			i++
			continue
		case s[i+1] == 'u':
			rr = rune(hex4(s, i+2))
			if rr < 0 {
				r.i = i
				r.fail("invalid \\u escape")
				return ""
			}
			i += 6
			if 0xd800 <= rr && rr < 0xe000 {
				// A surrogate: with a low one after a high one, a pair;
				// else U+FFFD, and what follows is read anew.
				lo := rune(-1)
				if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					lo = rune(hex4(s, i+2))
				}
				if rr < 0xdc00 && 0xdc00 <= lo && lo < 0xe000 {
					rr = 0x10000 + (rr-0xd800)<<10 + (lo - 0xdc00)
					i += 6
				} else {
					rr = utf8.RuneError
				}
			}
		default:
			const from, to = "\"\\/bfnrt", "\"\\/\b\f\n\r\t"
			k := 0
			for k < len(from) && from[k] != s[i+1] {
				k++
			}
			if k == len(from) {
				r.i = i
				r.fail("invalid escape")
				return ""
			}
			rr = rune(to[k])
			i += 2
		}
		b = utf8.AppendRune(b, rr)
	}
	r.i = i
	r.fail("unterminated string")
	return ""
}

// hex4 returns the value of the four hexadecimal digits at s[i:], or -1.
func hex4(s string, i int) int {
	if len(s)-i < 4 {
		return -1
	}
	n := 0
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		n = n<<4 | int(c)
	}
	return n
}

// Fold returns key as encoding/json folds it to match a struct field's
// name: ASCII letters in lower case, and the two other runes that fold to
// ASCII ones, U+017F (ſ) to s and U+212A (the Kelvin sign) to k. For a
// field name in lower-case ASCII, encoding/json stores a member in that
// field when its key is the name or Fold(key) is. Fold returns key itself,
// without allocating, when key is ASCII without capitals.
func Fold(key string) string {
	i := 0
	for ; i < len(key); i++ {
		if c := key[i]; 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf {
			break
		}
	}
	if i == len(key) {
		return key
	}
	// Byte by byte: the key is valid UTF-8 (Key made it so), and the lead
	// bytes of ſ and K are no other rune's continuation bytes.
	b := []byte(key[:i])
	for ; i < len(key); i++ {
		c := key[i]
		switch rest := key[i:]; {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case len(rest) >= 2 && rest[:2] == "\u017f":
			c = 's'
			i++
		case len(rest) >= 3 && rest[:3] == "\u212a":
			c = 'k'
			i += 2
		}
		b = append(b, c)
	}
	return string(b)
}

// Strings reads an array of strings into p as json.Unmarshal reads one
// into a []string: element i into (*p)[i] while p's length or capacity
// lasts (null leaves it as it is), the slice cut to the array's length;
// an empty slice, not nil, for []; nil for null.
func (r *Reader) Strings(p *[]string) {
	if !r.Array() {
		if r.err == nil {
			*p = nil
		}
		return
	}
	s, i := *p, 0
	for ; r.Item(); i++ {
		if i == cap(s) {
			s = append(s[:i], "")
		}
		s = s[:max(len(s), i+1)]
		r.String(&s[i])
	}
	if i == 0 {
		s = []string{}
	}
	*p = s[:i]
}

// ReadObject reads s, one JSON object or null, as json.Unmarshal reads one
// into a struct: member reads the value of a member whose key it knows
// (a field's name in lower-case ASCII) and reports true, or reports false
// having read nothing; a key it does not know is tried again as Fold
// folds it, as encoding/json matches keys, and else skipped. It returns
// the first error.
func ReadObject(s string, member func(r *Reader, key string) bool) error {
	r := NewReader(s)
	if r.Object() {
		for {
			key, ok := r.Key()
			if !ok {
				break
			}
			if !member(&r, key) {
				if f := Fold(key); f == key || !member(&r, f) {
					r.Skip()
				}
			}
		}
	}
	return r.End()
}
