//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/hack-pad/safejs"
)

// copyJS copies text with the legacy path, for when the Clipboard API is
// missing or refused (an insecure origin, no user activation).
const copyJS = `
var t = document.createElement("textarea");
t.value = text; t.setAttribute("readonly", ""); t.style.position = "fixed"; t.style.opacity = "0";
document.body.appendChild(t); t.select();
var ok = false;
try { ok = document.execCommand("copy"); } catch (e) {}
t.remove();
return ok;`

var copyFn lazyFunc

// CopyText puts text on the clipboard.
func CopyText(ctx context.Context, text string) error {
	if nav, err := safejs.Global().Get("navigator"); err == nil {
		if cb, err := nav.Get("clipboard"); err == nil && !cb.IsUndefined() {
			if p, err := cb.Call("writeText", text); err == nil {
				if _, err := Await(ctx, p); err == nil {
					return nil
				}
			}
		}
	}
	fn, err := compiled(&copyFn, copyJS, "text")
	if err != nil {
		return err
	}
	ok, err := fn.Invoke(text)
	if err != nil {
		return err
	}
	if b, _ := ok.Bool(); !b {
		return errors.New("browser: the browser refused to copy to the clipboard")
	}
	return nil
}

// ReplaceURL replaces the address bar's URL (a path, query or full URL of
// the same origin) without navigating or adding a history entry.
func ReplaceURL(u string) error {
	h, err := safejs.Global().Get("history")
	if err != nil {
		return err
	}
	_, err = h.Call("replaceState", nil, "", u)
	return err
}

// Hidden reports whether the page is hidden (a background tab, a minimised
// window): timers are then throttled to at least a second.
func Hidden() bool { return globalString("document", "visibilityState") == "hidden" }

// globalString is the string property prop of the global object obj
// (document, navigator): "" where there is none.
func globalString(obj, prop string) string {
	o, err := safejs.Global().Get(obj)
	if err != nil {
		return ""
	}
	v, err := o.Get(prop)
	if err != nil {
		return ""
	}
	s, _ := v.String()
	return s
}

// viewportBelowJS is the viewport's height under the element with the
// given id when it is stuck to the viewport's top (position sticky or
// fixed), or the viewport's whole height.
const viewportBelowJS = `
var h = innerHeight, e = document.getElementById(id);
if (e) { var p = getComputedStyle(e).position; if (p === "sticky" || p === "fixed") h -= e.getBoundingClientRect().height; }
var a = document.getElementById(after), f = document.getElementById(foot);
if (a && f) { var d = f.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom; if (d > 0 && d < h / 4) h -= d; }
return h;`

var viewportBelowFn lazyFunc

// ViewportHeightBelow is the height of the window's viewport, CSS px,
// less the element id's when that is stuck to its top (a sticky header),
// and less the room from the element after's bottom to the element
// foot's below it (its controls, which should show with it; up to a
// quarter of the height): the height left for after.
func ViewportHeightBelow(id, after, foot string) (float64, error) {
	fn, err := compiled(&viewportBelowFn, viewportBelowJS, "id", "after", "foot")
	if err != nil {
		return 0, err
	}
	v, err := fn.Invoke(id, after, foot)
	if err != nil {
		return 0, err
	}
	return v.Float()
}

// bringUpJS, when fewer than min px of the element shown are on the
// screen, scrolls to the top of the screen the element keep (if any) when
// that leaves keepMin px of shown on the screen, else the element id, or
// the first of its children that leaves min px (else its last).
const bringUpJS = `
var s = document.getElementById(shown), e = document.getElementById(id), k = keep && document.getElementById(keep);
if (!s || !e) return;
var r = s.getBoundingClientRect();
if (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) >= min) return;
if (k) {
  var kt = k.getBoundingClientRect().top;
  if (kt <= r.top && r.top - kt <= innerHeight - keepMin) { scrollTo(scrollX, scrollY + kt); return; }
}
var tops = [e].concat(Array.from(e.children)).map(function (c) { return c.getBoundingClientRect().top; }).filter(function (t) { return t <= r.top; });
var top = tops.find(function (t) { return r.top - t <= innerHeight - min; });
scrollTo(scrollX, scrollY + (top === undefined ? tops[tops.length - 1] : top));`

var bringUpFn lazyFunc

// BringUp scrolls the page so that the element id starts at the top of
// the viewport, when fewer than min CSS px of the element shown are on the
// screen (else it leaves the page where it is); or, if fewer than min px
// of shown would be on the screen even then, the first of id's children
// that leaves that much. The element keep ("": none), above id, goes to
// the top instead when that leaves keepMin px of shown on the screen.
func BringUp(keep, id, shown string, min, keepMin float64) error {
	fn, err := compiled(&bringUpFn, bringUpJS, "keep", "id", "shown", "min", "keepMin")
	if err != nil {
		return err
	}
	_, err = fn.Invoke(keep, id, shown, min, keepMin)
	return err
}

