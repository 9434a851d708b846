package fleet

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A finished run's numbers, asked of all its records, are computed once,
// or kept from the page's own accumulator (KeepNumbers): the JSON
// export's head took 450 ms of the page's thread to compute them again for
// 900,000 records. A part of the records, or a run going on, is computed
// afresh.
func TestNumbersAreKeptOnceTheRunIsOver(t *testing.T) {
	s := Default()
	s.Workers, s.Jobs = 20, 2
	sim, _ := SimulateWith(s, SimOptions{})
	recs := sim.Shared()
	want, wantDisp := sim.Numbers(recs)

	// A run going on keeps nothing.
	rec := NewRecording(s, sim.Start, true)
	rec.Append(recs...)
	rec.KeepNumbers(Stats{Requests: -1}, -1)
	if st, _ := rec.Numbers(rec.Records()); st.Requests != want.Requests {
		t.Errorf("a run going on: %d requests, want %d", st.Requests, want.Requests)
	}
	end, _ := sim.End()
	rec.Finish(end)
	if st, disp := rec.Numbers(rec.Shared()); !reflect.DeepEqual(st, want) || disp != wantDisp {
		t.Errorf("finished: %+v, %v; want %+v, %v", st, disp, want, wantDisp)
	}

	// Kept numbers are what Numbers and the export's head say.
	rec.KeepNumbers(Stats{Requests: 123456789}, 0.5)
	if st, disp := rec.Numbers(rec.Records()); st.Requests != 123456789 || disp != 0.5 {
		t.Errorf("kept: %d requests, dispersion %v; want 123456789, 0.5", st.Requests, disp)
	}
	var b bytes.Buffer
	if err := rec.JSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"requests": 123456789`) {
		t.Errorf("the export's head did not write the kept numbers: %.300s", b.String())
	}
	// Part of the records: computed.
	if st, _ := rec.Numbers(recs[:len(recs)/2]); st.Requests == 123456789 {
		t.Error("half the records read the whole run's kept numbers")
	}
}

// The exports' events are in time order (the README says so, and an
// analyst reading a file relies on it, as on a job's first event being
// the one its completion counts from): by t_ms, and at one instant a
// job's events in the loop's order, an attempt before its outcome, an
// outcome before the wait or done it led to. A simulation records in
// virtual time's order; the page records each event as it happens
// (TestExports checks a live run's).
func TestExportedEventsAreInTimeOrder(t *testing.T) {
	for _, q := range []string{
		"workers=300&jobs=3&rate=20&latency=30ms&spread=40ms&fail500=5&drop=3&hang=2&timeout=1s&outage=2s&outage_at=1s",
		"workers=200&jobs=2&bucket=on&bucket_rate=50&strategy=decorrelated&ra_honour=on&retry_after=date",
		"workers=100&jobs=5&workload=open&every=200ms&arrivals=random&rate=50&latency=0s",
		"workers=50&jobs=4&strategy=constant&base=1ms&latency=0s&limiter=none",
	} {
		vals, errs := ParseQuery(q)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", q, errs)
		}
		s, errs := FromQuery(vals)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", q, errs)
		}
		rec := Simulate(s)
		rows := csvRows(t, rec)
		type job struct{ w, j string }
		last := map[job]string{} // the job's last kind at the last instant
		prev, lastAt := -1.0, map[job]float64{}
		rank := map[string]int{"attempt": 0, "outcome": 1, "wait": 2, "done": 2}
		for i, r := range rows[1:] {
			at, err := strconv.ParseFloat(r[0], 64)
			if err != nil {
				t.Fatal(err)
			}
			if at < prev {
				t.Fatalf("%s: row %d at %v ms comes after one at %v ms", q, i+1, at, prev)
			}
			prev = at
			k := job{r[2], r[3]}
			if k0, ok := last[k]; ok && lastAt[k] == at && rank[r[1]] < rank[k0] && r[1] != "attempt" {
				t.Fatalf("%s: row %d, job %v: %s after %s at one instant", q, i+1, k, r[1], k0)
			}
			last[k], lastAt[k] = r[1], at
		}
	}
}
