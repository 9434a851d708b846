package core_test

import (
	"fmt"
	"time"

	"retrylab/core"
)

func ExampleParseRetryAfter() {
	now := time.Date(1999, time.December, 31, 23, 59, 0, 0, time.UTC)
	for _, v := range []string{
		"120",
		"Fri, 31 Dec 1999 23:59:59 GMT",
		"Friday, 31-Dec-99 23:59:59 GMT",
		"Fri Dec 31 23:59:59 1999",
		"Thu, 30 Dec 1999 00:00:00 GMT", // in the past
		"1.5",
		"Fri, 31 Dec 1999 23:59:60 GMT",
		"9999999999",
	} {
		d, err := core.ParseRetryAfter(v, now)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(d)
	}
	// Output:
	// 2m0s
	// 59s
	// 59s
	// 59s
	// 0s
	// core: retry-after "1.5": fractional seconds not allowed
	// core: retry-after "Fri, 31 Dec 1999 23:59:60 GMT": invalid date: second 60 out of range
	// core: retry-after "9999999999": too large (more than 9223372036 seconds overflows a time.Duration)
}

func ExampleLimiter() {
	start := time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)
	cfg := core.LimiterConfig{Kind: core.LimitSlidingWindow, Limit: 2, Window: time.Second}
	if err := cfg.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	l := core.NewLimiter(cfg, start)
	for _, ms := range []int{0, 300, 600, 1000} {
		d := l.Decide(start.Add(time.Duration(ms) * time.Millisecond))
		fmt.Printf("t=%4dms allowed=%-5v remaining=%d retry-after=%v (header %d)\n",
			ms, d.Allowed, d.Remaining, d.RetryAfter, d.RetryAfterSeconds())
	}
	// Output:
	// t=   0ms allowed=true  remaining=1 retry-after=0s (header 0)
	// t= 300ms allowed=true  remaining=0 retry-after=0s (header 0)
	// t= 600ms allowed=false remaining=0 retry-after=400ms (header 1)
	// t=1000ms allowed=true  remaining=0 retry-after=0s (header 0)
}
