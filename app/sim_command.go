//go:build !(js && wasm)

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"retrylab/app/awsreport"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core/sim"
)

// simUsage is printed by `retrylab sim -h` and for a bad sim command.
const simUsage = `Usage:
  retrylab sim aws [-runs 100] [-seed 1] [-csv FILE] [-svg FILE] [-parallel N]
      reproduce the AWS Architecture Blog's "Exponential Backoff And Jitter"
      (2015) in virtual time: N clients race to update one record with
      optimistic concurrency, for 10 to 190 clients and five strategies;
      prints calls and completion time per point and checks the post's findings
  retrylab sim scenario ['QUERY'] [-json FILE] [-csv FILE] [-max-attempts N]
      simulate a playground configuration — the query of a page URL, such as
      'workers=2000&jobs=5&strategy=full&rate=100'; none: the page's
      defaults — and print its numbers; workers may go up to 10000
`

// awsSteadyRuns is how many runs a point every finding of the AWS post
// held at, for seeds 1 to 30; at 20, seed 6 missed one, and at 1 every
// seed of 1 to 12 missed one or two (retrylab sim aws -runs N -seed S).
const awsSteadyRuns = 30

// Allowed ranges of the sim flags.
var (
	simRunsRange     = [2]int{1, 100000}
	simParallelRange = [2]int{0, 1024}
)

// runSim runs `retrylab sim ...`.
func runSim(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, simUsage)
		return errors.New("sim: name an experiment: aws or scenario")
	}
	switch args[0] {
	case "aws":
		return simAWS(args[1:], stdout, stderr)
	case "scenario":
		return simScenario(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stderr, simUsage)
		return flag.ErrHelp
	}
	fmt.Fprint(stderr, simUsage)
	return fmt.Errorf("sim: unknown experiment %q: want aws or scenario", args[0])
}

func simFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("sim "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, simUsage)
		fmt.Fprintf(stderr, "\nFlags of retrylab sim %s:\n", name)
		fs.PrintDefaults()
	}
	return fs
}

func checkRange(flagName string, v int, r [2]int, note string) error {
	if v < r[0] || v > r[1] {
		return fmt.Errorf("-%s %d: must be between %d and %d%s", flagName, v, r[0], r[1], note)
	}
	return nil
}

