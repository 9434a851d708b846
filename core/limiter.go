package core

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"
)

// LimiterKind selects a server-side limiting algorithm.
type LimiterKind uint8

const (
	LimitNone          LimiterKind = iota // every request allowed
	LimitTokenBucket                      // Rate tokens/s, capacity Burst, one token per request
	LimitFixedWindow                      // Limit requests per aligned window of length Window
	LimitSlidingWindow                    // Limit requests in any window of length Window
)

// limiterKindNames are the kinds' names, by their constants: one place for
// ParseLimiterKind, String and the errors' lists, as strategyNames is for
// Strategy. The mock's query spells them shorter, and takes these too
// (core/endpoint's LimiterNames says why there are two).
var limiterKindNames = [...]string{LimitNone: "none", LimitTokenBucket: "token-bucket", LimitFixedWindow: "fixed-window", LimitSlidingWindow: "sliding-window"}

// String returns "none", "token-bucket", "fixed-window" or "sliding-window".
func (k LimiterKind) String() string {
	if int(k) < len(limiterKindNames) {
		return limiterKindNames[k]
	}
	return fmt.Sprintf("LimiterKind(%d)", uint8(k))
}

// ParseLimiterKind is the inverse of LimiterKind.String.
func ParseLimiterKind(s string) (LimiterKind, error) {
	for i, name := range limiterKindNames {
		if s == name {
			return LimiterKind(i), nil
		}
	}
	return 0, fmt.Errorf("core: limiter kind %q: must be one of %s", s, strings.Join(limiterKindNames[:], ", "))
}

// LimiterConfig describes a server-side limit. Only the fields of the
// chosen Kind are used (and validated). The zero LimiterConfig is
// LimitNone: valid, every request allowed.
type LimiterConfig struct {
	Kind   LimiterKind
	Rate   float64       // token bucket: tokens per second (LimiterRateRange)
	Burst  int           // token bucket: capacity (LimiterBurstRange)
	Limit  int           // windows: requests per window (LimiterLimitRange)
	Window time.Duration // windows: window length (LimiterWindowRange)
}

// Validate reports the first field outside its allowed range.
func (c LimiterConfig) Validate() error {
	switch c.Kind {
	case LimitNone:
		return nil
	case LimitTokenBucket:
		if err := LimiterRateRange.check("limiter rate", c.Rate); err != nil {
			return err
		}
		return LimiterBurstRange.check("limiter burst", c.Burst)
	case LimitFixedWindow, LimitSlidingWindow:
		if err := LimiterLimitRange.check("limiter limit", c.Limit); err != nil {
			return err
		}
		return LimiterWindowRange.check("limiter window", c.Window)
	}
	last := len(limiterKindNames) - 1
	return fmt.Errorf("core: limiter kind %d: must be between 0 (%s) and %d (%s)", uint8(c.Kind), limiterKindNames[0], last, limiterKindNames[last])
}

// Scaled returns c with its limit multiplied by f, as a server that cuts
// (or raises) everyone's quota for a while would: a token bucket gets
// Rate×f and Burst max(1, round(Burst×f)); a fixed or sliding window gets
// Limit max(1, round(Limit×f)) over the same Window. LimitNone is returned
// unchanged, and so is c when f is NaN. The results are clamped to
// LimiterRateRange, LimiterBurstRange and LimiterLimitRange, so Scaled of a
// valid configuration is valid for any f (0 gives the smallest limit).
func (c LimiterConfig) Scaled(f float64) LimiterConfig {
	if math.IsNaN(f) {
		return c
	}
	switch c.Kind {
	case LimitTokenBucket:
		c.Rate = min(max(c.Rate*f, LimiterRateRange.Min), LimiterRateRange.Max)
		c.Burst = scaleCount(c.Burst, f, LimiterBurstRange)
	case LimitFixedWindow, LimitSlidingWindow:
		c.Limit = scaleCount(c.Limit, f, LimiterLimitRange)
	}
	return c
}

