package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"retrylab/app/browser"
	"retrylab/app/human"
)

// TestPlaceTip: the tooltip stands to the right of its mark and just below
// it, flips left or up where that side has no room, goes below or above
// the mark across a phone's screen where neither side has room, and is
// clamped into the viewport when nothing fits — always whole on screen,
// and clear of its mark whenever the mark is on screen and room allows.
func TestPlaceTip(t *testing.T) {
	const ring = 9.5 // a normal mark's selection ring
	for _, tc := range []struct {
		name      string
		f         browser.Float
		left, top float64
	}{
		{"desktop, mid-plot: right, below", browser.Float{X: 500, Y: 300, R: ring, W: 340, H: 120, ViewW: 1400, ViewH: 1000}, 514, 310},
		{"near the right edge: flipped left, at full width", browser.Float{X: 1300, Y: 300, R: ring, W: 340, H: 120, ViewW: 1400, ViewH: 1000}, 946, 310},
		{"near the bottom: flipped up", browser.Float{X: 500, Y: 950, R: ring, W: 340, H: 120, ViewW: 1400, ViewH: 1000}, 514, 820},
		{"projector, last lane at the bottom right: both", browser.Float{X: 1200, Y: 700, R: 11.2, W: 400, H: 132, ViewW: 1280, ViewH: 720}, 784.8, 558},
		{"phone: no room beside, so below, across", browser.Float{X: 200, Y: 300, R: ring, W: 360, H: 116, ViewW: 390, ViewH: 844}, 20, 314},
		{"phone, near the left edge", browser.Float{X: 30, Y: 300, R: ring, W: 360, H: 116, ViewW: 390, ViewH: 844}, 8, 314},
		{"phone, near the bottom: above", browser.Float{X: 200, Y: 824, R: ring, W: 360, H: 116, ViewW: 390, ViewH: 844}, 20, 694},
		{"small phone", browser.Float{X: 150, Y: 200, R: ring, W: 304, H: 140, ViewW: 320, ViewH: 568}, 8, 214},
		{"mark below the screen (walked to by keyboard): at the bottom edge", browser.Float{X: 500, Y: 1300, R: ring, W: 340, H: 120, ViewW: 1400, ViewH: 1000}, 514, 872},
		{"mark above the screen: at the top edge", browser.Float{X: 200, Y: -80, R: ring, W: 360, H: 116, ViewW: 390, ViewH: 844}, 20, 8},
		{"no room anywhere: clamped, covering", browser.Float{X: 200, Y: 150, R: ring, W: 360, H: 280, ViewW: 390, ViewH: 300}, 20, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f
			left, top := placeTip(f)
			if left != tc.left || top != tc.top {
				t.Errorf("placed at (%v, %v), want (%v, %v)", left, top, tc.left, tc.top)
			}
			if left < tipMargin || top < tipMargin || left+f.W > f.ViewW-tipMargin || top+f.H > f.ViewH-tipMargin {
				t.Errorf("%v×%v at (%v, %v): not whole in the %v×%v viewport, %v px clear of its edges", f.W, f.H, left, top, f.ViewW, f.ViewH, tipMargin)
			}
			onScreen := f.Y >= 0 && f.Y <= f.ViewH
			roomy := f.H+f.R+4 <= max(f.Y, f.ViewH-f.Y)-tipMargin
			covers := f.X > left-f.R && f.X < left+f.W+f.R && f.Y > top-f.R && f.Y < top+f.H+f.R
			if onScreen && roomy && covers {
				t.Errorf("at (%v, %v) it covers the mark at (%v, %v)", left, top, f.X, f.Y)
			}
		})
	}
}

