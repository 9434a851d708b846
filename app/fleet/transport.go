package fleet

import (
	"math"
	"strings"
	"time"

	"retrylab/app/mock"
)

// MockFacts reads the arrival number and receive time from a mock
// response's JSON body (mock.Body). ok is false for any other body.
func MockFacts(body []byte) (seq int, at time.Time, ok bool) {
	var b mock.Body
	if mock.DecodeBody(body, &b) != nil || b.Seq == 0 || b.Seq > math.MaxInt {
		return 0, time.Time{}, false
	}
	return int(b.Seq), b.Received, true
}

// AttemptURL is the URL of one attempt: base, plus "tag=" + tag when tag
// is not empty (an AttemptTag: the built-in mock echoes it in its body and
// arrivals stream; a custom target gets its URL unchanged).
func AttemptURL(base, tag string) string {
	if tag == "" {
		return base
	}
	sep := "&"
	if !strings.Contains(base, "?") {
		sep = "?"
	} else if strings.HasSuffix(base, "?") || strings.HasSuffix(base, "&") {
		sep = ""
	}
	return base + sep + "tag=" + tag
}
