//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/skip2/go-qrcode"

	"retrylab/app/mock"
)

func ipNet(s string) net.Addr {
	ip, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	n.IP = ip
	return n
}

func ipAddr(s string) net.Addr { return &net.IPAddr{IP: net.ParseIP(s)} }

func TestJoinOrigins(t *testing.T) {
	lanAddrs := []net.Addr{
		ipNet("127.0.0.1/8"),            // loopback: skipped
		ipNet("::1/128"),                // loopback: skipped
		ipNet("fe80::1c2:3ff:fe4:5/64"), // link-local: skipped
		ipNet("2001:db8::7/64"),         // global IPv6: after every IPv4
		ipNet("192.168.1.7/24"),
		ipNet("169.254.10.20/16"), // IPv4 link-local: skipped
		ipNet("10.0.0.5/8"),
		ipAddr("192.168.1.7"),                                 // a duplicate, of another type
		ipNet("fd12:3456::9/64"),                              // unique local: reachable on the LAN
		ipAddr("::ffff:172.16.0.3"),                           // IPv4-mapped: an IPv4 origin
		ipNet("224.0.0.251/32"),                               // multicast: skipped
		ipNet("0.0.0.0/0"),                                    // unspecified: skipped
		&net.TCPAddr{IP: net.ParseIP("192.168.9.9"), Port: 1}, // not an interface address: skipped
		ipNet("2001:db8::7/128"),                              // duplicate
	}
	lanWant := []string{
		"http://192.168.1.7:8080",
		"http://10.0.0.5:8080",
		"http://172.16.0.3:8080",
		"http://[2001:db8::7]:8080",
		"http://[fd12:3456::9]:8080",
	}
	unreachable := []net.Addr{ipNet("127.0.0.1/8"), ipNet("::1/128"), ipNet("fe80::1/64"), ipNet("169.254.1.1/16")}
	tests := []struct {
		name    string
		host    string
		port    int
		addrs   []net.Addr
		origins []string
		lan     bool
		hint    string
	}{
		{"localhost", "localhost", 8080, lanAddrs, nil, false, hintLocalhost},
		{"localhost in capitals", "LocalHost", 8080, lanAddrs, nil, false, hintLocalhost},
		{"127.0.0.1", "127.0.0.1", 8080, lanAddrs, nil, false, hintLocalhost},
		{"another loopback IPv4", "127.3.2.1", 8080, nil, nil, false, hintLocalhost},
		{"::1", "::1", 8080, lanAddrs, nil, false, hintLocalhost},
		{"0.0.0.0: IPv4 in order, then IPv6, no duplicates", "0.0.0.0", 8080, lanAddrs, lanWant, true, ""},
		{"::", "::", 8080, lanAddrs, lanWant, true, ""},
		{"empty host", "", 8080, lanAddrs, lanWant, true, ""},
		{"the port listened on", "0.0.0.0", 41234, []net.Addr{ipNet("192.168.1.7/24"), ipNet("2001:db8::7/64")},
			[]string{"http://192.168.1.7:41234", "http://[2001:db8::7]:41234"}, true, ""},
		{"order follows the interfaces", "0.0.0.0", 80, []net.Addr{ipNet("10.0.0.5/8"), ipNet("192.168.1.7/24")},
			[]string{"http://10.0.0.5:80", "http://192.168.1.7:80"}, true, ""},
		{"no interface address", "0.0.0.0", 8080, nil, nil, true, hintNoAddress},
		{"only loopback and link-local", "0.0.0.0", 8080, unreachable, nil, true, hintNoAddress},
		{"a specific IPv4", "192.168.1.7", 8080, lanAddrs, []string{"http://192.168.1.7:8080"}, true, ""},
		{"a specific IPv6", "2001:db8::1", 9000, nil, []string{"http://[2001:db8::1]:9000"}, true, ""},
		{"a specific link-local IPv6 with a zone", "fe80::1%eth0", 9000, nil, []string{"http://[fe80::1%25eth0]:9000"}, true, ""},
		{"a hostname", "presenter.local", 8080, nil, []string{"http://presenter.local:8080"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			origins, lan, hint := joinOrigins(tt.host, tt.port, tt.addrs)
			if origins == nil {
				t.Error("origins is nil: it must encode as [], not null")
			}
			if tt.origins == nil {
				tt.origins = []string{}
			}
			if !reflect.DeepEqual(origins, tt.origins) || lan != tt.lan || hint != tt.hint {
				t.Errorf("joinOrigins(%q, %d) = %q, %v, %q\nwant %q, %v, %q", tt.host, tt.port, origins, lan, hint, tt.origins, tt.lan, tt.hint)
			}
			for _, o := range origins {
				if u, err := url.Parse(o); err != nil || u.Scheme != "http" || u.Port() != strconv.Itoa(tt.port) || u.Path != "" {
					t.Errorf("origin %q does not parse as http://host:%d (%v)", o, tt.port, err)
				}
			}
		})
	}
}

