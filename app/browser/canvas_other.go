//go:build !(js && wasm)

package browser

import "context"

// Width returns ErrNoBrowser natively.
func (c Canvas) Width() (float64, error) { return 0, ErrNoBrowser }

// Draw returns ErrNoBrowser natively.
func (c Canvas) Draw(o *Ops, w, h float64) error { return ErrNoBrowser }

// DrawLayers returns ErrNoBrowser natively.
func (c Canvas) DrawLayers(slot string, base *Ops, fresh bool, top *Ops, w, h float64) error {
	return ErrNoBrowser
}

// PNG returns ErrNoBrowser natively.
func (c Canvas) PNG(ctx context.Context, started func()) (Blob, error) {
	if started != nil {
		started()
	}
	return Blob{}, ErrNoBrowser
}
