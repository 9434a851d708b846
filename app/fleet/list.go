package fleet

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"retrylab/app/mock"
	"retrylab/core"
	"retrylab/core/endpoint"
)

// Fields lists every parameter of a Scenario, in the order the page shows
// them: fleet, backoff, retry-after, bucket, budget, endpoint, failures,
// outage.
// Treat it as read-only.
var Fields = []Field{
	// Client fleet.
	workersField(),
	jobsField(),
	choiceField("jobs_of", "fleet", "Jobs counted", "Per worker: each worker runs Jobs, so more workers bring more work. In total: the fleet shares Jobs (up to "+strconv.Itoa(JobsRange.Max)+" a worker, so Workers × "+strconv.Itoa(JobsRange.Max)+"), and changing Workers changes only how many send at once: each worker gets Jobs ÷ workers, the first Jobs mod workers one more (7 over 3: 3, 2, 2), and a worker dealt none sends nothing (its lane stays empty). In an open workload each worker's share arrives on its own schedule; with steady arrivals, the jobs that arrive are the first Jobs of the fleet's schedule.",
		[]bool{false, true}, jobsOfName, jobsOfLabels, func(s *Scenario) *bool { return &s.JobsTotal }),
	choiceField("workload", "fleet", "Workload", "Closed: a worker starts its next job when the last one ends, so backing off also slows what it sends. Open: jobs arrive on a schedule, like users or a queue, and keep coming while earlier ones back off.",
		[]bool{false, true}, workloadName, workloadLabels, func(s *Scenario) *bool { return &s.Open }),
	durationField("every", "fleet", "Job interval", "How often each worker receives a new job in an open workload, done with the last one or not: the fleet's jobs arrive at workers ÷ interval per second, and no backoff slows that.",
		EveryRange, func(s *Scenario) *time.Duration { return &s.Every }).
		with(func(s *Scenario) bool { return s.Open }, "while the workload is closed"),
	choiceField("arrivals", "fleet", "Arrivals", "Steady: each worker's jobs arrive exactly one interval apart. Random: at the same average rate but at random moments (a Poisson process, like independent users), so some seconds bring a burst and others a lull; the seed fixes them.",
		[]bool{false, true}, arrivalsName, arrivalsLabels, func(s *Scenario) *bool { return &s.RandomArrivals }).
		with(func(s *Scenario) bool { return s.Open }, "while the workload is closed"),
	durationField("timeout", "fleet", "Request timeout", "How long one attempt may take before it is abandoned and counted as a timeout; 0 = no timeout.",
		TimeoutRange, func(s *Scenario) *time.Duration { return &s.Timeout }),
	seedField(),

	// Backoff.
	choiceField("strategy", "backoff", "Strategy", "How the wait after a failure is chosen, with t = base × multiplierⁿ after the n-th failure, up to the cap: constant waits the base; exponential waits t; full jitter a random 0…t; equal jitter t/2 plus a random 0…t/2; decorrelated a random base…3 × its last backoff wait (base at first), up to the cap; none does not retry. Without jitter, workers rejected together retry together. Where a Retry-After is honoured, it decides the wait instead.",
		enumerate(core.Strategy.String, func(v string) (core.Strategy, bool) { st, err := core.ParseStrategy(v); return st, err == nil }),
		core.Strategy.String, strategyLabels, func(s *Scenario) *core.Strategy { return &s.Strategy }),
	durationField("base", "backoff", "Base", "The wait's unit: constant waits exactly this; exponential ones wait (up to) base × multiplierⁿ after the n-th failure, the first base × multiplier; decorrelated starts between base and 3 × base.",
		core.BackoffBaseRange, func(s *Scenario) *time.Duration { return &s.Base }).
		with(func(s *Scenario) bool { return s.Strategy != core.None }, "while the strategy is None").
		with(backsOff, serverDecides),
	floatField("mult", "backoff", "Multiplier", "×", "How fast exponential waits grow: the n-th retry waits up to base·multiplierⁿ (the AWS formulas use 2).",
		core.BackoffMultiplierRange, func(s *Scenario) *float64 { return &s.Multiplier }).
		with(func(s *Scenario) bool { return s.Strategy.Grows() }, "while the strategy does not grow (only exponential, full and equal jitter use it)").
		with(backsOff, serverDecides),
	durationField("cap", "backoff", "Cap", "The longest backoff wait; 0 = no cap (otherwise at least the base). Full and equal jitter draw under it; decorrelated draws past it wait exactly the cap.",
		core.BackoffCapRange, func(s *Scenario) *time.Duration { return &s.Cap }).
		with(func(s *Scenario) bool { return s.Strategy.Capped() }, "while the strategy is None or Constant").
		with(backsOff, serverDecides),
	intField("attempts", "backoff", "Max attempts", "", "Attempts per job, the first included (1 = never retry); a job that runs out gives up.",
		core.PolicyMaxAttemptsRange, func(s *Scenario) *int { return &s.MaxAttempts }).
		retrying(),
	durationField("elapsed", "backoff", "Max elapsed", "A job gives up rather than start a wait (backoff, server, bucket) that would end more than this long after it started, so it may stop well before; an attempt in flight runs on to its timeout; 0 = no limit.",
		core.PolicyMaxElapsedRange, func(s *Scenario) *time.Duration { return &s.MaxElapsed }),

	// Retry-After and hints.
	boolField("ra_honour", "retry-after", "Honour Retry-After", "Wait as long as the server's Retry-After says instead of guessing: the server knows when it will have room. Workers told the same moment come back together, though: the spread scatters them.",
		func(s *Scenario) *bool { return &s.RetryAfter }).
		with(sendsRetryAfter, "while the mock sends no Retry-After (Retry-After sent: None)").
		retrying(),
	durationField("ra_ceiling", "retry-after", "Retry-After ceiling", "The longest server-requested wait honoured, before the spread is added; 0 = no ceiling. Protects against a server asking for hours.",
		core.PolicyCeilingRange, func(s *Scenario) *time.Duration { return &s.Ceiling }).
		with(honoursServerWaits, noServerWaits).
		retrying(),
	choiceField("ra_above", "retry-after", "Above the ceiling", "When the server asks for longer than the ceiling: wait the ceiling (clamp) or give up (stop).",
		[]core.CeilingAction{core.CeilingClamp, core.CeilingStop}, ceilingName, ceilingLabels,
		func(s *Scenario) *core.CeilingAction { return &s.AboveCeiling }).
		with(honoursServerWaits, noServerWaits).
		with(func(s *Scenario) bool { return s.Ceiling > 0 }, "while the ceiling is 0 (none)").
		retrying(),
	durationField("ra_spread", "retry-after", "Retry-After spread", "Adds a random 0…spread to server-requested waits, so a herd told “1 s” does not return in the same millisecond.",
		core.PolicySpreadRange, func(s *Scenario) *time.Duration { return &s.Spread }).
		with(honoursServerWaits, noServerWaits).
		retrying(),
	boolField("hints", "retry-after", "Use reset hints", "A rejection that brings no Retry-After to honour (none sent, unreadable, or Honour Retry-After off) may still say when the server's quota, the requests it allows, comes back: its RateLimit / X-RateLimit headers announce a reset (the endpoint sends them with Rate-limit headers). When they say the quota is used up (or give a reset without saying what remains), wait for that reset. It is when the whole quota is back (a full bucket, the window's end), often later than the next request would be let through, so a fleet waiting for it returns together.",
		func(s *Scenario) *bool { return &s.ResetHints }).
		with(sendsResetHints, "while the mock sends no rate-limit headers (Rate-limit headers: None, or Server limiter: No limit)").
		with(backsOff, serverDecides).
		retrying(),

	// Fleet token bucket.
	boolField("bucket", "bucket", "Fleet token bucket", "One bucket shared by every worker paces all attempts, so backoff is the exception, not what holds throughput down.",
		func(s *Scenario) *bool { return &s.Bucket }),
	floatField("bucket_rate", "bucket", "Bucket rate", "req/s", "Attempts per second the whole fleet may start; set it just under the server's limit.",
		core.BucketRateRange, func(s *Scenario) *float64 { return &s.BucketRate }).
		with(func(s *Scenario) bool { return s.Bucket }, "while the fleet bucket is off"),
	floatField("bucket_cap", "bucket", "Bucket capacity", "req", "How many attempts may start at once after a quiet spell (the bucket starts full).",
		core.BucketCapacityRange, func(s *Scenario) *float64 { return &s.BucketCapacity }).
		with(func(s *Scenario) bool { return s.Bucket }, "while the fleet bucket is off"),

	// Retry budget.
	boolField("budget", "budget", "Retry budget", "Retries spend from a budget shared by the fleet and successes earn it back: when it is empty, failures give up instead of piling on.",
		func(s *Scenario) *bool { return &s.Budget }).
		retrying(),
	floatField("budget_size", "budget", "Budget size", "retries", "Retries the fleet may spend before it must earn them back with successes.",
		core.BudgetCapacityRange, func(s *Scenario) *float64 { return &s.BudgetSize }).
		with(func(s *Scenario) bool { return s.Budget }, "while the retry budget is off").
		retrying(),
	floatField("budget_refill", "budget", "Refill per success", "retries", "Budget each success earns back: 0.1 allows one retry per ten successes once the budget is spent.",
		core.BudgetRefillRange, func(s *Scenario) *float64 { return &s.BudgetRefill }).
		with(func(s *Scenario) bool { return s.Budget }, "while the retry budget is off").
		retrying(),

	// Endpoint.
	targetField(),
	roomField(),
	mockChoice("limiter", "endpoint", "Server limiter", "How the endpoint decides a request is over the limit: a bucket allows bursts; a fixed window resets all at once, so up to twice the limit passes around a boundary; a sliding window never lets more than the limit through in any window's length.",
		func(p *mock.Params) *core.LimiterKind { return &p.Limiter }, endpoint.LimiterName, limiterLabels, nil, ""),
	mockNumber("rate", "endpoint", "Server rate", "req/s", "Requests per second the endpoint's bucket refills: the most the fleet can sustain.",
		core.FormatFloat(core.LimiterRateRange.Min), core.FormatFloat(core.LimiterRateRange.Max), func(p *mock.Params) *float64 { return &p.Rate }, core.FormatFloat,
		func(s *Scenario) bool { return s.Mock.Limiter == core.LimitTokenBucket }, "while the server limiter is not a token bucket"),
	mockNumber("burst", "endpoint", "Server burst", "req", "Requests the endpoint accepts at once after a quiet spell (its bucket starts full).",
		strconv.Itoa(core.LimiterBurstRange.Min), strconv.Itoa(core.LimiterBurstRange.Max), func(p *mock.Params) *int { return &p.Burst }, strconv.Itoa,
		func(s *Scenario) bool { return s.Mock.Limiter == core.LimitTokenBucket }, "while the server limiter is not a token bucket"),
	mockNumber("limit", "endpoint", "Requests per window", "req", "Requests the endpoint allows in each window.",
		strconv.Itoa(core.LimiterLimitRange.Min), strconv.Itoa(core.LimiterLimitRange.Max), func(p *mock.Params) *int { return &p.Limit }, strconv.Itoa,
		func(s *Scenario) bool { return windowed(s.Mock.Limiter) }, "while the server limiter is not a window"),
	mockNumber("window", "endpoint", "Window", "", "Length of the endpoint's window; a fixed window forgets everything at each boundary, so bursts straddle it.",
		core.FormatDuration(core.LimiterWindowRange.Min), core.FormatDuration(core.LimiterWindowRange.Max), func(p *mock.Params) *time.Duration { return &p.Window }, time.Duration.String,
		func(s *Scenario) bool { return windowed(s.Mock.Limiter) }, "while the server limiter is not a window"),
	mockChoice("status", "endpoint", "Rejection status", "What a rejection looks like: 429 Too Many Requests or 503 Service Unavailable; both are retried.",
		func(p *mock.Params) *int { return &p.Status }, strconv.Itoa, nil, nil, ""),
	mockChoice("retry_after", "endpoint", "Retry-After sent", "What the endpoint puts in Retry-After: nothing, seconds, a date, a fixed value, or garbage that tests the client's parser.",
		func(p *mock.Params) *mock.RetryMode { return &p.RetryAfter }, mock.RetryMode.String, retryModeLabels, nil, ""),
	mockNumber("retry_value", "endpoint", "Fixed Retry-After", "s", "Seconds sent in every Retry-After, whatever the limiter says; a value too small brings a herd back too early.",
		strconv.Itoa(mock.RetryValueRange.Min), strconv.Itoa(mock.RetryValueRange.Max), func(p *mock.Params) *int { return &p.RetryValue }, strconv.Itoa,
		func(s *Scenario) bool { return s.Mock.RetryAfter == mock.RetryFixed }, "while Retry-After sent is not Fixed value"),
	mockChoice("malformed", "endpoint", "Malformed kind", "Which broken Retry-After the endpoint sends; mix rotates through them all. Huge is valid but longer than any clock holds: core reads it as the longest wait, so the ceiling clamps it or gives up.",
		func(p *mock.Params) *mock.Malformed { return &p.Malformed }, mock.Malformed.String, nil,
		func(s *Scenario) bool { return s.Mock.RetryAfter == mock.RetryMalformed }, "while Retry-After sent is not Malformed"),
	mockChoice("headers", "endpoint", "Rate-limit headers", "Quota headers on every response (IETF RateLimit, X-RateLimit-*): what reset hints read.",
		func(p *mock.Params) *mock.Headers { return &p.Headers }, mock.Headers.String, headersLabels,
		func(s *Scenario) bool { return s.Mock.Limiter != core.LimitNone }, "while the server limiter is No limit"),
	mockNumber("latency", "endpoint", "Latency", "", "Time the endpoint takes to answer each request; a worker's next attempt waits for it.",
		core.FormatDuration(mock.LatencyRange.Min), core.FormatDuration(mock.LatencyRange.Max), func(p *mock.Params) *time.Duration { return &p.Latency }, time.Duration.String, nil, ""),
	mockNumber("spread", "endpoint", "Latency spread", "", "Extra random latency, up to this much, on each response.",
		core.FormatDuration(mock.LatencyRange.Min), core.FormatDuration(mock.LatencyRange.Max), func(p *mock.Params) *time.Duration { return &p.Spread }, time.Duration.String, nil, ""),

	// Injected failures.
	mockNumber("fail500", "failures", "500 errors", "%", "Requests answered 500, with no Retry-After, before the limit is consulted: retried on backoff alone.",
		failMin, failMax, func(p *mock.Params) *float64 { return &p.Fail500 }, core.FormatFloat, nil, ""),
	mockNumber("fail503", "failures", "503 errors", "%", "Requests answered 503 without Retry-After, before the limit is consulted: an overloaded server that gives no hint.",
		failMin, failMax, func(p *mock.Params) *float64 { return &p.Fail503 }, core.FormatFloat, nil, ""),
	mockNumber("drop", "failures", "Dropped connections", "%", "Requests whose connection is closed without an answer: a network error.",
		failMin, failMax, func(p *mock.Params) *float64 { return &p.Drop }, core.FormatFloat, nil, ""),
	mockNumber("hang", "failures", "Hangs", "%", "Requests never answered: the request timeout gets the worker out, or, with none, the server closes the connection after 60 s, a network error to retry.",
		failMin, failMax, func(p *mock.Params) *float64 { return &p.Hang }, core.FormatFloat, nil, ""),
	durationField("outage", "outage", "Server outage", "The server goes down for this long during the run: every request gets 503, with Retry-After as the endpoint sends it for the time left (the seconds left, the date it is back; a fixed value stays fixed; None sends none); watch who comes back at once when it returns. 0 = none.",
		OutageRange, func(s *Scenario) *time.Duration { return &s.Outage }),
	durationField("outage_at", "outage", "Outage starts", "How long after the start the server goes down (live: after Run; simulated: in virtual time).",
		OutageAtRange, func(s *Scenario) *time.Duration { return &s.OutageAt }).
		with(func(s *Scenario) bool { return s.Outage > 0 }, "while the outage is 0 (none)"),
}

