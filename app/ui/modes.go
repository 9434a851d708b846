// The page's modes: presentation, the system's dark scheme, the
// single-key shortcuts, and a watch that goes on across a reload; the
// browser's storage keeps them.

package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

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
	l.watchAgain = true // the status says it as long as the watch lasts: the flash goes
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
