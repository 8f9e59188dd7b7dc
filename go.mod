module github.com/unitd/unitd

go 1.26

require (
	github.com/cockroachdb/apd/v3 v3.2.3
	github.com/expr-lang/expr v1.17.8
	github.com/fsnotify/fsnotify v1.10.1
	github.com/julienschmidt/httprouter v1.3.0
	go.yaml.in/yaml/v3 v3.0.6
)

require golang.org/x/sys v0.13.0 // indirect
