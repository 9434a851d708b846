package fleet

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"retrylab/app/mock"
	"retrylab/core"
)

// fieldCase holds, for one field, a valid value (with its canonical text),
// values just outside the range ("" when the kind has no range) and garbage.
type fieldCase struct {
	key       string
	valid     string
	canonical string // Get after Set(valid); "" = same as valid
	below     string
	above     string
	garbage   string
}

var fieldCases = []fieldCase{
	{key: "workers", valid: "10000", below: "0", above: "10001", garbage: "lots"},
	{key: "jobs", valid: "7", below: "0", above: "10000001", garbage: "3.5"}, // 1001 per worker: a rule between fields (TestJobsRangeDependsOnHowTheyAreCounted)
	{key: "jobs_of", valid: "FLEET", canonical: "fleet", garbage: "all"},
	{key: "workload", valid: "open", garbage: "half-open"},
	{key: "every", valid: "250ms", below: "9ms", above: "1m0.001s", garbage: "often"},
	{key: "arrivals", valid: "random", garbage: "poisson"},
	{key: "timeout", valid: "1500ms", canonical: "1.5s", below: "-1ns", above: "2m0.001s", garbage: "5"},
	{key: "seed", valid: "18446744073709551615", below: "-1", above: "18446744073709551616", garbage: "0x10"},
	{key: "strategy", valid: "Decorrelated", canonical: "decorrelated", garbage: "fulljitter"},
	{key: "base", valid: "1ms", below: "999us", above: "1h0m0.001s", garbage: "fast"},
	{key: "mult", valid: "1.5", below: "0.99", above: "10.01", garbage: "0x1p1"},
	{key: "cap", valid: "0", canonical: "0s", below: "-1ns", above: "24h0m0.000000001s", garbage: "1 s"},
	{key: "attempts", valid: "1", below: "0", above: "1001", garbage: "many"},
	{key: "elapsed", valid: "90s", canonical: "1m30s", below: "-1s", above: "24h1s", garbage: "forever"},
	{key: "ra_honour", valid: "true", canonical: "on", garbage: "maybe"},
	{key: "ra_ceiling", valid: "1m", below: "-1s", above: "25h", garbage: "1min"},
	{key: "ra_above", valid: "stop", garbage: "halt"},
	{key: "ra_spread", valid: "250ms", below: "-1ms", above: "1m0.001s", garbage: "x"},
	{key: "hints", valid: "yes", canonical: "on", garbage: "sometimes"},
	{key: "bucket", valid: "1", canonical: "on", garbage: "enabled"},
	{key: "bucket_rate", valid: "0.5", below: "0.0009", above: "1000001", garbage: "Inf"},
	{key: "bucket_cap", valid: "1", below: "0.5", above: "1e7", garbage: "full"},
	{key: "budget", valid: "off", garbage: "2"},
	{key: "budget_size", valid: "100", below: "0", above: "2e6", garbage: "big"},
	{key: "budget_refill", valid: "0", below: "-0.1", above: "1e7", garbage: "--1"},
	{key: "target", valid: "https://api.example.com/v1/items?page=2", garbage: "ftp://example.com/x"},
	{key: "room", valid: "workshop-1", garbage: "two words"},
	{key: "limiter", valid: "SLIDING", canonical: "sliding", garbage: "leaky"},
	{key: "rate", valid: "0.5", below: "0.0001", above: "1000001", garbage: "fast"},
	{key: "burst", valid: "1", below: "0", above: "1000001", garbage: "1.5"},
	{key: "limit", valid: "5", below: "0", above: "1001", garbage: "five"},
	{key: "window", valid: "10ms", below: "0s", above: "25h", garbage: "1"},
	{key: "status", valid: "503", garbage: "500"},
	{key: "retry_after", valid: "date", garbage: "later"},
	{key: "retry_value", valid: "0", below: "-1", above: "86401", garbage: "1s"},
	{key: "malformed", valid: "huge", garbage: "nice"},
	{key: "headers", valid: "both", garbage: "all"},
	{key: "latency", valid: "200ms", below: "-1ms", above: "30.001s", garbage: "slow"},
	{key: "spread", valid: "1s", below: "-1ms", above: "31s", garbage: "x"},
	{key: "fail500", valid: "12.5", below: "-1", above: "100.5", garbage: "1%"},
	{key: "fail503", valid: "100", below: "-0.001", above: "101", garbage: "x"},
	{key: "drop", valid: "0.1", below: "-1", above: "1e3", garbage: "1_0"},
	{key: "hang", valid: "3", below: "-1", above: "200", garbage: ""},
	{key: "outage", valid: "3s", below: "-1s", above: "1m0.001s", garbage: "soon"},
	{key: "outage_at", valid: "90s", canonical: "1m30s", below: "-1ms", above: "10m1s", garbage: "later"},
}

func TestEveryFieldHasACase(t *testing.T) {
	var keys, cased []string
	for _, f := range Fields {
		keys = append(keys, f.Key)
	}
	for _, c := range fieldCases {
		cased = append(cased, c.key)
	}
	if !slices.Equal(keys, cased) {
		t.Fatalf("fieldCases keys\n%v\nwant (Fields order)\n%v", cased, keys)
	}
}

// A menu labels all its choices or none (status, malformed: their values
// are what they mean). choiceField falls back to a value without a label
// silently: a strategy added to core and not to strategyLabels would have
// shown as "linear" among "Exponential, full jitter" and its kind.
func TestMenusLabelEveryChoiceOrNone(t *testing.T) {
	for _, f := range Fields {
		var bare []string
		for _, c := range f.Choices {
			if c.Label == c.Value {
				bare = append(bare, c.Value)
			}
		}
		if len(bare) > 0 && len(bare) < len(f.Choices) {
			t.Errorf("%s: choices %q have no label, where the others have one", f.Key, bare)
		}
	}
}

func TestFieldsDescribeThemselves(t *testing.T) {
	groups := []string{"fleet", "backoff", "retry-after", "bucket", "budget", "endpoint", "failures", "outage"}
	last := 0
	for _, f := range Fields {
		if f.Label == "" || f.Help == "" || f.Get == nil || f.Set == nil {
			t.Errorf("%s: label, help, Get and Set are required", f.Key)
		}
		g := slices.Index(groups, f.Group)
		if g < last {
			t.Errorf("%s: group %q out of order", f.Key, f.Group)
		}
		last = g
		if f.Allowed() == "" {
			t.Errorf("%s: Allowed is empty", f.Key)
		}
		switch f.Kind {
		case KindInt, KindFloat, KindDuration:
			if f.Min == "" || f.Max == "" {
				t.Errorf("%s: a %s field needs Min and Max", f.Key, f.Kind)
			}
		case KindChoice:
			if len(f.Choices) < 2 {
				t.Errorf("%s: choices %v", f.Key, f.Choices)
			}
		}
		if got, ok := FieldByKey(f.Key); !ok || got.Key != f.Key {
			t.Errorf("FieldByKey(%q) = %v, %v", f.Key, got, ok)
		}
	}
	if _, ok := FieldByKey("nope"); ok {
		t.Error(`FieldByKey("nope") found something`)
	}
	// Every backoff strategy core knows is offered, in core's order.
	st, _ := FieldByKey("strategy")
	var values []string
	for _, c := range st.Choices {
		values = append(values, c.Value)
	}
	if got := strings.Join(values, " "); got != "none constant exponential full equal decorrelated" {
		t.Errorf("strategy choices %q", got)
	}
}

// Every choice a menu offers is accepted and reads back as itself, and the
// endpoint's menus offer exactly what app/mock lists.
func TestChoicesRoundTrip(t *testing.T) {
	for _, f := range Fields {
		if f.Kind != KindChoice {
			continue
		}
		for _, c := range f.Choices {
			s := Default()
			if err := f.Set(&s, c.Value); err != nil {
				t.Errorf("%s=%s: %v", f.Key, c.Value, err)
			} else if got := f.Get(&s); got != c.Value {
				t.Errorf("%s=%s reads back as %q", f.Key, c.Value, got)
			}
		}
		if mock.Choices(f.Key) == nil {
			continue
		}
		var values []string
		for _, c := range f.Choices {
			values = append(values, c.Value)
		}
		if !slices.Equal(values, mock.Choices(f.Key)) {
			t.Errorf("%s offers %q, app/mock lists %q", f.Key, values, mock.Choices(f.Key))
		}
	}
}

