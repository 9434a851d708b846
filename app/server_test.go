//go:build !(js && wasm)

package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/app/fleet"
)

func TestPickEncoding(t *testing.T) {
	both := map[string][]byte{"br": nil, "gzip": nil}
	gzOnly := map[string][]byte{"gzip": nil}
	tests := []struct {
		name   string
		accept string
		have   map[string][]byte
		want   string
	}{
		{"chromium", "gzip, deflate, br, zstd", both, "br"},
		{"brotli preferred over gzip whatever the order", "gzip, br", both, "br"},
		{"gzip only accepted", "gzip", both, "gzip"},
		{"nothing accepted", "", both, ""},
		{"identity only", "identity", both, ""},
		{"br refused with q=0", "br;q=0, gzip", both, "gzip"},
		{"both refused", "br;q=0, gzip;q=0", both, ""},
		{"wildcard", "*", both, "br"},
		{"wildcard but br refused", "*, br;q=0", both, "gzip"},
		{"case and spaces", " GZIP ; Q=0.5 ", both, "gzip"},
		{"br accepted but not built", "br, gzip", gzOnly, "gzip"},
		{"none built", "br, gzip", map[string][]byte{}, ""},
		{"malformed q is ignored (counts as 1)", "br;q=abc", both, "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pickEncoding(tt.accept, tt.have); got != tt.want {
				t.Errorf("pickEncoding(%q) = %q, want %q", tt.accept, got, tt.want)
			}
		})
	}
}

