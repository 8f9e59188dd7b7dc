package server

import (
	"bytes"
	"log/slog"
	"net"
	"strconv"
)

// Requests net/http refuses itself
//
// net/http answers some requests before any handler runs: a request line
// or header it cannot parse, a path with an invalid percent escape
// (GET /v1/units/%), headers over the size limit, an unknown transfer
// encoding. It writes those answers straight to the connection as plain
// text, and has no hook to change them. earlyListener's connections
// recognise them by their exact shape (a status line, then net/http's
// fixed plain-text headers with Connection: close; a handler's answers go
// through the response writer and never look like that) and send the
// contract's JSON error instead, with a fresh request id.

// earlyHeaders is what net/http writes after the status line of such an
// answer (errorHeaders in net/http's server.go).
const earlyHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// earlyListener wraps the API's listener (see Serve).
type earlyListener struct {
	net.Listener
	logger *slog.Logger
}

func (l earlyListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	return &earlyConn{Conn: c, logger: l.logger}, nil
}

// earlyConn is a connection whose early plain-text refusals are rewritten.
type earlyConn struct {
	net.Conn
	logger *slog.Logger
}

func (c *earlyConn) Write(b []byte) (int, error) {
	status, detail, ok := parseEarly(b)
	if !ok {
		return c.Conn.Write(b)
	}
	id := newRequestID()
	c.logger.Info("request refused before routing", "status", status, "detail", detail, "request_id", id)
	if _, err := c.Conn.Write(earlyResponse(status, detail, id)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// CloseWrite lets net/http half-close the connection after a refusal, as
// it does on the bare connection.
func (c *earlyConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// parseEarly reports whether b is one whole early refusal, and its status
// and the text net/http gave (after the status code).
func parseEarly(b []byte) (status int, detail string, ok bool) {
	rest, found := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !found || len(rest) < 4 || (rest[0] != '4' && rest[0] != '5') || rest[3] != ' ' {
		return 0, "", false
	}
	line, body, found := bytes.Cut(rest, []byte("\r\n"))
	if !found || len(line) > 200 {
		return 0, "", false
	}
	body, found = bytes.CutPrefix(body, []byte(earlyHeaders[2:]))
	if !found || len(body) > 500 {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil {
		return 0, "", false
	}
	return status, string(body), true
}

// earlyResponse is the contract's answer to a request net/http refused:
// INVALID_REQUEST, with 431 kept for oversized headers and 400 for
// everything else (an unsupported transfer encoding is the client's
// mistake, not a 501 of the server's).
func earlyResponse(status int, detail, requestID string) []byte {
	msg := "the request could not be read: its request line, a header, or a percent escape in its path is malformed (write % as %25)"
	switch {
	case status == 431:
		msg = "the request's headers are larger than the server accepts"
	case status == 501:
		msg = "the request's Transfer-Encoding is not supported"
	case bytes.Contains([]byte(detail), []byte(": ")):
		// "400 Bad Request: missing required Host header" and the like.
		_, d, _ := bytes.Cut([]byte(detail), []byte(": "))
		msg = "the request could not be read: " + string(d)
	}
	if status != 431 {
		status = 400
	}
	body := appendErrorObject([]byte(`{"error":`), &apiError{Code: codeInvalidRequest, Message: msg}, requestID)
	body = append(body, "}\n"...)
	var b []byte
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	if status == 431 {
		b = append(b, "Request Header Fields Too Large"...)
	} else {
		b = append(b, "Bad Request"...)
	}
	b = append(b, "\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\nX-Request-Id: "...)
	b = append(b, requestID...)
	b = append(b, "\r\nConnection: close\r\n\r\n"...)
	return append(b, body...)
}
