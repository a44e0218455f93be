// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Every validation path of every ioctl of /dev/infiniband/rdma_addrinfo,
 * one test per path, against the errnos of the ABI header; after each
 * rejected call the fd must still work (GET_INFO and a numeric RESOLVE,
 * QUERY and DESTROY succeed).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define PEER4	RAI_IP4_B

FIXTURE(val) {
	int fd;
	char *page;	/* a readable page followed by ... */
	char *bad;	/* ... a PROT_NONE page */
};

FIXTURE_SETUP(val)
{
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", RAI_DEV_PATH,
				      strerror(-self->fd));
	self->page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	self->bad = self->page + 4096;
	ASSERT_EQ(0, mprotect(self->bad, 4096, PROT_NONE));
}

FIXTURE_TEARDOWN(val)
{
	rai_upcall_counter_remove();
	if (self->page && self->page != MAP_FAILED)
		munmap(self->page, 2 * 4096);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * The check every test ends with: the rejected calls left no request and
 * no event behind, and the fd still works.
 */
#define FD_STILL_WORKS() do { \
	struct rdma_addrinfo_info _info; \
	EXPECT_EQ(0, rai_get_info(self->fd, &_info)); \
	EXPECT_EQ(0, _info.requests) TH_LOG("a rejected call left a request"); \
	EXPECT_FALSE(rai_readable(self->fd)) \
		TH_LOG("a rejected call left an event"); \
	EXPECT_EQ(0, rai_fd_works(self->fd)) \
		TH_LOG("the fd no longer works after the rejected call"); \
} while (0)

/* A valid asynchronous numeric request, to be spoiled by one field. */
static void valid_req(struct rdma_addrinfo_resolve *r)
{
	rai_req_init(r, PEER4, "4791", AF_INET, RDMA_ADDRINFO_RAI_NUMERICHOST,
		     0, 0x1234);
}

/* RESOLVE that must fail: -errno, or 0 (and the request is cleaned up). */
static int resolve_err(int fd, struct rdma_addrinfo_resolve *r)
{
	int ret = rai_resolve(fd, r);

	if (!ret)
		rai_destroy(fd, r->handle, NULL);
	return ret;
}

/*
 * One rejection path of RESOLVE: a valid_req() in r, spoiled by the
 * statements given after err, must fail with err and leave nothing behind.
 */
#define RESOLVE_REJECTED(err, ...) do { \
	struct rdma_addrinfo_resolve r; \
	valid_req(&r); \
	__VA_ARGS__; \
	EXPECT_EQ(err, resolve_err(self->fd, &r)); \
	FD_STILL_WORKS(); \
} while (0)

/* An RAI_SA request for service ID 0x1000, on rxe0 port 1 if on_port. */
static void sa_req(struct rdma_addrinfo_resolve *r, const char *node,
		   __u32 ai_flags, bool on_port)
{
	rai_req_init(r, node, "0x1000", AF_UNSPEC, ai_flags, 0, 0);
	if (on_port) {
		strcpy(r->ibdev_name, RAI_IBDEV_A);
		r->port_num = 1;
	}
}

/* QUERY of handle h for no results, at the ABI's result size. */
static void query_init(struct rdma_addrinfo_query *q, __u32 h)
{
	memset(q, 0, sizeof(*q));
	q->handle = h;
	q->result_size = sizeof(struct rdma_addrinfo_result);
}

/* A completed numeric request (sync), its handle. */
static int done_req(int fd, __u32 *handle)
{
	struct rdma_addrinfo_resolve r;
	int ret = rai_resolve_sync_str(fd, PEER4, "4791", AF_INET,
				       RDMA_ADDRINFO_RAI_NUMERICHOST, &r);

	if (ret)
		return ret;
	if (r.status)
		return r.status;
	*handle = r.handle;
	return 0;
}

/* An asynchronous numeric request whose event is queued. */
static int queued_event(int fd, __u32 *handle, __u64 ctx)
{
	struct rdma_addrinfo_resolve r;
	long long end = rai_now_ms() + 5000;
	int ret;

	valid_req(&r);
	r.context = ctx;
	ret = rai_resolve(fd, &r);
	if (ret)
		return ret;
	*handle = r.handle;
	while (!rai_readable(fd)) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(1000);	/* the pace of a look with a deadline */
	}
	return 0;
}

/* ---- GET_INFO --------------------------------------------------------- */

TEST_F(val, get_info_bad_arg_pointer_efault)
{
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_INFO,
					 self->bad));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_INFO,
					 NULL));
	FD_STILL_WORKS();
}

