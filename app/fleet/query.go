package fleet

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"retrylab/app/mock"
)

// Query encodes the whole configuration, every field included (also those
// equal to their default, so a shared link keeps meaning the same run if a
// default changes later). FromQuery(s.Query()) returns s for every valid s.
// Endpoint fields use app/mock's own parameter names and values, so that part
// of the page's URL reads like the mock URL it produces.
func (s Scenario) Query() url.Values {
	q := make(url.Values, len(Fields))
	for i := range Fields {
		q.Set(Fields[i].Key, Fields[i].Get(&s))
	}
	return q
}

// Encode is Query as a query string in Fields order (url.Values.Encode would
// sort the keys): "workers=20&jobs=3&…".
func (s Scenario) Encode() string {
	var b strings.Builder
	for i := range Fields {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(Fields[i].Key))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(Fields[i].Get(&s)))
	}
	return b.String()
}

// EncodeChanged is Encode without the fields that hold their default: a
// short link (a room's join link, read off a projector or a QR code) that
// FromQuery reads back to s, on the same version of Retry Lab.
func (s Scenario) EncodeChanged() string {
	def := Default()
	var b strings.Builder
	for i := range Fields {
		v := Fields[i].Get(&s)
		if v == Fields[i].Get(&def) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(Fields[i].Key))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	return b.String()
}

// ParseQuery parses a page URL's raw query as url.ParseQuery does, with a
// notice for each parameter it cannot read instead of one error for the
// first: a field's says its value is not valid URL encoding and that the
// field keeps its default (or, given again validly, that this one is
// ignored), beside the field's input; another names the parameter.
func ParseQuery(raw string) (url.Values, []FieldError) {
	q := url.Values{}
	type bad struct{ key, value, why string }
	var bads []bad
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		rawKey, rawValue, _ := strings.Cut(pair, "=")
		if first, rest, semi := strings.Cut(pair, ";"); semi {
			rawKey, rawValue, _ = strings.Cut(first, "=")
			bads = append(bads, bad{rawKey, rawValue + ";" + rest, "a semicolon is not a separator: write &"})
			// Each pair after it is named too, beside its own input:
			// workers=5;jobs=3 lost jobs, and only Workers said so (a
			// review).
			for p := range strings.SplitSeq(rest, ";") {
				if k, v, _ := strings.Cut(p, "="); k != "" {
					if uk, err := url.QueryUnescape(k); err == nil {
						k = uk
					}
					bads = append(bads, bad{k, v, "after a semicolon, which is not a separator: write &"})
				}
			}
			continue
		}
		key, err := url.QueryUnescape(rawKey)
		if err != nil {
			bads = append(bads, bad{rawKey, rawValue, err.Error()})
			continue
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			bads = append(bads, bad{key, rawValue, err.Error()})
			continue
		}
		q[key] = append(q[key], value)
	}
	var notes []FieldError
	def := Default()
	for _, b := range bads {
		then := "ignored"
		f, ok := FieldByKey(b.key)
		if ok && !q.Has(b.key) {
			then = f.fallBack(&def)
		}
		what := "parameter " + strconv.Quote(mock.Cut(b.key))
		if ok {
			what = f.Label + " " + strconv.Quote(mock.Cut(b.value))
		}
		notes = append(notes, FieldError{Key: b.key, Value: b.value, Msg: what + ": not valid URL encoding (" + b.why + "); " + then, Then: then})
	}
	return q, notes
}

// FromQuery builds a Scenario from a page URL's query, field by field,
// starting from Default: a missing field keeps its default, and so does a
// field whose value is not allowed, which also yields a notice naming the
// field, the value received and what is allowed. A key given more than once
// uses its first value (with a notice); keys that are not fields are
// reported and ignored. Rules between fields are then checked as Validate
// does, and a field that breaks one is put back to its default (with a
// notice), so the Scenario returned always passes Validate.
func FromQuery(q url.Values) (Scenario, []FieldError) {
	// Three steps, each its own function: the page runs this on load for the
	// URL and every preset, and a long function that loops is sent to
	// Chromium's optimising compiler (doc.go, "Start-up in the browser").
	def := Default()
	s, notes := fieldsFromQuery(q, def)
	notes = append(notes, unknownParams(q)...)
	return settleCrossRules(s, def, notes)
}

// fieldsFromQuery sets each field given in q on def, the defaults, with a
// notice for each value not allowed (the field keeps its default) and each
// key given more than once: one notice a key, for its first value, the one
// used.
func fieldsFromQuery(q url.Values, def Scenario) (Scenario, []FieldError) {
	s := def
	var notes []FieldError
	for i := range Fields {
		f := &Fields[i]
		vs, ok := q[f.Key]
		if !ok || len(vs) == 0 {
			continue
		}
		v := vs[0]
		err := f.Set(&s, v)
		switch {
		case err != nil:
			// One notice: a first value refused is not used either (it
			// said "using the first value", then "using the default").
			then, msg := f.fallBack(&def), err.Error()
			if len(vs) > 1 {
				// After the value, where invalid writes it.
				named := f.Label + " " + strconv.Quote(mock.Cut(v))
				msg = named + " (the first of " + strconv.Itoa(len(vs)) + " values given)" + strings.TrimPrefix(msg, named)
			}
			notes = append(notes, FieldError{Key: f.Key, Value: v, Msg: msg + "; " + then, Then: then})
		case len(vs) > 1:
			notes = append(notes, FieldError{Key: f.Key, Value: strings.Join(vs, ","),
				Msg:  f.Label + " (" + f.Key + ") is given " + strconv.Itoa(len(vs)) + " times; using the first value, " + strconv.Quote(mock.Cut(v)),
				Then: "using the first value, " + strconv.Quote(mock.Cut(v))})
		}
	}
	return s, notes
}

// fallBack says what f falls back to: "using the default 50", or
// "leaving it empty" for a field whose default is empty (a custom target,
// a room), where "using the default " would end with nothing.
func (f *Field) fallBack(def *Scenario) string {
	if v := f.Get(def); v != "" {
		return "using the default " + v
	}
	return "leaving it empty"
}

// unknownParams reports the keys of q that are not fields, in order.
func unknownParams(q url.Values) []FieldError {
	var unknown []string
	for k := range q {
		if _, ok := FieldByKey(k); !ok {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	notes := make([]FieldError, len(unknown))
	for i, k := range unknown {
		notes[i] = FieldError{Key: k, Value: strings.Join(q[k], ","),
			Msg: "unknown parameter " + strconv.Quote(mock.Cut(k)) + " ignored", Then: "ignored"}
	}
	return notes
}

// settleCrossRules applies the rules between fields: the blamed field goes
// back to its default until every rule passes, each round fixing at least
// one field; if they still fail, the whole Scenario is the default.
func settleCrossRules(s, def Scenario, notes []FieldError) (Scenario, []FieldError) {
	for range len(Fields) {
		errs := s.crossErrors(nil, nil)
		if len(errs) == 0 {
			return s, notes
		}
		for _, e := range errs {
			f, ok := FieldByKey(e.Key)
			if !ok {
				continue
			}
			_ = f.Set(&s, f.Get(&def))
			then := f.fallBack(&def)
			notes = append(notes, FieldError{Key: e.Key, Value: e.Value, Msg: e.Msg + "; " + then, Then: then})
		}
	}
	if errs := s.crossErrors(nil, nil); len(errs) > 0 {
		for _, e := range errs {
			notes = append(notes, FieldError{Key: e.Key, Value: e.Value, Msg: e.Msg + "; using the default configuration", Then: "using the default configuration"})
		}
		s = def
	}
	return s, notes
}
