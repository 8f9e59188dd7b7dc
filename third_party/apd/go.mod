module github.com/cockroachdb/apd/v3

go 1.17