// The Min and Max shown for a field must be accepted, and each endpoint
// field's must agree with app/mock's own parser.
func TestFieldBoundsAreAccepted(t *testing.T) {
	for _, f := range Fields {
		for _, v := range []string{f.Min, f.Max} {
			if v == "" {
				continue
			}
			s := Default()
			if err := f.Set(&s, v); err != nil {
				t.Errorf("%s: bound %q rejected: %v", f.Key, v, err)
			}
		}
	}
}

// Endpoint fields use app/mock's parameter names, and no fleet key collides
// with one of them.
func TestEndpointKeysAreMockParams(t *testing.T) {
	mockNames := map[string]bool{}
	for _, p := range mock.Table() {
		mockNames[p.Name] = true
	}
	for _, f := range Fields {
		endpoint := f.Group == "endpoint" || f.Group == "failures"
		if endpoint && f.Key != "target" && f.Key != "room" && !mockNames[f.Key] {
			t.Errorf("endpoint field %s is not a mock parameter", f.Key)
		}
		if !endpoint && mockNames[f.Key] && f.Key != "seed" { // the run's seed is the mock's (MockURL passes it)
			t.Errorf("fleet field %s collides with the mock parameter of that name", f.Key)
		}
		delete(mockNames, f.Key)
	}
	delete(mockNames, "key") // set per run (MockURL)
	delete(mockNames, "tag") // set per attempt (AttemptTag)
	for name := range mockNames {
		t.Errorf("mock parameter %s has no field", name)
	}
}

func TestFieldSet(t *testing.T) {
	for _, c := range fieldCases {
		f, ok := FieldByKey(c.key)
		if !ok {
			t.Fatalf("no field %s", c.key)
		}
		t.Run(c.key, func(t *testing.T) {
			s := Default()
			if err := f.Set(&s, c.valid); err != nil {
				t.Fatalf("Set(%q): %v", c.valid, err)
			}
			want := c.canonical
			if want == "" {
				want = c.valid
			}
			if got := f.Get(&s); got != want {
				t.Errorf("Get after Set(%q) = %q, want %q", c.valid, got, want)
			}
			// The canonical text sets the same value.
			s2 := Default()
			if err := f.Set(&s2, f.Get(&s)); err != nil || s2 != s {
				t.Errorf("Set(Get()) = %v; scenario differs: %v", err, s2 != s)
			}
			for _, bad := range []struct{ name, v string }{{"below", c.below}, {"above", c.above}, {"garbage", c.garbage}} {
				if bad.v == "" && bad.name != "garbage" {
					continue
				}
				s := Default()
				err := f.Set(&s, bad.v)
				if err == nil {
					t.Errorf("%s: Set(%q) accepted", bad.name, bad.v)
					continue
				}
				if s != Default() {
					t.Errorf("%s: Set(%q) failed but changed the scenario", bad.name, bad.v)
				}
				msg := err.Error()
				// A duration's unit hint may come before "must be"
				// (invalidDuration).
				if !strings.HasPrefix(msg, f.Label+" "+strconv.Quote(bad.v)+": ") || !strings.Contains(msg, "must be ") || !strings.Contains(msg, f.Allowed()) {
					t.Errorf("%s: Set(%q) error %q should name the label, the value and %q", bad.name, bad.v, msg, f.Allowed())
				}
			}
		})
	}
}

func TestFromQueryFieldByField(t *testing.T) {
	def := Default()
	for _, c := range fieldCases {
		f, _ := FieldByKey(c.key)
		t.Run(c.key, func(t *testing.T) {
			s, notes := FromQuery(url.Values{c.key: {c.valid}})
			if len(notes) != 0 {
				t.Fatalf("valid %q: notes %v", c.valid, notes)
			}
			want := c.canonical
			if want == "" {
				want = c.valid
			}
			if got := f.Get(&s); got != want {
				t.Errorf("valid %q: got %q", c.valid, got)
			}
			for _, bad := range []string{c.below, c.above, c.garbage} {
				if bad == "" && c.garbage != "" {
					continue
				}
				q := url.Values{c.key: {bad}, "workers": {"7"}}
				if c.key == "workers" {
					q = url.Values{c.key: {bad}, "jobs": {"7"}}
				}
				s, notes := FromQuery(q)
				if len(notes) != 1 || notes[0].Key != c.key || notes[0].Value != bad {
					t.Fatalf("bad %q: notes %+v, want one for %s", bad, notes, c.key)
				}
				then := "; using the default " + f.Get(&def)
				if f.Get(&def) == "" { // not "using the default " and nothing
					then = "; leaving it empty"
				}
				if !strings.HasSuffix(notes[0].Msg, then) || notes[0].Then != then[2:] {
					t.Errorf("bad %q: note %q (then %q) does not end %q", bad, notes[0].Msg, notes[0].Then, then)
				}
				if f.Get(&s) != f.Get(&def) {
					t.Errorf("bad %q: field is %q, want the default %q", bad, f.Get(&s), f.Get(&def))
				}
				if s.Workers != 7 && s.Jobs != 7 {
					t.Errorf("bad %q: the other field was not applied", bad)
				}
				if errs := s.Validate(); errs != nil {
					t.Errorf("bad %q: result does not validate: %v", bad, errs)
				}
			}
		})
	}
}

func TestFromQueryNotices(t *testing.T) {
	s, notes := FromQuery(url.Values{
		"workers": {"30", "40"},
		"timeout": {"-1s", "3s", "4s"}, // the first is refused: one notice, the default
		"zzz":     {"1"},
		"aaa":     {"x", "y"},
	})
	if s.Workers != 30 {
		t.Errorf("workers = %d, want the first value 30", s.Workers)
	}
	var got []string
	for _, n := range notes {
		got = append(got, n.Key+": "+n.Msg)
	}
	want := []string{
		`workers: Workers (workers) is given 2 times; using the first value, "30"`,
		`timeout: Request timeout "-1s" (the first of 3 values given): must be a duration between 0s and 2m (e.g. 250ms, 2s, 1m); using the default 5s`,
		`aaa: unknown parameter "aaa" ignored`,
		`zzz: unknown parameter "zzz" ignored`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("notes\n%q\nwant\n%q", got, want)
	}
}

// A page link that names the server limiter as core does
// (limiter=sliding-window), which the mock's parameter takes beside its
// own names, loads without a notice, and the link written again uses the
// mock's name.
func TestLinksWithCoreLimiterNamesLoad(t *testing.T) {
	for _, k := range []core.LimiterKind{core.LimitNone, core.LimitTokenBucket, core.LimitFixedWindow, core.LimitSlidingWindow} {
		s, notes := FromQuery(url.Values{"limiter": {k.String()}})
		if s.Mock.Limiter != k || len(notes) != 0 {
			t.Errorf("limiter=%s: %v, notes %v", k, s.Mock.Limiter, notes)
		}
		if got, want := s.Query().Get("limiter"), mock.Choices("limiter")[k]; k != mock.Defaults().Limiter && got != want {
			t.Errorf("limiter=%s written again as %q, want %q", k, got, want)
		}
	}
}

