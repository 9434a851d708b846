//go:build e2e

package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// numbersRowsJS is how many cards each row of each of the numbers' grids
// holds: {"primary": [7], "secondary": [5, 4]}, and each grid's width. A
// card as wide as its grid (the last of the first cards on a 320 px
// phone) is not counted: it is a row of its own, not a card left alone.
const numbersRowsJS = `(() => {
	const out = {};
	for (const g of document.querySelectorAll("#numbers .stats")) {
		const rows = new Map();
		for (const c of g.querySelectorAll(".stat")) {
			if (c.offsetParent === null) continue;
			if (c.getBoundingClientRect().width >= g.getBoundingClientRect().width - 1) continue;
			const top = Math.round(c.getBoundingClientRect().top);
			rows.set(top, (rows.get(top) || 0) + 1);
		}
		const name = g.classList.contains("primary") ? "primary" : "secondary";
		out[name] = [...rows.keys()].sort((a, b) => a - b).map(k => rows.get(k));
		out[name + "_w"] = Math.round(g.getBoundingClientRect().width);
	}
	return JSON.stringify(out);
})()`

// TestNumbersRowsHaveNoLoneCard: the numbers' cards break into rows of
// even length at every window width from 320 to 1920 px, in and out of
// presentation mode, after a run: no row holds a card alone, nor two
// under a row of seven (at 900 px the seven first cards were rows of 6
// and 1, the nine others 8 and 1; at 768 px, 5 + 2 and 7 + 2; at 1024 px,
// 5 + 2 and 6 + 3). Each card's words stay whole in it (cutNumbersJS) at
// every width, in presentation mode too (it was held only from 1024 px:
// under it titles ran past their cards; TestNumbersWholeAtEveryWidth).
func TestNumbersRowsHaveNoLoneCard(t *testing.T) {
	srv := startServer(t)
	ctx, _ := newBrowser(t)
	viewport(t, ctx, 1280, 900)
	simulated(t, ctx, srv.URL+"/?workers=20&jobs=3")
	var widths []int64
	for w := int64(360); w <= 1920; w += 8 {
		widths = append(widths, w)
	}
	widths = append(widths, 320, 330, 340, 350, 375, 390, 414, 601, 767, 768, 900, 959, 961, 1023, 1024, 1179, 1181, 1199, 1279, 1366, 1440, 1599, 1600, 1680)
	for _, present := range []bool{false, true} {
		presentMode(t, ctx, present)
		lone := 0
		for _, w := range widths {
			viewport(t, ctx, w, 900)
			eval[chromedp.Void](t, ctx, afterFrames)
			if cut := eval[[]string](t, ctx, cutNumbersJS); len(cut) > 0 {
				lone++
				if lone <= 40 {
					t.Errorf("%d px, presentation mode %v: cut off %q", w, present, cut)
				}
			}
			rows := eval[map[string]any](t, ctx, `JSON.parse(`+numbersRowsJS+`)`)
			for _, g := range []string{"primary", "secondary"} {
				rs, _ := rows[g].([]any)
				var n []int
				for _, r := range rs {
					n = append(n, int(r.(float64)))
				}
				if len(n) > 1 && hasLone(n) {
					lone++
					if lone <= 40 {
						t.Errorf("%d px, presentation mode %v: the %s numbers (%v px wide) break into rows of %v", w, present, g, rows[g+"_w"], n)
					}
				}
				if testing.Verbose() && (w == 360 || w == 768 || w == 900 || w == 1024) {
					t.Logf("%d px, presentation %v: %s %v px: %v", w, present, g, rows[g+"_w"], n)
				}
			}
		}
		if lone > 40 {
			t.Errorf("presentation mode %v: %d more widths with a lone card", present, lone-40)
		}
		for _, w := range []int64{360, 768, 900, 1024, 1280} {
			viewport(t, ctx, w, 900)
			eval[chromedp.Void](t, ctx, afterFrames)
			buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#numbers")))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(repoRoot, "tests", "out", fmt.Sprintf("numbers-rows-%d-present-%v.png", w, present)), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	presentMode(t, ctx, false)
}

// hasLone reports whether a grid's rows (their cards' counts) do not
// break evenly: a card alone on a row, or a row shorter than another by
// more than one card (5 + 2, 7 + 2).
func hasLone(rows []int) bool {
	lo, hi := rows[0], rows[0]
	for _, n := range rows {
		lo, hi = min(lo, n), max(hi, n)
	}
	return lo == 1 || hi-lo > 1
}
