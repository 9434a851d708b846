package fleet

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// fixedRand draws u every time.
type fixedRand float64

func (u fixedRand) Float64() float64 { return float64(u) }

// A help line that states a fact the code decides is held to the code:
// each case names the words of the line and checks them against core (or
// a simulation). The strategy's line named no formula, so a learner who
// had never heard of decorrelated jitter learnt nothing from it; Max
// elapsed's said a job gives up "once this long has passed", where core
// stops it before any wait that would end past the limit (a job with 1 s
// and a 2 s backoff gives up at its first failure); Cap's said "jitter is
// drawn under it", where decorrelated jitter's draws past it wait exactly
// the cap; Server outage's promised a Retry-After the endpoint does not
// send when Retry-After sent is None.
func TestHelpLinesTellWhatTheCodeDoes(t *testing.T) {
	const base, capD = 100 * time.Millisecond, 10 * time.Second
	b := func(st core.Strategy) core.Backoff {
		return core.Backoff{Strategy: st, Base: base, Multiplier: 2, Cap: capD}
	}
	t3 := 800 * time.Millisecond // base × 2³, under the cap
	t0 := time.Unix(1000, 0)
	// loop runs one job to its first failure (a 429 with Retry-After ra,
	// "" for none) 10 ms after it started and returns the step after it.
	loop := func(p core.Policy, bucket *core.Bucket, rng core.Rand, ras ...string) (core.Step, []time.Duration) {
		l := core.NewLoop(p, rng, bucket, nil, nil)
		now, step := t0, l.Start(t0)
		var waits []time.Duration
		for _, ra := range ras {
			if step.Action == core.ActWait {
				return step, waits
			}
			l.Begin(now)
			now = now.Add(10 * time.Millisecond)
			h := http.Header{}
			if ra != "" {
				h.Set("Retry-After", ra)
			}
			step = l.End(now, core.Outcome{Status: 429, Header: h})
			if step.Action != core.ActWait {
				return step, waits
			}
			waits = append(waits, step.Wait)
			now = now.Add(step.Wait)
			step = l.Woke(now)
		}
		return step, waits
	}
	for _, c := range []struct {
		key   string
		words []string
		check func() error
	}{
		{"strategy", []string{"exponential waits t"}, func() error {
			return want(b(core.Exponential).Delay(3, 0, 0.5), t3)
		}},
		{"strategy", []string{"full jitter a random 0…t"}, func() error {
			return errors.Join(want(b(core.FullJitter).Delay(3, 0, 0), 0), want(b(core.FullJitter).Delay(3, 0, 1), t3))
		}},
		{"strategy", []string{"equal jitter t/2 plus a random 0…t/2"}, func() error {
			return errors.Join(want(b(core.EqualJitter).Delay(3, 0, 0), t3/2), want(b(core.EqualJitter).Delay(3, 0, 1), t3))
		}},
		{"strategy", []string{"t = base × multiplierⁿ after the n-th failure, up to the cap"}, func() error {
			return errors.Join(want(b(core.Exponential).Delay(1, 0, 0), 2*base), want(b(core.Exponential).Delay(20, 0, 0), capD))
		}},
		{"strategy", []string{"constant waits the base"}, func() error {
			return errors.Join(want(b(core.Constant).Delay(1, 0, 0.5), base), want(b(core.Constant).Delay(5, 0, 0.5), base))
		}},
		{"strategy", []string{"decorrelated a random base…3 × its last backoff wait (base at first), up to the cap"}, func() error {
			d := b(core.DecorrelatedJitter)
			errs := errors.Join(want(d.Delay(1, 0, 0), base), want(d.Delay(1, 0, 1), 3*base),
				want(d.Delay(4, time.Second, 0), base), want(d.Delay(4, time.Second, 1), 3*time.Second), want(d.Delay(4, 5*time.Second, 1), capD))
			// Its last backoff wait: a Retry-After wait in between does
			// not count. Backoff 300 ms (u = 1), Retry-After 5 s, then
			// backoff up to 3 × 300 ms, not 3 × 5 s.
			p := core.DefaultPolicy()
			p.Backoff, p.MaxAttempts = d, 10
			_, waits := loop(p, nil, fixedRand(1), "", "5", "")
			return errors.Join(errs, wantWaits(waits, 3*base, 5*time.Second, 9*base))
		}},
		{"cap", []string{"Full and equal jitter draw under it", "decorrelated draws past it wait exactly the cap"}, func() error {
			return errors.Join(want(b(core.FullJitter).Delay(30, 0, 1), capD), want(b(core.EqualJitter).Delay(30, 0, 0), capD/2),
				want(b(core.DecorrelatedJitter).Delay(5, 4*time.Second, 0.9), capD))
		}},
		{"elapsed", []string{"rather than start a wait (backoff, server, bucket) that would end more than this long after it started", "stop well before"}, func() error {
			p := core.DefaultPolicy()
			p.Backoff, p.MaxElapsed, p.RetryAfter = core.Backoff{Strategy: core.Constant, Base: 2 * time.Second}, time.Second, true
			var errs []error
			for _, ra := range []string{"", "2"} { // a backoff, a server-requested wait
				step, _ := loop(p, nil, nil, ra)
				if step.Action != core.ActDone || !errors.Is(step.Err, core.ErrMaxElapsed) {
					errs = append(errs, errors.New("after a 2 s wait's failure at 10 ms: "+step.Action.String()+", not a give-up for max elapsed"))
				}
			}
			bucket, _ := core.NewBucket(0.1, 1)
			bucket.ReserveAt(t0) // the next token is 10 s away
			if step := core.NewLoop(p, nil, bucket, nil, nil).Start(t0); !errors.Is(step.Err, core.ErrMaxElapsed) {
				errs = append(errs, errors.New("a 10 s bucket wait at the start: "+step.Action.String()+", not a give-up for max elapsed"))
			}
			return errors.Join(errs...)
		}},
		{"limiter", []string{"a fixed window resets all at once, so up to twice the limit passes around a boundary", "a sliding window never lets more than the limit through in any window's length"}, func() error {
			// 10 per second: 10 requests just before a boundary, 10 just after.
			passed := func(kind core.LimiterKind) int {
				l := core.NewLimiter(core.LimiterConfig{Kind: kind, Limit: 10, Window: time.Second}, t0)
				n := 0
				for i := range 20 {
					at := t0.Add(900 * time.Millisecond)
					if i >= 10 {
						at = t0.Add(1100 * time.Millisecond)
					}
					if l.Decide(at).Allowed {
						n++
					}
				}
				return n
			}
			var errs []error
			for kind, n := range map[core.LimiterKind]int{core.LimitFixedWindow: 20, core.LimitSlidingWindow: 10} {
				if got := passed(kind); got != n {
					errs = append(errs, errors.New(kind.String()+": "+strconv.Itoa(got)+" of 20 passed within 200 ms around a boundary, want "+strconv.Itoa(n)))
				}
			}
			return errors.Join(errs...)
		}},
		{"outage", []string{"503, with Retry-After as the endpoint sends it for the time left (the seconds left, the date it is back; a fixed value stays fixed; None sends none)"}, func() error {
			// 5 workers honouring it, down for the first 2 s: the first
			// answers are told 2 s.
			var errs []error
			for _, c := range []struct {
				query url.Values
				want  func(string) bool
			}{
				{url.Values{"retry_after": {"seconds"}}, func(v string) bool { return v == "2" || v == "1" }},
				{url.Values{"retry_after": {"date"}}, func(v string) bool { _, err := http.ParseTime(v); return err == nil }},
				{url.Values{"retry_after": {"fixed"}, "retry_value": {"9"}}, func(v string) bool { return v == "9" }},
				{url.Values{"retry_after": {"none"}}, func(v string) bool { return v == "" }},
			} {
				q := url.Values{"workers": {"5"}, "jobs": {"1"}, "outage": {"2s"}, "outage_at": {"0s"}, "ra_honour": {"on"}}
				for k, v := range c.query {
					q[k] = v
				}
				s, ferrs := FromQuery(q)
				if ferrs != nil {
					return ferrs[0]
				}
				n := 0
				for _, r := range Simulate(s).Records() {
					if o := r.Event.Outcome; r.Event.Kind == core.EventOutcome && o.Status == 503 {
						n++
						if v, _ := core.LookupHeader(o.Header, "Retry-After"); !c.want(v) {
							errs = append(errs, errors.New(c.query.Encode()+": an outage's 503 with Retry-After "+strconv.Quote(v)))
							break
						}
					}
				}
				if n == 0 {
					errs = append(errs, errors.New(c.query.Encode()+": no 503 in the outage"))
				}
			}
			return errors.Join(errs...)
		}},
		// It said only the timeout gets the worker out: with none, the
		// server's hang limit does (a learner's review).
		{"hang", []string{"the server closes the connection after " + strings.ReplaceAll(endpoint.DefaultHangLimit.String(), "1m0s", "60 s")}, func() error {
			s, ferrs := FromQuery(url.Values{"workers": {"1"}, "jobs": {"1"}, "hang": {"100"}, "timeout": {"0s"}, "attempts": {"2"}, "strategy": {"constant"}, "base": {"1s"}})
			if ferrs != nil {
				return ferrs[0]
			}
			var sent []time.Duration
			rec := Simulate(s)
			for _, r := range rec.Records() {
				if r.Event.Kind == core.EventAttempt {
					sent = append(sent, r.Event.At.Sub(rec.Start))
				}
			}
			if len(sent) != 2 || sent[1] != endpoint.DefaultHangLimit+time.Second {
				return errors.New("attempts sent at " + durs(sent) + ", want 0s and " + (endpoint.DefaultHangLimit + time.Second).String())
			}
			return nil
		}},
		{"jobs_of", []string{"each worker gets Jobs ÷ workers, the first Jobs mod workers one more (7 over 3: 3, 2, 2)", "a worker dealt none sends nothing"}, func() error {
			s, ferrs := FromQuery(url.Values{"workers": {"3"}, "jobs": {"7"}, "jobs_of": {"fleet"}})
			if ferrs != nil {
				return ferrs[0]
			}
			if n := []int{s.JobsOf(0), s.JobsOf(1), s.JobsOf(2)}; n[0] != 3 || n[1] != 2 || n[2] != 2 {
				return errors.New("7 over 3 dealt " + strconv.Itoa(n[0]) + ", " + strconv.Itoa(n[1]) + ", " + strconv.Itoa(n[2]))
			}
			s.Workers, s.Jobs = 5, 2
			for _, r := range Simulate(s).Records() {
				if r.Worker >= 2 {
					return errors.New("2 over 5: worker " + strconv.Itoa(r.Worker) + " dealt none sent something")
				}
			}
			return nil
		}},
	} {
		f, ok := FieldByKey(c.key)
		if !ok {
			t.Fatalf("no field %q", c.key)
		}
		for _, w := range c.words {
			if !strings.Contains(f.Help, w) {
				t.Errorf("%s: help %q does not say %q", c.key, f.Help, w)
			}
		}
		if err := c.check(); err != nil {
			t.Errorf("%s: %q is not what the code does: %v", c.key, c.words, err)
		}
	}
}

func want(got, want time.Duration) error {
	if got != want {
		return errors.New("got " + got.String() + ", want " + want.String())
	}
	return nil
}

func wantWaits(got []time.Duration, want ...time.Duration) error {
	if len(got) != len(want) {
		return errors.New("waits " + durs(got) + ", want " + durs(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return errors.New("waits " + durs(got) + ", want " + durs(want))
		}
	}
	return nil
}

func durs(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, " ")
}