func TestCrossFieldRules(t *testing.T) {
	tests := []struct {
		name    string
		q       url.Values
		blame   []string // in order, one per error
		contain []string
	}{
		// Each message is the blamed field's: its value and what it may be
		// beside the others. Beside Base it said "backoff cap 10s: must be 0
		// (no cap) or at least base 20s", and beside Latency spread
		// 'spread "20s"', the query's name.
		{"cap below base", url.Values{"base": {"2s"}, "cap": {"1s"}}, []string{"cap"}, []string{`Cap "1s": 0s (no cap) or at least the base, 2s`}},
		{"base above cap", url.Values{"base": {"20s"}, "cap": {"10s"}}, []string{"base"}, []string{`Base "20s": at most the cap, 10s (or a cap of 0s: no cap)`}},
		{"latency+spread", url.Values{"latency": {"20s"}, "spread": {"20s"}}, []string{"spread"}, []string{`Latency spread "20s": allowed at most 10s: Latency + Latency spread ≤ 30s`}},
		{"failure sum", url.Values{"fail500": {"60"}, "fail503": {"60"}}, []string{"fail503"}, []string{`503 errors "60": allowed at most 40: 500 errors + 503 errors + Dropped connections + Hangs ≤ 100%`}},
		// The field blamed is the one whose allowed value is said: drop's
		// "at most 0" was said beside 503 errors, which may be 30.
		{"failure sum, the last can't mend it", url.Values{"fail500": {"60"}, "fail503": {"60"}, "drop": {"10"}}, []string{"fail503"}, []string{`503 errors "60": allowed at most 30: 500 errors + 503 errors + Dropped connections + Hangs ≤ 100%`}},
		// Two errors of one rule at once are both shown, each on its field:
		// the page counted one field to fix, and showed the second after
		// the first was fixed.
		{"latency+spread and failure sum", url.Values{"latency": {"20s"}, "spread": {"15s"}, "fail500": {"60"}, "fail503": {"60"}},
			[]string{"spread", "fail503"}, []string{"Latency + Latency spread ≤ 30s", "500 errors + 503 errors + Dropped connections + Hangs ≤ 100%"}},
		{"both rules", url.Values{"base": {"2s"}, "cap": {"1s"}, "fail500": {"60"}, "fail503": {"60"}},
			[]string{"cap", "fail503"}, []string{"cap", "500 errors + 503 errors + Dropped connections + Hangs ≤ 100%"}},
		// Jobs' range is how they are counted: per worker, or in total.
		{"jobs per worker above 1000", url.Values{"jobs": {"1001"}}, []string{"jobs"}, []string{`Jobs "1001": must be an integer between 1 and 1000 per worker`}},
		{"jobs in total above workers × 1000", url.Values{"workers": {"2"}, "jobs": {"2001"}, "jobs_of": {"fleet"}}, []string{"jobs"}, []string{`Jobs "2001": must be an integer between 1 and 2000 in total`}},
		// A room does nothing with a custom target: said, not ignored.
		{"room with a custom target", url.Values{"room": {"abc"}, "target": {"https://api.example.com/items"}},
			[]string{"target"}, []string{`the shared room "abc" is a key of this server's mock, and a custom target would ignore it`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Set field by field: each is within its own range.
			s := Default()
			for k, vs := range tt.q {
				f, _ := FieldByKey(k)
				if err := f.Set(&s, vs[0]); err != nil {
					t.Fatalf("Set %s: %v", k, err)
				}
			}
			errs := s.Validate()
			if len(errs) != len(tt.blame) {
				t.Fatalf("Validate = %+v, want errors on %v", errs, tt.blame)
			}
			for i, e := range errs {
				if e.Key != tt.blame[i] || !strings.Contains(e.Msg, tt.contain[i]) || e.Value != valueOf(&s, e.Key) {
					t.Errorf("error %d: %+v, want it on %s (value %q) mentioning %q", i, e, tt.blame[i], valueOf(&s, tt.blame[i]), tt.contain[i])
				}
			}
			got, notes := FromQuery(tt.q)
			var keys []string
			for _, n := range notes {
				keys = append(keys, n.Key)
			}
			if !slices.Equal(keys, tt.blame) {
				t.Fatalf("FromQuery notes on %v, want %v", keys, tt.blame)
			}
			if errs := got.Validate(); errs != nil {
				t.Errorf("FromQuery result does not validate: %v", errs)
			}
		})
	}
}

// Failure percentages that add up to 100 are allowed, though their float
// sum is a hair above it (0.2 + 85.4 + 14.4 = 100.00000000000001), live
// and simulated alike.
func TestFailureSumOfExactlyOneHundred(t *testing.T) {
	s, notes := FromQuery(url.Values{"fail500": {"0.2"}, "fail503": {"85.4"}, "drop": {"14.4"}})
	if len(notes) != 0 || s.Mock.Drop != 14.4 {
		t.Fatalf("notes %+v, drop %v: want the three accepted", notes, s.Mock.Drop)
	}
	if errs := append(s.Validate(), s.SimErrors()...); errs != nil {
		t.Errorf("Validate and SimErrors: %v", errs)
	}
	s.Mock.Drop = 14.5
	// Named on drop, with what it may be beside the others, without float
	// noise (100-85.6 is 14.400000000000006 in float64).
	if errs := s.Validate(); len(errs) != 1 || errs[0].Key != "drop" || !strings.Contains(errs[0].Msg, `Dropped connections "14.5": allowed at most 14.4:`) {
		t.Errorf("a sum of 100.1: %+v, want one error on drop allowing at most 14.4", errs)
	}
}

func TestValidateReportsFieldsSetDirectly(t *testing.T) {
	s := Default()
	s.Workers = 0
	s.Mock.Rate = -1
	s.Timeout = -1
	errs := s.Validate()
	var keys []string
	for _, e := range errs {
		keys = append(keys, e.Key)
	}
	if !slices.Equal(keys, []string{"workers", "timeout", "rate"}) {
		t.Errorf("Validate keys %v (%+v)", keys, errs)
	}
	if errs[0].Msg != `Workers "0": must be an integer between 1 and 10000 (at most 500 for a live run)` || errs[0].Value != "0" {
		t.Errorf("message %q", errs[0].Msg)
	}
}