// direct: app.wasm goes uncompressed only to a browser on this machine
// with no proxy between (a proxy here may be passing on a request from
// anywhere).
func TestDirect(t *testing.T) {
	tests := []struct {
		name, remote string
		header       []string
		want         bool
		host         string // the Host asked for; "": localhost:8080
	}{
		{"IPv4 loopback", "127.0.0.1:51000", nil, true, ""},
		{"another IPv4 loopback address", "127.0.0.2:51000", nil, true, ""},
		{"IPv6 loopback", "[::1]:51000", nil, true, ""},
		{"IPv4 loopback mapped into IPv6", "[::ffff:127.0.0.1]:51000", nil, true, ""},
		{"the LAN", "192.168.1.7:51000", nil, false, ""},
		{"IPv6 elsewhere", "[2001:db8::7]:51000", nil, false, ""},
		{"a proxy here: X-Forwarded-For", "127.0.0.1:51000", []string{"X-Forwarded-For", "203.0.113.9"}, false, ""},
		{"a proxy here: Forwarded", "127.0.0.1:51000", []string{"Forwarded", "for=203.0.113.9"}, false, ""},
		{"a proxy here: X-Real-IP", "127.0.0.1:51000", []string{"X-Real-IP", "203.0.113.9"}, false, ""},
		{"a proxy here: X-Forwarded-Host", "127.0.0.1:51000", []string{"X-Forwarded-Host", "retrylab.example"}, false, ""},
		{"a proxy here: Via", "127.0.0.1:51000", []string{"Via", "1.1 nginx"}, false, ""},
		{"no port", "127.0.0.1", nil, false, ""},
		{"empty", "", nil, false, ""},
		{"a name, not an address", "localhost:51000", nil, false, ""},
		// The names a browser on this machine asks for.
		{"a worker's origin", "127.0.0.1:51000", nil, true, "w3.localhost:8080"},
		{"a loopback address asked for", "127.0.0.1:51000", nil, true, "127.0.0.1:8080"},
		{"the IPv6 loopback asked for", "[::1]:51000", nil, true, "[::1]:8080"},
		{"a loopback name with a dot and capitals", "127.0.0.1:51000", nil, true, "LocalHost.:8080"},
		// A plain TCP forwarder here (ssh -R, socat) adds no header: the
		// browser behind it asked for another name (a review: 7.85 MB as
		// is over a 1.5 Mbit/s link).
		{"a forwarder here: a public name", "127.0.0.1:51000", nil, false, "presenter.example:8080"},
		{"a forwarder here: a LAN address", "127.0.0.1:51000", nil, false, "192.168.1.5:8080"},
		{"a forwarder here: a name ending in localhost", "127.0.0.1:51000", nil, false, "notlocalhost:8080"},
		{"no Host", "127.0.0.1:51000", nil, false, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/web/app.wasm", nil)
			r.RemoteAddr = tt.remote
			switch tt.host {
			case "":
				r.Host = "localhost:8080"
			case "-":
				r.Host = ""
			default:
				r.Host = tt.host
			}
			for i := 0; i+1 < len(tt.header); i += 2 {
				r.Header.Set(tt.header[i], tt.header[i+1])
			}
			if got := direct(r); got != tt.want {
				t.Errorf("direct(%q Host %q %v) = %v, want %v", tt.remote, r.Host, tt.header, got, tt.want)
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		args    []string
		env     func(string) string
		want    config
		wantErr string
	}{
		{"defaults", nil, env(), config{host: "localhost", port: 8080, root: "."}, ""},
		{"flags", []string{"-host", "0.0.0.0", "-port", "9000", "-root", "/srv"}, env(), config{host: "0.0.0.0", port: 9000, root: "/srv"}, ""},
		{"environment", nil, env("RETRYLAB_HOST", "127.0.0.1", "RETRYLAB_PORT", "9001", "RETRYLAB_ROOT", "/x"), config{host: "127.0.0.1", port: 9001, root: "/x"}, ""},
		{"flag beats environment", []string{"-port", "9002"}, env("RETRYLAB_PORT", "9001"), config{host: "localhost", port: 9002, root: "."}, ""},
		{"free port", []string{"-port", "0"}, env(), config{host: "localhost", port: 0, root: "."}, ""},
		{"port too large", []string{"-port", "70000"}, env(), config{}, "port 70000: must be between 1 and 65535"},
		{"negative port", []string{"-port", "-1"}, env(), config{}, "port -1: must be between 1 and 65535"},
		{"bad env port", nil, env("RETRYLAB_PORT", "http"), config{}, `RETRYLAB_PORT "http": must be a port number`},
		{"env port too large", nil, env("RETRYLAB_PORT", "99999"), config{}, "RETRYLAB_PORT 99999: must be between 1 and 65535"},
		{"flag beats a bad env port", []string{"-port", "8799"}, env("RETRYLAB_PORT", "abc"), config{host: "localhost", port: 8799, root: "."}, ""},
		{"flag port too large", []string{"-port", "70000"}, env("RETRYLAB_PORT", "9001"), config{}, "-port 70000: must be between"},
		{"stray argument", []string{"extra"}, env(), config{}, `unexpected argument "extra"`},
		{"unknown flag", []string{"-nope"}, env(), config{}, "flag provided but not defined: -nope"},
		// Decimal, as RETRYLAB_PORT is read: flag.IntVar took 010 as
		// octal 8 and 0x1F90 as 8080, where the variable refuses them.
		{"leading zero is decimal", []string{"-port", "010"}, env(), config{host: "localhost", port: 10, root: "."}, ""},
		{"hexadecimal port", []string{"-port", "0x1F90"}, env(), config{}, `-port "0x1F90": must be a port number between 1 and 65535 (0 picks a free port)`},
		{"octal-looking port", []string{"-port", "0o17"}, env(), config{}, `-port "0o17": must be a port number`},
		{"digit separators", []string{"-port", "8_080"}, env(), config{}, `-port "8_080": must be a port number`},
		{"word port", []string{"-port", "abc"}, env(), config{}, `-port "abc": must be a port number between 1 and 65535`},
		{"fractional port", []string{"-port", "80.5"}, env(), config{}, `-port "80.5": must be a port number`},
		// A port browsers refuse to load a page from (the Fetch standard's
		// bad ports): the server said it served the playground there.
		{"bad port", []string{"-port", "6000"}, env(), config{}, "-port 6000: browsers refuse to load a page from that port (a bad port in the Fetch standard"},
		{"bad env port", nil, env("RETRYLAB_PORT", "6667"), config{}, "RETRYLAB_PORT 6667: browsers refuse"},
		{"port beside a bad one", []string{"-port", "6001"}, env(), config{host: "localhost", port: 6001, root: "."}, ""},
		// Names answered besides localhost's and IP addresses (hostGuard).
		{"allowed hosts", []string{"-allow-host", "demo.example.com, laptop.local:8080,"}, env(), config{host: "localhost", port: 8080, root: ".", allowHosts: []string{"demo.example.com", "laptop.local:8080"}}, ""},
		{"allowed hosts from the environment", nil, env("RETRYLAB_ALLOW_HOST", "*"), config{host: "localhost", port: 8080, root: ".", allowHosts: []string{"*"}}, ""},
		{"flag beats the environment's hosts", []string{"-allow-host", "a.test"}, env("RETRYLAB_ALLOW_HOST", "b.test"), config{host: "localhost", port: 8080, root: ".", allowHosts: []string{"a.test"}}, ""},
		{"a URL is no host", []string{"-allow-host", "http://demo.example.com/"}, env(), config{}, `-allow-host "http://demo.example.com/": must be host names separated by commas`},
		{"a bad port", []string{"-allow-host", "demo.test:http"}, env(), config{}, `-allow-host "demo.test:http"`},
		{"a tunnel's subdomains", []string{"-allow-host", "*.trycloudflare.com"}, env(), config{host: "localhost", port: 8080, root: ".", allowHosts: []string{"*.trycloudflare.com"}}, ""},
		{"a star inside", []string{"-allow-host", "a*.example.com"}, env(), config{}, `-allow-host "a*.example.com": must be host names`},
		{"a star's subdomain", []string{"-allow-host", "*.*.example.com"}, env(), config{}, `-allow-host "*.*.example.com"`},
		// Addresses the mock's per-address caps do not count.
		{"uncapped", []string{"-uncapped", "172.17.0.9/16, 192.168.1.10,::ffff:10.0.0.1,2001:db8::/32"}, env(), config{host: "localhost", port: 8080, root: ".",
			uncapped: []netip.Prefix{netip.MustParsePrefix("172.17.0.0/16"), netip.MustParsePrefix("192.168.1.10/32"), netip.MustParsePrefix("10.0.0.1/32"), netip.MustParsePrefix("2001:db8::/32")}}, ""},
		{"uncapped from the environment", nil, env("RETRYLAB_UNCAPPED", "10.0.0.0/8"), config{host: "localhost", port: 8080, root: ".", uncapped: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, ""},
		// A value not allowed names where it came from.
		{"uncapped name from the environment", nil, env("RETRYLAB_UNCAPPED", "router.lan"), config{}, `RETRYLAB_UNCAPPED "router.lan": must be IP addresses`},
		{"allowed host from the environment", nil, env("RETRYLAB_ALLOW_HOST", "http://x/"), config{}, `RETRYLAB_ALLOW_HOST "http://x/": must be host names`},
		{"uncapped name", []string{"-uncapped", "router.lan"}, env(), config{}, `-uncapped "router.lan": must be IP addresses or prefixes separated by commas, such as 192.168.1.10 or 172.17.0.0/16`},
		{"uncapped bad prefix", []string{"-uncapped", "10.0.0.0/33"}, env(), config{}, `-uncapped "10.0.0.0/33"`},
		{"uncapped zone", []string{"-uncapped", "fe80::1%eth0"}, env(), config{}, `-uncapped "fe80::1%eth0"`},
		// Counted as IPv4, as the caps count a client (a review: it never matched).
		{"uncapped IPv4-mapped prefix", []string{"-uncapped", "::ffff:172.17.0.0/112"}, env(), config{host: "localhost", port: 8080, root: ".", uncapped: []netip.Prefix{netip.MustParsePrefix("172.17.0.0/16")}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseConfig(tt.args, tt.env, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// FuzzParseConfig: whatever the flags and RETRYLAB_* variables say, the
// server starts with a port it may serve a page on (1–65535, not a bad
// port; 0 for a free one), only allowed host names without a scheme, and
// uncapped prefixes masked; or it refuses them with an error that names
// the flag or the variable; never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add("8080", "", "demo.example.com", "172.17.0.9/16")
	f.Add("0x1F90", "6667", "http://x/", "fe80::1%eth0")
	f.Add("", "99999", "*.*.example.com", "::ffff:172.17.0.0/112")
	f.Fuzz(func(t *testing.T, port, envPort, hosts, uncapped string) {
		env := func(k string) string {
			switch k {
			case "RETRYLAB_PORT":
				return envPort
			case "RETRYLAB_UNCAPPED":
				return uncapped
			}
			return ""
		}
		args := []string{"-allow-host", hosts}
		if port != "" {
			args = append(args, "-port", port)
		}
		c, err := parseConfig(args, env, io.Discard)
		if err != nil {
			if !strings.Contains(err.Error(), "-port") && !strings.Contains(err.Error(), "RETRYLAB_") && !strings.Contains(err.Error(), "-allow-host") &&
				!strings.Contains(err.Error(), "flag") {
				t.Fatalf("%q %q %q %q: %v names no flag or variable", port, envPort, hosts, uncapped, err)
			}
			return
		}
		if c.port < 0 || c.port > 65535 || c.port != 0 && fleet.BadPort(c.port) {
			t.Fatalf("%q %q: port %d", port, envPort, c.port)
		}
		for _, h := range c.allowHosts {
			if h == "" || strings.Contains(h, "/") || strings.Contains(h, ",") {
				t.Fatalf("%q: allowed host %q", hosts, h)
			}
		}
		for _, p := range c.uncapped {
			if !p.IsValid() || p != p.Masked() {
				t.Fatalf("%q: uncapped %v", uncapped, p)
			}
		}
	})
}

// FuzzPickEncoding: whatever Accept-Encoding says, the encoding chosen is
// one that was built ("" for identity), and one the header did not refuse
// outright when it names it alone; never a panic.
func FuzzPickEncoding(f *testing.F) {
	for _, s := range []string{"", "gzip, deflate, br, zstd", "br;q=0, gzip", "*", "*;q=0", "br;q=NaN", "br;q=1e400", "br;q=-1", ";;,,", "BR;Q=0.5", "br;q", "gzip;q=0;q=1"} {
		f.Add(s)
	}
	have := map[string][]byte{"br": nil, "gzip": nil}
	f.Fuzz(func(t *testing.T, accept string) {
		got := pickEncoding(accept, have)
		if _, built := have[got]; got != "" && !built {
			t.Fatalf("pickEncoding(%q) = %q, not built", accept, got)
		}
		if got == "" {
			return
		}
		if !strings.Contains(strings.ToLower(accept), got) && !strings.Contains(accept, "*") {
			t.Fatalf("pickEncoding(%q) = %q, never asked for", accept, got)
		}
	})
}

// printServing: the first line, which the end-to-end harness reads, stays
// as it was; when other devices can reach the server, each origin /join
// reports follows on a line of its own, for the presenter to read out.
func TestPrintServing(t *testing.T) {
	lan := func(cidrs ...string) func() ([]net.Addr, error) {
		return func() ([]net.Addr, error) {
			var addrs []net.Addr
			for _, c := range cidrs {
				ip, n, err := net.ParseCIDR(c)
				if err != nil {
					t.Fatal(err)
				}
				addrs = append(addrs, &net.IPNet{IP: ip, Mask: n.Mask})
			}
			return addrs, nil
		}
	}
	failing := func() ([]net.Addr, error) { return nil, errors.New("no interfaces") }
	const mockLine = "mock endpoint, as the page sets it up (try it with curl): "
	tests := []struct {
		name  string
		host  string
		addrs func() ([]net.Addr, error)
		want  []string // lines after the mock endpoint's
	}{
		{"localhost: no one else reaches it", "localhost", lan("192.0.2.2/24"), nil},
		{"loopback address", "127.0.0.1", lan("192.0.2.2/24"), nil},
		{"every interface", "0.0.0.0", lan("192.0.2.2/24"), []string{"on your network: http://192.0.2.2:8080/"}},
		{"every interface, IPv4 first", "::", lan("2001:db8::2/64", "192.0.2.2/24", "198.51.100.7/24"),
			[]string{"on your network: http://192.0.2.2:8080/", "on your network: http://198.51.100.7:8080/", "on your network: http://[2001:db8::2]:8080/"}},
		{"loopback and link-local left out", "0.0.0.0", lan("127.0.0.1/8", "169.254.3.4/16", "fe80::1/64", "192.0.2.2/24"), []string{"on your network: http://192.0.2.2:8080/"}},
		{"one address of this machine", "192.0.2.2", lan("198.51.100.7/24"), []string{"on your network: http://192.0.2.2:8080/"}},
		{"no address found", "0.0.0.0", lan("127.0.0.1/8"), []string{"on your network: no address yet: " + hintNoAddressConsole}},
		{"interfaces unreadable", "0.0.0.0", failing, []string{"on your network: no address yet: " + hintNoAddressConsole}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			printServing(&b, tt.host, 8080, tt.addrs)
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) < 2 {
				t.Fatalf("printed %q, want at least the playground's and the mock endpoint's lines", b.String())
			}
			wantFirst := "Retry Lab is serving the playground at " + openURL(tt.host, 8080) + "/"
			if lines[0] != wantFirst {
				t.Errorf("first line %q, want %q", lines[0], wantFirst)
			}
			if !strings.HasPrefix(lines[1], mockLine+openURL(tt.host, 8080)+"/mock") {
				t.Errorf("second line %q, want the mock endpoint's", lines[1])
			}
			if got := lines[2:]; !slices.Equal(got, tt.want) {
				t.Errorf("then %q, want %q", got, tt.want)
			}
		})
	}
}

// The command line's help and errors: -h, --help and -help print a
// command's usage and exit 0, for compress too (it opened a file named
// "-h"); `retrylab help [COMMAND]` does the same (it was an unknown
// command); an undefined flag is told once, before the usage (the flag
// package printed it, then runMain again), and exits 2.
func TestCommandLine(t *testing.T) {
	const (
		topUsage      = "retrylab [serve] [flags]"
		serveFlags    = "RETRYLAB_ROOT"
		compressUsage = "retrylab compress FILE..."
		simUsageLine  = "retrylab sim aws [-runs 100]"
	)
	tests := []struct {
		name string
		args []string
		rc   int
		want []string // in stderr, each exactly once
		not  []string // never in stderr
	}{
		{"-h", []string{"-h"}, 0, []string{topUsage, serveFlags}, nil},
		{"serve --help", []string{"serve", "--help"}, 0, []string{topUsage, serveFlags}, nil},
		{"help", []string{"help"}, 0, []string{topUsage, serveFlags}, []string{"unknown command"}},
		{"help serve", []string{"help", "serve"}, 0, []string{topUsage, serveFlags}, nil},
		{"help compress", []string{"help", "compress"}, 0, []string{compressUsage}, nil},
		{"help sim", []string{"help", "sim"}, 0, []string{simUsageLine}, nil},
		{"help help", []string{"help", "help"}, 0, []string{topUsage, serveFlags}, nil},
		{"help -h", []string{"help", "-h"}, 0, []string{topUsage, serveFlags}, nil},
		{"help of two commands", []string{"help", "sim", "compress"}, 2, []string{"help sim compress: name one command (serve, compress or sim)"}, []string{"unknown command"}},
		{"help of an unknown command", []string{"help", "nope"}, 2, []string{`unknown command "nope"`}, nil},
		{"compress -h", []string{"compress", "-h"}, 0, []string{compressUsage}, []string{"open -h", "no such file"}},
		{"compress --help", []string{"compress", "--help"}, 0, []string{compressUsage}, []string{"open --help"}},
		{"compress -help", []string{"compress", "-help"}, 0, []string{compressUsage}, []string{"open -help"}},
		{"compress with no file", []string{"compress"}, 2, []string{"compress: name at least one file"}, nil},
		{"compress, undefined flag", []string{"compress", "-x"}, 2, []string{"flag provided but not defined: -x", compressUsage}, nil},
		{"sim -h", []string{"sim", "-h"}, 0, []string{simUsageLine}, nil},
		{"--version", []string{"--version"}, 2, []string{"flag provided but not defined: -version", topUsage}, nil},
		{"serve, undefined flag", []string{"serve", "-nope"}, 2, []string{"flag provided but not defined: -nope", topUsage}, nil},
		{"sim aws, undefined flag", []string{"sim", "aws", "-nope"}, 2, []string{"flag provided but not defined: -nope", simUsageLine}, nil},
		{"sim scenario, undefined flag", []string{"sim", "scenario", "-nope"}, 2, []string{"flag provided but not defined: -nope", simUsageLine}, nil},
		{"unknown command", []string{"nope"}, 2, []string{`unknown command "nope" (want serve, compress, sim or help)`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			rc := runMain(tt.args, &stdout, &stderr)
			if rc != tt.rc {
				t.Errorf("retrylab %q: exit status %d, want %d", tt.args, rc, tt.rc)
			}
			for _, w := range tt.want {
				if n := strings.Count(stderr.String(), w); n != 1 {
					t.Errorf("retrylab %q: stderr has %q %d times, want once:\n%s", tt.args, w, n, stderr.String())
				}
			}
			for _, w := range tt.not {
				if strings.Contains(stderr.String(), w) {
					t.Errorf("retrylab %q: stderr has %q:\n%s", tt.args, w, stderr.String())
				}
			}
			if stdout.Len() != 0 {
				t.Errorf("retrylab %q: printed %q on stdout, want nothing", tt.args, stdout.String())
			}
		})
	}
}

// TestShutdownClosesFreshConnections: a connection that has sent no
// request yet does not hold Shutdown up. net/http counts one as busy for
// its first 5 s, longer than serve waits: a connection Chromium opened
// ahead of a request it never sent made serve exit with "context deadline
// exceeded" on SIGTERM (a fresh-clone CI). One with a request in flight
// is still waited for.
func TestShutdownClosesFreshConnections(t *testing.T) {
	release, arrived := make(chan struct{}), make(chan struct{})
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-release
		io.WriteString(w, "done")
	}), context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	fresh, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	busy := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			busy <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		busy <- string(b)
	}()
	// The request in its handler: both connections accepted (the fresh
	// one first, dialled first).
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not reach its handler in 10 s")
	}
	go func() { time.Sleep(300 * time.Millisecond); close(release) }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown with a connection that sent nothing: %v", err)
	}
	if got := <-busy; got != "done" {
		t.Errorf("the request in flight got %q, want its answer", got)
	}
	fresh.SetReadDeadline(time.Now().Add(time.Second))
	if n, err := fresh.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the fresh connection is still open after Shutdown (read %d, %v)", n, err)
	}
}
