//go:build e2e

package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// axeScript is axe-core's axe.min.js, fetched by `make e2e`
// (tests/fetchaxe, checked against its pinned integrity).
func axeScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "tests", "axe", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing: run `make e2e` (or `go run ./tests/fetchaxe`): %v", err)
	}
	return string(b)
}

// audit runs axe-core in the page as it is now and fails the test on every
// violation of WCAG 2.x A and AA and of axe's best practices, naming the
// rule and the elements.
func audit(t *testing.T, ctx context.Context, axe, state string) {
	t.Helper()
	eval[chromedp.Void](t, ctx, axe+";undefined")
	found := eval[[]string](t, ctx, `(async () => {
		const r = await axe.run(document, {resultTypes: ["violations"]});
		return r.violations.map(v => v.impact + " " + v.id + ": " + v.help + " — " +
			v.nodes.slice(0, 5).map(n => n.target.join(" ") + " (" + ((n.failureSummary || "").split("\n")[1] || "").trim() + ")").join("; "));
	})()`)
	for _, v := range found {
		t.Errorf("%s: %s", state, v)
	}
}

// TestPageIsAccessible: axe-core finds no accessibility violation in the
// page's states a person meets: fresh, after a run, in presentation mode,
// with the shortcuts dialog up, comparing with a simulated run, with an
// invalid input, watching a room, and on a phone. Its checks include
// colour contrast, names and labels of every control, ARIA use, and
// scrolling regions a keyboard can reach.
func TestPageIsAccessible(t *testing.T) {
	axe := axeScript(t)
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?room="+fmt.Sprintf("e2e-a11y-%d", time.Now().UnixNano())+"&workers=6&jobs=2&latency=20ms&rate=5&burst=5")
	settle := func() { time.Sleep(300 * time.Millisecond) }
	// reach waits until the page is in the state to audit: an audit of
	// another state would pass for the wrong reason.
	reach := func(what, js string) {
		t.Helper()
		if err := waitFor(10*time.Second, func() bool { return eval[bool](t, ctx, js) }); err != nil {
			t.Fatalf("the page did not reach %s: %v", what, err)
		}
		settle() // its last paint
	}
	audit(t, ctx, axe, "fresh page")
	// A screen reader's list of headings has each region of the page, in
	// the order of the page, each naming its region (it had the title
	// alone; an accessibility review).
	headings := eval[[]string](t, ctx, `[...document.querySelectorAll("h1, h2, h3")].filter(h => !h.closest("[hidden]")).map(h => h.tagName + " " + h.textContent)`)
	want := []string{"H1 Retry Lab", "H2 Presets: the story, step by step", "H2 Run", "H3 Numbers", "H3 Timeline", "H3 Export and share", "H2 Configuration"}
	if !slices.Equal(headings, want) {
		t.Errorf("the page's headings are %q, want %q", headings, want)
	}
	for _, id := range []string{"h-presets", "h-run", "h-config", "h-numbers", "h-exports"} {
		if n := eval[int](t, ctx, `document.querySelectorAll('[aria-labelledby="`+id+`"]').length`); n != 1 {
			t.Errorf("%d regions named by the heading #%s, want 1", n, id)
		}
	}
	runToEnd(t, ctx, 30*time.Second)
	audit(t, ctx, axe, "after a run")
	press(t, ctx, "p")
	reach("presentation mode", `document.querySelector("main").classList.contains("present")`)
	audit(t, ctx, axe, "presentation mode")
	press(t, ctx, "p")
	reach("the normal theme", `!document.querySelector("main").classList.contains("present")`)
	press(t, ctx, "?")
	reach("the shortcuts dialog", `(() => { const h = document.getElementById("help"); return !!h && h.offsetParent !== null; })()`)
	audit(t, ctx, axe, "shortcuts dialog")
	press(t, ctx, kb.Escape)
	reach("the page without the dialog", `!document.querySelector("main > .page").inert`)
	press(t, ctx, "c")
	reach("a kept baseline", `!!JSON.parse(window.retrylab.state()).baseline`)
	press(t, ctx, "m")
	reach("a finished simulation", `(() => { const s = JSON.parse(window.retrylab.state()); return s.simulated && !s.running; })()`)
	audit(t, ctx, axe, "compared with a simulated run")
	typeInto(t, ctx, "workers", "abc")
	reach("the invalid input's message", `((document.getElementById("err-workers") || {}).textContent || "").includes("abc")`)
	audit(t, ctx, axe, "invalid input")
	typeInto(t, ctx, "workers", "6")
	press(t, ctx, "w")
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `!!JSON.parse(window.retrylab.state()).watch_open`)
	}); err != nil {
		t.Fatal("the watch did not open")
	}
	audit(t, ctx, axe, "watching the room")
	press(t, ctx, "s")
	viewport(t, ctx, 390, 844, chromedp.EmulateMobile)
	settle()
	audit(t, ctx, axe, "on a phone")
}