func TestQueryRoundTrip(t *testing.T) {
	scenarios := map[string]Scenario{"default": Default()}
	for _, p := range Presets {
		scenarios[p.ID] = p.Scenario()
	}
	// Every field at its case's valid value (in an order that keeps cross rules).
	all := Default()
	for _, c := range fieldCases {
		f, _ := FieldByKey(c.key)
		if err := f.Set(&all, c.valid); err != nil {
			t.Fatal(err)
		}
	}
	all.Cap = 0
	all.Mock.Fail500, all.Mock.Fail503, all.Mock.Drop, all.Mock.Hang = 10, 20, 30, 40
	ownTarget := all
	all.Target = "" // a room does nothing with a custom target
	ownTarget.Room = ""
	for _, s := range []Scenario{all, ownTarget} {
		if errs := s.Validate(); errs != nil {
			t.Fatalf("test scenario invalid: %v", errs)
		}
	}
	scenarios["all-cases"], scenarios["all-cases, own target"] = all, ownTarget
	for name, s := range scenarios {
		q := s.Query()
		if len(q) != len(Fields) {
			t.Errorf("%s: Query has %d keys, want every field (%d)", name, len(q), len(Fields))
		}
		got, notes := FromQuery(q)
		if notes != nil || got != s {
			t.Errorf("%s: FromQuery(Query()) = %+v, notes %v; want %+v", name, got, notes, s)
		}
		pq, err := url.ParseQuery(s.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if got, notes := FromQuery(pq); notes != nil || got != s {
			t.Errorf("%s: Encode does not round-trip: %v", name, notes)
		}
		short := s.EncodeChanged()
		cq, err := url.ParseQuery(short)
		if err != nil {
			t.Fatal(err)
		}
		if got, notes := FromQuery(cq); notes != nil || got != s {
			t.Errorf("%s: EncodeChanged %q does not round-trip: %v", name, short, notes)
		}
		def := Default()
		for k, vs := range cq {
			if f, _ := FieldByKey(k); f.Get(&def) == vs[0] {
				t.Errorf("%s: EncodeChanged carries %s=%s, the default", name, k, vs[0])
			}
		}
	}
	if q := Default().EncodeChanged(); q != "" {
		t.Errorf("Default().EncodeChanged() = %q, want empty", q)
	}
}

func TestDefaultAndPresetsAreValid(t *testing.T) {
	d := Default()
	if errs := d.Validate(); errs != nil {
		t.Fatalf("Default: %v", errs)
	}
	var ids []string
	for _, p := range Presets {
		ids = append(ids, p.ID)
		_, notes := FromQuery(p.Query)
		if notes != nil {
			t.Errorf("%s: %v", p.ID, notes)
		}
		if p.Title == "" || len(p.Caption) < 40 {
			t.Errorf("%s: title %q caption %q", p.ID, p.Title, p.Caption)
		}
		if got, ok := PresetByID(p.ID); !ok || got.ID != p.ID {
			t.Errorf("PresetByID(%q)", p.ID)
		}
	}
	if want := []string{"flood", "exponential", "full-jitter", "retry-after", "outage", "bucket", "open"}; !slices.Equal(ids, want) {
		t.Errorf("preset ids %v, want %v", ids, want)
	}
	flood := Presets[0].Scenario()
	if flood.Strategy.String() != "constant" || flood.Base.String() != "2s" || flood.RetryAfter || flood.Bucket {
		t.Errorf("flood preset is not a constant 2 s without Retry-After or bucket: %+v", flood)
	}
}

func TestMockURL(t *testing.T) {
	s := Default()
	s.Mock = mock.Defaults()
	if got, want := s.MockURL("http://w0.localhost:8080", "run-1"), "http://w0.localhost:8080/mock?key=run-1"; got != want {
		t.Errorf("defaults: %s, want %s", got, want)
	}
	s.Mock.Limiter = 2 // fixed window
	s.Mock.Limit = 5
	s.Mock.Rate = 10 // a bucket's: not read by a fixed window, not in the URL
	s.Mock.Key, s.Mock.Tag = "ignored", "ignored"
	s.Room = "room1"
	got := s.MockURL("http://localhost:8080", "run-1")
	if want := "http://localhost:8080/mock?limiter=fixed&limit=5&key=room1"; got != want {
		t.Errorf("room: %s, want %s", got, want)
	}
	u, _ := url.Parse(got)
	p, err := mock.ParseParams(u.Query())
	if err != nil || p.Limit != 5 || p.Key != "room1" {
		t.Errorf("mock parses %s as %+v, %v", got, p, err)
	}
	// The seed goes along when the mock has something to roll with it:
	// failures or a latency spread (TestSameSeedSameFailures).
	s.Seed = 42
	if got := s.MockURL("http://localhost:8080", "run-1"); strings.Contains(got, "seed") {
		t.Errorf("nothing to roll: %s, want no seed", got)
	}
	s.Mock.Spread = time.Second
	if got, want := s.MockURL("http://localhost:8080", "run-1"), "http://localhost:8080/mock?limiter=fixed&limit=5&spread=1s&seed=42&key=room1"; got != want {
		t.Errorf("with a spread: %s, want %s", got, want)
	}
	s.Mock.Spread, s.Mock.Drop, s.Seed = 0, 5, 0
	if got, want := s.MockURL("http://localhost:8080", "run-1"), "http://localhost:8080/mock?limiter=fixed&limit=5&drop=5&seed=0&key=room1"; got != want {
		t.Errorf("with drops: %s, want %s", got, want)
	}
}

func TestAttemptTag(t *testing.T) {
	for _, c := range []struct {
		device  string
		w, j, a int
		want    string
	}{
		{"", 499, 999, 1000, "w499.j999.a1000"},
		{"", 0, 0, 1, "w0.j0.a1"},
		{"heron-17", 3, 0, 2, "heron-17.w3.j0.a2"},
		{strings.Repeat("z", DeviceMaxLen), 9999, 999, 1000, strings.Repeat("z", DeviceMaxLen) + ".w9999.j999.a1000"},
	} {
		tag := AttemptTag(c.device, c.w, c.j, c.a)
		if tag != c.want || !mock.ValidKey(tag) {
			t.Errorf("AttemptTag(%q, %d, %d, %d) = %q, want %q (a valid mock tag)", c.device, c.w, c.j, c.a, tag, c.want)
		}
		d, w, j, a, ok := ParseAttemptTag(tag)
		if !ok || d != c.device || w != c.w || j != c.j || a != c.a {
			t.Errorf("ParseAttemptTag(%q) = %q %d %d %d %v", tag, d, w, j, a, ok)
		}
	}
	for _, bad := range []string{"", "w1.j2", "w1.j2.a3.x", "x1.j2.a3", "w-1.j2.a3", "w01.j2.a3", "w1.j2.a",
		"Heron.w1.j2.a3", ".w1.j2.a3", "he_ron.w1.j2.a3", "heron.w1.j2", "a.b.w1.j2.a3", strings.Repeat("z", DeviceMaxLen+1) + ".w1.j2.a3"} {
		if _, _, _, _, ok := ParseAttemptTag(bad); ok {
			t.Errorf("ParseAttemptTag(%q) accepted", bad)
		}
	}
}

func TestValidDevice(t *testing.T) {
	for name, want := range map[string]bool{
		"heron-17": true, "a": true, "0": true, "-": true, strings.Repeat("a", DeviceMaxLen): true,
		"": false, "Heron": false, "he.ron": false, "he ron": false, "hé": false, strings.Repeat("a", DeviceMaxLen+1): false,
	} {
		if got := ValidDevice(name); got != want {
			t.Errorf("ValidDevice(%q) = %v, want %v", name, got, want)
		}
	}
}

func FuzzFromQuery(f *testing.F) {
	f.Add(Default().Encode())
	for _, p := range Presets {
		f.Add(p.Query.Encode())
	}
	for _, c := range fieldCases {
		f.Add(url.Values{c.key: {c.garbage}}.Encode())
		f.Add(c.key + "=" + c.below + "&" + c.key + "=" + c.valid)
	}
	f.Add("base=2s&cap=1s&latency=20s&spread=20s&fail500=60&drop=60")
	f.Add("%zz=1&workers=%41")
	// As a German browser types them: decimal commas, a thousand's point, a percent sign.
	f.Add("mult=1,5&timeout=0,5s&rate=2,500&fail500=2,5%20%25&workers=1.000&seed=42.000&bucket_rate=1.000")
	f.Fuzz(func(t *testing.T, raw string) {
		q, _ := url.ParseQuery(raw)
		s, notes := FromQuery(q)
		if errs := s.Validate(); errs != nil {
			t.Fatalf("FromQuery(%q) = invalid scenario: %v (notes %v)", raw, errs, notes)
		}
		// A target taken is sent with no byte a request line refuses, its
		// host (not in the request line) as text: a name in other
		// scripts than Latin ("ü.example") is the browser's to encode.
		sent := s.SentTarget()
		_, rest, _ := strings.Cut(sent, "://")
		host, path := rest, ""
		if i := strings.IndexAny(rest, "/?"); i >= 0 {
			host, path = rest[:i], rest[i:]
		}
		if strings.ContainsFunc(path, func(r rune) bool { return r <= ' ' || r >= 0x7f }) || !utf8.ValidString(host) || strings.ContainsFunc(host, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			t.Fatalf("target %q is sent as %q", s.Target, sent)
		} else if _, err := url.Parse(sent); err != nil {
			t.Fatalf("target %q is sent as %q, which does not parse: %v", s.Target, sent, err)
		}
		noted := map[string]bool{}
		for _, n := range notes {
			noted[n.Key] = true
			if n.Msg == "" {
				t.Fatalf("empty notice for %s", n.Key)
			}
		}
		// A field FromQuery accepted holds the value given.
		for k, vs := range q {
			f, ok := FieldByKey(k)
			if !ok || noted[k] || len(vs) == 0 {
				continue
			}
			c := Default()
			if err := f.Set(&c, vs[0]); err != nil {
				t.Fatalf("%s=%q accepted by FromQuery, rejected by Set: %v", k, vs[0], err)
			}
			if f.Get(&c) != f.Get(&s) {
				t.Fatalf("%s=%q accepted but the scenario holds %q", k, vs[0], f.Get(&s))
			}
		}
		back, notes2 := FromQuery(s.Query())
		if notes2 != nil || back != s {
			t.Fatalf("round trip of %q: %v", raw, notes2)
		}
		short, _ := url.ParseQuery(s.EncodeChanged())
		if back, notes3 := FromQuery(short); notes3 != nil || back != s {
			t.Fatalf("EncodeChanged round trip of %q: %v", raw, notes3)
		}
	})
}

func TestFieldsMarkdown(t *testing.T) {
	md := FieldsMarkdown()
	lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
	if len(lines) != 2+len(Fields) {
		t.Fatalf("%d lines for %d fields", len(lines), len(Fields))
	}
	for i, f := range Fields {
		if !strings.HasPrefix(lines[2+i], "| `"+f.Key+"` | "+f.Group+" | ") || strings.Count(lines[2+i], " | ") != 5 {
			t.Errorf("row %q", lines[2+i])
		}
	}
	if !strings.Contains(md, "| `workers` | fleet | Workers | an integer between 1 and 10000 (at most 500 for a live run) | `50` |") {
		t.Errorf("workers row:\n%s", md)
	}
}

// A scheduled outage can only take the built-in mock down: with a custom
// target a live run is refused, naming the field, and with none the outage
// is nothing at all.
func TestOutageNeedsTheMock(t *testing.T) {
	s := Default()
	if o := s.OutageStretch(); o.To != 0 {
		t.Errorf("default outage %+v, want none", o)
	}
	s.Outage, s.OutageAt = 3*time.Second, 2*time.Second
	if o := s.OutageStretch(); o.From != 2*time.Second || o.To != 5*time.Second || s.LiveErrors() != nil {
		t.Errorf("outage %+v, live errors %v", o, s.LiveErrors())
	}
	s.Target = "http://api.example/x"
	errs := s.LiveErrors()
	if len(errs) != 1 || errs[0].Key != "outage" || !strings.Contains(errs[0].Msg, `Server outage "3s"`) || !strings.Contains(errs[0].Msg, "custom target") {
		t.Errorf("live errors %v", errs)
	}
}

// Every field takes its value with spaces around it, as typed or pasted
// into the page's text inputs: the endpoint's fields ("10 " for the
// server rate) as much as the fleet's, and the text fields (" heron" was
// refused as a room name, where "  5 " was 5 workers; found by a review).
func TestFieldsTrimSpaces(t *testing.T) {
	texts := map[string]string{"target": "https://api.example.com/x", "room": "heron"}
	for i := range Fields {
		f := &Fields[i]
		s := Default()
		v := f.Get(&s)
		if f.Kind == KindText {
			if v = texts[f.Key]; v == "" {
				t.Fatalf("%s: no value to try", f.Key)
			}
			if f.Key == "room" {
				s.Target = "" // a room is the mock's
			}
		}
		if err := f.Set(&s, "  "+v+" "); err != nil {
			t.Errorf("%s: %q with spaces around it: %v", f.Key, v, err)
		} else if got := f.Get(&s); got != v {
			t.Errorf("%s: %q with spaces around it reads back as %q", f.Key, v, got)
		}
	}
}

// Every integer field takes a leading "+", as Go's integer parsing does: the
// seed alone refused "+5" as no integer between 0 and 2^64−1 (a
// robustness review).
func TestIntegerFieldsTakeASign(t *testing.T) {
	n := 0
	for i := range Fields {
		f := &Fields[i]
		if f.Kind != KindInt {
			continue
		}
		n++
		s := Default()
		v := f.Get(&s)
		if err := f.Set(&s, "+"+v); err != nil {
			t.Errorf("%s: %q: %v", f.Key, "+"+v, err)
		} else if got := f.Get(&s); got != v {
			t.Errorf("%s: %q reads back as %q", f.Key, "+"+v, got)
		}
	}
	if n == 0 {
		t.Fatal("no integer field")
	}
}

// "-0" in a number field that takes 0 is 0, and the link says "0": it said
// "fail500=-0" (a robustness review).
func TestNegativeZeroIsZero(t *testing.T) {
	n := 0
	for i := range Fields {
		f := &Fields[i]
		s := Default()
		if f.Kind != KindFloat || f.Set(&s, "0") != nil {
			continue
		}
		n++
		if err := f.Set(&s, "-0"); err != nil {
			t.Errorf("%s: -0: %v", f.Key, err)
		} else if got := f.Get(&s); got != "0" {
			t.Errorf("%s: -0 reads back as %q, want 0", f.Key, got)
		}
	}
	if n == 0 {
		t.Fatal("no number field takes 0")
	}
}

// ParseAttemptTag reads tags any client of a shared room may send: it
// never panics, and what it accepts is exactly what AttemptTag writes.
func FuzzParseAttemptTag(f *testing.F) {
	for _, s := range []string{"w3.j0.a2", "heron-4k2.w3.j0.a2", "w01.j0.a1", "x.w1.j1.a1", "w1.j1", "Heron.w1.j1.a1", "w-1.j0.a1", "w9999999999999999999.j0.a1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		device, w, j, a, ok := ParseAttemptTag(tag)
		if !ok {
			return
		}
		if device != "" && !ValidDevice(device) {
			t.Errorf("%q: device %q is not a device name", tag, device)
		}
		if w < 0 || j < 0 || a < 0 {
			t.Errorf("%q: negative numbers %d %d %d", tag, w, j, a)
		}
		if back := AttemptTag(device, w, j, a); back != tag {
			t.Errorf("%q parsed as (%q, %d, %d, %d), which writes %q", tag, device, w, j, a, back)
		}
	})
}

