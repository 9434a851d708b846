package fleet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"retrylab/app/mock"
	"retrylab/core"
)

// FieldKind says how a Field's value is written and which input fits it.
type FieldKind uint8

const (
	KindInt      FieldKind = iota // a decimal integer
	KindFloat                     // a decimal number
	KindDuration                  // a Go duration: "250ms", "2s", "1m30s"
	KindBool                      // "on" or "off" (also accepted: true/false, 1/0, yes/no)
	KindChoice                    // one of Choices' values
	KindText                      // free text, checked by Set
)

var kindNames = [...]string{"int", "float", "duration", "bool", "choice", "text"}

// String returns "int", "float", "duration", "bool", "choice" or "text".
func (k FieldKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "FieldKind(" + strconv.Itoa(int(k)) + ")"
}

// Choice is one allowed value of a KindChoice field.
type Choice struct {
	Value string // as written in the URL, e.g. "full"
	Label string // as shown to users, e.g. "Exponential, full jitter"
}

// Field describes one configurable parameter: the single place for its URL
// key, label, unit, allowed range, default and one line on why it matters.
// Controls, validation, URL state and the README table are all generated
// from Fields.
type Field struct {
	Key     string    // URL query key, e.g. "workers"
	Group   string    // "fleet", "backoff", "retry-after", "bucket", "budget", "endpoint", "failures", "outage"
	Label   string    // "Workers"
	Unit    string    // "ms", "req/s", "%", ""
	Kind    FieldKind // how the value is written
	Choices []Choice  // for KindChoice
	Min     string    // allowed range as shown to users ("1"); "" when the kind has none
	Max     string    // ("500")
	Help    string    // one line on why it matters

	// Get returns the current value as text, in the form Set accepts.
	Get func(*Scenario) string
	// Set parses text, checks it against the field's own range and stores it.
	// On error the Scenario is unchanged and the error names the field, the
	// value and what is allowed. Rules between fields (cap >= base, the
	// endpoint's sums) are checked by Scenario.Validate.
	Set func(*Scenario, string) error
	// when lists what the field's effect needs, each with why it is
	// missing (NotInEffect), the most basic first: a custom target, then
	// retries, then the field's own.
	when []condition
	// retries: a setting of retries, of no effect while the strategy is
	// None (retrying).
	retries bool

	allowed string // what Allowed returns for kinds other than choice and bool
}

// IsEnabled reports whether f has an effect in s (the bucket rate only
// matters when the bucket is on): every condition of its when holds.
func (f *Field) IsEnabled(s *Scenario) bool { return f.NotInEffect(s) == "" }

// NotInEffect says why f has no effect in s, "while the fleet bucket is
// off" or "while a custom target replaces the mock", and "" when it has.
// The field can still be set: its value waits for when it counts.
func (f *Field) NotInEffect(s *Scenario) string {
	for _, c := range f.when {
		if !c.on(s) {
			return c.why
		}
	}
	return ""
}

// condition is one thing a field's effect needs, and why it has none
// without it, from "while": "while the fleet bucket is off".
type condition struct {
	on  func(*Scenario) bool
	why string
}

// Allowed describes the values f accepts, e.g. "between 1 and 500",
// "one of none, constant, exponential", "a URL starting with http:// or https://, or empty".
func (f *Field) Allowed() string {
	if f.allowed != "" {
		return f.allowed
	}
	if f.Kind == KindChoice {
		vs := make([]string, len(f.Choices))
		for i, c := range f.Choices {
			vs[i] = c.Value
		}
		return "one of " + strings.Join(vs, ", ")
	}
	if f.Kind == KindBool {
		return "on or off"
	}
	return ""
}

// FieldByKey returns the field with the given URL key.
func FieldByKey(key string) (*Field, bool) {
	i, ok := fieldIndex[key]
	if !ok {
		return nil, false
	}
	return &Fields[i], true
}

var fieldIndex = func() map[string]int {
	m := make(map[string]int, len(Fields))
	for i, f := range Fields {
		if _, dup := m[f.Key]; dup {
			panic("fleet: duplicate field key " + f.Key)
		}
		m[f.Key] = i
	}
	return m
}()