func simAWS(args []string, stdout, stderr io.Writer) error {
	e := sim.AWS()
	fs := simFlags("aws", stderr)
	runs := decimalVar(fs, &e.Runs, "runs", e.Runs, "`n` runs per point, between 1 and 100000 (the post used 100)")
	seed := decimalVar(fs, &e.Seed, "seed", e.Seed, "`seed` of the whole sweep, between 0 and 18446744073709551615: the same seed prints the same table")
	csvPath := fs.String("csv", "", "also write the points as CSV to this file")
	svgPath := fs.String("svg", "", "also draw calls and completion time against clients as an SVG chart in this file")
	parallel := decimalVar(fs, &e.Parallel, "parallel", 0, "`goroutines` running the sweep, between 0 and 1024; 0 = one per CPU (results do not depend on it)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("sim aws: unexpected argument %q", fs.Arg(0))
	}
	for _, err := range []error{
		runs.check("runs", fmt.Sprintf("an integer between %d and %d", simRunsRange[0], simRunsRange[1])),
		seed.check("seed", "an integer between 0 and 18446744073709551615"),
		parallel.check("parallel", fmt.Sprintf("an integer between %d and %d (0 = one per CPU)", simParallelRange[0], simParallelRange[1])),
	} {
		if err != nil {
			return fmt.Errorf("sim aws: %w", err)
		}
	}
	if err := checkRange("runs", e.Runs, simRunsRange, ""); err != nil {
		return fmt.Errorf("sim aws: %w", err)
	}
	if err := checkRange("parallel", e.Parallel, simParallelRange, " (0 = one per CPU)"); err != nil {
		return fmt.Errorf("sim aws: %w", err)
	}
	if err := canWrite(*csvPath, *svgPath); err != nil {
		return fmt.Errorf("sim aws: %w", err)
	}
	par := e.Parallel
	if par == 0 {
		par = runtime.GOMAXPROCS(0)
	}
	fmt.Fprintf(stdout, "Exponential Backoff And Jitter (AWS Architecture Blog, 2015), simulated: %s × %s × %s on %s\n\n",
		count(len(e.Clients), "client count"), count(e.Runs, "run"), count(len(e.Curves), "strategy", "strategies"), count(par, "goroutine"))
	// A sweep of -runs 100000 takes hours: a terminal is told how far it is.
	end := func() {}
	if isTerminal(stderr) {
		e.Progress, end = sweepProgress(stderr, time.Now)
	}
	res, err := e.Run()
	end()
	if err != nil {
		return fmt.Errorf("sim aws: %w", err)
	}
	if err := awsreport.Table(stdout, res); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "\nThe post's findings:")
	missed := false
	for _, f := range sim.AWSFindings(res) {
		mark := "holds:       "
		if !f.Holds {
			mark = "DOES NOT HOLD:"
		}
		fmt.Fprintf(stdout, "  %s %s\n                %s\n", mark, f.Claim, f.Evidence)
		missed = missed || !f.Holds
	}
	// A learner trying -runs 1 is told a miss is chance, not the post.
	if missed && e.Runs < awsSteadyRuns {
		fmt.Fprintf(stdout, "\nWith %s a point, chance can make a finding miss: the post averaged 100 runs (the default); with %d or more, every finding held for seeds 1 to 30.\n",
			count(e.Runs, "run"), awsSteadyRuns)
	}
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{*csvPath, func(w io.Writer) error { return awsreport.CSV(w, res) }}, {*svgPath, func(w io.Writer) error { return awsreport.SVG(w, res) }}} {
		if out.path == "" {
			continue
		}
		if err := writeFile(out.path, out.write); err != nil {
			return fmt.Errorf("sim aws: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", out.path)
	}
	// On stderr: the same seed prints the same stdout (a review found
	// two runs' outputs differing in this line alone).
	fmt.Fprintf(stderr, "sweep took %v (wall clock)\n", res.Wall.Round(10*time.Millisecond))
	return nil
}

// isTerminal says whether w is a terminal (or another character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// keyed is a FieldError's problem with the key a command line types
// beside the page's label: `Requests per window (limit) "0": must be …`,
// where the page, which shows it beside the field, says `Requests per
// window "0": …`.
func keyed(e fleet.FieldError) string {
	p := e.Problem()
	f, ok := fleet.FieldByKey(e.Key)
	if !ok || strings.EqualFold(f.Label, e.Key) || !strings.HasPrefix(p, f.Label+" \"") {
		return p
	}
	return f.Label + " (" + e.Key + ")" + p[len(f.Label):]
}