// valueOf is the field key's value in s.
func valueOf(s *Scenario, key string) string {
	f, _ := FieldByKey(key)
	return f.Get(s)
}

// TestTargetURLs: a custom target the browser cannot send to — no host
// name, a port past 65535 or 0, or one of the Fetch standard's bad ports
// (6000, 587, …) — is refused beside the field, naming it; it was accepted,
// and every attempt of the run "failed" without leaving the browser (fetch
// rejects such a URL before any connection).
func TestTargetURLs(t *testing.T) {
	const bad = "bad port" // the message of a port browsers refuse
	for _, tt := range []struct {
		target string
		want   string // "" = accepted; else in the message, beside the field's name and the value
	}{
		{"https://api.example.com/v1/items?page=2", ""},
		{"http://localhost:8080/mock?key=x", ""},
		{"http://localhost:2/", ""},
		{"http://localhost:65535/", ""},
		{"http://[::1]:8080/x", ""},
		{"http://127.0.0.1/", ""},
		{"http://example.com:80/", ""},
		{"https://example.com:443/", ""},
		{"  https://example.com/  ", ""}, // trimmed, as every field is
		{"", ""},
		// What is wrong, then what is allowed (the allowed alone left a
		// person to find which part: a review).
		{"http://localhost:65536/", "port is between 1 and 65535 (here 65536); "},
		{"http://localhost:99999/", "port is between 1 and 65535 (here 99999); "},
		{"http://localhost:0/", "port is between 1 and 65535 (here 0); "},
		{"http://localhost:00/", "(here 00); "},
		{"http://:80/", "a URL with a host name after http://; "},
		{"http://[::1]:0/", "(here 0); "},
		{"http://[]:80/", "1 and 65535"},
		{"http:///path", "a URL with a host name after http://; "},
		{"http://", "a URL with a host name after http://; "},
		{"//example.com/x", "starts with http:// or https:// (http://example.com/x, perhaps); "},
		{"//exa mple.com/x", "1 and 65535"},
		{"/api/items", "a URL that starts with http:// or https://; empty (the built-in mock)"},
		{"http://user:pw@example.com/", "without a user name or password"},
		{"http://user@example.com/", "without a user name or password"},
		// A host ending in a number is an IPv4 address to the browser, or
		// an invalid URL: these were accepted, and every attempt "failed"
		// (found by a review).
		{"http://256.256.256.256/", "IPv4 address as browsers read it"},
		{"http://1.2.3.4.5/", "IPv4 address as browsers read it"},
		{"http://example.1/", "IPv4 address as browsers read it"},
		{"http://09.1.1.1/", "IPv4 address as browsers read it"}, // not octal
		{"http://1.2.3.256/", "IPv4 address as browsers read it"},
		{"http://0x100.0.0.1/", "IPv4 address as browsers read it"},
		{"http://127.1/", ""}, // 127.0.0.1 to the browser
		{"http://0x7f.0.0.1:8080/", ""},
		{"http://10.0.65535/", ""}, // 10.0.255.255
		{"http://1.2.3.4./", ""},
		{"http://example.com1/", ""}, // a name: its last label is no number
		{"http://host.0xg/", ""},
		{"http://4294967295/", ""}, // one number: 255.255.255.255
		{"http://4294967296/", "IPv4 address as browsers read it"},
		{"http://99999999999999999999999/", "IPv4 address as browsers read it"},
		{"http://localhost:8080/%zz", "every % starts an escape of two hex digits"},
		{"ftp://example.com/", "starts with http:// or https://, which fetch() sends (not ftp:); "},
		{"javascript:alert(1)", "(not javascript:)"},
		{"data:text/plain,x", "(not data:)"},
		{"localhost:6000", "1 and 65535"}, // a bad port, and no scheme "localhost"
		{"example.com/x", "starts with http:// or https:// (http://example.com/x, perhaps)"},
		{"localhost:18092/api", "(http://localhost:18092/api, perhaps)"}, // a review: it got the generic message
		{"127.0.0.1", "(http://127.0.0.1, perhaps)"},
		// A mistyped scheme is told the URL it means (http://http//… was
		// offered; a review).
		{"http//localhost:18091/api", "(http://localhost:18091/api, perhaps)"},
		{"http:/localhost:18091/", "(http://localhost:18091/, perhaps)"},
		{"HTTPS//api.example.com/v1", "(https://api.example.com/v1, perhaps)"},
		{"https:api.example.com", "(https://api.example.com, perhaps)"},
		{"httpbin.org/get", "(http://httpbin.org/get, perhaps)"},
		// What Go's parser takes and browsers refuse: fetch() failed before
		// sending, told as a network error or CORS (a review).
		{"http://a<b.example/", "host has none of < > ]"},
		{"http://a>b.example/", "host has none of < > ]"},
		{"http://a]b.example/", "host has none of < > ]"},
		{"http://[fe80::1%25eth0]:8080/", "IPv6 address has no zone"},
		{"http://[::1]:8080/", ""},
		{`http://a"b.example/`, ""}, // browsers take it
		{"http://exa%6dple.com/", "host has no %-escapes"},
		// A host in another script is the browser's to encode; bytes that
		// are no character are refused (a fuzzer's).
		{"http://bücher.example/", ""},
		{"http://\xaf0", "host is text (UTF-8)"},
		{"http://a\xaf.example/x", "host is text (UTF-8)"},
		{"a b", "1 and 65535"},
		{"http://a b.com/", "1 and 65535"},
		{"https://example.com/" + strings.Repeat("a", MaxTargetLen), "1 and 65535"},
		{"http://localhost:1/", "port 1, a " + bad},
		{"http://localhost:6000/", "port 6000, a " + bad},
		{"https://smtp.example.com:587/send", "port 587, a " + bad},
		{"http://[::1]:6667/", "port 6667, a " + bad},
		{"http://localhost:0587/", "port 587, a " + bad}, // the browser reads 587 too
		{"http://127.0.0.1:10080/", "port 10080, a " + bad},
	} {
		s := Default()
		f, _ := FieldByKey("target")
		err := f.Set(&s, tt.target)
		if (err == nil) != (tt.want == "") {
			t.Errorf("target %q: error %v, want ok=%v", tt.target, err, tt.want == "")
			continue
		}
		if err != nil && (!strings.Contains(err.Error(), "Custom target") || !strings.Contains(err.Error(), strconv.Quote(mock.Cut(tt.target))) || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("target %q: message %q should name the field, the value and say %q", tt.target, err, tt.want)
		}
	}
}

