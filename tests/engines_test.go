//go:build e2e

package tests

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"
)

// engine is a browser other than Chromium, driven by its own protocol:
// Firefox over WebDriver BiDi (firefox_test.go), WebKit over WebDriver
// (webkit_test.go). The Chromium tests use chromedp.
type engine interface {
	open(tb testing.TB, url string)           // load url, wait for its load event
	evalJSON(tb testing.TB, js string) string // an expression's value (a promise awaited) through JSON.stringify
	clickOn(tb testing.TB, id string)         // click #id with the mouse, as a person would
	shot(tb testing.TB, name string)          // save the viewport under tests/out/NAME.png
	errors(tb testing.TB) []string            // what the page logged as an error
}

// engineEval evaluates js in the engine's page and decodes its value.
func engineEval[T any](tb testing.TB, br engine, js string) T {
	tb.Helper()
	var v T
	s := br.evalJSON(tb, js)
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		tb.Fatalf("evaluate %s: %q: %v", firstLine(js), s, err)
	}
	return v
}

// readyJS is true once the page has mounted and its check of the
// *.localhost origins has answered.
const readyJS = `!!document.querySelector("main[data-ready=true]") && !!window.retrylab && !document.getElementById("run").disabled &&
	["reached", "not reached"].includes(JSON.parse(window.retrylab.state()).subdomains)`

// otherEngineRuns: the page works in another engine than Chromium's. It
// loads and reaches the *.localhost origins; a live run clicked with the
// mouse ends with every job done, its requests counted and its marks
// drawn; Stop aborts the requests in flight, which the server sees
// cancelled (no service worker in the path swallows the abort); and
// nothing is logged as an error. The page's Chromium-only paths (the
// service worker's static routes, data: URL workers) must not be its only
// paths. name prefixes the screenshots; paces says whether the browser
// paces requests itself (Firefox), which the page must tell (its
// tooltips then say so).
func otherEngineRuns(t *testing.T, srv *server, br engine, name string, paces bool) {
	t.Helper()
	br.open(t, srv.URL+"/?workers=20&jobs=2&seed=3")
	if err := waitFor(60*time.Second, func() bool { return engineEval[bool](t, br, readyJS) }); err != nil {
		br.shot(t, name+"-not-ready")
		t.Fatalf("the page did not become ready in 60 s; logged errors %q", br.errors(t))
	}
	st := engineEval[pageState](t, br, `JSON.parse(window.retrylab.state())`)
	if st.Subdomains != "reached" {
		t.Errorf("the engine resolves *.localhost, yet the page's check says %q", st.Subdomains)
	}
	if got := engineEval[bool](t, br, `JSON.parse(window.retrylab.debug()).paced`); got != paces {
		t.Errorf("the page takes the browser to pace requests itself: %v, want %v", got, paces)
	}
	br.clickOn(t, "run")
	if err := waitFor(60*time.Second, func() bool {
		st = engineEval[pageState](t, br, `JSON.parse(window.retrylab.state())`)
		return st.Runs == 1 && !st.Running
	}); err != nil {
		br.shot(t, name+"-run-unfinished")
		t.Fatalf("the run did not finish in 60 s: %+v", st)
	}
	s := st.Stats
	if s["jobs"] != 40 || s["successes"] != 40 || s["first_tries"] != 40 || s["requests"] < 40 || s["failed"] != 0 || s["timeouts"] != 0 {
		t.Errorf("20 workers × 2 jobs: jobs %v, successes %v, first tries %v, requests %v, other failures %v, timeouts %v; want 40 jobs, every one a success",
			s["jobs"], s["successes"], s["first_tries"], s["requests"], s["failed"], s["timeouts"])
	}
	if st.Records < int(s["requests"]) {
		t.Errorf("the run recorded %d events for %v requests", st.Records, s["requests"])
	}
	// The canvas shows the outcomes: the success's bluish green among its pixels.
	if n := engineEval[int](t, br, `(() => {
		const c = document.getElementById("timeline"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i] === 0x00 && d[i + 1] === 0x9e && d[i + 2] === 0x73) n++;
		return n;
	})()`); n < 100 {
		t.Errorf("the timeline has %d pixels of the success's colour: its marks were not drawn", n)
	}
	br.shot(t, name+"-run")
	t.Logf("%s: %v requests, browser queue p99 %v ms, lateness p99 %v ms", name, s["requests"], s["queued_p99_ms"], s["lateness_p99_ms"])
	enginePNGHasTheRun(t, br, name)

	room := fmt.Sprintf("e2e-%s-stop-%d", name, time.Now().UnixNano())
	events := subscribe(t, srv, room)
	br.open(t, srv.URL+"/?workers=20&jobs=1&latency=5s&room="+room)
	if err := waitFor(60*time.Second, func() bool { return engineEval[bool](t, br, readyJS) }); err != nil {
		t.Fatal("the page did not become ready again")
	}
	br.clickOn(t, "run")
	for seen := 0; seen < 20; seen++ {
		events.next(t, 15*time.Second, func(e mockEvent) bool { return e.Type == "arrival" })
	}
	br.clickOn(t, "stop")
	for cancelled := 0; cancelled < 20; cancelled++ {
		if ev := events.next(t, 3*time.Second, func(e mockEvent) bool { return e.Type == "end" }); ev.End != "cancelled" {
			t.Errorf("after Stop, request %s ended as %q, want cancelled", ev.Tag, ev.End)
		}
	}
	if err := waitFor(5*time.Second, func() bool {
		st = engineEval[pageState](t, br, `JSON.parse(window.retrylab.state())`)
		return !st.Running
	}); err != nil {
		t.Fatalf("the page still runs after Stop: %+v", st)
	}
	if st.Stats["aborted"] != 20 || st.Stats["successes"] != 0 {
		t.Errorf("after Stop: aborted %v, successes %v; want 20 and 0", st.Stats["aborted"], st.Stats["successes"])
	}
	if errs := br.errors(t); len(errs) > 0 {
		t.Errorf("the page logged errors: %s", strings.Join(errs, "; "))
	}
}

