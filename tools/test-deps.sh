#!/usr/bin/env bash
# Installs what the test suite needs beyond Go modules, from Debian's packages
# and the npm registry: PostgreSQL and Redis servers (started by the tests
# themselves on loopback with temporary data directories), Chromium for the
# browser tests, curl for the README's examples, xz and zstd for the .debs
# tools/debian's tests build, the npm packages in e2e/ and
# those of the TypeScript client check (client/testdata/typescript:
# openapi-typescript, openapi-fetch, tsc). Idempotent: it installs only what
# is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v curl >/dev/null 2>&1 || need+=(curl) # the README's examples, walked by a test
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
# tools/debian's tests build .debs whose archives are xz- and zstd-compressed
command -v xz >/dev/null 2>&1 || need+=(xz-utils)
command -v zstd >/dev/null 2>&1 || need+=(zstd)

if ((${#need[@]})); then
	echo ">> installing Debian packages: ${need[*]}"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -q >/dev/null
	$sudo apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi

if [ ! -d e2e/node_modules/playwright-core ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
	echo ">> installing npm packages for the browser tests (e2e/)"
	(cd e2e && npm ci --no-audit --no-fund --loglevel=error)
fi

# The owners' implementations that the catalog's differential tests run
# (catalog/differential_*_test.go): @lhncbc/ucum-lhc, pinned in its lock file.
diff_dir=catalog/testdata/differential
if [ ! -d "$diff_dir/node_modules/@lhncbc/ucum-lhc" ] || [ "$diff_dir/package-lock.json" -nt "$diff_dir/node_modules/.package-lock.json" ]; then
	echo ">> installing npm packages for the differential tests ($diff_dir)"
	(cd "$diff_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi

ts=client/testdata/typescript
if [ ! -d $ts/node_modules/openapi-typescript ] || [ $ts/package-lock.json -nt $ts/node_modules/.package-lock.json ]; then
	echo ">> installing npm packages for the TypeScript client check ($ts)"
	(cd $ts && npm ci --no-audit --no-fund --loglevel=error)
fi
