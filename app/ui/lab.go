package ui

import (
	"context"
	"math/rand/v2"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/core"
	"retrylab/core/sim"
)

// Lab is the page's state and what can be done with it: the configuration
// being edited (with its errors), the current or last run, and the page's
// modes. Components render from it and call its methods from their event
// handlers; it is owned by go-app's UI goroutine, except where noted. Work
// that blocks (a run, a copy to the clipboard) goes through app.Context.Async
// and comes back through Dispatch.
type Lab struct {
	page *url.URL // the page's address: the mock is on its origin

	// subdomains is whether this browser reaches the *.localhost origins
	// the workers are spread over (checkSubdomains; nil: not asked).
	subdomains *subdomainCheck

	// address is the address bar's query: as the page was opened with,
	// then as saveURL writes it. A draft belongs to it (adoptDraft).
	address string
	// drewSeed: the page was opened on a room's link without a seed, and
	// drew its own (Load).
	drewSeed bool

	s         fleet.Scenario
	texts     map[string]string // what the user typed, per field key
	fieldErrs map[string]string // per field key: its value is not allowed
	// noAnswer is whether the run of 'of' got no answer at all
	// (noAnswerNote), found once per run shown.
	noAnswer struct {
		of   *fleet.Recording
		none bool
	}
	edited    map[string]int // per field key: when the user last set it (edits at the time), since the configuration was loaded
	edits     int
	crossErrs []fleet.FieldError
	notices   []fleet.FieldError // the URL's fields that could not be used
	linkNotes map[string]string  // per field key: its notice, beside it until the field is changed (Note)
	loaded    bool
	saved     fleet.Scenario // the configuration the address bar holds (saveURL)
	drafts    storage        // the tab's session storage once mounted: adoptDraft
	drafted   bool           // drafts holds texts (saveDraft): a valid configuration clears them
	// restored: the fields' messages came back with a draft (adoptDraft)
	// as the page loaded; they are not alerts (Controls), the run status
	// says how many fields to fix, the link's notice is the one alert.
	restored bool

	// Revisions: bumped when what a component shows changes, so go-app
	// re-renders only the components concerned.
	cfgRev, runRev int

	view       *view
	running    bool
	simulating bool         // running is a simulation (Stop interrupts it)
	simSoFar   sim.Progress // how far the simulation going on has come
	simDrawing bool         // the simulation going on is computed, and being drawn: nothing left for Stop
	watching   bool         // running is a watch of the shared room (no fleet)
	watched    bool         // what is shown is a watch: the numbers are wstats
	wstats     watchStats
	watchRoom  string           // the room watched
	watchOpen  bool             // the room's stream said hello
	watchFull  bool             // the watch stopped at WatchMaxArrivals
	join       joinState        // how devices join the watched room
	device     string           // this page's name in a shared room (room.go)
	simSum     fleet.SimSummary // of the last run, when it was simulated
	simAt      time.Time        // when the last run was simulated, or the watch began, by the wall clock (a simulation's Start is virtual: fleet.SimEpoch; a watch has no recording)
	stopping   bool
	cancel     context.CancelFunc
	runKey     string
	runs       int
	live       *liveRecords
	rec        *fleet.Recording // the last finished run
	summary    runSummary       // rec's timelineSummary
	stats      fleet.Stats
	hasStats   bool
	disp       float64         // the last finished run's retry dispersion
	base       *baseline       // the run kept for comparison (Compare), or nil
	wantBase   *fleet.Scenario // the baseline the address asked for, until simulated
	custom     *ownConfig      // the user's own configuration a preset last replaced (nil: none kept)
	tr         *fetchTransport
	stream     func() // closes the run's arrivals stream (idempotent)

	rehearsal     rehearsalState     // the page's rehearsal of a run (rehearsal.go)
	stopRehearsal context.CancelFunc // stops it while it goes on

	replaying   bool               // a replay of the finished run goes on (Replay)
	replaySpeed float64            // of replays, × real time (0: 1×)
	replayDone  replayDone         // what the replay puts back when it ends
	stopTick    context.CancelFunc // stops the replay's numbers

	present  bool
	keysOff  atomic.Bool // the single-key shortcuts are off (the help's switch); read on the keys' JS callback
	dark     bool        // the system prefers a dark colour scheme (browser.WatchDark)
	help     bool
	helpBack string  // the id of what had the focus when help opened: it gets it back
	toast    string  // a short message ("Link copied"), cleared after a while
	toastAt  string  // its side, clear of the page's text: "", "right" or "left" (browser.ClearSpot)
	toastTop float64 // its top on the screen, px; -1 at the foot of the screen
	toastSet bool    // placed: hidden until then, so that it does not jump
	toastN   int

	code     string // goCode's cache, for cfgRev codeRev
	codeRev  int
	codeOpen bool // the Go code's <details> is open (setCodeOpen)

	snap atomic.Pointer[snapshot] // for window.retrylab.state(), read off the UI goroutine
}

// ownConfig is the user's own configuration, kept when a preset replaces
// it: the valid configuration, and the text of every field whose value
// was not allowed (left in its input with its message), so that going back
// loses nothing the user typed.
type ownConfig struct {
	s       fleet.Scenario
	invalid map[string]string // field key → text
}

// liveRecords keeps the live numbers of a run going on (its own Recording
// is only handed back when it ends), and a simulation's records.
type liveRecords struct {
	mu        sync.Mutex
	recs      []fleet.Record
	acc       *fleet.StatsAcc // the live numbers, kept up to date record by record
	start     time.Time       // the run's (restart)
	countOnly bool            // keep the numbers and a count, not the records (a live run's or a replay's: the run's Recording has them)
	counted   int
}

func (l *liveRecords) add(r fleet.Record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.countOnly {
		l.counted++
		if l.acc != nil {
			l.acc.Add(&r)
		}
		return
	}
	l.recs = append(l.recs, r)
	if l.acc != nil {
		l.acc.Add(&l.recs[len(l.recs)-1])
	}
}

// restart empties l for a run that starts at start.
func (l *liveRecords) restart(start time.Time) {
	l.mu.Lock()
	l.recs, l.counted = l.recs[:0], 0
	l.acc, l.start = fleet.NewStatsAcc(start, 0), start
	l.mu.Unlock()
}

// stats is the numbers of the records so far (a live run's, or a
// replay's up to its playhead) and the dispersion of their retries. For a
// run going on, now is not zero: it has not drained yet, so its time to
// drain is at least the time since its start (it said "0 µs" with every
// request in flight for seconds).
func (l *liveRecords) stats(now time.Time) (fleet.Stats, float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.acc == nil {
		return fleet.Stats{}, 0
	}
	st := l.acc.Stats()
	if !now.IsZero() {
		st.Drain = max(st.Drain, now.Sub(l.start))
	}
	return st, l.acc.Dispersion(fleet.DispersionSlice)
}

// set makes recs the records (a simulation's, all at once).
func (l *liveRecords) set(recs []fleet.Record) {
	l.mu.Lock()
	l.recs = recs
	l.mu.Unlock()
}

func (l *liveRecords) len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs) + l.counted
}

// newLab returns a lab with the default configuration.
func newLab() *Lab {
	l := &Lab{s: fleet.Default(), saved: fleet.Default(), view: newView(), device: newDeviceName(randIntN), rehearsal: rehearsalState{State: "waiting"}}
	l.resetTexts()
	l.configureView()
	l.publish()
	return l
}

// configureView shows the configuration in the inputs, as it is now, on
// the empty timeline: l.s keeps the last valid value of a field whose text
// is not allowed, so the view is told how many values are to be fixed
// first, and draws no lanes while Workers holds no number of workers.
func (l *Lab) configureView() {
	s := l.s
	if _, bad := l.fieldErrs["workers"]; bad {
		s.Workers = 0
	}
	l.view.configure(s, l.Invalid())
}

// Scenario is the configuration as it will run.
func (l *Lab) Scenario() fleet.Scenario { return l.s }

func (l *Lab) resetTexts() {
	l.texts = make(map[string]string, len(fleet.Fields))
	l.fieldErrs, l.edited = map[string]string{}, map[string]int{}
	for i := range fleet.Fields {
		f := &fleet.Fields[i]
		l.texts[f.Key] = f.Get(&l.s)
	}
	l.checkRules()
	l.cfgRev++
}

