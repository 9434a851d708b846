package ui

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/app/mock"
	"retrylab/core"
)

// Element ids of the timeline's canvases: the drawing, an overlay for the
// crosshair and the selection (redrawn alone when the pointer moves), and
// the sticky axis, its top axis row kept in view over a timeline taller
// than the screen (paintStickyAxis). The rehearsal (rehearsal.go) draws on
// its own hidden pair, with no sticky axis.
const (
	canvasID  = "timeline"
	overlayID = "timeline-overlay"
	axisID    = "timeline-axis"
)

// view is the live timeline: the model of the current run, fed from the
// workers' goroutines, and drawn on the canvas at most once per animation
// frame (never once per event). It is safe for concurrent use.
type view struct {
	mu        sync.Mutex
	m         *model
	pending   []fleet.Record // records not yet in the model
	srv       []mock.Event   // server stream messages not yet in the model
	srvLog    []string       // the run shown's server messages as they came (JSON), for a replay; none for a watch
	replay    *replay        // a replay of the finished run going on, or nil
	scen      fleet.Scenario
	invalid   int    // values to fix in the inputs before scen can run (configure)
	cannot    cannot // what scen, valid, cannot do (configure)
	computing bool   // a simulation of scen is being computed (forget, then load)
	drawing   bool   // computing, it is computed: its records are being taken in (computed, then load or undrawn)
	lim       limits
	running   bool
	theme     *theme
	paced     bool // the browser paces requests itself (browser.PacesRequests): the tooltip says so

	// streamFrom is when the arrivals stream was opened or last lost, by
	// the page's clock, with a monotonic reading (onMonotonic): its next
	// hello was sent after it (clockBound).
	streamFrom time.Time

	canvas     browser.Canvas // drawn on (canvasID, or the rehearsal's)
	overlay    browser.Canvas // its overlay (overlayID, or the rehearsal's)
	axisCv     browser.Canvas // its sticky axis (axisID; ID "": none)
	axisOps    browser.Ops
	axisFor    axisKey // what the sticky axis shows (drawStickyAxis)
	frames     *browser.FrameLoop
	lyr        layers        // a live run's drawing, kept aside between frames
	next       layers        // the drawing for the axis the run grows to, made aside (growAxis)
	axis       time.Duration // a live run's axis, held until next is made
	lay        layout        // of the last frame: hit tests use it
	laid       bool
	ops, ovl   browser.Ops
	width      float64
	viewH      float64 // the viewport's height under the sticky legend, for a theme that fits it (0: not known yet)
	dpr        float64 // the device pixel ratio the canvas is drawn at (0: not read yet)
	dirty      bool    // the drawing must be redone
	ovlDirty   bool    // the overlay must be redone
	ovlW, ovlH float64 // the overlay's size when last drawn: it must follow the layout's
	scheduled  bool    // a frame is requested or about to be
	ticking    bool    // a live run's next frame is asked for, news or not (frame)
	lastDraw   time.Time
	drawCost   time.Duration // the last full redraw
	drawErr    error

	// For window.retrylab.debug(), performance.now() in ms (0: not yet):
	// when the last simulation's result was in, and when the run shown was
	// first drawn complete (over, every record in).
	computedAt, drawnAt float64

	crossX     float64       // crosshair position, < 0 for none
	sel        int           // selected attempt (hover or keyboard), -1 for none
	selArr     int           // hovered arrival of another client (or of a watch), -1 for none
	selArrLane bool          // selArr was pointed at in a watch's device lane, not the server panel
	spanAt     time.Duration // sel was pointed at on its lane's bars, not its mark, there (hitSpan); -1: at its mark
	binAt      time.Duration // the time hovered over the histogram, when no attempt or arrival is: its bin is hovered (hovBin); -1 for none
	pinned     bool          // the selection came from a click or the keyboard
	details    bool          // Enter asked for the selected attempt's details said in full (tip.Said), until the selection moves
	hidden     bool          // the page is hidden now
	offscreen  bool          // the timeline is scrolled out of sight: frames wait until it shows
	missed     bool          // a frame was asked for while offscreen
	draws      int           // full redraws so far (window.retrylab.debug's draws)
	// Of the run going on or last run, for debug(): how often its kept
	// drawing was made again at a frame for another axis, and how often it
	// was painted whole.
	liveAnew, liveWhole int

	// A finished run's window when zoomed in: [zoomFrom, zoomFrom+zoomSpan]
	// (zoomSpan 0: the whole run).
	zoomFrom, zoomSpan time.Duration

	base     *baselineDraw // the run kept for comparison: an outline on the histogram
	baseFrom uint64        // the id of the model base was kept from (not drawn against itself), 0: none. Not the model: it held a 300,000-attempt run's model for as long as the baseline stayed

	// The histogram bin of the finished run shown whole that the summary
	// counts in (wholeBin; 0: none given since it moved), whether a frame
	// found another (noteBin), and what is then called to make the
	// summary again (setOnBin).
	binSaid  time.Duration
	binMoved bool
	onBin    func()
	// The shown model's faultRev when the summary was last made
	// (wholeBin): a frame that takes in another fault calls onBin too.
	faultsSaid int
}

func newView() *view {
	v := newViewOn(canvasID, overlayID)
	v.axisCv.ID = axisID
	return v
}

// newViewOn is a view drawn on the canvases of those element ids, with no
// sticky axis.
func newViewOn(canvas, overlay string) *view {
	c := browser.Canvas{ID: canvas}
	v := &view{theme: &normalTheme, crossX: -1, sel: -1, selArr: -1, spanAt: -1, binAt: -1, width: 1000,
		canvas: c, overlay: browser.Canvas{ID: overlay}, lyr: layers{canvas: c}, next: layers{slot: "next", canvas: c}}
	frames, err := browser.NewFrameLoop(v.frame)
	if err != nil {
		v.drawErr = err
	}
	v.frames = frames
	return v
}

// start resets the view for a new run of s starting at start.
func (v *view) start(s fleet.Scenario, start time.Time, device string) {
	v.mu.Lock()
	v.m = newModel(start, s.Workers)
	v.m.room = s.Room != "" && s.Target == ""
	v.m.self = device
	v.m.ownServer = s.Target != ""
	v.pending = v.pending[:0]
	v.srv = v.srv[:0]
	v.srvLog, v.replay = nil, nil
	v.scen, v.lim = s, limitsOf(&s)
	v.running, v.computing = true, false
	v.drawnAt = 0
	v.unselect()
	v.zoomFrom, v.zoomSpan = 0, 0
	v.axis, v.next.ok, v.liveAnew, v.liveWhole = 0, false, 0, 0
	v.binSaid = 0 // the last run's: its summary is not shown again
	if v.hidden {
		v.m.setHidden(true, 0)
	}
	v.dirty, v.ovlDirty = true, true
	v.mu.Unlock()
	v.request()
}

// restart is start for a live run's course (runLive), from the moment it
// really starts, after its stream's hello: the model Run made at the
// click, empty, gives way to one from that moment, and keeps what the
// run's own stream told meanwhile: the clocks' bounds from its hello
// (a laptop whose clock is off the server's drew its first arrivals off
// until the first answer came), and a loss (the server panel drew no
// sign of a stream that was gone before the run began). The last run's
// stream has told a model nothing by then: Run closed it first.
func (v *view) restart(s fleet.Scenario, start time.Time, device string) {
	v.mu.Lock()
	old := v.m
	v.mu.Unlock()
	v.start(s, start, device)
	if old == nil || old.simulated || old.watch {
		return
	}
	v.mu.Lock()
	m := v.m
	if old.clockN > 0 {
		m.clockLo, m.clockHi, m.clockN = old.clockLo, old.clockHi, old.clockN
		m.reclock()
	}
	if lost, _ := old.lostFor(0); lost {
		m.setLost(true, 0)
	}
	v.mu.Unlock()
}