// FieldError is a field whose value is not allowed. Msg names the field,
// the value and the allowed range; the page shows it beside the input (or, for
// a URL that could not be used as given, as a notice). Key is "" for a
// problem no single field owns.
type FieldError struct {
	Key   string
	Value string
	Msg   string
	// Then is what FromQuery did instead, the end of Msg ("using the
	// default 50", "ignored"); "" for a validation error.
	Then string
}

// Problem is Msg without what FromQuery did instead: for a caller that
// refuses the query rather than fall back.
func (e FieldError) Problem() string {
	return strings.TrimRight(strings.TrimSuffix(e.Msg, e.Then), "; ")
}

func (e FieldError) Error() string { return e.Msg }

// invalid builds the error every Set returns: `Workers "0": must be between 1 and 500`.
func invalid(label, value, allowed string) error {
	return fmt.Errorf("%s %s: must be %s", label, strconv.Quote(mock.Cut(value)), allowed)
}

// invalidDuration is invalid for a duration field, with the fix
// core.DurationHint offers (hint) first: after the range it read as one
// more rule, behind Latency's own "latency+spread ≤ 30s" (a review).
func invalidDuration(label, value, allowed, hint string) error {
	if hint == "" {
		return invalid(label, value, allowed)
	}
	return fmt.Errorf("%s %s: %s; must be %s", label, strconv.Quote(mock.Cut(value)), strings.TrimPrefix(hint, "; "), allowed)
}

// Text forms of values: durations and floats as core writes them
// (core.FormatDuration: "1m", not "1m0s"; core.FormatFloat: the shortest
// form that parses back exactly).
func formatBool(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "1", "yes":
		return true, true
	case "off", "false", "0", "no":
		return false, true
	}
	return false, false
}

// workersField is the fleet size: up to SimWorkersRange.Max, which only
// Simulate takes; a live Run takes WorkersRange (see Scenario.LiveErrors).
func workersField() Field {
	return intFieldAllowed("workers", "fleet", "Workers", "",
		"How many clients share the limit: the more workers, the bigger the herd when they retry together. A live run takes at most "+
			strconv.Itoa(WorkersRange.Max)+"; Simulate takes up to "+strconv.Itoa(SimWorkersRange.Max)+".",
		SimWorkersRange, "an integer "+SimWorkersRange.String()+" (at most "+strconv.Itoa(WorkersRange.Max)+" for a live run)",
		func(s *Scenario) *int { return &s.Workers })
}

// jobsField is the jobs to run, each worker's (JobsRange) or, with
// jobs_of=fleet, the fleet's in all (TotalJobsRange). Set takes either
// range's numbers; which one applies, and the total's bound of Workers ×
// JobsRange.Max, is a rule between fields (crossRules), checked by
// Validate. Its Max, as shown, is a worker's.
func jobsField() Field {
	f := intFieldAllowed("jobs", "fleet", "Jobs", "", "Requests to get through, per worker or in total (Jobs counted); the run ends when every job succeeded or gave up.",
		TotalJobsRange, "an integer "+JobsRange.String()+" per worker; in total (jobs_of=fleet), between 1 and Workers × "+strconv.Itoa(JobsRange.Max)+" ("+strconv.Itoa(TotalJobsRange.Max)+" at most)",
		func(s *Scenario) *int { return &s.Jobs })
	f.Max = strconv.Itoa(JobsRange.Max)
	return f
}

// Constructors for the fields whose range lives in a core.Range.

func intField(key, group, label, unit, help string, r core.Range[int], ptr func(*Scenario) *int) Field {
	return intFieldAllowed(key, group, label, unit, help, r, "an integer "+r.String(), ptr)
}

// intFieldAllowed is intField with its own text for what is allowed.
func intFieldAllowed(key, group, label, unit, help string, r core.Range[int], allowed string, ptr func(*Scenario) *int) Field {
	return Field{
		Key: key, Group: group, Label: label, Unit: unit, Kind: KindInt, Help: help,
		Min: strconv.Itoa(r.Min), Max: strconv.Itoa(r.Max), allowed: allowed,
		Get: func(s *Scenario) string { return strconv.Itoa(*ptr(s)) },
		Set: func(s *Scenario, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || !r.Contains(n) {
				return invalid(label, v, allowed+groupedHint(v))
			}
			*ptr(s) = n
			return nil
		},
	}
}

