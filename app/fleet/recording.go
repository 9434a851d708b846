package fleet

import (
	"bufio"
	"encoding/csv"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"retrylab/app/jsonlite"
	"retrylab/core"
)

// Recording is every event of one run, in the order they were appended.
// It is safe for concurrent use: workers append while the page reads
// snapshots.
type Recording struct {
	Start     time.Time // when the run started (its clock's Now)
	Scenario  Scenario  // what ran
	Simulated bool      // produced in virtual time by the simulator, not by live requests
	Err       error     // set when nothing could run (an invalid scenario)
	// OutageErr is set when the scenario's scheduled outage could not be
	// started (see Outager): the server stayed up, and the run is not the
	// one configured. Read it after Run returned.
	OutageErr error
	// Stopped is set when Run's context was cancelled (Stop) before it
	// returned, or a simulation's SimOptions.Interrupt stopped it: jobs in
	// progress then ended cancelled, and jobs not yet started never started
	// (Stop between an open workload's arrivals cancels none). Read it
	// after Run returned.
	Stopped bool
	// Limited is set when the run reached its limit: a live run's
	// RunOptions.MaxRequests (nothing was sent after the request that
	// reached it), a simulation's SimOptions.MaxAttempts. Jobs still going
	// then ended cancelled. Read it after Run returned.
	Limited bool

	mu      sync.Mutex
	records []Record
	faults  []Fault   // SetFaults
	gaps    []Gap     // SetGaps
	end     time.Time // when Run returned; zero while running
	numbers *numbers  // the finished run's, once computed (Numbers, KeepNumbers)
}

// numbers are a finished run's Numbers.
type numbers struct {
	st   Stats
	disp float64
}

// Fault is something the server was made to do during a run, as the
// server told it: a live run's from the mock's arrivals stream (its
// messages of type "outage", "limit" and "burst", mock.Event: the page's
// Outage, Halve limit and Burst switches and the scheduled outage), a
// simulation's from its virtual server (the scheduled outage). Its times
// are by the server's clock.
type Fault struct {
	Kind string // "outage" (the server down), "limit" (its limit scaled) or "burst" (another client's requests at once)
	// From and Until are an outage's or a limit's stretch [From, Until),
	// Until when it ended (early, when a switch ended it); a burst's From
	// is when its requests arrived, its Until zero.
	From, Until time.Time
	Scale       float64 // limit: what the limit was multiplied by
	N, Admitted int     // burst: the requests it sent, and how many the limiter admitted
}

// SetFaults sets the run's faults, in the order they began. Run cannot
// know them (the server tells of them on its stream, which the page
// reads): the page sets a live run's from what its timeline drew. A
// simulation sets its own.
func (r *Recording) SetFaults(fs []Fault) {
	r.mu.Lock()
	r.faults = append([]Fault(nil), fs...)
	r.mu.Unlock()
}

// Heard is an attempt's arrival at the mock as its arrivals stream told
// of it: the number and receive time its answer would have carried.
type Heard struct {
	Worker, Job, Attempt int
	Seq                  int
	At                   time.Time
}

// SetHeard gives the attempts that got no answer (timed out, aborted,
// dropped) the arrival the stream told of (the page matches them by tag),
// so the exports say what the tooltip says. Attempts that were answered
// keep their answer's.
func (r *Recording) SetHeard(hs []Heard) {
	if len(hs) == 0 {
		return
	}
	type key struct{ w, j, a int }
	heard := make(map[key]Heard, len(hs))
	for _, h := range hs {
		heard[key{h.Worker, h.Job, h.Attempt}] = h
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.records {
		rec := &r.records[i]
		if a := rec.Attempt; a != nil && a.ServerSeq == 0 {
			if h, ok := heard[key{rec.Worker, rec.Job, rec.Event.Attempt}]; ok {
				a.ServerSeq, a.ServerAt = h.Seq, h.At
			}
		}
	}
}

// Faults returns a copy of the run's faults (SetFaults).
func (r *Recording) Faults() []Fault {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Fault(nil), r.faults...)
}

// Gap is a stretch of a live run that the page did not see as it sees the
// rest, told so that what happened in it is not read as the strategy's
// doing or as all there was. Its times are by the page's clock, as the
// events'.
type Gap struct {
	Kind string // "hidden" (the tab was hidden: the browser ran the page's timers at most once a second, so sends and waits ended late) or "stream_lost" (the page's connection to the server's arrivals stream was lost: the arrivals, and what the server told, in it are not known)
	// From and Until are the stretch [From, Until); Until is zero when it
	// had not ended when the recording was written.
	From, Until time.Time
}

// SetGaps sets the run's gaps, in the order they began. Run cannot know
// them: the page sets them from what its timeline hatched.
func (r *Recording) SetGaps(gs []Gap) {
	r.mu.Lock()
	r.gaps = append([]Gap(nil), gs...)
	r.mu.Unlock()
}