// Load sets the configuration from a page URL's query, field by field; the
// fields that could not be used become notices. Only the first call counts
// (go-app calls OnNav again on every navigation); a later one only notes a
// page that moved to another address, and renders nothing again otherwise.
func (l *Lab) Load(page *url.URL) {
	if l.loaded {
		if page != nil && (l.page == nil || page.Scheme != l.page.Scheme || page.Host != l.page.Host || page.Path != l.page.Path) {
			l.page = page
			l.cfgRev++
		}
		return
	}
	l.page = page
	l.cfgRev++
	l.loaded = true
	defer func() { // the configuration loaded below, not the one now
		l.configureView()
		l.publish()
	}()
	if page == nil || page.RawQuery == "" {
		return
	}
	l.address = page.RawQuery
	q, unread := fleet.ParseQuery(page.RawQuery)
	vs, hasVS := q[baselineKey]
	delete(q, baselineKey)
	s, notes := fleet.FromQuery(q)
	notes = append(unread, notes...)
	if _, seeded := q["seed"]; !seeded && s.Room != "" && s.Target == "" {
		// A room's devices are independent clients: each draws its own
		// seed (a join link carries none), written into the address so a
		// reload or a shared link reproduces this device's run. With one
		// seed for all, every device's jittered retries came together,
		// and the room drew full jitter as a flood.
		s.Seed = rand.Uint64()
		l.drewSeed = true
	}
	l.s, l.saved = s, s
	l.notices = notes
	l.linkNotes = map[string]string{}
	for _, n := range notes {
		if _, ok := fleet.FieldByKey(n.Key); !ok {
			continue
		}
		if prev := l.linkNotes[n.Key]; prev != "" {
			l.linkNotes[n.Key] = prev + "; " + n.Msg
		} else {
			l.linkNotes[n.Key] = "From the link: " + n.Msg
		}
	}
	if l.drewSeed {
		// Added to the link as written, not a rewrite of it to the
		// configuration used: what it asked for that could not be used
		// (said in the notice) stays in the address, as in any link.
		l.address = strings.TrimRight(page.RawQuery, "&") + "&seed=" + strconv.FormatUint(s.Seed, 10)
		_ = browser.ReplaceURL("?" + l.address)
	}
	if hasVS && len(vs) > 0 {
		if len(vs) > 1 { // as FromQuery does for a field given more than once
			l.notices = append(l.notices, fleet.FieldError{Key: baselineKey, Value: vs[1],
				Msg: "the baseline (" + baselineKey + ") is given " + strconv.Itoa(len(vs)) + " times; using the first"})
		}
		l.loadBaseline(vs[0])
	}
	l.resetTexts()
}

// Text is what the input of field key shows.
func (l *Lab) Text(key string) string { return l.texts[key] }

// Err is the message beside field key's input, "" when it is fine.
func (l *Lab) Err(key string) string {
	if e := l.fieldErrs[key]; e != "" {
		return e
	}
	for _, e := range l.crossErrs {
		if e.Key == key {
			return e.Msg
		}
	}
	return ""
}

// GeneralErrs are the errors no single field owns.
func (l *Lab) GeneralErrs() []string {
	var out []string
	for _, e := range l.crossErrs {
		if _, ok := fleet.FieldByKey(e.Key); !ok {
			out = append(out, e.Msg)
		}
	}
	return out
}

// checkRules checks the rules between fields, leaving out those that read
// a field whose input holds a value not allowed (fleet.ValidateHeld): each
// is checked again once that value is fixed.
func (l *Lab) checkRules() {
	l.crossErrs = l.s.ValidateHeld(func(key string) bool {
		_, held := l.fieldErrs[key]
		return held
	}, func(key string) int { return l.edited[key] })
}

// Invalid is how many fields have a value that is not allowed, each field
// once, and the errors no field owns (GeneralErrs).
func (l *Lab) Invalid() int {
	n := len(l.fieldErrs)
	seen := map[string]bool{}
	for _, e := range l.crossErrs {
		if _, field := fleet.FieldByKey(e.Key); !field {
			n++
		} else if _, own := l.fieldErrs[e.Key]; !own && !seen[e.Key] {
			seen[e.Key] = true
			n++
		}
	}
	return n
}

// CanRun reports whether Run would start a run: the configuration is
// valid and fits a live run (at most fleet.WorkersRange.Max workers).
func (l *Lab) CanRun() bool { return !l.running && l.Invalid() == 0 && l.s.LiveErrors() == nil }

// RunBlocked says why Run cannot start, for the r key that asked for it,
// or "" when it can (or a run already goes on, which the page shows).
func (l *Lab) RunBlocked() string { return l.blocked("Run", l.s.LiveErrors()) }

// SimulateBlocked is RunBlocked for Simulate (the m key).
func (l *Lab) SimulateBlocked() string { return l.blocked("Simulate", l.s.SimErrors()) }

// blocked says why what cannot start: values to fix first, else the first
// of errs (what rules it out for this configuration); "" when nothing does.
func (l *Lab) blocked(what string, errs []fleet.FieldError) string {
	switch n := l.Invalid(); {
	case l.running:
		return ""
	case n == 1:
		return what + ": fix the value marked in the settings first"
	case n > 1:
		return what + ": fix the " + strconv.Itoa(n) + " values marked in the settings first"
	case errs != nil:
		return what + ": " + errs[0].Msg
	}
	return ""
}

// CanSimulate reports whether Simulate would start a simulation: the
// configuration is valid and targets the built-in mock.
func (l *Lab) CanSimulate() bool { return !l.running && l.Invalid() == 0 && l.s.SimErrors() == nil }

// CanWatch reports whether Watch room would start: a shared room is set,
// the built-in mock is the target, and nothing is running.
func (l *Lab) CanWatch() bool {
	return !l.running && l.s.Room != "" && l.s.Target == "" && l.Err("room") == "" && l.Err("target") == ""
}

// Watch shows the shared room as the server sees it, with no fleet of its
// own: every arrival from everyone in the room, live, until Stop. It is
// the projector's view of a workshop.
func (l *Lab) Watch(ctx app.Context) {
	if !l.CanWatch() {
		return
	}
	s := l.s
	rctx, cancel := context.WithCancel(context.Background())
	l.beginRun(cancel)
	l.runKey = s.Room
	l.watching, l.watched = true, true
	l.simSum, l.tr, l.live = fleet.SimSummary{}, nil, nil
	l.hasStats, l.wstats, l.watchRoom, l.watchOpen, l.watchFull = true, watchStats{}, s.Room, false, false
	start := time.Now()
	l.simAt = start // the files' name (fileStamp)
	l.view.startWatch(s, start)
	_ = ctx.SessionStorage().Set(watchStorageKey, s.Room) // a reload of the projector watches on (adoptWatch)
	l.askJoin(ctx)
	hello := l.openStream(s.Room, true)
	stop := l.stream
	origin := l.pageOrigin()
	l.runRev++
	l.publish()
	ctx.Async(func() {
		// Frames come with arrivals; between them the "now" line and the
		// time axis still move: a frame every 100 ms, the numbers every
		// 500 ms.
		open, full := false, false
		for i := 1; (browser.Clock{}).Sleep(rctx, 100*time.Millisecond) == nil; i++ {
			l.view.request()
			select {
			case <-hello:
				if !open { // the clocks, once the server is there: a watch sends nothing else
					go l.view.probeClock(rctx, origin, 3)
				}
				open = true
			default:
			}
			if i%5 != 0 {
				continue
			}
			st := l.view.watchStats()
			st.For = time.Since(start)
			if st.Arrivals >= WatchMaxArrivals {
				full = true
				cancel()
			}
			ctx.Dispatch(func(app.Context) {
				if l.watching && !l.stopping {
					l.wstats, l.watchOpen = st, open
					l.runRev++
					l.publish()
				}
			})
		}
		if stop != nil {
			stop() // nothing more comes in: the numbers are final
		}
		end := time.Now()
		l.view.finish(end)
		st := l.view.watchStats()
		st.For = end.Sub(start)
		ctx.Dispatch(func(ctx app.Context) {
			if !l.watching {
				return // a newer run took over
			}
			_ = ctx.SessionStorage().Set(watchStorageKey, "") // ended here: a reload does not start it again
			l.closeStream()
			l.running, l.watching, l.stopping = false, false, false
			l.wstats, l.watchFull = st, full
			l.runRev++
			l.publish()
		})
	})
}

