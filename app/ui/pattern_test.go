package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
)

// hatchOf is how a display list patterns what it just filled: each Hatch
// after a ClipPath, as "spacing/dash" (spacing < 0: falling lines), until
// the Restore; "" for none (solid).
func hatchOf(ops []displayOp, i int) string {
	if i+1 >= len(ops) || ops[i+1].code != 17 {
		return ""
	}
	out, dash := "", float32(0)
	for _, op := range ops[i+2:] {
		switch op.code {
		case 2:
			dash = op.args[2]
		case 14:
			out += fmt.Sprintf("%g/%g ", op.args[4], dash)
		case 13:
			return out
		}
	}
	return out
}

// TestHistogramPatternsTheOutcomes: the histogram's stacked bars differ by
// pattern as well as colour, as the lanes' marks do by shape: in
// greyscale, a bar's 2xx green and 429 vermillion were one grey, told
// apart only by which was stacked first. 2xx and in flight are solid,
// 429/503 hatched, other failures hatched the other way, timeouts dotted,
// aborted crossed; each pattern is drawn clipped to its class's bars
// only, in every theme, and the PNG's legend shows the same patterns.
func TestHistogramPatternsTheOutcomes(t *testing.T) {
	outcomes := []core.Outcome{
		{Status: 200}, {Status: 429}, {Status: 503}, {Status: 500},
		{Err: fmt.Errorf("get: %w", context.DeadlineExceeded)},
		{Err: fmt.Errorf("get: %w", context.Canceled)},
		{Err: errors.New("dropped")},
	}
	m := newModel(t0, len(outcomes)+1)
	for w, oc := range outcomes {
		for _, r := range []fleet.Record{
			{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: at(100), Intended: at(100), Attempt: 1}},
			{Worker: w, Event: core.Event{Kind: core.EventOutcome, At: at(150), Attempt: 1, Outcome: oc}},
		} {
			m.add(&r)
		}
	}
	pending := fleet.Record{Worker: len(outcomes), Event: core.Event{Kind: core.EventAttempt, At: at(120), Intended: at(120), Attempt: 1}}
	m.add(&pending)
	want := map[int]fleet.Class{}
	for c, col := range classColour {
		want[col] = fleet.Class(c)
	}
	for _, th := range []*theme{&normalTheme, &darkTheme, &presentTheme} {
		l := newLayout(1000, m.workers, 2*time.Second, th)
		var o browser.Ops
		paint(&o, &l, m, frameInput{th: th, running: true, now: 200 * time.Millisecond, lim: limits{server: 10, serverLabel: "server limit 10 req/s"}})
		ops := displayOps(&o)
		got := map[fleet.Class]string{}
		fill := -1
		for i, op := range ops {
			switch op.code {
			case 1:
				fill = int(op.args[0])
			case 8:
				// A path of rectangles in the histogram: a class's bars.
				if i == 0 || ops[i-1].code != 15 || ops[i-1].args[1] < float32(l.histTop) || ops[i-1].args[1] > float32(l.histTop+l.histH) {
					continue
				}
				c, ok := want[fill]
				if !ok {
					t.Fatalf("%s: histogram bars in colour %d, no outcome's", th.name, fill)
				}
				got[c] = hatchOf(ops, i)
			}
		}
		for c := fleet.Class(0); c < fleet.NumClasses; c++ {
			if _, ok := got[c]; !ok {
				t.Errorf("%s: no histogram bars of %s", th.name, classLabel[c])
			}
		}
		for _, c := range []fleet.Class{fleet.ClassOK, fleet.ClassPending} {
			if got[c] != "" {
				t.Errorf("%s: %s's bars patterned %q, want solid", th.name, classLabel[c], got[c])
			}
		}
		var seen []string
		for _, c := range []fleet.Class{fleet.ClassLimited, fleet.ClassFailed, fleet.ClassTimeout, fleet.ClassAborted} {
			switch {
			case got[c] == "":
				t.Errorf("%s: %s's bars are solid: in greyscale they are told from 2xx's by their place in the stack only", th.name, classLabel[c])
			case slices.Contains(seen, got[c]):
				t.Errorf("%s: %s's bars patterned %q, as another class's", th.name, classLabel[c], got[c])
			}
			seen = append(seen, got[c])
		}

		// The PNG's legend: each outcome's sample carries its bars' pattern.
		for _, it := range legendOutcomes {
			var so browser.Ops
			paintSample(&so, &l, it.sample, 10, 20)
			sops := displayOps(&so)
			pat := ""
			for i, op := range sops {
				if op.code == 12 && i+1 < len(sops) { // the bar's sample, clipped to itself
					for _, q := range sops[i+1:] {
						if q.code == 13 {
							break
						}
						if q.code == 14 {
							pat += fmt.Sprintf("%g ", q.args[4])
						}
					}
				}
			}
			if (pat == "") != (got[it.sample.class] == "") {
				t.Errorf("%s: the PNG legend's %q sample patterned %q, its bars %q", th.name, it.label, pat, got[it.sample.class])
			}
		}
	}
	// The page's legend shows the bars' sample after each outcome's mark.
	for _, c := range []string{"ok", "limited", "failed", "timeout", "aborted", "pending"} {
		if !strings.Contains(legendHTML()[showsRun][0], `"></span><span class="sw seg `+c+`" aria-hidden="true"></span>`) {
			t.Errorf("the legend has no histogram sample for %s after its mark", c)
		}
	}
}

// TestSuccessMarksAreRinged: a success's circle has a ring of the ground
// around it wider than the other marks' halo: on the dark lanes its green
// is the grey of the backoff wait it ends (in greyscale, for a
// deuteranope), and the circle read as the bar's rounded end.
func TestSuccessMarksAreRinged(t *testing.T) {
	m := newModel(t0, 1)
	for _, r := range oneJob() {
		r.Worker = 0
		m.add(&r)
	}
	for _, th := range []*theme{&normalTheme, &darkTheme, &presentTheme} {
		l := newLayout(1000, 1, 2*time.Second, th)
		var o browser.Ops
		paintMarks(&o, &l, m, every)
		ops := displayOps(&o)
		halo := map[int]float32{} // a class's colour: its halo's width
		width := float32(0)
		for _, op := range ops {
			switch {
			case op.code == 2 && int(op.args[0]) == colBG:
				width = op.args[1]
			case op.code == 1:
				halo[int(op.args[0])], width = width, 0
			}
		}
		if ok, other := halo[colOK], halo[colLimited]; ok < 2 || ok <= other {
			t.Errorf("%s: a success's ring is %g px wide, a 429's halo %g: want it 2 px and more, wider", th.name, ok, other)
		}
	}
}
