//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHostGuard: the server answers the names a browser reaches it by, and
// refuses any other with a 403 whose JSON names the Host and what is
// allowed: a rebound domain (evil.example resolving to 127.0.0.1) was
// same-origin with the playground.
func TestHostGuard(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	tests := []struct {
		listen string
		allow  []string
		host   string
		ok     bool
	}{
		{"localhost", nil, "localhost:8080", true},
		{"localhost", nil, "LOCALHOST.:8080", true},
		{"localhost", nil, "w3.localhost:8080", true}, // a worker origin
		{"localhost", nil, "127.0.0.1:8080", true},
		{"localhost", nil, "[::1]:8080", true},
		{"localhost", nil, "[fe80::1%25eth0]:8080", true},
		{"localhost", nil, "192.168.1.20", true}, // a room's LAN address
		{"localhost", nil, "", true},             // HTTP/1.0: no browser
		{"localhost", nil, "evil.example:8080", false},
		{"localhost", nil, "evil.example", false},
		{"localhost", nil, "localhost.evil.example", false},
		{"localhost", nil, "evillocalhost", false},
		{"localhost", nil, "127.0.0.1.nip.io:8080", false},
		{"localhost", nil, "localhost:http", false},
		{"laptop.local", nil, "Laptop.Local:8080", true}, // serve -host laptop.local
		{"0.0.0.0", nil, "laptop.local:8080", false},
		{"0.0.0.0", []string{"laptop.local", "demo.example.com:443"}, "laptop.local:8080", true},
		{"0.0.0.0", []string{"laptop.local", "demo.example.com:443"}, "demo.example.com", true},
		{"0.0.0.0", []string{"laptop.local"}, "sub.laptop.local", false},
		{"localhost", []string{"*"}, "tunnel.example.net", true},
		{"localhost", []string{"*.trycloudflare.com"}, "abc-def.trycloudflare.com", true},
		{"localhost", []string{"*.trycloudflare.com"}, "trycloudflare.com", false},
		{"localhost", []string{"*.trycloudflare.com"}, "abc.trycloudflare.com.evil.example", false},
	}
	for _, tt := range tests {
		h := guardHosts(next, tt.listen, tt.allow)
		r := httptest.NewRequest("GET", "/join", nil)
		r.Host = tt.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := w.Code == http.StatusNoContent; got != tt.ok {
			t.Errorf("-host %s -allow-host %v, Host %q: answered %d", tt.listen, tt.allow, tt.host, w.Code)
			continue
		}
		if tt.ok {
			continue
		}
		var body struct{ Error, Param, Value, Allowed string }
		if w.Code != http.StatusForbidden || json.Unmarshal(w.Body.Bytes(), &body) != nil ||
			body.Param != "Host" || body.Value != tt.host || !strings.Contains(body.Allowed, "-allow-host") ||
			!strings.Contains(body.Error, tt.host) || w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("Host %q: refused with %d, %s, CORS %q", tt.host, w.Code, w.Body, w.Header().Get("Access-Control-Allow-Origin"))
		}
	}
}

// The mock endpoint and its arrivals stream answer any Host: CORS opens
// them to every page anyway, and curl, a load tool or another container
// calls them by the machine's name (refused, they broke such setups; a
// review). The page, /join, /qr.svg and the fault switches do not.
func TestHostGuardLeavesTheMockOpen(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := guardHosts(next, "localhost", nil)
	for _, tt := range []struct {
		method, path string
		ok           bool
	}{
		{"GET", "/mock?rate=10", true},
		{"HEAD", "/mock", true},
		{"OPTIONS", "/mock", true},
		{"GET", "/mock/events?key=k", true},
		{"POST", "/mock/outage?key=k&for=1s", false},
		{"POST", "/mock/limit?key=k&for=1s", false},
		{"POST", "/mock/burst?key=k&n=5", false},
		{"GET", "/mock/", false},
		{"GET", "/", false},
		{"GET", "/join", false},
		{"GET", "/qr.svg?text=x", false},
	} {
		r := httptest.NewRequest(tt.method, tt.path, nil)
		r.Host = "retrylab:8080" // another container's name for it
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := w.Code == http.StatusNoContent; got != tt.ok {
			t.Errorf("%s %s from Host retrylab:8080: %d, want answered %v", tt.method, tt.path, w.Code, tt.ok)
		}
	}
}

// FuzzNormalHost: any Host reads as a name without port, brackets, case or
// trailing dot, or as none; never a panic. A name read is read the same
// again, so -allow-host's names and requests' compare alike.
func FuzzNormalHost(f *testing.F) {
	for _, s := range []string{"", "localhost:8080", "[::1]:80", "[fe80::1%25eth0]:8080", "A.B.:1", "x:", ":80", "[]", "a b", "http://x/", "[::1", "::1", "ünï.cödé:8080"} {
		f.Add(s)
	}
	g := guardHosts(http.NotFoundHandler(), "localhost", nil).(*hostGuard)
	f.Fuzz(func(t *testing.T, host string) {
		n := normalHost(host)
		if n == "" {
			return
		}
		if n != strings.ToLower(n) || strings.HasSuffix(n, ".") || strings.ContainsAny(n, "[]/ ") {
			t.Fatalf("normalHost(%q) = %q", host, n)
		}
		if again := normalHost(n); again != n && !strings.Contains(n, ":") {
			t.Fatalf("normalHost(%q) = %q, then %q", host, n, again)
		}
		_ = g.allowed(host)
	})
}
