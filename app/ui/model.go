package ui

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// mark is one attempt as the timeline draws it. Times are offsets from the
// run's start.
type mark struct {
	worker, job, attempt int
	slot                 uint8 // its job's row in the worker's lane (jobState.slot)
	class                fleet.Class
	status               int
	intended, sent, end  time.Duration // end < 0 while in flight
	handoff              time.Duration // from sent to the browser starting the request (fetchStart)
	queued               time.Duration // browser-side queueing, after the handoff
	pickup               time.Duration // from the answer's end (responseEnd) to the loop taking it in, at end
	serverAt             time.Duration // server receive time (by the server's clock, less model.shift)
	hasServer            bool
	serverSeq            int
	again                int           // how many times its client sent it again after the server left it unanswered (arrival.again)
	redirected           bool          // the server redirected it: it received the attempt twice or more (fleet.Attempt.Redirected)
	hdr                  core.Header   // the response's headers (Retry-After, rate-limit hints), read when described
	err                  error         // the attempt's error, if any
	bucketWait           time.Duration // waited for a fleet-bucket token before it
	waitAfter            time.Duration // the wait chosen after it
	waitReason           core.Reason
	waitNote             string // the wait's note
	endNote              string // on the attempt its job gave up after, why (stopNote)
	hasWait              bool
	cut                  uint8 // cutRun, cutLimit: its job was cancelled after it, once the wait after it was chosen
	prev, next           int   // the same job's attempts (-1: none)
	// The waits drawn around it (indices into model.spans, -1: none): the
	// one after it, and the first fleet-bucket wait before it.
	waitSpan, bucketSpan int32
}

// What cancelled a job once the wait after its last attempt was chosen
// (mark.cut): the run was stopped (Stop, or a live run's request limit),
// or a simulation reached its attempt limit.
const (
	cutRun uint8 = 1 + iota
	cutLimit
)

// span is a wait drawn in a worker's lane.
type span struct {
	worker  int
	slot    uint8 // its job's row in the worker's lane (jobState.slot)
	reason  core.Reason
	from    time.Duration
	planned time.Duration // when the loop meant it to end
	to      time.Duration // when it ended; < 0 while waiting
}

// jobEnd is a job's EventDone.
type jobEnd struct {
	worker int
	slot   uint8 // the job's row in the worker's lane
	at     time.Duration
	ok     bool
	cause  string
}

// arrival is one request as the server saw it, from the mock's arrivals
// stream: its own requests and, in a shared room, everyone else's.
type arrival struct {
	at        time.Duration // server receive time (by the server's clock, less model.shift)
	seq       int
	class     fleet.Class // what the server did: ok, limited, failed (500/503/drop), timeout (hang)
	mark      int         // the attempt it is, or -1 (another client, or not matched yet)
	cancelled bool        // the client went away before the answer (abort, timeout)
	ended     bool        // the server finished handling it: nothing more will change
	status    int         // the status the server chose (0: drop, hang)
	outcome   string      // what the server did: ok, limited, outage, …
	tag       string      // the client's label: "w3.j0.a2" for a worker's attempt
	dev       int         // a watch's lane: index in model.devices
	// again is n for the n-th time its client sent the attempt again after
	// the server left it unanswered (a drop, a hang closed): a browser, as
	// Go's Transport does, sends a GET again on another connection when a
	// reused keep-alive one closes with no answer, and the mock tells each
	// arrival with the attempt's tag (and, with seed, rolls it alike).
	again int
}

// interval is a stretch of the run, [from, to); to < 0 while open.
type interval struct{ from, to time.Duration }

// burst is another client's n requests arriving at once, admitted of them
// admitted.
type burst struct {
	at          time.Duration
	n, admitted int
}

// squeeze is a stretch when the server's limit was multiplied by scale.
type squeeze struct {
	interval
	scale float64
}

// resumes reports whether a fault switch's message for [from, to) is about
// last, the latest stretch of its kind, and if so applies it: a message
// starting inside last extends it or ends it early.
func resumes(last *interval, from, to time.Duration) bool {
	if from < last.from || from > last.to {
		return false
	}
	last.to = to
	return true
}

