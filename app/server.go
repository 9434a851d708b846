//go:build !(js && wasm)

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/mock"
)

// config is what the serve command is told by flags and the environment.
type config struct {
	host string // address to listen on
	port int
	root string // folder holding web/ and wasm_exec.js
	// allowHosts are names the server answers besides localhost, its
	// subdomains, IP addresses and host (hostGuard); "*" allows any.
	allowHosts []string
	// uncapped are remote addresses the mock's per-client caps do not
	// count (mock.Options.Uncapped).
	uncapped []netip.Prefix
}

// usage is printed by -h and for an unknown command.
const usage = `Retry Lab — an in-browser retry playground.

Usage:
  retrylab [serve] [flags]      serve the playground and the mock endpoint
  retrylab compress FILE...     write FILE.gz and FILE.br next to each FILE
  retrylab sim aws|scenario     simulate in virtual time (retrylab sim -h for details)
  retrylab help [COMMAND]       this help, or a command's (as COMMAND -h)

Flags of serve (each also read from the environment variable shown):
`

func serverMain() {
	if rc := runMain(os.Args[1:], os.Stdout, os.Stderr); rc != 0 {
		os.Exit(rc)
	}
}

// runMain runs the command line args (without the program's name) and
// returns the exit status: 0, or 2 for an error, printed on stderr.
func runMain(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	if cmd == "help" { // retrylab help [COMMAND] is COMMAND -h
		switch {
		case len(args) == 0 || len(args) == 1 && (args[0] == "help" || strings.HasPrefix(args[0], "-")):
			cmd, args = "serve", []string{"-h"} // serve's usage is the program's
		case len(args) == 1:
			cmd, args = args[0], []string{"-h"}
		default:
			err = fmt.Errorf("help %s: name one command (serve, compress or sim)", strings.Join(args, " "))
		}
	}
	switch {
	case err != nil:
	case cmd == "serve":
		err = serveCommand(args, stdout, stderr)
	case cmd == "compress":
		err = compressCommand(args, stderr)
	case cmd == "sim":
		err = runSim(args, stdout, stderr)
	default:
		err = fmt.Errorf("unknown command %q (want serve, compress, sim or help)", cmd)
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.As(err, new(flagError)) {
		return 2 // the flag package has printed it, and the usage
	}
	if err != nil {
		fmt.Fprintln(stderr, "retrylab:", err)
		return 2
	}
	return 0
}

// flagError is an error of flag.FlagSet.Parse other than flag.ErrHelp,
// which the flag package has printed already, followed by the usage:
// runMain does not print it again.
type flagError struct{ error }

func (e flagError) Unwrap() error { return e.error }

// parseFlags parses args with fs, whose errors are printed.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return flagError{err}
	}
	return err
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	envOr := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	var c config
	fs.StringVar(&c.host, "host", envOr("RETRYLAB_HOST", "localhost"),
		"host or IP to listen on; 0.0.0.0 serves a workshop room on every interface (RETRYLAB_HOST)")
	port := decimalVar(fs, &c.port, "port", 8080, "TCP `port` to listen on, 1–65535, not one browsers refuse (6000, 6667, …); 0 picks a free one (RETRYLAB_PORT)")
	fs.StringVar(&c.root, "root", envOr("RETRYLAB_ROOT", "."),
		"folder holding web/app.wasm and wasm_exec.js, as built by make (RETRYLAB_ROOT)")
	allow := fs.String("allow-host", getenv("RETRYLAB_ALLOW_HOST"),
		"comma-separated `names` the server answers besides localhost, *.localhost, IP addresses and -host's, such as a reverse proxy's or a tunnel's (*.example.com: its subdomains); * answers any name, with no protection against DNS rebinding (RETRYLAB_ALLOW_HOST)")
	uncapped := fs.String("uncapped", getenv("RETRYLAB_UNCAPPED"),
		"comma-separated IP `addresses` or prefixes (172.17.0.0/16) whose clients the mock's per-address caps (50 streams, 500 hangs, 100 faults) do not count, as loopback's: a NAT's, a container bridge's or a proxy's on another machine, through which a whole room comes (RETRYLAB_UNCAPPED)")
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// from names where a value came from: the flag, or else its variable
	// (an RETRYLAB_UNCAPPED not allowed was told as -uncapped's, which the
	// command line did not have: found by a fuzz test).
	from := func(flag, variable string) string {
		if set[flag] {
			return "-" + flag
		}
		return variable
	}
	for _, a := range strings.Split(*uncapped, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		p, err := parsePrefix(a)
		if err != nil {
			return c, fmt.Errorf("%s %q: must be IP addresses or prefixes separated by commas, such as 192.168.1.10 or 172.17.0.0/16", from("uncapped", "RETRYLAB_UNCAPPED"), a)
		}
		c.uncapped = append(c.uncapped, p)
	}
	for _, n := range strings.Split(*allow, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if h := normalHost(n); n != "*" && (h == "" || strings.Contains(strings.TrimPrefix(h, "*."), "*")) {
			return c, fmt.Errorf("%s %q: must be host names separated by commas (a port is ignored; *.example.com allows its subdomains), or *", from("allow-host", "RETRYLAB_ALLOW_HOST"), n)
		}
		c.allowHosts = append(c.allowHosts, n)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := port.check("port", "a port number between 1 and 65535 (0 picks a free port)"); err != nil {
		return c, err
	}
	source := "-port"
	if env := getenv("RETRYLAB_PORT"); env != "" && !set["port"] { // -port wins over the variable
		n, err := strconv.Atoi(env)
		if err != nil {
			return c, fmt.Errorf("RETRYLAB_PORT %q: must be a port number between 1 and 65535 (0 picks a free port)", env)
		}
		c.port, source = n, "RETRYLAB_PORT"
	}
	if c.port < 0 || c.port > 65535 {
		return c, fmt.Errorf("%s %d: must be between 1 and 65535 (0 picks a free port)", source, c.port)
	}
	if fleet.BadPort(c.port) {
		return c, fmt.Errorf("%s %d: browsers refuse to load a page from that port (a bad port in the Fetch standard, kept for mail, IRC, X11 and other protocols): choose another, e.g. 8080", source, c.port)
	}
	return c, nil
}

