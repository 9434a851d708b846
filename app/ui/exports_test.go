//go:build !(js && wasm)

package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// pngText is a text of a PNG's head as painted.
type pngText struct {
	text       string
	font       int
	x, y, w, h float64
}

// paintPNG paints l's PNG frame at size sz, as exportPNG does, and returns
// the texts of its head drawn above the legend, in order.
func paintPNG(t *testing.T, l *Lab, sz frameSize) ([]pngText, layout) {
	t.Helper()
	head, _, lay := paintPNGParts(t, l, sz)
	return head, lay
}

// paintPNGParts paints l's PNG frame at size sz, as exportPNG does, and
// returns the texts drawn above the timeline's first panel, in order: the
// head's above the legend, and the legend's.
func paintPNGParts(t *testing.T, l *Lab, sz frameSize) (head, legend []pngText, _ layout) {
	t.Helper()
	h := l.pngHead()
	v := l.view
	v.mu.Lock()
	v.width, v.theme = sz.width, sz.th
	lay, in := v.frameFor(&h)
	var o browser.Ops
	paint(&o, &lay, v.m, in) // under v.mu, as png paints: the frame loop's redraw shares the baseline's cache
	v.mu.Unlock()
	boxes, texts := textBoxes(&o, lay.scale)
	fonts := map[string]int{}
	strs := o.Strings()
	for _, op := range displayOps(&o) {
		if op.code == 10 {
			fonts[strs[int(op.args[0])]] = int(op.args[3])
		}
	}
	for i, b := range boxes {
		p := pngText{texts[i], fonts[texts[i]], b[0], b[1], b[2] - b[0], b[3] - b[1]}
		switch {
		case len(lay.legend) > 0 && b[1] >= lay.legendTop && b[3] <= lay.axisY-6*lay.scale:
			legend = append(legend, p)
		case b[3] <= lay.axisY-6*lay.scale: // above the top axis' labels
			head = append(head, p)
		}
	}
	return head, legend, lay
}

