package accountweb

import (
	"testing"
	"time"
)

func TestAttemptLogWindow(t *testing.T) {
	l := newAttemptLog(3, time.Hour, 100)
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var tickets []ticket
	for i := range 3 {
		tk, _, ok := l.count("ada", t0.Add(time.Duration(i)*time.Minute))
		if !ok {
			t.Fatalf("attempt %d refused", i)
		}
		tickets = append(tickets, tk)
	}
	_, wait, ok := l.count("ada", t0.Add(10*time.Minute))
	if ok || wait != 50*time.Minute {
		t.Errorf("4th attempt in the hour: %v, wait %v; want refused for 50 minutes (until the first leaves the window)", ok, wait)
	}
	if _, _, ok := l.count("bob", t0.Add(10*time.Minute)); !ok {
		t.Error("another key is refused")
	}
	// A given-back attempt makes room.
	l.forget(tickets[1])
	if _, _, ok := l.count("ada", t0.Add(11*time.Minute)); !ok {
		t.Error("refused after an attempt was given back")
	}
	if _, _, ok := l.count("ada", t0.Add(12*time.Minute)); ok {
		t.Error("a 4th attempt counted after one was given back and taken again")
	}
	// The window slides: an hour after the first, one more.
	if _, _, ok := l.count("ada", t0.Add(time.Hour)); !ok {
		t.Error("refused once the first attempt left the window")
	}
	// Never more than 3 in any hour, whatever the pace.
	l = newAttemptLog(3, time.Hour, 100)
	var times []time.Time
	for s := 0; s < 4*3600; s += 7 {
		now := t0.Add(time.Duration(s) * time.Second)
		if _, _, ok := l.count("x", now); ok {
			times = append(times, now)
		}
	}
	for i := 3; i < len(times); i++ {
		if times[i].Sub(times[i-3]) < time.Hour {
			t.Fatalf("4 attempts counted within %v", times[i].Sub(times[i-3]))
		}
	}
	if len(times) < 12 {
		t.Errorf("%d attempts in 4 hours at a limit of 3 an hour", len(times))
	}
}

func TestAttemptLogBoundsKeys(t *testing.T) {
	l := newAttemptLog(2, time.Hour, 10)
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range 100 {
		l.count(string(rune('a'+i%26))+string(rune('a'+i/26)), t0.Add(time.Duration(i)*time.Second))
		if len(l.keys) > 10 {
			t.Fatalf("%d keys held, bound 10", len(l.keys))
		}
	}
	// The newest keys are kept: the last one still counts its attempt.
	last := string(rune('a'+99%26)) + string(rune('a'+99/26))
	if len(l.keys[last]) != 1 {
		t.Errorf("the newest key lost its attempt")
	}
}
