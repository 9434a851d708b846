//go:build !(js && wasm)

package main

// The two endpoints that let audience devices join a workshop room: /join
// tells the page at which origins other devices reach this server, /qr.svg
// draws a QR code of a link for the projector.

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/skip2/go-qrcode"

	"retrylab/app/mock"
)

// Hints of /join when no other device can reach the server.
const (
	hintLocalhost = "The server listens on localhost only, so other devices cannot reach it: restart it with -host 0.0.0.0 (make run ARGS='-host 0.0.0.0')."
	hintNoAddress = "No network address was found on this machine's interfaces: connect it to the room's network (Wi-Fi or cable) and reload."
	hintNotYet    = "The server has not started listening yet."
)

// listenAddr is the host the server was told to listen on (serve -host) and
// the port it actually listens on.
type listenAddr struct {
	host string
	port int
}

// joinInfo is the body of /join.
type joinInfo struct {
	LAN     bool     `json:"lan"`
	Origins []string `json:"origins"`
	Hint    string   `json:"hint"`
}

// joinHandler answers /join. addr is nil until serveCommand has listened.
type joinHandler struct {
	addr atomic.Pointer[listenAddr]
	// interfaceAddrs lists the addresses of the interfaces that are up;
	// tests replace it.
	interfaceAddrs func() ([]net.Addr, error)
}

func (h *joinHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !getOrHead(w, r) {
		return
	}
	if perr := parseJoinQuery(r.URL.RawQuery); perr != nil {
		writeJSONError(w, http.StatusBadRequest, perr)
		return
	}
	info := joinInfo{Origins: []string{}, Hint: hintNotYet}
	if a := h.addr.Load(); a != nil {
		info.Origins, info.LAN, info.Hint = lanOrigins(a.host, a.port, h.interfaceAddrs)
	}
	body, _ := json.Marshal(info)
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(append(body, '\n'))
	}
}

// joinAllowed is the Allowed of any parameter given to /join.
const joinAllowed = "no parameters: /join takes none"

// parseJoinQuery refuses any parameter: /join takes none, and one given
// (a mistyped /qr.svg?text=..., say) would otherwise be silently ignored.
func parseJoinQuery(raw string) *mock.ParamError {
	perr := mock.EachParam(raw, func(name, value, pair string) *mock.ParamError {
		if name == "" {
			return &mock.ParamError{Param: "query", Value: pair, Allowed: joinAllowed}
		}
		return &mock.ParamError{Param: name, Value: value, Allowed: joinAllowed}
	})
	if perr != nil {
		// Cut and made valid UTF-8 here, for the refusals of EachParam's
		// own (a badly encoded pair) as for ours.
		perr.Param, perr.Value = cutValue(perr.Param), cutValue(perr.Value)
	}
	return perr
}

// upInterfaceAddrs returns the addresses of the interfaces that are up and
// running (a bridge with nothing plugged in, such as an idle docker0, is up
// but not running) and not loopback. Read on every request: the machine may
// join another network while the server runs.
func upInterfaceAddrs() ([]net.Addr, error) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	var all []net.Addr
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagRunning == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		all = append(all, addrs...)
	}
	return all, nil
}

// wildcardHost reports whether host listens on every interface.
func wildcardHost(host string) bool {
	return host == "" || host == "0.0.0.0" || host == "::"
}

// lanOrigins is what /join answers, and serve prints, for a server
// listening on host (serve -host) and port: the interfaces' addresses are
// read with interfaceAddrs, and only for a wildcard host.
func lanOrigins(host string, port int, interfaceAddrs func() ([]net.Addr, error)) (origins []string, lan bool, hint string) {
	var addrs []net.Addr
	if wildcardHost(host) {
		var err error
		if addrs, err = interfaceAddrs(); err != nil {
			addrs = nil // none found, and the hint says so
		}
	}
	return joinOrigins(host, port, addrs)
}

// joinOrigins decides what /join answers for a server listening on host
// (serve -host) and port, on a machine whose interfaces have addrs (read
// only for a wildcard host). Origins keep the order of addrs, IPv4 before
// IPv6, without duplicates.
func joinOrigins(host string, port int, addrs []net.Addr) (origins []string, lan bool, hint string) {
	origins = []string{}
	if loopbackName(normalHost(host)) {
		return origins, false, hintLocalhost
	}
	if !wildcardHost(host) {
		return append(origins, origin(host, port)), true, ""
	}
	var v4, v6 []string
	seen := map[string]bool{}
	for _, a := range addrs {
		var ip net.IP
		switch a := a.(type) {
		case *net.IPNet:
			ip = a.IP
		case *net.IPAddr:
			ip = a.IP
		default:
			continue
		}
		// IsGlobalUnicast leaves out loopback, link-local (169.254.0.0/16,
		// fe80::/10), multicast and unspecified addresses.
		if !ip.IsGlobalUnicast() {
			continue
		}
		o := origin(ip.String(), port) // IPv4-mapped IPv6 prints as IPv4
		if seen[o] {
			continue
		}
		seen[o] = true
		if ip.To4() != nil {
			v4 = append(v4, o)
		} else {
			v6 = append(v6, o)
		}
	}
	origins = append(append(origins, v4...), v6...)
	if len(origins) == 0 {
		return origins, true, hintNoAddress
	}
	return origins, true, ""
}

