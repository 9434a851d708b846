package ui

import (
	"context"
	"net/url"
	"runtime"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
)

// The rehearsal. A page's first live run was its slowest: its first tries
// left the loop 100–150 ms late at the 99th percentile (50 workers; later
// runs 3–8 ms), because WebAssembly in Chromium compiles each function
// when it is first called and optimises the busy ones only after they
// have run a while. The run's code — the retry loop, the fetch workers'
// hand-off, the arrivals stream, the timeline's drawing, the numbers —
// ran for the first time in the very burst whose send times it measures.
// So, once the page has painted and been left alone for a moment, it
// rehearses: a small live run against its own mock endpoint, under a key
// of its own, drawn on a hidden canvas, its results dropped. Nothing of it
// is shown or counted; the server sees 20–35 requests under a
// "rehearsal-" key (never a room's, never a custom target). Any run, watch
// or simulation stops it (its fetches aborted), and a page already in use
// does not rehearse.
// window.retrylab.state().rehearsal tells how it went.

// Element ids of the rehearsal's hidden canvases, in the page until it
// is over.
const (
	rehearsalCanvasID  = "rehearsal"
	rehearsalOverlayID = "rehearsal-overlay"
)

// rehearsalQuery is the rehearsal's configuration, as a page's address
// would give it (on top of Default): the code paths of a run that meets
// its limit — first tries, 429s with Retry-After (clamped at the ceiling)
// and rate-limit headers, waits for the server and the bucket, successes —
// in a fraction of a second.
const rehearsalQuery = "workers=8&jobs=2&timeout=2s&seed=1" +
	"&strategy=full&base=10ms&mult=2&cap=40ms&attempts=5" +
	"&ra_honour=on&ra_ceiling=40ms&ra_above=clamp&ra_spread=10ms&hints=on" +
	"&bucket=on&bucket_rate=200&bucket_cap=4&budget=on" +
	"&limiter=bucket&rate=40&burst=6&status=429&retry_after=seconds&headers=both&latency=5ms"

// Bounds of a rehearsal: its delay after the page has painted, the
// longest it may take (a hidden tab's timers fire once a second), and its
// requests.
const (
	rehearsalDelay       = 300 * time.Millisecond
	rehearsalLimit       = 5 * time.Second
	rehearsalMaxRequests = 100
)

// rehearsalState is window.retrylab.state().rehearsal.
type rehearsalState struct {
	// State: "waiting" (for the page to be painted and quiet), "running",
	// "done", "stopped" (by a run, a watch or a simulation, or at
	// rehearsalLimit), or "skipped" (the page was in use already).
	State    string  `json:"state"`
	Key      string  `json:"key,omitempty"`
	Requests int     `json:"requests"`
	MS       float64 `json:"ms"` // from its start to its end
}

// rehearsalScenario is rehearsalQuery's configuration.
func rehearsalScenario() (fleet.Scenario, error) {
	q, err := url.ParseQuery(rehearsalQuery)
	if err != nil {
		return fleet.Scenario{}, err
	}
	s, errs := fleet.FromQuery(q)
	if len(errs) > 0 {
		return s, errs[0]
	}
	return s, nil
}

// rehearseSoon starts the rehearsal once the page has painted and
// rehearsalDelay has passed, unless the page is in use by then.
func (l *Lab) rehearseSoon(ctx app.Context) {
	if !app.IsClient || l.rehearsal.State != "waiting" {
		return
	}
	ctx.Async(func() {
		browser.Clock{}.AfterPaint(context.Background())
		_ = browser.Clock{}.Sleep(context.Background(), rehearsalDelay)
		ctx.Dispatch(func(ctx app.Context) { l.rehearse(ctx) })
	})
}

// rehearse runs the rehearsal; its end removes its canvases.
func (l *Lab) rehearse(ctx app.Context) {
	if l.rehearsal.State != "waiting" {
		return
	}
	s, err := rehearsalScenario()
	if err != nil || l.runs > 0 || l.running {
		l.endRehearsal("skipped", 0, 0)
		return
	}
	key := newKey("rehearsal-")
	rctx, cancel := context.WithTimeout(context.Background(), rehearsalLimit)
	l.stopRehearsal = cancel
	l.rehearsal = rehearsalState{State: "running", Key: key}
	l.publish()
	v := newViewOn(rehearsalCanvasID, rehearsalOverlayID)
	tr := newFetchTransport(l.pageURL(), l.subdomains, s, key, "")
	ready, stop, err := streamInto(l.pageOrigin(), key, false, v)
	if err != nil {
		ready, stop = nil, func() {}
	}
	ctx.Async(func() {
		t0 := time.Now()
		tr.settle(rctx)
		_, st, _ := runLive(rctx, s, tr, ready, v, &liveRecords{countOnly: true}, rehearsalMaxRequests, func() {})
		state := "done"
		if rctx.Err() != nil {
			state = "stopped"
		}
		cancel()
		stop()
		v.frames.Stop() // nothing to draw any more: the view and its drawing are let go
		took := time.Since(t0)
		if state == "done" {
			// Its garbage collected now, while the page is idle: left
			// to the next collection, it started one in the first run's
			// opening burst (20–45 ms of marking on the page's thread).
			runtime.GC()
		}
		ctx.Dispatch(func(app.Context) { l.endRehearsal(state, st.Requests, took) })
	})
}

// endRehearsal records how the rehearsal went and removes its canvases.
func (l *Lab) endRehearsal(state string, requests int, took time.Duration) {
	l.stopRehearsal = nil
	l.rehearsal.State, l.rehearsal.Requests, l.rehearsal.MS = state, requests, float64(took)/1e6
	l.runRev++
	l.publish()
}

// cancelRehearsal stops the rehearsal if it is going on: a run, a watch
// or a simulation is starting. Its end comes a moment later.
func (l *Lab) cancelRehearsal() {
	if l.stopRehearsal != nil {
		l.stopRehearsal()
	}
	if l.rehearsal.State == "waiting" {
		l.rehearsal.State = "skipped"
	}
}

// rehearsalCanvases are the rehearsal's hidden canvases while it may
// still draw on them.
func (l *Lab) rehearsalCanvases() app.UI {
	if l.rehearsal.State != "waiting" && l.rehearsal.State != "running" {
		return nil
	}
	return app.Div().Hidden(true).Aria("hidden", "true").Body(
		app.Canvas().ID(rehearsalCanvasID),
		app.Canvas().ID(rehearsalOverlayID),
	)
}