// Note is a remark beside field key's input that is not an error: what
// the page's link asked for in it that could not be used (until the field
// is changed), or what its value rules out (a live run above 500 workers,
// a simulation of a custom target). "" when there is none, or when the
// field has an error.
func (l *Lab) Note(key string) string {
	n, _ := l.note(key)
	return n
}

// note is Note, and whether it only tells what the value rules out in
// Simulate while Run works as set (a custom target): drawn as information,
// not as a warning, which a review took for something to fix.
func (l *Lab) note(key string) (n string, simOnly bool) {
	if l.Err(key) != "" {
		return "", false
	}
	if n := l.linkNotes[key]; n != "" {
		return n, false
	}
	if key == "target" {
		if n := l.selfTargetNote(); n != "" {
			return n, false
		}
	}
	for _, e := range l.s.LiveErrors() {
		if e.Key == key {
			return e.Msg, false
		}
	}
	for _, e := range l.s.SimErrors() {
		if e.Key == key {
			return e.Msg, true
		}
	}
	switch key {
	case "workers":
		return l.oneOriginNote(), false
	case "elapsed":
		return l.elapsedNote(), false
	}
	return "", false
}

// elapsedNote says, beside Max elapsed, when it is shorter than the
// request timeout: max elapsed starts no wait past it but cuts no attempt
// short, so a job's first attempt alone may outlast it. A review set 1 s
// against a 2 s timeout, read it as a deadline, and saw jobs of 2 s.
func (l *Lab) elapsedNote() string {
	e, t := l.s.MaxElapsed, l.s.Timeout
	switch {
	case e == 0 || 0 < t && t <= e:
		return ""
	case t == 0:
		return "With no request timeout, an attempt in flight runs until it is answered, however long past max elapsed."
	}
	td := core.FormatDuration(t)
	return "Shorter than the request timeout (" + td + "): an attempt in flight runs on to its timeout, so a job may outlast " +
		core.FormatDuration(e) + " by up to " + td + "."
}

// oneOriginNote says, beside Workers, why most of a live run's requests
// will wait in the browser when every worker calls the mock on the page's
// own origin (not on localhost: an attendee who joined by the network
// link; or a browser that reaches no *.localhost name), and more workers
// than the five connections free beside the arrivals stream are set. An
// attendee's run of 50 workers was held by the browser for its first 8 s,
// queue p99 ~900 ms, and nothing said why (found by a review). "" when
// the workers are spread, fit, or call a custom target.
func (l *Lab) oneOriginNote() string {
	if l.s.Target != "" || l.s.Workers <= oneOriginFree || l.spread() {
		return ""
	}
	return "Live, here the browser sends at most " + strconv.Itoa(oneOriginFree) + " requests at once (HTTP/1.1's six connections, one for the arrivals stream): " +
		"the rest wait in the browser, drawn “held by the browser”. Use fewer workers, or open the page on the server's machine (localhost)."
}

// selfTargetNote says, beside Custom target, when the target is this very
// server (its host, or a loopback name of it on a page on localhost, at
// the page's port): not an API, its page answers every attempt 200, and
// its own mock is better called with the target empty, where the
// Endpoint settings, Simulate, the server's arrivals and the faults work.
// A review ran the page at itself without a word. "" otherwise.
func (l *Lab) selfTargetNote() string {
	u, err := url.Parse(l.s.Target)
	page := l.pageURL()
	if l.s.Target == "" || err != nil || u.Scheme != page.Scheme || portOf(u) != portOf(page) ||
		!strings.EqualFold(u.Hostname(), page.Hostname()) && !(isLoopback(page.Hostname()) && isLoopback(u.Hostname())) {
		return ""
	}
	if u.Path == "/mock" || strings.HasPrefix(u.Path, "/mock/") {
		return "This is Retry Lab's own mock. Leave Custom target empty to call it with the Endpoint settings: then Simulate, the server's arrivals and the fault buttons work too."
	}
	return "This is Retry Lab itself, not an API: its pages answer every request 200, so no run here is ever limited. Leave Custom target empty to call the built-in mock."
}

// portOf is u's port, or its scheme's when it gives none.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// oneOriginFree is how many requests a browser has in flight at once to
// one HTTP/1.1 origin beside the arrivals stream (FACTS.md: six per origin).
const oneOriginFree = 5

// Set takes what the user chose or typed into field key, and puts the
// configuration in the address bar (saveURL). A value that is not allowed
// keeps its text and gets a message beside the input, and the run
// configuration keeps its last valid value: Run is disabled until it is
// fixed, nothing is silently clamped.
func (l *Lab) Set(key, text string) {
	if l.set(key, text) {
		l.saveURL()
		l.publish()
	}
}

// Type is Set for a text input's keystroke: the value takes effect (and
// its message shows) at once, and the address bar waits for the input's
// change (Commit), when the user leaves it or presses Enter. Written at
// each keystroke allowed, the address held what was typed on the way:
// "50ms" typed into Cap, not allowed under a base of 100ms, left
// cap=50m (50 minutes) in it, while the copy buttons were disabled (a
// review). What is typed meanwhile is kept in the tab (saveDraft).
func (l *Lab) Type(key, text string) {
	if l.set(key, text) {
		l.saveDraft()
		l.publish()
	}
}

// set takes text into field key for Set and Type; false for no such
// field.
func (l *Lab) set(key, text string) bool {
	f, ok := fleet.FieldByKey(key)
	if !ok {
		return false
	}
	l.texts[key] = text
	l.edits++
	l.edited[key] = l.edits // a rule broken is said beside the field just typed (fleet.ValidateHeld)
	l.restored = false
	delete(l.linkNotes, key) // changed: what the link asked for is no longer what it shows
	c := l.s
	if err := f.Set(&c, text); err != nil {
		l.fieldErrs[key] = err.Error()
	} else {
		delete(l.fieldErrs, key)
		l.s = c
	}
	l.checkRules()
	l.cfgRev++
	l.configureView()
	return true
}

// Commit puts what was typed into a text input in the address bar, once
// the user leaves it or presses Enter (its change event).
func (l *Lab) Commit() { l.saveURL() }

// saveURL puts the configuration in the address bar when it is valid, and
// keeps what was typed since in the tab otherwise (saveDraft).
func (l *Lab) saveURL() {
	if l.Invalid() == 0 {
		l.saved = l.s
		l.address = l.query()
		_ = browser.ReplaceURL("?" + l.address)
	}
	l.saveDraft()
}

// draftStorageKey keeps, in the tab's session storage, what was typed into
// the fields since the address bar last took the configuration, with the
// address it was typed over. The address bar holds only valid
// configurations, as committed (Type), so without it a reload would lose
// the typing, the value not allowed with it: nothing a user typed is lost.
const draftStorageKey = "retrylab.draft"

// draft is what draftStorageKey holds, written as a query (draft.String,
// parseDraft): the browser build of go-app stores only strings and bools
// (app/go-app.patch).
type draft struct {
	Query string            // the address bar's query (Lab.address) the texts were typed over
	Texts map[string]string // field key → text, for each field that differs from it
}

// draftQueryKey holds a draft's Query among its texts: no field's key.
const draftQueryKey = "@query"

// String writes d as a query: its texts by field key, and its Query; ""
// when it has no texts.
func (d draft) String() string {
	if d.Texts == nil {
		return ""
	}
	v := url.Values{draftQueryKey: {d.Query}}
	for k, t := range d.Texts {
		v.Set(k, t)
	}
	return v.Encode()
}

// parseDraft reads a draft written by String; anything else is no draft.
func parseDraft(s string) draft {
	v, err := url.ParseQuery(s)
	if err != nil || !v.Has(draftQueryKey) {
		return draft{}
	}
	d := draft{Query: v.Get(draftQueryKey), Texts: make(map[string]string, len(v)-1)}
	for k, t := range v {
		if k != draftQueryKey {
			d.Texts[k] = t[0]
		}
	}
	return d
}

