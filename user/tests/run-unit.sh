#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Run kselftest-harness programs (under the command in $1, e.g. valgrind)
# and relay their KTAP.  A program that ends without its "# Totals:" line,
# or exits non-zero with no failed test (a valgrind error), gets a KTAP
# failure of its own, so that the "# Totals:" lines count every failure.
# The last line adds them up (a comment: nothing counts it twice).
# Exit status: non-zero if any test or any program failed.
runner=$1
shift
passed=0 failed=0 programs=0 status=0
for t in "$@"; do
	out=$($runner "$t" 2>&1)
	rc=$?
	programs=$((programs + 1))
	printf '%s\n' "$out"
	totals=$(printf '%s\n' "$out" | sed -n 's/^# Totals: pass:\([0-9]*\) fail:\([0-9]*\).*/\1 \2/p')
	if [ -z "$totals" ]; then
		echo "not ok 1 $t: exit $rc without a summary"
		echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		failed=$((failed + 1))
		status=1
		continue
	fi
	passed=$((passed + ${totals% *}))
	failed=$((failed + ${totals#* }))
	if [ "$rc" -ne 0 ] && [ "${totals#* }" -eq 0 ]; then
		echo "not ok 1 $t: exit $rc with no failed test (valgrind error?)"
		echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		failed=$((failed + 1))
	fi
done
[ "$failed" -eq 0 ] || status=1
echo "# run-unit: $programs programs, pass:$passed fail:$failed"
exit $status
