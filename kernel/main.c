// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: module entry points.
 */
#include <linux/module.h>

#include "device.h"
#include "dns.h"
#include "request.h"
#include "sa_client.h"
#include "source.h"
#include "stats.h"

static int __init rai_init(void)
{
	int ret;

	ret = rai_stats_init();
	if (ret)
		return ret;
	ret = rai_request_init();
	if (ret)
		goto err_stats;
	ret = rai_dns_init();
	if (ret)
		goto err_request;
	ret = rai_sa_init();
	if (ret)
		goto err_dns;
	ret = rai_source_init();
	if (ret)
		goto err_sa;
	ret = rai_device_init();
	if (ret)
		goto err_source;
	return 0;

err_source:
	rai_source_exit();
err_sa:
	rai_sa_exit();
err_dns:
	rai_dns_exit();
err_request:
	rai_request_exit();
err_stats:
	rai_stats_exit();
	return ret;
}

/*
 * No file is open (each holds a module reference).  Requests may still be
 * alive in a DNS upcall or a timer: wait for those, then the slab cache
 * must be empty.
 */
static void __exit rai_exit(void)
{
	rai_device_exit();
	rai_source_exit();
	rai_sa_exit();
	rai_dns_exit();
	rai_request_exit();
	rai_stats_exit();
}

module_init(rai_init);
module_exit(rai_exit);

/* Loaded by the first open, without a modprobe of the rdma stack first. */
MODULE_SOFTDEP("pre: ib_core rdma_cm rdma_ucm dns_resolver");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("RDMA address resolution (DNS and InfiniBand SA) in the kernel");
