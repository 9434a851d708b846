package mock

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// checkEventJSON checks e's JSON against encoding/json's, or that both
// refuse it.
func checkEventJSON(t *testing.T, e *Event) {
	t.Helper()
	got, err := e.JSON()
	want, wantErr := json.Marshal(e)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%+v: JSON's error %v, encoding/json's %v", e, err, wantErr)
	}
	if wantErr == nil && got != string(want) {
		t.Errorf("%+v:\n JSON %s\nencoding/json %s", e, got, want)
	}
}

func TestEventJSONIsEncodingJSONs(t *testing.T) {
	at := time.Date(2026, 12, 4, 4, 5, 6, 789, time.UTC)
	for _, e := range []Event{
		{},
		{Type: "hello", Key: "k"},
		{Type: "arrival", Key: "k <1> & \u2028", Tag: "t", Seq: math.MaxUint64, At: at, Outcome: "limited", Status: 429, Allowed: true,
			Limit: 10, Remaining: -1, ResetMS: 1e-7, RetryAfterMS: 1e21, LatencyMS: 0.5},
		{Type: "end", Key: "k", Seq: 3, At: at, End: "cancelled", ElapsedMS: 12.25},
		{Type: "dropped", Key: "k", Dropped: 7},
		{Type: "outage", Key: "k", At: at, Until: at.Add(time.Second)},
		{Type: "limit", Key: "k", At: at.In(time.FixedZone("", -7200)), Until: at, Scale: 0.5},
		{Type: "burst", Key: "\xff", At: at, N: 40, Admitted: 3, Scale: math.Copysign(0, -1)},
		{Type: "limit", Scale: math.NaN()},
		{Type: "outage", At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		checkEventJSON(t, &e)
	}
}

func FuzzEventJSON(f *testing.F) {
	f.Add("arrival", "k", "", uint64(1), int64(1e18), "ok", 200, true, 10, 9, 1.5, 0.0, 3.25, "", 0.0, uint64(0), int64(0), 0.0, 0, 0)
	f.Add("burst", "<k>", "\u2029", uint64(0), int64(0), "", 0, false, 0, 0, 0.0, 0.0, 0.0, "sent", 1e-9, uint64(5), int64(-1e18), 0.5, 40, 2)
	f.Fuzz(func(t *testing.T, typ, key, tag string, seq uint64, atNS int64, outcome string, status int, allowed bool, limit, remaining int,
		reset, retryAfter, latency float64, end string, elapsed float64, dropped uint64, untilNS int64, scale float64, n, admitted int) {
		e := Event{Type: typ, Key: key, Tag: tag, Seq: seq, Outcome: outcome, Status: status, Allowed: allowed, Limit: limit, Remaining: remaining,
			ResetMS: reset, RetryAfterMS: retryAfter, LatencyMS: latency, End: end, ElapsedMS: elapsed, Dropped: dropped, Scale: scale, N: n, Admitted: admitted}
		if atNS != 0 {
			e.At = time.Unix(0, atNS).UTC()
		}
		if untilNS != 0 {
			e.Until = time.Unix(0, untilNS)
		}
		checkEventJSON(t, &e)
	})
}
