package endpoint_test

import (
	"fmt"
	"time"

	"retrylab/core"
	"retrylab/core/endpoint"
)

// An endpoint that allows 2 requests a second and answers the rest 429
// with Retry-After in seconds, as the mock does with
// /mock?limiter=fixed&limit=2&window=1s&retry_after=seconds&latency=20ms. Three
// requests arrive at once: the third is refused, told to wait until the
// window turns.
func ExampleConfig_Decide() {
	c := endpoint.Config{
		Limiter:    core.LimiterConfig{Kind: core.LimitFixedWindow, Limit: 2, Window: time.Second},
		RetryAfter: endpoint.RetryAfterSeconds,
		Latency:    20 * time.Millisecond,
	}
	if err := c.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	lim := core.NewLimiter(c.Limiter, start)
	now := start.Add(400 * time.Millisecond)
	for range 3 {
		v := c.Decide(now, false, time.Time{}, 0, lim) // up, and a failure roll of 0 (none injected)
		line := fmt.Sprintf("%d %v, answered after %v", v.Status, v.Outcome, c.Delay(0))
		if v.Outcome.SendsRetryAfter() {
			ra, _ := endpoint.AppendRetryAfter(nil, c.RetryAfter, c.RetryValue, v.Decision, now)
			line += ", Retry-After: " + string(ra)
		}
		fmt.Println(line)
	}
	// Output:
	// 200 ok, answered after 20ms
	// 200 ok, answered after 20ms
	// 429 limited, answered after 20ms, Retry-After: 1
}
