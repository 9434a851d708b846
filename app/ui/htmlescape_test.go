package ui

import (
	"html"
	"testing"
)

// TestEscapeHTMLIsHTMLs holds escapeHTML to html.EscapeString, which
// app.wasm does not link (htmlescape.go).
func TestEscapeHTMLIsHTMLs(t *testing.T) {
	for _, s := range []string{"", "plain", `<b title="a & b">it's</b>`, "&amp;", "→ ≥ 1 s", "\xff<"} {
		if got, want := escapeHTML(s), html.EscapeString(s); got != want {
			t.Errorf("escapeHTML(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzEscapeHTML(f *testing.F) {
	f.Add(`<a href="x?y=1&z='2'">`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := escapeHTML(s), html.EscapeString(s); got != want {
			t.Errorf("escapeHTML(%q) = %q, want %q", s, got, want)
		}
	})
}
