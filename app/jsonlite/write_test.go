package jsonlite

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// marshalOracle is encoding/json's encoding of v, which Writer must match.
func marshalOracle(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	return string(b)
}

// writtenBy is what write writes with a compact Writer.
func writtenBy(write func(w *Writer)) string {
	var w Writer
	write(&w)
	return string(w.Bytes())
}

var oddStrings = []string{
	"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>",
	"\b\f\n\r\t", "\x00\x01\x1f\x7f", "é ü 日本 🚀", "\u2028\u2029 line separators",
	"bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate half", "\xf4\x90\x80\x80 above U+10FFFF",
	"truncated \xe2\x82", "\ufffd itself", "tab\tin the middle", strings.Repeat("long ", 200),
}

func TestWriteString(t *testing.T) {
	for _, s := range oddStrings {
		if got, want := writtenBy(func(w *Writer) { w.String(s) }), marshalOracle(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json %s", s, got, want)
		}
	}
}

var oddFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1.5, 123456789, 1e20, 1e21, 1.0000001e21, 9.99999e20,
	1e-6, 9.99999e-7, 1e-7, 1.5e-9, 1e-10, 1e-100, 1e100, -1e-7, -1e21, 5e-324, math.MaxFloat64,
	math.SmallestNonzeroFloat64, 0.000001, 123.456, 1.0 / 3, 2.5e-5, 1e15, 1e16, 123456789012345678,
}

func TestWriteFloat(t *testing.T) {
	for _, v := range oddFloats {
		if got, want := writtenBy(func(w *Writer) { w.Float(v) }), marshalOracle(t, v); got != want {
			t.Errorf("Float(%v) = %s, encoding/json %s", v, got, want)
		}
	}
}

func TestWriteRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(w *Writer)
		value any
	}{
		{"NaN", func(w *Writer) { w.Float(math.NaN()) }, math.NaN()},
		{"+Inf", func(w *Writer) { w.Float(math.Inf(1)) }, math.Inf(1)},
		{"-Inf", func(w *Writer) { w.Float(math.Inf(-1)) }, math.Inf(-1)},
		{"year 10000", func(w *Writer) { w.Time(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)) }, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"year -1", func(w *Writer) { w.Time(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)) }, time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if _, err := json.Marshal(c.value); err == nil {
			t.Fatalf("%s: encoding/json no longer refuses it", c.name)
		}
		var w Writer
		w.BeginArray()
		w.Int(1)
		c.write(&w)
		w.Float(2) // a refusal leaves the document well formed
		w.EndArray()
		if got := string(w.Bytes()); got != "[1,null,2]" || w.Err() == nil {
			t.Errorf("%s: wrote %s, Err %v; want [1,null,2] and an error", c.name, got, w.Err())
		}
	}
}

