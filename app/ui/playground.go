package ui

import (
	"context"
	"slices"
	"strconv"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// Playground is the Retry Lab page: the story's presets, the controls, the
// run bar, the numbers, the timeline and the exports. It owns the Lab; its
// children render from it and call it.
type Playground struct {
	app.Compo

	// Shell renders only the page's header: what the server prerenders
	// (Routes sets it there). go-app's loader covers the prerendered page
	// until the wasm mounts the real one in its place, so the full page
	// was never seen, yet its style and layout (~130 ms on a 2-core
	// machine) ran before app.js could start streaming app.wasm.
	Shell bool

	lab   *Lab
	ready bool
	// groups is how many of the settings' groups are mounted (Controls.Groups);
	// 0: all, the page settled (main[data-settled="true"]). In the browser
	// the first mount has the first group alone, and the rest come after
	// its paint, in mountSteps.
	groups   int
	removers []func()
}

// OnInit creates the page's state. In the browser it reads the
// configuration from the address here, before the first render: read in
// OnNav (after the mount) it made go-app render the whole page twice on
// every cold load.
func (p *Playground) OnInit() {
	p.lab = newLab()
	if app.IsClient {
		p.lab.Load(app.Window().URL())
		p.groups = 1
	}
}

// OnNav sets the title; the configuration is read once (Load ignores later
// navigations).
func (p *Playground) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Retry Lab — see what retries do to a server")
	p.lab.Load(ctx.Page().URL())
}

// hooksOnce publishes window.retrylab once per page: the functions are
// long-lived and read whichever Playground mounted last.
var (
	hooksOnce sync.Once
	hooksLab  struct {
		sync.Mutex
		lab *Lab
	}
)

func currentLab() *Lab {
	hooksLab.Lock()
	defer hooksLab.Unlock()
	return hooksLab.lab
}

// OnMount marks the page interactive (main[data-ready="true"]) and starts
// listening: keyboard shortcuts, page visibility, window size.
func (p *Playground) OnMount(ctx app.Context) {
	p.ready = true
	if mountedAt == 0 {
		mountedAt = browser.Now()
	}
	l := p.lab
	hooksLab.Lock()
	hooksLab.lab = l
	hooksLab.Unlock()
	browser.Prepare() // the long-lived callbacks exist before the first run
	hooksOnce.Do(func() {
		_ = browser.Expose("state", func([]string) string { return currentLab().stateJSON() })
		_ = browser.Expose("debug", func([]string) string { return debugJSON(currentLab().view) })
		_ = browser.Expose("redraw", func([]string) string { return redrawJSON(currentLab().view) })
		_ = browser.Expose("synthetic", func(args []string) string { return syntheticJSON(currentLab(), args) })
		_ = browser.Expose("requestLimit", requestLimitJSON)
	})
	if stop, err := browser.WatchVisibility(l.view.setHidden); err == nil {
		p.removers = append(p.removers, stop)
	}
	l.view.setHidden(browser.Hidden())
	l.view.setPaced(browser.PacesRequests())
	// WatchDark answers at once, within the call, on this goroutine: the
	// canvas takes its colours before its first frame. A change of the
	// system's scheme comes later, on a JS callback, and is dispatched.
	watching := false
	if stop, err := browser.WatchDark(func(dark bool) {
		if !watching {
			l.setDark(dark)
			return
		}
		ctx.Dispatch(func(app.Context) { l.setDark(dark) })
	}); err == nil {
		p.removers = append(p.removers, stop)
	} else {
		// Light, but grown with the person's font size (pickTheme), as
		// the page's --axis-room is: the view starts on the bare theme.
		l.setDark(false)
	}
	watching = true
	l.adoptDevice(ctx.SessionStorage())
	l.adoptPresent(ctx.LocalStorage())
	l.adoptShortcuts(ctx.LocalStorage())
	l.adoptDraft(ctx.SessionStorage())
	l.adoptCustom(ctx.SessionStorage())
	var rename func(string)
	rename, stop, err := browser.ClaimName(deviceChannel, l.device, func() {
		ctx.Dispatch(func(ctx app.Context) { rename(l.renameDevice(ctx.SessionStorage())) })
	})
	if err == nil {
		p.removers = append(p.removers, stop)
	}
	l.simulateBaseline(ctx)
	if stop, err := browser.ListenKeys(func(key string, inField, modified bool) bool {
		return p.onKey(ctx, key, inField, modified)
	}); err == nil {
		p.removers = append(p.removers, stop)
	}
	// Focus kept on the page when a control pressed with the keyboard is
	// disabled or removed by what it does (browser.FocusNextAttr).
	if stop, err := browser.KeepFocus("run-status"); err == nil {
		p.removers = append(p.removers, stop)
	}
	// The timeline's summary counts in the histogram's bins: when a frame
	// draws it in others (a narrower canvas), the page renders it again.
	l.view.setOnBin(func() { ctx.Dispatch(func(app.Context) {}) })
	l.adoptWatch(ctx)
	if p.groups != 0 {
		ctx.Async(func() { p.mountSettings(ctx) })
	}
	l.checkSubdomains(ctx)
	l.rehearseSoon(ctx)
}

