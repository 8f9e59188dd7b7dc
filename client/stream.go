package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
)

// Stream converts any number of values through POST /v1/batch/stream: it
// sends reqs as NDJSON while it reads the answers, and yields one Item per
// request, in order, as each arrives. A failed item carries its own Err,
// and the stream goes on.
//
// A non-nil error ends the iteration: the request failed (an *Error with
// its Status), or the server ended the stream early (an *Error with Status
// 0: CodeRateLimitExceeded with RetryAfter, CodeBatchLimitExceeded,
// CodePayloadTooLarge or CodeServiceUnavailable), or the connection broke
// (ErrIncomplete, or the transport's error).
// The items yielded before it are answered; send the requests after the
// last one again.
//
// reqs is read on a goroutine of its own, while the answers are read on
// the caller's. Breaking out of the loop cancels the request; reqs is then
// not read further.
func (c *Client) Stream(ctx context.Context, reqs iter.Seq[Request], opts BatchOptions) iter.Seq2[Item, error] {
	return func(yield func(Item, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		pr, pw := io.Pipe()
		defer pr.Close() // stops the sender when the loop ends early
		req, err := c.newRequest(ctx, "POST", "/v1/batch/stream", opts.query(), ndjson, pr)
		if err != nil {
			yield(Item{}, err)
			return
		}
		req.Header.Set("Accept", ndjson)
		go send(pw, reqs)
		resp, err := c.hc.Do(req)
		if err != nil {
			yield(Item{}, fmt.Errorf("client: POST /v1/batch/stream: %w", err))
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			yield(Item{}, responseError(resp))
			return
		}
		readStream(resp.Body, yield)
	}
}

const ndjson = "application/x-ndjson"

// send writes every request of reqs to w as one line each, and closes w.
// Each line goes out as it is written, so that the server answers it while
// the next are still to come.
func send(w *io.PipeWriter, reqs iter.Seq[Request]) {
	if reqs == nil {
		w.Close()
		return
	}
	for r := range reqs {
		line, err := json.Marshal(r)
		if err == nil {
			_, err = w.Write(append(line, '\n'))
		}
		if err != nil {
			w.CloseWithError(err)
			return
		}
	}
	w.Close()
}

// readStream yields the items of an NDJSON answer until its meta line.
func readStream(body io.Reader, yield func(Item, error) bool) {
	dec := json.NewDecoder(body)
	items := 0
	var stop error
	for {
		var line wireItem
		if err := dec.Decode(&line); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				err = ErrIncomplete
			}
			yield(Item{}, firstErr(stop, fmt.Errorf("client: reading the stream after %d items: %w", items, err)))
			return
		}
		switch {
		case line.Meta != nil:
			if stop != nil {
				yield(Item{}, stop)
			} else if line.Meta.Total != items {
				yield(Item{}, fmt.Errorf("client: the stream answered %d items and counts %d", items, line.Meta.Total))
			}
			return
		case line.Status == "" && line.Error != nil:
			// The line that ends a stream early; the meta line follows.
			stop = line.Error.err(0)
		default:
			items++
			if !yield(line.item(), nil) {
				return
			}
		}
	}
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