// spokenJS records, from now on, every change of what a screen reader is
// told by the page's live regions (aria-live, role status or alert): their
// text less what is aria-hidden, in window.__spoken as "id: text".
const spokenJS = `(() => {
	const said = new Map(); window.__spoken = [];
	const text = (e) => { let s = ""; for (const n of e.childNodes) {
		if (n.nodeType === 3) s += n.textContent;
		else if (n.nodeType === 1 && n.getAttribute("aria-hidden") !== "true") s += text(n);
	} return s; };
	const look = () => { for (const e of document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]')) {
		const t = text(e).trim();
		if (said.get(e) !== t) { said.set(e, t); if (t) window.__spoken.push((e.id || e.className) + ": " + t); }
	} };
	look(); window.__spoken = [];
	new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
})()`

// TestScreenReaderFollowsARun: what a screen reader hears of a live run
// is that it runs, then how it ended, not every count of the status
// (read out four times a second, each queued behind the last, for as long
// as the run went on: 23 announcements in a 7 s run); and once it is over
// the timeline, a canvas, is described in words: the requests sent, the
// server's answers, the requests per time slice.
func TestScreenReaderFollowsARun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=4&jobs=4&rate=4&burst=2&latency=100ms")
	eval[chromedp.Void](t, ctx, spokenJS)
	st := runToEnd(t, ctx, 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	var status []string
	for _, s := range eval[[]string](t, ctx, `window.__spoken`) {
		if strings.HasPrefix(s, "run-status: ") {
			status = append(status, strings.TrimPrefix(s, "run-status: "))
		}
	}
	if len(status) != 2 || status[0] != "Running" || !strings.HasPrefix(status[1], "Finished: ") {
		t.Errorf("a screen reader was told of the run %d times: %q; want Running, then Finished", len(status), status)
	}
	described := eval[string](t, ctx, `document.getElementById("timeline").getAttribute("aria-describedby").split(" ")
		.map(id => (document.getElementById(id) || {}).textContent || "").join(" ")`)
	want := fmt.Sprintf("4 workers sent %d requests", int(st.Stats["requests"]))
	for _, w := range []string{want, "Outcomes: ", "rejected (429 or 503)", "Requests sent per "} {
		if !strings.Contains(described, w) {
			t.Errorf("the timeline's description lacks %q: %q", w, described)
		}
	}
}

// spokenBy is what the page's live regions told a screen reader since
// spokenJS was installed, of the element with the given id.
func spokenBy(t *testing.T, ctx context.Context, id string) []string {
	t.Helper()
	var out []string
	for _, s := range eval[[]string](t, ctx, `window.__spoken`) {
		if text, ok := strings.CutPrefix(s, id+": "); ok {
			out = append(out, text)
		}
	}
	return out
}