// Policy is the limit as an IETF RateLimit-Policy item states it: quota
// requests per window whole seconds. The window is the limiter's (for a
// token bucket, the time it takes to refill from empty), rounded up to
// whole seconds, at least 1; the quota is what the limiter admits at once
// (Limit, or a bucket's Burst), except that for a window shorter than a
// second it is scaled to the second, rounded down: 1 per 100 ms is q=10,
// w=1, and a bucket refilled in under a second states its Rate rounded
// down. So the rate stated is never above the one configured (a token
// bucket, which spaces its tokens in whole nanoseconds, may admit a few parts
// per billion less: Rate 3 states q=3, w=1 and admits 2.999999994 per
// second). LimitNone gives 0, 0.
func (c LimiterConfig) Policy() (quota int, window int64) {
	var w time.Duration
	switch c.Kind {
	case LimitTokenBucket:
		// Its refill from empty, rounded up: rounded down, 1 per
		// 999999.5/s refilled in 1000 ns and stated q=1000000.
		w = time.Duration(math.Ceil(float64(c.Burst) / c.Rate * float64(time.Second)))
		if w < time.Second {
			return int(c.Rate), 1 // its rate, rounded down
		}
		quota = c.Burst
	case LimitFixedWindow, LimitSlidingWindow:
		quota, w = c.Limit, c.Window
	default:
		return 0, 0
	}
	if w <= 0 {
		w = 1
	}
	if w < time.Second {
		return int(int64(quota) * int64(time.Second) / int64(w)), 1
	}
	return quota, int64((w + time.Second - 1) / time.Second)
}

// scaleCount is round(n×f) clamped to r (compared as floats, so an infinite
// product converts safely).
func scaleCount(n int, f float64, r Range[int]) int {
	return int(min(max(math.Round(float64(n)*f), float64(r.Min)), float64(r.Max)))
}

// Limiter is one server-side limit (one per key at the mock endpoint).
// Decide admits or rejects a request at an instant and says what a
// well-behaved server would tell the client: remaining quota, time to reset
// and an exact Retry-After.
//
// Time is a parameter. An instant earlier than the latest one seen is
// treated as that latest one, so the limits hold even if concurrent callers
// read the clock and take the lock in different orders.
//
// The algorithms:
//   - token bucket: refills Rate/s up to Burst and starts full; a request
//     takes a token; rejected requests take nothing. The same exact integer
//     arithmetic as Bucket (a token every ⌈1e9/Rate⌉ ns).
//   - fixed window: windows [start+k·Window, start+(k+1)·Window) where start
//     is the instant given to NewLimiter; at most Limit requests in each.
//     Up to 2·Limit can pass around a window boundary: that is the known
//     weakness of fixed windows, shown on purpose.
//   - sliding window: exact, never more than Limit allowed requests in any
//     half-open window of length Window. It keeps the times of the last
//     Limit allowed requests in a ring (hence LimiterLimitRange.Max = 1000;
//     after Reconfigure to a smaller Limit, of the last ones up to the
//     largest Limit it had).
//
// After Reconfigure to another kind or window length, a token bucket or a
// fixed window also holds the share of the quota the previous configuration
// had in use, as the instants it comes back at (see Reconfigure): a request
// is admitted only if the limiter's own state and that share leave room.
//
// A Limiter is not safe for concurrent use: the server locks per key.
// Decide and Peek do not allocate. Create it with NewLimiter: the zero
// value is not usable.
type Limiter struct {
	cfg  LimiterConfig
	tb   tokenBucket
	base time.Time // offsets below are nanoseconds since base
	late int64     // latest offset seen (time never runs backwards)

	// fixed window
	win   int64 // index of the current window
	count int   // allowed in the current window

	// ring holds n offsets in time order from head:
	//   - sliding window: the last allowed requests (carried ones included);
	//     len(ring) >= cfg.Limit (larger after Reconfigure to a smaller
	//     Limit), and n < len(ring) means every admission since the start
	//     (or the change of kind) is there;
	//   - fixed window and token bucket: the instants at which the share
	//     carried over by Reconfigure comes back, a unit each: an admission
	//     (fixed window; all back by the end of the window they were
	//     carried into), or 1/carry.per of the Burst (token bucket).
	ring []int64
	head int
	n    int

	carry *carryState // nil until the first change of kind or window length
}

// carryState is what a limiter keeps once it has changed kind or window
// length (apart, so that the many that never do stay small).
type carryState struct {
	per int // token bucket: the carried units that make up its Burst
	// spare is the ring the limiter had before its last such change, kept
	// for the next one: a change builds the new ring from the old one, so
	// it must not write into it.
	spare []int64
}

