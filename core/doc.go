// Package core holds Retry Lab's retry mechanics: backoff and jitter,
// Retry-After and rate-limit hints, a client-side token bucket, a retry
// budget, the retry loop, and the server-side limiters of the mock endpoint.
//
// It uses only the standard library (no net/http, no syscall/js), so the
// same code runs in the page (js/wasm), in the server and in the simulator.
// Time and randomness are always passed in.
package core
