package core

import "math/bits"

// usage is the share of its quota a limiter has in use at an instant:
// used/quota, with 0 <= used <= quota and quota > 0 (nothing in use: 0/1).
// Besides the ring's entries from first on, it is made of own: a fixed
// window's admissions in its current window, a token bucket's own debt in
// nanoseconds (a sliding window has only its entries).
type usage struct {
	off         int64
	used, quota int64
	own         int64
	first       int
}

// usage is l's share in use at off (see usage). A fixed window holding more
// than its Limit after a smaller one was set is all in use, its own
// admissions first: of the carried ones, only those that would keep it full
// longest count.
func (l *Limiter) usage(off int64) usage {
	u := usage{off: off, quota: 1}
	switch l.cfg.Kind {
	case LimitTokenBucket:
		u.first = l.firstAfter(off, l.n)
		u.own = l.tb.debt(off)
		u.used = min(u.own+l.carriedDebt(l.n-u.first), l.tb.burst)
		u.quota = l.tb.burst
	case LimitFixedWindow:
		limit := int64(l.cfg.Limit)
		if off/int64(l.cfg.Window) == l.win {
			u.own = min(int64(l.count), limit)
		}
		u.first = max(l.firstAfter(off, l.n), l.n-int(limit-u.own))
		u.used = u.own + int64(l.n-u.first)
		u.quota = limit
	case LimitSlidingWindow:
		u.first = l.firstInWindow(off)
		u.used = int64(l.n - u.first)
		u.quota = int64(l.cfg.Limit)
	}
	return u
}

// backBy is the earliest offset from u.off on at which l has at most q/qq
// of its quota in use (0 <= q < qq), if nothing more is admitted. It reads
// only l's entries from u.first on.
func (l *Limiter) backBy(u usage, q, qq int64) int64 {
	switch l.cfg.Kind {
	case LimitTokenBucket:
		// Rounded down, so that the share is never back early.
		return l.bucketBy(u.off, u.first, mulDiv(q, l.tb.burst, qq, false))
	case LimitFixedWindow:
		k := q * int64(l.cfg.Limit) / qq // at most k admissions in use
		switch {
		case u.own > k:
			return (l.win + 1) * int64(l.cfg.Window) // the window's end
		case u.used > k: // once the (k-own+1)-th latest carried one is back
			return l.ring[l.at(l.n-int(k-u.own)-1)]
		}
	case LimitSlidingWindow:
		if k := q * int64(l.cfg.Limit) / qq; u.used > k { // once the (k+1)-th latest has left
			return l.ring[l.at(l.n-int(k)-1)] + int64(l.cfg.Window)
		}
	}
	return u.off
}

// carryShare makes l a limiter for c at off when c is another Kind, or a
// window of another length: l's admissions cannot be kept as such, so what
// carries over is the share of its quota l has in use at off (Limit minus
// Remaining over Limit; a bucket's missing tokens, fractions included, over
// its Burst), and when l would give each part of it back if nothing more
// were admitted: a sliding window each admission a Window after it was
// made, a fixed window all at its window's end, a bucket a token every
// 1/Rate, and each what it carries at its instants. The new limiter starts
// with that share in use, and gives it back on l's schedule:
//   - a token bucket holds exactly the share, as its carried units (each
//     1/per of its Burst, per being l's Limit), coming back when l's would
//     have, besides its own full bucket, but never later than it refills
//     from empty (Burst/Rate after off): a 24-hour window's one admission,
//     carried into a bucket of 10 a second, kept the bucket empty for the
//     rest of the 24 hours, so one request locked a shared key that long
//     (a security review);
//   - a window holds ⌈share×Limit⌉ admissions, its k-th last one given back
//     when l's share in use would have fallen to (k-1)/Limit, but never
//     later than a window holds an admission: a Window after off for a
//     sliding window (recorded as admitted a Window earlier), the end of
//     its window that contains off for a fixed window (its windows stay
//     aligned to the instant given to NewLimiter).
//
// So a limiter that was full stays full across the change, none of the
// share comes back sooner than l would have given it back unless the new
// limiter recovers sooner on its own (a shorter window, a bucket that
// refills sooner), and what was admitted long ago is not counted as
// admitted now: clients that alternate between configurations use no more
// of the limit than their requests do, however often they switch.
//
// The ring the new limiter carries its share in is l's spare, and l's ring
// becomes the spare (the other way round when l's ring holds nothing and is
// the longer): filling the new ring never overwrites what is still to be
// read. It is made when it is missing or too short: of its Limit for a
// window, of per for a bucket. So alternating configurations allocate
// only until both rings are long enough.
func (l *Limiter) carryShare(c LimiterConfig, off int64) {
	u := l.usage(off)
	cs := l.carry
	if cs == nil {
		cs = new(carryState)
	}
	next := Limiter{cfg: c, base: l.base, late: l.late, ring: cs.spare, carry: cs}
	spare := l.ring
	if l.n == 0 && len(l.ring) > len(cs.spare) { // nothing to read in l's ring: use the longer one
		next.ring, spare = l.ring, cs.spare
	}
	// fill gives entry i (of n, oldest first) the instant at which the share
	// that is (n-i)-th last back comes back, in units of 1/per: l's, at the
	// latest by, minus shift. The ring is made of per entries if it has
	// fewer than room.
	fill := func(n int, per, by, shift int64, room int) {
		if len(next.ring) < room {
			next.ring = make([]int64, per)
		}
		next.n = n
		for i := range n {
			next.ring[i] = min(l.backBy(u, int64(n-i-1), per), by) - shift
		}
	}
	switch c.Kind {
	case LimitTokenBucket: // l is a window (or none): its share is a count of admissions
		next.tb = newTokenBucket(c.Rate, float64(c.Burst), off)
		fill(int(u.used), u.quota, satAdd(off, next.tb.burst), 0, int(u.used))
	case LimitFixedWindow:
		w, n := int64(c.Window), int(mulDiv(u.used, int64(c.Limit), u.quota, true))
		next.win = off / w
		fill(n, int64(c.Limit), (next.win+1)*w, 0, n)
	case LimitSlidingWindow:
		w, n := int64(c.Window), int(mulDiv(u.used, int64(c.Limit), u.quota, true))
		fill(n, int64(c.Limit), off+w, w, c.Limit) // room for every admission it counts
	}
	// l is read no more: cs may change.
	if c.Kind == LimitTokenBucket {
		cs.per = int(u.quota)
	}
	cs.spare = spare
	*l = next
}

// mulDiv is a·b/c, rounded up or down, for 0 <= a <= c, b >= 0 and c > 0
// (so it fits: at most b), exactly: the product is taken in 128 bits.
func mulDiv(a, b, c int64, up bool) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	if up && r != 0 {
		q++
	}
	return int64(q)
}