// hasModel reports whether a run is drawn (or being drawn).
func (v *view) hasModel() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m != nil
}

// forget drops the run shown (its model, records and server messages not
// yet in it, and a replay's), before a simulation of s makes another, and
// shows s's empty timeline meanwhile, saying that it is being computed
// (load shows the result).
func (v *view) forget(s fleet.Scenario) {
	v.mu.Lock()
	v.m = nil
	v.pending, v.srv, v.srvLog, v.replay = nil, nil, nil, nil
	v.scen, v.lim, v.invalid, v.cannot = s, limitsOf(&s), 0, cannotOf(&s)
	v.running, v.computing, v.drawing = false, true, false
	v.unselect()
	v.zoomFrom, v.zoomSpan = 0, 0
	v.dirty, v.ovlDirty = true, true
	v.mu.Unlock()
	v.request()
}

// startWatch resets the view for a watch of s's shared room from start:
// the room's arrivals only, in a lane per device as they come.
func (v *view) startWatch(s fleet.Scenario, start time.Time) {
	v.start(s, start, "")
	v.mu.Lock()
	v.m = newModel(start, 0)
	v.m.room, v.m.watch = true, true
	v.lim.client = 0 // no fleet of ours: its bucket is not the room's
	if v.hidden {
		v.m.setHidden(true, 0)
	}
	v.mu.Unlock()
	v.request()
}

// watchStats counts the arrivals of the watch taken in so far.
func (v *view) watchStats() watchStats {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || !v.m.watch {
		return watchStats{}
	}
	if len(v.pending) > 0 || len(v.srv) > 0 { // what came in since the last frame counts too
		v.ingest()
		v.dirty = true
	}
	st := v.m.wcount
	st.Lost, st.LostFor = v.m.lostFor(v.m.since(time.Now()))
	return st
}

// sentAgain is how many times the run drawn had its attempts sent again
// by the browser after the server left them unanswered (model.sentAgain),
// as taken in so far.
func (v *view) sentAgain() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		return 0
	}
	return v.m.sentAgain
}

// textBands is where the timeline's canvas has text that a message at the
// foot of the screen leaves clear (browser.ClearSpot, which sees only the
// page's own text): the time axes, the panels' title rows and the column
// of the lane labels and the histogram's unit, and an empty timeline's
// hint ("Press Run (r)…"), as "x0,y0,x1,y1;…" in CSS
// px from the canvas's top left; "" before the first frame. A Burst's
// message lay over the histogram's title, a watch's over its time axis
// (a review).
func (v *view) textBands() string {
	v.mu.Lock()
	l := v.lay
	v.mu.Unlock()
	if l.h == 0 {
		return ""
	}
	title := 28 * l.scale
	bands := [...][4]float64{
		{0, 0, l.w, l.lanesTop},
		{0, l.histTop - title, l.w, l.histTop},
		{0, l.srvTop - title, l.w, l.srvTop},
		{0, l.bottom, l.w, l.h},
		{0, l.lanesTop, l.left, l.bottom},
		{l.hint.x, l.hint.y, l.hint.x + l.hint.w, l.hint.y + l.hint.h},
	}
	b := make([]byte, 0, 160)
	for _, r := range bands {
		if r[2] <= r[0] { // no hint drawn
			continue
		}
		if len(b) > 0 {
			b = append(b, ';')
		}
		for j, x := range r {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, x, 'f', 1, 64)
		}
	}
	return string(b)
}

// configure shows an empty timeline for s, unless a run is drawn: with
// invalid values to fix first in the inputs, it says so (frameInput).
func (v *view) configure(s fleet.Scenario, invalid int) {
	v.mu.Lock()
	idle := v.m == nil
	if idle {
		v.scen, v.lim, v.invalid, v.cannot = s, limitsOf(&s), invalid, cannotOf(&s)
		v.dirty = true
	}
	v.mu.Unlock()
	if idle {
		v.request()
	}
}

// onRecord queues one record for the next frame. It is called from the
// workers' goroutines and returns at once.
func (v *view) onRecord(r fleet.Record) {
	v.mu.Lock()
	v.pending = append(v.pending, r)
	v.dirty = true
	v.mu.Unlock()
	v.request()
}

// opening notes that an arrivals stream is opened at t (the page's
// clock): its hello bounds the server's clock.
func (v *view) opening(t time.Time) {
	v.mu.Lock()
	v.streamFrom = t
	v.mu.Unlock()
}

// clockBound takes in that the server's clock read at between the page's
// from and to, for the live run or watch shown (model.bound). A new run's
// model takes none from the last one's stream: it opens its own, and the
// page's clock may have been set since. A watch has only these bounds, as
// it sends nothing of its own to be answered. v.mu is held.
//
// The bounds are on the model's time base, as its answers' are: the page's
// times by their monotonic readings since its start, the server's by the
// wall clock (model.since). Taken wall clock against wall clock, a
// projector whose clock was set back 2 s during a watch (joining the
// venue's network) and whose stream then reconnected bounded the
// difference 2 s off the bounds before, and moved the room's arrivals 2 s.
func (v *view) clockBound(at, from, to time.Time) {
	if m := v.m; m != nil && !m.simulated && !m.ownServer {
		srv := m.since(at)
		m.bound(srv-m.since(to), srv-m.since(from))
	}
}

// onMonotonic is wall, a time by the page's wall clock without a
// monotonic reading (the browser's, from JavaScript), as a time.Now() with
// one: now, less how long before now wall was by the wall clock. It holds
// across a clock set between the two when wall was written as the wall
// clock read just before now (browser.Stream's "lost" is).
func onMonotonic(wall time.Time) time.Time {
	now := time.Now()
	return now.Add(wall.Sub(now.Round(0)))
}

// probeClock asks the mock at origin for its time n times, on a key of its
// own (the room's arrivals do not count them): each answer bounds the
// server's clock less the page's by its round trip (clockBound). The
// stream's hello bounds it only loosely: a stream opened in a busy task
// (Watch's) was sent 400 ms after it was asked for.
func (v *view) probeClock(ctx context.Context, origin string, n int) {
	u := origin + "/mock?key=" + newKey("clock-")
	for range n {
		t0 := time.Now()
		r, err := browser.FetchOpen(ctx, u)
		t1 := time.Now()
		if err != nil || ctx.Err() != nil { // a watch ended meanwhile: the next run's model is not its
			return
		}
		if _, at, ok := fleet.MockFacts([]byte(r.Body)); ok {
			v.mu.Lock()
			v.clockBound(at, t0, t1)
			v.mu.Unlock()
			v.request()
		}
	}
}

