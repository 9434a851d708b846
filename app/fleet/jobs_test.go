package fleet

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"retrylab/core"
)

// query reads a test's link, which must be allowed as it is.
func query(t *testing.T, raw string) Scenario {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, notes := FromQuery(q)
	if notes != nil {
		t.Fatalf("%s: notes %v", raw, notes)
	}
	return s
}

// Jobs counted in total are dealt over the workers: total ÷ workers each,
// one more for each of the first total mod workers; per worker (the
// default, and jobs_of=worker) each worker runs Jobs.
func TestJobsOfDealsTheTotal(t *testing.T) {
	for _, c := range []struct {
		name  string
		q     string
		want  []int // JobsOf, worker by worker
		total int
	}{
		{"per worker, as links before jobs_of", "workers=3&jobs=7", []int{7, 7, 7}, 21},
		{"per worker", "workers=3&jobs=7&jobs_of=worker", []int{7, 7, 7}, 21},
		{"in total, even", "workers=3&jobs=6&jobs_of=fleet", []int{2, 2, 2}, 6},
		{"in total, a remainder", "workers=3&jobs=7&jobs_of=fleet", []int{3, 2, 2}, 7},
		{"in total, a remainder of all but one", "workers=4&jobs=11&jobs_of=fleet", []int{3, 3, 3, 2}, 11},
		{"in total, fewer than the workers", "workers=5&jobs=2&jobs_of=fleet", []int{1, 1, 0, 0, 0}, 2},
		{"in total, one job", "workers=3&jobs=1&jobs_of=fleet", []int{1, 0, 0}, 1},
		{"in total, one worker", "workers=1&jobs=1000&jobs_of=fleet", []int{1000}, 1000},
		{"in total, the most", "workers=4&jobs=4000&jobs_of=fleet", []int{1000, 1000, 1000, 1000}, 4000},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := query(t, c.q)
			got := make([]int, s.Workers)
			sum := 0
			for w := range got {
				got[w] = s.JobsOf(w)
				sum += got[w]
			}
			if !slices.Equal(got, c.want) || s.TotalJobs() != c.total || sum != c.total {
				t.Errorf("JobsOf %v (sum %d), TotalJobs %d; want %v, %d", got, sum, s.TotalJobs(), c.want, c.total)
			}
		})
	}
	// The largest fleet's largest total: 1000 each.
	s := query(t, "workers=10000&jobs=10000000&jobs_of=fleet")
	for _, w := range []int{0, 4999, 9999} {
		if n := s.JobsOf(w); n != 1000 {
			t.Errorf("10,000,000 over 10,000 workers: worker %d runs %d, want 1000", w, n)
		}
	}
}

// How many jobs may be asked for depends on how they are counted: 1–1000
// per worker; in total 1 up to workers × 1000 (a worker never runs more
// than a per-worker fleet's), 10,000,000 at most. A value past the mode's
// bound is a rule between fields (as a cap below the base): Validate names
// the field, the value and the range, FromQuery puts Jobs back to its
// default with a notice saying so; past the field's own range, Set refuses
// it. Never clamped.
func TestJobsRangeDependsOnHowTheyAreCounted(t *testing.T) {
	for _, c := range []struct {
		name string
		q    string
		msg  string // Validate's message on jobs, Set's if set; "" = allowed
		set  bool   // Set refuses it (the field's own range)
	}{
		{"per worker, the most", "jobs=1000", "", false},
		{"per worker, above", "jobs=1001", `Jobs "1001": must be an integer between 1 and 1000 per worker (or count them in total)`, false},
		{"per worker, said, above", "workers=3&jobs=5000&jobs_of=worker", `Jobs "5000": must be an integer between 1 and 1000 per worker (or count them in total)`, false},
		{"in total, above a worker's", "jobs=1001&jobs_of=fleet", "", false},
		{"in total, the most for 3 workers", "workers=3&jobs=3000&jobs_of=fleet", "", false},
		{"in total, above workers × 1000", "workers=3&jobs=3001&jobs_of=fleet", `Jobs "3001": must be an integer between 1 and 3000 in total (Workers × 1000)`, false},
		{"in total, the most of all", "workers=10000&jobs=10000000&jobs_of=fleet", "", false},
		{"in total, above the most of all", "workers=10000&jobs=10000001&jobs_of=fleet",
			`Jobs "10000001": must be an integer between 1 and 1000 per worker; in total (jobs_of=fleet), between 1 and Workers × 1000 (10000000 at most)`, true},
		{"in total, none", "jobs=0&jobs_of=fleet",
			`Jobs "0": must be an integer between 1 and 1000 per worker; in total (jobs_of=fleet), between 1 and Workers × 1000 (10000000 at most)`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, _ := url.ParseQuery(c.q)
			// Field by field, as typed: jobs_of and workers first or last.
			for _, order := range [][]string{{"workers", "jobs_of", "jobs"}, {"jobs", "jobs_of", "workers"}} {
				s := Default()
				var setErr error
				for _, k := range order {
					if v, ok := q[k]; ok {
						f, _ := FieldByKey(k)
						if err := f.Set(&s, v[0]); err != nil {
							setErr = err
						}
					}
				}
				if c.set {
					if setErr == nil || setErr.Error() != c.msg {
						t.Errorf("order %v: Set error %v, want %q", order, setErr, c.msg)
					}
					continue
				}
				if setErr != nil {
					t.Fatalf("order %v: Set: %v", order, setErr)
				}
				errs := s.Validate()
				if c.msg == "" {
					if errs != nil {
						t.Errorf("order %v: Validate %v, want it allowed", order, errs)
					}
					continue
				}
				if len(errs) != 1 || errs[0].Key != "jobs" || errs[0].Value != q.Get("jobs") || errs[0].Msg != c.msg {
					t.Errorf("order %v: Validate %+v, want one error on jobs %q: %q", order, errs, q.Get("jobs"), c.msg)
				}
			}
			// A link: the same words as a notice, and the default instead.
			s, notes := FromQuery(q)
			if c.msg == "" {
				if notes != nil || fmt.Sprint(s.Jobs) != q.Get("jobs") {
					t.Errorf("FromQuery: jobs %d, notes %v; want %s as given", s.Jobs, notes, q.Get("jobs"))
				}
				return
			}
			if want := c.msg + "; using the default 2"; len(notes) != 1 || notes[0].Key != "jobs" || notes[0].Msg != want {
				t.Errorf("FromQuery notes %+v, want one on jobs: %q", notes, want)
			}
			if s.Jobs != 2 || s.Validate() != nil {
				t.Errorf("FromQuery: jobs %d, Validate %v; want the default 2, valid", s.Jobs, s.Validate())
			}
		})
	}
	// The page's order: 5000 typed per worker is not allowed; counted in
	// total it is, and per worker again it is not.
	s := Default()
	jobs, _ := FieldByKey("jobs")
	jobsOf, _ := FieldByKey("jobs_of")
	for _, step := range []struct {
		f       *Field
		v       string
		invalid bool
	}{{jobs, "5000", true}, {jobsOf, "fleet", false}, {jobsOf, "worker", true}} {
		if err := step.f.Set(&s, step.v); err != nil {
			t.Fatal(err)
		}
		if errs := s.Validate(); (errs != nil) != step.invalid {
			t.Errorf("%s=%s: Validate %v, want invalid %v", step.f.Key, step.v, errs, step.invalid)
		}
	}
}

