//go:build !(js && wasm)

package main

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/mock"
)

//go:embed app-worker.js
var workerJS string

// site is everything the server answers: the page shell, its assets and the
// mock endpoint.
type site struct {
	mux  *http.ServeMux
	mock *mock.Handler
	join *joinHandler
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/mock" && !strings.HasPrefix(r.URL.Path, "/mock/") {
		setPageHeaders(w.Header())
	}
	if n := headerBytes(r); n > maxHeaderBytes {
		// As every refusal of the server, in JSON, and with CORS so that a
		// page's worker on another origin sees a 431, not a network error.
		mock.SetCommon(w.Header())
		writeJSONError(w, http.StatusRequestHeaderFieldsTooLarge, &mock.ParamError{
			Param: "headers", Value: strconv.Itoa(n) + " bytes", Allowed: headersAllowed})
		return
	}
	if p := r.URL.Path; strings.HasPrefix(p, "/mock/") && !cleanPath(p) {
		// ServeMux would answer a 307 to the cleaned path ("/mock//" to
		// "/mock/"), an empty body with no reason where a path under
		// /mock/ that is not an endpoint gets its JSON 404.
		noMockEndpoint(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath reports whether p is as ServeMux keeps it: path.Clean's, with
// its trailing slash.
func cleanPath(p string) bool {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// noMockEndpoint is the answer to a path under /mock/ that is not one of
// the mock's endpoints: JSON, as every refusal of the mock is, naming the
// ones there are (it was a plain-text 404).
func noMockEndpoint(w http.ResponseWriter, r *http.Request) {
	mock.SetCommon(w.Header())
	p := cutValue(r.URL.Path) // as every refused value: at most 64 bytes, then "… (N bytes)"
	mock.WriteErrorJSON(w, http.StatusNotFound, "mock: no endpoint "+p,
		&mock.ParamError{Param: "path", Value: p, Allowed: mockEndpoints})
}

// setPageHeaders sets what every answer but the mock endpoint's carries:
// the page is framed by no other site (one could frame a link whose
// custom target is somebody's API and have a click press Run: up to
// 100,000 requests from the visitor's browser), no answer's type is
// sniffed, and no request the page makes carries a Referer (a custom
// target was told the page's origin, a room's LAN address; found by a
// security review). The mock's answers are any page's to read (CORS *)
// and set nosniff themselves (mock.SetCommon).
func setPageHeaders(h http.Header) {
	h.Set("X-Retry-Lab", "1") // the service worker's sign that it is still Retry Lab here (app-worker.js: navigate)
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// The most a request's line and headers may take. net/http answers a
// request past http.Server.MaxHeaderBytes (plus 4096 bytes it allows
// beyond) itself, before any handler, with a plain-text 431 and no CORS
// headers, which a page's fetch sees as a network error; it cannot be
// given another body. So the server's MaxHeaderBytes is hardHeaderBytes,
// and the site refuses past maxHeaderBytes with the JSON every other
// refusal has: only requests past hardHeaderBytes get net/http's.
const (
	maxHeaderBytes  = 16 << 10
	hardHeaderBytes = 64 << 10
)

var headersAllowed = "at most " + strconv.Itoa(maxHeaderBytes) + " bytes of request line and headers"

// headerBytes is about what r's request line and headers took on the
// wire, as net/http counts them against MaxHeaderBytes: names, values,
// ": " and line ends, and Host, which net/http moves out of the header.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4 + len("Host: ") + len(r.Host) + 2 + 2
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// setListenAddr tells /join the host the server was asked to listen on
// (serve -host) and the port it listens on, known only once it listens.
// Safe to call while the site serves.
func (s *site) setListenAddr(host string, port int) {
	s.join.addr.Store(&listenAddr{host: host, port: port})
}

// Close stops the mock endpoint's background work.
func (s *site) Close() { s.mock.Close() }

// mockEndpoints are the mock's paths, as a refused path is told.
const mockEndpoints = "/mock, /mock/events, /mock/outage, /mock/limit, /mock/burst"

// pointRoot ends the error for a file of the build missing under -root:
// started from another folder, the server looks in the wrong place.
const pointRoot = "or point -root (RETRYLAB_ROOT) at the repository"

// newSiteWith reads the built assets under root and wires the handlers,
// the mock's with mo.
// Paths are made absolute first, so that a file missing under the default
// root "." names the folder the server was started in.
func newSiteWith(root string, mo mock.Options) (*site, error) {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	wasm, err := loadWasm(filepath.Join(root, "web", "app.wasm"))
	if err != nil {
		return nil, err
	}
	execJS := filepath.Join(root, "wasm_exec.js")
	if _, err := os.Stat(execJS); err != nil {
		return nil, fmt.Errorf("%s is missing: run `make build` (it copies the Go toolchain's copy), %s", execJS, pointRoot)
	}

	version, err := siteVersion(wasm.version, filepath.Join(root, "web"))
	if err != nil {
		return nil, err
	}

	m := mock.New(mo)
	mux := http.NewServeMux()
	mux.Handle("/mock", m)
	mux.Handle("/mock/events", m.Events()) // it keeps its own rolling write deadline
	mux.Handle("/mock/outage", m.Outage())
	mux.Handle("/mock/limit", m.Limit())
	mux.Handle("/mock/burst", m.Burst())
	mux.HandleFunc("/mock/", noMockEndpoint)
	mux.Handle("/web/app.wasm", wasm)
	join := &joinHandler{interfaceAddrs: upInterfaceAddrs}
	mux.Handle("/join", join)          // the origins audience devices reach this server at
	mux.HandleFunc("/qr.svg", serveQR) // a QR code of the room's link, for the projector
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		// The toolchain's copy, served ahead of go-app's embedded one, which
		// is picked by the server's Go version and may drift (README: facts).
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFile(w, r, execJS)
	})
	h := &app.Handler{
		Name:        "Retry Lab",
		ShortName:   "Retry Lab",
		Title:       "Retry Lab — see what retries do to a server",
		Description: "An in-browser retry playground: backoff, jitter, Retry-After and token buckets against a real rate-limited endpoint.",
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		BackgroundColor:         "#f7f7f4",
		ThemeColor:              "#1f2a44",
		LoadingLabel:            "Loading Retry Lab {progress}%",
		Styles:                  []string{"/web/app.css"},
		Resources:               newWebDir(root),
		Version:                 version,
		WasmContentLengthHeader: wasmLengthHeader,
		ServiceWorkerTemplate:   workerJS,
		// go-app's loader only asks for app.wasm after DOMContentLoaded
		// (~200 ms into a cold load); compileWasmJS starts the download and
		// the compile with the page, in a worker (see loaderJS).
		// Without JavaScript the loader would cover the page's note for good.
		RawHeaders: []string{
			"<script>" + compileWasmJS + "</script>",
			"<script>" + touchTitlesJS + "</script>",
			`<noscript><style>#app-wasm-loader{display:none}</style></noscript>`,
		},
	}
	js, err := loaderJS(h)
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", `"`+version+`"`)
		http.ServeContent(w, r, "app.js", time.Time{}, strings.NewReader(js))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// go-app answers any method with the page or the file.
		if !getOrHead(w, r) {
			return
		}
		h.ServeHTTP(w, r)
	})
	return &site{mux: mux, mock: m, join: join}, nil
}

