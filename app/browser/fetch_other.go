//go:build !(js && wasm)

package browser

import "context"

// Fetch is only available in the browser; natively it returns ErrNoBrowser.
func Fetch(ctx context.Context, url string) (Response, error) {
	return Response{}, ErrNoBrowser
}
