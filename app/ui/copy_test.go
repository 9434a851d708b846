//go:build !(js && wasm)

package ui

import (
	"html"
	"strings"
	"testing"
)

// TestCopiesWaitForValidFields: while a value is not allowed the endpoint
// line names how many fields to fix instead of a URL, and its Copy, Copy
// share link and Copy as Go code are disabled, saying why; once fixed, the
// line is the URL of what the inputs say. The line showed
// fail500=60&fail503=50 (which the server rejects) and key=bad for "bad
// room!" (left over from mid-typing), and the share link the last valid
// workers for "abc".
func TestCopiesWaitForValidFields(t *testing.T) {
	type typed struct{ key, text string }
	for _, tt := range []struct {
		name  string
		bad   []typed
		count string
		fix   []typed
		want  string // in the endpoint once fixed
	}{
		{"failures over 100%", []typed{{"fail500", "60"}, {"fail503", "50"}}, "Fix 1 field", []typed{{"fail503", "10"}}, "fail500=60&fail503=10"},
		{"a room typed on", []typed{{"room", "bad"}, {"room", "bad room!"}}, "Fix 1 field", []typed{{"room", "good-room"}}, "key=good-room"},
		{"workers not a number", []typed{{"workers", "abc"}}, "Fix 1 field", []typed{{"workers", "7"}}, "key=try-me"},
		{"two at once", []typed{{"workers", "abc"}, {"rate", "0"}}, "Fix 2 fields", []typed{{"workers", "8"}, {"rate", "4"}}, "rate=4"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newLab()
			l.setCodeOpen(true)
			for _, in := range tt.bad {
				l.Set(in.key, in.text)
			}
			bar, ex := renderHTML(&RunBar{Lab: l, Rev: l.cfgRev}), renderHTML(&ExportBar{Lab: l, Rev: l.cfgRev})
			if ep := textWith(bar, `id="endpoint-url"`); strings.Contains(ep, "/mock") || !strings.Contains(ep, strings.ToLower(tt.count)) {
				t.Errorf("the endpoint line is %q, want no URL and %q", ep, strings.ToLower(tt.count))
			}
			for _, c := range []struct{ out, id string }{{bar, "copy-endpoint"}, {ex, "copy-link"}, {ex, "copy-go"}} {
				tag := tagWith(c.out, `id="`+c.id+`"`)
				if !isTrue(tag, "disabled") || !strings.Contains(tag, strings.ToLower(tt.count)) {
					t.Errorf("#%s is not disabled with the reason: %s", c.id, tag)
				}
			}
			if !strings.Contains(ex, `id="copy-blocked"`) || strings.Contains(ex, "package main") || !strings.Contains(ex, tt.count+" to see the code") {
				t.Error("the export bar shows Go code, or does not say why the copies are disabled")
			}

			for _, in := range tt.fix {
				l.Set(in.key, in.text)
			}
			bar, ex = renderHTML(&RunBar{Lab: l, Rev: l.cfgRev}), renderHTML(&ExportBar{Lab: l, Rev: l.cfgRev})
			if ep := textWith(bar, `id="endpoint-url"`); !strings.Contains(ep, tt.want) {
				t.Errorf("fixed: the endpoint line is %q, want %q in it", ep, tt.want)
			}
			for _, c := range []struct{ out, id string }{{bar, "copy-endpoint"}, {ex, "copy-link"}, {ex, "copy-go"}} {
				if tag := tagWith(c.out, `id="`+c.id+`"`); isTrue(tag, "disabled") {
					t.Errorf("fixed: #%s is disabled: %s", c.id, tag)
				}
			}
			if strings.Contains(ex, `id="copy-blocked"`) || !strings.Contains(ex, "package main") {
				t.Error("fixed: the export bar shows no Go code, or still says to fix fields")
			}
		})
	}
}

// textWith is the text right inside the element whose start tag holds
// attr, unescaped.
func textWith(out, attr string) string {
	tag := tagWith(out, attr)
	if tag == "" {
		return ""
	}
	rest := out[strings.Index(out, tag)+len(tag):]
	if i := strings.IndexByte(rest, '<'); i >= 0 {
		rest = rest[:i]
	}
	return html.UnescapeString(strings.TrimSpace(rest))
}

// The Go code is generated only while its <details> is open: not on load,
// and again at the next opening after a change.
func TestGoCodeMadeWhenShown(t *testing.T) {
	l := newLab()
	ex := renderHTML(&ExportBar{Lab: l, Rev: l.cfgRev})
	if l.code != "" || strings.Contains(ex, "package main") || isTrue(tagWith(ex, `class="gocode"`), "open") {
		t.Fatalf("closed, the code was made (%d bytes) or shown: %s", len(l.code), tagWith(ex, `class="gocode"`))
	}
	l.setCodeOpen(true)
	ex = renderHTML(&ExportBar{Lab: l, Rev: l.cfgRev, RunRev: l.runRev})
	if !strings.Contains(ex, "package main") || !isTrue(tagWith(ex, `class="gocode"`), "open") {
		t.Fatalf("opened, the code is not shown: %s", tagWith(ex, `class="gocode"`))
	}
	l.setCodeOpen(false)
	l.Set("workers", "7")
	if renderHTML(&ExportBar{Lab: l, Rev: l.cfgRev, RunRev: l.runRev}); strings.Contains(l.code, "workers = 7") {
		t.Error("closed again, a change made the code anew")
	}
	l.setCodeOpen(true)
	if ex = renderHTML(&ExportBar{Lab: l, Rev: l.cfgRev, RunRev: l.runRev}); !strings.Contains(ex, "workers = 7") {
		t.Error("reopened, the code is not made")
	}
}