// loaderJS is go-app's app.js (the script that fetches app.wasm and starts
// Go) with two changes that take work off a cold load's main thread:
//
//   - app.wasm is fetched and compiled by a dedicated worker, which posts
//     the compiled module back (compileWasmJS, started from the page's
//     head); the loader only instantiates it (retrylabInstantiate). go-app
//     piped app.wasm through a JavaScript ReadableStream to count bytes for
//     its progress label, so every chunk of 7.7 MB passed through the main
//     thread while the page started, and even streamed untouched into
//     WebAssembly.instantiateStreaming, receiving and decoding it cost the
//     main thread ~40–75 ms of CPU in a load. Where a worker cannot be made or
//     fails, the page fetches app.wasm itself as before (retrylabFetchWasm:
//     a clone of the response is read for the count, and the label changes
//     at most once a frame).
//   - The service worker registers once the page is interactive and the
//     main thread idle, not before the download: installing it caches the
//     app shell, app.wasm included, which competed with the download, the
//     compile and the first mount on a two-core machine.
//
// What they saved is measured by BenchmarkColdLoad; app/README.md keeps
// the numbers, in one place.
func loaderJS(h http.Handler) (string, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	js := rec.Body.String()
	for _, c := range []struct{ old, new string }{
		{"instantiateStreaming(\n      fetchWithProgress(\"/web/app.wasm\", showProgress),\n      go.importObject\n    )",
			`retrylabInstantiate(instantiateStreaming, "/web/app.wasm", go.importObject, showProgress)`},
		{"\ngoappInitServiceWorker();\n", "\n"},
		{"    go.run(wasm.instance);\n    loader.remove();\n", "    go.run(wasm.instance);\n    loader.remove();\n    retrylabWhenReady(goappInitServiceWorker);\n"},
	} {
		if n := strings.Count(js, c.old); n != 1 {
			return "", fmt.Errorf("go-app's app.js has %d copies of %q, want 1: the loader changes in app/site.go need updating for this go-app", n, c.old)
		}
		js = strings.Replace(js, c.old, c.new, 1)
	}
	return js + fetchWasmJS, nil
}

