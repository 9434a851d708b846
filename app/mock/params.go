package mock

// This file is deliberately free of server-only imports: the page (compiled to
// js/wasm) builds mock URLs and shows the allowed ranges with the same code.

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// Bounds on the parameters that core does not define. The limiter's own
// bounds are core's (core.LimiterRateRange, LimiterBurstRange,
// LimiterLimitRange, LimiterWindowRange), read here so the page, the mock
// and core can never disagree.
const (
	MaxKeyLen     = 64                     // longest key and tag, in bytes
	MaxOutage     = time.Minute            // the longest outage one POST /mock/outage starts (a page schedules no longer)
	MaxRetryValue = endpoint.MaxRetryValue // seconds, for retry_after=fixed
	MaxLatency    = 30 * time.Second       // bound on latency+spread
)

// LatencyRange is the range of latency and of spread (their sum is at most
// MaxLatency too).
var LatencyRange = core.Range[time.Duration]{Min: 0, Max: MaxLatency}

// RetryValueRange is the range of retry_value, in seconds.
var RetryValueRange = core.Range[int]{Min: 0, Max: MaxRetryValue}

// RetryMode says what the Retry-After header of a rejection carries. The
// modes up to RetryFixed are core/endpoint's RetryAfterMode, whose values
// endpoint.AppendRetryAfter writes; RetryMalformed is the mock's own.
type RetryMode uint8

const (
	RetryNone      = RetryMode(endpoint.RetryAfterNone)    // no Retry-After header
	RetrySeconds   = RetryMode(endpoint.RetryAfterSeconds) // delta-seconds: Decision.RetryAfterSeconds (rounded up)
	RetryDate      = RetryMode(endpoint.RetryAfterDate)    // IMF-fixdate of the first whole second at or after now+RetryAfter
	RetryFixed     = RetryMode(endpoint.RetryAfterFixed)   // Params.RetryValue seconds, whatever the limiter says
	RetryMalformed = RetryFixed + 1                        // deliberately invalid value, kind chosen by Params.Malformed
)

var retryModeNames = [...]string{"none", "seconds", "date", "fixed", "malformed"}

func (m RetryMode) String() string { return enumName(retryModeNames[:], int(m)) }

// Malformed selects the kind of garbage sent with retry_after=malformed.
// Each is a mistake real servers make or a value that breaks naive clients.
type Malformed uint8

const (
	MalformedMix      Malformed = iota // rotate through the kinds below by arrival number
	MalformedText                      // "soon"
	MalformedEmpty                     // "" (header present, value empty)
	MalformedNegative                  // "-3"
	MalformedDecimal                   // "2.5": the exact wait with one decimal (fractions are not allowed)
	MalformedUnit                      // "3s"
	MalformedHuge                      // "99999999999999999999" (valid delay-seconds past an int64: a naive parser overflows; core saturates)
	MalformedRFC1123Z                  // "Mon, 02 Jan 2006 15:04:05 +0000" (numeric zone, not GMT)
	MalformedISO8601                   // "2006-01-02T15:04:05Z" (RFC 3339, not an HTTP-date)
)

var malformedNames = [...]string{"mix", "text", "empty", "negative", "decimal", "unit", "huge", "rfc1123z", "iso8601"}

func (m Malformed) String() string { return enumName(malformedNames[:], int(m)) }

// Headers selects the optional rate-limit headers sent with every response
// (none without a limiter).
type Headers uint8

const (
	HeadersNone Headers = iota
	HeadersIETF         // RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers, structured fields)
	HeadersX            // X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds)
	HeadersBoth         // both sets
)

var headersNames = [...]string{"none", "ietf", "x", "both"}

func (h Headers) String() string { return enumName(headersNames[:], int(h)) }

// IETF reports whether the RateLimit/RateLimit-Policy headers are sent.
func (h Headers) IETF() bool { return h == HeadersIETF || h == HeadersBoth }

