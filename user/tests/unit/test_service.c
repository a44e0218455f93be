// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Service strings: numeric ports, service names, SA service IDs/names. */
#include <netdb.h>
#include <string.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "kselftest_harness.h"
#include "service.h"

static int qp;

static int map(const char *service, int flags, int qp_type, int ps,
	       char *out)
{
	struct rdma_addrinfo hints = { .ai_flags = flags,
				       .ai_qp_type = qp_type,
				       .ai_port_space = ps };

	return rai_map_service(service, &hints, out,
			       RDMA_ADDRINFO_SERVICE_MAX + 1, &qp);
}

TEST(numeric_service_is_passed_as_is)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(0, map("7471", 0, 0, 0, out));
	ASSERT_STREQ("7471", out);
	ASSERT_EQ(IBV_QPT_RC, qp);
}

/* The port @service gives without hints, or "refused". */
static const char *port_of(const char *service)
{
	static char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	return map(service, 0, 0, 0, out) ? "refused" : out;
}

/* glibc's reading, librdmacm's (issue 26 item 3). */
TEST(numeric_service_above_65535_is_its_16_bit_cast)
{
	ASSERT_STREQ("4464", port_of("70000"));
	ASSERT_STREQ("0", port_of("65536"));
	ASSERT_STREQ("80", port_of("0000000080"));
	/* glibc's int: -1, looked up as a name */
	ASSERT_STREQ("refused", port_of("4294967295"));
}

TEST(numeric_service_with_leading_blanks_or_sign)
{
	ASSERT_STREQ("80", port_of(" 80"));
	ASSERT_STREQ("80", port_of("\t+80"));
	ASSERT_STREQ("refused", port_of("80 "));
}

TEST(service_name_is_mapped_to_its_tcp_port)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	if (!getservbyname("http", "tcp"))
		SKIP(return, "no http/tcp in the services database");
	ASSERT_EQ(0, map("http", 0, 0, 0, out));
	ASSERT_STREQ("80", out);
	ASSERT_EQ(IBV_QPT_RC, qp);
}

TEST(udp_only_service_name_gives_ud)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	if (!getservbyname("tftp", "udp") || getservbyname("tftp", "tcp"))
		SKIP(return, "tftp is not udp-only in the services database");
	ASSERT_EQ(0, map("tftp", 0, 0, 0, out));
	ASSERT_STREQ("69", out);
	ASSERT_EQ(IBV_QPT_UD, qp);
	ASSERT_EQ(0, map("tftp", 0, IBV_QPT_UD, 0, out));
	ASSERT_STREQ("69", out);
	ASSERT_EQ(0, map("tftp", 0, 0, RDMA_PS_UDP, out));
	ASSERT_EQ(IBV_QPT_UD, qp);
	ASSERT_EQ(0, map("tftp", 0, IBV_QPT_RAW_PACKET, RDMA_PS_IB, out));
	ASSERT_EQ(IBV_QPT_UD, qp);
	ASSERT_EQ(EAI_SERVICE, map("tftp", 0, IBV_QPT_RC, 0, out));
	ASSERT_EQ(EAI_SERVICE, map("tftp", 0, 0, RDMA_PS_TCP, out));
}

TEST(no_service_gives_the_qp_type_of_the_hints)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(0, map(NULL, 0, 0, 0, out));
	ASSERT_STREQ("", out);
	ASSERT_EQ(IBV_QPT_RC, qp);
	ASSERT_EQ(0, map(NULL, 0, 0, RDMA_PS_IPOIB, out));
	ASSERT_EQ(IBV_QPT_UD, qp);
	ASSERT_EQ(0, rai_map_service(NULL, NULL, out, sizeof(out), &qp));
	ASSERT_EQ(IBV_QPT_RC, qp);
}

TEST(ud_with_rdma_ps_tcp_is_eai_socktype)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(EAI_SOCKTYPE, map("7471", 0, IBV_QPT_UD, RDMA_PS_TCP, out));
	ASSERT_EQ(EAI_SOCKTYPE, map(NULL, 0, IBV_QPT_RC, RDMA_PS_UDP, out));
	ASSERT_EQ(0, map("7471", 0, IBV_QPT_UD, RDMA_PS_IB, out));
	ASSERT_EQ(0, map("7471", 0, IBV_QPT_RC, RDMA_PS_IB, out));
}

TEST(unknown_service_name_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(EAI_SERVICE, map("no-such-rdma-service", 0, 0, 0, out));
}

/*
 * A numeric service's answer is kept per thread: asked again with other
 * hints, or without a service after "0", it is each one's own answer.
 */
TEST(numeric_service_asked_again_gets_the_answer_of_its_own_hints)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, map("4791", 0, IBV_QPT_UD, 0, out));
		ASSERT_STREQ("4791", out);
		ASSERT_EQ(IBV_QPT_UD, qp);
		ASSERT_EQ(0, map("4791", 0, 0, 0, out));
		ASSERT_STREQ("4791", out);
		ASSERT_EQ(IBV_QPT_RC, qp);
		ASSERT_EQ(EAI_SOCKTYPE,
			  map("4791", 0, IBV_QPT_UD, RDMA_PS_TCP, out));
		ASSERT_EQ(0, map("4792", 0, 0, 0, out));
		ASSERT_STREQ("4792", out);
		ASSERT_EQ(0, map("0", 0, 0, 0, out));
		ASSERT_STREQ("0", out);
		ASSERT_EQ(0, map(NULL, 0, IBV_QPT_UD, 0, out));
		ASSERT_STREQ("", out);
		ASSERT_EQ(IBV_QPT_UD, qp);
		ASSERT_EQ(0, map("70000", 0, 0, 0, out));
		ASSERT_STREQ("4464", out);
	}
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
	ASSERT_EQ(0, qp);
}

TEST(sa_service_longer_than_63_bytes_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];
	char name[RDMA_ADDRINFO_SERVICE_MAX + 2];

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ASSERT_EQ(EAI_SERVICE, map(name, RAI_SA, 0, 0, out));
	name[RDMA_ADDRINFO_SERVICE_MAX] = '\0';
	ASSERT_EQ(0, map(name, RAI_SA, 0, 0, out));
}

TEST(empty_sa_service_is_eai_service)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(EAI_SERVICE, map("", RAI_SA, 0, 0, out));
}

/* glibc's: port 0 (issue 26 item 3) */
TEST(empty_service_is_port_zero)
{
	char out[RDMA_ADDRINFO_SERVICE_MAX + 1];

	ASSERT_EQ(0, map("", 0, 0, 0, out));
	ASSERT_STREQ("0", out);
}

TEST_HARNESS_MAIN
