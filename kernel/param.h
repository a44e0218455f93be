/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: module parameters with a range.  Each file defines the
 * parameters it uses; a value outside the range is refused with EINVAL,
 * at load time as on writes to /sys/module/rdma_addrinfo/parameters/.
 */
#ifndef _RAI_PARAM_H
#define _RAI_PARAM_H

#include <linux/moduleparam.h>

/*
 * rai_param_ops_NAME: the kernel_param_ops of an unsigned int parameter
 * that takes values from _min to _max, for module_param_cb().
 */
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

#endif /* _RAI_PARAM_H */
