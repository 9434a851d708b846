package ui

import (
	"testing"
	"time"
)

// TestCanvasFontsFollowTheFontSize: the canvas's type, in px, grows with
// the browser's default font size as the page's does (at 24 px its ticks,
// lane labels and titles stayed 11–12 px), and the layout that depends on
// it with it: the lane labels' column, the panels' title rows, measured
// text. At 16 px, or a smaller setting, nothing changes; it grows twice
// at most.
func TestCanvasFontsFollowTheFontSize(t *testing.T) {
	for _, c := range []struct{ px, want float64 }{{0, 1}, {12, 1}, {16, 1}, {20, 1.25}, {24, 1.5}, {32, 2}, {48, 2}} {
		if got := zoomOf(c.px); got != c.want {
			t.Errorf("a default font of %v px: the canvas grows by %v, want %v", c.px, got, c.want)
		}
	}
	for _, th := range []*theme{&normalTheme, &darkTheme, &presentTheme} {
		if got := th.zoomed(1); got != th {
			t.Errorf("%s: zoomed by 1 is another theme: at 16 px something changes", th.name)
		}
		z := th.zoomed(1.5)
		if z.name != th.name || z.scale != th.scale*1.5 || &z.palette[0] != &th.palette[0] {
			t.Errorf("%s zoomed by 1.5: %q, scale %v, want the same name and palette and scale %v", th.name, z.name, z.scale, th.scale*1.5)
		}
		for i, f := range z.fonts {
			if want := zoomFont(th.fonts[i], 1.5); f != want {
				t.Errorf("%s zoomed by 1.5: font %q, want %q", th.name, f, want)
			}
		}
		l, lz := newLayout(1000, 10, 10*time.Second, th), newLayout(1000, 10, 10*time.Second, z)
		if lz.left < l.left*1.45 {
			t.Errorf("%s zoomed by 1.5: the lane labels' column is %v px, %v at 16 px", th.name, lz.left, l.left)
		}
		if g, g0 := lz.histTop-(lz.lanesTop+lz.laneH*10), l.histTop-(l.lanesTop+l.laneH*10); g < g0*1.45 {
			t.Errorf("%s zoomed by 1.5: the histogram's title row is %v px, %v at 16 px", th.name, g, g0)
		}
		if w, w0 := fontWidth("w10", fontSmall, lz.scale), fontWidth("w10", fontSmall, l.scale); w < w0*1.45 {
			t.Errorf("%s zoomed by 1.5: \"w10\" measured %v px wide, %v at 16 px", th.name, w, w0)
		}
	}
	for _, c := range []struct{ f, want string }{
		{"11px system-ui, sans-serif", "16.50px system-ui, sans-serif"},
		{"600 12px system-ui, sans-serif", "600 18.00px system-ui, sans-serif"},
		{"700 16px system-ui, sans-serif", "700 24.00px system-ui, sans-serif"},
	} {
		if got := zoomFont(c.f, 1.5); got != c.want {
			t.Errorf("zoomFont(%q, 1.5) = %q, want %q", c.f, got, c.want)
		}
	}
	if got := pickTheme(false, false); got != &normalTheme || pickTheme(true, true) != &presentTheme || pickTheme(false, true) != &darkTheme {
		t.Error("natively (no default font size known) the canvas's themes are not the themes themselves")
	}
}
