// A run's course: Run (live), Simulate (in virtual time) and Watch (a
// shared room), what they share as they begin, Stop, and the arrivals
// stream they read.

package ui

import (
	"context"
	"math/rand/v2"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/human"
	"retrylab/core"
	"retrylab/core/sim"
)

// liveRecords keeps the live numbers of a run going on (its own Recording
// is only handed back when it ends), and a simulation's records.
type liveRecords struct {
	mu        sync.Mutex
	recs      []fleet.Record
	acc       *fleet.StatsAcc // the live numbers, kept up to date record by record
	start     time.Time       // the run's (restart)
	countOnly bool            // keep the numbers and a count, not the records (a live run's or a replay's: the run's Recording has them)
	counted   int
}

func (l *liveRecords) add(r fleet.Record) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.countOnly {
		l.counted++
		if l.acc != nil {
			l.acc.Add(&r)
		}
		return
	}
	l.recs = append(l.recs, r)
	if l.acc != nil {
		l.acc.Add(&l.recs[len(l.recs)-1])
	}
}

// restart empties l for a run that starts at start.
func (l *liveRecords) restart(start time.Time) {
	l.mu.Lock()
	l.recs, l.counted = l.recs[:0], 0
	l.acc, l.start = fleet.NewStatsAcc(start, 0), start
	l.mu.Unlock()
}

// stats is the numbers of the records so far (a live run's, or a
// replay's up to its playhead) and the dispersion of their retries. For a
// run going on, now is not zero: it has not drained yet, so its time to
// drain is at least the time since its start (it said "0 µs" with every
// request in flight for seconds).
func (l *liveRecords) stats(now time.Time) (fleet.Stats, float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.acc == nil {
		return fleet.Stats{}, 0
	}
	st := l.acc.Stats()
	if !now.IsZero() {
		st.Drain = max(st.Drain, now.Sub(l.start))
	}
	return st, l.acc.Dispersion(fleet.DispersionSlice)
}

// set makes recs the records (a simulation's, all at once).
func (l *liveRecords) set(recs []fleet.Record) {
	l.mu.Lock()
	l.recs = recs
	l.mu.Unlock()
}

func (l *liveRecords) len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs) + l.counted
}

// CanRun reports whether Run would start a run: the configuration is
// valid and fits a live run (at most fleet.WorkersRange.Max workers).
func (l *Lab) CanRun() bool { return !l.running && l.Invalid() == 0 && l.s.LiveErrors() == nil }

// RunBlocked says why Run cannot start, for the r key that asked for it,
// or "" when it can (or a run already goes on, which the page shows).
func (l *Lab) RunBlocked() string { return l.blocked("Run", l.s.LiveErrors()) }

// SimulateBlocked is RunBlocked for Simulate (the m key).
func (l *Lab) SimulateBlocked() string { return l.blocked("Simulate", l.s.SimErrors()) }

// blocked says why what cannot start: values to fix first, else the first
// of errs (what rules it out for this configuration); "" when nothing does.
func (l *Lab) blocked(what string, errs []fleet.FieldError) string {
	switch n := l.Invalid(); {
	case l.running:
		return ""
	case n == 1:
		return what + ": fix the value marked in the settings first"
	case n > 1:
		return what + ": fix the " + strconv.Itoa(n) + " values marked in the settings first"
	case errs != nil:
		return what + ": " + errs[0].Msg
	}
	return ""
}

// CanSimulate reports whether Simulate would start a simulation: the
// configuration is valid and targets the built-in mock.
func (l *Lab) CanSimulate() bool { return !l.running && l.Invalid() == 0 && l.s.SimErrors() == nil }

// CanWatch reports whether Watch room would start: a shared room is set,
// the built-in mock is the target, and nothing is running.
func (l *Lab) CanWatch() bool {
	return !l.running && l.s.Room != "" && l.s.Target == "" && l.Err("room") == "" && l.Err("target") == ""
}

