package endpoint

import (
	"testing"
	"time"

	"retrylab/core"
)

var t0 = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

// Config.Decide at t0, with a token bucket of 2 (a token a second) that
// has admitted used requests before: an outage first, then the failure
// roll, both only consulting the limiter; otherwise the limiter decides.
func TestDecide(t *testing.T) {
	e := Config{Status: 503, Fail500: 10, Fail503: 10, Drop: 10, Hang: 10}
	bucket := core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 1, Burst: 2}
	until := t0.Add(3500 * time.Millisecond)
	full := core.Decision{Limit: 2, Remaining: 2} // Peek of a full bucket
	tests := []struct {
		name    string
		used    int  // requests the bucket admitted before
		noLimit bool // a nil limiter
		down    bool // until until
		fail    float64
		want    Verdict
		counted bool // the bucket took a token for it
	}{
		{"admitted", 0, false, false, 0.5, Verdict{OutcomeOK, 200, core.Decision{Allowed: true, Limit: 2, Remaining: 1, Reset: time.Second}}, true},
		{"rejected: the endpoint's status", 2, false, false, 0.5,
			Verdict{OutcomeLimited, 503, core.Decision{Limit: 2, Reset: 2 * time.Second, RetryAfter: time.Second}}, false},
		{"fail500", 0, false, false, 0, Verdict{OutcomeFail500, 500, full}, false},
		{"fail503", 0, false, false, 0.1, Verdict{OutcomeFail503, 503, full}, false},
		{"drop", 0, false, false, 0.2, Verdict{OutcomeDrop, 0, full}, false},
		{"hang", 0, false, false, 0.3999, Verdict{OutcomeHang, 0, full}, false},
		{"past the failures", 0, false, false, 0.4, Verdict{OutcomeOK, 200, core.Decision{Allowed: true, Limit: 2, Remaining: 1, Reset: time.Second}}, true},
		{"a failure over a rejection", 2, false, false, 0, Verdict{OutcomeFail500, 500, core.Decision{Limit: 2, Reset: 2 * time.Second, RetryAfter: time.Second}}, false},
		{"outage: no failure roll, a wait until its end", 0, false, true, 0,
			Verdict{OutcomeOutage, 503, core.Decision{Limit: 2, Remaining: 2, RetryAfter: 3500 * time.Millisecond}}, false},
		{"outage over an empty bucket", 2, false, true, 0.5,
			Verdict{OutcomeOutage, 503, core.Decision{Limit: 2, Reset: 2 * time.Second, RetryAfter: 3500 * time.Millisecond}}, false},
		{"no limiter", 0, true, false, 0.5, Verdict{OutcomeOK, 200, core.Decision{Allowed: true}}, false},
		{"no limiter, a failure", 0, true, false, 0.3, Verdict{OutcomeHang, 0, core.Decision{}}, false},
		{"no limiter, an outage", 0, true, true, 0.5, Verdict{OutcomeOutage, 503, core.Decision{RetryAfter: 3500 * time.Millisecond}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := core.NewLimiter(bucket, t0)
			for range tt.used {
				lim.Decide(t0)
			}
			var l *core.Limiter
			if !tt.noLimit {
				l = lim
			}
			got := e.Decide(t0, tt.down, until, tt.fail, l)
			if got != tt.want {
				t.Errorf("Decide = %+v\nwant       %+v", got, tt.want)
			}
			left := 2 - tt.used
			if tt.counted {
				left--
			}
			if rem := lim.Peek(t0).Remaining; rem != left {
				t.Errorf("the bucket has %d left, want %d (counted: %v)", rem, left, tt.counted)
			}
		})
	}
}

// Retry-After goes with a rejection and an outage's 503, not with an
// injected failure (whose verdict still carries the limiter's Peek, for the
// rate-limit headers) nor a success.
func TestOutcomeSendsRetryAfter(t *testing.T) {
	table := map[Outcome]bool{
		OutcomeOK: false, OutcomeLimited: true, OutcomeFail500: false, OutcomeFail503: false,
		OutcomeDrop: false, OutcomeHang: false, OutcomeOutage: true, Outcome(len(outcomeNames)): false,
	}
	if len(table) != len(outcomeNames)+1 {
		t.Fatalf("the table has %d outcomes; there are %d and an invalid one", len(table), len(outcomeNames))
	}
	for o, want := range table {
		if got := o.SendsRetryAfter(); got != want {
			t.Errorf("%v.SendsRetryAfter() = %v, want %v", o, got, want)
		}
	}
}

// A Config's Status 0 is 429.
func TestDecideStatusZero(t *testing.T) {
	lim := core.NewLimiter(core.LimiterConfig{Kind: core.LimitFixedWindow, Limit: 1, Window: time.Second}, t0)
	e := Config{}
	if v := e.Decide(t0, false, time.Time{}, 0, lim); v.Outcome != OutcomeOK || v.Status != 200 {
		t.Errorf("first: %+v, want ok 200", v)
	}
	if v := e.Decide(t0, false, time.Time{}, 0, lim); v.Outcome != OutcomeLimited || v.Status != 429 {
		t.Errorf("second: %+v, want limited 429", v)
	}
}

func TestDelay(t *testing.T) {
	e := Config{Latency: 50 * time.Millisecond, Spread: time.Second}
	for _, tt := range []struct {
		spread float64
		want   time.Duration
	}{{0, 50 * time.Millisecond}, {0.25, 300 * time.Millisecond}, {0.999, 1049 * time.Millisecond}} {
		if got := e.Delay(tt.spread); got != tt.want {
			t.Errorf("Delay(%v) = %v, want %v", tt.spread, got, tt.want)
		}
	}
	if got := (&Config{Latency: time.Second}).Delay(0.7); got != time.Second {
		t.Errorf("no spread: Delay = %v, want the latency", got)
	}
}

func TestOutcomeString(t *testing.T) {
	want := []string{"ok", "limited", "fail500", "fail503", "drop", "hang", "outage", "invalid(7)"}
	for o := OutcomeOK; int(o) < len(want); o++ {
		if o.String() != want[o] {
			t.Errorf("Outcome(%d) = %q, want %q", o, o.String(), want[o])
		}
	}
}

// AppendRetryAfter at 10:00:00.250, for a rejection 1.2 s from a request
// being allowed.
func TestAppendRetryAfter(t *testing.T) {
	now := t0.Add(250 * time.Millisecond)
	d := core.Decision{RetryAfter: 1200 * time.Millisecond}
	for _, tt := range []struct {
		mode RetryAfterMode
		want string
		ok   bool
	}{
		{RetryAfterNone, "", false},
		{RetryAfterSeconds, "2", true},
		{RetryAfterDate, "Sun, 29 Nov 2026 10:00:02 GMT", true},
		{RetryAfterFixed, "7", true},
		{RetryAfterFixed + 1, "", false},
	} {
		b, ok := AppendRetryAfter([]byte("x"), tt.mode, 7, d, now)
		if string(b) != "x"+tt.want || ok != tt.ok {
			t.Errorf("mode %d: %q, %v; want %q, %v", tt.mode, b, ok, "x"+tt.want, tt.ok)
		}
	}
}