// NewLimiter returns a limiter for c whose windows (or full bucket) start at
// now. It panics if c.Validate() fails: validate configurations from users
// first.
func NewLimiter(c LimiterConfig, now time.Time) *Limiter {
	if err := c.Validate(); err != nil {
		panic(err)
	}
	l := &Limiter{cfg: c, base: now}
	switch c.Kind {
	case LimitTokenBucket:
		l.tb = newTokenBucket(c.Rate, float64(c.Burst), 0)
	case LimitSlidingWindow:
		l.ring = make([]int64, c.Limit)
	}
	return l
}

// Config returns the limiter's configuration: the one it was made with,
// or the latest given to Reconfigure.
func (l *Limiter) Config() LimiterConfig { return l.cfg }

// Instants is the number of instants l has room for (8 bytes each) besides
// its fixed-size state: a sliding window's ring and, once the limiter has
// changed kind or window length, the ring it carries its share in and the
// spare one. The mock endpoint budgets its memory with it.
func (l *Limiter) Instants() int {
	if l.carry == nil {
		return len(l.ring)
	}
	return len(l.ring) + len(l.carry.spare)
}

// Reconfigure changes l's limit to c at now, keeping what l has admitted so
// far, as a server that changes a running limit would (the mock endpoint's
// "halve the limit" switch uses it going into a stretch and back out, and a
// shared key whose clients' settings differ at every change):
//   - token bucket to token bucket: the bucket keeps its tokens, fractions
//     included, capped at the new Burst, and refills at the new Rate from
//     now; a share it holds carried from a window comes back as before, but
//     no later than the new bucket refills from empty;
//   - fixed window to fixed window of the same Window: the current window
//     and its count are kept. A count above the new Limit means rejections
//     (Remaining 0) until the window ends;
//   - sliding window to sliding window of the same Window: the admissions
//     are kept and the new Limit counts the latest of them, so no window of
//     length Window that ends with a later admission holds more than the
//     new Limit. A smaller Limit keeps the ring as it is (the times beyond
//     the new Limit are what makes a later return to the larger one exact:
//     forgetting them would let a window straddling the change hold more
//     than either limit); a larger one moves it into a ring of the new size.
//
// A different Kind, or a different Window, has no admissions to carry over
// as such: the new limiter starts with the same share of its quota in use
// as l had, given back when l would have given it back, or once the new
// limiter would have recovered on its own if sooner (see carryShare).
// Fixed windows stay aligned to the instant given to NewLimiter. Like
// Decide, an instant earlier than the latest one seen is treated as that
// latest one. Reconfigure allocates only when a ring must grow: a sliding
// window's to a Limit larger than any it had, or, at a change of kind or
// window length, the one the share is carried in (so changes back and forth
// soon allocate nothing). It panics if c.Validate() fails.
func (l *Limiter) Reconfigure(c LimiterConfig, now time.Time) {
	if err := c.Validate(); err != nil {
		panic(err)
	}
	if c == l.cfg {
		return
	}
	switch {
	case c.Kind != l.cfg.Kind:
		l.carryShare(c, l.offset(now, true))
	case c.Kind == LimitTokenBucket:
		l.rescaleBucket(c, l.offset(now, true))
	case c.Window != l.cfg.Window:
		l.carryShare(c, l.offset(now, true))
	case c.Kind == LimitSlidingWindow && c.Limit > len(l.ring):
		l.offset(now, true)
		ring := make([]int64, c.Limit)
		for i := range l.n {
			ring[i] = l.ring[l.at(i)]
		}
		l.ring, l.head = ring, 0
	default: // a fixed window's count, a sliding window's ring stay as they are
		l.offset(now, true)
	}
	l.cfg = c
}

