# unitd: the two commands a newcomer needs are `make run` and `make test`.

GO        ?= go
ADDR      ?= 127.0.0.1:8080
RUNDIR    ?= .run
# make run: the admin listener follows ADDR (its port + 1532: 9612 for 8080),
# and a port other than 8080 gets a store of its own, so that a second
# instance (make run ADDR=127.0.0.1:8090) neither collides with the first
# nor replaces its dev key; CATALOG=DIR serves and hot-reloads a catalog
# directory instead of the embedded one.
ADDR_HOST  = $(patsubst %:$(ADDR_PORT),%,$(ADDR))
ADDR_PORT  = $(lastword $(subst :, ,$(ADDR)))
ADMIN_ADDR ?= $(ADDR_HOST):$(shell expr $(ADDR_PORT) + 1532)
STORE     ?= $(RUNDIR)/unitd$(if $(filter 8080,$(ADDR_PORT)),,-$(ADDR_PORT)).db
CATALOG   ?=
FUZZTIME  ?= 30s
TESTFUZZTIME ?= 10s
BENCHTIME ?= 1s
BENCHCOUNT ?= 6
BENCHSTAT := $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: atomicweights foods foodwords snapshot all build run test test-stages e2e-run cldr test-deps e2e screenshots deploy-check deploy-manifests vet fmt-check staticcheck validate docs bench bench-go bench-start bench-load bench-stream bench-ndjson bench-quick fuzz lint clean

all: test build

## build: -trimpath names the module's files in stack traces by their import path and keeps the
## build reproducible; -ldflags=-w drops the DWARF tables (about 10 MB) that only a debugger reads:
## panics' stack traces (from the pc-line table), `go version -m bin/unitd` (the build info) and
## the symbol table that perf and `go tool nm` read all stay. The Dockerfile also strips the
## symbol table (-s). CGO_ENABLED=0, as in the Dockerfile, makes a static binary: nothing of unitd
## needs C (SQLite is modernc.org's Go), and a process that loads no C library starts sooner and
## smaller (unitd convert: half a MiB of peak memory less).
##
## It builds two binaries of cmd/unitd. bin/unitd, with the unitd_lite tag, is the command line:
## conversions and the catalog's tools, linking none of the server, whose package initialisation
## every command of a binary pays for (a fifth of unitd convert 1 m ft). It runs serve, keys,
## accounts, users and units by running bin/unitd-full, the whole unitd, in its place (the one
## binary `go build ./cmd/unitd` and the Dockerfile build). See cmd/unitd/lite.go.
BUILDFLAGS ?= -trimpath -ldflags=-w

build:
	@echo ">> building bin/unitd (the command line) and bin/unitd-full"
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -tags unitd_lite -o bin/unitd ./cmd/unitd
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o bin/unitd-full ./cmd/unitd

## run: build bin/unitd and serve the embedded catalog (or CATALOG=DIR) on $(ADDR), its admin
## listener on $(ADMIN_ADDR), with the store $(STORE): prints a fresh test key and a one-time link
## to set the password of dev@localhost for the account page. The README's examples use bin/unitd
## and this store.
run: build
	@mkdir -p $(RUNDIR)
	bin/unitd serve --addr $(ADDR) --admin-addr $(ADMIN_ADDR) --store $(STORE)$(if $(CATALOG), --catalog $(CATALOG)) --env test --dev-key --access-log all

