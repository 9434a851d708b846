package sim

import (
	"fmt"
	"time"

	"retrylab/core"
)

// StatusConflict is the status of a conditional write that lost: the
// version it was based on is no longer the current one (HTTP 409).
const StatusConflict = 409

// Contention is the optimistic-concurrency model of the AWS Architecture
// Blog's "Exponential Backoff And Jitter" (Marc Brooker, 2015): Clients
// clients all start at once and each must update one shared record. An
// attempt (one call) reads the record's version, then writes conditionally
// on that version; the write succeeds, and bumps the version, only if no
// other client wrote in between. A client whose write lost backs off, as
// its core.Loop with Policy says, and tries again from the read.
//
// Every message (read request, read reply, write request, write reply)
// takes |Normal(NetMean, NetSD)| on the network. A client sends its write
// the instant the read's reply arrives, so the write reaches the server
// read-reply + write-request delays after the read did; the model
// schedules that arrival directly (no event fires in between, and nothing
// could happen to the client there).
//
// The clients' loops draw from core.NewPCG(core.SubSeed(Seed, client, 0));
// the network from core.NewPCG(core.SubSeed(Seed, Clients, 0)), in event
// order. A lost write is the outcome {Status: 409}; Policy.Retryable, if
// nil, is set to retry exactly that. Virtual time ends at the Scheduler's
// End: a client whose backoff would end after it gives up there
// (core.ErrHorizon), and a message due after it never arrives.
//
// The zero Contention is not valid: Validate (which Run calls) wants at
// least one client and a valid Policy (start from core.DefaultPolicy).
type Contention struct {
	Clients int
	Policy  core.Policy
	NetMean time.Duration // mean one-way delay of a message
	NetSD   time.Duration // its standard deviation
	Seed    uint64

	// Observe, if set, receives every event as it happens (Job is always 0,
	// Response nil). The Record is only valid during the call.
	Observe func(*Record)
}

// ContentionResult is what one contention run measured.
type ContentionResult struct {
	Calls      int           // attempts (each a read and a conditional write)
	Completion time.Duration // from the start until the last client's write succeeded (or it gave up)
	GaveUp     int           // clients whose loop stopped without success (MaxAttempts reached, or a wait past the end of virtual time)
	Events     uint64        // scheduler events fired
}

// Event arguments of a contention client.
const (
	occStart       = iota // the client starts
	occWake               // a backoff wait ended
	occReadArrive         // the read reaches the server
	occWriteArrive        // the conditional write reaches the server
	occReply              // the write's reply reaches the client
)

type occRun struct {
	c       *Contention
	sched   *Scheduler
	net     *Normal
	version int // the record's current version
	calls   int
	gaveUp  int
	last    time.Time
	rec     Record
}

type occClient struct {
	run  *occRun
	id   int
	loop *core.Loop
	read int  // version its read returned
	won  bool // its write succeeded
}

var outcomeOK, outcomeConflict = core.Outcome{Status: 200}, core.Outcome{Status: StatusConflict}

func retryConflict(o core.Outcome) bool { return o.Status == StatusConflict }

// Validate checks the model's own fields (the policy is checked by core).
func (c *Contention) Validate() error {
	switch {
	case c.Clients < 1:
		return fmt.Errorf("sim: contention clients %d: must be at least 1", c.Clients)
	case c.NetMean < 0 || c.NetSD < 0:
		return fmt.Errorf("sim: contention network delay mean %v, sd %v: must not be negative", c.NetMean, c.NetSD)
	}
	return c.Policy.Validate()
}

// Run simulates the model from start to the end of every client.
func (c *Contention) Run(start time.Time) (ContentionResult, error) {
	if err := c.Validate(); err != nil {
		return ContentionResult{}, err
	}
	p := c.Policy
	if p.Retryable == nil {
		p.Retryable = retryConflict
	}
	sched := NewScheduler(start)
	r := &occRun{c: c, sched: sched, net: NewNormal(core.NewPCG(core.SubSeed(c.Seed, c.Clients, 0))), last: sched.Now()}
	clients := make([]occClient, c.Clients)
	for i := range clients {
		cl := &clients[i]
		cl.run, cl.id = r, i
		var observe func(core.Event)
		if c.Observe != nil {
			observe = func(e core.Event) {
				r.rec = Record{Worker: cl.id, Event: e}
				c.Observe(&r.rec)
			}
		}
		cl.loop = core.NewLoop(p, core.NewPCG(core.SubSeed(c.Seed, i, 0)), nil, nil, observe)
		cl.loop.SetHorizon(sched.End()) // a wait past the end of virtual time gives up (core.ErrHorizon)
		sched.After(0, cl, occStart)
	}
	sched.Run()
	return ContentionResult{Calls: r.calls, Completion: r.last.Sub(sched.Start()), GaveUp: r.gaveUp, Events: sched.Fired()}, nil
}

func (r *occRun) delay() time.Duration { return r.net.AbsDelay(r.c.NetMean, r.c.NetSD) }

// Fire advances a contention client.
func (cl *occClient) Fire(now time.Time, arg int) {
	r := cl.run
	var step core.Step
	switch arg {
	case occStart:
		step = cl.loop.Start(now)
	case occWake:
		step = cl.loop.Woke(now)
	case occReadArrive:
		cl.read = r.version
		r.sched.After(r.delay()+r.delay(), cl, occWriteArrive) // read reply, then write request
		return
	case occWriteArrive:
		cl.won = cl.read == r.version
		if cl.won {
			r.version++
		}
		r.sched.After(r.delay(), cl, occReply)
		return
	case occReply:
		o := outcomeConflict
		if cl.won {
			o = outcomeOK
		}
		step = cl.loop.End(now, o)
	}
	switch step.Action {
	case core.ActAttempt:
		cl.loop.Begin(now)
		r.calls++
		r.sched.After(r.delay(), cl, occReadArrive)
	case core.ActWait:
		r.sched.After(step.Wait, cl, occWake)
	case core.ActDone:
		if step.Err != nil {
			r.gaveUp++
		}
		if now.After(r.last) {
			r.last = now
		}
	}
}
