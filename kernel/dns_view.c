// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: views of the resolver files, and whose view the DNS
 * upcall answers from.
 *
 * The upcall runs in the initial namespaces, with init's root: the host's
 * /etc/hosts, nsswitch.conf and resolv.conf.  A request from another
 * network namespace, or from a process that sees other files there (its
 * own mount namespace or root with a different /etc/hosts, resolv.conf or
 * nsswitch.conf), would be answered from the wrong view: kernel/dns.c
 * refuses it (-EPERM, dns_view_refused) unless the administrator sets
 * dns_host_view, which answers such requests from the host's view.  A
 * resident resolver (kernel/dns_resident.c) keeps the view of the process
 * that registered it, and answers the callers that share it.
 *
 * No state and no lock of its own: each check reads the caller's
 * namespaces and root and init's root, with references held only for the
 * check; a struct rai_dns_view holds its own.
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
static const char * const rai_dns_view_names[RAI_DNS_VIEW_FILES] = {
	"/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf",
};

/* @view's files as seen from its root (O_PATH: nothing is opened). */
static void rai_dns_view_files(struct rai_dns_view *view)
{
	struct file *f;
	unsigned int i;

	for (i = 0; i < RAI_DNS_VIEW_FILES; i++) {
		f = file_open_root(&view->root, rai_dns_view_names[i], O_PATH,
				   0);
		if (IS_ERR(f)) {
			view->files[i].mnt = NULL;
			view->files[i].dentry = NULL;
			continue;
		}
		view->files[i] = f->f_path;
		path_get(&view->files[i]);
		fput(f);
	}
}

/**
 * rai_dns_view_get - the calling process's view
 * @view: filled with references, released by rai_dns_view_put()
 *
 * Process context: the caller's root is read and the files looked up.
 */
void rai_dns_view_get(struct rai_dns_view *view)
{
	get_fs_root(current->fs, &view->root);
	rai_dns_view_files(view);
}

static void rai_dns_view_put_files(struct rai_dns_view *view)
{
	unsigned int i;

	for (i = 0; i < RAI_DNS_VIEW_FILES; i++)
		if (view->files[i].dentry)
			path_put(&view->files[i]);
}

void rai_dns_view_put(struct rai_dns_view *view)
{
	rai_dns_view_put_files(view);
	path_put(&view->root);
}

/* Do @a and @b see the same file (or both none) at each name? */
static bool rai_dns_view_same_files(const struct rai_dns_view *a,
				    const struct rai_dns_view *b)
{
	const struct dentry *da, *db;
	unsigned int i;

	for (i = 0; i < RAI_DNS_VIEW_FILES; i++) {
		da = a->files[i].dentry;
		db = b->files[i].dentry;
		if (!da || !db ? da != db : d_inode(da) != d_inode(db))
			return false;
	}
	return true;
}

/**
 * rai_dns_view_equal - would a resolver in @a answer as one in @b does?
 * @a: a view (rai_dns_view_get())
 * @b: another
 *
 * Return: true when both have the same root, or see the same three files.
 * Does not sleep.
 */
bool rai_dns_view_equal(const struct rai_dns_view *a,
			const struct rai_dns_view *b)
{
	return path_equal(&a->root, &b->root) || rai_dns_view_same_files(a, b);
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
 * Is @mine (its root, and its files unless @mine_files is false: then
 * they are looked up here if needed, and released) the host's view?
 */
static bool rai_dns_view_host(struct rai_dns_view *mine, bool mine_files)
{
	struct rai_dns_view host;
	bool same;

	if (!rai_dns_host_root(&host.root))
		return false;
	same = path_equal(&mine->root, &host.root);
	if (!same) {
		rai_dns_view_files(&host);
		if (!mine_files)
			rai_dns_view_files(mine);
		same = rai_dns_view_same_files(mine, &host);
		if (!mine_files)
			rai_dns_view_put_files(mine);
		rai_dns_view_put_files(&host);
	}
	path_put(&host.root);
	return same;
}

/**
 * rai_dns_view_is_host - may the upcall answer for @view in @net?
 * @view: a view (rai_dns_view_get())
 * @net: its network namespace
 *
 * Return: true when @net is the initial network namespace and @view is
 * the host's (init's root, or the same files).  Process context.
 */
bool rai_dns_view_is_host(struct rai_dns_view *view, const struct net *net)
{
	return net_eq(net, &init_net) && rai_dns_view_host(view, true);
}

/*
 * Would the upcall, which runs in the initial namespaces with init's root,
 * answer @req as the caller's own resolver would?  Same network namespace,
 * and the same root (@root, the caller's) or else the same resolver files.
 * Process context.
 */
static bool rai_dns_same_view(const struct rai_request *req,
			      const struct path *root)
{
	struct rai_dns_view mine = { .root = *root };

	if (!net_eq(req->file->net, &init_net) ||
	    !net_eq(current->nsproxy->net_ns, &init_net))
		return false;
	/* @mine borrows the caller's reference to its root. */
	return rai_dns_view_host(&mine, false);
}

/**
 * rai_dns_view_ok - may the upcall answer @req?
 * @req: a DNS request, in its RESOLVE ioctl (process context: the
 *	caller's namespaces are read)
 * @root: the caller's root (get_fs_root()), held by the caller
 *
 * Return: true with dns_host_view set, or when the caller's view is the
 * host's (rai_dns_same_view()).
 */
bool rai_dns_view_ok(const struct rai_request *req, const struct path *root)
{
	return READ_ONCE(rai_dns_host_view) || rai_dns_same_view(req, root);
}
