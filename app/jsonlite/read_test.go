package jsonlite

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"retrylab/app/jsonlite/jsontest"
)

// readAny reads any value as json.Unmarshal reads one into an any:
// map[string]any, []any, string, float64, bool or nil.
func readAny(r *Reader) any {
	switch r.peek() {
	case '{':
		m := map[string]any{}
		r.Object()
		for {
			k, ok := r.Key()
			if !ok {
				return m
			}
			m[k] = readAny(r)
		}
	case '[':
		a := []any{}
		r.Array()
		for r.Item() {
			a = append(a, readAny(r))
		}
		return a
	case '"':
		var s string
		r.String(&s)
		return s
	case 't', 'f':
		var b bool
		r.Bool(&b)
		return b
	case 'n':
		r.Null()
		return nil
	}
	var f float64
	r.Float(&f)
	return f
}

// checkRead checks that the Reader reads s as json.Unmarshal does: as a
// value of any type, and into each type the value readers read, and that
// Skip accepts what json.Valid does.
func checkRead(t *testing.T, s string) {
	t.Helper()
	var want any
	werr := json.Unmarshal([]byte(s), &want)
	r := NewReader(s)
	got := readAny(&r)
	if gerr := r.End(); (gerr == nil) != (werr == nil) {
		t.Errorf("%q as any: error %v, encoding/json's %v", s, gerr, werr)
	} else if werr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%q as any: got %#v, want %#v", s, got, want)
	}
	r = NewReader(s)
	r.Skip()
	if gerr := r.End(); (gerr == nil) != json.Valid([]byte(s)) {
		t.Errorf("%q: Skip: error %v, json.Valid %v", s, gerr, json.Valid([]byte(s)))
	}
	checkAs(t, s, "", (*Reader).String)
	checkAs(t, s, 0, (*Reader).Int)
	checkAs(t, s, uint64(0), (*Reader).Uint)
	checkAs(t, s, 0.0, (*Reader).Float)
	checkAs(t, s, false, (*Reader).Bool)
	checkTime(t, s)
	// And null leaves a value as it is.
	checkAs(t, s, "x", (*Reader).String)
	checkAs(t, s, 7, (*Reader).Int)
	checkAs(t, s, true, (*Reader).Bool)
	checkAs(t, s, []string(nil), (*Reader).Strings)
	checkAs(t, s, []string{"a", "b", "c"}, (*Reader).Strings)
	checkAs(t, s, make([]string, 1, 3), (*Reader).Strings)
	checkObject(t, s)
}

// object is a struct ReadObject reads in the test below.
type object struct {
	Name  string   `json:"name"`
	N     int      `json:"n"`
	Tags  []string `json:"tags"`
	Inner struct {
		OK bool `json:"ok"`
	} `json:"inner"`
}

func (o *object) member(r *Reader, key string) bool {
	switch key {
	case "name":
		r.String(&o.Name)
	case "n":
		r.Int(&o.N)
	case "tags":
		r.Strings(&o.Tags)
	case "inner":
		return readInner(r, &o.Inner.OK)
	default:
		return false
	}
	return true
}

// readInner reads {"ok": bool} as a nested struct.
func readInner(r *Reader, ok *bool) bool {
	if r.Object() {
		for {
			key, more := r.Key()
			if !more {
				break
			}
			if key == "ok" || Fold(key) == "ok" {
				r.Bool(ok)
			} else {
				r.Skip()
			}
		}
	}
	return true
}

// checkObject checks ReadObject against json.Unmarshal into a struct,
// from one with every field set.
func checkObject(t *testing.T, s string) {
	t.Helper()
	var want, got object
	for _, o := range []*object{&want, &got} {
		*o = object{Name: "x", N: 3, Tags: []string{"a", "b"}}
		o.Inner.OK = true
	}
	werr := json.Unmarshal([]byte(s), &want)
	gerr := ReadObject(s, got.member)
	if (gerr == nil) != (werr == nil) {
		t.Errorf("%q as a struct: error %v, encoding/json's %v", s, gerr, werr)
	} else if werr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%q as a struct: got %#v, want %#v", s, got, want)
	}
}

