//go:build !(js && wasm)

package browser

import (
	"context"
	"sync/atomic"
)

// CopyText returns ErrNoBrowser natively.
func CopyText(ctx context.Context, text string) error { return ErrNoBrowser }

// ReplaceURL returns ErrNoBrowser natively.
func ReplaceURL(u string) error { return ErrNoBrowser }

// Hidden is false natively.
func Hidden() bool { return false }

// ViewportHeightBelow returns ErrNoBrowser natively.
func ViewportHeightBelow(id, after, foot string) (float64, error) { return 0, ErrNoBrowser }

// BringUp returns ErrNoBrowser natively.
func BringUp(keep, id, shown string, min, keepMin float64) error { return ErrNoBrowser }

// ToggleView returns ErrNoBrowser natively.
func ToggleView(id, under, back string, foot bool) error { return ErrNoBrowser }

// StickBelow returns ErrNoBrowser natively.
func StickBelow(id, under string) (stop func(), err error) { return nil, ErrNoBrowser }

// Clearance returns ErrNoBrowser natively.
func Clearance(id, sticky string) (Clear, error) { return Clear{}, ErrNoBrowser }

// ClearSpot returns ErrNoBrowser natively.
func ClearSpot(id string, force bool, over, bands string) (side string, top float64, err error) {
	return "", 0, ErrNoBrowser
}

// ScrollBy returns ErrNoBrowser natively.
func ScrollBy(dy float64) error { return ErrNoBrowser }

// WatchResize returns ErrNoBrowser natively.
func WatchResize(id string, fn func()) (stop func(), err error) { return nil, ErrNoBrowser }

// WatchOnScreen returns ErrNoBrowser natively.
func WatchOnScreen(id string, fn func(on bool)) (stop func(), err error) { return nil, ErrNoBrowser }

// PacesRequests is false natively.
func PacesRequests() bool { return false }

// DefaultFontSize is 0 natively: not known.
func DefaultFontSize() float64 { return 0 }

// WatchDark returns ErrNoBrowser natively.
func WatchDark(fn func(dark bool)) (stop func(), err error) { return nil, ErrNoBrowser }

// WatchVisibility returns ErrNoBrowser natively.
func WatchVisibility(fn func(hidden bool)) (stop func(), err error) { return nil, ErrNoBrowser }

// FrameLoop calls its function at once natively (there are no animation
// frames). Its frames are asked for from any goroutine (a view's delayed
// frames come on goroutines of their own), and Stop may come meanwhile.
type FrameLoop struct{ frame atomic.Pointer[func()] }

// NewFrameLoop returns a loop that runs frame synchronously on Request.
func NewFrameLoop(frame func()) (*FrameLoop, error) {
	l := &FrameLoop{}
	if frame != nil {
		l.frame.Store(&frame)
	}
	return l, nil
}

// Request runs the frame function, unless the loop is stopped.
func (l *FrameLoop) Request() {
	if f := l.frame.Load(); f != nil {
		(*f)()
	}
}

// Stop ends the loop: a Request after it runs nothing (a nil loop is
// stopped).
func (l *FrameLoop) Stop() {
	if l != nil {
		l.frame.Store(nil)
	}
}

// Expose returns ErrNoBrowser natively.
func Expose(name string, fn func(args []string) string) error { return ErrNoBrowser }

// ListenKeys returns ErrNoBrowser natively.
func ListenKeys(fn func(key string, inField, modified bool) bool) (stop func(), err error) {
	return nil, ErrNoBrowser
}

// Stream returns ErrNoBrowser natively.
func Stream(url string, retry bool, fn func(data string)) (stop func(), err error) {
	return nil, ErrNoBrowser
}

// Focus moves the keyboard focus to the element with the given id.
func Focus(id string) error { return ErrNoBrowser }

// FocusInView returns ErrNoBrowser natively.
func FocusInView(id string) error { return ErrNoBrowser }

// FocusedID is "" natively.
func FocusedID() string { return "" }

// KeepFocus returns ErrNoBrowser natively.
func KeepFocus(park string) (stop func(), err error) { return nil, ErrNoBrowser }

// ClaimName claims name among this origin's pages in this browser.
func ClaimName(ch, name string, clash func()) (rename func(string), stop func(), err error) {
	return nil, nil, ErrNoBrowser
}
