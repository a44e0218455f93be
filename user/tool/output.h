/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_TOOL_OUTPUT_H
#define _RAI_TOOL_OUTPUT_H

#include <stdio.h>
#include <rdma/rdma_addrinfo.h>

void tool_print_results(FILE *out, const struct rdma_addrinfo *list,
			int json);

#endif /* _RAI_TOOL_OUTPUT_H */
