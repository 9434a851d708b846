package fleet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"retrylab/core"
	"retrylab/core/sim"
)

// GoCodeOrigin is the origin GoCode's program calls when the scenario uses
// the built-in mock: where `make run` serves it by default.
const GoCodeOrigin = "http://localhost:8080"

// strategyIdent is the name of each core.Strategy constant.
var strategyIdent = map[core.Strategy]string{
	core.None:               "core.None",
	core.Constant:           "core.Constant",
	core.Exponential:        "core.Exponential",
	core.FullJitter:         "core.FullJitter",
	core.EqualJitter:        "core.EqualJitter",
	core.DecorrelatedJitter: "core.DecorrelatedJitter",
}

var ceilingIdent = map[core.CeilingAction]string{
	core.CeilingClamp: "core.CeilingClamp",
	core.CeilingStop:  "core.CeilingStop",
}

// GoCodeKey is the mock key of an exported program's runs, before the
// suffix each run adds (GoCode).
const GoCodeKey = "gocode"

// GoCode returns the scenario's client settings as a complete Go program
// using retrylab/core: the policy (exactly Policy()), the fleet's shared
// bucket and budget, the per-attempt timeout, and workers running their jobs
// (as many each as JobsOf says) with the same per-job seeds as the page.
// With the built-in mock it calls the mock at GoCodeOrigin with the
// scenario's endpoint parameters, each attempt tagged as the page tags it
// (AttemptTag), so the mock rolls the same injected failures and spread
// for it as for the page's run; with a custom target, the target as it
// is. The program is gofmt-formatted.
func (s Scenario) GoCode() string { return s.GoCodeAt(GoCodeOrigin) }

