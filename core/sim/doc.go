// Package sim runs Retry Lab's retry mechanics in virtual time: a
// discrete-event Scheduler drives core's Loop state machine (Start, Woke,
// Begin, End, Cancel), the very code the page's workers run through
// core.Do, for thousands of clients at once, against simulated servers.
// There is no second copy of the retry logic here and no goroutine per
// client: a client is a small struct with one pending event.
//
// # Determinism
//
// A simulation is a pure function of its inputs and seed, natively and in
// WebAssembly:
//
//   - Events fire in order of time, ties in the order they were scheduled
//     (a sequence number), and time is integer nanoseconds. So it ends
//     about 292 years after the start (Scheduler.End): the drivers give
//     each core.Loop that horizon (core.Loop.SetHorizon), so a wait that
//     would end later stops its job (core.ErrHorizon) instead of being cut
//     short, and nothing is ever fired before it is due.
//   - Every random draw comes from a core.PCG with a derived seed: job j of
//     worker w draws from core.SubSeed(seed, w, j), exactly as a live run
//     (app/fleet.Run) does, and each server or network from its own; an
//     EndpointServer takes a request's rolls from Endpoint.Rolls instead
//     when it is set (app/fleet rolls each attempt as the mock rolls its
//     tag with the seed).
//   - Normal draws use Normal, whose logarithm is written out in basic
//     arithmetic (math.Log and math.Exp have assembly versions on some
//     platforms that can differ from the pure-Go ones wasm runs), and
//     random arrival gaps use log1pf, math.Log1p's algorithm written out
//     the same way (arm64 fuses the multiply-adds inside math.Log1p).
//     Both round every product on its own: no fused multiply-add.
//
// A test hashes the event stream of a mixed scenario and compares it with
// a constant, natively and under GOOS=js GOARCH=wasm.
//
// # Models
//
//   - Fleet: Workers × Jobs jobs (or Total jobs dealt over the workers),
//     each a core.Loop with the shared core.Bucket and core.Budget and a
//     per-attempt timeout, against a Server. app/fleet.Simulate builds one
//     from a page Scenario.
//   - EndpointServer: the mock endpoint (app/mock) in virtual time — the
//     same core.Limiter with the same configuration, the rejection status,
//     Retry-After (seconds, date, fixed, or a custom value), the IETF and
//     X-RateLimit headers, latency base + spread, and injected failures,
//     decided by the function the mock decides with (core/endpoint's
//     Config.Decide).
//   - Contention: the optimistic-concurrency model of the AWS Architecture
//     Blog's "Exponential Backoff And Jitter" (2015). Clients read a
//     version and write conditionally; a write fails if another client
//     wrote in between; a client whose write failed backs off and tries
//     again. Every message takes |Normal(10 ms, 2 ms)|.
//   - Experiment: a sweep of the contention model, run in parallel with
//     deterministic results; AWS returns the post's setup (base 5 ms, cap
//     2 s, 10–190 clients, 100 runs per point, no backoff, exponential,
//     full, equal and decorrelated jitter). app/awsreport prints Results
//     as a table, a CSV file and an SVG chart.
//
// # What the AWS model counts
//
// A call is one attempt: a read and a conditional write (so the server
// sees twice as many requests). The completion time is from the start,
// when every client sends its first read, until the last client's
// successful write reply arrives. "No backoff" retries after 1 ms, the
// shortest wait core's Backoff accepts (core's None strategy means never
// retry); at four 10 ms messages per call that changes nothing visible.
package sim
