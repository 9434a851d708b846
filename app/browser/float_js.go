//go:build js && wasm

package browser

import "github.com/hack-pad/safejs"

// floatJS keeps #id beside the point its data-x, data-y (CSS px in
// #anchor) and data-r give: place(x, y, r, w, h, vw, vh), in viewport
// coordinates, returns [left, top] of the box, which become its style's
// left and top in its containing block (without data-x they are cleared:
// the box is not shown there). It runs when the box's content or
// those attributes change (a MutationObserver: before the change is
// painted), and when the page scrolls or the window resizes. Returns
// stop().
const floatJS = `
var el = document.getElementById(id);
if (!el) throw new Error("no element #" + id + " to place");
function run() {
  // Nothing that reads layout before the point is known: run() also runs
  // at once, inside the page's first mount, where el.offsetParent forced
  // a layout of the whole page (~60 ms) in the middle of it.
  var d = el.dataset;
  if (d.x === undefined || d.y === undefined) { el.style.left = el.style.top = ""; return; }
  var a = document.getElementById(anchor), p = el.offsetParent;
  if (!a || !p) { el.style.left = el.style.top = ""; return; }
  var de = document.documentElement, b = el.getBoundingClientRect(), ar = a.getBoundingClientRect(), pr = p.getBoundingClientRect();
  var at = place(ar.left + Number(d.x), ar.top + Number(d.y), Number(d.r) || 0, b.width, b.height, de.clientWidth, de.clientHeight);
  el.style.left = Math.round(at[0] - pr.left - p.clientLeft) + "px";
  el.style.top = Math.round(at[1] - pr.top - p.clientTop) + "px";
}
var mo = new MutationObserver(run);
mo.observe(el, {attributes: true, attributeFilter: ["data-x", "data-y", "data-r", "class"], childList: true, subtree: true, characterData: true});
addEventListener("scroll", run, {passive: true});
addEventListener("resize", run);
run();
return function () { mo.disconnect(); removeEventListener("scroll", run); removeEventListener("resize", run); };`

var floatFn lazyFunc

// FloatBeside keeps the absolutely positioned element with the given id
// beside a point, wherever place puts it. The point is the element's own
// data-x and data-y attributes (CSS pixels in the element anchor, such as
// a canvas), and data-r a radius around it to keep clear; without data-x
// the element is left where it is. place gets them in viewport
// coordinates with the element's size and the viewport's, and returns the
// element's top-left corner in the viewport. The element is placed again
// whenever its content or those attributes change, before the browser
// paints the change, and when the page scrolls or the window is resized,
// until stop is called.
func FloatBeside(id, anchor string, place func(Float) (left, top float64)) (stop func(), err error) {
	wrap, err := compiled(&floatFn, floatJS, "id", "anchor", "place")
	if err != nil {
		return nil, err
	}
	return hold(func(_ safejs.Value, args []safejs.Value) any {
		var n [7]float64
		for i := range n {
			if i < len(args) {
				n[i], _ = args[i].Float()
			}
		}
		x, y := place(Float{X: n[0], Y: n[1], R: n[2], W: n[3], H: n[4], ViewW: n[5], ViewH: n[6]})
		return []any{x, y}
	}, func(f safejs.Value) (safejs.Value, error) { return wrap.Invoke(id, anchor, f) })
}
