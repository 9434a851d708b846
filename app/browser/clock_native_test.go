//go:build !(js && wasm)

package browser

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Natively Clock is Go's timers: a sleep never ends early. (In the browser
// a JS timer may end up to earlyEnough early: browser_js_test.go.)
func TestClockNative(t *testing.T) {
	var c Clock
	start := time.Now()
	if err := c.Sleep(context.Background(), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 5*time.Millisecond {
		t.Errorf("slept %v, want ≥ 5ms", d)
	}
	if err := c.Sleep(context.Background(), -time.Second); err != nil {
		t.Errorf("negative sleep = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(time.Millisecond); cancel() }()
	if err := c.Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled sleep = %v", err)
	}
}

// Natively a FrameLoop runs its frame at once on Request, and nothing
// once stopped.
func TestFrameLoopStop(t *testing.T) {
	n := 0
	l, err := NewFrameLoop(func() { n++ })
	if err != nil {
		t.Fatal(err)
	}
	l.Request()
	l.Stop()
	l.Request()
	if n != 1 {
		t.Errorf("frames run: %d, want 1 (one before Stop, none after)", n)
	}
}
