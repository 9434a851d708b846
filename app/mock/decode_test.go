package mock

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"retrylab/app/jsonlite/jsontest"
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
		var got Event
		if err := DecodeEvent(string(b), &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(got, want) || !got.At.Equal(want.At) {
			t.Errorf("%s:\n got %+v\nwant %+v", b, got, want)
		}
	}
	// Escapes, odd shapes, keys in other cases, duplicates, null, numbers
	// in every form, and errors: as encoding/json.
	for _, s := range oddMessages {
		var want, got Event
		werr := json.Unmarshal([]byte(s), &want)
		gerr := DecodeEvent(s, &got)
		if (werr == nil) != (gerr == nil) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v (%v), want %+v (%v)", s, got, gerr, want, werr)
		}
		var wantB, gotB Body
		werr = json.Unmarshal([]byte(s), &wantB)
		gerr = DecodeBody([]byte(s), &gotB)
		if (werr == nil) != (gerr == nil) || werr == nil && !reflect.DeepEqual(gotB, wantB) {
			t.Errorf("%s as a body: got %+v (%v), want %+v (%v)", s, gotB, gerr, wantB, werr)
		}
	}
	var e Event
	if DecodeEvent(`not json`, &e) == nil {
		t.Error("decoded garbage")
	}
}

// oddMessages are stream messages and bodies the server does not send but
// encoding/json would read, and some it would refuse.
var oddMessages = []string{
	`{"type":"arrival","tag":"a\"b","seq":1}`, `{"type":"end","extra":{"x":1},"seq":2}`, ` { "type" : "end" , "seq" : 3 } `,
	`{"type":"arr\u0069val","key":"\ud83d\ude00\ud800","tag":"\t\n\/"}`, "{\"key\":\"\xff\"}",
	`{"TYPE":"hello","Key":"k","SEQ":4,"Reset_MS":1.5,"\u017feq":5,"\u212aey":"kelvin","at\u0000":1}`,
	`{"seq":1,"seq":null,"seq":2,"type":"a","type":null}`, `{"status":null,"at":null,"received":null,"allowed":null}`,
	`{"x":[1,[2,{"y":[]}],{"z":{"w":null}}],"status":200,"q":"\u0000","r":-1.5e-7,"s":true}`,
	`{"seq":1e2}`, `{"seq":-0}`, `{"seq":18446744073709551615}`, `{"seq":18446744073709551616}`, `{"status":-0}`,
	`{"status":9223372036854775807}`, `{"status":9223372036854775808}`, `{"status":1.0}`, `{"reset_ms":1E+2}`,
	`{"reset_ms":1e400}`, `{"reset_ms":-1e-400}`, `{"limit":"5"}`, `{"allowed":"true"}`, `{"allowed":1}`,
	`{"at":"2026-12-04T04:01:02.5+01:00","until":"2026-12-04T04:01:02Z","received":"2026-12-04T04:01:02.123Z"}`,
	`{"at":"2026-12-04T04:01:02\u002e5Z"}`, `{"at":5}`, `{"at":{}}`, `{"received":"yesterday"}`, `{"type":5}`,
	`{"type":["a"]}`, `{"seq":{}}`, `null`, ` null `, `[]`, `"x"`, `5`, `{}`, `{"a":1,}`, `{"a" 1}`, `{"type":"a"} x`,
	`{"type":"a"`, `{"x":[1,2}`, `{"x":tru}`, `{"seq":01}`, `{"seq":+1}`, `{"seq":.5}`, ``,
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
	if err := DecodeBody(b, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", b, got, want)
	}
}

// FuzzDecodeEvent: DecodeEvent and encoding/json agree on every message:
// both accept it (with the same Event) or both refuse it.
func FuzzDecodeEvent(f *testing.F) {
	at := time.Date(2026, 11, 29, 11, 8, 9, 123456789, time.UTC)
	for _, e := range []Event{everyField(at), {Type: "hello", Key: "k"}, {Type: "arrival", Seq: 3, At: at, Status: 429, ResetMS: 1.5}} {
		b, _ := json.Marshal(e)
		f.Add(string(b))
	}
	for _, s := range []string{`{}`, ` { "type" : "end" , "seq" : 3 } `, `{"type":"arrival","tag":"a\"b","seq":1}`, `{"x":{"a":1}}`, `{"seq":null}`, `not json`} {
		f.Add(s)
	}
	for _, s := range oddMessages {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want Event
		gerr := DecodeEvent(s, &got)
		werr := json.Unmarshal([]byte(s), &want)
		if gerr != nil && werr == nil && !jsontest.StrictTimes(s, "at", "until") {
			return // jsonlite refuses what RFC 3339 does not allow (jsontest)
		}
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: decodeEvent error %v, encoding/json error %v", s, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

// FuzzDecodeBody: DecodeBody agrees with encoding/json on every body, but
// for a time RFC 3339 does not allow, which it refuses.
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
	for _, s := range oddMessages {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want Body
		gerr := DecodeBody([]byte(s), &got)
		werr := json.Unmarshal([]byte(s), &want)
		if gerr != nil && werr == nil && !jsontest.StrictTimes(s, "received") {
			return // jsonlite refuses what RFC 3339 does not allow (jsontest)
		}
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: DecodeBody error %v, encoding/json error %v", s, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}
