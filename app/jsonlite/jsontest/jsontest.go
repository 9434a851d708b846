// Package jsontest is what the tests of the page's JSON readers share
// (app/jsonlite, and the readers built on it in app/mock and app/ui),
// which hold them to encoding/json: which times RFC 3339 allows.
// time.Time's UnmarshalJSON takes more (an hour of one digit, a comma
// before the fraction, a zone's hour from 24 or its minute from 60: its
// strict checks are off, go.dev/issue/54580), and jsonlite refuses that.
// Only tests import it: it is not in app.wasm.
package jsontest

import (
	"encoding/json"
	"regexp"
	"strings"
)

// rfc3339 is a date-time as RFC 3339 writes one (the T and the Z upper
// case, as time.RFC3339 has them).
var rfc3339 = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

// StrictTimes reports whether each member of the JSON object msg named one
// of names (in any case, as encoding/json matches names) that holds a
// string holds an RFC 3339 time; true for what is no JSON object.
func StrictTimes(msg string, names ...string) bool {
	var m map[string]any
	if json.Unmarshal([]byte(msg), &m) != nil {
		return true
	}
	for k, v := range m {
		for _, n := range names {
			if s, ok := v.(string); ok && strings.EqualFold(k, n) && !rfc3339.MatchString(s) {
				return false
			}
		}
	}
	return true
}