// failMin and failMax are the injected failures' range, as their fields
// show it.
var failMin, failMax = core.FormatFloat(endpoint.FailureRange.Min), core.FormatFloat(endpoint.FailureRange.Max)

var strategyLabels = map[string]string{
	"none":         "None (never retry)",
	"constant":     "Constant",
	"exponential":  "Exponential, no jitter",
	"full":         "Exponential, full jitter",
	"equal":        "Exponential, equal jitter",
	"decorrelated": "Decorrelated jitter",
}

var ceilingLabels = map[string]string{"clamp": "Wait the ceiling", "stop": "Give up"}

// boolNames names a two-way choice field's values: off for false, on for
// true.
func boolNames(off, on string) func(bool) string {
	return func(b bool) string {
		if b {
			return on
		}
		return off
	}
}

var jobsOfName = boolNames("worker", "fleet")

var jobsOfLabels = map[string]string{
	"worker": "per worker",
	"fleet":  "in total, dealt over the workers",
}

var workloadName = boolNames("closed", "open")

var workloadLabels = map[string]string{
	"closed": "closed: next job when the last ends",
	"open":   "open: jobs arrive on a schedule",
}

var arrivalsName = boolNames("steady", "random")

var arrivalsLabels = map[string]string{
	"steady": "steady: one interval apart",
	"random": "random: Poisson, same average rate",
}