// A target without its scheme is told the URL it perhaps means, but not
// one the browser would refuse in turn.
func TestTargetWithoutSchemeSuggestsOnlyWhatWouldDo(t *testing.T) {
	s := Default()
	f, _ := FieldByKey("target")
	for _, v := range []string{"localhost:6000", "a b", "1.2.3.4.5", "user@example.com", "http//localhost:6000", "http:/a<b.example"} {
		if err := f.Set(&s, v); err == nil || strings.Contains(err.Error(), "perhaps") {
			t.Errorf("target %q: %v; want refused with no suggestion", v, err)
		}
	}
}

// Every port of the Fetch standard's list is refused, and the ports beside
// them are not: the list compiled into the page is the standard's.
func TestTargetBadPorts(t *testing.T) {
	// https://fetch.spec.whatwg.org/#bad-port (2024)
	spec := []int{1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95,
		101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179,
		389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
		989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
		6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080}
	f, _ := FieldByKey("target")
	for p := 1; p <= 10081; p++ {
		s := Default()
		err := f.Set(&s, "http://localhost:"+strconv.Itoa(p)+"/")
		if want := slices.Contains(spec, p); (err != nil) != want {
			t.Errorf("port %d: error %v, want refused=%v", p, err, want)
		}
	}
}

// TestNotInEffectSaysWhy: a field greyed out as having no effect (the
// bucket's rate with the bucket off) says why, for the page to tie to its
// input: every field off in a configuration has a reason, every field in
// effect none.
func TestNotInEffectSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name string
		set  map[string]string
		want map[string]string // key → its reason; keys not listed are only checked to agree with IsEnabled
	}{
		{"defaults", nil, map[string]string{"bucket_rate": "while the fleet bucket is off", "every": "while the workload is closed",
			"ra_spread": "while neither Retry-After nor reset hints are used (off, or not sent by the mock)", "outage_at": "while the outage is 0 (none)", "rate": "", "limit": "while the server limiter is not a window"}},
		{"everything on", map[string]string{"workload": "open", "bucket": "on", "budget": "on", "ra_honour": "on", "outage": "2s", "retry_after": "fixed"},
			map[string]string{"bucket_rate": "", "every": "", "ra_above": "", "outage_at": "", "retry_value": "", "malformed": "while Retry-After sent is not Malformed"}},
		{"no retries", map[string]string{"strategy": "none"}, map[string]string{"base": "while the strategy is None", "cap": "while the strategy is None or Constant"}},
		{"constant", map[string]string{"strategy": "constant"}, map[string]string{"base": "", "mult": "while the strategy does not grow (only exponential, full and equal jitter use it)"}},
		{"no ceiling", map[string]string{"ra_honour": "on", "ra_ceiling": "0s"}, map[string]string{"ra_spread": "", "ra_above": "while the ceiling is 0 (none)"}},
		// What the mock does not send, honouring it does nothing with (a
		// learner's review): reset hints by default, which has no headers.
		{"nothing sent", map[string]string{"ra_honour": "on", "hints": "on", "retry_after": "none"}, map[string]string{
			"ra_honour": "while the mock sends no Retry-After (Retry-After sent: None)", "ra_spread": "while neither Retry-After nor reset hints are used (off, or not sent by the mock)",
			"hints": "while the mock sends no rate-limit headers (Rate-limit headers: None, or Server limiter: No limit)", "ra_above": "while neither Retry-After nor reset hints are used (off, or not sent by the mock)"}},
		{"hints sent", map[string]string{"hints": "on", "retry_after": "none", "headers": "ietf"}, map[string]string{"ra_honour": "while the mock sends no Retry-After (Retry-After sent: None)", "hints": "", "ra_spread": ""}},
		{"no limiter, no hints", map[string]string{"hints": "on", "headers": "ietf", "limiter": "none"}, map[string]string{"hints": "while the mock sends no rate-limit headers (Rate-limit headers: None, or Server limiter: No limit)"}},
		{"windowed, no headers", map[string]string{"limiter": "none"}, map[string]string{"headers": "while the server limiter is No limit", "rate": "while the server limiter is not a token bucket"}},
		{"custom target", map[string]string{"target": "https://api.example.com/x", "limiter": "fixed"},
			map[string]string{"room": "while a custom target replaces the mock", "rate": "while a custom target replaces the mock", "fail500": "while a custom target replaces the mock", "jobs": "", "hints": ""}},
		{"custom target, none sent", map[string]string{"target": "https://api.example.com/x", "retry_after": "none", "ra_honour": "on"}, map[string]string{"ra_honour": "", "ra_spread": "", "retry_after": "while a custom target replaces the mock"}},
	} {
		s := Default()
		for k, v := range c.set {
			f, _ := FieldByKey(k)
			if err := f.Set(&s, v); err != nil {
				t.Fatal(err)
			}
		}
		for i := range Fields {
			f := &Fields[i]
			why := f.NotInEffect(&s)
			if (why == "") != f.IsEnabled(&s) || (why != "" && !strings.HasPrefix(why, "while ")) {
				t.Errorf("%s: %s in effect %v, but why not: %q", c.name, f.Key, f.IsEnabled(&s), why)
			}
			if want, ok := c.want[f.Key]; ok && why != want {
				t.Errorf("%s: %s not in effect %q, want %q", c.name, f.Key, why, want)
			}
		}
	}
}