// GoCodeAt is GoCode calling the built-in mock at origin (scheme://host:port,
// where the page that exports it is served) instead of GoCodeOrigin.
func (s Scenario) GoCodeAt(origin string) string {
	var b strings.Builder
	p := s.Policy()
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	// With the built-in mock and no room, each run of the program takes a
	// key of its own, as each run in the page does: the mock keeps a key's
	// limiter while it is used and for minutes after.
	target := s.SentTarget()
	freshKey := target == "" && s.Room == ""
	if target == "" {
		target = s.MockURL(origin, GoCodeKey)
	}

	w("// Retry settings exported from Retry Lab.\n")
	w("//\n// retrylab/core is Retry Lab's core package, not published anywhere: in\n")
	w("// a module of its own, point it at a clone of Retry Lab and run it:\n")
	w("//\n//\tgo mod init retry-demo\n")
	w("//\tgo mod edit -require=retrylab@v0.0.0 -replace=retrylab=/path/to/retrylab\n")
	w("//\tgo run .\n")
	w("package main\n\n")
	random := s.Open && s.RandomArrivals
	w("import (\n\t\"context\"\n")
	if s.Timeout > 0 {
		w("\t\"errors\"\n")
	}
	w("\t\"fmt\"\n\t\"io\"\n")
	if random {
		w("\t\"math\"\n")
	}
	w("\t\"net/http\"\n\t\"os\"\n\t\"os/signal\"\n")
	if freshKey {
		w("\t\"strconv\"\n")
	}
	w("\t\"sync\"\n\t\"sync/atomic\"\n\t\"time\"\n")
	w("\n\t\"retrylab/core\"\n)\n\n")

	w("// target is the endpoint every worker calls.")
	if freshKey {
		w(" Each run of the program\n")
		w("// takes a key of its own, so it meets the mock's limit afresh, as each\n")
		w("// run in Retry Lab does.")
	}
	w("\n")
	if s.Target == "" {
		w("//\n// Each attempt adds its tag, tag=w<worker>.j<job>.a<attempt>, as Retry\n")
		w("// Lab's do: the mock rolls its injected failures and latency spread from\n")
		if s.Room == "" {
			w("// the seed and the tag, so this program's attempts get the same ones.\n")
		} else {
			w("// the seed and the tag (in a room Retry Lab's tags start with the\n// device's name).\n")
		}
	}
	if s.Target != "" {
		// The page's run of it went through the browser: CORS hid the
		// headers the server did not expose, and six connections to the
		// origin at most (HTTP/1.1) held the rest of the workers' requests.
		w("//\n// Outside a browser no CORS hides a header (a Retry-After your server\n")
		w("// leaves out of Access-Control-Expose-Headers is read here), and no\n")
		w("// six-connection cap holds requests back: figures can differ from the\n")
		w("// page's run of the same settings.\n")
	}
	if freshKey {
		w("var target = %s + \"-\" + strconv.FormatInt(time.Now().UnixNano(), 36)\n\n", strconv.Quote(target))
	} else {
		w("const target = %s\n\n", strconv.Quote(target))
	}
	if s.Outage > 0 && s.Target == "" {
		w("// The scenario's scheduled outage (%s down, %s after the start) is the\n", s.Outage, s.OutageAt)
		w("// server's doing: this program does not take the mock down.\n\n")
	}
	// In total (JobsTotal), jobs is the fleet's, dealt by jobsOf.
	perWorker, all := "jobs", "workers*jobs"
	switch {
	case s.JobsTotal:
		perWorker, all = "jobsOf(worker)", "jobs"
		w("// workers share jobs in all (jobsOf); worker w's job j draws its random\n" +
			"// numbers from core.SubSeed(seed, w, j), as in Retry Lab.\n")
	case s.Open:
		w("// workers run jobs each; worker w's job j draws its random numbers from\n")
		w("// core.SubSeed(seed, w, j), as in Retry Lab.\n")
	default:
		w("// workers run jobs each, one after another; worker w's job j draws its\n")
		w("// random numbers from core.SubSeed(seed, w, j), as in Retry Lab.\n")
	}

	w("const (\n")
	w("\tworkers = %d\n", s.Workers)
	w("\tjobs    = %d\n", s.Jobs)
	w("\tseed    = %d\n", s.Seed)
	w(")\n\n")
	if s.JobsTotal {
		w("// jobsOf is how many of the jobs worker runs: jobs ÷ workers, and one\n" +
			"// more for each of the first jobs %% workers workers, as in Retry Lab. A\n" +
			"// worker dealt none sends nothing.\n" +
			"func jobsOf(worker int) int {\n" +
			"\tif worker < jobs%%workers {\n\t\treturn jobs/workers + 1\n\t}\n" +
			"\treturn jobs / workers\n}\n\n")
	}

	switch {
	case random:
		w("// every is each worker's mean time between job arrivals (an open workload\n")
		w("// with random arrivals, a Poisson process). A job starts when it arrives,\n")
		w("// whether or not the worker's earlier jobs have ended.\n")
		w("const (\n\tevery       = %s\n\tarrivalSalt = %#x\n)\n\n", goDuration(s.Every), uint64(sim.ArrivalSalt))
		w("// gap is how long after the worker's previous job its job arrives (job 0:\n")
		w("// after the start): -ln(1-u)·every, u drawn from\n")
		w("// core.SubSeed(seed^arrivalSalt, worker, job), as in Retry Lab.\n")
		w("func gap(worker, job int) time.Duration {\n")
		w("\tu := core.NewRand(core.SubSeed(seed^arrivalSalt, worker, job)).Float64()\n")
		w("\treturn time.Duration(-math.Log1p(-u) * float64(every))\n")
		w("}\n\n")
	case s.Open:
		w("// every is how often each worker receives a new job (an open workload). A\n")
		w("// job starts when it arrives, whether or not the worker's earlier jobs\n")
		w("// have ended.\n")
		w("const every = %s\n\n", goDuration(s.Every))
		w("// gap is how long after the worker's previous job its job arrives (job 0:\n")
		w("// after the start): the workers' first jobs are spread evenly over the\n")
		w("// first interval, then each worker receives one job an interval, as in\n")
		w("// Retry Lab.\n")
		w("func gap(worker, job int) time.Duration {\n")
		w("\tif job == 0 {\n\t\treturn time.Duration(worker) * every / workers\n\t}\n")
		w("\treturn every\n")
		w("}\n\n")
	}
	if s.Timeout > 0 {
		w("// timeout is how long one attempt may take.\n")
		w("const timeout = %s\n\n", goDuration(s.Timeout))
	}
	w("// policy is the retry policy of every job. A zero Cap means no cap, a zero\n")
	w("// MaxElapsed no limit, a zero Ceiling no ceiling and a zero Spread none.\n")
	w("var policy = core.Policy{\n")
	w("\tBackoff: core.Backoff{\n")
	w("\t\tStrategy:   %s,\n", strategyIdent[p.Backoff.Strategy])
	w("\t\tBase:       %s,\n", goDuration(p.Backoff.Base))
	w("\t\tMultiplier: %s,\n", goFloat(p.Backoff.Multiplier))
	w("\t\tCap:        %s,\n", goDuration(p.Backoff.Cap))
	w("\t},\n")
	w("\tMaxAttempts:   %d,\n", p.MaxAttempts)
	w("\tMaxElapsed:    %s,\n", goDuration(p.MaxElapsed))
	w("\tRetryAfter:    %t,\n", p.RetryAfter)
	w("\tCeiling:       %s,\n", goDuration(p.Ceiling))
	w("\tAboveCeiling:  %s,\n", ceilingIdent[p.AboveCeiling])
	w("\tSpread:        %s,\n", goDuration(p.Spread))
	w("\tUseResetHints: %t,\n", p.UseResetHints)
	w("}\n\n")

	w("// bucket paces every attempt of the whole fleet: one token bucket for\n")
	w("// every worker, rate tokens a second, up to its capacity (nil: none).\n")
	if s.Bucket {
		w("var bucket = must(core.NewBucket(%s, %s))\n\n", goFloat(s.BucketRate), goFloat(s.BucketCapacity))
	} else {
		w("var bucket *core.Bucket\n\n")
	}
	w("// budget is the fleet's retry budget, its capacity and refill per\n")
	w("// success: retries spend it, successes refill it (nil: none).\n")
	if s.Budget {
		w("var budget = must(core.NewBudget(%s, %s))\n\n", goFloat(s.BudgetSize), goFloat(s.BudgetRefill))
	} else {
		w("var budget *core.Budget\n\n")
	}
	if s.Bucket || s.Budget {
		w("// must returns v, and panics if err is not nil.\n")
		w("func must[T any](v T, err error) T {\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\treturn v\n}\n\n")
	}

	// One idle connection a worker for an open workload too: its jobs
	// overlap, but steady arrivals take each connection back as it comes
	// free (a pool of one a job, tried, opened the same 12 connections
	// for 200 jobs backing off after 503s).
	w("// client keeps a connection per worker open between attempts:\n")
	w("// http.DefaultClient keeps two per host, so most workers would connect\n")
	w("// afresh for every attempt.\n")
	w("var client = func() *http.Client {\n")
	w("\tt := http.DefaultTransport.(*http.Transport).Clone()\n")
	w("\tt.MaxIdleConnsPerHost = workers\n")
	w("\tt.MaxIdleConns = workers // the default keeps 100 in all\n")
	w("\treturn &http.Client{Transport: t}\n")
	w("}()\n\n")
	w("// requests and rejected count what attempt sent and the 429s and 503s\n")
	w("// among the answers, for the summary (as the page's numbers count them).\n")
	w("var requests, rejected atomic.Int64\n\n")

	w("func main() {\n")
	w("\t// Ctrl-C cancels every wait and every request in flight: the jobs\n")
	w("\t// stop at once (core.ErrCancelled), and the program exits with 130.\n")
	w("\tctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)\n")
	w("\tdefer stop()\n")
	w("\tstart := time.Now()\n")
	w("\tvar succeeded atomic.Int64\n")
	w("\trunJob := func(worker, job int) {\n")
	w("\t\tloop := core.NewLoop(policy, core.NewRand(core.SubSeed(seed, worker, job)), bucket, budget, nil)\n")
	if s.Target == "" {
		w("\t\top := func(ctx context.Context, n int) core.Outcome {\n")
		w("\t\t\treturn attempt(ctx, fmt.Sprintf(\"%%s&tag=w%%d.j%%d.a%%d\", target, worker, job, n))\n")
		w("\t\t}\n")
	} else {
		w("\t\top := func(ctx context.Context, n int) core.Outcome { return attempt(ctx, target) }\n")
	}
	w("\t\tif err := core.Do(ctx, loop, nil, op); err != nil {\n")
	w("\t\t\tif ctx.Err() == nil { // not stopped by Ctrl-C\n")
	w("\t\t\t\tfmt.Printf(\"worker %%d job %%d: %%v\\n\", worker, job, err)\n")
	w("\t\t\t}\n")
	w("\t\t\treturn\n")
	w("\t\t}\n")
	w("\t\tsucceeded.Add(1)\n")
	w("\t}\n")
	w("\tvar wg sync.WaitGroup\n")
	w("\tfor worker := range workers {\n")
	w("\t\twg.Go(func() {\n")
	if s.Open {
		w("\t\t\tvar arrival time.Duration // of the worker's next job, after the start\n")
	}
	w("\t\t\tfor job := range %s {\n", perWorker)
	if s.Open {
		w("\t\t\t\tarrival += gap(worker, job)\n")
		w("\t\t\t\tselect {\n")
		w("\t\t\t\tcase <-time.After(time.Until(start.Add(arrival))):\n")
		w("\t\t\t\tcase <-ctx.Done():\n")
		w("\t\t\t\t\treturn // no more jobs arrive\n")
		w("\t\t\t\t}\n")
		w("\t\t\t\twg.Go(func() { runJob(worker, job) })\n")
	} else {
		w("\t\t\t\tif ctx.Err() != nil {\n")
		w("\t\t\t\t\treturn // no more jobs start\n")
		w("\t\t\t\t}\n")
		w("\t\t\t\trunJob(worker, job)\n")
	}
	w("\t\t\t}\n")
	w("\t\t})\n")
	w("\t}\n")
	w("\twg.Wait()\n")
	w("\tfmt.Printf(\"%%d of %%d jobs succeeded in %%v: %%d requests sent, %%d answered 429 or 503\\n\",\n")
	w("\t\tsucceeded.Load(), %s, time.Since(start).Round(time.Millisecond), requests.Load(), rejected.Load())\n", all)
	w("\tswitch {\n")
	w("\tcase ctx.Err() != nil:\n")
	w("\t\tfmt.Println(\"interrupted: the jobs in progress were cancelled\")\n")
	w("\t\tos.Exit(130)\n")
	w("\tcase succeeded.Load() < %s:\n", all)
	w("\t\tos.Exit(1) // some gave up\n")
	w("\t}\n")
	w("}\n\n")

	w("// attempt sends one request to url and reports what happened to the\n")
	w("// retry loop.\n")
	w("func attempt(ctx context.Context, url string) core.Outcome {\n")
	if s.Timeout > 0 {
		w("\tctx, cancel := context.WithTimeout(ctx, timeout)\n")
		w("\tdefer cancel()\n")
	}
	w("\treq, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)\n")
	w("\tif err != nil {\n\t\treturn core.Outcome{Err: err}\n\t}\n")
	// failed names the error an attempt's timeout makes, which net/http
	// tells as "context deadline exceeded".
	failed := "err"
	if s.Timeout > 0 {
		failed = "timedOut(ctx, err)"
	}
	w("\trequests.Add(1)\n")
	w("\tresp, err := client.Do(req)\n")
	w("\tif err != nil {\n\t\treturn core.Outcome{Err: %s}\n\t}\n", failed)
	w("\tdefer resp.Body.Close()\n")
	w("\tif resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {\n")
	w("\t\trejected.Add(1)\n")
	w("\t}\n")
	w("\t// A body cut short (the timeout, a dropped connection) is a failed\n")
	w("\t// attempt, not a success.\n")
	w("\t_, err = io.Copy(io.Discard, resp.Body)\n")
	w("\treturn core.Outcome{Status: resp.StatusCode, Header: resp.Header, Err: %s}\n", failed)
	w("}\n")
	if s.Timeout > 0 {
		w("\n// timedOut says so when err came of the attempt's timeout: net/http says\n")
		w("// \"context deadline exceeded\".\n")
		w("func timedOut(ctx context.Context, err error) error {\n")
		w("\tif err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {\n")
		w("\t\treturn fmt.Errorf(\"timed out after %%v\", timeout)\n")
		w("\t}\n")
		w("\treturn err\n")
		w("}\n")
	}
	return b.String()
}

// goDuration writes d as a Go expression: "2 * time.Second", "time.Minute",
// "1500 * time.Millisecond", "0".
func goDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	units := []struct {
		d    time.Duration
		name string
	}{
		{time.Hour, "time.Hour"},
		{time.Minute, "time.Minute"},
		{time.Second, "time.Second"},
		{time.Millisecond, "time.Millisecond"},
		{time.Microsecond, "time.Microsecond"},
		{time.Nanosecond, "time.Nanosecond"},
	}
	for _, u := range units {
		if d%u.d == 0 {
			n := d / u.d
			if n == 1 {
				return u.name
			}
			return strconv.FormatInt(int64(n), 10) + " * " + u.name
		}
	}
	panic("unreachable")
}

// goFloat writes f as a Go constant.
func goFloat(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}
