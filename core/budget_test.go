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