// onServerEvent queues one message of the mock's arrivals stream (its JSON
// data) for the next frame and returns its type if it tells of the
// connection ("hello", "lost", "refused"), else "". It is called from a
// JS callback and returns at once.
func (v *view) onServerEvent(data string) (conn string) {
	var e mock.Event
	if mock.DecodeEvent(data, &e) != nil {
		return ""
	}
	if e.Type == "hello" || e.Type == "lost" || e.Type == "refused" {
		// The connection: lost (the browser reconnects, or the page asks
		// again), refused for good, or (re)opened.
		now := time.Now()
		v.mu.Lock()
		switch {
		case e.Type == "lost" && !e.At.IsZero():
			v.streamFrom = onMonotonic(e.At) // the browser's, when it lost the stream
		case e.Type == "hello" && !e.At.IsZero() && !v.streamFrom.IsZero():
			// The server said hello between the stream's (re)opening
			// and now.
			v.clockBound(e.At, v.streamFrom, now)
		}
		if v.m != nil {
			v.m.setLost(e.Type != "hello", v.m.since(time.Now()))
			if e.Type == "refused" {
				v.m.wcount.Refused = e.Status
			}
			v.dirty = true
		}
		v.mu.Unlock()
		v.request()
		return e.Type
	}
	v.mu.Lock()
	v.srv = append(v.srv, e)
	if full := v.shownModel(); full == nil || !full.watch {
		// Kept as it came: a watch, which is never replayed, may hold
		// hundreds of thousands, and a decoded message keeps its JSON
		// alive anyway (its strings point into it).
		v.srvLog = append(v.srvLog, data)
		if v.replay != nil {
			v.replay.srv = v.srvLog // a late message of the run replayed
		}
	}
	v.dirty = true
	v.mu.Unlock()
	v.request()
	return ""
}

// loadSlice is the most time load keeps the page's thread before it lets
// the event loop run (input, painting, timers): well under the 50 ms of a
// long task, with room for the garbage collector's share.
const loadSlice = 20 * time.Millisecond

// slicer yields the page's thread to the event loop once loadSlice has
// passed since it last did.
type slicer struct{ t0 time.Time }

func (s *slicer) yield() {
	browser.Clock{}.Yield(context.Background())
	s.t0 = time.Now()
}

// maybe yields when the slice is used up.
func (s *slicer) maybe() {
	if time.Since(s.t0) > loadSlice {
		s.yield()
	}
}

// loadUnless draws a finished recording (a simulation's) for s, through
// the same model as a live run, and returns its numbers and true. recs are
// taken in by slices of at most loadSlice, yielding to the event loop
// between them (a simulation of 10,000 workers has ~900,000 records); the
// model is built aside and shown when complete, so frames meanwhile draw
// what was there. Once stop (if not nil) says so, asked after each slice,
// it gives up and reports false, the view as it was (undrawn ends its
// computing). It must not run on go-app's UI goroutine.
func (v *view) loadUnless(s fleet.Scenario, rec *fleet.Recording, recs []fleet.Record, stop func() bool) (fleet.Stats, float64, bool) {
	stopped := func() bool { return stop != nil && stop() }
	var sl slicer
	sl.yield()
	m := newModelFor(rec.Start, s.Workers, recs)
	m.room = s.Room != ""
	m.simulated = rec.Simulated
	// The simulated server tells of its scheduled outage (the recording's
	// fault) as the mock's stream tells of one: the same message, through
	// the same path (a replay takes it in when the playhead reaches it).
	var srvLog []string
	for _, f := range rec.Faults() {
		e := mock.Event{Type: f.Kind, At: f.From, Until: f.Until, Scale: f.Scale, N: f.N, Admitted: f.Admitted}
		m.serverEvent(&e)
		if b, err := e.JSON(); err == nil {
			srvLog = append(srvLog, b)
		}
	}
	sl.maybe()
	acc := fleet.NewStatsAcc(rec.Start, len(recs))
	for i := range recs {
		m.add(&recs[i])
		acc.Add(&recs[i])
		if i&255 == 255 {
			sl.maybe()
			if stopped() {
				return fleet.Stats{}, 0, false
			}
		}
	}
	end, ok := rec.End()
	if !ok {
		end = rec.Start
	}
	m.finish(m.since(end))
	sl.yield()
	st := acc.Stats()
	rec.Final(&st)
	sl.yield()
	disp := acc.Dispersion(fleet.DispersionSlice)
	sl.yield()
	if stopped() {
		return fleet.Stats{}, 0, false
	}
	rec.KeepNumbers(st, disp) // for the JSON export's head

	v.mu.Lock()
	v.m = m
	v.pending = v.pending[:0]
	v.srv = v.srv[:0]
	v.srvLog, v.replay = srvLog, nil
	v.scen, v.lim = s, limitsOf(&s)
	v.running, v.computing = false, false
	v.drawnAt = 0
	v.unselect()
	v.zoomFrom, v.zoomSpan = 0, 0
	v.dirty, v.ovlDirty = true, true
	v.mu.Unlock()
	v.request()
	return st, disp, true
}

// undrawn ends the computing of a simulation that is not drawn after all
// (Stop as load took it in: Lab.Simulate): the timeline is empty again.
func (v *view) undrawn() {
	v.mu.Lock()
	v.computing = false
	v.dirty, v.ovlDirty = true, true
	v.mu.Unlock()
	v.request()
}

// finish marks the run over at end.
func (v *view) finish(end time.Time) {
	v.mu.Lock()
	if v.m != nil {
		v.ingest()
		v.m.finish(v.m.since(end))
	}
	v.running = false
	v.dirty = true
	v.mu.Unlock()
	v.request()
}

// setHidden notes that the page became hidden or visible: the stretch is
// marked on the timeline (timers are throttled to ≥ 1 s meanwhile).
func (v *view) setHidden(hidden bool) {
	v.mu.Lock()
	v.hidden = hidden
	if v.m != nil && v.running {
		v.m.setHidden(hidden, time.Since(v.m.start))
		v.dirty = true
	}
	v.mu.Unlock()
	v.request()
}

// setPaced says whether the browser paces requests itself
// (browser.PacesRequests): a held request's tooltip then says so.
func (v *view) setPaced(paced bool) {
	v.mu.Lock()
	v.paced = paced
	v.mu.Unlock()
}

// setTheme switches the canvas's look: presentation mode's, or the
// normal one, light or dark as the system prefers (pickTheme).
func (v *view) setTheme(present, dark bool) {
	v.mu.Lock()
	th := pickTheme(present, dark)
	if th == v.theme {
		v.mu.Unlock()
		return
	}
	v.theme = th
	v.viewH = 0
	v.dirty, v.ovlDirty = true, true
	v.mu.Unlock()
	v.request()
}

// setOnScreen says whether any of the timeline shows in the viewport. Out
// of sight it is not redrawn while a run or a replay goes on: records wait
// in pending, and a replay's playhead moves on by the clock; the frame
// missed runs when it shows again. A live run scrolled away leaves the
// thread to the workers. Anything else is drawn out of sight too (a run's
// end, once): the canvas is then ready before it is scrolled to, printed
// or captured whole.
func (v *view) setOnScreen(on bool) {
	v.mu.Lock()
	v.offscreen = !on
	catchUp := on && v.missed
	v.missed = false
	v.mu.Unlock()
	if catchUp {
		v.request()
	}
}

// resized redraws everything for a window of another size.
func (v *view) resized() {
	v.mu.Lock()
	v.viewH = 0 // read at the next frame
	v.mu.Unlock()
	v.invalidate()
}

// fitMargin is the room a timeline fitted to the viewport (under the
// legend, which sticks to its top) leaves free, CSS px: it shows whole,
// with a little of the page around it.
const fitMargin = 8

// invalidate redraws everything (the canvas was resized or re-created).
func (v *view) invalidate() {
	v.mu.Lock()
	v.dirty, v.ovlDirty = true, true
	v.axisFor = axisKey{}
	v.mu.Unlock()
	v.request()
}

// ingest moves pending records into the model: the run's, also during a
// replay of it (the stream's last messages come after the run ends). v.mu
// must be held.
func (v *view) ingest() {
	m := v.shownModel()
	if m == nil {
		v.pending = v.pending[:0]
		v.srv = v.srv[:0]
		return
	}
	for i := range v.pending {
		m.add(&v.pending[i])
	}
	clear(v.pending) // drop references to headers and errors
	v.pending = v.pending[:0]
	for i := range v.srv {
		m.serverEvent(&v.srv[i])
	}
	v.srv = v.srv[:0]
}

