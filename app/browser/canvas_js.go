//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"strings"
	"sync"
	"unsafe"

	"github.com/hack-pad/safejs"
)

// drawJS replays an Ops display list on the canvas with the given id, sized
// w×h CSS pixels at the device pixel ratio. It returns how many values it
// read (n when the list was well formed).
const drawJS = `
var canvas = document.getElementById(id);
if (!canvas) return -1;
var dpr = window.devicePixelRatio || 1;
var pw = Math.max(1, Math.round(w * dpr)), ph = Math.max(1, Math.round(h * dpr));
if (canvas.width !== pw || canvas.height !== ph) { canvas.width = pw; canvas.height = ph; }
if (canvas.style.height !== h + "px") canvas.style.height = h + "px";
var g = canvas.getContext("2d");
g.setTransform(dpr, 0, 0, dpr, 0, 0);
g.clearRect(0, 0, w, h);
g.globalAlpha = 1;
return replay(g, buf, 0, n, strs.split("\x1f"), palette.split("\x1f"), fonts.split("\x1f"), imgs);
` + replayJS

// layersJS draws in two layers: base ops are added to a drawing kept aside
// (an offscreen canvas of the same size, cleared first when fresh), then
// the canvas shows that drawing with the top ops over it. It returns how
// many values it read (n when the lists were well formed), -1 without the
// canvas, -2 when the kept drawing is gone or the wrong size and the call
// was not fresh (the caller must redraw it fresh).
const layersJS = `
var canvas = document.getElementById(id);
if (!canvas) return -1;
var dpr = window.devicePixelRatio || 1;
var pw = Math.max(1, Math.round(w * dpr)), ph = Math.max(1, Math.round(h * dpr));
var B = canvas["__base" + slot];
if (!fresh && (!B || B.width !== pw || B.height !== ph)) return -2;
if (nb < n) {
  if (canvas.width !== pw || canvas.height !== ph) { canvas.width = pw; canvas.height = ph; }
  if (canvas.style.height !== h + "px") canvas.style.height = h + "px";
}
if (!B) B = canvas["__base" + slot] = document.createElement("canvas");
var gb = B.getContext("2d");
if (fresh) {
  if (B.width !== pw || B.height !== ph) { B.width = pw; B.height = ph; }
  gb.setTransform(1, 0, 0, 1, 0, 0);
  gb.clearRect(0, 0, pw, ph);
}
gb.setTransform(dpr, 0, 0, dpr, 0, 0);
gb.globalAlpha = 1;
var P = palette.split("\x1f"), F = fonts.split("\x1f");
var r = replay(gb, buf, 0, nb, strsB.split("\x1f"), P, F, null);
if (r !== nb || nb === n) return r;
var g = canvas.getContext("2d");
g.setTransform(1, 0, 0, 1, 0, 0);
g.globalAlpha = 1;
g.clearRect(0, 0, pw, ph);
g.drawImage(B, 0, 0);
g.setTransform(dpr, 0, 0, dpr, 0, 0);
r = replay(g, buf, nb, n, strsT.split("\x1f"), P, F, null);
return r === n ? n : r;
` + replayJS