// Watch shows the shared room as the server sees it, with no fleet of its
// own: every arrival from everyone in the room, live, until Stop. It is
// the projector's view of a workshop.
func (l *Lab) Watch(ctx app.Context) {
	if !l.CanWatch() {
		return
	}
	s := l.s
	rctx, cancel := context.WithCancel(context.Background())
	l.beginRun(cancel)
	l.runKey = s.Room
	l.watching, l.watched = true, true
	l.simSum, l.tr, l.live = fleet.SimSummary{}, nil, nil
	l.hasStats, l.wstats, l.watchRoom, l.watchOpen, l.watchFull, l.watchAgain = true, watchStats{}, s.Room, false, false, false
	start := time.Now()
	l.simAt = start // the files' name (fileStamp)
	l.view.startWatch(s, start)
	_ = ctx.SessionStorage().Set(watchStorageKey, s.Room) // a reload of the projector watches on (adoptWatch)
	l.askJoin(ctx)
	hello := l.openStream(s.Room, true)
	stop := l.stream
	origin := l.pageOrigin()
	l.runRev++
	l.publish()
	ctx.Async(func() {
		// Frames come with arrivals; between them the "now" line and the
		// time axis still move: a frame every 100 ms, the numbers every
		// 500 ms.
		open, full := false, false
		for i := 1; (browser.Clock{}).Sleep(rctx, 100*time.Millisecond) == nil; i++ {
			l.view.request()
			select {
			case <-hello:
				if !open { // the clocks, once the server is there: a watch sends nothing else
					go l.view.probeClock(rctx, origin, 3)
				}
				open = true
			default:
			}
			if i%5 != 0 {
				continue
			}
			st := l.view.watchStats()
			st.For = time.Since(start)
			if st.Arrivals >= WatchMaxArrivals {
				full = true
				cancel()
			}
			ctx.Dispatch(func(app.Context) {
				if l.watching && !l.stopping {
					l.wstats, l.watchOpen = st, open
					l.runRev++
					l.publish()
				}
			})
		}
		if stop != nil {
			stop() // nothing more comes in: the numbers are final
		}
		end := time.Now()
		l.view.finish(end)
		st := l.view.watchStats()
		st.For = end.Sub(start)
		ctx.Dispatch(func(ctx app.Context) {
			if !l.watching {
				return // a newer run took over
			}
			_ = ctx.SessionStorage().Set(watchStorageKey, "") // ended here: a reload does not start it again
			l.closeStream()
			l.running, l.watching, l.stopping = false, false, false
			l.wstats, l.watchFull = st, full
			l.runRev++
			l.publish()
		})
	})
}

// newKey is a fresh mock key beginning with prefix ("run-", "rehearsal-"),
// so each run starts with a full limiter.
func newKey(prefix string) string {
	return prefix + strconv.FormatUint(rand.Uint64()>>16, 36)
}

// liveGCPercent is GOGC during a live run (fleet.RelaxGC, which also caps
// the memory limit at 1 GiB). Once a cycle starts marking in wasm it holds
// the page to the end: each cycle of a 500-worker run (500 goroutine
// stacks, ~10 MB of heap) took 60–220 ms, 8 cycles a run at the default
// GOGC, late timers and all. At 2000 the heap may grow to 21 times what is
// live before a cycle: a typical run has none, a very long one a few, and
// the limit keeps a huge one from taking all the tab's memory. The
// settings return after the run (and the collector runs then, with the run
// over).
const liveGCPercent = 2000

// The page's clock lets fleet.Run start the workers in batches, yielding to
// the event loop in between, and core.Do let the page run before an attempt.
var (
	_ fleet.Yielder = browser.Clock{}
	_ core.Pacer    = browser.Clock{}
	_ fleet.Yielder = waveClock{}
	_ core.Pacer    = waveClock{}
)

