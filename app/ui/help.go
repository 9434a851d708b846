package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
)

// Help lists the keyboard shortcuts and how to read the timeline.
type Help struct {
	app.Compo

	Lab  *Lab
	Open bool
}

// shortcuts lists the keys (each shown as a key cap) and what they do.
var shortcuts = []struct {
	keys []string
	what string
}{
	{[]string{"r"}, "Run"},
	{[]string{"s", "Esc"}, "Stop: abort every request in flight"},
	{[]string{"m"}, "Simulate: the same configuration in virtual time, at once (up to 10,000 workers)"},
	{[]string{"w"}, "Watch the shared room: everyone's requests as the server sees them, no fleet of your own (set a room first)"},
	{[]string{"o"}, "Outage: take the server down for " + human.Duration(OutageLength) + " during a live run (or for the watched room): every request gets 503"},
	{[]string{"h"}, "Halve limit: for " + human.Duration(LimitLength) + " the server allows half its limit, during a live run (or for the watched room)"},
	{[]string{"b"}, "Burst: another client sends twice the limit's burst at once to the same key, during a live run (or to the watched room)"},
	{[]string{"c"}, "Compare: keep the finished run as the baseline; the next runs are drawn and counted against it (c on the baseline clears it)"},
	{[]string{"+", "-", "0"}, "Zoom a finished run in (around the pointer) and out; 0 shows the whole run"},
	{[]string{"a", "d"}, "When zoomed in: earlier / later"},
	{[]string{"y"}, "Replay a finished run as it happened (the speed is beside the Replay button); y again, s or Esc stops it"},
	{presetKeys(), "Load a step of the story"},
	{[]string{"u"}, "Back to your own configuration after a step replaced it"},
	{[]string{"t"}, "Show the timeline; t again: back up"},
	{[]string{"p"}, "Presentation mode (large type, high contrast)"},
	{[]string{"?"}, "This help; Esc closes it"},
	{[]string{"←", "→"}, "On the focused timeline (t or Tab to it): previous / next attempt of the worker"},
	{[]string{"↑", "↓"}, "Nearest attempt of the worker above / below"},
	{[]string{"Home", "End"}, "First / last attempt of the worker"},
	{[]string{"Enter"}, "Say all of the selected attempt's details, as its tooltip shows them (a screen reader hears one line as the selection moves)"},
	{[]string{"Esc"}, "On the timeline: clear the selection first (the next Esc stops a run)"},
}

// Render draws the dialog when open. Focused at its title when it opens
// (Lab.setHelp), it keeps the focus while open (browser.KeepFocus).
func (h *Help) Render() app.UI {
	if !h.Open {
		return app.Div().Hidden(true)
	}
	l := h.Lab
	closeHelp := func(ctx app.Context, e app.Event) { l.setHelp(false) }
	return app.Div().Class("modal-back").OnClick(closeHelp).Body(
		app.Div().ID("help").Class("modal").Role("dialog").Aria("modal", "true").Aria("labelledby", "help-title").
			OnClick(func(ctx app.Context, e app.Event) { e.StopImmediatePropagation() }).
			Body(
				app.Raw(helpHTML()),
				// The shortcuts' switch beside Close, its note short: wrapped
				// to two lines, it made the dialog 757 px high in a 744 px
				// box at 1024 × 768 in presentation mode (TestHelpFitsTheScreen).
				app.Div().Class("modal-foot").Body(
					app.Input().Type("checkbox").ID("shortcuts-on").Checked(!l.keysOff.Load()).Aria("describedby", "shortcuts-help").
						OnChange(func(ctx app.Context, e app.Event) {
							l.SetShortcuts(ctx.JSSrc().Get("checked").Bool(), ctx.LocalStorage())
						}),
					app.Label().For("shortcuts-on").Text("Single-key shortcuts"),
					app.P().ID("shortcuts-help").Class("help").Text("Off: only Esc and the timeline's own keys work, for speech input, and so that no stray key hits a shared room's server. Remembered here."),
					app.Button().ID("help-close").Class("primary").Attr(browser.FocusNextAttr, "help-open").Text("Close").OnClick(closeHelp),
				),
			),
	)
}

// helpHTML is the dialog's text, which never changes, as HTML: one element
// for go-app to mount (as the fields' static parts, staticFields), and no
// list elements of go-app's in the page's program for it alone. Its title
// takes the focus (tabindex -1) when the dialog opens. The shortcuts are a
// description list, each key and what it does in one block, so that they
// flow in two columns on a wide screen (web/app.css): the dialog fits a
// 1024 × 768 screen. A run of keys (the story's steps) is written as its
// first and last, 1–7.
func helpHTML() string {
	esc := escapeHTML
	b := `<div><h2 id="help-title" tabindex="-1" ` + browser.FocusNextAttr + `="help-open">Keyboard shortcuts</h2><dl class="keys">`
	for _, sc := range shortcuts {
		b += `<div><dt>`
		if keys := sc.keys; len(keys) > 3 {
			b += `<kbd>` + esc(keys[0]) + `</kbd>–<kbd>` + esc(keys[len(keys)-1]) + `</kbd>`
		} else {
			for _, k := range keys {
				b += `<kbd>` + esc(k) + `</kbd>`
			}
		}
		b += `</dt><dd>` + esc(sc.what) + `</dd></div>`
	}
	return b + `</dl><h2>Reading the timeline</h2><p>` +
		"Each lane is one worker. A mark is an attempt, placed when it was sent and shaped and coloured by its outcome; " +
		"the thin bar after it is the request in flight, yellow where the browser itself held it. Bars between attempts are waits, " +
		"coloured by why: backoff, the server's Retry-After, a rate-limit reset hint, or a token from the fleet bucket. " +
		"Below, the histogram counts requests by send time with the server's limit dashed across it, and the server panel shows " +
		"each request where the server received it.</p></div>"
}

// presetKeys are the digits that load the presets: 1 for the first step.
func presetKeys() []string {
	keys := make([]string, min(len(fleet.Presets), 9))
	for i := range keys {
		keys[i] = strconv.Itoa(i + 1)
	}
	return keys
}