// TestTipKeepsBelowTheStickyParts: the tooltip never lies over what sticks
// to the viewport's top (the legend and the sticky axis, down to clear):
// beside a mark in sight under them it stands below their edge, flipped up
// or clamped no higher; while its mark is under them or off the screen it
// is put away above the page, and placed beside the mark again once the
// mark shows. (In presentation mode a selected mark scrolled under the
// sticky legend and axis kept its tooltip over them, pointing at nothing.)
func TestTipKeepsBelowTheStickyParts(t *testing.T) {
	const ring = 11.2 // presentation mode's selection ring
	for _, tc := range []struct {
		name  string
		f     browser.Float
		clear float64
		away  bool
	}{
		{"presentation mode, the mark under the legend", browser.Float{X: 400, Y: 100, R: ring, W: 380, H: 132, ViewW: 1280, ViewH: 720}, 175, true},
		{"the mark under the sticky axis' edge", browser.Float{X: 400, Y: 170, R: ring, W: 380, H: 132, ViewW: 1280, ViewH: 720}, 175, true},
		{"the mark above the screen", browser.Float{X: 400, Y: -40, R: ring, W: 380, H: 132, ViewW: 1280, ViewH: 720}, 0, true},
		{"the mark below the screen", browser.Float{X: 400, Y: 760, R: ring, W: 380, H: 132, ViewW: 1280, ViewH: 720}, 175, true},
		{"the mark just under the sticky parts", browser.Float{X: 400, Y: 190, R: ring, W: 380, H: 132, ViewW: 1280, ViewH: 720}, 175, false},
		{"flipped up, no higher than the sticky parts", browser.Float{X: 400, Y: 380, R: ring, W: 380, H: 200, ViewW: 1280, ViewH: 400}, 175, false},
		{"a phone: across, under the sticky axis", browser.Float{X: 200, Y: 60, R: 9.5, W: 360, H: 116, ViewW: 390, ViewH: 844}, 36, false},
		{"nothing stuck", browser.Float{X: 500, Y: 20, R: 9.5, W: 340, H: 120, ViewW: 1400, ViewH: 1000}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f
			left, top := placeTipBelow(f, tc.clear)
			if tc.away {
				if top+f.H > 0 {
					t.Errorf("the mark at y %v is out of sight (the sticky parts reach %v, the screen %v): the tooltip at y %v–%v shows", f.Y, tc.clear, f.ViewH, top, top+f.H)
				}
				return
			}
			if top < tc.clear+tipMargin || top+f.H > f.ViewH-tipMargin || left < tipMargin || left+f.W > f.ViewW-tipMargin {
				t.Errorf("%v×%v at (%v, %v): not whole between the sticky parts' bottom %v and the %v×%v viewport's, %v px clear", f.W, f.H, left, top, tc.clear, f.ViewW, f.ViewH, tipMargin)
			}
			// Where placeTip puts it in the viewport below clear.
			g := f
			g.Y -= tc.clear
			g.ViewH -= tc.clear
			if wl, wt := placeTip(g); left != wl || top != wt+tc.clear {
				t.Errorf("at (%v, %v), want placeTip's (%v, %v) below the sticky parts", left, top, wl, wt+tc.clear)
			}
		})
	}
}

// TestNoteText: the tooltip writes the loop's notes with the page's
// durations ("then waited 1.88 s: Retry-After (spread +877.25499ms)" mixed
// Go's syntax with the page's), leaving quoted header values as received.
func TestNoteText(t *testing.T) {
	for _, tc := range []struct{ note, want string }{
		{"spread +877ms", "spread +877 ms"},
		{"spread +123µs", "spread +123 µs"},
		{"spread +1.5s", "spread +1.5 s"},
		{"clamped from 2m to ceiling 30s; spread +500ms", "clamped from 2 min to ceiling 30 s; spread +500 ms"},
		{"clamped from 1m29.667s to ceiling 1h", "clamped from 1 min 30 s to ceiling 1 h"},
		{"clamped from over 2562047h47m16.854775807s to ceiling 30s", "clamped from over 292 years to ceiling 30 s"},
		{`retry-after "1.5": fractional seconds not allowed; fell back to backoff`, `retry-after "1.5": fractional seconds not allowed; fell back to backoff`},
		{`retry-after "5s": invalid date; fell back to reset hint`, `retry-after "5s": invalid date; fell back to reset hint`},
		{`retry-after "a \"2s\" b": x; spread +20ms`, `retry-after "a \"2s\" b": x; spread +20.0 ms`},
		{`X-RateLimit-Reset "-3": negative; fell back to backoff`, `X-RateLimit-Reset "-3": negative; fell back to backoff`},
		{"reset hint ignored: 7 remaining; fell back to backoff", "reset hint ignored: 7 remaining; fell back to backoff"},
		{"bucket empty", "bucket empty"},
		{"max attempts 3 reached, 0 left, v2s untouched", "max attempts 3 reached, 0 left, v2s untouched"},
	} {
		if got := noteText(tc.note); got != tc.want {
			t.Errorf("noteText(%q) = %q, want %q", tc.note, got, tc.want)
		}
	}
}

// FuzzNoteText: noteText reads core's notes, which quote header values as
// the server sent them: whatever a server sends, a note's quoted value
// comes out as it went in, the page's durations around it, and no note
// panics or loses valid UTF-8.
func FuzzNoteText(f *testing.F) {
	f.Add("1.5", int64(877*time.Millisecond), "spread +877ms")
	f.Add(`a "2s" b`, int64(20*time.Millisecond), "")
	f.Add("2m", int64(-1), `"unclosed`)
	f.Fuzz(func(t *testing.T, value string, d int64, note string) {
		quoted := strconv.Quote(value)
		n := "retry-after " + quoted + ": invalid syntax; spread +" + time.Duration(d).String()
		got := noteText(n)
		if !strings.HasPrefix(got, "retry-after "+quoted+": invalid syntax; spread +") {
			t.Fatalf("noteText(%q) = %q: the quoted value is not as it came", n, got)
		}
		if d > 0 && !strings.HasSuffix(got, "+"+human.Duration(time.Duration(d))) {
			t.Fatalf("noteText(%q) = %q, want the spread written %q", n, got, human.Duration(time.Duration(d)))
		}
		if out := noteText(note); utf8.ValidString(note) && !utf8.ValidString(out) {
			t.Fatalf("noteText(%q) = %q: not UTF-8", note, out)
		}
	})
}
