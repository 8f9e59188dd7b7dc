package accountweb

import (
	"sync"
	"time"
)

// attemptLog counts sign-in attempts per key (a client address, an e-mail
// address, a device) over a sliding window: at most n are counted within
// any period of per, exactly. An attempt is counted before the password is
// checked, so that attempts running at once cannot slip past the limit
// together, and given back when it turns out not to count (it succeeded,
// or the server could not check it). The number of keys is bounded; at the
// bound, keys with nothing counted in the window go first, then the key
// whose last attempt is oldest. It is safe for concurrent use.
type attemptLog struct {
	n       int
	per     time.Duration
	maxKeys int

	mu   sync.Mutex // guards the fields below
	seq  uint64
	keys map[string][]attempt // oldest first
}

type attempt struct {
	at  time.Time
	seq uint64
}

// ticket names one counted attempt, to give it back.
type ticket struct {
	key string
	seq uint64
}

func newAttemptLog(n int, per time.Duration, maxKeys int) *attemptLog {
	return &attemptLog{n: n, per: per, maxKeys: maxKeys, keys: map[string][]attempt{}}
}

// count counts an attempt for key at now if fewer than n are counted in
// the window ending now. Otherwise it reports how long until one leaves the
// window.
func (l *attemptLog) count(key string, now time.Time) (ticket, time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	as := l.live(key, now)
	if len(as) >= l.n {
		return ticket{}, as[len(as)-l.n].at.Add(l.per).Sub(now), false
	}
	if len(as) == 0 && len(l.keys) >= l.maxKeys {
		l.evict(now)
	}
	l.seq++
	l.keys[key] = append(as, attempt{at: now, seq: l.seq})
	return ticket{key: key, seq: l.seq}, 0, true
}

// forget gives back a counted attempt.
func (l *attemptLog) forget(t ticket) {
	if t.seq == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	as := l.keys[t.key]
	for i, a := range as {
		if a.seq == t.seq {
			as = append(as[:i], as[i+1:]...)
			break
		}
	}
	if len(as) == 0 {
		delete(l.keys, t.key)
	} else {
		l.keys[t.key] = as
	}
}

// live drops key's attempts that have left the window and returns the
// rest. The caller holds mu.
func (l *attemptLog) live(key string, now time.Time) []attempt {
	as := l.keys[key]
	i := 0
	for i < len(as) && !now.Before(as[i].at.Add(l.per)) {
		i++
	}
	if i == len(as) {
		delete(l.keys, key)
		return nil
	}
	if i > 0 {
		as = append(as[:0], as[i:]...)
		l.keys[key] = as
	}
	return as
}

// evict makes room for one more key. The caller holds mu.
func (l *attemptLog) evict(now time.Time) {
	var oldest string
	var oldestAt time.Time
	for k, as := range l.keys {
		last := as[len(as)-1].at
		if !now.Before(last.Add(l.per)) {
			delete(l.keys, k)
			continue
		}
		if oldest == "" || last.Before(oldestAt) {
			oldest, oldestAt = k, last
		}
	}
	if len(l.keys) >= l.maxKeys && oldest != "" {
		delete(l.keys, oldest)
	}
}