// TestFieldErrorIsSaidOnce: the message beside an invalid input is said
// once as it appears, not at each key typed after it: it quotes the value,
// and typing "abc5000" into workers had a screen reader read it out eight
// times, once per key. The input names it (aria-describedby) and is
// aria-invalid all along, and a field made invalid again says it again.
func TestFieldErrorIsSaidOnce(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=4")
	eval[chromedp.Void](t, ctx, spokenJS)
	shows := func(text string) {
		t.Helper()
		js := `((document.getElementById("err-workers") || {}).textContent || "").includes(` + strconv.Quote(`"`+text+`"`) + `)`
		if err := waitFor(5*time.Second, func() bool { return eval[bool](t, ctx, js) }); err != nil {
			t.Fatalf("no message quoting %q beside the input", text)
		}
		time.Sleep(200 * time.Millisecond)
		if tied := eval[string](t, ctx, `(() => { const i = document.getElementById("f-workers");
			return i.getAttribute("aria-invalid") + " " + i.getAttribute("aria-describedby"); })()`); !strings.HasPrefix(tied, "true ") || !strings.Contains(tied, "err-workers") {
			t.Errorf("the input is not tied to its message: aria-invalid, aria-describedby = %s", tied)
		}
	}
	typeInto(t, ctx, "workers", "abc5000") // one key at a time, as a person types
	shows("abc5000")
	if said := spokenBy(t, ctx, "err-workers"); len(said) != 1 {
		t.Errorf("typing abc5000, a screen reader was told of the error %d times, want once: %q", len(said), said)
	}
	typeInto(t, ctx, "workers", "5")
	if err := waitFor(5*time.Second, func() bool { return eval[bool](t, ctx, `!document.getElementById("err-workers")`) }); err != nil {
		t.Fatal("the message stayed once the value was allowed")
	}
	typeInto(t, ctx, "workers", "x9")
	shows("x9")
	if said := spokenBy(t, ctx, "err-workers"); len(said) != 2 {
		t.Errorf("invalid, fixed, invalid again: a screen reader was told of the error %d times, want twice: %q", len(said), said)
	}
}

// axOf is the role, accessible name and description Chromium gives #id,
// what a screen reader is told.
func axOf(t testing.TB, ctx context.Context, id string) (role, name, desc string) {
	t.Helper()
	obj, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: `document.getElementById(` + strconv.Quote(id) + `)`})
	if err != nil || obj.Result == nil || obj.Result.ObjectID == "" {
		t.Fatalf("no #%s: %v", id, err)
	}
	no := false
	ax, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: obj.Result.ObjectID, FetchRelatives: &no})
	if err != nil || len(ax.Nodes) == 0 {
		t.Fatalf("no accessibility node for #%s: %v", id, err)
	}
	str := func(v *accessibility.Value) string {
		var s string
		if v != nil {
			_ = json.Unmarshal(v.Value, &s)
		}
		return s
	}
	n := ax.Nodes[0]
	return str(n.Role), str(n.Name), str(n.Description)
}

// TestNamesAreReadAsShown: what Chromium tells a screen reader of the
// controls an accessibility review found read wrong: a unit run into its
// label ("Server rate(req/s)"), a glyph read out before a button's word
// ("black right-pointing triangle Run"), a help button named "?", the
// endpoint's name replacing the URL it holds; and an input's allowed range
// in its description.
func TestNamesAreReadAsShown(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	for _, c := range []struct {
		id, role, name, desc string // desc: "" or a part of it
	}{
		{"f-rate", "textbox", "Server rate (req/s)", ""},
		{"f-base", "textbox", "Base", "1ms – 1h (e.g. 250ms, 2s)"},
		{"run", "button", "Run", ""},
		{"outage", "button", "Outage 3 s", ""},
		{"help-open", "button", "Help and keyboard shortcuts (?)", ""},
		{"endpoint-url", "textbox", "Endpoint URL", ""},
		{"copy-endpoint", "button", "Copy Endpoint URL", ""}, // "Copy" beside "Copy share link"
	} {
		role, name, desc := axOf(t, ctx, c.id)
		if role != c.role || name != c.name || !strings.Contains(desc, c.desc) {
			t.Errorf("#%s: %s %q (%q); want %s %q, described with %q", c.id, role, name, desc, c.role, c.name, c.desc)
		}
	}
	if v := eval[string](t, ctx, `document.getElementById("endpoint-url").textContent`); !strings.Contains(v, "/mock?") {
		t.Errorf("the endpoint box holds %q, want the URL", v)
	}
}