// toggleViewJS moves the keyboard focus onto the element id, bringing it
// into view under the sticky element under (its top right below it) unless
// it shows whole already; or, when id has the focus and half of it (or of
// the screen) shows, gives the focus back to what had it before (Tab went
// on from the page's top, the focus dropped to the body; an accessibility
// review), or, when nothing had (the shortcuts pressed from the page),
// scrolls back up to the element back's top, if that is above the screen,
// and gives the focus to back's first enabled control in view (the run
// bar's Run): blurred, the focus dropped to the body, and the browser's
// Tab went on from id, the page scrolling back down to what follows it (a
// review). Leaving so, id is marked data-left for its blur handler (the
// timeline's clears its selection). (Focused but scrolled away with the
// wheel, it is brought back: the first press had taken the focus away,
// off screen.) With foot, an element taller than the screen under under
// shows its foot at the screen's bottom instead of its top under under,
// and, when it takes the focus, is marked data-foot for its focus handler
// (which would bring its top back: revealTop). Until it loses the focus,
// it is brought so again when the window is resized and that leaves it
// hidden or cut.
const toggleViewJS = `
var e = document.getElementById(id), u = document.getElementById(under), b = document.getElementById(back);
if (!e) return;
// The height stuck to the screen's top over e: under's, while it sticks.
function stuck() {
  if (!u) return 0;
  var p = getComputedStyle(u).position;
  return p === "sticky" || p === "fixed" ? u.getBoundingClientRect().height : 0;
}
// Scrolls e's top right under under's, or with atFoot its foot to the
// screen's bottom.
function bring(r, h, atFoot) { scrollTo(scrollX, scrollY + (atFoot ? r.bottom - innerHeight : r.top - h)); }
var h = stuck();
var r = e.getBoundingClientRect();
var seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, h); // px of it on screen
if (document.activeElement === e && seen >= Math.min(r.height, innerHeight - h) / 2) {
  var prev = e.retrylabPrev;
  e.retrylabPrev = null;
  e.setAttribute("data-left", "");
  if (prev && prev.isConnected && !prev.disabled && prev.tabIndex >= 0) { prev.focus(); if (document.activeElement === prev) return; }
  if (b) {
    var t = b.getBoundingClientRect().top;
    if (t < 0) scrollTo(scrollX, scrollY + t);
    var f = Array.prototype.find.call(b.querySelectorAll("a[href], button, input, select, textarea, [tabindex]"), function (c) {
      return c !== e && !c.disabled && c.tabIndex >= 0 && c.getClientRects().length > 0;
    });
    if (f) { f.focus({preventScroll: true}); if (document.activeElement === f) return; }
  }
  e.blur();
  return;
}
var a = document.activeElement;
if (a !== e) e.retrylabPrev = a && a !== document.body ? a : null;
if (r.top < h || r.bottom > innerHeight) {
  var atFoot = foot && r.height > innerHeight - h;
  if (atFoot && a !== e) e.setAttribute("data-foot", "");
  bring(r, h, atFoot);
}
e.focus({preventScroll: true});
e.retrylabFoot = foot;
if (document.activeElement !== e || e.retrylabKeep) return;
// Kept so while it has the focus: a window resized (a projector's full
// screen, another screen) moves it, and the page above it, and the
// browser's scroll anchoring, suppressed by its new height, keeps nothing.
// Only for a second after the window changed size (the page fits the
// timeline to it a frame later): the page's height changes during a run
// too, and a person may have scrolled on since.
var lw = innerWidth, lh = innerHeight, until = 0;
var keep = new ResizeObserver(function () {
  if (innerWidth !== lw || innerHeight !== lh) { lw = innerWidth; lh = innerHeight; until = performance.now() + 1000; }
  if (document.activeElement !== e || performance.now() > until) return;
  var h = stuck(), r = e.getBoundingClientRect(), atFoot = e.retrylabFoot && r.height > innerHeight - h;
  if (atFoot ? Math.abs(r.bottom - innerHeight) > 1 : r.top < h - 1 || (r.bottom > innerHeight + 1 && r.top > h + 1)) bring(r, h, atFoot);
});
keep.observe(e);
keep.observe(document.body);
e.retrylabKeep = keep;
e.addEventListener("blur", function () { keep.disconnect(); e.retrylabKeep = null; }, {once: true});`

var toggleViewFn lazyFunc

// ToggleView moves the keyboard focus onto the element id and brings it
// into view, its top right below the element under when that is stuck to
// the screen's top (a sticky legend), unless it shows whole already; when
// id has the focus already and mostly shows, it gives the focus back to
// what had it before, else scrolls back up to the element back, if that
// is above the screen, and focuses back's first enabled control, id
// marked data-left for its blur handler. With
// foot, an element taller than the screen under under is brought in with
// its foot at the screen's bottom, not its top under under.
func ToggleView(id, under, back string, foot bool) error {
	fn, err := compiled(&toggleViewFn, toggleViewJS, "id", "under", "back", "foot")
	if err != nil {
		return err
	}
	_, err = fn.Invoke(id, under, back, foot)
	return err
}

// stickBelowJS keeps the sticky element id's top offset at the height of
// the element under while that one sticks to the viewport's top too
// (position sticky or fixed), else at 0: id then sticks right under it,
// whatever its height, as that wraps to more lines, takes another font or
// stops sticking (a narrow screen). Measured again whenever under changes
// size (a ResizeObserver; a window that crosses a width where it stops
// sticking resizes it too) and whenever the window does: one that crosses
// a height where under stops sticking (a short screen) or sticks again
// need not change under's size, and id stuck at 0 lay under it. Returns
// stop().
const stickBelowJS = `
var e = document.getElementById(id), u = document.getElementById(under);
if (!e || !u || typeof ResizeObserver !== "function") return function () {};
var place = function () {
  var p = getComputedStyle(u).position;
  e.style.top = (p === "sticky" || p === "fixed" ? u.getBoundingClientRect().height : 0) + "px";
};
var ro = new ResizeObserver(place);
ro.observe(u);
addEventListener("resize", place);
return function () { ro.disconnect(); removeEventListener("resize", place); };`

var stickBelowFn lazyFunc

// StickBelow keeps the sticky element id right under the element under
// while that sticks to the viewport's top as well (its top offset is
// under's height, else 0), until stop is called.
func StickBelow(id, under string) (stop func(), err error) {
	fn, err := compiled(&stickBelowFn, stickBelowJS, "id", "under")
	if err != nil {
		return nil, err
	}
	undo, err := fn.Invoke(id, under)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { _, _ = undo.Invoke() }) }, nil
}

// clearanceJS measures, for Clearance: the element id's top in the
// viewport, how far down the viewport the elements of the comma-separated
// ids reach where they stick to its top (those stuck now, or being pushed
// away by the end of what holds them: each where it sticks), and the
// viewport's height.
const clearanceJS = `
var e = document.getElementById(id);
if (!e) return null;
var clear = 0;
ids.split(",").forEach(function (s) {
  var u = document.getElementById(s);
  if (!u) return;
  var c = getComputedStyle(u);
  if (c.position !== "sticky" && c.position !== "fixed") return;
  var t = parseFloat(c.top) || 0, r = u.getBoundingClientRect();
  if (r.top <= t + 0.5) clear = Math.max(clear, t + r.height);
});
return [e.getBoundingClientRect().top, clear, document.documentElement.clientHeight];`