// saveDraft stores the fields whose text differs from the address's
// configuration (a value not allowed, or one typed and not yet committed),
// and clears the draft once none does.
func (l *Lab) saveDraft() {
	if l.drafts == nil {
		return
	}
	var d draft
	for i := range fleet.Fields {
		f := &fleet.Fields[i]
		// A value not allowed, or one that differs from the address's: a
		// text that differs only in how it is written ("1500ms" for the
		// address's 1.5s) is no draft, and kept none once committed.
		if _, bad := l.fieldErrs[f.Key]; bad || f.Get(&l.s) != f.Get(&l.saved) {
			if d.Texts == nil {
				d.Texts = map[string]string{}
			}
			d.Texts[f.Key] = l.texts[f.Key]
		}
	}
	if d.Texts == nil && !l.drafted {
		return // nothing kept, nothing to clear
	}
	d.Query = l.address // the address bar's, not that of the values typed since
	_ = l.drafts.Set(draftStorageKey, d.String())
	l.drafted = d.Texts != nil
}

// adoptDraft keeps st for the drafts and, when the tab holds one typed over
// this very address (a reload), types it into the fields again: their
// messages come back with it, and Run is disabled again.
func (l *Lab) adoptDraft(st storage) {
	l.drafts = st
	var text string
	if st.Get(draftStorageKey, &text) != nil {
		return
	}
	d := parseDraft(text)
	if len(d.Texts) == 0 {
		return
	}
	// Typed over another address: not this page's. The address bar's own
	// text, not the configuration it resolves to: a link that falls back
	// to the configuration a draft was typed over is another address.
	if d.Query != l.address {
		_ = st.Set(draftStorageKey, "")
		return
	}
	l.drafted = true
	for _, f := range fleet.Fields { // in the fields' order, as a person types them
		if t, ok := d.Texts[f.Key]; ok {
			l.Set(f.Key, t)
		}
	}
	l.restored = true
}

// query is the page address's query: the configuration and, when there is
// a baseline, its configuration as vs=.
func (l *Lab) query() string { return l.queryOf(l.s) }

// queryOf is query with s as the configuration.
func (l *Lab) queryOf(s fleet.Scenario) string {
	q := s.Encode()
	switch {
	case l.base != nil:
		q += baselineParam(l.base.scen)
	case l.wantBase != nil:
		q += baselineParam(*l.wantBase)
	}
	return q
}

// baselineParam is the address's part for baseline b: none for a custom
// target's run, which a link cannot bring back (it is simulated from the
// link, and only the mock can be). The page wrote it, then took its own
// link for a bad one: a reload printed the whole baseline's query in a
// notice (found by a review).
func baselineParam(b fleet.Scenario) string {
	if b.Target != "" {
		return ""
	}
	return "&" + baselineKey + "=" + url.QueryEscape(b.Encode())
}

// ShareURL is the link that reproduces the configuration.
func (l *Lab) ShareURL() string {
	return l.pageAddress() + "?" + l.query()
}

// pageAddress is the page's address without its query.
func (l *Lab) pageAddress() string {
	if l.page == nil {
		return "/"
	}
	return l.page.Scheme + "://" + l.page.Host + l.page.Path
}

// Preset loads preset id. The shared room is kept: a workshop walks its
// room through the story, step by step.
//
// A step runs against the built-in mock: it returns the custom target it
// set aside, if any, for the page to say so (it went without a word).
func (l *Lab) Preset(id string) (target string) {
	p, ok := fleet.PresetByID(id)
	if !ok {
		return ""
	}
	target = l.s.Target
	if presetIndex(l.s) < 0 || len(l.fieldErrs) > 0 { // a configuration of the user's own: kept, to go back to
		own := &ownConfig{s: l.s}
		for key := range l.fieldErrs {
			if own.invalid == nil {
				own.invalid = map[string]string{}
			}
			own.invalid[key] = l.texts[key]
		}
		l.custom = own
	}
	l.setScenario(p.Scenario())
	return target
}

// presetAndSay is Preset, saying so when the step set a custom target
// aside.
func (l *Lab) presetAndSay(ctx app.Context, id string) {
	if target := l.Preset(id); target != "" {
		back := ""
		if l.custom != nil {
			back = ": ↶ Your configuration (u) brings it back"
		}
		l.Flash(ctx, "The steps run against the built-in mock, not your target "+target+back)
	}
}

// RestoreCustom goes back to the user's own configuration that a preset
// replaced (key u), if one is kept.
func (l *Lab) RestoreCustom() {
	c := l.custom
	if c == nil || l.running {
		return
	}
	l.custom = nil
	l.setScenario(c.s)
	for key, text := range c.invalid {
		l.Set(key, text) // its message comes back with it, and Run is disabled again
	}
}

// CustomKept reports whether a configuration of the user's own, replaced
// by a preset, can be gone back to.
func (l *Lab) CustomKept() bool { return l.custom != nil }

// setScenario puts s in place of the configuration, in the shared room the
// page is in, with the seed the page drew for it (Load): a device in a
// room stays an independent client through the workshop's steps. (Each
// step put every device on the preset's seed, and the room's jittered
// retries came together again.)
//
// A room typed and refused stays in its input with its message, and Run
// disabled: the last room allowed (the "a" typed on the way to "a b") took
// the preset's run into a room the user never chose.
func (l *Lab) setScenario(s fleet.Scenario) {
	s.Room = l.s.Room
	if l.drewSeed {
		s.Seed = l.s.Seed
	}
	roomText, roomErr := l.texts["room"], l.fieldErrs["room"]
	l.s = s
	l.linkNotes = nil // another configuration: the link's no longer shown
	l.resetTexts()
	if roomErr != "" {
		l.texts["room"], l.fieldErrs["room"] = roomText, roomErr
		l.checkRules()
	}
	l.configureView()
	l.saveURL()
	l.publish()
}

// ActivePreset is the preset the configuration equals (whatever the shared
// room), or "".
func (l *Lab) ActivePreset() string {
	if i := presetIndex(l.s); i >= 0 {
		return fleet.Presets[i].ID
	}
	return ""
}

// presetIndex is the index of the preset s equals (whatever the shared
// room, and in a room whatever the seed: each device draws its own), or -1.
func presetIndex(s fleet.Scenario) int {
	inRoom := s.Room != ""
	s.Room = ""
	enc := s.Encode()
	for i, pe := range presetEncodings() {
		if inRoom { // compared with the preset's seed
			if seed := fleet.Presets[i].Scenario().Seed; s.Seed != seed {
				s.Seed = seed
				enc = s.Encode()
			}
		}
		if pe == enc {
			return i
		}
	}
	return -1
}

// presetEncodings are the presets' configurations (without a room) as
// query strings, computed once.
var presetEncodings = sync.OnceValue(func() []string {
	out := make([]string, len(fleet.Presets))
	for i, p := range fleet.Presets {
		s := p.Scenario()
		s.Room = ""
		out[i] = s.Encode()
	}
	return out
})

// EndpointURL is the mock URL of the configuration, as curl would call it
// (on the page's own origin, with the last run's key).
func (l *Lab) EndpointURL() string {
	if l.s.Target != "" {
		return l.s.Target
	}
	origin := "http://localhost:8080"
	if l.page != nil {
		origin = l.page.Scheme + "://" + l.page.Host
	}
	key := l.runKey
	if key == "" {
		key = fleet.TryKey
	}
	return l.s.MockURL(origin, key)
}

// newKey is a fresh mock key beginning with prefix ("run-", "rehearsal-"),
// so each run starts with a full limiter.
func newKey(prefix string) string {
	return prefix + strconv.FormatUint(rand.Uint64()>>16, 36)
}

// liveGCPercent is GOGC during a live run (fleet.RelaxGC, which also caps
// the memory limit at 1 GiB). Once a cycle starts marking in wasm it holds
// the page to the end: each cycle of a 500-worker run (500 goroutine
// stacks, ~10 MB of heap) took 60–220 ms, 8 cycles a run at the default
// GOGC, late timers and all. At 2000 the heap may grow to 21 times what is
// live before a cycle: a typical run has none, a very long one a few, and
// the limit keeps a huge one from taking all the tab's memory. The
// settings return after the run (and the collector runs then, with the run
// over).
const liveGCPercent = 2000

// The page's clock lets fleet.Run start the workers in batches, yielding to
// the event loop in between, and core.Do let the page run before an attempt.
var (
	_ fleet.Yielder = browser.Clock{}
	_ core.Pacer    = browser.Clock{}
)

