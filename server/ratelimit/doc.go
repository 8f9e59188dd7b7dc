// Package ratelimit limits requests per key with token buckets.
//
// A [Rate] of N per Per gives every key a bucket of N tokens that refills at
// N tokens per Per, so a client may burst N requests and then sustain N per
// Per. [ParseRate] reads the command-line form ("600/m").
//
// [Limiter] is the interface the HTTP server uses, so that a store shared by
// several replicas can replace [Memory], the in-process implementation.
// A [Decision] carries what the response headers need: RateLimit-Limit,
// RateLimit-Remaining, RateLimit-Reset (seconds until the bucket is full) and,
// when refused, Retry-After (seconds until one token is back).
//
// Memory implements the bucket as GCRA: each key stores only the time at
// which its bucket will be full again, in exact integer nanoseconds, so there
// is no floating-point drift. A bucket that is full is indistinguishable from
// a new one and is dropped; the map is also capped (see [WithMaxKeys]), so
// memory stays bounded however many keys are seen.
package ratelimit
