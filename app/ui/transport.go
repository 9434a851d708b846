package ui

import (
	"context"
	"errors"
	"math"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
)

// fetchTransport is the page's fleet.Transport: each attempt is one fetch()
// (cache "no-store", an AbortController tied to the attempt's context), so
// the per-request timeout and Stop abort it on the wire.
//
// With the built-in mock, worker w calls the mock on MockOrigin(page, w) —
// six workers per origin, so HTTP/1.1's connection limit does not queue
// requests inside the browser; on the page's own origin on a LAN address or
// in a browser that does not reach *.localhost names (settle) — with
// &tag= naming the attempt, and the mock's JSON
// body gives the server's arrival number and receive time. A custom target is
// called as given.
type fetchTransport struct {
	bases   []string // base URL per origin shard
	custom  bool
	open    bool // an open workload: a worker's jobs overlap
	workers int
	device  string // in front of each attempt's tag in a shared room (fleet.AttemptTag)

	// check is the *.localhost check that was still going as the run
	// started, and onPage the bases on the page's origin, for settle.
	check  *subdomainCheck
	onPage func() []string

	// onOutage takes the mock down for the scenario's scheduled outage
	// (fleet.Outager), as the page's Outage switch does, and returns why
	// it could not.
	onOutage func(ctx context.Context, d time.Duration) error

	// What a custom target let us see, for the CORS explanation.
	networkErrs atomic.Int64 // TypeErrors: refused, dropped, or blocked by CORS
	answered    atomic.Int64 // attempts that got an answer, any status
	limited     atomic.Int64 // 429/503 answers
	noRetryHdr  atomic.Int64 // 429/503 answers without a readable Retry-After
	hintedOnly  atomic.Int64 // of those, answers with a readable rate-limit header: the server exposes headers
	redirects   atomic.Int64 // answers that came after a redirect: the server received those attempts twice or more
}

// In a shared room each attempt's tag starts with device, the page's name
// in the room, so a watch of the room draws a lane per device. check is the
// page's check of the *.localhost origins (nil: none): the mock's requests
// are spread over them unless it failed, and while it goes on, settle
// waits for its answer.
func newFetchTransport(page *url.URL, check *subdomainCheck, s fleet.Scenario, runKey, device string) *fetchTransport {
	t := &fetchTransport{custom: s.Target != ""}
	if t.custom {
		t.bases = []string{s.Target}
		return t
	}
	t.open, t.workers = s.Open, s.Workers
	if s.Room != "" {
		t.device = device
	}
	t.bases = mockBases(page, !check.failed(), s, runKey)
	if check.pending() {
		t.check, t.onPage = check, func() []string { return mockBases(page, false, s, runKey) }
	}
	return t
}

// mockBases are the mock's URLs for s's workers under runKey, an origin's
// each: spread over MockOrigin's, or all on the page's origin.
func mockBases(page *url.URL, spread bool, s fleet.Scenario, runKey string) []string {
	shards := (s.Workers + WorkersPerOrigin - 1) / WorkersPerOrigin
	if s.Open {
		shards = max(shards, openShards)
	}
	var bases []string
	for i := range max(1, shards) {
		origin := pageOrigin(page)
		if spread {
			origin = MockOrigin(page, i*WorkersPerOrigin)
		}
		bases = append(bases, s.MockURL(origin, runKey))
	}
	return bases
}

// settle waits, before the run's first request, for the page's check of
// the *.localhost origins when it was still going as the run started (or
// for ctx: Stop) and, where the browser does not reach them, sends the
// mock's requests to the page's origin instead.
func (t *fetchTransport) settle(ctx context.Context) {
	if t.check == nil {
		return
	}
	t.check.wait(ctx)
	if t.check.failed() {
		t.bases = t.onPage()
	}
}

// Outage is fleet.Outager: Run calls it when the scenario's scheduled
// outage is due, and keeps why it could not start in
// Recording.OutageErr (a custom target never gets here: fleet refuses an
// outage for one).
func (t *fetchTransport) Outage(ctx context.Context, d time.Duration) error {
	if t.onOutage == nil {
		return errors.New("ui: no outage switch")
	}
	return t.onOutage(ctx, d)
}

