package ui

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"retrylab/app/browser"
)

// placeNear finds a w×h box in the server panel clear of obs, its left
// edge between xlo and xhi: the nearest to the top row with its left edge
// at prefer, a pixel down costing as much as a pixel aside (placeCost).
func placeNear(obs []rect, l *layout, w, h, xlo, xhi, prefer float64) (r rect, ok bool) {
	return placeIn(obs, l.srvTop, l.srvH, w, h, xlo, xhi, prefer)
}

// placeIn is placeNear in the panel from top, height px high.
func placeIn(obs []rect, top, height, w, h, xlo, xhi, prefer float64) (r rect, ok bool) {
	if xhi < xlo {
		return r, false
	}
	obs = within(obs, xlo-2, xhi+w+2) // what each row's clearX looks at, found once
	best := math.Inf(1)
	for t := top + 2; t+h <= top+height-1; t += 2 {
		if x, xok := clearX(obs, t, h, w, xlo, xhi, prefer, 1); xok {
			if c := placeCost(rect{x, t, w, h}, top, prefer); c < best {
				r, ok, best = rect{x, t, w, h}, true, c
			}
		}
	}
	return r, ok
}

// placeCost is how far a label's box r in a panel from top is from its
// place: the top row, its left edge at prefer.
func placeCost(r rect, top, prefer float64) float64 {
	return math.Abs(r.x-prefer) + r.y - (top + 2)
}

// placeLabel draws lb on a plate at its line, just above or below it
// (lineLabelNear), where it covers none of marks and of under
// (placeLineLabel), and adds it to marks. Where there is no such place it
// lies at its line on under's marks, on an opaque plate, in as few words
// and where it covers as little of them as it can: the first of under
// first (the bars), then the next as well (the baseline's outline).
// Further from its line it read as a label of nothing in particular: on
// a phone full jitter's server limit sat 25–35 px above its line, over
// the bars that rose past it (a review), and the outage's 85 px. Where
// there is no place at its line even so (other labels, a burst's line),
// it goes as near it as it is clear of everything, else on the bars; the
// fleet bucket's rate, under the server's limit, had room above its line
// only beyond the limit's, whose label it then read as. Where there is
// none either, as over a baseline's outline with both lines near the
// foot, it may have another line between it and its own, clear of
// everything; where there is no place even so it is left out if optional
// (as it is wherever it has no place at its line, clear or on the bars),
// else drawn at its line's end, as readable as it gets.
func placeLabel(o *browser.Ops, l *layout, marks *[]rect, lb lineLabel, under ...[]rect) {
	text, r, ok, alpha := "", rect{}, false, plateAlpha
	near := lineLabelNear*l.scale - lineGap // the plate's d from placeLineLabel's place
	// try places lb clear of marks and hard, at most maxD px further from
	// its line than the gap; covering as little of soft as it can where
	// soft is not empty, in as few words.
	try := func(lb lineLabel, hard, soft [][]rect, maxD float64) {
		obs := slices.Clone(*marks)
		for _, u := range hard {
			obs = append(obs, u...)
		}
		var on []rect
		for _, u := range soft {
			on = append(on, u...)
		}
		// In fewer words where the whole label does not fit, or only
		// further from its line by more than a line of text; on the
		// marks, in the fewest that cover the least.
		best := math.Inf(1)
		for i, t := range lb.texts {
			tr, d, tok := placeLineLabel(l, obs, on, lb, t, maxD)
			c := d + float64(i)*tr.h
			if on != nil {
				c = d + float64(i)*1e-3
			}
			if tok && c < best {
				text, r, ok, best = t, tr, true, c
			}
		}
	}
	// Clear of all of under (i == 0), else on its first i lists. An
	// optional label too: "limit ×0.5", left out where nothing is clear
	// at its line, was gone from every finished run with a halved limit
	// (a presenter's review), which it had named while the run went on.
	for i := 0; !ok && i <= len(under); i++ {
		if try(lb, under[i:], under[:i], near); ok && i > 0 {
			alpha = 1 // what it lies on need not show through: the text reads on it as on the panel
		}
	}
	for i := 0; !ok && !lb.optional && i <= len(under); i++ {
		if try(lb, under[i:], nil, math.Inf(1)); ok && i > 0 {
			alpha = 1
		}
	}
	if !ok && !lb.optional && len(lb.others) > 0 {
		free := lb
		free.others = nil
		try(free, under, nil, math.Inf(1))
	}
	if !ok {
		if lb.optional {
			return // "limit ×0.5": the shading and the line's step say it
		}
		if text = fitText(lb.texts, l.right-l.left-8, fontLabel, l.scale); text == "" {
			text = lb.texts[len(lb.texts)-1]
		}
		r = plateRect(l, text, l.right-4, lb.y-3, fontLabel, browser.AlignRight, browser.BaselineBottom)
		if lb.left {
			r = plateRect(l, text, lb.from+4, lb.y+3, fontLabel, browser.AlignLeft, browser.BaselineTop)
		}
		// Inside the plot: under a line along its top, over one along its foot.
		if r.y < l.histTop {
			r.y = lb.y + 3
		} else if r.y+r.h > l.histTop+l.histH {
			r.y = lb.y - 3 - r.h
		}
	}
	*marks = append(*marks, platedText(o, l, text, r.x+2, r.y+r.h/2, fontLabel, browser.AlignLeft, browser.BaselineMiddle, lb.col, alpha))
}

