// Package browser is the only place in Retry Lab that touches JavaScript.
// Every file that does is tagged js && wasm and goes through safejs, so a JS
// exception becomes a Go error instead of a panic; the untagged declarations
// here let the rest of the app (and native tests) compile against the same
// API. Natively every browser operation returns ErrNoBrowser, except the
// Clock, which falls back to Go's timers.
//
// Callbacks from JavaScript into Go go through one long-lived function (the
// bridge): timers and promises register a channel under a numeric id and the
// bridge delivers the result to it. A wait that is cancelled forgets its id,
// so a late timer or promise settles into nothing: nothing is leaked and no
// released function can ever be called. Every other Go function handed to
// JavaScript is counted (LiveFuncs) so tests can prove that run/stop cycles
// leave nothing behind.
package browser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// ErrNoBrowser is returned by every operation when the code runs natively.
var ErrNoBrowser = errors.New("browser: not running in a browser (GOOS=js GOARCH=wasm only)")

// OwnKeysAttr is the attribute with which an element claims keys while it
// has the focus (ListenKeys leaves them to it): a comma-separated list of
// KeyboardEvent.key values, " " for the space bar.
const OwnKeysAttr = "data-own-keys"

// FocusNextAttr is the attribute with which an element names, by id and
// space-separated, where the keyboard focus goes when the element loses it
// by being disabled or removed while focused (KeepFocus): Run names Stop,
// Stop names Run.
const FocusNextAttr = "data-focus-next"

// Header holds the response headers fetch() could read, as "name: value"
// lines (fetch gives the names in lower case and joins a repeated header's
// values with ", "). It satisfies core.Header. Cross-origin responses only
// expose the headers the server lists in Access-Control-Expose-Headers.
//
// A run keeps every attempt's headers (the tooltips and the exports read
// them): as text they are the few dozen bytes fetch() gave; a map of them
// was several hundred, and its values kept the whole fetch result, body
// included, alive.
type Header string

// Get returns the value of the named header, case-insensitively: "" when
// it was not sent and when it was sent empty (fetch's headers.get gives
// null and "", the line "name: " keeps the difference; Values tells it).
func (h Header) Get(name string) string {
	v, _ := h.lookup(name)
	return v
}

// Values returns the named header's value as net/http.Header's Values
// does: nil when it was not sent, [""] when it was sent empty (a
// "Retry-After: " the mock's malformed=empty sends). core.LookupHeader
// reads it, so an empty Retry-After is seen as such, not as absent.
func (h Header) Values(name string) []string {
	if v, ok := h.lookup(name); ok {
		return []string{v}
	}
	return nil
}