// openShards is how many origins an open workload spreads over: six
// requests each, 504 in flight at once, more than Chromium's 256 sockets.
const openShards = (fleet.LiveArrivalMax + WorkersPerOrigin - 1) / WorkersPerOrigin

// oneOrigin reports whether every worker's requests went to one origin
// (a custom target; the mock on the page's own origin), whose six
// HTTP/1.1 connections they shared. A nil t is taken as one.
func (t *fetchTransport) oneOrigin() bool {
	if t == nil || t.custom {
		return true
	}
	origin := func(u string) string {
		p, err := url.Parse(u)
		if err != nil {
			return u
		}
		return p.Scheme + "://" + p.Host
	}
	for _, b := range t.bases[min(1, len(t.bases)):] {
		if origin(b) != origin(t.bases[0]) {
			return false
		}
	}
	return true
}

// base is the URL job's attempts go to. A closed workload has one request
// in flight per worker: six workers share an origin. In an open one a
// worker's jobs overlap, so jobs take origins in the order of the steady
// schedule's arrivals instead (job·workers + worker, sim.Arrivals): six
// consecutive arrivals share one, and the next six the next, round the
// openShards origins; the jobs in flight at once, mostly recent arrivals,
// land on different ones. With random arrivals that order is only roughly
// the arrival order, so jobs in flight at once share an origin a little
// more often.
func (t *fetchTransport) base(worker, job int) string {
	if t.custom {
		return t.bases[0]
	}
	if t.open {
		return t.bases[(job*t.workers+worker)/WorkersPerOrigin%len(t.bases)]
	}
	return t.bases[min(worker/WorkersPerOrigin, len(t.bases)-1)]
}

// url is the address of worker's attempt of job: on the mock, tagged with
// the attempt (and, in a shared room, the page's device name).
func (t *fetchTransport) url(worker, job, attempt int) string {
	tag := ""
	if !t.custom {
		tag = fleet.AttemptTag(t.device, worker, job, attempt)
	}
	return fleet.AttemptURL(t.base(worker, job), tag)
}

// Do performs one attempt. Its Handoff is from Do's start (the loop has
// just sent the attempt, once browser.Clock.Pace let the page run) to the
// browser starting the request: the hop to the fetch worker and that
// worker's backlog.
func (t *fetchTransport) Do(ctx context.Context, worker, job, attempt int) fleet.Attempt {
	sent := browser.Now()
	fetch := browser.FetchOpen // the mock allows every origin
	if t.custom {
		fetch = browser.Fetch // the user's API may allow the page's origin only
	}
	r, err := fetch(ctx, t.url(worker, job, attempt))
	if err != nil {
		if ctx.Err() != nil {
			return fleet.Attempt{Err: ctx.Err()} // timeout (DeadlineExceeded) or Stop (Canceled)
		}
		var je *browser.JSError
		if errors.As(err, &je) && je.Name == "TypeError" {
			t.networkErrs.Add(1)
			err = errNetwork
			if !t.custom {
				err = errMockNetwork // the mock allows every origin: not CORS
			}
		}
		return fleet.Attempt{Err: err}
	}
	t.answered.Add(1)
	a := fleet.Attempt{Status: r.Status, Header: r.Header, Redirected: r.Redirected}
	if r.Redirected != "" {
		t.redirects.Add(1)
	}
	timed(&a, r.Timing, sent, browser.Now())
	if r.Status == 429 || r.Status == 503 {
		t.limited.Add(1)
		if r.Header.Get("Retry-After") == "" {
			t.noRetryHdr.Add(1)
			if fleet.RateLimitLines(r.Header, "") != "" {
				t.hintedOnly.Add(1)
			}
		}
	}
	if !t.custom {
		a.ServerSeq, a.ServerAt, _ = fleet.MockFacts([]byte(r.Body))
	}
	return a
}