func ceilingName(a core.CeilingAction) string {
	if a == core.CeilingStop {
		return "stop"
	}
	return "clamp"
}

var limiterLabels = map[string]string{
	"bucket":  "Token bucket",
	"fixed":   "Fixed window",
	"sliding": "Sliding window",
	"none":    "No limit",
}

var retryModeLabels = map[string]string{
	"none":      "None",
	"seconds":   "Delta-seconds",
	"date":      "HTTP-date",
	"fixed":     "Fixed value",
	"malformed": "Malformed",
}

var headersLabels = map[string]string{
	"none": "None",
	"ietf": "RateLimit (IETF draft)",
	"x":    "X-RateLimit-*",
	"both": "Both",
}

func windowed(k core.LimiterKind) bool {
	return k == core.LimitFixedWindow || k == core.LimitSlidingWindow
}

func mockOn(s *Scenario) bool { return s.Target == "" }

// sendsRetryAfter says whether the server of s may send a Retry-After to
// honour: the mock does unless told to send none; a custom target may.
func sendsRetryAfter(s *Scenario) bool {
	return s.Target != "" || s.Mock.RetryAfter != mock.RetryNone
}

// sendsResetHints says whether the server of s may send rate-limit headers
// for reset hints to read: the mock does when asked and it has a limiter
// to describe; a custom target may.
func sendsResetHints(s *Scenario) bool {
	return s.Target != "" || s.Mock.Headers != mock.HeadersNone && s.Mock.Limiter != core.LimitNone
}