var clearanceFn lazyFunc

// Clearance measures where the element id is in the viewport and how much
// of the viewport the elements of sticky (comma-separated ids) cover,
// stuck to its top.
func Clearance(id, sticky string) (Clear, error) {
	fn, err := compiled(&clearanceFn, clearanceJS, "id", "ids")
	if err != nil {
		return Clear{}, err
	}
	v, err := fn.Invoke(id, sticky)
	if err != nil {
		return Clear{}, err
	}
	if v.IsNull() {
		return Clear{}, errors.New("browser: no element #" + id)
	}
	var n [3]float64
	for i := range n {
		x, err := v.Index(i)
		if err != nil {
			return Clear{}, err
		}
		if n[i], err = x.Float(); err != nil {
			return Clear{}, err
		}
	}
	return Clear{Top: n[0], Clear: n[1], ViewH: n[2]}, nil
}

// clearSpotJS finds for the element id (fixed in the viewport, not
// taking the pointer, placed by its CSS at the foot of the screen) a place
// where it covers no text the page shows: a text node's line box or a
// field, seen there (elementFromPoint at its middle lands on it: not
// clipped by a scroller, not under a sticky element). It tries, from the
// foot of the screen up, every 4 px, the element centred, then at the
// right, then at the left (16 px clear of the edges), and takes the first
// clear place, or the one that covers the fewest. Returns
// [side, top]: side "" (centred), "right" or "left"; top -1 for the foot
// of the screen (where the CSS puts it), else px from the viewport's top.
const clearSpotJS = `
var e = document.getElementById(id);
if (!e) return null;
var W = document.documentElement.clientWidth, H = innerHeight, m = 16;
// Where the page lies under the screen: unchanged since the last place
// found, that place still holds.
var sig = [W, H, scrollX, scrollY, document.documentElement.scrollHeight, document.documentElement.scrollWidth, bands].join();
if (!force && e.dataset.spotSig === sig && e.dataset.spot) return JSON.parse(e.dataset.spot);
e.style.top = ""; e.style.bottom = "";
// Each side's box at the foot of the screen (its width, and so its lines,
// may differ).
var sides = ["", "right", "left"].map(function (side) {
  e.classList.remove("left", "right");
  if (side) e.classList.add(side);
  var r = e.getBoundingClientRect();
  return {side: side, x: r.left, y: r.top, w: r.width, h: r.height};
});
e.classList.remove("left", "right");
var rects = [], range = document.createRange();
function seen(r, node) {
  var l = Math.max(r.left, 0), rt = Math.min(r.right, W), t = Math.max(r.top, 0), b = Math.min(r.bottom, H);
  if (rt - l < 1 || b - t < 1) return false;
  var at = document.elementFromPoint((l + rt) / 2, (t + b) / 2);
  return !!at && (at === node || node.contains(at) || at.contains(node));
}
var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), t;
while ((t = walk.nextNode())) {
  var p = t.parentElement;
  if (!t.data.trim() || !p || e.contains(p)) continue;
  var pr = p.getBoundingClientRect();
  if (pr.bottom <= 0 || pr.top >= H || pr.right <= 0 || pr.left >= W) continue;
  range.selectNodeContents(t);
  var rs = range.getClientRects();
  for (var i = 0; i < rs.length; i++) if (rs[i].width >= 2 && rs[i].height >= 2 && seen(rs[i], p)) rects.push(rs[i]);
}
document.querySelectorAll("input:not([type=checkbox]):not([type=radio]), select, textarea").forEach(function (f) {
  var r = f.getBoundingClientRect();
  if (seen(r, f)) rects.push(r);
});
// The text a canvas has drawn (over's bands, from its top left), where
// the page shows it.
var o = over && document.getElementById(over);
if (o && bands) {
  var or = o.getBoundingClientRect();
  bands.split(";").forEach(function (b) {
    var v = b.split(",").map(Number);
    var r = {left: or.left + v[0], top: or.top + v[1], right: or.left + v[2], bottom: or.top + v[3]};
    if (r.right > 0 && r.left < W && r.bottom > 0 && r.top < H && r.bottom > r.top) rects.push(r);
  });
}
function covers(x, y, w, h) {
  var n = 0;
  for (var i = 0; i < rects.length; i++) {
    var r = rects[i];
    if (r.right > x + 0.5 && r.left < x + w - 0.5 && r.bottom > y + 0.5 && r.top < y + h - 0.5) n++;
  }
  return n;
}
var best = null;
for (var up = 0; !(best && best.n === 0); up += 4) {
  var any = false;
  for (var s = 0; s < sides.length; s++) {
    var c = sides[s], y = c.y - up;
    if (y < m - 0.01) continue;
    any = true;
    var n = covers(c.x, y, c.w, c.h);
    if (!best || n < best.n) best = {n: n, side: c.side, y: y, up: up};
    if (n === 0) break;
  }
  if (!any) break;
}
e.classList.remove("placing");
var spot = best ? [best.side, best.up > 0 ? best.y : -1] : ["", -1];
if (spot[0]) e.classList.add(spot[0]);
if (spot[1] >= 0) { e.style.top = spot[1] + "px"; e.style.bottom = "auto"; }
e.dataset.spotSig = sig;
e.dataset.spot = JSON.stringify(spot);
return spot;`

var clearSpotFn lazyFunc

