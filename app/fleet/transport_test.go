package fleet

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"retrylab/app/mock"
)

// MockFacts reads what encoding/json reads, and no arrival number an int
// cannot hold.
func TestMockFacts(t *testing.T) {
	at := time.Date(2026, 11, 29, 11, 8, 9, 123456000, time.UTC)
	b, err := json.Marshal(mock.Body{Key: "run-x", Tag: "w1-j2-a3", Seq: 4711, Status: 429, Outcome: "limited", Limit: 100, ResetMS: 1.5, Received: at})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		string(b),
		`{"key":"a\"b","seq":3,"received":"2026-11-29T11:08:09.5Z"}`,
		`{"seq":0,"received":"2026-11-29T11:08:09.5Z"}`,
		`{"seq":12}`,
		`{"seq":9223372036854775808,"received":"2026-11-29T11:08:09.5Z"}`, // past the largest int: read as -9223372036854775808
		`{"seq":18446744073709551615}`,
		`not json "seq":1 "received":"2026-11-29T11:08:09.5Z"`,
		`{"seq":"7","received":"2026-11-29T11:08:09.5Z"}`,
		``,
	} {
		var mb mock.Body
		jerr := json.Unmarshal([]byte(body), &mb)
		wantOK := jerr == nil && mb.Seq != 0 && mb.Seq <= math.MaxInt // a seq an int cannot hold is no arrival number
		seq, at, ok := MockFacts([]byte(body))
		if ok != wantOK || (ok && (seq != int(mb.Seq) || !at.Equal(mb.Received))) {
			t.Errorf("MockFacts(%s) = %d %v %v, encoding/json says %d %v %v", body, seq, at, ok, mb.Seq, mb.Received, wantOK)
		}
	}
}
