//go:build !(js && wasm)

package main

import (
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"retrylab/app/mock"
)

// hostGuard answers only requests whose Host names this server as a
// browser reaches it: localhost and its subdomains (the page's worker
// origins, ui.MockOrigin), an IP address (a room's LAN address), the name
// serve was told to listen on, and the names given with -allow-host. A
// page on another site whose name was made to resolve to this machine (DNS
// rebinding) would otherwise be same-origin with the playground and read
// what only its origin reads (/join's addresses of this machine on its
// networks, the page itself), and pass the fault switches' check that a
// POST comes from the playground's own origin. Such a request is refused
// with a 403 that names the Host and the flag that allows it, as
// development servers (webpack's, Vite's, Jupyter's) do. The mock
// endpoint and its arrivals stream answer any Host: they are open to any
// page by CORS already, and curl, a load tool or another container calls
// them by this machine's name (guarded, they refused that; a review).
type hostGuard struct {
	next  http.Handler
	names []string // lower case, no trailing dot; "*" allows any, "*.example.com" its subdomains
}

// guardHosts wraps h in a hostGuard for a server listening on listenHost,
// also allowing the names in allow.
func guardHosts(h http.Handler, listenHost string, allow []string) http.Handler {
	g := &hostGuard{next: h}
	for _, n := range append([]string{listenHost}, allow...) {
		if n = normalHost(n); n != "" {
			g.names = append(g.names, n)
		}
	}
	return g
}

func (g *hostGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if open := r.URL.Path == "/mock" || r.URL.Path == "/mock/events"; !open && !g.allowed(r.Host) {
		mock.SetCommon(w.Header())
		writeJSONError(w, http.StatusForbidden, &mock.ParamError{Param: "Host", Value: cutValue(r.Host), Allowed: hostsAllowed})
		return
	}
	g.next.ServeHTTP(w, r)
}

// hostsAllowed says what a refused Host could have been.
const hostsAllowed = "localhost, a subdomain of localhost, an IP address, the -host name, or a name given with -allow-host (RETRYLAB_ALLOW_HOST; *.example.com for its subdomains); but for /mock and /mock/events, this server answers no other name, so that no other site can reach it through its own domain (DNS rebinding)"

// allowed reports whether host (a request's Host: a name or an address,
// with or without a port) is one the server answers. An empty Host (an
// HTTP/1.0 client) is: browsers always send one.
func (g *hostGuard) allowed(host string) bool {
	if host == "" || slices.Contains(g.names, "*") {
		return true
	}
	name := normalHost(host)
	if name == "" {
		return false
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") || slices.Contains(g.names, name) {
		return true
	}
	for _, n := range g.names {
		if strings.HasPrefix(n, "*.") && strings.HasSuffix(name, n[1:]) {
			return true // a tunnel's random subdomains
		}
	}
	return false
}

// loopbackName reports whether name (normalHost's) reaches this machine
// only: localhost, a subdomain of it, or a loopback address.
func loopbackName(name string) bool {
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.Unmap().IsLoopback()
}

// normalHost is host's name without its port, the brackets of an IPv6
// address, a trailing dot and case: "WWW.Example.com.:80" is
// "www.example.com". It is "" for a host with an empty name, a port that
// is not a number, or what no name holds ("..", a space, a slash).
func normalHost(host string) string {
	name := host
	if h, port, err := net.SplitHostPort(host); err == nil {
		if port != "" && strings.Trim(port, "0123456789") != "" {
			return ""
		}
		name = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		name = host[1 : len(host)-1]
	}
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	if name == "" || strings.HasSuffix(name, ".") || strings.ContainsAny(name, "[]/ ") {
		return ""
	}
	return name
}