// lineLabel is a label of a horizontal line across the histogram: the
// limit line's, a stretch's "limit ×0.5", the fleet bucket's.
type lineLabel struct {
	texts    []string // the label, then in fewer words (shorterLabels)
	y        float64  // the line's
	from, to float64  // the part of the line it names (x)
	left     bool     // nearest the part's left end (else its right end)
	above    bool     // above the line where both sides have room (else below)
	col      int
	optional bool // left out where there is no place at its line
	// others are the other lines' segments (x1, y1, x2, y2): the label
	// has none between it and its line, where it would read as that
	// line's label, wherever there is another place (placeLabel).
	others [][4]float64
}

// shorterLabels is a line's label, then the same in fewer words, for a
// narrow plot: "server limit 10 req/s (burst 10)", "server limit 10
// req/s", "limit 10 req/s".
func shorterLabels(label string) []string {
	out := []string{label}
	if i := strings.IndexAny(label, "(;"); i > 0 {
		out = append(out, strings.TrimSpace(label[:i]))
	}
	for _, p := range []string{"server ", "fleet "} {
		if last := out[len(out)-1]; strings.HasPrefix(last, p) {
			out = append(out, strings.TrimPrefix(last, p))
		}
	}
	return out
}

// placeLineLabel finds where lb's plate for text goes: just above or below
// its line (lb.above: above first), as near its part's chosen end as it is
// clear of marks; else, further from the line (by d px, at most maxD), the
// clear place nearest to it, within the histogram. Given soft, it takes
// the place within maxD that covers the least of soft's area instead
// (leastCovering), d being that area. ok is false when there is none.
func placeLineLabel(l *layout, marks, soft []rect, lb lineLabel, text string, maxD float64) (r rect, d float64, ok bool) {
	const gap = lineGap
	r = plateRect(l, text, 0, 0, fontLabel, browser.AlignLeft, browser.BaselineMiddle)
	// Over the part it names: at least half of it, or half the part.
	ov := math.Min(r.w, lb.to-lb.from) / 2
	lo, hi := math.Max(l.left+2, lb.from+ov-r.w), math.Min(l.right-2-r.w, lb.to-ov)
	prefer := hi
	if lb.left {
		prefer = lo
	}
	minY, maxY := l.histTop+1, l.histTop+l.histH-1
	best := rect{}
	bestArea := math.Inf(1)
	for d := 0.0; d <= math.Min(l.histH, maxD); d += 2 {
		for _, up := range [2]bool{lb.above, !lb.above} {
			t := lb.y + gap + d
			if up {
				t = lb.y - gap - r.h - d
			}
			if t < minY || t+r.h > maxY {
				continue
			}
			obs := lb.between(marks, t, r.h)
			if soft != nil {
				if x, a, ok := leastCovering(obs, soft, t, r.h, r.w, lo, hi, prefer, 2*l.scale); ok && a < bestArea-0.5 {
					best, bestArea = rect{x, t, r.w, r.h}, a
				}
				continue
			}
			if x, ok := clearX(obs, t, r.h, r.w, lo, hi, prefer, 2*l.scale); ok {
				return rect{x, t, r.w, r.h}, d, true
			}
		}
	}
	if !math.IsInf(bestArea, 1) {
		return best, bestArea, true
	}
	return rect{}, 0, false
}

