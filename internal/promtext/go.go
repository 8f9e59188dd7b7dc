package promtext

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Go collects the Go runtime's metrics as client_golang's default Go
// collector (collectors.NewGoCollector()) names and computes them: the
// goroutines and threads, the pauses of garbage collection, the memory
// statistics (read from runtime/metrics, as MemStats would give them
// without stopping the world), GOGC, GOMEMLIMIT and GOMAXPROCS.
func Go() Collector { return goCollector{} }

type goCollector struct{}

// memStat is one of the go_memstats_ families: its name after
// go_memstats_, its help, its kind and its value.
type memStat struct {
	name, help string
	kind       Kind
	value      func(*runtime.MemStats) float64
}

var memStats = []memStat{
	{"alloc_bytes", "Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.Alloc) }},
	{"alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.", KindCounter, func(m *runtime.MemStats) float64 { return float64(m.TotalAlloc) }},
	{"sys_bytes", "Number of bytes obtained from system. Equals to /memory/classes/total:byte.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.Sys) }},
	{"mallocs_total", "Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects.", KindCounter, func(m *runtime.MemStats) float64 { return float64(m.Mallocs) }},
	{"frees_total", "Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects.", KindCounter, func(m *runtime.MemStats) float64 { return float64(m.Frees) }},
	{"heap_alloc_bytes", "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.HeapAlloc) }},
	{"heap_sys_bytes", "Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.HeapSys) }},
	{"heap_idle_bytes", "Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.HeapIdle) }},
	{"heap_inuse_bytes", "Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.HeapInuse) }},
	{"heap_released_bytes", "Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.HeapReleased) }},
	{"heap_objects", "Number of currently allocated objects. Equals to /gc/heap/objects:objects.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.HeapObjects) }},
	{"stack_inuse_bytes", "Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.StackInuse) }},
	{"stack_sys_bytes", "Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.StackSys) }},
	{"mspan_inuse_bytes", "Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.MSpanInuse) }},
	{"mspan_sys_bytes", "Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.MSpanSys) }},
	{"mcache_inuse_bytes", "Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.MCacheInuse) }},
	{"mcache_sys_bytes", "Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.MCacheSys) }},
	{"buck_hash_sys_bytes", "Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.BuckHashSys) }},
	{"gc_sys_bytes", "Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.GCSys) }},
	{"other_sys_bytes", "Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.OtherSys) }},
	{"next_gc_bytes", "Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.", KindGauge, func(m *runtime.MemStats) float64 { return float64(m.NextGC) }},
}

// memStatSources are the runtime/metrics the memory statistics are read
// from.
var memStatSources = []string{
	"/gc/heap/tiny/allocs:objects", "/gc/heap/allocs:objects", "/gc/heap/frees:objects", "/gc/heap/allocs:bytes",
	"/gc/heap/objects:objects", "/gc/heap/goal:bytes", "/memory/classes/total:bytes", "/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes", "/memory/classes/heap/released:bytes", "/memory/classes/heap/free:bytes",
	"/memory/classes/heap/stacks:bytes", "/memory/classes/os-stacks:bytes", "/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/mspan/free:bytes", "/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/metadata/mcache/free:bytes", "/memory/classes/profiling/buckets:bytes",
	"/memory/classes/metadata/other:bytes", "/memory/classes/other:bytes",
}

// runtimeGauges are the runtime/metrics the default Go collector exposes
// under their own names, with the runtime's description.
var runtimeGauges = []struct{ name, source string }{
	{"go_gc_gogc_percent", "/gc/gogc:percent"},
	{"go_gc_gomemlimit_bytes", "/gc/gomemlimit:bytes"},
	{"go_sched_gomaxprocs_threads", "/sched/gomaxprocs:threads"},
}

func (goCollector) Collect(add func(Family)) {
	gauge := func(name, help string, v float64) {
		add(Family{Name: name, Help: help, Kind: KindGauge, Samples: []Sample{{Value: v}}})
	}
	gauge("go_goroutines", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	threads, _ := runtime.ThreadCreateProfile(nil)
	gauge("go_threads", "Number of OS threads created.", float64(threads))

	var gc debug.GCStats
	gc.PauseQuantiles = make([]time.Duration, 5)
	debug.ReadGCStats(&gc)
	pauses := Sample{Sum: gc.PauseTotal.Seconds(), Count: uint64(gc.NumGC)}
	for i, q := range gc.PauseQuantiles {
		pauses.Buckets = append(pauses.Buckets, Bucket{float64(i) / float64(len(gc.PauseQuantiles)-1), q.Seconds()})
	}
	add(Family{Name: "go_gc_duration_seconds", Help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.",
		Kind: KindSummary, Samples: []Sample{pauses}})
	gauge("go_memstats_last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection.", float64(gc.LastGC.UnixNano())/1e9)
	add(Family{Name: "go_info", Help: "Information about the Go environment.", Kind: KindGauge,
		Labels: []string{"version"}, Samples: []Sample{{Values: []string{runtime.Version()}, Value: 1}}})

	samples := make([]metrics.Sample, 0, len(runtimeGauges)+len(memStatSources))
	for _, g := range runtimeGauges {
		samples = append(samples, metrics.Sample{Name: g.source})
	}
	for _, name := range memStatSources {
		samples = append(samples, metrics.Sample{Name: name})
	}
	metrics.Read(samples)
	read := map[string]metrics.Value{}
	for _, s := range samples {
		read[s.Name] = s.Value
	}
	descriptions := map[string]string{}
	for _, d := range metrics.All() {
		descriptions[d.Name] = d.Description
	}
	for _, g := range runtimeGauges {
		v := read[g.source]
		var f float64
		switch v.Kind() {
		case metrics.KindUint64:
			f = float64(v.Uint64())
		case metrics.KindFloat64:
			f = v.Float64()
		default:
			continue // not in this version of Go
		}
		gauge(g.name, descriptions[g.source]+" Sourced from "+g.source+".", f)
	}

	u := func(name string) uint64 {
		if v := read[name]; v.Kind() == metrics.KindUint64 {
			return v.Uint64()
		}
		return 0
	}
	var ms runtime.MemStats
	tiny := u("/gc/heap/tiny/allocs:objects")
	ms.Mallocs = u("/gc/heap/allocs:objects") + tiny
	ms.Frees = u("/gc/heap/frees:objects") + tiny
	ms.TotalAlloc = u("/gc/heap/allocs:bytes")
	ms.Sys = u("/memory/classes/total:bytes")
	ms.HeapAlloc = u("/memory/classes/heap/objects:bytes")
	ms.Alloc = ms.HeapAlloc
	ms.HeapInuse = ms.HeapAlloc + u("/memory/classes/heap/unused:bytes")
	ms.HeapReleased = u("/memory/classes/heap/released:bytes")
	ms.HeapIdle = ms.HeapReleased + u("/memory/classes/heap/free:bytes")
	ms.HeapSys = ms.HeapInuse + ms.HeapIdle
	ms.HeapObjects = u("/gc/heap/objects:objects")
	ms.StackInuse = u("/memory/classes/heap/stacks:bytes")
	ms.StackSys = ms.StackInuse + u("/memory/classes/os-stacks:bytes")
	ms.MSpanInuse = u("/memory/classes/metadata/mspan/inuse:bytes")
	ms.MSpanSys = ms.MSpanInuse + u("/memory/classes/metadata/mspan/free:bytes")
	ms.MCacheInuse = u("/memory/classes/metadata/mcache/inuse:bytes")
	ms.MCacheSys = ms.MCacheInuse + u("/memory/classes/metadata/mcache/free:bytes")
	ms.BuckHashSys = u("/memory/classes/profiling/buckets:bytes")
	ms.GCSys = u("/memory/classes/metadata/other:bytes")
	ms.OtherSys = u("/memory/classes/other:bytes")
	ms.NextGC = u("/gc/heap/goal:bytes")
	for _, m := range memStats {
		add(Family{Name: "go_memstats_" + m.name, Help: m.help, Kind: m.kind, Samples: []Sample{{Value: m.value(&ms)}}})
	}
}