// jobs_of=worker, the default, is the fleet as it was before jobs_of: a
// link without it and one with it read the same, run the same and export
// the same program; a link with a total keeps it through the URL.
func TestJobsOfWorkerChangesNothing(t *testing.T) {
	links := map[string]url.Values{"default": {}}
	for _, p := range Presets {
		links[p.ID] = p.Query
	}
	for name, q := range links {
		before := url.Values{}
		for k, v := range q {
			if k != "jobs_of" {
				before[k] = v
			}
		}
		with := url.Values{"jobs_of": {"worker"}}
		for k, v := range before {
			with[k] = v
		}
		a, notesA := FromQuery(before)
		b, notesB := FromQuery(with)
		if notesA != nil || notesB != nil || a != b || a.JobsTotal || a.TotalJobs() != a.Workers*a.Jobs {
			t.Errorf("%s: without jobs_of %+v (%v), with jobs_of=worker %+v (%v)", name, a, notesA, b, notesB)
		}
		for w := range a.Workers {
			if a.JobsOf(w) != a.Jobs {
				t.Fatalf("%s: worker %d runs %d jobs, want %d", name, w, a.JobsOf(w), a.Jobs)
			}
		}
		if a.GoCode() != b.GoCode() {
			t.Errorf("%s: jobs_of=worker exports another program", name)
		}
	}
	// A total round-trips through each of the URL's forms.
	s := query(t, "workers=3&jobs=7&jobs_of=fleet")
	for _, raw := range []string{s.Encode(), s.EncodeChanged()} {
		if got := query(t, raw); got != s || !got.JobsTotal || got.TotalJobs() != 7 {
			t.Errorf("%q reads back as %+v, want %+v", raw, got, s)
		}
	}
	if got := s.EncodeChanged(); got != "workers=3&jobs=7&jobs_of=fleet" {
		t.Errorf("EncodeChanged = %q", got)
	}
}

// A simulation of a total runs exactly that many jobs, dealt over the
// workers; a worker dealt none sends nothing. Closed and open, against a
// limit that makes the jobs retry.
func TestSimulateDealsATotal(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []int // jobs per worker
	}{
		{"workers=3&jobs=7&jobs_of=fleet&limiter=none&latency=10ms", []int{3, 2, 2}},
		{"workers=5&jobs=12&jobs_of=fleet&rate=2&burst=2", []int{3, 3, 2, 2, 2}},
		{"workers=5&jobs=3&jobs_of=fleet", []int{1, 1, 1, 0, 0}},
		{"workers=4&jobs=10&jobs_of=fleet&workload=open&every=100ms&rate=5&burst=1", []int{3, 3, 2, 2}},
		{"workers=4&jobs=10&jobs_of=fleet&workload=open&every=100ms&arrivals=random", []int{3, 3, 2, 2}},
	} {
		s := query(t, c.q)
		rec := Simulate(s)
		if rec.Err != nil {
			t.Fatalf("%s: %v", c.q, rec.Err)
		}
		st := rec.Stats()
		total := s.TotalJobs()
		if st.Jobs != total || st.Successes+st.GiveUps != total || st.FirstTries != total || !rec.Drained(&st) {
			t.Errorf("%s: %d jobs (%d succeeded, %d gave up, %d first tries), drained %v; want %d, drained",
				c.q, st.Jobs, st.Successes, st.GiveUps, st.FirstTries, rec.Drained(&st), total)
		}
		if st.Retries == 0 && s.Mock.Rate == 2 {
			t.Errorf("%s: no retry: the limit was to make some", c.q)
		}
		got := make([]int, s.Workers)
		for _, r := range rec.Records() {
			if r.Worker >= s.Workers || r.Job >= s.JobsOf(r.Worker) {
				t.Fatalf("%s: a record of worker %d's job %d, past its %d jobs", c.q, r.Worker, r.Job, s.JobsOf(r.Worker))
			}
			if r.Event.Kind == core.EventDone {
				got[r.Worker]++
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: jobs per worker %v, want %v", c.q, got, c.want)
		}
	}
}
