package server

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/server/errcode"
)

// Request-level error codes, spelled as the one table from code to status
// (server/errcode) spells them. The conversion codes (INVALID_VALUE, …)
// are engine.Code values and pass through unchanged.
const (
	codeInvalidRequest       = errcode.InvalidRequest
	codeInvalidItem          = errcode.InvalidItem
	codeBatchLimitExceeded   = errcode.BatchLimitExceeded
	codePayloadTooLarge      = errcode.PayloadTooLarge
	codeUnsupportedMediaType = errcode.UnsupportedMediaType
	codeUnauthorized         = errcode.Unauthorized
	codeInvalidAPIKey        = errcode.InvalidAPIKey
	codeInsufficientScope    = errcode.InsufficientScope
	codeRateLimitExceeded    = errcode.RateLimitExceeded
	codeNotFound             = errcode.NotFound
	codeMethodNotAllowed     = errcode.MethodNotAllowed
	codeInternal             = errcode.Internal
)

// apiOnly reports whether code belongs in the OpenAPI document: INVALID_ITEM
// lives inside batch answers, CROSS_ORIGIN_REQUEST only on the page routes,
// CONFLICT and KEY_NOT_USABLE only on the account page.
func apiOnly(code string) bool {
	switch code {
	case codeInvalidItem, codeCrossOrigin, account.CodeConflict, account.CodeKeyNotUsable, errcode.Unavailable:
		return false
	}
	return true
}

// apiError is an error with a code and a message that is safe to send.
// cause, when set, is logged and never sent.
type apiError struct {
	Code        string
	Message     string
	Details     map[string]any
	Suggestions []string
	Candidates  []string
	Hint        string // what the catalog guesses was meant (engine.Error.Hint)
	cause       error
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

// status is the HTTP status of e.
func (e *apiError) status() int { return errcode.Status(e.Code) }

func newError(code, msg string) *apiError { return &apiError{Code: code, Message: msg} }

func invalidRequest(msg string) *apiError { return newError(codeInvalidRequest, msg) }

// payloadTooLarge is PAYLOAD_TOO_LARGE for a body limit of limit bytes.
func payloadTooLarge(limit int64) *apiError {
	e := newError(codePayloadTooLarge, "the request body is larger than "+strconv.FormatInt(limit, 10)+" bytes")
	e.Details = map[string]any{"limit": limit}
	return e
}

// internalError hides err from the client; wrap logs it.
func internalError(err error) *apiError {
	return &apiError{Code: codeInternal, Message: "internal error; quote the request id when reporting it", cause: err}
}

// fromEngine turns a conversion error into an apiError. Anything that is not
// an *engine.Error is internal.
func fromEngine(err error) *apiError {
	var e *engine.Error
	if errors.As(err, &e) {
		if e.Code == engine.CodeInternal {
			return internalError(err)
		}
		ae := &apiError{Code: string(e.Code), Message: e.Message, Suggestions: e.Suggestions, Candidates: e.Candidates, Hint: e.Hint}
		if len(e.Details) > 0 {
			ae.Details = make(map[string]any, len(e.Details))
			for k, v := range e.Details {
				ae.Details[k] = v
			}
		}
		if len(e.Needs) > 0 {
			if ae.Details == nil {
				ae.Details = map[string]any{}
			}
			ae.Details["needs"] = e.Needs
		}
		if e.Position > 0 {
			// Where a parser of the request's text found the fault, in
			// characters from 1 (engine/fault), for every parser alike.
			if ae.Details == nil {
				ae.Details = map[string]any{}
			}
			ae.Details["position"] = e.Position
		}
		if (e.Code == engine.CodeUnknownUnit || e.Code == engine.CodeUnknownSubstance) && ae.Suggestions == nil {
			ae.Suggestions = []string{}
		}
		return ae
	}
	if errors.Is(err, engine.ErrPrecision) {
		return invalidRequest(err.Error())
	}
	return internalError(err)
}

// appendErrorObject appends {"code":…,"message":…[,"request_id":…]…}.
func appendErrorObject(b []byte, e *apiError, requestID string) []byte {
	b = append(b, `{"code":`...)
	b = appendString(b, e.Code)
	b = append(b, `,"message":`...)
	b = appendString(b, e.Message)
	if requestID != "" {
		b = append(b, `,"request_id":`...)
		b = appendString(b, requestID)
	}
	if len(e.Details) > 0 {
		if d, err := json.Marshal(e.Details); err == nil {
			b = append(b, `,"details":`...)
			b = append(b, d...)
		}
	}
	if e.Suggestions != nil || e.Code == string(engine.CodeUnknownUnit) || e.Code == string(engine.CodeUnknownSubstance) {
		b = append(b, `,"suggestions":`...)
		b = appendStrings(b, e.Suggestions)
	}
	if e.Candidates != nil || e.Code == string(engine.CodeAmbiguousUnit) {
		b = append(b, `,"candidates":`...)
		b = appendStrings(b, e.Candidates)
	}
	if e.Hint != "" {
		b = append(b, `,"hint":`...)
		b = appendString(b, e.Hint)
	}
	return append(b, '}')
}
