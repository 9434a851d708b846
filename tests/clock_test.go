//go:build e2e

package tests

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestServerPanelSaysTheClocksDiffer: a workshop's laptop joining the
// presenter's server has its own clock, seconds off the server's at worst.
// The server's arrivals are drawn by the server's clock, and with the
// device 2 s ahead most of a run's arrivals were drawn left of the axis,
// the rest under the wrong requests, without a word (a review with the
// page's clock moved). They are now drawn moved onto the device's clock,
// each within its request's flight, and the server panel's note says by
// how much. On one machine nothing moves, and the note says nothing of it.
func TestServerPanelSaysTheClocksDiffer(t *testing.T) {
	srv := startServer(t)
	drawn := func(ctx context.Context) string {
		eval[chromedp.Void](t, ctx, canvasTextsJS)
		return eval[string](t, ctx, `window.drawnTexts = [], window.retrylab.redraw(), window.drawnTexts.map(([s]) => s).join(" | ")`)
	}
	// One machine: the page's first run (50 workers, a few hundred
	// answers) finds the clocks agree.
	one, _ := newBrowser(t)
	boot(t, one, srv.URL+"/")
	runToEnd(t, one, 60*time.Second)
	if texts := drawn(one); strings.Contains(texts, "clock") {
		t.Errorf("on the server's machine, the timeline drew %q", texts)
	}
	if n := eval[int](t, one, `JSON.parse(window.retrylab.debug()).arrivals_outside`); n != 0 {
		t.Errorf("on the server's machine, %d arrivals drawn outside their requests' flights", n)
	}

	ctx := aheadBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=4&jobs=2&rate=4&burst=2&latency=20ms&seed=5")
	runToEnd(t, ctx, 30*time.Second)
	if texts := drawn(ctx); !regexp.MustCompile(`the server's clock is about (1\.9\d*|2|2\.0\d*) s behind this device's: its times are drawn moved onto this device's`).MatchString(texts) {
		t.Errorf("the device's clock 2 s ahead of the server's, the timeline drew %q", texts)
	}
	// Each of the run's arrivals drawn within its request's flight: by the
	// server's clock, 26 of 30 lay left of the axis, the rest under the
	// wrong requests.
	if n := eval[int](t, ctx, `JSON.parse(window.retrylab.debug()).arrivals_outside`); n != 0 {
		t.Errorf("the device's clock 2 s ahead: %d arrivals drawn outside their requests' flights", n)
	}
}

// aheadBrowser is a new browser whose pages' clock is 2 s ahead of this
// machine's (skewedBrowser).
func aheadBrowser(t *testing.T) context.Context { return skewedBrowser(t, 2000) }

// skewedBrowser is a new browser whose pages' clock is ms ahead of this
// machine's (behind: negative), until a page sets globalThis.clockSkewMS
// (its clock stepped): Go's wall clock in wasm reads Date, its monotonic
// clock performance.now().
func skewedBrowser(t *testing.T, ms int) context.Context {
	ctx, _ := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const D = Date;
			globalThis.clockSkewMS = ` + strconv.Itoa(ms) + `;
			class Skewed extends D { constructor(...a) { if (a.length) super(...a); else super(D.now() + globalThis.clockSkewMS); } static now() { return D.now() + globalThis.clockSkewMS; } }
			globalThis.Date = Skewed;
		})()`})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// TestWatchSaysTheClocksDiffer: a projector watching a workshop's room
// sends nothing of its own, so no answer tells its clock from the
// server's; with its clock 2 s ahead, it drew the room's arrivals 2 s
// before they came ("received at 0.298 s" for one sent about 2.3 s into
// the watch). The stream's hello bounds the difference, and the arrivals are
// drawn on the projector's clock, with the server panel's note saying so.
func TestWatchSaysTheClocksDiffer(t *testing.T) {
	srv := startServer(t)
	ctx := aheadBrowser(t)
	room := fmt.Sprintf("e2e-clock-%d", time.Now().UnixNano())
	boot(t, ctx, srv.URL+"/?room="+room)
	press(t, ctx, "w")
	if err := waitFor(5*time.Second, func() bool { s := state(t, ctx); return s.Watching && s.WatchOpen }); err != nil {
		t.Fatalf("w did not start watching the room: %+v", state(t, ctx))
	}
	time.Sleep(time.Second)
	before, after, texts, got, said := sendToWatch(t, ctx, srv.URL, room)
	if !regexp.MustCompile(`the server's clock is about (1\.9\d*|2|2\.0\d*) s behind this device's`).MatchString(texts) {
		t.Errorf("the projector's clock 2 s ahead of the server's, the timeline drew %q", texts)
	}
	drawnWhenSent(t, before, after, got, said)
	t.Logf("sent %.3f–%.3f s into the watch, said %q; screenshot %s", before, after, said, screenshot(t, ctx, "watch-clock"))
}

// sendToWatch sends one request to the room the page at ctx watches, as
// another client, and returns the watch's time, s, before it was sent and
// after it was answered (by the page's clock: now_ms), the texts the
// timeline draws once the watch counted it, and when its arrival's tooltip
// says the server received it (and the tooltip's text).
func sendToWatch(t *testing.T, ctx context.Context, srvURL, room string) (before, after float64, texts string, drawnAt float64, said string) {
	t.Helper()
	now := func() float64 { return eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).now_ms`) / 1000 }
	before = now()
	resp, err := http.Get(srvURL + "/mock?key=" + room)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	after = now()
	if err := waitFor(5*time.Second, func() bool { return state(t, ctx).Stats["arrivals"] == 1 }); err != nil {
		t.Fatalf("the watch counted %v arrivals, want 1", state(t, ctx).Stats["arrivals"])
	}
	eval[chromedp.Void](t, ctx, canvasTextsJS)
	texts = eval[string](t, ctx, `window.drawnTexts = [], window.retrylab.redraw(), window.drawnTexts.map(([s]) => s).join(" | ")`)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline")), chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	at := regexp.MustCompile(`received at (-?[0-9.]+) s`)
	if err := waitFor(2*time.Second, func() bool {
		said = eval[string](t, ctx, `document.getElementById("tip-said").textContent`)
		return at.MatchString(said)
	}); err != nil {
		t.Fatalf("the arrival's tip said %q", said)
	}
	drawnAt, _ = strconv.ParseFloat(at.FindStringSubmatch(said)[1], 64)
	return before, after, texts, drawnAt, said
}