// Gaps returns a copy of the run's gaps (SetGaps).
func (r *Recording) Gaps() []Gap {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Gap(nil), r.gaps...)
}

// NewRecording returns an empty recording of s starting at start. Run makes
// one; the simulator makes its own.
func NewRecording(s Scenario, start time.Time, simulated bool) *Recording {
	return &Recording{Start: start, Scenario: s, Simulated: simulated}
}

// Append adds records at the end.
func (r *Recording) Append(recs ...Record) {
	r.mu.Lock()
	r.records = append(r.records, recs...)
	r.mu.Unlock()
}

// Records returns a snapshot of every record so far (a copy: safe to keep
// while the run goes on).
func (r *Recording) Records() []Record { return r.Since(0) }

// Shared returns the records themselves, not a copy: a finished recording
// (a simulation's) can hand its hundreds of thousands of records to the page
// without copying them. The caller must not modify them, and must not use
// it while records are still being appended.
func (r *Recording) Shared() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.records[:len(r.records):len(r.records)]
}

// Since returns a copy of the records from index i on: a page drawing
// incrementally asks for what is new since its last Len.
func (r *Recording) Since(i int) []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i >= len(r.records) {
		return nil
	}
	return append([]Record(nil), r.records[max(0, i):]...)
}

// finished returns the records without copying them once the run is over
// (nothing appends to them any more), and a copy while it goes on: an
// export of 900,000 records need not copy them first.
func (r *Recording) finished() []Record {
	if _, done := r.End(); done {
		return r.Shared()
	}
	return r.Records()
}

// Len returns the number of records so far.
func (r *Recording) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.records)
}

// finish marks the run over at end.
func (r *Recording) finish(end time.Time) {
	r.mu.Lock()
	r.end = end
	r.mu.Unlock()
}

// Finish marks a recording made outside Run (the simulator's) as over.
func (r *Recording) Finish(end time.Time) { r.finish(end) }

// End returns when the run finished, and false while it is still running.
func (r *Recording) End() (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.end, !r.end.IsZero()
}

// Stats computes the run's numbers from a snapshot of its records (Final
// once it is over).
func (r *Recording) Stats() Stats {
	st := StatsOf(r.Start, r.Records())
	r.Final(&st)
	return st
}

// Numbers computes the run's numbers from recs, its records (Records or
// Shared, a snapshot the caller keeps), Final once it is over, and the
// dispersion of their retries: what the page shows, the export writes and
// a baseline keeps, each from one snapshot.
//
// A finished run's numbers, asked of all its records, are computed once:
// the page shows them, and the JSON export's head wrote them again (450 ms
// of the page's thread for 900,000 records).
func (r *Recording) Numbers(recs []Record) (Stats, float64) {
	whole := r.whole(recs)
	if whole {
		r.mu.Lock()
		n := r.numbers
		r.mu.Unlock()
		if n != nil {
			return n.st, n.disp
		}
	}
	acc := NewStatsAcc(r.Start, len(recs))
	for i := range recs {
		acc.Add(&recs[i])
	}
	st := acc.Stats()
	r.Final(&st)
	disp := acc.Dispersion(DispersionSlice)
	if whole {
		r.KeepNumbers(st, disp)
	}
	return st, disp
}

// KeepNumbers keeps st and disp as the finished run's Numbers, computed
// elsewhere from all its records (a StatsAcc given every record, then
// Final, as the page computes a simulation's while it draws it). It does
// nothing while the run goes on.
func (r *Recording) KeepNumbers(st Stats, disp float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.end.IsZero() {
		r.numbers = &numbers{st, disp}
	}
}

// whole reports whether recs are all the records of a finished run.
func (r *Recording) whole(recs []Record) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.end.IsZero() && len(recs) == len(r.records)
}

// Export schema.
//
// JSON writes one object:
//
//	{
//	  "schema":    "retrylab.recording/v2",
//	  "start":     "2026-11-29T10:00:00.123456789Z",   // RFC 3339, the run's start
//	  "end":       "finished",                         // or stopped, request-limit, …: HeadKeys
//	  "simulated": false,
//	  "scenario":  {"workers": "50", …},                 // every field, as in the page URL
//	  "stats":     {"requests": 180, …},                  // StatsColumns: Stats, durations in ms
//	  "faults":    [ {"kind": "outage", …}, … ]          // FaultKeys: what the server was made to do
//	  "gaps":      [ {"kind": "hidden", …}, … ]          // GapKeys: what the page did not see as usual
//	  "events":    [ {…}, … ]                            // one object per event, one to a line, columns below
//	}
//
// CSV writes a header line and one line per event with the same columns, in
// the order of EventColumns; empty cells are fields the event kind does not
// have. SchemaMarkdown documents the columns as a markdown table.
//
// v2 made ratelimit unambiguous, an object (JSON) or a line per header
// (CSV), where v1 joined the headers with "; " (which RateLimit values
// hold), and added end and error to the top level. Later v2 files also
// have outage_error, faults and gaps at the top level, and
// aborted_by_stop and aborted_at_limit in stats (aborted is still their
// sum), end_ms at the top level and the redirected event column: keys a
// v2 reader does not know of, which it skips. Nothing in
// Retry Lab reads a file back (a replay plays the run's records in
// memory, a baseline from a link is simulated from its configuration), so
// the version says what a reader elsewhere may rely on: every v2 key
// keeps its meaning.
const Schema = "retrylab.recording/v2"