// Run starts a live run of the configuration, unless one is running or a
// field is invalid. ctx is the page's context.
func (l *Lab) Run(ctx app.Context) {
	if !l.CanRun() {
		return
	}
	browser.Entered() // a click's handler: the run's first sends count the page's busy time from here (browser.Clock.Pace)
	s := l.s
	rctx, cancel := context.WithCancel(context.Background())
	l.beginRun(cancel)
	l.checkSubdomains(ctx) // again, when the last check got no answer in time
	l.runKey = newKey("run-")
	if s.Room != "" {
		l.runKey = s.Room
	}
	_ = browser.PrepareTimings(250_000, s.Target == "")
	l.hasStats = true
	tr := newFetchTransport(l.pageURL(), l.subdomains, s, l.runKey, l.device)
	l.tr = tr
	l.view.start(s, time.Now(), tr.device) // an empty timeline at once; its origin is set below
	live := &liveRecords{countOnly: true}  // its numbers start with the run (restart, below)
	l.showNewRun(ctx, live)
	var ready <-chan struct{}
	if s.Target == "" {
		// The server's own view: every arrival for the key (the whole room
		// when it is shared), including requests that never got an answer.
		ready = l.openStream(l.runKey, false)
	}
	stream := l.stream
	if stream == nil {
		ready = nil // no stream to wait for
	}
	// The configuration's scheduled outage: fleet.Run asks for it when it
	// is due (not when the run is over or stopped by then).
	runs := l.runs
	tr.onOutage = l.scheduledOutage(l.runKey, func(msg string) {
		ctx.Dispatch(func(ctx app.Context) {
			if l.runs == runs {
				l.Flash(ctx, msg)
			}
		})
	})

	limit := liveMaxRequests
	ctx.Async(func() {
		tr.settle(rctx)
		tickCtx, stopTick := context.WithCancel(context.Background())
		rec, st, disp := runLive(rctx, s, tr, ready, l.view, live, limit, func() {
			go l.tick(ctx, tickCtx, live, 250*time.Millisecond, true)
		})
		stopTick()
		cancel()
		if stream != nil {
			// The last ends (cancellations) reach the stream a moment later.
			go func() {
				_ = browser.Clock{}.Sleep(context.Background(), 300*time.Millisecond)
				stream()
			}()
		}
		ctx.Dispatch(func(app.Context) {
			if l.live != live {
				return // a newer run took over
			}
			l.running, l.stopping = false, false
			l.rec, l.stats, l.disp = rec, st, disp
			l.learnNoise()
			l.runRev++
			l.publish()
		})
	})
}

// beginRun readies the page for a new run, live or simulated, or a watch:
// it ends what the last one left going (its message, the rehearsal, a
// replay, the arrivals stream, its context), forgets its recording,
// numbers and summary, counts the run and takes cancel as its Stop. Run,
// Simulate and Watch then set what is theirs; showNewRun shows a run.
func (l *Lab) beginRun(cancel context.CancelFunc) {
	l.dismissToast()
	l.cancelRehearsal()
	l.StopReplay()
	l.closeStream()
	if l.cancel != nil {
		l.cancel()
	}
	l.cancel = cancel
	l.runs++
	l.running, l.stopping, l.watched = true, false, false
	l.rec, l.stats, l.disp = nil, fleet.Stats{}, 0
	l.summary = runSummary{} // nor its recording kept alive by the summary's key
	l.unread.of = nil        // nor by the Retry-After count's: the tab's heap grew by a run's (TestSimulationsDoNotPileUp)
}

// showNewRun makes live the records of the run just begun (beginRun), whose
// numbers the page shows, and shows the run.
func (l *Lab) showNewRun(ctx app.Context, live *liveRecords) {
	l.live = live
	l.runRev++
	l.publish()
	l.showRun(ctx)
}

// streamWait is how long a live run waits for its arrivals stream to open
// before it starts without it. The stream's hello comes within
// milliseconds here; on a loaded machine a new page's first stream took
// longer than the 500 ms this was, and the arrivals before it opened
// (the first 230 ms of a run whose every attempt hung) were never seen:
// no arrival number for those attempts, none in the server panel (found
// by a review). A stream that fails starts the run at once (streamed); one
// the server does not answer delays it this long.
const streamWait = 2 * time.Second

