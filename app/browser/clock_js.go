//go:build js && wasm

package browser

import (
	"context"
	"time"

	"github.com/hack-pad/safejs"
)

// earlyEnough is how early a timer may fire and still count: re-arming for
// the last fraction of a millisecond would cost a whole extra timer turn.
const earlyEnough = 250 * time.Microsecond

func sleep(ctx context.Context, d time.Duration) error {
	b, err := getBridge()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(d)
	for {
		step := time.Until(deadline)
		if step <= earlyEnough {
			return nil
		}
		if err := b.sleepOnce(ctx, step); err != nil {
			return err
		}
	}
}

// yield posts a message to itself and waits for it (bridge.post).
func yield(ctx context.Context) { waitPost(ctx, func(b *bridge) safejs.Value { return b.post }) }

// afterPaint waits for the message bridge.paint posts after the next frame.
func afterPaint(ctx context.Context) { waitPost(ctx, func(b *bridge) safejs.Value { return b.paint }) }

func waitPost(ctx context.Context, fn func(*bridge) safejs.Value) {
	b, err := getBridge()
	if err != nil {
		return
	}
	id, ch := b.register()
	if _, err := fn(b).Invoke(id); err != nil {
		b.forget(id)
		return
	}
	select {
	case <-ch:
	case <-ctx.Done():
		b.forget(id)
	}
}

// sleepOnce arms one setTimeout(settle, ms, id, true).
func (b *bridge) sleepOnce(ctx context.Context, d time.Duration) error {
	id, ch := b.register()
	handle, err := b.timeout.Invoke(b.fn.Value(), timeoutMS(d), id, true)
	if err != nil {
		b.forget(id)
		return err
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		_, _ = b.clear.Invoke(handle)
		b.forget(id)
		return ctx.Err()
	}
}
