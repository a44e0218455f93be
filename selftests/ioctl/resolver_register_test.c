// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The resident resolver (issue 25): GET_INFO's feature bit and
 * RESOLVER_REGISTER: its validation errors, who may register
 * (CAP_NET_ADMIN of the opener, one per namespace and view) and what a
 * registration reports.  The test plays the resolver: see resolver_test.h.
 */
#include "resolver_test.h"

/* ---- GET_INFO and REGISTER -------------------------------------------- */

TEST(info_features_has_resolver)
{
	struct rdma_addrinfo_info info;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rai_get_info(fd, &info));
	EXPECT_NE(0, info.features & RDMA_ADDRINFO_FEATURE_RESOLVER)
		TH_LOG("features 0x%x", info.features);
	/* Its answers may carry canonical names ("canon=NAME"). */
	EXPECT_NE(0, info.features & RDMA_ADDRINFO_FEATURE_CANONNAME)
		TH_LOG("features 0x%x", info.features);
	close(fd);
}

/*
 * On a new file, REGISTER with @flags and @reserved as given: its result;
 * *then: a plain REGISTER on the same file right after it.
 */
static int rvt_register_fields(__u32 flags, __u32 reserved, int *then)
{
	struct rdma_addrinfo_resolver_register reg = {
		.flags = flags, .reserved = reserved,
	};
	int fd = rai_dev_open(0), ret;

	if (fd < 0)
		return fd;
	ret = rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, &reg);
	*then = rvt_register(fd, &reg);
	close(fd);
	return ret;
}

/* Refused, not registered: the same file registers right after. */
TEST(register_flags_nonzero_einval)
{
	int then = 1;

	EXPECT_EQ(-EINVAL, rvt_register_fields(1, 0, &then));
	EXPECT_EQ(0, then);
	EXPECT_EQ(-EINVAL, rvt_register_fields(0x80000000, 0, &then));
	EXPECT_EQ(0, then);
}

TEST(register_reserved_nonzero_einval)
{
	int then = 1;

	EXPECT_EQ(-EINVAL, rvt_register_fields(0, 1, &then));
	EXPECT_EQ(0, then);
}

TEST(register_twice_on_one_file_ebusy)
{
	struct rdma_addrinfo_resolver_register reg;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rvt_register(fd, &reg));
	EXPECT_EQ(-EBUSY, rvt_register(fd, &reg));
	close(fd);
}

TEST(register_second_file_of_the_namespace_ebusy)
{
	struct rdma_addrinfo_resolver_register reg;
	long long r0 = rai_stat("resolver_registered");
	int a = rai_dev_open(0), b = rai_dev_open(0);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, rvt_register(a, &reg));
	EXPECT_EQ(-EBUSY, rvt_register(b, &reg));
	EXPECT_EQ(r0 + 1, rai_stat("resolver_registered"));
	EXPECT_EQ(1, rai_stat("resolvers"));
	close(a);
	close(b);
}

TEST(register_reports_max_outstanding_and_deadline)
{
	struct rdma_addrinfo_resolver_register reg;
	char v[32];
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	memset(&reg, 0xff, sizeof(reg));
	reg.flags = 0;
	reg.reserved = 0;
	ASSERT_EQ(0, rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER,
				   &reg));
	EXPECT_LT(0, reg.max_outstanding);
	EXPECT_NE(0xffffffff, reg.max_outstanding);
	EXPECT_LT(0, reg.deadline_ms);
	EXPECT_NE(0xffffffff, reg.deadline_ms);
	EXPECT_EQ(0, reg.flags);
	EXPECT_EQ(0, reg.reserved);
	if (!rai_param_get("resolver_max_outstanding", v, sizeof(v)))
		EXPECT_EQ(strtoul(v, NULL, 0), reg.max_outstanding);
	if (!rai_param_get("resolver_deadline_ms", v, sizeof(v)))
		EXPECT_EQ(strtoul(v, NULL, 0), reg.deadline_ms);
	close(fd);
}

/* The argument on a read-only page: EFAULT, and no registration left. */
TEST(register_struct_read_only_efault)
{
	struct rdma_addrinfo_resolver_register *reg, ok;
	int fd = rai_dev_open(0), b;

	ASSERT_LE(0, fd);
	reg = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, reg);
	ASSERT_EQ(0, mprotect(reg, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER,
					 reg));
	b = rai_dev_open(0);
	ASSERT_LE(0, b);
	EXPECT_EQ(0, rvt_register(b, &ok))
		TH_LOG("the failed REGISTER left its file registered");
	close(b);
	close(fd);
	munmap(reg, 4096);
}

TEST(register_by_an_opener_without_cap_net_admin_eperm)
{
	struct rdma_addrinfo_resolver_register reg;
	long long r0 = rai_stat("resolver_registered");
	pid_t pid = rai_fork_as(NOBODY);
	int fd, ret;

	ASSERT_LE(0, pid);
	if (!pid) {
		fd = rai_dev_open(0);
		if (fd < 0)
			_exit(2);
		ret = rvt_register(fd, &reg);
		if (ret != -EPERM)
			fprintf(stderr, "# REGISTER as nobody: %d\n", ret);
		_exit(ret == -EPERM ? 0 : 3);
	}
	EXPECT_EQ(0, rai_wait_child(pid));
	EXPECT_EQ(r0, rai_stat("resolver_registered"));
}

/* The fixture's file is the resolver; once it is closed, another may be. */
TEST_F(resolver, register_again_after_the_first_closes)
{
	struct rdma_addrinfo_resolver_register reg;
	long long u0 = rai_stat("resolver_unregistered");
	int b = rai_dev_open(0);

	ASSERT_LE(0, b);
	ASSERT_EQ(-EBUSY, rvt_register(b, &reg));
	close(self->rfd);
	self->rfd = -1;
	EXPECT_EQ(u0 + 1, rai_stat("resolver_unregistered"));
	EXPECT_EQ(0, rai_stat("resolvers"));
	EXPECT_EQ(0, rvt_register(b, &reg));
	EXPECT_EQ(1, rai_stat("resolvers"));
	close(b);
	EXPECT_EQ(0, rai_stat("resolvers"));
}

TEST_HARNESS_MAIN