// EventColumn documents one column of the event export.
type EventColumn struct {
	Name    string // JSON key and CSV header
	Kinds   string // the event kinds that have it
	Meaning string
}

// EventColumns lists the export's event columns in CSV order.
var EventColumns = []EventColumn{
	{"t_ms", "all", "milliseconds since the run's start when the event happened"},
	{"kind", "all", "attempt (sent), outcome (finished), wait (scheduled) or done (the job ended)"},
	{"worker", "all", "worker number, from 0 (the page's lanes and tooltip count from 1: worker 0 is \"w1\", \"Worker 1\")"},
	{"job", "all", "the worker's job number, from 0 (the tooltip's \"job 1\" is job 0)"},
	{"attempt", "all", "attempt number from 1 (wait: the attempt it waits for; done: attempts made)"},
	{"intended_ms", "attempt, wait", "when the loop meant to send the attempt, ms since start: the planned end of the last wait, or when the job was due. attempt: the send lateness is t_ms − intended_ms plus the outcome's handoff_ms; wait (a bucket wait only, and only when that was before its t_ms: a job started late, a retry woken late): a job's completion counts from its first event's intended_ms, or its t_ms when it has none (added to waits after v2's first files)"},
	{"status", "outcome", "HTTP status, 0 when there was no response"},
	{"class", "outcome", "ok, limited (429/503), failed, timeout or aborted"},
	{"error", "outcome, done", "the attempt's error, or why the job gave up"},
	{"retry_after", "outcome", "the Retry-After header as received; sent with an empty value it is `\"\"` in JSON (the key is left out when none was sent) and an empty cell in CSV, as when none was sent (honoured, the wait's `note` tells it: `retry-after \"\": empty …`)"},
	{"ratelimit", "outcome", "RateLimit and RateLimit-Policy, the older drafts' RateLimit-Limit, -Remaining and -Reset, and X-RateLimit-* headers as received: in JSON an object, header name → value; in CSV a `Name: value` line per header (a header value cannot hold a line break; it often holds `; `)"},
	{"queued_ms", "outcome", "time the request waited inside the browser before it was sent (requestStart − fetchStart); empty when the browser did not tell it (a simulation, a native run, a custom target without Timing-Allow-Origin)"},
	{"server_seq", "outcome", "the mock's arrival number for the key: from its answer or, for a live attempt that got none (timed out, aborted, dropped), from the arrival the mock's stream told of, as its tooltip says (a simulated attempt's from the simulated mock, answered or not); empty with a custom target, and when neither told it"},
	{"server_ms", "outcome", "when the mock received it, ms since start (by the server's clock); empty as server_seq is"},
	{"wait_ms", "wait", "the wait chosen, in ms"},
	{"reason", "wait", "backoff, retry-after, reset-hint or bucket"},
	{"cause", "done", "success, exhausted, max-elapsed, permanent, above-ceiling, budget-empty, horizon (simulated: the next wait would end after the end of virtual time), cancelled or invalid"},
	{"note", "wait, done", "the loop's explanation: fallbacks, clamping, spread, the stop reason"},
	{"simulated", "all", "true when the simulator computed the run (virtual time, no request sent), false for a live run"},
	{"handoff_ms", "outcome", "time from the attempt's t_ms (the loop sent it) to the browser starting the request (fetchStart): the page getting it to fetch(); answered attempts of a live run in the page only (added after v1's first columns)"},
	{"pickup_ms", "outcome", "time from the response's end (responseEnd) to the outcome's t_ms: the page taking the answer in, late when its thread was busy; answered attempts of a live run in the page only (added after handoff_ms)"},
	{"redirected", "outcome", "the URL the answer came from when the server redirected the request: fetch() followed the redirect with another request, so the server received this attempt twice or more; empty when it was not redirected (last: added after pickup_ms)"},
}

// SchemaMarkdown is the event export's columns as a markdown table, for the README.
func SchemaMarkdown() string {
	b := []byte("| column | events | meaning |\n|---|---|---|\n")
	for _, c := range EventColumns {
		b = append(b, "| `"+c.Name+"` | "+c.Kinds+" | "+c.Meaning+" |\n"...)
	}
	return string(b)
}

