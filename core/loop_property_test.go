package core

import (
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"time"
)

// TestLoopRandomRunsKeepInvariants drives many loops with random valid
// policies, buckets, budgets and server replies, and checks what must hold
// whatever happens: events follow the protocol, waits are never negative,
// attempts never exceed MaxAttempts, no wait ends past MaxElapsed, clamped
// server waits stay within Ceiling + Spread, and the job ends exactly once
// with nil only after a success.
func TestLoopRandomRunsKeepInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	retryAfters := []string{"", "", "0", "1", "2", "30", "120", "abc", "1.5", "-1", "9999999999", "99999999999999999999",
		"Fri, 31 Dec 1999 23:59:59 GMT", at(3 * s).Format("Mon, 02 Jan 2006 15:04:05 GMT")}
	rateLimits := []string{"", `"d";r=0;t=4`, `"d";r=5;t=4`, `"d";r=-1`, `"d";r=0;t=600`}
	for run := 0; run < 3000; run++ {
		p := Policy{
			Backoff: Backoff{
				Strategy:   Strategy(r.IntN(len(strategyNames))), // every strategy, a new one too
				Base:       time.Duration(1+r.IntN(500)) * ms,
				Multiplier: 1 + 3*r.Float64(),
			},
			MaxAttempts:   1 + r.IntN(8),
			RetryAfter:    r.IntN(2) == 0,
			UseResetHints: r.IntN(2) == 0,
			AboveCeiling:  CeilingAction(r.IntN(2)),
		}
		if r.IntN(2) == 0 {
			p.Backoff.Cap = p.Backoff.Base * time.Duration(1+r.IntN(50))
		}
		if r.IntN(2) == 0 {
			p.MaxElapsed = time.Duration(1+r.IntN(20)) * s
		}
		if r.IntN(2) == 0 {
			p.Ceiling = time.Duration(1+r.IntN(60)) * s
		}
		if r.IntN(2) == 0 {
			p.Spread = time.Duration(r.IntN(1000)) * ms
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		var bucket *Bucket
		if r.IntN(3) == 0 {
			bucket, _ = NewBucket(0.5+5*r.Float64(), float64(1+r.IntN(3)))
		}
		var budget *Budget
		if r.IntN(3) == 0 {
			budget, _ = NewBudget(float64(1+r.IntN(4)), r.Float64())
		}
		var evs []Event
		l := NewLoop(p, NewPCG(uint64(run)), bucket, budget, func(e Event) { evs = append(evs, e) })

		now := t0
		step := l.Start(now)
		var last Outcome
		for guard := 0; step.Action != ActDone; guard++ {
			if guard > 100 {
				t.Fatalf("run %d: loop does not end", run)
			}
			switch step.Action {
			case ActWait:
				if step.Wait < 0 {
					t.Fatalf("run %d: negative wait %v", run, step.Wait)
				}
				late := time.Duration(r.IntN(3)) * ms
				now = now.Add(min(step.Wait, maxDuration-late) + late) // a saturated wait stays one
				step = l.Woke(now)
			case ActAttempt:
				l.Begin(now)
				now = now.Add(time.Duration(r.IntN(300)) * ms)
				h := hdr{"Retry-After": retryAfters[r.IntN(len(retryAfters))], "RateLimit": rateLimits[r.IntN(len(rateLimits))]}
				last = []Outcome{
					{Status: 200}, {Status: 429, Header: h}, {Status: 503, Header: h},
					{Status: 500}, {Status: 404}, {Err: io.ErrUnexpectedEOF},
				}[r.IntN(6)]
				step = l.End(now, last)
			}
		}
		checkEvents(t, run, p, evs, last, step.Err)
	}
}

func checkEvents(t *testing.T, run int, p Policy, evs []Event, last Outcome, final error) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("run %d (%+v): "+format+"\n%s", append([]any{run, p}, append(args, traceEventsString(evs))...)...)
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != EventDone {
		fail("does not end with EventDone")
	}
	start := t0
	attempts := 0
	inFlight := false
	for i, e := range evs {
		if i > 0 && e.At.Before(evs[i-1].At) {
			fail("event %d goes back in time", i)
		}
		switch e.Kind {
		case EventAttempt:
			if inFlight {
				fail("attempt while one is in flight")
			}
			attempts++
			inFlight = true
			if e.Attempt != attempts || e.Intended.After(e.At) {
				fail("attempt %d: number %d, intended %v after %v", attempts, e.Attempt, e.Intended, e.At)
			}
		case EventOutcome:
			if !inFlight || e.Attempt != attempts {
				fail("outcome without an attempt")
			}
			inFlight = false
		case EventWait:
			if inFlight || e.Wait < 0 || e.Attempt != attempts+1 {
				fail("bad wait %+v", e)
			}
			if p.MaxElapsed > 0 && e.At.Add(e.Wait).Sub(start) > p.MaxElapsed {
				fail("wait %v from %v ends past max elapsed %v", e.Wait, e.At.Sub(start), p.MaxElapsed)
			}
			if (e.Reason == ReasonRetryAfter || e.Reason == ReasonResetHint) && p.Ceiling > 0 && e.Wait > p.Ceiling+p.Spread {
				fail("server wait %v above ceiling %v + spread %v", e.Wait, p.Ceiling, p.Spread)
			}
		case EventDone:
			if i != len(evs)-1 {
				fail("EventDone before the end")
			}
			if e.Err != final {
				fail("EventDone error %v, Step error %v", e.Err, final)
			}
		}
	}
	if attempts > p.MaxAttempts {
		fail("%d attempts > max %d", attempts, p.MaxAttempts)
	}
	succeeded := attempts > 0 && last.Status == 200
	if (final == nil) != succeeded {
		fail("final error %v after last outcome %+v", final, last)
	}
	var se *StopError
	if final != nil && (!errors.As(final, &se) || se.Attempts != attempts) {
		fail("final error %v is not a *StopError with %d attempts", final, attempts)
	}
}

func traceEventsString(evs []Event) string {
	out := ""
	for _, line := range traceEvents(evs) {
		out += "\t" + line + "\n"
	}
	return out
}
