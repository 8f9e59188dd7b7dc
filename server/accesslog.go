package server

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// AccessLog chooses which requests the access log records. Whatever the
// mode, answers of 500 and above and requests slower than Slow are always
// logged; every request is counted in the metrics either way.
type AccessLog struct {
	Mode AccessLogMode
	// Sample is N of AccessLogSample: one request in N is logged.
	Sample int
	// Slow is the duration from which a request is logged whatever the
	// mode, with "slow":true (DefaultSlowRequest if 0).
	Slow time.Duration
}

// AccessLogMode is which requests are logged besides errors and slow ones.
type AccessLogMode int

// Access log modes. The zero value logs every request.
const (
	AccessLogAll    AccessLogMode = iota // every request
	AccessLogErrors                      // answers of 400 and above
	AccessLogSample                      // one request in Sample
	AccessLogOff                         // none
)

// DefaultSlowRequest is AccessLog.Slow when it is zero.
const DefaultSlowRequest = time.Second

// ParseAccessLog reads "all", "errors", "sample:N" (N from 2 to 1000000)
// or "off".
func ParseAccessLog(s string) (AccessLog, error) {
	switch s {
	case "all":
		return AccessLog{Mode: AccessLogAll}, nil
	case "errors":
		return AccessLog{Mode: AccessLogErrors}, nil
	case "off":
		return AccessLog{Mode: AccessLogOff}, nil
	}
	if n, ok := strings.CutPrefix(s, "sample:"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 2 && v <= 1_000_000 {
			return AccessLog{Mode: AccessLogSample, Sample: v}, nil
		}
	}
	return AccessLog{}, fmt.Errorf("%q is not all, errors, sample:N (N from 2 to 1000000) or off", s)
}

// String is the form ParseAccessLog reads.
func (a AccessLog) String() string {
	switch a.Mode {
	case AccessLogErrors:
		return "errors"
	case AccessLogSample:
		return "sample:" + strconv.Itoa(a.Sample)
	case AccessLogOff:
		return "off"
	}
	return "all"
}

// logged reports whether a request answered with status after d is
// logged, and whether it is logged for being slow.
func (s *Server) logged(status int, d time.Duration) (log, slow bool) {
	slow = d >= s.slow
	if slow || status >= 500 {
		return true, slow
	}
	switch s.cfg.AccessLog.Mode {
	case AccessLogErrors:
		return status >= 400, false
	case AccessLogSample:
		return s.sampled.Add(1)%uint64(s.cfg.AccessLog.Sample) == 0, false
	case AccessLogOff:
		return false, false
	}
	return true, false
}