// enginePNGHasTheRun clicks "Timeline PNG" after a run and checks the PNG
// the page offers: a picture of the timeline, the success's bluish green
// among its pixels. The PNG is drawn and encoded off the page's canvas,
// in a worker where the engine can (browser.DrawPNG), which the Chromium
// tests alone did not cover: a blank picture would have passed. The test
// takes the Blob as the page hands it to its download link, and leaves
// the link unclicked (what each engine's driver does with a download is
// its own).
func enginePNGHasTheRun(t *testing.T, br engine, name string) {
	t.Helper()
	engineEval[bool](t, br, `(() => {
		const o = URL.createObjectURL;
		URL.createObjectURL = function (b) { if (b && b.type === "image/png") window.e2ePNG = b; return o.apply(URL, arguments); };
		const c = HTMLAnchorElement.prototype.click;
		HTMLAnchorElement.prototype.click = function () { if (!this.download) return c.apply(this, arguments); };
		document.getElementById("export-png").scrollIntoView({block: "center"});
		return true;
	})()`)
	br.clickOn(t, "export-png")
	if err := waitFor(30*time.Second, func() bool { return engineEval[bool](t, br, `!!window.e2ePNG`) }); err != nil {
		t.Fatalf("%s: no PNG 30 s after Timeline PNG was clicked; logged errors %q", name, br.errors(t))
	}
	b64 := engineEval[string](t, br, `new Promise((ok, fail) => { const r = new FileReader(); r.onload = () => ok(r.result.slice(r.result.indexOf(",") + 1)); r.onerror = fail; r.readAsDataURL(window.e2ePNG); })`)
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	saveShot(t, name+"-export", data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: the page's PNG is not one: %v", name, err)
	}
	b := img.Bounds()
	green := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r>>8 == 0x00 && g>>8 == 0x9e && bl>>8 == 0x73 {
				green++
			}
		}
	}
	if b.Dx() < 600 || b.Dy() < 300 || green < 100 {
		t.Errorf("%s: the page's PNG is %v with %d pixels of the success's colour: not the run's timeline", name, b, green)
	}
}
