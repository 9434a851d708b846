//go:build !(js && wasm)

package fleet

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"retrylab/app/mock"
	"retrylab/core"
	"retrylab/core/sim"
)

// buildGoCode writes files (path → content) into a temporary module made
// as GoCode's comment says (requiring retrylab, replaced by this
// repository), runs go vet and go build on every program in it, and
// returns the folder holding the programs, each named after its folder.
func buildGoCode(t *testing.T, files map[string]string) string {
	t.Helper()
	goTool, err := exec.LookPath("go") // the tests run under it: never skipped for want of it
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sum))
	for name, content := range files {
		write(name, content)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOOS=", "GOARCH=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// The module, made as the code's own comment says.
	run("mod", "init", "gocodetest")
	run("mod", "edit", "-require=retrylab@v0.0.0", "-replace=retrylab="+repo)
	run("vet", "./...")
	bin := filepath.Join(dir, "bin")
	run("build", "-o", bin+string(filepath.Separator), "./...")
	return bin
}

// gocodeScenarios are the configurations whose generated code must build.
func gocodeScenarios() map[string]Scenario {
	m := map[string]Scenario{"default": Default()}
	for _, p := range Presets {
		m[p.ID] = p.Scenario()
	}
	custom := Default()
	// As typed: the program calls it as fetch() does (SentTarget), its
	// query's space and quotes escaped, its fragment left.
	custom.Target = "https://api.example.com/items?q=\"x\"&y=a b#top"
	custom.Timeout = 0
	custom.Strategy = core.DecorrelatedJitter
	custom.Cap = 90 * time.Second
	custom.MaxElapsed = time.Minute + 500*time.Millisecond
	custom.Budget, custom.Bucket = true, true
	custom.BucketRate, custom.BudgetRefill = 0.25, 1e-7
	custom.AboveCeiling = core.CeilingStop
	custom.Spread = 1500 * time.Microsecond
	custom.Seed = 1<<64 - 1
	m["custom"] = custom
	room := Default()
	room.Room = "workshop"
	room.Strategy = core.None
	m["room"] = room
	// A value of each kind its own, so that one written for another shows.
	bucket := Default()
	bucket.Bucket, bucket.BucketRate, bucket.BucketCapacity = true, 2.5, 7
	m["bucket"] = bucket
	budget := Default()
	budget.Budget, budget.BudgetSize, budget.BudgetRefill = true, 12, 0.25
	m["budget"] = budget
	timeout := Default()
	timeout.Timeout = 750 * time.Millisecond
	m["timeout"] = timeout
	open := Default()
	open.Workers, open.Jobs = 3, 4
	open.Open, open.Every = true, 1500*time.Millisecond
	m["open"] = open
	random := open
	random.RandomArrivals, random.Every = true, 250*time.Millisecond
	m["open-random"] = random
	closed := Default()
	closed.Every, closed.RandomArrivals = 700*time.Millisecond, true // not used: a closed workload
	m["closed"] = closed
	// Jobs in total, dealt over the workers (jobsOf): 3, 2, 2 and, with
	// fewer jobs than workers, 1, 1, 0, 0, 0.
	total := Default()
	total.Workers, total.Jobs, total.JobsTotal = 3, 7, true
	m["total"] = total
	few := total
	few.Workers, few.Jobs = 5, 2
	m["total-few"] = few
	openTotal := open
	openTotal.Jobs, openTotal.JobsTotal = 10, true
	m["open-total"] = openTotal
	return m
}

