//go:build !(js && wasm)

package mock

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
)

// clients counts what each remote address holds at once (arrivals
// streams, hangs), so that one machine on a workshop's network cannot take
// what the whole room shares: one client with curl opened every one of
// the MaxStreams streams (each watch after it got 503), or held 8,000 hangs
// (268 MB; a security review). A page served to another machine sends
// every request to the page's own origin, over at most six connections,
// so its fair share is far below either cap. The loopback interface is
// not counted: the presenter's own browser spreads its workers over
// *.localhost origins, and a tunnel or proxy on the same machine
// brings every client in from it.
type clients struct {
	mu sync.Mutex
	n  map[string]int
}

// take counts one more for addr (Handler.counted) and returns it, or
// reports false when that address holds max already (nothing is counted
// then). An uncounted address, "", is always let through.
func (c *clients) take(addr string, max int) (string, bool) {
	if addr == "" {
		return "", true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[addr] >= max {
		return "", false
	}
	if c.n == nil {
		c.n = make(map[string]int)
	}
	c.n[addr]++
	return addr, true
}

// give hands back what take counted for addr ("" for one it did not).
func (c *clients) give(addr string) {
	if addr == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[addr]--; c.n[addr] <= 0 {
		delete(c.n, addr)
	}
}

// remoteHost is r's remote IP address as clients counts it: "" for a
// loopback one, without an IPv6 zone ("fe80::1%eth0" was unreadable, and
// so went uncounted, as loopback), IPv4 for an IPv4-mapped one; an
// address it cannot read is counted as written, not let through. (Each
// IPv6 address counts alone, not its /64: a LAN's devices share theirs.)
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if ip = ip.WithZone("").Unmap(); ip.IsLoopback() {
		return ""
	}
	return ip.String()
}

// counted is r's remote address as the per-client caps count it
// (remoteHost), "" for one they do not count: loopback, and the
// addresses of Options.Uncapped.
func (h *Handler) counted(r *http.Request) string {
	addr := remoteHost(r)
	if addr == "" || len(h.opts.Uncapped) == 0 {
		return addr
	}
	if ip, err := netip.ParseAddr(addr); err == nil {
		for _, p := range h.opts.Uncapped {
			if p.Contains(ip) {
				return ""
			}
		}
	}
	return addr
}