## test: vet, format check, staticcheck, the whole test suite with the race detector, every fuzz
## target for TESTFUZZTIME, catalog validation, the deploy/ checks, browser tests. Installs what the
## tests need (Debian packages, npm) when it is missing. Each stage prints a line when it starts and
## one with its wall-clock and CPU time when it ends; go test prints each package as it finishes,
## and what still runs every 30 s; a table of the stages ends the run.
##
## On two cores the stages fill both, but for the browser tests, which mostly wait on Chromium
## and unitd: they run in the background beside the fuzz targets (which run niced, so that
## the browser gets the CPU it asks for; each target still fuzzes for TESTFUZZTIME), and their
## output is printed whole when they end. go test starts the packages that take longest first,
## so that none is left running alone at the end.
##
## GOFLAGS=-trimpath keeps the build cache's compiled packages valid from any directory, so a
## fresh clone (CI's, or the README walk's) compiles only what changed; go vet has run every
## analyzer already, so go test runs none of them again (-vet=off).
test: export GOFLAGS := $(GOFLAGS) -trimpath
test: export STAGES := $(abspath $(RUNDIR))/test-stages.tsv
test: export BACKGROUND := $(abspath $(RUNDIR))/background
test:
	@mkdir -p $(RUNDIR) && rm -f $(STAGES) && rm -rf $(BACKGROUND)
	@$(MAKE) --no-print-directory test-stages; rc=$$?; ./tools/stage.sh --summary || rc=1; exit $$rc

STAGE := ./tools/stage.sh
TESTPROGRESS := $(RUNDIR)/testprogress

## The tests that check a sample under the race detector and every case without it
## (internal/race): the packages and a -run pattern of their names, which the stage after
## go test -race runs without the detector. internal/race's test keeps these in step with
## the tests that read race.Enabled.
FULLSIZE_PKGS := ./server ./engine/internal/lnexp ./engine/internal/exact ./catalog ./catalog/format ./catalog/internal/yamlfast
FULLSIZE_RUN  := ^(TestStreamMillionLines|TestCorrectlyRoundedProperty|TestRoundProperty|TestRoundTrips|TestShippedCatalog|TestNeverDiffers|TestResolveNumbers)$$

## The packages above the engine and the catalog that convert (the answer path, account units,
## the server, the pages), tested once more with the accelerators of both off
## (-tags unitd_plain; the engine's and the catalog's own tests run both ways every time).
PLAIN_PKGS := ./engine/answer ./accountunits ./server/... ./web

## The packages whose tests take longest under the race detector, which go test -race starts
## first (it runs the packages in the order they are named; ./... then names the others).
RACE_FIRST := ./cmd/unitd ./server ./catalog ./client ./locale ./catalog/format ./web ./engine

test-stages:
	@$(STAGE) "test dependencies (Debian packages, npm)" ./tools/test-deps.sh
	@$(STAGE) "build bin/unitd, bin/unitd-full and tools/testprogress" sh -c '$(GO) build -tags unitd_lite -o bin/unitd ./cmd/unitd && $(GO) build -o bin/unitd-full ./cmd/unitd && $(GO) build -o $(TESTPROGRESS) ./tools/testprogress'
	@$(STAGE) "go vet" $(GO) vet ./...
	@$(STAGE) "gofmt" $(MAKE) --no-print-directory fmt-check
	@$(STAGE) "staticcheck" $(STATICCHECK) ./...
	@$(STAGE) "go test -race ./..." bash -c 'set -o pipefail; $(GO) test -race -vet=off -count=1 -timeout 20m -json $(RACE_FIRST) ./... | $(TESTPROGRESS)'
	@$(STAGE) --background "browser tests" $(MAKE) --no-print-directory e2e-run
	@$(STAGE) "full-size tests without the race detector" $(GO) test -vet=off -count=1 -run '$(FULLSIZE_RUN)' $(FULLSIZE_PKGS)
	@$(STAGE) --background "plain paths (-tags unitd_plain)" $(GO) test -vet=off -count=1 -tags unitd_plain $(PLAIN_PKGS)
	@$(STAGE) "unitd validate and unitd fmt -l of catalog/data" sh -c 'bin/unitd validate catalog/data && bin/unitd fmt -l catalog/data'
	@$(STAGE) "deploy/ (Dockerfile, Kubernetes manifests)" $(MAKE) --no-print-directory deploy-check
	@$(STAGE) "every fuzz target for $(TESTFUZZTIME), niced" nice -n 19 env GO=$(GO) FUZZTIME=$(TESTFUZZTIME) ./tools/fuzz.sh
	@$(STAGE) --wait "plain paths (-tags unitd_plain)"
	@$(STAGE) --wait "browser tests"