// runLive is a live run's course, Run's and the rehearsal's: it lets the
// arrivals stream open first (ready, up to streamWait; nil: no stream), so
// that the stream sees the first wave, calls started, then runs s against
// tr from that moment, each record to live and v as it comes, and ends
// v's run. It returns the recording with its numbers.
func runLive(rctx context.Context, s fleet.Scenario, tr *fetchTransport, ready <-chan struct{}, v *view, live *liveRecords, limit int, started func()) (*fleet.Recording, fleet.Stats, float64) {
	// The collector relaxed before the wait for the stream's hello, not
	// after it: the page's update for the run and its first frame
	// allocate, and on a new page a cycle they started marked for ~100 ms
	// of that wait, on the page's only thread.
	restoreGC := fleet.RelaxGC(liveGCPercent)
	if ready != nil {
		wait, cancelWait := context.WithTimeout(rctx, streamWait)
		select {
		case <-ready:
		case <-wait.Done():
		}
		cancelWait()
	}
	started()
	// One origin for the timeline, the live numbers, the final numbers
	// and the exports: the run starts now, after the stream's hello
	// (up to streamWait), not when Run was pressed. fleet.Run reads its
	// Start from here too.
	start := browser.Clock{}.Now()
	live.restart(start)
	v.restart(s, start, tr.device)
	clock := waveClock{unpaced: new(atomic.Int64)}
	clock.unpaced.Store(int64(min(s.Workers, fleet.StartBatch)))
	rec := fleet.RunFrom(rctx, start, s, tr, clock, fleet.RunOptions{MaxRequests: limit}, func(r fleet.Record) {
		live.add(r)
		v.onRecord(r)
	})
	restoreGC()
	end, ok := rec.End()
	if !ok {
		end = time.Now()
	}
	v.finish(end)
	st, disp := rec.Numbers(rec.Shared()) // the run is over: no copy
	return rec, st, disp
}

// waveClock is the page's clock for a live run, but for the run's first
// wave (fleet.StartBatch, the workers fleet.Run starts in one task): the
// run's first unpaced attempts to begin (in a closed workload the
// workers' first sends, due at the run's start; in an open one the first
// jobs' whenever they arrive) begin at once, whatever Busy says. A custom
// target's wave, 50 fetch() calls on the page's thread, is then one task
// of 50–100 ms: the price of its first sends leaving at once. Paced as the rest
// (browser.Clock.Pace), each of them gave the event loop a turn once Go
// had held it 12 ms, and the turn went to what the run's start had
// queued: the page's update and the timeline's first frame (20–120 ms on
// a new page), the arrivals stream's first messages; the sends after
// it waited for them. A custom target's first attempts, each a fetch()
// of 1–2 ms on the page's thread, reached that threshold within the
// first ten. The wave is one batch of fleet.Run's: a larger run yields
// between batches, and its later attempts are paced as before.
type waveClock struct {
	browser.Clock
	unpaced *atomic.Int64 // attempts still to begin unpaced
}

// Pace is browser.Clock.Pace, but returns at once for the first wave.
func (c waveClock) Pace(ctx context.Context) error {
	if c.unpaced.Add(-1) >= 0 {
		return nil
	}
	return c.Clock.Pace(ctx)
}

// tick refreshes the live numbers (and the status with them) while a run
// (running) or a replay goes on, every `every` at most and no more often
// than ten times the cost of computing them.
func (l *Lab) tick(ctx app.Context, tickCtx context.Context, live *liveRecords, every time.Duration, running bool) {
	gap := every
	for {
		if (browser.Clock{}).Sleep(tickCtx, gap) != nil {
			return
		}
		t0 := time.Now()
		var now time.Time
		if running {
			now = browser.Clock{}.Now()
		}
		st, disp := live.stats(now)
		gap = max(every, 10*time.Since(t0))
		ctx.Dispatch(func(app.Context) {
			if l.live != live || !l.numbersSoFar() {
				return
			}
			l.stats, l.disp = st, disp
			l.runRev++
			l.publish()
		})
	}
}

