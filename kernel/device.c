// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the misc device, its file operations and the ioctls
 * other than RESOLVE.
 *
 * Every open file is an event channel (struct rai_file), and may become a
 * resident resolver (kernel/dns_resident.c).  ioctl() is the only way in
 * (no write(): see include/rdma/ib.h on why write-as-ioctl is unsafe);
 * read() and poll() deliver events.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "backend.h"
#include "charge.h"
#include "compat.h"
#include "device.h"
#include "dns_resident.h"
#include "dns_slots.h"
#include "request.h"
#include "resolve.h"
#include "sa_client.h"
#include "stats.h"

/*
 * @size, the command's, versions the struct: from RDMA_ADDRINFO_INFO_SIZE_V1
 * up, the module fills what both know of and zeroes the caller's rest.
 */
static long rai_ioctl_get_info(struct rai_file *file, void __user *arg,
			       size_t size)
{
	struct rdma_addrinfo_info info;
	size_t n = min(size, sizeof(info));

	memset(&info, 0, sizeof(info));
	info.abi_version = RDMA_ADDRINFO_ABI_VERSION;
	info.ai_flags_supported = RAI_AI_FLAGS_SUPPORTED;
	info.resolve_flags_supported = RAI_RESOLVE_FLAGS_SUPPORTED;
	info.features = rai_backend_features() |
			RDMA_ADDRINFO_FEATURE_RESOLVER |
			RDMA_ADDRINFO_FEATURE_CANONNAME |
			RDMA_ADDRINFO_FEATURE_STATS;
	info.max_name_len = RDMA_ADDRINFO_NAME_MAX;
	info.max_service_len = RDMA_ADDRINFO_SERVICE_MAX;
	info.requests = atomic_read(&file->nr_requests);
	info.result_size = sizeof(struct rdma_addrinfo_result);
	/* Each part reports its own module parameters. */
	rai_request_info(&info);
	rai_dns_slots_info(&info);
	rai_sa_info(&info);
	if (copy_to_user(arg, &info, n) ||
	    (size > n && clear_user(arg + n, size - n)))
		return -EFAULT;
	return 0;
}

/* GET_INFO of any size it versions (see rai_ioctl_get_info()). */
static bool rai_is_get_info(unsigned int cmd)
{
	return _IOC_TYPE(cmd) == _IOC_TYPE(RDMA_ADDRINFO_IOC_GET_INFO) &&
	       _IOC_NR(cmd) == _IOC_NR(RDMA_ADDRINFO_IOC_GET_INFO) &&
	       _IOC_DIR(cmd) == _IOC_READ &&
	       _IOC_SIZE(cmd) >= RDMA_ADDRINFO_INFO_SIZE_V1;
}

/*
 * The counters of the caller's network namespace (the file's: the one it
 * was opened in), to any opener.  @size versions the struct: the module
 * fills what both it and the caller know of.
 */
static long rai_ioctl_get_stats(struct rai_file *file, void __user *arg)
{
	struct rdma_addrinfo_stats st;
	u32 size;

	if (copy_from_user(&st, arg, sizeof(st)))
		return -EFAULT;
	if (st.size < offsetof(struct rdma_addrinfo_stats, requests) ||
	    st.flags || st.reserved)
		return -EINVAL;
	size = min_t(u32, st.size, sizeof(st));
	memset(&st, 0, sizeof(st));
	st.size = size;
	st.resolvers = rai_resident_nr_in(file->net);
	rai_stats_net_read(file->net, &st);
	if (copy_to_user(arg, &st, size))
		return -EFAULT;
	return 0;
}

static long rai_ioctl_get_event(struct rai_file *file, struct file *filp,
				void __user *arg)
{
	struct rdma_addrinfo_event ev;
	struct rai_request *req;
	int ret;

	/* An event whose request was destroyed during the copy is not one. */
	do {
		ret = rai_event_pop(file, filp->f_flags & O_NONBLOCK, &ev, &req);
		if (ret)
			return ret;
		if (copy_to_user(arg, &ev, sizeof(ev))) {
			rai_event_unpop(req);
			return -EFAULT;
		}
	} while (!rai_event_delivered(req));
	return 0;
}

/* QUERY_CANONNAME: @name's record after the caller's @q->count results. */
static int rai_query_canonname_out(const struct rdma_addrinfo_query *q,
				   const char *name)
{
	struct rdma_addrinfo_canonname *out;
	void __user *p = u64_to_user_ptr(q->results);
	int ret = 0;

	out = kmalloc(sizeof(*out), RAI_GFP_CALLER);
	if (!out)
		return -ENOMEM;
	rai_canonname_out(out, name);
	if (copy_to_user(p + (size_t)q->count * q->result_size, out,
			 sizeof(*out)))
		ret = -EFAULT;
	kfree(out);
	return ret;
}

static long rai_ioctl_query(struct rai_file *file, void __user *arg)
{
	struct rdma_addrinfo_result *results;
	enum rai_request_state state;
	struct rdma_addrinfo_query q;
	struct rai_request *req;
	const char *canonname;
	long ret = 0;

	if (copy_from_user(&q, arg, sizeof(q)))
		return -EFAULT;
	if ((q.flags & ~RDMA_ADDRINFO_QUERY_CANONNAME) ||
	    q.result_size != sizeof(struct rdma_addrinfo_result))
		return -EINVAL;

	req = rai_request_lookup(file, q.handle);
	if (!req)
		return -ENOENT;
	/* Results are immutable once the request is DONE. */
	spin_lock_irq(&file->lock);
	state = req->state;
	results = req->results;
	canonname = req->canonname;
	q.total = req->nr_results;
	spin_unlock_irq(&file->lock);
	if (state != RAI_REQ_DONE) {
		ret = state == RAI_REQ_PENDING ? -EBUSY : -ENOENT;
		goto out;
	}
	q.copied = min(q.count, q.total);
	if (q.copied &&
	    copy_to_user(u64_to_user_ptr(q.results), results,
			 (size_t)q.copied * sizeof(*results))) {
		ret = -EFAULT;
		goto out;
	}
	if (q.flags & RDMA_ADDRINFO_QUERY_CANONNAME) {
		ret = rai_query_canonname_out(&q, canonname);
		if (ret)
			goto out;
	}
	if (copy_to_user(arg, &q, sizeof(q)))
		ret = -EFAULT;
out:
	rai_request_put(req);
	return ret;
}