// replayJS replays the values b[i:n] on the context g and returns where it
// stopped (n when the list was well formed). I holds the lists' images as
// Uint8ClampedArrays (null: none); each is put on a scratch canvas of its
// size, then drawn scaled onto g.
const replayJS = `
function replay(g, b, i, n, S, P, F, I) {
var AL = ["left", "center", "right"], BL = ["middle", "top", "bottom"];
// Sub-paths are closed by a line back to their start, not closePath(),
// which costs time proportional to the path in Chromium: 300 ms for 3,000
// triangles in one path.
var x, y, r, k;
while (i < n) {
  switch (b[i]) {
  case 1: g.fillStyle = P[b[i+1]]; i += 2; break;
  case 2: g.strokeStyle = P[b[i+1]]; g.lineWidth = b[i+2]; g.setLineDash(b[i+3] > 0 ? [b[i+3], b[i+3] * 0.75] : []); i += 4; break;
  case 3: g.fillRect(b[i+1], b[i+2], b[i+3], b[i+4]); i += 5; break;
  case 4: g.strokeRect(b[i+1], b[i+2], b[i+3], b[i+4]); i += 5; break;
  case 5: g.beginPath(); g.moveTo(b[i+1], b[i+2]); g.lineTo(b[i+3], b[i+4]); g.stroke(); i += 5; break;
  case 6: g.beginPath(); i += 1; break;
  case 7:
    k = b[i+1]; x = b[i+2]; y = b[i+3]; r = b[i+4]; i += 5;
    switch (k) {
    case 0: g.moveTo(x + r, y); g.arc(x, y, r, 0, 6.283185307179586); break;
    case 1: g.moveTo(x, y - r); g.lineTo(x + r * 0.95, y + r * 0.8); g.lineTo(x - r * 0.95, y + r * 0.8); g.lineTo(x, y - r); break;
    case 2: g.rect(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6); break;
    case 3: g.moveTo(x, y - r); g.lineTo(x + r, y); g.lineTo(x, y + r); g.lineTo(x - r, y); g.lineTo(x, y - r); break;
    case 4: g.moveTo(x - r * 0.8, y - r * 0.8); g.lineTo(x + r * 0.8, y + r * 0.8); g.moveTo(x + r * 0.8, y - r * 0.8); g.lineTo(x - r * 0.8, y + r * 0.8); break;
    case 5: g.rect(x - 0.75, y - r, 1.5, r * 2); break;
    }
    break;
  case 8: g.fill(); i += 1; break;
  case 9: g.stroke(); i += 1; break;
  case 10:
    g.font = F[b[i+4]]; g.textAlign = AL[b[i+5]]; g.textBaseline = BL[b[i+6]];
    g.fillText(S[b[i+1]], b[i+2], b[i+3]); i += 7; break;
  case 11: g.globalAlpha = b[i+1]; i += 2; break;
  case 12: g.save(); g.beginPath(); g.rect(b[i+1], b[i+2], b[i+3], b[i+4]); g.clip(); i += 5; break;
  case 13: g.restore(); i += 1; break;
  case 14:
    x = b[i+1]; y = b[i+2]; var hw = b[i+3], hh = b[i+4], sp = b[i+5], up = sp > 0; i += 6;
    if (!up) sp = -sp;
    g.save(); g.beginPath(); g.rect(x, y, hw, hh); g.clip(); g.beginPath();
    for (var d = -hh; d < hw; d += sp) { g.moveTo(x + d, up ? y + hh : y); g.lineTo(x + d + hh, up ? y : y + hh); }
    g.stroke(); g.restore(); break;
  case 15: g.rect(b[i+1], b[i+2], b[i+3], b[i+4]); i += 5; break;
  case 16:
    if (!I || !I[b[i+1]]) return i;
    var iw = b[i+2], ih = b[i+3];
    var sc = replay.scratch || (replay.scratch = document.createElement("canvas"));
    if (sc.width !== iw || sc.height !== ih) { sc.width = iw; sc.height = ih; }
    sc.getContext("2d").putImageData(new ImageData(I[b[i+1]], iw, ih), 0, 0);
    var smooth = g.imageSmoothingEnabled;
    g.imageSmoothingEnabled = false;
    g.drawImage(sc, b[i+4], b[i+5], b[i+6], b[i+7]);
    g.imageSmoothingEnabled = smooth;
    i += 8; break;
  case 17: g.save(); g.clip(); i += 1; break;
  default: return i;
  }
}
return i;
}`

// widthJS is the CSS width of the element with the given id (0 if absent).
const widthJS = `var e = document.getElementById(id); return e ? e.clientWidth : 0;`

// pixelRatioJS is the device pixel ratio a canvas is drawn at (Draw).
const pixelRatioJS = `var r = window.devicePixelRatio; return r > 0 ? r : 1;`

var pixelRatioFn lazyFunc

// PixelRatio is the device pixels to a CSS pixel the page's canvases are
// drawn at (Draw, DrawPNG): 1.5 at a 150% zoom or display scale.
func PixelRatio() float64 {
	fn, err := compiled(&pixelRatioFn, pixelRatioJS)
	if err != nil {
		return 1
	}
	v, err := fn.Invoke()
	if err != nil {
		return 1
	}
	r, err := v.Float()
	if err != nil || r <= 0 {
		return 1
	}
	return r
}

