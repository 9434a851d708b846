package ui

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// WorkersPerOrigin is how many concurrent connections a browser opens to one
// origin over HTTP/1.1 (README: facts, 6 in Chromium and Firefox).
const WorkersPerOrigin = 6

// MockOrigin returns the origin worker w (0-based) sends its requests to.
//
// Over HTTP/1.1 a browser opens at most six connections per origin, so fifty
// workers on one origin queue inside the browser and the queueing looks just
// like server latency. When the page itself is served from a loopback host,
// workers are spread over subdomains of localhost (w0.localhost,
// w1.localhost, …): browsers resolve every *.localhost name to the loopback
// interface without DNS, each subdomain is its own origin with its own six
// connections, and the same server answers them all. Elsewhere (a workshop
// server on a LAN address) there is no such trick and every worker uses the
// page's own origin; the timeline then shows the browser's queueing.
func MockOrigin(page *url.URL, w int) string {
	port := page.Port()
	if !sharded(page) {
		return (&url.URL{Scheme: page.Scheme, Host: page.Host}).String() // escapes a zone's %
	}
	shard := w / WorkersPerOrigin
	h := fmt.Sprintf("w%d.localhost", shard)
	if port != "" {
		h += ":" + port
	}
	return "http://" + h
}

// sharded reports whether a page at page spreads the mock's requests over
// *.localhost origins: an http page on this machine.
func sharded(page *url.URL) bool { return page.Scheme == "http" && isLoopback(page.Hostname()) }

// isLoopback reports whether host is one the *.localhost names reach:
// browsers resolve them to 127.0.0.1 and ::1 only, so a page on another
// loopback address (127.0.0.5) keeps every worker on its own origin.
func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || ip.Zone() != "" {
		return false
	}
	ip = ip.Unmap()
	return ip == netip.IPv6Loopback() || ip == netip.AddrFrom4([4]byte{127, 0, 0, 1})
}
