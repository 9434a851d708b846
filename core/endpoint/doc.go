// Package endpoint holds the mock endpoint's rules, the one place they are
// written: how it decides a request (Config.Decide: an outage, an injected
// failure, or its limiter), how long its answer takes (Config.Delay), and
// the header values it sends (AppendRetryAfter, AppendRateLimit,
// AppendRateLimitPolicy).
//
// Two endpoints follow them: the live mock, which answers the page's
// fetch() calls over HTTP (app/mock), and the simulated one, which answers
// in virtual time (core/sim's EndpointServer). So a live run and its
// simulation are refused, fail and are told to wait alike.
//
// It uses the standard library and core only, and takes time and random
// rolls as arguments.
package endpoint
