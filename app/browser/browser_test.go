package browser

import (
	"go/build/constraint"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"retrylab/core"
)

func TestTimeoutMS(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int
	}{
		{time.Millisecond, 1},
		{1500 * time.Microsecond, 2}, // rounded up: a wait never ends early
		{2 * time.Second, 2000},
		{time.Nanosecond, 1},
		{100 * 24 * time.Hour, 1<<31 - 1}, // setTimeout's largest delay
	}
	for _, tt := range tests {
		if got := timeoutMS(tt.d); got != tt.want {
			t.Errorf("timeoutMS(%v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}

func TestOpsEncoding(t *testing.T) {
	var o Ops
	o.FillStyle(2)
	o.Rect(1, 2, 3, 4)
	o.BeginPath()
	o.Shape(Triangle, 10, 20, 3)
	o.FillPath()
	o.Text("1 s", 5, 6, 1, AlignCenter, BaselineTop)
	o.Text("1 s", 7, 8, 1, AlignLeft, BaselineMiddle) // the string is sent once
	want := []float32{
		opFill, 2,
		opRect, 1, 2, 3, 4,
		opBegin,
		opShape, float32(Triangle), 10, 20, 3,
		opFillPath,
		opText, 0, 5, 6, 1, AlignCenter, BaselineTop,
		opText, 0, 7, 8, 1, AlignLeft, BaselineMiddle,
	}
	if !slices.Equal(o.Buffer(), want) {
		t.Errorf("buffer\n got %v\nwant %v", o.Buffer(), want)
	}
	if !slices.Equal(o.Strings(), []string{"1 s"}) {
		t.Errorf("strings %q", o.Strings())
	}
	o.Reset()
	if o.Len() != 0 || len(o.Strings()) != 0 {
		t.Error("Reset left data")
	}
	o.Text("x", 0, 0, 0, 0, 0)
	if o.Buffer()[1] != 0 {
		t.Error("string index not reset")
	}
}

func TestHeaderGet(t *testing.T) {
	h := Header("retry-after: 3\nratelimit: \"default\";r=0;t=3\nx-note: a: b\ncontent-type: application/json\n")
	for _, tc := range []struct{ name, want string }{
		{"Retry-After", "3"},
		{"retry-after", "3"},
		{"RATELIMIT", `"default";r=0;t=3`},
		{"X-Note", "a: b"}, // the first ": " ends the name
		{"Content-Type", "application/json"},
		{"RateLimit-Policy", ""},
		{"retry", ""}, // a prefix of a name is not the name
		{"", ""},
	} {
		if got := h.Get(tc.name); got != tc.want {
			t.Errorf("Get(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Header("").Get("Retry-After"); got != "" {
		t.Errorf("no headers: Get = %q", got)
	}
}

// TestHeaderValues: a header sent empty ("Retry-After: " on the wire,
// "retry-after: " in the fetch result's lines, as headers.forEach gives an
// empty value "") is present with an empty value, as net/http's Values
// has it, not absent as Get alone would tell; core.LookupHeader reads it so.
func TestHeaderValues(t *testing.T) {
	h := Header("retry-after: \nratelimit: \"default\";r=0;t=3\ncontent-type: text/plain\n")
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"Retry-After", []string{""}},
		{"RateLimit", []string{`"default";r=0;t=3`}},
		{"X-RateLimit-Reset", nil},
		{"retry", nil},
	} {
		if got := h.Values(tc.name); !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("Values(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if v, ok := core.LookupHeader(h, "Retry-After"); v != "" || !ok {
		t.Errorf("LookupHeader(sent empty) = %q, %v; want \"\", true", v, ok)
	}
	if v, ok := core.LookupHeader(Header("content-type: text/plain\n"), "Retry-After"); v != "" || ok {
		t.Errorf("LookupHeader(not sent) = %q, %v; want \"\", false", v, ok)
	}
	var r Response
	if err := parseFetchResult("429\x01basic\x010\x010\x010\x010\x01\x01retry-after: \n\x01{}", &r); err != nil {
		t.Fatal(err)
	}
	if vs := r.Header.Values("Retry-After"); len(vs) != 1 || vs[0] != "" {
		t.Errorf("parsed empty Retry-After: Values = %q", vs)
	}
}

// TestParsedHeaderOwnsItsText: the header block a Response keeps is its
// own copy, not a piece of the fetch result, which would keep the body
// alive as long as the run keeps the attempt.
func TestParsedHeaderOwnsItsText(t *testing.T) {
	var r Response
	raw := "200\x01cors\x011\x012\x013\x014\x01\x01retry-after: 2\n\x01" + strings.Repeat("x", 1000)
	if err := parseFetchResult(raw, &r); err != nil {
		t.Fatal(err)
	}
	h, whole := unsafe.StringData(string(r.Header)), unsafe.StringData(raw)
	if uintptr(unsafe.Pointer(h)) >= uintptr(unsafe.Pointer(whole)) && uintptr(unsafe.Pointer(h)) < uintptr(unsafe.Pointer(whole))+uintptr(len(raw)) {
		t.Errorf("the header %q points into the fetch result", r.Header)
	}
	if r.Header.Get("retry-after") != "2" {
		t.Errorf("header %q", r.Header)
	}
}

func TestTimingQueued(t *testing.T) {
	if q, ok := (Timing{FetchStart: 10, RequestStart: 12.5}).Queued(); q != 2.5 || !ok {
		t.Errorf("Queued = %v, %v", q, ok)
	}
	if q, ok := (Timing{FetchStart: 10, RequestStart: 10}).Queued(); q != 0 || !ok {
		t.Errorf("Queued sent at once = %v, %v; want 0, told", q, ok)
	}
	if q, ok := (Timing{FetchStart: 10}).Queued(); q != 0 || ok {
		t.Errorf("Queued without requestStart = %v, %v, want unknown", q, ok)
	}
}

// TestJSFilesAreTagged keeps syscall/js and safejs behind the js && wasm tag:
// a native build that imports them fails, and untagged JS code would also
// break the server build.
func TestJSFilesAreTagged(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		usesJS := strings.Contains(src, "\t\""+"syscall/js\"") || strings.Contains(src, "\t\""+"github.com/hack-pad/safejs\"")
		if !usesJS {
			continue
		}
		line, _, _ := strings.Cut(src, "\n")
		expr, err := constraint.Parse(line)
		if err != nil {
			t.Errorf("%s imports JS but has no build constraint", f)
			continue
		}
		native := expr.Eval(func(tag string) bool { return tag == "linux" || tag == "amd64" })
		wasm := expr.Eval(func(tag string) bool { return tag == "js" || tag == "wasm" })
		if native || !wasm {
			t.Errorf("%s imports JS but its constraint %q does not mean js && wasm", f, line)
		}
	}
}

func TestParseFetchResult(t *testing.T) {
	var r Response
	raw := "429\x01cors\x0110.5\x0112\x0160\x0161.25\x01http://localhost:9/to\x01retry-after: 2\ncontent-type: application/json\n\x01{\"seq\":7}\x01tail"
	if err := parseFetchResult(raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.Status != 429 || r.Type != "cors" || r.Header.Get("Retry-After") != "2" || r.Body != "{\"seq\":7}\x01tail" || r.Redirected != "http://localhost:9/to" {
		t.Errorf("parsed %+v", r)
	}
	if q, _ := r.Timing.Queued(); q != 1.5 || r.Timing.ResponseEnd != 61.25 {
		t.Errorf("timing %+v", r.Timing)
	}
	for _, bad := range []string{"", "abc\x01x\x010\x010\x010\x010\x01\x01\x01", "200\x01basic"} {
		if err := parseFetchResult(bad, &r); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The fetch routine's result is decoded from one string: whatever it
// holds, decoding never panics, and a result it accepts carries every
// field through (the body, last, may hold the separator itself); a header
// named once reads back as sent.
func FuzzParseFetchResult(f *testing.F) {
	f.Add(200, "cors", 12.5, 13.0, 210.0, 211.5, "retry-after: 3\nratelimit: \"a\";r=0;t=3\n", "{\"ok\":true}")
	f.Add(0, "error", 0.0, 0.0, 0.0, 0.0, "", "")
	f.Add(429, "basic", 1.0, 2.0, 3.0, 4.0, "retry-after: \ncontent-type: text/plain\n", "{}") // sent empty
	f.Add(429, "cors", 1.0, 2.0, 3.0, 4.0, "x: a: b\n\nbad line\nX: again\n", "body\x01with\x01separators")
	f.Fuzz(func(t *testing.T, status int, typ string, fs, rs, rsp, re float64, headers, body string) {
		if strings.Contains(typ, "\x01") || strings.Contains(headers, "\x01") {
			return // the routine writes the separator inside no field but the body
		}
		num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		to := typ + "/to" // the answer's URL after a redirect: a field of its own
		raw := strings.Join([]string{strconv.Itoa(status), typ, num(fs), num(rs), num(rsp), num(re), to, headers, body}, "\x01")
		var r Response
		if err := parseFetchResult(raw, &r); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		same := func(a, b float64) bool { return a == b || a != a && b != b }
		if r.Status != status || r.Type != typ || r.Body != body || r.Redirected != to ||
			!same(r.Timing.FetchStart, fs) || !same(r.Timing.RequestStart, rs) || !same(r.Timing.ResponseStart, rsp) || !same(r.Timing.ResponseEnd, re) {
			t.Errorf("%q decoded as %+v", raw, r)
		}
		type line struct{ k, v string }
		var lines []line
		for l := range strings.SplitSeq(headers, "\n") {
			if k, v, ok := strings.Cut(l, ": "); ok {
				lines = append(lines, line{k, v})
			}
		}
		for i, l := range lines {
			alone := true
			for j, o := range lines {
				alone = alone && (i == j || !strings.EqualFold(o.k, l.k))
			}
			if got := r.Header.Get(l.k); alone && got != l.v {
				t.Errorf("%q: header %q reads %q, sent %q", raw, l.k, got, l.v)
			}
			// Sent, even empty: Values has it, as the first line of its name.
			if vs := r.Header.Values(l.k); len(vs) != 1 || (alone && vs[0] != l.v) {
				t.Errorf("%q: header %q: Values %q, sent %q", raw, l.k, vs, l.v)
			}
		}
		if len(lines) == 0 && strings.Count(headers, ": ") == 0 {
			if vs := r.Header.Values("Retry-After"); vs != nil {
				t.Errorf("%q: no header lines, Values(Retry-After) = %q", raw, vs)
			}
		}
	})
}

// Whatever string comes back, decoding it never panics, and a malformed
// one is an error, not a response.
func FuzzParseFetchResultRaw(f *testing.F) {
	f.Add("200\x01cors\x011\x012\x013\x014\x01\x01a: b\x01body")
	f.Add("")
	f.Add("x\x01\x01\x01\x01\x01\x01\x01\x01")
	f.Fuzz(func(t *testing.T, raw string) {
		var r Response
		if err := parseFetchResult(raw, &r); err == nil && strings.Count(raw, "\x01") < fetchFields-1 {
			t.Errorf("%q has %d fields but decoded", raw, strings.Count(raw, "\x01")+1)
		}
	})
}

// TestMaxBody: the fetch's JavaScript reads as much of a body as MaxBody
// says.
func TestMaxBody(t *testing.T) {
	if maxBodyJS != strconv.Itoa(MaxBody) {
		t.Errorf("the fetch's JavaScript reads %s bytes of a body, MaxBody is %d", maxBodyJS, MaxBody)
	}
}

func TestParsePostResult(t *testing.T) {
	for _, c := range []struct {
		raw    string
		status int
		body   string
		ok     bool
	}{
		{"200\x01", 200, "", true},
		{"409\x01{\"error\":\"a\x01b\"}", 409, "{\"error\":\"a\x01b\"}", true}, // the body may hold the separator
		{"0\x01", 0, "", true}, // an opaque answer's status
		{"200", 0, "", false},  // no separator: not an answer
		{"\x01body", 0, "", false},
		{"2x0\x01", 0, "", false},
		{"+200\x01", 0, "", false},
		{"0200\x01", 0, "", false},
		{"-1\x01", 0, "", false},
		{"1000\x01", 0, "", false},
		{"TypeError: Failed to fetch", 0, "", false},
	} {
		status, body, err := parsePostResult(c.raw)
		if (err == nil) != c.ok || status != c.status || body != c.body {
			t.Errorf("parsePostResult(%q) = %d, %q, %v; want %d, %q, ok %v", c.raw, status, body, err, c.status, c.body, c.ok)
		}
	}
}

// Whatever string comes back from Post's routine, reading it never
// panics, and what it reads is the whole string: the status as written
// and the body after the first separator.
func FuzzParsePostResult(f *testing.F) {
	f.Add("200\x01ok")
	f.Add("409\x01a\x01b")
	f.Add("")
	f.Add("200")
	f.Fuzz(func(t *testing.T, raw string) {
		status, body, err := parsePostResult(raw)
		if err != nil {
			if status != 0 || body != "" {
				t.Fatalf("parsePostResult(%q) = %d, %q with error %v", raw, status, body, err)
			}
			return
		}
		if got := strconv.Itoa(status) + "\x01" + body; got != raw {
			t.Fatalf("parsePostResult(%q) = %d, %q: that is %q", raw, status, body, got)
		}
	})
}
