//go:build e2e

package tests

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// canvasPNG is the timeline's canvas as a picture (its pixels: CSS px
// times the device pixel ratio) and that ratio.
func canvasPNG(t *testing.T, ctx context.Context) (image.Image, float64) {
	t.Helper()
	got := eval[struct {
		URL string  `json:"url"`
		DPR float64 `json:"dpr"`
	}](t, ctx, `({url: document.getElementById("timeline").toDataURL("image/png"), dpr: devicePixelRatio || 1})`)
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(got.URL, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img, got.DPR
}

// striped counts, in r (pixels of img), the columns with at least 8
// pixels of colour want whose pixels of that colour are split into runs:
// at least 4 of them (hatched), and at most 3 (solid: a limit line or a
// cut bar's break splits a solid bar once or twice).
func striped(img image.Image, r image.Rectangle, want [3]int) (hatched, solid int) {
	near := func(x, y int) bool {
		cr, cg, cb, _ := img.At(x, y).RGBA()
		d := func(a uint32, b int) int { v := int(a>>8) - b; return v * v }
		return d(cr, want[0])+d(cg, want[1])+d(cb, want[2]) < 30*30
	}
	r = r.Intersect(img.Bounds())
	for x := r.Min.X; x < r.Max.X; x++ {
		runs, n, in := 0, 0, false
		for y := r.Min.Y; y < r.Max.Y; y++ {
			ok := near(x, y)
			if ok {
				n++
				if !in {
					runs++
				}
			}
			in = ok
		}
		switch {
		case n < 8:
		case runs >= 4:
			hatched++
		default:
			solid++
		}
	}
	return hatched, solid
}

// TestHistogramBarsArePatterned: the histogram's 429 parts are hatched
// and its 2xx parts solid, in the light, dark and presentation looks and
// in the PNG export: in greyscale the two colours were one grey, a
// stacked bar's classes told apart by their order only.
func TestHistogramBarsArePatterned(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1400, 1000)
	boot(t, ctx, srv.URL+"/?workers=40&jobs=3&seed=7")
	press(t, ctx, "1") // the synchronized flood: 429s and 2xx in the same bars
	press(t, ctx, "m")
	simulatedToEnd(t, ctx)
	vermillion, green := [3]int{0xD5, 0x5E, 0x00}, [3]int{0x00, 0x9E, 0x73}
	check := func(how string) {
		t.Helper()
		eval[chromedp.Void](t, ctx, afterFrames)
		img, dpr := canvasPNG(t, ctx)
		hr := eval[[]float64](t, ctx, `JSON.parse(window.retrylab.debug()).hist_rect`)
		r := image.Rect(int(hr[0]*dpr), int(hr[1]*dpr), int(hr[2]*dpr), int(hr[3]*dpr)) // left, top, right, bottom
		saveShot(t, "pattern-"+how, encodePNG(t, img))
		eval[chromedp.Void](t, ctx, `document.getElementById("timeline").scrollIntoView({block: "end"})`)
		eval[chromedp.Void](t, ctx, afterFrames)
		viewShot(t, ctx, "pattern-page-"+how) // the legend's samples, stuck over the timeline
		if h, s := striped(img, r, vermillion); h < 10 || s > h/4 {
			t.Errorf("%s: the histogram's 429 parts: %d columns hatched, %d solid; want them hatched", how, h, s)
		}
		if h, s := striped(img, r, green); s < 10 || h > s/4 {
			t.Errorf("%s: the histogram's 2xx parts: %d columns hatched, %d solid; want them solid", how, h, s)
		}
	}
	check("light")

	// The PNG export: the same canvas, under a head and a legend.
	img, dpr := canvasPNG(t, ctx)
	dir := allowDownloads(t, ctx)
	name, data := download(t, ctx, dir, "export-png", ".png")
	exported, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", name, err)
	}
	saveShot(t, "pattern-export", data)
	hr := eval[[]float64](t, ctx, `JSON.parse(window.retrylab.debug()).hist_rect`)
	below := exported.Bounds().Dy() - img.Bounds().Dy() // the head and legend above the panels
	r := image.Rect(int(hr[0]*dpr), int(hr[1]*dpr)+below, int(hr[2]*dpr), int(hr[3]*dpr)+below)
	if h, s := striped(exported, r, vermillion); h < 10 || s > h/4 {
		t.Errorf("the PNG export's histogram: its 429 parts %d columns hatched, %d solid; want them hatched", h, s)
	}

	prefersDark(t, ctx, true)
	lookIs(t, ctx, "dark", "dark", true, "#151922", "#1a1f29", "#202633")
	check("dark")
	prefersDark(t, ctx, false)
	presentMode(t, ctx, true)
	check("present")
	presentMode(t, ctx, false)
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
