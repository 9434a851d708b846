package ui

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/mock"
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
	msg := "Server down for " + fmtDur(OutageLength) + ": every request gets 503 with Retry-After, the seconds left"
	if l.s.Mock.RetryAfter == mock.RetryNone {
		msg = "Server down for " + fmtDur(OutageLength) + ": every request gets 503 (no Retry-After: the endpoint sends none)"
	}
	v := l.view
	ctx.Async(func() {
		pctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		status, body, err := browser.Post(pctx, u)
		cancel()
		switch {
		case err != nil:
			msg = "Outage failed: " + err.Error()
		case status != 200:
			var e struct{ Error string }
			if json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
				e.Error = strings.TrimSpace(body)
			}
			msg = "Outage refused (" + strconv.Itoa(status) + "): " + e.Error
		default:
			// The server's own times, in case its stream's message is
			// lost (the model takes the same stretch once).
			var r struct {
				Key         string
				From, Until time.Time
			}
			if json.Unmarshal([]byte(body), &r) == nil {
				if ev, err := json.Marshal(mock.Event{Type: "outage", Key: r.Key, At: r.From, Until: r.Until}); err == nil {
					v.onServerEvent(string(ev))
				}
			}
		}
		ctx.Dispatch(func(ctx app.Context) { l.Flash(ctx, msg) })
	})
}
