package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// drive runs l like a driver would, at fixed instants: each attempt takes
// latency, each wait ends late by lateness, and the i-th attempt gets
// outcomes[i] (the last one repeats). It returns the events as text.
func drive(t *testing.T, l *Loop, ev *[]Event, latency, lateness time.Duration, outcomes ...Outcome) (Step, []string) {
	t.Helper()
	now := t0
	step := l.Start(now)
	for i := 0; step.Action != ActDone; {
		if i > 100 {
			t.Fatal("loop does not end")
		}
		switch step.Action {
		case ActWait:
			now = now.Add(step.Wait + lateness)
			step = l.Woke(now)
		case ActAttempt:
			l.Begin(now)
			now = now.Add(latency)
			step = l.End(now, outcomes[min(i, len(outcomes)-1)])
			i++
		}
	}
	return step, traceEvents(*ev)
}

// traceEvents prints events compactly, times relative to t0.
func traceEvents(evs []Event) []string {
	var out []string
	for _, e := range evs {
		rel := func(x time.Time) string { return FormatDuration(x.Sub(t0)) }
		var line string
		switch e.Kind {
		case EventAttempt:
			line = fmt.Sprintf("attempt %d at %s", e.Attempt, rel(e.At))
			if !e.Intended.Equal(e.At) {
				line += " intended " + rel(e.Intended)
			}
		case EventOutcome:
			line = fmt.Sprintf("outcome %d at %s: %d", e.Attempt, rel(e.At), e.Outcome.Status)
			if e.Outcome.Err != nil {
				line += " " + e.Outcome.Err.Error()
			}
		case EventWait:
			line = fmt.Sprintf("wait %s %s for %d at %s", e.Reason, FormatDuration(e.Wait), e.Attempt, rel(e.At))
			// The Retry-After the wait could not follow, as a page reads it.
			if ra := (*RetryAfterError)(nil); errors.As(e.Err, &ra) {
				line += fmt.Sprintf(" unread %q", ra.Value)
			} else if e.Err != nil {
				line += " error " + e.Err.Error()
			}
		case EventDone:
			line = fmt.Sprintf("done at %s after %d", rel(e.At), e.Attempt)
			if e.Err != nil {
				line += ": " + e.Err.Error()
			}
		}
		if e.Note != "" {
			line += " (" + e.Note + ")"
		}
		out = append(out, line)
	}
	return out
}

func recorder() (*[]Event, func(Event)) {
	var evs []Event
	return &evs, func(e Event) { evs = append(evs, e) }
}

// fixedRand returns the same number every time.
type fixedRand float64

func (f fixedRand) Float64() float64 { return float64(f) }

func status(code int, kv ...string) Outcome {
	h := hdr{}
	for i := 0; i+1 < len(kv); i += 2 {
		h[kv[i]] = kv[i+1]
	}
	return Outcome{Status: code, Header: h}
}

func expo(max int) Policy {
	return Policy{Backoff: Backoff{Strategy: Exponential, Base: 100 * ms, Multiplier: 2, Cap: 10 * s}, MaxAttempts: max}
}

func withPolicy(p Policy, f func(*Policy)) Policy { f(&p); return p }

