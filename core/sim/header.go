package sim

import "strings"

// Header holds the response header fields a simulated endpoint sends: the
// ones core reads (Retry-After and the rate-limit families). *Header
// satisfies core.Header; Get matches names case-insensitively, as
// net/http's Header.Get does after canonicalising. An empty value reads as
// absent, as it does through http.Header.Get. An EndpointServer shares one
// Header between all the answers that carry the same values: treat the
// Headers of responses as read-only.
type Header struct {
	RetryAfter          string // Retry-After
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

// Fields returns the fields that are set, as name/value pairs in a fixed
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
		if f[1] != "" {
			out = append(out, f)
		}
	}
	return out
}
