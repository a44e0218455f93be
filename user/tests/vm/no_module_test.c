// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Without the rdma_addrinfo module the library is librdmacm: every call
 * returns what librdmacm's own returns, one syslog line (never stderr)
 * says that names are resolved in user space, and rdma_resolve_addrinfo /
 * rdma_query_addrinfo are librdmacm's where it has them (rdma-core 60+).
 * RDMA_ADDRINFO_REQUIRE_MODULE=1 makes the calls fail with ENODEV instead,
 * said once on stderr.  A call that succeeds leaves errno as librdmacm's
 * leaves it: not ENODEV from the device the library could not open.
 *
 * The module is unloaded for each test and loaded again afterwards; where
 * it cannot be (the forky root has no rmmod) the tests run only if it is
 * absent already (make check's 7.3 phase unloads it for them).
 */
#include "kselftest_harness.h"
#include "vm_test.h"
#include "as_librdmacm.h"

FIXTURE(no_module) {
	int reload;
};

FIXTURE_SETUP(no_module)
{
	unsetenv("RDMA_ADDRINFO_REQUIRE_MODULE");
	if (!access(RAI_DEVICE, F_OK))
		self->reload = !rai_module_set_loaded(0);
	if (!access(RAI_DEVICE, F_OK))
		SKIP(return, "the module could not be unloaded");
}

FIXTURE_TEARDOWN(no_module)
{
	if (self->reload)
		rai_module_set_loaded(1);
}

TEST_F(no_module, getaddrinfo_returns_what_librdmacm_returns)
{
	RAI_RETURN_IF_SKIPPED();

	getaddrinfo_cases_as_librdmacm(_metadata);
}

TEST_F(no_module, said_once_in_syslog_and_never_on_stderr)
{
	RAI_RETURN_IF_SKIPPED();

	said_once_in_syslog_only(_metadata, two_calls);
}

TEST_F(no_module, require_module_1_fails_with_enodev_said_once_on_stderr)
{
	RAI_RETURN_IF_SKIPPED();

	required_module_enodev(_metadata, two_calls_module_required);
}

/*
 * librdmacm 60+ has its own rdma_resolve_addrinfo: without the module it
 * serves the call.  Older ones have none, and the call fails with ENODEV.
 */
TEST_F(no_module, resolve_addrinfo_is_librdmacm_s_own_where_it_has_one)
{
	RAI_RETURN_IF_SKIPPED();

	resolve_addrinfo_as_librdmacm(_metadata);
}

TEST_F(no_module, require_module_1_resolve_addrinfo_fails_with_enodev)
{
	RAI_RETURN_IF_SKIPPED();

	required_module_resolve_enodev(_metadata);
}

/* Issue 26 item 8: errno was left at ENODEV after success. */
TEST_F_TIMEOUT(no_module, errno_after_success_is_as_librdmacm_leaves_it, 120)
{
	RAI_RETURN_IF_SKIPPED();

	errno_after_success_as_librdmacm(_metadata);
}

TEST_HARNESS_MAIN
