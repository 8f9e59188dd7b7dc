#!/usr/bin/env bash
# Runs one stage of make test: `tools/stage.sh NAME COMMAND [ARG...]`.
# Prints ">> NAME" before COMMAND and ">> NAME: ok (12.3 s, CPU 20.1 s)"
# (or FAILED, with its exit status) after it: the wall-clock time and the
# CPU time (user and system) of COMMAND and every process it waited for,
# which a busy machine changes far less than the wall-clock time. With
# $STAGES set, it appends the stage's line to that file, for the summary
# that `tools/stage.sh --summary` prints at the end. Exits with COMMAND's
# status.
#
# A stage that mostly waits (the browser tests) can run beside the next
# ones: `tools/stage.sh --background NAME COMMAND [ARG...]` starts it and
# returns at once, keeping its output in a file under $BACKGROUND (default
# .run/background); `tools/stage.sh --wait NAME` waits for it to end, then
# prints its output whole, so that it never interleaves with another
# stage's, and its line as above, and exits with its status. --summary
# first waits for every background stage not yet waited for.
set -uo pipefail

BACKGROUND=${BACKGROUND:-.run/background}

# cpu sets used to the CPU seconds of this shell's finished children
# (times reports them only in this shell, not in a subshell such as $(…)).
cpu() {
	local f
	f=$(mktemp)
	times >"$f"
	used=$(awk 'NR == 2 {
		n = 0
		for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); n += p[1] * 60 + p[2] }
		printf "%.1f", n
	}' "$f")
	rm -f "$f"
}

# finish prints the stage's closing line, records it in $STAGES and exits
# with its status.
finish() {
	local name=$1 start=$2 end=$3 rc=$4 used=$5 took outcome
	took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" -eq 0 ]; then
		outcome=ok
	else
		outcome="FAILED (exit $rc)"
	fi
	echo ">> $name: $outcome ($took s, CPU $used s)"
	if [ -n "${STAGES:-}" ]; then
		printf '%s\t%s\t%s\t%s\t%s\n' "$start" "$end" "$name" "$outcome" "$used" >>"$STAGES"
	fi
	exit "$rc"
}

# slot is the file name under $BACKGROUND of the stage named $1.
slot() { printf '%s' "$1" | tr -c 'A-Za-z0-9' '_'; }

# wait_for waits for the background stage named $1, prints its output and
# its line, and exits with its status.
wait_for() {
	local name=$1 dir start end rc used
	dir=$BACKGROUND/$(slot "$name")
	if [ ! -d "$dir" ]; then
		echo ">> $name: FAILED (never started in the background)"
		exit 1
	fi
	echo ">> $name (started in the background; its output follows when it ends)"
	while [ ! -e "$dir/done" ]; do
		if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null && [ ! -e "$dir/done" ]; then
			echo ">> $name: FAILED (its runner is gone)"
			rm -rf "$dir"
			exit 1
		fi
		sleep 0.5
	done
	cat "$dir/output"
	read -r start end rc used <"$dir/done"
	rm -rf "$dir"
	finish "$name" "$start" "$end" "$rc" "$used"
}

case "${1:-}" in
--summary)
	# Every background stage still running first, then every stage of
	# this run with its times, then the wall-clock time from the first
	# stage's start to the last one's end.
	rc=0
	for dir in "$BACKGROUND"/*/; do
		[ -e "$dir/name" ] || continue
		(wait_for "$(cat "$dir/name")") || rc=1
	done
	[ -n "${STAGES:-}" ] && [ -s "$STAGES" ] || exit "$rc"
	echo ">> stages (wall clock, CPU)"
	sort -t "$(printf '\t')" -k1,1n "$STAGES" | awk -F'\t' '
		NR == 1 { first = $1 }
		{ printf "   %-50s %7.1f s %7.1f s  %s\n", $3, $2 - $1, $5, $4; if ($2 > last) last = $2; cpu += $5 }
		END { printf "   %-50s %7.1f s %7.1f s\n", "make test", last - first, cpu }
	'
	exit "$rc"
	;;
--background)
	name=$2
	shift 2
	dir=$BACKGROUND/$(slot "$name")
	rm -rf "$dir" && mkdir -p "$dir" || exit 1
	printf '%s\n' "$name" >"$dir/name"
	echo ">> $name (in the background)"
	(
		start=$(date +%s.%N)
		"$@" >"$dir/output" 2>&1 </dev/null
		rc=$?
		end=$(date +%s.%N)
		cpu
		printf '%s %s %s %s\n' "$start" "$end" "$rc" "$used" >"$dir/done.tmp"
		mv "$dir/done.tmp" "$dir/done"
	) >/dev/null 2>&1 &
	echo $! >"$dir/pid"
	exit 0
	;;
--wait)
	wait_for "$2"
	;;
esac

name=$1
shift
echo ">> $name"
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
cpu
finish "$name" "$start" "$end" "$rc" "$used"
