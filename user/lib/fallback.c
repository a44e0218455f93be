// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Names the module refuses for the caller's view: a process in a container
 * (another network namespace, or another /etc/hosts, resolv.conf or
 * nsswitch.conf than the host's) with no resolver registered for its view
 * gets -EPERM for every DNS name, since the kernel's upcall would answer
 * from the host's view.  librdmacm answers such a name from the
 * container's own view, in the caller's process: so does this library, by
 * calling librdmacm's own rdma_getaddrinfo() with the caller's arguments,
 * said once in syslog.  librdmacm's answer is final: a name it cannot
 * resolve either fails with its error, and nothing is asked again.
 *
 * rdma_getaddrinfo() makes the call itself (getaddrinfo.c), as do the
 * synchronous ids (id.c).  The requests of ids with an event channel are
 * resolved by a few worker threads, so that no caller and no event waiter
 * waits for another's lookup; id.c then delivers the outcome through the
 * module, as every other event.  The workers run while there is work and
 * exit when none is left.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "fallback.h"
#include "id.h"
#include "real.h"
#include "registry.h"
#include "status.h"

/* Lookups at once: one slow name (a dead DNS server) holds up no other. */
#define RAI_FALLBACK_WORKERS	4

/* Under rai_registry_lock. */
static struct rai_fallback *rai_fallback_head, **rai_fallback_tail =
	&rai_fallback_head;
static int rai_fallback_workers;
static int rai_fallback_stopping;	/* library unload */
static pthread_cond_t rai_fallback_idle = PTHREAD_COND_INITIALIZER;

/* Said once per process, in syslog as the library's other notices. */
void rai_fallback_say(void)
{
	static int said;

	if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		return;
	syslog(LOG_USER | LOG_NOTICE,
	       "librdma_addrinfo: the rdma_addrinfo module refused DNS names from this container's view (no resolver of its own): they are resolved in user space by librdmacm, in this process");
}

/**
 * rai_fallback_new - a fallback for @id's request @req
 *
 * Return: the new fallback, or NULL (no memory).
 */
struct rai_fallback *rai_fallback_new(struct rdma_cm_id *id,
				      const struct rai_request *req)
{
	const struct rdma_addrinfo_resolve *cmd = &req->cmd;
	struct rai_fallback *fb = calloc(1, sizeof(*fb));

	if (!fb)
		return NULL;
	fb->id = id;
	memcpy(fb->node, (const void *)(uintptr_t)cmd->node, cmd->node_len);
	if (cmd->service_len)
		memcpy(fb->mapped_service,
		       (const void *)(uintptr_t)cmd->service, cmd->service_len);
	fb->caller = req->caller;
	return fb;
}

/* librdmacm's answer for @fb, in @fb (no lock held). */
void rai_fallback_run(struct rai_fallback *fb)
{
	const struct rai_caller_args *a = &fb->caller;
	struct rdma_addrinfo hints = {
		.ai_flags = a->flags,
		.ai_family = a->family,
		.ai_qp_type = a->qp_type,
		.ai_port_space = a->port_space,
	};
	const char *service = a->has_service ? a->service :
			      fb->mapped_service[0] ? fb->mapped_service : NULL;
	int saved_errno = errno, eai;

	if (a->src_len) {
		hints.ai_src_addr = (struct sockaddr *)a->src;
		hints.ai_src_len = a->src_len;
	}
	rai_fallback_say();
	errno = 0;
	eai = rai_real()->getaddrinfo(fb->node, service,
				      a->has_hints ? &hints : NULL, &fb->list);
	if (eai) {
		fb->list = NULL;
		fb->status = rai_status_from_eai(eai, errno);
	}
	errno = saved_errno;
}

static void *rai_fallback_main(void *unused)
{
	struct rai_fallback *fb;

	(void)unused;
	rai_lock_raw();
	while (!rai_fallback_stopping && (fb = rai_fallback_head)) {
		rai_fallback_head = fb->next;
		if (!rai_fallback_head)
			rai_fallback_tail = &rai_fallback_head;
		fb->taken = 1;
		if (!fb->cancelled) {
			rai_unlock_raw();
			rai_fallback_run(fb);
			rai_lock_raw();
		}
		rai_id_fallback_done(fb);
	}
	if (!--rai_fallback_workers)
		pthread_cond_broadcast(&rai_fallback_idle);
	rai_unlock_raw();
	return NULL;
}

/* One more worker, if there is room.  Return: 0, or -1 when none runs. */
static int rai_fallback_worker(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t t;
	int ret;

	if (rai_fallback_workers >= RAI_FALLBACK_WORKERS)
		return 0;
	if (pthread_attr_init(&attr))
		return rai_fallback_workers ? 0 : -1;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Signals are the application's: none for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&t, &attr, rai_fallback_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (!ret)
		rai_fallback_workers++;
	return rai_fallback_workers ? 0 : -1;
}

/*
 * fork(): the child has no workers.  Fallbacks queued in the parent are
 * for ids of the parent's channels, whose events the child never reads
 * (registry.c): they stay with their ids, unqueued.
 */
static void rai_fallback_child(void)
{
	struct rai_fallback *fb;

	rai_lock_raw();
	/* Not queued any more: cancelling their ids frees them. */
	for (fb = rai_fallback_head; fb; fb = fb->next)
		fb->queued = 0;
	rai_fallback_head = NULL;
	rai_fallback_tail = &rai_fallback_head;
	rai_fallback_workers = 0;
	pthread_cond_init(&rai_fallback_idle, NULL);
	rai_unlock_raw();
}

static void rai_fallback_init(void)
{
	pthread_atfork(NULL, NULL, rai_fallback_child);
}

/**
 * rai_fallback_queue - have a worker resolve @fb and hand it to
 * rai_id_fallback_done() (registry locked)
 *
 * Return: 0, or -1 when no worker could be started (@fb not queued).
 */
int rai_fallback_queue(struct rai_fallback *fb)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	rai_assert_locked();
	pthread_once(&once, rai_fallback_init);
	if (rai_fallback_worker())
		return -1;
	fb->next = NULL;
	fb->queued = 1;
	*rai_fallback_tail = fb;
	rai_fallback_tail = &fb->next;
	return 0;
}

/*
 * Library unload (or exit): the workers finish the lookup they are in and
 * stop; none runs this library's code once it is gone.
 */
__attribute__((destructor)) static void rai_fallback_fini(void)
{
	rai_lock_raw();
	rai_fallback_stopping = 1;
	while (rai_fallback_workers)
		pthread_cond_wait(&rai_fallback_idle, &rai_registry_lock);
	rai_unlock_raw();
}
