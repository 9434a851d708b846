//go:build e2e

package tests

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// allowDownloads makes the browser save downloads into a fresh folder,
// which it returns.
func allowDownloads(t testing.TB, ctx context.Context) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
	}); err != nil {
		t.Fatalf("allow downloads: %v", err)
	}
	return dir
}

// download clicks the button #id and returns the file it saved into dir
// (the one whose name ends in ext), once complete: Chromium may create the
// file before it writes it, so it must be there, non-empty, with no partial
// download (.crdownload) beside it, and the same size 200 ms later.
func download(t *testing.T, ctx context.Context, dir, id, ext string) (name string, data []byte) {
	t.Helper()
	// Only a file this click saves, or saves again (a run's file name is
	// its start to the second, which two runs may share): a test
	// downloading again into dir found the last one's at once and read
	// it. And only once the button is enabled: state() tells a run's end a
	// frame before the page enables the exports, and a click on the
	// disabled button did nothing (a fresh-clone CI: no "Downloaded").
	before := map[string]time.Time{}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				before[e.Name()] = info.ModTime()
			}
		}
	}
	if err := waitFor(5*time.Second, func() bool {
		return eval[bool](t, ctx, `(() => { const b = document.getElementById("`+id+`"); return !!b && !b.disabled })()`)
	}); err != nil {
		t.Fatalf("#%s stayed disabled", id)
	}
	click(t, ctx, id)
	lastSize := int64(-1)
	if err := waitFor(15*time.Second, func() bool {
		time.Sleep(180 * time.Millisecond) // with waitFor's 20 ms: a size is compared with one ~200 ms older
		entries, _ := os.ReadDir(dir)
		name = ""
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".crdownload") {
				return false
			}
			if strings.HasSuffix(e.Name(), ext) {
				info, err := e.Info()
				if was, seen := before[e.Name()]; err == nil && (!seen || !info.ModTime().Equal(was)) {
					name = e.Name()
				}
			}
		}
		if name == "" {
			return false
		}
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Size() == 0 {
			return false
		}
		done := info.Size() == lastSize
		lastSize = info.Size()
		return done
	}); err != nil {
		t.Fatalf("#%s saved no complete %s file: %v", id, ext, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	// Said, as a copy is: a screen reader heard nothing of a download
	// (an accessibility review).
	var toast string
	if err := waitFor(3*time.Second, func() bool {
		toast = toastText(t, ctx)
		return strings.HasPrefix(toast, "Downloaded retrylab-") && strings.HasSuffix(toast, ext)
	}); err != nil {
		t.Errorf("#%s saved %s, and the page said %q", id, name, toast)
	}
	return name, data
}

// TestExports: after a run the three export buttons save what was shown —
// every event as JSON and as CSV (one row each, the documented columns) and
// the timeline as a PNG — and a simulated run says so in every row.
func TestExports(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	// A browser an hour or two ahead of UTC: the files are named in UTC
	// all the same, as the JSON's start is (they were in the browser's
	// local time, saying nothing of it).
	if _, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Europe/Paris"}); err != nil {
		t.Fatal(err)
	}
	boot(t, ctx, srv.URL+"/?workers=6&jobs=2&rate=4&burst=2&latency=20ms&seed=5")
	if eval[bool](t, ctx, `!!document.getElementById("export-csv").disabled`) != true {
		t.Error("Events CSV is enabled before any run")
	}
	st := runToEnd(t, ctx, 30*time.Second)
	if st.Records == 0 {
		t.Fatal("the run recorded nothing")
	}

	dir := allowDownloads(t, ctx)
	name, data := download(t, ctx, dir, "export-json", ".json")
	var doc struct {
		Schema    string           `json:"schema"`
		Start     time.Time        `json:"start"`
		End       string           `json:"end"`
		Simulated bool             `json:"simulated"`
		Scenario  map[string]any   `json:"scenario"`
		Stats     map[string]any   `json:"stats"`
		Events    []map[string]any `json:"events"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	if want := "retrylab-" + doc.Start.UTC().Format("2006-01-02T15-04-05Z") + ".json"; name != want {
		t.Errorf("the JSON of a run started at %v is named %q, want %q", doc.Start, name, want)
	}
	if doc.Schema != "retrylab.recording/v2" || doc.End != "finished" || doc.Simulated || doc.Scenario["workers"] != "6" || doc.Scenario["seed"] != "5" {
		t.Errorf("%s: schema %q, end %q, simulated %v, scenario %v", name, doc.Schema, doc.End, doc.Simulated, doc.Scenario)
	}
	if len(doc.Events) != st.Records {
		t.Errorf("%s: %d events, the page recorded %d", name, len(doc.Events), st.Records)
	}
	if got, want := doc.Stats["requests"], st.Stats["requests"]; got != want {
		t.Errorf("%s: %v requests, the page counted %v", name, got, want)
	}
	checkHandoffs(t, name, doc.Events)
	// In time order, as the README says (TestExportedEventsAreInTimeOrder
	// checks a simulation's).
	for i := 1; i < len(doc.Events); i++ {
		if a, b := doc.Events[i-1]["t_ms"].(float64), doc.Events[i]["t_ms"].(float64); b < a {
			t.Errorf("%s: event %d at %v ms comes after one at %v ms", name, i, b, a)
			break
		}
	}
	// One origin: the timeline draws the first attempt where the export
	// puts it (the run starts after the arrivals stream's hello, not when
	// Run was pressed).
	first := -1.0
	for _, e := range doc.Events {
		if at, ok := e["t_ms"].(float64); ok && e["kind"] == "attempt" && (first < 0 || at < first) {
			first = at
		}
	}
	drawn := eval[float64](t, ctx, `JSON.parse(window.retrylab.debug()).first_sent_ms`)
	if first < 0 || math.Abs(drawn-first) > 1 {
		t.Errorf("the first attempt is drawn at %.2f ms and exported at %.2f ms since the run's start", drawn, first)
	}

	name, data = download(t, ctx, dir, "export-csv", ".csv")
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s is not CSV: %v", name, err)
	}
	if len(rows) != 1+st.Records {
		t.Fatalf("%s: %d rows, want a header and %d events", name, len(rows), st.Records)
	}
	header := rows[0]
	for _, col := range []string{"t_ms", "kind", "worker", "status", "class", "wait_ms", "reason", "simulated"} {
		if !slices.Contains(header, col) {
			t.Errorf("%s: no column %q in %v", name, col, header)
		}
	}
	kinds := map[string]int{}
	sim := slices.Index(header, "simulated")
	for _, r := range rows[1:] {
		kinds[r[1]]++
		if sim >= 0 && r[sim] != "false" {
			t.Fatalf("%s: a live run's row says simulated=%q", name, r[sim])
		}
	}
	if kinds["attempt"] != int(st.Stats["requests"]) || kinds["done"] != 12 {
		t.Errorf("%s: %v rows by kind; the page counted %v requests and 12 jobs", name, kinds, st.Stats["requests"])
	}

	name, data = download(t, ctx, dir, "export-png", ".png")
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
		t.Errorf("%s is %v: too small for the timeline", name, b)
	}

	// A simulation of the same configuration: its CSV says so.
	simulated := time.Now().UTC()
	click(t, ctx, "simulate")
	simulatedToEnd(t, ctx)
	for _, e := range mustReadDir(t, dir) {
		os.Remove(filepath.Join(dir, e.Name()))
	}
	name, data = download(t, ctx, dir, "export-csv", ".csv")
	// Named after when it was simulated: every simulation's files were
	// named after virtual time's origin, retrylab-2026-01-01T00-00-00.
	// In UTC, and saying so.
	if today := simulated.Format("2006-01-02"); !strings.HasSuffix(name, "Z-simulated.csv") ||
		!strings.HasPrefix(name, "retrylab-"+today) && !strings.HasPrefix(name, "retrylab-"+time.Now().UTC().Format("2006-01-02")) {
		t.Errorf("a simulation's CSV is named %q, want retrylab-%sT…Z-simulated.csv", name, today)
	}
	rows, err = csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) < 2 || rows[1][slices.Index(rows[0], "simulated")] != "true" {
		t.Errorf("%s: a simulation's rows do not say simulated=true (%v)", name, err)
	}
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// checkHandoffs: a live run's answered attempts say when fetch() started
// them (handoff_ms after the loop sent them, measured in the fetch worker
// and moved onto the page's clock), and that moment lies between the send
// and the server receiving the request. A worker clock left unshifted
// starts later than the page's, so its handoffs come out negative (and
// are left out) or, the other way, land after the server's receipt.
func checkHandoffs(t *testing.T, name string, events []map[string]any) {
	t.Helper()
	type id struct{ w, j, a float64 }
	sent := map[id]float64{}
	answered, withHandoff := 0, 0
	for _, e := range events {
		k := id{e["worker"].(float64), e["job"].(float64), e["attempt"].(float64)}
		switch e["kind"] {
		case "attempt":
			sent[k] = e["t_ms"].(float64)
		case "outcome":
			srv, ok := e["server_ms"].(float64)
			if !ok {
				continue
			}
			answered++
			h, ok := e["handoff_ms"].(float64)
			if !ok {
				continue
			}
			withHandoff++
			// 5 ms: the server's and the browser's clocks read the same
			// machine's time, each at its own moment.
			if start := sent[k] + h; h < 0 || start > srv+5 {
				t.Errorf("%s: %v sent at %.1f ms, fetch() started %.1f ms later, the server received it at %.1f ms", name, k, sent[k], h, srv)
			}
		}
	}
	if answered == 0 || withHandoff < answered/2 {
		t.Errorf("%s: %d of %d answered attempts say when fetch() started them", name, withHandoff, answered)
	}
}

// exportedMS is ms as the exports write a time: to the microsecond
// (fleet's ms), where the page's debug() gives it whole.
func exportedMS(ms float64) float64 { return math.Round(ms*1000) / 1000 }

// TestWatchPNGIsNamedAfterItsStart: a watch has no events to export, only
// its timeline, whose PNG is named after when the watch began, as a run's
// files after its start, and again so when exported again later. It was
// named after the moment of each export (a review: one watch's PNGs
// exported seconds apart had two names, neither its start).
func TestWatchPNGIsNamedAfterItsStart(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?room="+fmt.Sprintf("e2e-watch-png-%d", time.Now().UnixNano()))
	before := time.Now().UTC().Truncate(time.Second)
	press(t, ctx, "w")
	if err := waitFor(5*time.Second, func() bool { s := state(t, ctx); return s.Watching && s.WatchOpen }); err != nil {
		t.Fatalf("w did not start watching the room: %+v", state(t, ctx))
	}
	after := time.Now().UTC()
	time.Sleep(1500 * time.Millisecond)
	click(t, ctx, "stop")
	if err := waitFor(5*time.Second, func() bool { return !state(t, ctx).Running }); err != nil {
		t.Fatal("Stop did not end the watch")
	}
	time.Sleep(1100 * time.Millisecond) // past the watch's last second
	if eval[bool](t, ctx, `!document.getElementById("export-json").disabled`) {
		t.Error("Events JSON is enabled after a watch, which records no events")
	}
	dir := allowDownloads(t, ctx)
	var names []string
	for range 2 {
		name, _ := download(t, ctx, dir, "export-png", ".png")
		names = append(names, name)
		time.Sleep(1100 * time.Millisecond)
	}
	ok := false
	for at := before; !at.After(after); at = at.Add(time.Second) {
		ok = ok || names[0] == "retrylab-"+at.Format("2006-01-02T15-04-05Z")+"-watch.png"
	}
	if !ok || names[1] != names[0] {
		t.Errorf("a watch begun between %s and %s exported as %q, then as %q", before.Format(time.TimeOnly), after.Format(time.TimeOnly), names[0], names[1])
	}
}