// shownModel is the run shown: the model, or during a replay the finished
// model the replay rebuilds. v.mu must be held.
func (v *view) shownModel() *model {
	if v.replay != nil {
		return v.replay.full
	}
	return v.m
}

// minGap is the least time between two redraws while a run goes on: 30
// frames a second at most, long enough that drawing takes at most a quarter
// of the time, and longer as marks pile up (the browser rasterises every
// one of them after our calls return: about 20 µs per mark on a software
// canvas), so the workers' timers and fetches keep the thread.
//
// A watch is painted whole at every frame (its window slides: no drawing
// is kept between frames), so each arrival in it costs its rasterising
// every time: 30 devices at 10 requests a second, 28,000 arrivals, took
// ~200 ms a frame, every 250 ms (long tasks of 180–210 ms, frames at p95
// 150 ms; a soak review). Its gap allows 30 µs an arrival drawn as a
// shape, up to a second; drawn as pictures (model.drawsPictures), whose
// cost drawCost has, none (30 devices at 10 requests a second: 8.5
// frames a second, against 3.1, and one long task in 10 s, against 31;
// BenchmarkResponsiveWatch).
func (v *view) minGap() time.Duration {
	marks, per, most := 0, 10*time.Microsecond, maxFrameGap
	if v.m != nil {
		marks = len(v.m.marks) + len(v.m.spans) + len(v.m.arrivals)
		if v.m.watch {
			// The arrivals in view drawn as shapes: none drawn as a
			// picture, whose cost is in drawCost, nor out of view (a
			// room gone quiet after 33,000 arrivals kept frames 1 s
			// apart; a review).
			marks = v.m.inView
			if v.m.pictured {
				marks = 0
			}
			per, most = 30*time.Microsecond, maxWatchGap
		}
	}
	return min(most, max(33*time.Millisecond, 4*v.drawCost, time.Duration(marks)*per))
}

// maxFrameGap is the longest minGap, maxWatchGap a watch's.
const (
	maxFrameGap = 250 * time.Millisecond
	maxWatchGap = time.Second
)

// request asks for a frame, at most one at a time and, while running, no
// sooner than minGap after the last redraw.
func (v *view) request() {
	v.mu.Lock()
	if v.offscreen && (v.running || v.replay != nil) {
		v.missed = true
		v.mu.Unlock()
		return
	}
	if v.scheduled || v.frames == nil {
		v.mu.Unlock()
		return
	}
	v.scheduled = true
	wait := time.Duration(0)
	if v.running || v.replay != nil {
		wait = v.minGap() - time.Since(v.lastDraw)
	}
	v.mu.Unlock()
	if wait <= 0 {
		v.frames.Request()
		return
	}
	go func() {
		_ = browser.Clock{}.Sleep(context.Background(), wait)
		v.frames.Request()
	}()
}

// runEnd is where the run shown ends, since its start: its last record
// (the drain, for a finished run), or the baseline's when that is longer:
// the two runs are compared on one time axis. The axis of a finished run
// goes 2% past it (span). v.m must be set.
func (v *view) runEnd() time.Duration {
	end := v.m.last
	if b := v.shownBaseline(); b != nil {
		end = max(end, b.span)
	}
	return end
}

// span is the time the axis shows: the whole run once it is over; while
// running, a little ahead of now so the axis does not rescale every frame.
func (v *view) span(now time.Duration) time.Duration {
	if v.m == nil {
		return 10 * time.Second
	}
	if v.replay != nil {
		return v.replay.span // the finished run's: the axis holds still
	}
	if !v.running {
		return wholeSpan(v.runEnd())
	}
	if now < v.axis {
		return v.axis // held while the drawing for the next is made (growAxis)
	}
	return v.axisAt(now)
}

// wholeSpan is the axis of a finished run whose drawing ends at last: 2%
// past it, and at least a second.
func wholeSpan(last time.Duration) time.Duration { return max(time.Second, last+last/50) }

// axisAt is the axis of a live run at now: a step ahead of it.
func (v *view) axisAt(now time.Duration) time.Duration {
	var base time.Duration
	if b := v.shownBaseline(); b != nil {
		base = b.span
	}
	ahead := max(10*time.Second, now, base)
	step := niceStep(ahead, 8, tickSteps)
	return (ahead/step + 1) * step
}

// growBudget is how many items of each list growAxis adds to the drawing
// made aside at a frame: ~30 ms of the page's thread.
const growBudget = 1000

// growAxis makes, a slice at each frame, the drawing of a live run for the
// axis it will grow to once now reaches the end of the one shown, and
// shows that axis once the drawing is complete (or now is there). Drawn
// at once when now reached the axis's end, every attempt of the run was
// drawn again in one frame: with 500 workers and tens of thousands of
// events, the page froze 250–560 ms at every step of the axis. now is the
// run's time; v.lay is the last frame's. v.mu must be held.
func (v *view) growAxis(now time.Duration) {
	cur := v.lay.span
	if !v.running || v.replay != nil || v.m == nil || v.m.watch || !v.lyr.ok || v.lyr.key.m != v.m.id ||
		now+cur/8 < cur {
		return
	}
	next := v.axisAt(cur)
	v.axis = next
	l, in := v.frameFor(nil)
	if l.dense() {
		v.axis = cur
		return
	}
	// Enough at each frame to be done before now reaches cur, frames
	// coming up to maxFrameGap apart, with room for what comes meanwhile.
	n := max(len(v.m.spans), len(v.m.marks), len(v.m.arrivals), len(v.m.ends))
	frames := max(1, int((cur-now)/maxFrameGap)-1)
	done, err := v.next.build(&l, v.m, in, max(growBudget, 2*n/frames))
	if err != nil || !done {
		v.axis = cur
		return
	}
	v.lyr, v.next = v.next, v.lyr
}

// frame runs at an animation frame: it takes in new records and redraws
// what changed.
func (v *view) frame() {
	v.mu.Lock()
	v.drawFrame()
	again := v.replay != nil
	// A live run moves on with no news too: its "now" line, and the bars
	// of the requests in flight, grow. (With every request in flight for
	// seconds, and so no record coming, the timeline stood still.) The
	// next frame is asked for minGap on, as records ask.
	tick := v.running && !again && !v.ticking
	v.ticking = v.ticking || tick
	gap := v.minGap()
	moved, onBin := v.binMoved, v.onBin
	v.binMoved = false
	v.mu.Unlock()
	if moved && onBin != nil {
		onBin()
	}
	if again {
		v.request() // a replay moves on at every frame
	}
	if tick {
		go func() {
			_ = browser.Clock{}.Sleep(context.Background(), gap)
			v.mu.Lock()
			v.ticking = false
			v.mu.Unlock()
			v.request()
		}()
	}
}

// setOnBin sets what a frame calls when the histogram of the finished run
// shown takes other bins than the summary counts in (noteBin).
func (v *view) setOnBin(f func()) {
	v.mu.Lock()
	v.onBin = f
	v.mu.Unlock()
}

