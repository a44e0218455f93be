// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Kernel statuses and ioctl errors to rdma_getaddrinfo(3) EAI_* codes. */
#include <errno.h>
#include <string.h>
#include <rdma/rdma_addrinfo.h>

#include "kselftest_harness.h"
#include "status.h"

static int eai(int status, unsigned int ctx, int *err)
{
	*err = 0;
	return rai_eai_from_status(status, ctx, err);
}

TEST(success_is_zero)
{
	int err;

	ASSERT_EQ(0, eai(0, 0, &err));
	ASSERT_EQ(0, err);
}

TEST(nxdomain_is_eai_noname)
{
	int err;

	ASSERT_EQ(EAI_NONAME, eai(-ENXIO, 0, &err));
}

TEST(name_without_addresses_is_eai_nodata)
{
	int err;

	ASSERT_EQ(EAI_NODATA, eai(-ENODATA, 0, &err));
}

TEST(literal_of_the_other_family_is_eai_addrfamily)
{
	int err;

	ASSERT_EQ(EAI_ADDRFAMILY, eai(-EADDRNOTAVAIL, 0, &err));
}

/*
 * A name with addresses, none in the family asked: glibc's EAI_NODATA
 * (the name is known), as librdmacm returns it (issue 26 item 4).
 */
TEST(name_without_address_in_family_is_eai_nodata)
{
	int err;

	ASSERT_EQ(EAI_NODATA, eai(-EADDRNOTAVAIL, RAI_CTX_NAME, &err));
}

TEST(family_not_served_is_eai_family)
{
	int err;

	ASSERT_EQ(EAI_FAMILY, eai(-EAFNOSUPPORT, 0, &err));
}

TEST(temporary_failure_and_timeout_are_eai_again)
{
	int err;

	ASSERT_EQ(EAI_AGAIN, eai(-EAGAIN, 0, &err));
	ASSERT_EQ(EAI_AGAIN, eai(-ETIMEDOUT, 0, &err));
}

TEST(sa_error_status_and_bad_reply_are_eai_fail)
{
	int err;

	ASSERT_EQ(EAI_FAIL, eai(-EREMOTEIO, 0, &err));
	ASSERT_EQ(EAI_FAIL, eai(-EPROTO, 0, &err));
}

TEST(out_of_memory_is_eai_memory)
{
	int err;

	ASSERT_EQ(EAI_MEMORY, eai(-ENOMEM, 0, &err));
}

TEST(einval_with_qp_type_and_port_space_is_eai_qptype)
{
	int err;

	ASSERT_EQ(EAI_QPTYPE, eai(-EINVAL, RAI_CTX_QP_PS, &err));
}

/*
 * The module refuses a node that is neither literal nor host name ("my
 * host", "[fe80::1]") with -EINVAL: glibc's EAI_NONAME, also with QP type
 * and port space in the hints (issue 33 item 4).
 */
TEST(einval_of_a_name_is_eai_noname_whatever_the_hints)
{
	int err;

	ASSERT_EQ(EAI_NONAME, eai(-EINVAL, RAI_CTX_NAME, &err));
	ASSERT_EQ(EAI_NONAME, eai(-EINVAL, RAI_CTX_NAME | RAI_CTX_QP_PS, &err));
	ASSERT_EQ(0, err);
}

TEST(einval_without_qp_type_is_eai_system_einval)
{
	int err;

	ASSERT_EQ(EAI_SYSTEM, eai(-EINVAL, 0, &err));
	ASSERT_EQ(EINVAL, err);
}

TEST(other_errors_are_eai_system_with_errno)
{
	int err;

	ASSERT_EQ(EAI_SYSTEM, eai(-ENODEV, 0, &err));
	ASSERT_EQ(ENODEV, err);
	ASSERT_EQ(EAI_SYSTEM, eai(-EHOSTUNREACH, 0, &err));
	ASSERT_EQ(EHOSTUNREACH, err);
	ASSERT_EQ(EAI_SYSTEM, eai(-EMFILE, RAI_CTX_QP_PS, &err));
	ASSERT_EQ(EMFILE, err);
}

TEST(eai_qptype_is_outside_glibc_range)
{
	ASSERT_NE(EAI_SYSTEM, EAI_QPTYPE);
	ASSERT_NE(EAI_OVERFLOW, EAI_QPTYPE);
	ASSERT_LT(EAI_QPTYPE, EAI_IDN_ENCODE);
}

