// Package client calls the unitd HTTP API.
//
// A Client converts one value (Convert, Explain), up to 100 in one request
// (Batch), or any number as an NDJSON stream that it sends while it reads the
// answers (Stream, an iterator); it reads the catalog (Categories, Units,
// Substances, …) and the server's health. Every call takes a context.
//
// Numbers stay decimal text, as they travel: Request.Value and
// Result.Value are strings with every digit the server wrote, for the caller
// to read into a decimal type (never a float64, which would lose digits).
//
// A request that fails returns an *Error carrying the contract's code
// (CodeUnknownUnit, CodeRateLimitExceeded, …), message and request id, with
// the suggestions or candidates the server offers; a failed item of a batch
// or stream carries its own *Error in Item.Err. Code(err) reads the code of
// any error.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Client calls one unitd server. It is safe for concurrent use.
type Client struct {
	base *url.URL
	key  string
	hc   *http.Client
}

// Option configures a Client.
type Option func(*Client)

// WithKey sends key as "Authorization: Bearer <key>". Conversions need a
// key; the catalog and health do not.
func WithKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient sends the requests through hc (http.DefaultClient
// otherwise): its Transport, timeouts and redirects apply.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// New returns a client of the server at baseURL, such as
// "https://unitd.example.com" or "http://127.0.0.1:8080".
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("client: base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q: want http:// or https:// and a host", baseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("client: base URL %q: has a query or fragment", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	c := &Client{base: u, hc: http.DefaultClient}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// url returns the address of path (already escaped) with query.
func (c *Client) url(path string, query url.Values) string {
	u := *c.base
	u.RawPath = c.base.EscapedPath() + path
	u.Path += unescape(path)
	u.RawQuery = query.Encode()
	return u.String()
}

func unescape(p string) string {
	s, err := url.PathUnescape(p)
	if err != nil {
		return p
	}
	return s
}

// newRequest builds a request with the key and the content type.
func (c *Client) newRequest(ctx context.Context, method, path string, query url.Values, contentType string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url(path, query), body)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req, nil
}

// call sends a request with in (when not nil) as its JSON body and decodes
// a 200 answer into out.
func (c *Client) call(ctx context.Context, method, path string, query url.Values, in, out any) error {
	var body io.Reader
	contentType := ""
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("client: %s %s: %w", method, path, err)
		}
		body, contentType = bytes.NewReader(b), "application/json"
	}
	req, err := c.newRequest(ctx, method, path, query, contentType, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return responseError(resp)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("client: %s %s: reading the answer: %w", method, path, err)
	}
	return nil
}

// data is the shape of most answers, {"data": …, "meta": …}, with its
// data decoded into out.
func data(out any) any { return &struct{ Data any }{out} }

// ErrIncomplete is the error of a stream that ended before its meta line:
// the connection was cut. The items yielded before it are answered; send
// the requests after the last one again.
var ErrIncomplete = errors.New("client: the stream ended before its meta line")