TEST_F(val, get_info_reports_this_abi)
{
	struct rdma_addrinfo_info info;
	__u32 all_rai = RDMA_ADDRINFO_RAI_PASSIVE |
		RDMA_ADDRINFO_RAI_NUMERICHOST | RDMA_ADDRINFO_RAI_NOROUTE |
		RDMA_ADDRINFO_RAI_FAMILY | RDMA_ADDRINFO_RAI_SA |
		RDMA_ADDRINFO_RAI_DNS;

	/* Output fields that the module fails to write show as 0xa5. */
	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0,
		  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_INFO, &info));
	EXPECT_EQ(RDMA_ADDRINFO_ABI_VERSION, info.abi_version);
	EXPECT_EQ(sizeof(struct rdma_addrinfo_result), info.result_size);
	EXPECT_EQ(RDMA_ADDRINFO_NAME_MAX, info.max_name_len);
	EXPECT_EQ(RDMA_ADDRINFO_SERVICE_MAX, info.max_service_len);
	EXPECT_EQ(all_rai, info.ai_flags_supported & all_rai);
	EXPECT_EQ(RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS |
		  RDMA_ADDRINFO_RESOLVE_CANONNAME,
		  info.resolve_flags_supported);
	EXPECT_EQ(RDMA_ADDRINFO_FEATURE_NUMERIC | RDMA_ADDRINFO_FEATURE_DNS |
		  RDMA_ADDRINFO_FEATURE_CANONNAME,
		  info.features & (RDMA_ADDRINFO_FEATURE_NUMERIC |
				   RDMA_ADDRINFO_FEATURE_DNS |
				   RDMA_ADDRINFO_FEATURE_CANONNAME));
	EXPECT_NE(0, info.max_results);
	EXPECT_NE(0, info.max_requests_per_fd);
	EXPECT_LE(info.max_requests_per_fd, info.max_requests_total);
	EXPECT_NE(0, info.max_upcalls);
	EXPECT_EQ(0, info.requests);
	EXPECT_NE(0, info.max_requests_per_user);
	EXPECT_LE(info.max_requests_per_user, info.max_requests_total);
	EXPECT_NE(0, info.max_upcalls_per_user);
	FD_STILL_WORKS();
}

/*
 * The command's size versions GET_INFO: version 1 (64 bytes) is filled
 * and the caller's bytes past it are left alone; a larger struct than
 * the module's gets its tail zeroed; less than version 1 is no command.
 * The reserve reported is the clamped one.
 */
#define VAL_INFO_BIG	(sizeof(struct rdma_addrinfo_info) + 16)

TEST_F(val, get_info_size_versions_the_struct)
{
	unsigned char buf[VAL_INFO_BIG];
	struct rdma_addrinfo_info info, v1;
	char max[32], reserve[32];
	unsigned int i, tail = 0;

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0,
		  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_INFO, &info));
	EXPECT_LE(info.max_upcalls_host_reserve, info.max_upcalls / 4);
	ASSERT_EQ(0, rai_param_get("max_requests", max, sizeof(max)));
	ASSERT_EQ(0, rai_param_get("max_requests_host_reserve", reserve,
				   sizeof(reserve)));
	EXPECT_EQ(strtoul(max, NULL, 10), info.max_requests_total);
	EXPECT_EQ(strtoul(reserve, NULL, 10) < info.max_requests_total / 4 ?
		  strtoul(reserve, NULL, 10) : info.max_requests_total / 4,
		  info.max_requests_host_reserve);

	memset(&v1, 0xa5, sizeof(v1));
	ASSERT_EQ(0, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_INFO_V1,
				   &v1));
	EXPECT_EQ(0, memcmp(&info, &v1, RDMA_ADDRINFO_INFO_SIZE_V1));
	EXPECT_EQ(0xa5a5a5a5, v1.max_requests_host_reserve);
	EXPECT_EQ(0xa5a5a5a5, v1.max_upcalls_host_reserve);

	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, rai_dev_ioctl(self->fd,
				   _IOC(_IOC_READ, RDMA_ADDRINFO_IOC_MAGIC, 0x00,
					VAL_INFO_BIG), buf));
	EXPECT_EQ(0, memcmp(&info, buf, sizeof(info)));
	for (i = sizeof(info); i < sizeof(buf); i++)
		tail |= buf[i];
	EXPECT_EQ(0, tail);

	EXPECT_EQ(-ENOTTY, rai_dev_ioctl(self->fd,
					 _IOC(_IOC_READ, RDMA_ADDRINFO_IOC_MAGIC,
					      0x00,
					      RDMA_ADDRINFO_INFO_SIZE_V1 - 8),
					 &info));
	EXPECT_EQ(-ENOTTY, rai_dev_ioctl(self->fd,
					 _IOC(_IOC_READ | _IOC_WRITE,
					      RDMA_ADDRINFO_IOC_MAGIC, 0x00,
					      sizeof(info)), &info));
	FD_STILL_WORKS();
}

/* ---- GET_STATS -------------------------------------------------------- */

static int val_get_stats(int fd, __u32 size, __u32 flags, __u32 reserved,
			 struct rdma_addrinfo_stats *st)
{
	memset(st, 0xa5, sizeof(*st));
	st->size = size;
	st->flags = flags;
	st->reserved = reserved;
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_GET_STATS, st);
}

TEST_F(val, get_stats_bad_arg_pointer_efault)
{
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_STATS,
					 self->bad));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_STATS,
					 NULL));
	FD_STILL_WORKS();
}

TEST_F(val, get_stats_size_below_its_header_einval)
{
	struct rdma_addrinfo_stats st;

	EXPECT_EQ(-EINVAL, val_get_stats(self->fd, 0, 0, 0, &st));
	EXPECT_EQ(-EINVAL, val_get_stats(self->fd, 15, 0, 0, &st));
	FD_STILL_WORKS();
}

TEST_F(val, get_stats_unknown_flags_einval)
{
	struct rdma_addrinfo_stats st;

	EXPECT_EQ(-EINVAL, val_get_stats(self->fd, sizeof(st), 1, 0, &st));
	EXPECT_EQ(-EINVAL, val_get_stats(self->fd, sizeof(st), 1u << 31, 0,
					 &st));
	FD_STILL_WORKS();
}

