package fleet

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"retrylab/app/mock"
	"retrylab/core"
	"retrylab/core/sim"
)

// Ranges of the fleet's own knobs. Every other range lives where its value
// is used: core's exported ranges for the policy, bucket and budget, and
// app/mock's parser for the endpoint. Treat these as read-only.
var (
	WorkersRange = core.Range[int]{Min: 1, Max: 500}
	JobsRange    = core.Range[int]{Min: 1, Max: 1000}
	// TotalJobsRange is what Jobs may be counted in total (JobsTotal): at
	// most JobsRange.Max a worker, as per worker, so up to Workers ×
	// JobsRange.Max (a rule between fields), 10,000,000 for the largest
	// simulated fleet.
	TotalJobsRange = core.Range[int]{Min: 1, Max: SimWorkersRange.Max * JobsRange.Max}
	TimeoutRange   = core.Range[time.Duration]{Min: 0, Max: 2 * time.Minute} // 0 = no timeout
	EveryRange     = core.Range[time.Duration]{Min: 10 * time.Millisecond, Max: time.Minute}

	OutageRange   = core.Range[time.Duration]{Min: 0, Max: mock.MaxOutage} // 0 = none
	OutageAtRange = core.Range[time.Duration]{Min: 0, Max: 10 * time.Minute}
)

// LiveArrivalMax is the most jobs per second an open workload may start in
// a live run (Workers ÷ Every): past it the page would hold thousands of
// fetches in flight. A run of LiveArrivalMax jobs or fewer in all (Workers
// × Jobs, or a total) may start them at any rate: a job has one request in
// flight at a time, so no more than that are ever in flight. Simulate
// takes any rate.
const LiveArrivalMax = 500

// Scenario is one complete configuration of a run: the client fleet, its
// retry policy, and the endpoint it calls. The zero value is not useful:
// start from Default (or FromQuery). Fields describes, checks and encodes
// every field; set fields through it (or check with Validate afterwards).
type Scenario struct {
	// Client fleet.
	Workers int           // concurrent workers (SimWorkersRange; a live Run takes WorkersRange)
	Jobs    int           // jobs per worker (JobsRange), or in all with JobsTotal (JobsOf)
	Timeout time.Duration // per attempt; 0 = none (TimeoutRange)
	// JobsTotal: Jobs is the fleet's total, dealt over the workers
	// (JobsOf), not each worker's; at most JobsRange.Max a worker
	// (TotalJobsRange).
	JobsTotal bool

	// Workload. Closed (Open false): a worker starts its next job when the
	// previous one ends. Open: job j of worker w arrives at
	// s.Arrivals().At(w, j) after the start and begins then, whether or
	// not the worker's earlier jobs have ended.
	Open  bool
	Every time.Duration // open: time between a worker's job arrivals (EveryRange; the mean when RandomArrivals)
	// RandomArrivals: an open workload's jobs arrive at random moments, a
	// Poisson process at the same average rate (sim.Arrivals.Random).
	RandomArrivals bool

	// Backoff and limits (core.Policy).
	Strategy    core.Strategy
	Base        time.Duration
	Multiplier  float64
	Cap         time.Duration // 0 = no cap
	MaxAttempts int
	MaxElapsed  time.Duration // 0 = unlimited

	// Retry-After and rate-limit hints (core.Policy).
	RetryAfter   bool               // honour Retry-After
	Ceiling      time.Duration      // largest server delay honoured; 0 = no ceiling
	AboveCeiling core.CeilingAction // clamp or stop above the ceiling
	Spread       time.Duration      // extra U(0, Spread) on server-requested waits
	ResetHints   bool               // use RateLimit reset when Retry-After is absent

	// Fleet token bucket, shared by every worker.
	Bucket         bool
	BucketRate     float64 // tokens per second
	BucketCapacity float64

	// Retry budget, shared by every worker.
	Budget       bool
	BudgetSize   float64 // capacity: retries the fleet may spend
	BudgetRefill float64 // tokens each success returns

	Seed uint64 // run seed; worker w's job j uses core.SubSeed(Seed, w, j)

	// Endpoint.
	Target string      // "" = the built-in mock; else the user's own URL, called as is
	Room   string      // mock key shared with others; "" = the run's own key (see MockURL)
	Mock   mock.Params // the mock's behaviour; Key and Tag are set per run and attempt, not here

	// A scheduled server outage: OutageAt after the start the server is
	// down for Outage (0 = none), as Outage (POST /mock/outage) takes it
	// down during a live run, and as the simulated endpoint is
	// (sim.Endpoint.Outages).
	Outage   time.Duration // OutageRange
	OutageAt time.Duration // OutageAtRange
}

