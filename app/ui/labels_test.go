package ui

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/app/mock"
	"retrylab/core"
)

// frameSize is a canvas the page draws the timeline on: its CSS width and theme.
type frameSize struct {
	name  string
	width float64
	th    *theme
}

// frameSizes are the canvases a reviewer looks at: a 1400 × 1000 window,
// light and dark, a 390 px phone, a 320 px one, and presentation mode at
// 1280 × 720.
var frameSizes = []frameSize{
	{"1400 px", 1002, &normalTheme},
	{"1400 px, dark", 1002, &darkTheme},
	{"phone 390 px", 348, &normalTheme},
	{"phone 320 px", 278, &normalTheme},
	{"presentation 1280 px", 1238, &presentTheme},
}

// simulatedView is a view of preset id simulated, as Simulate leaves it;
// base, when not "", is kept as the baseline first (Keep as baseline).
// queryView is a view of the simulated run of a page URL's query, which
// must be valid.
func queryView(t *testing.T, query string) *view {
	t.Helper()
	s, notes := fleet.FromQuery(mustURL(t, "http://x/?"+query).Query())
	if len(notes) > 0 {
		t.Fatalf("%s: %v", query, notes)
	}
	rec := fleet.Simulate(s)
	v := newView()
	v.load(s, rec, rec.Records())
	return v
}

func simulatedView(t *testing.T, id, base string) *view {
	t.Helper()
	v := newView()
	if base != "" {
		p, ok := fleet.PresetByID(base)
		if !ok {
			t.Fatalf("no preset %q", base)
		}
		rec := fleet.Simulate(p.Scenario())
		st, disp := v.load(p.Scenario(), rec, rec.Records())
		v.setBaseline(&newBaseline(rec, rec.Records(), st, disp, 1, false).draw, false)
	}
	p, ok := fleet.PresetByID(id)
	if !ok {
		t.Fatalf("no preset %q", id)
	}
	rec := fleet.Simulate(p.Scenario())
	v.load(p.Scenario(), rec, rec.Records())
	return v
}

// paintView paints v's whole frame at size sz, as the page does.
func paintView(v *view, sz frameSize) (*browser.Ops, layout) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.width, v.theme = sz.width, sz.th
	l, in := v.frameFor(nil)
	var o browser.Ops
	paint(&o, &l, v.m, in)
	return &o, l
}

// drawnMark is a mark the frame draws that a label must leave in sight: a
// histogram bar's part, an arrival, a line.
type drawnMark struct {
	what string
	r    rect
	col  int
	cut  bool // a bar's part reaching the top of the histogram: cut
}

// drawnLabel is a text the frame draws inside a panel.
type drawnLabel struct {
	text  string
	r     rect // its box, or its plate's where one is under it
	col   int
	plate int     // the plate's colour, -1 for none
	alpha float64 // the plate's opacity
	op    int     // its index in the display list
}

// frameContent sorts what o draws in l's histogram and server panels into
// marks and labels.
func frameContent(o *browser.Ops, l *layout) (marks []drawnMark, labels []drawnLabel) {
	strs := o.Strings()
	ops := displayOps(o)
	fill, stroke, strokeW, alpha := -1, -1, 0.0, 1.0
	inHist := func(r rect) bool {
		return r.y >= l.histTop-1 && r.y+r.h <= l.histTop+l.histH+1 && r.x >= l.left-1 && r.x+r.w <= l.right+1
	}
	isClass := func(c int) bool {
		for _, cc := range classColour {
			if cc == c {
				return true
			}
		}
		return false
	}
	lastPlate, lastPlateOp, lastFill, lastAlpha := rect{}, -10, -1, 1.0
	for i, op := range ops {
		a := op.args
		f := func(k int) float64 { return float64(a[k]) }
		switch op.code {
		case 1:
			fill = int(a[0])
		case 2:
			stroke, strokeW = int(a[0]), f(1)
		case 11:
			alpha = f(0)
		case 3:
			if fill == colBG || fill == colPanel {
				lastPlate, lastPlateOp, lastFill, lastAlpha = rect{f(0), f(1), f(2), f(3)}, i, fill, alpha
			}
		case 15: // a bar's part
			r := rect{f(0), f(1), f(2), f(3)}
			if isClass(fill) && inHist(r) {
				marks = append(marks, drawnMark{"bar", r, fill, r.y <= l.histTop+0.5})
			}
		case 7: // an arrival
			x, y, rad := f(1), f(2), f(3)
			r := rect{x - rad, y - rad, 2 * rad, 2 * rad}
			if y >= l.srvTop && y <= l.srvTop+l.srvH {
				marks = append(marks, drawnMark{"arrival", r, fill, false})
			}
		case 5: // a line
			if stroke == colBG || stroke == colGrid || stroke == colAxis {
				continue
			}
			x1, y1, x2, y2 := f(0), f(1), f(2), f(3)
			w := math.Max(1, strokeW)
			r := rect{math.Min(x1, x2) - w/2, math.Min(y1, y2) - w/2, math.Abs(x2-x1) + w, math.Abs(y2-y1) + w}
			if inHist(r.shrink(w / 2)) { // its width may reach past the plot (presentation mode's lines did)
				marks = append(marks, drawnMark{"line", r, stroke, false})
			}
		case 10:
			text := strs[int(a[0])]
			if text == "" {
				continue
			}
			w := fontWidth(text, int(a[3]), l.scale)
			h := 12 * l.scale
			if int(a[3]) == fontSmall {
				h = 11 * l.scale
			}
			x0 := f(1) - w*f(4)/2
			y0 := f(2) - h/2
			switch int(a[5]) {
			case browser.BaselineTop:
				y0 = f(2)
			case browser.BaselineBottom:
				y0 = f(2) - h
			}
			r := rect{x0, y0, w, h}
			plate, plateAlpha := -1, 0.0
			if i-lastPlateOp <= 5 && lastPlate.overlaps(r) {
				r = union(r, lastPlate)
				plate, plateAlpha = lastFill, lastAlpha
			}
			hist := rect{l.left, l.histTop, l.right - l.left, l.histH}
			srv := rect{l.left, l.srvTop, l.right - l.left, l.srvH}
			if r.overlaps(hist) || r.overlaps(srv) {
				labels = append(labels, drawnLabel{text, r, fill, plate, plateAlpha, i})
			}
		}
	}
	return marks, labels
}

func union(a, b rect) rect {
	x0, y0 := math.Min(a.x, b.x), math.Min(a.y, b.y)
	x1, y1 := math.Max(a.x+a.w, b.x+b.w), math.Max(a.y+a.h, b.y+b.h)
	return rect{x0, y0, x1 - x0, y1 - y0}
}