// A bare number in a duration field, which Go reads as no duration, gets
// the units that would make it one allowed ("100" typed into Base gave
// the range alone, where the target's message suggests a fix: a review).
func TestDurationFieldsSuggestAUnit(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"base", "100", `Base "100": a number needs a unit: 100ms or 100s, perhaps; must be a duration between 1ms and 1h (e.g. 250ms, 2s, 1m)`},
		{"base", " 2.5 ", `": a number needs a unit: 2.5ms or 2.5s or 2.5m, perhaps; must be`},
		{"timeout", "500", `": a number needs a unit: 500ms, perhaps; must be`},
		{"every", "5", `": a number needs a unit: 5s, perhaps; must be`},
		{"every", "1e9", `": a number needs a unit: ms, s or m; must be`},
		{"base", "fast", `(e.g. 250ms, 2s, 1m)`},
		{"latency", "200", `": a number needs a unit: 200ms, perhaps; must be`}, // an endpoint field's too
		{"window", "1", `": a number needs a unit: 1ms or 1s or 1m, perhaps; must be`},
		{"rate", "5x", `must be a number`},
		// With a space before the unit, as the page writes a measured
		// duration ("1.5 s"): the message said only "must be a duration".
		{"cap", "1 s", `Cap "1 s": without a space: 1s; must be a duration between 0s and 24h (e.g. 250ms, 2s, 1m)`},
		{"timeout", " 1,5 s", `": without a space: 1.5s; must be`},
		{"latency", "50 ms", `": without a space: 50ms; must be`}, // an endpoint field's too
		{"elapsed", "1m 30s", `": without a space: 1m30s; must be`},
		{"timeout", "1 h", `(e.g. 250ms, 2s, 1m)`}, // 1h is not allowed either: no hint
	} {
		f, _ := FieldByKey(c.key)
		s := Default()
		err := f.Set(&s, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%q: %v, want %q", c.key, c.value, err, c.want)
		}
		if c.value == "1 h" && strings.Contains(err.Error(), "space") {
			t.Errorf("%s=%q: %v offers a value not allowed", c.key, c.value, err)
		}
		if (c.value == "fast" || c.key == "rate") && strings.Contains(err.Error(), "needs a unit") {
			t.Errorf("%s=%q: %v suggests a unit for no number", c.key, c.value, err)
		}
	}
}

// A number typed with a decimal comma, as German and French write it (and
// as their phones' decimal keypads type it), is the number meant: "1,5"
// was refused as "must be a number between 1 and 10", which it is, to
// whoever writes it so (a review in a German browser). A comma that may
// be English's thousands separator ("2,500") is refused, saying why.
func TestFieldsTakeADecimalComma(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"mult", "1,5", "1.5"},
		{"bucket_rate", " 0,5 ", "0.5"},
		{"budget_refill", "0,125", "0.125"}, // a whole part of 0: no thousands
		{"rate", "2,5", "2.5"},              // an endpoint field's (mock's parser) too
		{"fail500", "12,5", "12.5"},
		{"timeout", "1,5s", "1.5s"},
		{"base", "0,25s", "250ms"},
		{"latency", "1,5s", "1.5s"},
		{"ra_ceiling", "1m2,5s", "1m2.5s"},
	} {
		f, _ := FieldByKey(c.key)
		s := Default()
		if err := f.Set(&s, c.value); err != nil {
			t.Errorf("%s=%q: %v", c.key, c.value, err)
		} else if got := f.Get(&s); got != c.want {
			t.Errorf("%s=%q reads as %q, want %q", c.key, c.value, got, c.want)
		}
	}
	for _, c := range []struct{ key, value, want string }{
		{"rate", "2,500", `Server rate "2,500": must be a number between 0.001 and 1000000; 2,500 could be 2.5 or 2500: write one of them`},
		{"mult", "1,250", `; 1,250 could be 1.25 or 1250: write one of them`},
		{"timeout", "1,000s", `; 1,000s could be 1s or 1000s: write one of them`},
		{"mult", "1,5,5", `Multiplier "1,5,5": must be a number between 1 and 10`},
		{"mult", "1.5,5", `Multiplier "1.5,5": must be a number between 1 and 10`},
		{"mult", ",5", `Multiplier ",5": must be a number between 1 and 10`},
		{"base", "0,5", `": a number needs a unit: 0.5s or 0.5m, perhaps; must be`},
		{"workers", "1,5", `Workers "1,5": must be an integer`}, // no comma in an integer
		{"burst", "2,5", `Server burst "2,5": must be an integer`},
		// A percentage with its sign: the field's unit is %.
		{"fail500", "2,5 %", `500 errors "2,5 %": must be a number between 0 and 100; fail500+fail503+drop+hang ≤ 100; without the %: 2.5`},
		{"hang", "1%", `; without the %: 1`},
		{"drop", "200%", `Dropped connections "200%": must be a number between 0 and 100; fail500+fail503+drop+hang ≤ 100`},
	} {
		f, _ := FieldByKey(c.key)
		s := Default()
		err := f.Set(&s, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%q: %v, want %q", c.key, c.value, err, c.want)
		}
	}
}

// A thousand written as German writes it, "1.000": a number field takes it
// as 1 and says so (PointNote); a count field refuses it, saying how to
// write a thousand.
func TestAPointBeforeThreeDigits(t *testing.T) {
	for _, c := range []struct{ key, value, note string }{
		{"rate", "1.000", "Read as 1: a point is a decimal point here (a thousand is 1000, with no separator)."},
		{"bucket_rate", " 12.500 ", "Read as 12.5: a point is a decimal point here (a thousand is 1000, with no separator)."},
		{"rate", "1.5", ""},
		{"rate", "0.500", ""}, // no thousand
		{"rate", "1000", ""},
		{"rate", "1.0000", ""},
		{"budget_refill", "1.000e1", ""},
		{"base", "1.000s", ""}, // not a number field
	} {
		f, _ := FieldByKey(c.key)
		s := Default()
		if err := f.Set(&s, c.value); err != nil {
			t.Errorf("%s=%q: %v", c.key, c.value, err)
			continue
		}
		if got := f.PointNote(&s, c.value); got != c.note {
			t.Errorf("%s=%q: note %q, want %q", c.key, c.value, got, c.note)
		}
	}
	for _, c := range []struct{ key, value, want string }{
		{"workers", "1.000", `Workers "1.000": must be an integer between 1 and 10000 (at most 500 for a live run); with no thousands separator: 1000`},
		{"burst", "2.500", `; with no thousands separator: 2500`}, // an endpoint field's too
		{"seed", "42.000", `Random seed "42.000": must be an integer between 0 and 18446744073709551615; with no thousands separator: 42000`},
		{"attempts", "1.5", `Max attempts "1.5": must be an integer between 1 and 1000`},
	} {
		f, _ := FieldByKey(c.key)
		s := Default()
		err := f.Set(&s, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%q: %v, want %q", c.key, c.value, err, c.want)
		}
		if c.key == "attempts" && strings.Contains(err.Error(), "separator") {
			t.Errorf("%s=%q: %v", c.key, c.value, err)
		}
	}
}