// Run starts a live run of the configuration, unless one is running or a
// field is invalid. ctx is the page's context.
func (l *Lab) Run(ctx app.Context) {
	if !l.CanRun() {
		return
	}
	s := l.s
	rctx, cancel := context.WithCancel(context.Background())
	l.beginRun(cancel)
	l.checkSubdomains(ctx) // again, when the last check got no answer in time
	l.runKey = newKey("run-")
	if s.Room != "" {
		l.runKey = s.Room
	}
	_ = browser.PrepareTimings(250_000, s.Target == "")
	l.hasStats = true
	tr := newFetchTransport(l.pageURL(), l.subdomains, s, l.runKey, l.device)
	l.tr = tr
	l.view.start(s, time.Now(), tr.device) // an empty timeline at once; its origin is set below
	live := &liveRecords{countOnly: true}  // its numbers start with the run (restart, below)
	l.showNewRun(ctx, live)
	var ready <-chan struct{}
	if s.Target == "" {
		// The server's own view: every arrival for the key (the whole room
		// when it is shared), including requests that never got an answer.
		ready = l.openStream(l.runKey, false)
	}
	stream := l.stream
	if stream == nil {
		ready = nil // no stream to wait for
	}
	// The configuration's scheduled outage: fleet.Run asks for it when it
	// is due (not when the run is over or stopped by then).
	runs := l.runs
	tr.onOutage = l.scheduledOutage(l.runKey, func(msg string) {
		ctx.Dispatch(func(ctx app.Context) {
			if l.runs == runs {
				l.Flash(ctx, msg)
			}
		})
	})

	limit := liveMaxRequests
	ctx.Async(func() {
		tr.settle(rctx)
		tickCtx, stopTick := context.WithCancel(context.Background())
		rec, st, disp := runLive(rctx, s, tr, ready, l.view, live, limit, func() {
			go l.tick(ctx, tickCtx, live, 250*time.Millisecond, true)
		})
		stopTick()
		cancel()
		if stream != nil {
			// The last ends (cancellations) reach the stream a moment later.
			go func() {
				_ = browser.Clock{}.Sleep(context.Background(), 300*time.Millisecond)
				stream()
			}()
		}
		ctx.Dispatch(func(app.Context) {
			if l.live != live {
				return // a newer run took over
			}
			l.running, l.stopping = false, false
			l.rec, l.stats, l.disp = rec, st, disp
			l.runRev++
			l.publish()
		})
	})
}

// beginRun readies the page for a new run, live or simulated, or a watch:
// it ends what the last one left going (its message, the rehearsal, a
// replay, the arrivals stream, its context), forgets its recording,
// numbers and summary, counts the run and takes cancel as its Stop. Run,
// Simulate and Watch then set what is theirs; showNewRun shows a run.
func (l *Lab) beginRun(cancel context.CancelFunc) {
	l.dismissToast()
	l.cancelRehearsal()
	l.StopReplay()
	l.closeStream()
	if l.cancel != nil {
		l.cancel()
	}
	l.cancel = cancel
	l.runs++
	l.running, l.stopping, l.watched = true, false, false
	l.rec, l.stats, l.disp = nil, fleet.Stats{}, 0
	l.summary = runSummary{} // nor its recording kept alive by the summary's key
}

// showNewRun makes live the records of the run just begun (beginRun), whose
// numbers the page shows, and shows the run.
func (l *Lab) showNewRun(ctx app.Context, live *liveRecords) {
	l.live = live
	l.runRev++
	l.publish()
	l.showRun(ctx)
}

// streamWait is how long a live run waits for its arrivals stream to open
// before it starts without it. The stream's hello comes within
// milliseconds here; on a loaded machine a new page's first stream took
// longer than the 500 ms this was, and the arrivals before it opened
// (the first 230 ms of a run whose every attempt hung) were never seen:
// no arrival number for those attempts, none in the server panel (found
// by a review). A stream that cannot open at all delays the run this long.
const streamWait = 2 * time.Second

// runLive is a live run's course, Run's and the rehearsal's: it lets the
// arrivals stream open first (ready, up to streamWait; nil: no stream), so
// that the stream sees the first wave, calls started, then runs s against
// tr from that moment, each record to live and v as it comes, and ends
// v's run. It returns the recording with its numbers.
func runLive(rctx context.Context, s fleet.Scenario, tr *fetchTransport, ready <-chan struct{}, v *view, live *liveRecords, limit int, started func()) (*fleet.Recording, fleet.Stats, float64) {
	if ready != nil {
		wait, cancelWait := context.WithTimeout(rctx, streamWait)
		select {
		case <-ready:
		case <-wait.Done():
		}
		cancelWait()
	}
	started()
	restoreGC := fleet.RelaxGC(liveGCPercent)
	// One origin for the timeline, the live numbers, the final numbers
	// and the exports: the run starts now, after the stream's hello
	// (up to streamWait), not when Run was pressed. fleet.Run reads its
	// Start from here too.
	start := browser.Clock{}.Now()
	live.restart(start)
	v.start(s, start, tr.device)
	rec := fleet.RunFrom(rctx, start, s, tr, browser.Clock{}, fleet.RunOptions{MaxRequests: limit}, func(r fleet.Record) {
		live.add(r)
		v.onRecord(r)
	})
	restoreGC()
	end, ok := rec.End()
	if !ok {
		end = time.Now()
	}
	v.finish(end)
	st, disp := rec.Numbers(rec.Shared()) // the run is over: no copy
	return rec, st, disp
}

// tick refreshes the live numbers (and the status with them) while a run
// (running) or a replay goes on, every `every` at most and no more often
// than ten times the cost of computing them.
func (l *Lab) tick(ctx app.Context, tickCtx context.Context, live *liveRecords, every time.Duration, running bool) {
	gap := every
	for {
		if (browser.Clock{}).Sleep(tickCtx, gap) != nil {
			return
		}
		t0 := time.Now()
		var now time.Time
		if running {
			now = browser.Clock{}.Now()
		}
		st, disp := live.stats(now)
		gap = max(every, 10*time.Since(t0))
		ctx.Dispatch(func(app.Context) {
			if l.live != live || !l.numbersSoFar() {
				return
			}
			l.stats, l.disp = st, disp
			l.runRev++
			l.publish()
		})
	}
}

// LiveMaxRequests is the most requests a live run sends
// (fleet.RunOptions). The tab keeps every attempt of the run it shows (its
// recording, its timeline, the server's arrivals for it): about 2 KB a
// request (24 MB after a 500-worker run of 11,700 requests), so the limit
// keeps a run's memory near 200 MB. Left running, the tab would reach the
// memory limit (fleet.RelaxGC) in minutes, then freeze in every
// collection. A run that reaches it sends nothing more, takes the answers
// in flight in, and the status says where it stopped. On this project's
// two-core machine the fastest run (500 workers, no latency) sends ~700
// requests a second: the limit is over two minutes of that.
const LiveMaxRequests = 100_000

// liveMaxRequests is LiveMaxRequests, lowered by tests through the page's
// hook (window.retrylab.requestLimit) to reach it in seconds.
var liveMaxRequests = LiveMaxRequests

// SimMaxAttempts is the most attempts a simulation from the page sends: at
// most a few hundred megabytes of records in the tab. A simulation that
// reaches it cancels its unfinished jobs, and the status says so.
const SimMaxAttempts = 300_000