// Default returns the configuration of a page opened without a query: 50
// workers with 2 jobs each, full jitter from 100 ms (cap 10 s, 10 attempts),
// Retry-After ignored, no bucket or budget, against a mock token bucket of
// 10 req/s (burst 10) answering in 50 ms. Presets are overrides on top of it.
func Default() Scenario {
	m := mock.Defaults()
	m.Rate = 10
	m.Burst = 10
	m.Latency = 50 * time.Millisecond
	return Scenario{
		Workers: 50,
		Jobs:    2,
		Timeout: 5 * time.Second,

		Open:  false,
		Every: time.Second,

		Strategy:    core.FullJitter,
		Base:        100 * time.Millisecond,
		Multiplier:  2,
		Cap:         10 * time.Second,
		MaxAttempts: 10,
		MaxElapsed:  0,

		RetryAfter:   false,
		Ceiling:      30 * time.Second,
		AboveCeiling: core.CeilingClamp,
		Spread:       0,
		ResetHints:   false,

		Bucket:         false,
		BucketRate:     9,
		BucketCapacity: 5,

		Budget:       false,
		BudgetSize:   20,
		BudgetRefill: 0.1,

		Seed: 1,
		Mock: m,

		Outage:   0,
		OutageAt: 5 * time.Second,
	}
}

// JobsOf is how many jobs worker w runs: Jobs, or with JobsTotal its
// share of them (sim.Deal): Jobs ÷ Workers, one more for each of the first
// Jobs mod Workers workers (7 over 3: 3, 2, 2); a worker dealt none sends
// nothing. Live runs, simulations, the exported Go code and the numbers
// all count a worker's jobs by it.
func (s *Scenario) JobsOf(w int) int {
	if s.JobsTotal {
		return sim.Deal(s.Jobs, s.Workers, w)
	}
	return s.Jobs
}

// TotalJobs is how many jobs the whole fleet runs: Workers × Jobs, or Jobs
// with JobsTotal.
func (s *Scenario) TotalJobs() int {
	if s.JobsTotal {
		return s.Jobs
	}
	return s.Workers * s.Jobs
}

// simTotal is sim.Fleet's Total for s: Jobs with JobsTotal, else 0 (Jobs
// each).
func (s *Scenario) simTotal() int {
	if s.JobsTotal {
		return s.Jobs
	}
	return 0
}

// Policy is the scenario's retry policy for core.NewLoop.
func (s Scenario) Policy() core.Policy {
	return core.Policy{
		Backoff: core.Backoff{
			Strategy:   s.Strategy,
			Base:       s.Base,
			Multiplier: s.Multiplier,
			Cap:        s.Cap,
		},
		MaxAttempts:   s.MaxAttempts,
		MaxElapsed:    s.MaxElapsed,
		RetryAfter:    s.RetryAfter,
		Ceiling:       s.Ceiling,
		AboveCeiling:  s.AboveCeiling,
		Spread:        s.Spread,
		UseResetHints: s.ResetHints,
	}
}

// Validate checks every field (each against its own range, as Set would)
// and the rules between fields (core.Policy.Validate, the endpoint's sums).
// It returns nil when the scenario can be run.
func (s *Scenario) Validate() []FieldError { return s.ValidateHeld(nil, nil) }