// LiveMaxRequests is the most requests a live run sends
// (fleet.RunOptions). The tab keeps every attempt of the run it shows (its
// recording, its timeline, the server's arrivals for it): about 2 KB a
// request (24 MB after a 500-worker run of 11,700 requests), so the limit
// keeps a run's memory near 200 MB. Left running, the tab would reach the
// memory limit (fleet.RelaxGC) in minutes, then freeze in every
// collection. A run that reaches it sends nothing more, takes the answers
// in flight in, and the status says where it stopped. On this project's
// two-core machine the fastest run (500 workers, no latency) sends ~700
// requests a second: the limit is over two minutes of that.
const LiveMaxRequests = 100_000

// liveMaxRequests is LiveMaxRequests, lowered by tests through the page's
// hook (window.retrylab.requestLimit) to reach it in seconds.
var liveMaxRequests = LiveMaxRequests

// SimMaxAttempts is the most attempts a simulation from the page sends: at
// most a few hundred megabytes of records in the tab. A simulation that
// reaches it cancels its unfinished jobs, and the status says so.
const SimMaxAttempts = 300_000

// Simulate runs the configuration in virtual time (fleet.SimulateWith),
// unless a run is going on or it cannot be simulated, and draws the
// recording through the same path as a live run: the view's records, its
// model and paint, the same Stats. It waits for a frame first, so
// "Simulating…" is on screen. The simulation shares the page's only
// thread: every loadSlice it lets the event loop run (input, painting), so
// the page stays live, the status tells how far it has come, and Stop
// interrupts it (a simulation of 300,000 attempts held the thread for
// 1.8–6.1 s in one task; a soak review). Taking its records in (the
// timeline's model and the numbers) is done in slices too, and Stop then
// leaves it undrawn, nothing of it shown: after 300,000 attempts were
// computed (500 workers × 1,000 jobs, 10,000 × 5 and × 1,000) the page
// took 2.1–2.7 s more (0.6–0.8 s gathering the records, a collection of
// 0.07–0.25 s, 1.3–1.6 s taking them in) with Stop disabled, and a person
// who had asked for 500 workers × 1,000 jobs by mistake could not get the
// page back (a review). It is not cut where Stop came, as the computing
// is: what was computed is whole, and part of its records would show jobs
// neither done nor cancelled.
func (l *Lab) Simulate(ctx app.Context) {
	if !l.CanSimulate() {
		return
	}
	s := l.s
	at := time.Now()
	sctx, cancel := context.WithCancel(context.Background())
	l.beginRun(cancel)
	l.runKey = ""
	l.simulating, l.hasStats = true, false
	l.simSum, l.simSoFar, l.simDrawing = fleet.SimSummary{}, sim.Progress{}, false
	drop := new(atomic.Bool) // Stop came as it was drawn (Stop sets it): leave it undrawn
	l.simDrop = drop
	l.tr = nil
	live := &liveRecords{}
	l.showNewRun(ctx, live)
	ctx.Async(func() {
		// Let the browser paint "Simulating…" before the thread is busy.
		browser.Clock{}.AfterPaint(context.Background())
		// The run shown goes first, and its garbage with it: the
		// simulation runs with the collector paused, and wasm's memory
		// never shrinks, so each one's peak over the last run's model
		// stayed for good (three of 300,000 attempts took it from 658 to
		// 1,044 and 1,203 MB; a soak review).
		l.view.forget(s)
		runtime.GC()
		rec, sum := fleet.SimulateWith(s, fleet.SimOptions{MaxAttempts: SimMaxAttempts, Interrupt: sharing(
			func() bool { return sctx.Err() != nil },
			func(p sim.Progress) {
				ctx.Dispatch(func(app.Context) {
					if l.live == live && l.simulating {
						l.simSoFar, l.simDrawing = p, p.Over
						l.runRev++ // the run bar shows it, whichever component started the simulation
						l.publish()
					}
				})
			})})
		// Stop as it was drawn drops it; Stop as it was computed, once
		// its last check for Stop had passed, does not: the page said
		// what was computed would be drawn (a review: its cancelled
		// context dropped it, "not drawn"). A failure is told, not
		// dropped.
		dropped := func() bool { return rec.Err == nil && drop.Load() }
		var st fleet.Stats
		var disp float64
		drawn := !dropped()
		if drawn {
			// The simulation ran with the collector paused; its first
			// cycle must mark every record (a few hundred megabytes). In
			// wasm the collector shares the page's only thread and, once
			// started, marks to the end without letting the event loop
			// run: collect now, in a task of its own (65–240 ms), before
			// the timeline's model adds to the heap, rather than at some
			// moment later.
			browser.Clock{}.Yield(context.Background())
			runtime.GC()
			l.view.computed()
			recs := rec.Shared() // finished: read-only from here on
			live.set(recs)
			st, disp, drawn = l.view.loadUnless(s, rec, recs, dropped)
		}
		cancel()
		if !drawn {
			live.set(nil)
			ctx.Dispatch(func(ctx app.Context) {
				if l.live != live {
					return
				}
				l.view.undrawn()
				l.runs-- // shown nowhere: the next run is not "(run 3)" after "(run 1)" (a review)
				l.running, l.simulating, l.stopping, l.simDrawing = false, false, false, false
				l.runRev++
				l.publish()
				l.Flash(ctx, "Stopped: the simulation's "+thousands(sum.Attempts)+" attempts were computed, and are not drawn.")
			})
			return
		}
		ctx.Dispatch(func(ctx app.Context) {
			if l.live != live {
				return
			}
			late := l.stopping && !sum.Interrupted
			l.running, l.simulating, l.stopping, l.simDrawing = false, false, false, false
			l.rec, l.stats, l.hasStats, l.disp, l.simSum, l.simAt = rec, st, true, disp, sum, at
			l.runRev++
			l.publish()
			switch {
			case rec.Err != nil:
				l.Flash(ctx, "Simulation failed: "+rec.Err.Error())
			case late:
				l.Flash(ctx, "Stop came once the simulation was computed: it is shown whole.")
			}
		})
	})
}

