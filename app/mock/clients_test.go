//go:build !(js && wasm)

package mock

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fromHeader serves h as if each request came from the address in its
// X-Test-From header (every test server's clients are on loopback).
func fromHeader(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if from := r.Header.Get("X-Test-From"); from != "" {
			r.RemoteAddr = from + ":40000"
		}
		h.ServeHTTP(w, r)
	})
}

// TestOneClientCannotHoldEverything: one remote address holds at most
// MaxStreamsPerClient arrivals streams, MaxHangsPerClient hangs and
// MaxStretchesPerClient keys in an outage (and as many under a scaled
// limit); beyond, a stream or a switch is refused with a 503 that names
// the address and the cap, and a hang is closed at once (its end
// "dropped"). Another address, and the loopback interface (uncounted), are
// not held back. One client with curl opened all 500 streams, held 8,000
// hangs, and could put all 10,000 keys a switch takes in an outage, so
// that the room's Outage got 503 (a security review).
func TestOneClientCannotHoldEverything(t *testing.T) {
	h := New(Options{MaxStreamsPerClient: 2, MaxHangsPerClient: 1, MaxStretchesPerClient: 2, HangLimit: 3 * time.Second})
	mux := http.NewServeMux()
	mux.Handle("/mock", h)
	mux.Handle("/mock/events", h.Events())
	mux.Handle("/mock/outage", h.Outage())
	mux.Handle("/mock/limit", h.Limit())
	srv := httptest.NewServer(fromHeader(mux))
	t.Cleanup(func() {
		h.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	get := func(ctx context.Context, path, from string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		if from != "" {
			req.Header.Set("X-Test-From", from)
		}
		return (&http.Transport{DisableKeepAlives: true}).RoundTrip(req)
	}

	// Streams.
	first := openStreamFrom(t, srv.URL+"/mock/events?key=k", "192.0.2.1")
	openStreamFrom(t, srv.URL+"/mock/events?key=k", "192.0.2.1")
	resp, err := get(context.Background(), "/mock/events?key=k", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	if resp.StatusCode != 200 { // a stream's body never ends
		body, _ = io.ReadAll(resp.Body)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "5" || !strings.Contains(string(body), "at most 2 arrivals streams open at once from one address (192.0.2.1)") {
		t.Errorf("a third stream from one address: %d, Retry-After %q, %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	openStreamFrom(t, srv.URL+"/mock/events?key=k", "192.0.2.2")
	for range 3 {
		openStream(t, srv.URL+"/mock/events?key=k") // loopback: not counted
	}
	first.close()
	if err := waitUntil(2*time.Second, func() bool { return h.streams.held("192.0.2.1") == 1 }); err != nil {
		t.Fatalf("a closed stream still counted: %d held", h.streams.held("192.0.2.1"))
	}
	openStreamFrom(t, srv.URL+"/mock/events?key=k", "192.0.2.1")

	// Outages and scaled limits.
	post := func(path, from string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, nil)
		if from != "" {
			req.Header.Set("X-Test-From", from)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tt := range []struct {
		path, from string
		want       int
		says       string
	}{
		{"/mock/outage?key=a&for=1m", "192.0.2.1", 200, ""},
		{"/mock/outage?key=b&for=1m", "192.0.2.1", 200, ""},
		{"/mock/outage?key=c&for=1m", "192.0.2.1", 503, "at most 2 keys in an outage at once from one address (192.0.2.1); try again when one ends"},
		{"/mock/outage?key=a&for=30s", "192.0.2.1", 200, ""}, // its own again: not one more
		{"/mock/outage?key=c&for=1m", "192.0.2.2", 200, ""},
		{"/mock/outage?key=d&for=1m", "", 200, ""},
		{"/mock/outage?key=e&for=1m", "", 200, ""},
		{"/mock/outage?key=f&for=1m", "", 200, ""},
		{"/mock/limit?key=a&for=1m", "192.0.2.1", 200, ""}, // each switch counts its own
		{"/mock/limit?key=b&for=1m", "192.0.2.1", 200, ""},
		{"/mock/limit?key=c&for=1m", "192.0.2.1", 503, "from one address (192.0.2.1)"},
		{"/mock/outage?key=a&for=0s", "192.0.2.1", 200, ""}, // ended: room for another
		{"/mock/outage?key=g&for=1m", "192.0.2.1", 200, ""},
	} {
		if code, body := post(tt.path, tt.from); code != tt.want || !strings.Contains(body, tt.says) {
			t.Errorf("POST %s from %q: %d %s, want %d saying %q", tt.path, tt.from, code, strings.TrimSpace(body), tt.want, tt.says)
		}
	}

	// Hangs.
	st := openStream(t, srv.URL+"/mock/events?key=h")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, from := range []string{"192.0.2.1", "192.0.2.2", ""} {
		go func() {
			if resp, err := get(ctx, "/mock?key=h&hang=100", from); err == nil {
				resp.Body.Close()
			}
		}()
	}
	for range 3 {
		if ev := st.next(t); ev.Outcome != "hang" {
			t.Fatalf("arrival %+v, want a hang", ev)
		}
	}
	if err := waitUntil(2*time.Second, func() bool { return h.hangs.held("192.0.2.1") == 1 && h.hangs.held("192.0.2.2") == 1 }); err != nil {
		t.Fatalf("hangs held: %d and %d, want 1 each", h.hangs.held("192.0.2.1"), h.hangs.held("192.0.2.2"))
	}
	start := time.Now()
	if resp, err := get(context.Background(), "/mock?key=h&hang=100", "192.0.2.1"); err == nil {
		resp.Body.Close()
		t.Fatalf("a second hang from one address answered %d", resp.StatusCode)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a second hang from one address was held %v, want closed at once", d)
	}
	st.next(t) // its arrival
	if ev := st.next(t); ev.End != "dropped" {
		t.Errorf("the second hang's end %+v, want dropped", ev)
	}
	if n := h.hangs.held("192.0.2.1"); n != 1 {
		t.Errorf("%d hangs counted for 192.0.2.1 after one was refused, want 1", n)
	}
	cancel()
	if err := waitUntil(2*time.Second, func() bool { return h.hangs.held("192.0.2.1")+h.hangs.held("192.0.2.2") == 0 }); err != nil {
		t.Errorf("hangs still counted after their clients went away: %d, %d", h.hangs.held("192.0.2.1"), h.hangs.held("192.0.2.2"))
	}
}

// TestRemoteHost: the address a client is counted under; "" for the
// loopback interface, which is not counted.
func TestRemoteHost(t *testing.T) {
	for _, tt := range []struct{ remote, want string }{
		{"192.0.2.1:1234", "192.0.2.1"},
		{"[2001:db8::1]:80", "2001:db8::1"},
		{"[::ffff:192.0.2.7]:80", "192.0.2.7"},
		{"127.0.0.1:5000", ""},
		{"127.9.9.9:5000", ""},
		{"[::1]:5000", ""},
		{"[fe80::1%eth0]:80", "fe80::1"}, // a link-local client: counted, not let through
		{"[::ffff:127.0.0.1]:80", ""},
		{"", ""},
		{"not an address", "not an address"}, // counted as written
		{"192.0.2.9", "192.0.2.9"},
	} {
		if got := remoteHost(&http.Request{RemoteAddr: tt.remote}); got != tt.want {
			t.Errorf("remoteHost(%q) = %q, want %q", tt.remote, got, tt.want)
		}
	}
}

// waitUntil polls cond every 5 ms until it holds or d has passed.
func waitUntil(d time.Duration, cond func() bool) error {
	for deadline := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return context.DeadlineExceeded
		}
	}
	return nil
}

// TestSwitchesRefuseOtherSites: a page of another site gets 403 from
// every fault switch, and nothing starts; the server's own page (behind a
// proxy that rewrites Host too), and curl, go on as before. A browser
// sends such a POST without a preflight, so any web page the presenter
// opened could take the room's server down (a security review).
func TestSwitchesRefuseOtherSites(t *testing.T) {
	h := New(Options{})
	t.Cleanup(h.Close)
	routes := map[string]http.Handler{"outage": h.Outage(), "limit": h.Limit(), "burst": h.Burst()}
	n := 0
	for _, sw := range []string{"outage", "limit", "burst"} {
		for _, tt := range []struct {
			host, origin, site string
			want               int
		}{
			{"localhost:8080", "http://evil.example", "cross-site", 403},
			{"localhost:8080", "http://w3.localhost:8080", "same-site", 403},
			{"localhost:8080", "http://evil.example", "", 403}, // a browser that sends no Sec-Fetch-Site
			{"localhost:8080", "null", "", 403},                // a sandboxed frame, a data: URL
			{"localhost:8080", "http://localhost:8080", "same-origin", 200},
			{"127.0.0.1:8080", "https://lab.example", "same-origin", 200}, // a proxy that rewrites Host
			{"192.168.1.5:8080", "http://192.168.1.5:8080", "", 200},      // a room's page on the LAN
			{"localhost:8080", "", "", 200},                               // curl
		} {
			n++
			key := "k" + strconv.Itoa(n)
			r := httptest.NewRequest(http.MethodPost, "http://"+tt.host+"/mock/"+sw+"?key="+key, nil)
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			if tt.site != "" {
				r.Header.Set("Sec-Fetch-Site", tt.site)
			}
			rec := httptest.NewRecorder()
			routes[sw].ServeHTTP(rec, r)
			if rec.Code != tt.want {
				t.Errorf("POST /mock/%s from %q (Sec-Fetch-Site %q) to %s: %d %s, want %d", sw, tt.origin, tt.site, tt.host, rec.Code, rec.Body, tt.want)
			}
			if tt.want == 403 && !strings.Contains(rec.Body.String(), `"param":"origin"`) {
				t.Errorf("POST /mock/%s from %q: %s, want a JSON body naming the origin", sw, tt.origin, rec.Body)
			}
			_, down := h.outages.active(key, time.Now())
			if sw == "outage" && down != (tt.want == 200) {
				t.Errorf("POST /mock/outage from %q (Sec-Fetch-Site %q): key down %v", tt.origin, tt.site, down)
			}
		}
	}
}

// TestUncappedAddresses: the addresses of Options.Uncapped (serve
// -uncapped: a NAT's, a container bridge's, a proxy's on another machine)
// are not counted by the per-client caps, as loopback is not; the others
// are. Run in a container, every device of a room came from the bridge's
// address, and the 51st page's stream got 503.
func TestUncappedAddresses(t *testing.T) {
	h := New(Options{MaxStreamsPerClient: 1, MaxStretchesPerClient: 1,
		Uncapped: []netip.Prefix{netip.MustParsePrefix("172.17.0.0/16"), netip.MustParsePrefix("2001:db8::7/128")}})
	for _, tt := range []struct{ remote, want string }{
		{"172.17.0.1:5000", ""},
		{"172.17.255.9:5000", ""},
		{"[2001:db8::7]:5000", ""},
		{"[::ffff:172.17.0.1]:5000", ""}, // IPv4-mapped: counted as IPv4
		{"172.18.0.1:5000", "172.18.0.1"},
		{"[2001:db8::8]:5000", "2001:db8::8"},
		{"127.0.0.1:5000", ""},
	} {
		if got := h.counted(&http.Request{RemoteAddr: tt.remote}); got != tt.want {
			t.Errorf("counted(%s) = %q, want %q", tt.remote, got, tt.want)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/mock/events", h.Events())
	mux.Handle("/mock/outage", h.Outage())
	srv := httptest.NewServer(fromHeader(mux))
	t.Cleanup(func() {
		h.Close()
		srv.CloseClientConnections()
		srv.Close()
	})
	for range 3 {
		openStreamFrom(t, srv.URL+"/mock/events?key=k", "172.17.0.1")
	}
	for i, from := range []string{"172.17.0.1", "172.17.0.1", "192.0.2.1", "192.0.2.1"} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mock/outage?for=1m&key=k"+strconv.Itoa(i), nil)
		req.Header.Set("X-Test-From", from)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[bool]int{true: 503, false: 200}[i == 3]; resp.StatusCode != want {
			t.Errorf("outage %d from %s: %d, want %d", i+1, from, resp.StatusCode, want)
		}
	}
}

// held is how many addr holds.
func (c *clients) held(addr string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[addr]
}
