package ui

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/app/jsonlite"
	"retrylab/app/mock"
	"retrylab/core"
)

// The fault switches of a live run: the server goes down (Outage), its
// limit drops to a fraction for a while (Halve limit), or another client
// sends a burst of requests at once (Burst).
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

// faultWhen is when the fault switches work.
const faultWhen = "only during a live run on the built-in mock, or a watch of a shared room"

// faultTitle is a fault switch's title, which says, when the switch is
// off, why (it said only what it would do; a phone's tap on it, which
// takes no click, shows the title).
func (l *Lab) faultTitle(title string) string {
	switch {
	case l.s.Target != "":
		return title + ". Off with a custom target: only the built-in mock can be switched from here"
	case !l.CanOutage():
		return title + ". Off now: " + faultWhen
	}
	return title
}

// Outage takes the mock down for OutageLength for the run's key (or the
// watched room): POST /mock/outage. The timeline marks the stretch when
// the server's stream tells of it; the status says what was asked.
func (l *Lab) Outage(ctx app.Context) {
	l.fault(ctx, "Outage", mock.OutageURL(l.pageOrigin(), l.faultKey(), OutageLength), l.stretchAnswer("outage", outageText(&l.s, OutageLength)))
}

// outageText says what an outage of d does to the endpoint of s: every
// request 503, with Retry-After written as the endpoint writes it for a
// wait until the server is back.
func outageText(s *fleet.Scenario, d time.Duration) string {
	text := "Server down for " + human.Duration(d) + ": every request gets 503"
	switch s.Mock.RetryAfter {
	case mock.RetryNone:
		return text + " (no Retry-After: the endpoint sends none)"
	case mock.RetryDate:
		return text + " with Retry-After, the date it is back"
	case mock.RetryFixed:
		return text + " with Retry-After: " + strconv.Itoa(s.Mock.RetryValue) + ", as always"
	case mock.RetryMalformed:
		return text + " with a malformed Retry-After, as always"
	}
	return text + " with Retry-After, the seconds left"
}

// scheduledOutage is the transport's onOutage for a run on key
// (fleet.Outager): on fleet's goroutine it takes the mock down for d as
// Outage does, and passes why it could not to flash and returns it, which
// fleet.Run keeps in Recording.OutageErr for the status and the export.
// (It flashed only: a failure was gone with the flash, and the run ended
// as if it had had its outage.)
func (l *Lab) scheduledOutage(key string, flash func(msg string)) func(context.Context, time.Duration) error {
	origin := l.pageOrigin()
	answered := l.stretchAnswer("outage", "") // said by the timeline, not in words
	return func(octx context.Context, d time.Duration) error {
		msg, err := postSwitch(octx, "Scheduled outage", mock.OutageURL(origin, key, d), answered)
		// Started, it is the configuration doing what it says, and the
		// timeline shades it: a message over the lanes hid the herd
		// forming, in presentation mode (found by a review).
		if err != nil {
			flash(msg)
		}
		return err
	}
}

// HalveLimit multiplies the mock's limit for the run's key (or the watched
// room) by LimitScale for LimitLength: POST /mock/limit. The server keeps
// what its limiter had admitted; the histogram's limit line steps down
// when the stream tells of it.
func (l *Lab) HalveLimit(ctx app.Context) {
	msg := "Limit halved for " + human.Duration(LimitLength) + ": the server allows half as many requests"
	if l.s.Mock.Headers != mock.HeadersNone {
		msg += ", and its rate-limit headers say so"
	}
	if l.s.Mock.Limiter == core.LimitNone {
		msg = "Limit halved for " + human.Duration(LimitLength) + " — but this endpoint has no limiter (Limiter: none), so nothing changes"
	}
	l.fault(ctx, "Halve limit", l.switchURL("/mock/limit?scale="+strconv.FormatFloat(LimitScale, 'f', -1, 64)+"&for="+LimitLength.String()), l.stretchAnswer("limit", msg))
}

