//go:build !(js && wasm)

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The gzip copy reads back as what was compressed, made by GNU gzip where
// it is on PATH and by compress/gzip where it is not; GNU gzip's is the
// smaller.
func TestCompressedCopiesReadBack(t *testing.T) {
	src := bytes.Repeat([]byte("retry after backoff with jitter; "), 20000)
	sizes := map[string]int{}
	for _, c := range []struct{ name, path string }{{"gnu", os.Getenv("PATH")}, {"go", ""}} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path)
			dir := t.TempDir()
			f := filepath.Join(dir, "app.wasm")
			if err := os.WriteFile(f, src, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := compressCommand([]string{f}, io.Discard); err != nil {
				t.Fatal(err)
			}
			gz, err := os.ReadFile(f + ".gz")
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				t.Fatal(err)
			}
			back, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(back, src) {
				t.Fatalf("the gzip copy reads back as %d bytes (%v), want the %d compressed", len(back), err, len(src))
			}
			if zr.Header.Name != "" || !zr.Header.ModTime.IsZero() {
				t.Errorf("the gzip header carries a name %q or a time %v: the copy would differ from build to build", zr.Header.Name, zr.Header.ModTime)
			}
			sizes[c.name] = len(gz)
		})
	}
	t.Logf("gzip copy: GNU gzip %d bytes, compress/gzip %d", sizes["gnu"], sizes["go"])
}