// linkOf joins the small-font lines of a PNG's head: its link.
func linkOf(head []pngText) string {
	var b strings.Builder
	for _, p := range head {
		if p.font == fontSmall {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// The PNG says what ran and how to run it again: its head carries the
// link of the run drawn, whole (it was cut off at the canvas's edge,
// "…&cap=10s&attemp"), wrapped over as many lines as it takes at a
// phone's width and a desktop's, each line inside the canvas and above
// the timeline; and after a setting changes, still the run's link (it
// was the settings' of the moment: a run that is not in the picture).
// The run's key numbers are a line of their own.
func TestPNGCarriesTheRunsWholeLink(t *testing.T) {
	l := newLab()
	l.page = &url.URL{Scheme: "http", Host: "localhost:8080", Path: "/"}
	l.Preset("full-jitter")
	l.Set("cap", "10s")
	l.Set("room", "workshop-room-of-tuesday")
	finishRun(l, oneJob(), true)
	want := "http://localhost:8080/?" + l.rec.Scenario.Encode()
	if l.ShareURL() != want {
		t.Fatalf("share link %q, run's %q", l.ShareURL(), want)
	}
	const wantNumbers = "2 requests · 1 of 1 job succeeded · 1 429s (50.0%) · peak 1 req/s · completion p50 1.15 s, p99 1.15 s · drained in 1.15 s"
	check := func(when string, want string) {
		t.Helper()
		for _, sz := range frameSizes {
			head, lay := paintPNG(t, l, sz)
			if got := linkOf(head); got != want {
				t.Errorf("%s, %s: the PNG's link is\n%q, want the run's\n%q", when, sz.name, got, want)
			}
			var numbers []string
			ours := true // the run's numbers, before the baseline's (TestPNGSaysTheBaselinesNumbers)
			for i, p := range head {
				ours = ours && !strings.HasPrefix(p.text, "baseline: ")
				if p.x < 0 || p.x+p.w > lay.w {
					t.Errorf("%s, %s: %q spans %.0f–%.0f px of %.0f", when, sz.name, p.text, p.x, p.x+p.w, lay.w)
				}
				if i > 0 && p.y < head[i-1].y+head[i-1].h {
					t.Errorf("%s, %s: %q overlaps the line above it, %q", when, sz.name, p.text, head[i-1].text)
				}
				if p.font == fontLabel && ours {
					numbers = append(numbers, p.text)
				}
			}
			if got := strings.Join(numbers, numbersSep); got != wantNumbers {
				t.Errorf("%s, %s: the PNG's numbers are %q, want %q", when, sz.name, got, wantNumbers)
			}
		}
	}
	check("after the run", want)

	l.Set("workers", "7")
	if l.ShareURL() == want {
		t.Fatal("changing workers left the share link as it was")
	}
	check("after changing workers", want)

	// Against a baseline, the link brings the baseline too: the picture
	// has both.
	l.Compare()
	l.Set("cap", "20s")
	finishRun(l, oneJob(), false)
	check("against a baseline", "http://localhost:8080/?"+l.rec.Scenario.Encode()+"&vs="+url.QueryEscape(l.base.scen.Encode()))
}

// A PNG of a zoomed-in timeline says which part of the run it shows, and
// that its numbers are the whole run's: a picture of 10–16 s said "peak 55
// req/s · drained in 15.71 s" with nothing to tell it was part of a 23 s run.
func TestPNGOfAZoomSaysWhatItShows(t *testing.T) {
	l := newLab()
	l.page = &url.URL{Scheme: "http", Host: "localhost:8080", Path: "/"}
	finishRun(l, oneJob(), true)
	whole := l.pngHead()
	if strings.Contains(whole.title, "showing") || strings.HasPrefix(whole.numbers, "whole run") {
		t.Fatalf("the whole run's PNG says it is part of it: %q, %q", whole.title, whole.numbers)
	}
	if !l.view.zoom(0.5) {
		t.Fatal("zoom in did nothing")
	}
	w := l.view.zoomText()
	h := l.pngHead()
	if want := whole.title + " — showing " + w; h.title != want {
		t.Errorf("zoomed in, the PNG's title is %q, want %q", h.title, want)
	}
	if want := "whole run: " + whole.numbers; h.numbers != want {
		t.Errorf("zoomed in, the PNG's numbers are %q, want %q", h.numbers, want)
	}
	for _, sz := range frameSizes {
		head, lay := paintPNG(t, l, sz)
		var all []string
		for _, p := range head {
			if p.x < 0 || p.x+p.w > lay.w {
				t.Errorf("%s: %q spans %.0f–%.0f px of %.0f", sz.name, p.text, p.x, p.x+p.w, lay.w)
			}
			all = append(all, p.text)
		}
		if text := strings.Join(all, " "); !strings.Contains(text, "showing") || !strings.Contains(text, "whole run:") {
			t.Errorf("%s: the zoomed PNG's head reads %q", sz.name, text)
		}
	}
	l.view.zoom(0)
	if h := l.pngHead(); h != whole {
		t.Errorf("zoomed out again, the PNG's head is %+v, want %+v", h, whole)
	}
}

// The PNG's numbers tell how the run ended. A run stopped at 2 s (?jobs=4:
// 200 jobs) said "23 of 23 jobs succeeded · … · drained in 2.01 s",
// leaving out the 50 jobs Stop cancelled and the 127 never started; a
// simulation cut at its attempt limit said it drained.
func TestPNGNumbersTellHowTheRunEnded(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, c := range []struct {
		name              string
		workers, jobs     int
		simulated, capped bool
		st                fleet.Stats
		want              string
		stopped           bool // the Recording's Stopped
	}{
		{"finished", 50, 2, false, false,
			fleet.Stats{Requests: 450, Limited: 350, PeakRPS: 60, Jobs: 100, Successes: 100, CompletionP50: ms(8250), CompletionP99: ms(10300), Drain: ms(18550)},
			"450 requests · 100 of 100 jobs succeeded · 350 429s (77.8%) · peak 60 req/s · completion p50 8.25 s, p99 10.30 s · drained in 18.55 s", false},
		{"stopped", 50, 4, false, false,
			fleet.Stats{Requests: 120, Limited: 60, PeakRPS: 60, Jobs: 73, Successes: 23, GiveUps: 50, Cancelled: 50, CompletionP50: ms(100), CompletionP99: ms(1100), Drain: ms(2010)},
			"120 requests · 23 of 200 jobs succeeded · 50 cancelled by Stop · 127 never started · 60 429s (50.0%) · peak 60 req/s · completion p50 100 ms, p99 1.10 s · stopped after 2.01 s", true},
		{"stopped once every job had started", 2, 1, false, false,
			fleet.Stats{Requests: 2, Jobs: 2, Successes: 1, GiveUps: 1, Cancelled: 1, Drain: ms(500)},
			"2 requests · 1 of 2 jobs succeeded · 1 cancelled by Stop · 0 429s (0%) · peak 0 req/s · completion p50 0 µs, p99 0 µs · stopped after 500 ms", true},
		// Stop between an open workload's arrivals cancels no job (none
		// is in progress); it said "10 of 10 jobs succeeded · … · drained
		// in 2.28 s", with 70 of the 80 jobs never started.
		{"stopped between an open workload's arrivals", 4, 20, false, false,
			fleet.Stats{Requests: 10, PeakRPS: 5, Jobs: 10, Successes: 10, Drain: ms(2280)},
			"10 requests · 10 of 80 jobs succeeded · 70 never started · 0 429s (0%) · peak 5 req/s · completion p50 0 µs, p99 0 µs · stopped after 2.28 s", true},
		{"simulated to the end", 50, 2, true, false,
			fleet.Stats{Requests: 100, PeakRPS: 8, Jobs: 100, Successes: 100, Drain: ms(12425)},
			"100 requests · 100 of 100 jobs succeeded · 0 429s (0%) · peak 8 req/s · completion p50 0 µs, p99 0 µs · drained in 12.43 s", false},
		{"simulated to the attempt limit", 10000, 5, true, true,
			fleet.Stats{Requests: 300000, Limited: 299000, Jobs: 33088, Successes: 607, GiveUps: 32481, Cancelled: 9999, Drain: ms(3200)},
			"300,000 requests · 607 of 50,000 jobs succeeded · 9,999 cancelled at the page's limit · 16,912 never started · 299,000 429s (99.7%) · peak 0 req/s · completion p50 0 µs, p99 0 µs · stopped at the page's limit after 3.20 s", false},
	} {
		l := newLab()
		l.s.Workers, l.s.Jobs = c.workers, c.jobs
		l.rec = fleet.NewRecording(l.s, time.Now(), c.simulated)
		l.rec.Stopped = c.stopped
		l.simSum.Stopped = c.capped
		l.stats, l.hasStats = c.st, true
		if got := l.pngHead().numbers; got != c.want {
			t.Errorf("%s: the PNG's numbers are\n%q, want\n%q", c.name, got, c.want)
		}
	}
}

// A watch's PNG says the numbers its cards show: the title had only the
// requests received and for how long, and its numbers line was empty, so
// a picture of a watch of 60 requests, 36 of them 429s, said nothing of
// them (a review).
func TestPNGOfAWatchHasItsNumbers(t *testing.T) {
	l := newLab()
	l.view.startWatch(l.s, t0)
	l.watched, l.watchRoom, l.hasStats = true, "room1", true
	l.wstats = watchStats{Arrivals: 60, OK: 22, Limited: 36, Failed: 2, Peak: 36, For: 6330 * time.Millisecond}
	h := l.pngHead()
	if want := "Retry Lab: watch of room “room1” — 60 requests from everyone in 6.33 s"; h.title != want {
		t.Errorf("a watch's PNG title %q, want %q", h.title, want)
	}
	if want := "22 allowed · 36 429s (60.0%) · 2 other failures · peak 36 req/s"; h.numbers != want {
		t.Errorf("a watch's PNG numbers %q, want %q", h.numbers, want)
	}
}

// The PNG carries a legend, so that a picture pasted alone explains its
// colours, shapes and hatching: the page's legend items (legend.go), as
// the page shows them for the run (a watch without what only a fleet
// draws), less the marks of what did not happen in it. Every label lies
// inside the canvas, under the head's lines and above the timeline. The
// PNG had no legend at all.
func TestPNGHasTheLegend(t *testing.T) {
	labels := func(items ...[]legendItem) []string {
		var out []string
		for _, list := range items {
			for _, it := range list {
				out = append(out, it.label)
			}
		}
		return out
	}
	without := func(all []string, drop ...string) []string {
		var out []string
		for _, a := range all {
			if !slices.Contains(drop, a) {
				out = append(out, a)
			}
		}
		return out
	}
	all := labels(legendOutcomes, legendPhases)
	occasional := []string{"in flight", "late", "tab hidden", "server down", "limit halved", "another client", "fleet-bucket wait", "fleet bucket rate", "now"}
	for _, c := range []struct {
		name  string
		setup func(l *Lab)
		want  []string
	}{
		{"a run", func(l *Lab) {}, without(all, occasional...)},
		{"a run with a fleet bucket and an outage", func(l *Lab) {
			l.Set("bucket", "on")
			l.view.m.outages = append(l.view.m.outages, interval{100 * time.Millisecond, 600 * time.Millisecond})
		}, without(all, "in flight", "late", "tab hidden", "limit halved", "another client", "now")},
		{"a run in a shared room, its tab hidden for a while, the limit halved", func(l *Lab) {
			l.view.m.room = true
			l.view.m.hidden = append(l.view.m.hidden, interval{200 * time.Millisecond, 300 * time.Millisecond})
			l.view.m.limits = append(l.view.m.limits, squeeze{interval{0, time.Second}, 0.5})
		}, without(all, "in flight", "late", "server down", "fleet-bucket wait", "fleet bucket rate", "now")},
		{"a run whose page was busy: an answer taken in late", func(l *Lab) {
			l.view.m.marks[0].pickup = 300 * time.Millisecond
		}, without(all, "in flight", "tab hidden", "server down", "limit halved", "another client", "fleet-bucket wait", "fleet bucket rate", "now")},
		// A finished run lists its marks in flight only when one had no
		// answer (it listed "in flight" with nothing in flight).
		{"a run with an attempt still in flight", func(l *Lab) {
			l.view.m.marks[0].end, l.view.m.marks[0].class = -1, fleet.ClassPending
		}, without(all, "late", "tab hidden", "server down", "limit halved", "another client", "fleet-bucket wait", "fleet bucket rate", "now")},
		// A simulation of a shared room's configuration: no browser held
		// its requests (they were listed), and no other client's are
		// drawn (they were listed too: the room was taken for them).
		{"a simulation in a shared room", func(l *Lab) {
			l.rec.Simulated = true
			l.view.m.simulated, l.view.m.room = true, true
		}, without(all, append(occasional, "held by the browser")...)},
		// A watch draws the room's arrivals by the server's answer.
		{"a watch", func(l *Lab) { l.view.m.watch = true }, []string{"2xx success", "429 / 503", "other failure", "timeout", "server limit"}},
	} {
		l := newLab()
		l.page = &url.URL{Scheme: "http", Host: "localhost:8080", Path: "/"}
		l.Preset("flood")
		finishRun(l, oneJob(), false)
		c.setup(l)
		l.view.lim = limitsOf(&l.s)
		for _, sz := range frameSizes {
			head, legend, lay := paintPNGParts(t, l, sz)
			var got []string
			for _, p := range legend {
				got = append(got, p.text)
				if p.x < 0 || p.x+p.w > lay.w {
					t.Errorf("%s, %s: legend label %q spans %.0f–%.0f px of %.0f", c.name, sz.name, p.text, p.x, p.x+p.w, lay.w)
				}
				if last := head[len(head)-1]; p.y < last.y+last.h {
					t.Errorf("%s, %s: legend label %q overlaps the head's last line %q", c.name, sz.name, p.text, last.text)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s, %s: the PNG's legend is\n%q, want\n%q", c.name, sz.name, got, c.want)
			}
			if len(head) == 0 || linkOf(head) != l.runURL(false) {
				t.Errorf("%s, %s: the head's link is %q, want %q", c.name, sz.name, linkOf(head), l.runURL(false))
			}
		}
	}
}

// Exported files are named after when the run was made, by the wall clock:
// a live run's start, and for a simulation the moment it was simulated
// (its Start is virtual time's origin, fleet.SimEpoch, the same for every
// simulation: every simulation's files were named
// retrylab-2026-01-01T00-00-00-simulated, whatever it was). The time is
// UTC, as the JSON's start, and the name says so: it was the browser's
// local time (a page in Paris named a run of 10:00 UTC 11-00-00), saying
// nothing of it.
func TestExportFileNames(t *testing.T) {
	l := newLab()
	finishRun(l, oneJob(), false)
	// The step it ran is in the name too: after ten runs, names of times
	// alone could not be told apart (a review).
	if got, want := l.fileStamp(), "retrylab-2026-11-29T10-00-00Z-full-jitter"; got != want {
		t.Errorf("a live run's files: %q, want %q", got, want)
	}
	paris := time.FixedZone("UTC+1", 3600)
	l.rec.Start = l.rec.Start.In(paris)
	if got, want := l.fileStamp(), "retrylab-2026-11-29T10-00-00Z-full-jitter"; got != want {
		t.Errorf("a live run's files, in a browser an hour ahead of UTC: %q, want %q", got, want)
	}
	l.Set("workers", "7") // the run's configuration names it, not the inputs'
	if got, want := l.fileStamp(), "retrylab-2026-11-29T10-00-00Z-full-jitter"; got != want {
		t.Errorf("after an edit: %q, want %q", got, want)
	}
	var names []string
	for i, preset := range []string{"flood", "full-jitter"} {
		l.Preset(preset)
		l.rec = fleet.Simulate(l.s)
		l.simAt = time.Date(2026, 12, 2, 10, 15, 7+i, 0, paris)
		names = append(names, l.fileStamp())
	}
	// A step with changes is named by the nearest step and what changed,
	// as the compare bar names it ("Full jitter (step 3) with Workers 7"):
	// a tuning session's files were named by their times alone (a
	// review). Further from every step, it is the user's own.
	for i, kv := range [][2]string{{"workers", "7"}, {"strategy", "equal"}, {"cap", "5s"}} {
		l.Set(kv[0], kv[1])
		l.rec = fleet.Simulate(l.s)
		l.simAt = time.Date(2026, 12, 2, 10, 15, 9+i, 0, paris)
		names = append(names, l.fileStamp())
	}
	want := []string{"retrylab-2026-12-02T09-15-07Z-flood-simulated", "retrylab-2026-12-02T09-15-08Z-full-jitter-simulated",
		"retrylab-2026-12-02T09-15-09Z-full-jitter-workers-7-simulated", "retrylab-2026-12-02T09-15-10Z-exponential-workers-7-strategy-exponential-equal-jitter-simulated",
		"retrylab-2026-12-02T09-15-11Z-simulated"}
	if !slices.Equal(names, want) {
		t.Errorf("the simulations' files: %q, want %q", names, want)
	}
	// A step run against your own API: named by its host, where its path
	// and query were cut mid-word.
	l = newLab()
	l.Set("target", "https://api.example.com/v1/orders?token="+strings.Repeat("a", 300))
	finishRun(l, oneJob(), false)
	if got, want := l.fileStamp(), "retrylab-2026-11-29T10-00-00Z-full-jitter-target-api.example.com"; got != want {
		t.Errorf("a step's run against a custom target: %q, want %q", got, want)
	}
}

// fileWord writes a change for a file name: a duration's µ as u (it read
// "latency-500-s", 500 seconds), and a long value (a custom target's URL)
// cut, where the name had 396 bytes, past what a file system takes.
func TestFileWord(t *testing.T) {
	for s, want := range map[string]string{
		"cap 5s":                          "cap-5s",
		"strategy Exponential, no jitter": "strategy-exponential-no-jitter",
		"latency 500µs":                   "latency-500us",
		"  spread --1.5s ":                "spread-1.5s",
		"target https://api.example.com/v1/orders?token=" + strings.Repeat("a", 300): "target-https-api.example.com-v1-orders-t",
		"": "",
	} {
		if got := fileWord(s); got != want || len(got) > fileWordMax {
			t.Errorf("fileWord(%q) = %q, want %q", s, got, want)
		}
	}
}

// A watch has no recording: its PNG is named after when the watch began
// (Watch sets simAt, as Simulate does), whenever it is exported. It was
// named after the moment of the export, so each PNG of one watch had a
// name of its own and none said when the watch began (a review:
// retrylab-…T03-07-34Z-watch.png of a watch begun at 03:07:27). The
// cases are what the page shows at the export: the watch, and a live run
// or a simulation after one.
func TestWatchFileNames(t *testing.T) {
	began := time.Date(2026, 12, 2, 10, 15, 7, 0, time.FixedZone("UTC+1", 3600))
	for _, c := range []struct {
		name  string
		after string // "", "live" or "sim": what ran after the watch
		want  string
	}{
		{"the watch", "", "retrylab-2026-12-02T09-15-07Z-watch"},
		{"a live run after it", "live", "retrylab-2026-11-29T10-00-00Z-full-jitter"},
		{"a simulation after it", "sim", "retrylab-2026-12-02T09-20-07Z-full-jitter-simulated"},
	} {
		l := newLab()
		// What Watch leaves: no recording, the view's watch begun, the
		// watch shown, and simAt.
		l.rec, l.watched, l.simAt = nil, true, began
		l.view.startWatch(l.s, began)
		if c.after != "" {
			l.beginRun(func() {}) // as Run and Simulate begin
		}
		switch c.after {
		case "live":
			finishRun(l, oneJob(), false)
		case "sim":
			l.rec, l.simAt = fleet.Simulate(l.s), began.Add(5*time.Minute)
		}
		if got := l.fileStamp(); got != c.want {
			t.Errorf("%s: files named %q, want %q", c.name, got, c.want)
		}
	}
}

// What the browser's timing of an answer tells reaches the exports as it
// is: a time it exposed as 0 (a request sent at once, an answer taken in
// at once) is a measured 0, one it did not expose is unknown. Each was 0
// either way, and the exports left a measured 0 out. Milliseconds are
// rounded to the nanosecond: a handoff of 223.3 ms read 223.299999.
func TestTimedTellsMeasuredZeros(t *testing.T) {
	all := fleet.MeasuredHandoff | fleet.MeasuredQueued | fleet.MeasuredPickup
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	for _, c := range []struct {
		name                    string
		tm                      browser.Timing
		sent, now               float64
		handoff, queued, pickup time.Duration
		measured                fleet.Timings
	}{
		{"all told, all 0", browser.Timing{FetchStart: 100, RequestStart: 100, ResponseStart: 120, ResponseEnd: 130}, 100, 130, 0, 0, 0, all},
		{"all told", browser.Timing{FetchStart: 323.4, RequestStart: 325.9, ResponseStart: 400, ResponseEnd: 410.5}, 100.1, 412, ms(223.3), ms(2.5), ms(1.5), all},
		{"no Timing-Allow-Origin: no requestStart", browser.Timing{FetchStart: 101, ResponseEnd: 130}, 100, 130, ms(1), 0, 0, fleet.MeasuredHandoff | fleet.MeasuredPickup},
		{"no timing entry", browser.Timing{}, 100, 130, 0, 0, 0, 0},
		{"fetchStart before the send (clocks a hair apart)", browser.Timing{FetchStart: 99.9, RequestStart: 99.9, ResponseEnd: 130}, 100, 130, 0, 0, 0, all},
		{"requestStart before fetchStart: not told", browser.Timing{FetchStart: 101, RequestStart: 100.5, ResponseEnd: 130}, 100, 130, ms(1), 0, 0, fleet.MeasuredHandoff | fleet.MeasuredPickup},
		{"no clock to read now by", browser.Timing{FetchStart: 101, RequestStart: 101, ResponseEnd: 130}, 100, 0, ms(1), 0, 0, fleet.MeasuredHandoff | fleet.MeasuredQueued},
	} {
		var a fleet.Attempt
		timed(&a, c.tm, c.sent, c.now)
		if a.Handoff != c.handoff || a.Queued != c.queued || a.Pickup != c.pickup || a.Measured != c.measured {
			t.Errorf("%s: handoff %v, queued %v, pickup %v, measured %03b; want %v, %v, %v, %03b", c.name,
				a.Handoff, a.Queued, a.Pickup, a.Measured, c.handoff, c.queued, c.pickup, c.measured)
		}
	}
}

// A live run's exports tell what the server was made to do during it, as
// its stream told the timeline (fleet.Recording.SetFaults): an outage,
// Outage pressed again inside it (the server's message extends the
// stretch: one outage, as drawn), a halved limit, and a burst whose
// message came after the run's last frame. The JSON told nothing of them:
// a run in which the server was down had the file of one where it was up.
// The timeline of another run gives the recording none of its own.
func TestExportTellsTheFaultsTheTimelineDrew(t *testing.T) {
	l := newLab()
	l.view.start(l.s, t0, "")
	for _, r := range oneJob() {
		l.view.onRecord(r)
	}
	send := func(e mock.Event) {
		b, _ := json.Marshal(e)
		l.view.onServerEvent(string(b))
	}
	send(mock.Event{Type: "outage", Key: "k", At: at(500), Until: at(3500)})
	send(mock.Event{Type: "limit", Key: "k", At: at(600), Until: at(5600), Scale: 0.5})
	send(mock.Event{Type: "outage", Key: "k", At: at(2000), Until: at(5000)})
	l.view.finish(at(1150))
	send(mock.Event{Type: "burst", Key: "k", At: at(700), N: 40, Admitted: 20}) // not yet taken in by a frame
	l.rec = fleet.NewRecording(l.s, t0, false)
	l.rec.Append(oneJob()...)
	l.rec.Finish(at(1150))
	faults := func() []map[string]any {
		t.Helper()
		var buf bytes.Buffer
		if err := l.exported().JSON(&buf); err != nil {
			t.Fatal(err)
		}
		var doc struct{ Faults []map[string]any }
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Faults
	}
	want := []map[string]any{
		{"kind": "outage", "from_ms": 500.0, "until_ms": 5000.0},
		{"kind": "limit", "from_ms": 600.0, "until_ms": 5600.0, "scale": 0.5},
		{"kind": "burst", "from_ms": 700.0, "n": 40.0, "admitted": 20.0},
	}
	if got := faults(); !reflect.DeepEqual(got, want) {
		t.Errorf("the export's faults\n got %v\nwant %v", got, want)
	}
	l.rec = fleet.NewRecording(l.s, at(60_000), false) // not the run drawn
	if got := faults(); len(got) != 0 {
		t.Errorf("another run's timeline gave the export faults %v", got)
	}
}

// A live run's JSON tells the stretches its timeline hatched: the tab
// hidden (the browser held the page's timers back, so sends came late)
// and the arrivals stream lost, one still lost when the file is written.
// The file read like a run seen whole.
func TestExportTellsTheGapsTheTimelineHatched(t *testing.T) {
	l := newLab()
	l.view.start(l.s, t0, "")
	for _, r := range oneJob() {
		l.view.onRecord(r)
	}
	l.view.mu.Lock()
	m := l.view.m
	m.setLost(true, 900*time.Millisecond)
	m.setHidden(true, 300*time.Millisecond)
	m.setLost(false, 1400*time.Millisecond)
	m.setHidden(false, 2300*time.Millisecond)
	m.setLost(true, 2500*time.Millisecond)
	m.setHidden(true, 2500*time.Millisecond)
	l.view.mu.Unlock()
	l.view.finish(at(3000)) // closes the hidden stretch; the stream is still lost
	l.rec = fleet.NewRecording(l.s, t0, false)
	l.rec.Append(oneJob()...)
	l.rec.Finish(at(3000))
	var buf bytes.Buffer
	if err := l.exported().JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Gaps []map[string]any }
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"kind": "hidden", "from_ms": 300.0, "until_ms": 2300.0},
		{"kind": "stream_lost", "from_ms": 900.0, "until_ms": 1400.0},
		{"kind": "hidden", "from_ms": 2500.0, "until_ms": 3000.0},
		{"kind": "stream_lost", "from_ms": 2500.0},
	}
	if !reflect.DeepEqual(doc.Gaps, want) {
		t.Errorf("the export's gaps\n got %v\nwant %v", doc.Gaps, want)
	}
}

// An attempt that got no answer has, in the exports, the arrival the
// server's stream told of, as its tooltip has: the tooltip said "server
// received it at 0.004 s (arrival #1)" where the export had no server_seq.
// An answered attempt keeps its answer's.
func TestExportTellsWhatTheStreamHeardOfUnansweredAttempts(t *testing.T) {
	timeout := fmt.Errorf("%w after 1s", fleet.ErrTimeout)
	recs := []fleet.Record{
		{Worker: 1, Event: core.Event{Kind: core.EventAttempt, At: at(10), Intended: at(10), Attempt: 1}},
		{Worker: 1, Attempt: &fleet.Attempt{Err: timeout}, Event: core.Event{Kind: core.EventOutcome, At: at(1010), Attempt: 1, Outcome: core.Outcome{Err: timeout}}},
		{Worker: 1, Event: core.Event{Kind: core.EventAttempt, At: at(1020), Intended: at(1020), Attempt: 2}},
		{Worker: 1, Attempt: &fleet.Attempt{Status: 200, ServerSeq: 2, ServerAt: at(1022)}, Event: core.Event{Kind: core.EventOutcome, At: at(1050), Attempt: 2, Outcome: core.Outcome{Status: 200}}},
		{Worker: 1, Event: core.Event{Kind: core.EventDone, At: at(1050), Attempt: 2}},
	}
	l := newLab()
	l.view.start(l.s, t0, "")
	for _, r := range recs {
		l.view.onRecord(r)
	}
	for _, e := range []mock.Event{
		{Type: "arrival", Key: "k", Tag: fleet.AttemptTag("", 1, 0, 1), Seq: 1, At: at(14), Outcome: "hang"},
		{Type: "arrival", Key: "k", Tag: fleet.AttemptTag("", 1, 0, 2), Seq: 2, At: at(1022), Outcome: "ok", Status: 200, Allowed: true},
	} {
		b, _ := json.Marshal(e)
		l.view.onServerEvent(string(b))
	}
	l.view.finish(at(1050))
	l.rec = fleet.NewRecording(l.s, t0, false)
	l.rec.Append(recs...)
	l.rec.Finish(at(1050))
	var buf bytes.Buffer
	if err := l.exported().JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Events []map[string]any }
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var got [][2]any
	for _, e := range doc.Events {
		if e["kind"] == "outcome" {
			got = append(got, [2]any{e["server_seq"], e["server_ms"]})
		}
	}
	if want := [][2]any{{1.0, 14.0}, {2.0, 1022.0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("the outcomes' server_seq and server_ms: %v, want %v", got, want)
	}
}

// An export is collected in parts of at most exportPart, which the file's
// Blob copies one by one: a growing buffer copied the whole at each
// doubling, and the Blob took 80 MB in one copy.
func TestExportWriterParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var want bytes.Buffer
	w := &exportWriter{ctx: context.Background()}
	for _, n := range []int{0, 1, exportPart - 1, 2, exportPart, 3*exportPart + 5, 10} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(rng.IntN(256))
		}
		want.Write(p)
		if got, err := w.Write(p); got != n || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", n, got, err)
		}
	}
	var got []byte
	for i, p := range w.parts {
		if len(p) > exportPart || i < len(w.parts)-1 && len(p) != exportPart {
			t.Errorf("part %d of %d: %d bytes", i, len(w.parts), len(p))
		}
		got = append(got, p...)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the parts hold %d bytes, not the %d written", len(got), want.Len())
	}
}

// A run drawn against a baseline says in its PNG, under its own numbers,
// the baseline's and what changed from it: the picture showed the
// baseline's outline and this run's numbers alone (a review).
func TestPNGSaysTheBaselinesNumbers(t *testing.T) {
	l := newLab()
	l.page = &url.URL{Scheme: "http", Host: "localhost:8080", Path: "/"}
	l.Preset("full-jitter")
	finishRun(l, oneJob(), true)
	l.Compare()
	l.Set("cap", "2s")
	recs := append(oneJob(), oneJob()...)
	for i := range recs[len(recs)/2:] {
		recs[len(recs)/2+i].Worker = 2
	}
	finishRun(l, recs, true)
	for _, sz := range frameSizes {
		head, _ := paintPNG(t, l, sz)
		var text []string
		for _, p := range head {
			text = append(text, p.text)
		}
		all := strings.Join(text, " ")
		for _, want := range []string{"baseline: 2 requests", "1 of 1 job succeeded", "Changed from the baseline: Cap 10s → 2s."} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: the PNG's head does not say %q:\n%s", sz.name, want, strings.Join(text, "\n"))
			}
		}
	}
}
