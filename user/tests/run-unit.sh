#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Run kselftest-harness programs (under the command in $1, e.g. valgrind),
# add up their "# Totals" lines and end with "N passed, N failed".
# Exit status: non-zero if any test or any program failed.
runner=$1
shift
passed=0 failed=0 status=0
for t in "$@"; do
	out=$($runner "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	totals=$(printf '%s\n' "$out" | sed -n 's/^# Totals: pass:\([0-9]*\) fail:\([0-9]*\).*/\1 \2/p')
	if [ -z "$totals" ]; then
		echo "# $t: no totals (exit $rc)"
		failed=$((failed + 1))
		status=1
		continue
	fi
	passed=$((passed + ${totals% *}))
	failed=$((failed + ${totals#* }))
	if [ "$rc" -ne 0 ] && [ "${totals#* }" -eq 0 ]; then
		echo "# $t: exit $rc with no failed test (valgrind error?)"
		failed=$((failed + 1))
	fi
done
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status
