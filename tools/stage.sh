#!/usr/bin/env bash
# Runs one stage of make test: `tools/stage.sh NAME COMMAND [ARG...]`.
# Prints ">> NAME" before COMMAND and ">> NAME: ok (12.3 s, CPU 20.1 s)"
# (or FAILED, with its exit status) after it: the wall-clock time and the
# CPU time (user and system) of COMMAND and every process it waited for,
# which a busy machine changes far less than the wall-clock time. With
# $STAGES set, it appends the stage's line to that file, for the summary
# that `tools/stage.sh --summary` prints at the end. Exits with COMMAND's
# status.
set -uo pipefail

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

if [ "${1:-}" = "--summary" ]; then
	# Every stage of this run with its times, then the wall-clock time
	# from the first stage's start to the last one's end.
	[ -n "${STAGES:-}" ] && [ -s "$STAGES" ] || exit 0
	echo ">> stages (wall clock, CPU)"
	sort -t "$(printf '\t')" -k1,1n "$STAGES" | awk -F'\t' '
		NR == 1 { first = $1 }
		{ printf "   %-50s %7.1f s %7.1f s  %s\n", $3, $2 - $1, $5, $4; if ($2 > last) last = $2; cpu += $5 }
		END { printf "   %-50s %7.1f s %7.1f s\n", "make test", last - first, cpu }
	'
	exit 0
fi

name=$1
shift
echo ">> $name"
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
cpu
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