TEST_F(val, get_stats_nonzero_reserved_einval)
{
	struct rdma_addrinfo_stats st;

	EXPECT_EQ(-EINVAL, val_get_stats(self->fd, sizeof(st), 0, 1, &st));
	FD_STILL_WORKS();
}

/* The info lists it; every field written; a numeric request counted. */
TEST_F(val, get_stats_counts_this_namespace_s_requests)
{
	struct rdma_addrinfo_stats before, after;
	struct rdma_addrinfo_info info;

	ASSERT_EQ(0,
		  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_INFO, &info));
	EXPECT_EQ(RDMA_ADDRINFO_FEATURE_STATS,
		  info.features & RDMA_ADDRINFO_FEATURE_STATS);
	ASSERT_EQ(0, val_get_stats(self->fd, sizeof(before), 0, 0, &before));
	EXPECT_EQ(sizeof(before), before.size);
	EXPECT_EQ(0, before.flags);
	EXPECT_EQ(0, before.reserved);
	EXPECT_NE(0xa5a5a5a5u, before.resolvers);
	EXPECT_NE(0xa5a5a5a5a5a5a5a5ull, before.numeric);
	FD_STILL_WORKS();
	ASSERT_EQ(0, val_get_stats(self->fd, sizeof(after), 0, 0, &after));
	EXPECT_LT(before.requests, after.requests);
	EXPECT_LT(before.numeric, after.numeric);
	EXPECT_LT(before.completed, after.completed);
}

/* An older caller's smaller struct: filled to its size, not past it. */
TEST_F(val, get_stats_fills_no_more_than_the_caller_s_size)
{
	struct rdma_addrinfo_stats st;
	__u32 size = offsetof(struct rdma_addrinfo_stats, completed);

	ASSERT_EQ(0, val_get_stats(self->fd, size, 0, 0, &st));
	EXPECT_EQ(size, st.size);
	EXPECT_NE(0xa5a5a5a5a5a5a5a5ull, st.requests);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, st.completed);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, st.numeric);
	/* A newer caller's larger one: the module's size comes back. */
	ASSERT_EQ(0, val_get_stats(self->fd, sizeof(st) + 64, 0, 0, &st));
	EXPECT_EQ(sizeof(st), st.size);
	FD_STILL_WORKS();
}

/* ---- RESOLVE ---------------------------------------------------------- */

TEST_F(val, resolve_bad_arg_pointer_efault)
{
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_RESOLVE,
					 self->bad));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_RESOLVE,
					 NULL));
	FD_STILL_WORKS();
}

TEST_F(val, resolve_bad_node_pointer_efault)
{
	RESOLVE_REJECTED(-EFAULT, r.node = (uintptr_t)self->bad);
}

TEST_F(val, resolve_node_running_into_unmapped_page_efault)
{
	char *node = self->bad - 4;

	memcpy(node, "192.", 4);	/* "192." then the PROT_NONE page */
	RESOLVE_REJECTED(-EFAULT, r.node = (uintptr_t)node; r.node_len = 12);
}

TEST_F(val, resolve_bad_service_pointer_efault)
{
	RESOLVE_REJECTED(-EFAULT, r.service = (uintptr_t)self->bad);
}

TEST_F(val, resolve_result_count_without_results_flag_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.result_count = 1);
}

TEST_F(val, resolve_results_flag_without_sync_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.flags = RDMA_ADDRINFO_RESOLVE_RESULTS;
			 r.result_count = 1; r.context = (uintptr_t)self->page);
}

/* The array cannot be written: -EFAULT, and no request is left. */
TEST_F(val, resolve_results_unwritable_array_efault_leaves_nothing)
{
	RESOLVE_REJECTED(-EFAULT, r.flags = RDMA_ADDRINFO_RESOLVE_SYNC |
					    RDMA_ADDRINFO_RESOLVE_RESULTS;
			 r.result_count = 1; r.context = (uintptr_t)self->bad);
}

/* The argument is readable but not writable: the handle cannot go back. */
TEST_F(val, resolve_handle_write_back_efault_leaves_nothing)
{
	struct rdma_addrinfo_resolve *r = (void *)self->page;

	valid_req(r);
	ASSERT_EQ(0, mprotect(self->page, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT,
		  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_RESOLVE, r));
	ASSERT_EQ(0, mprotect(self->page, 4096, PROT_READ | PROT_WRITE));
	/*
	 * No request, and no event: a literal completes inside RESOLVE
	 * (numeric.c), so one it left would be queued by now.
	 */
	FD_STILL_WORKS();
}

TEST_F(val, resolve_sync_handle_write_back_efault_leaves_nothing)
{
	struct rdma_addrinfo_resolve *r = (void *)self->page;

	valid_req(r);
	r->flags = RDMA_ADDRINFO_RESOLVE_SYNC;
	ASSERT_EQ(0, mprotect(self->page, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT,
		  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_RESOLVE, r));
	ASSERT_EQ(0, mprotect(self->page, 4096, PROT_READ | PROT_WRITE));
	FD_STILL_WORKS();
}

