#!/usr/bin/env bash
# Runs every fuzz target of the module (every `func FuzzX(f *testing.F)` in a
# _test.go file, found afresh each time) for FUZZTIME each (default 10s), so
# that a target that fails at once cannot land. It fails when a target
# fails: a failing input is written to the package's testdata/fuzz/<Target>/
# as go test would, and printed here.
#
# It builds each package's fuzzing test binary once (`go test -c -fuzz`),
# in the background, and runs the targets FUZZJOBS at a time (default: one
# per CPU core) as their binaries are built, each with FUZZTIME of its own
# and CPU cores / FUZZJOBS workers, from its package's directory and with go
# test's corpus cache ($GOCACHE/fuzz/<import path>). Building once saves a
# link per target; building while the first targets fuzz hides the
# compilation that an edit since the last run brings; and two targets at
# once keep both cores busy while the other starts up (its fuzz set-up, the
# shipped catalog compiled in each worker, is serial).
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
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
FUZZJOBS=${FUZZJOBS:-$cores}
workers=$((cores / FUZZJOBS))
((workers >= 1)) || workers=1
module=$("$GO" list -m)
cache=$("$GO" env GOCACHE)/fuzz
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

# Targets as "dir name", sorted.
mapfile -t targets < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*(f \*testing\.F)' --exclude-dir=node_modules . |
	sed -E 's#^\./##; s#^(.*)/[^/]*:func (Fuzz[A-Za-z0-9_]*)\(.*#\1 \2#' | sort)
mapfile -t dirs < <(printf '%s\n' "${targets[@]}" | cut -d' ' -f1 | sort -u)

# The builder: each package's binary in turn, in the order of the targets,
# then $bin/PKG.built, or $bin/PKG.failed with go test's output.
(
	for dir in "${dirs[@]}"; do
		exe="$bin/${dir//\//_}"
		if out=$("$GO" test -c -fuzz . -o "$exe.test" "./$dir" 2>&1); then
			touch "$exe.built"
		else
			printf '%s\n' "$out" >"$exe.failed"
		fi
	done
) &
builder=$!
echo "running ${#targets[@]} fuzz targets of ${#dirs[@]} packages for $FUZZTIME each, $FUZZJOBS at a time with $workers worker(s) each, as their packages' fuzzing binaries are built"

# fuzz runs one target, once its package's binary is built, and writes its
# verdict, and what failed, to $bin/DIR.NAME.out (two packages may each have
# a target of the same name).
fuzz() {
	local dir=$1 name=$2 exe corpus before after new out rc start took verdict
	exe="$bin/${dir//\//_}"
	verdict="$exe.$name"
	while [ ! -e "$exe.built" ] && [ ! -e "$exe.failed" ]; do
		sleep 0.2
	done
	if [ -e "$exe.failed" ]; then
		{
			echo "FAIL  $name ($dir): building ./$dir for fuzzing"
			cat "$exe.failed"
		} >"$verdict.tmp"
		mv "$verdict.tmp" "$verdict.out"
		return
	fi
	corpus="$dir/testdata/fuzz/$name"
	before=$(ls "$corpus" 2>/dev/null | sort)
	start=$(date +%s)
	out=$(cd "$dir" && "$exe.test" -test.run='^$' -test.fuzz="^${name}\$" -test.fuzztime="$FUZZTIME" \
		-test.parallel="$workers" -test.fuzzcachedir="$cache/$module/$dir" 2>&1)
	rc=$?
	after=$(ls "$corpus" 2>/dev/null | sort)
	new=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep -v '^$')
	took=$(($(date +%s) - start))
	{
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
		fi
	} >"$verdict.tmp"
	mv "$verdict.tmp" "$verdict.out"
}

declare -A running=() # the targets' jobs, by process id
for t in "${targets[@]}"; do
	if ((${#running[@]} >= FUZZJOBS)); then
		wait -n -p done "${!running[@]}"
		unset "running[$done]"
	fi
	fuzz $t &
	running[$!]=1
	# Each verdict is printed as soon as its target is done.
	for f in "$bin"/*.out; do
		[ -e "$f" ] && [ ! -e "$f.shown" ] || continue
		cat "$f" && touch "$f.shown"
	done
done
wait "${!running[@]}" "$builder"
failed=()
for t in "${targets[@]}"; do
	dir=${t% *} name=${t#* }
	f="$bin/${dir//\//_}.$name.out"
	[ -e "$f.shown" ] || cat "$f"
	head -1 "$f" | grep -q '^FAIL' && failed+=("$name ($dir)")
done

if ((${#failed[@]})); then
	echo "fuzz targets that failed:"
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