// checkAs checks that read reads s into a T that holds init first as
// json.Unmarshal does.
func checkAs[T any](t *testing.T, s string, init T, read func(*Reader, *T)) {
	t.Helper()
	want, got := init, init
	werr := json.Unmarshal([]byte(s), &want)
	r := NewReader(s)
	read(&r, &got)
	gerr := r.End()
	if (gerr == nil) != (werr == nil) {
		t.Errorf("%q as %T: error %v, encoding/json's %v", s, got, gerr, werr)
	} else if werr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%q as %T: got %#v, want %#v", s, got, got, want)
	}
}

// checkTime checks that the Reader reads s as a time as encoding/json
// does, but for what RFC 3339 does not allow and time.Time's UnmarshalJSON
// takes all the same (its strict checks are disabled, go.dev/issue/54580):
// the Reader refuses those.
func checkTime(t *testing.T, s string) {
	t.Helper()
	var want, got time.Time
	werr := json.Unmarshal([]byte(s), &want)
	r := NewReader(s)
	r.Time(&got)
	gerr := r.End()
	switch {
	case gerr != nil && werr == nil && !jsontest.StrictTimes(`{"t":`+s+`}`, "t"):
	case (gerr == nil) != (werr == nil):
		t.Errorf("%q as a time: error %v, encoding/json's %v", s, gerr, werr)
	case werr == nil && !reflect.DeepEqual(got, want):
		t.Errorf("%q as a time: got %#v, want %#v", s, got, want)
	}
}

