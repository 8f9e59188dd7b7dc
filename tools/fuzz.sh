#!/usr/bin/env bash
# Runs every fuzz target of the module (every `func FuzzX(f *testing.F)` in a
# _test.go file, found afresh each time) for FUZZTIME each (default 10s), one
# after the other, so that a target that fails at once cannot land. It fails
# when a target fails: a failing input is written to the package's
# testdata/fuzz/<Target>/ by go test, and printed here.
#
# One failure is not the target's: with a duration for -fuzztime, Go's fuzz
# coordinator can report "context deadline exceeded" as the time runs out
# while a worker is still busy (go.dev/issue/75804, fixed in Go 1.27), most
# often on a loaded machine. That report, with no failing input written, is
# noted and passes.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10s}

failed=()
while IFS=: read -r file name; do
	dir=$(dirname "$file")
	corpus="$dir/testdata/fuzz/$name"
	before=$(ls "$corpus" 2>/dev/null | sort)
	start=$(date +%s)
	out=$("$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "./$dir" 2>&1)
	rc=$?
	after=$(ls "$corpus" 2>/dev/null | sort)
	new=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep -v '^$')
	took=$(($(date +%s) - start))
	if [ "$rc" -eq 0 ]; then
		echo "ok    $name ($dir, ${took}s)"
	elif [ -z "$new" ] && grep -q '^    context deadline exceeded$' <<<"$out" &&
		[ "$(grep -c '^--- FAIL' <<<"$out")" -eq 1 ]; then
		echo "ok    $name ($dir, ${took}s; the fuzz coordinator's deadline race, go.dev/issue/75804, no failing input)"
	else
		echo "FAIL  $name ($dir)"
		echo "$out" | tail -40
		for f in $new; do
			echo "failing input: $corpus/$f"
			cat "$corpus/$f"
		done
		failed+=("$name")
	fi
done < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*(f \*testing\.F)' --exclude-dir=node_modules . |
	sed -E 's#^\./##; s#:func (Fuzz[A-Za-z0-9_]*)\(.*#:\1#' | sort)

if ((${#failed[@]})); then
	echo "fuzz targets that failed: ${failed[*]}"
	exit 1
fi