TEST_F(val, resolve_unknown_ai_flags_einval)
{
	struct rdma_addrinfo_resolve r;
	int bit;

	for (bit = 6; bit < 32; bit++) {
		valid_req(&r);
		r.ai_flags |= 1u << bit;
		EXPECT_EQ(-EINVAL, resolve_err(self->fd, &r))
			TH_LOG("ai_flags bit %d accepted", bit);
	}
	FD_STILL_WORKS();
}

TEST_F(val, resolve_unknown_flags_einval)
{
	struct rdma_addrinfo_resolve r;
	int bit;

	for (bit = 1; bit < 32; bit++) {
		valid_req(&r);
		r.flags |= 1u << bit;
		EXPECT_EQ(-EINVAL, resolve_err(self->fd, &r))
			TH_LOG("flags bit %d accepted", bit);
	}
	FD_STILL_WORKS();
}

TEST_F(val, resolve_zero_length_node_einval)
{
	/* node pointer still set */
	RESOLVE_REJECTED(-EINVAL, r.node_len = 0);
}

TEST_F(val, resolve_node_len_without_node_einval)
{
	/* node_len still 12 */
	RESOLVE_REJECTED(-EINVAL, r.node = 0);
}

TEST_F(val, resolve_node_one_byte_too_long_enametoolong)
{
	char name[RDMA_ADDRINFO_NAME_MAX + 1];

	memset(name, 'a', sizeof(name));
	RESOLVE_REJECTED(-ENAMETOOLONG, r.ai_flags = 0;
			 r.node = (uintptr_t)name; r.node_len = sizeof(name));
}

TEST_F(val, resolve_node_len_huge_enametoolong)
{
	RESOLVE_REJECTED(-ENAMETOOLONG, r.node_len = 0xffffffffu);
}

TEST_F(val, resolve_node_of_name_max_bytes_accepted)
{
	struct rdma_addrinfo_resolve r;
	char name[RDMA_ADDRINFO_NAME_MAX];
	int i;

	/* Labels of 63 bytes: a valid DNS name of exactly 255 bytes. */
	memset(name, 'a', sizeof(name));
	for (i = 63; i < (int)sizeof(name); i += 64)
		name[i] = '.';
	valid_req(&r);
	r.ai_flags = 0;
	r.node = (uintptr_t)name;
	r.node_len = sizeof(name);
	ASSERT_EQ(0, rai_resolve(self->fd, &r));
	EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, resolve_nul_in_node_einval)
{
	static const char name[] = "peer\0.rai.test";

	RESOLVE_REJECTED(-EINVAL, r.ai_flags = 0; r.node = (uintptr_t)name;
			 r.node_len = sizeof(name) - 1);
}

/*
 * Names for the resolver are host names, checked before any upcall: the
 * shared dns_resolver key cache reads "type:name", and ';' ',' white
 * space and control bytes mean something to key descriptions and helpers.
 */
#define DNS_NAME_REJECTED(name) \
	RESOLVE_REJECTED(-EINVAL, r.ai_flags = 0; r.node = (uintptr_t)(name); \
			 r.node_len = strlen(name))

TEST_F(val, resolve_dns_name_with_colon_query_type_einval)
{
	DNS_NAME_REJECTED("afsdb:" RAI_ZONE_PEER);
}

TEST_F(val, resolve_dns_name_with_semicolon_einval)
{
	DNS_NAME_REJECTED("peer;rai.test");
}

TEST_F(val, resolve_dns_name_with_comma_einval)
{
	DNS_NAME_REJECTED(RAI_ZONE_PEER ",192.0.2.1");
}

TEST_F(val, resolve_dns_name_with_white_space_einval)
{
	DNS_NAME_REJECTED("peer rai.test");
}

TEST_F(val, resolve_dns_name_with_control_byte_einval)
{
	DNS_NAME_REJECTED("peer\x01rai.test");
}

TEST_F(val, resolve_service_one_byte_too_long_enametoolong)
{
	char svc[RDMA_ADDRINFO_SERVICE_MAX + 1];

	memset(svc, '1', sizeof(svc));
	RESOLVE_REJECTED(-ENAMETOOLONG, r.service = (uintptr_t)svc;
			 r.service_len = sizeof(svc));
}

TEST_F(val, resolve_zero_length_service_einval)
{
	/* service pointer still set */
	RESOLVE_REJECTED(-EINVAL, r.service_len = 0);
}

TEST_F(val, resolve_service_len_without_service_einval)
{
	/* service_len still 4 */
	RESOLVE_REJECTED(-EINVAL, r.service = 0);
}

/* DNS/numeric: the service is a decimal port (names are the library's). */
TEST_F(val, resolve_service_not_decimal_port_einval)
{
	static const char *const bad[] = { "http", "12a", "-1", "+80", " 80",
					   "0x50" };
	struct rdma_addrinfo_resolve r;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		valid_req(&r);
		r.service = (uintptr_t)bad[i];
		r.service_len = strlen(bad[i]);
		EXPECT_EQ(-EINVAL, resolve_err(self->fd, &r))
			TH_LOG("service '%s' accepted", bad[i]);
	}
	FD_STILL_WORKS();
}