// leastCovering finds the left edge, between xlo and xhi, of a w px wide
// box across the band [top, top+h] that keeps pad px clear of every
// rectangle of hard and covers the least area of soft's, the nearest to
// prefer of those that cover as little; ok is false when none is clear of
// hard. The area changes only where an edge of the box meets one of a
// rectangle's: those are the places tried.
func leastCovering(hard, soft []rect, top, h, w, xlo, xhi, prefer, pad float64) (x, area float64, ok bool) {
	if xhi < xlo {
		return 0, 0, false
	}
	cands := []float64{xlo, xhi, math.Max(xlo, math.Min(prefer, xhi))}
	for _, r := range soft {
		cands = append(cands, r.x+r.w, r.x-w)
	}
	for _, r := range hard {
		cands = append(cands, r.x+r.w+pad, r.x-pad-w)
	}
	area = math.Inf(1)
	for _, c := range cands {
		if c < xlo || c > xhi {
			continue
		}
		b, clear := rect{c, top, w, h}, true
		for _, o := range hard {
			if b.overlaps(rect{o.x - pad, o.y - pad, o.w + 2*pad, o.h + 2*pad}) {
				clear = false
				break
			}
		}
		if !clear {
			continue
		}
		a := 0.0
		for _, o := range soft {
			ox := math.Min(c+w, o.x+o.w) - math.Max(c, o.x)
			oy := math.Min(top+h, o.y+o.h) - math.Max(top, o.y)
			if ox > 0 && oy > 0 {
				a += ox * oy
			}
		}
		if a < area-0.5 || (a < area+0.5 && math.Abs(c-prefer) < math.Abs(x-prefer)) {
			x, area, ok = c, a, true
		}
	}
	return x, area, ok
}

// lineGap is the least space between a line and its label's plate, px.
const lineGap = 3

// lineLabelNear is how far a line's label's plate lies from its line at
// most, CSS px at scale 1, where it has room there in any of its words
// (placeLabel): placeLineLabel's gap and a step.
const lineLabelNear = 6

// between is obs and, across the band [top, top+h], the stretches of the
// other lines that lie between the band and lb's line: a plate there
// would have another line between it and its own.
func (lb lineLabel) between(obs []rect, top, h float64) []rect {
	for _, g := range lb.others {
		if g[1] != g[3] {
			continue // a step down
		}
		if y := g[1]; math.Min(top, lb.y) < y && y < math.Max(top+h, lb.y) {
			obs = append(obs[:len(obs):len(obs)], rect{math.Min(g[0], g[2]), top, math.Abs(g[2] - g[0]), h})
		}
	}
	return obs
}

// clearX finds the left edge of a w px wide box across the band [top,
// top+h] that keeps pad px clear of every rectangle of obs, between xlo and
// xhi, nearest to prefer; ok is false when there is none.
func clearX(obs []rect, top, h, w, xlo, xhi, prefer, pad float64) (x float64, ok bool) {
	if xhi < xlo {
		return 0, false
	}
	type span struct{ a, b float64 }
	var buf [32]span // most rows hold a few: no allocation for them
	busy := buf[:0]
	for _, r := range obs {
		if r.y < top+h+pad && top-pad < r.y+r.h && r.x-pad < xhi+w && xlo < r.x+r.w+pad {
			busy = append(busy, span{r.x - pad, r.x + r.w + pad})
		}
	}
	// In order of their left edges: by insertion, as a row holds few
	// (sortStable's index and closure made placing a burst's label take
	// a frame's milliseconds, BenchmarkPaint; slices.SortFunc's
	// instantiation for span cost 17 KB of app.wasm). Which of two that
	// begin together comes first changes nothing: each ends where it
	// begins or later.
	if len(busy) <= len(buf) {
		for i := 1; i < len(busy); i++ {
			for j := i; j > 0 && busy[j].a < busy[j-1].a; j-- {
				busy[j], busy[j-1] = busy[j-1], busy[j]
			}
		}
	} else {
		order := make([]int, len(busy))
		for i := range order {
			order[i] = i
		}
		sortStable(order, func(i, j int) bool { return cmp.Less(busy[i].a, busy[j].a) })
		sorted := make([]span, len(busy))
		for k, i := range order {
			sorted[k] = busy[i]
		}
		busy = sorted
	}
	best, bestD := 0.0, math.Inf(1)
	gap := func(g0, g1 float64) { // free from g0 to g1
		lo, hi := math.Max(g0, xlo), math.Min(g1-w, xhi)
		if hi < lo {
			return
		}
		c := math.Max(lo, math.Min(prefer, hi))
		if d := math.Abs(c - prefer); d < bestD {
			best, bestD = c, d
		}
	}
	at := math.Inf(-1)
	for _, b := range busy {
		if b.a > at {
			gap(at, b.a)
		}
		at = math.Max(at, b.b)
	}
	gap(at, math.Inf(1))
	return best, !math.IsInf(bestD, 1)
}

