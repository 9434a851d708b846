//go:build e2e

package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestAudienceJoinsRoom: a presenter's page watches a shared room on a
// server listening on every interface; the watch shows the room's link on
// the server's network address and its QR code. Two audience devices (two
// browser profiles) open that link and press Run. The watch counts both
// devices, draws a lane for each, named as each page calls itself, and
// every arrival in its device's lane.
func TestAudienceJoinsRoom(t *testing.T) {
	srv := startServer(t, "-host", "0.0.0.0")
	browserCtx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-join-%d", time.Now().UnixNano())
	query := "room=" + room + "&workers=3&jobs=2&latency=20ms&rate=5&burst=5&strategy=full"
	boot(t, browserCtx, srv.URL+"/?"+query)
	press(t, browserCtx, "w")
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, browserCtx, `!!JSON.parse(window.retrylab.state()).watch_open`)
	}); err != nil {
		t.Fatal("the watch did not open the room's stream")
	}

	// What the server says about reaching it from the network.
	resp, body := srv.get(t, "/join")
	if resp.StatusCode != 200 {
		t.Fatalf("GET /join: %d %s", resp.StatusCode, body)
	}
	var join struct {
		LAN     bool     `json:"lan"`
		Origins []string `json:"origins"`
		Hint    string   `json:"hint"`
	}
	if err := json.Unmarshal(body, &join); err != nil || !join.LAN {
		t.Fatalf("GET /join on -host 0.0.0.0: %s (%v)", body, err)
	}
	type panel struct {
		Link, Hint, QR, Devices string
		QRWidth                 int
	}
	read := func() panel {
		return eval[panel](t, browserCtx, `(() => {
			const t = id => (document.getElementById(id) || {}).textContent || "";
			const qr = document.getElementById("join-qr");
			return {Link: t("join-link"), Hint: t("join-hint"), Devices: t("join-devices"),
				QR: qr ? qr.getAttribute("src") : "", QRWidth: qr && qr.complete ? qr.naturalWidth : 0};
		})()`)
	}
	var p panel
	joinURL := srv.URL + "/?" + query
	if len(join.Origins) == 0 {
		// A machine with no network interface: the page says so, and the
		// audience is simulated on the loopback address.
		if err := waitFor(5*time.Second, func() bool { p = read(); return p.Hint != "" }); err != nil || p.Link != "" {
			t.Fatalf("no network address, but the panel shows %+v", p)
		}
		t.Logf("this machine has no network address: %q; the devices join on %s", p.Hint, joinURL)
	} else {
		if err := waitFor(5*time.Second, func() bool { p = read(); return p.Link != "" && p.QRWidth > 0 }); err != nil {
			t.Fatalf("join panel %+v, want a link and its QR code (GET /join: %s)", p, body)
		}
		u, err := url.Parse(p.Link)
		if err != nil || u.Scheme+"://"+u.Host != join.Origins[0] || u.Query().Get("room") != room || u.Query().Get("workers") != "3" {
			t.Fatalf("join link %q: want the room's configuration on %s", p.Link, join.Origins[0])
		}
		if u.Query().Has("seed") || len(p.Link) > 160 {
			t.Errorf("join link %q carries the fields at their defaults: it should be short enough to read off a projector", p.Link)
		}
		if qr, _ := url.Parse(p.QR); qr == nil || qr.Path != "/qr.svg" || qr.Query().Get("text") != p.Link {
			t.Errorf("QR code %q is not of the link %q", p.QR, p.Link)
		}
		joinURL = p.Link // the devices use the link as a person would
	}
	if p.Devices != "No device has sent a request yet." {
		t.Errorf("devices before anyone ran: %q", p.Devices)
	}

	// Two devices join and run, one after the other.
	var names, seeds []string
	requests := 0
	for i := range 2 {
		ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
		if err := chromedp.Do(ctx); err != nil { // the tab, on ctx itself: boot's timeout would end it
			t.Fatal(err)
		}
		boot(t, ctx, joinURL)
		note := eval[string](t, ctx, `(document.getElementById("info-room") || {}).textContent || ""`)
		name, ok := strings.CutPrefix(note, "This page appears in the room as ")
		name, _, _ = strings.Cut(name, ".")
		if !ok || name == "" {
			t.Fatalf("device %d: room note %q", i, note)
		}
		// Its own seed, drawn and put in its address: the devices jitter
		// independently.
		seed := eval[string](t, ctx, `new URLSearchParams(location.search).get("seed") || ""`)
		if !strings.Contains(note, "its own random seed") || seed == "" || slices.Contains(seeds, seed) {
			t.Errorf("device %d: seed %q (others %q), room note %q; want a seed of its own, said", i, seed, seeds, note)
		}
		seeds = append(seeds, seed)
		names = append(names, name)
		if i == 0 {
			// A reload keeps the tab's name (and so its lane).
			boot(t, ctx, joinURL)
			if again := eval[string](t, ctx, `(document.getElementById("info-room") || {}).textContent || ""`); again != note {
				t.Errorf("after a reload the page says %q, before %q", again, note)
			}
		}
		st := runToEnd(t, ctx, 60*time.Second)
		requests += int(st.Stats["requests"])
		cancel()
	}
	if names[0] == names[1] {
		t.Fatalf("two devices named %q", names[0])
	}

	var d debugState
	var stats map[string]float64
	if err := waitFor(5*time.Second, func() bool {
		d = debugOf(t, browserCtx)
		stats = state(t, browserCtx).Stats
		return stats["arrivals"] == float64(requests) && stats["devices"] == 2 && len(d.Lanes) == 2
	}); err != nil {
		t.Fatalf("the watch: %v, lanes %q %v; the devices sent %d requests", stats, d.Lanes, d.LaneArrivals, requests)
	}
	if !slices.Equal(d.Lanes, names) {
		t.Errorf("lanes %q, want the devices %q in the order they ran", d.Lanes, names)
	}
	if d.LaneArrivals[0]+d.LaneArrivals[1] != requests || d.LaneArrivals[0] == 0 || d.LaneArrivals[1] == 0 {
		t.Errorf("arrivals per lane %v, %d requests in all", d.LaneArrivals, requests)
	}
	if err := waitFor(2*time.Second, func() bool { p = read(); return p.Devices == "2 devices have sent requests." }); err != nil {
		t.Errorf("join panel's count %q", p.Devices)
	}
	time.Sleep(300 * time.Millisecond) // a frame with every arrival
	t.Logf("devices %q sent %v requests; screenshot %s", names, d.LaneArrivals, screenshot(t, browserCtx, "watch-devices"))

	if p.QR != "" {
		// For the back of the room, the code fills the screen in a modal
		// dialog (the page behind it inert); a click on it puts it back.
		// qrSize is the enlarged code's width (0 when not shown), the
		// window's height, and whether the page behind is inert.
		type qr struct {
			Big, Window float64
			Inert       bool
		}
		qrSize := func() qr {
			return eval[qr](t, browserCtx, `(() => {
				const b = document.getElementById("join-qr-big");
				return {Big: b && b.offsetParent !== null ? b.getBoundingClientRect().width : 0, Window: window.innerHeight, Inert: document.querySelector("main > .page").inert};
			})()`)
		}
		small := eval[float64](t, browserCtx, `document.getElementById("join-qr").getBoundingClientRect().width`)
		click(t, browserCtx, "join-zoom")
		var big qr
		if err := waitFor(2*time.Second, func() bool { big = qrSize(); return big.Big >= 0.6*big.Window }); err != nil || !big.Inert {
			t.Errorf("enlarged QR code %.0f px wide in a %.0f px window (was %.0f px), the page behind inert %v", big.Big, big.Window, small, big.Inert)
		}
		t.Logf("QR code %.0f px, enlarged %.0f px; screenshot %s", small, big.Big, screenshot(t, browserCtx, "watch-join-qr"))
		if err := waitFor(2*time.Second, func() bool { return focusedID(t, browserCtx) == "join-unzoom" }); err != nil {
			t.Errorf("the focus is on %q, want the enlarged code (it puts it back)", focusedID(t, browserCtx))
		}
		click(t, browserCtx, "join-unzoom")
		if err := waitFor(2*time.Second, func() bool { q := qrSize(); return q.Big == 0 && !q.Inert && focusedID(t, browserCtx) == "join-zoom" }); err != nil {
			t.Errorf("the QR code did not go back, or the focus did not return to it: %+v, focus on %q", qrSize(), focusedID(t, browserCtx))
		}
		// Escape puts an enlarged code back, and leaves the watch going.
		click(t, browserCtx, "join-zoom")
		if err := waitFor(2*time.Second, func() bool { return qrSize().Big >= 0.6*big.Window }); err != nil {
			t.Fatal("the QR code did not enlarge again")
		}
		press(t, browserCtx, kb.Escape)
		if err := waitFor(2*time.Second, func() bool { q := qrSize(); return q.Big == 0 && !q.Inert }); err != nil || !state(t, browserCtx).Running {
			t.Errorf("after Escape: %+v, watch going on %v", qrSize(), state(t, browserCtx).Running)
		}
	}

	// Once everyone is in, the presenter hides the panel: the timeline
	// moves up.
	click(t, browserCtx, "join-hide")
	if err := waitFor(2*time.Second, func() bool { return eval[bool](t, browserCtx, `!document.getElementById("join")`) }); err != nil {
		t.Error("the join panel is still shown after ✕")
	}
}

