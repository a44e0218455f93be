/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_SERVICE_H
#define _RAI_SERVICE_H

#include <stddef.h>

int rai_map_service(const char *service, int ai_flags, int qp_type,
		    int port_space, char *out, size_t out_size);

#endif /* _RAI_SERVICE_H */
