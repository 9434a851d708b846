package fleet

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// The workers field takes up to SimWorkersRange.Max; only a live run is
// held to WorkersRange, with a message naming the field, value and ranges.
func TestWorkersAboveLiveRange(t *testing.T) {
	s, notes := FromQuery(url.Values{"workers": {"10000"}, "jobs": {"5"}})
	if len(notes) != 0 || s.Workers != 10000 {
		t.Fatalf("FromQuery workers=10000: %d workers, notes %v", s.Workers, notes)
	}
	if errs := s.Validate(); errs != nil {
		t.Fatalf("Validate: %v", errs)
	}
	errs := s.LiveErrors()
	if len(errs) != 1 || errs[0].Key != "workers" || errs[0].Value != "10000" ||
		errs[0].Msg != `Workers "10000": live runs take at most 500; Simulate takes up to 10000` {
		t.Errorf("LiveErrors = %+v", errs)
	}
	if errs := s.SimErrors(); errs != nil {
		t.Errorf("SimErrors = %v", errs)
	}
	rec := Run(context.Background(), s, nil, nil, nil) // refused before the transport is used
	if rec.Err == nil || !strings.Contains(rec.Err.Error(), "live runs take at most 500") || rec.Len() != 0 {
		t.Errorf("Run with 10000 workers: err %v, %d records", rec.Err, rec.Len())
	}
	for _, n := range []int{1, 500} {
		s.Workers = n
		if errs := s.LiveErrors(); errs != nil {
			t.Errorf("LiveErrors(%d workers) = %v", n, errs)
		}
	}
	s.Workers = 10001
	if errs := s.Validate(); len(errs) != 1 || errs[0].Key != "workers" {
		t.Errorf("Validate(10001 workers) = %v", errs)
	}
}

func TestSimErrorsCustomTarget(t *testing.T) {
	s := Default()
	s.Target = "https://api.example.com/x"
	errs := s.SimErrors()
	if len(errs) != 1 || errs[0].Key != "target" || !strings.Contains(errs[0].Msg, "cannot be simulated") {
		t.Errorf("SimErrors = %+v", errs)
	}
	if errs := s.LiveErrors(); errs != nil {
		t.Errorf("LiveErrors = %v", errs)
	}
}

// An open workload's arrival rate is held to LiveArrivalMax in a live run
// only; the message names the field, the value, the rate and the interval
// that would do.
func TestOpenArrivalRateAboveLiveRange(t *testing.T) {
	for _, tc := range []struct {
		query   string
		wantMsg string // "" = a live run may start
	}{
		{"workload=open&workers=500&every=1s", ""},
		{"workload=open&workers=50&every=100ms", ""},
		{"workload=open&workers=500&every=999ms", `Job interval "999ms": 500 workers would start 500.6 jobs/s; live runs take at most 500 jobs/s (an interval of at least 1s), or any rate for 500 jobs in all (here 1000); Simulate takes any`},
		{"workload=open&workers=500&every=999.9ms", `Job interval "999.9ms": 500 workers would start 500.1 jobs/s; live runs take at most 500 jobs/s (an interval of at least 1s), or any rate for 500 jobs in all (here 1000); Simulate takes any`},
		{"workload=open&workers=9&every=18ms", ""},  // exactly 500 jobs/s (as a float, 500.00000000000006)
		{"workload=open&workers=43&every=86ms", ""}, // exactly 500 jobs/s
		{"workload=open&workers=7&jobs=72&every=13ms", `Job interval "13ms": 7 workers would start 538.5 jobs/s; live runs take at most 500 jobs/s (an interval of at least 14ms), or any rate for 500 jobs in all (here 504); Simulate takes any`},
		{"workload=open&workers=7&jobs=71&every=13ms", ""}, // 497 jobs in all: never more in flight
		{"workload=open&workers=300&every=10ms", `Job interval "10ms": 300 workers would start 30000 jobs/s; live runs take at most 500 jobs/s (an interval of at least 600ms), or any rate for 500 jobs in all (here 600); Simulate takes any`},
		{"workload=open&workers=250&every=10ms", ""}, // 500 jobs in all
		// A total counts as the jobs the fleet runs, not its workers.
		{"workload=open&workers=500&jobs=3&jobs_of=fleet&every=10ms", ""},
		{"workload=open&workers=500&jobs=500&jobs_of=fleet&every=10ms", ""},
		{"workload=open&workers=500&jobs=501&jobs_of=fleet&every=10ms", `Job interval "10ms": 500 workers would start 50000 jobs/s; live runs take at most 500 jobs/s (an interval of at least 1s), or any rate for 500 jobs in all (here 501); Simulate takes any`},
		{"workload=closed&workers=500&every=10ms", ""}, // the interval only counts in an open workload
	} {
		q, _ := url.ParseQuery(tc.query)
		s, notes := FromQuery(q)
		if len(notes) != 0 {
			t.Fatalf("%s: notes %v", tc.query, notes)
		}
		errs := s.LiveErrors()
		switch {
		case tc.wantMsg == "" && errs != nil:
			t.Errorf("%s: LiveErrors = %v", tc.query, errs)
		case tc.wantMsg != "" && (len(errs) != 1 || errs[0].Key != "every" || errs[0].Msg != tc.wantMsg):
			t.Errorf("%s: LiveErrors = %+v, want %q", tc.query, errs, tc.wantMsg)
		}
		if errs := s.SimErrors(); errs != nil {
			t.Errorf("%s: SimErrors = %v", tc.query, errs)
		}
	}
}