// model is what a run looks like so far, built incrementally from its
// records (one worker's records arrive in order). It is not safe for
// concurrent use: view guards it.
type model struct {
	id      uint64 // this model's own number (modelIDs): a baseline remembers it, not the model
	start   time.Time
	workers int
	marks   []mark
	spans   []span
	// faultRev counts the messages of outages, scaled limits and bursts
	// taken in: the summary that names them is made again when it moves.
	faultRev int
	ends     []jobEnd
	lanes    [][]int // per worker: indices into marks, in send order
	hidden   []interval
	lost     []interval    // the server's stream not connected: arrivals not seen
	outages  []interval    // the server was down (POST /mock/outage), by the server's clock (less shift)
	limits   []squeeze     // the server's limit was scaled (POST /mock/limit), by its clock (less shift)
	bursts   []burst       // another client's bursts (POST /mock/burst), by the server's clock (less shift)
	last     time.Duration // latest event time: lastPage's or lastSrv's
	// lastPage and lastSrv are the latest event times by the page's clock
	// and by the server's (less shift, which reclock moves it by).
	lastPage, lastSrv time.Duration

	arrivals  []arrival       // from the server's stream; empty without one
	simulated bool            // the run was simulated in virtual time
	watch     bool            // a watch of a shared room: arrivals only, no fleet of ours
	wcount    watchStats      // a watch's counts, kept as arrivals come in
	quotas    []int           // a watch's: each quota (Event.Limit: a bucket's burst, a window's limit) the room's limiter had, in order seen
	recent    []time.Duration // a watch's arrivals within 1 s of the newest, sorted (for the peak)
	room      bool            // a shared room: other devices' arrivals come too
	self      string          // in a room, this page's name in front of its attempts' tags (fleet.AttemptTag)
	ownServer bool            // the user's own URL: no arrivals stream, the server panel stays empty
	others    bool            // a run of its own received another client's requests (Burst)
	devices   []string        // a watch's lanes: each device seen, in order of its first arrival ("": no device name)
	pictured  bool            // a watch's arrivals are drawn as pictures (drawsPictures)
	inView    int             // a watch's arrivals in view at the last whole redraw (drawsPictures)
	devIdx    map[string]int
	arrBySeq  map[int]int // arrival number → index in arrivals
	markBySeq map[int]int // arrival number → index in marks (from response bodies)
	// clockLo and clockHi bound the server's clock less the page's, from
	// the answers so far and the stream's hello (clockN, bound).
	clockLo, clockHi time.Duration
	clockN           int
	// shift is how far the server's clock is taken to be ahead of the
	// page's (reclock): its times (arrivals, answers' receipt, outages,
	// scaled limits, bursts) are drawn that much earlier, on the page's
	// clock. 0 on one machine.
	shift time.Duration
	// unanswered counts, for each tag whose arrival the server left
	// unanswered (a drop, a hang), how many times it arrived again since.
	unanswered map[string]int
	// sentAgain is how many arrivals of the run's own attempts were one
	// sent again (arrival.again > 0): the server received the requests
	// counted plus these.
	sentAgain int

	// Jobs in progress. A worker has one at a time in a closed workload,
	// several at once in an open one.
	// cur is each worker's latest job: every event of a closed workload
	// finds its job there without a map lookup.
	jobs map[jobID]*jobState
	cur  []*jobState
	free []*jobState // states of ended jobs, for the next ones
	// A worker's overlapping jobs (an open workload) each take a row of
	// its lane: slots has a bit per row in use, per worker; rows is the
	// most a worker has needed at once so far.
	slots []uint64
	rows  int
}

type jobID struct{ worker, job int }

// jobState is where a job in progress stands in the model.
type jobState struct {
	job        int
	openMark   int           // the attempt in flight, or -1
	openSpan   int           // the wait in progress, or -1
	lastMark   int           // its latest attempt, or -1
	pendBucket time.Duration // bucket waits since its last attempt
	pendSpan   int32         // the first of them (an index into model.spans), or -1
	slot       uint8         // its row in the worker's lane: the lowest free when it started
}