func TestWriteScalars(t *testing.T) {
	loc := time.FixedZone("", -(3*3600 + 30*60))
	for _, c := range []struct {
		write func(w *Writer)
		value any
	}{
		{func(w *Writer) { w.Int(0) }, 0},
		{func(w *Writer) { w.Int(-42) }, -42},
		{func(w *Writer) { w.Int(math.MaxInt64) }, math.MaxInt64},
		{func(w *Writer) { w.Int(math.MinInt64) }, math.MinInt64},
		{func(w *Writer) { w.Uint(math.MaxUint64) }, uint64(math.MaxUint64)},
		{func(w *Writer) { w.Uint(7) }, uint32(7)},
		{func(w *Writer) { w.Bool(true) }, true},
		{func(w *Writer) { w.Bool(false) }, false},
		{func(w *Writer) { w.Null() }, nil},
		{func(w *Writer) { w.Time(time.Time{}) }, time.Time{}},
		{func(w *Writer) { w.Time(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) }, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		{func(w *Writer) { w.Time(time.Date(2026, 12, 4, 3, 57, 14, 123456789, time.UTC)) }, time.Date(2026, 12, 4, 3, 57, 14, 123456789, time.UTC)},
		{func(w *Writer) { w.Time(time.Date(2026, 12, 4, 3, 57, 14, 120000000, loc)) }, time.Date(2026, 12, 4, 3, 57, 14, 120000000, loc)},
		{func(w *Writer) { w.Floats(nil) }, []float64(nil)},
		{func(w *Writer) { w.Floats([]float64{}) }, []float64{}},
		{func(w *Writer) { w.Floats([]float64{1.5, -2, 1e-9}) }, []float64{1.5, -2, 1e-9}},
		{func(w *Writer) { w.Ints(nil) }, []int(nil)},
		{func(w *Writer) { w.Ints([]int{3, 0, -1}) }, []int{3, 0, -1}},
		{func(w *Writer) { w.Strings(nil) }, []string(nil)},
		{func(w *Writer) { w.Strings([]string{"a", "<b>", ""}) }, []string{"a", "<b>", ""}},
		{func(w *Writer) { w.Raw([]byte(`{"a":[1,2]}`)) }, json.RawMessage(`{"a":[1,2]}`)},
	} {
		if got, want := writtenBy(c.write), marshalOracle(t, c.value); got != want {
			t.Errorf("%#v: wrote %s, encoding/json %s", c.value, got, want)
		}
	}
}

// nested is a document with what Writer must place: objects and arrays,
// empty and not, within each other, a map, omitted fields.
type nested struct {
	Name    string            `json:"name"`
	Skipped string            `json:"skipped,omitempty"`
	Empty   map[string]int    `json:"empty"`
	Map     map[string]string `json:"map"`
	List    []inner           `json:"list"`
	None    []inner           `json:"none"`
	Nil     []float64         `json:"nil"`
	Grid    [][2]float64      `json:"grid"`
	At      time.Time         `json:"at"`
	Last    *inner            `json:"last"`
}

type inner struct {
	N    int      `json:"n"`
	Tags []string `json:"tags,omitempty"`
	Ptr  *float64 `json:"ptr,omitempty"`
}

func (x *inner) write(w *Writer) {
	w.BeginObject()
	w.Key("n").Int(x.N)
	if len(x.Tags) > 0 {
		w.Key("tags").Strings(x.Tags)
	}
	if x.Ptr != nil {
		w.Key("ptr").Float(*x.Ptr)
	}
	w.EndObject()
}

func (x *nested) write(w *Writer) {
	w.BeginObject()
	w.Key("name").String(x.Name)
	if x.Skipped != "" {
		w.Key("skipped").String(x.Skipped)
	}
	w.Key("empty").BeginObject()
	for _, k := range Keys(x.Empty) {
		w.Key(k).Int(x.Empty[k])
	}
	w.EndObject()
	w.Key("map").BeginObject()
	for _, k := range Keys(x.Map) {
		w.Key(k).String(x.Map[k])
	}
	w.EndObject()
	w.Key("list").BeginArray()
	for i := range x.List {
		x.List[i].write(w)
	}
	w.EndArray()
	w.Key("none").BeginArray()
	w.EndArray()
	w.Key("nil").Floats(x.Nil)
	w.Key("grid").BeginArray()
	for _, g := range x.Grid {
		w.Floats(g[:])
	}
	w.EndArray()
	w.Key("at").Time(x.At)
	w.Key("last")
	if x.Last == nil {
		w.Null()
	} else {
		x.Last.write(w)
	}
	w.EndObject()
}

func nestedSample() *nested {
	half := 0.5
	return &nested{
		Name:  "a <name> & \u2028",
		Empty: map[string]int{},
		Map:   map[string]string{"zeta": "z", "alpha": "a", "Beta": "B", "a-b": "", "é": "e", "": "empty key"},
		List:  []inner{{N: 1}, {N: 2, Tags: []string{"x", "y"}, Ptr: &half}, {N: 3, Tags: []string{}}},
		None:  []inner{},
		Grid:  [][2]float64{{0, 1e-7}, {-1, 1e21}},
		At:    time.Date(2026, 1, 1, 0, 0, 0, 5, time.UTC),
		Last:  &inner{N: 4},
	}
}

func TestWriteDocumentAsMarshal(t *testing.T) {
	x := nestedSample()
	if got, want := writtenBy(x.write), marshalOracle(t, x); got != want {
		t.Errorf("wrote\n%s\nencoding/json\n%s", got, want)
	}
	x.Last, x.Skipped = nil, "here"
	if got, want := writtenBy(x.write), marshalOracle(t, x); got != want {
		t.Errorf("wrote\n%s\nencoding/json\n%s", got, want)
	}
}

func TestWriteDocumentAsMarshalIndent(t *testing.T) {
	for _, indent := range []string{" ", "  ", "\t"} {
		x := nestedSample()
		w := NewIndentWriter(indent)
		x.write(w)
		want, err := json.MarshalIndent(x, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.Bytes(); !bytes.Equal(got, want) {
			t.Errorf("indent %q: wrote\n%s\nencoding/json\n%s", indent, got, want)
		}
	}
	// Scalars and empty containers alone.
	for _, c := range []struct {
		write func(w *Writer)
		value any
	}{
		{func(w *Writer) { w.Int(1) }, 1},
		{func(w *Writer) { w.BeginObject(); w.EndObject() }, struct{}{}},
		{func(w *Writer) { w.BeginArray(); w.EndArray() }, []int{}},
		{func(w *Writer) { w.Ints([]int{1}) }, []int{1}},
	} {
		w := NewIndentWriter(" ")
		c.write(w)
		want, _ := json.MarshalIndent(c.value, "", " ")
		if got := w.Bytes(); !bytes.Equal(got, want) {
			t.Errorf("%#v: wrote %s, encoding/json %s", c.value, got, want)
		}
	}
}

func TestWriterFlushToAndReset(t *testing.T) {
	x := nestedSample()
	want := writtenBy(x.write)
	var w Writer
	var out bytes.Buffer
	w.BeginObject()
	w.Key("name").String(x.Name)
	if err := w.FlushTo(&out); err != nil || w.Len() != 0 {
		t.Fatalf("FlushTo: %v, %d bytes left", err, w.Len())
	}
	w.Key("n").Int(1) // goes on in the object: a comma first
	w.EndObject()
	w.FlushTo(&out)
	if got, want := out.String(), marshalOracle(t, struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}{x.Name, 1}); got != want {
		t.Errorf("in pieces: %s, want %s", got, want)
	}
	w.Reset()
	w.Float(math.NaN())
	w.Reset()
	if x.write(&w); string(w.Bytes()) != want || w.Err() != nil {
		t.Errorf("after Reset: %s, Err %v; want %s", w.Bytes(), w.Err(), want)
	}
}

func TestKeysAreInEncodingJSONsOrder(t *testing.T) {
	m := map[string]bool{}
	for _, s := range append(oddStrings, "B", "b", "a", "A", "aa", "a ", "Z", "_") {
		m[s] = true
	}
	var w Writer
	w.BeginObject()
	for _, k := range Keys(m) {
		w.Key(k).Bool(m[k])
	}
	w.EndObject()
	if got, want := string(w.Bytes()), marshalOracle(t, m); got != want {
		t.Errorf("wrote\n%s\nencoding/json\n%s", got, want)
	}
}

func FuzzWriteString(f *testing.F) {
	for _, s := range oddStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := writtenBy(func(w *Writer) { w.Key(s).String(s) }), marshalOracle(t, s)+":"+marshalOracle(t, s); got != want {
			t.Errorf("Key(%q).String(%[1]q) = %s, encoding/json %s", s, got, want)
		}
	})
}

