/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: resident resolvers, the DNS source that needs no process
 * per name (kernel/dns_resident.c).
 */
#ifndef _RAI_DNS_RESIDENT_H
#define _RAI_DNS_RESIDENT_H

#include <linux/poll.h>
#include <linux/types.h>

struct file;
struct rai_file;
struct rai_request;
struct rai_resident;

/* The file operations of a resolver's file (kernel/device.c). */
long rai_resident_ioctl(struct rai_file *file, struct file *filp,
			unsigned int cmd, void __user *arg);
__poll_t rai_resident_poll(struct rai_file *file, struct file *filp,
			   poll_table *wait);
void rai_resident_release(struct rai_file *file);

/* For the DNS backend (kernel/dns.c). */
struct rai_resident *rai_resident_find(const struct rai_request *req);
void rai_resident_put(struct rai_resident *r);
u64 rai_resident_view(const struct rai_resident *r);
bool rai_resident_submit(struct rai_resident *r, struct rai_request *req);
void rai_resident_refresh(struct rai_resident *r,
			  const struct rai_request *req);

int rai_resident_init(void (*fallback)(struct rai_request *req));
void rai_resident_exit(void);

#endif /* _RAI_DNS_RESIDENT_H */
