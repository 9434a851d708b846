package browser

import "errors"

// ErrBaseLost is DrawLayers' answer when the drawing it keeps aside is gone
// or the wrong size: draw again, fresh.
var ErrBaseLost = errors.New("browser: the canvas's kept drawing is gone")

// Ops is a display list for a 2D canvas: drawing commands encoded as numbers
// in one flat buffer, plus the strings they refer to. Go code builds it (no
// JavaScript involved, so it is testable natively) and Canvas.Draw copies it
// to JavaScript in one call, where a small routine replays it. Coordinates
// are CSS pixels; colours and fonts are indices into the palette and font
// list given to Draw.
//
// Marks of the same style should be batched: BeginPath, many Shape calls,
// then one Fill and/or Stroke.
type Ops struct {
	buf     []float32
	strs    []string
	strIdx  map[string]int
	imgs    [][]byte // RGBA pixels of the Image calls; imgs[:nimg] are in use
	nimg    int
	Palette []string // CSS colours, indexed by the colour arguments
	Fonts   []string // CSS fonts, indexed by the font arguments
}

// Opcodes of the display list; the JS replay routine (canvas_js.go) mirrors them.
const (
	opFill       = 1  // colour
	opStroke     = 2  // colour, width, dash (0 = solid)
	opRect       = 3  // x, y, w, h (filled)
	opStrokeRect = 4  // x, y, w, h
	opLine       = 5  // x1, y1, x2, y2 (stroked at once)
	opBegin      = 6  // begin a path
	opShape      = 7  // shape, x, y, r: adds a sub-path
	opFillPath   = 8  // fill the current path
	opStrokePath = 9  // stroke the current path
	opText       = 10 // string, x, y, font, align, baseline
	opAlpha      = 11 // globalAlpha
	opClip       = 12 // save, clip to x, y, w, h
	opRestore    = 13 // restore (ends a clip)
	opHatch      = 14 // x, y, w, h, spacing: diagonal lines in the stroke style (spacing < 0: the other diagonal)
	opPathRect   = 15 // x, y, w, h: adds a rectangle sub-path
	opImage      = 16 // image, pw, ph, x, y, w, h: RGBA pixels drawn into a rectangle
	opClipPath   = 17 // save, clip to the current path
)

// Shape is a mark's outline. Outcomes differ by shape as well as colour.
type Shape uint8

const (
	Circle   Shape = iota
	Triangle       // pointing up
	Square
	Diamond
	Cross // an X
	Bar   // a thin vertical bar
)

// Text alignment and baseline for Ops.Text.
const (
	AlignLeft   = 0
	AlignCenter = 1
	AlignRight  = 2

	BaselineMiddle = 0
	BaselineTop    = 1
	BaselineBottom = 2
)

// Reset empties the list, keeping its memory.
func (o *Ops) Reset() {
	o.buf = o.buf[:0]
	o.strs = o.strs[:0]
	clear(o.strIdx)
	o.nimg = 0
}

// Len is the number of values in the buffer.
func (o *Ops) Len() int { return len(o.buf) }

// Buffer returns the encoded commands (for tests).
func (o *Ops) Buffer() []float32 { return o.buf }

// Strings returns the strings the commands refer to.
func (o *Ops) Strings() []string { return o.strs }

//go:noinline
func (o *Ops) put(v ...float32) { o.buf = append(o.buf, v...) }

// FillStyle sets the fill colour to Palette[c].
//
//go:noinline
func (o *Ops) FillStyle(c int) { o.put(opFill, float32(c)) }

// StrokeStyle sets the stroke colour, line width and dash length (0 = solid).
//
//go:noinline
func (o *Ops) StrokeStyle(c int, width, dash float64) {
	o.put(opStroke, float32(c), float32(width), float32(dash))
}

// Rect fills a rectangle.
//
//go:noinline
func (o *Ops) Rect(x, y, w, h float64) {
	o.put(opRect, float32(x), float32(y), float32(w), float32(h))
}