// simProgressEvery is how often the status tells how far a simulation has
// come: each telling renders the page.
const simProgressEvery = 200 * time.Millisecond

// sharing is a fleet.SimOptions.Interrupt for a simulation on the page's
// thread: it lets the event loop run once loadSlice has passed since it
// last did, tells how far the simulation has come (told, if not nil) at
// most every simProgressEvery, and at once when it is over (Progress.Over),
// and stops it once stop (if not nil) says so.
func sharing(stop func() bool, told func(sim.Progress)) func(sim.Progress) bool {
	var sl slicer
	sl.t0 = time.Now()
	last, over := sl.t0, false
	return func(p sim.Progress) bool {
		if told != nil && p.Over && !over {
			over = true
			told(p)
		}
		if time.Since(sl.t0) > loadSlice {
			if told != nil && !p.Over && time.Since(last) >= simProgressEvery {
				last = time.Now()
				told(p)
			}
			sl.yield()
		}
		return stop != nil && stop()
	}
}

// Simulated reports whether the run shown was simulated.
func (l *Lab) Simulated() bool { return l.rec != nil && l.rec.Simulated }

// shows is what the timeline shows, for its legend: a watch, a simulation
// (being computed, or done), or a run of the fleet (also before any).
func (l *Lab) shows() kindShown {
	switch {
	case l.watching || l.watched:
		return showsWatch
	case l.simulating || l.Simulated():
		return showsSim
	}
	return showsRun
}

// SimulatedText describes the simulated run shown, for the PNG's title:
// "Simulated in virtual time — 10,000 workers, 50,000 jobs, computed in
// 0.7 s", and the attempt limit when it was reached. "" when the run shown
// was not simulated.
func (l *Lab) SimulatedText() string {
	if !l.Simulated() {
		return ""
	}
	s := l.rec.Scenario
	t := "Simulated in virtual time — " + thousands(s.Workers) + " workers, " + thousands(jobsOf(s)) + " jobs, computed in " + l.simTook()
	if l.simSum.Stopped || l.simSum.Interrupted {
		t += "; " + l.simStopped()
	}
	return t
}

