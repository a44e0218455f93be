#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# In the test VM: validate sa_responder with an independent SA client,
# saquery(8) (infiniband-diags), through saquery_shim.so.  It checks the
# test world, not the module (selftests/ioctl/sa_test.c does that): a shell
# script, because its checks read saquery's text output.  Prints KTAP;
# run-suite runs it beside the test programs.
# usage: test-saquery.sh [BUILD_DIR]   (sa_responder and saquery_shim.so;
#                                       default build/selftests/world/sa)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../../build/selftests/world/sa}" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../lib/ktap.sh
. "$here/../../lib/ktap.sh"
dev_a=${RAI_IBDEV_A:-rxe0} dev_b=${RAI_IBDEV_B:-rxe1}
ip_a=${RAI_IP6_A:-fd00::1} ip_b=${RAI_IP6_B:-fd00::2}
work=$(mktemp -d /run/sa-test.XXXXXX)

# STATUS NAME [DIAGNOSTIC]: the result, the diagnostic before it on failure.
result() {
	local line

	if [ "$1" != 0 ] && [ -n "${3:-}" ]; then
		while IFS= read -r line; do echo "# $line"; done <<< "$3"
	fi
	ktap_result "$1" "$2"
}

# Index of the RoCEv2 GID $2 on port 1 of $1.
gid_index() {
	local full i d=/sys/class/infiniband/$1/ports/1
	full=$(python3 -c "import ipaddress,sys; print(ipaddress.ip_address(sys.argv[1]).exploded)" "$2")
	for i in $(seq 0 31); do
		[ "$(cat "$d/gids/$i" 2>/dev/null)" = "$full" ] &&
			[ "$(cat "$d/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "$i"; return; }
	done
}

"$build/sa_responder" -d "$dev_b" -f "$here/records.example" \
	-n "$work/count" -P "$work/pid" 2> "$work/resp.err" &
resp=$!
# Registered once its pid is written: looks 0.1 s apart, 5 s at most.
for _ in $(seq 50); do [ -s "$work/pid" ] && break; sleep 0.1; done

export LD_PRELOAD=$build/saquery_shim.so SA_SHIM_DGID=$ip_b
SA_SHIM_SGID_INDEX=$(gid_index "$dev_a" "$ip_a")
export SA_SHIM_SGID_INDEX

sq() { timeout 60 saquery -t 5000 -C "$dev_a" -P 1 "$@"; }

ktap_begin 6

out=$(sq SR)
n=$(grep -c '^ServiceRecord dump' <<< "$out")
[ "$n" = 15 ]
result $? "saquery SR: 15 records (14 RMPP segments), got $n"
grep -q 'ServiceID\.*0x1000000000000002' <<< "$out" &&
	grep -q 'ServiceName\.*svc-b' <<< "$out" &&
	grep -q 'ServiceData8.1\.*0x1$' <<< "$out" &&
	grep -q 'ServiceData8.8\.*0x8$' <<< "$out" &&
	grep -q 'ServiceGID\.*fd00::2' <<< "$out"
result $? "saquery SR: fields of svc-b"

out=$(sq PR --sgid-to-dgid "$ip_a-$ip_b")
grep -q "dgid\.*$ip_b\$" <<< "$out" && grep -q "sgid\.*$ip_a\$" <<< "$out" &&
	grep -q 'pkey\.*0xFFFF' <<< "$out" && grep -q 'mtu\.*0x84' <<< "$out" &&
	grep -q 'rate\.*0x87' <<< "$out" &&
	grep -q 'num_path_revers\.*0x81' <<< "$out" &&
	grep -q 'hop_flow_raw\.*0x40' <<< "$out"
result $? "saquery PR by SGID/DGID: fields" "$out"

out=$(sq PR --sgid-to-dgid "$ip_a-fd00::99" 2>&1)
! grep -q 'PathRecord dump' <<< "$out"
result $? "saquery PR unknown DGID: no record" "$out"

echo "mode=status" > "$work/ctl"
kill "$resp"; wait "$resp" 2>/dev/null
"$build/sa_responder" -d "$dev_b" -f "$here/records.example" \
	-n "$work/count" -c "$work/ctl" -P "$work/pid2" 2>> "$work/resp.err" &
resp=$!
# As above: looks 0.1 s apart, 5 s at most.
for _ in $(seq 50); do [ -s "$work/pid2" ] && break; sleep 0.1; done
out=$(sq SR 2>&1)
grep -qi 'status\|fail\|error' <<< "$out" && ! grep -q 'ServiceRecord dump' <<< "$out"
result $? "mode=status: saquery reports an error" "$out"
c=$(cat "$work/count")
[ "$c" -ge 1 ]
result $? "MAD count file: $c"

kill "$resp"; wait "$resp" 2>/dev/null
unset LD_PRELOAD
rm -rf "$work"
ktap_end