// joinBody is /join's body; pointers tell a missing field from a zero one.
type joinBody struct {
	LAN     *bool     `json:"lan"`
	Origins *[]string `json:"origins"`
	Hint    *string   `json:"hint"`
}

// decodeErrorBody reads a 400 or 405 body: a JSON object of strings.
func decodeErrorBody(t *testing.T, body string) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("error body is not a JSON object of strings: %v\n%s", err, body)
	}
	return m
}

func keysOf(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// mockErrorKeys are the keys of the mock endpoint's 400 body, the shape
// /qr.svg and /join answer with.
func mockErrorKeys(t *testing.T) []string {
	t.Helper()
	m := mock.New(mock.Options{})
	defer m.Close()
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mock?rate=abc", nil))
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("mock ?rate=abc: status %d, want 400", rec.Code)
	}
	return keysOf(decodeErrorBody(t, rec.Body.String()))
}

func TestJoinHandler(t *testing.T) {
	lan := []net.Addr{ipNet("192.168.1.7/24"), ipNet("2001:db8::7/64"), ipNet("127.0.0.1/8")}
	tests := []struct {
		name     string
		method   string
		addr     *listenAddr // nil: not listening yet
		addrs    []net.Addr
		addrsErr error
		status   int
		want     joinInfo // for 200
	}{
		{"wildcard", "GET", &listenAddr{"0.0.0.0", 41234}, lan, nil, 200,
			joinInfo{true, []string{"http://192.168.1.7:41234", "http://[2001:db8::7]:41234"}, ""}},
		{"HEAD", "HEAD", &listenAddr{"0.0.0.0", 41234}, lan, nil, 200, joinInfo{}},
		{"localhost", "GET", &listenAddr{"localhost", 8080}, lan, nil, 200, joinInfo{false, []string{}, hintLocalhost}},
		{"a specific address", "GET", &listenAddr{"192.168.1.7", 8080}, nil, nil, 200,
			joinInfo{true, []string{"http://192.168.1.7:8080"}, ""}},
		{"no address found", "GET", &listenAddr{"::", 8080}, nil, nil, 200, joinInfo{true, []string{}, hintNoAddress}},
		{"interfaces unreadable", "GET", &listenAddr{"::", 8080}, lan, errors.New("no netlink"), 200, joinInfo{true, []string{}, hintNoAddress}},
		{"not listening yet", "GET", nil, lan, nil, 200, joinInfo{false, []string{}, hintNotYet}},
		{"POST", "POST", &listenAddr{"0.0.0.0", 8080}, lan, nil, 405, joinInfo{}},
		{"PUT", "PUT", &listenAddr{"0.0.0.0", 8080}, lan, nil, 405, joinInfo{}},
		{"OPTIONS", "OPTIONS", &listenAddr{"0.0.0.0", 8080}, lan, nil, 405, joinInfo{}},
	}
	errKeys := mockErrorKeys(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &joinHandler{interfaceAddrs: func() ([]net.Addr, error) { return tt.addrs, tt.addrsErr }}
			if tt.addr != nil {
				h.addr.Store(tt.addr)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/join", nil))
			body := rec.Body.String()
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d\n%s", rec.Code, tt.status, body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if tt.status == http.StatusMethodNotAllowed {
				if allow := rec.Header().Get("Allow"); allow != "GET, HEAD" {
					t.Errorf("Allow %q, want GET, HEAD", allow)
				}
				e := decodeErrorBody(t, body)
				if !reflect.DeepEqual(keysOf(e), errKeys) || e["param"] != "method" || e["value"] != tt.method || e["allowed"] != "GET, HEAD" || e["error"] == "" {
					t.Errorf("405 body %v, want the mock's shape %v for method %s", e, errKeys, tt.method)
				}
				return
			}
			if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
			if tt.method == http.MethodHead {
				if body != "" {
					t.Errorf("HEAD has a body: %q", body)
				}
				if rec.Header().Get("Content-Length") == "" {
					t.Error("HEAD has no Content-Length")
				}
				return
			}
			if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %s for a body of %d bytes", cl, len(body))
			}
			var got joinBody
			dec := json.NewDecoder(strings.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("body: %v\n%s", err, body)
			}
			if got.LAN == nil || got.Origins == nil || got.Hint == nil {
				t.Fatalf("body lacks lan, origins (not null) or hint: %s", body)
			}
			if *got.LAN != tt.want.LAN || !reflect.DeepEqual(*got.Origins, tt.want.Origins) || *got.Hint != tt.want.Hint {
				t.Errorf("body %s\nwant %+v", body, tt.want)
			}
		})
	}
}