// mountSteps are how many of the settings' groups the page has mounted
// after each paint that follows its first: the groups to the retry budget
// (17 fields), then all (20 more). All at once they took one task of
// 63–114 ms on two cores, at a time the first click may come.
var mountSteps = []int{5, 0}

// mountSettings mounts the settings' other groups, in mountSteps, each
// after the page has painted the last.
func (p *Playground) mountSettings(ctx app.Context) {
	for _, n := range mountSteps {
		browser.Clock{}.AfterPaint(context.Background())
		rendered := make(chan struct{})
		ctx.Dispatch(func(ctx app.Context) {
			p.groups = n
			ctx.Defer(func(app.Context) {
				if n == 0 && settledAt == 0 {
					settledAt = browser.Now()
				}
				close(rendered)
			})
		})
		<-rendered
	}
}

// OnResize redraws the timeline at the new width (and, presenting, to
// the new height).
func (p *Playground) OnResize(ctx app.Context) { p.lab.view.resized() }

// OnDismount stops the run, the rehearsal and the listeners.
func (p *Playground) OnDismount() {
	p.lab.view.setOnBin(nil)
	p.lab.Stop()
	p.lab.cancelRehearsal()
	for _, r := range p.removers {
		r()
	}
	p.removers = nil
}

// setHelp opens or closes the shortcuts dialog, and moves the focus into
// it (its title, at its top: a screen reader reads on from there, and the
// Close button is at its end) or back to what had it before, else to the
// button that opens it (or, over the enlarged QR code, to that code: the
// page behind is inert). That button is in the header: with the page
// scrolled it is off the screen, and the first control in view takes the
// focus instead (browser.FocusInView; TestHelpGivesTheFocusBackInView).
func (l *Lab) setHelp(open bool) {
	l.help = open
	l.runRev++
	if open {
		l.helpBack = browser.FocusedID()
		_ = browser.Focus("help-title")
		return
	}
	back := l.helpBack
	switch {
	case back == "help-open", back == "" && !l.joinBig():
		_ = browser.FocusInView("help-open")
		return
	case back == "":
		back = "join-unzoom"
	}
	_ = browser.Focus(back)
}

// dialog reports whether a dialog is up (the shortcuts, the enlarged QR
// code): the page behind it is inert and takes no shortcut but Escape
// (which closes it) and ? (help).
func (l *Lab) dialog() bool { return l.help || l.joinBig() }