// lookup is the named header's value and whether its line is there.
func (h Header) lookup(name string) (string, bool) {
	for line := range strings.SplitSeq(string(h), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

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
// sent (connection limits, cache locks): requestStart - fetchStart, and
// whether the browser told it (0 with ok is no wait at all).
func (t Timing) Queued() (ms float64, ok bool) {
	if t.RequestStart == 0 || t.FetchStart == 0 || t.RequestStart < t.FetchStart {
		return 0, false
	}
	return t.RequestStart - t.FetchStart, true
}

// MaxBody is the most of an answer's body a fetch reads; the rest is
// cancelled unread. The native tests' net/http transport reads as much
// (app/fleet/httptransport_test.go).
const MaxBody = 64 << 10

// maxBodyJS is MaxBody as fetch_js.go's JavaScript writes it (TestMaxBody).
const maxBodyJS = "65536"

// Response is what one fetch() returned.
type Response struct {
	Status int
	Header Header
	Body   string
	Type   string // Response.type: "basic", "cors", "opaque", …
	Timing Timing
	// Redirected is the URL the answer came from when the server
	// redirected the request (fetch() follows redirects: the server then
	// received the attempt more than once), "" otherwise.
	Redirected string
	Sent       float64 // performance.now() just before fetch() was called
}

// JSError is a JavaScript exception or promise rejection seen from Go.
// Name is the error's constructor name: "AbortError" for an aborted fetch,
// "TypeError" for a network failure (refused connection, CORS rejection,
// dropped connection): browsers deliberately do not say which.
type JSError struct {
	Name    string
	Message string
}

func (e *JSError) Error() string {
	if e.Name == "" {
		return "browser: " + e.Message
	}
	return "browser: " + e.Name + ": " + e.Message
}

// lastEntry is when JavaScript last called into Go through this package
// (a timer, a promise, a frame, a stream message), in Unix nanoseconds.
var lastEntry atomic.Int64

// Busy is how long Go code has been running since JavaScript last called
// into it through this package (or Entered said it did): roughly how long
// the page's event loop has been kept waiting. Code about to start more
// work (a burst of fetches) can yield first when it is large. 0 natively.
func Busy() time.Duration {
	if !inBrowser {
		return 0
	}
	return time.Duration(time.Now().UnixNano() - lastEntry.Load())
}

// Entered notes that JavaScript called into Go by another way than this
// package, now: a go-app event handler (a click), which Busy does not see
// otherwise. Work a click starts then counts from the click, not from the
// last timer or message this package handled: a run started by a click
// on Run (a custom target's, which waits for no stream) found Busy at
// seconds, so each of its workers gave the event loop a turn before its
// first send, and the page drew the run's first frames before the sends.
func Entered() { lastEntry.Store(time.Now().UnixNano()) }

// liveFuncs counts the Go functions currently handed to JavaScript by this
// package; permanentFuncs the long-lived ones among them (the bridge, the
// frame loop, the page hooks) that exist once per page.
var liveFuncs, permanentFuncs atomic.Int64

// LiveFuncs returns how many Go functions this package has handed to
// JavaScript and not released yet, and how many of those are long-lived
// (created once per page). LiveFuncs()-permanent must return to its value
// after every run.
func LiveFuncs() (live, permanent int) {
	return int(liveFuncs.Load()), int(permanentFuncs.Load())
}

// parsePostResult reads the string Post's routine hands back: the
// status and the body, separated by U+0001 (the body may contain
// anything). A result without the separator, or with a status that is not
// a number from 0 to 999, is an error, not an answer.
func parsePostResult(raw string) (status int, body string, err error) {
	s, body, ok := strings.Cut(raw, "\x01")
	status, err = strconv.Atoi(s)
	if !ok || err != nil || status < 0 || status > 999 || s != strconv.Itoa(status) {
		return 0, "", fmt.Errorf("browser: malformed POST result %.80q", raw)
	}
	return status, body, nil
}

// fetchFields is how many fields the fetch routine's result has.
const fetchFields = 9

// parseFetchResult reads the string the fetch routine hands back:
// status, type, the four timings, the header lines and the body, separated
// by U+0001 (the body, last, may contain anything).
func parseFetchResult(raw string, out *Response) error {
	f := strings.SplitN(raw, "\x01", fetchFields)
	if len(f) != fetchFields {
		return fmt.Errorf("browser: malformed fetch result: %d fields of %d in %.80q", len(f), fetchFields, raw)
	}
	status, err := strconv.Atoi(f[0])
	if err != nil {
		return errors.New("browser: malformed fetch status " + strconv.Quote(f[0]))
	}
	out.Status, out.Type = status, f[1]
	ts := [4]*float64{&out.Timing.FetchStart, &out.Timing.RequestStart, &out.Timing.ResponseStart, &out.Timing.ResponseEnd}
	for i, p := range ts {
		*p, _ = strconv.ParseFloat(f[2+i], 64)
	}
	out.Redirected = strings.Clone(f[6])
	out.Header = Header(strings.Clone(f[7])) // not a piece of raw: that would keep the body
	out.Body = f[8]
	return nil
}