// shrink is r less d on every side: rectangles that only touch do not
// overlap.
func (r rect) shrink(d float64) rect { return rect{r.x + d, r.y + d, r.w - 2*d, r.h - 2*d} }

// isValue reports whether a label is a number: a cut bar's value, with
// or without its rejected share (", 40% rejected").
func isValue(text string) bool {
	_, err := strconv.ParseFloat(strings.ReplaceAll(valueNumber(text), ",", ""), 64)
	return err == nil
}

// valueNumber is a cut bar's value without its rejected share: "194" of
// "194, 90% rejected".
func valueNumber(text string) string {
	if n, share, ok := strings.Cut(text, ", "); ok && strings.HasSuffix(share, "% rejected") {
		return n
	}
	return text
}

// labelsClear reports every label of o that covers a mark or another label:
// a bar's part (a cut bar's value may lie on the part of a cut bar that
// runs off the scale, one colour), an arrival, a limit line or the
// baseline's outline. It looks at the labels
// for which checked holds.
func labelsClear(o *browser.Ops, l *layout, checked func(text string) bool) []string {
	marks, labels := frameContent(o, l)
	var out []string
	for i, lb := range labels {
		if !checked(lb.text) {
			continue
		}
		r := lb.r.shrink(0.5)
		_, byLine := ownLine(l, marks, lb)
		for _, mk := range marks {
			if !r.overlaps(mk.r) || (isValue(lb.text) && mk.cut) || (byLine && (mk.what == "bar" || mk.col == colBase)) {
				continue
			}
			out = append(out, fmt.Sprintf("%q %v covers a %s %v", lb.text, lb.r, mk.what, mk.r))
			break
		}
		for j, other := range labels {
			if j != i && r.overlaps(other.r) {
				out = append(out, fmt.Sprintf("%q %v covers the label %q %v", lb.text, lb.r, other.text, other.r))
			}
		}
	}
	return out
}

// ownLine is the horizontal line in lb's colour nearest to lb across its
// width: the line it names, if it is a line's label. byLine tells whether
// lb lies on a plate against it, where placeLabel puts a line's label on
// the bars when there is no place clear of them.
func ownLine(l *layout, marks []drawnMark, lb drawnLabel) (line drawnMark, byLine bool) {
	best := math.Inf(1)
	for _, mk := range marks {
		if mk.what != "line" || mk.col != lb.col || mk.r.h > mk.r.w || mk.r.x >= lb.r.x+lb.r.w || lb.r.x >= mk.r.x+mk.r.w {
			continue
		}
		y := mk.r.y + mk.r.h/2
		if d := math.Min(math.Abs(lb.r.y-y), math.Abs(lb.r.y+lb.r.h-y)); d < best {
			line, best = mk, d
		}
	}
	return line, lb.plate >= 0 && best <= 8*l.scale // the gap, the line's casing and a pad
}

