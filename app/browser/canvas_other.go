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

// PixelRatio is 1 natively.
func PixelRatio() float64 { return 1 }

// DrawPNG returns ErrNoBrowser natively.
func DrawPNG(ctx context.Context, o *Ops, w, h float64) (Blob, error) {
	return Blob{}, ErrNoBrowser
}
