// Package errcode is the one table from an error code to its HTTP status,
// for the API (package server) and the account page (server/accountweb)
// alike, so that both answer a kind of error with the same status: the
// request-level codes the HTTP adapters send, the conversion codes of the
// engine (engine.Code), which pass through unchanged, and the codes of the
// account domain (account.ErrorCode).
package errcode

import (
	"net/http"
	"sort"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/engine"
)

// Request-level error codes.
const (
	InvalidRequest       = "INVALID_REQUEST"
	InvalidItem          = "INVALID_ITEM"
	BatchLimitExceeded   = "BATCH_LIMIT_EXCEEDED"
	PayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	UnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	Unauthorized         = "UNAUTHORIZED"
	InvalidAPIKey        = "INVALID_API_KEY"
	// InsufficientScope is a valid key whose scopes do not allow the
	// operation (changing its account's units).
	InsufficientScope = "INSUFFICIENT_SCOPE"
	RateLimitExceeded = "RATE_LIMIT_EXCEEDED"
	NotFound          = "NOT_FOUND"
	MethodNotAllowed  = "METHOD_NOT_ALLOWED"
	Internal          = "INTERNAL_ERROR"
	// CrossOrigin refuses a request of the pages or of the account page
	// that does not come from one of this server's own pages.
	CrossOrigin = "CROSS_ORIGIN_REQUEST"
	// Unavailable is the account page's answer when its store does not
	// answer, or too many passwords are being checked at once.
	Unavailable = "SERVICE_UNAVAILABLE"
)

// statusOf is the table. INVALID_ITEM only ever appears inside a batch
// answer, which is 200 as a whole.
var statusOf = map[string]int{
	InvalidRequest:                           http.StatusBadRequest,
	BatchLimitExceeded:                       http.StatusBadRequest,
	PayloadTooLarge:                          http.StatusRequestEntityTooLarge,
	UnsupportedMediaType:                     http.StatusUnsupportedMediaType,
	Unauthorized:                             http.StatusUnauthorized,
	InvalidAPIKey:                            http.StatusUnauthorized,
	InsufficientScope:                        http.StatusForbidden,
	RateLimitExceeded:                        http.StatusTooManyRequests,
	NotFound:                                 http.StatusNotFound,
	MethodNotAllowed:                         http.StatusMethodNotAllowed,
	Internal:                                 http.StatusInternalServerError,
	string(engine.CodeInvalidValue):          http.StatusBadRequest,
	string(engine.CodeUnknownUnit):           http.StatusBadRequest,
	string(engine.CodeAmbiguousUnit):         http.StatusBadRequest,
	string(engine.CodeInvalidUnitExpression): http.StatusBadRequest,
	string(engine.CodeInvalidQuantity):       http.StatusBadRequest,
	string(engine.CodeIncompatibleUnits):     http.StatusUnprocessableEntity,
	string(engine.CodeUnknownSubstance):      http.StatusBadRequest,
	string(engine.CodeValueOutOfRange):       http.StatusUnprocessableEntity,
	string(engine.CodeWorkBudgetExceeded):    http.StatusUnprocessableEntity,
	InvalidItem:                              http.StatusBadRequest,         // never sent as a status
	CrossOrigin:                              http.StatusForbidden,          // page routes and the account page
	account.CodeConflict:                     http.StatusConflict,           // account page
	account.CodeKeyNotUsable:                 http.StatusConflict,           // account page
	Unavailable:                              http.StatusServiceUnavailable, // account page
}

// Status returns the HTTP status of an error code; an unknown code is 500.
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Codes returns every code of the table, sorted.
func Codes() []string {
	codes := make([]string, 0, len(statusOf))
	for code := range statusOf {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	return codes
}
