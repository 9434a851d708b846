//go:build !(js && wasm)

package mock

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// roll is what a request's rolls decided: its outcome and its latency.
type roll struct {
	outcome Outcome
	latency time.Duration
}

// rollAll decides a request with query q plus each tag in tags on a fresh
// handler, in the order given, without waiting for the latencies: what
// each tag rolled, or without a tag each seq.
func rollAll(t *testing.T, q string, tags []string) map[string]roll {
	t.Helper()
	h, _ := newTestHandler(t, Options{})
	got := map[string]roll{}
	for _, tag := range tags {
		qt := q
		if tag != "" {
			qt += "&tag=" + tag
		}
		p, err := ParseQuery(qt)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := h.decide(&p, h.opts.Now(), nil)
		if tag == "" {
			tag = "#" + strconv.FormatUint(a.seq, 10)
		}
		got[tag] = roll{a.outcome, a.latency}
	}
	return got
}

// With seed, a request's injected failure and latency spread are a function
// of the seed and its tag: the same attempt rolls the same in every run
// (another key: a page's run has a fresh one each time), whatever order the
// requests arrive in, so a live run with the page's seed fails the same
// attempts again. They were random, whatever the page's seed. Other seeds
// roll otherwise, and the rolls keep the percentages asked for.
func TestSeededRollsFollowTheTag(t *testing.T) {
	const q = "limiter=none&fail500=20&fail503=10&drop=5&hang=5&latency=10ms&spread=1s"
	var tags, reversed []string
	for w := range 4000 {
		tags = append(tags, "w"+strconv.Itoa(w/4)+".j0.a"+strconv.Itoa(w%4))
	}
	for i := range tags {
		reversed = append(reversed, tags[len(tags)-1-i])
	}
	a := rollAll(t, q+"&seed=7&key=run-a", tags)
	b := rollAll(t, q+"&seed=7&key=run-b", reversed)
	c := rollAll(t, q+"&seed=8&key=run-a", tags)
	same, n := 0, map[Outcome]int{}
	var lo, hi time.Duration = time.Hour, 0
	for _, tag := range tags {
		if a[tag] != b[tag] {
			t.Errorf("%s: %+v with key run-a, %+v with key run-b in reverse order: want the same", tag, a[tag], b[tag])
		}
		if a[tag] == c[tag] {
			same++
		}
		n[a[tag].outcome]++
		lo, hi = min(lo, a[tag].latency), max(hi, a[tag].latency)
	}
	if same > 200 {
		t.Errorf("seeds 7 and 8 rolled the same for %d of 4000 tags", same)
	}
	// 4000 draws: each share within a quarter of what was asked.
	for o, want := range map[Outcome]int{OutcomeFail500: 800, OutcomeFail503: 400, OutcomeDrop: 200, OutcomeHang: 200, OutcomeOK: 2400} {
		if d := n[o] - want; d < -want/4 || d > want/4 {
			t.Errorf("%v: %d of 4000, want about %d", o, n[o], want)
		}
	}
	if lo < 10*time.Millisecond || lo > 20*time.Millisecond || hi < 990*time.Millisecond || hi >= 1010*time.Millisecond {
		t.Errorf("latencies from %v to %v, want 10ms + [0, 1s) spread over it", lo, hi)
	}
}

// Without a tag (curl; a burst, whose requests are all tagged "burst"), a
// seeded request rolls by its key and seq: a fresh key's requests roll
// the same sequence again, and not all alike.
func TestSeededRollsWithoutATag(t *testing.T) {
	const q = "limiter=none&fail500=50&seed=3&key=k"
	tags := make([]string, 200) // no tags
	a, b := rollAll(t, q, tags), rollAll(t, q, tags)
	failed := 0
	for k, r := range a {
		if b[k] != r {
			t.Errorf("%s: %+v, then %+v on a fresh handler", k, r, b[k])
		}
		if r.outcome == OutcomeFail500 {
			failed++
		}
	}
	if len(a) != 200 || failed < 70 || failed > 130 {
		t.Errorf("%d requests numbered, %d failed: want 200, about 100", len(a), failed)
	}

	// A burst's requests roll by seq too, not all as one "burst" tag.
	h, _ := newTestHandler(t, Options{})
	var r struct{ Allowed, Rejected int }
	for range 2 {
		rec := httptest.NewRecorder()
		h.Burst().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mock/burst?n=200&key=b&limiter=none&fail500=50&seed=3", nil))
		var got struct{ Allowed, Rejected int }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 200 {
			t.Fatalf("burst: %d %s", rec.Code, rec.Body)
		}
		if got.Allowed < 70 || got.Allowed > 130 {
			t.Errorf("seeded burst of 200 at 50%% failures: %d allowed", got.Allowed)
		}
		if r.Allowed != 0 && got == r {
			t.Errorf("two seeded bursts on one key rolled alike: %+v (the second's seqs are the next 200)", got)
		}
		r = got
	}
}

// Without seed the rolls are Options.Rand's, as before.
func TestUnseededRollsAreRandom(t *testing.T) {
	r := &fixedRand{vals: []float64{0.1, 0.5, 0.9, 0.25}}
	h, _ := newTestHandler(t, Options{Rand: r.Float64})
	p, err := ParseQuery("limiter=none&fail500=50&spread=1s&tag=w0.j0.a0")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := h.decide(&p, t0, nil)
	b, _ := h.decide(&p, t0, nil)
	if a.outcome != OutcomeFail500 || a.latency != 500*time.Millisecond || b.outcome != OutcomeOK || b.latency != 250*time.Millisecond {
		t.Errorf("same tag, no seed: %v %v then %v %v, want fail500 500ms then ok 250ms (the Rand's draws)", a.outcome, a.latency, b.outcome, b.latency)
	}
}
