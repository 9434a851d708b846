//go:build !(js && wasm)

package ui

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"retrylab/core"
)

// TestWaitColoursApart: the waits' reasons are told apart by colour alone
// (a wait is a bar, of one shape whatever its reason), also where a lane is
// 1 px high (500 workers; more, in the dense picture). There a bar is
// its colour at full strength, or at half over the lane (the edge rows of a
// bar off the pixel grid; the dense picture's half-opacity fill,
// blendHalf). A Retry-After bar at half strength matched the reset hint's
// colour (#9fc9e6), and its swatch in the legend: ΔE 4.6–5.4. Every pair
// differs by at least minWaitDE (CIE76) in either theme, on either lane
// background, at either strength. The fleet bucket's near-white
// ("queueing") is left out against backoff: at 1 px it reads as an empty
// lane, which no other reason does.
func TestWaitColoursApart(t *testing.T) {
	const minWaitDE = 20
	reasons := waitReasons[:]
	for _, th := range []*theme{&normalTheme, &darkTheme, &presentTheme} {
		for _, bg := range []int{colPanel, colLaneAlt} {
			lane := th.rgb(bg)
			for i, a := range reasons {
				for _, b := range reasons[i+1:] {
					if a == core.ReasonBackoff && b == core.ReasonBucket {
						continue
					}
					ca, cb := th.rgb(reasonColour(a)), th.rgb(reasonColour(b))
					for _, p := range []struct {
						how    string
						ca, cb [3]byte
					}{
						{"full/full", ca, cb},
						{"half/full", half(ca, lane), cb},
						{"full/half", ca, half(cb, lane)},
						{"half/half", half(ca, lane), half(cb, lane)},
					} {
						if d := deltaE(p.ca, p.cb); d < minWaitDE {
							t.Errorf("%s theme, lane %s: %s and %s waits (%s) are ΔE %.1f apart, want %d or more",
								th.name, th.palette[bg], reasonLabel[a], reasonLabel[b], p.how, d, minWaitDE)
						}
					}
				}
			}
		}
	}
}

// TestWaitEdgesStandOut: each wait stands out from its lane by 3:1 or
// more (WCAG 1.4.11, a graphical object's contrast), by its fill or by its
// outline (reasonEdge), in every theme and on either lane's ground. The
// light theme's fills are 1.1–2.3:1 (backoff 1.9, Retry-After 2.2), so
// that the marks over them read; with the bucket's outline at 2.3:1 they
// were all but the indigo hint's below it (an accessibility review).
func TestWaitEdgesStandOut(t *testing.T) {
	const least = 3
	for _, th := range []*theme{&normalTheme, &darkTheme, &presentTheme} {
		for _, bg := range []int{colPanel, colLaneAlt} {
			for _, r := range waitReasons {
				fill := contrast(th, reasonColour(r), bg)
				edge := 0.0
				if e := reasonEdge(r); e >= 0 {
					edge = contrast(th, e, bg)
				}
				if fill < least && edge < least {
					t.Errorf("%s theme, lane %s: a %s wait is %.2f:1 by its fill and %.2f:1 by its outline, want %d:1 by either",
						th.name, th.palette[bg], reasonLabel[r], fill, edge, least)
				}
			}
		}
	}
}

// TestLegendColoursAreTheCanvas: the page's legend (web/app.css) shows each
// wait, mark and line in the colour the canvas draws it, and the
// timeline's ground is the canvas's, in the light scheme and in the dark
// one (its block at the end of the file, whose names must all be the
// light scheme's: a misspelt one would be ignored).
func TestLegendColoursAreTheCanvas(t *testing.T) {
	css, err := os.ReadFile("../../web/app.css")
	if err != nil {
		t.Fatal(err)
	}
	const darkAt = "@media (prefers-color-scheme: dark)"
	i := strings.Index(string(css), darkAt)
	if i < 0 {
		t.Fatalf("web/app.css has no %q", darkAt)
	}
	light, dark := css[:i], css[i:]
	decl := regexp.MustCompile(`(?m)^\s*(--[a-z-]+):\s*([^;]+);`)
	names := map[string]bool{}
	for _, m := range decl.FindAllSubmatch(light, -1) {
		names[string(m[1])] = true
	}
	for _, m := range decl.FindAllSubmatch(dark, -1) {
		if !names[string(m[1])] {
			t.Errorf("the dark scheme sets %s, which the light one does not", m[1])
		}
	}
	shared := map[string]int{
		"--backoff": colBackoff, "--server": colServer, "--hint": colHint, "--bucket": colBucket, "--bucket-line": colBucketLn,
		"--backoff-line": colBackoffLn, "--server-line": colServerLn,
		"--ok": colOK, "--limited": colLimited, "--failed": colFailed, "--timeout": colTimeout, "--aborted": colAborted,
		"--pending": colPending, "--flight": colFlight, "--queued": colQueued, "--hidden": colHidden, "--baseline": colBase,
		"--canvas": colBG, "--giveup": colGiveUp, "--other": colOther, "--squeeze": colSqueeze, "--outage": colOutage,
		"--outage-line": colOutageLn, "--now": colAxis,
	}
	for _, sc := range []struct {
		name string
		css  []byte
		th   *theme
	}{{"light", light, &normalTheme}, {"dark", dark, &darkTheme}} {
		for v, c := range shared {
			m := regexp.MustCompile(`(?m)^\s*` + v + `:\s*(#[0-9a-fA-F]{6});`).FindSubmatch(sc.css)
			if m == nil {
				if sc.name == "dark" && sc.th.palette[c] == normalTheme.palette[c] {
					continue // kept from the light scheme, as the canvas keeps it
				}
				t.Errorf("web/app.css's %s scheme sets no %s", sc.name, v)
				continue
			}
			if got, want := strings.ToLower(string(m[1])), strings.ToLower(sc.th.palette[c]); got != want {
				t.Errorf("%s scheme: the page's %s is %s, the canvas draws %s", sc.name, v, got, want)
			}
		}
	}
}

