package awsreport

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"retrylab/core/sim"
)

// Okabe–Ito colours (distinguishable with every common colour-vision
// deficiency) and dash patterns, one pair per curve, in curve order.
var (
	chartColours = []string{"#000000", "#D55E00", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442"}
	chartDashes  = []string{"2 4", "10 5", "", "12 4 3 4", "5 3", "1 3", "8 2 2 2", "14 3"}
)

// chart geometry, in SVG user units.
const (
	chartW      = 1000
	chartH      = 500
	panelTop    = 110
	panelBottom = 420
	panelW      = 380
)

var panelLeft = [2]float64{80, 580}

// SVG draws the results as an SVG chart: two panels side by side,
// mean calls against clients (linear) and mean completion time against
// clients (seconds, logarithmic: exponential backoff without jitter takes
// ten times longer than the rest), one line per curve with its own colour
// and dash pattern, and a legend.
func SVG(w io.Writer, r *sim.Results) error {
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="13">`+"\n", chartW, chartH, chartW, chartH)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	p(`<text x="%d" y="28" text-anchor="middle" font-size="17" font-weight="600">Optimistic concurrency under contention: backoff and jitter (AWS, 2015), simulated</text>`+"\n", chartW/2)
	p(`<text x="%d" y="48" text-anchor="middle" fill="#444">%s</text>`+"\n", chartW/2, esc(caption(r)))

	// Legend.
	names := curveNames(r)
	lx := float64(chartW)/2 - float64(len(names))*150/2
	for i, n := range names {
		x := lx + float64(i)*150
		p(`<line x1="%.1f" y1="74" x2="%.1f" y2="74" stroke="%s" stroke-width="2.5"%s/>`+"\n", x, x+36, colour(i), dashAttr(i))
		p(`<text x="%.1f" y="78">%s</text>`+"\n", x+42, esc(legendName(n)))
	}

	clients := r.Experiment.Clients
	xmax := niceCeil(float64(slicesMax(clients)))
	xticks := linearTicks(0, xmax, 5)

	// Left panel: calls, linear.
	var callMax float64
	for _, pt := range r.Points {
		callMax = math.Max(callMax, pt.CallsMean)
	}
	cticks := linearTicks(0, callMax, 5)
	cmax := cticks[len(cticks)-1]
	left := panel{x0: panelLeft[0], xmax: xmax, ymin: 0, ymax: cmax}
	left.frame(bw, xticks, cticks, false, "clients", "calls (mean of "+strconv.Itoa(r.Experiment.Runs)+" runs)", func(v float64) string { return fmtTick(v) })
	for i, n := range names {
		var pts [][2]float64
		for _, pt := range r.Points {
			if pt.Curve == n {
				pts = append(pts, [2]float64{float64(pt.Clients), pt.CallsMean})
			}
		}
		left.line(bw, pts, i)
	}

	// Right panel: completion time in seconds, logarithmic.
	tmin, tmax := math.Inf(1), 0.0
	for _, pt := range r.Points {
		s := pt.CompletionMean.Seconds()
		if s > 0 {
			tmin, tmax = math.Min(tmin, s), math.Max(tmax, s)
		}
	}
	if tmax == 0 {
		tmin, tmax = 0.1, 1
	}
	lo, hi := step125(tmin, false), step125(tmax, true)
	if hi <= lo {
		hi = lo * 10
	}
	tticks := logTicks(lo, hi)
	right := panel{x0: panelLeft[1], xmax: xmax, ymin: lo, ymax: hi, log: true}
	right.frame(bw, xticks, tticks, true, "clients", "completion time of the last client (s, log scale)", func(v float64) string { return fmtTick(v) })
	for i, n := range names {
		var pts [][2]float64
		for _, pt := range r.Points {
			if pt.Curve == n && pt.CompletionMean > 0 {
				pts = append(pts, [2]float64{float64(pt.Clients), pt.CompletionMean.Seconds()})
			}
		}
		right.line(bw, pts, i)
	}
	p(`<text x="%d" y="%d" text-anchor="middle" fill="#555" font-size="12">Calls: attempts (read + conditional write) of all clients together. Completion: until the last client's write succeeded. Lines join means over runs.</text>`+"\n", chartW/2, chartH-14)
	p("</svg>\n")
	return bw.Flush()
}

func legendName(n string) string {
	switch n {
	case "none":
		return "no backoff"
	case "exponential":
		return "exponential"
	case "full", "equal", "decorrelated":
		return n + " jitter"
	}
	return n
}

func colour(i int) string { return chartColours[i%len(chartColours)] }

func dashAttr(i int) string {
	if d := chartDashes[i%len(chartDashes)]; d != "" {
		return ` stroke-dasharray="` + d + `"`
	}
	return ""
}

type panel struct {
	x0         float64 // left edge of the plot area
	xmax       float64 // x domain is [0, xmax]
	ymin, ymax float64
	log        bool
}

func (p *panel) px(x float64) float64 { return p.x0 + x/p.xmax*panelW }

func (p *panel) py(y float64) float64 {
	f := (y - p.ymin) / (p.ymax - p.ymin)
	if p.log {
		f = (math.Log10(y) - math.Log10(p.ymin)) / (math.Log10(p.ymax) - math.Log10(p.ymin))
	}
	return panelBottom - f*(panelBottom-panelTop)
}

// frame draws the grid, the axes, the ticks and the axis titles.
func (p *panel) frame(w *bufio.Writer, xticks, yticks []float64, minor bool, xtitle, ytitle string, label func(float64) string) {
	f := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	x1 := p.x0 + panelW
	for _, t := range yticks {
		y := p.py(t)
		f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e3e3e3"/>`+"\n", p.x0, y, x1, y)
		f(`<text x="%.1f" y="%.1f" text-anchor="end" fill="#333">%s</text>`+"\n", p.x0-6, y+4, label(t))
	}
	if minor && p.log { // 2..9 of each decade, unlabelled
		for d := math.Pow(10, math.Floor(math.Log10(p.ymin)+1e-9)); d < p.ymax; d *= 10 {
			for k := 2.0; k < 10; k++ {
				if v := d * k; v <= p.ymin || v >= p.ymax {
					continue
				}
				y := p.py(d * k)
				f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#f2f2f2"/>`+"\n", p.x0, y, x1, y)
			}
		}
	}
	for _, t := range xticks {
		x := p.px(t)
		f(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333"/>`+"\n", x, panelBottom, x, panelBottom+5)
		f(`<text x="%.1f" y="%d" text-anchor="middle" fill="#333">%s</text>`+"\n", x, panelBottom+20, fmtTick(t))
	}
	f(`<path d="M%.1f %d V%d H%.1f" fill="none" stroke="#333"/>`+"\n", p.x0, panelTop, panelBottom, x1)
	f(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", p.x0+panelW/2, panelBottom+42, esc(xtitle))
	cy := float64(panelTop+panelBottom) / 2
	f(`<text x="%.1f" y="%.1f" text-anchor="middle" transform="rotate(-90 %.1f %.1f)">%s</text>`+"\n", p.x0-55, cy, p.x0-55, cy, esc(ytitle))
}

// line draws one curve with its colour, dash pattern and point markers.
func (p *panel) line(w *bufio.Writer, pts [][2]float64, i int) {
	if len(pts) == 0 {
		return
	}
	var b strings.Builder
	for k, pt := range pts {
		if k == 0 {
			b.WriteString("M")
		} else {
			b.WriteString(" L")
		}
		fmt.Fprintf(&b, "%.1f %.1f", p.px(pt[0]), p.py(pt[1]))
	}
	fmt.Fprintf(w, `<path d="%s" fill="none" stroke="%s" stroke-width="2.2" stroke-linejoin="round"%s/>`+"\n", b.String(), colour(i), dashAttr(i))
	for _, pt := range pts {
		fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="2.2" fill="%s"/>`+"\n", p.px(pt[0]), p.py(pt[1]), colour(i))
	}
}

// niceCeil rounds v up to 1, 2, 2.5 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= v {
			return m * e
		}
	}
	return 10 * e
}

// step125 rounds v down (or up) to 1, 2 or 5 times a power of ten.
func step125(v float64, up bool) float64 {
	e := math.Pow(10, math.Floor(math.Log10(v)))
	ms := []float64{1, 2, 5, 10}
	if up {
		for _, m := range ms {
			if m*e >= v*(1-1e-12) {
				return m * e
			}
		}
		return 10 * e
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i]*e <= v*(1+1e-12) {
			return ms[i] * e
		}
	}
	return e
}

// linearTicks returns about n ticks from lo covering hi, at a 1-2-5 step.
func linearTicks(lo, hi float64, n int) []float64 {
	raw := (hi - lo) / float64(n)
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	step := e
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= raw {
			step = m * e
			break
		}
	}
	var ts []float64
	for k := 0; ; k++ {
		t := lo + float64(k)*step
		ts = append(ts, t)
		if t >= hi-step*1e-9 {
			break
		}
	}
	return ts
}

// logTicks returns the 1-2-5 values from lo to hi (both 1-2-5 values).
func logTicks(lo, hi float64) []float64 {
	var ts []float64
	for d := math.Pow(10, math.Floor(math.Log10(lo)+1e-9)); d <= hi*1.0001; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if v := d * m; v >= lo*0.9999 && v <= hi*1.0001 {
				ts = append(ts, v)
			}
		}
	}
	return ts
}

func fmtTick(v float64) string {
	if v >= 1000 && math.Mod(v, 1000) == 0 {
		return strconv.FormatFloat(v/1000, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func slicesMax(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
