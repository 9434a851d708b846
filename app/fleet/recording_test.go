package fleet

import (
	"bytes"
	"reflect"
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