// X reports whether the X-RateLimit-* headers are sent.
func (h Headers) X() bool { return h == HeadersX || h == HeadersBoth }

// statusNames are the rejection statuses, as the status parameter is written.
var statusNames = [...]string{"429", "503"}

// Choices lists the values a parameter with a fixed set of them accepts, in
// the order of its type's members: limiter, status, retry_after, malformed
// and headers. It is nil for every other parameter (numbers, durations,
// keys). Set accepts each value it lists; the page's menus are these.
func Choices(name string) []string {
	var names []string
	switch paramIndex(name) {
	case pLimiter:
		names = endpoint.LimiterNames[:]
	case pStatus:
		names = statusNames[:]
	case pRetryAfter:
		names = retryModeNames[:]
	case pMalformed:
		names = malformedNames[:]
	case pHeaders:
		names = headersNames[:]
	default:
		return nil
	}
	return append([]string(nil), names...)
}

func enumName(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "invalid(" + strconv.Itoa(i) + ")"
}

// Params is the decoded query of a mock URL. The zero value is not useful:
// start from Defaults. ParseParams(p.Query()) returns p for every valid p.
type Params struct {
	Key string // whose limiter state is used: a run id or a room name
	Tag string // opaque client label echoed in the body and the arrivals stream; "" = none

	Limiter core.LimiterKind
	Rate    float64       // token bucket: tokens per second
	Burst   int           // token bucket: capacity
	Limit   int           // windows: requests per window
	Window  time.Duration // windows: window length

	Status     int       // status of a rejection: 429 or 503
	RetryAfter RetryMode // Retry-After on rejections and in an outage
	RetryValue int       // seconds, for RetryFixed
	Malformed  Malformed // kind of garbage, for RetryMalformed
	Headers    Headers   // optional rate-limit headers

	Latency time.Duration // base delay before every response
	Spread  time.Duration // plus a uniform random delay in [0, Spread)

	// Injected failures, in percent of all requests (0–100, sum ≤ 100). An
	// injected failure bypasses the limiter: it does not count against the
	// limit, and its rate-limit headers show the limiter's state unchanged.
	Fail500 float64 // answer 500, no Retry-After
	Fail503 float64 // answer 503, no Retry-After
	Drop    float64 // close the connection without a response
	Hang    float64 // never answer: hold the request until the client gives up (or the server's bound)

	// With Seeded, a request's rolls (the injected failure and the latency
	// spread) are a fixed function of Seed and its tag, or, without a tag,
	// of Seed, the key and seq; without, they are random.
	Seed   uint64
	Seeded bool
}

// Defaults returns the parameters of a URL with an empty query.
func Defaults() Params {
	return Params{
		Key:        "default",
		Limiter:    core.LimitTokenBucket,
		Rate:       5,
		Burst:      10,
		Limit:      10,
		Window:     time.Second,
		Status:     429,
		RetryAfter: RetrySeconds,
		RetryValue: 1,
		Malformed:  MalformedMix,
		Headers:    HeadersNone,
	}
}

// LimiterConfig is the core limiter configuration these parameters select.
// Fields the kind does not use are zero, so two URLs that differ only in an
// unused field (rate for a fixed window, say) share the key's limiter state.
func (p Params) LimiterConfig() core.LimiterConfig {
	c := core.LimiterConfig{Kind: p.Limiter}
	switch p.Limiter {
	case core.LimitTokenBucket:
		c.Rate, c.Burst = p.Rate, p.Burst
	case core.LimitFixedWindow, core.LimitSlidingWindow:
		c.Limit, c.Window = p.Limit, p.Window
	}
	return c
}

