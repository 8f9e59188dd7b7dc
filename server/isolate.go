package server

import (
	"fmt"
	"runtime/debug"
)

// One item, one failure
//
// Every conversion runs engine code over what a client sent. A bug there
// (a panic: a nil pointer on some code nobody tried) must cost that one
// conversion and nothing else: not the other items of a batch, not the
// rest of an NDJSON stream, not the answer of a unit record to every
// caller after it. Each conversion of a batch or stream item, of a single
// conversion and each unit lookup of discovery therefore runs under a
// recover that turns a panic into that item's INTERNAL_ERROR: logged with
// the request id, the route, the item's index and the stack, counted in
// unitd_panics_recovered_total (and, for a conversion, as an
// INTERNAL_ERROR outcome in unitd_conversions_total), and answered with
// the request id, so that a report can be matched to the log. The router's
// panic handler stays the last resort for anything outside an item.

// panicError is a recovered panic as the cause of an INTERNAL_ERROR: it is
// logged, never sent.
type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprint("panic: ", p.value) }

// recovered logs a panic recovered while serving item index of a request
// (-1 when the request is the one item) and returns the INTERNAL_ERROR to
// answer the item with.
func (s *Server) recovered(v any, reqID, route string, index int) *apiError {
	s.logger.Error("panic recovered; the other items are answered", "request_id", reqID, "route", route, "index", index,
		"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	s.cfg.Metrics.panicked(route)
	return internalError(panicError{v})
}

// seam calls Config.itemSeam, the tests' way of making the conversion of
// one item panic whatever the engine does, with a unit name about to be
// resolved.
func (s *Server) seam(unit string) {
	if s.cfg.itemSeam != nil {
		s.cfg.itemSeam(unit)
	}
}