// BurstSize is how many requests Burst sends: twice what the limit lets
// through at once (a bucket's burst, a window's limit), so the burst
// drains it and is rejected as much again; 20 without a limiter; at most
// 1,000.
func BurstSize(s *fleet.Scenario) int {
	c := s.Mock.LimiterConfig()
	n := 20
	switch c.Kind {
	case core.LimitTokenBucket:
		n = 2 * c.Burst
	case core.LimitFixedWindow, core.LimitSlidingWindow:
		n = 2 * c.Limit
	}
	return min(1000, n)
}

// burstTitle is the Burst button's title for s: what its requests do to
// s's limit (none: they only add to what the server sees).
func burstTitle(s *fleet.Scenario) string {
	n := BurstSize(s)
	t := "Burst (b): another client sends " + strconv.Itoa(n) + " requests at once"
	c := s.Mock.LimiterConfig()
	switch {
	case c.Kind == core.LimitNone:
		return t + " to the same server; it has no limit, so they pass and only add to its load"
	case c.Kind == core.LimitTokenBucket && n == 2*c.Burst, c.Kind != core.LimitTokenBucket && n == 2*c.Limit:
		t += " to the same limit — twice what it lets through at once —"
	default:
		t += " to the same limit (the most the button sends)"
	}
	return t + " and your fleet shares what is left"
}

// halveTitle is the Halve limit button's title for s: its rate-limit
// headers, when it sends them, say the limit changed.
func halveTitle(s *fleet.Scenario) string {
	if s.Mock.LimiterConfig().Kind == core.LimitNone {
		return "Halve limit (h): this endpoint has no limiter (Limiter: none), so halving its limit changes nothing"
	}
	t := "Halve limit (h): for " + human.Duration(LimitLength) + " the server allows half its limit (what its limiter had admitted still counts)"
	if s.Mock.Headers != mock.HeadersNone {
		t += " and its rate-limit headers say so"
	}
	return t + " — see which clients adapt"
}

// Burst makes another client send BurstSize requests at once to the run's
// key (or the watched room), with the run's endpoint parameters: POST
// /mock/burst. They take from the same limit as the fleet; the server
// panel shows them in grey, and the status says how many were admitted.
func (l *Lab) Burst(ctx app.Context) {
	n := BurstSize(&l.s)
	u := strings.Replace(l.s.MockURL(l.pageOrigin(), l.faultKey()), "/mock?", "/mock/burst?n="+strconv.Itoa(n)+"&", 1)
	watching, v := l.watching, l.view
	l.fault(ctx, "Burst", u, func(body string) string {
		// Into the timeline as the stream's message would be, in case
		// that is lost (the model takes one burst once).
		var r burstAnswer
		if jsonlite.ReadObject(body, r.member) == nil {
			v.tell(mock.Event{Type: "burst", Key: r.Key, At: r.At, N: r.N, Admitted: r.Allowed})
		}
		return burstText(body, watching)
	})
}

// burstText tells what a burst did, from the server's answer: who shares
// what is left of the limit is the fleet, or in a watch the room.
func burstText(body string, watching bool) string {
	var r burstAnswer
	if jsonlite.ReadObject(body, r.member) != nil {
		return "Burst: the server's answer was not understood"
	}
	head := "Another client sent " + strconv.Itoa(r.N) + " requests at once: "
	if r.Outage > 0 && r.Outage == r.Rejected && r.Allowed == 0 {
		// Not the limit's doing: "0 admitted, 20 rejected — the room's
		// devices share what is left of the limit" during an outage
		// (a review).
		return head + "all " + strconv.Itoa(r.N) + " rejected, the server being down (Outage)"
	}
	who := "the fleet shares"
	if watching {
		who = "the room's devices share"
	}
	rejected := strconv.Itoa(r.Rejected) + " rejected"
	if r.Outage > 0 {
		rejected += " (" + strconv.Itoa(r.Outage) + " by the outage)"
	}
	return head + strconv.Itoa(r.Allowed) + " admitted, " + rejected + " — " + who + " what is left of the limit"
}

