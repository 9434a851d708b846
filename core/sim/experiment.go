package sim

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"retrylab/core"
)

// Curve is one strategy of an Experiment: a name and the backoff its
// clients use.
type Curve struct {
	Name    string
	Backoff core.Backoff
}

// AWSCurves are the five strategies the AWS post compares, with its base
// and cap:
//
//	none          no backoff: retry at once
//	exponential   min(cap, base·2ⁿ)
//	full          U(0, min(cap, base·2ⁿ))
//	equal         t/2 + U(0, t/2), t = min(cap, base·2ⁿ)
//	decorrelated  min(cap, U(base, 3·previous))
//
// n is the number of failed attempts, so the first retry of exponential
// sleeps base·2¹, as in the post (core.Backoff.Delay's convention).
//
// "No backoff" is core.Constant with the shortest base core accepts, 1 ms
// (core.BackoffBaseRange.Min): core's None strategy means "never retry",
// and a 1 ms pause is 2.5% of one call's four 10 ms messages.
func AWSCurves(base, cap time.Duration) []Curve {
	expo := func(s core.Strategy) core.Backoff {
		return core.Backoff{Strategy: s, Base: base, Multiplier: 2, Cap: cap}
	}
	return []Curve{
		{"none", core.Backoff{Strategy: core.Constant, Base: core.BackoffBaseRange.Min}},
		{"exponential", expo(core.Exponential)},
		{"full", expo(core.FullJitter)},
		{"equal", expo(core.EqualJitter)},
		{"decorrelated", core.Backoff{Strategy: core.DecorrelatedJitter, Base: base, Cap: cap}},
	}
}

// Experiment is a sweep of the Contention model: for every curve and every
// number of clients, Runs independent runs.
//
// Run r with n clients uses the seed core.SubSeed(Seed, n, r) whatever the
// curve (common random numbers: the curves are compared on the same
// draws as far as their schedules allow). Runs execute in parallel on
// Parallel goroutines, each its own Scheduler; the results are gathered by
// index and summed in a fixed order, so they do not depend on Parallel or
// on goroutine scheduling.
//
// The zero Experiment is not valid: Validate (which Run calls) wants curves,
// client counts and Runs; AWS returns the reference one.
type Experiment struct {
	Curves      []Curve
	Clients     []int
	Runs        int           // runs per point
	NetMean     time.Duration // mean one-way message delay
	NetSD       time.Duration // its standard deviation
	MaxAttempts int           // per client; 0 = core.PolicyMaxAttemptsRange.Max (1000)
	Seed        uint64
	Parallel    int // goroutines; 0 = runtime.GOMAXPROCS(0)
	// Progress, if not nil, is called after each run of the sweep with how
	// many of its total runs are done, one call at a time (from the
	// sweep's goroutines).
	Progress func(done, total int)
}

// AWS returns the published setup of "Exponential Backoff And Jitter":
// base 5 ms, cap 2 s, network delay |Normal(10 ms, 2 ms)| per message,
// 10 to 190 clients in steps of 10, 100 runs per point, the five AWSCurves.
func AWS() Experiment {
	var clients []int
	for n := 10; n <= 190; n += 10 {
		clients = append(clients, n)
	}
	return Experiment{
		Curves:  AWSCurves(5*time.Millisecond, 2*time.Second),
		Clients: clients,
		Runs:    100,
		NetMean: 10 * time.Millisecond,
		NetSD:   2 * time.Millisecond,
		Seed:    1,
	}
}

// Point is one curve at one number of clients, over Runs runs.
type Point struct {
	Curve          string
	Clients        int
	Runs           int
	CallsMean      float64       // calls (attempts: read + conditional write) of all clients together
	CallsSD        float64       // standard deviation over runs
	CompletionMean time.Duration // time until the last client succeeded
	CompletionSD   time.Duration
	GaveUp         int // clients that reached MaxAttempts, over all runs
}

// Results are an experiment and its points, curve by curve, clients
// ascending.
type Results struct {
	Experiment Experiment
	Points     []Point
	Wall       time.Duration // wall-clock time the sweep took (not part of the results proper)
}

// Point returns the point of curve at clients.
func (r *Results) Point(curve string, clients int) (Point, bool) {
	for _, p := range r.Points {
		if p.Curve == curve && p.Clients == clients {
			return p, true
		}
	}
	return Point{}, false
}

