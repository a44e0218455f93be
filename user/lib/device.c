// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The module's device file: opening it (and saying once what happens when
 * the module is missing), copying a request's results (and canonical name)
 * out, destroying a request.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "device.h"
#include "err.h"

#define RAI_DEVICE_PATH "/dev/" RDMA_ADDRINFO_DEVNAME

/* RDMA_ADDRINFO_REQUIRE_MODULE=1: fail with ENODEV without the module */
static int rai_module_required(void)
{
	const char *v = getenv("RDMA_ADDRINFO_REQUIRE_MODULE");

	return v && !strcmp(v, "1");
}

/*
 * Said once per process: on stderr when the module is required (the
 * calls fail), else in syslog, so that a program's own output stays what
 * it is with librdmacm alone.
 */
static void rai_report_no_module(const char *why)
{
	static int reported;

	if (__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		return;
	if (rai_module_required())
		fprintf(stderr, "librdma_addrinfo: %s: %s: the rdma_addrinfo kernel module is required (RDMA_ADDRINFO_REQUIRE_MODULE=1; modprobe rdma_addrinfo)\n",
			RAI_DEVICE_PATH, why);
	else
		syslog(LOG_USER | LOG_NOTICE,
		       "librdma_addrinfo: %s: %s: names are resolved in user space by librdmacm (modprobe rdma_addrinfo to resolve them in the kernel)",
		       RAI_DEVICE_PATH, why);
}

/**
 * rai_user_space - whether a failed open of the device means "librdmacm's
 * own calls instead"
 * @err: errno of rai_open_device()
 *
 * Return: 1 when the module is absent, speaks another ABI or its device
 * may not be opened (ENODEV, rai_open_device()) and
 * RDMA_ADDRINFO_REQUIRE_MODULE=1 is not set.
 */
int rai_user_space(int err)
{
	return err == ENODEV && !rai_module_required();
}

/**
 * rai_module_present - whether the module's device file exists
 *
 * Looked at without opening it: for callers that open nothing at all
 * without the module, as librdmacm alone would not.
 */
int rai_module_present(void)
{
	int saved_errno = errno, ret = !access(RAI_DEVICE_PATH, F_OK);

	errno = saved_errno;
	return ret;
}

/* What GET_INFO said of the one-call synchronous RESOLVE (0: absent). */
static unsigned int rai_results_max;

/**
 * rai_sync_results_max - results the one-call synchronous RESOLVE can
 * return (RDMA_ADDRINFO_RESOLVE_RESULTS, sized by info.max_results)
 *
 * Return: 0 when the module does not offer it (or no fd was opened yet).
 */
unsigned int rai_sync_results_max(void)
{
	return __atomic_load_n(&rai_results_max, __ATOMIC_RELAXED);
}

/* What every call needs of the module: literals and DNS names. */
#define RAI_FEATURES_NEEDED	(RDMA_ADDRINFO_FEATURE_NUMERIC | \
				 RDMA_ADDRINFO_FEATURE_DNS)

/* Does the module report canonical names (FEATURE_CANONNAME)? */
static int rai_canonname_ok;

/* Whether the module last opened reports canonical names. */
int rai_module_canonname(void)
{
	return __atomic_load_n(&rai_canonname_ok, __ATOMIC_RELAXED);
}

/*
 * The name of a record the module wrote (struct rdma_addrinfo_canonname),
 * malloc'ed; NULL when it has none, is not well formed, or no memory.
 */
char *rai_canonname_take(const struct rdma_addrinfo_canonname *c)
{
	if (!c->len || c->len > RDMA_ADDRINFO_NAME_MAX || c->name[c->len] ||
	    memchr(c->name, '\0', c->len))
		return NULL;
	return strdup(c->name);
}

/*
 * The module must speak our ABI and resolve what librdmacm resolves; else
 * the fd is closed and it counts as absent (ENODEV).
 */
