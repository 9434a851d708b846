package ui

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/jsonlite"
	"retrylab/app/jsonlite/jsontest"
	"retrylab/app/mock"
)

// answerCases are the server's answers as it writes them, and odd ones.
var answerCases = []string{
	`{"lan":true,"origins":["http://192.168.1.20:8080","http://[fe80::1]:8080"],"hint":""}`,
	`{"lan":false,"origins":[],"hint":"The server listens on loopback only: restart it with -host 0.0.0.0."}`,
	`{"key":"run-6f1c2a","at":"2026-12-04T04:01:02.123456789Z","n":20,"allowed":3,"rejected":17,"outage":0}` + "\n",
	`{"key":"run-6f1c2a","from":"2026-12-04T04:01:02.5Z","until":"2026-12-04T04:01:05.5Z"}` + "\n",
	`{"key":"room-1","from":"2026-12-04T04:01:02.5Z","until":"2026-12-04T04:01:07.5Z","scale":0.5}` + "\n",
	`{"error":"n: want a whole number from 1 to 1000","param":"n","value":"0","allowed":"1 to 1000"}` + "\n",
	`{"ERROR":"x","Origins":null,"LAN":null,"N":1e1,"Scale":"0.5"}`, `{"origins":["a",null],"origins":[null,"b","c"]}`,
	`{"n":1.5}`, `{"at":"yesterday"}`, `{"error":5}`, `{"origins":"a"}`, `{"hint":["a"]}`, `{"\u0066rom":"2026-12-04T04:01:02Z"}`,
	`null`, `[]`, `<html>`, ``, `{"error":"x"} {}`, `{"error":"\u00e9\ud83d\ude00"}`,
}

// checkAnswer checks that decoding s into a T with jsonlite.ReadObject
// and its member method gives what json.Unmarshal gives.
func checkAnswer[T any, P interface {
	*T
	member(*jsonlite.Reader, string) bool
}](t *testing.T, s string) {
	t.Helper()
	var got, want T
	werr := json.Unmarshal([]byte(s), &want)
	gerr := jsonlite.ReadObject(s, P(&got).member)
	if gerr != nil && werr == nil && !jsontest.StrictTimes(s, "at", "until") {
		return // jsonlite refuses a time RFC 3339 does not allow (jsontest)
	}
	if (gerr == nil) != (werr == nil) {
		t.Errorf("%q as %T: error %v, encoding/json's %v", s, got, gerr, werr)
	} else if werr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%q as %T:\n got %+v\nwant %+v", s, got, got, want)
	}
}

func checkAnswers(t *testing.T, s string) {
	t.Helper()
	checkAnswer[joinAnswer](t, s)
	checkAnswer[burstAnswer](t, s)
	checkAnswer[switchAnswer](t, s)
	checkAnswer[errorAnswer](t, s)
}

// The page reads the server's answers as encoding/json would.
func TestAnswersDecodeAsEncodingJSON(t *testing.T) {
	for _, s := range answerCases {
		checkAnswers(t, s)
	}
}

func FuzzAnswers(f *testing.F) {
	for _, s := range answerCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAnswers(t, s) })
}

// quietView is a view that draws no frame: its fields are the test's to
// read. A running view's frame comes from a goroutine after the frames'
// least gap (view.request), which on a loaded machine ingested while the
// test read, and go test -race said so (a fresh-clone CI, 2026-12-05).
func quietView() *view {
	v := newView()
	v.frames = nil
	return v
}

// tell takes a fault's event in as onServerEvent takes in the stream's
// message of it: the same event for the model, and a message a replay
// reads back as it (the key aside, which the model reads nothing of).
func TestTellIsAStreamMessage(t *testing.T) {
	for _, e := range []mock.Event{
		{Type: "burst", Key: "run-1", At: at(300), N: 20, Admitted: 7},
		{Type: "burst", Key: "r\"1", At: at(300).In(time.FixedZone("", 3600)), N: 20},
		{Type: "outage", Key: "run-1", At: at(500), Until: at(3500)},
		{Type: "outage", Key: "run-1", At: at(500), Until: at(500)},
		{Type: "limit", Key: "run-1", At: at(700).Add(123456789), Until: at(5700), Scale: 0.5},
		{Type: "limit", Key: "run-1", At: at(700), Until: at(5700), Scale: 1e-7},
	} {
		told, streamed := quietView(), quietView()
		told.start(fleet.Default(), t0, "")
		streamed.start(fleet.Default(), t0, "")
		told.tell(e)
		msg, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		streamed.onServerEvent(string(msg))
		if !reflect.DeepEqual(told.srv, streamed.srv) || len(told.srvLog) != 1 || len(streamed.srvLog) != 1 || !told.dirty {
			t.Fatalf("%+v: told %+v %q, streamed %+v %q", e, told.srv, told.srvLog, streamed.srv, streamed.srvLog)
		}
		var back mock.Event
		if err := mock.DecodeEvent(told.srvLog[0], &back); err != nil {
			t.Fatalf("%q: %v", told.srvLog[0], err)
		}
		if want := e; !reflect.DeepEqual(back, want) || !back.At.Equal(e.At) {
			t.Errorf("%q reads back as %+v, want %+v", told.srvLog[0], back, want)
		}
	}
	// In a watch, which is never replayed, neither keeps the message.
	s := fleet.Default()
	s.Room = "r1"
	told := quietView()
	told.startWatch(s, t0)
	told.tell(mock.Event{Type: "burst", At: at(300), N: 20})
	if len(told.srv) != 1 || len(told.srvLog) != 0 {
		t.Errorf("a watch: srv %+v, log %q", told.srv, told.srvLog)
	}
}