// isShortcut reports whether the page takes key as a shortcut (shortcut
// handles it; the help dialog lists them all, TestShortcutsAreTaken): a
// preset's number only while there is such a preset.
func isShortcut(key string) bool {
	switch key {
	case "r", "R", "m", "M", "w", "W", "s", "S", "c", "C", "o", "O", "h", "H", "b", "B", "+", "=", "-", "0", "a", "A", "d", "D", "y", "Y", "Escape", "p", "P", "t", "T", "u", "U", "?":
		return true
	}
	return slices.Contains(presetKeys(), key)
}

// onKey handles the keyboard shortcuts: r run, m simulate, w watch the
// room, s or Escape stop, c keep the run as the baseline, o server outage,
// h halve the limit, b a burst from another client, + − 0 zoom and a d pan
// a finished run, y replay it, 1–7 presets, u your own configuration back,
// t the timeline and back, p presentation mode, ? help. Keys typed into a field are left alone. It
// runs on a JS callback: the work is dispatched to the UI goroutine.
func (p *Playground) onKey(ctx app.Context, key string, inField, modified bool) bool {
	if inField || modified || !p.lab.takesKey(key) {
		return false
	}
	ctx.Dispatch(func(ctx app.Context) { p.shortcut(ctx, key) })
	return key != "Escape"
}

func (p *Playground) shortcut(ctx app.Context, key string) {
	l := p.lab
	if l.dialog() && key != "Escape" && key != "?" {
		return // the page behind a dialog takes no keys either
	}
	switch key {
	case "r", "R":
		if why := l.RunBlocked(); why != "" {
			l.Flash(ctx, why)
			return
		}
		if l.running { // every other key that cannot act says why (a review)
			l.Flash(ctx, "Run: once this "+l.runNoun()+" is over (s stops it)")
			return
		}
		l.Run(ctx)
	case "m", "M":
		if why := l.SimulateBlocked(); why != "" {
			l.Flash(ctx, why)
			return
		}
		if l.running {
			l.Flash(ctx, "Simulate: once this "+l.runNoun()+" is over (s stops it)")
			return
		}
		l.Simulate(ctx)
	case "w", "W":
		if l.s.Room == "" && !l.running {
			l.Flash(ctx, "Watch room: set a Shared room first")
			return
		}
		l.Watch(ctx)
	case "s", "S":
		l.Stop()
	case "o", "O":
		l.Outage(ctx)
	case "h", "H":
		l.HalveLimit(ctx)
	case "b", "B":
		l.Burst(ctx)
	case "+", "=", "-", "0", "a", "A", "d", "D":
		switch {
		case !l.view.zoomable() && l.running:
			l.Flash(ctx, "Zoom: once this "+l.runNoun()+" is over (s stops it)")
		case !l.view.zoomable():
			l.Flash(ctx, "Zoom: finish a run or a simulation first")
		case key == "+" || key == "=":
			l.Zoom(0.5)
		case key == "-":
			l.Zoom(2)
		case key == "0":
			l.Zoom(0)
		case l.view.zoomText() == "":
			l.Flash(ctx, "a and d move along a zoomed-in run: zoom in first (+)")
		case key == "a" || key == "A":
			l.Pan(-0.25)
		default:
			l.Pan(0.25)
		}
	case "y", "Y":
		l.Replay(ctx)
	case "c", "C":
		if !l.CanCompare() && !l.showingBaseline() {
			l.Flash(ctx, "Compare: finish a run or a simulation first, then keep it as the baseline")
			return
		}
		l.compareAndSay(ctx)
	case "Escape":
		switch {
		case l.help:
			l.setHelp(false)
		case l.joinBig(): // the enlarged QR code goes back, the watch goes on
			l.setJoinBig(false)
		default:
			l.Stop()
		}
	case "u", "U":
		switch {
		case l.running:
			l.Flash(ctx, "u: once this "+l.runNoun()+" is over (s stops it)")
		case !l.CustomKept():
			l.Flash(ctx, "u: nothing to go back to: u restores your own configuration after a step replaced it")
		default:
			l.RestoreCustom()
		}
	case "t", "T":
		l.ToggleTimeline()
	case "p", "P":
		l.TogglePresent(ctx.LocalStorage())
	case "?":
		l.setHelp(!l.help)
	default:
		i := int(key[0] - '1')
		presets := presetIDs()
		switch {
		case i >= len(presets):
		case l.running: // the settings are locked: they were silent
			l.Flash(ctx, "Steps: once this "+l.runNoun()+" is over (s stops it)")
		default:
			l.presetAndSay(ctx, presets[i])
		}
	}
}