// Endpoint is the endpoint these parameters describe, the Config
// core/endpoint decides with: the handler answers with it, and app/fleet's
// SimEndpoint simulates it. A malformed Retry-After is the mock's own
// (AppendRetryAfter), not the Config's: its RetryAfter is then
// RetryAfterNone.
func (p Params) Endpoint() endpoint.Config {
	c := endpoint.Config{
		Limiter:    p.LimiterConfig(),
		Status:     p.Status,
		RetryValue: p.RetryValue,
		IETF:       p.Headers.IETF(),
		X:          p.Headers.X(),
		Latency:    p.Latency,
		Spread:     p.Spread,
		Fail500:    p.Fail500,
		Fail503:    p.Fail503,
		Drop:       p.Drop,
		Hang:       p.Hang,
	}
	if p.RetryAfter != RetryMalformed {
		c.RetryAfter = endpoint.RetryAfterMode(p.RetryAfter)
	}
	return c
}

// ParamError is a rejected query parameter. The server answers it with 400
// and a JSON body {"error", "param", "value", "allowed"}.
type ParamError struct {
	Param   string // the parameter's name (or "query" when the query itself is not decodable)
	Value   string // the value received, cut to 64 bytes
	Allowed string // what would have been accepted

	// unknown: Param is no parameter's name; near names the one it is
	// in other case ("RATE": rate), if any. The message says both: "mock:
	// RATE "5": allowed key, tag, …" read as a value refused, and the
	// list of names left the case to be spotted (a review).
	unknown bool
	near    string
}

func (e *ParamError) Error() string {
	what := "mock: "
	if e.unknown {
		what += "unknown parameter "
	}
	what += e.Param + " " + strconv.Quote(e.Value)
	if e.near != "" {
		what += " (names are lower case: " + e.near + ")"
	}
	return what + ": allowed " + e.Allowed
}

// ParamInfo documents one query parameter; Table lists them all.
type ParamInfo struct {
	Name    string
	Meaning string
	Default string
	Allowed string
}

// The parameters, in the order Table and Encode use.
const (
	pKey = iota
	pTag
	pLimiter
	pRate
	pBurst
	pLimit
	pWindow
	pStatus
	pRetryAfter
	pRetryValue
	pMalformed
	pHeaders
	pLatency
	pSpread
	pFail500
	pFail503
	pDrop
	pHang
	pSeed
	numParams
)

var table = [numParams]ParamInfo{
	pKey:        {"key", "whose limiter state is used: a run's own id, or a shared room name", "default", "1–64 characters from A–Z a–z 0–9 . _ ~ -"},
	pTag:        {"tag", "opaque client label (worker/attempt) echoed in the body and the arrivals stream", "(empty)", "0–64 characters from A–Z a–z 0–9 . _ ~ -"},
	pLimiter:    {"limiter", "limiter kind: token bucket, fixed window, sliding window, or no limit", "bucket", "bucket, fixed, sliding, none (core's token-bucket, fixed-window, sliding-window also accepted)"},
	pRate:       {"rate", "token bucket refill, tokens per second", "5", "a number " + core.LimiterRateRange.String()},
	pBurst:      {"burst", "token bucket capacity (it starts full)", "10", "an integer " + core.LimiterBurstRange.String()},
	pLimit:      {"limit", "fixed/sliding window: requests allowed per window", "10", "an integer " + core.LimiterLimitRange.String()},
	pWindow:     {"window", "fixed/sliding window length (Go duration syntax)", "1s", "a duration " + core.LimiterWindowRange.String() + " (e.g. 250ms, 2s, 1m)"},
	pStatus:     {"status", "status code of a rejection", "429", "429, 503"},
	pRetryAfter: {"retry_after", "Retry-After on rejections and in an outage: none, delta-seconds (rounded up), HTTP-date, a fixed value, or garbage", "seconds", "none, seconds, date, fixed, malformed"},
	pRetryValue: {"retry_value", "seconds sent in Retry-After, only with retry_after=fixed (ignored otherwise)", "1", "an integer " + RetryValueRange.String()},
	pMalformed:  {"malformed", "kind of garbage sent in Retry-After (mix rotates through all), only with retry_after=malformed (ignored otherwise)", "mix", "mix, text, empty, negative, decimal, unit, huge, rfc1123z, iso8601"},
	pHeaders:    {"headers", "extra rate-limit headers on every response (none with limiter=none: no limit to describe): IETF RateLimit/RateLimit-Policy, X-RateLimit-*, or both", "none", "none, ietf, x, both"},
	pLatency:    {"latency", "delay before every response (abandoned when the client goes away)", "0s", "a duration " + LatencyRange.String() + "; " + allowedLatency},
	pSpread:     {"spread", "extra uniform random delay in [0, spread)", "0s", "a duration " + LatencyRange.String() + "; " + allowedLatency},
	pFail500:    {"fail500", "percent of requests answered 500, no Retry-After (they bypass the limiter)", "0", allowedFailure},
	pFail503:    {"fail503", "percent of requests answered 503, no Retry-After (they bypass the limiter)", "0", allowedFailure},
	pDrop:       {"drop", "percent of requests whose connection is closed without a response", "0", allowedFailure},
	pHang:       {"hang", "percent of requests never answered: held until the client gives up, or closed after 60 s without a response", "0", allowedFailure},
	pSeed:       {"seed", "rolls each request's injected failure and spread from seed and its tag (key and seq without a tag), not at random: same tag, same rolls", "(random)", "an integer between 0 and 18446744073709551615"},
}

