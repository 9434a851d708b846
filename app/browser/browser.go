// Package browser is the only place in Retry Lab that touches JavaScript.
// Every file that does is tagged js && wasm and goes through safejs, so a JS
// exception becomes a Go error instead of a panic; the untagged declarations
// here let the rest of the app (and native tests) compile against the same API.
package browser

import (
	"errors"
	"strings"
)

// ErrNoBrowser is returned by every operation when the code runs natively.
var ErrNoBrowser = errors.New("browser: not running in a browser (GOOS=js GOARCH=wasm only)")

// Header holds the response headers fetch() could read, keyed in lower case.
// It satisfies core.Header. Cross-origin responses only expose the headers the
// server lists in Access-Control-Expose-Headers.
type Header map[string]string

// Get returns the value of the named header, case-insensitively.
func (h Header) Get(name string) string { return h[strings.ToLower(name)] }

// Timing is the PerformanceResourceTiming of one fetch, in milliseconds on
// the page's performance.now() clock. Zero fields were not exposed (a
// cross-origin server without Timing-Allow-Origin) or not reached.
type Timing struct {
	FetchStart    float64 // the browser accepted the request
	RequestStart  float64 // the request left the browser (after connection queueing)
	ResponseStart float64 // first byte of the response
	ResponseEnd   float64 // last byte of the response
}

// Queued is how long the request waited inside the browser before it was
// sent (connection limits, cache locks): requestStart - fetchStart.
func (t Timing) Queued() float64 {
	if t.RequestStart == 0 || t.FetchStart == 0 {
		return 0
	}
	return t.RequestStart - t.FetchStart
}

// Response is what one fetch() returned.
type Response struct {
	Status int
	Header Header
	Body   string
	Timing Timing
	Sent   float64 // performance.now() just before fetch() was called
}
