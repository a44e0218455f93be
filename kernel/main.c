// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: module entry points.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>

#include <rdma/rdma_addrinfo_abi.h>

static const struct file_operations rai_fops = {
	.owner = THIS_MODULE,
};

static struct miscdevice rai_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rdma_addrinfo",
	.nodename = RDMA_ADDRINFO_DEVNAME,
	.mode = 0666,
	.fops = &rai_fops,
};

static int __init rai_init(void)
{
	return misc_register(&rai_misc);
}

static void __exit rai_exit(void)
{
	misc_deregister(&rai_misc);
}

module_init(rai_init);
module_exit(rai_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("RDMA address resolution (DNS and InfiniBand SA) in the kernel");