// Table describes every query parameter: name, meaning, default and allowed values.
func Table() []ParamInfo {
	t := table
	return t[:]
}

func paramIndex(name string) int {
	switch name { // a switch compiles to a search on length and bytes
	case "key":
		return pKey
	case "tag":
		return pTag
	case "limiter":
		return pLimiter
	case "rate":
		return pRate
	case "burst":
		return pBurst
	case "limit":
		return pLimit
	case "window":
		return pWindow
	case "status":
		return pStatus
	case "retry_after":
		return pRetryAfter
	case "retry_value":
		return pRetryValue
	case "malformed":
		return pMalformed
	case "headers":
		return pHeaders
	case "latency":
		return pLatency
	case "spread":
		return pSpread
	case "fail500":
		return pFail500
	case "fail503":
		return pFail503
	case "drop":
		return pDrop
	case "hang":
		return pHang
	case "seed":
		return pSeed
	}
	return -1
}

// AllowedOnce is what a parameter given more than once is told.
const AllowedOnce = "one value; the parameter is given more than once"

var (
	allowedLatency = "latency+spread ≤ " + MaxLatency.String()
	allowedSum     = "fail500+fail503+drop+hang ≤ " + core.FormatFloat(endpoint.FailureRange.Max)
	allowedFailure = "a number " + endpoint.FailureRange.String() + "; " + allowedSum
	// allowedKnown names every parameter, from the table: written out
	// by hand, a parameter added to the table was missing from it (a
	// review).
	allowedKnown = func() string {
		names := make([]string, len(table))
		for i, p := range table {
			names[i] = p.Name
		}
		return strings.Join(names, ", ")
	}()
)

func perr(i int, value string) *ParamError {
	allowed := table[i].Allowed
	if strings.HasPrefix(value, " ") {
		// curl 'mock?burst=+1000' sends a space: the README's "+1000"
		// refused as " 1000", and nothing said why (a review).
		allowed += " (a + in a query reads as a space: write it %2B)"
	}
	if r, ok := durationRange(i); ok {
		allowed += core.DurationHint(value, core.DurationIn(r))
	}
	return &ParamError{Param: table[i].Name, Value: Cut(value), Allowed: allowed}
}

// durationRange is the range of parameter i when it is a duration, the
// one source of it: set parses with it (parseDuration), and a bare number
// refused for one says that it needs a unit (perr), as the page's fields
// do: "latency \"50\"" was refused with the range alone, "between 0s and
// 30s", which 50 seemed to be.
func durationRange(i int) (core.Range[time.Duration], bool) {
	switch i {
	case pWindow:
		return core.LimiterWindowRange, true
	case pLatency, pSpread:
		return LatencyRange, true
	}
	return core.Range[time.Duration]{}, false
}

