package ui

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"retrylab/app/mock"
)

// decodeEvent decodes one message of the mock's arrivals stream. The
// messages are flat JSON objects; the fast path reads them by hand (a busy
// run sends thousands a second, and encoding/json's reflection costs tens
// of microseconds each in wasm) and leaves anything unusual (escapes, an
// unknown shape) to encoding/json.
func decodeEvent(data string, e *mock.Event) error {
	if fastEvent(data, e) {
		return nil
	}
	*e = mock.Event{}
	return json.Unmarshal([]byte(data), e)
}

// fastEvent decodes a flat object of strings, numbers and booleans without
// escapes into e, or reports false.
func fastEvent(s string, e *mock.Event) bool {
	*e = mock.Event{}
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' || strings.IndexByte(s, '\\') >= 0 {
		return false
	}
	s = s[1 : len(s)-1]
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return true
		}
		if s[0] != '"' {
			return false
		}
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return false
		}
		key := s[1 : 1+end]
		s = strings.TrimLeft(s[2+end:], " \t\r\n")
		if s == "" || s[0] != ':' {
			return false
		}
		s = strings.TrimLeft(s[1:], " \t\r\n")
		if s == "" {
			return false
		}
		var val string
		quoted := s[0] == '"'
		if quoted {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return false
			}
			val, s = s[1:1+end], s[2+end:]
		} else {
			end := strings.IndexAny(s, ", \t\r\n")
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
			if val == "" || val[0] == '{' || val[0] == '[' {
				return false
			}
		}
		if !setEventField(e, key, val, quoted) {
			return false
		}
		s = strings.TrimLeft(s, " \t\r\n")
		if s != "" {
			if s[0] != ',' {
				return false
			}
			s = s[1:]
		}
	}
}

// setEventField sets e's field for JSON key to val, or reports false when
// val does not fit it.
func setEventField(e *mock.Event, key, val string, quoted bool) bool {
	if val == "null" && !quoted {
		return true
	}
	str := func(p *string) bool { *p = val; return quoted }
	num := func(p *float64) bool {
		f, err := strconv.ParseFloat(val, 64)
		*p = f
		return !quoted && err == nil
	}
	integer := func(p *int) bool {
		n, err := strconv.Atoi(val)
		*p = n
		return !quoted && err == nil
	}
	switch key {
	case "type":
		return str(&e.Type)
	case "key":
		return str(&e.Key)
	case "tag":
		return str(&e.Tag)
	case "outcome":
		return str(&e.Outcome)
	case "end":
		return str(&e.End)
	case "seq", "dropped":
		n, err := strconv.ParseUint(val, 10, 64)
		if quoted || err != nil {
			return false
		}
		if key == "seq" {
			e.Seq = n
		} else {
			e.Dropped = n
		}
		return true
	case "at", "until":
		t, err := time.Parse(time.RFC3339Nano, val)
		if key == "at" {
			e.At = t
		} else {
			e.Until = t
		}
		return quoted && err == nil
	case "status":
		return integer(&e.Status)
	case "limit":
		return integer(&e.Limit)
	case "remaining":
		return integer(&e.Remaining)
	case "allowed":
		b, err := strconv.ParseBool(val)
		e.Allowed = b
		return !quoted && err == nil
	case "reset_ms":
		return num(&e.ResetMS)
	case "retry_after_ms":
		return num(&e.RetryAfterMS)
	case "latency_ms":
		return num(&e.LatencyMS)
	case "elapsed_ms":
		return num(&e.ElapsedMS)
	case "scale":
		return num(&e.Scale)
	case "n":
		return integer(&e.N)
	case "admitted":
		return integer(&e.Admitted)
	}
	return true // a field this page does not read
}
