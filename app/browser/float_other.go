//go:build !(js && wasm)

package browser

// FloatBeside returns ErrNoBrowser natively.
func FloatBeside(id, anchor string, place func(Float) (left, top float64)) (stop func(), err error) {
	return nil, ErrNoBrowser
}