// gocodeHook is a file added to s's program that prints its settings and
// exits before main runs: its policy, workers, jobs, seed and target; the
// fleet's bucket and retry budget as built; the per-attempt timeout; the
// jobs each worker is dealt of a total; and
// for an open workload the interval and the arrival gaps of the first and
// last workers' first, second and last jobs (and the salt of random
// arrivals). It refers only to what s has: a program that lacks one of
// them does not build.
func gocodeHook(s Scenario) string {
	var b strings.Builder
	b.WriteString(`package main

import (
	"fmt"
	"os"
)

func init() {
	if os.Getenv("GOCODE_DUMP") == "" {
		return
	}
	fmt.Printf("%#v\n%d %d %d %q\n", policy, workers, jobs, uint64(seed), target)
	if bucket != nil {
		fmt.Println("bucket", bucket.Rate(), bucket.Capacity())
	} else {
		fmt.Println("no bucket")
	}
	if budget != nil {
		fmt.Println("budget", budget.Capacity(), budget.RefillPerSuccess(), budget.Tokens())
	} else {
		fmt.Println("no budget")
	}
`)
	if s.Timeout > 0 {
		b.WriteString("\tfmt.Println(\"timeout\", timeout)\n")
	}
	if s.JobsTotal {
		b.WriteString("\tfor w := range workers {\n\t\tfmt.Println(\"worker\", w, \"runs\", jobsOf(w))\n\t}\n")
	}
	if s.Open {
		b.WriteString("\tfmt.Println(\"every\", every)\n")
		for _, wj := range gapPoints(s) {
			fmt.Fprintf(&b, "\tfmt.Println(\"gap\", %d, %d, gap(%d, %d))\n", wj[0], wj[1], wj[0], wj[1])
		}
	}
	if s.Open && s.RandomArrivals {
		b.WriteString("\tfmt.Printf(\"salt %#x\\n\", uint64(arrivalSalt))\n")
	}
	b.WriteString("\tos.Exit(0)\n}\n")
	return b.String()
}

// gapPoints are the workers' and jobs' arrival gaps the hook prints.
func gapPoints(s Scenario) [][2]int {
	var out [][2]int
	for _, w := range []int{0, 1, s.Workers - 1} {
		for _, j := range []int{0, 1, s.Jobs - 1} {
			out = append(out, [2]int{w, j})
		}
	}
	return out
}

// gocodeWant is what s's program must print through gocodeHook, for its
// target.
func gocodeWant(s Scenario, target string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%#v\n%d %d %d %q\n", s.Policy(), s.Workers, s.Jobs, s.Seed, target)
	if s.Bucket {
		fmt.Fprintln(&b, "bucket", s.BucketRate, s.BucketCapacity)
	} else {
		fmt.Fprintln(&b, "no bucket")
	}
	if s.Budget {
		fmt.Fprintln(&b, "budget", s.BudgetSize, s.BudgetRefill, s.BudgetSize) // it starts full
	} else {
		fmt.Fprintln(&b, "no budget")
	}
	if s.Timeout > 0 {
		fmt.Fprintln(&b, "timeout", s.Timeout)
	}
	if s.JobsTotal {
		for w := range s.Workers {
			fmt.Fprintln(&b, "worker", w, "runs", s.JobsOf(w))
		}
	}
	if s.Open {
		fmt.Fprintln(&b, "every", s.Every)
		a := s.Arrivals()
		for _, wj := range gapPoints(s) {
			fmt.Fprintln(&b, "gap", wj[0], wj[1], a.Gap(wj[0], wj[1]))
		}
	}
	if s.Open && s.RandomArrivals {
		fmt.Fprintf(&b, "salt %#x\n", uint64(sim.ArrivalSalt))
	}
	return b.String()
}

func TestGoCodeIsFormatted(t *testing.T) {
	for name, s := range gocodeScenarios() {
		code := s.GoCode()
		formatted, err := format.Source([]byte(code))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, code)
		}
		if string(formatted) != code {
			t.Errorf("%s: GoCode is not gofmt-clean; gofmt gives\n%s", name, formatted)
		}
	}
}

// A custom target's program says how it differs from the page's run: a
// reader compared its figures with the page's without knowing that the
// browser hid headers and held requests the program does not (an API
// user's review). The mock's program does not say it: the mock exposes
// every header.
func TestGoCodeForACustomTargetSaysItIsNoBrowser(t *testing.T) {
	const says = "Outside a browser no CORS hides a header"
	for name, s := range gocodeScenarios() {
		if got := strings.Contains(s.GoCode(), says); got != (s.Target != "") {
			t.Errorf("%s (target %q): says %q: %v", name, s.Target, says, got)
		}
	}
	// Nor does it tell of the mock's outage, which a custom target does
	// not have.
	s := simScenario(t, "outage", "2s", "target", "https://api.example/v1/items")
	if code := s.GoCode(); strings.Contains(code, "outage") {
		t.Errorf("the program for a custom target tells of the mock's outage:\n%s", code)
	}
	if code := simScenario(t, "outage", "2s").GoCode(); !strings.Contains(code, "outage (2s down") {
		t.Errorf("the program for the mock does not tell of its outage:\n%s", code)
	}
}