// parseDuration reads v as duration parameter i, in durationRange(i).
func parseDuration(i int, v string) (time.Duration, bool) {
	r, _ := durationRange(i)
	return parseIn(v, r, time.ParseDuration)
}

// Cut is how a refused value appears in an error: at most 64 bytes, then
// "…" and how many bytes came, never splitting a UTF-8 sequence (CutTo):
// a value refused for its length says by how much ("1 to 1024 bytes" beside
// a text of 1,500 cut to 64 said nothing of it).
func Cut(s string) string {
	if len(s) <= MaxKeyLen {
		return s
	}
	return CutTo(s, MaxKeyLen) + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// CutTo is s cut to at most max bytes, then "…", never splitting a UTF-8
// sequence; s itself when it is no longer.
func CutTo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && s[n]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		n--
	}
	return s[:n] + "…"
}

// ParseParams decodes a mock URL's query. An unknown parameter, a parameter
// given twice, an empty or out-of-range value is a *ParamError. Parameters are
// checked in Table order, so the error reported for a bad query is deterministic.
func ParseParams(q url.Values) (Params, error) {
	p := Defaults()
	var given [numParams]string
	for i := range table {
		vs, ok := q[table[i].Name]
		if !ok {
			continue
		}
		if len(vs) != 1 {
			return p, &ParamError{Param: table[i].Name, Value: Cut(strings.Join(vs, ",")), Allowed: AllowedOnce}
		}
		if err := p.set(i, vs[0]); err != nil {
			return p, err
		}
		given[i] = vs[0]
	}
	if len(q) > 0 {
		var unknown string
		found := false
		for name := range q {
			if paramIndex(name) < 0 && (!found || name < unknown) {
				unknown, found = name, true
			}
		}
		if found {
			return p, unknownParam(unknown, strings.Join(q[unknown], ","))
		}
	}
	if err := p.check(&given); err != nil {
		return p, err
	}
	return p, nil
}

// ParseQuery decodes a raw query string (URL.RawQuery) like ParseParams, without
// building a url.Values: the server's hot path. Errors are reported in query order.
func ParseQuery(raw string) (Params, error) {
	p := Defaults()
	var seen [numParams]bool
	var given [numParams]string // as received: a rule between parameters names one's
	if perr := EachParam(raw, func(name, value, _ string) *ParamError {
		i := paramIndex(name)
		if i < 0 {
			return unknownParam(name, value)
		}
		if seen[i] {
			return &ParamError{Param: name, Value: Cut(value), Allowed: AllowedOnce}
		}
		seen[i], given[i] = true, value
		return p.set(i, value)
	}); perr != nil {
		return p, perr
	}
	if err := p.check(&given); err != nil {
		return p, err
	}
	return p, nil
}

// EachParam calls fn with every name=value pair of a raw query
// (URL.RawQuery), unescaped, in order, and the raw pair, until fn returns
// an error; a pair that is not valid percent-encoding is one too. The
// mock's routes read their queries with it, and so does the server's
// /qr.svg.
func EachParam(raw string, fn func(name, value, pair string) *ParamError) *ParamError {
	escaped := strings.ContainsAny(raw, "%+") // else nothing needs unescaping
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		if escaped {
			var err error
			if name, err = unescape(name); err != nil {
				return &ParamError{Param: "query", Value: Cut(pair), Allowed: "a percent-encoded query"}
			}
			if value, err = unescape(value); err != nil {
				return &ParamError{Param: "query", Value: Cut(pair), Allowed: "a percent-encoded query"}
			}
		}
		if perr := fn(name, value, pair); perr != nil {
			return perr
		}
	}
	return nil
}

func unknownParam(name, value string) *ParamError {
	if name == "" {
		return &ParamError{Param: "query", Value: Cut("=" + value), Allowed: "name=value pairs with names " + allowedKnown}
	}
	e := &ParamError{Param: Cut(name), Value: Cut(value), Allowed: allowedKnown, unknown: true}
	if lower := strings.ToLower(name); lower != name && paramIndex(lower) >= 0 {
		e.near = lower
	}
	return e
}

