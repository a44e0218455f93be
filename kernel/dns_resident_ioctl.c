// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the ioctls of a resident resolver's file.
 *
 * RESOLVER_REGISTER, RESOLVER_TAKE and RESOLVER_ANSWER (the uapi header
 * has the records): what a resolver may ask and say, checked here, and
 * the copies to and from user space.  The resolver itself, its names and
 * their deadlines are kernel/dns_resident.c's: registering asks it to
 * create one (rai_resident_create()), TAKE takes names from it, ANSWER
 * hands it each answer, checked and parsed by the strict parser
 * (kernel/dns_answer.c).
 *
 * RESOLVER_REGISTER needs CAP_NET_ADMIN over the file's network namespace
 * in the opener's credentials and in the caller's: a passed descriptor
 * gains nothing, and a process that dropped its privileges after opening
 * cannot register with it (the view registered is the caller's).
 *
 * Locking: none of its own.  A file's resolver is set once and cleared
 * only by release, so no ioctl runs on a resolver being released; TAKE
 * sleeps on the resolver's wait queue without a lock held.
 */
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "charge.h"
#include "dns_answer.h"
#include "dns_resident.h"
#include "request.h"
#include "stats.h"

/* Names one TAKE hands out at most. */
#define RAI_RESIDENT_TAKE_MAX	256
/* An answer is kept at most this long, whatever its TTL says. */
#define RAI_RESIDENT_TTL_MAX	86400

static long rai_resident_take(struct rai_resident *r, struct file *filp,
			      void __user *arg)
{
	struct rdma_addrinfo_resolver_name *out = NULL;
	struct rdma_addrinfo_resolver_take t;
	long ret = 0;
	u32 max, nr;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	if (t.reserved || !t.count || t.name_size != sizeof(*out))
		return -EINVAL;
	max = min_t(u32, t.count, RAI_RESIDENT_TAKE_MAX);
	/*
	 * The buffer (up to 68 KiB) once names wait, not for the sleep: a
	 * thread blocked in TAKE holds no memory.
	 */
	for (;;) {
		if (!rai_resident_names_wait(r)) {
			if (filp->f_flags & O_NONBLOCK) {
				ret = -EAGAIN;
				goto out;
			}
			ret = rai_resident_wait_names(r);
			if (ret)
				goto out;
		}
		/* Zeroed: the bytes after each name are copied out too. */
		if (!out)
			out = kvcalloc(max, sizeof(*out), RAI_GFP_CALLER);
		if (!out) {
			/* Woken for names it cannot take: the next waiter. */
			rai_resident_pass_wake(r);
			return -ENOMEM;
		}
		nr = rai_resident_take_names(r, out, max);
		if (nr)
			break;
	}
	t.taken = nr;
	if (copy_to_user(u64_to_user_ptr(t.names), out,
			 (size_t)nr * sizeof(*out)) ||
	    copy_to_user(arg, &t, sizeof(t))) {
		rai_resident_untake(r, out, nr);
		ret = -EFAULT;
		goto out;
	}
	atomic64_add(nr, &rai_stats[RAI_STAT_RESOLVER_NAMES]);
out:
	kvfree(out);
	return ret;
}

/* Is @a a well-formed answer?  Its list is parsed afterwards. */
static bool rai_resident_answer_ok(const struct rdma_addrinfo_resolver_answer *a)
{
	if (!a->error)
		return memchr(a->addrs, '\0', sizeof(a->addrs));
	return rdma_addrinfo_resolver_error(a->error);
}

/* One answer of RESOLVER_ANSWER, counted in @out. */
static void rai_resident_answer_one(struct rai_resident *r,
				    const struct rdma_addrinfo_resolver_answer *a,
				    struct rdma_addrinfo_resolver_answers *out)
{
	struct rai_dns_answer answer = {
		.origin = RDMA_ADDRINFO_ORIGIN_DNS,
		.expiry = ktime_get_real_seconds() +
			  min_t(u32, a->ttl, RAI_RESIDENT_TTL_MAX),
	};

	if (!rai_resident_answer_ok(a))
		answer.status = -EPROTO;
	else if (a->error)
		answer.status = -a->error;
	else
		rai_dns_answer_parse(&answer, rai_resident_net(r), a->addrs,
				     true);

	switch (rai_resident_answered(r, a->id, &answer)) {
	case -ENOENT:
		out->stale++;
		break;
	case -EPROTO:
		out->malformed++;
		break;
	}
	rai_dns_answer_release(&answer);
}

static long rai_resident_answer(struct rai_resident *r, void __user *arg)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_resolver_answer *a;
	const char __user *p;
	long ret = 0;

	if (copy_from_user(&out, arg, sizeof(out)))
		return -EFAULT;
	if (out.reserved || out.answer_size != sizeof(*a))
		return -EINVAL;
	a = kmalloc(sizeof(*a), RAI_GFP_CALLER);
	if (!a)
		return -ENOMEM;
	out.done = 0;
	out.stale = 0;
	out.malformed = 0;
	p = u64_to_user_ptr(out.answers);
	while (out.done < out.count) {
		if (copy_from_user(a, p + (size_t)out.done * sizeof(*a),
				   sizeof(*a))) {
			ret = -EFAULT;
			break;
		}
		rai_resident_answer_one(r, a, &out);
		out.done++;
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	kfree(a);
	if (copy_to_user(arg, &out, sizeof(out)))
		return -EFAULT;
	return ret;
}

static long rai_resident_register(struct rai_file *file, struct file *filp,
				  void __user *arg)
{
	struct rdma_addrinfo_resolver_register reg;

	if (copy_from_user(&reg, arg, sizeof(reg)))
		return -EFAULT;
	if (reg.flags || reg.reserved)
		return -EINVAL;
	/*
	 * The opener's credentials (a passed descriptor gains nothing) and
	 * the caller's (whose view is registered, and who may have dropped
	 * its privileges since it opened).
	 */
	if (!file_ns_capable(filp, file->net->user_ns, CAP_NET_ADMIN) ||
	    !ns_capable(file->net->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	if (READ_ONCE(file->dns.resident))
		return -EBUSY;
	rai_resident_terms(&reg);
	/* Said before anything is registered: a fault leaves nothing. */
	if (copy_to_user(arg, &reg, sizeof(reg)))
		return -EFAULT;
	return rai_resident_create(file);
}

/**
 * rai_resident_ioctl - RESOLVER_REGISTER, RESOLVER_TAKE, RESOLVER_ANSWER
 * @file: the file
 * @filp: its struct file (flags, the opener's credentials)
 * @cmd: the command
 * @arg: its user argument
 *
 * Return: the ioctl's result; -EINVAL for TAKE or ANSWER on a file that
 * is no resolver.
 */
long rai_resident_ioctl(struct rai_file *file, struct file *filp,
			unsigned int cmd, void __user *arg)
{
	struct rai_resident *r;

	if (cmd == RDMA_ADDRINFO_IOC_RESOLVER_REGISTER)
		return rai_resident_register(file, filp, arg);
	/* Set once, cleared only by release: no other call is running. */
	r = READ_ONCE(file->dns.resident);
	if (!r)
		return -EINVAL;
	if (cmd == RDMA_ADDRINFO_IOC_RESOLVER_TAKE)
		return rai_resident_take(r, filp, arg);
	return rai_resident_answer(r, arg);
}
