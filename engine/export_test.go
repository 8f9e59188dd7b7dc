package engine

// SetOptimize sets the accelerators' gate for the external tests and
// returns a function that restores it.
func SetOptimize(on bool) (restore func()) {
	saved := optimize
	optimize = on
	return func() { optimize = saved }
}