// pngJS returns a function that draws a display list on a canvas of its
// own (not in the page), sized w×h CSS pixels at the device pixel ratio,
// as drawJS draws the timeline, and resolves to it as a PNG Blob. The page
// stays responsive meanwhile: the list is replayed in slices of about
// sliceMS each, each rasterised at once (a one-pixel read makes the canvas
// draw what it recorded) and the next one in a task of its own; then a
// worker encodes the picture (an ImageBitmap of it, handed over as it is:
// the same pixels), where Chromium's toBlob encodes a PNG on the page's
// thread. Drawn on the timeline's canvas, a 500-worker run's PNG (24,000
// events) held the page's thread 170–760 ms in one task (rasterised all
// at once by toBlob), then redrew the view, then encoded. (An
// OffscreenCanvas draws the same list otherwise: its hatching lay a pixel
// off the canvas's; so the drawing stays on a canvas.) Without a worker,
// OffscreenCanvas or createImageBitmap, or if the worker fails, toBlob
// encodes it.
const pngJS = `
var sliceMS = 12, jobMS = 10000, enc = null, encDead = false, encReady = false, next = 1, jobs = new Map();
function toBlob(c, ok, fail) {
  try {
    c.toBlob(function (b) { if (b) ok(b); else fail(new Error("canvas is empty")); }, "image/png");
  } catch (e) { fail(e); }
}
// fallBack has toBlob encode job id's canvas, if the job is still waiting.
function fallBack(id) {
  var j = jobs.get(id);
  if (!j) return;
  jobs.delete(id);
  clearTimeout(j.timer);
  toBlob(j.c, j.ok, j.fail);
}
function encDie() {
  encDead = true;
  Array.from(jobs.keys()).forEach(fallBack);
}
function startEncoder() {
  if (typeof OffscreenCanvas === "undefined" || !OffscreenCanvas.prototype.convertToBlob || typeof createImageBitmap === "undefined") { encDead = true; return; }
  var u = URL.createObjectURL(new Blob([workerJS], {type: "text/javascript"}));
  try { enc = new Worker(u); } catch (e) { encDead = true; }
  URL.revokeObjectURL(u);
  if (!enc) return;
  enc.onmessage = function (e) {
    var d = e.data;
    if (d[0] === 0) { encReady = true; return; }
    var j = jobs.get(d[0]);
    if (!j) return;
    if (!d[1]) { fallBack(d[0]); return; }
    jobs.delete(d[0]);
    clearTimeout(j.timer);
    j.ok(d[2]);
  };
  // A worker that fails to start, or whose answer cannot be read, hands
  // its jobs to toBlob, as does a job unanswered after jobMS.
  enc.onerror = function () { if (!encReady) encDie(); };
  enc.onmessageerror = encDie;
}
function encode(c, ok, fail) {
  if (!encDead && !enc) startEncoder();
  if (encDead) { toBlob(c, ok, fail); return; }
  createImageBitmap(c).then(function (bmp) {
    if (encDead) { bmp.close(); toBlob(c, ok, fail); return; }
    var id = next++;
    jobs.set(id, {c: c, ok: ok, fail: fail, timer: setTimeout(function () { fallBack(id); }, jobMS)});
    try { enc.postMessage([id, bmp], [bmp]); } catch (e) { bmp.close(); fallBack(id); }
  }, function () { toBlob(c, ok, fail); });
}
// later runs f in a task of its own, without setTimeout's 4 ms clamp.
var ch = null, q = [];
function later(f) {
  if (typeof MessageChannel === "undefined") { setTimeout(f, 0); return; }
  if (!ch) { ch = new MessageChannel(); ch.port1.onmessage = function () { q.shift()(); }; }
  q.push(f); ch.port2.postMessage(0);
}
return function (buf, strs, palette, fonts, w, h, imgs) {
  return new Promise(function (resolve, reject) {
    var dpr = window.devicePixelRatio || 1;
    var c = document.createElement("canvas");
    // Settled, the canvas's pixels (4–17 MB) are let go at once.
    function ok(b) { c.width = 0; resolve(b); }
    function fail(e) { c.width = 0; reject(e); }
    c.width = Math.max(1, Math.round(w * dpr)); c.height = Math.max(1, Math.round(h * dpr));
    var g = c.getContext("2d", {willReadFrequently: true});
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.globalAlpha = 1;
    var S = strs.split("\x1f"), P = palette.split("\x1f"), F = fonts.split("\x1f");
    var n = buf.length, i = 0, step = 4096;
    // A slice runs in a task of its own, outside the promise's executor:
    // what it throws (a canvas the browser could not make, a bad image)
    // fails the export instead of leaving it waiting for ever.
    function slice() {
      try {
        var t0 = performance.now(), to = Math.min(n, i + step), r = replay(g, buf, i, to, S, P, F, imgs);
        if (r < to || r > n) { fail(new Error("corrupt display list")); return; }
        i = r;
        g.getImageData(0, 0, 1, 1);
        var dt = performance.now() - t0;
        // At most twice as many values as the last slice's: a slice of
        // cheap values (lines) came before one of costly ones (text, hatching).
        step = Math.max(256, Math.round(step * Math.min(2, sliceMS / Math.max(dt, 0.5))));
        if (i < n) later(slice); else encode(c, ok, fail);
      } catch (e) { fail(e); }
    }
    later(slice);
  });
};
` + replayJS

