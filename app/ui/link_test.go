package ui

import (
	"net/url"
	"testing"
)

// A parameter of the link that is not valid URL encoding is noted beside
// its field: Workers went back to its default with one general notice.
func TestBadEscapeIsNotedBesideItsField(t *testing.T) {
	u, _ := url.Parse("http://localhost:8080/?workers=%ZZ&jobs=3&base=%E0%A4%A")
	l := newLab()
	l.Load(u)
	for key, want := range map[string]string{
		"workers": `From the link: Workers "%ZZ": not valid URL encoding (invalid URL escape "%ZZ"); using the default 50`,
		"base":    `From the link: Base "%E0%A4%A": not valid URL encoding (invalid URL escape "%A"); using the default 100ms`,
	} {
		if got := l.Note(key); got != want {
			t.Errorf("note beside %s: %q; want %q", key, got, want)
		}
	}
	if l.s.Workers != 50 || l.s.Jobs != 3 {
		t.Errorf("workers %d, jobs %d; want 50 and 3", l.s.Workers, l.s.Jobs)
	}
}
