// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: module entry points and parameters.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "device.h"
#include "dns.h"
#include "main.h"
#include "request.h"
#include "sa_client.h"
#include "source.h"
#include "stats.h"

unsigned int rai_max_requests_per_fd = 4096;
unsigned int rai_max_requests = 65536;
unsigned int rai_max_results = 64;
unsigned int rai_max_upcalls = 16;
unsigned int rai_dns_timeout_ms = 20000;
unsigned int rai_sa_timeout_ms = 1000;
unsigned int rai_sa_retries = 3;
unsigned int rai_max_requests_per_user = 16384;
unsigned int rai_max_upcalls_per_user = 8;
unsigned int rai_dns_max_keys = 1024;
unsigned int rai_dns_max_keys_per_user = 256;

struct workqueue_struct *rai_wq;

#define RAI_PARAM_RANGE(_name, _min, _max)				\
static int rai_param_set_##_name(const char *val,			\
				 const struct kernel_param *kp)		\
{									\
	return param_set_uint_minmax(val, kp, _min, _max);		\
}									\
static const struct kernel_param_ops rai_param_ops_##_name = {		\
	.set = rai_param_set_##_name,					\
	.get = param_get_uint,						\
}

RAI_PARAM_RANGE(max_requests_per_fd, 1, 1 << 20);
RAI_PARAM_RANGE(max_requests, 1, 1 << 24);
RAI_PARAM_RANGE(max_results, 1, 1024);
RAI_PARAM_RANGE(max_upcalls, 1, 1024);
RAI_PARAM_RANGE(dns_timeout_ms, 0, 600000);
RAI_PARAM_RANGE(sa_timeout_ms, 1, 60000);
RAI_PARAM_RANGE(sa_retries, 0, 100);
RAI_PARAM_RANGE(max_requests_per_user, 1, 1 << 24);
RAI_PARAM_RANGE(max_upcalls_per_user, 1, 1024);
RAI_PARAM_RANGE(dns_max_keys, 1, 1 << 20);
RAI_PARAM_RANGE(dns_max_keys_per_user, 1, 1 << 20);

module_param_cb(max_requests_per_fd, &rai_param_ops_max_requests_per_fd,
		&rai_max_requests_per_fd, 0644);
MODULE_PARM_DESC(max_requests_per_fd,
		 "Requests one open file may hold, in flight or done; beyond: EMFILE (default 4096)");
module_param_cb(max_requests, &rai_param_ops_max_requests,
		&rai_max_requests, 0644);
MODULE_PARM_DESC(max_requests,
		 "Requests the module holds in all; beyond: ENFILE (default 65536)");
module_param_cb(max_results, &rai_param_ops_max_results,
		&rai_max_results, 0644);
MODULE_PARM_DESC(max_results, "Results kept per request (default 64)");
module_param_cb(max_upcalls, &rai_param_ops_max_upcalls,
		&rai_max_upcalls, 0444);
MODULE_PARM_DESC(max_upcalls,
		 "DNS resolver upcalls in progress at most (default 16)");
module_param_cb(dns_timeout_ms, &rai_param_ops_dns_timeout_ms,
		&rai_dns_timeout_ms, 0644);
MODULE_PARM_DESC(dns_timeout_ms,
		 "A DNS request still unanswered after this fails with ETIMEDOUT; 0: no limit (default 20000)");
module_param_cb(sa_timeout_ms, &rai_param_ops_sa_timeout_ms,
		&rai_sa_timeout_ms, 0644);
MODULE_PARM_DESC(sa_timeout_ms, "SA MAD timeout per try (default 1000)");
module_param_cb(sa_retries, &rai_param_ops_sa_retries,
		&rai_sa_retries, 0644);
MODULE_PARM_DESC(sa_retries, "SA MAD retries after the first try (default 3)");
module_param_cb(max_requests_per_user, &rai_param_ops_max_requests_per_user,
		&rai_max_requests_per_user, 0644);
MODULE_PARM_DESC(max_requests_per_user,
		 "Requests one user (real uid of the caller) may hold, in flight or done; beyond: EDQUOT (default 16384)");
module_param_cb(max_upcalls_per_user, &rai_param_ops_max_upcalls_per_user,
		&rai_max_upcalls_per_user, 0644);
MODULE_PARM_DESC(max_upcalls_per_user,
		 "DNS resolver upcalls one user may have in progress; slots go round-robin between users (default 8)");
module_param_cb(dns_max_keys, &rai_param_ops_dns_max_keys,
		&rai_dns_max_keys, 0644);
MODULE_PARM_DESC(dns_max_keys,
		 "dns_resolver keys (root's key quota) the module may leave behind; beyond: new names fail with EAGAIN (default 1024)");
module_param_cb(dns_max_keys_per_user, &rai_param_ops_dns_max_keys_per_user,
		&rai_dns_max_keys_per_user, 0644);
MODULE_PARM_DESC(dns_max_keys_per_user,
		 "dns_resolver keys one user's requests may leave behind (default 256)");

static int __init rai_init(void)
{
	int ret;

	rai_stats_init();
	ret = rai_request_init();
	if (ret)
		goto err_stats;
	rai_wq = alloc_workqueue("rai", WQ_UNBOUND, 0);
	if (!rai_wq) {
		ret = -ENOMEM;
		goto err_request;
	}
	ret = rai_dns_init();
	if (ret)
		goto err_wq;
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
err_wq:
	destroy_workqueue(rai_wq);
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
	destroy_workqueue(rai_wq);
	rai_request_exit();
	rai_stats_exit();
}

module_init(rai_init);
module_exit(rai_exit);

/* Loaded by the first open, without a modprobe of the rdma stack first. */
MODULE_SOFTDEP("pre: ib_core rdma_cm rdma_ucm dns_resolver");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("RDMA address resolution (DNS and InfiniBand SA) in the kernel");
