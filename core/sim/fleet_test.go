package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// constServer answers every request with the same response.
type constServer Response

func (c constServer) Arrive(now time.Time, r Request) Response {
	resp := Response(c)
	resp.Received = now
	return resp
}

// trace renders records as "w0.j0 attempt#1@0s" lines.
func trace(recs []Record, start time.Time) string {
	var b strings.Builder
	for _, r := range recs {
		e := r.Event
		fmt.Fprintf(&b, "w%d.j%d %s#%d@%v", r.Worker, r.Job, e.Kind, e.Attempt, e.At.Sub(start))
		switch e.Kind {
		case core.EventOutcome:
			if e.Outcome.Err != nil {
				fmt.Fprintf(&b, " err")
			} else {
				fmt.Fprintf(&b, " %d", e.Outcome.Status)
			}
		case core.EventWait:
			fmt.Fprintf(&b, " %v %v", e.Wait, e.Reason)
		case core.EventDone:
			if e.Err != nil {
				fmt.Fprintf(&b, " %v", causeName(e.Err))
			} else {
				b.WriteString(" ok")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func causeName(err error) string {
	for _, c := range []error{core.ErrHorizon, core.ErrCancelled, core.ErrExhausted, core.ErrBudgetEmpty, core.ErrMaxElapsed} {
		if errors.Is(err, c) {
			return strings.TrimPrefix(c.Error(), "core: ")
		}
	}
	return err.Error()
}

func runFleet(t *testing.T, f Fleet) ([]Record, FleetResult) {
	t.Helper()
	var recs []Record
	f.Observe = func(r *Record) {
		c := *r
		if r.Response != nil {
			resp := *r.Response
			c.Response = &resp
		}
		recs = append(recs, c)
	}
	res, err := f.Run(NewScheduler(t0))
	if err != nil {
		t.Fatal(err)
	}
	return recs, res
}

var constant100 = core.Policy{Backoff: core.Backoff{Strategy: core.Constant, Base: 100 * time.Millisecond}, MaxAttempts: 3}

func TestFleetDrivesTheLoop(t *testing.T) {
	tests := []struct {
		name string
		f    Fleet
		want string
	}{
		{"retries then gives up", Fleet{Workers: 1, Jobs: 1, Policy: constant100, Server: constServer{Status: 503, Delay: 20 * time.Millisecond}}, `
w0.j0 attempt#1@0s
w0.j0 outcome#1@20ms 503
w0.j0 wait#2@20ms 100ms backoff
w0.j0 attempt#2@120ms
w0.j0 outcome#2@140ms 503
w0.j0 wait#3@140ms 100ms backoff
w0.j0 attempt#3@240ms
w0.j0 outcome#3@260ms 503
w0.j0 done#3@260ms attempts exhausted
`},
		{"jobs one after another", Fleet{Workers: 1, Jobs: 2, Policy: constant100, Server: constServer{Status: 200, Delay: 30 * time.Millisecond}}, `
w0.j0 attempt#1@0s
w0.j0 outcome#1@30ms 200
w0.j0 done#1@30ms ok
w0.j1 attempt#1@30ms
w0.j1 outcome#1@60ms 200
w0.j1 done#1@60ms ok
`},
		{"timeout ends the attempt", Fleet{Workers: 1, Jobs: 1, Policy: core.Policy{Backoff: constant100.Backoff, MaxAttempts: 2}, Timeout: 50 * time.Millisecond,
			Server: constServer{Status: 200, Delay: time.Second}}, `
w0.j0 attempt#1@0s
w0.j0 outcome#1@50ms err
w0.j0 wait#2@50ms 100ms backoff
w0.j0 attempt#2@150ms
w0.j0 outcome#2@200ms err
w0.j0 done#2@200ms attempts exhausted
`},
		{"workers start together, in order", Fleet{Workers: 2, Jobs: 1, Policy: constant100, Server: constServer{Status: 200, Delay: 10 * time.Millisecond}}, `
w0.j0 attempt#1@0s
w1.j0 attempt#1@0s
w0.j0 outcome#1@10ms 200
w0.j0 done#1@10ms ok
w1.j0 outcome#1@10ms 200
w1.j0 done#1@10ms ok
`},
		{"open: jobs arrive on schedule, finished or not", Fleet{Workers: 2, Jobs: 2, Every: 100 * time.Millisecond, Policy: constant100,
			Server: constServer{Status: 200, Delay: 150 * time.Millisecond}}, `
w0.j0 attempt#1@0s
w1.j0 attempt#1@50ms
w0.j1 attempt#1@100ms
w0.j0 outcome#1@150ms 200
w0.j0 done#1@150ms ok
w1.j1 attempt#1@150ms
w1.j0 outcome#1@200ms 200
w1.j0 done#1@200ms ok
w0.j1 outcome#1@250ms 200
w0.j1 done#1@250ms ok
w1.j1 outcome#1@300ms 200
w1.j1 done#1@300ms ok
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, res := runFleet(t, tt.f)
			if got := trace(recs, t0); got != tt.want[1:] {
				t.Errorf("got\n%swant\n%s", got, tt.want[1:])
			}
			if res.Jobs != tt.f.Workers*tt.f.Jobs || res.Stopped {
				t.Errorf("result %+v", res)
			}
			if last := recs[len(recs)-1].Event.At; !res.End.Equal(last) {
				t.Errorf("End %v, last event %v", res.End, last)
			}
		})
	}
}

func TestFleetTimeoutHasNoResponse(t *testing.T) {
	f := Fleet{Workers: 1, Jobs: 1, Policy: core.Policy{Backoff: constant100.Backoff, MaxAttempts: 1}, Timeout: 50 * time.Millisecond,
		Server: constServer{Status: 200, Delay: time.Second, Seq: 1}}
	recs, _ := runFleet(t, f)
	o := recs[1]
	if o.Response != nil || !errors.Is(o.Event.Outcome.Err, ErrTimeout) {
		t.Errorf("timeout outcome %+v", o)
	}
	f.TimeoutErr = errors.New("custom")
	recs, _ = runFleet(t, f)
	if recs[1].Event.Outcome.Err != f.TimeoutErr {
		t.Errorf("TimeoutErr not used: %v", recs[1].Event.Outcome.Err)
	}
}

// A shared bucket paces the whole fleet: 5 workers, 10 tokens/s, capacity
// 1: attempts go out 100 ms apart.
func TestFleetSharesTheBucket(t *testing.T) {
	bucket, _ := core.NewBucket(10, 1)
	recs, _ := runFleet(t, Fleet{Workers: 5, Jobs: 1, Policy: constant100, Bucket: bucket, Server: constServer{Status: 200, Delay: time.Millisecond}})
	var sends []string
	for _, r := range recs {
		if r.Event.Kind == core.EventAttempt {
			sends = append(sends, fmt.Sprintf("w%d@%v", r.Worker, r.Event.At.Sub(t0)))
		}
	}
	if got, want := strings.Join(sends, " "), "w0@0s w1@100ms w2@200ms w3@300ms w4@400ms"; got != want {
		t.Errorf("sends %s, want %s", got, want)
	}
}

// A shared budget with 3 tokens and no refill allows 3 retries in all.
func TestFleetSharesTheBudget(t *testing.T) {
	budget, _ := core.NewBudget(3, 0)
	p := constant100
	p.MaxAttempts = 10
	recs, res := runFleet(t, Fleet{Workers: 4, Jobs: 2, Policy: p, Budget: budget, Server: constServer{Status: 500, Delay: time.Millisecond}})
	empty := 0
	for _, r := range recs {
		if r.Event.Kind == core.EventDone && errors.Is(r.Event.Err, core.ErrBudgetEmpty) {
			empty++
		}
	}
	// Every job ends on an empty budget: 3 of them after one retry.
	if res.Attempts != 8+3 || empty != 8 {
		t.Errorf("%d attempts and %d budget-empty give-ups, want 11 and 8", res.Attempts, empty)
	}
}

// MaxAttempts stops the run as a live Stop does: every unfinished job is
// cancelled, attempts in flight are reported aborted, no job starts after.
func TestFleetMaxAttemptsStops(t *testing.T) {
	var recs []Record
	f, s := windowFleet(t, 7, func(r *Record) { recs = append(recs, *r) })
	res, err := f.Run(s)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Attempts != 250 {
		t.Fatalf("result %+v: want stopped at 250 attempts", res)
	}
	type job struct{ w, j int }
	started, done := map[job]bool{}, map[job]int{}
	cancelled, aborted, attempts := 0, 0, 0
	var stopAt time.Time
	for _, r := range recs {
		k := job{r.Worker, r.Job}
		started[k] = true
		switch r.Event.Kind {
		case core.EventAttempt:
			attempts++
		case core.EventOutcome:
			if errors.Is(r.Event.Outcome.Err, ErrLimit) {
				aborted++
			}
		case core.EventDone:
			done[k]++
			if errors.Is(r.Event.Err, core.ErrCancelled) {
				if !errors.Is(r.Event.Err, ErrLimit) {
					t.Errorf("cancelled without ErrLimit: %v", r.Event.Err)
				}
				if stopAt.IsZero() {
					stopAt = r.Event.At
				}
				if !r.Event.At.Equal(stopAt) {
					t.Errorf("cancellations at %v and %v", stopAt, r.Event.At)
				}
				cancelled++
			}
		}
	}
	if attempts != 250 || cancelled == 0 || aborted == 0 || res.Jobs != len(started) {
		t.Errorf("attempts %d, cancelled %d, aborted %d, jobs %d (started %d)", attempts, cancelled, aborted, res.Jobs, len(started))
	}
	for k := range started {
		if done[k] != 1 {
			t.Errorf("job %v ended %d times", k, done[k])
		}
	}
	if !res.End.Equal(stopAt) {
		t.Errorf("End %v, stop at %v", res.End, stopAt)
	}
}

func TestFleetValidate(t *testing.T) {
	srv := constServer{Status: 200}
	for _, tc := range []struct {
		f    Fleet
		want string
	}{
		{Fleet{Workers: 0, Jobs: 1, Policy: constant100, Server: srv}, "sim: fleet workers 0: must be at least 1"},
		{Fleet{Workers: 1, Jobs: 0, Policy: constant100, Server: srv}, "sim: fleet jobs 0: must be at least 1"},
		{Fleet{Workers: 1, Jobs: 1, Total: -1, Policy: constant100, Server: srv}, "sim: fleet total -1: must not be negative"},
		{Fleet{Workers: 1, Jobs: 1, Policy: constant100, Server: srv, Timeout: -1}, "sim: fleet timeout -1ns: must not be negative"},
		{Fleet{Workers: 1, Jobs: 1, Policy: constant100}, "sim: fleet has no server"},
		{Fleet{Workers: 1, Jobs: 1, Policy: constant100, Server: srv, MaxAttempts: -1}, "sim: fleet max attempts -1"},
		{Fleet{Workers: 1, Jobs: 1, Policy: constant100, Server: srv, Every: -1}, "sim: fleet job interval -1ns: must not be negative"},
		{Fleet{Workers: 1, Jobs: 1, Server: srv}, "core: policy max attempts 0: must be between 1 and 1000"},
	} {
		if _, err := tc.f.Run(NewScheduler(t0)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// Deal gives each worker total ÷ workers jobs, one more to each of the
// first total mod workers, so the shares add up to the total and differ by
// one at most.
func TestDeal(t *testing.T) {
	for _, tc := range []struct {
		total, workers int
		want           []int
	}{
		{7, 3, []int{3, 2, 2}},
		{6, 3, []int{2, 2, 2}},
		{2, 3, []int{1, 1, 0}}, // fewer jobs than workers: the last get none
		{1, 4, []int{1, 0, 0, 0}},
		{10, 4, []int{3, 3, 2, 2}},
		{5, 1, []int{5}},
		{1001, 1000, append([]int{2}, make1s(999)...)},
	} {
		got := make([]int, tc.workers)
		sum := 0
		for w := range got {
			got[w] = Deal(tc.total, tc.workers, w)
			sum += got[w]
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || sum != tc.total {
			t.Errorf("Deal(%d over %d) = %v (sum %d), want %v", tc.total, tc.workers, got, sum, tc.want)
		}
	}
	for _, w := range []int{-1, 3} { // no such worker
		if n := Deal(7, 3, w); n != 0 {
			t.Errorf("Deal(7, 3, %d) = %d, want 0", w, n)
		}
	}
	if n := Deal(7, 0, 0); n != 0 {
		t.Errorf("Deal over no workers = %d, want 0", n)
	}
}

func make1s(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// A fleet with a Total runs exactly that many jobs, each worker its share
// (Deal), closed or open, steady or random; a worker dealt none sends
// nothing. Total 0 is Jobs per worker, as before.
func TestFleetTotalDealsTheJobs(t *testing.T) {
	for _, tc := range []struct {
		name           string
		workers, total int
		every          time.Duration
		random         bool
		want           []int // jobs per worker
	}{
		{"closed 7 over 3", 3, 7, 0, false, []int{3, 2, 2}},
		{"closed 2 over 5", 5, 2, 0, false, []int{1, 1, 0, 0, 0}},
		{"open 7 over 3", 3, 7, 100 * time.Millisecond, false, []int{3, 2, 2}},
		{"open random 5 over 4", 4, 5, 100 * time.Millisecond, true, []int{2, 1, 1, 1}},
		{"open 1 over 3", 3, 1, 100 * time.Millisecond, false, []int{1, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Fleet{Workers: tc.workers, Jobs: 1000, Total: tc.total, Every: tc.every, RandomArrivals: tc.random,
				Policy: constant100, Seed: 5, Server: constServer{Status: 200}}
			recs, res := runFleet(t, f)
			if res.Jobs != tc.total {
				t.Errorf("%d jobs ended, want the total %d", res.Jobs, tc.total)
			}
			done := make([]int, tc.workers)
			sent := make([]int, tc.workers)
			for _, r := range recs {
				switch r.Event.Kind {
				case core.EventDone:
					done[r.Worker]++
					if r.Job >= tc.want[r.Worker] {
						t.Errorf("worker %d ran job %d, past its %d", r.Worker, r.Job, tc.want[r.Worker])
					}
				case core.EventAttempt:
					sent[r.Worker]++
				}
			}
			if fmt.Sprint(done) != fmt.Sprint(tc.want) || fmt.Sprint(sent) != fmt.Sprint(tc.want) {
				t.Errorf("jobs per worker %v, attempts %v; want %v", done, sent, tc.want)
			}
			for w, n := range tc.want {
				if got := f.JobsOf(w); got != n {
					t.Errorf("JobsOf(%d) = %d, want %d", w, got, n)
				}
			}
			if tc.every == 0 || tc.random {
				return
			}
			// Steady arrivals: the jobs run are the fleet's first total
			// arrivals, as the workers take them in turn.
			var starts, stream []time.Duration
			for _, r := range recs {
				if r.Event.Kind == core.EventAttempt {
					starts = append(starts, r.Event.At.Sub(t0))
				}
			}
			arr := f.Arrivals()
			for j := range tc.total {
				for w := range tc.workers {
					stream = append(stream, arr.At(w, j))
				}
			}
			slices.Sort(starts)
			slices.Sort(stream)
			if !slices.Equal(starts, stream[:tc.total]) {
				t.Errorf("jobs started at %v, want the fleet's first %d arrivals %v", starts, tc.total, stream[:tc.total])
			}
		})
	}
	// Total 0: Jobs each.
	f := Fleet{Workers: 3, Jobs: 2, Policy: constant100, Server: constServer{Status: 200}}
	if _, res := runFleet(t, f); res.Jobs != 6 || f.JobsOf(2) != 2 {
		t.Errorf("no total: %d jobs, JobsOf(2) = %d; want 6 and 2", res.Jobs, f.JobsOf(2))
	}
}

func TestArrivalsSteady(t *testing.T) {
	for _, tc := range []struct {
		every         time.Duration
		workers, w, j int
		want          time.Duration
	}{
		{time.Second, 1, 0, 0, 0},
		{time.Second, 1, 0, 3, 3 * time.Second},
		{time.Second, 4, 1, 0, 250 * time.Millisecond},
		{time.Second, 4, 3, 2, 2750 * time.Millisecond},
		{time.Minute, 10000, 9999, 999, 999*time.Minute + 59994*time.Millisecond},
		{time.Second, 0, 0, 1, time.Second}, // no workers: no division by zero
	} {
		a := Arrivals{Every: tc.every, Workers: tc.workers}
		if got := a.At(tc.w, tc.j); got != tc.want {
			t.Errorf("%+v.At(%d, %d) = %v, want %v", a, tc.w, tc.j, got, tc.want)
		}
		var sum time.Duration // At is the gaps added up
		for k := 0; k <= tc.j; k++ {
			sum += a.Gap(tc.w, k)
		}
		if sum != tc.want {
			t.Errorf("%+v: gaps of worker %d up to job %d add up to %v, want %v", a, tc.w, tc.j, sum, tc.want)
		}
	}
}

// Random arrivals are a Poisson process at the steady schedule's rate:
// exponential gaps of mean Every (mean and spread of 20,000 gaps, and the
// share of gaps shorter than the mean, 1 - 1/e), fixed by the seed and
// different for another seed or worker, and apart from the jobs' own
// random numbers.
func TestArrivalsRandom(t *testing.T) {
	a := Arrivals{Every: time.Second, Workers: 100, Random: true, Seed: 7}
	const n = 20000
	var sum, sumSq float64
	short := 0
	for i := range n {
		g := a.Gap(i%100, i/100).Seconds()
		if g < 0 {
			t.Fatalf("negative gap %v", g)
		}
		sum += g
		sumSq += g * g
		if g < 1 {
			short++
		}
	}
	mean := sum / n
	sd := math.Sqrt(sumSq/n - mean*mean)
	if math.Abs(mean-1) > 0.03 || math.Abs(sd-1) > 0.05 || math.Abs(float64(short)/n-(1-1/math.E)) > 0.015 {
		t.Errorf("gaps: mean %.3f s, sd %.3f s, %.3f shorter than the mean: want 1, 1, %.3f (exponential)", mean, sd, float64(short)/n, 1-1/math.E)
	}
	// Asked twice: a draw from a running source would differ.
	if first, again := a.At(3, 5), a.At(3, 5); first != again || first == a.At(4, 5) {
		t.Error("worker 3's and worker 4's arrivals: want fixed, and different")
	}
	b := a
	b.Seed = 8
	if a.At(3, 5) == b.At(3, 5) {
		t.Error("another seed gives the same arrivals")
	}
	if got, want := a.At(3, 2), a.Gap(3, 0)+a.Gap(3, 1)+a.Gap(3, 2); got != want {
		t.Errorf("At(3, 2) = %v, want its gaps added up %v", got, want)
	}
	u := core.NewPCG(core.SubSeed(a.Seed, 3, 1)).Float64() // job 1 of worker 3's first draw
	if g := time.Duration(-math.Log1p(-u) * float64(time.Second)); g == a.Gap(3, 1) {
		t.Error("arrival gaps reuse the jobs' random numbers")
	}
}

// An open workload starts every job when it arrives, whether or not the
// worker's earlier jobs have ended; a closed one never overlaps a worker's
// jobs. Both against the same overloaded endpoint with backoff.
func TestOpenWorkloadStartsJobsOnArrival(t *testing.T) {
	overloaded := func() Server {
		srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{
			Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 10, Burst: 10},
			Status:  429, Latency: 10 * time.Millisecond,
		}}, t0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	policy := core.Policy{Backoff: core.Backoff{Strategy: core.Exponential, Base: 100 * time.Millisecond, Multiplier: 2, Cap: 5 * time.Second}, MaxAttempts: 8}
	for _, tc := range []struct {
		name        string
		every       time.Duration
		random      bool
		wantOverlap bool
	}{
		{"closed", 0, false, false},
		{"open", time.Second, false, true},
		{"open, random arrivals", time.Second, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const workers, jobs = 20, 10
			f := Fleet{Workers: workers, Jobs: jobs, Every: tc.every, RandomArrivals: tc.random, Policy: policy, Seed: 3, Server: overloaded()}
			recs, res := runFleet(t, f)
			if res.Jobs != workers*jobs || res.Stopped {
				t.Fatalf("result %+v", res)
			}
			type key struct{ w, j int }
			first, done := map[key]time.Duration{}, map[key]time.Duration{}
			for _, r := range recs {
				k, at := key{r.Worker, r.Job}, r.Event.At.Sub(t0)
				if _, ok := first[k]; !ok {
					first[k] = at
				}
				if r.Event.Kind == core.EventDone {
					done[k] = at
				}
			}
			overlaps := 0
			for k, at := range first {
				if arr := f.Arrivals(); tc.every > 0 && at != arr.At(k.w, k.j) {
					t.Errorf("job %v started at %v, arrived at %v", k, at, arr.At(k.w, k.j))
				}
				if k.j > 0 && at < done[key{k.w, k.j - 1}] {
					overlaps++
				}
			}
			if (overlaps > 0) != tc.wantOverlap {
				t.Errorf("%d jobs started before the worker's previous job ended; want overlap %v", overlaps, tc.wantOverlap)
			}
		})
	}
}

// An open fleet stopped by MaxAttempts: every job that arrived ends exactly
// once, nothing of a job comes after its end, and no job arrives after the
// stop, though arrivals were still scheduled. Job structs are reused from
// ended jobs along the way (the endpoint answers faster than the interval
// for some, slower for others).
func TestOpenFleetMaxAttemptsStops(t *testing.T) {
	srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{
		Limiter: core.LimiterConfig{Kind: core.LimitTokenBucket, Rate: 5, Burst: 3},
		Status:  429, Latency: 20 * time.Millisecond, Spread: 400 * time.Millisecond,
	}}, t0, 9)
	if err != nil {
		t.Fatal(err)
	}
	recs, res := runFleet(t, Fleet{Workers: 10, Jobs: 50, Every: 200 * time.Millisecond, Seed: 4, Server: srv, MaxAttempts: 120,
		Policy: core.Policy{Backoff: core.Backoff{Strategy: core.FullJitter, Base: 50 * time.Millisecond, Multiplier: 2, Cap: time.Second}, MaxAttempts: 5}})
	if !res.Stopped || res.Attempts != 120 {
		t.Fatalf("result %+v: want stopped at 120 attempts", res)
	}
	type key struct{ w, j int }
	ended := map[key]time.Time{}
	started := map[key]bool{}
	var stopAt time.Time
	for _, r := range recs {
		k := key{r.Worker, r.Job}
		if at, ok := ended[k]; ok {
			t.Errorf("job %v: %v at %v after its end at %v", k, r.Event.Kind, r.Event.At.Sub(t0), at.Sub(t0))
		}
		if !started[k] && !stopAt.IsZero() && r.Event.At.After(stopAt) {
			t.Errorf("job %v arrived at %v, after the stop at %v", k, r.Event.At.Sub(t0), stopAt.Sub(t0))
		}
		started[k] = true
		if r.Event.Kind == core.EventDone {
			ended[k] = r.Event.At
			if errors.Is(r.Event.Err, ErrLimit) && stopAt.IsZero() {
				stopAt = r.Event.At
			}
		}
	}
	if len(ended) != len(started) || res.Jobs != len(started) || stopAt.IsZero() {
		t.Errorf("%d jobs started, %d ended, result counts %d; stop at %v", len(started), len(ended), res.Jobs, stopAt.Sub(t0))
	}
	if len(started) >= 10*50 || len(started) < 30 {
		t.Errorf("%d jobs arrived before the stop: want some, not all", len(started))
	}
}

// Virtual time ends at the scheduler's End, about 292 years in: a job
// whose next wait would end after it stops before it (core.ErrHorizon,
// no EventWait), and one whose answer would come after it has the attempt
// aborted and stops with that cause. Every wait recorded is waited in full:
// the next attempt comes when it ends. (The scheduler used to fire a wake
// due after its end at the end: a backoff reaching centuries, as an
// uncapped one does, was recorded but not waited.)
func TestFleetEndOfVirtualTime(t *testing.T) {
	uncapped := core.Policy{Backoff: core.Backoff{Strategy: core.Exponential, Base: time.Hour, Multiplier: 10}, MaxAttempts: 12}
	tests := []struct {
		name  string
		from  time.Duration // before the end of time, when the fleet starts; 0: at the scheduler's start
		delay time.Duration // the server's
		want  string        // the events
		why   string        // in the job's end, its note or error
	}{
		{"a wait past the end", 0, 0, `w0.j0 attempt#1@0s
w0.j0 outcome#1@0s 500
w0.j0 wait#2@0s 10h0m0s backoff
w0.j0 attempt#2@10h0m0s
w0.j0 outcome#2@10h0m0s 500
w0.j0 wait#3@10h0m0s 100h0m0s backoff
w0.j0 attempt#3@110h0m0s
w0.j0 outcome#3@110h0m0s 500
w0.j0 wait#4@110h0m0s 1000h0m0s backoff
w0.j0 attempt#4@1110h0m0s
w0.j0 outcome#4@1110h0m0s 500
w0.j0 wait#5@1110h0m0s 10000h0m0s backoff
w0.j0 attempt#5@11110h0m0s
w0.j0 outcome#5@11110h0m0s 500
w0.j0 wait#6@11110h0m0s 100000h0m0s backoff
w0.j0 attempt#6@111110h0m0s
w0.j0 outcome#6@111110h0m0s 500
w0.j0 wait#7@111110h0m0s 1000000h0m0s backoff
w0.j0 attempt#7@1111110h0m0s
w0.j0 outcome#7@1111110h0m0s 500
w0.j0 done#7@1111110h0m0s horizon reached
`, "backoff wait over 2562047h47m16.854775807s would end past the horizon, 1450937h47m16.855s away"},
		{"an answer due past the end", time.Second, 2 * time.Second, `w0.j0 attempt#1@0s
w0.j0 outcome#1@0s err
w0.j0 done#1@0s horizon reached
`, "answer due after the end of virtual time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sched := NewScheduler(t0)
			if tt.from > 0 {
				sched.RunUntil(sched.End().Add(-tt.from))
			}
			start := sched.Now()
			var recs []Record
			f := Fleet{Workers: 1, Jobs: 1, Policy: uncapped, Server: constServer{Status: 500, Delay: tt.delay},
				Observe: func(r *Record) { recs = append(recs, *r) }}
			if _, err := f.Run(sched); err != nil {
				t.Fatal(err)
			}
			if got := trace(recs, start); got != tt.want {
				t.Errorf("events:\n%s\nwant:\n%s", got, tt.want)
			}
			if last := recs[len(recs)-1].Event; !strings.Contains(last.Err.Error()+" ("+last.Note+")", tt.why) {
				t.Errorf("the job's end, %v (%s), does not say %q", last.Err, last.Note, tt.why)
			}
			if se := (*core.StopError)(nil); !errors.As(recs[len(recs)-1].Event.Err, &se) || se.Cause != core.ErrHorizon {
				t.Errorf("the job's end, %v: its cause is not core.ErrHorizon", recs[len(recs)-1].Event.Err)
			}
			for i, r := range recs {
				if e := r.Event; e.Kind == core.EventWait {
					if next := recs[i+1].Event; next.Kind != core.EventAttempt || !next.At.Equal(e.At.Add(e.Wait)) {
						t.Errorf("wait of %v at %v followed by %v at %v: not waited in full", e.Wait, e.At.Sub(start), next.Kind, next.At.Sub(start))
					}
				}
			}
		})
	}
}

// Interrupt stops a simulation as a user's Stop does: asked every
// InterruptEvery events with the progress so far, it ends every unfinished
// job there with cause ErrInterrupted (not ErrLimit), reports the attempts
// in flight aborted, and starts nothing after. What came before is the
// uninterrupted run's, and a run it never stops is the run without it.
func TestFleetInterrupt(t *testing.T) {
	policy := core.Policy{Backoff: core.Backoff{Strategy: core.FullJitter, Base: 50 * time.Millisecond, Multiplier: 2, Cap: time.Second}, MaxAttempts: 6}
	for _, tc := range []struct {
		name string
		f    Fleet
	}{
		{"closed", Fleet{Workers: 200, Jobs: 10, Policy: policy, Seed: 3, Timeout: 300 * time.Millisecond}},
		{"open", Fleet{Workers: 50, Jobs: 100, Every: 100 * time.Millisecond, RandomArrivals: true, Policy: policy, Seed: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(interrupt func(Progress) bool) ([]Record, FleetResult) {
				t.Helper()
				srv, err := NewEndpointServer(Endpoint{Config: endpoint.Config{
					Limiter: core.LimiterConfig{Kind: core.LimitSlidingWindow, Limit: 100, Window: time.Second},
					Status:  429, Latency: 20 * time.Millisecond, Spread: 400 * time.Millisecond,
				}}, t0, 11)
				if err != nil {
					t.Fatal(err)
				}
				f := tc.f
				f.Server, f.Interrupt = srv, interrupt
				var recs []Record
				f.Observe = func(r *Record) { c := *r; c.Response = nil; recs = append(recs, c) }
				res, err := f.Run(NewScheduler(t0))
				if err != nil {
					t.Fatal(err)
				}
				return recs, res
			}
			want, full := run(nil)
			if full.Events < 10*InterruptEvery {
				t.Fatalf("only %d events: the test wants a longer simulation", full.Events)
			}

			calls := 0
			var last Progress
			got, same := run(func(p Progress) bool {
				calls++
				if p.Now.Before(last.Now) || p.Attempts < last.Attempts || p.Jobs < last.Jobs {
					t.Errorf("progress went back: %+v after %+v", p, last)
				}
				if p.Elapsed != p.Now.Sub(t0) || p.Over {
					t.Errorf("progress %+v: want Elapsed the virtual time since the start, and not Over", p)
				}
				last = p
				return false
			})
			if trace(got, t0) != trace(want, t0) || same != full {
				t.Fatalf("never interrupted, the run differs: %+v, want %+v", same, full)
			}
			if want := int(full.Events / InterruptEvery); calls != want {
				t.Errorf("Interrupt called %d times over %d events, want %d", calls, full.Events, want)
			}

			var at Progress
			recs, res := run(func(p Progress) bool {
				at = p
				return p.Jobs >= 100 || p.Attempts >= 2000
			})
			if !res.Interrupted || res.Stopped || res.Attempts != at.Attempts || res.Attempts >= full.Attempts || !res.End.Equal(at.Now) {
				t.Fatalf("result %+v, interrupted at %+v: want it interrupted there (the full run: %+v)", res, at, full)
			}
			before := 0 // records of instants before the stop's: the uninterrupted run's
			for before < len(recs) && recs[before].Event.At.Before(at.Now) {
				before++
			}
			if before == 0 || trace(recs[:before], t0) != trace(want[:before], t0) {
				t.Errorf("the %d records before the stop differ from the uninterrupted run's", before)
			}
			type key struct{ w, j int }
			started, ended := map[key]bool{}, map[key]bool{}
			aborted, cancelled := 0, 0
			for _, r := range recs {
				k := key{r.Worker, r.Job}
				if ended[k] {
					t.Errorf("job %v: %v after its end", k, r.Event.Kind)
				}
				if !started[k] && r.Event.At.After(at.Now) {
					t.Errorf("job %v started at %v, after the stop at %v", k, r.Event.At.Sub(t0), at.Now.Sub(t0))
				}
				started[k] = true
				switch e := r.Event; e.Kind {
				case core.EventOutcome:
					if errors.Is(e.Outcome.Err, ErrInterrupted) {
						if !errors.Is(e.Outcome.Err, context.Canceled) || errors.Is(e.Outcome.Err, ErrLimit) || !e.At.Equal(at.Now) {
							t.Errorf("aborted attempt: %v at %v", e.Outcome.Err, e.At.Sub(t0))
						}
						aborted++
					}
				case core.EventDone:
					ended[k] = true
					if errors.Is(e.Err, core.ErrCancelled) {
						if !errors.Is(e.Err, ErrInterrupted) || errors.Is(e.Err, ErrLimit) || !e.At.Equal(at.Now) {
							t.Errorf("cancelled job: %v at %v", e.Err, e.At.Sub(t0))
						}
						cancelled++
					}
				}
			}
			if len(ended) != len(started) || res.Jobs != len(started) || aborted == 0 || cancelled == 0 {
				t.Errorf("%d jobs started, %d ended, result counts %d; %d attempts aborted, %d jobs cancelled", len(started), len(ended), res.Jobs, aborted, cancelled)
			}
		})
	}
}
