package ui

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
)

// Colour indices into a theme's palette (browser.Ops.Palette).
const (
	colBG = iota
	colPanel
	colGrid
	colAxis
	colText
	colMuted
	colOK        // 2xx
	colLimited   // 429 / 503
	colFailed    // other failures
	colTimeout   // timeouts
	colAborted   // aborted by Stop
	colPending   // in flight
	colFlight    // the in-flight bar ("waiting" in the network waterfall)
	colQueued    // browser-side queueing
	colBackoff   // backoff wait ("stalled")
	colServer    // Retry-After wait
	colHint      // reset-hint wait
	colBucket    // bucket wait ("queueing")
	colBucketLn  // its outline
	colBackoffLn // a backoff wait's outline
	colServerLn  // a Retry-After wait's outline
	colHidden    // hidden-tab hatching
	colLimit     // the server's limit line
	colClient    // the fleet bucket's rate line
	colSelect    // selection ring
	colCross     // crosshair
	colGiveUp    // a job that gave up
	colLaneAlt   // every fifth lane
	colOther     // other clients' arrivals in a shared room
	colBase      // the baseline run's outline (Compare)
	colOutage    // a server outage's shading
	colOutageLn  // its edges and label
	colSqueeze   // a stretch with the server's limit scaled down (its line is colLimit)
	numColours
)

// theme is the look of the canvas: the Okabe–Ito colour-blind-safe palette
// for outcomes (which also differ by shape), network-waterfall colours for
// phases, and sizes.
type theme struct {
	name    string
	palette []string
	fonts   []string // fontSmall, fontLabel, fontTitle
	scale   float64  // marks and text grow in presentation mode
	// fit: the timeline fits the viewport's height (layout.fitHeight),
	// for a projector to show every panel at once.
	fit bool
	// markMin is the least radius of an attempt's mark, CSS px, where the
	// lanes' rows are 4 px high or so (layout.place): 0, none.
	markMin float64
}

const (
	fontSmall = iota
	fontLabel
	fontTitle
)

var normalTheme = theme{
	name: "normal",
	palette: []string{
		colBG:       "#ffffff",
		colPanel:    "#fafaf7",
		colGrid:     "#e6e6e1",
		colAxis:     "#9a9a94",
		colText:     "#1f2a44",
		colMuted:    "#6b6f7a",
		colOK:       "#009E73", // bluish green
		colLimited:  "#D55E00", // vermillion
		colFailed:   "#CC79A7", // reddish purple
		colTimeout:  "#E69F00", // orange
		colAborted:  "#3d3d3d",
		colPending:  "#0072B2",
		colFlight:   "#8fd1bb", // a light "waiting" green
		colQueued:   "#F0E442", // yellow: the browser held it
		colBackoff:  "#b9b9b4", // grey: "stalled"
		colServer:   "#56B4E9", // sky blue: the server asked
		colHint:     "#3f3f9f", // indigo: apart from sky blue in a 1-px lane too (TestWaitColoursApart)
		colBucket:   "#ecebe6", // near white: "queueing"
		colBucketLn: "#858581",
		// The waits' outlines are 3.3:1 or more against either lane (WCAG
		// 1.4.11, TestWaitEdgesStandOut): the fills, kept light so that the
		// marks over them read, are 1.1–2.3:1 (the indigo hint's 7.8).
		colBackoffLn: "#858581",
		colServerLn:  "#438cb5",
		colHidden:    "#b0a9c9",
		colLimit:     "#1f2a44",
		colClient:    "#0072B2",
		colSelect:    "#111111",
		colCross:     "rgba(31,42,68,0.55)",
		colGiveUp:    "#111111",
		colLaneAlt:   "#f3f3ee",
		colOther:     "#c4c4bd",
		colBase:      "#5e3c99", // violet: no outcome's colour
		colOutage:    "#fbe4de",
		colOutageLn:  "#a33a1d",
		colSqueeze:   "#e3e9f4",
	},
	fonts: []string{
		fontSmall: "11px system-ui, sans-serif",
		fontLabel: "12px system-ui, sans-serif",
		fontTitle: "600 12px system-ui, sans-serif",
	},
	scale: 1,
}

// presentTheme is for a projector: white background, darker lines, bigger
// type and marks.
var presentTheme = func() theme {
	t := normalTheme
	t.name = "present"
	t.palette = append([]string(nil), normalTheme.palette...)
	t.palette[colPanel] = "#ffffff"
	t.palette[colGrid] = "#d0d0ca"
	t.palette[colAxis] = "#555555"
	t.palette[colText] = "#000000"
	t.palette[colMuted] = "#333333"
	t.palette[colBackoff] = "#a4a49e"
	t.palette[colBackoffLn] = "#83837e"
	t.palette[colBucket] = "#e3e2dc"
	t.palette[colLaneAlt] = "#f4f4f0"
	t.fonts = []string{
		fontSmall: "15px system-ui, sans-serif",
		fontLabel: "16px system-ui, sans-serif",
		fontTitle: "700 16px system-ui, sans-serif",
	}
	t.scale = 1.4
	t.fit = true
	// Fitted to a 1280 × 720 screen, 50 lanes are 4 px high: their marks
	// were 1.7 px across the radius (as 110 workers' out of presentation
	// mode), too small to tell a circle from a triangle from the back of a
	// room. They take 3.5 px there, over their neighbours' edges (the
	// halo keeps them apart); 500 workers' lanes, 1 px high, keep theirs.
	t.markMin = 3.5
	return t
}()