// The settings of retries have no effect while the strategy is None, and
// say so: core.Loop stops a job at its first failure before it reads a
// Retry-After, counts attempts or spends from the budget. They stayed
// active with no note, and "None + Honour Retry-After" read as retrying
// only when the server says when (a learner's review). Each, changed, runs
// None the same; each counts under a strategy that retries.
func TestRetrySettingsNeedRetries(t *testing.T) {
	base := url.Values{"workers": {"10"}, "jobs": {"3"}, "strategy": {"none"}, "rate": {"5"}, "burst": {"2"},
		"headers": {"both"}, "retry_after": {"seconds"}, "seed": {"3"}}
	changed := map[string]url.Values{
		"attempts":      {"attempts": {"10"}},
		"ra_honour":     {"ra_honour": {"on"}},
		"ra_ceiling":    {"ra_honour": {"on"}, "ra_ceiling": {"100ms"}},
		"ra_above":      {"ra_honour": {"on"}, "ra_ceiling": {"100ms"}, "ra_above": {"stop"}},
		"ra_spread":     {"ra_honour": {"on"}, "ra_spread": {"2s"}},
		"hints":         {"hints": {"on"}},
		"budget":        {"budget": {"on"}, "budget_size": {"1"}},
		"budget_size":   {"budget": {"on"}, "budget_size": {"1"}},
		"budget_refill": {"budget": {"on"}, "budget_size": {"1"}, "budget_refill": {"0"}},
	}
	run := func(q url.Values) (Scenario, Stats) {
		s, ferrs := FromQuery(q)
		if ferrs != nil {
			t.Fatal(ferrs)
		}
		return s, Simulate(s).Stats()
	}
	_, want := run(base)
	for key, extra := range changed {
		q := url.Values{}
		for k, v := range base {
			q[k] = v
		}
		for k, v := range extra {
			q[k] = v
		}
		s, got := run(q)
		if got.Requests != want.Requests || got.Successes != want.Successes || got.GiveUps != want.GiveUps {
			t.Errorf("%s under None: %d requests, %d successes, %d give-ups; without it %d, %d, %d", key, got.Requests, got.Successes, got.GiveUps, want.Requests, want.Successes, want.GiveUps)
		}
		f, _ := FieldByKey(key)
		if f.IsEnabled(&s) || f.NotInEffect(&s) != noRetries {
			t.Errorf("%s under None: enabled %v, not in effect %q", key, f.IsEnabled(&s), f.NotInEffect(&s))
		}
		s.Strategy = core.FullJitter
		if !f.IsEnabled(&s) {
			t.Errorf("%s under full jitter (%s): not in effect %q", key, s.Encode(), f.NotInEffect(&s))
		}
	}
	if len(changed) != 9 {
		t.Fatal("a setting of retries is missing")
	}
	for _, f := range Fields {
		if _, ok := changed[f.Key]; ok != f.retries {
			t.Errorf("%s: a setting of retries %v, in this test %v", f.Key, f.retries, ok)
		}
	}
}

// simulateWith simulates base with each of sets over it, in order.
func simulateWith(t *testing.T, base url.Values, sets ...url.Values) (Scenario, Stats) {
	t.Helper()
	q := url.Values{}
	for _, set := range append([]url.Values{base}, sets...) {
		for k, v := range set {
			q[k] = v
		}
	}
	s, ferrs := FromQuery(q)
	if ferrs != nil {
		t.Fatal(ferrs)
	}
	return s, Simulate(s).Stats()
}

// same reports whether two simulations made the same run, as far as its
// numbers tell.
func same(a, b Stats) bool {
	return a.Requests == b.Requests && a.Successes == b.Successes && a.GiveUps == b.GiveUps && a.Drain == b.Drain && a.CompletionP99 == b.CompletionP99
}

// What the mock does not send, honouring it changes nothing: Honour
// Retry-After with Retry-After sent None, reset hints with no rate-limit
// headers, and the ceiling, above it and the spread with neither. Each is
// greyed there (a learner's review: "+ honour Retry-After" did nothing and
// said nothing), and changes the run once the mock sends it.
func TestServerWaitSettingsNeedWhatTheMockSends(t *testing.T) {
	base := url.Values{"workers": {"10"}, "jobs": {"3"}, "strategy": {"full"}, "rate": {"5"}, "burst": {"2"},
		"headers": {"none"}, "retry_after": {"none"}, "seed": {"3"}}
	for _, c := range []struct {
		key   string
		extra url.Values
		sent  url.Values // what the mock must send for key to count
	}{
		{"ra_honour", url.Values{"ra_honour": {"on"}}, url.Values{"retry_after": {"seconds"}}},
		{"ra_ceiling", url.Values{"ra_honour": {"on"}, "ra_ceiling": {"100ms"}}, url.Values{"retry_after": {"seconds"}}},
		{"ra_above", url.Values{"ra_honour": {"on"}, "ra_ceiling": {"100ms"}, "ra_above": {"stop"}}, url.Values{"retry_after": {"seconds"}}},
		{"ra_spread", url.Values{"ra_honour": {"on"}, "ra_spread": {"2s"}}, url.Values{"retry_after": {"seconds"}}},
		{"hints", url.Values{"hints": {"on"}}, url.Values{"headers": {"ietf"}}},
		{"ra_spread", url.Values{"hints": {"on"}, "ra_spread": {"2s"}}, url.Values{"headers": {"x"}}},
	} {
		run := func(sets ...url.Values) (Scenario, Stats) { return simulateWith(t, base, sets...) }
		f, _ := FieldByKey(c.key)
		_, without := run()
		s, with := run(c.extra)
		if !same(with, without) {
			t.Errorf("%s %v with nothing sent: %+v; without it %+v", c.key, c.extra, with, without)
		}
		if f.IsEnabled(&s) || !strings.Contains(f.NotInEffect(&s), "not sent by the mock") && !strings.Contains(f.NotInEffect(&s), "the mock sends no") {
			t.Errorf("%s %v with nothing sent: enabled %v, not in effect %q", c.key, c.extra, f.IsEnabled(&s), f.NotInEffect(&s))
		}
		_, without = run(c.sent)
		s, with = run(c.sent, c.extra)
		if same(with, without) || !f.IsEnabled(&s) {
			t.Errorf("%s %v with %v sent: no change (%+v), or not in effect %q", c.key, c.extra, c.sent, with, f.NotInEffect(&s))
		}
	}
}

// With Retry-After honoured, and the mock sending one with every failure
// (no injected failures, no timeouts), the server decides every wait: the
// backoff's Base, Multiplier and Cap, and reset hints, change nothing, and
// are greyed saying so (a tuner changed them, and every number stayed the
// same: a review). Once a failure comes without one (500s injected), each
// is in effect and changes the run.
func TestBackoffSettingsNeedFailuresWithoutRetryAfter(t *testing.T) {
	base := url.Values{"workers": {"10"}, "jobs": {"3"}, "strategy": {"exponential"}, "rate": {"5"}, "burst": {"2"},
		"ra_honour": {"on"}, "headers": {"ietf"}, "seed": {"3"}, "outage": {"1s"}, "outage_at": {"500ms"}}
	run := func(sets ...url.Values) (Scenario, Stats) { return simulateWith(t, base, sets...) }
	failing := url.Values{"fail500": {"30"}}
	for key, v := range map[string]string{"base": "2s", "mult": "5", "cap": "300ms", "hints": "on"} {
		f, _ := FieldByKey(key)
		_, without := run()
		s, with := run(url.Values{key: {v}})
		if !same(with, without) {
			t.Errorf("%s=%s with the server deciding every wait: %+v; without %+v", key, v, with, without)
		}
		if why := f.NotInEffect(&s); why != serverDecides {
			t.Errorf("%s=%s with the server deciding every wait: not in effect %q", key, v, why)
		}
		_, without = run(failing)
		s, with = run(failing, url.Values{key: {v}})
		if same(with, without) || !f.IsEnabled(&s) {
			t.Errorf("%s=%s with 500s injected: no change (%+v), or not in effect %q", key, v, with, f.NotInEffect(&s))
		}
	}
	// Each way a failure comes without a readable Retry-After brings the
	// backoff back.
	f, _ := FieldByKey("base")
	for _, q := range []url.Values{{"ra_honour": {"off"}}, {"retry_after": {"malformed"}}, {"retry_after": {"none"}}, {"fail503": {"5"}}, {"drop": {"5"}}, {"hang": {"5"}},
		{"timeout": {"100ms"}, "latency": {"80ms"}}, {"target": {"https://api.example.com/x"}}} {
		if s, _ := run(q); !f.IsEnabled(&s) {
			t.Errorf("base with %v: not in effect %q", q, f.NotInEffect(&s))
		}
	}
}
