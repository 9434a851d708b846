package fleet

import (
	"net/url"
	"reflect"
	"testing"
)

// A query that is not valid URL encoding gets a notice per parameter it
// cannot read, naming the field; it said only "not valid URL encoding
// (invalid URL escape "%ZZ"); fields that could be read were used", and
// Workers went back to its default with nothing beside its input.
func TestParseQueryNamesWhatItCannotRead(t *testing.T) {
	for _, c := range []struct {
		raw   string
		q     url.Values
		notes []FieldError
	}{
		{"workers=%ZZ&jobs=3", url.Values{"jobs": {"3"}}, []FieldError{{Key: "workers", Value: "%ZZ",
			Msg: `Workers "%ZZ": not valid URL encoding (invalid URL escape "%ZZ"); using the default 50`, Then: "using the default 50"}}},
		{"workers=%ZZ&workers=5", url.Values{"workers": {"5"}}, []FieldError{{Key: "workers", Value: "%ZZ",
			Msg: `Workers "%ZZ": not valid URL encoding (invalid URL escape "%ZZ"); ignored`, Then: "ignored"}}},
		{"base=%E0%A4%A&seed=%zz1", url.Values{}, []FieldError{
			{Key: "base", Value: "%E0%A4%A", Msg: `Base "%E0%A4%A": not valid URL encoding (invalid URL escape "%A"); using the default 100ms`, Then: "using the default 100ms"},
			{Key: "seed", Value: "%zz1", Msg: `Random seed "%zz1": not valid URL encoding (invalid URL escape "%zz"); using the default 1`, Then: "using the default 1"}}},
		{"%ZZ=1&jobs=2", url.Values{"jobs": {"2"}}, []FieldError{{Key: "%ZZ", Value: "1",
			Msg: `parameter "%ZZ": not valid URL encoding (invalid URL escape "%ZZ"); ignored`, Then: "ignored"}}},
		{"nope=%2&jobs=2", url.Values{"jobs": {"2"}}, []FieldError{{Key: "nope", Value: "%2",
			Msg: `parameter "nope": not valid URL encoding (invalid URL escape "%2"); ignored`, Then: "ignored"}}},
		{"jobs=2;workers=3", url.Values{}, []FieldError{{Key: "jobs", Value: "2;workers=3",
			Msg: `Jobs "2;workers=3": not valid URL encoding (a semicolon is not a separator: write &); using the default 2`, Then: "using the default 2"},
			{Key: "workers", Value: "3", Msg: `Workers "3": not valid URL encoding (after a semicolon, which is not a separator: write &); using the default 50`, Then: "using the default 50"}}},
		// Each pair after a semicolon is named, beside its own input
		// (workers=5;jobs=3 lost jobs, and only Workers said so); one
		// given again validly keeps that value.
		{"workers=5;jobs=3;nope=1;seed=%zz&seed=9", url.Values{"seed": {"9"}}, []FieldError{
			{Key: "workers", Value: "5;jobs=3;nope=1;seed=%zz", Msg: `Workers "5;jobs=3;nope=1;seed=%zz": not valid URL encoding (a semicolon is not a separator: write &); using the default 50`, Then: "using the default 50"},
			{Key: "jobs", Value: "3", Msg: `Jobs "3": not valid URL encoding (after a semicolon, which is not a separator: write &); using the default 2`, Then: "using the default 2"},
			{Key: "nope", Value: "1", Msg: `parameter "nope": not valid URL encoding (after a semicolon, which is not a separator: write &); ignored`, Then: "ignored"},
			{Key: "seed", Value: "%zz", Msg: `Random seed "%zz": not valid URL encoding (after a semicolon, which is not a separator: write &); ignored`, Then: "ignored"}}},
		{"jobs=2&&workers=3&", url.Values{"jobs": {"2"}, "workers": {"3"}}, nil},
	} {
		q, notes := ParseQuery(c.raw)
		if !reflect.DeepEqual(q, c.q) || !reflect.DeepEqual(notes, c.notes) {
			t.Errorf("ParseQuery(%q) =\n %v, %#v\nwant\n %v, %#v", c.raw, q, notes, c.q, c.notes)
		}
	}
}

// ParseQuery reads what url.ParseQuery reads, and has a notice exactly
// when it fails.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"workers=%ZZ&jobs=3", "a=1&a=2&b", "x;y=1", "%41=%42&=1&c=", "base=%E0%A4%A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, notes := ParseQuery(raw)
		want, err := url.ParseQuery(raw)
		if !reflect.DeepEqual(q, want) || (len(notes) > 0) != (err != nil) {
			t.Errorf("ParseQuery(%q) = %v, %d notes; url.ParseQuery: %v, %v", raw, q, len(notes), want, err)
		}
	})
}
