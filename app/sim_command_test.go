//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// `retrylab sim` says how it is used: the experiments, and for one
// experiment its flags under a heading that names it; a flag out of range
// is refused with its name, its value and the range.
func TestSimUsage(t *testing.T) {
	for _, c := range []struct {
		args          []string
		wantErr       string // "" for -h
		want, wantNot []string
	}{
		{[]string{"-h"}, "", []string{"retrylab sim aws", "retrylab sim scenario"}, []string{"Flags"}},
		{[]string{}, "name an experiment", []string{"retrylab sim aws"}, []string{"Flags"}},
		{[]string{"nope"}, `unknown experiment "nope"`, []string{"retrylab sim scenario"}, []string{"Flags"}},
		{[]string{"aws", "-h"}, "", []string{"Flags of retrylab sim aws:", "-runs", "-parallel"}, nil},
		{[]string{"scenario", "-h"}, "", []string{"Flags of retrylab sim scenario:", "-max-attempts"}, nil},
		{[]string{"aws", "-runs", "0"}, "-runs 0: must be between 1 and 100000", nil, nil},
		// Decimal only: flag.IntVar took 010 as octal 8 and 0x10 as 16.
		{[]string{"aws", "-runs", "0x10"}, `-runs "0x10": must be an integer between 1 and 100000`, nil, nil},
		{[]string{"aws", "-parallel", "1_0"}, `-parallel "1_0": must be an integer between 0 and 1024`, nil, nil},
		{[]string{"aws", "-seed", "0x1"}, `-seed "0x1": must be an integer between 0 and 18446744073709551615`, nil, nil},
		{[]string{"scenario", "-max-attempts", "0x10"}, `-max-attempts "0x10": must be an integer between 1 and 10000000`, nil, nil},
		// A file it cannot write fails before the sweep (it ran ~6 s first).
		{[]string{"aws", "-runs", "100000", "-csv", "/nonexistent-dir/aws.csv"}, "/nonexistent-dir/aws.csv", nil, nil},
		{[]string{"scenario", "workers=20", "-json", "/nonexistent-dir/r.json"}, "/nonexistent-dir/r.json", nil, nil},
	} {
		var stdout, stderr strings.Builder
		err := runSim(c.args, &stdout, &stderr)
		switch {
		case c.wantErr == "" && !errors.Is(err, flag.ErrHelp):
			t.Errorf("%q: %v, want flag.ErrHelp", c.args, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%q: %v, want an error with %q", c.args, err, c.wantErr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q: usage lacks %q:\n%s", c.args, w, stderr.String())
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(stderr.String(), w) {
				t.Errorf("%q: usage has %q with no flags under it:\n%s", c.args, w, stderr.String())
			}
		}
	}
}

// `retrylab sim scenario` runs the configuration asked for or none: a query
// the page would fall back from, field by field, is refused with each
// problem (and without the page's fallback, which did not happen here).
func TestSimScenarioRefusesABadQuery(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string // "" : it runs
	}{
		{"workers=20&jobs=1&limiter=none", nil},
		{"workers=abc", []string{`Workers "abc": must be an integer between 1 and 10000`}},
		// The key typed, beside the label the page shows (a review).
		{"rate=0&limiter=bogus", []string{`Server rate (rate) "0"`, `Server limiter (limiter) "bogus"`}},
		{"limiter=fixed&limit=0", []string{`Requests per window (limit) "0": must be`}},
		{"fail500=60&drop=60", []string{"500 errors + 503 errors + Dropped connections + Hangs ≤ 100%"}},
		{"nosuch=1", []string{`unknown parameter "nosuch"`}},
		// A page link with a baseline: what vs is, and how to simulate it.
		{"http://localhost:8080/?workers=5&vs=workers%3D3%26strategy%3Dfull", []string{"vs is the page's comparison baseline", `retrylab sim scenario 'workers=3&strategy=full'`}},
		{"workers=5&workers=6", []string{"Workers (workers) is given 2 times"}},
		{"workers=20000", []string{`Workers "20000": must be an integer between 1 and 10000`}},
		{"workers=2000&jobs=1&limiter=none", nil},
	} {
		var stdout, stderr strings.Builder
		err := runSim([]string{"scenario", c.query}, &stdout, &stderr)
		if len(c.want) == 0 {
			if err != nil || !strings.Contains(stdout.String(), "Simulated") {
				t.Errorf("%q: %v\n%s", c.query, err, stdout.String())
			}
			continue
		}
		if err == nil {
			t.Errorf("%q ran:\n%s", c.query, stdout.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v, want it to say %q", c.query, err, w)
			}
		}
		if strings.Contains(err.Error(), "using the") || strings.Contains(err.Error(), "ignored") || stdout.Len() > 0 {
			t.Errorf("%q: %v (printed %q): it says the page's fallback, or ran", c.query, err, stdout.String())
		}
	}
}