// honoursServerWaits says whether a wait the server asks for may be
// honoured in s, through Retry-After or reset hints: what the ceiling and
// the spread act on.
func honoursServerWaits(s *Scenario) bool {
	return s.RetryAfter && sendsRetryAfter(s) || s.ResetHints && sendsResetHints(s)
}

// backsOff says whether a failure of s may be retried after a backoff
// wait (or a reset hint's): not when Retry-After is honoured and the mock
// sends a readable one with every failure, 429s, 503s and an outage's
// alike, injects none without (500s, 503s, drops, hangs) and answers well
// within the timeout. Then the server decides every wait: a tuner changed
// Strategy, Base and Cap and every number stayed the same, with nothing
// to say why (a review). A network error in a live run would still back
// off.
func backsOff(s *Scenario) bool {
	p := &s.Mock
	readable := p.RetryAfter == mock.RetrySeconds || p.RetryAfter == mock.RetryDate || p.RetryAfter == mock.RetryFixed
	injected := p.Fail500 > 0 || p.Fail503 > 0 || p.Drop > 0 || p.Hang > 0
	timesOut := s.Timeout > 0 && p.Latency+p.Spread > s.Timeout/2
	return s.Target != "" || s.Strategy == core.None || !s.RetryAfter || !readable || injected || timesOut
}

