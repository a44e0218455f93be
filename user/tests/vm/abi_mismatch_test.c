// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A module that speaks an ABI the library does not is no module to it
 * (librdma_addrinfo(7)): every call is librdmacm's, one syslog line says
 * so, and RDMA_ADDRINFO_REQUIRE_MODULE=1 makes the calls fail with ENODEV.
 *
 * The module stays loaded and real; this program's own ioctl(), which
 * the library's calls reach before libc's (an executable's symbols come
 * first), changes what RDMA_ADDRINFO_IOC_GET_INFO reports: another ABI
 * version, no DNS backend, or no GET_INFO at all (a module that predates
 * it).  No hook in the product is needed.
 */
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "kselftest_harness.h"
#include "vm_test.h"
#include "as_librdmacm.h"

#define RAI_DEVICE "/dev/infiniband/rdma_addrinfo"

/* What GET_INFO answers in this process. */
enum get_info_answer {
	GET_INFO_AS_IS,
	GET_INFO_NEXT_ABI,	/* abi_version + 1 */
	GET_INFO_NO_DNS,	/* features without RDMA_ADDRINFO_FEATURE_DNS */
	GET_INFO_ENOTTY,	/* a module that has no GET_INFO */
};

static enum get_info_answer get_info_answer;
/* GET_INFO answers changed, by the test's process and its children. */
static int *get_info_changed;

typedef int (*ioctl_fn)(int fd, unsigned long request, ...);

int ioctl(int fd, unsigned long request, ...)
{
	static ioctl_fn libc_ioctl;
	struct rdma_addrinfo_info *info;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!libc_ioctl)
		libc_ioctl = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	/* Both sizes: a module that fails one fails the other. */
	if ((request != RDMA_ADDRINFO_IOC_GET_INFO &&
	     request != RDMA_ADDRINFO_IOC_GET_INFO_V1) ||
	    get_info_answer == GET_INFO_AS_IS)
		return libc_ioctl(fd, request, arg);
	__atomic_add_fetch(get_info_changed, 1, __ATOMIC_RELAXED);
	if (get_info_answer == GET_INFO_ENOTTY) {
		errno = ENOTTY;
		return -1;
	}
	ret = libc_ioctl(fd, request, arg);
	info = arg;
	if (!ret && get_info_answer == GET_INFO_NEXT_ABI)
		info->abi_version++;
	if (!ret && get_info_answer == GET_INFO_NO_DNS)
		info->features &= ~RDMA_ADDRINFO_FEATURE_DNS;
	return ret;
}

FIXTURE(abi) {
	int unused;
};

FIXTURE_VARIANT(abi) {
	enum get_info_answer answer;
};

FIXTURE_VARIANT_ADD(abi, other_abi_version) {
	.answer = GET_INFO_NEXT_ABI,
};

FIXTURE_VARIANT_ADD(abi, no_dns_backend) {
	.answer = GET_INFO_NO_DNS,
};

FIXTURE_VARIANT_ADD(abi, no_get_info) {
	.answer = GET_INFO_ENOTTY,
};

FIXTURE_SETUP(abi)
{
	unsetenv("RDMA_ADDRINFO_REQUIRE_MODULE");
	if (access(RAI_DEVICE, F_OK))
		SKIP(return, "the module is not loaded");
	get_info_changed = mmap(NULL, sizeof(*get_info_changed),
				PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, get_info_changed);
	get_info_answer = variant->answer;
}

FIXTURE_TEARDOWN(abi)
{
	/* The library asked, in this test's process or its child. */
	if (!_metadata->skip)
		EXPECT_LT(0, *get_info_changed);
}

TEST_F(abi, getaddrinfo_returns_what_librdmacm_returns)
{
	RAI_RETURN_IF_SKIPPED();

	getaddrinfo_cases_as_librdmacm(_metadata);
}

/* Both fds the library opens, the process-wide one and a channel's. */
static void sync_and_channel_calls(void)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;

	two_calls();
	ch = rdma_create_event_channel();
	if (!ch)
		return;
	if (!rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		rdma_resolve_addrinfo(id, RAI_IP4_B, "4791", NULL);
		rdma_destroy_id(id);
	}
	rdma_destroy_event_channel(ch);
}

static void sync_and_channel_calls_module_required(void)
{
	setenv("RDMA_ADDRINFO_REQUIRE_MODULE", "1", 1);
	sync_and_channel_calls();
}

TEST_F(abi, said_once_in_syslog_and_never_on_stderr)
{
	RAI_RETURN_IF_SKIPPED();

	said_once_in_syslog_only(_metadata, sync_and_channel_calls);
}

TEST_F(abi, require_module_1_fails_with_enodev_said_once_on_stderr)
{
	RAI_RETURN_IF_SKIPPED();

	required_module_enodev(_metadata,
			       sync_and_channel_calls_module_required);
}

TEST_F(abi, resolve_addrinfo_is_librdmacm_s_own_where_it_has_one)
{
	RAI_RETURN_IF_SKIPPED();

	resolve_addrinfo_as_librdmacm(_metadata);
}

TEST_F(abi, require_module_1_resolve_addrinfo_fails_with_enodev)
{
	RAI_RETURN_IF_SKIPPED();

	required_module_resolve_enodev(_metadata);
}

TEST_F_TIMEOUT(abi, errno_after_success_is_as_librdmacm_leaves_it, 120)
{
	RAI_RETURN_IF_SKIPPED();

	errno_after_success_as_librdmacm(_metadata);
}

TEST_HARNESS_MAIN
