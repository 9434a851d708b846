//go:build !(js && wasm)

package browser

// Blob is a JavaScript Blob; natively it is empty.
type Blob struct{}

// Save returns ErrNoBrowser natively.
func (b Blob) Save(name string) error { return ErrNoBrowser }

// Download returns ErrNoBrowser natively.
func Download(name, mime string, data []byte) error { return ErrNoBrowser }