// serverDecides is why the backoff's settings have no effect (backsOff).
const serverDecides = "while Retry-After is honoured and the mock sends one with every failure: the server decides each wait"

// noServerWaits is why the ceiling and the spread have no effect.
const noServerWaits = "while neither Retry-After nor reset hints are used (off, or not sent by the mock)"

func seedField() Field {
	allowed := "an integer between 0 and " + strconv.FormatUint(math.MaxUint64, 10)
	return Field{
		Key: "seed", Group: "fleet", Label: "Random seed", Kind: KindInt,
		Min: "0", Max: strconv.FormatUint(math.MaxUint64, 10), allowed: allowed,
		Help: "The same seed and settings give the same jitter, and the mock the same failures and spread for each attempt, live or simulated, so a shared link reproduces the run.",
		Get:  func(s *Scenario) string { return strconv.FormatUint(s.Seed, 10) },
		Set: func(s *Scenario, v string) error {
			n, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(v), "+"), 10, 64) // "+5", as the other integers take it
			if err != nil {
				return invalid("Random seed", v, allowed+groupedHint(v))
			}
			s.Seed = n
			return nil
		},
	}
}

// MaxTargetLen is the longest custom target URL accepted.
const MaxTargetLen = 2048

// targetAllowed is what the custom target may be.
const targetAllowed = "empty (the built-in mock) or an absolute http:// or https:// URL of at most 2048 bytes, with a host name and, if any, a port between 1 and 65535, not one of the Fetch standard's bad ports"

func targetField() Field {
	return Field{
		Key: "target", Group: "endpoint", Label: "Custom target", Kind: KindText, allowed: targetAllowed,
		Help: "Send the workers to your own URL instead of the mock; to read its Retry-After the server must allow CORS and list it in Access-Control-Expose-Headers.",
		Get:  func(s *Scenario) string { return s.Target },
		Set: func(s *Scenario, v string) error {
			v = strings.TrimSpace(v)
			if v == "" {
				s.Target = v
				return nil
			}
			port, problem := targetPort(v)
			if problem != "" {
				return invalid("Custom target", v, problem)
			}
			if BadPort(port) {
				return invalid("Custom target", v, "on another port: browsers refuse port "+strconv.Itoa(port)+", a bad port of the Fetch standard, so no attempt would leave the browser")
			}
			s.Target = v
			return nil
		},
	}
}

