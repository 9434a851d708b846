//go:build !(js && wasm)

package fleet

import (
	"fmt"
	"go/format"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/core"
	"retrylab/core/sim"
)

// gocodeScenarios are the configurations whose generated code must build.
func gocodeScenarios() map[string]Scenario {
	m := map[string]Scenario{"default": Default()}
	for _, p := range Presets {
		m[p.ID] = p.Scenario()
	}
	custom := Default()
	custom.Target = "https://api.example.com/items?q=\"x\""
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
	open := Default()
	open.Open, open.Every = true, 1500*time.Millisecond
	m["open"] = open
	random := open
	random.RandomArrivals = true
	m["open-random"] = random
	return m
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

// TestGoCodeBuilds writes each scenario's program into a temporary module
// made as the code's comment says (requiring retrylab, replaced by this
// repository), runs go vet and go build on it, then runs each program with
// a hook that prints its policy and constants instead of calling anything,
// and compares them with the scenario.
func TestGoCodeBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
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
	const hook = `package main

import (
	"fmt"
	"os"
)

func init() {
	if os.Getenv("GOCODE_DUMP") == "" {
		return
	}
	fmt.Printf("%#v\n%d %d %d %q\n", policy, workers, jobs, uint64(seed), target)
	os.Exit(0)
}
`
	scenarios := gocodeScenarios()
	for name, s := range scenarios {
		write(name+"/main.go", s.GoCode())
		write(name+"/hook.go", hook)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOOS=", "GOARCH=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// The module, made as the code's own comment says.
	run("mod", "init", "gocodetest")
	run("mod", "edit", "-require=retrylab@v0.0.0", "-replace=retrylab="+repo)
	run("vet", "./...")
	bin := filepath.Join(dir, "bin")
	run("build", "-o", bin+string(filepath.Separator), "./...")
	for name, s := range scenarios {
		cmd := exec.Command(filepath.Join(bin, name))
		cmd.Env = append(os.Environ(), "GOCODE_DUMP=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		target := s.Target
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
		want := fmt.Sprintf("%#v\n%d %d %d %q\n", s.Policy(), s.Workers, s.Jobs, s.Seed, target)
		if got != want {
			t.Errorf("%s: the program's settings\n%s\nwant\n%s", name, got, want)
		}
	}
}

// The exported program draws random arrivals as sim.Arrivals does: the
// same seed, salt and formula (TestArrivalsRandom pins the formula to
// Gap), so it sends its jobs when the page's run would.
func TestGoCodeRandomArrivals(t *testing.T) {
	s := gocodeScenarios()["open-random"]
	code := s.GoCode()
	for _, want := range []string{
		fmt.Sprintf("arrivalSalt = %#x", uint64(sim.ArrivalSalt)),
		"u := core.NewRand(core.SubSeed(seed^arrivalSalt, worker, job)).Float64()",
		"arrival += time.Duration(-math.Log1p(-u) * float64(every))",
		"time.Sleep(time.Until(start.Add(arrival)))",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("the program lacks %q:\n%s", want, code)
		}
	}
	a := s.Arrivals()
	u := core.NewRand(core.SubSeed(s.Seed^sim.ArrivalSalt, 2, 3)).Float64()
	if got, want := time.Duration(-math.Log1p(-u)*float64(s.Every)), a.Gap(2, 3); got != want {
		t.Errorf("the program's gap for worker 2's job 3 is %v, the page's %v", got, want)
	}
	if strings.Contains(gocodeScenarios()["open"].GoCode(), "arrivalSalt") {
		t.Error("steady arrivals draw random numbers")
	}
}