// Regression: /join takes no parameters, and refuses one as /qr.svg does
// (400, the mock's error body naming it). Before, /join?foo=1 and even
// /join?x=%ZZ answered 200 as if nothing had been given.
func TestJoinRefusesParameters(t *testing.T) {
	tests := []struct {
		rawQuery            string
		status              int
		param, value, allow string
	}{
		{"", 200, "", "", ""},
		{"&&", 200, "", "", ""},
		{"foo=1", 400, "foo", "1", joinAllowed},
		{"text=http%3A%2F%2Fa", 400, "text", "http://a", joinAllowed},
		{"lan", 400, "lan", "", joinAllowed},
		{"=x", 400, "query", "=x", joinAllowed},
		{"x=%ZZ", 400, "query", "x=%ZZ", "a percent-encoded query"},
		{"x=%FF", 400, "x", "\uFFFD", joinAllowed},
		{strings.Repeat("n", 100) + "=1", 400, strings.Repeat("n", 64) + "… (100 bytes)", "1", joinAllowed},
	}
	errKeys := mockErrorKeys(t)
	for _, tt := range tests {
		t.Run(tt.rawQuery, func(t *testing.T) {
			h := &joinHandler{interfaceAddrs: func() ([]net.Addr, error) { return nil, nil }}
			h.addr.Store(&listenAddr{"0.0.0.0", 8080})
			req := httptest.NewRequest("GET", "/join", nil)
			req.URL.RawQuery = tt.rawQuery
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d\n%s", rec.Code, tt.status, rec.Body.String())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if tt.status == 200 {
				return
			}
			e := decodeErrorBody(t, rec.Body.String())
			if !reflect.DeepEqual(keysOf(e), errKeys) || e["param"] != tt.param || e["value"] != tt.value || e["allowed"] != tt.allow || !strings.Contains(e["error"], tt.allow) {
				t.Errorf("body %v, want param %q value %q allowed %q", e, tt.param, tt.value, tt.allow)
			}
		})
	}
}