// compileWasmJS, in the page's head, starts a worker that fetches and
// compiles app.wasm and posts the module back (a WebAssembly.Module can be
// posted to the page that made the worker), with the download's progress at
// most every 100 ms and, with the module, when the response ended on the
// page's clock (marked as "app.wasm received" for BenchmarkColdLoad). The
// worker's fetch goes through the service worker like the page's would, so
// a repeat visit is served from its cache, offline too.
const compileWasmJS = `
// Retry Lab (app/site.go): app.wasm is fetched and compiled off the page's thread.
var retrylabWasm = (function () {
  var src = 'onmessage = async function (e) {' +
    '  try {' +
    '    var r = await fetch(e.data[0]);' +
    '    if (!r.ok) throw new Error("app.wasm: HTTP " + r.status);' +
    '    var total = parseInt(r.headers.get("` + wasmLengthHeader + `") || r.headers.get("Content-Length"), 10);' +
    '    if (total > 0 && r.body) (async function () {' +
    '      var reader = r.clone().body.getReader(), loaded = 0, last = 0;' +
    '      for (;;) {' +
    '        var c = await reader.read();' +
    '        if (c.done) { postMessage([1, 100]); return; }' +
    '        loaded += c.value.byteLength;' +
    '        if (performance.now() - last > 100) { last = performance.now(); postMessage([1, Math.min(100, Math.round(loaded * 100 / total))]); }' +
    '      }' +
    '    })().catch(function () {});' +
    '    var m = await WebAssembly.compileStreaming(r);' +
    '    var t = performance.getEntriesByName(e.data[0], "resource").pop();' +
    '    postMessage([0, m, t ? t.responseEnd + performance.timeOrigin - e.data[1] : -1]);' +
    '  } catch (err) { postMessage([2, String(err)]); }' +
    '};';
  var progress = function () {};
  var module = new Promise(function (resolve, reject) {
    var url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
    var w = new Worker(url);
    var done = function () {
      w.terminate();
      URL.revokeObjectURL(url);
    };
    w.onmessage = function (e) {
      var m = e.data;
      if (m[0] === 1) {
        progress(m[1]);
        return;
      }
      done();
      if (m[0] !== 0) {
        reject(new Error(m[1]));
        return;
      }
      resolve(m[1]);
      try {
        if (m[2] > 0) {
          performance.mark("app.wasm received", { startTime: m[2] });
        }
      } catch (err) {
        // a browser without mark's options: only the benchmark's figure is lost
      }
    };
    w.onerror = function (e) {
      done();
      reject(new Error(e.message || "the worker failed"));
    };
    w.postMessage([new URL("/web/app.wasm", location.href).href, performance.timeOrigin]);
  });
  module.catch(function () {});
  return { module: module, onProgress: function (f) { progress = f; } };
})();
`