// runNoun is what is going on while l.running: a run, a simulation or a
// watch.
func (l *Lab) runNoun() string {
	switch {
	case l.watching:
		return "watch"
	case l.simulating:
		return "simulation"
	}
	return "run"
}

// lockedNote is what the note over the locked settings says: why they
// are locked, the run, simulation or watch going on, and how to unlock
// them; "" when nothing goes on. A watch is no run: it said "while the
// run goes on" while the presenter watched the room (a review).
func (l *Lab) lockedNote() string {
	switch {
	case !l.running:
		return ""
	case l.watching:
		return "Settings are locked while you watch the room: Stop\u00a0(s) to change them."
	}
	return "Settings are locked while the " + l.runNoun() + " goes on: Stop\u00a0(s) to change them."
}

// brand is the header's title and tagline: whole, or where presentation
// mode has less room beside the title, its short form (web/app.css), the
// whole one kept for a screen reader.
func brand() app.UI {
	return app.Div().Class("brand").Body(
		app.H1().Text("Retry Lab"),
		app.P().Class("tagline").Body(
			app.Span().Class("tag-long").Text("See what retries do to a server: real fetch() calls from many workers against a rate-limited endpoint."),
			app.Span().Class("tag-short").Aria("hidden", "true").Text("See what retries do to a rate-limited server."),
		),
	)
}

