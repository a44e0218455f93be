// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: whose view the DNS upcall answers from.
 *
 * The upcall runs in the initial namespaces, with init's root: the host's
 * /etc/hosts, nsswitch.conf and resolv.conf.  A request from another
 * network namespace, or from a process that sees other files there (its
 * own mount namespace or root with a different /etc/hosts, resolv.conf or
 * nsswitch.conf), would be answered from the wrong view: kernel/dns.c
 * refuses it (-EPERM, dns_view_refused) unless the administrator sets
 * dns_host_view, which answers such requests from the host's view.
 *
 * No state and no lock of its own: each check reads the caller's
 * namespaces and root and init's root, with references held only for the
 * check.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/moduleparam.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <net/net_namespace.h>

#include "dns_view.h"
#include "request.h"

static bool rai_dns_host_view;
module_param_named(dns_host_view, rai_dns_host_view, bool, 0644);
MODULE_PARM_DESC(dns_host_view,
		 "Answer DNS names for containers (another network namespace or /etc view) from the host's resolver and /etc/hosts; else -EPERM (default N)");

/* The files of the resolver's view: the helper's getaddrinfo() reads them. */
static const char * const rai_dns_view_files[] = {
	"/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf",
};

/* Does the caller see @name as the host (the upcall, from @host_root) does? */
static bool rai_dns_same_file(const struct path *host_root, const char *name)
{
	struct file *mine, *host;
	bool same;

	/* O_PATH: no open of the file itself, symbolic links followed. */
	mine = filp_open(name, O_PATH, 0);
	host = file_open_root(host_root, name, O_PATH, 0);
	if (IS_ERR(mine) || IS_ERR(host))
		same = PTR_ERR_OR_ZERO(mine) == PTR_ERR_OR_ZERO(host);
	else
		same = file_inode(mine) == file_inode(host);
	if (!IS_ERR(mine))
		fput(mine);
	if (!IS_ERR(host))
		fput(host);
	return same;
}

/*
 * The root the host's resolver sees: that of init (PID 1 of the initial
 * PID namespace), which after an initramfs's switch_root is the real root
 * (swapper's may still be the initramfs).
 */
static bool rai_dns_host_root(struct path *root)
{
	struct task_struct *init;
	bool ok = false;

	rcu_read_lock();
	init = READ_ONCE(init_pid_ns.child_reaper);
	if (init)
		get_task_struct(init);
	rcu_read_unlock();
	if (!init)
		return false;
	task_lock(init);
	if (init->fs) {
		get_fs_root(init->fs, root);
		ok = true;
	}
	task_unlock(init);
	put_task_struct(init);
	return ok;
}

/*
 * Would the upcall, which runs in the initial namespaces with init's root,
 * answer @req as the caller's own resolver would?  Same network namespace,
 * and the same root or else the same resolver files.  Process context.
 */
static bool rai_dns_same_view(const struct rai_request *req)
{
	struct path mine, host;
	bool same = true;
	unsigned int i;

	if (!net_eq(req->file->net, &init_net) ||
	    !net_eq(current->nsproxy->net_ns, &init_net))
		return false;
	if (!rai_dns_host_root(&host))
		return false;
	get_fs_root(current->fs, &mine);
	if (!path_equal(&mine, &host))
		for (i = 0; same && i < ARRAY_SIZE(rai_dns_view_files); i++)
			same = rai_dns_same_file(&host, rai_dns_view_files[i]);
	path_put(&mine);
	path_put(&host);
	return same;
}

/**
 * rai_dns_view_ok - may the upcall answer @req?
 * @req: a DNS request, in its RESOLVE ioctl (process context: the
 *	caller's root and namespaces are read)
 *
 * Return: true with dns_host_view set, or when the caller's view is the
 * host's (rai_dns_same_view()).
 */
bool rai_dns_view_ok(const struct rai_request *req)
{
	return READ_ONCE(rai_dns_host_view) || rai_dns_same_view(req);
}
