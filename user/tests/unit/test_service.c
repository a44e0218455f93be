// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Service strings: numeric ports, service names, SA service IDs/names. */
#include <netdb.h>
#include <string.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "kselftest_harness.h"
#include "service.h"

static int map(const char *service, int flags, int qp, int ps, char *out)
{
	return rai_map_service(service, flags, qp, ps, out,
			       RDMA_ADDRINFO_SERVICE_MAX + 1);
}

TEST(numeric_service_is_passed_as_is)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(0, map("7471", 0, 0, 0, out));
	ASSERT_STREQ("7471", out);
}

TEST(numeric_service_above_65535_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(EAI_SERVICE, map("65536", 0, 0, 0, out));
	ASSERT_EQ(EAI_SERVICE, map("0000000080", 0, 0, 0, out));
}

TEST(service_name_is_mapped_to_its_tcp_port)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	if (!getservbyname("http", "tcp"))
		SKIP(return, "no http/tcp in the services database");
	ASSERT_EQ(0, map("http", 0, 0, 0, out));
	ASSERT_STREQ("80", out);
}

TEST(ud_service_name_uses_udp_ports)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	if (!getservbyname("tftp", "udp") || getservbyname("tftp", "tcp"))
		SKIP(return, "tftp is not udp-only in the services database");
	ASSERT_EQ(0, map("tftp", 0, IBV_QPT_UD, 0, out));
	ASSERT_STREQ("69", out);
	ASSERT_EQ(0, map("tftp", 0, 0, RDMA_PS_UDP, out));
	ASSERT_EQ(EAI_SERVICE, map("tftp", 0, IBV_QPT_RC, 0, out));
}

TEST(unknown_service_name_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(EAI_SERVICE, map("no-such-rdma-service", 0, 0, 0, out));
}

TEST(sa_service_id_and_name_are_passed_as_is)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(0, map("0x1000000000000001", RAI_SA, 0, 0, out));
	ASSERT_STREQ("0x1000000000000001", out);
	ASSERT_EQ(0, map("18446744073709551615", RAI_SA, 0, 0, out));
	ASSERT_STREQ("18446744073709551615", out);
	ASSERT_EQ(0, map("http", RAI_SA, 0, 0, out));
	ASSERT_STREQ("http", out);
}

TEST(service_longer_than_63_bytes_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];
	char name[RDMA_ADDRINFO_SERVICE_MAX + 2];

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ASSERT_EQ(EAI_SERVICE, map(name, RAI_SA, 0, 0, out));
	name[RDMA_ADDRINFO_SERVICE_MAX] = '\0';
	ASSERT_EQ(0, map(name, RAI_SA, 0, 0, out));
}

TEST(empty_service_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(EAI_SERVICE, map("", 0, 0, 0, out));
}

TEST_HARNESS_MAIN
