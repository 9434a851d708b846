package sim

import (
	"strings"
)

// Header holds the response header fields a simulated endpoint sends: the
// ones core reads (Retry-After and the rate-limit families). *Header
// satisfies core.Header; Get matches names case-insensitively, as
// net/http's Header.Get does after canonicalising. An empty value reads as
// absent through Get, as it does through http.Header.Get; Values tells a
// Retry-After sent empty (RetryAfterEmpty) from one not sent, as
// http.Header.Values does, and core.LookupHeader reads it so. An
// EndpointServer shares one Header between all the answers that carry the
// same values: treat the Headers of responses as read-only.
type Header struct {
	RetryAfter          string // Retry-After
	RetryAfterEmpty     bool   // Retry-After sent with an empty value (RetryAfter is then "")
	RateLimit           string // RateLimit (IETF draft, structured fields)
	RateLimitPolicy     string // RateLimit-Policy
	XRateLimitLimit     string // X-RateLimit-Limit
	XRateLimitRemaining string // X-RateLimit-Remaining
	XRateLimitReset     string // X-RateLimit-Reset
}

// Get returns the value of the named field, or "".
func (h *Header) Get(key string) string {
	if h == nil {
		return ""
	}
	switch len(key) {
	case len("Retry-After"):
		if strings.EqualFold(key, "Retry-After") {
			return h.RetryAfter
		}
	case len("RateLimit"):
		if strings.EqualFold(key, "RateLimit") {
			return h.RateLimit
		}
	case len("RateLimit-Policy"):
		if strings.EqualFold(key, "RateLimit-Policy") {
			return h.RateLimitPolicy
		}
	case len("X-RateLimit-Limit"):
		if strings.EqualFold(key, "X-RateLimit-Limit") {
			return h.XRateLimitLimit
		}
		if strings.EqualFold(key, "X-RateLimit-Reset") {
			return h.XRateLimitReset
		}
	case len("X-RateLimit-Remaining"):
		if strings.EqualFold(key, "X-RateLimit-Remaining") {
			return h.XRateLimitRemaining
		}
	}
	return ""
}

// Values returns the named field's values as net/http.Header's Values
// does: nil when it was not sent, [""] for a Retry-After sent empty.
func (h *Header) Values(key string) []string {
	v := h.Get(key)
	switch {
	case v != "":
		return []string{v}
	case h != nil && h.RetryAfterEmpty && strings.EqualFold(key, "Retry-After"):
		return sentEmpty
	}
	return nil
}

// sentEmpty is Values of a field sent empty, shared (read-only, as the
// Header is): core.LookupHeader asks for it at every empty Retry-After.
var sentEmpty = []string{""}

// Fields returns the fields that are set (a Retry-After sent empty
// included), as name/value pairs in a fixed
// order (for hashing and printing).
func (h *Header) Fields() [][2]string {
	if h == nil {
		return nil
	}
	var out [][2]string
	for _, f := range [...][2]string{
		{"Retry-After", h.RetryAfter}, {"RateLimit", h.RateLimit}, {"RateLimit-Policy", h.RateLimitPolicy},
		{"X-RateLimit-Limit", h.XRateLimitLimit}, {"X-RateLimit-Remaining", h.XRateLimitRemaining},
		{"X-RateLimit-Reset", h.XRateLimitReset},
	} {
		if f[1] != "" || (f[0] == "Retry-After" && h.RetryAfterEmpty) {
			out = append(out, f)
		}
	}
	return out
}
