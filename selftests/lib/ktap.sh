# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# shellcheck shell=sh
#
# KTAP for the checks written in shell (sourced; POSIX sh): the output of
# the kselftest harness programs, so that run-suite and selftests/check
# count every test of the project from its "# Totals:" line.
#
#   ktap_begin [N]          "TAP version 13", and the plan "1..N" when the
#                           number of tests is known before they run
#   ktap_result STATUS NAME "ok K - NAME" when STATUS is 0, else "not ok
#                           K - NAME" (a "#" or a line break in NAME would
#                           start a directive or a line: each becomes a
#                           space; diagnostics go on "# " lines of their own)
#   ktap_end                the plan if ktap_begin had none, then
#                           "# Totals: pass:P fail:F xfail:0 xpass:0 skip:0
#                           error:0"; a planned test that did not run is a
#                           failure.  Its status: 0 when nothing failed.

ktap_n=0
ktap_pass=0
ktap_fail=0
ktap_plan=

ktap_begin() {
	echo "TAP version 13"
	ktap_plan=${1:-}
	if [ -n "$ktap_plan" ]; then
		echo "1..$ktap_plan"
	fi
}

ktap_result() {
	ktap_n=$((ktap_n + 1))
	set -- "$1" "$(printf '%s' "$2" | tr '#\n' '  ')"
	if [ "$1" = 0 ]; then
		ktap_pass=$((ktap_pass + 1))
		echo "ok $ktap_n - $2"
	else
		ktap_fail=$((ktap_fail + 1))
		echo "not ok $ktap_n - $2"
	fi
}

ktap_end() {
	if [ -z "$ktap_plan" ]; then
		echo "1..$ktap_n"
	elif [ "$ktap_n" -lt "$ktap_plan" ]; then
		echo "# planned $ktap_plan tests, $ktap_n ran"
		ktap_fail=$((ktap_fail + ktap_plan - ktap_n))
	fi
	echo "# Totals: pass:$ktap_pass fail:$ktap_fail xfail:0 xpass:0 skip:0 error:0"
	[ "$ktap_fail" = 0 ]
}