// StrokeRect outlines a rectangle.
//
//go:noinline
func (o *Ops) StrokeRect(x, y, w, h float64) {
	o.put(opStrokeRect, float32(x), float32(y), float32(w), float32(h))
}

// Line strokes one line.
//
//go:noinline
func (o *Ops) Line(x1, y1, x2, y2 float64) {
	o.put(opLine, float32(x1), float32(y1), float32(x2), float32(y2))
}

// BeginPath starts a path for Shape and PathRect.
//
//go:noinline
func (o *Ops) BeginPath() { o.put(opBegin) }

// Shape adds a mark of radius r centred on (x, y) to the path.
//
//go:noinline
func (o *Ops) Shape(s Shape, x, y, r float64) {
	o.put(opShape, float32(s), float32(x), float32(y), float32(r))
}

// PathRect adds a rectangle to the path.
//
//go:noinline
func (o *Ops) PathRect(x, y, w, h float64) {
	o.put(opPathRect, float32(x), float32(y), float32(w), float32(h))
}

// FillPath fills the path with the fill style.
//
//go:noinline
func (o *Ops) FillPath() { o.put(opFillPath) }

// StrokePath strokes the path with the stroke style.
//
//go:noinline
func (o *Ops) StrokePath() { o.put(opStrokePath) }

// Text draws s at (x, y) in Fonts[font] with the fill style.
func (o *Ops) Text(s string, x, y float64, font, align, baseline int) {
	if o.strIdx == nil {
		o.strIdx = make(map[string]int)
	}
	i, ok := o.strIdx[s]
	if !ok {
		i = len(o.strs)
		o.strs = append(o.strs, s)
		o.strIdx[s] = i
	}
	o.put(opText, float32(i), float32(x), float32(y), float32(font), float32(align), float32(baseline))
}

// Alpha sets the global alpha (0–1).
//
//go:noinline
func (o *Ops) Alpha(a float64) { o.put(opAlpha, float32(a)) }

// Clip restricts drawing to a rectangle until Restore.
//
//go:noinline
func (o *Ops) Clip(x, y, w, h float64) {
	o.put(opClip, float32(x), float32(y), float32(w), float32(h))
}

// Restore ends the last Clip.
//
//go:noinline
func (o *Ops) Restore() { o.put(opRestore) }

// Image draws a pw×ph picture into the rectangle (x, y, w, h), scaled
// without smoothing, blended by its alpha over what is there, within the
// current clip. It returns the picture's pixels, all transparent, to be
// filled in before the list is drawn: RGBA, not premultiplied, row by row.
// Drawing many small marks as pixels is far cheaper for the browser than
// as a path of rectangles. The memory is the Ops's, reused after Reset.
func (o *Ops) Image(pw, ph int, x, y, w, h float64) []byte {
	n := pw * ph * 4
	if o.nimg == len(o.imgs) {
		o.imgs = append(o.imgs, nil)
	}
	px := o.imgs[o.nimg]
	if cap(px) < n {
		px = make([]byte, n)
	} else {
		px = px[:n]
		clear(px)
	}
	o.imgs[o.nimg] = px
	o.put(opImage, float32(o.nimg), float32(pw), float32(ph), float32(x), float32(y), float32(w), float32(h))
	o.nimg++
	return px
}

// Images returns the pixels of the Image calls, in order (for tests).
func (o *Ops) Images() [][]byte { return o.imgs[:o.nimg] }

// Hatch strokes diagonal lines every spacing pixels across a rectangle,
// rising to the right (/); with spacing negative, every -spacing pixels
// falling to the right (\). A dashed stroke style draws them dotted.
//
//go:noinline
func (o *Ops) Hatch(x, y, w, h, spacing float64) {
	o.put(opHatch, float32(x), float32(y), float32(w), float32(h), float32(spacing))
}

// ClipPath restricts drawing to the current path (BeginPath, PathRect,
// Shape) until Restore: a Hatch then patterns every shape of the path at
// once.
//
//go:noinline
func (o *Ops) ClipPath() { o.put(opClipPath) }

// Canvas is a <canvas> element, found by its id at each call so that a
// re-rendered element is picked up.
type Canvas struct{ ID string }
