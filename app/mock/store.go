//go:build !(js && wasm)

package mock

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"retrylab/core"
)

// store keeps the limiter state of every key: a fixed set of shards, each a
// map plus an intrusive doubly linked list in least-recently-used order, under
// its own short mutex. Every operation is O(1) except sweep, which is
// O(expired keys). The store holds at most maxKeys keys and about maxBytes
// bytes of state (a limiter keeps 8 bytes per instant it holds: a sliding
// window one per request of its limit, see core.Limiter.Instants):
// a shard over its share of either bound evicts its least recently used keys
// (an approximation of global LRU, exact within the shard).
//
// A key is forgotten for idleness (expired) only once it has been unused for
// longer than the TTL and its limiter has fully recovered — a full bucket,
// no admission in the window — so that a fresh limiter admits nothing the
// old one would have refused: a client told to wait is never let in early
// because the server forgot it. A key with an arrivals stream open (a
// watch) is not expired either, so its arrival numbers never start again
// under the watch. The caps above still bound memory: they evict whatever
// the state, watched keys last.
type store struct {
	shards  []shard
	mask    uint64
	seed    maphash.Seed
	base    time.Time // origin of entry.used
	ttl     time.Duration
	watched func(key string) bool // keys not to expire, and to evict last (nil: none)
	// maxWatched is the most keys watched at once (Options.MaxStreams).
	maxWatched int
	evicted    atomic.Uint64
	expired    atomic.Uint64
}

type shard struct {
	mu     sync.Mutex
	m      map[string]*entry
	head   entry // sentinel: head.next is the most recently used, head.prev the least
	cap    int   // most keys
	budget int   // most bytes (estimated by entryCost)
	bytes  int
	_      [64]byte // keep shards' mutexes on separate cache lines
}

type entry struct {
	key        string
	lim        *core.Limiter      // base, or base.Scaled(scale) during a stretch
	base       core.LimiterConfig // the key's configuration, as its last arrival asked
	instants   int                // lim.Instants() when last charged: the entry costs entryCost(instants)
	scale      float64            // the factor lim is decided with (0: none, lim is base)
	until      int64              // with scale: the end of its stretch, nanoseconds since store.base
	seq        uint64             // arrivals for this key, the last one included
	used       int64              // last use, nanoseconds since store.base
	calm       int64              // when lim will have fully recovered (see settle), nanoseconds since store.base
	prev, next *entry
}

// entryOverhead estimates the heap bytes of one key besides the instants
// its limiter holds: the entry, the limiter, the key's bytes and its map
// slot. TestMemoryMillionKeys measures the real figure.
const entryOverhead = 640

// entryCost is the estimated cost of a key whose limiter holds n instants
// (core.Limiter.Instants).
func entryCost(n int) int { return entryOverhead + 8*n }

// shardsFor picks a power-of-two shard count that keeps at least 64 keys per
// shard (so per-shard LRU stays meaningful) and at most 64 shards.
func shardsFor(maxKeys int) int {
	n := 1
	for n < 64 && maxKeys/(n*2) >= 64 {
		n *= 2
	}
	return n
}

func newStore(maxKeys, maxBytes int, ttl time.Duration, now time.Time) *store {
	n := shardsFor(maxKeys)
	s := &store{shards: make([]shard, n), mask: uint64(n - 1), seed: maphash.MakeSeed(), base: now, ttl: ttl}
	for i := range s.shards {
		sh := &s.shards[i]
		sh.cap = maxKeys / n
		sh.budget = maxBytes / n
		sh.m = make(map[string]*entry)
		sh.head.next, sh.head.prev = &sh.head, &sh.head
	}
	return s
}

func (s *store) shard(key string) *shard {
	return &s.shards[maphash.String(s.seed, key)&s.mask]
}