// job returns the state of r's job, creating it at the job's first event.
func (m *model) job(r *fleet.Record) *jobState {
	if j := m.cur[r.Worker]; j != nil && j.job == r.Job {
		return j
	}
	id := jobID{r.Worker, r.Job}
	if j, ok := m.jobs[id]; ok {
		return j
	}
	var j *jobState
	if n := len(m.free); n > 0 {
		j, m.free = m.free[n-1], m.free[:n-1]
	} else {
		j = new(jobState)
	}
	*j = jobState{job: r.Job, openMark: -1, openSpan: -1, lastMark: -1, pendSpan: -1}
	if m.slots == nil {
		m.slots = make([]uint64, m.workers)
	}
	// The lowest row free in the worker's lane (the 64th and later jobs at
	// once share the last).
	used := &m.slots[r.Worker]
	j.slot = uint8(min(bits.TrailingZeros64(^*used), 63))
	*used |= 1 << j.slot
	m.rows = max(m.rows, int(j.slot)+1)
	m.jobs[id] = j
	m.cur[r.Worker] = j
	return j
}

// modelIDs numbers the models made (model.id).
var modelIDs atomic.Uint64

func newModel(start time.Time, workers int) *model {
	return newModelFor(start, workers, nil)
}

// newModelFor is newModel with room for recs (a finished recording that
// will be added): counting first saves growing the slices hundreds of
// thousands of elements at a time.
func newModelFor(start time.Time, workers int, recs []fleet.Record) *model {
	m := &model{id: modelIDs.Add(1), start: start, workers: workers, arrBySeq: map[int]int{}, markBySeq: map[int]int{}, unanswered: map[string]int{}}
	if len(recs) > 0 {
		var attempts, waits, ends int
		perWorker := make([]int32, workers)
		for i := range recs {
			switch recs[i].Event.Kind {
			case core.EventAttempt:
				attempts++
				if w := recs[i].Worker; w >= 0 && w < workers {
					perWorker[w]++
				}
			case core.EventWait:
				waits++
			case core.EventDone:
				ends++
			}
		}
		m.marks = make([]mark, 0, attempts)
		m.spans = make([]span, 0, waits)
		m.ends = make([]jobEnd, 0, ends)
		// One backing array for every lane.
		all := make([]int, attempts)
		m.lanes = make([][]int, workers)
		off := 0
		for w, n := range perWorker {
			m.lanes[w] = all[off : off : off+int(n)]
			off += int(n)
		}
	}
	if m.lanes == nil {
		m.lanes = make([][]int, workers)
	}
	m.jobs = make(map[jobID]*jobState, workers)
	m.cur = make([]*jobState, workers)
	return m
}

// clockSlack is how far the server's clock may seem off the page's on one
// machine: the page's wall clock is in whole milliseconds (Go's in wasm
// reads Date).
const clockSlack = 20 * time.Millisecond

// clockOff is how much the server's clock is ahead of the page's (behind:
// negative), at least, when the bounds show it (bound), else 0: another
// machine's (a workshop's laptops joining the presenter's server, the
// projector watching its room) may be seconds off the page's.
func (m *model) clockOff() time.Duration {
	switch {
	case m.clockN == 0 || m.simulated:
		return 0
	case m.clockLo > clockSlack:
		return m.clockLo
	case m.clockHi < -clockSlack:
		return m.clockHi
	}
	return 0
}

// since is t as an offset from the run's start.
func (m *model) since(t time.Time) time.Duration { return t.Sub(m.start) }

// sinceServer is t, a time by the server's clock, as an offset from the
// run's start on the page's clock (shift).
func (m *model) sinceServer(t time.Time) time.Duration { return m.since(t) - m.shift }

// clockStep is the least move of shift once it is not 0: each move
// shifts every server time drawn, and the answers narrow the bounds by a
// little at a time.
const clockStep = 5 * time.Millisecond