// TestDuplicatedTabTakesAnotherName: a duplicated tab copies session
// storage, and with it the device name, so two tabs of one browser would
// share a lane in the presenter's watch. The newer one learns that the
// name is taken and draws another; the older keeps its own, and a reload
// of the first still keeps it.
func TestDuplicatedTabTakesAnotherName(t *testing.T) {
	srv := startServer(t)
	browserCtx, _ := newBrowser(t)
	page := srv.URL + "/?room=dup-tabs"
	name := func(ctx context.Context) string {
		note := eval[string](t, ctx, `(document.getElementById("info-room") || {}).textContent || ""`)
		n, _ := strings.CutPrefix(note, "This page appears in the room as ")
		n, _, _ = strings.Cut(n, ".")
		return n
	}
	boot(t, browserCtx, page)
	first := name(browserCtx)
	stored := eval[string](t, browserCtx, `sessionStorage.getItem("retrylab.device")`)
	if first == "" || !strings.Contains(stored, first) {
		t.Fatalf("first tab: name %q, stored %q", first, stored)
	}
	// A second tab of the same browser, holding the first's stored name,
	// as a duplicated tab does.
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/web/app.css")); err != nil { // the origin's session storage, before the page starts
		t.Fatal(err)
	}
	eval[bool](t, ctx, `(sessionStorage.setItem("retrylab.device", `+strconv.Quote(stored)+`), true)`)
	boot(t, ctx, page)
	var second string
	if err := waitFor(5*time.Second, func() bool { second = name(ctx); return second != "" && second != first }); err != nil {
		t.Fatalf("the duplicated tab still goes by %q, as the first", second)
	}
	if now := eval[string](t, ctx, `sessionStorage.getItem("retrylab.device")`); !strings.Contains(now, second) {
		t.Errorf("the duplicated tab goes by %q but stored %q", second, now)
	}
	if got := name(browserCtx); got != first {
		t.Errorf("the first tab's name changed: %q, was %q", got, first)
	}
	// A reload of the first keeps its name: its hello is answered by the
	// second tab, whose name is another.
	boot(t, browserCtx, page)
	time.Sleep(500 * time.Millisecond) // time for a "taken" answer, if one came
	if got := name(browserCtx); got != first {
		t.Errorf("the first tab, reloaded, goes by %q, was %q", got, first)
	}
	t.Logf("first tab %q, duplicated tab renamed %q", first, second)
}

