//go:build !(js && wasm)

package ui

import (
	"net/url"
	"strings"
	"testing"

	"retrylab/app/browser"
)

// pngText is a text of a PNG's head as painted.
type pngText struct {
	text       string
	font       int
	x, y, w, h float64
}

// paintPNG paints l's PNG frame at size sz, as exportPNG does, and returns
// the texts drawn above the timeline's first panel, in order.
func paintPNG(t *testing.T, l *Lab, sz frameSize) ([]pngText, layout) {
	t.Helper()
	head := l.pngHead()
	v := l.view
	v.mu.Lock()
	v.width, v.theme = sz.width, sz.th
	lay, in := v.frameFor(&head)
	v.mu.Unlock()
	var o browser.Ops
	paint(&o, &lay, v.m, in)
	boxes, texts := textBoxes(&o, lay.scale)
	fonts := map[string]int{}
	strs := o.Strings()
	for _, op := range displayOps(&o) {
		if op.code == 10 {
			fonts[strs[int(op.args[0])]] = int(op.args[3])
		}
	}
	var out []pngText
	for i, b := range boxes {
		if b[3] <= lay.axisY-6*lay.scale { // above the top axis' labels
			out = append(out, pngText{texts[i], fonts[texts[i]], b[0], b[1], b[2] - b[0], b[3] - b[1]})
		}
	}
	return out, lay
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
	const wantNumbers = "2 requests · 1 of 1 jobs succeeded · 1 429s (50%) · peak 1 req/s · completion p50 1.15 s, p99 1.15 s · drained in 1.15 s"
	check := func(when string, want string) {
		t.Helper()
		for _, sz := range frameSizes {
			head, lay := paintPNG(t, l, sz)
			if got := linkOf(head); got != want {
				t.Errorf("%s, %s: the PNG's link is\n%q, want the run's\n%q", when, sz.name, got, want)
			}
			var numbers []string
			for i, p := range head {
				if p.x < 0 || p.x+p.w > lay.w {
					t.Errorf("%s, %s: %q spans %.0f–%.0f px of %.0f", when, sz.name, p.text, p.x, p.x+p.w, lay.w)
				}
				if i > 0 && p.y < head[i-1].y+head[i-1].h {
					t.Errorf("%s, %s: %q overlaps the line above it, %q", when, sz.name, p.text, head[i-1].text)
				}
				if p.font == fontLabel {
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