## deploy-check: Dockerfile and Kubernetes manifests, decoded strictly into the Kubernetes API types
deploy-check:
	cd deploy/check && $(GO) vet ./... && $(GO) test -count=1 ./... && $(GO) run . ../..

## deploy-manifests: regenerate the catalog ConfigMap of deploy/k8s from catalog/data
deploy-manifests:
	cd deploy/check && $(GO) run . -write ../..

## test-deps: PostgreSQL, Redis, Chromium (Debian packages) and the npm packages of e2e/
test-deps:
	@./tools/test-deps.sh

## e2e: browser tests (Playwright driving Debian's Chromium) against a freshly built unitd
e2e: build e2e-run

e2e-run:
	@if ls e2e/*.test.mjs >/dev/null 2>&1; then \
		cd e2e && UNITD_BIN=$(CURDIR)/bin/unitd UNITD_ADMIN_ADDR=127.0.0.1:0 node --test --test-concurrency=1 --test-reporter=spec *.test.mjs; \
	fi

## screenshots: the browser tests, saving a screenshot of each page into docs/screenshots
screenshots: build
	cd e2e && UNITD_BIN=$(CURDIR)/bin/unitd UNITD_ADMIN_ADDR=127.0.0.1:0 UNITD_SCREENSHOTS=$(CURDIR)/docs/screenshots node --test --test-concurrency=1 pages.test.mjs account.test.mjs

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## staticcheck: the linter, at a pinned version (go run fetches it through the module proxy once)
staticcheck:
	$(STATICCHECK) ./...

validate:
	$(GO) run ./cmd/unitd validate catalog/data

## cldr: regenerate locale/data (CLDR unit patterns, plural rules, number symbols) from the npm
## packages cldr-core, cldr-units-full and cldr-numbers-full of the release tools/cldr pins, and the catalog
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

## foodwords: regenerate engine/text/foodwords.go (and the test's excerpts of its sources), the
## words of other languages for the catalog's foods, from the pinned dictionaries of the Debian
## packages trans-de-en and dict-freedict-* (apt-get download; run apt-get update first); run it
## after make foods when the foods' names change
foodwords:
	$(GO) run ./tools/foodwords -out engine/text/foodwords.go -testdata tools/foodwords/testdata

## docs: regenerate docs/units.md, the reference of the shipped catalog (a test fails when it is stale)
docs:
	$(GO) run ./cmd/unitd docs catalog/data --out docs/units.md

## bench: Go micro-benchmarks (with benchstat summaries), the start-up of the built binary
## (serve's first health answer, convert against GNU units), the HTTP load run with wrk, the
## stream against @lhncbc/ucum-lhc in Node and the NDJSON stream run
bench: bench-go bench-start bench-load bench-stream bench-ndjson

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

## bench-start: the built binary timed as a whole process: `unitd serve` with a fresh SQLite store
## from exec to its first 200 of /v1/health (target ≤ 100 ms), and `unitd convert 1 m ft` against
## GNU units (`units -t 1m ft`, Debian package units, installed here when missing) and `unitd version`
## (the binary's floor: exec and package inits, no catalog), pair by pair,
## wall time and peak memory; BASE=OLD_BINARY times an older build's serve in turn
bench-start: build
	@command -v units >/dev/null 2>&1 || { echo ">> installing units (Debian package)"; \
		(apt-get install -y units >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y units >/dev/null)); }
	@echo ">> start-up: unitd serve to its first health answer; unitd convert against GNU units"
	$(GO) run ./tools/startbench -unitd bin/unitd$(if $(BASE), -base $(BASE))

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