// rescaleBucket carries the bucket's tokens at off over to c's rate and
// capacity. The tokens held, (burst-debt)/interval, become the same number
// at the new interval, rounded down to the nanosecond so the bucket never
// holds more than it had; 128-bit arithmetic keeps it exact.
func (l *Limiter) rescaleBucket(c LimiterConfig, off int64) {
	old := l.tb
	l.tb = newTokenBucket(c.Rate, float64(c.Burst), off)
	// A share carried in from a window (ring[:n]) comes back no later than
	// the new bucket refills from empty, as when it was carried in
	// (carryShare): a bucket of a million tokens at 0.001/s took a 24-hour
	// window's admission in, then handed it to the room's bucket of 10/s,
	// which was locked for the rest of the 24 hours (a review).
	by := satAdd(off, l.tb.burst)
	for i := range l.n {
		if p := l.at(i); l.ring[p] > by {
			l.ring[p] = by
		}
	}
	held := old.burst - old.debt(off) // tokens held × old interval, >= 0 (a Limiter never owes)
	if held < 0 {
		held = 0
	}
	if held/old.interval >= int64(c.Burst) {
		return // at least the new capacity: full
	}
	// held < Burst·old.interval, so held·new.interval/old.interval <
	// Burst·new.interval = new.burst: the quotient fits.
	hi, lo := bits.Mul64(uint64(held), uint64(l.tb.interval))
	kept, _ := bits.Div64(hi, lo, uint64(old.interval))
	l.tb.full = satAdd(off, l.tb.burst-int64(kept))
}

// Decision is a limiter's answer for one request.
type Decision struct {
	Allowed    bool
	Limit      int           // the policy's quota (Burst or Limit; 0 for LimitNone)
	Remaining  int           // quota left after this decision
	Reset      time.Duration // until the quota is fully restored (bucket full / window over / log empty)
	RetryAfter time.Duration // exact time until a request would be allowed (0 if allowed)
}

// RetryAfterSeconds is RetryAfter rounded up to whole seconds, as sent in a
// Retry-After header: a client that waits that long is allowed. It is at
// least 1 when the request was denied and 0 when it was allowed.
func (d Decision) RetryAfterSeconds() int { return ceilSeconds(d.RetryAfter, !d.Allowed) }

// RetryAt is the instant a Retry-After HTTP-date names for this decision
// made at now: the first whole second at or after now+RetryAfter, in UTC,
// so a client that waits until then is never early (HTTP-dates have whole
// seconds).
func (d Decision) RetryAt(now time.Time) time.Time {
	at := now.Add(d.RetryAfter).UTC().Round(0)
	t := at.Truncate(time.Second)
	if t.Before(at) {
		t = t.Add(time.Second)
	}
	return t
}

// ResetSeconds is Reset rounded up to whole seconds, for RateLimit-style
// headers.
func (d Decision) ResetSeconds() int { return ceilSeconds(d.Reset, false) }

func ceilSeconds(d time.Duration, atLeastOne bool) int {
	n := int64(d / time.Second)
	if d%time.Second > 0 {
		n++
	}
	if atLeastOne && n < 1 {
		n = 1
	}
	return int(n)
}

// Decide admits or rejects one request at now and records it if admitted.
func (l *Limiter) Decide(now time.Time) Decision { return l.decide(now, true) }

// Peek is Decide without recording anything: what Decide would say about a
// request at now, with Remaining not reduced by it. The endpoint uses it to
// put rate-limit headers on responses that did not go through the limiter
// (injected failures).
func (l *Limiter) Peek(now time.Time) Decision { return l.decide(now, false) }

func (l *Limiter) decide(now time.Time, take bool) Decision {
	switch l.cfg.Kind {
	case LimitTokenBucket:
		return l.decideBucket(l.offset(now, take), take)
	case LimitFixedWindow:
		return l.decideFixed(l.offset(now, take), take)
	case LimitSlidingWindow:
		return l.decideSliding(l.offset(now, take), take)
	}
	return Decision{Allowed: true}
}

// offset returns now in nanoseconds since base, never earlier than the
// latest offset seen; with take it records it as the latest.
func (l *Limiter) offset(now time.Time, take bool) int64 {
	off := int64(now.Sub(l.base))
	if off < l.late {
		off = l.late
	}
	if take {
		l.late = off
	}
	return off
}

func (l *Limiter) decideBucket(off int64, take bool) Decision {
	first := l.firstAfter(off, l.n) // carried share still out: ring[first:n]
	carried := l.carriedDebt(l.n - first)
	d := Decision{Limit: l.cfg.Burst, Allowed: l.tb.debt(off)+carried <= l.tb.burst-l.tb.interval}
	if d.Allowed && take {
		l.tb.take(off)
	}
	own := l.tb.debt(off)
	d.Remaining = int(max(l.tb.burst-own-carried, 0) / l.tb.interval)
	d.Reset = time.Duration(own)
	if first < l.n {
		d.Reset = max(d.Reset, time.Duration(l.ring[l.at(l.n-1)]-off))
	}
	if !d.Allowed {
		d.RetryAfter = time.Duration(l.bucketBy(off, first, l.tb.burst-l.tb.interval) - off)
	}
	if take && first == l.n {
		l.n = 0 // all of the carried share is back
	}
	return d
}

