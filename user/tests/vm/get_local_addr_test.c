// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* rdma_get_local_addr(3) in the VM: one test per man-page statement. */
#include <dlfcn.h>

#include "kselftest_harness.h"
#include "vm_test.h"

TEST(is_an_exported_function)
{
	void *lib = dlopen("librdma_addrinfo.so.1", RTLD_NOW | RTLD_NOLOAD);

	ASSERT_NE(NULL, lib);
	ASSERT_NE(NULL, dlsym(lib, "rdma_get_local_addr"));
	dlclose(lib);
}

TEST(returns_the_local_address_of_a_bound_id)
{
	struct rdma_cm_id *id;
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(4791) };
	struct sockaddr_in *local;

	inet_pton(AF_INET, RAI_IP4_A, &a.sin_addr);
	ASSERT_EQ(0, rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, rdma_bind_addr(id, (struct sockaddr *)&a));
	local = (struct sockaddr_in *)rdma_get_local_addr(id);
	ASSERT_NE(NULL, local);
	EXPECT_EQ(AF_INET, local->sin_family);
	EXPECT_EQ(a.sin_addr.s_addr, local->sin_addr.s_addr);
	EXPECT_EQ(htons(4791), local->sin_port);
	EXPECT_NE(NULL, id->verbs);
	rdma_destroy_id(id);
}

TEST(returns_the_local_address_of_an_id_bound_by_resolve_addr)
{
	struct rdma_cm_id *id;
	struct sockaddr_in dst = { .sin_family = AF_INET };
	char buf[INET6_ADDRSTRLEN];

	inet_pton(AF_INET, RAI_IP4_B, &dst.sin_addr);
	ASSERT_EQ(0, rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst,
				       2000));
	EXPECT_STREQ(RAI_IP4_A, rai_ntop(rdma_get_local_addr(id), buf,
					 sizeof(buf)));
	rdma_destroy_id(id);
}

TEST(unbound_id_address_is_all_zeroes)
{
	static const char zero[sizeof(struct sockaddr_storage)];
	struct rdma_cm_id *id;

	ASSERT_EQ(0, rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, memcmp(zero, rdma_get_local_addr(id),
			    sizeof(struct sockaddr_storage)));
	rdma_destroy_id(id);
}

TEST_HARNESS_MAIN
