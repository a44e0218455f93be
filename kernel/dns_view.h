/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: whose view of the resolver files a caller has, and
 * whether the DNS upcall may answer it (kernel/dns_view.c).
 */
#ifndef _RAI_DNS_VIEW_H
#define _RAI_DNS_VIEW_H

#include <linux/path.h>
#include <linux/types.h>

struct net;
struct rai_request;

/* /etc/hosts, /etc/resolv.conf, /etc/nsswitch.conf. */
#define RAI_DNS_VIEW_FILES	3

/**
 * struct rai_dns_view - the resolver files as one process sees them
 * @root: its root
 * @files: each of the files (symbolic links followed); .dentry NULL for
 *	one it does not have
 *
 * Held with references (rai_dns_view_get()/rai_dns_view_put()); compared
 * without sleeping (rai_dns_view_equal()).
 */
struct rai_dns_view {
	struct path root;
	struct path files[RAI_DNS_VIEW_FILES];
};

void rai_dns_view_get(struct rai_dns_view *view);
void rai_dns_view_put(struct rai_dns_view *view);
bool rai_dns_view_equal(const struct rai_dns_view *a,
			const struct rai_dns_view *b);
bool rai_dns_view_is_host(struct rai_dns_view *view, const struct net *net);
bool rai_dns_view_ok(const struct rai_request *req, const struct path *root);

#endif /* _RAI_DNS_VIEW_H */