TEST_F(val, resolve_service_port_above_65535_einval)
{
	static const char *const bad[] = { "65536", "4294967297",
					   "99999999999999999999" };
	struct rdma_addrinfo_resolve r;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		valid_req(&r);
		r.service = (uintptr_t)bad[i];
		r.service_len = strlen(bad[i]);
		EXPECT_EQ(-EINVAL, resolve_err(self->fd, &r))
			TH_LOG("service '%s' accepted", bad[i]);
	}
	valid_req(&r);
	r.service = (uintptr_t)"65535";
	r.service_len = 5;
	r.flags = RDMA_ADDRINFO_RESOLVE_SYNC;
	EXPECT_EQ(0, resolve_err(self->fd, &r)) TH_LOG("port 65535 rejected");
	FD_STILL_WORKS();
}

TEST_F(val, resolve_nul_in_service_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.service = (uintptr_t)"47\0" "91";
				  r.service_len = 5);
}

TEST_F(val, resolve_bad_family_einval)
{
	static const __u16 bad[] = { AF_UNIX, AF_PACKET, AF_NETLINK, 0xffff };
	struct rdma_addrinfo_resolve r;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		valid_req(&r);
		r.family = bad[i];
		EXPECT_EQ(-EINVAL, resolve_err(self->fd, &r))
			TH_LOG("family %u accepted", bad[i]);
	}
	FD_STILL_WORKS();
}

TEST_F(val, resolve_qp_ud_with_ps_tcp_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.qp_type = RDMA_ADDRINFO_QPT_UD;
			 r.port_space = RDMA_ADDRINFO_PS_TCP);
}

TEST_F(val, resolve_qp_rc_with_ps_udp_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.qp_type = RDMA_ADDRINFO_QPT_RC;
			 r.port_space = RDMA_ADDRINFO_PS_UDP);
}

TEST_F(val, resolve_qp_uc_with_ps_ipoib_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.qp_type = RDMA_ADDRINFO_QPT_UC;
			 r.port_space = RDMA_ADDRINFO_PS_IPOIB);
}

TEST_F(val, resolve_consistent_qp_and_port_space_accepted)
{
	static const struct { __u32 qpt; __u16 ps; } ok[] = {
		{ RDMA_ADDRINFO_QPT_RC, RDMA_ADDRINFO_PS_TCP },
		{ RDMA_ADDRINFO_QPT_RC, RDMA_ADDRINFO_PS_IB },
		{ RDMA_ADDRINFO_QPT_UC, RDMA_ADDRINFO_PS_TCP },
		{ RDMA_ADDRINFO_QPT_UD, RDMA_ADDRINFO_PS_UDP },
		{ RDMA_ADDRINFO_QPT_UD, RDMA_ADDRINFO_PS_IPOIB },
		{ RDMA_ADDRINFO_QPT_UD, RDMA_ADDRINFO_PS_IB },
		{ 0, RDMA_ADDRINFO_PS_UDP },
		{ RDMA_ADDRINFO_QPT_UD, 0 },
	};
	struct rdma_addrinfo_resolve r;
	unsigned int i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		valid_req(&r);
		r.flags = RDMA_ADDRINFO_RESOLVE_SYNC;
		r.qp_type = ok[i].qpt;
		r.port_space = ok[i].ps;
		EXPECT_EQ(0, resolve_err(self->fd, &r))
			TH_LOG("qp_type %u port_space 0x%x rejected",
			       ok[i].qpt, ok[i].ps);
	}
	FD_STILL_WORKS();
}

TEST_F(val, resolve_unknown_qp_type_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.qp_type = 99);
}

TEST_F(val, resolve_unknown_port_space_einval)
{
	RESOLVE_REJECTED(-EINVAL, r.port_space = 0x0999);
}

TEST_F(val, resolve_rai_sa_with_rai_dns_einval)
{
	RESOLVE_REJECTED(-EINVAL, sa_req(&r, NULL, RDMA_ADDRINFO_RAI_SA |
						 RDMA_ADDRINFO_RAI_DNS, true));
}

TEST_F(val, resolve_rai_sa_with_node_einval)
{
	RESOLVE_REJECTED(-EINVAL, sa_req(&r, RAI_ZONE_PEER,
					 RDMA_ADDRINFO_RAI_SA, true));
}

TEST_F(val, resolve_rai_sa_without_ibdev_einval)
{
	RESOLVE_REJECTED(-EINVAL, sa_req(&r, NULL, RDMA_ADDRINFO_RAI_SA, false));
}

/* The header: port_num is required with RAI_SA; there is no port 0. */
TEST_F(val, resolve_rai_sa_port_zero_einval)
{
	RESOLVE_REJECTED(-EINVAL, sa_req(&r, NULL, RDMA_ADDRINFO_RAI_SA, true);
			 r.port_num = 0);
}

TEST_F(val, resolve_no_node_no_service_no_passive_einval)
{
	RESOLVE_REJECTED(-EINVAL, rai_req_init(&r, NULL, NULL, AF_INET, 0, 0, 0));
}

TEST_F(val, resolve_src_len_larger_than_addr_size_einval)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	RESOLVE_REJECTED(-EINVAL, memcpy(r.src_addr, &sin, sizeof(sin));
			 r.src_len = RDMA_ADDRINFO_ADDR_SIZE + 1);
}

TEST_F(val, resolve_ibdev_name_not_nul_terminated_einval)
{
	RESOLVE_REJECTED(-EINVAL,
			 memset(r.ibdev_name, 'x', sizeof(r.ibdev_name));
			 r.port_num = 1);
}

/* ---- QUERY ------------------------------------------------------------ */