static long rai_ioctl_destroy(struct rai_file *file, void __user *arg)
{
	struct rdma_addrinfo_destroy d;
	bool dropped = false;
	int ret;

	if (copy_from_user(&d, arg, sizeof(d)))
		return -EFAULT;
	if (d.flags || d.reserved)
		return -EINVAL;
	ret = rai_request_destroy(file, d.handle, &dropped);
	if (ret)
		return ret;
	d.events_dropped = dropped;
	/* The request is gone whether or not the caller learns of it. */
	if (copy_to_user(arg, &d, sizeof(d)))
		return -EFAULT;
	return 0;
}

static long rai_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct rai_file *file = filp->private_data;
	void __user *uarg = (void __user *)arg;

	if (rai_is_get_info(cmd))
		return rai_ioctl_get_info(file, uarg, _IOC_SIZE(cmd));
	switch (cmd) {
	case RDMA_ADDRINFO_IOC_GET_STATS:
		return rai_ioctl_get_stats(file, uarg);
	case RDMA_ADDRINFO_IOC_RESOLVE:
		return rai_ioctl_resolve(file, uarg);
	case RDMA_ADDRINFO_IOC_GET_EVENT:
		return rai_ioctl_get_event(file, filp, uarg);
	case RDMA_ADDRINFO_IOC_QUERY:
		return rai_ioctl_query(file, uarg);
	case RDMA_ADDRINFO_IOC_DESTROY:
		return rai_ioctl_destroy(file, uarg);
	case RDMA_ADDRINFO_IOC_RESOLVER_REGISTER:
	case RDMA_ADDRINFO_IOC_RESOLVER_TAKE:
	case RDMA_ADDRINFO_IOC_RESOLVER_ANSWER:
		return rai_resident_ioctl(file, filp, cmd, uarg);
	}
	return -ENOTTY;
}

static ssize_t rai_read(struct file *filp, char __user *buf, size_t count,
			loff_t *pos)
{
	struct rai_file *file = filp->private_data;
	bool nonblock = filp->f_flags & O_NONBLOCK;
	struct rdma_addrinfo_event ev;
	struct rai_request *req;
	size_t done = 0;
	int ret;

	if (count < sizeof(ev))
		return -EINVAL;

	while (count - done >= sizeof(ev)) {
		/* Wait for the first event only. */
		ret = rai_event_pop(file, nonblock || done, &ev, &req);
		if (ret)
			break;
		if (copy_to_user(buf + done, &ev, sizeof(ev))) {
			rai_event_unpop(req);
			ret = -EFAULT;
			break;
		}
		/* Destroyed during the copy: overwritten or past the count. */
		if (rai_event_delivered(req))
			done += sizeof(ev);
	}
	return done ? done : ret;
}

static __poll_t rai_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct rai_file *file = filp->private_data;

	poll_wait(filp, &file->wait, wait);
	/* A resolver's file: also while names wait for it. */
	return (rai_events_pending(file) ? EPOLLIN | EPOLLRDNORM : 0) |
	       rai_resident_poll(file, filp, wait);
}

static int rai_open(struct inode *inode, struct file *filp)
{
	struct rai_file *file;

	file = rai_file_create();
	if (!file)
		return -ENOMEM;
	filp->private_data = file;
	return nonseekable_open(inode, filp);
}

static int rai_release(struct inode *inode, struct file *filp)
{
	rai_resident_release(filp->private_data);
	rai_file_close(filp->private_data);
	return 0;
}

static const struct file_operations rai_fops = {
	.owner = THIS_MODULE,
	.open = rai_open,
	.release = rai_release,
	.read = rai_read,
	.poll = rai_poll,
	.unlocked_ioctl = rai_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/*
 * A fixed minor, so that the module loads on the first open of its node,
 * as /dev/fuse and /dev/net/tun do: depmod lists a module with a devname:
 * and a char-major- alias in modules.devname, kmod static-nodes makes the
 * node at boot, and misc_open() asks for char-major-10-MINOR.  A dynamic
 * minor cannot be named in an alias, so there would be no node before the
 * module is loaded.  Documentation/admin-guide/devices.txt reserves
 * 243-254 for local use: no driver in 6.1 to 7.3 registers them, and they
 * lie outside every dynamic range (0-127, and above 255 on newer kernels).
 */
#define RAI_MISC_MINOR	249
MODULE_ALIAS_MISCDEV(RAI_MISC_MINOR);
MODULE_ALIAS("devname:" RDMA_ADDRINFO_DEVNAME);

static struct miscdevice rai_misc = {
	.minor = RAI_MISC_MINOR,
	.name = "rdma_addrinfo",
	.nodename = RDMA_ADDRINFO_DEVNAME,
	.mode = 0666,
	.fops = &rai_fops,
};

int rai_device_init(void)
{
	return misc_register(&rai_misc);
}

void rai_device_exit(void)
{
	misc_deregister(&rai_misc);
}