// reclock takes the server's clock to be off the page's by the middle of
// the bounds, once they show it off (clockOff), and moves the
// server times drawn so far by the change: a laptop 2 s ahead of the
// presenter's server drew 26 of a run's 30 arrivals left of the axis and
// the rest under the wrong requests (a review). Any shift within the
// bounds puts each of this page's arrivals within its request's flight.
func (m *model) reclock() {
	want := m.clockOff()
	if want != 0 && m.clockLo <= m.clockHi {
		want = m.clockLo + (m.clockHi-m.clockLo)/2
	}
	d := want - m.shift
	if d == 0 || want != 0 && m.shift != 0 && d.Abs() < clockStep {
		return
	}
	m.shift = want
	for i := range m.arrivals {
		m.arrivals[i].at -= d
	}
	for i := range m.marks {
		if m.marks[i].hasServer {
			m.marks[i].serverAt -= d
		}
	}
	for i := range m.outages {
		m.outages[i].from -= d
		m.outages[i].to -= d
	}
	for i := range m.limits {
		m.limits[i].from -= d
		m.limits[i].to -= d
	}
	for i := range m.bursts {
		m.bursts[i].at -= d
	}
	if len(m.arrivals) > 0 { // an arrival before the first answer no longer stretches the axis
		m.lastSrv -= d
		m.last = max(m.lastPage, m.lastSrv)
	}
	m.faultRev++ // the summary says when they were
}

// bound takes in that the server's clock less the page's is between lo
// and hi (an answer's: it was received between its send and its answer;
// the stream's hello: it was sent between the stream's opening and its
// arrival), and moves the server's times drawn if the bounds now say so.
func (m *model) bound(lo, hi time.Duration) {
	if m.clockN == 0 {
		m.clockLo, m.clockHi = lo, hi
	} else {
		m.clockLo, m.clockHi = max(m.clockLo, lo), min(m.clockHi, hi)
	}
	m.clockN++
	m.reclock()
}

// add takes one record in.
func (m *model) add(r *fleet.Record) {
	w := r.Worker
	if w < 0 || w >= m.workers {
		return
	}
	e := &r.Event
	t := m.since(e.At)
	m.lastPage = max(m.lastPage, t)
	m.last = max(m.lastPage, m.lastSrv)
	j := m.job(r)
	switch e.Kind {
	case core.EventWait:
		m.closeSpan(j, t)
		planned := t + e.Wait
		if planned < t { // a wait of the largest Duration (a saturated Retry-After) ends at the end of time
			planned = math.MaxInt64
		}
		m.spans = append(m.spans, span{worker: w, slot: j.slot, reason: e.Reason, from: t, planned: planned, to: -1})
		j.openSpan = len(m.spans) - 1
		if e.Reason == core.ReasonBucket {
			j.pendBucket += e.Wait
			if j.pendSpan < 0 {
				j.pendSpan = int32(j.openSpan)
			}
		} else if i := j.lastMark; i >= 0 {
			k := &m.marks[i]
			k.waitAfter, k.waitReason, k.waitNote, k.hasWait = e.Wait, e.Reason, e.Note, true
			k.waitSpan = int32(j.openSpan)
		}
	case core.EventAttempt:
		m.closeSpan(j, t)
		k := mark{
			worker: w, slot: j.slot, job: r.Job, attempt: e.Attempt, class: fleet.ClassPending,
			intended: t, sent: t, end: -1, bucketWait: j.pendBucket, prev: -1, next: -1,
			waitSpan: -1, bucketSpan: j.pendSpan,
		}
		if !e.Intended.IsZero() {
			k.intended = m.since(e.Intended)
		}
		j.pendBucket, j.pendSpan = 0, -1
		i := len(m.marks)
		if p := j.lastMark; p >= 0 {
			k.prev = p
			m.marks[p].next = i
		}
		m.marks = append(m.marks, k)
		m.lanes[w] = append(m.lanes[w], i)
		j.openMark, j.lastMark = i, i
	case core.EventOutcome:
		i := j.openMark
		if i < 0 {
			return
		}
		j.openMark = -1
		k := &m.marks[i]
		k.end = t
		k.class = fleet.Classify(e.Outcome)
		k.status = e.Outcome.Status
		k.err, k.hdr = e.Outcome.Err, e.Outcome.Header
		if a := r.Attempt; a != nil {
			k.handoff, k.queued, k.pickup, k.redirected = a.Handoff, a.Queued, a.Pickup, a.Redirected != ""
			if !a.ServerAt.IsZero() {
				k.serverAt, k.hasServer, k.serverSeq = m.sinceServer(a.ServerAt), true, a.ServerSeq
				raw := m.since(a.ServerAt)
				m.bound(raw-t, raw-k.sent)
			}
			if a.ServerSeq > 0 && !m.simulated { // a simulation has no arrivals stream to match
				m.markBySeq[a.ServerSeq] = i
				if ai, ok := m.arrBySeq[a.ServerSeq]; ok {
					m.arrivals[ai].mark = i
				}
			}
		}
	case core.EventDone:
		cause := fleet.Cause(e.Err)
		if i := j.lastMark; i >= 0 && e.Err != nil {
			switch k := &m.marks[i]; {
			case cause != "cancelled":
				k.endNote = stopNote(e) // after the wait too: its bucket wait would end past max elapsed
			case k.hasWait && fleet.AtAttemptLimit(e.Err):
				k.cut = cutLimit
			case k.hasWait:
				k.cut = cutRun
			}
		}
		m.endJob(j, t)
		delete(m.jobs, jobID{w, r.Job})
		if m.cur[w] == j {
			m.cur[w] = nil
		}
		m.free = append(m.free, j)
		if j.slot < 63 {
			m.slots[w] &^= 1 << j.slot
		}
		m.ends = append(m.ends, jobEnd{worker: w, slot: j.slot, at: t, ok: e.Err == nil, cause: cause})
	}
}

