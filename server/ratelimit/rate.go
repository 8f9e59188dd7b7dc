package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Rate is N requests per Per.
type Rate struct {
	N   int
	Per time.Duration
}

var units = map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour}

// ParseRate parses "N/s", "N/m" or "N/h", where N is a positive integer.
func ParseRate(s string) (Rate, error) {
	num, unit, ok := strings.Cut(s, "/")
	if !ok {
		return Rate{}, fmt.Errorf("rate %q: want N/s, N/m or N/h, such as 600/m", s)
	}
	per, ok := units[unit]
	if !ok {
		return Rate{}, fmt.Errorf("rate %q: unit %q is not s, m or h", s, unit)
	}
	// Atoi accepts a sign; insist on plain digits.
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return Rate{}, fmt.Errorf("rate %q: count %q is not a positive integer", s, num)
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return Rate{}, fmt.Errorf("rate %q: count %q is too large", s, num)
	}
	r := Rate{N: n, Per: per}
	if err := r.validate(); err != nil {
		return Rate{}, fmt.Errorf("rate %q: %w", s, err)
	}
	return r, nil
}

// validate checks that the rate is positive and that one token refills in
// at least a nanosecond.
func (r Rate) validate() error {
	if r.N <= 0 {
		return fmt.Errorf("count must be positive, not %d", r.N)
	}
	if r.Per <= 0 {
		return fmt.Errorf("period must be positive, not %v", r.Per)
	}
	if r.Per/time.Duration(r.N) == 0 {
		return fmt.Errorf("more than one request per nanosecond")
	}
	return nil
}

// String returns the rate in the form ParseRate reads when Per is a second,
// minute or hour, and as "N/<duration>" otherwise.
func (r Rate) String() string {
	for u, d := range units {
		if r.Per == d {
			return strconv.Itoa(r.N) + "/" + u
		}
	}
	return strconv.Itoa(r.N) + "/" + r.Per.String()
}