// ClearSpot finds for the element id, fixed in the viewport at the foot of
// the screen by its CSS and not taking the pointer (a toast), the place
// nearest the foot where it covers none of the text the page shows (or the
// least of it), and moves it there. It returns its side ("" centred,
// "right" or "left": a class of the element's) and its top in CSS px from
// the viewport's top, or -1 where its CSS puts it: render it so. It
// removes the class "placing" (the element hidden until placed). The text
// a canvas draws is not the page's: bands, "x0,y0,x1,y1;…" in CSS px from
// the top left of the element over, says where it is.
//
// Unless force, it looks again only when the page has moved under the
// screen since its last answer for the element (scrolled, resized, grown
// or shrunk): otherwise that answer holds, found without looking at the
// page's text.
func ClearSpot(id string, force bool, over, bands string) (side string, top float64, err error) {
	fn, err := compiled(&clearSpotFn, clearSpotJS, "id", "force", "over", "bands")
	if err != nil {
		return "", 0, err
	}
	v, err := fn.Invoke(id, force, over, bands)
	if err != nil {
		return "", 0, err
	}
	if v.IsNull() {
		return "", 0, errors.New("browser: no element #" + id)
	}
	sv, err := v.Index(0)
	if err != nil {
		return "", 0, err
	}
	if side, err = sv.String(); err != nil {
		return "", 0, err
	}
	tv, err := v.Index(1)
	if err != nil {
		return "", 0, err
	}
	top, err = tv.Float()
	return side, top, err
}

// ScrollBy scrolls the page down by dy CSS px (up when negative).
func ScrollBy(dy float64) error {
	_, err := safejs.Global().Call("scrollBy", 0, dy)
	return err
}

// WatchVisibility calls fn(hidden) whenever the page's visibility changes,
// until stop is called. fn runs on a JS callback and must not block.
func WatchVisibility(fn func(hidden bool)) (stop func(), err error) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return nil, err
	}
	f, err := funcOf(func(safejs.Value, []safejs.Value) any {
		fn(Hidden())
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := doc.Call("addEventListener", "visibilitychange", f.Value()); err != nil {
		release(f)
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_, _ = doc.Call("removeEventListener", "visibilitychange", f.Value())
			release(f)
		})
	}, nil
}

// PacesRequests reports whether the browser lets requests out at a pace
// of its own once several connections are busy: Firefox does (its
// network.http.pacing.requests settings, ~80 a second past six busy
// HTTP/1.1 connections; README: browser connection limits), and a page
// cannot opt out.
func PacesRequests() bool {
	return strings.Contains(globalString("navigator", "userAgent"), "Firefox/")
}

// fontSizeJS is the browser's default font size in CSS px: that of
// font-size: medium, which the person's font size setting sets (16 by
// default), whatever the page's own CSS makes of it (web/app.css's root is
// 87.5% of it); 0 where it cannot be read.
const fontSizeJS = `
var e = document.createElement("div");
e.style.cssText = "position:absolute;visibility:hidden;font-size:medium";
document.documentElement.appendChild(e);
var px = parseFloat(getComputedStyle(e).fontSize);
e.remove();
return px > 0 ? px : 0;`

var fontSizeFn lazyFunc

// DefaultFontSize is the browser's default font size, CSS px: 16 unless
// the person set another (fontSizeJS); 0 where it cannot be read.
func DefaultFontSize() float64 {
	fn, err := compiled(&fontSizeFn, fontSizeJS)
	if err != nil {
		return 0
	}
	v, err := fn.Invoke()
	if err != nil {
		return 0
	}
	px, _ := v.Float()
	return px
}

// darkJS calls fn(true or false) with whether the system prefers a dark
// colour scheme, once at the start and again on each change, and returns
// the function that stops it. Without matchMedia it says false, once; and
// without :has(), which the page's dark rules need (web/app.css), false
// always: the page stays light there, and the canvas with it.
const darkJS = `
if (typeof matchMedia !== "function") { fn(false); return function () {}; }
var q = matchMedia("(prefers-color-scheme: dark)");
var has = typeof CSS !== "undefined" && CSS.supports && CSS.supports("selector(:has(*))");
var h = function () { fn(q.matches && has); };
h();
q.addEventListener("change", h);
return function () { q.removeEventListener("change", h); };`

var darkFn lazyFunc

// WatchDark calls fn with whether the system prefers a dark colour scheme
// and the page's dark rules apply (darkJS), once when it starts watching
// and again whenever that changes (the system's setting, or the
// browser's), until stop is called. fn runs on a JS callback and must not
// block.
func WatchDark(fn func(dark bool)) (stop func(), err error) {
	wrap, err := compiled(&darkFn, darkJS, "fn")
	if err != nil {
		return nil, err
	}
	return hold(withBool(fn), func(f safejs.Value) (safejs.Value, error) { return wrap.Invoke(f) })
}

// onScreenJS calls fn(true or false) as any of the element #id shows in the
// viewport or stops showing (an IntersectionObserver: once at the start,
// then on each change), and returns the function that stops it. Without
// IntersectionObserver the element counts as showing, once.
const onScreenJS = `
if (typeof IntersectionObserver !== "function") { fn(true); return function () {}; }
var el = document.getElementById(id);
if (!el) throw new Error("no element #" + id + " to watch");
var o = new IntersectionObserver(function (es) { fn(es[es.length - 1].isIntersecting); });
o.observe(el);
return function () { o.disconnect(); };`

var onScreenFn lazyFunc

// WatchOnScreen calls fn with whether any of the element with the given id
// shows in the viewport, once when it starts watching and again whenever
// that changes, until stop is called.
func WatchOnScreen(id string, fn func(on bool)) (stop func(), err error) {
	wrap, err := compiled(&onScreenFn, onScreenJS, "id", "fn")
	if err != nil {
		return nil, err
	}
	return hold(withBool(fn), func(f safejs.Value) (safejs.Value, error) { return wrap.Invoke(id, f) })
}

// resizeJS calls fn() whenever the element #id changes size (a
// ResizeObserver: once at the start, then on each change), and returns the
// function that stops it. Without ResizeObserver or the element, it does
// nothing.
const resizeJS = `
var el = document.getElementById(id);
if (typeof ResizeObserver !== "function" || !el) return function () {};
var ro = new ResizeObserver(function () { fn(); });
ro.observe(el);
return function () { ro.disconnect(); };`

var resizeFn lazyFunc