// drawFrame is frame's work. v.mu must be held.
func (v *view) drawFrame() {
	v.scheduled = false
	if width, err := v.canvas.Width(); err == nil && width > 0 && width != v.width {
		v.width, v.viewH = width, 0
		v.dirty, v.ovlDirty = true, true
	}
	if r := browser.PixelRatio(); r != v.dpr { // a zoom, or the window on another screen
		v.dpr = r
		v.dirty, v.ovlDirty = true, true
	}
	// The height the timeline fits (presentation mode): read again after
	// a resize or a new width (the page's layout changed, and perhaps the
	// legend's height). The zoom and replay row under it shows too: at
	// 1280 × 720 it lay just below the screen after t, and a replay's
	// "Replaying 2.7 s of 14.9 s" with it (a review).
	if v.theme.fit && v.viewH == 0 {
		if h, err := browser.ViewportHeightBelow(legendID, canvasID, "zoombar"); err == nil && h > 0 {
			v.viewH = h
			v.dirty, v.ovlDirty = true, true
		}
	}
	v.noteBin()
	if len(v.pending) > 0 || len(v.srv) > 0 {
		v.ingest()
		v.dirty = true
	}
	if v.running {
		v.dirty = true // the "now" line and open bars move
	}
	if v.replay != nil {
		v.advanceReplay(time.Now())
	}
	if v.dirty {
		v.redraw()
	}
	// The overlay (crosshair, selection) lies over the timeline at its
	// size: redone when asked, and whenever the timeline changed size.
	// (redraw clears v.dirty, so a timeline that shrank, from 50 lanes to
	// 7, say, left the overlay canvas at its old height until the pointer
	// next moved: 212 px of page below the content, which vanished at the
	// next press and scrolled the page under the pointer, so the click
	// that followed landed on the timeline and was lost.)
	if v.ovlDirty || v.lay.w != v.ovlW || v.lay.h != v.ovlH {
		v.ovlDirty = false
		paintOverlay(&v.ovl, &v.lay, v.m, v.theme, v.crossX, v.sel, v.selArr, v.hovBin())
		if err := v.overlay.Draw(&v.ovl, v.lay.w, v.lay.h); err != nil {
			v.drawErr = err
		} else {
			v.ovlW, v.ovlH = v.lay.w, v.lay.h
		}
	}
}

// redraw lays out and paints the whole timeline. v.mu must be held.
func (v *view) redraw() {
	t0 := time.Now()
	if v.laid && v.m != nil {
		v.growAxis(time.Since(v.m.start))
	}
	var in frameInput
	v.lay, in = v.frameFor(nil)
	v.laid = true
	// A replay is drawn as a live run is, on the kept drawing: painted
	// whole at every frame, a 500-worker simulation's replay (39,000
	// records) ran at 5–7 frames a second, with long tasks of up to
	// 390 ms, the browser rasterising every mark again each time.
	if (v.running || v.replay != nil) && v.m != nil && !v.m.watch && !v.lay.dense() {
		if v.running {
			v.axis = v.lay.span
		}
		kept, keptSpan := v.lyr.ok, v.lyr.key.span
		if err := v.lyr.draw(&v.lay, v.m, in); err != nil {
			v.drawErr = err
		}
		if v.lyr.anew && kept && v.lyr.key.span != keptSpan {
			v.liveAnew++
		}
	} else {
		if v.running || v.replay != nil {
			v.liveWhole++
		}
		v.lyr.ok = false
		paint(&v.ops, &v.lay, v.m, in)
		if err := v.canvas.Draw(&v.ops, v.lay.w, v.lay.h); err != nil {
			v.drawErr = err
		}
	}
	v.drawStickyAxis()
	v.dirty = false
	v.draws++
	v.lastDraw = time.Now()
	v.drawCost = v.lastDraw.Sub(t0)
	if v.m != nil && !v.running && v.drawnAt == 0 {
		v.drawnAt = browser.Now()
	}
}

// axisKey is what the sticky axis's drawing depends on.
type axisKey struct {
	w          float64
	from, span time.Duration
	th         *theme
	title      string
}

// drawStickyAxis draws the sticky axis for the frame laid out (v.lay)
// when that has another time axis, width, look or lanes' title than it
// shows: a live run's frames redraw the canvas, seldom its axis. v.mu must
// be held.
func (v *view) drawStickyAxis() {
	k := axisKey{w: v.lay.w, from: v.lay.from, span: v.lay.span, th: v.theme, title: v.lay.lanesTitle()}
	if v.axisCv.ID == "" || k == v.axisFor {
		return
	}
	paintStickyAxis(&v.axisOps, &v.lay, v.theme)
	if err := v.axisCv.Draw(&v.axisOps, v.lay.w, v.lay.stickyAxisH()); err != nil {
		v.drawErr = err
		return
	}
	v.axisFor = k
}

// frameFor lays out the frame to draw now (head: with that text above it,
// for a PNG; nil: none) and says what goes in it. v.mu must be held.
func (v *view) frameFor(head *pngHead) (layout, frameInput) {
	now := time.Duration(0)
	workers := v.scen.Workers
	if v.m != nil {
		now = time.Since(v.m.start)
		workers = v.m.workers
	}
	in := frameInput{th: v.theme, running: v.running, now: now, lim: v.lim, base: v.shownBaseline(), invalid: v.invalid, cannot: v.cannot, computing: v.computing, drawing: v.computing && v.drawing}
	if v.m != nil && v.m.watch {
		scales := make([]float64, len(v.m.limits))
		for i, q := range v.m.limits {
			scales[i] = q.scale
		}
		in.lim.serverLabel = watchLimitLabel(v.lim, v.m.quotas, scales)
	}
	if v.replay != nil {
		in.running, in.now = true, v.replay.at // drawn as a run going on, at the playhead
	}
	var names []string
	if v.m != nil && v.m.watch { // a lane per device in the room
		workers, names = len(v.m.devices), v.m.devices
	}
	from, span := v.window(now)
	rows := 1
	if v.m != nil && !v.m.watch {
		rows = laneRows(workers, v.m.rows)
	}
	l := newLayoutRows(v.width, workers, rows, span, v.theme)
	l.setPixelRatio(v.dpr)
	l.from, l.names = from, names
	if head != nil {
		l.setHead(*head, pngLegend(v.m, &in))
	} else if v.theme.fit {
		l.fitHeight(v.viewH - fitMargin)
	}
	return l, in
}

// computed notes that a simulation's result is in (for debug()), and that
// the empty timeline now waits for it to be drawn, not computed: it said
// "drawn when it is done, or when Stop (s) ends it" as the run bar said
// that Stop leaves it undrawn.
func (v *view) computed() {
	v.mu.Lock()
	v.computedAt = browser.Now()
	v.drawing, v.dirty = true, true
	v.mu.Unlock()
	v.request()
}

// Redraw draws everything now, synchronously, and returns how long it took
// and how many attempts were drawn (the benchmark's figure).
func (v *view) Redraw() (time.Duration, int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ingest()
	v.redraw()
	n := 0
	if v.m != nil {
		n = len(v.m.marks)
	}
	return v.drawCost, n
}

// escapable reports whether Escape has something of the timeline's to
// clear (key): a selected attempt, or a watch's arrival. A run's hovered
// arrival, or a bin, is no selection: Escape goes on to Stop (the canvas
// claimed it whenever a tooltip showed, and a bin hovered made Escape
// stop nothing: a review).
func (v *view) escapable() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sel >= 0 || v.m != nil && v.m.watch && v.selArr >= 0
}

// unselect clears the selection: nothing pinned, hovered or walked to.
// The caller holds v.mu.
func (v *view) unselect() {
	v.sel, v.pinned, v.selArr, v.spanAt, v.binAt = -1, false, -1, -1, -1
}

// hovBin is the histogram's bin hovered, in the bins drawn now, or -1.
// The caller holds v.mu.
func (v *view) hovBin() int {
	if v.binAt < 0 || v.lay.slice <= 0 {
		return -1
	}
	return int(v.binAt / v.lay.slice)
}

