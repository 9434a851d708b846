package sim

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// reducedAWS is the published setup with fewer points and runs: what the
// test suite can afford (the full sweep is `retrylab sim aws`).
func reducedAWS() Experiment {
	e := AWS()
	e.Clients = []int{10, 50, 100, 150, 190}
	e.Runs = 30
	e.Seed = 2015
	return e
}

// The findings of the AWS post, from a reduced sweep with a fixed seed.
func TestAWSFindingsReproduced(t *testing.T) {
	res, err := reducedAWS().Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("reduced sweep in %v", res.Wall.Round(time.Millisecond))
	fs := AWSFindings(res)
	if len(fs) != 6 {
		t.Fatalf("%d findings, want 6", len(fs))
	}
	for _, f := range fs {
		if !f.Holds {
			t.Errorf("finding does not hold: %s (%s)", f.Claim, f.Evidence)
		} else {
			t.Logf("holds: %s — %s", f.Claim, f.Evidence)
		}
	}
	for _, p := range res.Points {
		if p.GaveUp != 0 {
			t.Errorf("%s at %d clients: %d clients gave up", p.Curve, p.Clients, p.GaveUp)
		}
	}
}

// No backoff at all is the textbook case: with every client in every
// "round" and one winner per round, calls approach n(n+1)/2.
func TestNoBackoffIsQuadratic(t *testing.T) {
	e := reducedAWS()
	e.Curves = e.Curves[:1]
	e.Clients = []int{10, 40}
	res, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Points {
		tri := float64(p.Clients*(p.Clients+1)) / 2
		if p.CallsMean < 0.4*tri || p.CallsMean > 1.05*tri {
			t.Errorf("%d clients without backoff: %.0f calls, want about n(n+1)/2 = %.0f", p.Clients, p.CallsMean, tri)
		}
	}
}

// The results do not depend on how many goroutines ran the sweep.
func TestExperimentParallelIsDeterministic(t *testing.T) {
	e := reducedAWS()
	e.Clients = []int{20, 60}
	e.Runs = 6
	var got []*Results
	for _, par := range []int{1, 3, 8} {
		e.Parallel = par
		// Progress is told once a run, counting up to every run, one call
		// at a time (-race).
		var told []int
		e.Progress = func(done, total int) {
			if total != len(e.Curves)*2*6 {
				t.Errorf("parallel %d: progress of %d runs in all, want %d", par, total, len(e.Curves)*2*6)
			}
			told = append(told, done)
		}
		res, err := e.Run()
		if err != nil {
			t.Fatal(err)
		}
		if want := len(e.Curves) * 2 * 6; len(told) != want || !slices.IsSorted(told) || told[len(told)-1] != want {
			t.Errorf("parallel %d: progress told %v, want 1 to %d", par, told, want)
		}
		got = append(got, res)
	}
	for i := 1; i < len(got); i++ {
		if !reflect.DeepEqual(got[0].Points, got[i].Points) {
			t.Fatalf("parallel %d differs from parallel 1:\n%+v\n%+v", []int{1, 3, 8}[i], got[i].Points, got[0].Points)
		}
	}
}

func TestExperimentValidate(t *testing.T) {
	for _, tc := range []struct {
		mod  func(*Experiment)
		want string
	}{
		{func(e *Experiment) { e.Runs = 0 }, "sim: experiment runs 0: must be between 1 and 100000"},
		{func(e *Experiment) { e.Clients = []int{10, 0} }, "sim: experiment clients 0: must be between 1 and 100000"},
		{func(e *Experiment) { e.Clients = nil }, "sim: experiment has no client counts"},
		{func(e *Experiment) { e.Curves = nil }, "sim: experiment has no curves"},
		{func(e *Experiment) { e.MaxAttempts = 1001 }, "sim: experiment max attempts 1001: must be 0 (the most core allows) or between 1 and 1000"},
		{func(e *Experiment) { e.Curves[2].Backoff.Base = 0 }, `sim: curve "full": core: backoff base 0s: must be between 1ms and 1h`},
		{func(e *Experiment) { e.Curves[0].Backoff.Strategy = 0 }, `sim: curve "none": strategy none never retries`},
		{func(e *Experiment) { e.NetSD = -1 }, "sim: contention network delay mean 10ms, sd -1ns: must not be negative"},
	} {
		e := AWS()
		tc.mod(&e)
		err := e.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
		if _, err := e.Run(); err == nil {
			t.Error("Run accepted an invalid experiment")
		}
	}
}

// The zero Fleet, Contention and Experiment are not valid, as their docs
// say, and Validate names what is missing.
func TestZeroConfigsAreInvalid(t *testing.T) {
	var f Fleet
	var c Contention
	var e Experiment
	for _, tc := range []struct {
		err  error
		want string
	}{
		{f.Validate(), "sim: fleet workers 0: must be at least 1"},
		{c.Validate(), "sim: contention clients 0: must be at least 1"},
		{e.Validate(), "sim: experiment has no curves"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("got %v, want %q", tc.err, tc.want)
		}
	}
}
