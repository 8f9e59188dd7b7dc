package hashworker

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestWorkerRunsAtLowestPriority(t *testing.T) {
	w := newWorker(t, 1<<20)
	pid := w.cur.cmd.Process.Pid
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		// The fields after the command name: state is the first, nice
		// the 17th.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		if f[16] != "19" {
			t.Errorf("thread %s of the helper runs at nice %s, want 19", task.Name(), f[16])
		}
	}
	if len(tasks) < 2 {
		t.Errorf("the helper has %d threads; a Go process has several", len(tasks))
	}
}
