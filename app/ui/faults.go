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
	"retrylab/core"
)

// The fault switches of a live run: the server goes down (Outage), or its
// limit drops to a fraction for a while (Halve limit).
const (
	OutageLength = 3 * time.Second // how long Outage takes the server down
	LimitLength  = 5 * time.Second // how long Halve limit lasts
	LimitScale   = 0.5             // what Halve limit multiplies the limit by
)

// CanOutage reports whether the fault switches apply: a live run on the
// built-in mock, or a watch of a shared room (the presenter acts on the
// whole room's server). A simulation has no server to act on.
func (l *Lab) CanOutage() bool {
	return l.watching && !l.stopping || l.running && !l.simulating && !l.watching && !l.stopping && l.s.Target == ""
}

// Outage takes the mock down for OutageLength for the run's key (or the
// watched room): POST /mock/outage. The timeline marks the stretch when
// the server's stream tells of it; the status says what was asked.
func (l *Lab) Outage(ctx app.Context) {
	msg := "Server down for " + fmtDur(OutageLength) + ": every request gets 503 with Retry-After, the seconds left"
	if l.s.Mock.RetryAfter == mock.RetryNone {
		msg = "Server down for " + fmtDur(OutageLength) + ": every request gets 503 (no Retry-After: the endpoint sends none)"
	}
	l.fault(ctx, "Outage", "/mock/outage?for="+OutageLength.String(), "outage", msg)
}

// HalveLimit multiplies the mock's limit for the run's key (or the watched
// room) by LimitScale for LimitLength: POST /mock/limit. The server keeps
// what its limiter had admitted; the histogram's limit line steps down
// when the stream tells of it.
func (l *Lab) HalveLimit(ctx app.Context) {
	msg := "Limit halved for " + fmtDur(LimitLength) + ": the server allows half as many requests, and says so in its headers"
	if l.s.Mock.Limiter == core.LimitNone {
		msg = "Limit halved for " + fmtDur(LimitLength) + " — but this endpoint has no limiter (Limiter: none), so nothing changes"
	}
	l.fault(ctx, "Halve limit", "/mock/limit?scale="+strconv.FormatFloat(LimitScale, 'f', -1, 64)+"&for="+LimitLength.String(), "limit", msg)
}

// fault posts a fault switch for the run's key (or the watched room) and
// flashes msg, or why it failed. The switch answers {"key", "from",
// "until", "scale"}: the stretch, taken into the timeline as the stream's
// message of type kind would be (in case the stream's is lost; the model
// takes the same stretch once).
func (l *Lab) fault(ctx app.Context, name, pathQuery, kind, msg string) {
	if !l.CanOutage() {
		l.Flash(ctx, name+": only during a live run on the built-in mock, or a watch of a shared room")
		return
	}
	key := l.runKey
	if l.watching {
		key = l.watchRoom
	}
	u := l.pageOrigin() + pathQuery + "&key=" + url.QueryEscape(key)
	v := l.view
	ctx.Async(func() {
		pctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		status, body, err := browser.Post(pctx, u)
		cancel()
		switch {
		case err != nil:
			msg = name + " failed: " + err.Error()
		case status != 200:
			var e struct{ Error string }
			if json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
				e.Error = strings.TrimSpace(body)
			}
			msg = name + " refused (" + strconv.Itoa(status) + "): " + e.Error
		default:
			var r struct {
				Key         string
				From, Until time.Time
				Scale       float64
			}
			if json.Unmarshal([]byte(body), &r) == nil {
				if ev, err := json.Marshal(mock.Event{Type: kind, Key: r.Key, At: r.From, Until: r.Until, Scale: r.Scale}); err == nil {
					v.onServerEvent(string(ev))
				}
			}
		}
		ctx.Dispatch(func(ctx app.Context) { l.Flash(ctx, msg) })
	})
}
