//go:build !unix && !unitd_lite

package main

// raiseFileLimit knows no file limit here.
func raiseFileLimit() (uint64, bool) { return 0, false }