// touchTitlesJS shows a title on a tap, as a pointer's hover does: a
// touch screen shows none, and the page explains much of what it draws
// there (each number's card, each of the legend's items: "late", "held by
// the browser"), so a phone in a workshop room read "lateness p99 171 ms"
// with no word on whose lateness it was (a review on a slow phone). Only
// for a tap on something that does nothing else (not a control, the
// canvas or what the keyboard reaches), and for a touch on a disabled
// button, which takes no click and whose title says why it is off; gone
// at the next touch, a scroll or Esc. It is drawn only: a screen reader
// has the title already.
const touchTitlesJS = `
// Retry Lab (app/site.go): a tap shows a title, as a hover does.
(function () {
  var tip = null, touch = false;
  var hide = function () {
    if (tip) {
      tip.remove();
      tip = null;
    }
  };
  var show = function (el) {
    hide();
    tip = document.createElement("div");
    tip.className = "touch-tip";
    tip.setAttribute("aria-hidden", "true");
    tip.textContent = el.title;
    document.documentElement.appendChild(tip);
    var r = el.getBoundingClientRect(), w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
    var top = r.bottom + 6;
    if (top + tip.offsetHeight > h - 8 && r.top - 6 - tip.offsetHeight >= 8) top = r.top - 6 - tip.offsetHeight;
    tip.style.left = Math.max(8, Math.min(r.left, w - 8 - tip.offsetWidth)) + "px";
    tip.style.top = Math.max(8, top) + "px";
  };
  addEventListener("pointerdown", function (e) {
    touch = e.pointerType === "touch" || e.pointerType === "pen";
    hide();
    // A disabled button takes no click, and its title says why it is off.
    var b = touch && e.target instanceof Element && e.target.closest("button:disabled[title]");
    if (b) show(b);
  }, true);
  addEventListener("scroll", hide, true);
  addEventListener("resize", hide);
  addEventListener("keydown", function (e) {
    if (e.key === "Escape") hide();
  }, true);
  addEventListener("click", function (e) {
    var t = e.target;
    if (!touch || !(t instanceof Element) || t.closest("a, button, input, select, textarea, label, summary, canvas, [tabindex], [role=button]")) return;
    var el = t.closest("[title]");
    if (el && el.title) show(el);
  });
})();
`

// startingLabel is the loader's label once app.wasm is downloaded: the
// page then starts, its thread busy until it shows (0.9 s on a phone 4×
// slower than this machine; app/site.go's progress stayed at the last one
// the worker sent, "Loading Retry Lab 17%", a review on a slow phone).
const startingLabel = "Starting Retry Lab…"

