package ui

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
)

// OutageLength is how long the Outage button takes the server down.
const OutageLength = 3 * time.Second

// CanOutage reports whether the Outage button applies: a live run on the
// built-in mock, or a watch of a shared room (the presenter takes the
// whole room's server down). A simulation has no server to cut.
func (l *Lab) CanOutage() bool {
	return l.watching && !l.stopping || l.running && !l.simulating && !l.watching && !l.stopping && l.s.Target == ""
}

// Outage takes the mock down for OutageLength for the run's key (or the
// watched room): POST /mock/outage. The timeline marks the stretch when
// the server's stream tells of it; the status says what was asked.
func (l *Lab) Outage(ctx app.Context) {
	if !l.CanOutage() {
		l.Flash(ctx, "Outage: only during a live run on the built-in mock, or a watch of a shared room")
		return
	}
	key := l.runKey
	if l.watching {
		key = l.watchRoom
	}
	u := l.pageOrigin() + "/mock/outage?key=" + url.QueryEscape(key) + "&for=" + OutageLength.String()
	ctx.Async(func() {
		pctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		status, body, err := browser.Post(pctx, u)
		cancel()
		msg := "Server down for " + fmtDur(OutageLength) + ": every request gets 503 with Retry-After"
		switch {
		case err != nil:
			msg = "Outage failed: " + err.Error()
		case status != 200:
			var e struct{ Error, Param, Allowed string }
			_ = json.Unmarshal([]byte(body), &e)
			msg = "Outage refused (" + strconv.Itoa(status) + "): " + e.Error
		}
		ctx.Dispatch(func(ctx app.Context) { l.Flash(ctx, msg) })
	})
}