// TestRoomKeepsTheStepCaption: the presenter's projector opened on
// /?room=room1 (the README's setup; no seed: the page draws its own, as a
// phone that joined from the room's link does) and on step 5 read only "In
// room “room1” as …, step 5: press Run, your requests share the room's
// limit.": the step's caption, the text the presenter teaches from, was
// gone. On a wide screen, and in presentation mode, the step's caption
// shows with the room's line under it; a phone (320 × 568) that joined
// from the link keeps only the room's line, and Run on its first screen.
func TestRoomKeepsTheStepCaption(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	room := fmt.Sprintf("e2e-caption-%d", time.Now().UnixNano())
	type caption struct {
		Step, Room      string
		StepH, RoomH    float64
		RunTop, RunBot  float64
		Height, ScrollW float64
		Width           float64
	}
	read := func() caption {
		return eval[caption](t, ctx, `(() => {
			const s = document.querySelector("#preset-caption .step-text"), r = document.querySelector("#preset-caption .room-line");
			const run = document.getElementById("run").getBoundingClientRect();
			return {Step: s ? s.textContent : "", Room: r ? r.textContent : "",
				StepH: s ? s.getBoundingClientRect().height : 0, RoomH: r ? r.getBoundingClientRect().height : 0,
				RunTop: run.top + scrollY, RunBot: run.bottom + scrollY, Height: innerHeight,
				ScrollW: document.documentElement.scrollWidth, Width: innerWidth};
		})()`)
	}
	step5 := func(name string) caption {
		t.Helper()
		press(t, ctx, "5")
		var c caption
		if err := waitFor(5*time.Second, func() bool { c = read(); return strings.Contains(c.Room, ", step 5: press Run") }); err != nil {
			t.Fatalf("%s: step 5 in a room: caption %+v", name, c)
		}
		eval[chromedp.Void](t, ctx, afterFrames)
		c = read()
		screenshot(t, ctx, "room-caption-"+name)
		return c
	}
	presenter := func(name string) {
		t.Helper()
		c := step5(name)
		if !strings.HasPrefix(c.Step, "The client of “+ honour Retry-After” without its spread") || c.StepH < 20 || c.RoomH < 15 {
			t.Errorf("%s: step 5 in room %s: the step's caption %q (%.0f px high), the room's line %q (%.0f px high); want both shown", name, room, c.Step, c.StepH, c.Room, c.RoomH)
		}
		if c.ScrollW > c.Width {
			t.Errorf("%s: the page is %.0f px wide on a %.0f px screen", name, c.ScrollW, c.Width)
		}
	}
	viewport(t, ctx, 1400, 1000)
	boot(t, ctx, srv.URL+"/?room="+room)
	presenter("1400x1000")
	viewport(t, ctx, 1280, 720)
	boot(t, ctx, srv.URL+"/?room="+room)
	presentMode(t, ctx, true)
	presenter("1280x720-present")
	// Presenting from a narrow screen: the step's caption too.
	viewport(t, ctx, 390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	boot(t, ctx, srv.URL+"/?room="+room)
	presentMode(t, ctx, true)
	presenter("390x844-present")

	presentMode(t, ctx, false)
	viewport(t, ctx, 320, 568, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	boot(t, ctx, srv.URL+"/?room="+room)
	c := step5("phone-320x568")
	if c.StepH != 0 || c.RoomH < 15 {
		t.Errorf("a 320 × 568 phone on step 5: the step's caption %.0f px high, the room's line %q %.0f px; want only the room's line", c.StepH, c.Room, c.RoomH)
	}
	if c.RunTop < 0 || c.RunBot > c.Height || c.ScrollW > c.Width {
		t.Errorf("a 320 × 568 phone on step 5: Run spans %.0f–%.0f px of a %.0f px screen, the page %.0f px wide; want Run on the first screen", c.RunTop, c.RunBot, c.Height, c.ScrollW)
	}
}