func floatField(key, group, label, unit, help string, r core.Range[float64], ptr func(*Scenario) *float64) Field {
	allowed := "a number " + r.String()
	return Field{
		Key: key, Group: group, Label: label, Unit: unit, Kind: KindFloat, Help: help,
		Min: core.FormatFloat(r.Min), Max: core.FormatFloat(r.Max), allowed: allowed,
		Get: func(s *Scenario) string { return core.FormatFloat(*ptr(s)) },
		Set: func(s *Scenario, v string) error {
			t, why := decimalComma(strings.TrimSpace(v))
			f, err := core.ParseFloat(t)
			if err != nil || !r.Contains(f) { // Contains is false for NaN
				return invalid(label, v, allowed+why)
			}
			*ptr(s) = f
			return nil
		},
	}
}

// decimalComma reads a number typed with a decimal comma, as German and
// French write it (and as a phone's decimal keypad in those languages
// types it): "0,5" is 0.5, "1,5s" 1.5s. It reads v's one comma between two
// digits, with no point in v, as a decimal point. A comma before exactly
// three digits after a whole part other than 0 ("2,500") is as likely
// English's thousands separator: v is returned as it is, to be refused,
// with why: the second result, for the field's message. (Refused as "must
// be a number between 1 and 10", "1,5" read as a mistake to whoever
// writes it so.)
func decimalComma(v string) (string, string) {
	i := strings.IndexByte(v, ',')
	if i < 1 || i+1 >= len(v) || strings.Count(v, ",") > 1 || strings.IndexByte(v, '.') >= 0 || !isDigit(v[i-1]) || !isDigit(v[i+1]) {
		return v, ""
	}
	j, k := i+1, i
	for j < len(v) && isDigit(v[j]) {
		j++
	}
	for k > 0 && isDigit(v[k-1]) {
		k--
	}
	if j-i == 4 && strings.TrimLeft(v[k:i], "0") != "" {
		frac := strings.TrimRight(v[i+1:j], "0") // "2.5", not "2.500"
		if frac != "" {
			frac = "." + frac
		}
		return v, "; " + v + " could be " + v[:i] + frac + v[j:] + " or " + v[:i] + v[i+1:] + ": write one of them"
	}
	return v[:i] + "." + v[i+1:], ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// grouped reports whether v is a whole number written with a point before
// its last three digits, as German writes a thousand ("1.000", "12.500"):
// a number field reads it as 1 or 12.5, a count field refuses it.
func grouped(v string) bool {
	v = strings.TrimSpace(v)
	i := strings.IndexByte(v, '.')
	if i < 1 || i > 3 || len(v) != i+4 || v[0] == '0' {
		return false
	}
	for j := range len(v) {
		if j != i && !isDigit(v[j]) {
			return false
		}
	}
	return true
}

// groupedHint is what a count's message adds for a thousand written as
// German writes it (grouped): "; with no thousands separator: 1000". ""
// for anything else.
func groupedHint(v string) string {
	if !grouped(v) {
		return ""
	}
	return "; with no thousands separator: " + strings.Replace(strings.TrimSpace(v), ".", "", 1)
}

// PointNote is what a number field says beside a value it took that
// German writes for a thousand or more, "1.000": what it read, lest a rate
// of 1 be run for one of 1000 without a word. "" for any other value.
func (f *Field) PointNote(s *Scenario, v string) string {
	if f.Kind != KindFloat || !grouped(v) {
		return ""
	}
	return "Read as " + f.Get(s) + ": a point is a decimal point here (a thousand is 1000, with no separator)."
}

func durationField(key, group, label, help string, r core.Range[time.Duration], ptr func(*Scenario) *time.Duration) Field {
	allowed := "a duration " + r.String() + " (e.g. 250ms, 2s, 1m)"
	return Field{
		Key: key, Group: group, Label: label, Kind: KindDuration, Help: help,
		Min: core.FormatDuration(r.Min), Max: core.FormatDuration(r.Max), allowed: allowed,
		Get: func(s *Scenario) string { return core.FormatDuration(*ptr(s)) },
		Set: func(s *Scenario, v string) error {
			t, why := decimalComma(strings.TrimSpace(v))
			d, err := time.ParseDuration(t)
			if err != nil || !r.Contains(d) {
				return invalidDuration(label, v, allowed+why, core.DurationHint(t, core.DurationIn(r)))
			}
			*ptr(s) = d
			return nil
		},
	}
}

func boolField(key, group, label, help string, ptr func(*Scenario) *bool) Field {
	return Field{
		Key: key, Group: group, Label: label, Kind: KindBool, Help: help,
		Get: func(s *Scenario) string { return formatBool(*ptr(s)) },
		Set: func(s *Scenario, v string) error {
			b, ok := parseBool(v)
			if !ok {
				return invalid(label, v, "on or off")
			}
			*ptr(s) = b
			return nil
		},
	}
}

// choiceField builds a KindChoice field over values of T, listed by choices
// (in order) with a label each.
// Not inlined: see the package doc, "Start-up in the browser".
//
//go:noinline
func choiceField[T comparable](key, group, label, help string, choices []T, name func(T) string, labels map[string]string, ptr func(*Scenario) *T) Field {
	cs := make([]Choice, len(choices))
	for i, c := range choices {
		v := name(c)
		l := labels[v]
		if l == "" {
			l = v
		}
		cs[i] = Choice{Value: v, Label: l}
	}
	f := Field{
		Key: key, Group: group, Label: label, Kind: KindChoice, Choices: cs, Help: help,
		Get: func(s *Scenario) string { return name(*ptr(s)) },
	}
	f.Set = func(s *Scenario, v string) error {
		for _, c := range choices {
			// Any case, as a bool field's "ON" is taken: a link's
			// strategy=FULL was refused beside its ra_honour=ON.
			if strings.EqualFold(name(c), strings.TrimSpace(v)) {
				*ptr(s) = c
				return nil
			}
		}
		return invalid(label, v, f.Allowed())
	}
	return f
}

// enumerate lists the values of an iota enum type (0, 1, 2, …) whose
// String method round-trips through parse, up to the first that does not:
// the enum's own package stays the one place that knows its members. (It
// runs at package init, on the page's cold-load path: trying all 256 made
// 250 parse errors for nothing.)
// Not inlined: see the package doc, "Start-up in the browser".
//
//go:noinline
func enumerate[T ~uint8](name func(T) string, parse func(string) (T, bool)) []T {
	var out []T
	for i := 0; i < 256; i++ {
		v := T(i)
		if p, ok := parse(name(v)); !ok || p != v {
			break
		}
		out = append(out, v)
	}
	return out
}

// retrying returns f as a setting of retries: of no effect while the
// strategy is None, as core.Loop stops a job at its first failure before
// it reads a Retry-After, counts attempts or spends from the budget. Max
// attempts, Retry-After and the budget stayed active under None with no
// note, and "None + Honour Retry-After" read as retrying only when the
// server says when (a learner's review).
func (f Field) retrying() Field {
	f.when = append([]condition{{func(s *Scenario) bool { return s.Strategy != core.None }, noRetries}}, f.when...)
	f.retries = true
	return f
}

// noRetries is why a setting of retries has no effect (retrying).
const noRetries = "while the strategy is None (a failure is not retried)"

// with returns f with one more condition of its effect, and why it has
// none without it (NotInEffect).
func (f Field) with(enabled func(*Scenario) bool, why string) Field {
	f.when = append(f.when[:len(f.when):len(f.when)], condition{enabled, why})
	return f
}

// mockOnly returns f as a parameter of the built-in mock, of no effect
// while a custom target replaces it, and also while enabled is false
// (when not nil), for why.
func (f Field) mockOnly(enabled func(*Scenario) bool, why string) Field {
	f = f.with(mockOn, "while a custom target replaces the mock")
	if enabled != nil {
		f = f.with(enabled, why)
	}
	return f
}

// FieldsMarkdown is the table of every parameter for the README: key,
// group, label, allowed values, default and why it matters.
func FieldsMarkdown() string {
	def := Default()
	var b strings.Builder
	b.WriteString("| key | group | parameter | allowed | default | why it matters |\n|---|---|---|---|---|---|\n")
	for i := range Fields {
		f := &Fields[i]
		label := f.Label
		if f.Unit != "" {
			label += " (" + f.Unit + ")"
		}
		d := f.Get(&def)
		if d == "" {
			d = "(empty)"
		}
		cells := []string{"`" + f.Key + "`", f.Group, label, f.Allowed(), "`" + d + "`", f.Help}
		for j, c := range cells {
			cells[j] = strings.ReplaceAll(c, "|", "\\|")
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}