func unescape(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, nil
	}
	return url.QueryUnescape(s)
}

// ValidKey reports whether s is an acceptable key (and tag, when non-empty).
func ValidKey(s string) bool {
	if len(s) == 0 || len(s) > MaxKeyLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '~' || c == '-') {
			return false
		}
	}
	return true
}

func (p *Params) set(i int, v string) *ParamError {
	ok := true
	switch i {
	case pKey:
		ok = ValidKey(v)
		p.Key = v
	case pTag:
		ok = v == "" || ValidKey(v)
		p.Tag = v
	case pLimiter:
		p.Limiter, ok = endpoint.ParseLimiterName(v) // core's names too
	case pRate:
		p.Rate, ok = parseIn(v, core.LimiterRateRange, core.ParseFloat)
	case pBurst:
		p.Burst, ok = parseIn(v, core.LimiterBurstRange, strconv.Atoi)
	case pLimit:
		p.Limit, ok = parseIn(v, core.LimiterLimitRange, strconv.Atoi)
	case pWindow:
		p.Window, ok = parseDuration(i, v)
	case pStatus:
		p.Status, ok = parseIn(v, core.Range[int]{Min: 429, Max: 503}, strconv.Atoi)
		_, listed := enumIndex(statusNames[:], strconv.Itoa(p.Status))
		ok = ok && listed
	case pRetryAfter:
		var k int
		k, ok = enumIndex(retryModeNames[:], v)
		p.RetryAfter = RetryMode(k)
	case pRetryValue:
		p.RetryValue, ok = parseIn(v, RetryValueRange, strconv.Atoi)
	case pMalformed:
		var k int
		k, ok = enumIndex(malformedNames[:], v)
		p.Malformed = Malformed(k)
	case pHeaders:
		var k int
		k, ok = enumIndex(headersNames[:], v)
		p.Headers = Headers(k)
	case pLatency:
		p.Latency, ok = parseDuration(i, v)
	case pSpread:
		p.Spread, ok = parseDuration(i, v)
	case pFail500:
		p.Fail500, ok = parseIn(v, endpoint.FailureRange, core.ParseFloat)
	case pFail503:
		p.Fail503, ok = parseIn(v, endpoint.FailureRange, core.ParseFloat)
	case pDrop:
		p.Drop, ok = parseIn(v, endpoint.FailureRange, core.ParseFloat)
	case pHang:
		p.Hang, ok = parseIn(v, endpoint.FailureRange, core.ParseFloat)
	case pSeed:
		var err error
		// A sign, as strconv.Atoi takes one: "+5" was refused
		// as no integer between 0 and 2^64−1 (a robustness review).
		p.Seed, err = strconv.ParseUint(strings.TrimPrefix(v, "+"), 10, 64)
		p.Seeded, ok = true, err == nil
	}
	if !ok {
		return perr(i, v)
	}
	return nil
}

// Set decodes one parameter into p with the query decoder's rules: a
// *ParamError when name is unknown or v is not allowed. The rules between
// parameters (the sums) are left to Valid and ParseParams.
func (p *Params) Set(name, v string) error {
	i := paramIndex(name)
	if i < 0 {
		return unknownParam(name, v)
	}
	if err := p.set(i, v); err != nil {
		return err
	}
	return nil
}

