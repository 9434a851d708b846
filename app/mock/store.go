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
// bytes of state (a sliding window keeps 8 bytes per request of its limit):
// a shard over its share of either bound evicts its least recently used keys
// (an approximation of global LRU, exact within the shard).
type store struct {
	shards  []shard
	mask    uint64
	seed    maphash.Seed
	base    time.Time // origin of entry.used
	ttl     time.Duration
	evicted atomic.Uint64
	expired atomic.Uint64
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
	lim        *core.Limiter // its Config() is the key's configuration
	seq        uint64        // arrivals for this key, the last one included
	used       int64         // last use, nanoseconds since store.base
	cost       int           // entryCost(cfg)
	prev, next *entry
}

// entryOverhead estimates the heap bytes of one key besides a sliding
// window's ring: the entry, the limiter, the key's bytes and its map slot.
// TestMemoryMillionKeys measures the real figure.
const entryOverhead = 640

func entryCost(c core.LimiterConfig) int {
	if c.Kind == core.LimitSlidingWindow {
		return entryOverhead + 8*c.Limit
	}
	return entryOverhead
}

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
// cfg and returns the limiter's decision (Decide, or Peek when take is false)
// and the arrival's number for the key. A key that is new, idle for longer
// than the TTL, or configured differently from its last arrival gets a fresh
// limiter; only a new or expired key also restarts its arrival numbers.
func (s *store) decide(key string, cfg core.LimiterConfig, now time.Time, take bool) (core.Decision, uint64) {
	t := int64(now.Sub(s.base))
	sh := s.shard(key)
	sh.mu.Lock()
	e := sh.m[key]
	switch {
	case e == nil:
		e = &entry{key: strings.Clone(key)} // key may point into a request's URL
		sh.m[e.key] = e
		sh.reset(e, cfg, now, true)
	case t-e.used > int64(s.ttl):
		s.expired.Add(1)
		sh.unlink(e)
		sh.reset(e, cfg, now, true)
	case e.lim.Config() != cfg:
		sh.unlink(e)
		sh.reset(e, cfg, now, false)
	default:
		sh.unlink(e)
	}
	sh.pushFront(e)
	for len(sh.m) > sh.cap || sh.bytes > sh.budget {
		old := sh.back()
		if old == e {
			break
		}
		sh.remove(old)
		s.evicted.Add(1)
	}
	e.used = t
	e.seq++
	var d core.Decision
	if take {
		d = e.lim.Decide(now)
	} else {
		d = e.lim.Peek(now)
	}
	seq := e.seq
	sh.mu.Unlock()
	return d, seq
}

func (sh *shard) reset(e *entry, cfg core.LimiterConfig, now time.Time, restart bool) {
	c := entryCost(cfg)
	sh.bytes += c - e.cost
	e.cost, e.lim = c, core.NewLimiter(cfg, now)
	if restart {
		e.seq = 0
	}
}

func (sh *shard) remove(e *entry) {
	sh.unlink(e)
	delete(sh.m, e.key)
	sh.bytes -= e.cost
}

// sweep removes every key idle for longer than the TTL at now. It holds a
// shard's lock for at most batch removals at a time.
func (s *store) sweep(now time.Time) int {
	const batch = 1024
	t := int64(now.Sub(s.base))
	removed := 0
	for i := range s.shards {
		sh := &s.shards[i]
		for more := true; more; {
			more = false
			sh.mu.Lock()
			for n := 0; ; n++ {
				e := sh.back()
				if e == &sh.head || t-e.used <= int64(s.ttl) {
					break
				}
				if n == batch {
					more = true
					break
				}
				sh.remove(e)
				removed++
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