// stopNote says why a job stopped, from its EventDone: core's note ("max
// attempts 10 reached", "backoff wait 2s would end past max elapsed 1s
// (10ms used)"), or, for an empty retry budget, that (its note is the
// wait's that was not taken).
func stopNote(e *core.Event) string {
	if errors.Is(e.Err, core.ErrBudgetEmpty) {
		return "the fleet's retry budget is empty"
	}
	return e.Note
}

func (m *model) closeSpan(j *jobState, t time.Duration) {
	if i := j.openSpan; i >= 0 {
		m.spans[i].to = t
		j.openSpan = -1
	}
}

// endJob closes what j has open at t: its wait, and an attempt in flight
// (cancelled with it: aborted).
func (m *model) endJob(j *jobState, t time.Duration) {
	m.closeSpan(j, t)
	if i := j.openMark; i >= 0 {
		m.marks[i].end, m.marks[i].class = t, fleet.ClassAborted
		j.openMark = -1
	}
}

// setLost opens (lost) or closes a stretch at t when the server's stream
// was not connected: its arrivals then were not seen.
func (m *model) setLost(lost bool, t time.Duration) { openOrClose(&m.lost, lost, t) }

// lostFor reports whether the server's stream is disconnected now, and
// how long it was in all.
func (m *model) lostFor(now time.Duration) (open bool, total time.Duration) {
	for _, g := range m.lost {
		to := g.to
		if to < 0 {
			open, to = true, now
		}
		total += to - g.from
	}
	return open, total
}

// setHidden opens or closes a hidden-tab stretch at t.
func (m *model) setHidden(hidden bool, t time.Duration) { openOrClose(&m.hidden, hidden, t) }

// openOrClose opens a stretch of list at t (open), unless one is open, or
// closes the open one at t.
func openOrClose(list *[]interval, open bool, t time.Duration) {
	n := len(*list)
	isOpen := n > 0 && (*list)[n-1].to < 0
	switch {
	case open && !isOpen:
		*list = append(*list, interval{from: max(0, t), to: -1})
	case !open && isOpen:
		(*list)[n-1].to = max((*list)[n-1].from, t)
	}
}

// finish closes whatever is still open at t (the run returned).
func (m *model) finish(t time.Duration) {
	for _, j := range m.jobs {
		m.endJob(j, t)
	}
	if n := len(m.hidden); n > 0 && m.hidden[n-1].to < 0 {
		m.hidden[n-1].to = t
	}
	m.lastPage = max(m.lastPage, t)
	m.last = max(m.lastPage, m.lastSrv)
}

