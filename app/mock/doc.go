// Package mock is Retry Lab's mock endpoint: a plain HTTP URL whose
// rate limiting, Retry-After, latency and failures are chosen by its query,
// so the page's workers (and curl) can see what a real rate-limited API does
// to a fleet of retrying clients. Its limiters are core's.
//
// # Routes
//
// The server mounts the Handler and its arrivals stream:
//
//	h := mock.New(mock.Options{})
//	mux.Handle("/mock", h)                 // GET, HEAD; OPTIONS preflight
//	mux.Handle("/mock/events", h.Events()) // GET: Server-Sent Events for one key
//	mux.Handle("/mock/outage", h.Outage()) // POST: take a key's server down for a while; OPTIONS
//	mux.Handle("/mock/limit", h.Limit())   // POST: scale a key's limit for a while; OPTIONS
//	mux.Handle("/mock/burst", h.Burst())   // POST: make n requests arrive at a key at once; OPTIONS
//	srv.RegisterOnShutdown(h.Close)         // ends streams and hangs
//
// Example:
//
//	curl -i 'http://localhost:8080/mock?key=room1&limiter=fixed&limit=5&window=10s&retry_after=date&headers=both'
//	curl -N 'http://localhost:8080/mock/events?key=room1'
//	curl -X POST 'http://localhost:8080/mock/limit?key=room1&scale=0.5&for=5s'
//	curl -X POST 'http://localhost:8080/mock/burst?key=room1&limiter=fixed&limit=5&window=10s&n=20'
//
// # Parameters
//
// Every parameter is optional and bounded. An unknown parameter, one given
// twice, an empty or out-of-range value gets 400 with a JSON body
// {"error", "param", "value", "allowed"}; bad input never gets a 5xx.
// param is one name: a rule between parameters (latency+spread ≤ 30s,
// fail500+fail503+drop+hang ≤ 100) is reported on the last of them in the
// table that is not zero, allowed saying how much it may be beside the
// others ("at most 10s: latency+spread ≤ 30s" with latency=20s).
//
//	| parameter | meaning | default | allowed |
//	|---|---|---|---|
//	| `key` | whose limiter state is used: a run's own id, or a shared room name | default | 1–64 characters from A–Z a–z 0–9 . _ ~ - |
//	| `tag` | opaque client label (worker/attempt) echoed in the body and the arrivals stream | (empty) | 0–64 characters from A–Z a–z 0–9 . _ ~ - |
//	| `limiter` | limiter kind: token bucket, fixed window, sliding window, or no limit | bucket | bucket, fixed, sliding, none (core's token-bucket, fixed-window, sliding-window also accepted) |
//	| `rate` | token bucket refill, tokens per second | 5 | a number between 0.001 and 1000000 |
//	| `burst` | token bucket capacity (it starts full) | 10 | an integer between 1 and 1000000 |
//	| `limit` | fixed/sliding window: requests allowed per window | 10 | an integer between 1 and 1000 |
//	| `window` | fixed/sliding window length (Go duration syntax) | 1s | a duration between 1ms and 24h (e.g. 250ms, 2s, 1m) |
//	| `status` | status code of a rejection | 429 | 429, 503 |
//	| `retry_after` | Retry-After on rejections and in an outage: none, delta-seconds (rounded up), HTTP-date, a fixed value, or garbage | seconds | none, seconds, date, fixed, malformed |
//	| `retry_value` | seconds sent in Retry-After, only with retry_after=fixed (ignored otherwise) | 1 | an integer between 0 and 86400 |
//	| `malformed` | kind of garbage sent in Retry-After (mix rotates through all), only with retry_after=malformed (ignored otherwise) | mix | mix, text, empty, negative, decimal, unit, huge, rfc1123z, iso8601 |
//	| `headers` | extra rate-limit headers on every response (none with limiter=none: no limit to describe): IETF RateLimit/RateLimit-Policy, X-RateLimit-*, or both | none | none, ietf, x, both |
//	| `latency` | delay before every response (abandoned when the client goes away) | 0s | a duration between 0s and 30s; latency+spread ≤ 30s |
//	| `spread` | extra uniform random delay in [0, spread) | 0s | a duration between 0s and 30s; latency+spread ≤ 30s |
//	| `fail500` | percent of requests answered 500, no Retry-After (they bypass the limiter) | 0 | a number between 0 and 100; fail500+fail503+drop+hang ≤ 100 |
//	| `fail503` | percent of requests answered 503, no Retry-After (they bypass the limiter) | 0 | a number between 0 and 100; fail500+fail503+drop+hang ≤ 100 |
//	| `drop` | percent of requests whose connection is closed without a response | 0 | a number between 0 and 100; fail500+fail503+drop+hang ≤ 100 |
//	| `hang` | percent of requests never answered: held until the client gives up, or closed after 60 s without a response | 0 | a number between 0 and 100; fail500+fail503+drop+hang ≤ 100 |
//	| `seed` | rolls each request's injected failure and spread from seed and its tag (key and seq without a tag), not at random: same tag, same rolls | (random) | an integer between 0 and 18446744073709551615 |
//
// # What happens to a request
//
//  1. The request is received at now (Options.Now) and numbered: seq is
//     the key's arrival count, from 1.
//  2. Injected failures are rolled (fail500, fail503, drop, hang, in percent
//     of all requests): at random, or with seed from the seed and the tag
//     (from the seed, the key and seq without a tag; SeededRolls), as the
//     spread is. An injected failure bypasses the limiter: it does not
//     count against the limit (its headers come from core's Limiter.Peek).
//  3. Otherwise the key's limiter decides (core's Limiter.Decide). A
//     rejection gets the status parameter (429 or 503) and Retry-After as
//     retry_after says:
//     seconds = Decision.RetryAfterSeconds (exact wait rounded up, ≥ 1);
//     date = IMF-fixdate (http.TimeFormat) of the first whole second at or
//     after now+RetryAfter; fixed = retry_value; malformed = one of text
//     ("soon"), empty (""), negative ("-2"), decimal ("1.3"), unit ("2s"),
//     huge ("99999999999999999999": valid delay-seconds, but past an int64:
//     core reads it as the longest wait, about 292 years, which the
//     client's ceiling clamps or gives up on), rfc1123z (a date with
//     "+0000" instead of "GMT"), iso8601 ("2026-11-05T10:00:02Z"); mix rotates through them by seq.
//     Steps 2 and 3, with an outage (see Handler.Outage) before them, are
//     core/endpoint's Config.Decide, which the simulator decides with too,
//     and the seconds, date and fixed values its AppendRetryAfter.
//  4. The response waits latency + U(0, spread). When the client goes away
//     first, nothing is written and the stream reports "cancelled". A hang
//     waits until the client goes away or Options.HangLimit passes (then the
//     connection is closed); a drop closes the connection without a response
//     (after the latency).
//  5. The response carries a JSON body (see Body), with headers=ietf
//     RateLimit-Policy: "fixed";q=5;w=10 and RateLimit: "fixed";r=2;t=7
//     (draft-ietf-httpapi-ratelimit-headers structured fields; the policy
//     name is the limiter kind, w is the window or a token bucket's time to
//     refill from empty in whole seconds, q the limit in it, scaled to the
//     second when the window is shorter: core.LimiterConfig.Policy), with
//     headers=x X-RateLimit-Limit, -Remaining and
//     -Reset (delta seconds, rounded up). limiter=none sends neither.
//
// Every response, errors included, carries Access-Control-Allow-Origin: *,
// Access-Control-Expose-Headers listing Retry-After, RateLimit,
// RateLimit-Policy and the three X-RateLimit headers by name (the list
// takes no prefix wildcard), Timing-Allow-Origin: *, and
// Cache-Control: no-store. OPTIONS answers preflights with 204 on every
// route, allowing the methods the route serves (GET, HEAD and OPTIONS on
// /mock; GET and OPTIONS on /mock/events; POST and OPTIONS on the fault
// switches, so a page on another origin can send them with a JSON
// Content-Type or headers of its own), which are those its 405s list in
// Allow.
//
// # Keys
//
// A key is a run's own id or a room shared by many clients. Its limiter
// state lasts until it has been idle for longer than Options.IdleTTL and
// its limit has fully recovered (a full bucket, nothing admitted in the
// window), whichever comes later, so a client told to wait is never let in
// early; a key with an arrivals stream open is kept regardless. The last
// configuration applies from now on, without resetting the key: a request
// whose limiter parameters differ from the previous one's changes the
// key's limiter to them keeping the quota used (a bucket its tokens, a
// window its admissions; across kinds or window lengths, the new limiter
// starts with the same share of its quota used, exactly in a bucket and
// rounded up to whole requests in a window, and gets each part of it back
// when the old limiter would have, or once the new one has recovered on
// its own if sooner, at its window's end or its bucket's refill from
// empty: core.Limiter.Reconfigure), so clients with different settings taking
// turns on a room still share one limit, and use no more of it than their
// own requests, however often they take turns. At most
// Options.MaxKeys keys (and about Options.MaxBytes of state) are held; beyond
// that the least recently used key of the same shard is evicted, a key with
// an arrivals stream open last, so a flood of unique keys can neither
// exhaust memory nor reset a watched room's limit.
//
// # Fault switches
//
// POST /mock/outage?key=K&for=D answers every request for K with 503 for D
// (see Handler.Outage). POST /mock/limit?key=K&scale=F&for=D decides K's
// requests with its limit multiplied by F for D, its limiter's state carried
// into the stretch and back out (see Handler.Limit). Both tell K's arrivals
// stream; for=0s ends a stretch early. POST /mock/burst?n=N&<query> makes N
// requests with GET /mock's <query> arrive at once at its key, as another
// client's: each is decided as such a GET would be at that instant (an
// outage, a scaled limit and injected failures apply; admitted ones take the
// limiter's tokens) but answered at once, and appears on the key's stream as
// an arrival tagged "burst" and its end "sent", then a "burst" message for
// the whole (see Handler.Burst). A switch refuses a POST from a page of
// another site (net/http's CrossOriginProtection) with 403.
//
// # Fair shares
//
// One remote address holds at most Options.MaxStreamsPerClient arrivals
// streams, MaxHangsPerClient hangs and MaxStretchesPerClient keys under
// each switch at once, so that one machine on a workshop's network cannot
// take what the room shares; the loopback interface is not counted.
//
// # Arrivals stream
//
// GET /mock/events?key=K streams every arrival at K and the end of its
// handling, live, as Server-Sent Events whose data is one JSON Event.
// An aborted fetch that was still waiting (latency or hang) shows as an end
// event with end "cancelled". Streams never slow the endpoint down: a
// consumer that falls behind Options.StreamBuf events loses events and is
// told how many ({"type":"dropped"}).
//
// # Browser
//
// params.go, event.go, retryafter.go and roll.go carry no server-only
// imports and compile for js/wasm: the page builds mock URLs with
// Params.Encode, shows ranges from Table, and decodes Body and Event; its
// simulator sends the same Retry-After values (AppendRetryAfter) and rolls
// each attempt's failure and spread as a seeded request with the
// attempt's tag rolls them (SeededRolls). Everything else is tagged
// !(js && wasm).
//
// Give every request its own tag (worker and attempt): the body and the
// stream then name the attempt, with seed each attempt has rolls of its
// own, and distinct URLs are not serialized by Chromium's cache lock
// (fetch with cache: "no-store" as well). A drop on a
// reused keep-alive connection is sent again by the browser (and by Go's
// Transport) before the caller sees an error; with seed the resend rolls
// as the attempt did and is dropped again, so one fetch can show several
// drop arrivals (3 in Chromium, up to 13 from Go's Transport, which tries
// each idle connection of its pool, measured by a review). Over HTTP/1.1 the arrivals stream holds one of the six
// connections a page may open to the mock's origin.
package mock