// Validate reports the first field outside its allowed range.
func (e *Experiment) Validate() error {
	switch {
	case len(e.Curves) == 0:
		return errors.New("sim: experiment has no curves")
	case len(e.Clients) == 0:
		return errors.New("sim: experiment has no client counts")
	case e.Runs < 1 || e.Runs > 100000:
		return fmt.Errorf("sim: experiment runs %d: must be between 1 and 100000", e.Runs)
	case e.MaxAttempts != 0 && !core.PolicyMaxAttemptsRange.Contains(e.MaxAttempts):
		return fmt.Errorf("sim: experiment max attempts %d: must be 0 (the most core allows) or %s", e.MaxAttempts, core.PolicyMaxAttemptsRange)
	case e.Parallel < 0:
		return fmt.Errorf("sim: experiment parallel %d: must be 0 (GOMAXPROCS) or more", e.Parallel)
	}
	for _, n := range e.Clients {
		if n < 1 || n > 100000 {
			return fmt.Errorf("sim: experiment clients %d: must be between 1 and 100000", n)
		}
	}
	for _, c := range e.Curves {
		if err := c.Backoff.Validate(); err != nil {
			return fmt.Errorf("sim: curve %q: %w", c.Name, err)
		}
		if c.Backoff.Strategy == core.None {
			return fmt.Errorf("sim: curve %q: strategy none never retries; use a constant 1ms backoff for \"no backoff\"", c.Name)
		}
	}
	c := e.contention(0, 0)
	return c.Validate()
}

// contention is the model of curve ci with n clients (seed set by the caller).
func (e *Experiment) contention(ci, n int) Contention {
	maxAttempts := e.MaxAttempts
	if maxAttempts == 0 {
		maxAttempts = core.PolicyMaxAttemptsRange.Max
	}
	return Contention{
		Clients: max(n, 1),
		Policy:  core.Policy{Backoff: e.Curves[ci].Backoff, MaxAttempts: maxAttempts},
		NetMean: e.NetMean,
		NetSD:   e.NetSD,
	}
}

// Run runs every point of the experiment.
func (e Experiment) Run() (*Results, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	began := time.Now()
	type task struct{ curve, clients, run int } // indexes
	nc, nn, nr := len(e.Curves), len(e.Clients), e.Runs
	tasks := make([]task, 0, nc*nn*nr)
	for ci := range nc {
		for ni := range nn {
			for r := range nr {
				tasks = append(tasks, task{ci, ni, r})
			}
		}
	}
	index := func(t task) int { return (t.curve*nn+t.clients)*nr + t.run }
	// Biggest runs first, so no worker is left with a long one at the end.
	order := slices.Clone(tasks)
	slices.SortStableFunc(order, func(a, b task) int { return e.Clients[b.clients] - e.Clients[a.clients] })

	results := make([]ContentionResult, len(tasks))
	errs := make([]error, len(tasks))
	par := e.Parallel
	if par == 0 {
		par = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var progress sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range min(par, len(order)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(order) {
					return
				}
				t := order[i]
				n := e.Clients[t.clients]
				c := e.contention(t.curve, n)
				c.Seed = core.SubSeed(e.Seed, n, t.run)
				results[index(t)], errs[index(t)] = c.Run(time.Time{})
				if e.Progress != nil {
					progress.Lock()
					done++
					e.Progress(done, len(tasks))
					progress.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	res := &Results{Experiment: e}
	for ci := range nc {
		for ni := range nn {
			p := Point{Curve: e.Curves[ci].Name, Clients: e.Clients[ni], Runs: nr}
			runs := results[index(task{ci, ni, 0}) : index(task{ci, ni, 0})+nr]
			var sc, st float64
			for _, r := range runs {
				sc += float64(r.Calls)
				st += float64(r.Completion)
				p.GaveUp += r.GaveUp
			}
			mc, mt := sc/float64(nr), st/float64(nr)
			var vc, vt float64
			for _, r := range runs {
				dc, dt := float64(r.Calls)-mc, float64(r.Completion)-mt
				vc += dc * dc
				vt += dt * dt
			}
			if nr > 1 {
				vc /= float64(nr - 1)
				vt /= float64(nr - 1)
			}
			p.CallsMean, p.CallsSD = mc, math.Sqrt(vc)
			p.CompletionMean, p.CompletionSD = time.Duration(mt), time.Duration(math.Sqrt(vt))
			res.Points = append(res.Points, p)
		}
	}
	res.Wall = time.Since(began)
	return res, nil
}
