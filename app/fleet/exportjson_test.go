package fleet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/core"
)

// rateLimitOf is h's rateLimitHeaders as the JSON writes them, header
// name → value of those present; nil when none is (the oracle's
// exportEvent.RateLimit).
func rateLimitOf(h core.Header) map[string]string {
	var m map[string]string
	for _, name := range rateLimitHeaders {
		if v := h.Get(name); v != "" {
			if m == nil {
				m = map[string]string{}
			}
			m[name] = v
		}
	}
	return m
}

// jsonByEncodingJSON is Recording.JSON as it was written with encoding/json
// (until 2026-12-04): the oracle the hand-written export must match byte
// for byte.
func jsonByEncodingJSON(r *Recording, w io.Writer) error {
	h, recs := r.exportHead() // the head's values; what is checked is how they are written
	head, err := json.MarshalIndent(&h, "", " ")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head[:len(head)-2]) // without its last line, the closing brace
	bw.WriteString(",\n \"events\": [")
	for i := range recs {
		x := toExport(r.Start, r.Simulated, &recs[i])
		if x.hdr != nil {
			x.RateLimit = rateLimitOf(x.hdr)
		}
		b, err := json.Marshal(&x)
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n  ")
		bw.Write(b)
	}
	if len(recs) > 0 {
		bw.WriteString("\n ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// checkExportJSON checks that rec's JSON is the oracle's, byte for byte,
// or that both refuse it.
func checkExportJSON(t *testing.T, name string, rec *Recording) {
	t.Helper()
	var got, want bytes.Buffer
	errGot, errWant := rec.JSON(&got), jsonByEncodingJSON(rec, &want)
	if (errGot != nil) != (errWant != nil) {
		t.Errorf("%s: JSON's error %v, encoding/json's %v", name, errGot, errWant)
		return
	}
	if errWant != nil {
		return
	}
	if g, w := got.Bytes(), want.Bytes(); !bytes.Equal(g, w) {
		i := 0
		for i < min(len(g), len(w)) && g[i] == w[i] {
			i++
		}
		from := max(0, i-200)
		t.Errorf("%s: JSON differs from encoding/json's at byte %d of %d/%d:\n got …%s…\nwant …%s…", name, i, len(g), len(w),
			g[from:min(len(g), i+200)], w[from:min(len(w), i+200)])
	}
}

var oddExportStrings = []string{
	"", "plain", "<html> & friends", `quote " and \ backslash`, "line\nbreak\ttab\r\x00\x1f\x7f",
	"\u2028\u2029", "bad \xff\xfe utf-8", "日本語 é 🚀", strings.Repeat("x", 3000),
}

// oddRecords is a live-like run of events with odd strings, headers and
// times: every kind, every optional key, values at encoding/json's
// formatting's edges (1e-6 ms, 1e21, negative times).
func oddRecords(rng *rand.Rand, n int) []Record {
	str := func() string { return oddExportStrings[rng.IntN(len(oddExportStrings))] }
	dur := func() time.Duration {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return time.Duration(rng.IntN(3)) // 0–2 ns: 1e-6 ms, the edge of 'e'
		case 2:
			return -time.Duration(rng.Int64N(int64(time.Hour)))
		case 3:
			return time.Duration(rng.Int64N(math.MaxInt64 / 2)) // centuries
		}
		return time.Duration(rng.Int64N(int64(10 * time.Second)))
	}
	var recs []Record
	for range n {
		w, j, a := rng.IntN(500), rng.IntN(20), 1+rng.IntN(8)
		when := t0.Add(dur())
		e := core.Event{At: when, Attempt: a, Note: str()}
		r := Record{Worker: w, Job: j}
		switch rng.IntN(4) {
		case 0:
			e.Kind = core.EventAttempt
			if rng.IntN(2) == 0 {
				e.Intended = t0.Add(dur())
			}
		case 1:
			e.Kind = core.EventOutcome
			at := Attempt{Status: []int{0, 200, 429, 503, 500, 418}[rng.IntN(6)], Handoff: dur(), Queued: dur(), Pickup: dur(),
				Measured: Timings(rng.IntN(8)), ServerSeq: rng.IntN(3) * rng.IntN(1<<40)}
			if rng.IntN(2) == 0 {
				at.ServerAt = t0.Add(dur())
			}
			switch rng.IntN(4) {
			case 0:
				at.Err = errors.New(str())
			case 1:
				at.Err = context.Canceled
			}
			if rng.IntN(3) > 0 {
				h := http.Header{}
				for _, name := range append(rateLimitHeaders[:], "Retry-After", "Content-Type") {
					if rng.IntN(2) == 0 {
						h.Set(name, str())
					}
				}
				at.Header = h
			}
			e.Outcome = at.Outcome()
			r.Attempt = &at
		case 2:
			e.Kind = core.EventWait
			e.Wait = dur()
			e.Reason = core.Reason(rng.IntN(5))
			if rng.IntN(3) == 0 {
				e.Intended = t0.Add(dur())
			}
		case 3:
			e.Kind = core.EventDone
			switch rng.IntN(4) {
			case 0:
				e.Err = &core.StopError{Cause: core.ErrExhausted, Attempts: a, Last: &core.StatusError{Status: 500}}
			case 1:
				e.Err = &core.StopError{Cause: core.ErrCancelled, Attempts: a, Context: context.Canceled}
			case 2:
				e.Err = errors.New(str())
			}
		}
		r.Event = e
		recs = append(recs, r)
	}
	slices.SortStableFunc(recs, func(a, b Record) int { return a.Event.At.Compare(b.Event.At) })
	return recs
}

// The hand-written JSON export is what encoding/json wrote, byte for byte,
// for runs of every kind: simulated and live, finished, stopped, at a
// limit and not run, with faults, gaps and errors, rate-limit headers, odd
// strings and floats at the edges of encoding/json's formatting.
func TestExportJSONIsEncodingJSONs(t *testing.T) {
	for _, simulated := range []bool{true, false} {
		rec := NewRecording(Default(), t0, simulated)
		checkExportJSON(t, "no events", rec)
		rec.Append(handMade()...)
		checkExportJSON(t, "handMade", rec)
		rec.SetFaults([]Fault{
			{Kind: "outage", From: at(100), Until: at(3100)},
			{Kind: "limit", From: at(200), Until: at(1200), Scale: 0.5},
			{Kind: "limit", From: at(-5), Until: at(-5), Scale: 1e-300},
			{Kind: "limit", From: at(7), Until: at(8), Scale: 5e-7},
			{Kind: "burst", From: at(250), N: 40, Admitted: 3},
			{Kind: "odd <&> \u2028 \xff", From: t0.Add(time.Nanosecond), Until: t0.Add(2 * time.Nanosecond), Scale: 1e22},
		})
		rec.SetGaps([]Gap{{Kind: "hidden", From: at(300), Until: at(2300)}, {Kind: "stream_lost", From: at(2500)}})
		rec.OutageErr = errors.New(`POST /mock/outage: the server refused it (503): "<oops>" & ` + "\x01")
		checkExportJSON(t, "faults, gaps, outage error", rec)
		rec.Stopped = true
		checkExportJSON(t, "stopped", rec)
		rec.Limited = true
		checkExportJSON(t, "at its limit", rec)
		rec.Err = errors.New("fleet: invalid \xff <scenario>")
		checkExportJSON(t, "not run", rec)
	}

	s := Default()
	s.Target = "https://example.com/a?b=<c>&d=\u2028é"
	s.Room = "room \"1\""
	rec := NewRecording(s, time.Date(2026, 12, 4, 4, 5, 6, 789, time.FixedZone("", 3600)), false)
	rec.Append(handMade()...)
	checkExportJSON(t, "odd scenario, start not in UTC", rec)

	for i := range 40 {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		rec := NewRecording(Default(), t0, i%3 == 0)
		rec.Append(oddRecords(rng, 1+rng.IntN(300))...)
		if i%4 == 0 {
			rec.SetFaults([]Fault{{Kind: "burst", From: t0.Add(time.Duration(rng.Int64())), N: rng.IntN(100), Admitted: rng.IntN(100)}})
		}
		checkExportJSON(t, "odd records "+string(rune('A'+i)), rec)
	}

	for _, p := range Presets {
		s := p.Scenario()
		s.Jobs = min(s.Jobs, 3)
		checkExportJSON(t, "preset "+p.ID, Simulate(s))
	}
	s = Default()
	s.Workers, s.Jobs = 500, 2
	checkExportJSON(t, "500 workers", Simulate(s))
	// An empty Retry-After is written "" (absent, it is left out).
	s, _ = FromQuery(url.Values{"ra_honour": {"on"}, "retry_after": {"malformed"}, "malformed": {"empty"}, "workers": {"5"}, "jobs": {"2"}, "rate": {"1"}, "burst": {"1"}})
	rec = Simulate(s)
	var b bytes.Buffer
	if err := rec.JSON(&b); err != nil || !strings.Contains(b.String(), `"retry_after":""`) {
		t.Errorf("an empty Retry-After: err %v, no \"retry_after\": \"\" in the export", err)
	}
	checkExportJSON(t, "empty Retry-After", rec)
}

// What encoding/json refuses, the export refuses too: a fault's scale of
// NaN.
func TestExportJSONRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, scale := range []float64{math.NaN(), math.Inf(1)} {
		rec := NewRecording(Default(), t0, false)
		rec.Append(handMade()...)
		rec.SetFaults([]Fault{{Kind: "limit", From: at(1), Until: at(2), Scale: scale}})
		var buf bytes.Buffer
		if err := rec.JSON(&buf); err == nil || buf.Len() > 0 {
			t.Errorf("scale %v: wrote %d bytes, error %v", scale, buf.Len(), err)
		}
		if err := jsonByEncodingJSON(rec, io.Discard); err == nil {
			t.Errorf("scale %v: encoding/json no longer refuses it", scale)
		}
	}
}

