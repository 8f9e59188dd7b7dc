package client

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The contract's error codes: of a request that failed (Error.Status says
// its HTTP status), of a failed item of a batch or stream, or of the line
// that ended a stream.
const (
	CodeInvalidRequest        = "INVALID_REQUEST"         // 400: malformed JSON, bad query parameters, bad precision, …
	CodeInvalidItem           = "INVALID_ITEM"            // a batch item that is not an object, or a field missing or of the wrong type
	CodeInvalidValue          = "INVALID_VALUE"           // 400: the value is not a decimal number
	CodeUnknownUnit           = "UNKNOWN_UNIT"            // 400: Error.Suggestions lists close matches
	CodeAmbiguousUnit         = "AMBIGUOUS_UNIT"          // 400: Error.Candidates lists what the name could mean
	CodeIncompatibleUnits     = "INCOMPATIBLE_UNITS"      // 422: Error.Details names both dimensions
	CodeInvalidUnitExpression = "INVALID_UNIT_EXPRESSION" // 400: the message names the position
	CodeValueOutOfRange       = "VALUE_OUT_OF_RANGE"      // 422: below absolute zero, log of a non-positive, …
	CodeInvalidQuantity       = "INVALID_QUANTITY"        // 400: free text that cannot be read without guessing
	CodeUnknownSubstance      = "UNKNOWN_SUBSTANCE"       // 400: Error.Suggestions lists close matches
	CodeWorkBudgetExceeded    = "WORK_BUDGET_EXCEEDED"    // a conversion that needs more exact-rounding work than the request has left
	CodeBatchLimitExceeded    = "BATCH_LIMIT_EXCEEDED"    // 400: more than 100 conversions; a stream past its line limit
	CodePayloadTooLarge       = "PAYLOAD_TOO_LARGE"       // 413; a stream past its body limit
	CodeUnsupportedMediaType  = "UNSUPPORTED_MEDIA_TYPE"  // 415
	CodeUnauthorized          = "UNAUTHORIZED"            // 401: no key (see WithKey)
	CodeInvalidAPIKey         = "INVALID_API_KEY"         // 401: unknown, revoked, expired or wrong-environment key
	CodeRateLimitExceeded     = "RATE_LIMIT_EXCEEDED"     // 429, or the line that ended a stream: Error.RetryAfter says when to retry
	CodeNotFound              = "NOT_FOUND"               // 404: unknown route, category, unit or substance
	CodeMethodNotAllowed      = "METHOD_NOT_ALLOWED"      // 405
	CodeServiceUnavailable    = "SERVICE_UNAVAILABLE"     // the line that ended a stream when the server shut down: send the rest again
	CodeInternal              = "INTERNAL_ERROR"          // 500: quote Error.RequestID when reporting it
)

// Error is an error the server answered, in the contract's shape.
type Error struct {
	// Status is the HTTP status of a request that failed; 0 for a failed
	// item of a batch or stream, or the line that ended a stream.
	Status int
	// Code is one of the Code… constants; "" when the answer was not the
	// server's JSON error (a proxy's page, say: Message then holds its
	// start).
	Code    string
	Message string
	// RequestID is the X-Request-Id of the request, to quote when
	// reporting a problem.
	RequestID string
	// Suggestions are close matches of an unknown unit or substance;
	// Candidates, the units an ambiguous name could mean.
	Suggestions []string
	Candidates  []string
	// Hint is what the catalog guesses was meant, for a few common
	// mistakes; nothing was converted.
	Hint string
	// Details holds further facts, such as the dimensions of
	// INCOMPATIBLE_UNITS or a limit that was reached.
	Details map[string]any
	// RetryAfter is how long to wait before retrying, after
	// RATE_LIMIT_EXCEEDED.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("unitd: ")
	if e.Code != "" {
		b.WriteString(e.Code + ": ")
	} else if e.Status != 0 {
		b.WriteString(strconv.Itoa(e.Status) + " " + http.StatusText(e.Status) + ": ")
	}
	b.WriteString(e.Message)
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// Code returns the contract's code of err when it is, or wraps, an *Error;
// "" otherwise.
func Code(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Code
	}
	return ""
}

// wireError is the error object of the contract.
type wireError struct {
	Code        string         `json:"code"`
	Message     string         `json:"message"`
	RequestID   string         `json:"request_id"`
	Suggestions []string       `json:"suggestions"`
	Candidates  []string       `json:"candidates"`
	Hint        string         `json:"hint"`
	Details     map[string]any `json:"details"`
	RetryAfter  int            `json:"retry_after"` // seconds: the line that ended a stream
}

func (w *wireError) err(status int) *Error {
	return &Error{Status: status, Code: w.Code, Message: w.Message, RequestID: w.RequestID,
		Suggestions: w.Suggestions, Candidates: w.Candidates, Hint: w.Hint, Details: w.Details,
		RetryAfter: time.Duration(w.RetryAfter) * time.Second}
}

// maxErrorBody bounds what is read of an error answer.
const maxErrorBody = 64 << 10

// responseError reads the error answer resp.
func responseError(resp *http.Response) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var w struct {
		Error *wireError `json:"error"`
	}
	var e *Error
	if json.Unmarshal(body, &w) == nil && w.Error != nil && w.Error.Code != "" {
		e = w.Error.err(resp.StatusCode)
	} else {
		msg := strings.TrimSpace(string(body))
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		e = &Error{Status: resp.StatusCode, Message: msg}
	}
	if e.RequestID == "" {
		e.RequestID = resp.Header.Get("X-Request-Id")
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}