// Render draws the page.
func (p *Playground) Render() app.UI {
	l := p.lab
	cls := "lab"
	if l.present {
		cls += " present"
	}
	if l.running {
		cls += " running"
	}
	zoom := l.view.zoomText()
	if p.Shell {
		return app.Main().Class(cls).Body(
			app.Header().Class("top").Body(brand()),
			app.NoScript().Body(app.P().Class("shell-note").Text("Retry Lab runs in your browser as WebAssembly: it needs JavaScript.")),
		)
	}
	// While a dialog is open (help, the enlarged QR code) the page behind it
	// is inert: no focus, no clicks, hidden from assistive technology.
	page := app.Div().Class("page")
	if l.dialog() {
		page = page.Attr("inert", true)
	}
	// While a run goes on the inputs are disabled, and the sidebar, a
	// scrolling region, takes the focus itself so a keyboard can still
	// scroll it.
	sidebar := app.Aside().Class("sidebar").Aria("labelledby", "h-config")
	if l.running {
		sidebar = sidebar.TabIndex(0)
	}
	// The legend leaves with the timeline before the axis under its last
	// panel, which the person's font size makes taller (axisRoomCSS).
	scope := app.Div().Class("legend-scope")
	if room := axisRoomCSS(pickTheme(l.present, l.dark)); room != "" {
		scope = scope.Style("--axis-room", room)
	}
	return app.Main().Class(cls).DataSet("ready", p.ready).DataSet("settled", p.groups == 0).Body(page.Body(
		app.Header().Class("top").Body(
			brand(),
			app.Div().Class("top-actions").Body(
				app.Button().ID("present").Class("ghost").
					Aria("pressed", strconv.FormatBool(l.present)).
					Title(map[bool]string{false: "Presentation mode: large type, high contrast (p)", true: "Presentation mode is on: press again, or p, to leave it"}[l.present]).
					Text("Presentation").OnClick(func(ctx app.Context, e app.Event) { l.TogglePresent(ctx.LocalStorage()) }),
				app.Button().ID("help-open").Class("ghost").Title("Keyboard shortcuts (?)").Aria("label", "Help and keyboard shortcuts (?)").Text("?").
					OnClick(func(ctx app.Context, e app.Event) { l.setHelp(true) }),
			),
		),
		&Notice{Lab: l, Rev: l.cfgRev},
		&PresetBar{Lab: l, Rev: l.cfgRev, Running: l.running},
		app.Div().Class("workspace").Body(
			// A finished run the inputs were changed after is shown dimmed
			// (web/app.css, .stale): a step picked after the flood's run
			// left its numbers and lanes under the new step's caption,
			// with only the status's "Changed since" to say so, which a
			// room reading the big numbers does not (a review).
			app.Section().ID(stageID).Class(map[bool]string{false: "stage", true: "stage stale"}[l.shownIsStale()]).Aria("labelledby", "h-run").Body(
				regionHeading("h-run", "Run"),
				&RunBar{Lab: l, Rev: l.cfgRev, RunRev: l.runRev},
				&CompareBar{Lab: l, Rev: l.runRev},
				// On a projector the join panel sits beside the numbers
				// (presentation mode), so the timeline still starts on
				// the first screen.
				app.Div().Class("stage-head").Body(
					&JoinPanel{Lab: l, Rev: l.runRev},
					&Numbers{Lab: l, Rev: l.runRev},
				),
				// The legend sticks over the timeline within this scope
				// only: it leaves with the timeline before its time axis
				// (web/app.css, .legend-scope).
				scope.Body(
					subHeading("h-timeline", "Timeline"),
					&Legend{Shows: l.shows()},
					&Timeline{Lab: l, Baseline: l.comparedWith(), Watch: l.watching || l.watched, Zoom: zoom, Summary: l.timelineSummary(), Replaying: l.replaying},
				),
				&ZoomBar{Lab: l, Text: zoom, Rev: l.runRev},
				&ExportBar{Lab: l, Rev: l.cfgRev, RunRev: l.runRev},
			),
			sidebar.Body(
				regionHeading("h-config", "Configuration"),
				// Said on the page, not only in a tooltip: a field clicked
				// or tabbed into during a run did nothing, with no word why
				// (review). Always there, hidden and empty between runs:
				// an element that came and went before the settings made
				// go-app replace the settings' fieldset, every field in it,
				// at each run's start and end (its children are diffed by
				// position), in the run's opening burst. First in the page's
				// order, read before the settings, it is shown at their
				// foot: over the foot of the settings in view, held there
				// as they scroll, and at their end over a strip kept for
				// it, so it takes no room as it comes (it pushed them 53 px
				// down and back). Over their top it covered the first
				// group's heading, "Client fleet" (a review; web/app.css).
				app.Div().Class("locked-anchor").Body(
					app.P().ID("settings-locked").Class("locked").Hidden(!l.running).Text(l.lockedNote()),
				),
				app.FieldSet().Class("frame").Disabled(l.running).Title(map[bool]string{true: "Stop the " + l.runNoun() + " to change the configuration"}[l.running]).Body(
					&Controls{Lab: l, Rev: l.cfgRev, Groups: p.groups},
				),
			),
		)),
		&JoinOverlay{Lab: l, Rev: l.runRev},
		&Help{Lab: l, Open: l.help},
		l.rehearsalCanvases(),
	)
}

// regionHeading is a heading for a screen reader's list of them, which
// found the page's title alone (an accessibility review): each region of
// the page is named by its heading (aria-labelledby), not shown, as the
// page's layout says what each is at a glance.
func regionHeading(id, text string) app.UI { return app.H2().ID(id).Class("sr-only").Text(text) }

// subHeading is regionHeading for a part of the Run region: the numbers,
// the timeline, the exports.
func subHeading(id, text string) app.UI { return app.H3().ID(id).Class("sr-only").Text(text) }