// /join reads the interfaces on every request, and the site learns its
// address while serving.
func TestJoinFollowsTheMachine(t *testing.T) {
	var mu sync.Mutex
	addrs := []net.Addr{ipNet("192.168.1.7/24")}
	h := &joinHandler{interfaceAddrs: func() ([]net.Addr, error) {
		mu.Lock()
		defer mu.Unlock()
		return addrs, nil
	}}
	s := &site{join: h}
	get := func() joinInfo {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/join", nil))
		var info joinInfo
		if err := json.Unmarshal(rec.Body.Bytes(), &info); err != nil {
			t.Fatal(err)
		}
		return info
	}
	var wg sync.WaitGroup
	for range 4 { // concurrent readers while the address is set (go test -race)
		wg.Go(func() { get() })
	}
	s.setListenAddr("0.0.0.0", 5000)
	wg.Wait()
	if got := get(); !reflect.DeepEqual(got.Origins, []string{"http://192.168.1.7:5000"}) {
		t.Errorf("origins %q", got.Origins)
	}
	mu.Lock()
	addrs = []net.Addr{ipNet("10.1.2.3/16")}
	mu.Unlock()
	if got := get(); !reflect.DeepEqual(got.Origins, []string{"http://10.1.2.3:5000"}) {
		t.Errorf("after the machine changed networks: origins %q", got.Origins)
	}
}

// qrSVGDoc is what the tests read of /qr.svg's SVG.
type qrSVGDoc struct {
	XMLName        xml.Name `xml:"http://www.w3.org/2000/svg svg"`
	ViewBox        string   `xml:"viewBox,attr"`
	Width          *string  `xml:"width,attr"`
	Height         *string  `xml:"height,attr"`
	ShapeRendering string   `xml:"shape-rendering,attr"`
	Role           string   `xml:"role,attr"`
	AriaLabel      string   `xml:"aria-label,attr"`
	Title          string   `xml:"title"`
	Rects          []struct {
		Width  string `xml:"width,attr"`
		Height string `xml:"height,attr"`
		X      string `xml:"x,attr"`
		Y      string `xml:"y,attr"`
		Fill   string `xml:"fill,attr"`
	} `xml:"rect"`
	Paths []struct {
		D    string `xml:"d,attr"`
		Fill string `xml:"fill,attr"`
	} `xml:"path"`
	Other []struct {
		XMLName xml.Name
	} `xml:",any"`
}

// quiet is the white margin /qr.svg must draw around the code, in modules.
const quiet = 4

