//go:build !(js && wasm)

package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"
)

// wasmLengthHeader carries the uncompressed size of app.wasm: go-app's
// loader counts decompressed bytes, so Content-Length (compressed) would
// make its progress overshoot 100%.
const wasmLengthHeader = "X-Wasm-Content-Length"

// wasmAsset serves app.wasm precompressed: brotli or gzip by Accept-Encoding,
// identity otherwise, and identity to a browser on this machine (direct).
// The copies are made by `retrylab compress` at build time.
type wasmAsset struct {
	version  string
	modTime  time.Time
	raw      []byte
	encoded  map[string][]byte // "br", "gzip"
	warnings []string
}

func loadWasm(path string) (*wasmAsset, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s is missing: run `make build` first, %s", path, pointRoot)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := &wasmAsset{version: versionOf(raw), modTime: st.ModTime(), raw: raw, encoded: map[string][]byte{}}
	for enc, ext := range map[string]string{"br": ".br", "gzip": ".gz"} {
		cst, err := os.Stat(path + ext)
		if err != nil || cst.ModTime().Before(st.ModTime()) {
			a.warnings = append(a.warnings, fmt.Sprintf("%s%s missing or older than %s: serving without %s (run `make build`)", path, ext, path, enc))
			continue
		}
		b, err := os.ReadFile(path + ext)
		if err != nil {
			return nil, err
		}
		a.encoded[enc] = b
	}
	for _, w := range a.warnings {
		fmt.Fprintln(os.Stderr, "retrylab: warning:", w)
	}
	return a, nil
}

func (a *wasmAsset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !getOrHead(w, r) {
		return
	}
	enc := ""
	if !direct(r) {
		enc = pickEncoding(r.Header.Get("Accept-Encoding"), a.encoded)
	}
	body := a.raw
	h := w.Header()
	h.Set("Vary", "Accept-Encoding")
	h.Set("Content-Type", "application/wasm")
	// Revalidate on every load; a 304 costs one round trip, and a new build
	// is never served stale.
	h.Set("Cache-Control", "no-cache")
	h.Set(wasmLengthHeader, strconv.Itoa(len(a.raw)))
	etag := a.version
	if enc != "" {
		body = a.encoded[enc]
		h.Set("Content-Encoding", enc)
		etag += "-" + enc
	}
	h.Set("ETag", `"`+etag+`"`)
	http.ServeContent(w, r, "app.wasm", a.modTime, bytes.NewReader(body))
}

// direct reports whether r comes from this machine with no proxy between: a
// loopback address and none of the headers a proxy adds. Over loopback the
// 7.7 MB of app.wasm take a few milliseconds, and decoding the brotli copy
// costs the browser more than its 6 MB saved: in headless Chromium on two
// cores, fetching app.wasm took 49–93 ms as is against 84–172 ms as brotli
// and 104–134 ms as gzip; in eight cold-load benchmark runs alternated with
// brotli, app.wasm arrived sooner in each (app/README.md). A proxy on this
// machine may be passing on a browser's request from elsewhere: that one is
// compressed. So is one asking for another name than a loopback one
// (localhost, *.localhost, a loopback address): a plain TCP forwarder here
// (ssh -R, socat) passes a browser's connection from elsewhere on from a
// loopback address and adds no header, and a workshop's laptop behind one,
// on a 1.5 Mbit/s link, took 44.8 s to load the 7.85 MB as is (a review).
func direct(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Unmap().IsLoopback() {
		return false
	}
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-Ip", "Via"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	return loopbackName(normalHost(r.Host))
}

// pickEncoding chooses br, then gzip, among the encodings available and
// accepted (q > 0) by the client; "" means identity.
func pickEncoding(accept string, have map[string][]byte) string {
	q := map[string]float64{}
	for _, part := range strings.Split(accept, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					weight = f
				}
			}
		}
		q[name] = weight
	}
	for _, enc := range []string{"br", "gzip"} {
		if _, ok := have[enc]; !ok {
			continue
		}
		w, named := q[enc]
		if !named {
			w, named = q["*"]
		}
		if named && w > 0 {
			return enc
		}
	}
	return ""
}