// half is c at half opacity over bg.
func half(c, bg [3]byte) [3]byte {
	var out [3]byte
	for i := range out {
		out[i] = byte((int(c[i]) + int(bg[i]) + 1) / 2)
	}
	return out
}

// deltaE is the CIE76 distance of two sRGB colours in CIELAB (D65).
func deltaE(a, b [3]byte) float64 {
	la, lb := cieLab(a), cieLab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

func cieLab(c [3]byte) [3]float64 {
	var l [3]float64
	for i, v := range c {
		x := float64(v) / 255
		if x <= 0.04045 {
			l[i] = x / 12.92
		} else {
			l[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	x := (0.4124*l[0] + 0.3576*l[1] + 0.1805*l[2]) / 0.95047
	y := 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	z := (0.0193*l[0] + 0.1192*l[1] + 0.9505*l[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// TestPresentationMarksReadFromAfar: in presentation mode, on a 1280 × 720
// projector, the timeline fitted under the legend has lanes 4 px high for
// 50 workers, and their marks were 1.7 px across the radius, too small to
// tell a shape from the back of a room (found by the page review). They
// are 3.5 px there now. Where a lane is about a pixel (500 workers) or
// roomy (10 workers), and out of presentation mode, marks keep their size.
func TestPresentationMarksReadFromAfar(t *testing.T) {
	// The canvas at 1280 × 720: 1,238 px wide, 635 px of screen under the
	// legend (TestPresentationFitsTheTimeline's page), fitted as frameFor does.
	const width, underLegend = 1238, 635
	for _, c := range []struct {
		th         *theme
		workers    int
		rowH, minR float64 // the fitted rows' height; the least radius wanted
		maxR       float64 // the most (the size it had: a drawing that must not change)
	}{
		{&presentTheme, 50, 4, 3.5, 5.5 * 1.4},
		{&presentTheme, 110, 4, 3.5, 5.5 * 1.4},
		{&presentTheme, 500, 1, 1.6, 1.6},
		{&presentTheme, 10, 19.6, 7.7, 7.7},
		{&normalTheme, 110, 4, 1.68, 1.68},
		{&normalTheme, 500, 1, 1.6, 1.6},
	} {
		l := newLayout(width, c.workers, 14*time.Second, c.th)
		if c.th.fit {
			l.fitHeight(underLegend - fitMargin)
		}
		if math.Abs(l.rowH-c.rowH) > 0.05 {
			t.Errorf("%s theme, %d workers: lanes of %.2f px, want %.2f (the case this checks)", c.th.name, c.workers, l.rowH, c.rowH)
		}
		if l.markR < c.minR-1e-9 || l.markR > c.maxR+1e-9 {
			t.Errorf("%s theme, %d workers, lanes of %.1f px: marks of radius %.2f px, want %.2f–%.2f", c.th.name, c.workers, l.rowH, l.markR, c.minR, c.maxR)
		}
	}
}

// The page's reasons are core's, all of them, in core's order: a reason
// core adds and the page does not list would be painted in no lane and
// counted in no summary (paintWaits and paintDenseLanes skip a reason
// they do not list; waitCount is indexed by it), with no label and the
// backoff's colour.
func TestWaitReasonsAreCoresReasons(t *testing.T) {
	for i, r := range waitReasons {
		if r != core.Reason(i) {
			t.Errorf("waitReasons[%d] = %v, want core's Reason(%d), %v", i, r, i, core.Reason(i))
		}
		if reasonLabel[r] == "" {
			t.Errorf("reason %v has no label", r)
		}
	}
	next := core.Reason(len(waitReasons))
	if s := next.String(); !strings.HasPrefix(s, "Reason(") {
		t.Errorf("core names reason %d %q, which waitReasons leaves out", next, s)
	}
}