var runRE = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`)

// svgModules reads /qr.svg's SVG back into its module matrix (true = dark),
// quiet zone included, checking everything the page relies on.
func svgModules(svg string, text string) ([][]bool, error) {
	var doc qrSVGDoc
	if err := xml.Unmarshal([]byte(svg), &doc); err != nil {
		return nil, fmt.Errorf("not XML: %v", err)
	}
	var n int
	if _, err := fmt.Sscanf(doc.ViewBox, "0 0 %d %d", &n, new(int)); err != nil || doc.ViewBox != fmt.Sprintf("0 0 %d %d", n, n) {
		return nil, fmt.Errorf("viewBox %q, want 0 0 N N", doc.ViewBox)
	}
	if size := n - 2*quiet; size < 21 || size > 177 || (size-21)%4 != 0 {
		return nil, fmt.Errorf("viewBox of %d: %d modules is no QR version with a %d-module quiet zone", n, size, quiet)
	}
	switch {
	case doc.Width != nil || doc.Height != nil:
		return nil, errors.New("the svg has a width or height: the page sizes it")
	case doc.ShapeRendering != "crispEdges":
		return nil, fmt.Errorf("shape-rendering %q", doc.ShapeRendering)
	case doc.Role != "img":
		return nil, fmt.Errorf("role %q", doc.Role)
	case doc.AriaLabel != xmlChars(text) || doc.Title != xmlChars(text):
		return nil, fmt.Errorf("aria-label %q, title %q, want %q", doc.AriaLabel, doc.Title, xmlChars(text))
	case len(doc.Rects) != 1 || doc.Rects[0].Width != strconv.Itoa(n) || doc.Rects[0].Height != strconv.Itoa(n) ||
		doc.Rects[0].X != "" && doc.Rects[0].X != "0" || doc.Rects[0].Y != "" && doc.Rects[0].Y != "0" ||
		!(doc.Rects[0].Fill == "#fff" || doc.Rects[0].Fill == "#ffffff" || doc.Rects[0].Fill == "white"):
		return nil, fmt.Errorf("want one white rect over the whole viewBox, have %+v", doc.Rects)
	case len(doc.Paths) != 1 || doc.Paths[0].Fill != "#000":
		return nil, fmt.Errorf("want one black path, have %d paths", len(doc.Paths))
	case len(doc.Other) != 0:
		return nil, fmt.Errorf("unexpected elements %v", doc.Other)
	}
	m := make([][]bool, n)
	for y := range m {
		m[y] = make([]bool, n)
	}
	d := doc.Paths[0].D
	runs := runRE.FindAllStringSubmatchIndex(d, -1)
	at := 0
	for _, r := range runs {
		if r[0] != at {
			return nil, fmt.Errorf("path data %q at %d is not a run", cutValue(d[at:]), at)
		}
		at = r[1]
		num := func(i int) int { v, _ := strconv.Atoi(d[r[2*i]:r[2*i+1]]); return v }
		x, y, w, back := num(1), num(2), num(3), num(4)
		if w != back || w < 1 || x+w > n-quiet || x < quiet || y < quiet || y >= n-quiet {
			return nil, fmt.Errorf("run %q out of the code or not closed", d[r[0]:r[1]])
		}
		for i := x; i < x+w; i++ {
			if m[y][i] {
				return nil, fmt.Errorf("run %q overlaps another", d[r[0]:r[1]])
			}
			m[y][i] = true
		}
	}
	if at != len(d) {
		return nil, fmt.Errorf("path data %q at %d is not a run", cutValue(d[at:]), at)
	}
	// Merged runs: a run has a light module on either side.
	for _, r := range runs {
		x, _ := strconv.Atoi(d[r[2]:r[3]])
		y, _ := strconv.Atoi(d[r[4]:r[5]])
		w, _ := strconv.Atoi(d[r[6]:r[7]])
		if m[y][x-1] || m[y][x+w] {
			return nil, fmt.Errorf("run at %d,%d touches another: runs are not merged", x, y)
		}
	}
	return m, nil
}

// xmlChars is text as an XML document can carry it: characters XML forbids
// become U+FFFD.
func xmlChars(text string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return '\uFFFD'
	}, text)
}

// decodeModules renders the modules at scale pixels each and reads them
// back with ZXing's QR reader, finder patterns and all, as a phone would.
// With pure, a code the finder-pattern detector misses is read again as
// a pure barcode (the mode ZXing's maintainers advise for a synthesized,
// unrotated image), and detected says which read it.
func decodeModules(m [][]bool, scale int, pure bool) (text string, detected bool, err error) {
	n := len(m)
	img := image.NewGray(image.Rect(0, 0, n*scale, n*scale))
	for y := range n * scale {
		for x := range n * scale {
			c := color.Gray{255}
			if m[y/scale][x/scale] {
				c = color.Gray{0}
			}
			img.SetGray(x, y, c)
		}
	}
	read := func(hints map[gozxing.DecodeHintType]any) (string, error) {
		bmp, err := gozxing.NewBinaryBitmapFromImage(img)
		if err != nil {
			return "", err
		}
		hints[gozxing.DecodeHintType_CHARACTER_SET] = "UTF-8" // go-qrcode writes bytes, without an ECI
		res, err := gozxingqr.NewQRCodeReader().Decode(bmp, hints)
		if err != nil {
			return "", err
		}
		return res.GetText(), nil
	}
	text, err = read(map[gozxing.DecodeHintType]any{})
	if err == nil || !pure {
		return text, err == nil, err
	}
	derr := err
	if text, err = read(map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true}); err != nil {
		return "", false, fmt.Errorf("detector: %v; pure barcode: %v", derr, err)
	}
	return text, false, nil
}

// checkQR checks a 200 from /qr.svg and that its SVG decodes to text.
func checkQR(t *testing.T, rec *httptest.ResponseRecorder, text string) {
	t.Helper()
	for k, v := range map[string]string{
		"Content-Type":           "image/svg+xml",
		"Cache-Control":          "public, max-age=86400",
		"X-Content-Type-Options": "nosniff",
		"Content-Length":         strconv.Itoa(rec.Body.Len()),
	} {
		if got := rec.Header().Get(k); got != v {
			t.Errorf("%s %q, want %q", k, got, v)
		}
	}
	m, err := svgModules(rec.Body.String(), text)
	if err != nil {
		t.Fatalf("%v\n%.400s", err, rec.Body.String())
	}
	// Exactly go-qrcode's modules (level M), inside the quiet zone: ZXing
	// alone would read a code with a few wrong modules through its error
	// correction.
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	want := q.Bitmap()
	if len(m) != len(want)+2*quiet {
		t.Fatalf("%d modules across, want %d and the quiet zone", len(m), len(want))
	}
	for y := range m {
		for x := range m[y] {
			inside := y >= quiet && y < quiet+len(want) && x >= quiet && x < quiet+len(want)
			if m[y][x] != (inside && want[y-quiet][x-quiet]) {
				t.Fatalf("module %d,%d (of the quiet zone: %v) is dark: %v", x, y, !inside, m[y][x])
			}
		}
	}
	got, _, err := decodeModules(m, 4, false)
	if err != nil {
		t.Fatalf("ZXing cannot read the code of %q: %v", text, err)
	}
	if got != text {
		t.Fatalf("the code reads %q, want %q", got, text)
	}
}

func qrRequest(method, rawQuery string) *http.Request {
	return &http.Request{Method: method, URL: &url.URL{Path: "/qr.svg", RawQuery: rawQuery}, Header: http.Header{}}
}

const roomLink = "http://192.168.1.7:8080/?room=room1&workers=20&strategy=full"

func TestQRCode(t *testing.T) {
	long := "http://192.168.1.7:8080/?room=" + strings.Repeat("abcdefghij-ABCDEFGHIJ_0123456789~", 40)
	long = long[:1024]
	tests := []struct {
		name string
		text string
	}{
		{"a short URL", "http://192.168.1.7:8080/"},
		{"the room link", roomLink},
		{"1024 bytes, URL-ish", long},
		{"1024 bytes of two-byte characters", strings.Repeat("é", 512)},
		{"non-ASCII", "Raum für Übungen — 房间 🎉 ?room=café"},
		{"one character", "a"},
		{"digits (numeric mode)", "01234567890123456789"},
		{"upper case (alphanumeric mode)", "HTTP://EXAMPLE.COM/ROOM-1"},
		{"XML's special characters", `<a href="x">&amp;'</a>`},
		{"control characters and new lines", "line 1\nline 2\r\n\ttab\x00nul\x1b"},
		{"an IPv6 link", "http://[2001:db8::7]:8080/?room=room1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.text) > maxQRText {
				t.Fatalf("test text of %d bytes", len(tt.text))
			}
			rec := httptest.NewRecorder()
			serveQR(rec, qrRequest("GET", "text="+url.QueryEscape(tt.text)))
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d, want 200\n%s", rec.Code, rec.Body.String())
			}
			checkQR(t, rec, tt.text)

			// HEAD: the same headers, no body.
			head := httptest.NewRecorder()
			serveQR(head, qrRequest("HEAD", "text="+url.QueryEscape(tt.text)))
			if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) ||
				head.Header().Get("Content-Type") != "image/svg+xml" {
				t.Errorf("HEAD: status %d, %d bytes, headers %v", head.Code, head.Body.Len(), head.Header())
			}
		})
	}
}