func TestLoopScenarios(t *testing.T) {
	full := withPolicy(expo(4), func(p *Policy) { p.Backoff.Strategy = FullJitter })
	tests := []struct {
		name     string
		p        Policy
		rng      Rand
		latency  time.Duration
		outcomes []Outcome
		want     []string
	}{
		{"success first time", expo(3), nil, 10 * ms, []Outcome{status(200)}, []string{
			"attempt 1 at 0s",
			"outcome 1 at 10ms: 200",
			"done at 10ms after 1",
		}},
		{"exponential until exhausted", expo(4), nil, 0, []Outcome{status(503)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 503", "wait backoff 400ms for 3 at 200ms",
			"attempt 3 at 600ms", "outcome 3 at 600ms: 503", "wait backoff 800ms for 4 at 600ms",
			"attempt 4 at 1.4s", "outcome 4 at 1.4s: 503",
			"done at 1.4s after 4: core: attempts exhausted after 4 attempts: http status 503 (max attempts 4 reached)",
		}},
		{"full jitter uses the loop's Rand", full, fixedRand(0.5), 0, []Outcome{status(429), status(429), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait backoff 100ms for 2 at 0s",
			"attempt 2 at 100ms", "outcome 2 at 100ms: 429", "wait backoff 200ms for 3 at 100ms",
			"attempt 3 at 300ms", "outcome 3 at 300ms: 200", "done at 300ms after 3",
		}},
		{"equal jitter", withPolicy(expo(2), func(p *Policy) { p.Backoff.Strategy = EqualJitter }), fixedRand(0.5), 0, []Outcome{status(500)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 500", "wait backoff 150ms for 2 at 0s",
			"attempt 2 at 150ms", "outcome 2 at 150ms: 500",
			"done at 150ms after 2: core: attempts exhausted after 2 attempts: http status 500 (max attempts 2 reached)",
		}},
		{"decorrelated grows from the previous delay", withPolicy(expo(4), func(p *Policy) { p.Backoff.Strategy = DecorrelatedJitter }), fixedRand(0.5), 0, []Outcome{status(503)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 503", "wait backoff 350ms for 3 at 200ms",
			"attempt 3 at 550ms", "outcome 3 at 550ms: 503", "wait backoff 575ms for 4 at 550ms",
			"attempt 4 at 1.125s", "outcome 4 at 1.125s: 503",
			"done at 1.125s after 4: core: attempts exhausted after 4 attempts: http status 503 (max attempts 4 reached)",
		}},
		{"constant", withPolicy(expo(3), func(p *Policy) { p.Backoff.Strategy = Constant }), nil, 0, []Outcome{status(503), status(204)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 100ms for 2 at 0s",
			"attempt 2 at 100ms", "outcome 2 at 100ms: 204", "done at 100ms after 2",
		}},
		{"strategy none never retries", withPolicy(expo(5), func(p *Policy) { p.Backoff = Backoff{} }), nil, 0, []Outcome{status(429)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			"done at 0s after 1: core: attempts exhausted after 1 attempt: http status 429 (strategy none: no retries)",
		}},
		{"permanent failure", expo(5), nil, 0, []Outcome{status(404)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 404",
			"done at 0s after 1: core: permanent failure after 1 attempt: http status 404 (not retryable)",
		}},
		{"network error and timeout are retried", expo(3), nil, 0, []Outcome{{Err: io.ErrUnexpectedEOF}, {Err: fmt.Errorf("attempt timeout: %w", context.DeadlineExceeded)}, status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 0 unexpected EOF", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 0 attempt timeout: context deadline exceeded", "wait backoff 400ms for 3 at 200ms",
			"attempt 3 at 600ms", "outcome 3 at 600ms: 200", "done at 600ms after 3",
		}},
		{"custom retryable", withPolicy(expo(3), func(p *Policy) { p.Retryable = func(o Outcome) bool { return o.Status == 503 } }), nil, 0, []Outcome{status(503), status(429)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 429",
			"done at 200ms after 2: core: permanent failure after 2 attempts: http status 429 (not retryable)",
		}},
		{"retry-after wins over backoff", withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{status(429, "Retry-After", "3"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 3s for 2 at 0s",
			"attempt 2 at 3s", "outcome 2 at 3s: 200", "done at 3s after 2",
		}},
		{"retry-after ignored when not honoured", expo(3), nil, 0, []Outcome{status(429, "Retry-After", "3"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"retry-after date", withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{status(503, "Retry-After", at(90*s).Format("Mon, 02 Jan 2006 15:04:05 GMT")), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait retry-after 1m30s for 2 at 0s",
			"attempt 2 at 1m30s", "outcome 2 at 1m30s: 200", "done at 1m30s after 2",
		}},
		// A date already past waits nothing, noted: a server clock behind
		// sent one, and its clients retried at once, unexplained (a
		// review). A date of now, or 0 seconds, is no note.
		{"retry-after date already past", withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{status(503, "Retry-After", at(-10*s).Format("Mon, 02 Jan 2006 15:04:05 GMT")), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait retry-after 0s for 2 at 0s (retry-after date already past: a server clock behind, or a slow answer)",
			"attempt 2 at 0s", "outcome 2 at 0s: 200", "done at 0s after 2",
		}},
		{"retry-after date of now", withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{status(503, "Retry-After", at(0).Format("Mon, 02 Jan 2006 15:04:05 GMT")), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait retry-after 0s for 2 at 0s",
			"attempt 2 at 0s", "outcome 2 at 0s: 200", "done at 0s after 2",
		}},
		{"retry-after 0 seconds", withPolicy(expo(3), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{status(503, "Retry-After", "0"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait retry-after 0s for 2 at 0s",
			"attempt 2 at 0s", "outcome 2 at 0s: 200", "done at 0s after 2",
		}},
		{"invalid retry-after falls back to backoff", withPolicy(expo(2), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{status(429, "Retry-After", "1.5"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			`wait backoff 200ms for 2 at 0s unread "1.5" (retry-after "1.5": fractional seconds not allowed; fell back to backoff)`,
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		// An empty Retry-After (the field sent with no value) is an invalid
		// value, noted as the others are; an absent one is no note.
		{"empty retry-after falls back to backoff", withPolicy(expo(2), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{{Status: 429, Header: http.Header{"Retry-After": {""}}}, status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			`wait backoff 200ms for 2 at 0s unread "" (retry-after "": empty (want delay-seconds or an HTTP-date); fell back to backoff)`,
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"blank retry-after falls back to backoff", withPolicy(expo(2), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{{Status: 429, Header: http.Header{"Retry-After": {" \t "}}}, status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			`wait backoff 200ms for 2 at 0s unread " \t " (retry-after " \t ": empty (want delay-seconds or an HTTP-date); fell back to backoff)`,
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"absent retry-after is no note", withPolicy(expo(2), func(p *Policy) { p.RetryAfter = true }), nil, 0, []Outcome{{Status: 429, Header: http.Header{"Content-Type": {"text/plain"}}}, status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"empty retry-after falls back to the reset hint", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.UseResetHints = true, true }), nil, 0, []Outcome{{Status: 429, Header: http.Header{"Retry-After": {""}, "Ratelimit": {`"d";r=0;t=4`}}}, status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", `wait reset-hint 4s for 2 at 0s unread "" (retry-after "": empty (want delay-seconds or an HTTP-date); fell back to reset hint)`,
			"attempt 2 at 4s", "outcome 2 at 4s: 200", "done at 4s after 2",
		}},
		// A malformed RateLimit-Policy is ignored alone: the reset hint in
		// RateLimit is waited for (it backed off 200 ms), and the policy noted.
		{"bad policy keeps the reset hint", withPolicy(expo(2), func(p *Policy) { p.UseResetHints = true }), nil, 0, []Outcome{{Status: 429, Header: http.Header{"Ratelimit": {`"a";r=0;t=30`}, "Ratelimit-Policy": {`"a";q=10;w=1.5`}}}, status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", `wait reset-hint 30s for 2 at 0s (RateLimit-Policy "\"a\";q=10;w=1.5": w=1.5: not an integer; policy ignored)`,
			"attempt 2 at 30s", "outcome 2 at 30s: 200", "done at 30s after 2",
		}},
		{"ceiling clamps", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling = true, 30*s }), nil, 0, []Outcome{status(429, "Retry-After", "120"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 30s for 2 at 0s (clamped from 2m to ceiling 30s)",
			"attempt 2 at 30s", "outcome 2 at 30s: 200", "done at 30s after 2",
		}},
		{"ceiling stops", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling, p.AboveCeiling = true, 30*s, CeilingStop }), nil, 0, []Outcome{status(429, "Retry-After", "120")}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			"done at 0s after 1: core: server delay above ceiling after 1 attempt: http status 429 (retry-after 2m above ceiling 30s)",
		}},
		// Delay-seconds past a Duration's reach saturate and meet the
		// ceiling like any long delay; the note says the server asked for
		// more than the largest Duration (they once fell back to backoff).
		{"huge retry-after clamped", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling = true, 30*s }), nil, 0, []Outcome{status(429, "Retry-After", "99999999999999999999"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 30s for 2 at 0s (clamped from over 2562047h47m16.854775807s to ceiling 30s)",
			"attempt 2 at 30s", "outcome 2 at 30s: 200", "done at 30s after 2",
		}},
		{"huge retry-after stops", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling, p.AboveCeiling = true, 30*s, CeilingStop }), nil, 0, []Outcome{status(429, "Retry-After", "99999999999999999999")}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			"done at 0s after 1: core: server delay above ceiling after 1 attempt: http status 429 (retry-after over 2562047h47m16.854775807s above ceiling 30s)",
		}},
		{"huge reset hint stops", withPolicy(expo(2), func(p *Policy) { p.UseResetHints, p.Ceiling, p.AboveCeiling = true, 30*s, CeilingStop }), nil, 0, []Outcome{status(429, "RateLimit", `"d";r=0;t=999999999999999`)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			"done at 0s after 1: core: server delay above ceiling after 1 attempt: http status 429 (reset-hint over 2562047h47m16.854775807s above ceiling 30s)",
		}},
		{"delay equal to the ceiling is honoured", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling, p.AboveCeiling = true, 30*s, CeilingStop }), nil, 0, []Outcome{status(429, "Retry-After", "30"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 30s for 2 at 0s",
			"attempt 2 at 30s", "outcome 2 at 30s: 200", "done at 30s after 2",
		}},
		{"spread on top of retry-after", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Spread = true, 200*ms }), fixedRand(0.25), 0, []Outcome{status(429, "Retry-After", "2"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 2.05s for 2 at 0s (spread +50ms)",
			"attempt 2 at 2.05s", "outcome 2 at 2.05s: 200", "done at 2.05s after 2",
		}},
		{"spread after clamping", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling, p.Spread = true, 10*s, time.Second }), fixedRand(0.5), 0, []Outcome{status(429, "Retry-After", "60"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 10.5s for 2 at 0s (clamped from 1m to ceiling 10s; spread +500ms)",
			"attempt 2 at 10.5s", "outcome 2 at 10.5s: 200", "done at 10.5s after 2",
		}},
		// A note tells measured and drawn durations to the millisecond: a
		// spread of 877.25499ms was written out to the nanosecond, in the
		// page's tooltip and in every export.
		{"spread noted to the millisecond", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Spread = true, 2*s }), fixedRand(0.438627495), 0, []Outcome{status(429, "Retry-After", "1"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 1.87725499s for 2 at 0s (spread +877ms)",
			"attempt 2 at 1.87725499s", "outcome 2 at 1.87725499s: 200", "done at 1.87725499s after 2",
		}},
		{"a sub-millisecond spread noted to the microsecond", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Spread = true, ms }), fixedRand(0.123456789), 0, []Outcome{status(429, "Retry-After", "1"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 1.000123456s for 2 at 0s (spread +123µs)",
			"attempt 2 at 1.000123456s", "outcome 2 at 1.000123456s: 200", "done at 1.000123456s after 2",
		}},
		{"a date clamped, noted to the millisecond", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.Ceiling = true, 30*s }), nil, 333333333, []Outcome{status(503, "Retry-After", at(90*s).Format("Mon, 02 Jan 2006 15:04:05 GMT")), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 333.333333ms: 503", "wait retry-after 30s for 2 at 333.333333ms (clamped from 1m29.667s to ceiling 30s)",
			"attempt 2 at 30.333333333s", "outcome 2 at 30.666666666s: 200", "done at 30.666666666s after 2",
		}},
		{"max elapsed noted to the millisecond", withPolicy(expo(10), func(p *Policy) { p.MaxElapsed = time.Second }), nil, 333333333, []Outcome{status(503)}, []string{
			"attempt 1 at 0s", "outcome 1 at 333.333333ms: 503", "wait backoff 200ms for 2 at 333.333333ms",
			"attempt 2 at 533.333333ms", "outcome 2 at 866.666666ms: 503",
			"done at 866.666666ms after 2: core: max elapsed time reached after 2 attempts: http status 503 (backoff wait 400ms would end past max elapsed 1s (867ms used))",
		}},
		{"spread not added to backoff", withPolicy(expo(2), func(p *Policy) { p.Spread = time.Second }), fixedRand(0.5), 0, []Outcome{status(429), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"reset hint when retry-after is absent", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.UseResetHints = true, true }), nil, 0, []Outcome{status(429, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "5"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait reset-hint 5s for 2 at 0s",
			"attempt 2 at 5s", "outcome 2 at 5s: 200", "done at 5s after 2",
		}},
		{"retry-after wins over a reset hint", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.UseResetHints = true, true }), nil, 0, []Outcome{status(429, "Retry-After", "1", "RateLimit", `"d";r=0;t=50`), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", "wait retry-after 1s for 2 at 0s",
			"attempt 2 at 1s", "outcome 2 at 1s: 200", "done at 1s after 2",
		}},
		{"invalid retry-after falls back to the reset hint", withPolicy(expo(2), func(p *Policy) { p.RetryAfter, p.UseResetHints = true, true }), nil, 0, []Outcome{status(429, "Retry-After", "soon", "RateLimit", `"d";r=0;t=4`), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", `wait reset-hint 4s for 2 at 0s unread "soon" (retry-after "soon": invalid syntax (want delay-seconds or an HTTP-date); fell back to reset hint)`,
			"attempt 2 at 4s", "outcome 2 at 4s: 200", "done at 4s after 2",
		}},
		{"reset hint ignored while quota remains", withPolicy(expo(2), func(p *Policy) { p.UseResetHints = true }), nil, 0, []Outcome{status(503, "RateLimit", `"d";r=7;t=40`), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s (reset hint ignored: 7 remaining; fell back to backoff)",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"malformed rate-limit header falls back", withPolicy(expo(2), func(p *Policy) { p.UseResetHints = true }), nil, 0, []Outcome{status(429, "X-RateLimit-Reset", "-3"), status(200)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429", `wait backoff 200ms for 2 at 0s (X-RateLimit-Reset "-3": negative; fell back to backoff)`,
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200", "done at 200ms after 2",
		}},
		{"reset hints obey the ceiling", withPolicy(expo(2), func(p *Policy) { p.UseResetHints, p.Ceiling, p.AboveCeiling = true, 10*s, CeilingStop }), nil, 0, []Outcome{status(429, "RateLimit-Reset", "60")}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 429",
			"done at 0s after 1: core: server delay above ceiling after 1 attempt: http status 429 (reset-hint 1m above ceiling 10s)",
		}},
		{"max elapsed stops before a wait that would pass it", withPolicy(expo(10), func(p *Policy) { p.MaxElapsed = time.Second }), nil, 0, []Outcome{status(503)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 503", "wait backoff 400ms for 3 at 200ms",
			"attempt 3 at 600ms", "outcome 3 at 600ms: 503",
			"done at 600ms after 3: core: max elapsed time reached after 3 attempts: http status 503 (backoff wait 800ms would end past max elapsed 1s (600ms used))",
		}},
		{"max elapsed counts attempt time", withPolicy(expo(10), func(p *Policy) { p.MaxElapsed = time.Second }), nil, 450 * ms, []Outcome{status(503)}, []string{
			"attempt 1 at 0s", "outcome 1 at 450ms: 503", "wait backoff 200ms for 2 at 450ms",
			"attempt 2 at 650ms", "outcome 2 at 1.1s: 503",
			"done at 1.1s after 2: core: max elapsed time reached after 2 attempts: http status 503 (backoff wait 400ms would end past max elapsed 1s (1.1s used))",
		}},
		{"a wait ending exactly at max elapsed is allowed", withPolicy(expo(3), func(p *Policy) { p.MaxElapsed = 600 * ms }), nil, 0, []Outcome{status(503)}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 503", "wait backoff 400ms for 3 at 200ms",
			"attempt 3 at 600ms", "outcome 3 at 600ms: 503",
			"done at 600ms after 3: core: attempts exhausted after 3 attempts: http status 503 (max attempts 3 reached)",
		}},
		{"a retried success", withPolicy(expo(2), func(p *Policy) { p.Retryable = func(o Outcome) bool { return o.Header.Get("X-Empty") != "" } }), nil, 0, []Outcome{status(200, "X-Empty", "1")}, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 200", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 200",
			"done at 200ms after 2: core: attempts exhausted after 2 attempts: http status 200 (max attempts 2 reached)",
		}},
		{"invalid policy stops at once", Policy{}, nil, 0, []Outcome{status(200)}, []string{
			"done at 0s after 0: core: policy max attempts 0: must be between 1 and 1000 (invalid policy)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, obs := recorder()
			l := NewLoop(tt.p, tt.rng, nil, nil, obs)
			_, got := drive(t, l, ev, tt.latency, 0, tt.outcomes...)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("events:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

func TestLoopStopErrors(t *testing.T) {
	tests := []struct {
		name     string
		p        Policy
		budget   float64
		outcomes []Outcome
		cause    error
		last     error
	}{
		{"exhausted", expo(2), 0, []Outcome{status(429)}, ErrExhausted, &StatusError{429}},
		{"permanent", expo(2), 0, []Outcome{status(400)}, ErrPermanent, &StatusError{400}},
		{"network error", expo(2), 0, []Outcome{{Err: io.EOF}}, ErrExhausted, io.EOF},
		{"max elapsed", withPolicy(expo(5), func(p *Policy) { p.MaxElapsed = 100 * ms }), 0, []Outcome{status(503)}, ErrMaxElapsed, &StatusError{503}},
		{"above ceiling", withPolicy(expo(5), func(p *Policy) { p.RetryAfter, p.Ceiling, p.AboveCeiling = true, s, CeilingStop }), 0, []Outcome{status(503, "Retry-After", "2")}, ErrAboveCeiling, &StatusError{503}},
		{"budget empty", expo(5), 1, []Outcome{status(503)}, ErrBudgetEmpty, &StatusError{503}},
		{"attempt cancelled", expo(5), 0, []Outcome{{Err: fmt.Errorf("fetch aborted: %w", context.Canceled)}}, ErrCancelled, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var budget *Budget
			if tt.budget > 0 {
				budget, _ = NewBudget(tt.budget, 0)
			}
			ev, obs := recorder()
			l := NewLoop(tt.p, nil, nil, budget, obs)
			final, _ := drive(t, l, ev, 0, 0, tt.outcomes...)
			var se *StopError
			if !errors.As(final.Err, &se) {
				t.Fatalf("final error %v is not a *StopError", final.Err)
			}
			if se.Cause != tt.cause || se.Attempts != l.Attempts() {
				t.Errorf("StopError{Cause: %v, Attempts: %d}, want %v after %d", se.Cause, se.Attempts, tt.cause, l.Attempts())
			}
			if cancelled := tt.cause == ErrCancelled; cancelled != (se.Context != nil) || cancelled && se.Last != nil {
				// The attempt's error is the context's cause: it is Context, not Last as well.
				t.Errorf("StopError{Last: %v, Context: %v}: want Context (only) when cancelled", se.Last, se.Context)
			}
			if !errors.Is(final.Err, tt.cause) {
				t.Errorf("error %v is not %v", final.Err, tt.cause)
			}
			var st *StatusError
			if want, ok := tt.last.(*StatusError); ok {
				if !errors.As(final.Err, &st) || st.Status != want.Status {
					t.Errorf("error %v does not wrap status %d", final.Err, want.Status)
				}
			} else if !errors.Is(final.Err, tt.last) {
				t.Errorf("error %v does not wrap %v", final.Err, tt.last)
			}
			if done, err := l.Done(); !done || err != final.Err {
				t.Errorf("Done() = %v, %v", done, err)
			}
			if last := (*ev)[len(*ev)-1]; last.Kind != EventDone || last.Err != final.Err {
				t.Errorf("last event %+v is not EventDone with the final error", last)
			}
		})
	}
}

func TestLoopBucketWaitsBeforeAttempts(t *testing.T) {
	b, _ := NewBucket(1, 1)
	ev, obs := recorder()
	l := NewLoop(expo(3), nil, b, nil, obs)
	_, got := drive(t, l, ev, 0, 0, status(503), status(503), status(200))
	want := []string{
		"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
		"wait bucket 800ms for 2 at 200ms (bucket empty)",
		"attempt 2 at 1s", "outcome 2 at 1s: 503", "wait backoff 400ms for 3 at 1s",
		"wait bucket 600ms for 3 at 1.4s (bucket empty)",
		"attempt 3 at 2s", "outcome 3 at 2s: 200", "done at 2s after 3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// The attempt's intended time is the planned end of its bucket wait.
	for _, e := range *ev {
		if e.Kind == EventAttempt && !e.Intended.Equal(e.At) {
			t.Errorf("attempt %d intended %v, sent %v", e.Attempt, e.Intended, e.At)
		}
	}
}

func TestLoopBucketSharedByTwoLoops(t *testing.T) {
	b, _ := NewBucket(2, 1)
	l1 := NewLoop(expo(1), nil, b, nil, nil)
	l2 := NewLoop(expo(1), nil, b, nil, nil)
	if s := l1.Start(t0); s.Action != ActAttempt {
		t.Fatalf("first loop: %+v", s)
	}
	if s := l2.Start(t0); s.Action != ActWait || s.Reason != ReasonBucket || s.Wait != 500*ms {
		t.Fatalf("second loop: %+v, want a 500ms bucket wait", s)
	}
}

func TestLoopIntendedVersusActual(t *testing.T) {
	ev, obs := recorder()
	l := NewLoop(expo(2), nil, nil, nil, obs)
	_, got := drive(t, l, ev, 0, 7*ms, status(503), status(200))
	if got[3] != "attempt 2 at 207ms intended 200ms" {
		t.Fatalf("late wake-up not reported: %q", got[3])
	}
}

func TestLoopMaxElapsedAppliesToBucketWaits(t *testing.T) {
	b, _ := NewBucket(1, 1)
	b.AllowAt(t0)
	p := withPolicy(expo(3), func(p *Policy) { p.MaxElapsed = 500 * ms })
	ev, obs := recorder()
	l := NewLoop(p, nil, b, nil, obs)
	step := l.Start(t0)
	if !errors.Is(step.Err, ErrMaxElapsed) {
		t.Fatalf("Start = %+v, want ErrMaxElapsed", step)
	}
	if got := traceEvents(*ev); got[0] != "done at 0s after 0: core: max elapsed time reached after 0 attempts (bucket wait 1s would end past max elapsed 500ms (0s used))" {
		t.Fatalf("events %q", got)
	}
	if tok := b.TokensAt(t0); tok != 0 {
		t.Fatalf("the reservation was not given back: %v tokens", tok)
	}
}

// TestLoopHorizon: a wait that would end past the horizon a driver set
// stops the job before it starts, with ErrHorizon, as MaxElapsed does (no
// EventWait, the bucket and budget tokens given back); one ending at the
// horizon is waited; with no horizon (core.Do's clocks) any wait is, even
// the longest Duration an uncapped backoff reaches.
func TestLoopHorizon(t *testing.T) {
	uncapped := Policy{Backoff: Backoff{Strategy: Exponential, Base: time.Hour, Multiplier: 10}, MaxAttempts: 7}
	// uncapped's seven tries, each wait ten times the last.
	sevenTries := []string{
		"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 10h for 2 at 0s",
		"attempt 2 at 10h", "outcome 2 at 10h: 503", "wait backoff 100h for 3 at 10h",
		"attempt 3 at 110h", "outcome 3 at 110h: 503", "wait backoff 1000h for 4 at 110h",
		"attempt 4 at 1110h", "outcome 4 at 1110h: 503", "wait backoff 10000h for 5 at 1110h",
		"attempt 5 at 11110h", "outcome 5 at 11110h: 503", "wait backoff 100000h for 6 at 11110h",
		"attempt 6 at 111110h", "outcome 6 at 111110h: 503", "wait backoff 1000000h for 7 at 111110h",
		"attempt 7 at 1111110h", "outcome 7 at 1111110h: 503",
	}
	tests := []struct {
		name    string
		p       Policy
		horizon time.Duration // after t0; 0: none
		bucket  bool          // a drained bucket of one token a second
		want    []string
	}{
		{"a wait past the horizon stops the job", expo(10), time.Second, false, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 503", "wait backoff 400ms for 3 at 200ms",
			"attempt 3 at 600ms", "outcome 3 at 600ms: 503",
			"done at 600ms after 3: core: horizon reached after 3 attempts: http status 503 (backoff wait 800ms would end past the horizon, 400ms away)",
		}},
		{"a wait ending at the horizon is waited", expo(3), 600 * ms, false, []string{
			"attempt 1 at 0s", "outcome 1 at 0s: 503", "wait backoff 200ms for 2 at 0s",
			"attempt 2 at 200ms", "outcome 2 at 200ms: 503", "wait backoff 400ms for 3 at 200ms",
			"attempt 3 at 600ms", "outcome 3 at 600ms: 503",
			"done at 600ms after 3: core: attempts exhausted after 3 attempts: http status 503 (max attempts 3 reached)",
		}},
		{"a bucket wait past the horizon stops the job", expo(3), 500 * ms, true, []string{
			"done at 0s after 0: core: horizon reached after 0 attempts (bucket wait 1s would end past the horizon, 500ms away)",
		}},
		// The eighth wait saturates: its note says it is over the largest
		// Duration, as a Retry-After's does; it said the largest Duration
		// as the wait chosen (a review).
		{"a saturated wait past the horizon", Policy{Backoff: uncapped.Backoff, MaxAttempts: 30}, 1111110*time.Hour + time.Minute, false, append(sevenTries[:len(sevenTries):len(sevenTries)],
			"done at 1111110h after 7: core: horizon reached after 7 attempts: http status 503 (backoff wait over 2562047h47m16.854775807s would end past the horizon, 1m away)",
		)},
		{"no horizon: a century is waited", uncapped, 0, false, append(sevenTries[:len(sevenTries):len(sevenTries)],
			"done at 1111110h after 7: core: attempts exhausted after 7 attempts: http status 503 (max attempts 7 reached)",
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bucket *Bucket
			if tt.bucket {
				bucket, _ = NewBucket(1, 1)
				bucket.AllowAt(t0)
			}
			budget, _ := NewBudget(10, 0)
			ev, obs := recorder()
			l := NewLoop(tt.p, nil, bucket, budget, obs)
			if tt.horizon > 0 {
				l.SetHorizon(at(tt.horizon))
			}
			_, got := drive(t, l, ev, 0, 0, status(503))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("events:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			if bucket != nil && bucket.TokensAt(t0) != 0 {
				t.Errorf("the bucket token was not given back: %v tokens", bucket.TokensAt(t0))
			}
			if retries := strings.Count(strings.Join(got, "\n"), "attempt ") - 1; budget.Tokens() != float64(10-max(retries, 0)) {
				t.Errorf("budget %v tokens after %d retries: a token spent on a retry never sent", budget.Tokens(), retries)
			}
		})
	}
}

func TestLoopBudget(t *testing.T) {
	budget, _ := NewBudget(2, 0.5)
	run := func(outcomes ...Outcome) error {
		t.Helper()
		ev, obs := recorder()
		final, _ := drive(t, NewLoop(expo(10), nil, nil, budget, obs), ev, 0, 0, outcomes...)
		return final.Err
	}
	if err := run(status(503), status(503), status(200)); err != nil { // spends 2, refills 0.5
		t.Fatal(err)
	}
	if got := budget.Tokens(); got != 0.5 {
		t.Fatalf("tokens %v, want 0.5", got)
	}
	if err := run(status(503)); !errors.Is(err, ErrBudgetEmpty) {
		t.Fatalf("err %v, want ErrBudgetEmpty", err)
	}
	run(status(200)) // first attempts need no token; success refills
	if got := budget.Tokens(); got != 1 {
		t.Fatalf("tokens %v, want 1", got)
	}
	if err := run(status(503), status(200)); err != nil {
		t.Fatal(err)
	}
}

func TestLoopCancel(t *testing.T) {
	t.Run("during a retry wait", func(t *testing.T) {
		ev, obs := recorder()
		l := NewLoop(expo(3), nil, nil, nil, obs)
		l.Start(t0)
		l.Begin(t0)
		l.End(at(10*ms), status(503))
		step := l.Cancel(at(50*ms), nil)
		if !errors.Is(step.Err, ErrCancelled) || !errors.Is(step.Err, context.Canceled) {
			t.Fatalf("Cancel = %v", step.Err)
		}
		if got := step.Err.Error(); got != "core: cancelled after 1 attempt: context canceled; last error: http status 503" {
			t.Fatalf("error %q", got)
		}
		if again := l.Cancel(at(60*ms), nil); again != step {
			t.Fatalf("second Cancel = %+v", again)
		}
		if n := len(*ev); n != 4 {
			t.Fatalf("%d events, want 4 (nothing after done)", n)
		}
	})
	t.Run("during a bucket wait gives the token back", func(t *testing.T) {
		b, _ := NewBucket(1, 1)
		b.AllowAt(t0)
		l := NewLoop(expo(3), nil, b, nil, nil)
		if s := l.Start(t0); s.Reason != ReasonBucket {
			t.Fatalf("Start = %+v", s)
		}
		l.Cancel(at(300*ms), context.DeadlineExceeded)
		if tok := b.TokensAt(at(300 * ms)); tok < 0.3-1e-9 || tok > 0.3+1e-9 {
			t.Fatalf("tokens %v, want 0.3", tok)
		}
	})
	t.Run("with a cause", func(t *testing.T) {
		cause := errors.New("user pressed stop")
		l := NewLoop(expo(3), nil, nil, nil, nil)
		l.Start(t0)
		err := l.Cancel(t0, cause).Err
		if !errors.Is(err, cause) || err.Error() != "core: cancelled after 0 attempts: user pressed stop" {
			t.Fatalf("err %v", err)
		}
	})
}

func TestLoopCallsAfterDoneReturnTheFinalStep(t *testing.T) {
	ev, obs := recorder()
	l := NewLoop(expo(1), nil, nil, nil, obs)
	l.Start(t0)
	l.Begin(t0)
	final := l.End(t0, status(200))
	events := len(*ev)
	for _, s := range []Step{l.Start(t0), l.Woke(t0), l.End(t0, status(500)), l.Cancel(t0, nil)} {
		if s != final {
			t.Fatalf("after done: %+v, want %+v", s, final)
		}
	}
	if n := l.Begin(t0); n != 1 {
		t.Fatalf("Begin after done = %d, want 1 (the attempts begun)", n)
	}
	if len(*ev) != events || l.Attempts() != 1 {
		t.Fatalf("after done: %d events (want %d), %d attempts (want 1)", len(*ev), events, l.Attempts())
	}
}

// TestLoopBeginAfterCancel: a driver that checks its context, cancels, and
// then goes on to Begin the attempt it was told to make gets no panic, no
// attempt and no event; End then returns the final step.
func TestLoopBeginAfterCancel(t *testing.T) {
	ev, obs := recorder()
	l := NewLoop(expo(3), nil, nil, nil, obs)
	if s := l.Start(t0); s.Action != ActAttempt {
		t.Fatalf("Start = %+v", s)
	}
	final := l.Cancel(t0, nil)
	if n := l.Begin(t0); n != 0 {
		t.Fatalf("Begin after Cancel = %d, want 0", n)
	}
	if s := l.End(t0, status(200)); s != final {
		t.Fatalf("End after Cancel = %+v, want %+v", s, final)
	}
	if got := traceEvents(*ev); len(got) != 1 || !strings.HasPrefix(got[0], "done at 0s after 0") {
		t.Fatalf("events %q, want only the done event", got)
	}
}

func TestLoopMisusePanics(t *testing.T) {
	for name, f := range map[string]func(l *Loop){
		"Begin before Start": func(l *Loop) { l.Begin(t0) },
		"Woke while ready":   func(l *Loop) { l.Start(t0); l.Woke(t0) },
		"End while ready":    func(l *Loop) { l.Start(t0); l.End(t0, status(200)) },
		"Start twice":        func(l *Loop) { l.Start(t0); l.Start(t0) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "core: Loop.") {
					t.Fatalf("recovered %v", r)
				}
			}()
			f(NewLoop(expo(2), nil, nil, nil, nil))
		})
	}
}

// TestLoopSeededRunsAreReproducible: two loops with the same seed make the
// same decisions.
func TestLoopSeededRunsAreReproducible(t *testing.T) {
	p := withPolicy(expo(8), func(p *Policy) { p.Backoff.Strategy = DecorrelatedJitter; p.RetryAfter = true; p.Spread = s })
	outcomes := []Outcome{status(503), status(429, "Retry-After", "1"), status(503), status(500), status(200)}
	var runs [2][]string
	for i := range runs {
		ev, obs := recorder()
		_, runs[i] = drive(t, NewLoop(p, NewRand(SubSeed(99, 3, 1)), nil, nil, obs), ev, 5*ms, 0, outcomes...)
	}
	if strings.Join(runs[0], "\n") != strings.Join(runs[1], "\n") {
		t.Fatalf("runs differ:\n%v\n%v", runs[0], runs[1])
	}
}

func TestPolicyValidate(t *testing.T) {
	tests := []struct {
		p    Policy
		want string
	}{
		{DefaultPolicy(), ""},
		{withPolicy(DefaultPolicy(), func(p *Policy) { p.Backoff.Base = 0 }), "core: backoff base 0s: must be between 1ms and 1h"},
		{withPolicy(DefaultPolicy(), func(p *Policy) { p.MaxAttempts = 1001 }), "core: policy max attempts 1001: must be between 1 and 1000"},
		{withPolicy(DefaultPolicy(), func(p *Policy) { p.MaxElapsed = -s }), "core: policy max elapsed -1s: must be between 0s and 24h"},
		{withPolicy(DefaultPolicy(), func(p *Policy) { p.Ceiling = 48 * time.Hour }), "core: policy ceiling 48h: must be between 0s and 24h"},
		{withPolicy(DefaultPolicy(), func(p *Policy) { p.AboveCeiling = 2 }), "core: policy above-ceiling action 2"},
		{withPolicy(DefaultPolicy(), func(p *Policy) { p.Spread = 2 * time.Minute }), "core: policy spread 2m: must be between 0s and 1m"},
	}
	for _, tt := range tests {
		wantErr(t, tt.p.Validate(), tt.want)
	}
}

func TestDefaultRetryable(t *testing.T) {
	for _, tt := range []struct {
		o    Outcome
		want bool
	}{
		{Outcome{Status: 200}, false},
		{Outcome{Status: 404}, false},
		{Outcome{Status: 408}, false},
		{Outcome{Status: 429}, true},
		{Outcome{Status: 500}, true},
		{Outcome{Status: 501}, false}, // Not Implemented: a retry will not change it
		{Outcome{Status: 502}, true},
		{Outcome{Status: 503}, true},
		{Outcome{Status: 504}, true},
		{Outcome{Status: 505}, false}, // HTTP Version Not Supported
		{Outcome{Status: 599}, true},
		{Outcome{Err: io.EOF}, true},
		{Outcome{Err: context.DeadlineExceeded}, true},
		{Outcome{Err: fmt.Errorf("abort: %w", context.Canceled)}, false},
	} {
		if got := DefaultRetryable(tt.o); got != tt.want {
			t.Errorf("DefaultRetryable(%+v) = %v", tt.o, got)
		}
	}
}

func TestNames(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{ReasonBackoff.String(), "backoff"}, {ReasonRetryAfter.String(), "retry-after"},
		{ReasonResetHint.String(), "reset-hint"}, {ReasonBucket.String(), "bucket"},
		{EventAttempt.String(), "attempt"}, {EventOutcome.String(), "outcome"},
		{EventWait.String(), "wait"}, {EventDone.String(), "done"},
		{ActAttempt.String(), "attempt"}, {ActWait.String(), "wait"}, {ActDone.String(), "done"},
		{CeilingClamp.String(), "clamp"}, {CeilingStop.String(), "stop"},
		{Reason(9).String(), "Reason(9)"}, {EventKind(9).String(), "EventKind(9)"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	for _, a := range []CeilingAction{CeilingClamp, CeilingStop} {
		if got, err := ParseCeilingAction(a.String()); err != nil || got != a {
			t.Errorf("ParseCeilingAction(%q) = %v, %v", a, got, err)
		}
	}
	_, err := ParseCeilingAction("wait")
	wantErr(t, err, `core: ceiling action "wait": must be clamp or stop`)
}

// TestLoopGivesBackUnusedTokens: a bucket token reserved for an attempt
// and a budget token spent on a retry are given back when the attempt is
// never sent.
func TestLoopGivesBackUnusedTokens(t *testing.T) {
	t.Run("retry dropped for a bucket wait past max elapsed", func(t *testing.T) {
		bucket, _ := NewBucket(0.1, 1)
		budget, _ := NewBudget(5, 0)
		p := withPolicy(expo(3), func(p *Policy) { p.MaxElapsed = 5 * s })
		ev, obs := recorder()
		final, got := drive(t, NewLoop(p, nil, bucket, budget, obs), ev, 0, 0, status(503))
		if !errors.Is(final.Err, ErrMaxElapsed) {
			t.Fatalf("final %v, want ErrMaxElapsed; events %q", final.Err, got)
		}
		if n := strings.Count(strings.Join(got, "\n"), "attempt "); n != 1 {
			t.Fatalf("%d attempts, want 1; events %q", n, got)
		}
		if tok := budget.Tokens(); tok != 5 {
			t.Fatalf("budget %v tokens, want 5 (no retry was sent)", tok)
		}
	})
	t.Run("cancel while ready gives the bucket token back", func(t *testing.T) {
		bucket, _ := NewBucket(1, 1)
		l := NewLoop(expo(3), nil, bucket, nil, nil)
		if s := l.Start(t0); s.Action != ActAttempt {
			t.Fatalf("Start = %+v", s)
		}
		if tok := bucket.TokensAt(t0); tok != 0 {
			t.Fatalf("after Start %v tokens, want 0", tok)
		}
		l.Cancel(t0, nil)
		if tok := bucket.TokensAt(t0); tok != 1 {
			t.Fatalf("after Cancel %v tokens, want 1", tok)
		}
	})
	t.Run("cancel while ready after a bucket wait", func(t *testing.T) {
		bucket, _ := NewBucket(1, 1)
		bucket.AllowAt(t0)
		l := NewLoop(expo(3), nil, bucket, nil, nil)
		if step := l.Start(t0); step.Reason != ReasonBucket || step.Wait != time.Second {
			t.Fatalf("Start = %+v, want a 1s bucket wait", step)
		}
		if step := l.Woke(at(time.Second)); step.Action != ActAttempt {
			t.Fatalf("Woke = %+v", step)
		}
		l.Cancel(at(time.Second), nil)
		if tok := bucket.TokensAt(at(time.Second)); tok != 1 {
			t.Fatalf("after Cancel %v tokens, want 1", tok)
		}
	})
	t.Run("cancel during a retry wait gives the budget token back", func(t *testing.T) {
		budget, _ := NewBudget(5, 0)
		l := NewLoop(expo(3), nil, nil, budget, nil)
		l.Start(t0)
		l.Begin(t0)
		if s := l.End(t0, status(503)); s.Action != ActWait {
			t.Fatalf("End = %+v", s)
		}
		if tok := budget.Tokens(); tok != 4 {
			t.Fatalf("during the retry wait %v tokens, want 4", tok)
		}
		l.Cancel(at(50*ms), nil)
		if tok := budget.Tokens(); tok != 5 {
			t.Fatalf("after Cancel %v tokens, want 5", tok)
		}
	})
	t.Run("a sent retry keeps its tokens", func(t *testing.T) {
		bucket, _ := NewBucket(1, 2)
		budget, _ := NewBudget(5, 0)
		l := NewLoop(expo(3), nil, bucket, budget, nil)
		l.Start(t0)
		l.Begin(t0)
		if step := l.End(t0, status(503)); step.Wait != 200*ms {
			t.Fatalf("End = %+v, want a 200ms retry wait", step)
		}
		if step := l.Woke(at(200 * ms)); step.Action != ActAttempt {
			t.Fatalf("Woke = %+v", step)
		}
		l.Begin(at(200 * ms))
		l.Cancel(at(200*ms), nil) // with the retry in flight
		if tok := budget.Tokens(); tok != 4 {
			t.Fatalf("budget %v tokens, want 4", tok)
		}
		if tok := bucket.TokensAt(at(200 * ms)); tok > 0.2+1e-9 || tok < 0.2-1e-9 {
			t.Fatalf("bucket %v tokens, want 0.2", tok)
		}
	})
}

// A job started after it was due has its first attempt intended at due:
// the delay is the send's lateness. A due after the start changes nothing,
// nor does one with a bucket wait first (the wait starts at Start), but
// that wait's event tells when the job was due (its Intended), so a job's
// completion time counts from then (fleet.Stats).
func TestLoopDue(t *testing.T) {
	for _, c := range []struct {
		name         string
		due, started time.Duration // from t0
		bucket       bool
		intended     time.Duration
	}{
		{"started late", 0, 40 * ms, false, 0},
		{"started on time", 40 * ms, 40 * ms, false, 40 * ms},
		{"due later than the start", 50 * ms, 40 * ms, false, 40 * ms},
		{"no due", -1, 40 * ms, false, 40 * ms},
		{"a bucket wait first", 0, 40 * ms, true, 40*ms + 100*ms},
		{"a bucket wait first, on time", 40 * ms, 40 * ms, true, 40*ms + 100*ms},
	} {
		var b *Bucket
		if c.bucket {
			b, _ = NewBucket(10, 1)
			b.ReserveAt(t0.Add(c.started)) // empty: the next token in 100 ms
		}
		ev, obs := recorder()
		l := NewLoop(expo(3), nil, b, nil, obs)
		if c.due >= 0 {
			l.SetDue(t0.Add(c.due))
		}
		now := t0.Add(c.started)
		step := l.Start(now)
		if step.Action == ActWait {
			var due time.Time // on time: none
			if c.due >= 0 && c.due < c.started {
				due = t0.Add(c.due)
			}
			if w := (*ev)[0]; w.Kind != EventWait || !w.Intended.Equal(due) {
				t.Errorf("%s: bucket wait %+v: want its Intended %v, when the job was due if that was before its start", c.name, w, due)
			}
			now = now.Add(step.Wait)
			step = l.Woke(now)
		}
		if step.Action != ActAttempt {
			t.Fatalf("%s: %+v", c.name, step)
		}
		l.Begin(now)
		last := (*ev)[len(*ev)-1]
		if last.Kind != EventAttempt || !last.Intended.Equal(t0.Add(c.intended)) || !last.At.Equal(now) {
			t.Errorf("%s: attempt at %v intended %v, want intended %v", c.name, last.At.Sub(t0), last.Intended.Sub(t0), c.intended)
		}
	}
}

// An error marked Permanent is not retried by the default rule; the mark
// is transparent to errors.Is and errors.As, and Permanent(nil) is nil. A
// review found every error but cancellation retried, an unsupported
// scheme or a refused certificate included, with no way to say otherwise
// but a Retryable func of one's own.
func TestPermanentErrorsAreNotRetried(t *testing.T) {
	base := errors.New("unsupported protocol scheme")
	for _, c := range []struct {
		err   error
		retry bool
	}{
		{base, true},
		{Permanent(base), false},
		{fmt.Errorf("get: %w", Permanent(base)), false},
		{Permanent(context.DeadlineExceeded), false},
		{context.DeadlineExceeded, true},
		{context.Canceled, false},
	} {
		if got := DefaultRetryable(Outcome{Err: c.err}); got != c.retry {
			t.Errorf("%v: retryable %v, want %v", c.err, got, c.retry)
		}
	}
	p := Permanent(base)
	if !errors.Is(p, base) || p.Error() != base.Error() || !IsPermanent(p) || IsPermanent(base) || Permanent(nil) != nil {
		t.Errorf("the mark is not transparent: %v", p)
	}
}