// simTook is how long the simulation shown took to compute: "7.0 ms",
// never "0 µs".
func (l *Lab) simTook() string {
	switch w := l.simSum.Wall; {
	case w >= time.Second:
		return human.Measured(w.Round(10 * time.Millisecond))
	case w >= time.Millisecond:
		return human.Duration(w.Round(time.Millisecond))
	}
	return "under 1 ms"
}

// simStopped says where the simulation shown was stopped, at the attempt
// limit or by Stop, accounting for every job it did not finish.
func (l *Lab) simStopped() string {
	s := l.rec.Scenario
	t := "it stopped at the limit of " + thousands(SimMaxAttempts) + " attempts"
	if l.simSum.Interrupted {
		t = "Stop ended it after " + thousands(l.simSum.Attempts) + " attempts"
	}
	t += ": " + thousands(l.stats.Cancelled) + " jobs in progress were cancelled"
	if n := neverStarted(&l.stats, jobsOf(s)); n > 0 {
		t += " and " + thousands(n) + " never started"
	}
	return t
}

// simDropping reports whether Stop came as the simulation going on was
// drawn: it is being left undrawn.
func (l *Lab) simDropping() bool { return l.simulating && l.simDrop != nil && l.simDrop.Load() }

// Stop aborts every request in flight and ends every wait of the run at
// once, by cancelling its context as soon as "Stopping…" is painted.
func (l *Lab) Stop() {
	if l.replaying {
		l.StopReplay()
		return
	}
	if !l.running || l.cancel == nil || l.stopping {
		return
	}
	l.stopping = true
	if l.simDrawing && l.simDrop != nil {
		l.simDrop.Store(true)
	}
	l.runRev++
	l.publish()
	// Cancelling wakes every worker at once: with 500 of them, aborting
	// their fetches and ending their waits holds the thread ~200 ms. Done
	// in the click's own task, "Stopping…" reached the screen only after
	// it (184–336 ms from click to paint); after the next frame it shows
	// first (24–72 ms; BenchmarkResponsiveLiveRun).
	cancel := l.cancel
	go func() {
		browser.Clock{}.AfterPaint(context.Background())
		cancel()
	}()
}

// openStream opens the mock's arrivals stream for key into the view (l.stream
// closes it); the returned channel receives once the stream says hello
// (or, without retry, fails: streamed).
// With retry (a watch, which sees nothing without it) a stream the server
// refused is opened again; a run's is not: the run draws its server panel
// from the answers without it, and a stream opened late would replace
// them with the arrivals since (a review).
func (l *Lab) openStream(key string, retry bool) <-chan struct{} {
	hello, stop, err := streamInto(l.pageOrigin(), key, retry, l.view)
	if err == nil {
		l.stream = stop
	}
	return hello
}

// streamInto opens the arrivals stream of the mock at origin for key into
// v (with retry: again if the server refused it); the returned channel
// receives once the stream says hello (streamed), and stop closes it.
func streamInto(origin, key string, retry bool, v *view) (hello <-chan struct{}, stop func(), err error) {
	h := make(chan struct{}, 1)
	v.opening(time.Now())
	stop, err = browser.Stream(origin+"/mock/events?key="+url.QueryEscape(key), retry, streamed(v, h, retry))
	return h, stop, err
}

// streamed is streamInto's handler of each message: into v, and a signal
// on h once the stream says hello, or, without retry, once it fails: it
// is not asked again, and the browser reconnects only after seconds, so a
// run waiting for its hello would wait out streamWait in vain (a stream
// the server refused held the run 2 s).
func streamed(v *view, h chan<- struct{}, retry bool) func(data string) {
	return func(data string) {
		if c := v.onServerEvent(data); c == "hello" || !retry && c != "" {
			select {
			case h <- struct{}{}:
			default:
			}
		}
	}
}

// closeStream closes the arrivals stream of the last run, if still open.
func (l *Lab) closeStream() {
	if l.stream != nil {
		l.stream()
		l.stream = nil
	}
}