// Simulate runs the configuration in virtual time (fleet.SimulateWith),
// unless a run is going on or it cannot be simulated, and draws the
// recording through the same path as a live run: the view's records, its
// model and paint, the same Stats. It waits for a frame first, so
// "Simulating…" is on screen. The simulation shares the page's only
// thread: every loadSlice it lets the event loop run (input, painting), so
// the page stays live, the status tells how far it has come, and Stop
// interrupts it (a simulation of 300,000 attempts held the thread for
// 1.8–6.1 s in one task; a soak review). Taking its records in (the
// timeline's model and the numbers) is done in slices too.
func (l *Lab) Simulate(ctx app.Context) {
	if !l.CanSimulate() {
		return
	}
	s := l.s
	at := time.Now()
	sctx, cancel := context.WithCancel(context.Background())
	l.beginRun(cancel)
	l.runKey = ""
	l.simulating, l.hasStats = true, false
	l.simSum, l.simSoFar, l.simDrawing = fleet.SimSummary{}, sim.Progress{}, false
	l.tr = nil
	live := &liveRecords{}
	l.showNewRun(ctx, live)
	ctx.Async(func() {
		// Let the browser paint "Simulating…" before the thread is busy.
		browser.Clock{}.AfterPaint(context.Background())
		// The run shown goes first, and its garbage with it: the
		// simulation runs with the collector paused, and wasm's memory
		// never shrinks, so each one's peak over the last run's model
		// stayed for good (three of 300,000 attempts took it from 658 to
		// 1,044 and 1,203 MB; a soak review).
		l.view.forget(s)
		runtime.GC()
		rec, sum := fleet.SimulateWith(s, fleet.SimOptions{MaxAttempts: SimMaxAttempts, Interrupt: sharing(
			func() bool { return sctx.Err() != nil },
			func(p sim.Progress) {
				ctx.Dispatch(func(app.Context) {
					if l.live == live && l.simulating {
						l.simSoFar, l.simDrawing = p, p.Over
						l.runRev++ // the run bar shows it, whichever component started the simulation
						l.publish()
					}
				})
			})})
		cancel()
		// The simulation ran with the collector paused; its first cycle
		// must mark every record (a few hundred megabytes). In wasm the
		// collector shares the page's only thread and, once started, marks
		// to the end without letting the event loop run: collect now, in a
		// task of its own (65–240 ms), before the timeline's model adds to
		// the heap, rather than at some moment later.
		browser.Clock{}.Yield(context.Background())
		runtime.GC()
		l.view.computed()
		recs := rec.Shared() // finished: read-only from here on
		live.set(recs)
		st, disp := l.view.load(s, rec, recs)
		ctx.Dispatch(func(ctx app.Context) {
			if l.live != live {
				return
			}
			late := l.stopping && !sum.Interrupted
			l.running, l.simulating, l.stopping, l.simDrawing = false, false, false, false
			l.rec, l.stats, l.hasStats, l.disp, l.simSum, l.simAt = rec, st, true, disp, sum, at
			l.runRev++
			l.publish()
			switch {
			case rec.Err != nil:
				l.Flash(ctx, "Simulation failed: "+rec.Err.Error())
			case late:
				l.Flash(ctx, "Stop came once the simulation was computed: it is shown whole.")
			}
		})
	})
}

// simProgressEvery is how often the status tells how far a simulation has
// come: each telling renders the page.
const simProgressEvery = 200 * time.Millisecond

// sharing is a fleet.SimOptions.Interrupt for a simulation on the page's
// thread: it lets the event loop run once loadSlice has passed since it
// last did, tells how far the simulation has come (told, if not nil) at
// most every simProgressEvery, and at once when it is over (Progress.Over),
// and stops it once stop (if not nil) says so.
func sharing(stop func() bool, told func(sim.Progress)) func(sim.Progress) bool {
	var sl slicer
	sl.t0 = time.Now()
	last, over := sl.t0, false
	return func(p sim.Progress) bool {
		if told != nil && p.Over && !over {
			over = true
			told(p)
		}
		if time.Since(sl.t0) > loadSlice {
			if told != nil && !p.Over && time.Since(last) >= simProgressEvery {
				last = time.Now()
				told(p)
			}
			sl.yield()
		}
		return stop != nil && stop()
	}
}

// Simulated reports whether the run shown was simulated.
func (l *Lab) Simulated() bool { return l.rec != nil && l.rec.Simulated }

// SimulatedText describes the simulated run shown, for the PNG's title:
// "Simulated in virtual time — 10,000 workers, 50,000 jobs, computed in
// 0.7 s", and the attempt limit when it was reached. "" when the run shown
// was not simulated.
func (l *Lab) SimulatedText() string {
	if !l.Simulated() {
		return ""
	}
	s := l.rec.Scenario
	t := "Simulated in virtual time — " + thousands(s.Workers) + " workers, " + thousands(jobsOf(s)) + " jobs, computed in " + l.simTook()
	if l.simSum.Stopped || l.simSum.Interrupted {
		t += "; " + l.simStopped()
	}
	return t
}

// simTook is how long the simulation shown took to compute: "7.0 ms",
// never "0 µs".
func (l *Lab) simTook() string {
	switch w := l.simSum.Wall; {
	case w >= time.Second:
		return FormatMeasured(w.Round(10 * time.Millisecond))
	case w >= time.Millisecond:
		return fmtDur(w.Round(time.Millisecond))
	}
	return "under 1 ms"
}

// simStopped says where the simulation shown was stopped, at the attempt
// limit or by Stop, accounting for every job it did not finish.
func (l *Lab) simStopped() string {
	s := l.rec.Scenario
	t := "it stopped at the limit of " + thousands(SimMaxAttempts) + " attempts"
	if l.simSum.Interrupted {
		t = "Stop ended it after " + thousands(l.simSum.Attempts) + " attempts"
	}
	t += ": " + thousands(l.stats.Cancelled) + " jobs in progress were cancelled"
	if n := neverStarted(&l.stats, jobsOf(s)); n > 0 {
		t += " and " + thousands(n) + " never started"
	}
	return t
}

// Stop aborts every request in flight and ends every wait of the run at
// once, by cancelling its context as soon as "Stopping…" is painted.
func (l *Lab) Stop() {
	if l.replaying {
		l.StopReplay()
		return
	}
	if !l.running || l.cancel == nil || l.stopping || l.simDrawing {
		return
	}
	l.stopping = true
	l.runRev++
	l.publish()
	// Cancelling wakes every worker at once: with 500 of them, aborting
	// their fetches and ending their waits holds the thread ~200 ms. Done
	// in the click's own task, "Stopping…" reached the screen only after
	// it (184–336 ms from click to paint); after the next frame it shows
	// first (24–72 ms; BenchmarkResponsiveLiveRun).
	cancel := l.cancel
	go func() {
		browser.Clock{}.AfterPaint(context.Background())
		cancel()
	}()
}

// openStream opens the mock's arrivals stream for key into the view (l.stream
// closes it); the returned channel receives once the stream says hello.
// With retry (a watch, which sees nothing without it) a stream the server
// refused is opened again; a run's is not: the run draws its server panel
// from the answers without it, and a stream opened late would replace
// them with the arrivals since (a review).
func (l *Lab) openStream(key string, retry bool) <-chan struct{} {
	hello, stop, err := streamInto(l.pageOrigin(), key, retry, l.view)
	if err == nil {
		l.stream = stop
	}
	return hello
}

// streamInto opens the arrivals stream of the mock at origin for key into
// v (with retry: again if the server refused it); the returned channel
// receives once the stream says hello, and stop closes it.
func streamInto(origin, key string, retry bool, v *view) (hello <-chan struct{}, stop func(), err error) {
	h := make(chan struct{}, 1)
	v.opening(time.Now())
	stop, err = browser.Stream(origin+"/mock/events?key="+url.QueryEscape(key), retry, func(data string) {
		if v.onServerEvent(data) {
			select {
			case h <- struct{}{}:
			default:
			}
		}
	})
	return h, stop, err
}

// closeStream closes the arrivals stream of the last run, if still open.
func (l *Lab) closeStream() {
	if l.stream != nil {
		l.stream()
		l.stream = nil
	}
}

// pageOrigin is the page's scheme://host.
func (l *Lab) pageOrigin() string { return pageOrigin(l.pageURL()) }

// spread reports whether the workers call the mock on *.localhost origins
// (MockOrigin): the page is on this machine, and the browser was not found
// unable to reach them.
func (l *Lab) spread() bool { return sharded(l.pageURL()) && !l.subdomains.failed() }

// subdomainsMsg is the short message of a browser that does not reach the
// *.localhost origins.
const subdomainsMsg = "This browser did not reach w0.localhost (Safari, for one, resolves no *.localhost name), so every worker calls this page's own origin: " +
	"past five requests in flight the browser holds them back, drawn as “held by the browser”. Chrome, Edge and Firefox spread the workers over *.localhost origins."

// serverDownMsg says that Retry Lab's server does not answer the page:
// stopped, the page opened from the service worker's cache.
func (l *Lab) serverDownMsg() string {
	return "The server at " + l.pageURL().Host + " is not answering (stopped?): a Run's requests would all fail until it is back. Simulate works without it."
}