// WatchResize calls fn whenever the element with the given id changes
// size, until stop is called: a sticky header that wraps to another
// number of lines, or takes another font. fn runs on a JS callback and
// must not block.
func WatchResize(id string, fn func()) (stop func(), err error) {
	wrap, err := compiled(&resizeFn, resizeJS, "id", "fn")
	if err != nil {
		return nil, err
	}
	return hold(func(safejs.Value, []safejs.Value) any {
		fn()
		return nil
	}, func(f safejs.Value) (safejs.Value, error) { return wrap.Invoke(id, f) })
}

// FrameLoop runs a function at the next animation frame after Request,
// however many times Request was called in between: a live view redraws at
// most once per frame, not once per event. Browsers pause animation frames
// in hidden tabs; the pending frame then runs when the page shows again.
type FrameLoop struct {
	mu      sync.Mutex
	pending bool
	fn      safejs.Func
	raf     safejs.Value
	frame   func()
}

// NewFrameLoop prepares a loop calling frame; it lives as long as the page.
// frame runs on a JS callback: it may call into JavaScript but must not block.
func NewFrameLoop(frame func()) (*FrameLoop, error) {
	l := &FrameLoop{frame: frame}
	var err error
	if l.raf, err = safejs.Global().Get("requestAnimationFrame"); err != nil {
		return nil, err
	}
	l.fn, err = permanent(func(safejs.Value, []safejs.Value) any {
		enter()
		l.mu.Lock()
		l.pending = false
		frame := l.frame
		l.mu.Unlock()
		if frame != nil {
			frame()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Request asks for one call of the frame function at the next animation
// frame, unless the loop is stopped.
func (l *FrameLoop) Request() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending || l.frame == nil {
		return
	}
	if _, err := l.raf.Invoke(l.fn.Value()); err == nil {
		l.pending = true
	}
}

// Stop ends the loop: a frame requested before it runs nothing, and the
// frame function (what it holds: a view and its drawing) is let go. The
// loop's JavaScript callback stays, as permanent as the loop was meant to
// be (a frame may still be due), and calls nothing. A nil loop (one that
// could not be made) is stopped already.
func (l *FrameLoop) Stop() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frame = nil
}

// exposeJS publishes a Go function under globalThis.retrylab, its
// arguments turned to strings.
const exposeJS = `
var ns = globalThis.retrylab || (globalThis.retrylab = {});
ns[name] = function () { return fn.apply(null, Array.prototype.map.call(arguments, String)); };`

var exposeFn lazyFunc

// Expose publishes fn as window.retrylab[name](...): JavaScript callers
// (the end-to-end tests, the console) get fn's result, a JSON text to parse
// with JSON.parse. fn runs on a JS callback and must not block.
func Expose(name string, fn func(args []string) string) error {
	wrap, err := compiled(&exposeFn, exposeJS, "name", "fn")
	if err != nil {
		return err
	}
	f, err := permanent(func(_ safejs.Value, args []safejs.Value) any {
		strs := make([]string, 0, len(args))
		for _, a := range args {
			s, _ := a.String()
			strs = append(strs, s)
		}
		return fn(strs)
	})
	if err != nil {
		return err
	}
	_, err = wrap.Invoke(name, f.Value())
	return err
}

// keysJS forwards keydown events on the document to Go as
// (key, inField, modified); Go answers whether it handled the key.
// An element that handles some keys itself lists them, comma-separated, in
// its data-own-keys attribute (OwnKeysAttr): while it has the focus those
// keys keep it, their default action (scrolling, for the arrows) is
// prevented here, synchronously, and fn is not called.
const keysJS = `
var h = function (e) {
  var t = e.target, tag = t && t.tagName ? t.tagName.toUpperCase() : "";
  var own = t && t.getAttribute ? t.getAttribute("data-own-keys") : null;
  if (own && own.split(",").indexOf(e.key) >= 0) { e.preventDefault(); return; }
  // A switch (a checkbox) takes no letters or digits: the shortcuts work on it.
  var inField = (tag === "INPUT" && t.type !== "checkbox") || tag === "SELECT" || tag === "TEXTAREA" || (t && t.isContentEditable);
  if (fn(e.key, !!inField, e.ctrlKey || e.metaKey || e.altKey)) e.preventDefault();
};
document.addEventListener("keydown", h, true);
return function () { document.removeEventListener("keydown", h, true); };`

var keysFn lazyFunc

// ListenKeys calls fn for every key pressed on the page until stop is
// called, except the keys the focused element claims (OwnKeysAttr);
// inField is true when the focus is where keys are typed: an input (not a
// checkbox), a select (its letters pick an option) or a text area.
// modified is true when Ctrl, Meta or Alt is held. fn runs on a JS callback
// and must not block; returning true prevents the key's default action.
// It listens in the capture phase, before the element's own handlers: the
// claim is read as it stood when the key was pressed (the focused
// timeline's handler can clear a selection, and with it its claim on
// Escape, before a bubbling listener would look).
func ListenKeys(fn func(key string, inField, modified bool) bool) (stop func(), err error) {
	wrap, err := compiled(&keysFn, keysJS, "fn")
	if err != nil {
		return nil, err
	}
	return hold(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) < 3 {
			return false
		}
		key, _ := args[0].String()
		inField, _ := args[1].Bool()
		mod, _ := args[2].Bool()
		return fn(key, inField, mod)
	}, func(f safejs.Value) (safejs.Value, error) { return wrap.Invoke(f) })
}

// focusJS focuses the element with the given id once it is on the page,
// shown and not inert: a dialog the UI goroutine has just decided to show
// may be a frame away from the DOM. It gives up after ten frames. Nothing
// scrolls to it: a dialog taller than the screen opens at its beginning,
// not at its Close button, and the page stays where it was when the focus
// goes back to the header's button that opened it.
const focusJS = `
var n = 0;
(function tryFocus() {
  var e = document.getElementById(id);
  if (e && e.offsetParent !== null && !e.closest("[inert]")) { e.focus({preventScroll: true}); return; }
  if (++n < 10) requestAnimationFrame(tryFocus);
})();`