// timed sets a's Handoff (from sent, performance.now() as Do began, to
// fetchStart), Queued and Pickup (from responseEnd to now) from the
// browser's timing t, and marks those it told (fleet.Attempt.Measured): a
// time the browser did not expose (0 in t) is unknown, and one it did may
// be 0 (a request sent at once). A measured 0 was left out of the exports
// and of the queueing's percentiles, as if not measured. Milliseconds
// become nanoseconds rounded, not cut: a handoff of 223.3 ms read
// 223.299999 ms.
func timed(a *fleet.Attempt, t browser.Timing, sent, now float64) {
	dur := func(ms float64) time.Duration {
		return time.Duration(math.Round(max(0, ms) * float64(time.Millisecond)))
	}
	if q, ok := t.Queued(); ok {
		a.Queued, a.Measured = dur(q), a.Measured|fleet.MeasuredQueued
	}
	if t.FetchStart > 0 && sent > 0 {
		a.Handoff, a.Measured = dur(t.FetchStart-sent), a.Measured|fleet.MeasuredHandoff
	}
	if t.ResponseEnd > 0 && now > 0 {
		a.Pickup, a.Measured = dur(now-t.ResponseEnd), a.Measured|fleet.MeasuredPickup
	}
}

// errNetwork is what the browser tells about a failed fetch: nothing more
// (a refused or dropped connection and a CORS rejection look the same).
var errNetwork = errors.New("network error: the connection failed or CORS blocked the response")

// errMockNetwork is errNetwork from the built-in mock, which allows every
// origin: the connection failed (dropped by the mock's drop, refused, reset).
var errMockNetwork = errors.New("network error: the connection failed (dropped, refused or reset)")

// corsNote explains, for a custom target, what the browser may be hiding,
// and what it did beyond the page's requests. It is "" when nothing
// suggests a problem.
func (t *fetchTransport) corsNote() string {
	if t == nil || !t.custom {
		return ""
	}
	note := t.headersNote()
	if n := t.redirects.Load(); n > 0 {
		// The server counted more requests than the page sent, unsaid (an
		// API user's review).
		note = strings.TrimSpace(note + " Your server redirected " + thousands(int(n)) + plural(int(n), " request", " requests") +
			": fetch() follows a redirect with another request, so your server received those attempts twice or more, and counts more requests than the page sent.")
	}
	return note
}

// headersNote is corsNote's part on what the browser hid: "" when nothing
// suggests a problem.
func (t *fetchTransport) headersNote() string {
	switch {
	case t.networkErrs.Load() > 0:
		// "Some" when none got through read as a server that answered
		// now and then (a review: 180 of 180 failed).
		some := "Some requests"
		if t.answered.Load() == 0 {
			some = "Every request"
		}
		return some + " failed with a network error: your server did not answer (down, unreachable, or over https " +
			"with a certificate this browser does not trust), or it did and CORS hid the answer; browsers report them alike. " +
			"If it is up, it must answer with Access-Control-Allow-Origin (e.g. *) for this page's origin on every response, " +
			"its 429s and 503s included (gateways often leave it off their rejections)."
	case t.limited.Load() > 0 && t.noRetryHdr.Load() == t.limited.Load() && t.hintedOnly.Load() > 0:
		// Its rate-limit headers came through, so it exposes headers: the
		// note told it to expose what it did.
		return "Rejections came back with rate-limit headers but no Retry-After: your server sends none, " +
			"or leaves it out of Access-Control-Expose-Headers, which lists the others (fetch() sees only the headers listed there)."
	case t.limited.Load() > 0 && t.noRetryHdr.Load() == t.limited.Load():
		// Each header by its name: the list takes no prefix wildcard
		// (X-RateLimit-* exposed nothing, found by a review), only a
		// whole "*" for requests without credentials, as the page's are.
		return "Rejections came back without a readable Retry-After: your server sends none, or, cross-origin, " +
			"leaves it out of Access-Control-Expose-Headers (fetch() sees only the headers listed there): list Retry-After " +
			"and the rate-limit headers you send, each by name (the list takes no X-RateLimit-*): " + fleet.RateLimitHeaderNames + "; or expose every header with *."
	}
	return ""
}
