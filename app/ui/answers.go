package ui

// The server's answers the page reads, decoded by hand with jsonlite as
// json.Unmarshal would decode them (app.wasm links no encoding/json):
// answers_test.go checks each against it.

import (
	"time"

	"retrylab/app/jsonlite"
)

// member reads GET /join's member key into a (for jsonlite.ReadObject).
func (a *joinAnswer) member(r *jsonlite.Reader, key string) bool {
	switch key {
	case "lan":
		r.Bool(&a.LAN)
	case "origins":
		r.Strings(&a.Origins)
	case "hint":
		r.String(&a.Hint)
	default:
		return false
	}
	return true
}

// burstAnswer is POST /mock/burst's answer.
type burstAnswer struct {
	Key                  string
	At                   time.Time
	N, Allowed, Rejected int
	Outage               int // of Rejected, those an outage answered
}

func (a *burstAnswer) member(r *jsonlite.Reader, key string) bool {
	switch key {
	case "key":
		r.String(&a.Key)
	case "at":
		r.Time(&a.At)
	case "n":
		r.Int(&a.N)
	case "allowed":
		r.Int(&a.Allowed)
	case "rejected":
		r.Int(&a.Rejected)
	case "outage":
		r.Int(&a.Outage)
	default:
		return false
	}
	return true
}

// switchAnswer is a stretch switch's answer (POST /mock/outage,
// /mock/limit).
type switchAnswer struct {
	Key         string
	From, Until time.Time
	Scale       float64
}

func (a *switchAnswer) member(r *jsonlite.Reader, key string) bool {
	switch key {
	case "key":
		r.String(&a.Key)
	case "from":
		r.Time(&a.From)
	case "until":
		r.Time(&a.Until)
	case "scale":
		r.Float(&a.Scale)
	default:
		return false
	}
	return true
}

// errorAnswer is the body of every refusal of the server's: {"error": …,
// "param", "value", "allowed"}, of which the page shows the error.
type errorAnswer struct{ Error string }

func (a *errorAnswer) member(r *jsonlite.Reader, key string) bool {
	if key != "error" {
		return false
	}
	r.String(&a.Error)
	return true
}
