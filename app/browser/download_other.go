//go:build !(js && wasm)

package browser

import "context"

// Blob is a JavaScript Blob; natively it is empty.
type Blob struct{}

// Save returns ErrNoBrowser natively.
func (b Blob) Save(name string) error { return ErrNoBrowser }

// Download returns ErrNoBrowser natively.
func Download(ctx context.Context, name, mime string, parts [][]byte) error { return ErrNoBrowser }