// checkSubdomains asks, once the page has painted, whether the browser
// reaches the mock on the *.localhost origins the workers are spread over
// (subdomainCheck): a page on this machine only. Where it does not, the
// page says so in a short message, and the endpoint's title after it. A
// run started before the answer waits for it (fetchTransport.settle). It
// asks once, and again only after a check that got no answer in time.
func (l *Lab) checkSubdomains(ctx app.Context) {
	if !app.IsClient || (l.subdomains != nil && !l.subdomains.expired()) || l.page == nil || !sharded(l.page) {
		return
	}
	c := newSubdomainCheck(l.page, newKey("origins-"), func() { browser.Clock{}.AfterPaint(context.Background()) }, browser.FetchOpen)
	l.subdomains = c
	ctx.Async(func() {
		<-c.done
		ctx.Dispatch(func(ctx app.Context) {
			l.publish()
			switch {
			case c.serverDown && !l.running:
				l.Flash(ctx, l.serverDownMsg())
			case c.unreachable && !c.timedOut:
				l.Flash(ctx, subdomainsMsg)
			}
		})
	})
}

// subdomainsState is the check's state for window.retrylab.state().
func (l *Lab) subdomainsState() string {
	switch c := l.subdomains; {
	case c == nil:
		return ""
	case c.pending():
		return "checking"
	case c.failed():
		return "not reached"
	case c.down():
		return "server down"
	}
	return "reached"
}

func (l *Lab) pageURL() *url.URL {
	if l.page != nil {
		return l.page
	}
	return &url.URL{Scheme: "http", Host: "localhost:8080", Path: "/"}
}

// CORSNote explains what a custom target may be hiding, or "".
//
// Under another target than the last run's, it says which it is about: a
// note on the last URL's network errors read as one on the URL typed since
// (a review).
func (l *Lab) CORSNote() string {
	note := l.tr.corsNote()
	if note != "" && l.rec != nil && l.rec.Scenario.Target != l.s.Target {
		note = "The last run, at " + l.rec.Scenario.Target + ": " + note
	}
	return note
}

// toastID is the short message's element.
const toastID = "toast"

// Flash shows a short message for a few seconds (toastTime), at the foot of the
// screen, or nearest it where it covers none of the page's text
// (browser.ClearSpot), and moves it when the page moves under it.
func (l *Lab) Flash(ctx app.Context, msg string) {
	l.toastN++
	n := l.toastN
	l.toast, l.toastAt, l.toastTop, l.toastSet = msg, "", -1, false
	l.runRev++
	// Drawn where it covers no text the page shows (it covered "Fix 3
	// fields to copy the link…" under the exports at 1400 × 1000), once
	// the page has drawn it.
	// (A Flash from another component than the run bar's parent may come
	// before the run bar drew it: then after the next paint.)
	place := func(force, last bool) bool {
		if l.toastN != n {
			return true
		}
		at, top, err := browser.ClearSpot(toastID, force, canvasID, l.view.textBands())
		if err == nil && (at != l.toastAt || top != l.toastTop || !l.toastSet) {
			l.toastAt, l.toastTop = at, top
			l.toastSet = true
			l.runRev++
		} else if err != nil && last {
			l.toastSet = true
			l.runRev++
		}
		return err == nil
	}
	ctx.Defer(func(ctx app.Context) {
		if !place(true, false) {
			ctx.Async(func() {
				browser.Clock{}.AfterPaint(context.Background())
				ctx.Dispatch(func(app.Context) { place(true, true) })
			})
		}
	})
	// While it shows, it is placed again whenever the page has moved
	// under it (a simulation's numbers came in, presentation mode, a
	// scroll): placed once, it was left over a field and the legend.
	ctx.Async(func() {
		end := time.Now().Add(toastTime(msg))
		for left := time.Until(end); left > 0; left = time.Until(end) {
			_ = browser.Clock{}.Sleep(context.Background(), min(toastLook, left))
			ctx.Dispatch(func(app.Context) {
				if l.toastN == n && l.toastSet {
					place(false, false)
				}
			})
		}
		ctx.Dispatch(func(app.Context) {
			if l.toastN == n {
				l.toast = ""
				l.runRev++
			}
		})
	})
}

// toastLook is how often a short message looks whether the page has
// moved under it.
const toastLook = 250 * time.Millisecond

// dismissToast takes the short message away at once: a run, a simulation
// or a watch starting makes what it said old news ("Compare: finish a run
// first" stayed over the simulation that had just finished).
func (l *Lab) dismissToast() {
	if l.toast != "" {
		l.toastN++
		l.toast = ""
		l.runRev++
	}
}

// toastTime is how long a short message shows: 2.5 s, or the time to read
// it, at 50 ms a character (20 a second), when that is longer.
func toastTime(msg string) time.Duration {
	return max(2500*time.Millisecond, time.Duration(utf8.RuneCountInString(msg))*50*time.Millisecond)
}

// snapshot is what window.retrylab.state() returns: its tags are the keys
// writeJSON writes (statejson.go).
type snapshot struct {
	Running          bool               `json:"running"`
	Simulating       bool               `json:"simulating"` // a simulation is being computed
	Simulated        bool               `json:"simulated"`  // the run shown was simulated in virtual time
	SimWallMS        float64            `json:"sim_wall_ms,omitempty"`
	SimStopped       bool               `json:"sim_stopped,omitempty"`         // the simulation reached its attempt limit
	SimAttemptsSoFar int                `json:"sim_attempts_so_far,omitempty"` // attempts the simulation going on has sent so far
	SimInterrupted   bool               `json:"sim_interrupted,omitempty"`     // Stop interrupted the simulation
	Capped           bool               `json:"capped,omitempty"`              // the live run shown was stopped at the request limit
	Runs             int                `json:"runs"`
	RunKey           string             `json:"run_key"`
	Stats            map[string]float64 `json:"stats"`
	Invalid          int                `json:"invalid"`
	Preset           string             `json:"preset"`
	Baseline         *baselineState     `json:"baseline,omitempty"`   // the run kept for comparison
	Replaying        bool               `json:"replaying"`            // a replay of the finished run goes on
	Watching         bool               `json:"watching"`             // running is a watch of the shared room
	Watched          bool               `json:"watched"`              // the numbers are a watch's (stats holds them)
	WatchOpen        bool               `json:"watch_open"`           // the watched room's stream is open
	Rehearsal        rehearsalState     `json:"rehearsal"`            // the page's rehearsal of a run (rehearsal.go)
	Subdomains       string             `json:"subdomains,omitempty"` // the check of the *.localhost origins: checking, reached, not reached
	live             *liveRecords
}

// statList is the numbers shown: the run's, or a watch's.
func (l *Lab) statList() []stat {
	if l.watched {
		return watchStatList(l.wstats)
	}
	simulated := l.simulating || l.Simulated()
	jobs := 0 // of a finished run: every job it was set up with
	if l.rec != nil && !l.numbersSoFar() {
		jobs = jobsOf(l.rec.Scenario)
	}
	cur := statList(&l.stats, l.disp, l.runEnd(), jobs)
	if l.numbersSoFar() {
		cur = soFar(cur)
	}
	// No answer told its queueing: 0 is no measurement (the export's
	// queued_p99_ms is null then).
	untimed := !simulated && l.stats.QueuedN == 0 && l.stats.Requests > 0
	again := 0 // the requests the browser sent again after a drop (withSentAgain)
	if simulated {
		unmeasuredInSim(cur)
	} else if !l.replaying {
		again = l.view.sentAgain()
	}
	for i := range cur {
		switch {
		case again > 0 && cur[i].Name == "requests":
			withSentAgain(&cur[i], again)
		case untimed && cur[i].Name == "queued_p99_ms":
			// Network errors, timeouts, aborts: the browser tells nothing.
			cur[i].NotMeasured, cur[i].Full = "not measured: no answer told it", ""
			if l.shownScenario().Target != "" && l.stats.OK+l.stats.Limited > 0 {
				// Cross-origin, the browser tells a request's queueing
				// only when the server sends Timing-Allow-Origin.
				cur[i].NotMeasured = "not measured: your server sends no Timing-Allow-Origin"
			}
		}
	}
	switch {
	case l.base != nil && l.hasStats && !l.showingBaseline():
		cut := l.base.end.cut() || l.shownCut()
		cur = withBaseline(cur, l.base.list, simulated != l.base.simulated, jobsOf(l.shownScenario()) != jobsOf(l.base.scen), cut)
	case l.base != nil && !l.hasStats:
		// No run yet (a shared link with a baseline): the baseline's
		// figures, the numbers to beat, in the room their cards keep for
		// them, which stood empty (a review).
		cur = withBaseline(cur, l.base.list, l.base.simulated, false, false) // a simulation measured no page timing
		for i := range cur {
			cur[i].NoDelta = true
			cur[i].HasBase = cur[i].HasBase && cur[i].BaseText != "–" // a figure the baseline did not measure
		}
	}
	return cur
}