// TestTimelineTakesTheArrowKeys: the timeline, a canvas walked with the
// arrow keys, is exposed as an application, not as an image: a screen
// reader's browse mode keeps the arrow keys on an image (to read on), so
// they never reached it. Named and described (what it shows, in words),
// it says each attempt the selection moves to once, in one line (which
// one, its outcome, when: the whole tooltip, up to 8 lines, was read out
// at each key); the tooltip still shows every line, and Enter says them
// all.
func TestTimelineTakesTheArrowKeys(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=3&jobs=2&rate=2&burst=2&latency=20ms")
	runToEnd(t, ctx, 30*time.Second)
	// The run's summary (the canvas's description) is written after the
	// run's end is published: a fresh-clone CI run read it empty.
	_ = waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `(() => { const d = document.getElementById(document.getElementById("timeline").getAttribute("aria-describedby") || ""); return !!d && d.textContent.includes("requests"); })()`)
	})
	role, name, desc := axOf(t, ctx, "timeline")
	if role != "application" {
		t.Errorf("the timeline's role is %q, want application (a screen reader passes it the arrow keys)", role)
	}
	if !strings.Contains(name, "arrow keys") || !strings.Contains(desc, "requests") {
		t.Errorf("the timeline's name %q does not say how to use it, or its description %q what it shows", name, desc)
	}
	eval[chromedp.Void](t, ctx, spokenJS)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline"))); err != nil {
		t.Fatal(err)
	}
	// Each key that moves the selection to another attempt is said once.
	var moves []string
	lines := 0 // the most lines a tooltip showed
	for _, k := range []string{kb.ArrowRight, kb.ArrowRight, kb.ArrowDown, kb.End, kb.Home, kb.ArrowUp} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k), chromedp.Evaluate[chromedp.Void](afterFrames, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		title := eval[string](t, ctx, `(document.querySelector("#tooltip strong") || {}).textContent || ""`)
		if title == "" {
			t.Fatalf("%q selected nothing", k)
		}
		lines = max(lines, eval[int](t, ctx, `document.querySelectorAll("#tooltip > div").length`))
		if len(moves) == 0 || moves[len(moves)-1] != title {
			moves = append(moves, title)
		}
	}
	said := spokenBy(t, ctx, "tip-said")
	if len(said) != len(moves) {
		t.Errorf("the selection moved to %d attempts (%q), and was said %d times: %q", len(moves), moves, len(said), said)
	}
	for i, s := range said {
		if i < len(moves) && !strings.HasPrefix(s, moves[i]) {
			t.Errorf("what was said of attempt %d does not start with which one it is, %q: %q", i+1, moves[i], s)
		}
		if strings.Contains(s, "intended") || len(s) > 120 {
			t.Errorf("attempt %d was said at length (%d characters), want one line: %q", i+1, len(s), s)
		}
	}
	if lines < 3 {
		t.Errorf("the tooltip showed at most %d lines under its title: its details are gone", lines)
	}
	if spokenBy(t, ctx, "tooltip") != nil {
		t.Errorf("the tooltip is still read out as it changes: %q", spokenBy(t, ctx, "tooltip"))
	}
	// Enter says the selected attempt's details, as the tooltip shows them.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	var all []string
	if err := waitFor(2*time.Second, func() bool { all = spokenBy(t, ctx, "tip-said"); return len(all) > len(said) }); err != nil {
		t.Fatal("Enter said nothing")
	}
	if got := all[len(all)-1]; !strings.HasPrefix(got, moves[len(moves)-1]) || !strings.Contains(got, "intended") {
		t.Errorf("Enter said %q, want the details of %q (intended, sent, …)", got, moves[len(moves)-1])
	}
}