// darkTheme is for a system that prefers a dark colour scheme (the page's
// own colours follow it, web/app.css): the outcomes keep their Okabe–Ito
// colours, which hold on a dark ground; what was near black (aborted, a
// give-up, the limit line, the selection ring) turns near white, what
// was near white (the fleet bucket's wait, the outage's shade) near the
// ground, and the blue, indigo and violet that were dark are lighter.
// Presentation mode keeps its light, high-contrast look whatever the
// system prefers: a projector washes out a dark ground.
var darkTheme = func() theme {
	t := normalTheme
	t.name = "dark"
	t.palette = append([]string(nil), normalTheme.palette...)
	for c, v := range map[int]string{
		colBG:       "#151922",
		colPanel:    "#1a1f29",
		colGrid:     "#2c3340",
		colAxis:     "#737b8b",
		colText:     "#e4e7ee",
		colMuted:    "#a3a9b6",
		colAborted:  "#c8c8c8",
		colPending:  "#3d9be0",
		colFlight:   "#5fae95",
		colBackoff:  "#8a847a", // a warm grey: apart from the sky blue at half strength on the dark lanes
		colHint:     "#a99cff",
		colBucket:   "#2b313d",
		colBucketLn: "#7b8291",
		// The fills hold 4:1 and more on the dark lanes: the outline is the fill.
		colBackoffLn: "#8a847a",
		colServerLn:  "#56B4E9",
		colHidden:    "#8e86ad",
		colLimit:     "#e4e7ee",
		colClient:    "#3d9be0",
		colSelect:    "#ffffff",
		colCross:     "rgba(228,231,238,0.55)",
		colGiveUp:    "#f0f0f0",
		colLaneAlt:   "#202633",
		colOther:     "#5b6170",
		colBase:      "#b59ce8",
		colOutage:    "#3b2520",
		colOutageLn:  "#f08a66",
		colSqueeze:   "#232c3d",
	} {
		t.palette[c] = v
	}
	return t
}()

// pickTheme is the canvas's look: presentation mode's whatever the system
// prefers, else the dark one where the system prefers dark; grown with
// the person's font size (fontZoom).
func pickTheme(present, dark bool) *theme {
	fontZoom()
	switch {
	case present:
		return themes[2]
	case dark:
		return themes[1]
	}
	return themes[0]
}

// themes are the normal, dark and presentation themes as fontZoom grows them.
var themes = [3]*theme{&normalTheme, &darkTheme, &presentTheme}

// fontZoom is how much larger than 16 px the browser's default font size
// is, read once (browser.DefaultFontSize): the page's text grows with it
// (web/app.css sizes it in rem), and the canvas's, drawn in px, did not:
// at 24 px its ticks, lane labels and titles stayed 11–12 px. Not below 1
// (the canvas's 11 px is already small: a smaller setting leaves it) nor
// above maxFontZoom (a phone's plot keeps room beside its labels).
func fontZoom() float64 {
	fontZoomOnce.Do(func() {
		fontZoomed = zoomOf(browser.DefaultFontSize())
		for i, t := range themes {
			themes[i] = t.zoomed(fontZoomed)
		}
	})
	return fontZoomed
}

var (
	fontZoomOnce sync.Once
	fontZoomed   float64
)

// maxFontZoom is the most fontZoom grows the canvas by: 32 px text.
const maxFontZoom = 2

// zoomOf is fontZoom for a default font size of px CSS px (0: unknown).
func zoomOf(px float64) float64 {
	if !(px > 16) {
		return 1
	}
	return math.Min(px/16, maxFontZoom)
}

// zoomed is t with its type, text layout and marks grown by z, as
// presentation mode's scale grows them: fonts z times as large, and the
// layout (layout.scale, the lane labels' column, the panels' titles,
// text measured by fontWidth) with them. At 1 it is t itself: nothing
// changes.
func (t *theme) zoomed(z float64) *theme {
	if z == 1 {
		return t
	}
	c := *t
	c.scale *= z
	c.fonts = make([]string, len(t.fonts))
	for i, f := range t.fonts {
		c.fonts[i] = zoomFont(f, z)
	}
	return &c
}