// sweepProgress returns a sim.Experiment's Progress that tells how far the
// sweep is, at most once a second, on a line it writes over on w: "sweep:
// 2310 of 9500 runs (24%), about 1m10s left"; end clears the line.
func sweepProgress(w io.Writer, now func() time.Time) (progress func(done, total int), end func()) {
	began := now()
	told, shown := began, false
	progress = func(done, total int) {
		t := now()
		if t.Sub(told) < time.Second || done == 0 || done == total {
			return
		}
		told, shown = t, true
		left := time.Duration(float64(t.Sub(began)) * float64(total-done) / float64(done))
		fmt.Fprintf(w, "\rsweep: %d of %d runs (%d%%), about %v left\033[K", done, total, done*100/total, left.Round(time.Second))
	}
	end = func() {
		if shown {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return progress, end
}

// canWrite creates each file a command will write ("" is none) before the
// command's work, so a path it cannot write fails at once, not after a
// sweep of seconds.
func canWrite(paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func simScenario(args []string, stdout, stderr io.Writer) error {
	fs := simFlags("scenario", stderr)
	jsonPath := fs.String("json", "", "also write the recording (every event) as JSON to this file (it keeps every record: ~1.5 KB an attempt)")
	csvPath := fs.String("csv", "", "also write the recording's events as CSV to this file (it keeps every record: ~1.5 KB an attempt)")
	maxAttempts := new(int)
	maxFlag := decimalVar(fs, maxAttempts, "max-attempts", fleet.DefaultSimMaxAttempts, "stop the simulation after this many `attempts`, between 1 and 10000000")
	// The query may come before or after the flags.
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var query string
	if fs.NArg() > 0 {
		query = fs.Arg(0)
		if err := parseFlags(fs, fs.Args()[1:]); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			why := "give one query"
			if strings.Contains(query, "&") || strings.Contains(fs.Arg(0), "&") {
				why = "quote the query: it contains &"
			}
			return fmt.Errorf("sim scenario: unexpected argument %q (%s)", fs.Arg(0), why)
		}
	}
	if err := maxFlag.check("max-attempts", "an integer between 1 and 10000000"); err != nil {
		return fmt.Errorf("sim scenario: %w", err)
	}
	if err := checkRange("max-attempts", *maxAttempts, [2]int{1, 10_000_000}, ""); err != nil {
		return fmt.Errorf("sim scenario: %w", err)
	}
	s, notes, err := scenarioFromQuery(query)
	if err != nil {
		return fmt.Errorf("sim scenario: %w", err)
	}
	// The page falls back field by field and says so beside each; a
	// command asked for one configuration runs that one or none.
	if len(notes) > 0 {
		msgs := make([]string, len(notes))
		for i, n := range notes {
			msgs[i] = keyed(n)
		}
		return fmt.Errorf("sim scenario: %s", strings.Join(msgs, "; "))
	}
	if *jsonPath != "" && *jsonPath == *csvPath {
		return fmt.Errorf("sim scenario: -json and -csv name the same file %q: the CSV would replace the JSON", *jsonPath)
	}
	// Only once the query is taken: a bad one emptied an existing file.
	if err := canWrite(*jsonPath, *csvPath); err != nil {
		return fmt.Errorf("sim scenario: %w", err)
	}
	// With no export asked for, no record is kept, only the numbers:
	// ~1.5 KB an attempt (1.5 GB for a million).
	rec, sum := fleet.SimulateWith(s, fleet.SimOptions{MaxAttempts: *maxAttempts, Discard: *jsonPath == "" && *csvPath == ""})
	if rec.Err != nil {
		return fmt.Errorf("sim scenario: %w", rec.Err)
	}
	st, disp := rec.Numbers(rec.Shared()) // over: no copy of every record
	printStats(stdout, s, st, disp, sum)
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{*jsonPath, rec.JSON}, {*csvPath, rec.CSV}} {
		if out.path == "" {
			continue
		}
		if err := writeFile(out.path, out.write); err != nil {
			return fmt.Errorf("sim scenario: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", out.path)
	}
	return nil
}

// scenarioFromQuery reads a page URL or its query ("workers=…&…", with or
// without "?"), as the page does: workers up to fleet.SimWorkersRange.Max,
// which a simulation takes.
func scenarioFromQuery(q string) (fleet.Scenario, []fleet.FieldError, error) {
	if i := strings.IndexByte(q, '?'); i >= 0 {
		q = q[i+1:]
	}
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q = q[:i]
	}
	// Read as the page reads it, each parameter it cannot read named.
	v, unread := fleet.ParseQuery(q)
	// A page's link with a comparison baseline (Keep as baseline) carries
	// it as vs=, the baseline's own query: not a setting of this run.
	if base, ok := v["vs"]; ok {
		return fleet.Scenario{}, nil, fmt.Errorf("vs is the page's comparison baseline, not a setting: leave it out, and simulate the baseline on its own with retrylab sim scenario %s", shellQuote(base[0]))
	}
	s, notes := fleet.FromQuery(v)
	return s, append(unread, notes...), nil
}

// shellQuote quotes s for a POSIX shell, in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// count is n and its noun, plural but for one: "1 run", "19 client
// counts"; nouns, ones of their own ("1 retry", "2 retries").
func count(n int, nouns ...string) string {
	noun := nouns[0]
	switch {
	case n != 1 && len(nouns) > 1:
		noun = nouns[1]
	case n != 1:
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}

func printStats(w io.Writer, s fleet.Scenario, st fleet.Stats, disp float64, sum fleet.SimSummary) {
	ms := human.Measured // as the page writes them: "18.50 s", "1 min 33 s"
	fleetSize := count(s.Workers, "worker") + " × " + count(s.Jobs, "job")
	if s.JobsTotal { // dealt over the workers
		fleetSize = count(s.Workers, "worker") + " sharing " + count(s.Jobs, "job")
	}
	fmt.Fprintf(w, "Simulated (virtual time, seed %d): %s, strategy %s, against the mock endpoint\n",
		s.Seed, fleetSize, s.Strategy)
	fmt.Fprintf(w, "  %s\n\n", s.Encode())
	row := func(name string, format string, a ...any) {
		fmt.Fprintf(w, "  %-22s "+format+"\n", append([]any{name}, a...)...)
	}
	row("requests", "%d (%s, %s; amplification %.2f×)", st.Requests, count(st.FirstTries, "first try", "first tries"), count(st.Retries, "retry", "retries"), st.Amplification)
	// The attempts aborted by cause, as the page and the JSON's stats tell
	// them apart: a simulation has no Stop, and its attempt limit aborts
	// the attempts in flight when it is reached ("238 aborted" read as
	// Stop's).
	aborted := fmt.Sprintf("%d aborted at the attempt limit", st.AbortedAtLimit)
	if n := st.Aborted - st.AbortedAtLimit; n > 0 {
		aborted += fmt.Sprintf(", %d aborted by Stop", n)
	}
	row("answers", "%d ok, %d limited (429/503), %d failed, %d timed out, %s", st.OK, st.Limited, st.Failed, st.Timeouts, aborted)
	row("jobs", "%d succeeded, %d gave up; at most %d at once", st.Successes, st.GiveUps, st.PeakJobs)
	if len(st.Causes) > 0 {
		causes := make([]string, 0, len(st.Causes))
		for c, n := range st.Causes {
			causes = append(causes, fmt.Sprintf("%s %d", c, n))
		}
		sort.Strings(causes)
		row("gave up because", "%s", strings.Join(causes, ", "))
	}
	if st.Successes > 0 {
		row("wasted per success", "%.2f requests", st.WastedPerSuccess)
	} else { // no ratio: 0 would read as nothing wasted
		wasted := "all " + count(st.Requests-st.InFlight, "request")
		if st.Requests-st.InFlight == 1 {
			wasted = "the 1 request"
		}
		row("wasted per success", "– (no job succeeded: %s wasted)", wasted)
	}
	row("peak", "%s in one second", count(st.PeakRPS, "request"))
	if st.Retries > 0 {
		row("dispersion", "%.2f (variance ÷ mean of the retries sent per %s: about 1 when they come independently, ≫ 1 in herds)", disp, ms(fleet.DispersionSlice))
	} else {
		row("dispersion", "– (no retry)")
	}
	if st.CompletionN > 0 {
		row("job completion", "p50 %s, p99 %s, max %s", ms(st.CompletionP50), ms(st.CompletionP99), ms(st.CompletionMax))
	} else { // as the page says it: 0 µs read as measured
		row("job completion", "– (no job completed)")
	}
	if sum.Stopped { // the jobs left were cancelled there: the run did not drain
		row("stopped after", "%s (the attempt limit)", ms(st.Drain))
	} else {
		row("drained after", "%s", ms(st.Drain))
	}
	fmt.Fprintf(w, "\n  %s simulated in %s (%d scheduler wake-ups)", count(sum.Attempts, "attempt"), ms(sum.Wall), sum.Events) // not the export's events
	if sum.Stopped {
		fmt.Fprintf(w, " — STOPPED at the attempt limit: unfinished jobs were cancelled (raise -max-attempts)")
	}
	fmt.Fprintln(w)
}
