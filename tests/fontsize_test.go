//go:build e2e

package tests

import (
	"context"
	"math"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// canvasText is how the canvas is laid out: its scale (debug()), the size
// of the last font its text was drawn in, the lane labels' column (the
// plot's left edge), the canvas's height, CSS px, and the legend scope's
// --axis-room.
type canvasText struct {
	Scale    float64 `json:"scale"`
	Font     float64 `json:"font"`
	Left     float64 `json:"left"`
	Height   float64 `json:"height"`
	AxisRoom string  `json:"room"`
}

const canvasTextJS = `(() => {
	const d = JSON.parse(window.retrylab.debug());
	return {scale: d.scale, font: parseFloat(document.getElementById("timeline").getContext("2d").font), left: d.lanes_rect[0], height: document.getElementById("timeline").getBoundingClientRect().height,
		room: getComputedStyle(document.querySelector(".legend-scope")).getPropertyValue("--axis-room").trim()};
})()`

// TestCanvasFollowsTheFontSize: with a 24 px default font (the person's
// setting) the canvas's type grows as the page's does, 1.5 times, and the
// layout with it: the lane labels' column, the canvas's height, the room
// the legend leaves for the axis under its last panel; in presentation
// mode too. Its axis ticks, lane labels, panel titles and limit label
// stayed 11–12 px while every HTML text grew. At 16 px nothing changes.
func TestCanvasFollowsTheFontSize(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1400, 1000)
	const url = "/?workers=10&jobs=2&seed=7"
	simulated(t, ctx, srv.URL+url)
	at16 := eval[canvasText](t, ctx, canvasTextJS)
	if at16.Scale != 1 || at16.Font > 12 || at16.AxisRoom != "32px" {
		t.Errorf("at the default 16 px: %+v, want scale 1, text of 11–12 px and --axis-room 32px, as before", at16)
	}
	viewShot(t, ctx, "fontsize-16")
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.SetFontSizes, page.SetFontSizesParams{FontSizes: &page.FontSizes{Standard: 24, Fixed: 20}})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	simulated(t, ctx, srv.URL+url)
	at24 := eval[canvasText](t, ctx, canvasTextJS)
	if at24.Scale != 1.5 || at24.Font < 16.5 || at24.Left < at16.Left*1.45 || at24.Height <= at16.Height || at24.AxisRoom != "47px" {
		t.Errorf("with a 24 px default font: %+v (at 16 px %+v), want scale 1.5, text of 16.5–18 px, the lane labels' column 1.5 times as wide, a taller canvas and --axis-room 47px (30 × 1.5 + 2)", at24, at16)
	}
	eval[chromedp.Void](t, ctx, `document.getElementById("timeline").scrollIntoView({block: "start"})`)
	eval[chromedp.Void](t, ctx, afterFrames)
	viewShot(t, ctx, "fontsize-24")
	presentMode(t, ctx, true)
	eval[chromedp.Void](t, ctx, afterFrames)
	if p := eval[canvasText](t, ctx, canvasTextJS); math.Abs(p.Scale-1.4*1.5) > 1e-9 || p.AxisRoom != "65px" {
		t.Errorf("with a 24 px default font, presentation mode: %+v, want scale 2.1 (1.4 × 1.5) and --axis-room 65px", p)
	}
	viewShot(t, ctx, "fontsize-24-present")
	presentMode(t, ctx, false)
}