// platedText draws text in colour col on a plate of the background's
// colour, of opacity alpha (plateAlpha, or 1 over bars), so that a label
// on the histogram's limit line or in the server panel reads over the bars
// and marks under it. The plate's size is estimated from the text
// (fontWidth); platedText returns where it is.
func platedText(o *browser.Ops, l *layout, text string, x, y float64, font, align, baseline, col int, alpha float64) rect {
	r := plateRect(l, text, x, y, font, align, baseline)
	o.FillStyle(colBG)
	o.Alpha(alpha)
	o.Rect(r.x, r.y, r.w, r.h)
	o.Alpha(1)
	o.FillStyle(col)
	o.Text(text, x, y, font, align, baseline)
	return r
}

// plateAlpha is a label's plate's opacity: the marks under it show
// through, faintly.
const plateAlpha = 0.8

// rect is a rectangle on the canvas.
type rect struct{ x, y, w, h float64 }

func (a rect) overlaps(b rect) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// plateRect is where platedText puts the plate of text.
func plateRect(l *layout, text string, x, y float64, font, align, baseline int) rect {
	w, h := fontWidth(text, font, l.scale), 13*l.scale
	if font != fontSmall {
		h = 15 * l.scale
	}
	px, py := x, y
	switch align {
	case browser.AlignRight:
		px -= w
	case browser.AlignCenter:
		px -= w / 2
	}
	switch baseline {
	case browser.BaselineBottom:
		py -= h
	case browser.BaselineMiddle:
		py -= h / 2
	}
	return rect{px - 2, py, w + 4, h}
}

// titleWidth estimates the width of a bold label, plus a gap (the canvas
// cannot be asked without a round trip to JavaScript).
func titleWidth(t string, scale float64) float64 {
	return fontWidth(t, fontTitle, scale) + 12*scale
}

// smallWidth is about how wide t is in the small font.
func smallWidth(t string, scale float64) float64 {
	return fontWidth(t, fontSmall, scale)
}

// fitText is the first of texts, longest first, no wider than w in font
// ("" when none is).
func fitText(texts []string, w float64, font int, scale float64) string {
	for _, t := range texts {
		if fontWidth(t, font, scale) <= w {
			return t
		}
	}
	return ""
}

// wrapText breaks t at spaces into lines no wider than w in font (a word
// wider than w alone on its line).
func wrapText(t string, w float64, font int, scale float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(t) {
		switch {
		case line == "":
			line = word
		case fontWidth(line+" "+word, font, scale) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// wrapLink breaks a link into lines no wider than w in font, after each
// '&' that lets the line fit; a part wider than w alone is broken where
// the line is full. Its lines joined are the link, character for
// character.
func wrapLink(link string, w float64, font int, scale float64) []string {
	var lines []string
	line := ""
	for part := range strings.SplitAfterSeq(link, "&") {
		if line != "" && fontWidth(line+part, font, scale) > w {
			lines = append(lines, line)
			line = ""
		}
		for _, r := range part {
			if line != "" && fontWidth(line+string(r), font, scale) > w {
				lines = append(lines, line)
				line = ""
			}
			line += string(r)
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// sansWidths are the advance widths of the printable ASCII characters,
// from ' ' to '~', in DejaVu Sans, thousandths of an em: the sans-serif a
// Linux browser draws the canvas's system-ui text in, and a little wider
// than Roboto, San Francisco or Segoe UI, so that text estimated with them
// fits where it is said to on any of them.
var sansWidths = [...]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // space to /
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // 0 to ?
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // @ to O
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // P to _
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // ` to o
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, // p to ~
}

// fontWidth estimates how wide t is in one of the theme's fonts (fontSmall,
// fontLabel, fontTitle: 11, 12 and bold 12 px, times scale), from the
// widths of its characters: sansWidths, × as wide as +, an em for any
// other (…, — and most letters are no wider), and bold about 14% wider.
func fontWidth(t string, font int, scale float64) float64 {
	em := 0
	for _, r := range t {
		if i := int(r - ' '); i >= 0 && i < len(sansWidths) {
			em += int(sansWidths[i])
		} else if r == '×' {
			em += int(sansWidths['+'-' '])
		} else {
			em += 1000
		}
	}
	px := 12 * scale
	if font == fontSmall {
		px = 11 * scale
	}
	w := float64(em) / 1000 * px
	if font == fontTitle {
		w *= 1.14
	}
	return w
}
