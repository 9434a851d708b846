//go:build e2e && probe

package tests

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestProbeLearnNoise(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 1000)
	boot(t, ctx, srv.URL+"/?preset=full-jitter")
	runToEnd(t, ctx, 60*time.Second)
	click(t, ctx, "compare-keep")
	for i := 0; i < 2; i++ {
		runToEnd(t, ctx, 60*time.Second)
		t.Logf("rerun %d bar: %s", i, textOf(t, ctx, "compare"))
	}
	typeInto(t, ctx, "cap", "5s")
	runToEnd(t, ctx, 60*time.Second)
	t.Logf("cap 5s bar: %s", textOf(t, ctx, "compare"))
	t.Logf("titles: %s", eval[string](t, ctx, `[...document.querySelectorAll("#numbers .base")].map(e => e.closest("[data-stat]").dataset.stat + ": " + e.textContent + " | " + e.title).join("\n")`))
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/learn.png", buf, 0o644)
}
