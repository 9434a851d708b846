package browser

// Float is what placing a floating box (a tooltip) beside a point needs, in
// CSS pixels of the viewport (FloatBeside).
type Float struct {
	X, Y, R      float64 // the point, and the radius around it to keep clear
	W, H         float64 // the box, as laid out (its size must not depend on where it is)
	ViewW, ViewH float64 // the viewport, without scroll bars
}

// Clear is where an element is in the viewport, and how much of the
// viewport's top the elements stuck there cover (Clearance), CSS px.
type Clear struct {
	Top   float64 // the element's top, in the viewport
	Clear float64 // how far down the stuck elements reach (0: none stuck)
	ViewH float64 // the viewport's height, without a scroll bar
}