TEST_F(val, query_bad_arg_pointer_efault)
{
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_QUERY,
					 self->bad));
	FD_STILL_WORKS();
}

TEST_F(val, query_bad_results_pointer_efault)
{
	struct rdma_addrinfo_query q;
	__u32 h;

	ASSERT_EQ(0, done_req(self->fd, &h));
	query_init(&q, h);
	q.count = 1;
	q.results = (uintptr_t)self->bad;
	EXPECT_EQ(-EFAULT, rai_query(self->fd, &q));
	/* The request is intact. */
	q.results = (uintptr_t)self->page;
	q.count = 4096 / sizeof(struct rdma_addrinfo_result);
	EXPECT_EQ(0, rai_query(self->fd, &q));
	EXPECT_EQ(1, q.total);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, query_unknown_flags_einval)
{
	struct rdma_addrinfo_query q;
	__u32 h, bit;

	ASSERT_EQ(0, done_req(self->fd, &h));
	for (bit = 1; bit; bit <<= 1) {
		if (bit == RDMA_ADDRINFO_QUERY_CANONNAME)
			continue;
		query_init(&q, h);
		q.flags = bit;
		EXPECT_EQ(-EINVAL, rai_query(self->fd, &q))
			TH_LOG("flag 0x%x", bit);
	}
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

/* The record goes after @count results: an unwritable one is EFAULT. */
TEST_F(val, query_canonname_unwritable_record_efault)
{
	struct rdma_addrinfo_query q;
	__u32 h;

	ASSERT_EQ(0, done_req(self->fd, &h));
	query_init(&q, h);
	q.flags = RDMA_ADDRINFO_QUERY_CANONNAME;
	q.results = (uintptr_t)self->bad;
	EXPECT_EQ(-EFAULT, rai_query(self->fd, &q));
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, resolve_canonname_flag_without_results_einval)
{
	struct rdma_addrinfo_resolve req;

	rai_req_init(&req, "127.0.0.1", NULL, AF_INET, 0,
		     RDMA_ADDRINFO_RESOLVE_SYNC |
		     RDMA_ADDRINFO_RESOLVE_CANONNAME, 0);
	EXPECT_EQ(-EINVAL, rai_resolve(self->fd, &req));
	rai_req_init(&req, "127.0.0.1", NULL, AF_INET, 0,
		     RDMA_ADDRINFO_RESOLVE_CANONNAME, 0);
	EXPECT_EQ(-EINVAL, rai_resolve(self->fd, &req));
	FD_STILL_WORKS();
}

/* A literal is no name: the record says none (len 0), written all zero. */
TEST_F(val, resolve_canonname_of_a_literal_is_none)
{
	struct rdma_addrinfo_result res[2];
	char canon[300] = "x";
	__u32 n = 0, len = 1;
	__s32 status = 1;

	ASSERT_EQ(0, rai_lookup_canonname(self->fd, "127.0.0.1", AF_INET,
					  res, 2, &status, &n, canon,
					  sizeof(canon), &len));
	EXPECT_EQ(0, status);
	EXPECT_EQ(1, n);
	EXPECT_EQ(0, len);
	EXPECT_STREQ("", canon);
	FD_STILL_WORKS();
}

TEST_F(val, query_wrong_result_size_einval)
{
	static const __u32 sizes[] = {
		0, 8, sizeof(struct rdma_addrinfo_result) - 8,
		sizeof(struct rdma_addrinfo_result) + 8, 0xffffffffu,
	};
	struct rdma_addrinfo_result res[2];
	struct rdma_addrinfo_query q;
	unsigned int i;
	__u32 h;

	ASSERT_EQ(0, done_req(self->fd, &h));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		query_init(&q, h);
		q.results = (uintptr_t)res;
		q.count = 1;
		q.result_size = sizes[i];
		EXPECT_EQ(-EINVAL, rai_query(self->fd, &q))
			TH_LOG("result_size %u accepted", sizes[i]);
	}
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, query_unknown_handle_enoent)
{
	struct rdma_addrinfo_query q;

	query_init(&q, 12345);
	EXPECT_EQ(-ENOENT, rai_query(self->fd, &q));
	q.handle = 0xffffffffu;
	EXPECT_EQ(-ENOENT, rai_query(self->fd, &q));
	FD_STILL_WORKS();
}

TEST_F(val, query_handle_zero_enoent)
{
	struct rdma_addrinfo_query q;

	query_init(&q, 0);
	EXPECT_EQ(-ENOENT, rai_query(self->fd, &q));
	FD_STILL_WORKS();
}

