package jsonlite

import (
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// Writer appends JSON to a buffer, a token at a time, as encoding/json's
// Marshal (or MarshalIndent with no prefix) writes the same values: keys
// and values in the order they are given, strings escaped as it escapes
// them (HTML's <, > and & too), numbers formatted as it formats them.
// It checks nothing of the document's shape: a key is written where it is
// asked for, so the caller writes a key before each of an object's values
// and none in an array, and closes what it opens.
//
// Values encoding/json refuses (a NaN or an infinite float, a time whose
// year has not four digits) are written as null, and Err reports the
// first of them: encoding/json would have written nothing, so a caller
// that must not pass on such a document checks Err.
//
// Map keys: encoding/json writes a map's entries sorted by key; Keys gives
// them in that order. omitempty and omitzero are the caller's: it leaves
// out the keys whose values are empty or zero.
//
// The zero Writer writes compact JSON into a new buffer.
type Writer struct {
	b      []byte
	indent string // one level's indentation; "" writes compactly
	depth  int    // objects and arrays open
	more   bool   // the object or array open has a value: the next one takes a comma
	keyed  bool   // a key was written: its value comes next, with nothing before it
	err    error
}

// NewIndentWriter is a Writer that indents as json.MarshalIndent(v, "",
// indent) does: each element on a line of its own, indent once per level,
// a space after each key's colon, and an empty object or array as {} or [].
func NewIndentWriter(indent string) *Writer { return &Writer{indent: indent} }

// Bytes is what w has written since it was made or last flushed.
func (w *Writer) Bytes() []byte { return w.b }

// Len is len(w.Bytes()).
func (w *Writer) Len() int { return len(w.b) }

// Reset empties w's buffer and forgets where it was in a document, for a
// new document of the same indentation; it keeps the buffer's memory.
func (w *Writer) Reset() { *w = Writer{b: w.b[:0], indent: w.indent} }

// FlushTo writes what w holds to dst and empties w's buffer, to write a
// long document in pieces; w goes on where it was in it.
func (w *Writer) FlushTo(dst io.Writer) error {
	_, err := dst.Write(w.b)
	w.b = w.b[:0]
	return err
}

// Err is the first value w refused (see Writer), or nil.
func (w *Writer) Err() error { return w.err }

// elem starts a value or a key: a comma after the previous element, and
// when indenting a new line at the depth open. A value after its key
// starts where the key ended.
func (w *Writer) elem() {
	if w.keyed {
		w.keyed = false
		return
	}
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
	if w.indent != "" && w.depth > 0 {
		w.newline(w.depth)
	}
}

func (w *Writer) newline(depth int) {
	w.b = append(w.b, '\n')
	for range depth {
		w.b = append(w.b, w.indent...)
	}
}

// Key writes an object's key; the value written next is its value.
func (w *Writer) Key(k string) *Writer {
	w.elem()
	w.b = appendQuoted(w.b, k)
	w.b = append(w.b, ':')
	if w.indent != "" {
		w.b = append(w.b, ' ')
	}
	w.keyed = true
	return w
}

// BeginObject opens an object: {.
func (w *Writer) BeginObject() { w.open('{') }

// EndObject closes the object open: }.
func (w *Writer) EndObject() { w.close('}') }

// BeginArray opens an array: [.
func (w *Writer) BeginArray() { w.open('[') }

// EndArray closes the array open: ].
func (w *Writer) EndArray() { w.close(']') }

func (w *Writer) open(c byte) {
	w.elem()
	w.b = append(w.b, c)
	w.depth++
	w.more = false
}

func (w *Writer) close(c byte) {
	w.depth--
	if w.more && w.indent != "" {
		w.newline(w.depth)
	}
	w.b = append(w.b, c)
	w.more = true // the object or array closed was its parent's element
}

// String writes s as a JSON string, escaped as encoding/json escapes it
// (appendQuoted).
func (w *Writer) String(s string) {
	w.elem()
	w.b = appendQuoted(w.b, s)
}

// Int writes v.
func (w *Writer) Int(v int) {
	w.elem()
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// Uint writes v.
func (w *Writer) Uint(v uint64) {
	w.elem()
	w.b = strconv.AppendUint(w.b, v, 10)
}

// Float writes v as encoding/json writes a float64 (AppendFloat); a NaN or
// an infinity as null, and Err reports it.
func (w *Writer) Float(v float64) {
	w.elem()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		w.refuse("unsupported value: " + strconv.FormatFloat(v, 'g', -1, 64))
		return
	}
	w.b = AppendFloat(w.b, v)
}

// Bool writes true or false.
func (w *Writer) Bool(v bool) {
	w.elem()
	w.b = strconv.AppendBool(w.b, v)
}

// Null writes null.
func (w *Writer) Null() {
	w.elem()
	w.b = append(w.b, "null"...)
}

// Time writes t as its MarshalJSON does: RFC 3339 with nanoseconds, in
// quotes; one it refuses (a year outside 0–9999, a zone's offset of 24
// hours or more) as null, and Err reports it.
func (w *Writer) Time(t time.Time) {
	w.elem()
	b, err := t.MarshalJSON()
	if err != nil {
		w.refuse(err.Error())
		return
	}
	w.b = append(w.b, b...)
}

// Raw writes b, which must be one JSON value, as it is (not indented:
// unlike encoding/json with a json.RawMessage, which it would be).
func (w *Writer) Raw(b []byte) {
	w.elem()
	w.b = append(w.b, b...)
}

// The omitempty and omitzero forms: a key and its value, or nothing when
// the value is empty (a struct field tagged omitempty, or a time.Time
// tagged omitzero, that encoding/json leaves out).

// StringOmitEmpty writes key k and v, unless v is "".
func (w *Writer) StringOmitEmpty(k, v string) {
	if v != "" {
		w.Key(k).String(v)
	}
}

// IntOmitEmpty writes key k and v, unless v is 0.
func (w *Writer) IntOmitEmpty(k string, v int) {
	if v != 0 {
		w.Key(k).Int(v)
	}
}

// UintOmitEmpty writes key k and v, unless v is 0.
func (w *Writer) UintOmitEmpty(k string, v uint64) {
	if v != 0 {
		w.Key(k).Uint(v)
	}
}

// FloatOmitEmpty writes key k and v, unless v is 0 (or -0).
func (w *Writer) FloatOmitEmpty(k string, v float64) {
	if v != 0 {
		w.Key(k).Float(v)
	}
}

// BoolOmitEmpty writes key k and true, or nothing.
func (w *Writer) BoolOmitEmpty(k string, v bool) {
	if v {
		w.Key(k).Bool(true)
	}
}

// TimeOmitZero writes key k and t, unless t.IsZero().
func (w *Writer) TimeOmitZero(k string, t time.Time) {
	if !t.IsZero() {
		w.Key(k).Time(t)
	}
}

// Floats writes vs as an array of numbers (Float), or null when vs is nil,
// as encoding/json writes a slice.
func (w *Writer) Floats(vs []float64) {
	if vs == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, v := range vs {
		w.Float(v)
	}
	w.EndArray()
}

// Ints writes vs as an array of numbers, or null when vs is nil.
func (w *Writer) Ints(vs []int) {
	if vs == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, v := range vs {
		w.Int(v)
	}
	w.EndArray()
}

// Strings writes vs as an array of strings, or null when vs is nil.
func (w *Writer) Strings(vs []string) {
	if vs == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, v := range vs {
		w.String(v)
	}
	w.EndArray()
}

// refuse writes null in place of a value encoding/json refuses, and keeps
// the first such refusal for Err.
func (w *Writer) refuse(why string) {
	w.b = append(w.b, "null"...)
	if w.err == nil {
		w.err = errors.New("jsonlite: " + why)
	}
}

// Keys is m's keys in the order encoding/json writes a map's entries:
// sorted, byte by byte.
func Keys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// AppendFloat appends v as encoding/json writes a float64: like
// strconv's 'f' format, but 'e' below 1e-6 and from 1e21 on (as
// JavaScript's Number.toString), its exponent without a leading zero
// (1e-7, not 1e-07). It does not refuse NaN or an infinity: Writer.Float
// does.
func AppendFloat(b []byte, v float64) []byte {
	abs := math.Abs(v)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		// e-07 → e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigit = "0123456789abcdef"

// appendQuoted appends s quoted as encoding/json quotes a string (its
// appendString with escapeHTML): \" and \\; \b, \f, \n, \r and \t; the
// other control characters, <, > and & as \u00XX; U+2028 and U+2029 as
// \u2028 and \u2029 (JavaScript's line terminators); each byte of
// invalid UTF-8 as \ufffd. Everything else is copied.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is to be copied as it is
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigit[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
