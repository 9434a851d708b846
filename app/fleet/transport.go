package fleet

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"retrylab/app/mock"
)

// MockFacts reads the arrival number and receive time from a mock
// response's JSON body (mock.Body). ok is false for any other body.
func MockFacts(body []byte) (seq int, at time.Time, ok bool) {
	if seq, at, ok, sure := mockFactsFast(body); sure {
		return seq, at, ok
	}
	var b mock.Body
	if json.Unmarshal(body, &b) != nil || b.Seq == 0 {
		return 0, time.Time{}, false
	}
	return int(b.Seq), b.Received, true
}

// mockFactsFast reads seq and received from the mock's flat JSON body
// without encoding/json (whose reflection costs tens of microseconds per
// response in wasm, thousands of times a second in a big run). sure is
// false when the body is not the plain shape it expects (an escape, a
// missing field): MockFacts then decodes it properly.
func mockFactsFast(body []byte) (seq int, at time.Time, ok, sure bool) {
	s := strings.TrimSpace(string(body))
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' || strings.IndexByte(s, '\\') >= 0 {
		return 0, time.Time{}, false, false
	}
	i := strings.Index(s, `"seq":`)
	j := strings.Index(s, `"received":"`)
	if i < 0 || j < 0 || strings.Contains(s[i+1:], `"seq":`) || strings.Contains(s[j+1:], `"received":"`) {
		return 0, time.Time{}, false, false
	}
	num := s[i+len(`"seq":`):]
	n := 0
	for n < len(num) && num[n] >= '0' && num[n] <= '9' {
		n++
	}
	if n == 0 || n > 18 || (n < len(num) && num[n] != ',' && num[n] != '}') {
		return 0, time.Time{}, false, false
	}
	v, err := strconv.Atoi(num[:n])
	if err != nil {
		return 0, time.Time{}, false, false
	}
	ts := s[j+len(`"received":"`):]
	k := strings.IndexByte(ts, '"')
	if k < 0 {
		return 0, time.Time{}, false, false
	}
	t, err := time.Parse(time.RFC3339Nano, ts[:k])
	if err != nil {
		return 0, time.Time{}, false, false
	}
	if v == 0 {
		return 0, time.Time{}, false, true
	}
	return v, t, true, true
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
