//go:build e2e

package tests

import (
	"strings"
	"testing"
	"time"
)

// After a run, editing a field says so beside the run's result: the lanes
// and numbers are the run's, the inputs (and the share link) are not any
// more. Setting it back takes the note away.
func TestStatusSaysTheInputsChanged(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t) // its cleanup fails the test on a page exception
	boot(t, ctx, srv.URL+"/?workers=5&jobs=1&latency=10ms&limiter=none")
	runToEnd(t, ctx, 30*time.Second)
	status := func() string { return eval[string](t, ctx, `document.getElementById("run-status").textContent`) }
	// The state says the run ended a frame or so before the status is
	// re-rendered (runToEnd): wait for it, as a person reads it.
	var s string
	if waitFor(3*time.Second, func() bool { s = status(); return strings.HasPrefix(s, "Finished: ") }) != nil || strings.Contains(s, "Changed since") {
		t.Fatalf("after the run: %q", s)
	}
	typeInto(t, ctx, "workers", "8")
	want := "Changed since: Workers 5 → 8; Run or Simulate to see them."
	if waitFor(3*time.Second, func() bool { s = status(); return strings.Contains(s, want) }) != nil {
		t.Errorf("after typing 8 in Workers the status is %q, want it to hold %q", s, want)
	}
	if st := state(t, ctx); st.Stats["successes"] != 5 {
		t.Errorf("the numbers are no longer the run's: %v successes", st.Stats["successes"])
	}
	typeInto(t, ctx, "workers", "5")
	if waitFor(3*time.Second, func() bool { s = status(); return !strings.Contains(s, "Changed since") }) != nil {
		t.Errorf("set back to 5, the status is %q", s)
	}
}

// During a run the settings are disabled, and the page says so above them,
// not only in a tooltip; the note goes when the run ends. The settings stay
// the same elements: when the note came, go-app replaced their fieldset,
// every field in it, at the run's start and again at its end.
func TestSettingsSayTheyAreLockedDuringARun(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	boot(t, ctx, srv.URL+"/?workers=3&jobs=1&latency=2s&limiter=none")
	if !eval[bool](t, ctx, `!!(window.__frame = document.querySelector("fieldset.frame")) && !!(window.__workers = document.getElementById("f-workers"))`) {
		t.Fatal("no settings' fieldset or Workers input on the page")
	}
	// Nor is any other part of the page made again (an element of 8 or
	// more descendants removed) by a run's start or end.
	eval[bool](t, ctx, `(() => {
		window.__remade = [];
		new MutationObserver(ms => { for (const m of ms) m.removedNodes.forEach(n => {
			if (n.nodeType === 1 && n.querySelectorAll("*").length >= 8) __remade.push(n.nodeName + (n.id ? "#" + n.id : "") + (n.className ? "." + n.className : ""));
		}); }).observe(document.body, {childList: true, subtree: true});
		return true; })()`)
	same := func(when string) {
		if !eval[bool](t, ctx, `document.querySelector("fieldset.frame") === window.__frame && document.getElementById("f-workers") === window.__workers`) {
			t.Errorf("%s, the settings are new elements: the page made them again", when)
		}
	}
	click(t, ctx, "run")
	locked := `(() => { const e = document.getElementById("settings-locked"); return e ? e.textContent : ""; })()`
	var text string
	if waitFor(3*time.Second, func() bool { text = eval[string](t, ctx, locked); return text != "" }) != nil {
		t.Fatal("no note over the locked settings during the run")
	}
	if !strings.Contains(text, "Stop\u00a0(s)") {
		t.Errorf("the note says %q", text)
	}
	screenshot(t, ctx, "settings-locked")
	same("during the run")
	if waitFor(30*time.Second, func() bool { return !state(t, ctx).Running && eval[string](t, ctx, locked) == "" }) != nil {
		t.Errorf("the run is over (%v) and the note still says %q", !state(t, ctx).Running, eval[string](t, ctx, locked))
	}
	if eval[bool](t, ctx, `(() => { const e = document.getElementById("settings-locked"); return !!e && e.getClientRects().length > 0; })()`) {
		t.Error("the run is over and the note's empty line still takes room")
	}
	same("after the run")
	if remade := eval[[]string](t, ctx, `__remade`); len(remade) > 0 {
		t.Errorf("the run's start or end made these parts of the page again: %v", remade)
	}
}