// decide records an arrival for key at now under the limiter configuration
// cfg, multiplied by lim.scale over the stretch lim when lim.scale is not 0
// (POST /mock/limit), and returns the arrival's number for the key. decide
// is called once, under the key's lock, with that number and the key's
// limiter to decide the request with (endpoint.Config.Decide), or nil for a
// request with limiter=none on a key that has a limit: it passes, and
// leaves the key's limit as it is. A key that is new or expired (see
// stale) gets a fresh limiter and restarts its arrival numbers. A key whose
// last arrival asked for another configuration keeps its limiter, changed
// to cfg from now on (see rebase): clients with different settings taking
// turns on a shared key share one limit. A change of stretch alone
// reconfigures the limiter, carrying its state over (see rescale). The
// key's stretch in limits (nil: none) is read under the key's lock, so a
// switch that ends it (unscale) runs wholly before or after this decision;
// it is returned with the arrival's number.
func (s *store) decide(key string, cfg core.LimiterConfig, limits *stretches, now time.Time, decide func(seq uint64, lim *core.Limiter)) (uint64, stretch) {
	t := int64(now.Sub(s.base))
	sh := s.shard(key)
	sh.mu.Lock()
	var lim stretch
	if limits != nil {
		lim, _ = limits.at(key, now)
	}
	e := sh.m[key]
	unlimited := false
	switch {
	case e == nil:
		e = &entry{key: strings.Clone(key)} // key may point into a request's URL
		sh.m[e.key] = e
		s.reset(sh, e, cfg, lim, now, true)
	case s.stale(e, t):
		s.expired.Add(1)
		sh.unlink(e)
		s.reset(sh, e, cfg, lim, now, true)
	case cfg.Kind == core.LimitNone && e.base.Kind != core.LimitNone:
		// An unlimited request passes and leaves the key's limit as it
		// is: carried into none, the used share is 0, and carried back
		// out the limit came back full, so a client sending limiter=none
		// between its requests refilled everyone's quota.
		sh.unlink(e)
		unlimited = true
	default:
		sh.unlink(e)
		if s.moved(e, lim) {
			s.rescale(sh, e, lim, now)
		}
		if e.base != cfg {
			s.rebase(sh, e, cfg, now)
		}
	}
	sh.pushFront(e)
	for passed := 0; len(sh.m) > sh.cap || sh.bytes > sh.budget; {
		old := sh.back()
		if old == e {
			break
		}
		// A watched key (a room's or a watch's, with an arrivals stream
		// open) is the last to go: it is passed over, as if used now, up to
		// maxWatched times, the most there can be. A flood of new keys (one
		// LAN client sent 110,000 in 8.5 s) evicted a room's key idle
		// between runs, its limiter and arrival numbers starting again
		// under the watch (a security review).
		if passed < s.maxWatched && s.watched != nil && s.watched(old.key) {
			sh.unlink(old)
			sh.pushFront(old)
			passed++
			continue
		}
		sh.remove(old)
		s.evicted.Add(1)
	}
	e.used = t
	e.seq++
	if unlimited {
		decide(e.seq, nil)
	} else {
		decide(e.seq, e.lim)
	}
	s.settle(e, now)
	seq := e.seq
	sh.mu.Unlock()
	return seq, lim
}

// stale reports whether e may be forgotten at t: unused for longer than the
// TTL, its limiter fully recovered, and not watched.
func (s *store) stale(e *entry, t int64) bool {
	return t-e.used > int64(s.ttl) && t >= e.calm && (s.watched == nil || !s.watched(e.key))
}

// settle sets e.calm after e's limiter changed at now: the instant from which
// a fresh limiter for e.base would admit no request e's would refuse. That
// is when a bucket is full again, or the window holding its last admission
// (or rejection) is over; a window's recovery does not depend on its Limit,
// so a stretch does not move it. A bucket in a stretch is followed to the
// stretch's end, where it goes back to e.base holding only what it refilled
// at the scaled rate (up to the scaled capacity): its recovery is counted
// from there, on a copy of the limiter.
func (s *store) settle(e *entry, now time.Time) {
	l, at := e.lim, now
	if e.scale != 0 && e.base.Kind == core.LimitTokenBucket {
		if end := s.base.Add(time.Duration(e.until)); now.Before(end) {
			c := *e.lim
			c.Reconfigure(e.base, end)
			l, at = &c, end
		}
	}
	d := l.Peek(at)
	rec := d.Reset
	if l.Config().Kind == core.LimitFixedWindow && d.Remaining == d.Limit {
		rec = 0 // nothing admitted in the current window: a window's Reset is never 0
	}
	e.calm = int64(at.Sub(s.base) + rec)
}

// moved reports whether e's limiter is not in lim (scale 0: no stretch).
func (s *store) moved(e *entry, lim stretch) bool {
	return e.scale != lim.scale || e.scale != 0 && e.until != int64(lim.until.Sub(s.base))
}

// scaleNow moves key's limiter into st as the stretch starts, rather than
// at the key's next request: a stretch no request falls in (a client
// asleep on a long Retry-After) still halves the bucket's refill and
// capacity meanwhile.
func (s *store) scaleNow(key string, st stretch) {
	sh := s.shard(key)
	sh.mu.Lock()
	if e := sh.m[key]; e != nil && s.moved(e, st) {
		s.rescale(sh, e, st, st.from)
		s.settle(e, st.from)
	}
	sh.mu.Unlock()
}

// reset gives e a fresh limiter for cfg (scaled by lim) at now.
func (s *store) reset(sh *shard, e *entry, cfg core.LimiterConfig, lim stretch, now time.Time, restart bool) {
	c := cfg
	if lim.scale != 0 {
		c = cfg.Scaled(lim.scale)
		e.until = int64(lim.until.Sub(s.base))
	}
	if e.lim == nil { // new: not charged yet
		sh.bytes += entryCost(e.instants)
	}
	e.base, e.scale = cfg, lim.scale
	e.lim = core.NewLimiter(c, now)
	sh.recharge(e)
	if restart {
		e.seq = 0
	}
}

