package ui

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"retrylab/app/mock"
)

// The hand-written decoder of stream messages agrees with encoding/json.
func TestDecodeEventMatchesJSON(t *testing.T) {
	at := time.Date(2026, 11, 29, 11, 8, 9, 123456789, time.UTC)
	events := []mock.Event{
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
		if !fastEvent(string(b), new(mock.Event)) {
			t.Errorf("%s: fast path refused it", b)
		}
		var got mock.Event
		if err := decodeEvent(string(b), &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(got, want) || !got.At.Equal(want.At) {
			t.Errorf("%s:\n got %+v\nwant %+v", b, got, want)
		}
	}
	// Escapes and odd shapes go to encoding/json.
	for _, s := range []string{`{"type":"arrival","tag":"a\"b","seq":1}`, `{"type":"end","extra":{"x":1},"seq":2}`, ` { "type" : "end" , "seq" : 3 } `} {
		var want, got mock.Event
		werr := json.Unmarshal([]byte(s), &want)
		gerr := decodeEvent(s, &got)
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v (%v), want %+v (%v)", s, got, gerr, want, werr)
		}
	}
	var e mock.Event
	if decodeEvent(`not json`, &e) == nil {
		t.Error("decoded garbage")
	}
}

// everyField is an Event with every field set, so a field added to
// mock.Event that the fast path does not decode fails the test above.
func everyField(at time.Time) mock.Event {
	var e mock.Event
	v := reflect.ValueOf(&e).Elem()
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
			panic("everyField: a field of a new type: " + v.Type().Field(i).Name)
		}
	}
	return e
}