// serverEvent takes one message of the mock's arrivals stream in.
func (m *model) serverEvent(e *mock.Event) {
	switch e.Type {
	case "arrival":
		if e.Seq == 0 {
			return
		}
		// The strings are copied: the decoder's point into the whole
		// message, which would stay alive with each of 300,000 arrivals.
		a := arrival{at: m.sinceServer(e.At), seq: int(e.Seq), class: serverClass(e.Outcome), mark: -1, status: e.Status, outcome: outcomeName(e.Outcome), tag: strings.Clone(e.Tag)}
		if i, ok := m.markBySeq[a.seq]; ok {
			a.mark = i
		} else if !m.watch {
			// Unanswered (a timeout, an abort, a drop), an attempt is known
			// by its tag alone: in a room by this page's device name in
			// front of it (every such attempt of a room's run was drawn as
			// another client's, found by a review).
			if dev, w, j, n, ok := fleet.ParseAttemptTag(e.Tag); ok && dev == m.self && (dev != "" || !m.room) && w < m.workers {
				a.mark = m.findMark(w, j, n)
			}
		}
		if a.mark < 0 && !m.room && !m.watch {
			m.others = true
		}
		if a.tag != "" {
			if n, ok := m.unanswered[a.tag]; ok {
				a.again, m.unanswered[a.tag] = n+1, n+1
			} else if e.Outcome == "drop" || e.Outcome == "hang" {
				m.unanswered[a.tag] = 0
			}
		}
		if a.mark >= 0 {
			k := &m.marks[a.mark]
			if !k.hasServer { // no answer (aborted, timed out, dropped): the stream is the only witness
				k.serverAt, k.hasServer, k.serverSeq = a.at, true, a.seq
			}
			k.again = max(k.again, a.again)
			if a.again > 0 {
				m.sentAgain++
			}
		}
		if m.watch {
			a.dev = m.device(e.Tag)
			if e.Limit > 0 && !slices.Contains(m.quotas, e.Limit) {
				m.quotas = append(m.quotas, e.Limit)
			}
		}
		if len(m.arrivals) == 0 || a.at > m.lastSrv {
			m.lastSrv = a.at
		}
		m.arrBySeq[a.seq] = len(m.arrivals)
		m.arrivals = append(m.arrivals, a)
		m.last = max(m.lastPage, m.lastSrv)
		if m.watch {
			m.countWatch(&a)
		}
	case "dropped":
		m.wcount.Dropped += int(e.Dropped)
	case "outage":
		m.faultRev++
		from, to := m.sinceServer(e.At), m.sinceServer(e.Until)
		if n := len(m.outages); (n == 0 || !resumes(&m.outages[n-1], from, to)) && to > from {
			m.outages = append(m.outages, interval{from, to})
		}
	case "burst":
		m.faultRev++
		b := burst{m.sinceServer(e.At), e.N, e.Admitted}
		if !slices.Contains(m.bursts, b) { // the Burst button's answer tells of it too (in case the stream's is lost)
			m.bursts = append(m.bursts, b)
		}
	case "limit":
		m.faultRev++
		from, to := m.sinceServer(e.At), m.sinceServer(e.Until)
		if n := len(m.limits); n > 0 && from >= m.limits[n-1].from && from <= m.limits[n-1].to {
			// About the latest stretch: the same scale extends it; an end
			// (to = from) or another scale (the mock holds one per key:
			// another client's, in a room) ends it here.
			last := &m.limits[n-1]
			if e.Scale == last.scale || to <= from {
				last.to = to
				break
			}
			if last.to = from; from == last.from {
				m.limits = m.limits[:n-1]
			}
		}
		if to > from && e.Scale > 0 {
			m.limits = append(m.limits, squeeze{interval{from, to}, e.Scale})
		}
	case "end":
		if i, ok := m.arrBySeq[int(e.Seq)]; ok {
			m.arrivals[i].ended = true
			if e.End == "cancelled" {
				m.arrivals[i].cancelled = true
			}
		}
	}
}

// device is the watch lane of an arrival tagged tag: its device's, a new
// lane for a device not seen before, or the lane of arrivals with no
// device name (a client other than the page: curl, a burst).
func (m *model) device(tag string) int {
	name, _, _, _, ok := fleet.ParseAttemptTag(tag)
	if !ok {
		name = ""
	}
	if i, ok := m.devIdx[name]; ok {
		return i
	}
	if m.devIdx == nil {
		m.devIdx = map[string]int{}
	}
	m.devIdx[name] = len(m.devices)
	m.devices = append(m.devices, name)
	if name != "" {
		m.wcount.Devices++
	}
	return len(m.devices) - 1
}

// findMark is the index of worker w's attempt n of job j, or -1.
func (m *model) findMark(w, j, n int) int {
	lane := m.lanes[w]
	for i := len(lane) - 1; i >= 0; i-- {
		if k := &m.marks[lane[i]]; k.job == j && k.attempt == n {
			return lane[i]
		}
	}
	return -1
}

