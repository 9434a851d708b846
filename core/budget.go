package core

import (
	"math"
	"sync"
)

// budgetUnit is how many units a Budget counts per token: 63,000,000 =
// 2⁶·3²·5⁶·7, so a refill with up to six decimals (0.1, 0.25, 0.000001)
// and a refill of 1/n for n = 1…10, 12, 14, 15, 16, 18, 20, … is a whole
// number of units. The largest balance, 1e6 tokens plus a 1e6 refill, is
// about 1.3e14 units: far inside an int64.
const budgetUnit = 63_000_000

// Budget is a retry quota shared by many loops, in the style of the AWS
// SDK's retry tokens and gRPC's retry throttling: each retry spends one
// token, each success returns RefillPerSuccess tokens (up to capacity), and
// when fewer than one token is left the loops stop retrying
// (ErrBudgetEmpty) instead of multiplying load on a server that is already
// failing. First attempts never need a token. A Budget starts full and is
// safe for concurrent use. Create it with NewBudget.
//
// The tokens are counted exactly, in integers: capacity and refill are
// rounded once, at construction, to the nearest 1/63,000,000 of a token
// (see budgetUnit), and no error builds up however many successes are
// added. So a refill r that is a decimal with up to six places, or 1/n for
// small n, earns exactly one retry per ⌈1/r⌉ successes after the budget
// is spent: 0.1 allows one retry per 10 successes, 0.2 per 5, 0.25 per 4,
// and 1.0/3 per 3. A refill typed as 0.333333 is less than a third (three
// successes give 0.999999 tokens), so it takes 4; 0.333334 takes 3.
//
// Create it with NewBudget. The zero Budget holds no token and refills
// none: it refuses every retry.
type Budget struct {
	mu       sync.Mutex
	capacity float64 // as given
	refill   float64 // as given
	capU     int64   // capacity in units
	refillU  int64   // refill in units
	tokensU  int64   // tokens left, in units
}

// NewBudget returns a full budget. capacity must lie in BudgetCapacityRange
// and refillPerSuccess in BudgetRefillRange (0: never refills, a fixed
// number of retries for the whole fleet).
func NewBudget(capacity, refillPerSuccess float64) (*Budget, error) {
	if err := BudgetCapacityRange.check("budget capacity", capacity); err != nil {
		return nil, err
	}
	if err := BudgetRefillRange.check("budget refill", refillPerSuccess); err != nil {
		return nil, err
	}
	capU := int64(math.Round(capacity * budgetUnit))
	return &Budget{
		capacity: capacity, refill: refillPerSuccess,
		capU: capU, refillU: int64(math.Round(refillPerSuccess * budgetUnit)), tokensU: capU,
	}, nil
}

// Spend takes one token for a retry and reports whether there was one.
func (b *Budget) Spend() bool {
	b.mu.Lock()
	ok := b.tokensU >= budgetUnit
	if ok {
		b.tokensU -= budgetUnit
	}
	b.mu.Unlock()
	return ok
}

// Refund gives back one token taken by Spend for a retry that was then
// not sent (the loop stopped or was cancelled before sending it), up to
// the capacity.
func (b *Budget) Refund() {
	b.mu.Lock()
	b.tokensU = min(b.capU, b.tokensU+budgetUnit)
	b.mu.Unlock()
}

// Success returns RefillPerSuccess tokens, up to the capacity.
func (b *Budget) Success() {
	b.mu.Lock()
	b.tokensU = min(b.capU, b.tokensU+b.refillU)
	b.mu.Unlock()
}

// Tokens returns the tokens left (the float64 nearest the exact count).
func (b *Budget) Tokens() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return float64(b.tokensU) / budgetUnit
}

// Capacity returns the most tokens the budget holds.
func (b *Budget) Capacity() float64 { return b.capacity }

// RefillPerSuccess returns the tokens each success returns.
func (b *Budget) RefillPerSuccess() float64 { return b.refill }
