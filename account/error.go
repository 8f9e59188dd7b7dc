package account

import "errors"

// Error codes of the account domain. The HTTP adapters turn a code into a
// status with one table (server/errcode); the codes shared with the API
// mean the same there.
const (
	CodeNotFound     = "NOT_FOUND"       // no such thing, or another account's
	CodeConflict     = "CONFLICT"        // a name or address already in use
	CodeInvalid      = "INVALID_REQUEST" // input that breaks a rule
	CodeKeyNotUsable = "KEY_NOT_USABLE"  // a revoked or expired key cannot be rotated
	CodeInternal     = "INTERNAL_ERROR"  // anything else: a store failure, say
)

// Error is an account domain error: a code that says what kind of failure
// it is and a message. The sentinel errors below are the only values; a
// store wraps them with details (fmt.Errorf("%w: …")), and callers test
// them with errors.Is or read the code with [ErrorCode].
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errors a store returns (wrapped).
var (
	// ErrNotFound: no such account, user, key, session or token, or it
	// belongs to another account. The two are never told apart.
	ErrNotFound = &Error{CodeNotFound, "not found"}
	// ErrConflict: a name or e-mail address already in use.
	ErrConflict = &Error{CodeConflict, "already exists"}
	// ErrInvalid: input that breaks a rule (see the message).
	ErrInvalid = &Error{CodeInvalid, "invalid"}
	// ErrKeyState: the key cannot be rotated because it is revoked or expired.
	ErrKeyState = &Error{CodeKeyNotUsable, "key is revoked or expired"}
)

// ErrorCode returns the code of the account error in err's chain, or
// CodeInternal for any other error (and for nil, which is no failure to
// classify).
func ErrorCode(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Code
	}
	return CodeInternal
}
