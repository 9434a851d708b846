// Package core holds Retry Lab's retry mechanics: backoff and jitter,
// Retry-After and rate-limit hints, a client-side token bucket, a retry
// budget, the retry loop, and the server-side limiters of the mock endpoint.
// The page's workers (compiled to WebAssembly), the mock endpoint (native)
// and the simulator (virtual time) all run this code, so what the page
// shows is what the library does.
//
// # Model
//
// Nothing in core reads a clock or a global random source:
//
//   - Time is a parameter. Bucket, Limiter and Loop take the instant to act
//     at; only Bucket.Wait and the blocking driver Do touch real time, Do
//     through a Clock the caller may replace.
//   - Randomness is a parameter. Backoff.Delay takes the random number u;
//     Schedule and Loop take a Rand. Give each loop its own generator,
//     NewPCG(SubSeed(seed, worker, job)) (or NewRand, which draws the same
//     numbers), and one seed reproduces a whole run on every platform,
//     whatever order goroutines run in.
//   - It uses the standard library only, and not net/http (Header is a
//     one-method interface http.Header satisfies) nor syscall/js: a test
//     checks it.
//
// # Pieces
//
//   - Backoff: a pure description of a delay schedule (none, constant,
//     exponential, full / equal / decorrelated jitter, as AWS defines them);
//     Delay computes one delay, Schedule steps through them.
//   - ParseRetryAfter: delay-seconds and the three HTTP-date forms of
//     RFC 9110, with errors that say what was wrong (an empty value
//     included); LookupHeader: a field sent empty apart from one not sent.
//   - ParseRateLimit: RateLimit / RateLimit-Policy (IETF draft), the older
//     RateLimit-Limit/Remaining/Reset and X-RateLimit-*.
//   - Bucket: a token bucket shared by a fleet of workers (client pacing).
//   - Budget: a retry quota shared by a fleet (retries spend, successes
//     refill).
//   - Loop: one job's retry state machine; Do: its blocking driver.
//   - Limiter: the mock endpoint's limit per key (token bucket, fixed
//     window, sliding window), answering like a well-behaved server.
//
// Every configuration field has its allowed range exported as a Range
// variable (BackoffBaseRange, LimiterLimitRange, ...), and Validate's range
// errors read "core: <field> <value>: must be between <min> and <max>"
// (a cap below the base is ErrCapBelowBase; a choice out of its set names
// the choices: "must be 0 (clamp) or 1 (stop)").
//
// # How the pieces compose
//
// A Loop runs one job: it asks its driver to attempt, and after each failed
// attempt decides whether and how long to wait, in this order:
//
//  1. A success (not retryable, Err nil, status below 400) ends the job and
//     refills the Budget. A failure Policy.Retryable rejects stops it
//     (ErrPermanent); so does reaching MaxAttempts (ErrExhausted).
//  2. The wait comes from the server's Retry-After if Policy.RetryAfter is
//     set and it parses; else from a rate-limit reset if
//     Policy.UseResetHints is set and the server says the quota is used
//     up or does not say what remains; else from the
//     Backoff. A server-requested wait above Policy.Ceiling is clamped or
//     stops the job (ErrAboveCeiling) — one too long for a time.Duration
//     too: the parsers saturate it ("Retry-After: 99999999999999999999" is
//     valid delay-seconds, a very long wait, not an unreadable value);
//     Policy.Spread then adds a small
//     random extra. Unusable headers are recorded in the event's Note
//     ("retry-after \"abc\": ...; fell back to backoff"), a Retry-After
//     sent with no value too ("retry-after \"\": empty ..."): through a
//     Header with net/http's Values method, LookupHeader tells it from
//     one not sent, which is no note. A wait that fell back for an
//     unreadable Retry-After also carries its *RetryAfterError (the
//     event's Err), the value and what is wrong with it, for a caller
//     that counts them.
//  3. If the wait would end past Policy.MaxElapsed the job stops now
//     (ErrMaxElapsed) rather than sleep in vain; so it does (ErrHorizon)
//     if the wait would end past the horizon its driver set
//     (Loop.SetHorizon: the simulator's end of virtual time).
//  4. The retry spends a Budget token, if there is a Budget (else
//     ErrBudgetEmpty).
//  5. After the wait, and before every attempt including the first, the
//     job takes a Bucket token, if there is a Bucket, waiting for it if the
//     bucket is in debt (reason bucket). If that wait would end past
//     Policy.MaxElapsed the job stops (ErrMaxElapsed), or past the horizon
//     (ErrHorizon), and gives back the Bucket token and the retry's Budget
//     token.
//
// Cancellation (the context given to Do; Loop.Cancel for a driver of its
// own, called from the goroutine that drives the loop, as a Loop is not
// safe for concurrent use) stops the job at any point with ErrCancelled, giving back the tokens taken for an attempt
// not yet sent. Each stop is a *StopError wrapping its cause
// and the last attempt's error. Every step is reported as an Event: the
// timeline, the simulator's statistics and the tests are built from events,
// never by recomputing the schedule.
//
//	policy := core.DefaultPolicy()               // full jitter, 5 attempts, Retry-After up to 1m
//	policy.Spread = 100 * time.Millisecond       // break up herds told the same Retry-After
//	bucket, _ := core.NewBucket(20, 5)           // the fleet: 20 requests/s, bursts of 5
//	budget, _ := core.NewBudget(50, 0.1)         // the fleet: at most 50 retries, +0.1 per success
//	var wg sync.WaitGroup
//	for w := range 10 { // 10 workers of 3 jobs
//		wg.Go(func() {
//			for job := range 3 {
//				l := core.NewLoop(policy, core.NewPCG(core.SubSeed(seed, w, job)), bucket, budget, nil)
//				if err := core.Do(ctx, l, nil, attempt); err != nil { // errors.Is(err, core.ErrExhausted), ...
//					log.Printf("worker %d, job %d: %v", w, job, err)
//				}
//			}
//		})
//	}
//	wg.Wait()
//
// with attempt a func(ctx context.Context, n int) core.Outcome making the
// request (ExampleDo_http). A Loop runs one job once: make one per job.
//
// Bucket and Budget are safe for concurrent use and meant to be shared; a
// Loop, a Schedule, a PCG and a Limiter are not (the mock endpoint locks
// per key).
package core