// rateLimit joins the attempt's rate-limit headers, or "".
func (k *mark) rateLimit() string {
	if k.hdr == nil {
		return ""
	}
	return fleet.RateLimitLines(k.hdr, "; ")
}

// errText is the attempt's error, or "".
func (k *mark) errText() string {
	if k.err == nil {
		return ""
	}
	return k.err.Error()
}

// outcomeName is the mock's name for an outcome, shared, or a copy of an
// unknown one.
func outcomeName(o string) string {
	for i := mock.OutcomeOK; i <= mock.OutcomeOutage; i++ {
		if n := i.String(); n == o {
			return n
		}
	}
	return strings.Clone(o)
}

// serverClass is how the page colours what the server did: as the client
// classes the answer (fleet.Classify), so an arrival and its attempt look
// alike. Every 503 is "429 / 503", whether the limiter, an outage or an
// injected failure sent it.
func serverClass(outcome string) fleet.Class {
	switch outcome {
	case "ok":
		return fleet.ClassOK
	case "limited", "outage", "fail503":
		return fleet.ClassLimited
	case "hang":
		return fleet.ClassTimeout
	}
	return fleet.ClassFailed
}

// histogram counts attempts per slice of the run by send time, stacked by
// the class of their outcome (ClassPending in flight), from the model,
// in the slices from first to n: bins[i] is slice first+i. A watch has no
// attempts of its own: it counts the room's arrivals by receive time,
// stacked by what the server did.
func (m *model) histogram(slice time.Duration, first, n int) [][fleet.NumClasses]int {
	bins := make([][fleet.NumClasses]int, max(0, n-first))
	if m.watch {
		for i := range m.arrivals {
			a := &m.arrivals[i]
			if b := int(a.at/slice) - first; b >= 0 && b < len(bins) {
				bins[b][a.class]++
			}
		}
		return bins
	}
	for i := range m.marks {
		k := &m.marks[i]
		b := int(k.sent/slice) - first
		if b >= 0 && b < len(bins) {
			bins[b][k.class]++
		}
	}
	return bins
}

// watchStats is what a watch of a shared room counts: every arrival the
// server reported, by what it did, and the busiest second.
type watchStats struct {
	Arrivals int           // requests the server received
	OK       int           // answered 2xx
	Limited  int           // answered 429 or 503 (the limiter, an outage, an injected 503)
	Failed   int           // injected 500s, drops and hangs
	Peak     int           // most arrivals in any 1 s (a sliding window, as the run's peak req/s)
	Devices  int           // devices that sent requests (pages in the room, by their device name)
	Dropped  int           // arrivals the server's stream dropped for this page (a slow reader)
	For      time.Duration // how long the watch has lasted (set by the Lab)
	Lost     bool          // the server's stream is disconnected now (the browser reconnects)
	LostFor  time.Duration // how long it was disconnected in all: arrivals then not seen
	Refused  int           // the status the server refused the stream with, not asked again (browser.Stream); 0: none
}

// WatchMaxArrivals is the most arrivals a watch keeps (~150 bytes each): a
// watch that reaches it stops, and says so.
const WatchMaxArrivals = 300_000

// countWatch counts one arrival of a watch.
func (m *model) countWatch(a *arrival) {
	w := &m.wcount
	w.Arrivals++
	switch a.class {
	case fleet.ClassOK:
		w.OK++
	case fleet.ClassLimited:
		w.Limited++
	case fleet.ClassFailed, fleet.ClassTimeout:
		w.Failed++
	}
	// The busiest second: the most arrivals within any 1 s, a sliding
	// window like the run's peak req/s (fleet.Stats.PeakRPS). Arrivals come
	// in the server's order, nearly sorted by receive time.
	i := len(m.recent)
	for i > 0 && m.recent[i-1] > a.at {
		i--
	}
	m.recent = slices.Insert(m.recent, i, a.at)
	newest, lo := m.recent[len(m.recent)-1], 0
	for newest-m.recent[lo] >= time.Second {
		lo++
	}
	m.recent = m.recent[lo:]
	w.Peak = max(w.Peak, len(m.recent))
}