// origin is http://host:port, with an IPv6 host in brackets and its zone,
// if any, percent-encoded (RFC 6874).
func origin(host string, port int) string {
	if i := strings.IndexByte(host, '%'); i >= 0 && strings.IndexByte(host, ':') >= 0 {
		host = host[:i] + "%25" + host[i+1:]
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(port))
}

// /qr.svg

// maxQRText is the longest text /qr.svg encodes, in bytes.
const maxQRText = 1024

const (
	qrQuiet       = 4 // modules of white around the code, as the QR standard asks
	qrTextAllowed = "1 to 1024 bytes of UTF-8 text"
)

// cutValue cuts a refused value as the mock endpoint does (mock.Cut);
// invalid UTF-8 becomes U+FFFD first, so the JSON string stays as short.
func cutValue(s string) string { return mock.Cut(strings.ToValidUTF8(s, "\uFFFD")) }

// writeJSONError answers a refused /qr.svg or /join request with the mock
// endpoint's error body (mock.WriteErrorJSON): {"error", "param", "value",
// "allowed"}.
func writeJSONError(w http.ResponseWriter, status int, e *mock.ParamError) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	mock.WriteErrorJSON(w, status, e.Param+" "+strconv.Quote(e.Value)+": allowed "+e.Allowed, e)
}

// getOrHead answers 405 to anything but GET and HEAD and reports whether
// the request goes on.
func getOrHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	writeJSONError(w, http.StatusMethodNotAllowed, &mock.ParamError{Param: "method", Value: cutValue(r.Method), Allowed: "GET, HEAD"})
	return false
}

// parseQRQuery reads the text of a /qr.svg query: exactly one text=...,
// nothing else.
func parseQRQuery(raw string) (string, *mock.ParamError) {
	var text string
	found := false
	perr := mock.EachParam(raw, func(name, value, pair string) *mock.ParamError {
		switch {
		case name == "":
			return &mock.ParamError{Param: "query", Value: cutValue(pair), Allowed: "text=..."}
		case name != "text":
			return &mock.ParamError{Param: cutValue(name), Value: cutValue(value), Allowed: "text"}
		case found:
			return &mock.ParamError{Param: "text", Value: cutValue(value), Allowed: mock.AllowedOnce}
		}
		text, found = value, true
		return nil
	})
	if perr != nil {
		perr.Value = cutValue(perr.Value) // invalid UTF-8 in a badly encoded pair, too
		return "", perr
	}
	if text == "" || len(text) > maxQRText || !utf8.ValidString(text) {
		return "", &mock.ParamError{Param: "text", Value: cutValue(text), Allowed: qrTextAllowed}
	}
	return text, nil
}

// serveQR answers /qr.svg?text=T with a QR code of T.
func serveQR(w http.ResponseWriter, r *http.Request) {
	if !getOrHead(w, r) {
		return
	}
	text, perr := parseQRQuery(r.URL.RawQuery)
	if perr != nil {
		writeJSONError(w, http.StatusBadRequest, perr)
		return
	}
	svg, err := qrSVG(text)
	if err != nil { // not expected for 1024 bytes at level M (version 40 holds 2331)
		writeJSONError(w, http.StatusBadRequest, &mock.ParamError{Param: "text", Value: cutValue(text), Allowed: qrTextAllowed + " that fits a QR code"})
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "image/svg+xml")
	hdr.Set("Cache-Control", "public, max-age=86400")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Length", strconv.Itoa(len(svg)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(svg)
	}
}

// qrSVG draws text as a QR code (error correction level M) with a quiet
// zone of four modules: one module is one unit of the viewBox, and the dark
// modules are one path of horizontal runs.
func qrSVG(text string) (svg []byte, err error) {
	defer func() { // go-qrcode panics on internal inconsistencies; never take the server down
		if p := recover(); p != nil {
			svg, err = nil, fmt.Errorf("qrcode: %v", p)
		}
	}()
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	q.DisableBorder = true // the quiet zone is drawn here
	bits := q.Bitmap()
	n := len(bits) + 2*qrQuiet
	size := strconv.Itoa(n)

	var b strings.Builder
	b.Grow(64 + 3*len(text) + 12*len(bits)*len(bits)/4)
	var label strings.Builder
	xml.EscapeText(&label, []byte(text)) // never fails on a strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + size + ` ` + size +
		`" shape-rendering="crispEdges" role="img" aria-label="` + label.String() + `"><title>` + label.String() +
		`</title><rect width="` + size + `" height="` + size + `" fill="#fff"/><path fill="#000" d="`)
	for y, row := range bits {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			w := 1
			for x+w < len(row) && row[x+w] {
				w++
			}
			ws := strconv.Itoa(w)
			b.WriteString("M" + strconv.Itoa(x+qrQuiet) + " " + strconv.Itoa(y+qrQuiet) + "h" + ws + "v1h-" + ws + "z")
			x += w
		}
	}
	b.WriteString(`"/></svg>` + "\n")
	return []byte(b.String()), nil
}