// check validates what no single parameter can: the sums. A broken rule is
// reported on one parameter, the last in Table order that could mend it
// alone (spread; the last of fail500, fail503, drop and hang), with the value
// given (given holds the query's, by Table index) and how much it may be
// beside the others: "at most 10s: latency+spread ≤ 30s".
func (p *Params) check(given *[numParams]string) *ParamError {
	if p.Latency+p.Spread > MaxLatency { // so spread > 0: latency alone is at most MaxLatency
		return &ParamError{Param: "spread", Value: Cut(given[pSpread]), Allowed: p.AllowedBeside("spread")}
	}
	pct := [...]float64{p.Fail500, p.Fail503, p.Drop, p.Hang}
	if s := pct[0] + pct[1] + pct[2] + pct[3]; s > endpoint.FailureRange.Max+sumTolerance {
		// The last that could make the sum 100 alone (a zero cannot):
		// fail500=60, fail503=60, drop=10 blamed drop, "at most 0", which
		// no drop can mend; fail503 may be 30.
		sumErr := func(i int, allowed string) *ParamError {
			return &ParamError{Param: table[pFail500+i].Name, Value: Cut(given[pFail500+i]), Allowed: allowed}
		}
		for i := len(pct) - 1; i >= 0; i-- {
			if others := s - pct[i]; others <= endpoint.FailureRange.Max+sumTolerance {
				return sumErr(i, p.AllowedBeside(table[pFail500+i].Name))
			}
		}
		// None can alone (60, 60 and 60): the last not zero, and what the
		// others add up to.
		i := len(pct) - 1
		for pct[i] == 0 {
			i--
		}
		return sumErr(i, p.AllowedBeside(table[pFail500+i].Name))
	}
	return nil
}

// AllowedBeside is what parameter name may be beside the others under the
// rules between parameters, as an error's Allowed words it ("at most 10s:
// latency+spread ≤ 30s", "at most 14.4: fail500+fail503+drop+hang ≤
// 100"); "" for a parameter no such rule reads. ParseParams blames a
// broken rule on the last parameter that could mend it alone; the page
// blames the one just typed, when it can.
func (p Params) AllowedBeside(name string) string {
	switch name {
	case "latency":
		return "at most " + (MaxLatency - p.Spread).String() + ": " + allowedLatency
	case "spread":
		return "at most " + (MaxLatency - p.Latency).String() + ": " + allowedLatency
	}
	pct := [...]float64{p.Fail500, p.Fail503, p.Drop, p.Hang}
	for i := range pct {
		if table[pFail500+i].Name == name {
			others := pct[0] + pct[1] + pct[2] + pct[3] - pct[i]
			if others > endpoint.FailureRange.Max+sumTolerance { // it cannot mend the sum alone
				return "at most 0: " + allowedSum + ", and the others add up to " + formatPct(others)
			}
			return "at most " + formatPct(max(0, endpoint.FailureRange.Max-others)) + ": " + allowedSum
		}
	}
	return ""
}

// formatPct writes a percentage without float noise: to sumTolerance
// (100-85.6 is 14.400000000000006 in float64, and is written 14.4).
func formatPct(v float64) string {
	return strconv.FormatFloat(math.Round(v*(1/sumTolerance))/(1/sumTolerance), 'g', -1, 64)
}

// sumTolerance is the float error allowed in fail500+fail503+drop+hang ≤
// 100 (0.2+85.4+14.4 adds up to 100.00000000000001), and the precision of
// the sum named when it is refused: core/endpoint's, whose Config.Validate
// allows the same.
const sumTolerance = endpoint.FailureSumSlack

// Valid reports whether p is within every bound (what ParseParams would accept).
func (p Params) Valid() error {
	_, err := ParseParams(p.Query())
	return err
}

func enumIndex(names []string, v string) (int, bool) {
	for i, n := range names {
		if n == v {
			return i, true
		}
	}
	return 0, false
}

// parseIn reads v with parse and reports whether it is in r (a NaN is
// not).
func parseIn[T ~int | ~int64 | ~float64](v string, r core.Range[T], parse func(string) (T, error)) (T, bool) {
	x, err := parse(v)
	return x, err == nil && r.Contains(x)
}

// Query encodes p as query values, leaving out parameters equal to their default.
func (p Params) Query() url.Values {
	q := url.Values{}
	p.each(func(i int, v string) { q.Set(table[i].Name, v) })
	return q
}

// Encode is the query string of p in Table order (not sorted), without defaults:
// "key=room1&limiter=fixed&limit=5".
func (p Params) Encode() string {
	var b strings.Builder
	p.each(func(i int, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(table[i].Name)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	})
	return b.String()
}

