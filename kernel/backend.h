/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the resolution backends (numeric, DNS, SA) and the
 * results they share.
 */
#ifndef _RAI_BACKEND_H
#define _RAI_BACKEND_H

#include <linux/types.h>

#include "request.h"

struct sockaddr;

extern const struct rai_backend_ops rai_numeric_ops;
extern const struct rai_backend_ops rai_dns_ops;

/*
 * The SA backend plugs in here.  It registers its ops once at module init
 * (before the device is registered) and unregisters them at exit (after
 * the device is gone and every request is destroyed).  Until then RESOLVE
 * with RAI_SA fails with -EOPNOTSUPP and GET_INFO does not advertise
 * RDMA_ADDRINFO_FEATURE_SA.  Its start() receives a validated request:
 * service set (service/service_len), node NULL, ibdev_name and port_num
 * set; results are AF_IB with origin RDMA_ADDRINFO_ORIGIN_SA.
 */
void rai_backend_register_sa(const struct rai_backend_ops *ops);
void rai_backend_unregister_sa(void);
const struct rai_backend_ops *rai_backend_sa(void);

u32 rai_backend_features(void);

int rai_dns_init(void);
void rai_dns_exit(void);
unsigned int rai_dns_keys_charged(void);

/* Fill one result for an IP destination (or a passive local address). */
void rai_result_fill_ip(struct rai_request *req,
			struct rdma_addrinfo_result *res,
			const struct sockaddr *addr, u32 origin, u32 ttl);

/* Whether @req accepts an IP address of family @family in its results. */
u16 rai_request_family(const struct rai_request *req);
bool rai_request_wants(const struct rai_request *req, u16 family);

#endif /* _RAI_BACKEND_H */