TEST_F(val, query_count_zero_reports_total_copies_nothing)
{
	struct rdma_addrinfo_query q;
	__u32 h;

	ASSERT_EQ(0, done_req(self->fd, &h));
	query_init(&q, h);
	q.copied = 77;
	EXPECT_EQ(0, rai_query(self->fd, &q));
	EXPECT_EQ(1, q.total);
	EXPECT_EQ(0, q.copied);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, query_buffer_too_small_reports_total_copies_count)
{
	struct rdma_addrinfo_result *res;
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_query q;
	unsigned char *tail;
	size_t i;

	/* multi.rai.test has 4 addresses (DNS, dnsmasq). */
	ASSERT_EQ(0, rai_resolve_sync_str(self->fd, RAI_ZONE_MULTI, "4791",
					  AF_UNSPEC, 0, &r));
	ASSERT_EQ(0, r.status);
	ASSERT_EQ(4, r.num_results);
	res = calloc(4, sizeof(*res));
	ASSERT_NE(NULL, res);
	memset(res, 0x5a, 4 * sizeof(*res));
	query_init(&q, r.handle);
	q.results = (uintptr_t)res;
	q.count = 1;
	EXPECT_EQ(0, rai_query(self->fd, &q));
	EXPECT_EQ(4, q.total);
	EXPECT_EQ(1, q.copied);
	EXPECT_NE(0, res[0].dst_len);
	/* Nothing beyond count was written. */
	tail = (unsigned char *)&res[1];
	for (i = 0; i < 3 * sizeof(*res); i++)
		if (tail[i] != 0x5a)
			break;
	EXPECT_EQ(3 * sizeof(*res), i) TH_LOG("written past count");
	q.count = 3;
	EXPECT_EQ(0, rai_query(self->fd, &q));
	EXPECT_EQ(4, q.total);
	EXPECT_EQ(3, q.copied);
	free(res);
	EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
	FD_STILL_WORKS();
}

TEST_F_TIMEOUT(val, query_request_in_flight_ebusy, 60)
{
	struct rdma_addrinfo_query q;
	char name[128];
	__u32 h;

	long c0;
	int ret;

	/* An uncached name whose upcall is held: surely in flight. */
	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	ret = rai_resolve_async(self->fd,
				rai_unique_name(name, sizeof(name), "busy"),
				NULL, AF_UNSPEC, 0, 1, &h);
	if (!ret)
		ret = rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS);
	if (!ret) {
		query_init(&q, h);
		EXPECT_EQ(-EBUSY, rai_query(self->fd, &q));
		EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	}
	rai_upcall_counter_remove();
	ASSERT_EQ(0, ret);
	FD_STILL_WORKS();
}

/* ---- GET_EVENT and read() ---------------------------------------------- */

TEST_F(val, get_event_empty_nonblocking_eagain)
{
	struct rdma_addrinfo_event ev;

	EXPECT_EQ(-EAGAIN, rai_dev_get_event(self->fd, &ev));
	FD_STILL_WORKS();
}

TEST_F(val, get_event_bad_arg_pointer_efault_keeps_event)
{
	struct rdma_addrinfo_event ev;
	__u32 h;

	ASSERT_EQ(0, queued_event(self->fd, &h, 0xfeed));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_GET_EVENT,
					 self->bad));
	/* The event was not lost with the failed copy. */
	EXPECT_EQ(0, rai_dev_get_event(self->fd, &ev));
	EXPECT_EQ(0xfeed, ev.context);
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, read_empty_nonblocking_eagain)
{
	struct rdma_addrinfo_event ev;

	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);
	FD_STILL_WORKS();
}

TEST_F(val, read_buffer_smaller_than_event_einval)
{
	struct rdma_addrinfo_event ev;
	__u32 h;

	ASSERT_EQ(0, queued_event(self->fd, &h, 0xbeef));
	EXPECT_EQ(-1, read(self->fd, &ev, sizeof(ev) - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, read(self->fd, &ev, 1));
	EXPECT_EQ(EINVAL, errno);
	/* The event is still there, whole. */
	EXPECT_EQ((ssize_t)sizeof(ev), read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(0xbeef, ev.context);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, read_bad_buffer_efault_keeps_event)
{
	struct rdma_addrinfo_event ev;
	__u32 h;

	ASSERT_EQ(0, queued_event(self->fd, &h, 0xcafe));
	EXPECT_EQ(-1, read(self->fd, self->bad, sizeof(ev)));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ((ssize_t)sizeof(ev), read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(0xcafe, ev.context);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

/* ---- DESTROY ---------------------------------------------------------- */

TEST_F(val, destroy_bad_arg_pointer_efault)
{
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_DESTROY,
					 self->bad));
	FD_STILL_WORKS();
}

/*
 * The grammar of the ABI header (node_len): a name that is no literal has
 * letters, digits, '-', '_' and '.' only (IDN names in their ASCII form).
 * Before, every byte 0x21-0xff but ':', ';' and ',' passed, and such
 * names went to the upcall, whose root helper ran getaddrinfo() on them.
 */
TEST_F(val, resolve_dns_name_outside_the_grammar_einval)
{
	static const char *const bad[] = {
		"a/b." RAI_WORLD_DNS_ZONE, "a%b." RAI_WORLD_DNS_ZONE,
		"\x80." RAI_WORLD_DNS_ZONE, "*." RAI_WORLD_DNS_ZONE,
		"a#b." RAI_WORLD_DNS_ZONE, "@x." RAI_WORLD_DNS_ZONE,
		"caf\xc3\xa9." RAI_WORLD_DNS_ZONE, "a\\b." RAI_WORLD_DNS_ZONE,
		"a~b." RAI_WORLD_DNS_ZONE, "\xff",
	};
	struct rdma_addrinfo_resolve r;
	unsigned int i, taken = 0;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		valid_req(&r);
		r.ai_flags = 0;
		r.node = (uintptr_t)bad[i];
		r.node_len = strlen(bad[i]);
		ret = resolve_err(self->fd, &r);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("name %u of the list", i);
		taken += !ret;
	}
	TH_LOG("%u of %zu names outside the grammar taken", taken,
	       sizeof(bad) / sizeof(bad[0]));
	FD_STILL_WORKS();
}

/* Every byte the grammar has, an IDN name among them, is taken. */
TEST_F(val, resolve_dns_name_of_the_grammar_taken)
{
	static const char *const good[] = {
		"xn--caf-dma." RAI_WORLD_DNS_ZONE,
		"A-1_b.Z-9." RAI_WORLD_DNS_ZONE ".",
	};
	struct rdma_addrinfo_resolve r;
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		valid_req(&r);
		r.ai_flags = 0;
		r.node = (uintptr_t)good[i];
		r.node_len = strlen(good[i]);
		ASSERT_EQ(0, rai_resolve(self->fd, &r)) TH_LOG("%s", good[i]);
		EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
	}
	FD_STILL_WORKS();
}