// The ratelimit object is written in rateLimitHeaders' order, which must
// be encoding/json's order of a map's keys.
func TestRateLimitHeadersAreSorted(t *testing.T) {
	if !slices.IsSorted(rateLimitHeaders[:]) {
		t.Errorf("rateLimitHeaders %q are not sorted", rateLimitHeaders)
	}
}

// Every header family core.ParseRateLimit reads and waits on is shown and
// exported: the older drafts' RateLimit-Limit, -Remaining and -Reset were
// read but left out, so a wait on them named no header.
func TestRateLimitLinesHasEveryFamily(t *testing.T) {
	h := http.Header{}
	h.Set("RateLimit-Limit", "10")
	h.Set("RateLimit-Remaining", "0")
	h.Set("RateLimit-Reset", "3")
	h.Set("Retry-After", "3")
	if got, want := RateLimitLines(h, "; "), "RateLimit-Limit: 10; RateLimit-Remaining: 0; RateLimit-Reset: 3"; got != want {
		t.Errorf("RateLimitLines = %q, want %q", got, want)
	}
	if hint, err := core.ParseRateLimit(h, time.Now()); err != nil || !hint.HasReset {
		t.Fatalf("core reads no reset from these: %+v, %v", hint, err)
	}
}

// BenchmarkRecordingJSON times the JSON export of a simulated run of
// 98,601 events (500 workers, 8 jobs each), hand-written and (for comparison) encoding/json's.
func BenchmarkRecordingJSON(b *testing.B) {
	s := Default()
	s.Workers, s.Jobs = 500, 8
	rec := Simulate(s)
	for _, c := range []struct {
		name  string
		write func(*Recording, io.Writer) error
	}{{"jsonlite", (*Recording).JSON}, {"encoding-json", jsonByEncodingJSON}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.write(rec, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rec.Len()), "events")
		})
	}
}
