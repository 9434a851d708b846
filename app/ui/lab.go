package ui

import (
	"context"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	// unread is what the waits of the run of 'of' fell back to for a
	// Retry-After they could not read (unreadNote), counted once per run
	// shown.
	unread struct {
		of *fleet.Recording
		n  unreadRetryAfter
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
	simDrawing bool         // the simulation going on is computed, and being drawn (Stop leaves it undrawn)
	simDrop    *atomic.Bool // Stop came as the simulation going on was drawn: it is dropped, undrawn (simDropping; read by its goroutine too)
	watching   bool         // running is a watch of the shared room (no fleet)
	watched    bool         // what is shown is a watch: the numbers are wstats
	wstats     watchStats
	watchRoom  string           // the room watched
	watchOpen  bool             // the room's stream said hello
	watchFull  bool             // the watch stopped at WatchMaxArrivals
	watchAgain bool             // the watch was started again by a reload (adoptWatch): its counts are since
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
		!strings.EqualFold(u.Hostname(), page.Hostname()) && !(reachedByLocalhostNames(page.Hostname()) && reachedByLocalhostNames(u.Hostname())) {
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
		l.keepCustom()
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
	l.keepCustom()
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
			if seed := presetScenarios()[i].Seed; s.Seed != seed {
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

// presetScenarios are the presets' configurations, computed once.
var presetScenarios = sync.OnceValue(func() []fleet.Scenario {
	out := make([]fleet.Scenario, len(fleet.Presets))
	for i, p := range fleet.Presets {
		out[i] = p.Scenario()
	}
	return out
})

// presetEncodings are the presets' configurations (without a room) as
// query strings, computed once.
var presetEncodings = sync.OnceValue(func() []string {
	out := make([]string, len(fleet.Presets))
	for i, s := range presetScenarios() {
		s.Room = ""
		out[i] = s.Encode()
	}
	return out
})

// asPreset is preset i's configuration as s would have it: in s's room,
// and in a room with s's seed (each device draws its own). presetIndex
// compares s with the presets so.
func asPreset(i int, s fleet.Scenario) fleet.Scenario {
	p := presetScenarios()[i]
	p.Room = s.Room
	if s.Room != "" {
		p.Seed = s.Seed
	}
	return p
}

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
	wasDown := l.subdomains.down()
	c := newSubdomainCheck(l.page, newKey("origins-"), func() { browser.Clock{}.AfterPaint(context.Background()) }, browser.FetchOpen)
	l.subdomains = c
	ctx.Async(func() {
		<-c.done
		ctx.Dispatch(func(ctx app.Context) {
			l.publish()
			switch {
			case c.serverDown && !l.running && !wasDown:
				l.Flash(ctx, l.serverDownMsg())
			case c.unreachable && !c.timedOut && !c.serverDown:
				l.Flash(ctx, subdomainsMsg)
			}
		})
		if !c.serverDown {
			return
		}
		// Down, it is asked again every serverDownRecheck, so that the
		// status, which says so, says Ready once the server is back.
		_ = browser.Clock{}.Sleep(context.Background(), serverDownRecheck)
		ctx.Dispatch(func(ctx app.Context) {
			if l.subdomains == c {
				l.checkSubdomains(ctx)
			}
		})
	})
}

// serverDownRecheck is how often the page asks again whether the server
// it found not answering is back.
const serverDownRecheck = 5 * time.Second

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
		case !l.hasStats && cur[i].Name == "first_tries":
			// The label the run's figures will fill, on as many lines:
			// the numbers grew 20 px as a run began at 1024 px in
			// presentation mode, "first tries" taking a second line.
			cur[i].Short = firstTriesShort("– retries")
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
		u, _ := l.judged()
		cur = withBaseline(cur, l.base.list, simulated != l.base.simulated, u)
	case l.base != nil && !l.hasStats:
		// No run yet (a shared link with a baseline): the baseline's
		// figures, the numbers to beat, in the room their cards keep for
		// them, which stood empty (a review).
		cur = withBaseline(cur, l.base.list, l.base.simulated, unjudged{}) // a simulation measured no page timing
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
// it, after this update. Where that leaves lanesOnScreen px of the
// timeline and captionRoom more, the step's caption goes to the top
// instead, over the run bar: the presenter teaches from it, and at 1280 ×
// 690 (a 1280 × 800 laptop's browser window) the run bar at the top put it
// 100 px above the screen with 305 px of the timeline showing, where the
// caption at the top leaves 205 px (a review;
// TestPresentationRunKeepsTheCaption). At 1024 × 768 it would leave 149 px
// as a run starts, 126 px once a simulation's figures are in: the run bar
// goes to the top there, as before.
func (l *Lab) showRun(ctx app.Context) {
	if l.present {
		ctx.Defer(func(app.Context) {
			_ = browser.BringUp(captionID, stageID, canvasID, lanesOnScreen, lanesOnScreen+captionRoom)
		})
	}
}

// captionRoom is the room, CSS px, showRun leaves for the numbers' cards
// to grow by once a run's figures come in, before it keeps the caption on
// the screen: they grew by 18–23 px at 1024 × 768 (two lines of a card's
// 15 px sub-line are 38).
const captionRoom = 40

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
