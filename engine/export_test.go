package engine

// SetOptimize sets the accelerators' gate for the external tests and
// returns a function that restores it.
func SetOptimize(on bool) (restore func()) {
	saved := optimize
	optimize = on
	return func() { optimize = saved }
}

// Optimizing reports the accelerators' gate, for fixtures the external
// tests keep once per pass of TestMain.
func Optimizing() bool { return optimize }