TEST_F(val, destroy_reserved_nonzero_einval)
{
	struct rdma_addrinfo_destroy d;
	__u32 h;

	ASSERT_EQ(0, done_req(self->fd, &h));
	memset(&d, 0, sizeof(d));
	d.handle = h;
	d.reserved = 1;
	EXPECT_EQ(-EINVAL,
		  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_DESTROY, &d));
	/* Rejected means not destroyed. */
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, destroy_unknown_flags_einval)
{
	struct rdma_addrinfo_destroy d;
	__u32 h;
	int bit;

	ASSERT_EQ(0, done_req(self->fd, &h));
	for (bit = 0; bit < 32; bit++) {
		memset(&d, 0, sizeof(d));
		d.handle = h;
		d.flags = 1u << bit;
		EXPECT_EQ(-EINVAL,
			  rai_dev_ioctl(self->fd, RDMA_ADDRINFO_IOC_DESTROY,
					&d))
			TH_LOG("destroy flag bit %d accepted", bit);
	}
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, destroy_unknown_handle_enoent)
{
	EXPECT_EQ(-ENOENT, rai_destroy(self->fd, 4242, NULL));
	EXPECT_EQ(-ENOENT, rai_destroy(self->fd, 0, NULL));
	EXPECT_EQ(-ENOENT, rai_destroy(self->fd, 0xffffffffu, NULL));
	FD_STILL_WORKS();
}

TEST_F(val, destroy_twice_enoent)
{
	__u32 h;

	ASSERT_EQ(0, done_req(self->fd, &h));
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	EXPECT_EQ(-ENOENT, rai_destroy(self->fd, h, NULL));
	FD_STILL_WORKS();
}

/* ---- unknown commands ------------------------------------------------- */

TEST_F(val, unknown_ioctl_number_enotty)
{
	char buf[512];
	int nr;

	memset(buf, 0, sizeof(buf));
	/* 0x05-0x07: the resident resolver's (resolver_*_test). */
	for (nr = 0x08; nr < 0x100; nr++) {
		EXPECT_EQ(-ENOTTY,
			  rai_dev_ioctl(self->fd,
					_IOWR(RDMA_ADDRINFO_IOC_MAGIC, nr,
					      struct rdma_addrinfo_query),
					buf))
			TH_LOG("ioctl nr 0x%x accepted", nr);
		EXPECT_EQ(-ENOTTY,
			  rai_dev_ioctl(self->fd,
					_IO(RDMA_ADDRINFO_IOC_MAGIC, nr), buf))
			TH_LOG("_IO nr 0x%x accepted", nr);
	}
	FD_STILL_WORKS();
}

TEST_F(val, unknown_ioctl_magic_enotty)
{
	char buf[512];

	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(-ENOTTY,
		  rai_dev_ioctl(self->fd,
				_IOR(0xDB, 0x00, struct rdma_addrinfo_info),
				buf));
	EXPECT_EQ(-ENOTTY,
		  rai_dev_ioctl(self->fd,
				_IOWR(0xD9, 0x01, struct rdma_addrinfo_resolve),
				buf));
	EXPECT_EQ(-ENOTTY, rai_dev_ioctl(self->fd, TCGETS, buf));
	FD_STILL_WORKS();
}

TEST_F(val, known_number_wrong_size_or_direction_enotty)
{
	char buf[512];

	memset(buf, 0, sizeof(buf));
	/* RESOLVE's number with another size or direction. */
	EXPECT_EQ(-ENOTTY,
		  rai_dev_ioctl(self->fd,
				_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x01, __u64),
				buf));
	EXPECT_EQ(-ENOTTY,
		  rai_dev_ioctl(self->fd,
				_IOW(RDMA_ADDRINFO_IOC_MAGIC, 0x01,
				     struct rdma_addrinfo_resolve), buf));
	/*
	 * GET_INFO's number with a struct smaller than version 1 (a larger
	 * one is taken: get_info_size_versions_the_struct).
	 */
	EXPECT_EQ(-ENOTTY,
		  rai_dev_ioctl(self->fd,
				_IOR(RDMA_ADDRINFO_IOC_MAGIC, 0x00,
				     char[RDMA_ADDRINFO_INFO_SIZE_V1 - 4]),
				buf));
	/* DESTROY's number as _IO. */
	EXPECT_EQ(-ENOTTY,
		  rai_dev_ioctl(self->fd, _IO(RDMA_ADDRINFO_IOC_MAGIC, 0x04),
				buf));
	FD_STILL_WORKS();
}

TEST_HARNESS_MAIN
