package browser

// Float is what placing a floating box (a tooltip) beside a point needs, in
// CSS pixels of the viewport (FloatBeside).
type Float struct {
	X, Y, R      float64 // the point, and the radius around it to keep clear
	W, H         float64 // the box, as laid out (its size must not depend on where it is)
	ViewW, ViewH float64 // the viewport, without scroll bars
}