// carriedDebt is what c carried units of a bucket's share weigh, as debt
// (nanoseconds of refill at its rate), rounded up: c/per of its burst.
func (l *Limiter) carriedDebt(c int) int64 {
	if c == 0 {
		return 0
	}
	return mulDiv(int64(c), l.tb.burst, int64(l.carry.per), true)
}

// bucketBy is the earliest offset from off on at which the bucket's own
// debt plus its carried units still out (ring[first:n] at off) is at most
// x, if nothing more is admitted: its own debt falls a nanosecond per
// nanosecond, and each carried unit comes back at its instant.
func (l *Limiter) bucketBy(off int64, first int, x int64) int64 {
	from := off // the stretch [from, next unit back) with the units from p out
	for p := first; ; p++ {
		next := int64(math.MaxInt64)
		if p < l.n {
			next = l.ring[l.at(p)]
		}
		if cd := l.carriedDebt(l.n - p); cd <= x {
			if t := max(from, l.tb.full-(x-cd)); t < next || p == l.n {
				return t
			}
		}
		from = next
	}
}

func (l *Limiter) decideFixed(off int64, take bool) Decision {
	w := int64(l.cfg.Window)
	limit := l.cfg.Limit
	k := off / w
	count := l.count
	if k != l.win {
		count = 0
	}
	carried := l.n - l.firstAfter(off, l.n) // carried admissions still counted
	d := Decision{Limit: limit, Allowed: count+carried < limit}
	if d.Allowed && take {
		count++
	}
	d.Remaining = max(limit-count-carried, 0) // a count over a reconfigured limit
	d.Reset = time.Duration((k+1)*w - off)
	if !d.Allowed {
		d.RetryAfter = d.Reset
		if count < limit { // room once all but limit-count-1 carried ones are back
			d.RetryAfter = time.Duration(l.ring[l.at(l.n-(limit-count))] - off)
		}
	}
	if take {
		if k != l.win {
			l.n = 0 // carried ones are back by the end of the window they came into
		}
		l.win, l.count = k, count
	}
	return d
}

func (l *Limiter) decideSliding(off int64, take bool) Decision {
	w := int64(l.cfg.Window)
	limit := l.cfg.Limit
	full := l.n >= limit
	// oldest is the limit-th latest admission: while it is in the window,
	// another would make limit+1.
	oldest := 0
	if full {
		oldest = l.at(l.n - limit)
	}
	d := Decision{Limit: limit, Allowed: !full || off-l.ring[oldest] >= w}
	if d.Allowed && take {
		if l.n == len(l.ring) {
			l.ring[l.head] = off
			l.head++
			if l.head == len(l.ring) {
				l.head = 0
			}
		} else {
			l.ring[l.at(l.n)] = off
			l.n++
		}
	}
	inWindow := l.n - l.firstInWindow(off)
	d.Remaining = limit - inWindow
	if inWindow > 0 {
		d.Reset = time.Duration(l.ring[l.at(l.n-1)] + w - off)
	}
	if !d.Allowed {
		d.RetryAfter = time.Duration(l.ring[oldest] + w - off)
	}
	return d
}

// firstInWindow is the position, counted from the oldest entry, of the
// first of a sliding window's latest Limit admissions inside the window
// (off-Window, off].
func (l *Limiter) firstInWindow(off int64) int {
	return l.firstAfter(off-int64(l.cfg.Window), l.cfg.Limit)
}

// firstAfter is the position, counted from the oldest entry, of the first
// of the ring's latest entries (at most latest of them) later than edge:
// entries are in time order from head, so a binary search finds it.
func (l *Limiter) firstAfter(edge int64, latest int) int {
	lo, hi := max(l.n-latest, 0), l.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if l.ring[l.at(mid)] > edge {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// at maps a position counted from the oldest entry to a ring index.
func (l *Limiter) at(i int) int {
	i += l.head
	if i >= len(l.ring) {
		i -= len(l.ring)
	}
	return i
}
