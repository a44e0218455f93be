/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the SA backend (RESOLVE with RAI_SA) on top of the SA
 * client (sa_client.h).
 *
 * rai_sa_backend_init() starts the SA client and registers the backend
 * (call it after rai_stats_init() and before the device is registered);
 * rai_sa_backend_exit() undoes it (after the device is gone and every
 * request is destroyed, before rai_stats_exit()).
 */
#ifndef _RAI_SA_BACKEND_H
#define _RAI_SA_BACKEND_H

int rai_sa_backend_init(void);
void rai_sa_backend_exit(void);

#endif /* _RAI_SA_BACKEND_H */
