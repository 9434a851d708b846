// Package ui holds the go-app components of the Retry Lab page. It compiles
// for both builds: the server renders the page shell from the same routes the
// browser navigates.
//
// # Hooks for tests and benchmarks
//
// Stable element ids and attributes:
//
//	main[data-ready="true"]      the page is mounted and its handlers are live (interactive)
//	main[data-settled="true"]    and the settings' groups below the first are mounted too, after
//	                             the page's first paint (Controls.Groups)
//	#f-<key>                     the input of fleet field <key> (text, select or checkbox)
//	#err-<key>                   the message beside an invalid input (absent when valid)
//	#help-<key>                  the input's one line of help
//	#run, #stop, #simulate       the run buttons (#simulate disabled when the configuration cannot be simulated)
//	#run-status                  what the run is doing, for people
//	#preset-<id>                 a step of the story (fleet.Presets), aria-pressed when active
//	#preset-caption              the active preset's caption
//	#endpoint-url, #copy-endpoint  the mock URL the workers call (curl works with it); during a watch, the room's join link;
//	                             while a field is invalid, how many to fix (#copy-endpoint disabled)
//	#cors-note                   the CORS explanation, with a custom target
//	#url-notice                  the link's fields that could not be used
//	[data-stat="<name>"]         a number, raw value in data-value (durations in ms);
//	                             the names are those of statList (stats.go)
//	#timeline, #timeline-overlay the canvases (drawing; crosshair and selection)
//	#tooltip                     the selected attempt's facts (role=status); data-x, data-y: its
//	                             mark in the #timeline canvas, CSS px
//	#legend                      the legend
//	#export-json, #export-csv, #export-png, #copy-link, #copy-go, #go-code
//	#copy-blocked                why #copy-link and #copy-go are disabled (a field is invalid; absent otherwise)
//	#present, #help-open, #help  presentation mode, the shortcuts dialog
//
// JavaScript hooks on window.retrylab, each returning a JSON text:
//
//	state()          {running, runs, run_key, records, invalid, preset, stats{<name>: number}}
//	debug()          {goroutines, funcs, funcs_permanent, pending_waits, last_redraw_ms,
//	                 go_start_ms, mounted_ms, settled_ms, sim_computed_ms, drawn_ms, gc_cycles,
//	                 heap_mb, heap_sys_mb, stacks_mb, hidden, first_sent_ms, draws}:
//	                 funcs counts the Go functions app/browser handed to JavaScript and did
//	                 not release (funcs_permanent of them live as long as the page);
//	                 pending_waits the timers and promises Go code waits for; go_start_ms
//	                 and mounted_ms are performance.now() when Go started and when the
//	                 page mounted, settled_ms when all its settings were, sim_computed_ms when the last simulation's result was
//	                 in and drawn_ms when the run shown was first drawn complete; the
//	                 memory figures are Go's (runtime.MemStats); hidden lists the run
//	                 shown's hidden-tab stretches as [from, to] ms since its start;
//	                 first_sent_ms is when its earliest attempt drawn was sent (-1: none);
//	                 draws counts the timeline's full redraws
//	redraw()         {ms, marks}: one full synchronous redraw of the timeline
//	synthetic(n, w)  {events}: fill the timeline with a simulated finished run of the page's
//	                 configuration, about n events over w workers (default 10000, 500)
//	requestLimit(n)  {limit}: the most requests a live run sends (LiveMaxRequests), set to n
//	                 for the runs started after it (a test's way to reach it in seconds)
//
// Keyboard: the shortcuts dialog's list (help.go shortcuts; isShortcut takes them):
// r run, s or Escape stop, m simulate, w watch, o h b faults, c compare, + - 0 a d zoom,
// y replay, 1–7 presets, u back to the user's own configuration, p presentation mode,
// ? help; on the focused timeline ← → ↑ ↓ Home End move the selection, Escape clears it.
package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// goStart is performance.now() when the program started (0 natively): with
// the mount time, debug() tells how a cold load's time splits between
// download+compile and Go's own start and first render; settledAt is when
// the settings' later groups were mounted.
var goStart, mountedAt, settledAt float64

// Routes registers every page. Both the server and the browser call it.
func Routes() {
	goStart = browser.Now()
	app.Route("/", func() app.Composer { return &Playground{Shell: app.IsServer} })
}