// Used is p with every parameter the mock does not read at its default: a
// bucket's rate and burst under a window limiter, a window's limit and
// length under a bucket, all four with no limiter, the fixed Retry-After
// value unless Retry-After is fixed, the kind of garbage unless it is
// malformed, the seed without anything to roll. Its Encode is the shortest URL that asks for the same.
func (p Params) Used() Params {
	d := Defaults()
	switch p.Limiter {
	case core.LimitTokenBucket:
		p.Limit, p.Window = d.Limit, d.Window
	case core.LimitFixedWindow, core.LimitSlidingWindow:
		p.Rate, p.Burst = d.Rate, d.Burst
	default:
		p.Limit, p.Window, p.Rate, p.Burst = d.Limit, d.Window, d.Rate, d.Burst
	}
	if p.RetryAfter != RetryFixed {
		p.RetryValue = d.RetryValue
	}
	if p.RetryAfter != RetryMalformed {
		p.Malformed = d.Malformed
	}
	if !p.Rolls() {
		p.Seed, p.Seeded = d.Seed, d.Seeded
	}
	return p
}

// Rolls reports whether p's requests roll random numbers (a seed changes
// them): for injected failures or the latency spread.
func (p *Params) Rolls() bool {
	return p.Spread > 0 || p.Fail500+p.Fail503+p.Drop+p.Hang > 0
}

// each calls f with every parameter that differs from its default, in Table order.
func (p Params) each(f func(i int, v string)) {
	d := Defaults()
	str := func(i int, v, def string) {
		if v != def {
			f(i, v)
		}
	}
	num := func(i int, v, def float64) {
		if v != def || math.Signbit(v) != math.Signbit(def) {
			f(i, core.FormatFloat(v)) // as the page's link writes it: 0.0000001, not 1e-07
		}
	}
	integer := func(i int, v, def int) {
		if v != def {
			f(i, strconv.Itoa(v))
		}
	}
	dur := func(i int, v, def time.Duration) {
		if v != def {
			f(i, v.String())
		}
	}
	str(pKey, p.Key, d.Key)
	str(pTag, p.Tag, d.Tag)
	str(pLimiter, endpoint.LimiterName(p.Limiter), endpoint.LimiterName(d.Limiter))
	num(pRate, p.Rate, d.Rate)
	integer(pBurst, p.Burst, d.Burst)
	integer(pLimit, p.Limit, d.Limit)
	dur(pWindow, p.Window, d.Window)
	integer(pStatus, p.Status, d.Status)
	str(pRetryAfter, p.RetryAfter.String(), d.RetryAfter.String())
	integer(pRetryValue, p.RetryValue, d.RetryValue)
	str(pMalformed, p.Malformed.String(), d.Malformed.String())
	str(pHeaders, p.Headers.String(), d.Headers.String())
	dur(pLatency, p.Latency, d.Latency)
	dur(pSpread, p.Spread, d.Spread)
	num(pFail500, p.Fail500, d.Fail500)
	num(pFail503, p.Fail503, d.Fail503)
	num(pDrop, p.Drop, d.Drop)
	num(pHang, p.Hang, d.Hang)
	if p.Seeded {
		f(pSeed, strconv.FormatUint(p.Seed, 10))
	}
}

// MarkdownTable renders Table as a Markdown table (for the README; doc.go
// holds the same text, and a test keeps them equal).
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| parameter | meaning | default | allowed |\n|---|---|---|---|\n")
	for _, p := range table {
		b.WriteString("| `" + p.Name + "` | " + p.Meaning + " | " + p.Default + " | " + p.Allowed + " |\n")
	}
	return b.String()
}

// OutageURL is the address on origin of the switch that takes key's
// server down for d (POST; Handler.Outage serves it).
func OutageURL(origin, key string, d time.Duration) string {
	return origin + "/mock/outage?for=" + d.String() + "&key=" + url.QueryEscape(key)
}
