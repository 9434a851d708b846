//go:build !(js && wasm)

package browser

// Blob is a JavaScript Blob; natively it is empty.
type Blob struct{}

// NewBlob returns ErrNoBrowser natively.
func NewBlob(data []byte, mime string) (Blob, error) { return Blob{}, ErrNoBrowser }

// Save returns ErrNoBrowser natively.
func (b Blob) Save(name string) error { return ErrNoBrowser }

// Download returns ErrNoBrowser natively.
func Download(name, mime string, data []byte) error { return ErrNoBrowser }
