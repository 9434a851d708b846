//go:build !(js && wasm)

package browser

import "context"

// Fetch is only available in the browser; natively it returns ErrNoBrowser.
func Fetch(ctx context.Context, url string) (Response, error) {
	return Response{}, ErrNoBrowser
}

// FetchOpen is only available in the browser; natively it returns ErrNoBrowser.
func FetchOpen(ctx context.Context, url string) (Response, error) {
	return Response{}, ErrNoBrowser
}

// Now returns 0 natively: there is no performance.now().
func Now() float64 { return 0 }

// PrepareTimings does nothing natively.
func PrepareTimings(n int, open bool) error { return ErrNoBrowser }

// PendingWaits is 0 natively: nothing waits for JavaScript.
func PendingWaits() int { return 0 }

// Prepare does nothing natively.
func Prepare() {}

const inBrowser = false

// Post is only available in the browser; natively it returns ErrNoBrowser.
func Post(ctx context.Context, url string) (int, string, error) { return 0, "", ErrNoBrowser }