// pngWorkerJS is the PNG encoder's code (pngJS): it takes [id, an
// ImageBitmap], puts it on an OffscreenCanvas as it is (bitmaprenderer)
// and answers [id, true, the PNG Blob], or [id, false] when it cannot.
// The worker lives as long as the page, once a PNG was first exported.
const pngWorkerJS = `
onmessage = function (e) {
  var id = e.data[0], bmp = e.data[1];
  try {
    var o = new OffscreenCanvas(bmp.width, bmp.height), g = o.getContext("bitmaprenderer");
    if (!g) { bmp.close(); postMessage([id, false]); return; }
    g.transferFromImageBitmap(bmp);
    o.convertToBlob({type: "image/png"}).then(function (b) { postMessage([id, true, b]); }, function () { postMessage([id, false]); });
  } catch (err) { bmp.close(); postMessage([id, false]); }
};
postMessage([0]);`

type drawer struct {
	mu      sync.Mutex
	draw    safejs.Value
	layers  safejs.Value
	width   safejs.Value
	png     safejs.Value // pngJS's function
	f32     safejs.Value // persistent Float32Array
	u8      safejs.Value // a byte view of it, for the copy
	capa    int          // its length in float32s
	scratch []float32    // DrawLayers' two lists, end to end
	initErr error
	once    sync.Once
}

var theDrawer drawer

func getDrawer() (*drawer, error) {
	d := &theDrawer
	d.once.Do(func() {
		var errs [4]error
		d.draw, errs[0] = compile(drawJS, "id", "buf", "n", "strs", "palette", "fonts", "w", "h", "imgs")
		d.width, errs[1] = compile(widthJS, "id")
		var mk safejs.Value
		if mk, errs[2] = compile(pngJS, "workerJS"); errs[2] == nil {
			d.png, errs[2] = mk.Invoke(pngWorkerJS)
		}
		d.layers, errs[3] = compile(layersJS, "id", "slot", "buf", "nb", "n", "strsB", "strsT", "palette", "fonts", "w", "h", "fresh")
		d.initErr = errors.Join(errs[:]...)
	})
	return d, d.initErr
}

// Width returns the element's CSS width in pixels (0 when it is not in the page).
func (c Canvas) Width() (float64, error) {
	d, err := getDrawer()
	if err != nil {
		return 0, err
	}
	v, err := d.width.Invoke(c.ID)
	if err != nil {
		return 0, err
	}
	return v.Float()
}

// Draw sizes the canvas to w×h CSS pixels (at the device pixel ratio),
// clears it and replays o: one copy of the buffer and one call into JavaScript.
func (c Canvas) Draw(o *Ops, w, h float64) error {
	d, err := getDrawer()
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(o.buf)
	if err := d.copy(o.buf); err != nil {
		return err
	}
	imgs, err := jsImages(o.Images())
	if err != nil {
		return err
	}
	read, err := d.draw.Invoke(c.ID, d.f32, n, joinStrings(o.strs), joinStrings(o.Palette), joinStrings(o.Fonts), w, h, imgs)
	if err != nil {
		return err
	}
	if got, _ := read.Int(); got != n {
		if got < 0 {
			return errors.New("browser: no canvas #" + c.ID)
		}
		return errors.New("browser: corrupt display list")
	}
	return nil
}