// zoomFont is the CSS font f ("600 12px system-ui") with its size in px
// times z.
func zoomFont(f string, z float64) string {
	i := strings.Index(f, "px")
	if i < 0 {
		return f
	}
	j := strings.LastIndexByte(f[:i], ' ') + 1
	px, err := strconv.ParseFloat(f[j:i], 64)
	if err != nil {
		return f
	}
	return f[:j] + strconv.FormatFloat(px*z, 'f', 2, 64) + f[i:]
}

// classColour and classShape: every outcome differs in colour AND shape.
var classColour = [fleet.NumClasses]int{
	fleet.ClassOK:      colOK,
	fleet.ClassLimited: colLimited,
	fleet.ClassFailed:  colFailed,
	fleet.ClassTimeout: colTimeout,
	fleet.ClassAborted: colAborted,
	fleet.ClassPending: colPending,
}

var classShape = [fleet.NumClasses]browser.Shape{
	fleet.ClassOK:      browser.Circle,
	fleet.ClassLimited: browser.Triangle,
	fleet.ClassFailed:  browser.Square,
	fleet.ClassTimeout: browser.Diamond,
	fleet.ClassAborted: browser.Cross,
	fleet.ClassPending: browser.Bar,
}

// classPattern is how the histogram's bars (and the legend's sample of
// them) pattern each outcome over its colour, so that the classes of a
// stacked bar differ in greyscale too, as the marks do by shape: 2xx and
// in flight solid, 429/503 hatched /, other failures \, timeouts dotted,
// aborted crossed (its mark is a cross).
var classPattern = [fleet.NumClasses]pattern{
	fleet.ClassLimited: patRise,
	fleet.ClassFailed:  patFall,
	fleet.ClassTimeout: patDots,
	fleet.ClassAborted: patCross,
}

type pattern uint8

const (
	patSolid pattern = iota
	patRise          // lines rising to the right, /
	patFall          // lines falling to the right, \
	patDots          // dotted lines, /
	patCross         // both, ×
)

// hatchClass patterns the rectangle (x, y, w, h) as classPattern has class
// c's: lines of the ground's colour, the rectangle's colour between them.
// Under a ClipPath, the rectangle is the area the path's shapes lie in.
func hatchClass(o *browser.Ops, c fleet.Class, x, y, w, h, s float64) {
	p := classPattern[c]
	if p == patSolid {
		return
	}
	sp := 5 * s
	width, dash := 1.5*s, 0.0
	if p == patDots {
		sp, width, dash = 4*s, 1.6*s, 1.6*s
	}
	o.StrokeStyle(colBG, width, dash)
	if p != patFall {
		o.Hatch(x, y, w, h, sp)
	}
	if p == patFall || p == patCross {
		o.Hatch(x, y, w, h, -sp)
	}
}

// classLabel is how the legend and the tooltip name a class.
var classLabel = [fleet.NumClasses]string{
	fleet.ClassOK:      "success (2xx)",
	fleet.ClassLimited: "rejected (429/503)",
	fleet.ClassFailed:  "other failure",
	fleet.ClassTimeout: "timeout",
	fleet.ClassAborted: "aborted (Stop)",
	fleet.ClassPending: "in flight",
}

// reasonColour is the fill of a wait, by why the loop waits.
func reasonColour(r core.Reason) int {
	switch r {
	case core.ReasonRetryAfter:
		return colServer
	case core.ReasonResetHint:
		return colHint
	case core.ReasonBucket:
		return colBucket
	}
	return colBackoff
}

// reasonEdge is the outline of a wait, by why the loop waits, where its
// fill is too light to stand out from the lane on its own; -1 for none.
func reasonEdge(r core.Reason) int {
	switch r {
	case core.ReasonRetryAfter:
		return colServerLn
	case core.ReasonResetHint:
		return -1
	case core.ReasonBucket:
		return colBucketLn
	}
	return colBackoffLn
}

// rgb is the theme's colour c as red, green, blue: the palette's "#rrggbb"
// (black for anything else, which the dense pictures do not use).
func (t *theme) rgb(c int) [3]byte {
	var out [3]byte
	if h := t.palette[c]; len(h) == 7 && h[0] == '#' {
		for i := range out {
			v, err := strconv.ParseUint(h[1+2*i:3+2*i], 16, 8)
			if err == nil {
				out[i] = byte(v)
			}
		}
	}
	return out
}

// waitReasons are the reasons a loop waits, every core.Reason in core's
// order: the order the lanes paint waits in and the summary names them
// (TestWaitReasonsAreCoresReasons). A reason left out of a list of them
// here was painted nowhere and counted nowhere.
var waitReasons = [...]core.Reason{core.ReasonBackoff, core.ReasonRetryAfter, core.ReasonResetHint, core.ReasonBucket}

// reasonLabel names a wait reason for people, with the waterfall phase it looks like.
var reasonLabel = map[core.Reason]string{
	core.ReasonBackoff:    "backoff",
	core.ReasonRetryAfter: "Retry-After",
	core.ReasonResetHint:  "rate-limit reset hint",
	core.ReasonBucket:     "fleet bucket",
}
