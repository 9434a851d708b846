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