// The room link's code stays small: one path of merged runs.
func TestQRCodeSize(t *testing.T) {
	rec := httptest.NewRecorder()
	serveQR(rec, qrRequest("GET", "text="+url.QueryEscape(roomLink)))
	t.Logf("the room link's SVG: %d bytes", rec.Body.Len())
	if rec.Body.Len() > 6000 {
		t.Errorf("the room link's SVG is %d bytes, want at most 6000", rec.Body.Len())
	}
}

func TestQRErrors(t *testing.T) {
	long := strings.Repeat("a", maxQRText+1)
	tests := []struct {
		name     string
		method   string
		rawQuery string
		status   int
		param    string
		value    string
		allowed  string
	}{
		{"no query", "GET", "", 400, "text", "", qrTextAllowed},
		{"empty text", "GET", "text=", 400, "text", "", qrTextAllowed},
		{"text without =", "GET", "text", 400, "text", "", qrTextAllowed},
		{"only ampersands", "GET", "&&", 400, "text", "", qrTextAllowed},
		{"text too long", "GET", "text=" + long, 400, "text", long[:64] + "… (1025 bytes)", qrTextAllowed},
		{"two-byte characters too long", "GET", "text=" + strings.Repeat("%C3%A9", 512) + "a", 400, "text", strings.Repeat("é", 32) + "… (1025 bytes)", qrTextAllowed},
		{"text twice", "GET", "text=a&text=b", 400, "text", "b", mock.AllowedOnce},
		{"text twice, the same", "GET", "text=a&text=a", 400, "text", "a", mock.AllowedOnce},
		{"another parameter", "GET", "text=a&size=300", 400, "size", "300", "text"},
		{"another parameter first", "GET", "margin=0&text=a", 400, "margin", "0", "text"},
		{"names are case-sensitive", "GET", "Text=a", 400, "Text", "a", "text"},
		{"a long unknown name is cut", "GET", strings.Repeat("n", 100) + "=1", 400, strings.Repeat("n", 64) + "… (100 bytes)", "1", "text"},
		{"invalid UTF-8", "GET", "text=a%FFb", 400, "text", "a\uFFFDb", qrTextAllowed},
		{"a cut UTF-8 sequence", "GET", "text=%E6%88", 400, "text", "\uFFFD", qrTextAllowed},
		{"bad percent-encoding", "GET", "text=100%", 400, "query", "text=100%", "a percent-encoded query"},
		{"bad percent-encoding in a name", "GET", "te%xt=1", 400, "query", "te%xt=1", "a percent-encoded query"},
		{"no name", "GET", "=abc", 400, "query", "=abc", "text=..."},
		{"POST", "POST", "text=a", 405, "method", "POST", "GET, HEAD"},
		{"DELETE", "DELETE", "text=a", 405, "method", "DELETE", "GET, HEAD"},
		{"OPTIONS", "OPTIONS", "", 405, "method", "OPTIONS", "GET, HEAD"},
	}
	errKeys := mockErrorKeys(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			serveQR(rec, qrRequest(tt.method, tt.rawQuery))
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d\n%s", rec.Code, tt.status, rec.Body.String())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if cc := rec.Header().Get("Cache-Control"); cc != "" {
				t.Errorf("an error is cacheable: Cache-Control %q", cc)
			}
			allow := rec.Header().Get("Allow")
			if (tt.status == 405) != (allow == "GET, HEAD") {
				t.Errorf("status %d with Allow %q", tt.status, allow)
			}
			e := decodeErrorBody(t, rec.Body.String())
			if !reflect.DeepEqual(keysOf(e), errKeys) {
				t.Errorf("keys %v, want the mock's %v", keysOf(e), errKeys)
			}
			if e["param"] != tt.param || e["value"] != tt.value || e["allowed"] != tt.allowed {
				t.Errorf("param %q value %q allowed %q\nwant  %q value %q allowed %q", e["param"], e["value"], e["allowed"], tt.param, tt.value, tt.allowed)
			}
			if !strings.Contains(e["error"], e["allowed"]) {
				t.Errorf("error %q does not say what is allowed", e["error"])
			}
		})
	}
}