// parsePrefix reads an IP address, as the prefix of that address alone,
// or a prefix such as 172.17.0.0/16 (its address masked).
func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err == nil && p.Addr().Is4In6() && p.Bits() >= 96 {
			// As the caps count a client: an IPv4-mapped address as IPv4.
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return p.Masked(), err
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("not an IP address: %q", s)
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

func serveCommand(args []string, stdout, stderr io.Writer) error {
	c, err := parseConfig(args, os.Getenv, stderr)
	if err != nil {
		return err
	}
	site, err := newSiteWith(c.root, mock.Options{Uncapped: c.uncapped})
	if err != nil {
		return err
	}
	defer site.Close()

	lns, err := listen(c.host, c.port)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Requests inherit base, cancelled only if Shutdown gives up on them.
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := newServer(guardHosts(site, c.host, c.allowHosts), base)
	port := lns[0].Addr().(*net.TCPAddr).Port
	site.setListenAddr(c.host, port) // for /join: with -port 0 the port is known only now
	errc := make(chan error, len(lns))
	for _, ln := range lns {
		go func() { errc <- srv.Serve(ln) }()
	}
	printServing(stdout, c.host, port, upInterfaceAddrs)

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "retrylab: shutting down")
	// The mock first: a request waiting out its latency is answered now,
	// a hang's connection is closed, event streams end; so Shutdown has
	// nothing left to wait for. Cancelling the requests' context instead
	// ended those waits with nothing written, which net/http sent as an
	// empty 200: a hang "succeeded".
	site.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	cancelBase()
	return err
}

// hintNoAddressConsole is what serve prints when it listens on every
// interface but none has an address other devices could reach.
const hintNoAddressConsole = "connect this machine to the room's network (Wi-Fi or cable): the page's /join finds the address then"

// printServing prints where the server serves. The first line is the one
// the end-to-end tests read (tests/harness_test.go, startServer). When
// other devices can reach the server (-host 0.0.0.0, or an address of this
// machine), a line per origin /join reports follows: the address a
// workshop's phones open.
func printServing(w io.Writer, host string, port int, interfaceAddrs func() ([]net.Addr, error)) {
	open := openURL(host, port)
	fmt.Fprintf(w, "Retry Lab is serving the playground at %s/\n", open)
	fmt.Fprintf(w, "mock endpoint, as the page sets it up (try it with curl): %s\n", fleet.Default().MockURL(open, fleet.TryKey))
	origins, lan, _ := lanOrigins(host, port, interfaceAddrs)
	for _, o := range origins {
		fmt.Fprintf(w, "on your network: %s/\n", o)
	}
	if lan && len(origins) == 0 {
		fmt.Fprintf(w, "on your network: no address yet: %s\n", hintNoAddressConsole)
	}
}

// newServer is the http.Server serve runs h with; requests inherit base.
func newServer(h http.Handler, base context.Context) *http.Server {
	fresh := &freshConns{m: map[net.Conn]struct{}{}}
	srv := &http.Server{
		ConnState:         fresh.track,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		// Longer than the mock's largest latency and hang; event streams
		// lift the deadline for themselves.
		WriteTimeout: 2 * time.Minute,
		IdleTimeout:  2 * time.Minute,
		// Past this net/http answers a plain-text 431 itself; up to it
		// the site refuses more than maxHeaderBytes with a JSON one.
		MaxHeaderBytes: hardHeaderBytes,
		BaseContext:    func(net.Listener) context.Context { return base },
		ErrorLog:       log.New(os.Stderr, "retrylab: http: ", 0),
	}
	srv.RegisterOnShutdown(fresh.close)
	return srv
}

// freshConns are a server's connections that have sent no request yet.
// Shutdown counts one as busy for its first 5 s (net/http), longer than
// serve gives it: a connection Chromium opened ahead of a request it never
// sent, just before SIGTERM, had serve give up and exit with "context
// deadline exceeded" (a fresh-clone CI, TestDarkScheme). Closed as
// Shutdown begins, they hold nothing up: no request was in them.
type freshConns struct {
	mu sync.Mutex
	m  map[net.Conn]struct{}
}

func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st == http.StateNew {
		f.m[c] = struct{}{}
	} else {
		delete(f.m, c)
	}
}

func (f *freshConns) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.m {
		c.Close()
	}
}

// listen opens the listeners. "localhost" listens on both loopback
// addresses, since browsers may resolve *.localhost (the worker origins, see
// ui.MockOrigin) to either.
func listen(host string, port int) ([]net.Listener, error) {
	p := strconv.Itoa(port)
	if host != "localhost" {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, p))
		if err != nil {
			return nil, fmt.Errorf("listen on %s:%s: %w", host, p, err)
		}
		return []net.Listener{ln}, nil
	}
	ln4, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", p))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%s: %w", p, err)
	}
	lns := []net.Listener{ln4}
	p = strconv.Itoa(ln4.Addr().(*net.TCPAddr).Port) // the same port on both when 0 was asked
	if ln6, err := net.Listen("tcp", net.JoinHostPort("::1", p)); err == nil {
		lns = append(lns, ln6)
	}
	return lns, nil
}

func openURL(host string, port int) string {
	switch host {
	case "", "0.0.0.0", "::":
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(port))
}
