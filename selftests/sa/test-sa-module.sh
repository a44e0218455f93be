#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# In the test VM: the module's SA backend against the test SA responder,
# straight on the ioctls (sa_burst) and through rdma-addrinfo(1): lookups,
# RMPP tables, coalescing and the cache (MADs counted at the responder),
# time-outs, error and malformed replies, and the device removed mid-query.
# The device removal runs last and puts the device back.
# usage: test-sa-module.sh BUILD_DIR   (sa_responder, sa_burst)
set -u
build=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
world="$here/sa-world"
export SA_BUILD=$build
dev=${RAI_IBDEV_A:-rxe0} netdev=${RAI_NETDEV_A:-veth0}
params=/sys/module/rdma_addrinfo/parameters
tool=$repo/build/user/bin/rdma-addrinfo
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok $*"; }
nok() { fail=$((fail + 1)); echo "not ok $*"; }
check() { # NAME COMMAND...: passes when COMMAND succeeds
	local name=$1; shift
	if "$@"; then ok "$name"; else nok "$name"; fi
}
burst() { "$build/sa_burst" -d "$dev" "$@" 2>&1; }
# A fresh sa_gid write drops the SA cache: each test starts uncached.
fresh() {
	"$world" stop; echo fd00::99 > "$params/sa_gid"
	"$world" start >/dev/null; "$world" mode normal
	"$world" reset
}

saved_timeout=$(cat "$params/sa_timeout_ms")
saved_retries=$(cat "$params/sa_retries")

fresh
out=$(burst -n 1 -r svc-a)
check "service name svc-a resolves: $out" grep -q 'ok 1 ' <<< "$out"

fresh
out=$(burst -n 1 -r 0x1000000000000002)
check "service ID 0x1000000000000002 resolves: $out" grep -q 'ok 1 ' <<< "$out"

fresh
n=$("$tool" --sa --noroute bulk 2>&1 | grep -c '^ib')
check "table of 12 records over RMPP (11 segments): $n results" [ "$n" = 12 ]

fresh
out=$(burst -n 1 -r no-such-service)
check "no matching record: -ENXIO ($out)" grep -q 'status\[-6\]=1' <<< "$out"

fresh
out=$(burst -n 1000 svc-a); mads=$("$world" count)
check "1000 identical concurrent queries: all ok, $mads MADs (<= 2): $out" \
	bash -c "grep -q 'ok 1000 ' <<< '$out' && [ '$mads' -le 2 ]"
"$world" reset
out=$(burst -n 100 svc-a); mads=$("$world" count)
check "cached repeat: 0 MADs (got $mads): $out" \
	bash -c "grep -q 'ok 100 ' <<< '$out' && [ '$mads' = 0 ]"

echo 300 > "$params/sa_timeout_ms"; echo 2 > "$params/sa_retries"
fresh; "$world" mode silent
out=$(burst -n 1 -r svc-b); mads=$("$world" count)
check "silent SA: -ETIMEDOUT after 1 + 2 retries ($mads MADs): $out" \
	bash -c "grep -q 'status\[-110\]=1' <<< '$out' && [ '$mads' = 3 ]"
echo "$saved_timeout" > "$params/sa_timeout_ms"
echo "$saved_retries" > "$params/sa_retries"

fresh; "$world" mode status status=0x0100
out=$(burst -n 1 -r svc-b)
check "SA error status: -EREMOTEIO: $out" grep -q 'status\[-121\]=1' <<< "$out"

for mode in truncate badattr; do
	fresh; "$world" mode "$mode"
	out=$(burst -n 1 -r svc-b)
	check "malformed reply ($mode): -EPROTO: $out" \
		grep -q 'status\[-71\]=1' <<< "$out"
done

# A renamed device is found under its new name only (the RDMA core
# compares the names, under its own lock).
fresh
if rdma dev set "$dev" name raitmp0; then
	out=$("$build/sa_burst" -d raitmp0 -n 1 -r svc-a 2>&1)
	old=$("$build/sa_burst" -d "$dev" -n 1 -r svc-a 2>&1)
	rdma dev set raitmp0 name "$dev"
	check "renamed device: new name resolves ($out), old name -ENODEV ($old)" \
		bash -c "grep -q 'ok 1 ' <<< '$out' && grep -q 'status\[-19\]=1' <<< '$old'"
else
	nok "rdma dev set $dev name raitmp0 failed"
fi

# Last: the device goes away with 20 queries waiting for a slow SA.
fresh; "$world" mode slow delay_ms=4000
burst -n 20 -r svc-b > /run/sa-burst-removed.out &
bpid=$!
sleep 1.5
rdma link delete "$dev"
wait "$bpid"
out=$(cat /run/sa-burst-removed.out)
check "device removed mid-query: every request -ENODEV: $out" \
	grep -q 'status\[-19\]=20' <<< "$out"
rdma link add "$dev" type rxe netdev "$netdev"
"$world" stop
for _ in $(seq 50); do
	rdma link show "$dev/1" 2>/dev/null | grep -q ACTIVE && break
	sleep 0.1
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
