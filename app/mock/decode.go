package mock

// This file is compiled for the browser too: the page decodes every
// response body and arrivals-stream message with it.

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// DecodeEvent decodes one message of the arrivals stream into e, as
// json.Unmarshal would (e is zeroed first). A busy run sends thousands a
// second, and encoding/json's reflection costs tens of microseconds each in
// wasm, so the plain messages the server sends are read by hand and
// anything else (an escape, a nested value, a key that is not exactly one
// of Event's) is left to encoding/json. FuzzDecodeEvent checks that the two
// agree.
func DecodeEvent(data string, e *Event) error {
	*e = Event{}
	if decodeFlat(data, e.field) {
		return nil
	}
	*e = Event{}
	return json.Unmarshal([]byte(data), e)
}

// DecodeBody decodes a response body into b as DecodeEvent decodes a
// stream message: by hand when it is plain, else with encoding/json.
func DecodeBody(data []byte, b *Body) error {
	*b = Body{}
	if decodeFlat(string(data), b.field) {
		return nil
	}
	*b = Body{}
	return json.Unmarshal(data, b)
}

// field returns a pointer to e's field for the JSON key, or nil.
func (e *Event) field(key string) any {
	switch key {
	case "type":
		return &e.Type
	case "key":
		return &e.Key
	case "tag":
		return &e.Tag
	case "seq":
		return &e.Seq
	case "at":
		return &e.At
	case "outcome":
		return &e.Outcome
	case "status":
		return &e.Status
	case "allowed":
		return &e.Allowed
	case "limit":
		return &e.Limit
	case "remaining":
		return &e.Remaining
	case "reset_ms":
		return &e.ResetMS
	case "retry_after_ms":
		return &e.RetryAfterMS
	case "latency_ms":
		return &e.LatencyMS
	case "end":
		return &e.End
	case "elapsed_ms":
		return &e.ElapsedMS
	case "dropped":
		return &e.Dropped
	case "until":
		return &e.Until
	case "scale":
		return &e.Scale
	case "n":
		return &e.N
	case "admitted":
		return &e.Admitted
	}
	return nil
}

// field returns a pointer to b's field for the JSON key, or nil.
func (b *Body) field(key string) any {
	switch key {
	case "key":
		return &b.Key
	case "tag":
		return &b.Tag
	case "seq":
		return &b.Seq
	case "allowed":
		return &b.Allowed
	case "status":
		return &b.Status
	case "outcome":
		return &b.Outcome
	case "limit":
		return &b.Limit
	case "remaining":
		return &b.Remaining
	case "reset_ms":
		return &b.ResetMS
	case "retry_after_ms":
		return &b.RetryAfterMS
	case "latency_ms":
		return &b.LatencyMS
	case "received":
		return &b.Received
	}
	return nil
}

// decodeFlat reads a JSON object whose members are all plain, storing each
// value through field(key), and reports whether it did. Plain means: keys
// that field knows (exactly: encoding/json would also match other cases),
// values that are strings of printable ASCII without escapes, JSON numbers,
// true, false or null, and JSON's own whitespace. For anything else it
// reports false, possibly having stored some values, and the caller
// decodes the text with encoding/json; what it accepts, encoding/json
// decodes to the same values.
func decodeFlat(s string, field func(key string) any) bool {
	const ws = " \t\r\n"
	s = strings.Trim(s, ws)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return false
	}
	s = strings.TrimLeft(s[1:len(s)-1], ws)
	for s != "" {
		key, rest, ok := plainString(s)
		if !ok {
			return false
		}
		p := field(key)
		s = strings.TrimLeft(rest, ws)
		if p == nil || s == "" || s[0] != ':' {
			return false
		}
		s = strings.TrimLeft(s[1:], ws)
		var val string
		quoted := s != "" && s[0] == '"'
		if quoted {
			val, s, ok = plainString(s)
		} else {
			end := strings.IndexAny(s, ","+ws)
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
			ok = val == "true" || val == "false" || val == "null" || isNumber(val)
		}
		if !ok || !setFlat(p, val, quoted) {
			return false
		}
		s = strings.TrimLeft(s, ws)
		if s == "" {
			break
		}
		if s[0] != ',' {
			return false
		}
		if s = strings.TrimLeft(s[1:], ws); s == "" {
			return false // a trailing comma
		}
	}
	return true
}

// plainString reads a JSON string at the start of s that needs no
// unquoting (printable ASCII, no backslash) and returns its contents and
// what follows it.
func plainString(s string) (val, rest string, ok bool) {
	if s == "" || s[0] != '"' {
		return "", s, false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return s[1:i], s[i+1:], true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return "", s, false
		}
	}
	return "", s, false
}

// isNumber reports whether s is a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits := func() int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n
	}
	lead := s != "" && s[0] == '0'
	if n := digits(); n == 0 || (lead && n > 1) {
		return false
	}
	if s != "" && s[0] == '.' {
		s = s[1:]
		if digits() == 0 {
			return false
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return s == ""
}

// setFlat stores a plain JSON value through p as encoding/json would, or
// reports false where encoding/json would refuse it. null leaves the field
// as it is.
func setFlat(p any, val string, quoted bool) bool {
	if !quoted && val == "null" {
		return true
	}
	var err error
	switch p := p.(type) {
	case *string:
		*p = val
		return quoted
	case *time.Time:
		if !quoted {
			return false
		}
		return p.UnmarshalText([]byte(val)) == nil // encoding/json's own parser
	case *bool:
		*p = val == "true"
		return !quoted && (*p || val == "false")
	case *int:
		*p, err = strconv.Atoi(val)
	case *uint64:
		*p, err = strconv.ParseUint(val, 10, 64)
	case *float64:
		*p, err = strconv.ParseFloat(val, 64)
	default:
		return false
	}
	return !quoted && err == nil
}
