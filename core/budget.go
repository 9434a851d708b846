package core

import "sync"

// Budget is a retry quota shared by many loops, in the style of the AWS
// SDK's retry tokens and gRPC's retry throttling: each retry spends one
// token, each success returns RefillPerSuccess tokens (up to capacity), and
// when fewer than one token is left the loops stop retrying
// (ErrBudgetEmpty) instead of multiplying load on a server that is already
// failing. First attempts never need a token. A Budget starts full and is
// safe for concurrent use. Create it with NewBudget.
type Budget struct {
	mu       sync.Mutex
	capacity float64
	refill   float64
	tokens   float64
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
	return &Budget{capacity: capacity, refill: refillPerSuccess, tokens: capacity}, nil
}

// Spend takes one token for a retry and reports whether there was one.
func (b *Budget) Spend() bool {
	b.mu.Lock()
	ok := b.tokens >= 1
	if ok {
		b.tokens--
	}
	b.mu.Unlock()
	return ok
}

// Success returns RefillPerSuccess tokens, up to the capacity.
func (b *Budget) Success() {
	b.mu.Lock()
	b.tokens = min(b.capacity, b.tokens+b.refill)
	b.mu.Unlock()
}

// Tokens returns the tokens left.
func (b *Budget) Tokens() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tokens
}

// Capacity returns the most tokens the budget holds.
func (b *Budget) Capacity() float64 { return b.capacity }

// RefillPerSuccess returns the tokens each success returns.
func (b *Budget) RefillPerSuccess() float64 { return b.refill }
