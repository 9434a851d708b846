package ui

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"retrylab/app/browser"
	"retrylab/app/mock"
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
// page's own origin; the timeline then shows the browser's queueing. A
// browser that does not reach *.localhost names gets the page's origin
// too, from mockBases (subdomainCheck says which).
func MockOrigin(page *url.URL, w int) string {
	port := page.Port()
	if !sharded(page) {
		return pageOrigin(page)
	}
	shard := w / WorkersPerOrigin
	h := fmt.Sprintf("w%d.localhost", shard)
	if port != "" {
		h += ":" + port
	}
	return "http://" + h
}

// pageOrigin is the origin of the page at page.
func pageOrigin(page *url.URL) string {
	return (&url.URL{Scheme: page.Scheme, Host: page.Host}).String() // escapes a zone's %
}

// sharded reports whether a page at page spreads the mock's requests over
// *.localhost origins: an http page on this machine.
func sharded(page *url.URL) bool {
	return page.Scheme == "http" && reachedByLocalhostNames(page.Hostname())
}

// reachedByLocalhostNames reports whether host is one the *.localhost names reach:
// browsers resolve them to 127.0.0.1 and ::1 only, so a page on another
// loopback address (127.0.0.5) keeps every worker on its own origin.
func reachedByLocalhostNames(host string) bool {
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

// subdomainCheck is what the page found out, once it had painted, of
// whether its fetch workers reach the mock on the *.localhost origins
// MockOrigin spreads them over. Chromium and Firefox resolve every
// *.localhost name to the loopback interface themselves; Safari asks
// macOS, which resolves localhost alone, so there every request to
// w0.localhost failed as if the server were down and a run was all
// failures. A proxy or a resolver that answers for those names in the
// server's place fails the check too: the answer must be the mock's, for
// the check's own key. Where the check fails, every worker calls the
// page's own origin, as on a LAN address. A check that got no answer in
// time (a machine too busy, a resolver that hangs) counts as failed for
// the runs waiting on it, and the next run asks again (expired).
type subdomainCheck struct {
	done        chan struct{} // closed once the answer is in
	unreachable bool          // written before done is closed
	timedOut    bool          // no answer within subdomainCheckTimeout (unreachable too)
	// serverDown: the page's own origin did not answer either (the
	// server stopped, the page opened from the service worker's cache),
	// which says nothing of *.localhost: not unreachable, and asked
	// again before the next run. A review saw the page blame the browser
	// ("Safari, for one, resolves no *.localhost name") in Chrome, and
	// its next run, the server back, held by the browser.
	serverDown bool
}

// subdomainCheckTimeout is how long the check waits for the mock's answer,
// from the page's first paint: a resolver that hangs on the name counts as
// one that does not know it.
var subdomainCheckTimeout = 5 * time.Second

// newSubdomainCheck starts the check: after afterPaint, a GET of the mock
// at page's first *.localhost origin with get (browser.FetchOpen in the
// page, as a run's requests go), which must answer 200 for key.
func newSubdomainCheck(page *url.URL, key string, afterPaint func(), get func(ctx context.Context, url string) (browser.Response, error)) *subdomainCheck {
	c := &subdomainCheck{done: make(chan struct{})}
	timeout := subdomainCheckTimeout
	go func() {
		afterPaint()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		query := "/mock?key=" + url.QueryEscape(key) + "&limiter=none&latency=0ms"
		r, err := get(ctx, MockOrigin(page, 0)+query)
		// The fetch worker keeps the deadline too, and may give up first.
		c.timedOut = ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)
		var b mock.Body
		c.unreachable = err != nil || r.Status != 200 || mock.DecodeBody([]byte(r.Body), &b) != nil || b.Key != key
		if err != nil && !c.timedOut {
			// No answer at all: is it the server, not the name?
			if _, err := get(ctx, pageOrigin(page)+query); err != nil && ctx.Err() == nil {
				c.serverDown, c.unreachable = true, false
			}
		}
		cancel()
		close(c.done)
	}()
	return c
}

// pending reports whether the answer is not in yet (false for no check).
func (c *subdomainCheck) pending() bool {
	if c == nil {
		return false
	}
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// failed reports whether the check is over and the browser did not reach
// the mock there.
func (c *subdomainCheck) failed() bool {
	return c != nil && !c.pending() && c.unreachable
}

// expired reports whether the check is over without an answer in time,
// or with the server down: worth asking again.
func (c *subdomainCheck) expired() bool {
	return c != nil && !c.pending() && (c.timedOut || c.serverDown)
}

// down reports whether the check is over and found the server itself not
// answering.
func (c *subdomainCheck) down() bool {
	return c != nil && !c.pending() && c.serverDown
}

// wait returns once the check's answer is in, or ctx ended (at once for no
// check).
func (c *subdomainCheck) wait(ctx context.Context) {
	if c == nil {
		return
	}
	select {
	case <-c.done:
	case <-ctx.Done():
	}
}