// faultKey is the key the fault switches act on: the run's, or the
// watched room.
func (l *Lab) faultKey() string {
	if l.watching {
		return l.watchRoom
	}
	return l.runKey
}

// switchURL is a stretch switch's URL: pathQuery for faultKey.
func (l *Lab) switchURL(pathQuery string) string {
	return l.pageOrigin() + pathQuery + "&key=" + url.QueryEscape(l.faultKey())
}

// stretchAnswer reads a stretch switch's answer, {"key", "from", "until",
// "scale"}, into the timeline as the stream's message of type kind would
// be (in case the stream's is lost; the model takes the same stretch
// once), and returns msg.
func (l *Lab) stretchAnswer(kind, msg string) func(body string) string {
	v := l.view
	return func(body string) string {
		var r switchAnswer
		if jsonlite.ReadObject(body, r.member) == nil {
			v.tell(mock.Event{Type: kind, Key: r.Key, At: r.From, Until: r.Until, Scale: r.Scale})
		}
		return msg
	}
}

// tell takes e, a fault's event, in as the server's stream would tell of
// it, as onServerEvent takes in a message once decoded: into the model at
// the next frame and, outside a watch, into the messages a replay reads,
// as the stream writes it (TestTellIsAStreamMessage keeps the two in step).
func (v *view) tell(e mock.Event) {
	text, err := e.JSON()
	if err != nil { // a time past year 9999 or a NaN scale: no stream sends one
		return
	}
	v.mu.Lock()
	v.srv = append(v.srv, e)
	if full := v.shownModel(); full == nil || !full.watch {
		v.srvLog = append(v.srvLog, text)
		if v.replay != nil {
			v.replay.srv = v.srvLog
		}
	}
	v.dirty = true
	v.mu.Unlock()
	v.request()
}

// fault posts the fault switch u during a live run on the built-in mock or
// a watch, and flashes what answered made of its answer, or why it failed.
func (l *Lab) fault(ctx app.Context, name, u string, answered func(body string) string) {
	if !l.CanOutage() {
		l.Flash(ctx, name+": "+faultWhen)
		return
	}
	ctx.Async(func() {
		msg, _ := postSwitch(context.Background(), name, u, answered)
		ctx.Dispatch(func(ctx app.Context) { l.Flash(ctx, msg) })
	})
}

// outageFailed says, after a live run whose scheduled outage could not be
// started (fleet.Recording.OutageErr), that the server stayed up, and why:
// the run is not the one configured. "" otherwise.
func (l *Lab) outageFailed() string {
	if l.rec == nil || l.rec.OutageErr == nil {
		return ""
	}
	s := &l.rec.Scenario
	return " The scheduled outage (" + human.Duration(s.Outage) + ", " + human.Duration(s.OutageAt) + " after the start) did not start, so the server stayed up: " + l.rec.OutageErr.Error() + "."
}

// postSwitch posts the fault switch u, named name, within ctx and at most
// 5 s, and returns what to flash: what answered made of the server's
// answer, or name's failure and why, which err is: "POST /mock/outage: "
// and the request's error, or the server's refusal, its status and its
// error.
func postSwitch(ctx context.Context, name, u string, answered func(body string) string) (msg string, err error) {
	path, _, _ := strings.Cut(u, "?")
	if i := strings.Index(path, "/mock/"); i >= 0 {
		path = path[i:]
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	status, body, err := browser.Post(ctx, u)
	cancel()
	switch {
	case err != nil:
		err = errors.New("POST " + path + ": " + err.Error())
	case status != 200:
		var e errorAnswer
		if jsonlite.ReadObject(body, e.member) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(body)
		}
		err = errors.New("POST " + path + ": the server refused it (" + strconv.Itoa(status) + "): " + e.Error)
	default:
		return answered(body), nil
	}
	return name + " failed: " + err.Error(), err
}
