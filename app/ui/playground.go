package ui

import (
	"context"
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// Playground is the Retry Lab page.
type Playground struct {
	app.Compo

	mockURL string
	result  string
	busy    bool
	ready   bool
}

// OnMount marks the page interactive: the wasm runs and handlers are live.
func (p *Playground) OnMount(ctx app.Context) {
	p.ready = true
}

// OnNav sets the page title and the mock URL from the page's own address.
func (p *Playground) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Retry Lab")
	page := ctx.Page().URL()
	p.mockURL = MockOrigin(page, 0) + "/mock?limiter=bucket&rate=1&burst=1&retry_after=seconds&key=shell"
}

// Render draws the page.
func (p *Playground) Render() app.UI {
	return app.Main().Class("shell").DataSet("ready", p.ready).Body(
		app.H1().Text("Retry Lab"),
		app.P().Text("Mock endpoint:"),
		app.Code().ID("mock-url").Text(p.mockURL),
		app.Button().ID("send").Text("Send a test request").Disabled(p.busy).OnClick(p.send),
		app.Pre().ID("result").Text(p.result),
	)
}

func (p *Playground) send(ctx app.Context, e app.Event) {
	p.busy = true
	target := p.mockURL
	ctx.Async(func() {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		resp, err := browser.Fetch(c, target)
		var text string
		if err != nil {
			text = "error: " + err.Error()
		} else {
			text = fmt.Sprintf("%d Retry-After=%q queued=%.1fms\n%s", resp.Status, resp.Header.Get("Retry-After"), resp.Timing.Queued(), resp.Body)
		}
		ctx.Dispatch(func(ctx app.Context) {
			p.busy = false
			p.result = text
		})
	})
}
