// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rai_dnsq: a test module that asks the kernel's DNS key cache for a name
 * exactly as NFS, CIFS and Ceph do: dns_query(net, NULL, name, len, NULL,
 * &result, NULL, false), no query type, no options.
 *
 * <debugfs>/rai_dnsq/query: write a name (a trailing newline is dropped);
 * the query runs in the writer's network namespace, then a read gives
 * "STATUS RESULT\n": the dns_query() return value and the key's payload
 * (empty on failure).  For the selftests only: never load it elsewhere.
 */
#include <linux/debugfs.h>
#include <linux/dns_resolver.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#define RAI_DNSQ_NAME_MAX	255
#define RAI_DNSQ_OUT_MAX	1024

static DEFINE_MUTEX(rai_dnsq_lock);
static char rai_dnsq_out[RAI_DNSQ_OUT_MAX];
static struct dentry *rai_dnsq_dir;

static ssize_t rai_dnsq_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	char name[RAI_DNSQ_NAME_MAX + 1];
	char *result = NULL;
	size_t len = count;
	int ret;

	if (!len || len > RAI_DNSQ_NAME_MAX + 1)
		return -EINVAL;
	if (copy_from_user(name, buf, len))
		return -EFAULT;
	if (name[len - 1] == '\n')
		len--;
	if (!len || len > RAI_DNSQ_NAME_MAX)
		return -EINVAL;
	name[len] = '\0';

	/* As nfs_dns_resolve_name() and cifs do. */
	ret = dns_query(current->nsproxy->net_ns, NULL, name, len, NULL,
			&result, NULL, false);

	mutex_lock(&rai_dnsq_lock);
	snprintf(rai_dnsq_out, sizeof(rai_dnsq_out), "%d %s\n", ret,
		 ret >= 0 && result ? result : "");
	mutex_unlock(&rai_dnsq_lock);
	kfree(result);
	return count;
}

static ssize_t rai_dnsq_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&rai_dnsq_lock);
	ret = simple_read_from_buffer(buf, count, ppos, rai_dnsq_out,
				      strlen(rai_dnsq_out));
	mutex_unlock(&rai_dnsq_lock);
	return ret;
}

static const struct file_operations rai_dnsq_fops = {
	.owner = THIS_MODULE,
	.write = rai_dnsq_write,
	.read = rai_dnsq_read,
	.llseek = default_llseek,
};

static int __init rai_dnsq_init(void)
{
	rai_dnsq_dir = debugfs_create_dir("rai_dnsq", NULL);
	debugfs_create_file("query", 0600, rai_dnsq_dir, NULL,
			    &rai_dnsq_fops);
	return 0;
}

static void __exit rai_dnsq_exit(void)
{
	debugfs_remove_recursive(rai_dnsq_dir);
}

module_init(rai_dnsq_init);
module_exit(rai_dnsq_exit);
MODULE_DESCRIPTION("rdma_addrinfo selftests: dns_query() as NFS asks it");
MODULE_LICENSE("Dual BSD/GPL");