static int rai_check_abi(int fd)
{
	struct rdma_addrinfo_info info;
	unsigned int max = 0;
	char why[64];

	memset(&info, 0, sizeof(info));
	/* A module from before the struct grew knows its first 64 bytes. */
	if (ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, &info) &&
	    (errno != ENOTTY ||
	     ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO_V1, &info))) {
		snprintf(why, sizeof(why), "GET_INFO: %s: module too old",
			 strerror(errno));
	} else if (info.abi_version != RDMA_ADDRINFO_ABI_VERSION) {
		snprintf(why, sizeof(why), "module ABI %u, library ABI %u",
			 info.abi_version, RDMA_ADDRINFO_ABI_VERSION);
	} else if ((info.features & RAI_FEATURES_NEEDED) !=
		   RAI_FEATURES_NEEDED) {
		snprintf(why, sizeof(why), "module features %#x, need %#x",
			 info.features, RAI_FEATURES_NEEDED);
	} else {
		if ((info.resolve_flags_supported &
		     RDMA_ADDRINFO_RESOLVE_RESULTS) &&
		    info.result_size == sizeof(struct rdma_addrinfo_result))
			max = info.max_results;
		__atomic_store_n(&rai_results_max, max, __ATOMIC_RELAXED);
		__atomic_store_n(&rai_canonname_ok,
				 !!(info.features &
				    RDMA_ADDRINFO_FEATURE_CANONNAME),
				 __ATOMIC_RELAXED);
		return fd;
	}
	rai_report_no_module(why);
	close(fd);
	return ERR(ENODEV);
}

/*
 * An open that failed for want of a resource (descriptors, memory) or a
 * signal: the caller hears of it, and the next call opens again.  Every
 * other failure means the device is not this process's to use: absent
 * (ENOENT, ENXIO, ENODEV), or refused (EACCES, or EPERM from a
 * container's device rules), and it is librdmacm's call instead.
 */
static int rai_open_transient(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM ||
	       err == EINTR || err == EAGAIN;
}

/**
 * rai_open_device - open /dev/infiniband/rdma_addrinfo
 * @nonblock: open it O_NONBLOCK (event channels)
 *
 * Return: the fd, or -1 with errno set: ENODEV when the module is not
 * loaded, speaks another ABI or the device may not be opened (each said
 * once per process, see rai_report_no_module()).
 */
int rai_open_device(int nonblock)
{
	int fd = open(RAI_DEVICE_PATH,
		      O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
	int err;

	if (fd >= 0)
		return rai_check_abi(fd);
	err = errno;
	if (!rai_open_transient(err)) {
		rai_report_no_module(strerror(err));
		/* A device refused: the reason, when the module is required */
		if (!rai_module_required() || err == ENOENT || err == ENXIO)
			err = ENODEV;
	}
	return ERR(err);
}

/**
 * rai_fetch_results - copy out every result of a completed request
 * @fd: the request's file
 * @handle: the request
 * @results: its results (NULL when there are none; free() it otherwise)
 * @n: their number
 * @canonname: its canonical name (free() it), NULL when it has none or
 *	the module does not report them
 *
 * Return: 0 or -1 with errno set.
 */
int rai_fetch_results(int fd, __u32 handle,
		      struct rdma_addrinfo_result **results, unsigned int *n,
		      char **canonname)
{
	struct rdma_addrinfo_query q = {
		.handle = handle,
		.result_size = sizeof(struct rdma_addrinfo_result),
	};
	struct rdma_addrinfo_result *r;

	_Static_assert(sizeof(struct rdma_addrinfo_canonname) <=
		       sizeof(struct rdma_addrinfo_result),
		       "the canonical name fits in one result's room");
	*canonname = NULL;
	if (ioctl(fd, RDMA_ADDRINFO_IOC_QUERY, &q))
		return -1;
	*results = NULL;
	*n = 0;
	if (!q.total)
		return 0;

	/* One more entry: room for the canonical name after the results. */
	r = calloc(q.total + 1, sizeof(*r));
	if (!r)
		return -1;
	q.results = (uintptr_t)r;
	q.count = q.total;
	if (rai_module_canonname())
		q.flags = RDMA_ADDRINFO_QUERY_CANONNAME;
	if (ioctl(fd, RDMA_ADDRINFO_IOC_QUERY, &q)) {
		free(r);
		return -1;
	}
	if (q.flags)
		*canonname = rai_canonname_take((const void *)&r[q.count]);
	*results = r;
	*n = q.copied;
	return 0;
}

/* Cancel (if in flight) and free a request; after this no event comes. */
void rai_destroy_request(int fd, __u32 handle)
{
	struct rdma_addrinfo_destroy d = { .handle = handle };
	int saved = errno;

	ioctl(fd, RDMA_ADDRINFO_IOC_DESTROY, &d);
	errno = saved;
}