// DrawLayers draws the canvas in two layers, sized w×h CSS pixels: base is
// added to a drawing kept aside for this canvas (cleared first when fresh),
// and the canvas shows that drawing with top over it. So what no longer
// changes is drawn once, not at every frame. It returns ErrBaseLost, having
// drawn nothing, when the drawing kept aside is gone (a new canvas element)
// or the wrong size and fresh is false: draw again, fresh. slot names the
// drawing kept aside (a canvas may keep several); with top nil, base is
// added to it and nothing is shown.
func (c Canvas) DrawLayers(slot string, base *Ops, fresh bool, top *Ops, w, h float64) error {
	d, err := getDrawer()
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if top == nil {
		top = &Ops{Palette: base.Palette, Fonts: base.Fonts}
	}
	nb, n := len(base.buf), len(base.buf)+len(top.buf)
	d.scratch = append(append(d.scratch[:0], base.buf...), top.buf...)
	if err := d.copy(d.scratch); err != nil {
		return err
	}
	read, err := d.layers.Invoke(c.ID, slot, d.f32, nb, n, joinStrings(base.strs), joinStrings(top.strs), joinStrings(top.Palette), joinStrings(top.Fonts), w, h, fresh)
	if err != nil {
		return err
	}
	switch got, _ := read.Int(); {
	case got == n:
		return nil
	case got == -1:
		return errors.New("browser: no canvas #" + c.ID)
	case got == -2:
		return ErrBaseLost
	}
	return errors.New("browser: corrupt display list")
}

// jsImages copies the images' pixels into a JS array of Uint8ClampedArrays
// (null when there are none).
func jsImages(imgs [][]byte) (any, error) {
	if len(imgs) == 0 {
		return nil, nil
	}
	g := safejs.Global()
	ctor, err := g.Get("Uint8ClampedArray")
	if err != nil {
		return nil, err
	}
	arrayCtor, err := g.Get("Array")
	if err != nil {
		return nil, err
	}
	out, err := arrayCtor.New(len(imgs))
	if err != nil {
		return nil, err
	}
	for i, px := range imgs {
		a, err := ctor.New(len(px))
		if err != nil {
			return nil, err
		}
		if _, err := safejs.CopyBytesToJS(a, px); err != nil {
			return nil, err
		}
		if err := out.SetIndex(i, a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// copy puts buf in the persistent Float32Array, growing it as needed.
func (d *drawer) copy(buf []float32) error {
	if n := len(buf); n > d.capa {
		capa := max(4096, d.capa)
		for capa < n {
			capa *= 2
		}
		var err error
		if d.f32, d.u8, err = newF32(capa); err != nil {
			return err
		}
		d.capa = capa
	}
	return putF32(d.u8, buf)
}

// newF32 is a new Float32Array of n values, and a byte view of it.
func newF32(n int) (f32, u8 safejs.Value, err error) {
	ctor, err := safejs.Global().Get("Float32Array")
	if err != nil {
		return f32, u8, err
	}
	if f32, err = ctor.New(n); err != nil {
		return f32, u8, err
	}
	u8ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return f32, u8, err
	}
	ab, err := f32.Get("buffer")
	if err != nil {
		return f32, u8, err
	}
	u8, err = u8ctor.New(ab)
	return f32, u8, err
}

// putF32 copies buf to the start of u8, a byte view of a Float32Array.
func putF32(u8 safejs.Value, buf []float32) error {
	if len(buf) == 0 {
		return nil
	}
	bytes := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(buf)*4) // wasm is little-endian, like Float32Array
	_, err := safejs.CopyBytesToJS(u8, bytes)
	return err
}

// DrawPNG draws o on a canvas of its own, sized w×h CSS pixels at the
// device pixel ratio (as Draw draws a canvas of the page), and encodes it
// as a PNG Blob, off the page's thread where the browser can (pngJS). No
// canvas of the page is touched.
func DrawPNG(ctx context.Context, o *Ops, w, h float64) (Blob, error) {
	d, err := getDrawer()
	if err != nil {
		return Blob{}, err
	}
	// An array of its own: the drawer's is the next frame's while the
	// PNG is drawn, slice by slice.
	buf, u8, err := newF32(len(o.buf))
	if err != nil {
		return Blob{}, err
	}
	if err := putF32(u8, o.buf); err != nil {
		return Blob{}, err
	}
	imgs, err := jsImages(o.Images())
	if err != nil {
		return Blob{}, err
	}
	p, err := d.png.Invoke(buf, joinStrings(o.strs), joinStrings(o.Palette), joinStrings(o.Fonts), w, h, imgs)
	if err != nil {
		return Blob{}, err
	}
	v, err := Await(ctx, p)
	if err != nil {
		return Blob{}, err
	}
	return Blob{v: v}, nil
}

// joinStrings packs strings for one transfer; the separator cannot occur in labels.
func joinStrings(s []string) string { return strings.Join(s, "\x1f") }