// TestGoCodeBuilds writes each scenario's program into a temporary module
// made as the code's comment says (requiring retrylab, replaced by this
// repository), runs go vet and go build on it, then runs each program with
// a hook that prints its settings instead of calling anything
// (gocodeHook), and compares them with the scenario: the policy, workers,
// jobs, seed and target, and the fleet's token bucket, retry budget,
// per-attempt timeout and an open workload's arrivals, which it did not
// check. A program must also not apply what its scenario does not have:
// a timeout, arrivals of a closed workload.
func TestGoCodeBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	scenarios := gocodeScenarios()
	files := map[string]string{}
	for name, s := range scenarios {
		if errs := s.Validate(); errs != nil {
			t.Fatalf("%s: %v", name, errs)
		}
		code := s.GoCode()
		if strings.Contains(code, "WithTimeout") != (s.Timeout > 0) || strings.Contains(code, "func gap(") != s.Open {
			t.Errorf("%s: a timeout %v, an open workload %v, and the program:\n%s", name, s.Timeout, s.Open, code)
		}
		files[name+"/main.go"] = code
		files[name+"/hook.go"] = gocodeHook(s)
	}
	bin := buildGoCode(t, files)
	for name, s := range scenarios {
		cmd := exec.Command(filepath.Join(bin, name))
		cmd.Env = append(os.Environ(), "GOCODE_DUMP=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		target := s.SentTarget()
		if target == "" {
			target = s.MockURL(GoCodeOrigin, GoCodeKey)
		}
		got := string(out)
		if target == s.MockURL(GoCodeOrigin, GoCodeKey) && s.Room == "" {
			// Each run takes a key of its own: "gocode-" and the time.
			fresh := regexp.MustCompile(regexp.QuoteMeta(strconv.Quote(target)[:len(strconv.Quote(target))-1]) + `-[0-9a-z]{8,}"`)
			if !fresh.MatchString(got) {
				t.Errorf("%s: the program's target %s, want %s-<its own suffix>", name, got, target)
			}
			got = fresh.ReplaceAllString(got, strconv.Quote(target))
		}
		if want := gocodeWant(s, target); got != want {
			t.Errorf("%s: the program's settings\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestGoCodeFailsTheRunsAttempts: the exported program, run against the
// mock, gets the same injected failures on the same attempts as the page's
// run of its scenario (the fleet's runner, which tags each attempt as the
// page does), so it retries the same way: the mock saw the same attempts,
// each with the same status, from both. The program sent its attempts
// untagged, so the mock rolled them by key and arrival instead: other
// attempts failed, and its jobs retried on another schedule.
func TestGoCodeFailsTheRunsAttempts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	kv := []string{"workers", "3", "jobs", "3", "limiter", "none", "fail500", "25", "fail503", "15",
		"latency", "0s", "strategy", "full", "base", "1ms", "cap", "4ms", "attempts", "6", "seed", "7", "timeout", "0s"}
	// And a total, dealt alike: 7 jobs over 3 workers are jobs 0–2 of
	// worker 0, 0–1 of workers 1 and 2, from both.
	for _, s := range []Scenario{simScenario(t, kv...), simScenario(t, append(kv, "jobs", "7", "jobs_of", "fleet")...)} {
		page, program := pageAndProgramAttempts(t, s)
		failed := 0
		for _, r := range page {
			if !strings.HasSuffix(r, " 200") {
				failed++
			}
		}
		if failed == 0 {
			t.Fatalf("no attempt of the run failed: nothing to compare (%v)", page)
		}
		if !slices.Equal(page, program) {
			t.Errorf("%s: the mock saw from the page's run (tag, status)\n%s\nand from the program\n%s", s.EncodeChanged(), strings.Join(page, ", "), strings.Join(program, ", "))
		}
		jobs := map[string]bool{}
		for _, r := range program {
			_, w, j, _, _ := ParseAttemptTag(strings.Fields(r)[0])
			jobs[fmt.Sprintf("w%d.j%d", w, j)] = true
		}
		if len(jobs) != s.TotalJobs() {
			t.Errorf("%s: the program ran %d jobs (%v), want %d", s.EncodeChanged(), len(jobs), jobs, s.TotalJobs())
		}
	}
}

// pageAndProgramAttempts runs s live, as the page does, and s's exported
// program, against one mock, and returns what the mock saw of each
// (tag and status per request, sorted).
func pageAndProgramAttempts(t *testing.T, s Scenario) (page, program []string) {
	t.Helper()
	h := mock.New(mock.Options{})
	var mu sync.Mutex
	seen := map[string][]string{} // key → "tag status", one per request
	mux := http.NewServeMux()
	mux.Handle("/mock", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		q := r.URL.Query()
		mu.Lock()
		seen[q.Get("key")] = append(seen[q.Get("key")], q.Get("tag")+" "+strconv.Itoa(rec.status))
		mu.Unlock()
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { h.Close(); srv.Close() })

	runLive(t, srv, s, "page")
	bin := buildGoCode(t, map[string]string{"rolls/main.go": s.GoCodeAt(srv.URL)})
	if out, err := exec.Command(filepath.Join(bin, "rolls")).CombinedOutput(); err != nil {
		t.Fatalf("the program: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	page = seen["page"]
	for key, reqs := range seen {
		if strings.HasPrefix(key, GoCodeKey+"-") {
			program = reqs
		}
	}
	slices.Sort(page)
	slices.Sort(program)
	return page, program
}

// The exported program keeps a connection per worker, and says how its
// jobs went: on http.DefaultClient, which keeps two idle connections per
// host, eight workers backing off after 503s opened 26 connections for
// their 24 jobs (each wait left a connection idle, and all but two were
// closed), and the program printed only the jobs that gave up, nothing
// when all succeeded.
func TestGoCodeKeepsAConnectionPerWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	s := simScenario(t, "workers", "8", "jobs", "3", "limiter", "none", "latency", "20ms", "timeout", "0s",
		"fail503", "50", "strategy", "constant", "base", "30ms", "attempts", "10", "seed", "3")
	h := mock.New(mock.Options{})
	var conns, arrived, rejected atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		arrived.Add(1)
		if rec.status == 503 {
			rejected.Add(1)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(func() { h.Close(); srv.Close() })
	// Past 100 workers too: the default transport keeps 100 idle
	// connections in all, and 500 workers opened 853 (a review).
	many := simScenario(t, "workers", "500", "jobs", "2", "limiter", "none", "latency", "20ms", "timeout", "0s",
		"fail503", "50", "strategy", "constant", "base", "300ms", "attempts", "30", "seed", "3")
	bin := buildGoCode(t, map[string]string{"conns/main.go": s.GoCodeAt(srv.URL), "many/main.go": many.GoCodeAt(srv.URL)})
	for _, tt := range []struct {
		prog          string
		workers, jobs int
	}{{"conns", 8, 3}, {"many", 500, 2}} {
		conns.Store(0)
		arrived.Store(0)
		rejected.Store(0)
		out, err := exec.Command(filepath.Join(bin, tt.prog)).CombinedOutput()
		if err != nil {
			t.Fatalf("the program: %v\n%s", err, out)
		}
		// A worker whose next request goes out before the transport has
		// put its connection back (after the body's end) opens another:
		// 500 workers opened 500–504 on an idle machine, 529–542 on a busy
		// one, 602 beside an e2e run (665–671 with the default's 100 idle
		// connections in all, 853 with two per host).
		if n := conns.Load(); n > int64(tt.workers+tt.workers/4) {
			t.Errorf("%d workers × %d jobs opened %d connections, want about one per worker", tt.workers, tt.jobs, n)
		}
		// And what it sent, as the server counted it: the page's requests
		// and 429s, to compare with (it said only the jobs: a review).
		n := tt.workers * tt.jobs
		if !regexp.MustCompile(fmt.Sprintf(`^%d of %d jobs succeeded in [0-9.]+m?s: %d requests sent, %d answered 429 or 503\n$`, n, n, arrived.Load(), rejected.Load())).Match(out) || rejected.Load() == 0 {
			t.Errorf("the program said %q, want how many of its %d jobs succeeded, and its %d requests, %d answered 503 (the server's counts)", out, n, arrived.Load(), rejected.Load())
		}
	}
}

// An answer whose body is cut short by the request timeout is a failed
// attempt, retried, as the page counts it: the program read the body,
// dropped the error, and counted the job a success (a review).
func TestGoCodeFailsABodyCutShort(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select { // the body never comes
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	s := simScenario(t, "workers", "1", "jobs", "1", "timeout", "200ms", "strategy", "constant", "base", "10ms", "attempts", "2", "target", srv.URL+"/slow")
	bin := buildGoCode(t, map[string]string{"cut/main.go": s.GoCode()})
	out, err := exec.Command(filepath.Join(bin, "cut")).CombinedOutput()
	if code := exitCode(err); code != 1 {
		t.Fatalf("the program: %v, want exit status 1 (a job gave up)\n%s", err, out)
	}
	// The timeout is told as such, not as net/http's "context deadline
	// exceeded".
	if !strings.Contains(string(out), "0 of 1 jobs succeeded") || !strings.Contains(string(out), ": timed out after 200ms\n") || requests.Load() != 2 {
		t.Errorf("a body cut by the timeout: the program said %q after %d requests, want 0 of 1 after 2 attempts, timed out", out, requests.Load())
	}
}

// exitCode is the exit status of a command that ran and ended with err.
func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// Ctrl-C stops the exported program at once: it says how many jobs
// succeeded and that it was interrupted, and exits with 130, as a shell
// does. It exited 0, after a line per job in progress that said it was
// cancelled (a review).
func TestGoCodeStopsOnCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		<-r.Context().Done() // never answers
	}))
	t.Cleanup(srv.Close)
	for _, open := range []string{"closed", "open"} {
		s := simScenario(t, "workers", "4", "jobs", "3", "workload", open, "every", "10ms", "timeout", "0s", "target", srv.URL+"/never")
		bin := buildGoCode(t, map[string]string{"ctrlc/main.go": s.GoCode()})
		requests.Store(0)
		cmd := exec.Command(filepath.Join(bin, "ctrlc"))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); requests.Load() < 4 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if code := exitCode(err); code != 130 {
			t.Errorf("%s: the program interrupted: %v, want exit status 130\n%s", open, err, out.String())
		}
		if want := "0 of 12 jobs succeeded in "; !strings.HasPrefix(out.String(), want) || !strings.HasSuffix(out.String(), "\ninterrupted: the jobs in progress were cancelled\n") {
			t.Errorf("%s: the program interrupted said\n%s\nwant %q…, then that it was interrupted, and no line per job", open, out.String(), want)
		}
	}
}

// statusRecorder keeps the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Every strategy and ceiling action core has (up to the first whose String
// is its number: no name) has its identifier in the exported program: one
// missing wrote "Strategy:   ," and a program that does not compile, with
// no test failing, since the programs built are the presets' (a review).
func TestGoCodeNamesEveryStrategy(t *testing.T) {
	for s := core.Strategy(0); s.String() != fmt.Sprintf("Strategy(%d)", uint8(s)); s++ {
		if strategyIdent[s] == "" {
			t.Errorf("strategy %v: no identifier", s)
		}
	}
	for a := core.CeilingAction(0); a.String() != fmt.Sprintf("CeilingAction(%d)", uint8(a)); a++ {
		if ceilingIdent[a] == "" {
			t.Errorf("ceiling action %v: no identifier", a)
		}
	}
}
