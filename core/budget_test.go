package core

import (
	"sync"
	"testing"
)

func TestBudget(t *testing.T) {
	b, err := NewBudget(3, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		op     string
		ok     bool
		tokens float64
	}{
		{"spend", true, 2}, {"spend", true, 1}, {"spend", true, 0},
		{"spend", false, 0},
		{"success", true, 0.5},
		{"spend", false, 0.5},
		{"success", true, 1},
		{"spend", true, 0},
		{"success", true, 0.5}, {"success", true, 1}, {"success", true, 1.5}, {"success", true, 2},
		{"success", true, 2.5}, {"success", true, 3}, {"success", true, 3}, // capped
	}
	for i, st := range steps {
		ok := true
		if st.op == "spend" {
			ok = b.Spend()
		} else {
			b.Success()
		}
		if ok != st.ok || b.Tokens() != st.tokens {
			t.Fatalf("step %d %s: ok=%v tokens=%v, want ok=%v tokens=%v", i, st.op, ok, b.Tokens(), st.ok, st.tokens)
		}
	}
	if b.Capacity() != 3 || b.RefillPerSuccess() != 0.5 {
		t.Fatal("accessors")
	}
}

func TestNewBudgetValidates(t *testing.T) {
	for _, tt := range []struct {
		capacity, refill float64
		want             string
	}{
		{10, 0, ""},
		{0, 1, "core: budget capacity 0: must be between 1 and 1000000"},
		{10, -1, "core: budget refill -1: must be between 0 and 1000000"},
	} {
		_, err := NewBudget(tt.capacity, tt.refill)
		wantErr(t, err, tt.want)
	}
}

func TestBudgetConcurrentSpendNeverOverdraws(t *testing.T) {
	b, _ := NewBudget(100, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	spent := 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if b.Spend() {
					mu.Lock()
					spent++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if spent != 100 || b.Tokens() != 0 {
		t.Fatalf("spent %d, %v left; want 100, 0", spent, b.Tokens())
	}
}

// TestBudgetRefillIsExact drains a budget and counts the successes that
// earn the next retry. With float tokens built by repeated addition, ten
// refills of 0.1 summed to 0.9999999999999999 and an eleventh was needed;
// the page promises "0.1 allows one retry per ten successes".
func TestBudgetRefillIsExact(t *testing.T) {
	for _, tt := range []struct {
		capacity, refill float64
		successes        int // successes after draining that earn one retry
	}{
		{50, 0.1, 10},
		{20, 0.1, 10},
		{1, 0.1, 10},
		{10, 0.2, 5},
		{10, 0.25, 4},
		{10, 0.5, 2},
		{10, 1, 1},
		{10, 0.01, 100},
		{10, 0.001, 1000},
		{10, 0.05, 20},
		{1e6, 0.1, 10},
		{3, 1.0 / 3, 3},     // a third is exact
		{3, 0.333333, 4},    // 3 × 0.333333 < 1
		{3, 0.333334, 3},    // 3 × 0.333334 ≥ 1
		{10, 1.0 / 7, 7},    // a seventh is exact
		{10, 0.3, 4},        // 3 × 0.3 = 0.9
		{2.5, 0.5, 1},       // fractional capacity: drained to 0.5
		{10, 0.000001, 1e6}, // a millionth is exact
	} {
		b, err := NewBudget(tt.capacity, tt.refill)
		if err != nil {
			t.Fatal(err)
		}
		for b.Spend() {
		}
		n := 0
		for ; n <= 2*tt.successes; n++ {
			if b.Tokens() >= 1 {
				break
			}
			b.Success()
		}
		if n != tt.successes || !b.Spend() {
			t.Errorf("NewBudget(%v, %v): %d successes earn a retry, want %d", tt.capacity, tt.refill, n, tt.successes)
		}
		// Successes never fill the budget past its capacity.
		if tt.capacity/tt.refill > 1e5 {
			continue
		}
		for range 3 * int(tt.capacity/tt.refill+1) {
			b.Success()
		}
		if b.Tokens() != tt.capacity {
			t.Errorf("NewBudget(%v, %v): %v tokens after many successes, want the capacity", tt.capacity, tt.refill, b.Tokens())
		}
	}
}

func TestBudgetTokensAreNearestFloat(t *testing.T) {
	b, _ := NewBudget(50, 0.1)
	for b.Spend() {
	}
	for i := 1; i <= 30; i++ {
		b.Success()
		if want := float64(i) / 10; b.Tokens() != want {
			t.Fatalf("after %d successes %v tokens, want %v", i, b.Tokens(), want)
		}
	}
}

func TestBudgetRefund(t *testing.T) {
	b, _ := NewBudget(2, 0.1)
	b.Spend()
	b.Spend()
	b.Refund()
	if b.Tokens() != 1 {
		t.Fatalf("after a refund %v tokens, want 1", b.Tokens())
	}
	b.Refund()
	b.Refund() // capped
	if b.Tokens() != 2 {
		t.Fatalf("after refunds past the capacity %v tokens, want 2", b.Tokens())
	}
}

// The zero Budget refuses every retry, successes or not, as its doc says.
func TestBudgetZeroValue(t *testing.T) {
	var b Budget
	for range 100 {
		b.Success()
	}
	if b.Spend() {
		t.Fatal("the zero Budget granted a retry")
	}
}
