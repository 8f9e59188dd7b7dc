//go:build !race

package server

// streamTestLines is the length of TestStreamMillionLines's stream.
const streamTestLines = 1_000_000
