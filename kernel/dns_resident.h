/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: resident resolvers, the DNS source that needs no process
 * per name (kernel/dns_resident.c, its ioctls kernel/dns_resident_ioctl.c).
 */
#ifndef _RAI_DNS_RESIDENT_H
#define _RAI_DNS_RESIDENT_H

#include <linux/poll.h>
#include <linux/types.h>

struct file;
struct net;
struct path;
struct rai_dns_answer;
struct rai_file;
struct rai_request;
struct rai_resident;
struct rdma_addrinfo_resolver_name;
struct rdma_addrinfo_resolver_register;

/*
 * The file operations of a resolver's file (kernel/device.c); the ioctls
 * are kernel/dns_resident_ioctl.c's.
 */
long rai_resident_ioctl(struct rai_file *file, struct file *filp,
			unsigned int cmd, void __user *arg);
__poll_t rai_resident_poll(struct rai_file *file, struct file *filp,
			   poll_table *wait);
void rai_resident_release(struct rai_file *file);

/* For the DNS backend (kernel/dns.c). */
struct rai_resident *rai_resident_find(const struct rai_request *req,
				       const struct path *root);
void rai_resident_put(struct rai_resident *r);
u32 rai_resident_nr_in(const struct net *net);
u64 rai_resident_view(const struct rai_resident *r);
bool rai_resident_submit(struct rai_resident *r, struct rai_request *req);
void rai_resident_refresh(struct rai_resident *r,
			  const struct rai_request *req);

/* For the resolver's ioctls (kernel/dns_resident_ioctl.c). */
void rai_resident_terms(struct rdma_addrinfo_resolver_register *reg);
int rai_resident_create(struct rai_file *file);
u32 rai_resident_take_names(struct rai_resident *r,
			    struct rdma_addrinfo_resolver_name *out, u32 max);
int rai_resident_wait_names(struct rai_resident *r);
bool rai_resident_names_wait(struct rai_resident *r);
void rai_resident_pass_wake(struct rai_resident *r);
void rai_resident_untake(struct rai_resident *r,
			 const struct rdma_addrinfo_resolver_name *out, u32 nr);
struct net *rai_resident_net(const struct rai_resident *r);
int rai_resident_answered(struct rai_resident *r, u64 id,
			  const struct rai_dns_answer *answer);

int rai_resident_init(void (*fallback)(struct rai_request *req));
void rai_resident_exit(void);

#endif /* _RAI_DNS_RESIDENT_H */
