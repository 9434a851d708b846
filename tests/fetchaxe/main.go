// Command fetchaxe downloads axe-core, the accessibility checker the
// end-to-end tests run inside the page, from the npm registry, checks the
// tarball against the integrity pinned here, and writes its axe.min.js.
// It needs neither npm nor node: `make e2e` runs it once.
//
//	go run ./tests/fetchaxe -o tests/axe/axe.min.js
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// The pinned release: its tarball and the registry's integrity for it
// (https://registry.npmjs.org/axe-core/4.14.1, dist.integrity). axe-core
// is MPL-2.0; it is downloaded for the tests, never committed or served.
const (
	version   = "4.14.1"
	tarball   = "https://registry.npmjs.org/axe-core/-/axe-core-" + version + ".tgz"
	integrity = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
	member    = "package/axe.min.js"
)

func main() {
	out := flag.String("o", "tests/axe/axe.min.js", "where to write axe.min.js")
	flag.Parse()
	if err := fetch(*out); err != nil {
		fmt.Fprintln(os.Stderr, "fetchaxe:", err)
		os.Exit(1)
	}
	fmt.Printf("fetchaxe: axe-core %s → %s\n", version, *out)
}

func fetch(out string) error {
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Get(tarball)
	if err != nil {
		return fmt.Errorf("download axe-core %s: %w (the npm registry must be reachable)", version, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: %s", tarball, resp.Status)
	}
	tgz, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("download %s: %w", tarball, err)
	}
	sum := sha512.Sum512(tgz)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != integrity {
		return fmt.Errorf("%s: integrity %s, want the pinned %s", tarball, got, integrity)
	}
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s has no %s", tarball, member)
		}
		if err != nil {
			return err
		}
		if h.Name != member {
			continue
		}
		js, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		tmp := out + ".tmp"
		if err := os.WriteFile(tmp, js, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, out)
	}
}