// wantQRText is what a raw /qr.svg query holds, read independently of the
// handler: the text when the query is exactly one valid text=..., else ok
// is false.
func wantQRText(rawQuery string) (text string, ok bool) {
	var pairs []string
	for _, p := range strings.Split(rawQuery, "&") {
		if p != "" {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) != 1 {
		return "", false
	}
	name, value, _ := strings.Cut(pairs[0], "=")
	name, err1 := url.QueryUnescape(name)
	value, err2 := url.QueryUnescape(value)
	if err1 != nil || err2 != nil || name != "text" || value == "" || len(value) > maxQRText || !utf8.ValidString(value) {
		return "", false
	}
	return value, true
}

// Any query is either a QR code of exactly the text it holds or a 400 in
// the mock's error shape.
func FuzzQRQuery(f *testing.F) {
	for _, s := range []string{
		"text=" + url.QueryEscape(roomLink),
		"text=http%3A%2F%2F192.168.1.7%3A8080%2F",
		"text=" + url.QueryEscape("Raum für Übungen 🎉"),
		"text=a+b%20c",
		"text=01234567890123456789",
		"text=HELLO+WORLD",
		"text=" + strings.Repeat("x", maxQRText),
		"text=" + strings.Repeat("x", maxQRText+1),
		"text=" + strings.Repeat("%C3%A9", 512),
		"", "text=", "text", "&&text=a&&", "text=a&text=b", "size=3", "text=a&size=3",
		"text=%FF", "text=%", "=a", "text=%00%01", "text=<&>", "text=a;b", "text==", "%74ext=t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		rec := httptest.NewRecorder()
		serveQR(rec, qrRequest("GET", rawQuery))
		text, ok := wantQRText(rawQuery)
		switch {
		case ok && rec.Code == http.StatusOK:
			m, err := svgModules(rec.Body.String(), text)
			if err != nil {
				t.Fatalf("query %q: %v", rawQuery, err)
			}
			got, detected, err := decodeModules(m, 3, true)
			if err != nil {
				t.Fatalf("query %q: ZXing cannot read the code: %v", rawQuery, err)
			}
			if !detected {
				// About 1 code in 300 (any version): ZXing's finder-pattern
				// detector picks a false pattern; the modules are exactly
				// go-qrcode's, and read as a pure barcode they are the text.
				t.Logf("query %q: read as a pure barcode only", rawQuery)
			}
			if got != text {
				t.Fatalf("query %q: the code reads %q, want %q", rawQuery, got, text)
			}
		case !ok && rec.Code == http.StatusBadRequest:
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Fatalf("query %q: 400 with Content-Type %q", rawQuery, ct)
			}
			e := decodeErrorBody(t, rec.Body.String())
			_, hasValue := e["value"]
			if len(e) != 4 || !hasValue || e["error"] == "" || e["param"] == "" || e["allowed"] == "" || len(e["value"]) > 64+len("… (1000000000 bytes)") {
				t.Fatalf("query %q: 400 body %v, want the mock's error shape", rawQuery, e)
			}
		default:
			body, _ := io.ReadAll(io.LimitReader(rec.Body, 300))
			t.Fatalf("query %q (holds text %v): status %d\n%s", rawQuery, ok, rec.Code, body)
		}
	})
}