var focusFn lazyFunc

// focusInViewJS is focusJS for a control that may be off the screen when
// the focus goes back to it: the header's ? button, once the page is
// scrolled (at 360 × 800 scrolled 1500 px it was 1490 px above the
// screen: Escape closed the shortcuts dialog and no focus showed, and Tab
// went on from the page's top; a review). Once the element is shown and
// not inert, it takes the focus if it is in view; else the first control
// (a link, button, field or summary), in the page's order, that is in
// view does, or with none any other Tab stop (a scrolling region): whole, or, taller
// than half the screen (the timeline), half the screen of it; within the
// boxes that clip it (the settings' scrolling sidebar) and drawn at its
// middle (not under the sticky legend). Nothing scrolls. One focused not
// whole, or with its top under something (the timeline's, under the sticky
// legend and axis), is marked data-foot, as ToggleView marks the timeline
// it leaves so, for its focus handler, which would bring its top clear
// (revealTop: the page moved 89 px at 1280 × 800 in presentation mode).
// With none in view, the element takes the focus where it is.
const focusInViewJS = `
var n = 0;
function inView(e) {
  var r = e.getBoundingClientRect();
  if (!r.width || !r.height) return false;
  var top = 0, bottom = innerHeight, left = 0, right = innerWidth;
  for (var p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    var o = getComputedStyle(p);
    if (o.overflowX === "visible" && o.overflowY === "visible") continue;
    var q = p.getBoundingClientRect();
    top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom); left = Math.max(left, q.left); right = Math.min(right, q.right);
  }
  if (r.left < left - 1 || r.right > right + 1) return false;
  var from = Math.max(r.top, top), to = Math.min(r.bottom, bottom);
  if (to - from < Math.min(r.height, (bottom - top) / 2) - 1) return false;
  var hit = document.elementFromPoint((r.left + r.right) / 2, (from + to) / 2);
  return !!hit && (hit === e || e.contains(hit));
}
(function tryFocus() {
  var e = document.getElementById(id);
  if (!e || e.offsetParent === null || e.closest("[inert]")) {
    if (++n < 10) requestAnimationFrame(tryFocus);
    return;
  }
  if (!inView(e)) {
    // A control first (summary too: "Client settings as Go code"), then
    // any stop: during a run the settings' sidebar (tabindex 0) is the
    // first in view, a region where a control was meant (a review).
    var all = document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]"), control = "a[href], button, input, select, textarea, summary";
    function can(c) { return c.tabIndex >= 0 && !c.matches(":disabled") && !c.closest("[inert]") && inView(c); }
    var f = Array.prototype.find.call(all, function (c) { return c.matches(control) && can(c); }) || Array.prototype.find.call(all, can);
    if (f) {
      var r = f.getBoundingClientRect(), at = document.elementFromPoint((r.left + r.right) / 2, r.top + 1);
      if (r.top < 0 || r.bottom > innerHeight || !at || !f.contains(at)) f.setAttribute("data-foot", "");
      e = f;
    }
  }
  e.focus({preventScroll: true});
})();`

var focusInViewFn lazyFunc

var focusedFn lazyFunc

// FocusedID is the id of the element that has the keyboard focus: "" when
// none has (the page's body) or it has no id. A dialog gives the focus
// back to it when it closes.
func FocusedID() string {
	fn, err := compiled(&focusedFn, `var e = document.activeElement; return e && e !== document.body ? e.id : "";`)
	if err != nil {
		return ""
	}
	v, err := fn.Invoke()
	if err != nil {
		return ""
	}
	id, _ := v.String()
	return id
}

// Focus moves the keyboard focus to the element with the given id as soon
// as it is shown (a dialog opening, or the control it returns to).
func Focus(id string) error {
	fn, err := compiled(&focusFn, focusJS, "id")
	if err != nil {
		return err
	}
	_, err = fn.Invoke(id)
	return err
}

// FocusInView moves the keyboard focus to the element with the given id
// as soon as it is shown, when it is in view; else to the first control in
// view (focusInViewJS). Nothing scrolls.
func FocusInView(id string) error {
	fn, err := compiled(&focusInViewFn, focusInViewJS, "id")
	if err != nil {
		return err
	}
	_, err = fn.Invoke(id)
	return err
}

