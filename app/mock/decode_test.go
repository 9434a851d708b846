package mock

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// The hand-written decoder of stream messages agrees with encoding/json.
func TestDecodeEventMatchesJSON(t *testing.T) {
	at := time.Date(2026, 11, 29, 11, 8, 9, 123456789, time.UTC)
	events := []Event{
		{Type: "hello", Key: "run-abc"},
		{Type: "arrival", Key: "k", Tag: "w12-j1-a3", Seq: 42, At: at, Outcome: "limited", Status: 429, Limit: 100, Remaining: 0, ResetMS: 12.5, RetryAfterMS: 9.75, LatencyMS: 100},
		{Type: "arrival", Key: "k", Seq: 7, At: at, Outcome: "ok", Status: 200, Allowed: true, Limit: 10, Remaining: 3},
		{Type: "end", Key: "k", Seq: 42, At: at, End: "cancelled", ElapsedMS: 3.25},
		{Type: "dropped", Key: "k", Dropped: 17},
		{Type: "outage", Key: "k", At: at, Until: at.Add(3 * time.Second)},
		{Type: "limit", Key: "k", At: at, Until: at.Add(5 * time.Second), Scale: 0.5},
		{Type: "burst", Key: "k", At: at, N: 20, Admitted: 7},
		everyField(at),
	}
	for _, want := range events {
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if !decodeFlat(string(b), new(Event).field) {
			t.Errorf("%s: fast path refused it", b)
		}
		var got Event
		if err := DecodeEvent(string(b), &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(got, want) || !got.At.Equal(want.At) {
			t.Errorf("%s:\n got %+v\nwant %+v", b, got, want)
		}
	}
	// Escapes and odd shapes go to encoding/json.
	for _, s := range []string{`{"type":"arrival","tag":"a\"b","seq":1}`, `{"type":"end","extra":{"x":1},"seq":2}`, ` { "type" : "end" , "seq" : 3 } `} {
		var want, got Event
		werr := json.Unmarshal([]byte(s), &want)
		gerr := DecodeEvent(s, &got)
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v (%v), want %+v (%v)", s, got, gerr, want, werr)
		}
	}
	var e Event
	if DecodeEvent(`not json`, &e) == nil {
		t.Error("decoded garbage")
	}
}

// everyField is an Event with every field set, so a field added to
// Event that the fast path does not decode fails the test above.
func everyField(at time.Time) Event {
	var e Event
	fill(&e, at)
	return e
}

// fill sets every field of the struct p points to.
func fill(p any, at time.Time) {
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Interface().(type) {
		case string:
			f.SetString("x" + v.Type().Field(i).Name)
		case int:
			f.SetInt(int64(i + 1))
		case uint64:
			f.SetUint(uint64(i + 1))
		case float64:
			f.SetFloat(float64(i) + 0.25)
		case bool:
			f.SetBool(true)
		case time.Time:
			f.Set(reflect.ValueOf(at.Add(time.Duration(i) * time.Second)))
		default:
			panic("fill: a field of a new type: " + v.Type().Field(i).Name)
		}
	}
}

// The fast path reads every field of a Body as encoding/json does, so a
// field added to Body that it does not decode fails this test.
func TestDecodeBodyMatchesJSON(t *testing.T) {
	var want Body
	fill(&want, time.Date(2026, 11, 29, 11, 8, 9, 123456000, time.UTC))
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got Body
	if !decodeFlat(string(b), got.field) {
		t.Errorf("%s: fast path refused it", b)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", b, got, want)
	}
}

// FuzzDecodeEvent: the hand-written fast path and encoding/json agree on
// every message: both accept it (with the same Event) or both refuse it.
func FuzzDecodeEvent(f *testing.F) {
	at := time.Date(2026, 11, 29, 11, 8, 9, 123456789, time.UTC)
	for _, e := range []Event{everyField(at), {Type: "hello", Key: "k"}, {Type: "arrival", Seq: 3, At: at, Status: 429, ResetMS: 1.5}} {
		b, _ := json.Marshal(e)
		f.Add(string(b))
	}
	for _, s := range []string{`{}`, ` { "type" : "end" , "seq" : 3 } `, `{"type":"arrival","tag":"a\"b","seq":1}`, `{"x":{"a":1}}`, `{"seq":null}`, `not json`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want Event
		gerr := DecodeEvent(s, &got)
		werr := json.Unmarshal([]byte(s), &want)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: decodeEvent error %v, encoding/json error %v", s, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

// FuzzDecodeBody: DecodeBody agrees with encoding/json on every body.
func FuzzDecodeBody(f *testing.F) {
	var all Body
	fill(&all, time.Date(2026, 11, 29, 11, 8, 9, 123456000, time.UTC))
	for _, b := range []Body{all, {Key: "run-x", Tag: "w1-j2-a3", Seq: 4711, Status: 429, Outcome: "limited", Limit: 100, ResetMS: 1.5}} {
		s, _ := json.Marshal(b)
		f.Add(string(s))
	}
	for _, s := range []string{`{"seq":12}`, `{"seq":"7","received":"2026-11-29T11:08:09.5Z"}`, `{"key":"a\"b","seq":3}`, `{"inner":{"seq":5}}`, `not json`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want Body
		gerr := DecodeBody([]byte(s), &got)
		werr := json.Unmarshal([]byte(s), &want)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: DecodeBody error %v, encoding/json error %v", s, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}