func FuzzWriteFloat(f *testing.F) {
	for _, v := range oddFloats {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		got := writtenBy(func(w *Writer) { w.Float(v) })
		want, err := json.Marshal(v)
		if err != nil {
			want = []byte("null") // NaN, ±Inf: Writer writes null and says so
		}
		if got != string(want) {
			t.Errorf("Float(%v) = %s, encoding/json %s", v, got, want)
		}
	})
}

func BenchmarkWriteObject(b *testing.B) {
	x := nestedSample()
	var w Writer
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		x.write(&w)
	}
}

// omitted has a field of each kind the OmitEmpty and OmitZero forms write.
type omitted struct {
	S string    `json:"s,omitempty"`
	I int       `json:"i,omitempty"`
	U uint64    `json:"u,omitempty"`
	F float64   `json:"f,omitempty"`
	B bool      `json:"b,omitempty"`
	T time.Time `json:"t,omitzero"`
}

func TestWriteOmitEmpty(t *testing.T) {
	for _, x := range []omitted{
		{},
		{S: "<s>", I: -1, U: 2, F: 1e-9, B: true, T: time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC)},
		{F: math.Copysign(0, -1), T: time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("", 3600))},
	} {
		got := writtenBy(func(w *Writer) {
			w.BeginObject()
			w.StringOmitEmpty("s", x.S)
			w.IntOmitEmpty("i", x.I)
			w.UintOmitEmpty("u", x.U)
			w.FloatOmitEmpty("f", x.F)
			w.BoolOmitEmpty("b", x.B)
			w.TimeOmitZero("t", x.T)
			w.EndObject()
		})
		if want := marshalOracle(t, x); got != want {
			t.Errorf("%+v: wrote %s, encoding/json %s", x, got, want)
		}
	}
}
