package server

import (
	"strconv"
	"sync"
	"time"

	"github.com/unitd/unitd/apikey"
)

// The streams open now
//
// A stream holds a connection, a goroutine and its buffers for as long as
// its client sends, so streams are bounded: per key (MaxStreamsPerKey), and
// in all (MaxStreams, by default half of MaxConns: whatever streams hold,
// the other half of the connections stays for everyone else, and one
// key's streams never lock another client out). A stream past either
// bound is refused before its body is read, with 429 and Retry-After.
//
// The set also checks the key of every open stream every streamKeyCheck,
// so that a key revoked or expired ends its streams within a second of
// the change reaching the server (account.KeySource polls the store every
// 250 ms), even a stream whose client sends nothing meanwhile; each stream
// checks its key again at every token it takes as well. The timer runs
// only while streams are open.

// streamSet is the streams open now.
type streamSet struct {
	mu     sync.Mutex
	open   map[*stream]struct{}
	perKey map[string]int
	timer  *time.Timer // checks the keys; nil while no stream is open
}

// streamRetryAfter is the Retry-After of a stream refused for the
// bounds: streams end all the time.
const streamRetryAfter = "1"

// admitStream counts st among the open streams, or returns why it is
// refused.
func (s *Server) admitStream(st *stream) *apiError {
	ss := &s.streams
	ss.mu.Lock()
	defer ss.mu.Unlock()
	key := st.w.keyID
	var e *apiError
	switch {
	case s.cfg.MaxStreams > 0 && len(ss.open) >= s.cfg.MaxStreams:
		e = newError(codeRateLimitExceeded, "the server has "+strconv.Itoa(len(ss.open))+" NDJSON streams open, the most it holds at once; retry after "+streamRetryAfter+" s")
		e.Details = map[string]any{"limit": s.cfg.MaxStreams}
	case ss.perKey[key] >= s.cfg.MaxStreamsPerKey:
		e = newError(codeRateLimitExceeded, "this key has "+strconv.Itoa(ss.perKey[key])+" NDJSON streams open, the most one key may; send this one when one of them has ended (retry after "+streamRetryAfter+" s)")
		e.Details = map[string]any{"limit": s.cfg.MaxStreamsPerKey}
	}
	if e != nil {
		st.w.Header()["Retry-After"] = []string{streamRetryAfter}
		return e
	}
	if ss.open == nil {
		ss.open, ss.perKey = map[*stream]struct{}{}, map[string]int{}
	}
	ss.open[st] = struct{}{}
	ss.perKey[key]++
	if ss.timer == nil {
		ss.timer = time.AfterFunc(streamKeyCheck, s.checkStreams)
	}
	return nil
}

// leaveStream forgets st. Once it returns, checkStreams no longer
// touches st.
func (s *Server) leaveStream(st *stream) {
	ss := &s.streams
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.open, st)
	if ss.perKey[st.w.keyID]--; ss.perKey[st.w.keyID] <= 0 {
		delete(ss.perKey, st.w.keyID)
	}
}

// checkStreams stops every open stream whose key is no longer valid, and
// comes back in streamKeyCheck while streams are open.
func (s *Server) checkStreams() {
	ss := &s.streams
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for st := range ss.open {
		if !s.keyValid(&st.key) {
			st.stop(stopRevoked)
		}
	}
	if len(ss.open) == 0 {
		ss.timer = nil
		return
	}
	ss.timer.Reset(streamKeyCheck)
}

// streamKey is the key a stream authenticated with, checked again while
// the stream runs.
type streamKey struct {
	mu    sync.Mutex
	token string
	set   *apikey.Set   // the set the key was last found in
	rec   apikey.Record // its record there
}

// keyValid reports whether k is still a valid key now: in the current
// set, neither revoked nor expired. The key is looked up again only when
// the set changed; otherwise its record's times are enough.
func (s *Server) keyValid(k *streamKey) bool {
	now := s.cfg.Now()
	var set *apikey.Set
	if s.cfg.Keys != nil {
		set = s.cfg.Keys.Current()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if set == nil {
		return false
	}
	if set != k.set {
		rec, err := set.Authenticate(k.token, s.cfg.Env, now)
		if err != nil {
			k.set = nil
			return false
		}
		k.set, k.rec = set, rec
	}
	return k.rec.Usable(now)
}