// pointer moves the crosshair to (x, y) (CSS pixels in the canvas; x < 0
// when the pointer left) and, unless a selection is pinned, selects the
// attempt under it. It reports whether the selection changed.
func (v *view) pointer(x, y float64) bool {
	v.mu.Lock()
	v.crossX = x
	changed := false
	if !v.pinned {
		sel, arr, at, binAt := -1, -1, time.Duration(-1), time.Duration(-1)
		if x >= 0 && v.laid {
			sel, at = v.hitAttempt(x, y)
			if sel < 0 {
				arr = hitArrival(&v.lay, v.m, x, y)
				v.selArrLane = y < v.lay.histTop
			}
			if sel < 0 && arr < 0 {
				binAt = hitBin(&v.lay, v.m, x, y)
			}
		}
		before := v.hovBin()
		v.binAt = binAt
		changed = sel != v.sel || arr != v.selArr || v.hovBin() != before
		if sel != v.sel { // the tooltip stays where the pointer met the attempt's bars
			v.spanAt = at
		}
		v.sel, v.selArr = sel, arr
		v.details = v.details && !changed
	}
	v.ovlDirty = true
	v.mu.Unlock()
	v.request()
	return changed
}

// hitAttempt is the attempt drawn at (x, y), by its mark (hit) or else
// by its bars (hitSpan), with the time pointed at on its bars then, or -1
// when none. The caller holds v.mu.
func (v *view) hitAttempt(x, y float64) (int, time.Duration) {
	if sel := hit(&v.lay, v.m, x, y); sel >= 0 {
		return sel, -1
	}
	if sel := hitSpan(&v.lay, v.m, x, y); sel >= 0 {
		return sel, v.lay.t(x)
	}
	return -1, -1
}

// click pins the attempt under (x, y), or unpins when there is none.
func (v *view) click(x, y float64) {
	v.mu.Lock()
	// A hovered arrival or bin stays hovered: a click on it hid its
	// tooltip until the pointer moved again (a review).
	v.sel, v.spanAt = -1, -1
	if v.laid {
		v.sel, v.spanAt = v.hitAttempt(x, y)
	}
	v.pinned, v.details = v.sel >= 0, false
	v.ovlDirty = true
	v.mu.Unlock()
	v.request()
}

// key moves the selection with the keyboard: left/right along the lane,
// up/down to the nearest attempt in the next lane with any, home/end to the
// lane's first/last, escape to clear; enter has the selected attempt's
// details said in full (a move says one line of it). In a watch it walks
// the arrivals, each device a lane. It reports whether it handled key.
func (v *view) key(key string) bool {
	v.mu.Lock()
	defer func() {
		v.ovlDirty = true
		v.mu.Unlock()
		v.request()
	}()
	m := v.m
	if m == nil || len(m.marks) == 0 && !m.watch {
		return false
	}
	v.details = false
	if key == "Escape" {
		handled := v.sel >= 0 || m.watch && v.selArr >= 0 // a run's hovered arrival is no selection: Esc goes on to Stop
		v.unselect()
		return handled
	}
	switch key {
	case "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "Enter", " ":
	default:
		return false
	}
	v.spanAt, v.binAt = -1, -1 // the keyboard walks the marks
	// Zoomed in, the walk stays in the window shown: an attempt outside
	// it has no tooltip and no ring (the first key selected attempt 0
	// wherever the window was, and the arrows walked out of it unseen).
	from, span := v.window(time.Since(m.start))
	in := func(t time.Duration) bool { return t >= from && t <= from+span }
	if m.watch {
		// A watch had the canvas promise the arrow keys, and they did
		// nothing (an accessibility review): its arrivals are walked
		// along each device's lane.
		at := func(i int) time.Duration { return m.arrivals[i].at }
		lanes := make([][]int, len(m.devices)) // each device's arrivals shown, in time order: one pass
		for i := range m.arrivals {
			if a := &m.arrivals[i]; a.dev >= 0 && a.dev < len(lanes) && in(a.at) {
				lanes[a.dev] = append(lanes[a.dev], i)
			}
		}
		for _, ln := range lanes {
			sortStable(ln, func(a, b int) bool { return at(a) < at(b) })
		}
		cur, ok := walkLanes(key, v.selArr, len(m.arrivals), len(lanes), at, func(i int) int { return m.arrivals[i].dev }, func(dev int) []int {
			if dev < 0 || dev >= len(lanes) {
				return nil
			}
			return lanes[dev]
		})
		if !ok {
			return false
		}
		v.sel, v.selArr, v.selArrLane = -1, cur, true
	} else {
		at := func(i int) time.Duration { return m.marks[i].sent }
		lane := func(w int) []int {
			if from == 0 && span >= m.last {
				return m.lanes[w]
			}
			var out []int
			for _, i := range m.lanes[w] {
				if in(at(i)) {
					out = append(out, i)
				}
			}
			return out
		}
		cur, ok := walkLanes(key, v.sel, len(m.marks), m.workers, at, func(i int) int { return m.marks[i].worker }, lane)
		if !ok {
			return false
		}
		v.sel = cur
	}
	v.details = key == "Enter"
	v.pinned = true
	return true
}

// walkLanes is a key's move from item cur (-1: none) among n items drawn
// in lanes (lanes of them): the earliest shown first, when cur is none or
// not in lane(laneOf(cur)), the items shown of its lane in time order (at);
// then left/right along its lane, home/end to its first/last, up/down to
// the nearest in time of the next lane with any, Enter and space staying.
// It reports false when there is nothing to select.
func walkLanes(key string, cur, n, lanes int, at func(int) time.Duration, laneOf func(int) int, lane func(int) []int) (int, bool) {
	var own []int
	pos := -1
	if cur >= 0 && cur < n {
		own = lane(laneOf(cur))
		pos = slices.Index(own, cur)
	}
	if pos < 0 {
		first := -1
		for l := range lanes {
			if ln := lane(l); len(ln) > 0 && (first < 0 || at(ln[0]) < at(first)) {
				first = ln[0]
			}
		}
		return first, first >= 0
	}
	switch key {
	case "ArrowLeft":
		cur = own[max(0, pos-1)]
	case "ArrowRight":
		cur = own[min(len(own)-1, pos+1)]
	case "Home":
		cur = own[0]
	case "End":
		cur = own[len(own)-1]
	case "ArrowUp", "ArrowDown":
		d := 1
		if key == "ArrowUp" {
			d = -1
		}
		t := at(cur)
		for l := laneOf(cur) + d; l >= 0 && l < lanes; l += d {
			if next := lane(l); len(next) > 0 {
				cur = slices.MinFunc(next, func(a, b int) int { return cmp.Compare((at(a) - t).Abs(), (at(b) - t).Abs()) })
				break
			}
		}
	}
	return cur, true
}

// tip is what the tooltip shows about the selected attempt.
type tip struct {
	Title string
	Lines []string
	// Said is what a screen reader is told after the title as the
	// selection moves to it (the live region tipSaidID): its outcome and
	// when, one line; every line of the tooltip once Enter asked for them.
	Said  string
	X, Y  float64 // the mark, in canvas CSS pixels
	R     float64 // the radius of its selection ring, CSS pixels
	Class string  // its class name, for the accent colour
}

// maxTipLine is the most bytes of a tooltip line shown: a custom target's
// header of 5,000 characters (a Retry-After of nines) made a tooltip of
// a hundred lines. The exports keep it whole.
const maxTipLine = 300

// cutLine is line cut to maxTipLine bytes, never inside a UTF-8
// sequence, with how long it was: "Retry-After: 99999…… (5,013 characters)".
func cutLine(line string) string {
	if len(line) <= maxTipLine {
		return line
	}
	return mock.CutTo(line, maxTipLine) + " (" + thousands(utf8.RuneCountInString(line)) + " characters)"
}

