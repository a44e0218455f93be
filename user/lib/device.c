// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The module's device file: opening it (and saying clearly when the module
 * is missing), copying a request's results out, destroying a request.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "device.h"

#define RAI_DEVICE_PATH "/dev/" RDMA_ADDRINFO_DEVNAME

/* RDMA_ADDRINFO_FALLBACK=1: resolve with librdmacm when the module is absent */
int rai_fallback_enabled(void)
{
	const char *v = getenv("RDMA_ADDRINFO_FALLBACK");

	return v && !strcmp(v, "1");
}

static void rai_report_missing_module(int err)
{
	static int reported;

	if (__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		return;
	fprintf(stderr,
		"librdma_addrinfo: %s: %s: is the rdma_addrinfo kernel module loaded? (modprobe rdma_addrinfo)\n",
		RAI_DEVICE_PATH, strerror(err));
}

static void rai_report_abi_mismatch(int err, __u32 abi)
{
	static int reported;

	if (__atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		return;
	if (err)
		fprintf(stderr, "librdma_addrinfo: %s: GET_INFO: %s: the rdma_addrinfo module is too old for this library\n",
			RAI_DEVICE_PATH, strerror(err));
	else
		fprintf(stderr, "librdma_addrinfo: %s: the rdma_addrinfo module has ABI %u, this library needs %u\n",
			RAI_DEVICE_PATH, abi, RDMA_ADDRINFO_ABI_VERSION);
}

/* The module must speak our ABI; else the fd is closed (EPROTONOSUPPORT). */
static int rai_check_abi(int fd)
{
	struct rdma_addrinfo_info info;
	int err = 0;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, &info))
		err = errno;
	if (!err && info.abi_version == RDMA_ADDRINFO_ABI_VERSION)
		return fd;
	rai_report_abi_mismatch(err, info.abi_version);
	close(fd);
	errno = EPROTONOSUPPORT;
	return -1;
}

/**
 * rai_open_device - open /dev/infiniband/rdma_addrinfo
 * @nonblock: open it O_NONBLOCK (event channels)
 *
 * Return: the fd, or -1 with errno set; ENODEV when the module is not
 * loaded, reported once per process on stderr unless the librdmacm
 * fallback is enabled; EPROTONOSUPPORT when it speaks another ABI.
 */
int rai_open_device(int nonblock)
{
	int fd = open(RAI_DEVICE_PATH,
		      O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
	int err;

	if (fd >= 0)
		return rai_check_abi(fd);
	err = errno;
	if (err == ENOENT || err == ENXIO || err == ENODEV) {
		if (!rai_fallback_enabled())
			rai_report_missing_module(err);
		err = ENODEV;
	}
	errno = err;
	return -1;
}

/**
 * rai_fetch_results - copy out every result of a completed request
 *
 * Return: 0 (*@results is NULL when there are none; free() it otherwise)
 * or -1 with errno set.
 */
int rai_fetch_results(int fd, __u32 handle,
		      struct rdma_addrinfo_result **results, unsigned int *n)
{
	struct rdma_addrinfo_query q = {
		.handle = handle,
		.result_size = sizeof(struct rdma_addrinfo_result),
	};
	struct rdma_addrinfo_result *r;

	if (ioctl(fd, RDMA_ADDRINFO_IOC_QUERY, &q))
		return -1;
	*results = NULL;
	*n = 0;
	if (!q.total)
		return 0;

	r = calloc(q.total, sizeof(*r));
	if (!r)
		return -1;
	q.results = (uintptr_t)r;
	q.count = q.total;
	if (ioctl(fd, RDMA_ADDRINFO_IOC_QUERY, &q)) {
		free(r);
		return -1;
	}
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
