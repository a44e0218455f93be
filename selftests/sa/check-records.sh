#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Offline check of sa_responder's record encoding (no RDMA device needed).
# usage: check-records.sh SA_RESPONDER SRCDIR
set -u
resp=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

check() {	# name records-line expected-hex
	printf '%s\n' "$2" > "$tmp/rec"
	got=$("$resp" -T -f "$tmp/rec" 2>&1 | head -n 1)
	if [ "$got" = "$3" ]; then
		pass=$((pass + 1)); echo "ok $1"
	else
		fail=$((fail + 1)); echo "not ok $1"; echo "# got      $got"
		echo "# expected $3"
	fi
}

z() { printf "%0$1d" 0; }	# $1 zero hex digits

check pr-layout \
	"pr dgid=fd00::2 sgid=fd00::1 pkey=0x8001 mtu=4 rate=7 plt=18 hop=64 flow=0x12345 tclass=3 sl=1" \
	"pr $(z 16)fd00$(z 26)02fd00$(z 26)01$(z 8)0123454003818001000184879200$(z 12)"
check sr-layout \
	"sr id=0x1000000000000001 gid=fd00::2 pkey=0x7fff lease=600 name=svc-a data8=0102" \
	"sr 1000000000000001fd00$(z 26)027fff000000000258$(z 32)7376632d61$(z 118)0102$(z 124)"
name64=$(printf 'n%.0s' $(seq 64))
check sr-name-64 "sr id=1 name=$name64" \
	"sr $(z 15)1$(z 32)ffff0000ffffffff$(z 32)$(printf '6e%.0s' $(seq 64))$(z 128)"
check sr-count "sr id=0x10 name=x%uy count=3" "sr $(z 14)10$(z 32)ffff0000ffffffff$(z 32)78307900$(z 120)$(z 128)"
printf 'sr id=0x10 name=x%%uy count=3\n' > "$tmp/rec"
n=$("$resp" -T -f "$tmp/rec" | wc -l)
if [ "$n" = 3 ]; then pass=$((pass + 1)); echo "ok sr-count-lines"
else fail=$((fail + 1)); echo "not ok sr-count-lines ($n)"; fi
for bad in "sr id=zz" "sr bogus=1" "pr sl=16" "xx y=1" "sr name"; do
	printf '%s\n' "$bad" > "$tmp/rec"
	if "$resp" -T -f "$tmp/rec" >/dev/null 2>&1; then
		fail=$((fail + 1)); echo "not ok reject '$bad'"
	else
		pass=$((pass + 1)); echo "ok reject '$bad'"
	fi
done
"$resp" -T -f "${2}records.example" >/dev/null && pass=$((pass + 1)) &&
	echo "ok records.example" || { fail=$((fail + 1)); echo "not ok records.example"; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