// keepFocusJS keeps the keyboard focus on the page when the element that
// has it is disabled or removed (Run pressed with Enter is disabled by the
// run it starts; Zoom out disabled by zooming out all the way): Chromium
// then leaves the focus on the document's body, where no outline shows and
// a screen reader says nothing. After each change to the page it looks
// whether that happened to the element last focused, and moves the focus,
// without scrolling, to the first that can take it of: an element of the
// same id (re-rendered), the ids the element lists in data-focus-next, a
// focusable ancestor (the settings' sidebar while a run disables its
// inputs), and last the element #park (the run's status, tabindex -1),
// where it waits: once the element lost, or one listed before the status,
// can take the focus again (Simulate, once the simulation is done), the
// focus goes back to it, unless it has moved on meanwhile.
const keepFocusJS = `
var last = null, parked = null;
function ok(e) {
  return !!e && e.isConnected && !e.matches(":disabled") && !e.closest("[inert]") && e.getClientRects().length > 0;
}
function byId(id) { return id ? document.getElementById(id) : null; }
function move(e) { last = e; e.focus({preventScroll: true}); }
function check() {
  var a = document.activeElement;
  if (parked) {
    if (a !== parked.at) { parked = null; }
    else {
      for (var i = 0; i < parked.ids.length; i++) {
        var w = byId(parked.ids[i]);
        if (ok(w)) { parked = null; move(w); return; }
      }
      return;
    }
  }
  if (last && !ok(last)) recover(last);
}
function recover(lost) {
  var a = document.activeElement;
  if (a && a !== document.body) return;
  var ids = [lost.id].concat((lost.getAttribute("data-focus-next") || "").split(" "));
  for (var i = 0; i < ids.length; i++) {
    var c = byId(ids[i]);
    if (ok(c)) { move(c); return; }
  }
  for (var p = lost.parentElement; p && lost.isConnected; p = p.parentElement) {
    if (p.hasAttribute("tabindex") && ok(p)) { move(p); return; }
  }
  var at = byId(park);
  if (ok(at)) { move(at); parked = {at: at, ids: ids}; }
}
function focusin(e) { last = e.target; }
// Chromium takes the focus from a disabled element a moment after it is
// disabled (at its next style update), with a focusout: the element may
// even be enabled again by the time it is looked at (a simulation holds the
// thread meanwhile). Left for nothing while it could still have kept the
// focus (a click on the page's background, another window), it is not
// lost: nothing to keep.
function focusout(e) {
  var t = e.target, gone = !ok(t);
  if (e.relatedTarget) return;
  setTimeout(function () {
    if (last !== t) return;
    if (gone) recover(t);
    else if (document.activeElement !== t) last = null;
  }, 0);
}
// A modal dialog (aria-modal="true"; the last one in the page is on top)
// keeps the focus: Tab from its last control goes to its first, Shift+Tab
// from its first to its last, and either from anywhere else (its title, the
// page's body) into it. The page behind it is inert, and Chromium would
// take the focus out of the page.
function tab(e) {
  if (e.key !== "Tab") return;
  var ds = document.querySelectorAll('[aria-modal="true"]'), d = ds[ds.length - 1];
  if (!d) return;
  var f = [].filter.call(d.querySelectorAll("a[href], button, input, select, textarea, [tabindex]"), function (c) { return c.tabIndex >= 0 && ok(c); });
  var i = f.indexOf(document.activeElement);
  if (i < 0 || i === (e.shiftKey ? 0 : f.length - 1)) {
    e.preventDefault();
    if (f.length) f[e.shiftKey ? f.length - 1 : 0].focus();
  }
}
var mo = new MutationObserver(check);
mo.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "inert", "hidden", "class", "style"]});
document.addEventListener("focusin", focusin, true);
document.addEventListener("focusout", focusout, true);
document.addEventListener("keydown", tab, true);
return function () {
  mo.disconnect();
  document.removeEventListener("focusin", focusin, true);
  document.removeEventListener("focusout", focusout, true);
  document.removeEventListener("keydown", tab, true);
};`

var keepFocusFn lazyFunc

// KeepFocus keeps the keyboard focus on the page until stop is called:
// when the focused element is disabled or removed, the focus moves to
// where its FocusNextAttr says, or waits on the element park; and Tab
// keeps it inside a modal dialog (see keepFocusJS).
func KeepFocus(park string) (stop func(), err error) {
	fn, err := compiled(&keepFocusFn, keepFocusJS, "park")
	if err != nil {
		return nil, err
	}
	remove, err := fn.Invoke(park)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { _, _ = remove.Invoke() }) }, nil
}

// claimJS claims a name among the pages of this origin in this browser
// (BroadcastChannel ch): it says hello with the name, answers "taken" to a
// hello for the name it holds, and calls clash when its own hello was
// answered so: a newer page holding another's name (a duplicated tab
// copies session storage) learns it and picks another. Returns
// [rename(name), close()].
const claimJS = `
var bc = new BroadcastChannel(ch), mine = name;
bc.onmessage = function (e) {
  var d = e.data;
  if (!d || d.name !== mine) return;
  if (d.type === "hello") bc.postMessage({type: "taken", name: mine});
  else if (d.type === "taken") clash();
};
bc.postMessage({type: "hello", name: mine});
return [
  function (n) { mine = n; bc.postMessage({type: "hello", name: n}); },
  function () { bc.onmessage = null; bc.close(); }
];`

var claimFn lazyFunc

