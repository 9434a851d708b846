//go:build !(js && wasm)

package main

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

// compressCommand writes FILE.gz (gzip -9) and FILE.br (brotli -q 11) next to
// each FILE, through temporary files so a half-written copy is never served.
func compressCommand(args []string) error {
	if len(args) == 0 {
		return errors.New("compress: name at least one file")
	}
	for _, path := range args {
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("compress: %w", err)
		}
		// Both at once: brotli -q 11 alone takes ~20 s.
		gz := make(chan error, 1)
		go func() {
			gz <- writeCompressed(path+".gz", src, func(w io.Writer) (io.WriteCloser, error) {
				return gzip.NewWriterLevel(w, gzip.BestCompression)
			})
		}()
		br := writeCompressed(path+".br", src, func(w io.Writer) (io.WriteCloser, error) {
			return brotli.NewWriterLevel(w, brotli.BestCompression), nil
		})
		if err := errors.Join(<-gz, br); err != nil {
			return err
		}
	}
	return nil
}

func writeCompressed(dst string, src []byte, newWriter func(io.Writer) (io.WriteCloser, error)) error {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".compress-*")
	if err != nil {
		return fmt.Errorf("compress: %w", err)
	}
	defer os.Remove(tmp.Name())
	zw, err := newWriter(tmp)
	if err == nil {
		_, err = zw.Write(src)
		err = errors.Join(err, zw.Close())
	}
	err = errors.Join(err, tmp.Chmod(0o644), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		return fmt.Errorf("compress %s: %w", dst, err)
	}
	return nil
}
