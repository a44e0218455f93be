#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# <rdma/rdma_addrinfo.h> compiles with -Wall -Wextra -Werror, in C and C++,
# included before or after <rdma/rdma_cma.h>, against librdmacm 44's
# headers, a newer rdma_cma.h (44's with what librdmacm 60 added), and
# rdma-core 65's own headers when the forky root has them.  KTAP: one test
# per header set and language.
#
# Usage: check.sh SOURCE NEWER_INCLUDE FORKY_INCLUDE RDMA65_DIR
# Environment: CC, CXX, HDR_FLAGS (make passes them)
set -u
src=$1 newer=$2 forky=$3 rdma65=$4
# shellcheck source-path=SCRIPTDIR source=../../../selftests/lib/ktap.sh
. "$(dirname "$0")/../../../selftests/lib/ktap.sh"

# One header set: C and C++, rdma_cma.h first or not.  INCLUDES may be "".
compile() { # LABEL INCLUDES
	# shellcheck disable=SC2086	# flags are words
	$CC -std=c11 $HDR_FLAGS $2 "$src" &&
	$CC -std=c11 $HDR_FLAGS $2 -DRAI_CMA_FIRST "$src"
	ktap_result $? "header: $1, C"
	# shellcheck disable=SC2086
	$CXX -x c++ $HDR_FLAGS $2 "$src" &&
	$CXX -x c++ $HDR_FLAGS $2 -DRAI_CMA_FIRST "$src"
	ktap_result $? "header: $1, C++"
}

plan=4
[ -f "$forky/rdma/rdma_cma.h" ] && plan=7
ktap_begin $plan
compile "librdmacm 44" ""
compile "librdmacm 44 with librdmacm 60's additions" "-I$newer"
if [ -f "$forky/rdma/rdma_cma.h" ]; then
	# Only its rdma/ and infiniband/: the host's libc headers stay in use.
	mkdir -p "$rdma65"
	ln -sfn "$forky/rdma" "$rdma65/rdma"
	ln -sfn "$forky/infiniband" "$rdma65/infiniband"
	grep -q '^int rdma_resolve_addrinfo' "$rdma65/rdma/rdma_cma.h" &&
		grep -q RAI_DNS "$rdma65/rdma/rdma_cma.h"
	ktap_result $? "header: rdma-core 65's rdma_cma.h declares the ADDRINFO calls"
	compile "rdma-core 65" "-I$rdma65"
else
	echo "# rdma-core 65: no $forky/rdma/rdma_cma.h (scripts/forky-root makes it)"
fi
ktap_end