// fetchWasmJS instantiates the module compileWasmJS's worker compiled, or
// where there is none, fetches app.wasm for instantiateStreaming and
// reports its progress from a clone of the response.
const fetchWasmJS = `
// Retry Lab (app/site.go): the module the head's worker compiled, or
// app.wasm fetched and compiled here when the worker could not.
// The label says the page is starting once app.wasm is all in, and at the
// latest once it is compiled (the count of its bytes may lag behind), and
// it is painted before Go starts, which holds the thread from there to the
// first mount.
async function retrylabInstantiate(instantiateStreaming, url, importObject, progress) {
  const shown = retrylabProgress(progress);
  if (window.retrylabWasm) {
    retrylabWasm.onProgress(shown);
    try {
      const module = await retrylabWasm.module;
      shown(100);
      await retrylabPainted();
      return { instance: await WebAssembly.instantiate(module, importObject) };
    } catch (err) {
      console.warn("Retry Lab: app.wasm could not be compiled in a worker (" + err + "); compiling it here");
    }
  }
  const wasm = await instantiateStreaming(retrylabFetchWasm(url, shown), importObject);
  shown(100);
  await retrylabPainted();
  return wasm;
}

// Retry Lab (app/site.go): resolves once the next frame is painted, or
// after 100 ms (a hidden page paints none; its timers may wait longer).
function retrylabPainted() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

// Retry Lab (app/site.go): the download's progress, then, once app.wasm is
// all in, what the page does next (its compile's end, Go's start and the
// first mount, which on a slow phone hold its thread for a second or more).
function retrylabProgress(progress) {
  return (p) => {
    if (p < 100) {
      progress(p);
      return;
    }
    const label = document.getElementById("app-wasm-loader-label");
    if (label) {
      label.innerText = "` + startingLabel + `";
    }
  };
}

// Retry Lab (app/site.go): app.wasm streams into the compiler untouched; a
// clone is read only to count bytes, and the label changes once a frame.
async function retrylabFetchWasm(url, progress) {
  const response = await fetch(url);
  const total = parseInt(response.headers.get(goappWasmContentLengthHeader) || response.headers.get("Content-Length"), 10);
  if (!(total > 0) || !response.body) {
    return response;
  }
  const reader = response.clone().body.getReader();
  let loaded = 0, queued = false;
  const show = () => {
    queued = false;
    progress(Math.min(100, Math.round((loaded * 100) / total)));
  };
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        loaded = Math.max(loaded, total); // a label queued for the next frame says 100 too
        progress(100);
        return;
      }
      loaded += value.byteLength;
      if (!queued) {
        queued = true;
        requestAnimationFrame(show);
      }
    }
  })().catch(() => {});
  return response;
}

// Retry Lab (app/site.go): run f once the page is interactive
// (main[data-ready="true"]) and the main thread is idle.
function retrylabWhenReady(f) {
  const ready = () => document.querySelector('main[data-ready="true"]') !== null;
  const idle = window.requestIdleCallback || ((g) => setTimeout(g, 50));
  const later = () => idle(() => f(), { timeout: 2000 });
  if (ready()) {
    later();
    return;
  }
  const watch = new MutationObserver(() => {
    if (ready()) {
      watch.disconnect();
      later();
    }
  });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"] });
}
`

// webDir serves root/web/ under /web/ and leaves resource URLs as they are
// (app.LocalDir would put its directory into every URL). Only root/web/:
// go-app hands it every path that starts with /web/, and an encoded dot
// segment (/web/%2e%2e/go.mod) is not cleaned away by the mux, so a file
// server of root would serve the whole folder (sources, Makefile, .git).
type webDir struct{ http.Handler }

func newWebDir(root string) webDir {
	files := http.StripPrefix("/web", http.FileServer(http.Dir(filepath.Join(root, "web"))))
	return webDir{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") { // files, not a listing of the folder
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})}
}

func (webDir) Resolve(location string) string { return location }

// versionOf is a hash of b: the same bytes always have the same version,
// and changed ones are noticed.
func versionOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// siteVersion is the page's version (go-app's, its ETag and its service
// worker's cache): the wasm's version and every other file under web, by
// path and content. go-app answers a request whose If-None-Match is the
// version with 304, so a version of the wasm alone kept an edited app.css,
// or an icon, from reaching a browser until app.wasm changed too.
func siteVersion(wasmVersion, web string) (string, error) {
	h := sha256.New()
	h.Write([]byte(wasmVersion))
	err := filepath.WalkDir(web, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(web, path)
		if strings.HasPrefix(rel, "app.wasm") { // the wasm and its compressed copies: wasmVersion
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "\x00%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}