// targetPort reports whether fetch() can send to v: an absolute http or
// https URL with a host name, no user information, and a port (if any) of
// 1–65535, which it returns (0 when v gives none); else what v must be
// instead, for the field's message. Go's url.Parse takes "http://:80/" and
// "http://host:99999/", which the browser's URL parser rejects (port 0 it
// refuses to connect to): every attempt of a run would fail in the
// browser, never sent. So is a host that ends in a number but is no IPv4
// address to the browser ("256.256.256.256", "1.2.3.4.5"; whatwgIPv4).
func targetPort(v string) (int, string) {
	u, err := url.Parse(v)
	var esc url.EscapeError
	switch {
	case !strings.Contains(v, "://") && !strings.HasPrefix(v, "/"):
		// "localhost:8080/api", "api.example.com/v1": the scheme left out,
		// as an address bar allows; fetch() would read it as a path on
		// the page's own origin. Or mistyped: "http//host", "http:/host".
		if fix := withScheme(v); fix != "" {
			return 0, withHTTP + " (" + fix + ", perhaps); " + targetAllowed
		}
		if err == nil && strings.Contains(" javascript data file blob about mailto ", " "+strings.ToLower(u.Scheme)+" ") {
			return 0, withHTTP + ", which fetch() sends (not " + u.Scheme + ":); " + targetAllowed
		}
		return 0, withHTTP + "; " + targetAllowed
	case errors.As(err, &esc) && len(esc) == 3 && isHex(esc[1]) && isHex(esc[2]):
		// Go refuses an escape in a host, which browsers decode:
		// "exa%6dple.com" is example.com.
		return 0, "a URL whose host has no %-escapes (browsers decode them: write the host as it reads); " + targetAllowed
	case errors.As(err, &esc):
		return 0, "a URL whose every % starts an escape of two hex digits (a % itself is %25); " + targetAllowed
	case strings.HasPrefix(v, "//"):
		// Scheme-relative, as in a page's links: fetch() would take the
		// page's own scheme.
		if _, problem := targetPort("http:" + v); problem == "" {
			return 0, withHTTP + " (http:" + v + ", perhaps); " + targetAllowed
		}
		return 0, targetAllowed
	case err != nil || len(v) > MaxTargetLen:
		return 0, targetAllowed
	case u.Scheme == "": // a path: on the page's own origin to fetch()
		return 0, withHTTP + "; " + targetAllowed
	case u.Scheme != "http" && u.Scheme != "https":
		return 0, withHTTP + ", which fetch() sends (not " + u.Scheme + ":); " + targetAllowed
	case u.Hostname() == "":
		return 0, "a URL with a host name after " + u.Scheme + "://; " + targetAllowed
	case u.User != nil:
		return 0, "a URL without a user name or password (fetch() refuses one that carries them; send credentials in a header); " + targetAllowed
	case endsInNumber(u.Hostname()) && !whatwgIPv4(u.Hostname()):
		return 0, "a URL whose host, ending in a number, is an IPv4 address as browsers read it (four numbers of 0–255); " + targetAllowed
	case strings.HasPrefix(u.Host, "[") && strings.Contains(u.Hostname(), "%"):
		// Go takes a zone (RFC 6874); the URL Standard does not, and
		// fetch() failed as if the network had.
		return 0, "a URL whose IPv6 address has no zone (%25eth0): browsers refuse one; " + targetAllowed
	case !utf8.ValidString(u.Host):
		// Bytes that are no character (a fuzzer's "http://\xaf0"): the
		// page's string has U+FFFD there, which no host name takes.
		return 0, "a URL whose host is text (UTF-8), not bytes that are no character; " + targetAllowed
	case !strings.HasPrefix(u.Host, "[") && strings.ContainsAny(u.Hostname(), forbiddenHost):
		return 0, "a URL whose host has none of " + strings.Join(strings.Split(forbiddenHost, ""), " ") + " (browsers refuse them in a host name); " + targetAllowed
	}
	n := 0
	if p := u.Port(); p != "" {
		n, err = strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return 0, "a URL whose port is between 1 and 65535 (here " + mock.Cut(p) + "); " + targetAllowed
		}
	}
	return n, ""
}

