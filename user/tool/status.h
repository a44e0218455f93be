/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_TOOL_STATUS_H
#define _RAI_TOOL_STATUS_H

#include <stdio.h>

int tool_info(FILE *out, int json);
int tool_stats(FILE *out, int json);

#endif /* _RAI_TOOL_STATUS_H */
