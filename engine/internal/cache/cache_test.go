package cache

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// TestBudgetBoundsEveryMap: entries of several maps count against one
// budget, which never holds more than its limit: past it every map is
// emptied, and they fill again.
func TestBudgetBoundsEveryMap(t *testing.T) {
	b := NewBudget(64 << 10)
	a, c := New[string, int](b), New[int, string](b)
	for i := range 10_000 {
		a.Put("name "+strconv.Itoa(i), i, 300)
		c.Put(i, "x", 200)
		if b.Used() > b.Limit() {
			t.Fatalf("after %d entries the budget holds %d bytes, above its limit %d", i, b.Used(), b.Limit())
		}
	}
	if b.Resets() == 0 {
		t.Error("10,000 entries of 500 bytes never emptied a budget of 64 KiB")
	}
	if v, ok := a.Get("name 9999"); !ok || v != 9999 {
		t.Errorf("the last entry put is gone: %v %v", v, ok)
	}
	if a.Len()*300+c.Len()*200 > int(b.Limit()) {
		t.Errorf("%d and %d entries kept, more than the budget", a.Len(), c.Len())
	}
}

// TestBudgetRefusesHugeEntries: an entry of more than a sixteenth of the
// budget is not kept, and empties nothing.
func TestBudgetRefusesHugeEntries(t *testing.T) {
	b := NewBudget(1 << 10)
	m := New[string, int](b)
	m.Put("small", 1, 10)
	m.Put("huge", 2, 1<<10)
	if _, ok := m.Get("huge"); ok {
		t.Error("an entry as large as the budget was kept")
	}
	if _, ok := m.Get("small"); !ok {
		t.Error("a refused entry emptied the map")
	}
}

// TestBudgetForgetsDeadMaps: a map no longer referenced (its graph gone)
// is not held by its budget.
func TestBudgetForgetsDeadMaps(t *testing.T) {
	b := NewBudget(1 << 20)
	for range 100 {
		m := New[string, int](b)
		m.Put("x", 1, 10)
	}
	runtime.GC()
	runtime.GC()
	b.SetLimit(1) // forces a reset, which drops the dead
	b.mu.Lock()
	n := len(b.maps)
	b.mu.Unlock()
	if n > 10 {
		t.Errorf("%d of 100 dead maps still registered", n)
	}
}

// TestBudgetConcurrent puts from many goroutines; run with -race.
func TestBudgetConcurrent(t *testing.T) {
	b := NewBudget(32 << 10)
	m := New[int, int](b)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				m.Put(w*10000+i, i, 100)
				m.Get(i)
			}
		}()
	}
	wg.Wait()
	if b.Used() > b.Limit() {
		t.Errorf("budget holds %d bytes, above %d", b.Used(), b.Limit())
	}
}
