# unitd: the two commands a newcomer needs are `make run` and `make test`.

GO        ?= go
ADDR      ?= 127.0.0.1:8080
RUNDIR    ?= .run
FUZZTIME  ?= 30s
TESTFUZZTIME ?= 10s
BENCHTIME ?= 1s
BENCHCOUNT ?= 6
BENCHSTAT := $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: atomicweights foods all build run test cldr test-deps e2e screenshots deploy-check deploy-manifests vet fmt-check staticcheck validate docs bench bench-go bench-load bench-stream bench-ndjson bench-quick fuzz lint clean

all: test build

build:
	@echo ">> building bin/unitd"
	$(GO) build -o bin/unitd ./cmd/unitd

## run: build bin/unitd and serve the embedded catalog on $(ADDR) with the store .run/unitd.db:
## prints a fresh test key and a one-time link to set the password of dev@localhost for the
## account page. The README's examples use bin/unitd and this store.
run: build
	@mkdir -p $(RUNDIR)
	bin/unitd serve --addr $(ADDR) --store $(RUNDIR)/unitd.db --env test --dev-key --access-log all

## test: vet, format check, staticcheck, the whole test suite with the race detector, every fuzz
## target for TESTFUZZTIME, catalog validation, browser tests. Installs what the tests need
## (Debian packages, npm) when it is missing.
test: test-deps vet fmt-check staticcheck
	@echo ">> running all tests"
	$(GO) test -race -count=1 ./...
	@echo ">> the million-line NDJSON stream, at full size without the race detector"
	$(GO) test -count=1 -run '^TestStreamMillionLines$$' ./server
	@echo ">> every fuzz target for $(TESTFUZZTIME)"
	@GO=$(GO) FUZZTIME=$(TESTFUZZTIME) ./tools/fuzz.sh
	@echo ">> validating the shipped catalog and its layout"
	$(GO) run ./cmd/unitd validate catalog/data
	$(GO) run ./cmd/unitd fmt -l catalog/data
	@$(MAKE) --no-print-directory deploy-check
	@$(MAKE) --no-print-directory e2e

## deploy-check: Dockerfile and Kubernetes manifests, decoded strictly into the Kubernetes API types
deploy-check:
	@echo ">> checking deploy/ (Dockerfile, Kubernetes manifests)"
	cd deploy/check && $(GO) vet ./... && $(GO) test -count=1 ./... && $(GO) run . ../..

## deploy-manifests: regenerate the catalog ConfigMap of deploy/k8s from catalog/data
deploy-manifests:
	cd deploy/check && $(GO) run . -write ../..

## test-deps: PostgreSQL, Redis, Chromium (Debian packages) and the npm packages of e2e/
test-deps:
	@./tools/test-deps.sh

## e2e: browser tests (Playwright driving Debian's Chromium) against a freshly built unitd
e2e: build
	@if ls e2e/*.test.mjs >/dev/null 2>&1; then \
		echo ">> browser tests"; \
		cd e2e && UNITD_BIN=$(CURDIR)/bin/unitd UNITD_ADMIN_ADDR=127.0.0.1:0 node --test --test-concurrency=1 *.test.mjs; \
	fi

## screenshots: the browser tests, saving a screenshot of each page into docs/screenshots
screenshots: build
	cd e2e && UNITD_BIN=$(CURDIR)/bin/unitd UNITD_ADMIN_ADDR=127.0.0.1:0 UNITD_SCREENSHOTS=$(CURDIR)/docs/screenshots node --test --test-concurrency=1 pages.test.mjs account.test.mjs

vet:
	@echo ">> go vet"
	$(GO) vet ./...

fmt-check:
	@echo ">> checking gofmt"
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## staticcheck: the linter, at a pinned version (go run fetches it through the module proxy once)
staticcheck:
	@echo ">> staticcheck"
	$(STATICCHECK) ./...

validate:
	$(GO) run ./cmd/unitd validate catalog/data

## cldr: regenerate locale/data (CLDR unit patterns, plural rules, number symbols) from the npm
## packages cldr-core, cldr-units-full and cldr-numbers-full, and the catalog
cldr:
	$(GO) run ./tools/cldrlocale -out locale/data

## atomicweights: regenerate catalog/data/elements.yaml from the pinned Debian package python3-ase
## (apt-get download; run apt-get update first)
atomicweights:
	$(GO) run ./tools/atomicweights -out catalog/data/elements.yaml

## foods: regenerate catalog/data/substances-foods.yaml (and the test's copy of its source) from
## USDA SR21 in the pinned Debian package gourmand (apt-get download; run apt-get update first);
## then regenerate docs/units.md and the catalog ConfigMap (make docs deploy-manifests)
foods:
	$(GO) run ./tools/foods -out catalog/data/substances-foods.yaml -testdata tools/foods/testdata

## docs: regenerate docs/units.md, the reference of the shipped catalog (a test fails when it is stale)
docs:
	$(GO) run ./cmd/unitd docs catalog/data --out docs/units.md

## bench: Go micro-benchmarks (with benchstat summaries), the HTTP load run with wrk, the
## stream against @lhncbc/ucum-lhc in Node and the NDJSON stream run
bench: bench-go bench-load bench-stream bench-ndjson

bench-go:
	@mkdir -p $(RUNDIR)
	@echo ">> engine, catalog and handler benchmarks ($(BENCHCOUNT) runs each)"
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(BENCHCOUNT) ./engine ./catalog ./server ./cmd/unitd | tee $(RUNDIR)/bench.txt
	$(BENCHSTAT) $(RUNDIR)/bench.txt

## bench-quick: engine and catalog micro-benchmarks once each, in under a minute, no root
bench-quick:
	@echo ">> engine and catalog micro-benchmarks (one short run each)"
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 200ms -count 1 ./engine ./catalog

## bench-stream: `unitd convert -` over a 2,000-row mixed workload against @lhncbc/ucum-lhc in
## Node on the same conversions (target 5×); installs the npm package into tools/streambench/node
bench-stream: build
	@echo ">> stream: unitd convert - against @lhncbc/ucum-lhc (Node)"
	cd tools/streambench/node && npm install --no-audit --no-fund --silent
	$(GO) run ./tools/streambench -unitd bin/unitd

## bench-ndjson: a million-line NDJSON batch through the built binary against `unitd convert -`
## on the same rows, four streams at once, and the server's memory meanwhile
bench-ndjson: build
	@echo ">> NDJSON streams on 127.0.0.1: unitd serve against unitd convert - on the same rows"
	$(GO) run ./tools/ndjsonbench -unitd bin/unitd

bench-load:
	@command -v wrk >/dev/null 2>&1 || { echo ">> installing wrk (Debian package)"; \
		(apt-get install -y wrk >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y wrk >/dev/null)); }
	@echo ">> HTTP load on 127.0.0.1: unitd beside a bare net/http handler of the same body size"
	$(GO) run ./tools/loadbench

## fuzz: run every fuzz target for $(FUZZTIME) (make test runs each for $(TESTFUZZTIME))
fuzz:
	@GO=$(GO) FUZZTIME=$(FUZZTIME) ./tools/fuzz.sh

lint: vet fmt-check staticcheck

clean:
	rm -rf bin $(RUNDIR)