// recharge brings e's cost in sh.bytes in step with its limiter's.
func (sh *shard) recharge(e *entry) {
	n := e.lim.Instants()
	sh.bytes += entryCost(n) - entryCost(e.instants)
	e.instants = n
}

// rebase changes e's configuration to cfg at now, in e's stretch if any: the
// new limit applies from now on and the quota used so far is kept (see
// reconfigure).
func (s *store) rebase(sh *shard, e *entry, cfg core.LimiterConfig, now time.Time) {
	e.base = cfg
	if e.scale != 0 {
		cfg = cfg.Scaled(e.scale)
	}
	s.reconfigure(sh, e, cfg, now)
}

// reconfigure changes e's limiter to c at at, carrying its state over
// (core.Limiter.Reconfigure): within a kind (and, for windows, a Window) a
// bucket keeps its tokens, a window its admissions; across kinds or window
// lengths the new limiter starts with the same share of its quota in use,
// given back when the old one would have given it back (or once the new
// one has recovered on its own, if sooner), so clients that take turns
// with different settings share one limit without pushing its recovery
// back at every turn.
func (s *store) reconfigure(sh *shard, e *entry, c core.LimiterConfig, at time.Time) {
	e.lim.Reconfigure(c, at)
	sh.recharge(e)
}

// rescale moves e's limiter from the stretch it was last decided in to lim
// (scale 0: none) at the instants the limit changed, so that it carries its
// state over each change (core.Limiter.Reconfigure): back to the key's
// configuration when the old stretch ended (or now, if that comes first: it
// was ended early), unless lim replaced it before; then into lim at its start.
func (s *store) rescale(sh *shard, e *entry, lim stretch, now time.Time) {
	if e.scale != 0 {
		end := s.base.Add(time.Duration(e.until))
		if lim.scale == 0 || end.Before(lim.from) {
			if now.Before(end) {
				end = now
			}
			s.reconfigure(sh, e, e.base, end)
		}
	}
	if lim.scale != 0 {
		s.reconfigure(sh, e, e.base.Scaled(lim.scale), lim.from)
		e.until = int64(lim.until.Sub(s.base))
	}
	e.scale = lim.scale
}

// unscale puts key's limiter back to the key's configuration at at, when
// its stretch was ended early (for=0s), or at the stretch's end if that
// came first (it ran out with no request since).
func (s *store) unscale(key string, at time.Time) {
	sh := s.shard(key)
	sh.mu.Lock()
	if e := sh.m[key]; e != nil && e.scale != 0 {
		back := at
		if end := s.base.Add(time.Duration(e.until)); end.Before(at) {
			back = end
		}
		s.reconfigure(sh, e, e.base, back)
		e.scale = 0
		s.settle(e, at)
	}
	sh.mu.Unlock()
}

func (sh *shard) remove(e *entry) {
	sh.unlink(e)
	delete(sh.m, e.key)
	sh.bytes -= entryCost(e.instants)
}

// sweep removes every stale key at now (see stale): it walks each shard from
// its least recently used key while they have been idle for longer than the
// TTL. An idle key that is not stale yet (its limiter still recovering, or
// watched) goes to the front, as if used now, so the walk goes on past it
// and comes back to it after the keys used since: it is forgotten, at the
// latest, at about a TTL past the sweep that finds it stale, and the caps
// evict it as a recently used key meanwhile. A sweep looks at most once at
// each key a shard held when it began, and holds a shard's lock for at most
// batch keys at a time.
func (s *store) sweep(now time.Time) int {
	const batch = 1024
	t := int64(now.Sub(s.base))
	removed := 0
	for i := range s.shards {
		sh := &s.shards[i]
		left := -1 // keys still to look at, once the lock is first held
		for more := true; more; {
			more = false
			sh.mu.Lock()
			if left < 0 {
				left = len(sh.m)
			}
			for n := 0; left > 0; n++ {
				e := sh.back()
				if e == &sh.head || t-e.used <= int64(s.ttl) {
					break
				}
				if n == batch {
					more = true
					break
				}
				left--
				if s.stale(e, t) {
					sh.remove(e)
					removed++
				} else {
					sh.unlink(e)
					sh.pushFront(e)
				}
			}
			sh.mu.Unlock()
		}
	}
	s.expired.Add(uint64(removed))
	return removed
}

// len is the number of keys held.
func (s *store) len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

func (sh *shard) back() *entry { return sh.head.prev }

func (sh *shard) unlink(e *entry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (sh *shard) pushFront(e *entry) {
	e.prev, e.next = &sh.head, sh.head.next
	sh.head.next.prev = e
	sh.head.next = e
}
