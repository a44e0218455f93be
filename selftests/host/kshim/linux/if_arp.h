/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* ARPHRD_* for kernel/source_link.c in user space (glibc's copy). */
#include <net/if_arp.h>
