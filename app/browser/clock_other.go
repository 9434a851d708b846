//go:build !(js && wasm)

package browser

import (
	"context"
	"runtime"
	"time"

	"retrylab/core"
)

// sleep is core's real clock natively: there are no JS timers to arm.
func sleep(ctx context.Context, d time.Duration) error {
	return core.RealClock{}.Sleep(ctx, d)
}

// yield lets other goroutines run.
func yield(context.Context) { runtime.Gosched() }

// afterPaint has no frames to wait for natively: it lets other goroutines run.
func afterPaint(context.Context) { runtime.Gosched() }