// drawnWhenSent checks that an arrival drawn at got came between before
// and after, give or take the server's clock's estimate (its bounds are
// round trips: on a loaded machine, a few hundred ms).
func drawnWhenSent(t *testing.T, before, after, got float64, said string) {
	t.Helper()
	if got < before-0.3 || got > after+0.3 {
		t.Errorf("an arrival sent %.3f–%.3f s into the watch is drawn received at %.3f s (%q)", before, after, got, said)
	}
}

// TestWatchKeepsItsClockWhenTheDevicesClockIsSet: a projector watching a room
// whose clock is set back 2 s during the watch (joining the venue's
// network), its stream lost and opened again, draws the room's arrivals
// where they came, with no note of the clocks: the hello's bounds were
// taken wall clock against wall clock, 2 s off the watch's first ones,
// and moved every arrival 2 s ("the server's clock is about 2 s ahead").
// A proxy between the page and Retry Lab cuts the room's stream.
func TestWatchKeepsItsClockWhenTheDevicesClockIsSet(t *testing.T) {
	srv := startServer(t)
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	room := fmt.Sprintf("e2e-clockstep-%d", time.Now().UnixNano())
	var mu sync.Mutex
	var streams []context.CancelFunc // the room's streams, each cut by its cancel
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mock/events" && r.URL.Query().Get("key") == room {
			ctx, cancel := context.WithCancel(r.Context())
			mu.Lock()
			streams = append(streams, cancel)
			mu.Unlock()
			r = r.WithContext(ctx)
		}
		rp.ServeHTTP(w, r)
	}))
	defer func() { proxy.CloseClientConnections(); proxy.Close() }() // the room's stream is open still
	opened := func() int { mu.Lock(); defer mu.Unlock(); return len(streams) }

	ctx := skewedBrowser(t, 0)
	boot(t, ctx, proxy.URL+"/?room="+room)
	press(t, ctx, "w")
	if err := waitFor(5*time.Second, func() bool { s := state(t, ctx); return s.Watching && s.WatchOpen }); err != nil {
		t.Fatalf("w did not start watching the room: %+v", state(t, ctx))
	}
	time.Sleep(time.Second) // the watch's clock probes
	eval[chromedp.Void](t, ctx, `globalThis.clockSkewMS = -2000`)
	mu.Lock()
	streams[len(streams)-1]()
	mu.Unlock()
	// The browser opens the stream again 2 s after (the mock's retry:).
	if err := waitFor(10*time.Second, func() bool { return opened() == 2 }); err != nil {
		t.Fatalf("the room's stream was opened %d times, want it opened again after the proxy cut it", opened())
	}
	time.Sleep(time.Second) // its hello
	before, after, texts, got, said := sendToWatch(t, ctx, proxy.URL, room)
	if strings.Contains(texts, "the server's clock is about") {
		t.Errorf("the projector's clock set back 2 s during the watch, the timeline drew %q", texts)
	}
	drawnWhenSent(t, before, after, got, said)
}
