package ratelimit_test

import (
	"fmt"
	"time"

	"github.com/unitd/unitd/server/ratelimit"
)

func ExampleMemory() {
	rate, err := ratelimit.ParseRate("2/m")
	if err != nil {
		panic(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := ratelimit.NewMemory(rate, ratelimit.WithClock(func() time.Time { return now }))
	for range 3 {
		d := l.Take("key_abc")
		fmt.Printf("allowed=%v RateLimit-Remaining=%d RateLimit-Reset=%d Retry-After=%d\n",
			d.Allowed, d.Remaining, d.ResetSeconds(), d.RetryAfterSeconds())
	}
	// Output:
	// allowed=true RateLimit-Remaining=1 RateLimit-Reset=30 Retry-After=0
	// allowed=true RateLimit-Remaining=0 RateLimit-Reset=60 Retry-After=30
	// allowed=false RateLimit-Remaining=0 RateLimit-Reset=60 Retry-After=30
}