// FuzzJoinQuery: /join answers 200 only to a query with no parameter in
// it, and anything else with a 400 in the mock's error shape.
func FuzzJoinQuery(f *testing.F) {
	for _, s := range []string{"", "&&", "foo=1", "=x", "x=%ZZ", "x=%FF", "lan", "text=a&text=b", strings.Repeat("n", 100) + "=1"} {
		f.Add(s)
	}
	h := &joinHandler{interfaceAddrs: func() ([]net.Addr, error) { return nil, nil }}
	h.addr.Store(&listenAddr{"0.0.0.0", 8080})
	f.Fuzz(func(t *testing.T, rawQuery string) {
		req := httptest.NewRequest("GET", "/join", nil)
		req.URL.RawQuery = rawQuery
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		empty := strings.Trim(rawQuery, "&") == ""
		switch {
		case empty && rec.Code == http.StatusOK:
		case !empty && rec.Code == http.StatusBadRequest:
			var e map[string]string
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || len(e) != 4 || e["error"] == "" || e["param"] == "" || e["allowed"] == "" || len(e["value"]) > 64+len("… (1000000000 bytes)") {
				t.Fatalf("query %q: 400 body %q, want the mock's error shape", rawQuery, rec.Body)
			}
		default:
			t.Fatalf("query %q: status %d\n%s", rawQuery, rec.Code, rec.Body)
		}
	})
}