// A bad query leaves the files the command was to write as they were: it
// emptied an existing one before it read the query (a review).
func TestSimScenarioBadQueryKeepsTheFiles(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.json")
	if err := os.WriteFile(keep, []byte("data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if err := runSim([]string{"scenario", "workers=0", "-json", keep, "-csv", filepath.Join(dir, "new.csv")}, &stdout, &stderr); err == nil {
		t.Fatal("workers=0 ran")
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "data\n" {
		t.Errorf("keep.json after a bad query: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.csv")); !os.IsNotExist(err) {
		t.Errorf("new.csv made for a bad query: %v", err)
	}
}

// The same seed prints the same stdout: the sweep's wall-clock time, its
// one line that differs between runs, goes to stderr (a review found two
// runs' stdout differing there alone); and one run is one.
func TestSimAWSStdoutIsTheSeeds(t *testing.T) {
	var outs [2]string
	for i := range outs {
		var stdout, stderr strings.Builder
		if err := runSim([]string{"aws", "-runs", "1", "-seed", "7"}, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		outs[i] = stdout.String()
		if !strings.Contains(stderr.String(), "sweep took") || strings.Contains(outs[i], "wall clock") {
			t.Errorf("the sweep's time: stderr %q, stdout says it: %v", stderr.String(), strings.Contains(outs[i], "wall clock"))
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("one seed, two stdouts:\n%s\n---\n%s", outs[0], outs[1])
	}
	if !strings.Contains(outs[0], "19 client counts × 1 run × 5 strategies on ") {
		t.Errorf("the header: %s", strings.SplitN(outs[0], "\n", 2)[0])
	}
}

// With few runs a point, a finding that misses is said to be chance (a
// review ran -runs 1 and read "DOES NOT HOLD" as the post being wrong);
// when every finding holds, nothing is said.
func TestSimAWSFewRunsMissByChance(t *testing.T) {
	for _, c := range []struct {
		runs, seed string
		note       bool
	}{
		{"1", "1", true},
		{"10", "6", true},
		{"10", "1", false},
	} {
		var stdout, stderr strings.Builder
		if err := runSim([]string{"aws", "-runs", c.runs, "-seed", c.seed}, &stdout, &stderr); err != nil {
			t.Fatal(err)
		}
		out := stdout.String()
		missed := strings.Contains(out, "DOES NOT HOLD")
		said := strings.Contains(out, "a point, chance can make a finding miss: the post averaged 100 runs")
		if missed != c.note || said != c.note {
			t.Errorf("-runs %s -seed %s: a finding missed %v, said it is chance %v; want both %v\n%s", c.runs, c.seed, missed, said, c.note, out)
		}
	}
}

// The printed numbers say what happened: a run in which no job succeeded
// printed "wasted per success 0.00 requests" (no waste at all), and one
// stopped at its attempt limit "drained after", when the jobs left were
// cancelled there.
func TestSimScenarioNumbersTellWhatHappened(t *testing.T) {
	for _, c := range []struct {
		args          []string
		want, wantNot []string
	}{
		{[]string{"scenario", "workers=5&jobs=1&fail500=100&attempts=3&latency=10ms"},
			[]string{"5 workers × 1 job,", "wasted per success     – (no job succeeded: all 15 requests wasted)", "drained after"}, []string{"0.00 requests", "stopped after", "1 jobs"}},
		// The attempts in flight at the limit are aborted there, not by
		// Stop: "100 aborted" did not say by what.
		{[]string{"scenario", "workers=100&jobs=5&latency=200ms", "-max-attempts", "300"},
			[]string{"100 workers × 5 jobs,", "stopped after", "(the attempt limit)", " timed out, 52 aborted at the attempt limit\n"}, []string{"drained after", "by Stop"}},
		// No job over: nothing measured, not 0 µs (the page says "–").
		{[]string{"scenario", "workers=10&jobs=1&hang=100&timeout=0s", "-max-attempts", "10"},
			[]string{"job completion         – (no job completed)"}, []string{"p50 0 µs"}},
		// A total is said as such, and run as dealt: 7 jobs, not 3 × 7.
		{[]string{"scenario", "workers=3&jobs=7&jobs_of=fleet&limiter=none"},
			[]string{"3 workers sharing 7 jobs,", "7 succeeded, 0 gave up; at most 3 at once\n"}, []string{"workers ×"}},
		// One is one: "1 first tries", "all 1 requests wasted" (a review).
		{[]string{"scenario", "workers=1&jobs=1&fail500=100&attempts=1&latency=10ms"},
			[]string{"1 (1 first try, 0 retries;", "(no job succeeded: the 1 request wasted)"}, []string{"1 first tries", "1 requests"}},
		{[]string{"scenario", "workers=1&jobs=1&fail500=100&attempts=2&latency=10ms"},
			[]string{"2 (1 first try, 1 retry;", "all 2 requests wasted"}, []string{"1 retries"}},
		{[]string{"scenario", "workers=5&jobs=1&limiter=none"},
			[]string{"wasted per success     0.00 requests", "drained after", " timed out, 0 aborted at the attempt limit\n", "; at most 5 at once\n", "dispersion             – (no retry)"}, []string{"stopped after", "by Stop"}},
	} {
		var stdout, stderr strings.Builder
		if err := runSim(c.args, &stdout, &stderr); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%q: lacks %q:\n%s", c.args, w, stdout.String())
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(stdout.String(), w) {
				t.Errorf("%q: says %q:\n%s", c.args, w, stdout.String())
			}
		}
	}
}

// `sim scenario -json` writes the attempts aborted by cause, as it prints
// them: at the attempt limit (all of them: a simulation has no Stop).
func TestSimScenarioJSONTellsWhatAborted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr strings.Builder
	if err := runSim([]string{"scenario", "workers=100&jobs=5&latency=200ms", "-max-attempts", "300", "-json", path}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		End   string `json:"end"`
		Stats struct {
			Aborted        *int `json:"aborted"`
			AbortedByStop  *int `json:"aborted_by_stop"`
			AbortedAtLimit *int `json:"aborted_at_limit"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	st := doc.Stats
	v := func(p *int) any {
		if p == nil {
			return "missing"
		}
		return *p
	}
	if doc.End != "attempt-limit" || st.Aborted == nil || st.AbortedByStop == nil || st.AbortedAtLimit == nil ||
		*st.AbortedAtLimit != 52 || *st.AbortedByStop != 0 || *st.Aborted != 52 || !strings.Contains(stdout.String(), " 52 aborted at the attempt limit\n") {
		t.Errorf("end %q, stats aborted %v, by Stop %v, at the limit %v; want attempt-limit, 52, 0, 52 as printed:\n%s", doc.End, v(st.Aborted), v(st.AbortedByStop), v(st.AbortedAtLimit), stdout.String())
	}
}

// The printed numbers include the two the README quotes from a run and
// the page shows, jobs at once and the retries' dispersion, as the JSON
// export's stats give them: they were only in -json.
func TestSimScenarioPrintsJobsAtOnceAndDispersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr strings.Builder
	if err := runSim([]string{"scenario", "workers=40&jobs=2&strategy=constant&base=2s&rate=5&burst=5", "-json", path}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stats struct {
			PeakJobs   int     `json:"peak_jobs"`
			Dispersion float64 `json:"dispersion"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Stats.Dispersion <= 1 {
		t.Fatalf("a constant 2 s backoff's retries have a dispersion of %v, want herds (≫ 1)", doc.Stats.Dispersion)
	}
	for _, want := range []string{
		fmt.Sprintf("; at most %d at once\n", doc.Stats.PeakJobs),
		fmt.Sprintf("dispersion             %.2f (variance ÷ mean of the retries sent per 100 ms: about 1 when they come independently, ≫ 1 in herds)\n", doc.Stats.Dispersion),
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("lacks %q:\n%s", want, stdout.String())
		}
	}
}

// Two outputs in one file, or a stray argument: refused, saying why (the
// CSV replaced the JSON, and "quote the query: it contains &" was said of
// a query without one; a review).
func TestSimScenarioRefusesWhatItCannotDo(t *testing.T) {
	f := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"scenario", "workers=2", "-json", f, "-csv", f}, "-json and -csv name the same file"},
		{[]string{"scenario", "workers=1", "extra"}, `unexpected argument "extra" (give one query)`},
		{[]string{"scenario", "workers=1", "jobs=2&seed=3"}, "quote the query: it contains &"},
	} {
		var stdout, stderr strings.Builder
		err := runSim(c.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want it to say %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(f); !os.IsNotExist(err) {
		t.Errorf("a refused command made %s: %v", f, err)
	}
}

// A sweep tells its progress on a terminal at most once a second, with the
// time left at the pace so far, on one line it writes over and clears at
// the end: -runs 100000 ran ~3 hours with nothing to show (a review).
func TestSweepProgress(t *testing.T) {
	var out strings.Builder
	clock := time.Date(2026, 12, 6, 6, 0, 0, 0, time.UTC)
	progress, end := sweepProgress(&out, func() time.Time { return clock })
	for _, step := range []struct {
		after      time.Duration
		done, want string
	}{
		{300 * time.Millisecond, "1", ""}, // not a second yet
		{800 * time.Millisecond, "10", "\rsweep: 10 of 100 runs (10%), about 10s left\033[K"},
		{500 * time.Millisecond, "15", ""},
		{600 * time.Millisecond, "50", "\rsweep: 50 of 100 runs (50%), about 2s left\033[K"},
		{2 * time.Second, "100", ""}, // done: end clears the line
	} {
		clock = clock.Add(step.after)
		out.Reset()
		n, _ := strconv.Atoi(step.done)
		progress(n, 100)
		if out.String() != step.want {
			t.Errorf("%s of 100 done: wrote %q, want %q", step.done, out.String(), step.want)
		}
	}
	out.Reset()
	end()
	if out.String() != "\r\033[K" {
		t.Errorf("the end wrote %q, want the line cleared", out.String())
	}
	// Not a terminal: a pipe is told nothing.
	if isTerminal(&out) {
		t.Error("a strings.Builder is a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) {
		t.Error("a pipe is a terminal")
	}
}

// FuzzScenarioFromQuery: whatever is typed as the query, sim scenario
// reads it without a panic, and a query it takes whole is the scenario
// it says it simulates: its printed query (Encode) reads back the same.
func FuzzScenarioFromQuery(f *testing.F) {
	for _, q := range []string{"", "workers=5&jobs=3", "?workers=5#x", "workers=5;jobs=3", "workers=%zz", "vs=workers%3D3",
		"http://localhost:8080/?strategy=none&attempts=3", "a%zz=1", "workers=5&workers=6", "rate=0&limiter=bogus", "workers=2000&jobs=1"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		s, notes, err := scenarioFromQuery(q)
		if err != nil || len(notes) > 0 {
			return
		}
		again, notes, err := scenarioFromQuery(s.Encode())
		if err != nil || len(notes) > 0 || again.Encode() != s.Encode() {
			t.Fatalf("%q read as %s, which reads back as %s (%v, %v)", q, s.Encode(), again.Encode(), notes, err)
		}
	})
}

// FuzzDecimalFlag: a flag's value is a decimal integer it keeps, or one
// its check refuses, naming the value; never a panic, never a number
// read otherwise (0x50, 1e3 and " 5" are refused).
func FuzzDecimalFlag(f *testing.F) {
	for _, v := range []string{"5", "-1", "0x50", "1e3", "+5", " 5", "", "18446744073709551615", "18446744073709551616"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var n int
		fl := &decimalFlag[int]{p: &n}
		if err := fl.Set(v); err != nil {
			t.Fatalf("Set(%q): %v", v, err)
		}
		err := fl.check("runs", "an integer")
		want, perr := strconv.Atoi(v)
		switch {
		case perr != nil && (err == nil || !strings.Contains(err.Error(), strconv.Quote(v))):
			t.Fatalf("%q: check %v, want it refused by name", v, err)
		case perr == nil && (err != nil || n != want):
			t.Fatalf("%q: %d, %v; want %d", v, n, err, want)
		}
	})
}