// An outage's dashed edges run down the lanes and the server panel, not
// across the panels' titles between them ("by send time, 1 s bins…",
// "each request when the server received it…"), nor through the
// histogram, whose labels lay over them: one line ran from the lanes'
// top to the foot (a review).
func TestOutageEdgesStayInTheirPanels(t *testing.T) {
	v := simulatedView(t, "outage", "")
	for _, sz := range frameSizes {
		o, l := paintView(v, sz)
		lanes := [2]float64{l.lanesTop, l.lanesTop + l.laneH*float64(l.workers)}
		srv := [2]float64{l.srvTop, l.srvTop + l.srvH}
		stroke, n := -1, 0
		for _, op := range displayOps(o) {
			switch op.code {
			case 2:
				stroke = int(op.args[0])
			case 5:
				if stroke != colOutageLn {
					continue
				}
				n++
				y1, y2 := float64(min(op.args[1], op.args[3])), float64(max(op.args[1], op.args[3]))
				in := func(p [2]float64) bool { return y1 >= p[0]-0.5 && y2 <= p[1]+0.5 }
				if !in(lanes) && !in(srv) {
					t.Errorf("%s: an outage's edge runs from y %.1f to %.1f, outside the lanes (%.1f–%.1f) and the server panel (%.1f–%.1f)", sz.name, y1, y2, lanes[0], lanes[1], srv[0], srv[1])
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: the outage preset's run draws no outage edge", sz.name)
		}
	}
}

// lineLabels tells the labels of the histogram's lines (the server's
// limit, the fleet bucket's rate) and of the server panel (an outage, a
// burst).
func lineLabels(text string) bool {
	for _, p := range []string{"server limit", "limit ", "fleet bucket", "bucket ", "server down", "down", "burst ×", "×"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// anyLabel tells every label.
func anyLabel(string) bool { return true }

// Every label on the histogram and the server panel leaves the data in
// sight: in each preset's simulated run, on a wide window, on phones and
// in presentation mode, no label (nor its plate) covers a bar (a cut
// bar's value lies only on the tops of cut bars), an arrival, a line, the
// baseline's outline or another label. The server limit's plate hid the
// tops of bars (the flood's 16–17 s; three bars on a phone; the
// baseline's outline in Compare), the fleet bucket's label lay on its
// green bars, "server down" under the arrivals.
func TestLabelsLeaveTheDataInSight(t *testing.T) {
	cases := []struct{ preset, base string }{
		{"flood", ""}, {"exponential", ""}, {"full-jitter", ""}, {"retry-after", ""},
		{"outage", ""}, {"bucket", ""}, {"open", ""},
		{"full-jitter", "flood"}, // Compare: the flood's outline over full jitter
		{"bucket", "flood"},      // and over the bucket, its label on the bars
	}
	for _, c := range cases {
		v := simulatedView(t, c.preset, c.base)
		for _, sz := range frameSizes {
			name := c.preset + ", " + sz.name
			if c.base != "" {
				name += ", against " + c.base
			}
			o, l := paintView(v, sz)
			for _, problem := range labelsClear(o, &l, anyLabel) {
				t.Errorf("%s: %s", name, problem)
			}
		}
	}
	// A 2,000-worker simulation (?workers=2000&jobs=2, Simulate), whose
	// tail of small bars runs under the server limit's label at the right
	// end, in presentation mode on a phone too.
	s, _ := fleet.FromQuery(mustURL(t, "http://x/?workers=2000&jobs=2").Query())
	rec := fleet.Simulate(s)
	v := newView()
	v.load(s, rec, rec.Records())
	for _, sz := range append(slices.Clone(frameSizes), frameSize{"presentation, phone 390 px", 348, &presentTheme}) {
		o, l := paintView(v, sz)
		for _, problem := range labelsClear(o, &l, anyLabel) {
			t.Errorf("2,000 workers, %s: %s", sz.name, problem)
		}
	}
}

// luminance is the relative luminance of a "#rrggbb" colour (WCAG 2).
func luminance(rgb [3]byte) float64 {
	lin := func(b byte) float64 {
		c := float64(b) / 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(rgb[0]) + 0.7152*lin(rgb[1]) + 0.0722*lin(rgb[2])
}

// contrast is the WCAG contrast ratio of two of th's colours.
func contrast(th *theme, a, b int) float64 {
	return contrastRGB(th.rgb(a), th.rgb(b))
}

// contrastRGB is the WCAG contrast ratio of two colours.
func contrastRGB(a, b [3]byte) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// blend is top drawn with opacity alpha over under, as the canvas
// composites it (in sRGB).
func blend(top, under [3]byte, alpha float64) [3]byte {
	var out [3]byte
	for i := range out {
		out[i] = byte(math.Round(alpha*float64(top[i]) + (1-alpha)*float64(under[i])))
	}
	return out
}

// The fleet bucket preset's point is its dotted line at 8 req/s, on the
// tops of the bars it holds down: the line keeps a casing that contrasts
// with the bars (as the server limit's does), and its label lies on a
// background it reads on (it was blue on the green bars).
func TestBucketLineReadsOverItsBars(t *testing.T) {
	v := simulatedView(t, "bucket", "")
	for _, sz := range frameSizes {
		o, l := paintView(v, sz)
		marks, labels := frameContent(o, &l)
		found := false
		for _, lb := range labels {
			if !strings.Contains(lb.text, "bucket 8 req/s") {
				continue
			}
			found = true
			// What shows under the text: the panel or a bar, through
			// the plate where there is one.
			under, what := sz.th.rgb(colPanel), "the panel"
			for _, mk := range marks {
				if mk.what == "bar" && lb.r.shrink(0.5).overlaps(mk.r) {
					under, what = sz.th.rgb(mk.col), fmt.Sprintf("a bar of colour %d", mk.col)
				}
			}
			if lb.plate >= 0 {
				under, what = blend(sz.th.rgb(lb.plate), under, lb.alpha), fmt.Sprintf("a plate (opacity %.1f) over %s", lb.alpha, what)
			}
			if c := contrastRGB(sz.th.rgb(lb.col), under); c < 4.5 {
				t.Errorf("%s: %q in colour %d on %s (%v): contrast %.1f, want at least 4.5", sz.name, lb.text, lb.col, what, under, c)
			}
		}
		if !found {
			t.Errorf("%s: no fleet bucket label", sz.name)
		}
		// The lines: the bucket's blue dots on a casing wider than them,
		// the limit's dashes on a stroke as wide (TestLimitLineReadsOnEveryBar).
		type casing struct {
			x1, x2, y, width float32
		}
		var casings []casing
		stroke, width := -1, float32(0)
		lines, cased := map[int]int{}, map[int]int{}
		for _, op := range displayOps(o) {
			switch a := op.args; op.code {
			case 2:
				stroke, width = int(a[0]), a[1]
			case 5:
				if a[1] != a[3] || float64(a[1]) < l.histTop || float64(a[1]) > l.histTop+l.histH {
					continue // not across the histogram
				}
				switch stroke {
				case colBG:
					casings = append(casings, casing{min(a[0], a[2]), max(a[0], a[2]), a[1], width})
				case colClient, colLimit:
					lines[stroke]++
					for _, c := range casings {
						wider := float32(1.5)
						if stroke == colLimit {
							wider = 0
						}
						if c.y == a[1] && c.x1 <= min(a[0], a[2]) && c.x2 >= max(a[0], a[2]) && c.width >= width+wider {
							cased[stroke]++
							break
						}
					}
				}
			}
		}
		for _, c := range []struct {
			col  int
			name string
		}{{colClient, "fleet bucket's"}, {colLimit, "server limit's"}} {
			if lines[c.col] == 0 || cased[c.col] < lines[c.col] {
				t.Errorf("%s: %d of the %s %d lines across the histogram have a casing under them", sz.name, cased[c.col], c.name, lines[c.col])
			}
		}
		if c := contrast(sz.th, colBG, colOK); c < 3 {
			t.Errorf("%s: the casing's colour contrasts %.1f with the bars'", sz.name, c)
		}
	}
}

// The server limit's line reads on every bar it crosses, in every theme:
// its dashes or the background's colour between them contrast 3:1 with
// the bar. And it notches the bars no more than its own width: a casing
// wider than its dashes made a bar of 11 against a limit of 10 read as
// one of 9 with a sliver above the line (found by a review).
func TestLimitLineReadsOnEveryBar(t *testing.T) {
	for _, th := range []struct {
		name string
		th   *theme
	}{{"normal", &normalTheme}, {"dark", &darkTheme}, {"presentation", &presentTheme}} {
		if c := contrast(th.th, colLimit, colBG); c < 3 {
			t.Errorf("%s: the limit's dashes contrast %.1f with the background between them", th.name, c)
		}
		for cl, col := range classColour {
			if a, b := contrast(th.th, colLimit, col), contrast(th.th, colBG, col); max(a, b) < 3 {
				t.Errorf("%s: on a bar of class %d the limit's dashes contrast %.1f, the gaps %.1f", th.name, cl, a, b)
			}
		}
	}
	v := simulatedView(t, "flood", "")
	for _, sz := range frameSizes {
		o, l := paintView(v, sz)
		type stroke struct {
			col   int
			width float32
		}
		along := map[float32][]stroke{} // the horizontal strokes across the histogram, by y
		col, width := -1, float32(0)
		for _, op := range displayOps(o) {
			switch a := op.args; op.code {
			case 2:
				col, width = int(a[0]), a[1]
			case 5:
				if a[1] == a[3] && float64(a[1]) > l.histTop && float64(a[1]) < l.histTop+l.histH {
					along[a[1]] = append(along[a[1]], stroke{col, width})
				}
			}
		}
		lines := 0
		for y, strokes := range along {
			if !slices.ContainsFunc(strokes, func(s stroke) bool { return s.col == colLimit }) {
				continue
			}
			lines++
			for _, s := range strokes {
				if w := float32(limitWidth * l.scale); (s.col == colBG || s.col == colLimit) && s.width > w {
					t.Errorf("%s: a stroke in colour %d, %.1f px wide, along the limit at y %.1f: it notches the bars it crosses more than the line's %.1f px", sz.name, s.col, s.width, y, w)
				}
			}
		}
		if lines == 0 {
			t.Errorf("%s: no limit line across the histogram", sz.name)
		}
	}
}

// Another client's burst (the Burst button) during the outage preset's
// outage and after it, in the thick of the arrivals: its label, and the
// outage's "server down", are drawn over the arrivals where they cover none
// (both lay under the dots, unreadable), and keep clear of each other and
// of the burst's line.
func TestServerLabelsClearTheArrivals(t *testing.T) {
	v := simulatedView(t, "outage", "")
	v.mu.Lock()
	for _, b := range []struct {
		at       time.Duration
		admitted int
	}{{3500 * time.Millisecond, 0}, {6200 * time.Millisecond, 10}} {
		v.m.serverEvent(&mock.Event{Type: "burst", At: v.m.start.Add(b.at), N: 20, Admitted: b.admitted})
	}
	v.mu.Unlock()
	for _, sz := range frameSizes {
		o, l := paintView(v, sz)
		_, labels := frameContent(o, &l)
		// Each in fewer words where the whole has no room (a phone).
		var outage, bursts []string
		for _, lb := range labels {
			switch {
			case strings.HasSuffix(lb.text, "down"):
				outage = append(outage, lb.text)
			case strings.Contains(lb.text, "×20"):
				bursts = append(bursts, lb.text)
			}
		}
		t.Logf("%s: %q, %q", sz.name, outage, bursts)
		if len(outage) != 1 || len(bursts) != 2 {
			t.Errorf("%s: the outage labelled %q, the two bursts %q", sz.name, outage, bursts)
		}
		for _, problem := range labelsClear(o, &l, lineLabels) {
			t.Errorf("%s: %s", sz.name, problem)
		}
		// Over the arrivals: drawn after every one of them.
		ops := displayOps(o)
		lastDot := 0
		for i, op := range ops {
			if op.code == 7 && float64(op.args[2]) >= l.srvTop && float64(op.args[2]) <= l.srvTop+l.srvH {
				lastDot = i
			}
		}
		for _, lb := range labels {
			if lineLabels(lb.text) && lb.r.y >= l.srvTop-1 && lb.op < lastDot {
				t.Errorf("%s: %q is drawn before the last arrival, under the dots", sz.name, lb.text)
			}
		}
	}
}

// A burst just before the outage, near the plot's left edge, where its
// label fits neither beside its line nor clear of the outage's edge: its
// plate goes below "server down", not over it (a review saw "burst ×20,
// 1 admitted" cover all of it but "own", on the page and in the PNG).
func TestBurstLabelLeavesTheOutageLabel(t *testing.T) {
	for at := 250 * time.Millisecond; at < 3*time.Second; at += 250 * time.Millisecond {
		v := simulatedView(t, "outage", "") // down from 3 s to 6 s
		v.mu.Lock()
		v.m.serverEvent(&mock.Event{Type: "burst", At: v.m.start.Add(at), N: 20, Admitted: 1})
		v.mu.Unlock()
		for _, sz := range frameSizes {
			o, l := paintView(v, sz)
			for _, problem := range labelsClear(o, &l, lineLabels) {
				if strings.Contains(problem, "covers the label") {
					t.Errorf("burst at %v, %s: %s", at, sz.name, problem)
				}
			}
		}
	}
}

// A live run draws what can no longer change once, aside, and the rest on
// top at every frame (layers): "server down" and a burst's label are drawn
// on top, after the arrivals there, where they cover none of the arrivals
// of either drawing.
func TestLiveServerLabelsOverTheArrivals(t *testing.T) {
	m := newModel(t0, 3)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.serverEvent(&mock.Event{Type: "outage", At: at(200), Until: at(700)})
	seq := 10
	arrive := func(ms, n int, tag string) {
		for range n {
			seq++
			m.serverEvent(&mock.Event{Type: "arrival", Seq: uint64(seq), Tag: tag, At: at(ms), Outcome: "ok", Status: 200})
			m.serverEvent(&mock.Event{Type: "end", Seq: uint64(seq), End: "sent"})
		}
	}
	arrive(230, 20, "w2.j0.a1") // a column of arrivals where "server down" went
	arrive(900, 20, "burst")
	m.serverEvent(&mock.Event{Type: "burst", At: at(900), N: 20, Admitted: 0})
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	var ly layers
	ly.draw(&l, m, frameInput{th: &normalTheme, running: true, now: 1200 * time.Millisecond})
	baseMarks, baseLabels := frameContent(&ly.base, &l)
	topMarks, topLabels := frameContent(&ly.top, &l)
	for _, lb := range baseLabels {
		if lineLabels(lb.text) {
			t.Errorf("%q is drawn on the kept drawing, under the arrivals drawn on top", lb.text)
		}
	}
	found := map[string]bool{}
	for _, lb := range topLabels {
		found[lb.text] = true
		for _, mk := range append(baseMarks, topMarks...) {
			if lineLabels(lb.text) && mk.what == "arrival" && lb.r.shrink(0.5).overlaps(mk.r) {
				t.Errorf("%q %v covers an arrival %v", lb.text, lb.r, mk.r)
				break
			}
		}
	}
	for _, want := range []string{"server down", "burst ×20, 0 admitted"} {
		if !found[want] {
			t.Errorf("%q not drawn on top: %v", want, found)
		}
	}
}

// What a stretch that is not measured truth is (the server's stream lost,
// the tab hidden) is said over the marks, drawn whole or in layers: the
// hatch went under the marks and the words with it, and a run that went on
// after the server came back drew its marks and waits over them.
func TestStretchLabelsOverTheMarks(t *testing.T) {
	m := newModel(t0, 3)
	m.setLost(true, 0)
	for _, r := range oneJob() {
		m.add(&r)
	}
	m.setLost(false, 1500*time.Millisecond)
	l := newLayout(1000, 3, 2*time.Second, &normalTheme)
	in := frameInput{th: &normalTheme, now: 2 * time.Second}
	label := "connection to the server lost: its arrivals not seen"
	// at is the display-list index of the label's text, and the last of the
	// lanes' marks' shapes (-1: none).
	at := func(o *browser.Ops) (text, lastMark int) {
		text, lastMark = -1, -1
		strs := o.Strings()
		for i, op := range displayOps(o) {
			switch op.code {
			case 7: // a shape: a lane's mark, or an arrival below
				if y := float64(op.args[2]); y >= l.lanesTop && y <= l.lanesTop+l.laneH*float64(l.workers) {
					lastMark = i
				}
			case 10:
				if strs[int(op.args[0])] == label {
					text = i
				}
			}
		}
		return text, lastMark
	}
	var whole browser.Ops
	paint(&whole, &l, m, in)
	if text, last := at(&whole); text < 0 || last < 0 || text < last {
		t.Errorf("drawn whole: the label at op %d, the last mark at %d: want the label over the marks", text, last)
	}
	var ly layers
	ly.draw(&l, m, frameInput{th: &normalTheme, running: true, now: 2 * time.Second})
	if text, _ := at(&ly.base); text >= 0 {
		t.Error("drawn in layers: the label is on the kept drawing, under the marks drawn on top")
	}
	if text, last := at(&ly.top); text < 0 || text < last {
		t.Errorf("drawn in layers: the label at op %d of the top, its last mark at %d", text, last)
	}
}

// runOfRates is a finished run of 50 workers sending rates[i] requests in
// second i, spread over it, each answered 429 (or 200 for the first ten of
// a second) 50 ms later.
func runOfRates(rates []int) *model {
	m := newModel(t0, 50)
	n := 0
	for sec, r := range rates {
		for j := range r {
			ts := t0.Add(time.Duration(sec)*time.Second + time.Duration(j)*time.Second/time.Duration(r))
			status := 429
			if j < 10 {
				status = 200
			}
			n++
			sentAt(m, n, ts, status)
		}
	}
	m.finish(time.Duration(len(rates)) * time.Second)
	return m
}

// cutBin is a histogram bin whose rate is past the scale: a bar cut at
// its top.
type cutBin struct {
	i, n int // the bin's index, its requests
	rate float64
}

// cutBins are m's histogram bins, as l lays them out, cut at its top.
func cutBins(m *model, l *layout) []cutBin {
	var cut []cutBin
	for i, b := range m.histogram(l.slice, 0, l.bins()) {
		n := 0
		for _, c := range b {
			n += c
		}
		if rate := float64(n) * float64(time.Second) / float64(l.slice); rate > l.histMax {
			cut = append(cut, cutBin{i, n, rate})
		}
	}
	return cut
}

// saidValue is the label among labels that says the value of the cut bin
// c: its number in the axis' unit (a count in bins under a second), whole
// or short ("19k"), on its bar or beside it (placeCutValue).
func saidValue(l *layout, labels []drawnLabel, c cutBin) (drawnLabel, bool) {
	near := (besideGap + 3) * l.scale
	x0, x1 := l.x(time.Duration(c.i)*l.slice)-near, l.x(time.Duration(c.i+1)*l.slice)+near
	want := c.rate * l.ratePer
	for _, lb := range labels {
		if n := valueNumber(lb.text); (n == trimFloat(want) || n == shortRate(want) || n == shortFloat(want)) && lb.r.x < x1 && lb.r.x+lb.r.w > x0 {
			return lb, true
		}
	}
	return drawnLabel{}, false
}

// sentAt adds to m the n-th request of a made-up run, sent at ts by worker
// n mod 50 and answered status 50 ms later.
func sentAt(m *model, n int, ts time.Time, status int) {
	w := n % 50
	for _, rec := range []fleet.Record{
		{Worker: w, Event: core.Event{Kind: core.EventAttempt, At: ts, Intended: ts, Attempt: n}},
		{Worker: w, Event: core.Event{Kind: core.EventOutcome, At: ts.Add(50 * time.Millisecond), Attempt: n, Outcome: core.Outcome{Status: status}}},
	} {
		m.add(&rec)
	}
}

// A bar taller than the histogram's scale is cut at the top: every one
// says its value, on its bar (or along it, or a row lower), on a plate it
// reads on, where it covers no bar that is not cut and no other value.
// Only a local peak said it, and only 34 px from the last: a live
// exponential run's 1–2 s bar (85 after 163) was cut with no number; the
// value was written on the bar's colour; on a phone, full jitter's "194"
// spilled onto the next, uncut bar.
func TestEveryCutBarSaysItsValue(t *testing.T) {
	type run struct {
		name string
		v    *view
	}
	var runs []run
	for name, v := range cutValueRuns(t) {
		runs = append(runs, run{name, v})
	}
	s, _ := fleet.FromQuery(mustURL(t, "http://x/?limiter=bucket&rate=10&burst=10").Query())
	for _, c := range []struct {
		name  string
		rates []int
	}{
		{"exponential live", []int{163, 85, 40, 30, 12, 10, 10, 10, 10, 0, 10, 10, 10, 10, 0, 0, 10, 10, 10, 10, 10, 10, 10}},
		{"three cut in a row", append([]int{150, 120, 130}, slices.Repeat([]int{10}, 40)...)},
		// From 10,000 on in three figures, as the cards: "37978, 99%
		// rejected" stood beside "10k" (a review).
		{"over ten thousand", append([]int{37978, 12067, 10000}, slices.Repeat([]int{10}, 40)...)},
	} {
		v := newView()
		v.scen, v.lim, v.m = s, limitsOf(&s), runOfRates(c.rates)
		runs = append(runs, run{c.name, v})
	}
	cuts := 0
	for _, r := range runs {
		for _, sz := range frameSizes {
			o, l := paintView(r.v, sz)
			name := r.name + ", " + sz.name
			_, labels := frameContent(o, &l)
			for _, c := range cutBins(r.v.m, &l) {
				i, rate := c.i, c.rate
				cuts++
				lb, said := saidValue(&l, labels, c)
				switch {
				case !said:
					t.Errorf("%s: the bar at %v (%.0f req/s, the scale's top %v) is cut with no value", name, time.Duration(i)*l.slice, rate, l.histMax)
				case lb.r.y >= l.histTop+l.histH/3:
					t.Errorf("%s: the value %q of the %v bar is at y %.0f, under the histogram's top third (%.0f–%.0f)", name, lb.text, time.Duration(i)*l.slice, lb.r.y, l.histTop, l.histTop+l.histH)
				case lb.plate < 0 || contrast(sz.th, lb.col, lb.plate) < 4.5:
					t.Errorf("%s: the value %q of the %v bar is not on a plate it reads on (plate colour %d)", name, lb.text, time.Duration(i)*l.slice, lb.plate)
				case rate*l.ratePer >= 9999.5 && valueNumber(lb.text) != shortFloat(rate*l.ratePer):
					t.Errorf("%s: the value %q of the %v bar, %.0f, is not in three figures as the cards write it", name, lb.text, time.Duration(i)*l.slice, rate*l.ratePer)
				case rate*l.ratePer >= 999.5 && rate*l.ratePer < 9999.5 && valueNumber(lb.text) != shortFloat(rate*l.ratePer) && valueNumber(lb.text) != shortRate(rate*l.ratePer):
					t.Errorf("%s: the value %q of the %v bar, %.0f, is not written with its thousands' comma as the cards write it (or short, \"7.6k\")", name, lb.text, time.Duration(i)*l.slice, rate*l.ratePer)
				}
			}
			for _, problem := range labelsClear(o, &l, isValue) {
				t.Errorf("%s: %s", name, problem)
			}
		}
	}
	if cuts == 0 {
		t.Error("no run has a cut bar")
	}
}

// The server panel's labels keep clear of a simulation's arrivals without
// a box per arrival: serverDots covers every dot drawn with a box per run
// of pixel columns in each row of the panel (a 10,000-worker simulation
// with an outage spent 46 ms of a 73 ms paint placing "server down" among
// its 270,000 arrivals one by one).
func TestServerDotsCoverEveryArrival(t *testing.T) {
	s, _ := fleet.FromQuery(map[string][]string{"workers": {"2000"}, "jobs": {"5"}, "rate": {"100"}, "burst": {"100"}, "outage": {"3s"}, "outage_at": {"2s"}})
	rec := fleet.Simulate(s)
	v := newView()
	v.load(s, rec, rec.Records())
	for _, sz := range frameSizes {
		v.mu.Lock()
		v.width, v.theme = sz.width, sz.th
		l, _ := v.frameFor(nil)
		v.mu.Unlock()
		boxes := serverDots(&l, v.m)
		if max := l.srvRows * int(l.right-l.left) / 2; len(boxes) > max {
			t.Errorf("%s: %d boxes for %d arrivals, want at most %d", sz.name, len(boxes), len(v.m.marks), max)
		}
		if !l.dense() {
			t.Fatalf("%s: 2,000 lanes not drawn dense", sz.name)
		}
		rows := map[int][]rect{} // the boxes by the middle of their row, left to right
		for _, b := range boxes {
			k := int(math.Round(b.y + b.h/2))
			rows[k] = append(rows[k], b)
		}
		missed := 0
		for i := range v.m.marks {
			k := &v.m.marks[i]
			x, y := l.x(k.serverAt), l.srvY(k.serverSeq)
			if !k.hasServer || x < l.left || x > l.right {
				continue // not drawn
			}
			// paintDenseServer's square: 3 px at its 2-px cell.
			cx, cy := math.Floor((x-l.left)/denseCell)*denseCell, math.Floor((y-l.srvTop)/denseCell)*denseCell
			dot := rect{l.left + cx - 1 + 0.25, l.srvTop + cy - 1 + 0.25, denseCell + 0.5, denseCell + 0.5}
			if dot.x < l.left { // clipped at the plot's edges
				dot.w, dot.x = dot.w-(l.left-dot.x), l.left
			}
			dot.w = math.Min(dot.w, l.right-dot.x)
			row := rows[int(math.Round(y))]
			i := sort.Search(len(row), func(i int) bool { return row[i].x+row[i].w >= dot.x+dot.w })
			if i == len(row) || row[i].x > dot.x || row[i].y > dot.y || row[i].y+row[i].h < dot.y+dot.h {
				missed++
			}
		}
		if missed > 0 || len(v.m.marks) < 10000 {
			t.Errorf("%s: %d of %d arrivals not covered", sz.name, missed, len(v.m.marks))
		}
	}
}

// histTexts are the texts o draws beside or over l's histogram, the y
// axis' labels included, each with its text's box (not its plate's).
func histTexts(o *browser.Ops, l *layout) []drawnLabel {
	strs := o.Strings()
	var out []drawnLabel
	fill := -1
	for i, op := range displayOps(o) {
		a := op.args
		switch op.code {
		case 1:
			fill = int(a[0])
		case 10:
			text := strs[int(a[0])]
			if text == "" {
				continue
			}
			w, h := fontWidth(text, int(a[3]), l.scale), 12*l.scale
			if int(a[3]) == fontSmall {
				h = 11 * l.scale
			}
			x0, y0 := float64(a[1])-w*float64(a[4])/2, float64(a[2])-h/2
			switch int(a[5]) {
			case browser.BaselineTop:
				y0 = float64(a[2])
			case browser.BaselineBottom:
				y0 = float64(a[2]) - h
			}
			if y0+h > l.histTop-h && y0 < l.histTop+l.histH+h/2 && x0 < l.right {
				out = append(out, drawnLabel{text, rect{x0, y0, w, h}, fill, -1, 0, i})
			}
		}
	}
	return out
}

// isCutValue reports whether a label is a cut bar's value, whole or in
// fewer digits ("19k").
func isCutValue(text string) bool { return isValue(strings.TrimSuffix(valueNumber(text), "k")) }

// cutValueRuns are runs with bars cut at the top: a 5,000-worker
// simulation (?workers=5000, Simulate), each preset simulated, full jitter
// against the flood as the baseline, runs that once drew a cut bar with no
// value or with it too low (simulated), and randomRuns.
func cutValueRuns(t *testing.T) map[string]*view {
	t.Helper()
	runs := map[string]*view{}
	simulated := func(name, query string) { runs[name] = queryView(t, query) }
	simulated("5,000 workers simulated", "workers=5000")
	for _, p := range fleet.Presets {
		runs[p.ID+" simulated"] = simulatedView(t, p.ID, "")
	}
	runs["full jitter against the flood"] = simulatedView(t, "full-jitter", "flood")
	// A thin band of 429s atop 35 successes (TestCutBarShowsItsRejections
	// in tests/): no place for the value on its bar.
	simulated("a thin band of 429s atop a cut bar", "workers=40&jobs=1&attempts=2&strategy=constant&base=9s&rate=1&burst=35")
	// Found by 500 random runs: bins under a second, whose values are
	// counts ("824, 99% rejected" in 500 ms bins, 1,648 req/s); two cut
	// bars side by side on a 320 px phone (1,004 and 891 req/s on a scale
	// of 800), neither with a value; a value in the bar's middle, 50 px
	// under the top of a 130 px histogram on a phone.
	simulated("824 workers in 500 ms bins", "workers=824&jobs=1&strategy=decorrelated&base=1557ms&attempts=2&rate=45.5&burst=1&latency=202ms")
	simulated("two cut bars side by side", "workers=902&jobs=4&strategy=equal&base=604ms&attempts=8&rate=88&burst=9&latency=336ms&seed=837")
	simulated("a value low on its bar", "workers=1405&jobs=2&strategy=equal&base=3503ms&attempts=8&rate=54.5&burst=89&latency=196ms&seed=398")
	for _, q := range randomRuns(24) {
		simulated(q, q)
	}
	return runs
}

// randomRuns are n configurations drawn at random (the same each time):
// of the fleet, the backoff and the mock's limiter, failures and outage.
func randomRuns(n int) []string {
	rng := rand.New(rand.NewPCG(uint64(n), 23))
	strategies := []string{"none", "constant", "exponential", "full", "equal", "decorrelated"}
	limiters := []string{"bucket", "fixed", "sliding", "none"}
	var out []string
	for range n {
		out = append(out, fmt.Sprintf("workers=%d&jobs=%d&workload=%s&timeout=%dms&strategy=%s&base=%dms&attempts=%d&ra_honour=%v&bucket=%v&seed=%d"+
			"&limiter=%s&rate=%g&burst=%d&limit=%d&window=%dms&latency=%dms&fail503=%d&fail500=%d&drop=%d&hang=%d&outage=%dms&outage_at=%dms",
			1+rng.IntN(1500), 1+rng.IntN(4), []string{"closed", "open"}[rng.IntN(2)], 200+rng.IntN(3000),
			strategies[rng.IntN(len(strategies))], 10+rng.IntN(5000), 1+rng.IntN(8), rng.IntN(2) == 0, rng.IntN(3) == 0, rng.IntN(1000),
			limiters[rng.IntN(len(limiters))], float64(1+rng.IntN(200))/2, 1+rng.IntN(100), 1+rng.IntN(100), 100+rng.IntN(3000),
			rng.IntN(400), rng.IntN(3)*10, rng.IntN(3)*5, rng.IntN(2)*5, rng.IntN(2)*5, rng.IntN(2)*(500+rng.IntN(3000)), rng.IntN(5000)))
	}
	return out
}

// The values of cut bars keep apart from one another and from the y
// axis' labels, side by side by at least a few pixels: in a 5,000-worker
// simulation "19029" and "3116" ran together (their plates a pixel apart,
// unseen on the white panel) and "19029", half past the plot's left edge,
// crowded the "3000" tick over it (3.5 px under it). Around the y axis'
// labels they keep 4 px in every direction.
func TestCutValuesKeepApart(t *testing.T) {
	for name, v := range cutValueRuns(t) {
		for _, sz := range frameSizes {
			o, l := paintView(v, sz)
			texts := histTexts(o, &l)
			apart := (valueGap - 2) * l.scale // between texts: the gap, less a plate's margins
			for i, a := range texts {
				if !isCutValue(a.text) {
					continue
				}
				// Beside another value or a label; all round an axis label.
				r := rect{a.r.x - apart, a.r.y - 1, a.r.w + 2*apart, a.r.h + 2}
				d := 4 * l.scale
				axis := rect{a.r.x - d, a.r.y - d, a.r.w + 2*d, a.r.h + 2*d}
				for j, b := range texts {
					if j != i && (r.overlaps(b.r) || (b.r.x+b.r.w <= l.left && axis.overlaps(b.r))) {
						t.Errorf("%s, %s: the value %q %v is too near %q %v", name, sz.name, a.text, a.r, b.text, b.r)
					}
				}
			}
		}
	}
}

// The baseline's outline, where it runs along the top of a histogram
// zoomed in (or scaled to the run's own bars), says its value as a cut
// bar does, in the baseline's colour: zoomed into a comparison, it ran off
// the top with no number.
func TestCutBaselineSaysItsValue(t *testing.T) {
	v := simulatedView(t, "bucket", "flood")
	whole := v.span(0)
	cuts := 0
	for span := whole; span >= time.Second; span /= 2 {
		for from := time.Duration(0); from+span <= whole; from += span / 2 {
			v.mu.Lock()
			v.zoomFrom, v.zoomSpan = from, span
			if span == whole {
				v.zoomFrom, v.zoomSpan = 0, 0
			}
			v.mu.Unlock()
			for _, sz := range frameSizes {
				name := fmt.Sprintf("%v from %v, %s", span.Round(time.Millisecond), from.Round(time.Millisecond), sz.name)
				o, l := paintView(v, sz)
				_, labels := frameContent(o, &l)
				lo := int(l.from / l.slice)
				rates := v.base.rates(l.slice, lo, l.bins())
				for i, r := range rates {
					if r <= l.histMax {
						continue
					}
					cuts++
					x0, x1 := l.x(time.Duration(lo+i)*l.slice), l.x(time.Duration(lo+i+1)*l.slice)
					said := false
					for _, lb := range labels {
						if (lb.text == trimFloat(r*l.ratePer) || lb.text == shortRate(r*l.ratePer)) && lb.col == colBase && lb.r.x < x1 && lb.r.x+lb.r.w > x0 {
							said = true
						}
					}
					if !said {
						t.Errorf("%s: the baseline's %v bin (%.0f req/s, the scale's top %v) runs off the top with no value", name, time.Duration(lo+i)*l.slice, r, l.histMax)
					}
				}
				// Clear of the bars not cut, the lines and the other
				// labels; a baseline's value may lie on the outline's
				// steps at its bin's edges.
				marks, _ := frameContent(o, &l)
				for _, lb := range labels {
					if !isCutValue(lb.text) {
						continue
					}
					r := lb.r.shrink(0.5)
					for _, mk := range marks {
						if !r.overlaps(mk.r) || mk.cut || (lb.col == colBase && mk.what == "line" && mk.col == colBase && mk.r.h > mk.r.w) {
							continue
						}
						t.Errorf("%s: %q %v covers a %s %v", name, lb.text, lb.r, mk.what, mk.r)
					}
					for _, other := range labels {
						if other.op != lb.op && r.overlaps(other.r) {
							t.Errorf("%s: %q %v covers the label %q %v", name, lb.text, lb.r, other.text, other.r)
						}
					}
				}
			}
		}
	}
	if cuts == 0 {
		t.Error("no window cuts the baseline")
	}
}

// The dispersion's number said only "of retries; ≫ 1 = herds": a learner
// could not tell what was counted or what a value means. Its tooltip says
// how it is computed, and what it says of herds holds for fleet.Dispersion:
// herds of k retries every 2 s give about k, retries at random about 1.
func TestDispersionSaysWhatItMeasures(t *testing.T) {
	var d stat
	for _, s := range statList(&fleet.Stats{}, 0, endLive, 0) {
		if s.Name == "dispersion" {
			d = s
		}
	}
	if want := "per " + human.Duration(fleet.DispersionSlice); !strings.Contains(d.Tip, want) || !strings.Contains(d.Tip, "herds of k") {
		t.Fatalf("dispersion's tooltip %q does not say it counts retries %s and what herds of k give", d.Tip, want)
	}
	t0 := time.Unix(0, 0)
	retry := func(at time.Duration) fleet.Record {
		return fleet.Record{Event: core.Event{Kind: core.EventAttempt, Attempt: 2, At: t0.Add(at)}}
	}
	const k = 10
	var herds, random []fleet.Record
	for h := range 20 {
		for range k {
			herds = append(herds, retry(time.Duration(h)*2*time.Second))
		}
	}
	rng := core.NewPCG(1)
	for range 2000 {
		random = append(random, retry(time.Duration(rng.Float64()*float64(40*time.Second))))
	}
	if got := fleet.Dispersion(herds, fleet.DispersionSlice); got < 0.8*k || got > 1.2*k {
		t.Errorf("herds of %d retries every 2 s: dispersion %.2f, not about %d", k, got, k)
	}
	if got := fleet.Dispersion(random, fleet.DispersionSlice); got < 0.8 || got > 1.2 {
		t.Errorf("retries at random: dispersion %.2f, not about 1", got)
	}
}

// The legend's "server down" said the Outage button shades it; a
// scheduled outage (the Server outage setting, live or simulated) is
// shaded the same way (TestSimulatedOutageIsDrawn), and its legend says so.
func TestLegendNamesEveryOutage(t *testing.T) {
	f, _ := fleet.FieldByKey("outage")
	for _, it := range legendPhases {
		if it.sample.kind == sampleOutage {
			if !strings.Contains(it.title, "Outage button") || !strings.Contains(it.title, f.Label) {
				t.Errorf("the legend's %q says %q: not both the Outage button and the %s setting", it.label, it.title, f.Label)
			}
			return
		}
	}
	t.Fatal("no server-down item in the legend")
}

// The give-ups said how many jobs Stop (or the attempt limit) cut short,
// never why the others gave up: 9 give-ups of the open-arrivals step read
// the same whether the jobs ran out of attempts or out of budget. Their
// tooltip counts every cause fleet.Cause gives.
func TestGiveUpsSayWhy(t *testing.T) {
	st := fleet.Stats{GiveUps: 12, Cancelled: 1, Causes: map[string]int{"exhausted": 9, "budget-empty": 2, "cancelled": 1}}
	for _, s := range statList(&st, 0, endLive, 0) {
		if s.Name == "give_ups" {
			if want := "why: out of attempts: 9; retry budget empty: 2"; s.Tip != want {
				t.Errorf("give-ups' tooltip %q, want %q", s.Tip, want)
			}
		}
	}
	// Every cause but "cancelled" (the line's) and "success" has words.
	for _, err := range []error{core.ErrExhausted, core.ErrMaxElapsed, core.ErrBudgetEmpty, core.ErrAboveCeiling, core.ErrPermanent, core.ErrHorizon, errors.New("bad policy")} {
		c := fleet.Cause(&core.StopError{Cause: err})
		if causesText(map[string]int{c: 1}) == "" {
			t.Errorf("cause %q has no words in the give-ups' tooltip", c)
		}
	}
}

// The histogram's y labels stay inside their column at any scale: a
// simulation over 169 years (37 requests, uncapped backoff) wrote its rates
// per second, "0.0000015" and "0.00000075", wider than the column (cut at
// the canvas' left edge), and its time axis "864000000 s". Bins of a day
// and more write them per day, and the axis in days; a run of seconds
// keeps req/s.
func TestHistogramLabelsFitAtAnyScale(t *testing.T) {
	for _, c := range []struct {
		name, query       string
		unit, title, tick string
	}{
		{"full jitter", "", "req/s", "Requests sent per second", " s"},
		{"169 years", "workers=1&jobs=1&fail500=100&cap=0s&attempts=1000", "req/day", "Requests sent per day", "0000 d"},
	} {
		q, _ := url.ParseQuery(c.query)
		s, ferrs := fleet.FromQuery(q)
		if ferrs != nil {
			t.Fatal(ferrs)
		}
		rec := fleet.Simulate(s)
		v := newView()
		v.load(s, rec, rec.Records())
		for _, sz := range frameSizes {
			o, l := paintView(v, sz)
			texts := strings.Join(o.Strings(), "|")
			for _, want := range []string{c.unit, c.title, c.tick + "|"} {
				if !strings.Contains(texts, want) {
					t.Errorf("%s, %s: %q not drawn: %s", c.name, sz.name, want, texts)
				}
			}
			for _, b := range histAxisBoxes(&l, l.histMax) {
				if b.x < 0 || b.x+b.w > l.left {
					t.Errorf("%s, %s: a y label spans x %.0f–%.0f, outside its column 0–%.0f (top %g req/s)", c.name, sz.name, b.x, b.x+b.w, l.left, l.histMax)
				}
			}
		}
	}
}

// How late the page took the answers in has a number: the send lateness
// card's tooltip gives its p99 and max when the run measured it (a live
// run in the page), and only the percentiles' rule when not (under load a
// flood's first answers were taken in 0.45 s late, drawn as "late"
// outlines, and no number said so). Either way it first says whose
// lateness it is: this device's, not the server's (a phone in a workshop
// room read "lateness p99 171 ms" with no word on whose doing it was).
func TestLatenessCardTellsThePickup(t *testing.T) {
	const whose = "this device's own delay (its timers, its busy thread), not the server's"
	for _, c := range []struct {
		st   fleet.Stats
		want string
	}{
		{fleet.Stats{LatenessN: 4, PickupN: 4, PickupP99: 450 * time.Millisecond, PickupMax: 512 * time.Millisecond},
			whose + ". The page took the answers in 450\u00a0ms after they came at p99 (at most 512\u00a0ms), its thread busy elsewhere; a job's completion counts that. Nearest-rank percentile: of n values sorted, the ⌈p·n⌉-th (p99 of 50 is the largest)."},
		{fleet.Stats{LatenessN: 4}, whose + "; " + percentileTip},
	} {
		for _, s := range statList(&c.st, 0, endLive, 0) {
			if s.Name == "lateness_p99_ms" && s.Tip != c.want {
				t.Errorf("pickup %d measured: tooltip %q, want %q", c.st.PickupN, s.Tip, c.want)
			}
		}
	}
}