// selection describes the selected attempt, or ok=false.
func (v *view) selection() (t tip, ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m != nil && v.laid && v.sel < 0 && v.selArr >= 0 && v.selArr < len(v.m.arrivals) {
		a := &v.m.arrivals[v.selArr]
		if x := v.lay.x(a.at); x < v.lay.left || x > v.lay.right {
			return tip{}, false // zoomed or panned away, as for an attempt
		}
		t = describeArrival(a, v.m.watch, v.m.shift != 0)
		if v.details {
			t.Said = strings.Join(t.Lines, ". ")
		}
		t.X, t.Y, t.R = v.lay.x(a.at), v.lay.srvY(a.seq), 6*v.lay.scale
		if y, ok := v.lay.devY(v.m, a); ok {
			if name := v.m.devices[a.dev]; name != "" {
				t.Title += " from " + name
			}
			if v.selArrLane {
				t.Y = y // pointed at in its device's lane
			}
		}
		return t, true
	}
	if b := v.hovBin(); v.m != nil && v.laid && v.sel < 0 && v.selArr < 0 && b >= 0 {
		return describeBin(v.m, &v.lay, b, v.shownBaseline()), true
	}
	if v.m == nil || v.sel < 0 || v.sel >= len(v.m.marks) || !v.laid {
		return tip{}, false
	}
	k := v.m.marks[v.sel]
	x := v.lay.x(k.sent)
	switch {
	case v.spanAt >= 0: // pointed at on its bars: the tooltip is there
		x = min(max(v.lay.x(v.spanAt), v.lay.left), v.lay.right)
	case x < v.lay.left || x > v.lay.right:
		return tip{}, false // zoomed away: no tooltip pointing off the plot
	}
	held := ""
	if v.paced {
		held = pacedNote
	}
	t = describe(&k, shown{running: v.running || v.replay != nil, heldNote: held, crossOrigin: v.m.ownServer, simulated: v.m.simulated}) // a replay has not reached what comes next
	t.X, t.Y, t.R = x, v.lay.rowY(k.worker, k.slot), v.lay.markR+4
	for i, line := range t.Lines {
		t.Lines[i] = cutLine(line)
	}
	if v.details {
		t.Said = strings.Join(t.Lines, ". ")
	}
	return t, true
}

// describeBin writes what the histogram's bin b counts: the requests sent
// in it (a watch's: received), by outcome, and the baseline's, when one is
// drawn (base; its violet outline was all a comparison said of the bin).
// Its tooltip points at its bar's top, as drawn (l.histMax).
func describeBin(m *model, l *layout, b int, base *baselineDraw) tip {
	counts := m.histogram(l.slice, b, b+1)[0]
	total := 0
	for _, c := range counts {
		total += c
	}
	from := time.Duration(b) * l.slice
	verb := " sent"
	if m.watch {
		verb = " received"
	}
	t := tip{Title: sliceText(from, l.slice) + "–" + sliceText(from+l.slice, l.slice) + ": " + thousands(total) + plural(total, " request", " requests") + verb}
	for _, c := range histOrder {
		if n := counts[c]; n > 0 {
			line := classLabel[c] + ": " + thousands(n)
			if n < total {
				line += " (" + percentOf(n, total) + ")"
			}
			t.Lines = append(t.Lines, line)
		}
	}
	if base != nil && from <= base.span { // past its end it draws no outline
		n := base.sentIn(l.slice, b)
		t.Lines = append(t.Lines, "baseline: "+thousands(n)+plural(n, " request", " requests")+" sent ("+base.label+")")
	}
	t.Said = strings.Join(t.Lines, ", ")
	rate := float64(total) * float64(time.Second) / float64(l.slice) // the bar's height, as paintHistogram draws it
	t.X, t.Y = l.x(from+l.slice/2), l.histTop+l.histH
	if l.histMax > 0 {
		t.Y = histY(l, l.histMax)(rate)
	}
	return t
}

// describeArrival writes the facts of a request the server received that
// is not one of this page's attempts: another client's in a shared room,
// or anyone's in a watch; moved: the server's times are drawn moved onto
// the page's clock (model.reclock).
func describeArrival(a *arrival, watch, moved bool) tip {
	t := tip{Class: a.class.String(), Title: "Arrival #" + strconv.Itoa(a.seq) + " from another client"}
	if watch {
		t.Title = "Arrival #" + strconv.Itoa(a.seq)
	}
	clock := " (by the server's clock)"
	if moved {
		clock = " (by the server's clock, moved onto this device's)"
	}
	t.Lines = append(t.Lines, "received at "+fmtSeconds(a.at)+clock)
	res := a.outcome
	if a.status != 0 {
		res = strconv.Itoa(a.status) + " " + statusText(a.status) + " (" + a.outcome + ")"
	}
	switch {
	case a.cancelled:
		res += "; the client went away before the answer"
	case !a.ended:
		res += "; not answered yet"
	}
	t.Lines = append(t.Lines, "answer: "+res)
	t.Said = res + ", received at " + fmtSeconds(a.at)
	if a.again > 0 {
		t.Lines = append(t.Lines, "its attempt's arrival "+strconv.Itoa(a.again+1)+": "+sentAgainWhy)
	}
	if a.tag != "" {
		t.Lines = append(t.Lines, "client's tag: "+a.tag)
	}
	return t
}

// sentAgainWhy says why the server received an attempt more than once.
const sentAgainWhy = "its connection closed with no answer, and the client sent it again on another (browsers and Go's HTTP client do so for a GET on a reused keep-alive connection)"

// pacedNote follows the time a request was held inside a browser that
// paces requests itself (browser.PacesRequests): what held it, and how to
// turn that off.
const pacedNote = "Firefox lets requests out at about 80 a second once six connections are busy (network.http.pacing.requests.enabled in about:config)"

// pacedMin is the least time held that pacedNote explains: a request
// held less waited on its connection, as in any browser.
const pacedMin = 10 * time.Millisecond

// shown is what describe needs to know of the run an attempt is from.
type shown struct {
	running     bool   // the run (or its replay) goes on: what comes next is not known yet
	heldNote    string // if not "", follows the time the browser held it, from pacedMin on
	crossOrigin bool   // the attempt went to a custom target, whose headers fetch() reads only where the server exposes them
	simulated   bool   // the run was simulated: sent when intended, in virtual time, with no lateness measured
}