// runEnd is how the run whose numbers are shown ended (so far: a run or a
// replay going on has not ended, and counts only the jobs cancelled by
// then).
func (l *Lab) runEnd() runEnd {
	rec := l.rec
	if l.numbersSoFar() {
		rec = nil
	}
	return endOf(l.simulating || l.Simulated(), l.atLimit(), cutShort(&l.stats, rec))
}

// shownCut reports whether the run whose numbers are shown ended cut
// short (by Stop, or at a limit); one not over yet has not.
func (l *Lab) shownCut() bool { return !l.numbersSoFar() && l.runEnd().cut() }

// numbersSoFar reports whether the numbers shown count a run not over, up
// to now: a run or a simulation going on, or a replay up to its playhead.
// They are not judged against a baseline until it ends (stat.SoFar).
func (l *Lab) numbersSoFar() bool { return l.running || l.replaying }

// atLimit reports whether the run shown was stopped at the page's limit:
// a simulation's attempts (SimMaxAttempts), a live run's requests
// (liveMaxRequests, which its Recording says).
func (l *Lab) atLimit() bool {
	if l.simulating || l.Simulated() {
		return l.simSum.Stopped
	}
	return l.rec != nil && l.rec.Limited
}

// shownScenario is the configuration of what the numbers and the timeline
// show: the finished run's, or, during a run and before any, the page's.
func (l *Lab) shownScenario() fleet.Scenario {
	if l.rec != nil {
		return l.rec.Scenario
	}
	return l.s
}

// publish refreshes the snapshot the JS hooks read.
func (l *Lab) publish() {
	s := &snapshot{Running: l.running, Runs: l.runs, RunKey: l.runKey, Invalid: l.Invalid(), live: l.live, Stats: map[string]float64{}}
	s.Simulating = l.simulating
	if l.simulating {
		s.SimAttemptsSoFar = l.simSoFar.Attempts
	}
	s.Capped = !l.Simulated() && l.atLimit()
	if l.Simulated() {
		s.Simulated, s.SimWallMS, s.SimStopped, s.SimInterrupted = true, float64(l.simSum.Wall)/1e6, l.simSum.Stopped, l.simSum.Interrupted
	}
	for _, st := range l.statList() {
		s.Stats[st.Name] = st.Value
	}
	s.Watching, s.Watched, s.WatchOpen = l.watching, l.watched, l.watchOpen
	s.Replaying = l.replaying
	s.Rehearsal = l.rehearsal
	s.Subdomains = l.subdomainsState()
	s.Preset = l.ActivePreset()
	if l.base != nil {
		b := &baselineState{Label: l.base.label(), Stats: map[string]float64{}}
		for _, st := range l.base.list {
			b.Stats[st.Name] = st.Value
		}
		s.Baseline = b
	}
	l.snap.Store(s)
}

// presentStorageKey keeps presentation mode in the browser's local
// storage: a projector's page reloaded, or opened from a shared link,
// comes back in it.
const presentStorageKey = "retrylab.present"

// shortcutsStorageKey keeps, in local storage, the single-key shortcuts
// switched off: a speech-input user (whose words type letters) or a stray
// key could otherwise take a shared room's server down or burst it, for
// everyone in the workshop (WCAG 2.1.4, found by an accessibility review).
const shortcutsStorageKey = "retrylab.shortcuts-off"

// SetShortcuts switches the single-key shortcuts on or off, and remembers
// it in st. Off, the page takes no key but Escape (Stop, and closing a
// dialog), and the focused timeline's own keys.
func (l *Lab) SetShortcuts(on bool, st storage) {
	l.keysOff.Store(!on)
	_ = st.Set(shortcutsStorageKey, !on)
}

// adoptShortcuts switches the shortcuts off when st remembers them off.
func (l *Lab) adoptShortcuts(st storage) {
	var off bool
	if st.Get(shortcutsStorageKey, &off) == nil {
		l.keysOff.Store(off)
	}
}

// takesKey reports whether the page takes key as a shortcut now: one it
// has (isShortcut), and the shortcuts are on, or it is Escape.
func (l *Lab) takesKey(key string) bool {
	return isShortcut(key) && (key == "Escape" || !l.keysOff.Load())
}

// watchStorageKey keeps, in the tab's session storage, the room a watch
// goes on in: the watch ends with the page, and a reload of the projector
// (or a crash of its tab, restored) should not end it silently.
const watchStorageKey = "retrylab.watching"

// adoptWatch starts the watch again after a reload of a page that was
// watching the room it is still set to, and says so: the counts start
// again from zero (the server keeps no history).
func (l *Lab) adoptWatch(ctx app.Context) {
	var room string
	if ctx.SessionStorage().Get(watchStorageKey, &room) != nil || room == "" {
		return
	}
	if room != l.s.Room || !l.CanWatch() {
		_ = ctx.SessionStorage().Set(watchStorageKey, "")
		return
	}
	l.Watch(ctx)
	l.Flash(ctx, "Watching room “"+room+"” again after the reload: the counts start from now")
}

// TogglePresent switches presentation mode (large type, high contrast) and
// remembers the choice in st.
func (l *Lab) TogglePresent(st storage) {
	l.setPresent(!l.present)
	_ = st.Set(presentStorageKey, l.present)
}

// adoptPresent switches presentation mode on when st remembers it on.
func (l *Lab) adoptPresent(st storage) {
	var on bool
	if st.Get(presentStorageKey, &on) == nil && on != l.present {
		l.setPresent(on)
	}
}

func (l *Lab) setPresent(on bool) {
	l.present = on
	l.view.setTheme(on, l.dark)
	l.runRev++
	l.cfgRev++
}

// setDark follows the system's colour scheme: the page's colours follow it
// in CSS (web/app.css), the canvas's here (pickTheme).
func (l *Lab) setDark(dark bool) {
	l.dark = dark
	l.view.setTheme(l.present, dark)
}

// lanesOnScreen is how much of the timeline, CSS px, a projector shows
// when a run starts: its axis row and about 100 px of lanes.
const lanesOnScreen = 140

// stageID is the run's section: its bar, the numbers, the legend, the
// timeline.
const stageID = "stage"

// showRun, in presentation mode, brings the run (its bar, the numbers, the
// legend and the timeline) to the top of the screen when fewer than
// lanesOnScreen px of the timeline show: on a 1024 × 768 projector the
// header, the story's two rows of steps, its caption and the numbers left
// 60–100 px of it above the fold, four lanes, for the whole run. On a
// larger screen, or scrolled to the timeline already, the page stays put.
// With a baseline's banner above the numbers (the timeline's top then 98
// px above the fold with the run bar at the screen's top), the banner goes
// to the top, the run bar above it. It measures the page as the run draws
// it, after this update.
func (l *Lab) showRun(ctx app.Context) {
	if l.present {
		ctx.Defer(func(app.Context) { _ = browser.BringUp(stageID, canvasID, lanesOnScreen) })
	}
}

// ToggleTimeline (the t key) brings the whole timeline into view, its top
// right under the legend stuck to the screen's top, and gives it the
// keyboard focus (the arrows walk its attempts); pressed on the focused
// timeline, it goes back up to the run's bar. In presentation mode at
// 1280 × 720 the first screen shows the numbers and the top lanes
// (showRun): the histogram, the flood's picture, is one key away. There a
// timeline taller than the screen under the legend (its lanes fitted to
// it are 4 px at the thinnest: 628 px for 50 workers) shows its foot
// instead: the histogram, the server's arrivals and the time axis with its
// caption, "time since Run", which was cut off the screen's bottom; the
// top lanes go under the sticky axis, which keeps the time scale in view.
func (l *Lab) ToggleTimeline() { _ = browser.ToggleView(canvasID, legendID, stageID, l.present) }

// presetIDs lists the presets in keyboard order (1, 2, …).
func presetIDs() []string {
	ids := make([]string, len(fleet.Presets))
	for i, p := range fleet.Presets {
		ids[i] = p.ID
	}
	return ids
}