// SentTarget is the custom target as fetch() sends it, for a client in Go
// to call (the Go code, the tests' HTTPTransport): without its fragment, which no
// request carries, and with the bytes the browser's URL parser
// percent-encodes so (the URL Standard's path and special-query
// percent-encode sets: controls, space, " < > and every byte of a
// non-ASCII character; ` { } in the path, ' in the query). Go's client
// sends a query as typed: "?y=a b" so, which Go's server answered 400,
// where the page's run of the same target succeeded (a review). The
// scheme and host stay as typed. "" when there is no target.
func (s Scenario) SentTarget() string {
	t, _, _ := strings.Cut(s.Target, "#")
	i := strings.Index(t, "://")
	if i < 0 {
		return t
	}
	j := strings.IndexAny(t[i+3:], "/?")
	if j < 0 {
		return t // no path, no query
	}
	at := i + 3 + j
	const hex = "0123456789ABCDEF"
	b := []byte(t[:at])
	set := "\"<>`{}"
	for _, c := range []byte(t[at:]) {
		if c == '?' {
			set = "\"<>'"
		}
		if c <= ' ' || c >= 0x7f || strings.IndexByte(set, c) >= 0 {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// withHTTP begins the message of a target without a scheme fetch() sends.
const withHTTP = "a URL that starts with http:// or https://"

// forbiddenHost are the characters Go's url.Parse takes in a host name
// and browsers refuse there (the URL Standard's forbidden host code
// points; Chromium's new URL("http://a<b.example/") throws), so that
// fetch() failed before it sent anything, told as a network error.
const forbiddenHost = "<>]"

// withScheme is v, a target typed without "://", as it was likely meant:
// with the scheme it starts with repaired ("http//host", "http:/host",
// "https:host") or http:// in front. "" when that is no valid target
// either.
func withScheme(v string) string {
	fix := "http://" + v
	for _, scheme := range []string{"https", "http"} {
		if len(v) > len(scheme) && strings.EqualFold(v[:len(scheme)], scheme) && strings.ContainsRune(":/", rune(v[len(scheme)])) {
			fix = scheme + "://" + strings.TrimLeft(v[len(scheme):], ":/")
			break
		}
	}
	if n, problem := targetPort(fix); problem != "" || BadPort(n) {
		return ""
	}
	return fix
}

// isHex reports whether c is a hex digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// endsInNumber reports whether the URL Standard parses host as an IPv4
// address: its last label (a trailing dot aside) is a number
// (https://url.spec.whatwg.org/#ends-in-a-number-checker).
func endsInNumber(host string) bool {
	labels := hostLabels(host)
	last := labels[len(labels)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

// whatwgIPv4 reports whether the URL Standard's IPv4 parser takes host:
// up to four numbers, decimal, octal (a leading 0) or hex (0x), each but the
// last under 256, the last under 256^(5 − their count)
// (https://url.spec.whatwg.org/#concept-ipv4-parser). "127.1" and
// "0x7f.0.0.1" are addresses; "256.256.256.256" and "1.2.3.4.5" fail.
func whatwgIPv4(host string) bool {
	parts := hostLabels(host)
	if len(parts) > 4 {
		return false
	}
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok || i < len(parts)-1 && n > 255 || i == len(parts)-1 && n >= 1<<(8*(5-len(parts))) {
			return false
		}
	}
	return true
}

// hostLabels is host's dot-separated labels, a trailing dot aside ("1.2.3.4."
// is 1.2.3.4 to the URL Standard).
func hostLabels(host string) []string {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	return labels
}

// ipv4Number parses one part of an IPv4 address as the URL Standard does:
// "0x…" hex (an empty "0x" is 0), a leading 0 octal, else decimal.
func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return math.MaxUint64, true // a number, too large for an address
		}
		return 0, false
	}
	return n, true
}

// badPorts are the Fetch standard's bad ports
// (https://fetch.spec.whatwg.org/#bad-port, the list browsers block; as
// of 2024, with 4190 and 6679): fetch() fails at once for an http or https
// URL on one, as a network error, without a connection.
var badPorts = [...]uint16{
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95,
	101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179,
	389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
	989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
	6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
}

// BadPort reports whether browsers refuse to fetch from port p: one of the
// Fetch standard's bad ports.
func BadPort(p int) bool {
	for _, b := range badPorts {
		if int(b) == p {
			return true
		}
	}
	return false
}

func roomField() Field {
	allowed := "empty (this run alone) or 1–" + strconv.Itoa(mock.MaxKeyLen) + " characters from A–Z a–z 0–9 . _ ~ -"
	return Field{
		Key: "room", Group: "endpoint", Label: "Shared room", Kind: KindText, allowed: allowed,
		Help: "Everyone using the same room name hits one shared limit (a workshop's whole audience); empty = this run has its own.",
		Get:  func(s *Scenario) string { return s.Room },
		Set: func(s *Scenario, v string) error {
			v = strings.TrimSpace(v) // as typed, as every field is
			if v != "" && !mock.ValidKey(v) {
				return invalid("Shared room", v, allowed)
			}
			s.Room = v
			return nil
		},
	}.mockOnly(nil, "")
}

// mockAllowed is what app/mock's parameter table says a parameter accepts.
func mockAllowed(name string) string {
	for _, p := range mock.Table() {
		if p.Name == name {
			return p.Allowed
		}
	}
	panic("fleet: app/mock has no parameter " + name)
}

// mockSet parses one endpoint parameter with app/mock's own parser, so the
// endpoint's ranges live in one place. Rules between parameters (the sums)
// are checked by Scenario.Validate.
func mockSet[T any](name, label, allowed string, ptr func(*mock.Params) *T) func(*Scenario, string) error {
	return func(s *Scenario, v string) error {
		p := s.Mock
		t, why := strings.TrimSpace(v), "" // as typed: " 10" is 10, as in every other field
		_, duration := any(*new(T)).(time.Duration)
		if _, float := any(*new(T)).(float64); float || duration {
			t, why = decimalComma(t) // the page's fields' reading: /mock's own query still refuses "1,5"
		} else {
			why = groupedHint(t)
		}
		if err := p.Set(name, t); err != nil {
			// A percentage typed with its sign, "2,5 %": the unit is the field's.
			if n := strings.TrimSpace(strings.TrimSuffix(t, "%")); n != t && p.Set(name, n) == nil {
				why += "; without the %: " + n
			}
			return mockInvalid(s.Mock, name, label, allowed+why, t, v, duration)
		}
		*ptr(&s.Mock) = *ptr(&p)
		return nil
	}
}

// mockInvalid is mockSet's error for v, with a duration's unit hint: one
// function, not one per mockSet's type.
// t is v as read (decimalComma).
func mockInvalid(p mock.Params, name, label, allowed, t, v string, duration bool) error {
	if duration {
		return invalidDuration(label, v, allowed, core.DurationHint(t, func(t string) bool { q := p; return q.Set(name, t) == nil }))
	}
	return invalid(label, v, allowed)
}

func mockNumber[T any](name, group, label, unit, help, min, max string, ptr func(*mock.Params) *T, format func(T) string, enabled func(*Scenario) bool, why string) Field {
	kind := KindFloat
	switch any(*new(T)).(type) {
	case int:
		kind = KindInt
	case time.Duration:
		kind = KindDuration
	}
	return Field{
		Key: name, Group: group, Label: label, Unit: unit, Kind: kind, Help: help,
		Min: min, Max: max, allowed: mockAllowed(name),
		Get: func(s *Scenario) string { return format(*ptr(&s.Mock)) },
		Set: mockSet(name, label, mockAllowed(name), ptr),
	}.mockOnly(enabled, why)
}

// mockChoice is a KindChoice endpoint field whose choices are the values
// app/mock lists for it (mock.Choices), labelled from labels where given.
// Not inlined: see the package doc, "Start-up in the browser".
//
//go:noinline
func mockChoice[T any](name, group, label, help string, ptr func(*mock.Params) *T, format func(T) string, labels map[string]string, enabled func(*Scenario) bool, why string) Field {
	vs := mock.Choices(name)
	cs := make([]Choice, len(vs))
	for i, v := range vs {
		cs[i] = Choice{Value: v, Label: v}
		if l := labels[v]; l != "" {
			cs[i].Label = l
		}
	}
	f := Field{
		Key: name, Group: group, Label: label, Kind: KindChoice, Choices: cs, Help: help,
		Get: func(s *Scenario) string { return format(*ptr(&s.Mock)) },
	}.mockOnly(enabled, why)
	set := mockSet(name, label, f.Allowed(), ptr)
	f.Set = func(s *Scenario, v string) error {
		// Any case, as the page's own choices are (choiceField); the
		// mock itself takes its values as written.
		for _, c := range cs {
			if strings.EqualFold(c.Value, strings.TrimSpace(v)) {
				v = c.Value
				break
			}
		}
		return set(s, v)
	}
	return f
}