// describe writes an attempt's facts for people. Workers and jobs are
// numbered from 1 here, as attempts are (and as the lanes are labelled):
// "Worker 1 · job 1 · attempt 1" is the first worker's first try. The
// exports keep the records' numbers, workers and jobs from 0 (README,
// "Export schema").
func describe(k *mark, of shown) tip {
	t := tip{Class: k.class.String()}
	t.Title = "Worker " + strconv.Itoa(k.worker+1) + " · job " + strconv.Itoa(k.job+1) + " · attempt " + strconv.Itoa(k.attempt)
	late := k.sent - k.intended
	if of.simulated {
		// "(+0 µs late)" claimed a lateness the numbers say a simulation
		// does not measure (a review).
		t.Lines = append(t.Lines, "sent "+fmtSeconds(k.sent)+" (virtual time)")
	} else {
		t.Lines = append(t.Lines,
			"intended "+fmtSeconds(k.intended)+" · sent "+fmtSeconds(k.sent)+" ("+fmtSigned(late)+" late)")
	}
	if late >= lateMin {
		t.Lines = append(t.Lines, "sent late: the page's thread was busy (or the tab hidden) when it was due")
	}
	if k.bucketWait > 0 {
		t.Lines = append(t.Lines, "waited "+human.Duration(k.bucketWait)+" for a fleet-bucket token first")
	}
	if k.handoff >= 500*time.Microsecond {
		t.Lines = append(t.Lines, "fetch() started "+human.Duration(k.handoff)+" after that ("+fmtSigned(late+k.handoff)+" late in all)")
	}
	if k.queued > 0 {
		// Resource Timing's requestStart − fetchStart: a connection opened
		// for it counts too (a first attempt's 48 ms, with few workers,
		// was mostly connecting: a review).
		t.Lines = append(t.Lines, "held "+human.Duration(k.queued)+" inside the browser before it went out (for a free connection, or opening one)")
		if of.heldNote != "" && k.queued >= pacedMin {
			t.Lines = append(t.Lines, of.heldNote)
		}
	}
	if k.hasServer {
		t.Lines = append(t.Lines, "server received it at "+fmtSeconds(k.serverAt)+" (arrival #"+strconv.Itoa(k.serverSeq)+")")
	}
	if k.redirected {
		t.Lines = append(t.Lines, "redirected: the browser followed the redirect with another request, so your server received it twice or more")
	}
	if k.again > 0 {
		t.Lines = append(t.Lines, "the server received it "+strconv.Itoa(k.again+1)+" times: "+sentAgainWhy)
	}
	outcome := "in flight"
	switch {
	case k.end < 0:
		t.Lines = append(t.Lines, "in flight")
	default:
		res := classLabel[k.class]
		if k.class == fleet.ClassAborted && fleet.AtAttemptLimit(k.err) {
			res = "aborted (the page's limit on a simulation's attempts)"
		}
		if k.status != 0 {
			res = strconv.Itoa(k.status) + " " + statusText(k.status)
		}
		outcome = res
		res += " after " + human.Duration(k.end-k.pickup-k.sent)
		t.Lines = append(t.Lines, res)
		if k.pickup >= lateMin {
			t.Lines = append(t.Lines, "answered at "+fmtSeconds(k.end-k.pickup)+"; the page took it in "+human.Duration(k.pickup)+" later (its thread was busy)")
		}
		// "timeout after 1 s" says a timeout; an abort's cause, Go's
		// "context canceled", is said as Stop or the page's limit below.
		if e := k.errText(); e != "" && k.status == 0 && k.class != fleet.ClassTimeout && k.class != fleet.ClassAborted {
			t.Lines = append(t.Lines, e)
		}
	}
	if ra, sent := core.LookupHeader(k.hdr, "Retry-After"); sent {
		if ra == "" { // sent with no value: invalid, not absent
			ra = `"" (sent empty)`
		}
		// The wait after it came from elsewhere, and its note does not say
		// the value was unusable: the run did not honour it. The flood's
		// "Retry-After: 1 … then waited 2 s: backoff" left a learner to
		// guess why (a review).
		if k.hasWait && k.waitReason != core.ReasonRetryAfter && !strings.Contains(k.waitNote, "retry-after") {
			ra += " (not honoured: Honour Retry-After is off)"
		}
		t.Lines = append(t.Lines, "Retry-After: "+ra)
	} else if of.crossOrigin && (k.status == 429 || k.status == 503) {
		// Not told apart from a server that sent none (found by a review).
		t.Lines = append(t.Lines, "no Retry-After readable: your server sent none, or it is not listed in Access-Control-Expose-Headers, and fetch() sees only the headers listed there")
	}
	if rl := k.rateLimit(); rl != "" {
		t.Lines = append(t.Lines, rl)
	}
	if k.hasWait {
		w := "then waited "
		if k.cut != 0 {
			w = "then was to wait "
		}
		w += human.Duration(k.waitAfter) + ": " + reasonLabel[k.waitReason]
		if k.waitNote != "" {
			w += " (" + noteText(k.waitNote) + ")"
		}
		t.Lines = append(t.Lines, w)
		switch {
		case k.cut == cutLimit:
			t.Lines = append(t.Lines, "no retry: the page's limit on a simulation's attempts ended the job first")
		case k.cut == cutRun:
			t.Lines = append(t.Lines, "no retry: the run was stopped first")
		case k.endNote != "":
			t.Lines = append(t.Lines, "no retry: the job gave up after this wait: "+noteText(k.endNote))
		}
	} else if k.end >= 0 && k.next < 0 && !of.running && k.class != fleet.ClassOK {
		switch {
		case k.class == fleet.ClassAborted && fleet.AtAttemptLimit(k.err):
			t.Lines = append(t.Lines, "no retry: the page's limit on a simulation's attempts ended the job here")
		case k.class == fleet.ClassAborted: // it did not give up: it was stopped
			t.Lines = append(t.Lines, "no retry: Stop ended the job here")
		case k.endNote != "":
			t.Lines = append(t.Lines, "no retry: the job gave up here: "+noteText(k.endNote))
		default:
			t.Lines = append(t.Lines, "no retry: the job gave up here")
		}
	}
	t.Said = outcome + ", sent at " + fmtSeconds(k.sent)
	return t
}

// statusText is the reason phrase of a status a client meets, as
// net/http.StatusText gives it (not imported: it would bloat app.wasm);
// "" for the rare ones ("501 after 13.7 ms" had none beside "429 Too Many
// Requests").
func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 201:
		return "Created"
	case 202:
		return "Accepted"
	case 204:
		return "No Content"
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	case 304:
		return "Not Modified"
	case 307:
		return "Temporary Redirect"
	case 308:
		return "Permanent Redirect"
	case 400:
		return "Bad Request"
	case 401:
		return "Unauthorized"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 406:
		return "Not Acceptable"
	case 408:
		return "Request Timeout"
	case 409:
		return "Conflict"
	case 410:
		return "Gone"
	case 413:
		return "Request Entity Too Large"
	case 415:
		return "Unsupported Media Type"
	case 418:
		return "I'm a teapot"
	case 422:
		return "Unprocessable Entity"
	case 425:
		return "Too Early"
	case 429:
		return "Too Many Requests"
	case 431:
		return "Request Header Fields Too Large"
	case 500:
		return "Internal Server Error"
	case 501:
		return "Not Implemented"
	case 502:
		return "Bad Gateway"
	case 503:
		return "Service Unavailable"
	case 504:
		return "Gateway Timeout"
	case 505:
		return "HTTP Version Not Supported"
	}
	return ""
}

// noteText is a note of core's loop (an event's Note) as the page writes
// it: its durations, in Go's syntax there ("spread +877ms", "clamped from
// 2m to ceiling 30s"), as everywhere else on the page ("spread +877 ms",
// "clamped from 2 min to ceiling 30 s"). What is quoted, a header's value
// as received, is left as it came.
func noteText(note string) string {
	var b strings.Builder
	quoted, escaped := false, false
	for i := 0; i < len(note); {
		c := note[i]
		if quoted || c == '"' {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				quoted = !quoted
			}
			b.WriteByte(c)
			i++
			continue
		}
		// A duration starts with a digit after anything but a letter or a
		// digit, and runs over digits, dots and unit letters.
		if c >= '0' && c <= '9' && (i == 0 || !isWordByte(note[i-1])) {
			j := i
			for j < len(note) && (isWordByte(note[j]) || note[j] == '.' || strings.HasPrefix(note[j:], "µ")) {
				if strings.HasPrefix(note[j:], "µ") {
					j += len("µ")
				} else {
					j++
				}
			}
			word := note[i:j]
			if d, err := time.ParseDuration(word); err == nil && strings.ContainsAny(word, "nuµmsh") {
				b.WriteString(human.Duration(d))
			} else {
				b.WriteString(word)
			}
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