// TestSummaryCountsInTheHistogramsBins: the timeline's description for a
// screen reader counts requests in the bins the histogram draws, or in
// slices of whole bins and says how many, at the canvas's width as it is
// now. 500 workers × 3 jobs over 2 min 44 s were described per 10 s beside
// bins of 5 s (found by the page review): a screen reader and a sighted
// colleague named different peaks. On a phone the histogram's bins of a
// 74 s run widen from 1 s to 2 s (4 px each at least), and the
// description follows.
func TestSummaryCountsInTheHistogramsBins(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	check := func(where string) {
		t.Helper()
		var bin, width float64
		var said string
		k := 1
		if err := waitFor(5*time.Second, func() bool {
			bin = eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).hist_bin_ms`) / 1000
			_, said, _ = strings.Cut(eval[string](t, ctx, `document.getElementById("timeline-summary").textContent`), "Requests sent per ")
			said, _, _ = strings.Cut(said, ":")
			// "5 s", or "10 s (5 of the histogram's 2 s bins)"
			k = 1
			if w, of, ok := strings.Cut(said, " ("); ok {
				said = w
				if _, err := fmt.Sscanf(of, "%d of the histogram's ", &k); err != nil || !strings.HasSuffix(of, " of the histogram's "+strconv.FormatFloat(bin, 'f', -1, 64)+" s bins)") {
					return false
				}
			}
			_, err := fmt.Sscanf(said, "%g s", &width)
			return err == nil && bin > 0 && width == float64(k)*bin
		}); err != nil {
			t.Errorf("%s: the histogram's bins are %g s; the description counts per %q, %d bins", where, bin, said, k)
		}
		t.Logf("%s: bins of %g s, described per %g s", where, bin, width)
	}
	boot(t, ctx, srv.URL+"/?workers=500&jobs=3&retry_after=malformed&ra_honour=on&hints=on&headers=ietf")
	click(t, ctx, "simulate")
	simulatedToEnd(t, ctx)
	check("500 workers × 3 jobs, 1400 px")

	boot(t, ctx, srv.URL+"/?workers=100&jobs=8")
	click(t, ctx, "simulate")
	simulatedToEnd(t, ctx)
	check("100 workers × 8 jobs, 1400 px")
	viewport(t, ctx, 360, 740)
	check("100 workers × 8 jobs, a 360 px phone")
}

// liveRegionsJS keeps, in window.__regions, each live region a screen
// reader follows now (in the page, shown, not aria-hidden) with its text.
const liveRegionsJS = `(() => {
	window.__regions = [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]')]
		.filter(e => e.checkVisibility() && !e.closest('[aria-hidden="true"]')).map(e => [e, e.textContent]);
})()`

// TestWhyNotIsSaid: what a shortcut that cannot act says (+ on a fresh
// page) is said by a live region that was on the page, empty, before the
// key: the message came in a live region inserted with its text already
// in it, which a screen reader (NVDA with Chromium) seldom says. It is
// said once (the message seen is not a second live region), and the
// region is empty again once the message is gone.
func TestWhyNotIsSaid(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/")
	eval[chromedp.Void](t, ctx, liveRegionsJS)
	eval[chromedp.Void](t, ctx, spokenJS)
	const want = "Zoom: finish a run or a simulation first"
	press(t, ctx, "+")
	// The live regions that were there, empty, and say it now; and every
	// element with a role or aria-live that says it.
	saysJS := `((want) => ({
		By: window.__regions.filter(([e, was]) => e.isConnected && was.trim() === "" && e.textContent.includes(want)).map(([e]) => e.id),
		In: [...document.querySelectorAll("[role], [aria-live]")].filter(e => e.textContent.includes(want))
			.map(e => "#" + e.id + " (role " + e.getAttribute("role") + (window.__regions.some(([r]) => r === e) ? ", there before" : ", inserted with its text") + ")"),
	}))(` + strconv.Quote(want) + `)`
	var says struct{ By, In []string }
	var in []string
	if err := waitFor(2*time.Second, func() bool {
		says = eval[struct{ By, In []string }](t, ctx, saysJS)
		in = append(in, says.In...)
		return len(says.By) > 0
	}); err != nil {
		t.Fatalf("+ on a fresh page: no live region that was there and empty before the key says %q; it is in %q", want, slices.Compact(in))
	}
	by := says.By
	var said []string
	for _, s := range eval[[]string](t, ctx, `window.__spoken`) {
		if strings.Contains(s, want) {
			said = append(said, s)
		}
	}
	if len(said) != 1 {
		t.Errorf("+ on a fresh page: a screen reader is told %d times, want once: %q", len(said), said)
	}
	// Emptied, not taken away: the next message would come in a new
	// live region again.
	holds := `(e => e ? e.textContent : "(gone from the page)")(document.getElementById(` + strconv.Quote(by[0]) + `))`
	var now string
	if err := waitFor(8*time.Second, func() bool { now = eval[string](t, ctx, holds); return now == "" }); err != nil {
		t.Errorf("#%s, once the message is gone from the screen: %q, want it empty", by[0], now)
	}
}
