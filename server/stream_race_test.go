//go:build race

package server

// streamTestLines is the length of TestStreamMillionLines's stream under
// the race detector, which would take half a minute over a million.
const streamTestLines = 50_000