// rateLimitHeaders are the hint headers exported in the ratelimit column:
// every family core.ParseRateLimit reads (the older drafts' triple was
// read, and waited on, but neither shown nor exported).
var rateLimitHeaders = [...]string{"RateLimit", "RateLimit-Limit", "RateLimit-Policy", "RateLimit-Remaining", "RateLimit-Reset", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}

// RateLimitHeaderNames names the rate-limit headers a run reads, for a
// custom target's Access-Control-Expose-Headers: "RateLimit,
// RateLimit-Limit, …" (fetch() reads only those listed, each by name).
var RateLimitHeaderNames = strings.Join(rateLimitHeaders[:], ", ")

// RateLimitLines is h's rate-limit headers (those the ratelimit column
// exports), a "Name: value" each of those present, joined by sep: the CSV
// joins them with line breaks (a header's value cannot hold one), the
// page's tooltip with "; ".
func RateLimitLines(h core.Header, sep string) string {
	s := ""
	for _, name := range rateLimitHeaders {
		if v := h.Get(name); v != "" {
			if s != "" {
				s += sep
			}
			s += name + ": " + v
		}
	}
	return s
}

// exportEvent is one event row; pointers and omitempty leave out what the
// kind does not have.
type exportEvent struct {
	TMS        float64           `json:"t_ms"`
	Kind       string            `json:"kind"`
	Worker     int               `json:"worker"`
	Job        int               `json:"job"`
	Attempt    int               `json:"attempt"`
	IntendedMS *float64          `json:"intended_ms,omitempty"`
	Status     *int              `json:"status,omitempty"`
	Class      string            `json:"class,omitempty"`
	Error      string            `json:"error,omitempty"`
	RetryAfter *string           `json:"retry_after,omitempty"` // "" when the header came empty
	RateLimit  map[string]string `json:"ratelimit,omitempty"`   // never set: JSON writes hdr's (writeJSON)
	QueuedMS   *float64          `json:"queued_ms,omitempty"`
	ServerSeq  *int              `json:"server_seq,omitempty"`
	ServerMS   *float64          `json:"server_ms,omitempty"`
	WaitMS     *float64          `json:"wait_ms,omitempty"`
	Reason     string            `json:"reason,omitempty"`
	Cause      string            `json:"cause,omitempty"`
	Note       string            `json:"note,omitempty"`
	Simulated  bool              `json:"simulated"`
	HandoffMS  *float64          `json:"handoff_ms,omitempty"`
	PickupMS   *float64          `json:"pickup_ms,omitempty"`
	Redirected string            `json:"redirected,omitempty"`

	hdr core.Header // the answer\'s headers, for ratelimit
}