/* (the other events are librdmacm's to name: librdmacm_compat_test) */
TEST(event_str_names_the_addrinfo_events)
{
	ASSERT_STREQ("RDMA_CM_EVENT_ADDRINFO_RESOLVED",
		     rdma_event_str(RDMA_CM_EVENT_ADDRINFO_RESOLVED));
	ASSERT_STREQ("RDMA_CM_EVENT_ADDRINFO_ERROR",
		     rdma_event_str(RDMA_CM_EVENT_ADDRINFO_ERROR));
}

/* Every EAI_* code the library returns has a text of its own. */
TEST(strerror_knows_every_code_returned)
{
	static const int codes[] = {
		EAI_ADDRFAMILY, EAI_AGAIN, EAI_BADFLAGS, EAI_FAIL, EAI_FAMILY,
		EAI_MEMORY, EAI_NODATA, EAI_NONAME, EAI_SERVICE, EAI_QPTYPE,
		EAI_SYSTEM,
	};
	const char *unknown = gai_strerror(-123456);
	unsigned int i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		ASSERT_NE(NULL, rdma_addrinfo_strerror(codes[i]));
		EXPECT_STRNE(unknown, rdma_addrinfo_strerror(codes[i]));
	}
}

TEST(strerror_knows_eai_qptype)
{
	ASSERT_NE(NULL, strstr(rdma_addrinfo_strerror(EAI_QPTYPE), "qp_type"));
	ASSERT_STREQ(gai_strerror(EAI_NONAME),
		     rdma_addrinfo_strerror(EAI_NONAME));
}

TEST(event_status_maps_like_rdma_getaddrinfo)
{
	errno = 0;
	ASSERT_EQ(0, rdma_addrinfo_status_eai(0));
	ASSERT_EQ(EAI_NONAME, rdma_addrinfo_status_eai(-ENXIO));
	ASSERT_EQ(EAI_AGAIN, rdma_addrinfo_status_eai(-ETIMEDOUT));
	ASSERT_EQ(EAI_SYSTEM, rdma_addrinfo_status_eai(-EHOSTUNREACH));
	ASSERT_EQ(EHOSTUNREACH, errno);
}

TEST(async_errors_map_to_errno)
{
	ASSERT_EQ(EINVAL, rai_errno_from_eai(EAI_BADFLAGS));
	ASSERT_EQ(EINVAL, rai_errno_from_eai(EAI_NONAME));
	ASSERT_EQ(EINVAL, rai_errno_from_eai(EAI_QPTYPE));
	ASSERT_EQ(EAFNOSUPPORT, rai_errno_from_eai(EAI_FAMILY));
	ASSERT_EQ(ENOENT, rai_errno_from_eai(EAI_SERVICE));
	ASSERT_EQ(ENOMEM, rai_errno_from_eai(EAI_MEMORY));
}

/*
 * librdmacm's error for a name the module refused (issue 25), as the
 * status of the event: rdma_addrinfo_status_eai() reads it back.
 */
TEST(librdmacm_errors_as_statuses_read_back_as_the_same_eai)
{
	static const int codes[] = { EAI_NONAME, EAI_NODATA, EAI_ADDRFAMILY,
				     EAI_FAMILY, EAI_AGAIN, EAI_FAIL,
				     EAI_MEMORY };
	unsigned int i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		EXPECT_EQ(codes[i], rdma_addrinfo_status_eai(
					rai_status_from_eai(codes[i], 0)))
			TH_LOG("%s", gai_strerror(codes[i]));
	errno = 0;
	ASSERT_EQ(EAI_SYSTEM, rdma_addrinfo_status_eai(
				rai_status_from_eai(EAI_SYSTEM, ECONNREFUSED)));
	ASSERT_EQ(ECONNREFUSED, errno);
	/* librdmacm's -1 (EAI_BADFLAGS) failures carry errno */
	ASSERT_EQ(-EOPNOTSUPP, rai_status_from_eai(EAI_BADFLAGS, EOPNOTSUPP));
	ASSERT_EQ(-EIO, rai_status_from_eai(EAI_SYSTEM, 0));
}

TEST(only_a_name_s_eperm_is_a_refused_view)
{
	ASSERT_TRUE(rai_view_refused(-EPERM, RAI_CTX_NAME));
	ASSERT_TRUE(rai_view_refused(-EPERM, RAI_CTX_NAME | RAI_CTX_QP_PS));
	ASSERT_FALSE(rai_view_refused(-EPERM, 0));
	ASSERT_FALSE(rai_view_refused(-EACCES, RAI_CTX_NAME));
	ASSERT_FALSE(rai_view_refused(0, RAI_CTX_NAME));
}

TEST_HARNESS_MAIN