// ClaimName claims name among this origin's pages in this browser (their
// channel ch). When another page already holds it, clash is called (from a
// JavaScript callback): pick a new name and pass it to rename, which claims
// it. stop ends the claim.
func ClaimName(ch, name string, clash func()) (rename func(string), stop func(), err error) {
	fn, err := compiled(&claimFn, claimJS, "ch", "name", "clash")
	if err != nil {
		return nil, nil, err
	}
	f, err := funcOf(func(safejs.Value, []safejs.Value) any {
		enter()
		clash()
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	fns, err := fn.Invoke(ch, name, f.Value())
	if err != nil {
		release(f)
		return nil, nil, err
	}
	renameJS, err1 := fns.Index(0)
	closeJS, err2 := fns.Index(1)
	if err1 != nil || err2 != nil {
		release(f)
		return nil, nil, errors.Join(err1, err2)
	}
	var once sync.Once
	return func(n string) { _, _ = renameJS.Invoke(n) }, func() {
		once.Do(func() {
			_, _ = closeJS.Invoke()
			release(f)
		})
	}, nil
}

// streamJS opens an EventSource and forwards the messages' data in
// batches: a busy stream (a 500-worker run sends thousands of messages a
// second) would otherwise wake Go once per message, and each wake-up costs
// more than the message. Messages are joined with U+001E and handed over
// at most every flushMS, and at once with the stream's hello (a run waits
// for it); it returns a function that closes the stream.
// When the connection drops (the browser then reconnects by itself) it
// forwards {"type":"lost","at":…} once, until the next message: what the
// server sent meanwhile is not seen. Its "at" is the wall clock's time
// then as the wall clock reads at the hand-over: the time since the loss
// by performance.now(), before the wall clock's time now. Go's clock reads
// the same wall clock a moment later, so a page's clock set (back or
// forward) between the loss and the hand-over does not move it: the
// receiver puts it on the monotonic clock by its distance from now.
const streamJS = `
var es = null, buf = [], timer = 0, lost = false, again = 0, tries = 0, closed = false, probe = null;
function flush() {
  timer = 0;
  if (buf.length === 0) return;
  var s = buf.map(function (d) { return typeof d === "string" ? d : JSON.stringify({type: "lost", at: new Date(Date.now() - (performance.now() - d.lost)).toISOString()}); }).join("\u001e");
  buf = [];
  fn(s);
}
function push(data) {
  buf.push(data);
  if (buf.length === 1 && timer === 0) timer = setTimeout(flush, flushMS);
}
function open() {
  again = 0;
  es = new EventSource(url);
  es.onmessage = function (e) {
    lost = false; tries = 0; push(e.data);
    // The hello at once: a run waits for it before it starts.
    if (e.data.lastIndexOf('{"type":"hello"', 0) === 0) { if (timer) clearTimeout(timer); flush(); }
  };
  es.onerror = function () {
    if (!lost) {
      lost = true;
      push({lost: performance.now()});
    }
    // Closed for good: an answer that is not a stream. EventSource does
    // not say which, so the same request asks: a 503 (too many streams
    // open), a 429, a 408 or a proxy's 5xx is opened again after its
    // Retry-After and a random part (full jitter) that doubles at each
    // refusal in a row; another answer (a 404, a 401) is told, and not
    // asked again.
    if (retry && es.readyState === 2 && !closed && again === 0 && probe === null) ask();
  };
}
function later(ms) {
  var cap = Math.min(maxMS, jitterMS * Math.pow(2, tries));
  tries++;
  again = setTimeout(open, ms + Math.random() * cap);
}
function ask() {
  probe = new AbortController();
  var p = probe;
  fetch(url, {cache: "no-store", signal: p.signal, headers: {Accept: "text/event-stream"}}).then(function (r) {
    p.abort(); // a stream's body is not read
    if (closed) return;
    probe = null;
    var s = r.status, ra = parseInt(r.headers.get("Retry-After"), 10);
    var stream = r.ok && /^text\/event-stream/i.test(r.headers.get("Content-Type") || "");
    if (stream || s === 503 || s === 429 || s === 408 || s >= 500) {
      later(stream ? 0 : ra >= 0 && ra <= 3600 ? ra * 1000 : afterMS);
      return;
    }
    // Another answer, a 200 that is no stream (a proxy's page, a login
    // form) among them: told, and not asked again.
    push(JSON.stringify({type: "refused", status: s, at: new Date().toISOString()}));
  }, function () {
    if (closed) return;
    probe = null;
    later(afterMS); // the server is not there: it may come back
  });
}
open();
return function () { closed = true; if (again) clearTimeout(again); again = 0; if (probe) probe.abort(); probe = null; es.onmessage = null; es.onerror = null; es.close(); if (timer) clearTimeout(timer); timer = 0; buf = []; };`

// streamFlushMS is the longest a stream message waits in JavaScript before
// Go gets it (with the others of its batch).
const streamFlushMS = 25

// A stream the server answered with something else than a stream is
// asked for again with fetch, which reads the answer EventSource hides. A
// 503 (too many streams open), a 429, a 408 or another 5xx (a proxy's)
// is opened again, when Stream is asked to, after its Retry-After
// (streamRetryAfter without one) and a random part (full jitter) under
// streamRetryJitter, doubled at each refusal in a row up to
// streamRetryMax, and a stream (it opens now) at once; another answer (a
// 404, a 401, a 200 that is no event stream) is told as
// {"type":"refused","status":404,…} and not asked again. (The browser
// itself reconnects only a stream whose connection dropped.)
var (
	streamRetryAfter  = 5 * time.Second
	streamRetryJitter = time.Second
	streamRetryMax    = 30 * time.Second
)

var streamFn lazyFunc

// Stream opens a server-sent events stream (EventSource) on url and calls
// fn with the data of each unnamed message until stop is called. The
// browser reconnects by itself if the connection drops, and, with retry,
// Stream opens it again if the server answered otherwise, or tells of
// the refusal (streamRetryAfter); fn gets {"type":"lost","at":…} when the stream
// fails (once, until the next message; the server's stream starts again
// with its hello). fn runs on a JS
// callback and must not block. Messages come in batches (fn is called once
// per message, in order), each at most streamFlushMS after it arrived.
func Stream(url string, retry bool, fn func(data string)) (stop func(), err error) {
	open, err := compiled(&streamFn, streamJS, "url", "retry", "fn", "flushMS", "afterMS", "jitterMS", "maxMS")
	if err != nil {
		return nil, err
	}
	return hold(func(_ safejs.Value, args []safejs.Value) any {
		enter()
		if len(args) > 0 {
			if s, err := args[0].String(); err == nil {
				for len(s) > 0 {
					i := strings.IndexByte(s, 0x1e)
					if i < 0 {
						fn(s)
						break
					}
					fn(s[:i])
					s = s[i+1:]
				}
			}
		}
		return nil
	}, func(f safejs.Value) (safejs.Value, error) {
		ms := func(d time.Duration) int { return int(d / time.Millisecond) }
		return open.Invoke(url, retry, f, streamFlushMS, ms(streamRetryAfter), ms(streamRetryJitter), ms(streamRetryMax))
	})
}

// withBool is a JS callback that hands fn its first argument, a boolean
// (one that is not is dropped).
func withBool(fn func(bool)) func(safejs.Value, []safejs.Value) any {
	return func(_ safejs.Value, args []safejs.Value) any {
		if len(args) > 0 {
			if v, err := args[0].Bool(); err == nil {
				fn(v)
			}
		}
		return nil
	}
}

// undoOnce returns a func that calls the JS undo function (remove a
// listener, close a stream) and releases f, once however often it is called.
// hold hands fn to JavaScript and calls start with it; start installs it
// (a listener, an observer, a stream) and gives back the routine that
// removes it. The stop hold returns calls that routine and releases fn,
// once. A start that fails releases fn at once.
func hold(fn func(this safejs.Value, args []safejs.Value) any, start func(f safejs.Value) (safejs.Value, error)) (stop func(), err error) {
	f, err := funcOf(fn)
	if err != nil {
		return nil, err
	}
	remove, err := start(f.Value())
	if err != nil {
		release(f)
		return nil, err
	}
	return undoOnce(remove, f), nil
}

func undoOnce(undo safejs.Value, f safejs.Func) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			_, _ = undo.Invoke()
			release(f)
		})
	}
}
