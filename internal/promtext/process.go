package promtext

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Process collects the process's metrics from /proc as client_golang's
// process collector (collectors.NewProcessCollector) does on Linux: CPU
// time, memory, file descriptors and their limits, start time, and the
// bytes its network namespace received and sent. Where /proc cannot be
// read (another system) it collects nothing; a file that cannot be read
// leaves out its metrics, as client_golang does without ReportErrors.
func Process() Collector { return processCollector{dir: "/proc/self", procfs: true} }

// processCollector reads the files of dir, procfs when dir is in /proc.
type processCollector struct {
	dir    string
	procfs bool
}

// userHZ is the unit of the CPU times of /proc/PID/stat.
const userHZ = 100

func (c processCollector) Collect(add func(Family)) {
	metric := func(name, help string, kind Kind, v float64) {
		add(Family{Name: name, Help: help, Kind: kind, Samples: []Sample{{Value: v}}})
	}
	if st, ok := c.stat(); ok {
		metric("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", KindCounter, float64(st.utime+st.stime)/userHZ)
		metric("process_virtual_memory_bytes", "Virtual memory size in bytes.", KindGauge, float64(st.vsize))
		metric("process_resident_memory_bytes", "Resident memory size in bytes.", KindGauge, float64(st.rss*os.Getpagesize()))
		if boot, ok := bootTime(); ok {
			metric("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", KindGauge, float64(boot)+float64(st.start)/userHZ)
		}
	}
	if n, ok := c.openFDs(); ok {
		metric("process_open_fds", "Number of open file descriptors.", KindGauge, float64(n))
	}
	if files, space, ok := c.limits(); ok {
		metric("process_max_fds", "Maximum number of open file descriptors.", KindGauge, float64(files))
		metric("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", KindGauge, float64(space))
	}
	if in, out, ok := c.netstat(); ok {
		metric("process_network_receive_bytes_total", "Number of bytes received by the process over the network.", KindCounter, in)
		metric("process_network_transmit_bytes_total", "Number of bytes sent by the process over the network.", KindCounter, out)
	}
}

// procStat is what the collector reads of /proc/PID/stat.
type procStat struct {
	utime, stime, start, vsize uint64
	rss                        int
}

func (c processCollector) stat() (procStat, bool) {
	data, err := os.ReadFile(c.dir + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// the fields start after the last ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 of proc(5) (state): utime is field 14, stime 15,
	// starttime 22, vsize 23, rss 24.
	if len(f) < 22 {
		return procStat{}, false
	}
	var st procStat
	var errs [5]error
	st.utime, errs[0] = strconv.ParseUint(f[11], 10, 64)
	st.stime, errs[1] = strconv.ParseUint(f[12], 10, 64)
	st.start, errs[2] = strconv.ParseUint(f[19], 10, 64)
	st.vsize, errs[3] = strconv.ParseUint(f[20], 10, 64)
	st.rss, errs[4] = strconv.Atoi(f[21])
	for _, err := range errs {
		if err != nil {
			return procStat{}, false
		}
	}
	return st, true
}

// bootTime is the btime line of /proc/stat: when the system booted, in
// seconds since the Unix epoch.
func bootTime() (uint64, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// openFDs counts the entries of /proc/PID/fd: the size Linux (6.2 and
// later) gives that directory, else its entries read.
func (c processCollector) openFDs() (int, bool) {
	if fi, err := os.Stat(c.dir + "/fd"); c.procfs && err == nil && fi.Size() > 0 {
		return int(fi.Size()), true
	}
	d, err := os.Open(c.dir + "/fd")
	if err != nil {
		return 0, false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	return len(names), err == nil
}

// limits reads the soft limits of open files and address space of
// /proc/PID/limits; unlimited is the largest uint64.
func (c processCollector) limits() (files, space uint64, ok bool) {
	data, err := os.ReadFile(c.dir + "/limits")
	if err != nil {
		return 0, 0, false
	}
	soft := func(name string) (uint64, bool) {
		for line := range strings.SplitSeq(string(data), "\n") {
			rest, found := strings.CutPrefix(line, name)
			if !found {
				continue
			}
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			if f[0] == "unlimited" {
				return 1<<64 - 1, true
			}
			n, err := strconv.ParseUint(f[0], 10, 64)
			return n, err == nil
		}
		return 0, false
	}
	files, okFiles := soft("Max open files")
	space, okSpace := soft("Max address space")
	return files, space, okFiles && okSpace
}

// netstat reads InOctets and OutOctets of the IpExt lines of
// /proc/PID/net/netstat (0 when absent).
func (c processCollector) netstat() (in, out float64, ok bool) {
	data, err := os.ReadFile(c.dir + "/net/netstat")
	if err != nil {
		return 0, 0, false
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		names, values := strings.Fields(lines[i]), strings.Fields(lines[i+1])
		if len(names) == 0 || names[0] != "IpExt:" || len(values) != len(names) {
			continue
		}
		for j, name := range names {
			v, err := strconv.ParseFloat(values[j], 64)
			if err != nil {
				continue
			}
			switch name {
			case "InOctets":
				in = v
			case "OutOctets":
				out = v
			}
		}
	}
	return in, out, true
}