// readCases are JSON texts, valid and not, that the tests and the fuzz
// test start from.
var readCases = []string{
	// Literals and whitespace.
	`null`, `true`, `false`, ` true `, "\t\r\n null\n", `nul`, `tru`, `falsey`, `True`, `NULL`, ``, ` `, "\x00", "1\x00",
	// Numbers in every form, and not.
	`0`, `-0`, `1`, `-1`, `12345`, `0.5`, `-0.0`, `1e3`, `1E3`, `1e+3`, `1e-3`, `1.5e300`, `2.5E-3`,
	`01`, `-01`, `00`, `+1`, `.5`, `1.`, `1.e3`, `1e`, `1e+`, `-`, `--1`, `0x10`, `1_000`, `Infinity`, `NaN`, `1 2`,
	`9223372036854775807`, `-9223372036854775808`, `9223372036854775808`, `-9223372036854775809`,
	`18446744073709551615`, `18446744073709551616`, `999999999999999999`, `1000000000000000000`, `-999999999999999999`,
	`99999999999999999999999`, `1e400`, `-1e400`, `1e-400`, `4.9e-324`, `1.7976931348623157e308`, `1.7976931348623159e308`,
	`123456789012345678901234567890e-20`, `1.0`, `10e0`, `3.0e2`,
	// Strings, escapes, surrogates, bad UTF-8.
	`""`, `"a"`, `"a b/c"`, `"\"\\\/\b\f\n\r\t"`, `"\u0041\u00e9\u20AC"`, `"\ud83d\ude00"`, `"\uD83D\uDE00x"`,
	`"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\ude00\ud83d"`, `"\ud83d\\"`,
	`"\u12"`, `"\u12g4"`, `"\x"`, `"\'"`, `"\`, `"\"`, `"abc`, `"a` + "\n" + `b"`, "\"a\tb\"", "\"\x7f\"",
	"\"\xff\"", "\"a\xc3\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"é€😀\"", "\"\xe2\x82\"", `"\u0000"`,
	`"2026-12-04T04:01:02.123456789Z"`, `"2026-12-04T04:01:02Z"`, `"2026-12-04T05:01:02+01:00"`, `"2026-12-04 04:01:02Z"`,
	`"2026-12-04T04:01:02.Z"`, `"2026-12-04T24:00:00Z"`, `"2026-12-04T04:01:02\u002e5Z"`, `"2026-12-04T04:01:02z"`,
	`"0000-01-01T00:00:00Z"`, `"2026-02-30T00:00:00Z"`, `"2026-12-04T04:01:02+24:00"`, `"2026-12-04T04:01:02.1234567891Z"`,
	`"2026-12-04T4:01:02Z"`, `"2026-12-04T04:01:02,5Z"`, `"2026-12-04T04:01:02+01:60"`, `"2026-12-04T04:01:02+01:00"`,
	`"2026-12-04T04:01:02-00:00"`, `"2024-02-29T23:59:59.999999999+23:59"`, `"2026-12-04t04:01:02z"`, `"2026-12-04T04:01:02.Z"`,
	// Objects and arrays.
	`{}`, `[]`, `{"a":1}`, `{"a":1,}`, `{,"a":1}`, `{"a" 1}`, `{"a":}`, `{"a":1 "b":2}`, `{a:1}`, `{"a":1]`, `[1}`,
	`[1,]`, `[,1]`, `[1 2]`, `[[[]]]`, `{"a":{"b":[1,{"c":null}]},"d":"e"}`, `{"a":1,"a":2}`, `{"a":1,"A":2}`,
	` { "a" : [ 1 , 2 ] } `, `{"\u0061":1}`, `{"a\u0000b":1}`, `{"":0}`, `[`, `{`, `{"a"`, `{"a":`, `{"a":1`, `[1`,
	`}`, `]`, `{} {}`, `[]]`, `{"a":[1,2,3],"b":{"c":{"d":[]}}}`, "[\"\xff\"]", `{"\ud800":1}`,
	// Arrays of strings, and structs.
	`["x"]`, `["x","y","z","w"]`, `[null,"y"]`, `["x",null,null,null]`, `[1]`, `["x",1]`, `[[]]`, `[null]`,
	`{"name":"n","N":5,"TAGS":["t"],"inner":{"OK":true},"other":[{}]}`, `{"name":null,"n":null,"tags":null,"inner":null}`,
	`{"tags":[],"inner":{}}`, `{"tags":["a"],"tags":[null,"b"]}`, `{"inner":{"ok":1}}`, `{"inner":[]}`, `{"\u017fome":1,"na\u006de":"m"}`,
}

func TestReadMatchesUnmarshal(t *testing.T) {
	for _, s := range readCases {
		checkRead(t, s)
	}
}

// The nesting limit is encoding/json's.
func TestReadDepth(t *testing.T) {
	for _, n := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		for _, open := range []string{"[", `{"a":`} {
			close := "]"
			if open != "[" {
				close = "}"
			}
			s := strings.Repeat(open, n) + strings.Repeat(close, n)
			werr := json.Unmarshal([]byte(s), new(any))
			r := NewReader(s)
			r.Skip()
			if gerr := r.End(); (gerr == nil) != (werr == nil) {
				t.Errorf("%d × %s: error %v, encoding/json's %v", n, open, gerr, werr)
			}
		}
	}
}

// Strings without escapes are read in place, numbers and keys without
// allocating.
func TestReadAllocs(t *testing.T) {
	const s = `{"type":"arrival","seq":42,"at":"2026-12-04T04:01:02.123456789Z","ms":1.5,"ok":true,"x":[1,{"y":null}]}`
	var (
		str  string
		n    int
		u    uint64
		f    float64
		b    bool
		when time.Time
	)
	allocs := testing.AllocsPerRun(100, func() {
		r := NewReader(s)
		r.Object()
		for {
			k, ok := r.Key()
			if !ok {
				break
			}
			switch k {
			case "type":
				r.String(&str)
			case "seq":
				r.Uint(&u)
			case "at":
				r.Time(&when)
			case "ms":
				r.Float(&f)
			case "ok":
				r.Bool(&b)
			default:
				r.Skip()
			}
		}
		if r.End() != nil {
			t.Fatal(r.End())
		}
		r = NewReader(`-42`)
		r.Int(&n)
	})
	if allocs != 0 || str != "arrival" || u != 42 || f != 1.5 || !b || when.Nanosecond() != 123456789 || n != -42 {
		t.Errorf("%v allocations; read %q %d %v %v %v %d", allocs, str, u, f, b, when, n)
	}
}

// Fold matches a key to a lower-case ASCII name as encoding/json does,
// for every rune: a struct with a field for each letter, digit and
// underscore stores the member {"<rune>": 1} in the field Fold names, or
// in none when Fold gives no name of them.
func TestFoldAsEncodingJSON(t *testing.T) {
	names := "abcdefghijklmnopqrstuvwxyz0123456789_"
	var fields []reflect.StructField
	for i, c := range names {
		fields = append(fields, reflect.StructField{Name: "F" + string(rune('A'+i/26)) + string(rune('A'+i%26)), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + string(c) + `"`)})
	}
	typ := reflect.StructOf(fields)
	step := rune(1)
	if testing.Short() {
		step = 7
	}
	for c := rune(0x20); c <= utf8.MaxRune; c += step {
		if c == '"' || c == '\\' || 0xd800 <= c && c < 0xe000 {
			continue
		}
		key := string(c)
		v := reflect.New(typ)
		if err := json.Unmarshal([]byte(`{"`+key+`":1}`), v.Interface()); err != nil {
			t.Fatal(err)
		}
		want := ""
		for i := range names {
			if v.Elem().Field(i).Int() == 1 {
				want = names[i : i+1]
			}
		}
		got := Fold(key)
		if !strings.Contains(names, got) || len(got) != 1 {
			got = ""
		}
		if got != want {
			t.Errorf("%U: Fold gives %q, encoding/json stores it in %q", c, got, want)
		}
	}
	for _, k := range []string{"type", "reset_ms", "", "é"} {
		if Fold(k) != k {
			t.Errorf("Fold(%q) = %q", k, Fold(k))
		}
	}
	if got := Fold("RESET_\u017fMS\u212aé"); got != "reset_smské" {
		t.Errorf("Fold = %q", got)
	}
	if n := testing.AllocsPerRun(10, func() { Fold("retry_after_ms") }); n != 0 {
		t.Errorf("Fold of a folded key allocates %v times", n)
	}
}

// The errors say where.
func TestReadError(t *testing.T) {
	r := NewReader(`{"a": tru}`)
	r.Skip()
	err := r.End()
	if e, ok := err.(*ReadError); !ok || e.Offset != 6 || err.Error() != "jsonlite: want true at offset 6" {
		t.Errorf("%#v: %v", err, err)
	}
	// After the first error nothing is read.
	var s string
	r = NewReader(`[1 "x"]`)
	if !r.Array() || !r.Item() {
		t.Fatal("no first element")
	}
	r.Skip()
	if r.Item() || r.Err() == nil {
		t.Fatal("read past the error")
	}
	if r.String(&s); s != "" || r.End() != r.Err() {
		t.Errorf("read %q after the error", s)
	}
}

// FuzzRead: the Reader and encoding/json agree on every text.
func FuzzRead(f *testing.F) {
	for _, s := range readCases {
		f.Add(s)
	}
	f.Add(`{"type":"arrival","key":"run-6f1c2a","seq":48213,"at":"2026-12-04T04:01:02.123456789Z","allowed":false,"reset_ms":812.25}`)
	f.Add(`[1.5e3,-0,"\u00e9",[{}],{"a":[null,true]}]`)
	f.Fuzz(func(t *testing.T, s string) {
		checkRead(t, s)
	})
}

func TestReadFloatLimits(t *testing.T) {
	var f float64
	r := NewReader(`1.7976931348623157e308`)
	if r.Float(&f); r.End() != nil || f != math.MaxFloat64 {
		t.Errorf("%v %v", f, r.End())
	}
}