// ms is d in milliseconds, to the microsecond, as the exports write it. A
// live run's times in the page come from the browser's clock as
// nanoseconds since 1970 in a float64 (Go's wasm_exec.js), which are 256 ns
// apart: 2.3 ms came out as 2.299904. No browser's clock is finer than 5 µs.
func ms(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

func ptr[T any](v T) *T { return &v }

func toExport(start time.Time, simulated bool, r *Record) exportEvent {
	e := &r.Event
	x := exportEvent{TMS: ms(e.At.Sub(start)), Kind: e.Kind.String(), Worker: r.Worker, Job: r.Job, Attempt: e.Attempt, Note: e.Note, Simulated: simulated}
	if !e.Intended.IsZero() { // an attempt's, a late bucket wait's
		x.IntendedMS = ptr(ms(e.Intended.Sub(start)))
	}
	switch e.Kind {
	case core.EventOutcome:
		x.Status = ptr(e.Outcome.Status)
		x.Class = Classify(e.Outcome).String()
		if e.Outcome.Err != nil {
			x.Error = e.Outcome.Err.Error()
		}
		if h := e.Outcome.Header; h != nil {
			// "" for a Retry-After sent empty, nil for none sent.
			if v, ok := core.LookupHeader(h, "Retry-After"); ok {
				x.RetryAfter = &v
			}
			x.hdr = h
		}
		if a := r.Attempt; a != nil {
			if a.Measured&MeasuredHandoff != 0 {
				x.HandoffMS = ptr(ms(a.Handoff))
			}
			if a.Measured&MeasuredPickup != 0 {
				x.PickupMS = ptr(ms(a.Pickup))
			}
			if a.Measured&MeasuredQueued != 0 {
				x.QueuedMS = ptr(ms(a.Queued))
			}
			if a.ServerSeq > 0 {
				x.ServerSeq = ptr(a.ServerSeq)
			}
			if !a.ServerAt.IsZero() {
				x.ServerMS = ptr(ms(a.ServerAt.Sub(start)))
			}
			x.Redirected = a.Redirected
		}
	case core.EventWait:
		x.WaitMS = ptr(ms(e.Wait))
		x.Reason = e.Reason.String()
	case core.EventDone:
		x.Cause = Cause(e.Err)
		if e.Err != nil {
			x.Error = e.Err.Error()
		}
	}
	return x
}

// cells is the CSV row of x, in EventColumns order.
func (x *exportEvent) cells() []string {
	f := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	i := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	ra, rl := "", ""
	if x.RetryAfter != nil {
		ra = *x.RetryAfter
	}
	if x.hdr != nil {
		rl = RateLimitLines(x.hdr, "\n")
	}
	return []string{
		strconv.FormatFloat(x.TMS, 'f', -1, 64), x.Kind, strconv.Itoa(x.Worker), strconv.Itoa(x.Job), strconv.Itoa(x.Attempt),
		f(x.IntendedMS), i(x.Status), x.Class, textCell(x.Error), textCell(ra), textCell(rl),
		f(x.QueuedMS), i(x.ServerSeq), f(x.ServerMS), f(x.WaitMS), x.Reason, x.Cause, textCell(x.Note), strconv.FormatBool(x.Simulated),
		f(x.HandoffMS), f(x.PickupMS), textCell(x.Redirected),
	}
}

// textCell is a CSV cell of text a server chose (a header, an error, a
// URL), which a spreadsheet would take as a formula where it starts with
// =, +, -, @, a tab or a carriage return (OWASP's CSV injection): such a
// cell is written after a ' that spreadsheets show as text's mark. A
// custom target's Retry-After of =HYPERLINK(…) was a live link in the
// file (found by a security review). The JSON export keeps every value
// as received. Each byte that is not UTF-8 is written as U+FFFD, as the
// JSON export writes it: a spreadsheet reads the file as UTF-8.
func textCell(s string) string {
	if !utf8.ValidString(s) {
		var b strings.Builder
		for _, r := range s { // a bad byte ranges as utf8.RuneError
			b.WriteRune(r)
		}
		s = b.String()
	}
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// JSONKey documents one key of the JSON export: of its top level
// (HeadKeys) or of its stats (StatsColumns).
type JSONKey struct {
	Name    string
	Meaning string
}

// How a run ended: the JSON export's "end" (HeadKeys documents them).
const (
	endFinished     = "finished"
	endStopped      = "stopped"
	endRequestLimit = "request-limit"
	endAttemptLimit = "attempt-limit"
	endRunning      = "running"
	endNotRun       = "not-run"
)

// HeadKeys lists the JSON export's top-level keys, in their order.
var HeadKeys = []JSONKey{
	{"schema", "`" + Schema + "`"},
	{"start", "the run's start, RFC 3339 in UTC; a simulation's is virtual time's origin, `2026-01-01T00:00:00Z`"},
	{"end", "how the run ended: `" + endFinished + "` (every job ran to its end), `" + endStopped + "` (Stop cut it short: the jobs in progress were cancelled, those not yet started never started), `" +
		endRequestLimit + "` (a live run stopped at its request limit: nothing sent after the request that reached it, the answers in flight taken in, then the jobs still going cancelled), `" +
		endAttemptLimit + "` (a simulation stopped at its attempt limit: the attempts in flight aborted, the jobs still going cancelled), `" + endNotRun + "` (nothing could run: `error` says why), `" +
		endRunning + "` (written before the run ended: never by the page)"},
	{"end_ms", "when the run ended, ms since its start (a simulation's in virtual time): once its last job had returned, or when it was cut short; a run that did not drain lasted until then (`drain_ms`); left out when it has not ended or nothing ran (added to v2 later)"},
	{"error", "why nothing could run (an invalid scenario, one that cannot be simulated); left out when the run ran"},
	{"outage_error", "why the scenario's scheduled outage could not be started (a live run): the server stayed up, so the run is not the one configured; left out when it started or none was scheduled (added to v2 later)"},
	{"simulated", "true when the simulator computed the run, false for a live run"},
	{"scenario", "every field of the configuration as in the page's URL, values as strings"},
	{"stats", "the run's numbers (below)"},
	{"faults", "what the server was made to do during the run, in the order it began, as the server told it (below); `[]` when nothing (added to v2 later)"},
	{"gaps", "stretches of a live run that the page did not see as it sees the rest, in the order they began (below); `[]` when none (added to v2 later)"},
	{"events", "every event, one object to a line, keys as the columns above"},
}

// FaultKeys lists the keys of the JSON export's faults, in their order.
var FaultKeys = []JSONKey{
	{"kind", "`outage` (the server down: every request answered 503), `limit` (its limit multiplied by `scale`) or `burst` (another client's `n` requests at once)"},
	{"from_ms", "when it began, ms since the run's start by the server's clock (as `server_ms`); a burst: when its requests arrived"},
	{"until_ms", "outage, limit: when it ended, ms since the run's start by the server's clock (earlier than asked when a switch ended it); left out for a burst"},
	{"scale", "limit: what the limit was multiplied by (the page's Halve limit: 0.5)"},
	{"n", "burst: the requests it sent"},
	{"admitted", "burst: how many of them the limiter admitted"},
}

// FaultsMarkdown is the JSON export's faults as a markdown table, for the README.
func FaultsMarkdown() string { return keysMarkdown(FaultKeys) }

// exportFault is one of the JSON's faults (FaultKeys).
type exportFault struct {
	Kind     string   `json:"kind"`
	FromMS   float64  `json:"from_ms"`
	UntilMS  *float64 `json:"until_ms,omitempty"`
	Scale    float64  `json:"scale,omitempty"`
	N        *int     `json:"n,omitempty"`
	Admitted *int     `json:"admitted,omitempty"`
}

// toExportFaults is fs in the export's units, times since start.
func toExportFaults(start time.Time, fs []Fault) []exportFault {
	out := make([]exportFault, len(fs))
	for i, f := range fs {
		x := exportFault{Kind: f.Kind, FromMS: ms(f.From.Sub(start))}
		if f.Kind == "burst" {
			x.N, x.Admitted = ptr(f.N), ptr(f.Admitted)
		} else {
			x.UntilMS, x.Scale = ptr(ms(f.Until.Sub(start))), f.Scale
		}
		out[i] = x
	}
	return out
}

// GapKeys lists the keys of the JSON export's gaps, in their order.
var GapKeys = []JSONKey{
	{"kind", "`hidden` (the tab was hidden: the browser ran the page's timers at most once a second, so sends and waits in it ended late, by the browser and not the strategy) or `stream_lost` (the page's connection to the mock's arrivals stream was lost: the arrivals in it were not seen, and faults told then are not known but for the page's own Outage, Halve limit and Burst)"},
	{"from_ms", "when it began, ms since the run's start by the page's clock (as `t_ms`)"},
	{"until_ms", "when it ended, ms since the run's start by the page's clock; left out when it had not ended when the file was written"},
}

// GapsMarkdown is the JSON export's gaps as a markdown table, for the README.
func GapsMarkdown() string { return keysMarkdown(GapKeys) }

// exportGap is one of the JSON's gaps (GapKeys).
type exportGap struct {
	Kind    string   `json:"kind"`
	FromMS  float64  `json:"from_ms"`
	UntilMS *float64 `json:"until_ms,omitempty"`
}

// toExportGaps is gs in the export's units, times since start.
func toExportGaps(start time.Time, gs []Gap) []exportGap {
	out := make([]exportGap, len(gs))
	for i, g := range gs {
		out[i] = exportGap{Kind: g.Kind, FromMS: ms(g.From.Sub(start))}
		if !g.Until.IsZero() {
			out[i].UntilMS = ptr(ms(g.Until.Sub(start)))
		}
	}
	return out
}

// HeadMarkdown is the JSON export's top level as a markdown table, for the README.
func HeadMarkdown() string { return keysMarkdown(HeadKeys) }

// StatsColumns lists the JSON export's stats, in their order.
var StatsColumns = []JSONKey{
	{"requests", "attempts sent, retries included"},
	{"first_tries", "attempts numbered 1: one per job started"},
	{"retries", "requests − first_tries"},
	{"ok", "attempts answered with a success"},
	{"limited", "attempts answered 429 or 503 (the page's \"429s\")"},
	{"failed", "attempts answered with another 4xx/5xx, or a network error"},
	{"timeouts", "attempts abandoned after the request timeout"},
	{"aborted", "attempts aborted: aborted_by_stop + aborted_at_limit"},
	{"aborted_by_stop", "of aborted: by Stop (a live run; its request limit aborts none, it lets the attempts in flight end) (added to v2 later)"},
	{"aborted_at_limit", "of aborted: by a simulation's attempt limit, which nobody pressed (the attempts in flight when it was reached) (added to v2 later)"},
	{"in_flight", "attempts sent without an outcome"},
	{"jobs", "jobs ended: successes + give_ups"},
	{"successes", "jobs that succeeded"},
	{"give_ups", "jobs that stopped with an error, the cancelled included"},
	{"cancelled", "of give_ups: jobs cut short by Stop, by a live run's request limit or by a simulation's attempt limit"},
	{"causes", "give_ups by the done event's cause, e.g. {\"exhausted\": 3}; left out when there is none"},
	{"peak_jobs", "most jobs in progress at once"},
	{"amplification", "requests ÷ first_tries; 0 with no first try"},
	{"wasted_per_success", "attempts answered without success (requests − in_flight − ok) ÷ successes; 0 with no success"},
	{"peak_rps", "most attempts sent within any 1 s"},
	{"completion_p50_ms", "a job's time from when it was due to done (as the page's number), median over the jobs that ended and were not cancelled, in ms; null when no job did (every job cancelled, or none ended)"},
	{"completion_p99_ms", "the same, 99th percentile (nearest rank), in ms; null when no job completed"},
	{"completion_max_ms", "the same, the longest, in ms; null when no job completed"},
	{"drain_ms", "from the start to the last done event, in ms; for a run that did not drain (jobs cancelled, or some never started: Stop, a request or attempt limit), to the run's end"},
	{"lateness_p50_ms", "send lateness (intended send to the request's start), median, in ms; null when not measured (a simulation, or no attempt's outcome in yet)"},
	{"lateness_p99_ms", "the same, 99th percentile, in ms; null when not measured"},
	{"queued_p50_ms", "browser queueing (queued_ms) of the answers that tell it, median, in ms; null when none does (a simulation, a native run, a custom target without Timing-Allow-Origin)"},
	{"queued_p99_ms", "the same, 99th percentile, in ms; null when none does"},
	{"pickup_p99_ms", "how late the page took the answers in (their pickup_ms), 99th percentile, in ms: its thread was busy elsewhere, and a job's completion counts it; null when not measured (a simulation, a native run, no answer yet) (added to v2 later)"},
	{"pickup_max_ms", "the same, the longest, in ms; null when not measured (added to v2 later)"},
	{"dispersion", "index of dispersion of the retries sent per 100 ms (≫ 1: they come in herds); with every retry in one slice, their number (the most any as many retries can give); 0 with no retry"},
}

// StatsMarkdown is the JSON export's stats as a markdown table, for the README.
func StatsMarkdown() string { return keysMarkdown(StatsColumns) }

func keysMarkdown(keys []JSONKey) string {
	b := []byte("| key | meaning |\n|---|---|\n")
	for _, c := range keys {
		b = append(b, "| `"+c.Name+"` | "+c.Meaning+" |\n"...)
	}
	return string(b)
}

// exportStats is Stats with durations in milliseconds; what the run did
// not measure is null (the page shows "not measured").
type exportStats struct {
	Requests         int            `json:"requests"`
	FirstTries       int            `json:"first_tries"`
	Retries          int            `json:"retries"`
	OK               int            `json:"ok"`
	Limited          int            `json:"limited"`
	Failed           int            `json:"failed"`
	Timeouts         int            `json:"timeouts"`
	Aborted          int            `json:"aborted"`
	AbortedByStop    int            `json:"aborted_by_stop"`
	AbortedAtLimit   int            `json:"aborted_at_limit"`
	InFlight         int            `json:"in_flight"`
	Jobs             int            `json:"jobs"`
	Successes        int            `json:"successes"`
	GiveUps          int            `json:"give_ups"`
	Cancelled        int            `json:"cancelled"`
	Causes           map[string]int `json:"causes,omitempty"`
	PeakJobs         int            `json:"peak_jobs"`
	Amplification    float64        `json:"amplification"`
	WastedPerSuccess float64        `json:"wasted_per_success"`
	PeakRPS          int            `json:"peak_rps"`
	CompletionP50MS  *float64       `json:"completion_p50_ms"`
	CompletionP99MS  *float64       `json:"completion_p99_ms"`
	CompletionMaxMS  *float64       `json:"completion_max_ms"`
	DrainMS          float64        `json:"drain_ms"`
	LatenessP50MS    *float64       `json:"lateness_p50_ms"`
	LatenessP99MS    *float64       `json:"lateness_p99_ms"`
	QueuedP50MS      *float64       `json:"queued_p50_ms"`
	QueuedP99MS      *float64       `json:"queued_p99_ms"`
	PickupP99MS      *float64       `json:"pickup_p99_ms"`
	PickupMaxMS      *float64       `json:"pickup_max_ms"`
	Dispersion       float64        `json:"dispersion"` // Dispersion(events, DispersionSlice)
}

// toExportStats is s in the export's units. A simulation measures no send
// lateness and no browser queueing, a run whose answers told no queueing
// (QueuedN 0) measured none, one with no outcome yet no lateness
// (LatenessN 0), and one where no job completed (CompletionN 0: every job
// cancelled, or none ended) no completion time: those are null, not 0, as
// the page says "not measured" rather than 0 µs.
func toExportStats(s Stats, simulated bool) exportStats {
	x := exportStats{
		Requests: s.Requests, FirstTries: s.FirstTries, Retries: s.Retries,
		OK: s.OK, Limited: s.Limited, Failed: s.Failed, Timeouts: s.Timeouts, InFlight: s.InFlight,
		Aborted: s.Aborted, AbortedByStop: s.Aborted - s.AbortedAtLimit, AbortedAtLimit: s.AbortedAtLimit,
		Jobs: s.Jobs, Successes: s.Successes, GiveUps: s.GiveUps, Cancelled: s.Cancelled, Causes: s.Causes,
		PeakJobs: s.PeakJobs, Amplification: s.Amplification, WastedPerSuccess: s.WastedPerSuccess, PeakRPS: s.PeakRPS,
		DrainMS: ms(s.Drain),
	}
	if s.CompletionN > 0 {
		x.CompletionP50MS, x.CompletionP99MS, x.CompletionMaxMS = ptr(ms(s.CompletionP50)), ptr(ms(s.CompletionP99)), ptr(ms(s.CompletionMax))
	}
	if !simulated && s.LatenessN > 0 {
		x.LatenessP50MS, x.LatenessP99MS = ptr(ms(s.LatenessP50)), ptr(ms(s.LatenessP99))
		if s.QueuedN > 0 {
			x.QueuedP50MS, x.QueuedP99MS = ptr(ms(s.QueuedP50)), ptr(ms(s.QueuedP99))
		}
	}
	if !simulated && s.PickupN > 0 {
		x.PickupP99MS, x.PickupMaxMS = ptr(ms(s.PickupP99)), ptr(ms(s.PickupMax))
	}
	return x
}

// ending says how the run ended (HeadKeys' "end"), its numbers st. Stop
// that came as the last job ended cut nothing: such a run finished, as
// the page says (ui's cutShort). A run stopped at its limit and then by
// Stop was stopped at its limit first.
func (r *Recording) ending(st *Stats) string {
	_, done := r.End()
	switch {
	case r.Err != nil:
		return endNotRun
	case r.Limited && r.Simulated:
		return endAttemptLimit
	case r.Limited:
		return endRequestLimit
	case r.Stopped && !r.Drained(st):
		return endStopped
	case !done:
		return endRunning
	}
	return endFinished
}

// exportHead is the JSON export's top level but its events (HeadKeys).
type exportHead struct {
	Schema      string            `json:"schema"`
	Start       time.Time         `json:"start"`
	End         string            `json:"end"`
	EndMS       *float64          `json:"end_ms,omitempty"`
	Error       string            `json:"error,omitempty"`
	OutageError string            `json:"outage_error,omitempty"`
	Simulated   bool              `json:"simulated"`
	Scenario    map[string]string `json:"scenario"`
	Stats       exportStats       `json:"stats"`
	Faults      []exportFault     `json:"faults"`
	Gaps        []exportGap       `json:"gaps"`
}

// JSON writes the recording as one JSON object (see Schema): its head
// indented, then the events one to a line. It is written as it is made, in
// pieces, not encoded whole and then indented: a simulation stopped at the
// page's attempt limit has 900,000 events, whose indented encoding took
// 168 MB (and the page's thread for 15 s in one go, see the page's export).
func (r *Recording) JSON(w io.Writer) error {
	h, recs := r.exportHead()
	// The head indented as json.MarshalIndent(&h, "", " ") would, its
	// events one to a line, each as json.Marshal would write it.
	jw := jsonlite.NewIndentWriter(" ")
	var ev jsonlite.Writer
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	h.writeJSON(jw, func() {
		jw.BeginArray()
		if err = jw.Err(); err != nil {
			return // a head encoding/json refuses: nothing is written
		}
		for i := range recs {
			x := toExport(r.Start, r.Simulated, &recs[i])
			ev.Reset()
			x.writeJSON(&ev)
			if err = ev.Err(); err != nil {
				return
			}
			jw.Raw(ev.Bytes())
			jw.FlushTo(bw) // writes to a bufio.Writer fail at its Flush
		}
		jw.EndArray()
	})
	if err != nil {
		return err
	}
	jw.FlushTo(bw)
	bw.WriteByte('\n')
	return bw.Flush()
}

// exportHead is the JSON export's head: everything but the events, which
// are recs.
func (r *Recording) exportHead() (h exportHead, recs []Record) {
	recs = r.finished()
	scenario := map[string]string{}
	for k, vs := range r.Scenario.Query() {
		scenario[k] = vs[0]
	}
	st, disp := r.Numbers(recs)
	stats := toExportStats(st, r.Simulated)
	stats.Dispersion = disp
	h = exportHead{Schema: Schema, Start: r.Start.UTC(), End: r.ending(&st), Simulated: r.Simulated, Scenario: scenario, Stats: stats,
		Faults: toExportFaults(r.Start, r.Faults()), Gaps: toExportGaps(r.Start, r.Gaps())}
	if end, ok := r.End(); ok && r.Err == nil {
		h.EndMS = ptr(ms(end.Sub(r.Start)))
	}
	if r.Err != nil {
		h.Error = r.Err.Error()
	}
	if r.OutageErr != nil {
		h.OutageError = r.OutageErr.Error()
	}
	return h, recs
}

// CSV writes the recording's events as CSV: a header line of the columns'
// names (EventColumns), then one line per event.
func (r *Recording) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	// The header is exportEvent's keys, which are EventColumns' names
	// (TestExportCSV): taken from EventColumns, the page carried all its
	// meanings too, 2.7 KB of app.wasm.
	t := reflect.TypeFor[exportEvent]()
	header := make([]string, t.NumField()-1) // but hdr, the last field: not a column
	for i := range header {
		header[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	recs := r.finished()
	for i := range recs {
		x := toExport(r.Start, r.Simulated, &recs[i])
		if err := cw.Write(x.cells()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