// ValidateHeld is Validate leaving out every rule between fields that reads
// a field held(key) says is held: the page keeps a field's last allowed
// value while its input shows text that is not allowed, and a rule checked
// against that value would speak of one no longer on screen (a room "a"
// while the input says "a b") or blame a field twice. Each such rule is
// checked again once the held fields are allowed. held may be nil.
//
// edited, when not nil, says how recently the user set each field (0: not
// since the configuration was loaded; more: more recently). A rule broken
// is blamed on the most recently set of its fields that mends it alone at
// its default: the value just typed gets the message, not another field
// (Cap "1s", then Base "2s" typed, said nothing beside Base: a review).
// Without it, or when none of them mends it, the rule's own choice.
func (s *Scenario) ValidateHeld(held func(key string) bool, edited func(key string) int) []FieldError {
	var errs []FieldError
	for i := range Fields {
		f := &Fields[i]
		v := f.Get(s)
		c := *s
		if err := f.Set(&c, v); err != nil {
			errs = append(errs, FieldError{Key: f.Key, Value: v, Msg: err.Error()})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return s.crossErrors(held, edited)
}

// LiveErrors are the reasons s, valid as a configuration, cannot be run
// live (Run): a fleet above WorkersRange.Max workers, which only Simulate
// takes; an open workload arriving faster than LiveArrivalMax; a scheduled
// outage of a custom target, which the page cannot take down. nil when a
// live run may start. The message names the field, the value and the
// ranges.
func (s *Scenario) LiveErrors() []FieldError {
	if s.Target != "" && s.Outage > 0 {
		v := core.FormatDuration(s.Outage)
		return []FieldError{{Key: "outage", Value: v, Msg: fmt.Sprintf("Server outage %q: only the built-in mock can be taken down, not a custom target (set 0s, or clear the target)", v)}}
	}
	if s.Workers > WorkersRange.Max {
		v := strconv.Itoa(s.Workers)
		return []FieldError{{Key: "workers", Value: v, Msg: fmt.Sprintf("Workers %q: live runs take at most %d; Simulate takes up to %d",
			v, WorkersRange.Max, SimWorkersRange.Max)}}
	}
	// In integers: Workers ÷ Every > LiveArrivalMax, without the float
	// rounding that rejected 9 workers every 18 ms (500.00000000000006/s).
	if e := s.every(); e > 0 && int64(s.Workers)*int64(time.Second) > LiveArrivalMax*int64(e) && s.TotalJobs() > LiveArrivalMax {
		v := core.FormatDuration(s.Every)
		least := (time.Duration(s.Workers)*time.Second/LiveArrivalMax + time.Millisecond - 1).Truncate(time.Millisecond) // rounded up
		return []FieldError{{Key: "every", Value: v, Msg: fmt.Sprintf("Job interval %q: %d workers would start %s jobs/s; live runs take at most %d jobs/s (an interval of at least %s), or any rate for %d jobs in all (here %d); Simulate takes any",
			v, s.Workers, core.FormatFloat(math.Ceil(s.ArrivalRate()*10)/10), LiveArrivalMax, core.FormatDuration(least), LiveArrivalMax, s.TotalJobs())}}
	}
	return nil
}

// OutageStretch is the scheduled outage, [OutageAt, OutageAt+Outage) after
// the start; zero when there is none.
func (s *Scenario) OutageStretch() sim.Outage {
	if s.Outage <= 0 {
		return sim.Outage{}
	}
	return sim.Outage{From: s.OutageAt, To: s.OutageAt + s.Outage}
}

// Arrivals is the open workload's schedule (meaningless for a closed one).
func (s *Scenario) Arrivals() sim.Arrivals {
	return sim.Arrivals{Every: s.Every, Workers: s.Workers, Random: s.RandomArrivals, Seed: s.Seed}
}

// every is the open workload's interval, 0 for a closed one (sim.Fleet's Every).
func (s *Scenario) every() time.Duration {
	if !s.Open {
		return 0
	}
	return s.Every
}

// ArrivalRate is the jobs per second an open workload starts (Workers ÷
// Every); 0 for a closed one.
func (s *Scenario) ArrivalRate() float64 {
	if e := s.every(); e > 0 {
		return float64(s.Workers) / e.Seconds()
	}
	return 0
}

// SimErrors are the reasons s, valid as a configuration, cannot be
// simulated: a custom target (the simulator models only the built-in mock).
// nil when Simulate may run it.
func (s *Scenario) SimErrors() []FieldError {
	if s.Target != "" {
		return []FieldError{{Key: "target", Value: s.Target, Msg: "A custom target cannot be simulated: the simulator models only the built-in mock endpoint (clear the target to simulate)."}}
	}
	return nil
}

// A cross rule is a check spanning several fields. When it fails, the field
// to blame is found by trying each of its fields at its default value, last
// field first (see crossErrors). say, when set, words the error as the
// blamed field's own, its value and what it may be beside the others
// ("" leaves the check's own words).
type crossRule struct {
	keys  []string
	check func(*Scenario) error
	say   func(s *Scenario, f *Field, err error) string
}

var crossRules = []crossRule{
	{
		// How many jobs may be asked for depends on how they are counted:
		// 1–1000 per worker; in total, as many as the workers run at 1000
		// each (a worker never runs more than a per-worker fleet's). A
		// rule, as cap ≥ base is, so that a link reads the same whatever
		// the order of jobs and jobs_of.
		keys: []string{"workers", "jobs_of", "jobs"},
		check: func(s *Scenario) error {
			if s.Jobs > s.jobsMax() {
				return errTooManyJobs
			}
			return nil
		},
		say: func(s *Scenario, f *Field, _ error) string {
			if f.Key != "jobs" {
				return ""
			}
			how := " per worker (or count them in total)"
			if s.JobsTotal {
				how = " in total (Workers × " + f.Max + ")" // f.Max: a worker's most (jobsField)
			}
			return invalid(f.Label, f.Get(s), "an integer between 1 and "+strconv.Itoa(s.jobsMax())+how).Error()
		},
	},
	{
		keys: []string{"strategy", "base", "mult", "cap", "attempts", "elapsed", "ra_honour", "ra_ceiling", "ra_above", "ra_spread", "hints"},
		check: func(s *Scenario) error {
			return s.Policy().Validate()
		},
		// core says "backoff cap 10s: must be 0 (no cap) or at least base
		// 20s", which beside Base spoke of the cap and not of the base.
		say: func(s *Scenario, f *Field, err error) string {
			if !errors.Is(err, core.ErrCapBelowBase) {
				return ""
			}
			switch f.Key {
			case "base":
				return fmt.Sprintf("%s %q: at most the cap, %s (or a cap of 0s: no cap)", f.Label, f.Get(s), core.FormatDuration(s.Cap))
			case "cap":
				return fmt.Sprintf("%s %q: 0s (no cap) or at least the base, %s", f.Label, f.Get(s), core.FormatDuration(s.Base))
			}
			return ""
		},
	},
	// The endpoint's two rules between parameters (mock.ParseParams), each
	// checked on its own fields alone: as one rule over all sixteen, a
	// Window of "x" (held, not even in effect) hid the spread's error.
	{
		keys: []string{"latency", "spread"},
		check: func(s *Scenario) error {
			p := mock.Defaults()
			p.Latency, p.Spread = s.Mock.Latency, s.Mock.Spread
			return p.Valid()
		},
		say: sayMockRule,
	},
	{
		keys: []string{"fail500", "fail503", "drop", "hang"},
		check: func(s *Scenario) error {
			p := mock.Defaults()
			p.Fail500, p.Fail503, p.Drop, p.Hang = s.Mock.Fail500, s.Mock.Fail503, s.Mock.Drop, s.Mock.Hang
			return p.Valid()
		},
		say: sayMockRule,
	},
	{
		// A room is a key of this server's mock: with the user's own URL
		// as the target it would silently do nothing. Blamed on the target,
		// whose input is the one open (the room's is disabled with it).
		keys: []string{"room", "target"},
		check: func(s *Scenario) error {
			if s.Room != "" && s.Target != "" {
				return fmt.Errorf("the shared room %q is a key of this server's mock, and a custom target would ignore it: clear the target to use the room (or clear the room after)", s.Room)
			}
			return nil
		},
	},
}

// errTooManyJobs is the jobs' rule's error (its say words it).
var errTooManyJobs = errors.New("more jobs than the workers may run")

// jobsMax is the most jobs s may ask for: JobsRange.Max per worker; in
// total, JobsRange.Max for each worker.
func (s *Scenario) jobsMax() int {
	if s.JobsTotal {
		return s.Workers * JobsRange.Max
	}
	return JobsRange.Max
}

// sayMockRule words an endpoint rule's error as its field's: the mock
// names its query parameter ("spread \"15s\": allowed at most 10s: …"); the
// page names the field.
func sayMockRule(s *Scenario, f *Field, err error) string {
	var pe *mock.ParamError
	if !errors.As(err, &pe) {
		return ""
	}
	allowed := pe.Allowed
	if pe.Param != f.Key { // blamed on the field just typed (ValidateHeld), not the mock's choice
		if a := s.Mock.AllowedBeside(f.Key); a != "" {
			allowed = a
		}
	}
	return fmt.Sprintf("%s %q: allowed %s", f.Label, f.Get(s), labelKeys(allowed))
}

// labelKeys writes the mock's rule between parameters ("at most 40:
// fail500+fail503+drop+hang ≤ 100") with the fields' labels for their
// query keys, as the page names them beside the inputs ("… 500 errors +
// 503 errors + Dropped connections + Hangs ≤ 100%"; an accessibility review
// found keys a screen reader could not map to any input).
func labelKeys(allowed string) string {
	head, rule, ok := strings.Cut(allowed, ": ")
	if !ok {
		return allowed
	}
	terms := strings.Split(rule, "+")
	last := len(terms) - 1
	key, rest, _ := strings.Cut(terms[last], " ")
	terms[last] = key
	unit := ""
	for i, k := range terms {
		f, ok := FieldByKey(k)
		if !ok {
			return allowed
		}
		terms[i], unit = f.Label, f.Unit
	}
	if unit == "%" {
		rest += unit
	}
	return head + ": " + strings.Join(terms, " + ") + " " + rest
}

// crossErrors reports every rule between fields that s breaks, each on the
// field it blames. A rule may be broken twice at once (a latency spread too
// long, and failures over 100%): once the first error's field is set to
// its default in a copy, the rule is checked again, until it passes, so
// each error is shown beside its field at once rather than one per fix.
// Rules reading a field held(key) says is held are left out (ValidateHeld).
func (s *Scenario) crossErrors(held func(key string) bool, edited func(key string) int) []FieldError {
	var errs []FieldError
	def := Default()
rules:
	for _, r := range crossRules {
		for _, k := range r.keys {
			if held != nil && held(k) {
				continue rules
			}
		}
		c := *s
		for range r.keys {
			err := r.check(&c)
			if err == nil {
				break
			}
			key := r.blame(&c, &def, err, edited)
			fe := FieldError{Key: key, Msg: trimPkg(err.Error())}
			f, ok := FieldByKey(key)
			if !ok {
				errs = append(errs, fe)
				break
			}
			fe.Value = f.Get(s)
			fe.Msg = f.Label + ": " + fe.Msg
			if r.say != nil {
				if msg := r.say(&c, f, err); msg != "" {
					fe.Msg = msg
				}
			}
			errs = append(errs, fe)
			_ = f.Set(&c, f.Get(&def)) // and look for the rule's next error
		}
	}
	return errs
}

// blame returns the most recently edited of r's fields whose default
// fixes err in s (ValidateHeld); else the last whose default fixes it;
// failing that (two errors at once), the last whose default changes it.
func (r *crossRule) blame(s, def *Scenario, err error, edited func(key string) int) string {
	if edited != nil {
		key, latest := "", 0
		for _, k := range r.keys {
			if n := edited(k); n > latest {
				f, _ := FieldByKey(k)
				if c := *s; f.Set(&c, f.Get(def)) == nil && r.check(&c) == nil {
					key, latest = k, n
				}
			}
		}
		if key != "" {
			return key
		}
	}
	for pass := 0; pass < 2; pass++ {
		for i := len(r.keys) - 1; i >= 0; i-- {
			f, _ := FieldByKey(r.keys[i])
			c := *s
			if f.Set(&c, f.Get(def)) != nil {
				continue
			}
			if err2 := r.check(&c); err2 == nil || (pass == 1 && err2.Error() != err.Error()) {
				return f.Key
			}
		}
	}
	return ""
}

// TryKey is the mock key of the endpoint URL shown to try with curl (the
// page's endpoint line before a run, the server's start-up line): not a
// run's, whose keys are fresh.
const TryKey = "try-me"

// MockKey is the key a run's requests use at the built-in mock: the shared
// room when Room is set, else runKey.
func (s Scenario) MockKey(runKey string) string {
	if s.Room != "" {
		return s.Room
	}
	return runKey
}

// MockURL is the URL worker requests go to when the scenario uses the
// built-in mock: origin + "/mock?" + the endpoint parameters that differ
// from the mock's defaults (app/mock's encoding) + the key. The key is the
// shared room when Room is set, else runKey (a run's own id, so every run
// starts with a fresh limiter). The page picks the origin per worker
// (app/ui.MockOrigin); a Transport may append "&tag=" + AttemptTag(…).
// With injected failures or a latency spread, the seed goes too: the mock
// rolls each attempt's from it and the tag, so the same seed fails the
// same attempts in every run.
func (s Scenario) MockURL(origin, runKey string) string {
	p := s.mockParams().Used() // the seed only when there is something to roll
	p.Key, p.Tag = mock.Defaults().Key, ""
	q := p.Encode()
	if key := s.MockKey(runKey); key != "" {
		if q != "" {
			q += "&"
		}
		q += "key=" + url.QueryEscape(key)
	}
	return origin + "/mock?" + q
}

// mockParams are the mock's parameters of s's requests: Mock with s's
// seed, from which the mock (and the simulator) roll each attempt's
// injected failure and spread.
func (s *Scenario) mockParams() mock.Params {
	p := s.Mock
	p.Seed, p.Seeded = s.Seed, true
	return p
}

// AttemptTag labels one attempt for the mock's tag parameter, which the mock
// echoes in its body and arrivals stream: "w3.j0.a2" is worker 3, job 0,
// attempt 2. In a shared room a page puts its device name in front
// ("heron-17.w3.j0.a2"), so a watch of the room can tell the devices
// apart; device "" leaves it out. ParseAttemptTag reads it back.
func AttemptTag(device string, worker, job, attempt int) string {
	var b [64]byte
	t := b[:0]
	if device != "" {
		t = append(append(t, device...), '.')
	}
	return string(appendAttemptTag(t, worker, job, attempt))
}

// appendAttemptTag appends AttemptTag("", worker, job, attempt) to b.
func appendAttemptTag(b []byte, worker, job, attempt int) []byte {
	b = strconv.AppendInt(append(b, 'w'), int64(worker), 10)
	b = strconv.AppendInt(append(b, ".j"...), int64(job), 10)
	return strconv.AppendInt(append(b, ".a"...), int64(attempt), 10)
}

// ParseAttemptTag is the inverse of AttemptTag. A tag with a device that
// is not a ValidDevice is not an attempt's.
func ParseAttemptTag(tag string) (device string, worker, job, attempt int, ok bool) {
	rest := tag
	if strings.Count(tag, ".") == 3 { // a device in front
		device, rest, _ = strings.Cut(tag, ".")
		if !ValidDevice(device) {
			return "", 0, 0, 0, false
		}
	}
	var n [3]int
	for i, prefix := range []string{"w", "j", "a"} {
		var part string
		var found bool
		part, rest, found = strings.Cut(rest, ".")
		if (i < 2) != found || !strings.HasPrefix(part, prefix) {
			return "", 0, 0, 0, false
		}
		v, err := strconv.Atoi(part[1:])
		if err != nil || v < 0 || part[1:] != strconv.Itoa(v) {
			return "", 0, 0, 0, false
		}
		n[i] = v
	}
	return device, n[0], n[1], n[2], true
}

// DeviceMaxLen is the longest device name: with the longest attempt label
// ("w9999.j999.a1000") it stays within the mock's 64-byte tag.
const DeviceMaxLen = 24

// ValidDevice reports whether name can stand in front of an attempt's tag:
// 1–24 characters from a–z, 0–9 and "-".
func ValidDevice(name string) bool {
	if name == "" || len(name) > DeviceMaxLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// trimPkg drops a "core: " or "mock: " prefix from an error message.
func trimPkg(msg string) string {
	for _, p := range []string{"core: ", "mock: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}
