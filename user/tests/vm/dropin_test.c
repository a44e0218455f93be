// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The library as a drop-in for librdmacm (issue 33 items 1, 3 to 7),
 * each case against librdmacm's own answer in the same process:
 * IPv4 literals as glibc reads them (inet_aton's forms), the process-wide
 * descriptor closed or its number reused by the program, a device that
 * may not be opened, a source address as long as a sockaddr_storage,
 * malformed names, a source of another family, AF_IB results of IP
 * literals and of no node.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define DEVICE	"/dev/infiniband/rdma_addrinfo"

typedef int (*gai_fn)(const char *node, const char *service,
		      const struct rdma_addrinfo *hints,
		      struct rdma_addrinfo **res);
typedef void (*free_fn)(struct rdma_addrinfo *res);

/* librdmacm's own rdma_getaddrinfo() and rdma_freeaddrinfo(). */
static gai_fn theirs(free_fn *freefn)
{
	void *lib = dlopen("librdmacm.so.1", RTLD_LAZY);

	if (!lib)
		return NULL;
	*freefn = (free_fn)dlvsym(lib, "rdma_freeaddrinfo", "RDMACM_1.0");
	return (gai_fn)dlvsym(lib, "rdma_getaddrinfo", "RDMACM_1.0");
}

static const char *dst_of(const struct rdma_addrinfo *ai, char *buf,
			  size_t len)
{
	snprintf(buf, len, "-");
	if (ai && ai->ai_dst_len)
		rai_ntop(ai->ai_dst_addr, buf, len);
	return buf;
}

/*
 * Both calls on the same arguments: the same return, and for a success
 * the first result's destination and family alike, and its source's
 * length where librdmacm gives one.
 * Return: the library's return.
 */
static int as_librdmacm(struct __test_metadata *_metadata, const char *node,
			const char *service, const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo *l = NULL, *o = NULL;
	char ld[INET6_ADDRSTRLEN], od[INET6_ADDRSTRLEN];
	free_fn sys_free = NULL;
	gai_fn sys = theirs(&sys_free);
	int lret, oret;

	if (!sys || !sys_free) {
		EXPECT_TRUE(0 && "librdmacm's rdma_getaddrinfo not found");
		return -1;
	}
	lret = sys(node, service, hints, &l);
	oret = rdma_getaddrinfo(node, service, hints, &o);
	TH_LOG("'%s': librdmacm %d %s, library %d %s", node, lret,
	       lret ? "" : dst_of(l, ld, sizeof(ld)), oret,
	       oret ? "" : dst_of(o, od, sizeof(od)));
	EXPECT_EQ(lret, oret);
	if (!lret && !oret) {
		EXPECT_STREQ(dst_of(l, ld, sizeof(ld)),
			     dst_of(o, od, sizeof(od)));
		EXPECT_EQ(l->ai_family, o->ai_family);
		EXPECT_EQ(l->ai_dst_len, o->ai_dst_len);
		/* a source where librdmacm has none: the kernel's choice */
		if (l->ai_src_len)
			EXPECT_EQ(l->ai_src_len, o->ai_src_len);
	}
	if (!lret)
		sys_free(l);
	if (!oret)
		rdma_freeaddrinfo(o);
	return oret;
}

/* RAI_IP4_B as the other forms inet_aton() reads. */
struct ip4_forms {
	char octal[32], hex[16], number[16], short2[24], short3[24];
	char octal_part[32];	/* 0 before the third part: not its decimal */
};

static int ip4_forms(struct ip4_forms *f)
{
	struct in_addr a;
	unsigned char *b = (unsigned char *)&a;
	uint32_t h;

	if (inet_pton(AF_INET, RAI_IP4_B, &a) != 1)
		return -1;
	h = ntohl(a.s_addr);
	snprintf(f->octal, sizeof(f->octal), "0%o.0%o.0%o.0%o", b[0], b[1],
		 b[2], b[3]);
	snprintf(f->hex, sizeof(f->hex), "0x%08x", h);
	snprintf(f->number, sizeof(f->number), "%u", h);
	snprintf(f->short2, sizeof(f->short2), "%u.%u", b[0], h & 0xffffff);
	snprintf(f->short3, sizeof(f->short3), "%u.%u.%u", b[0], b[1],
		 h & 0xffff);
	snprintf(f->octal_part, sizeof(f->octal_part), "%u.%u.0%u.%u", b[0],
		 b[1], b[2], b[3]);
	return 0;
}

/* 127.1, 0x7f000001, 2130706433 and the world's peer in each form. */
TEST(ipv4_literal_forms_numerichost)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST };
	struct ip4_forms f;

	ASSERT_EQ(0, ip4_forms(&f));
	EXPECT_EQ(0, as_librdmacm(_metadata, "127.1", "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, "0x7f000001", "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, "2130706433", "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, "0x7f.1", "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.octal, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.hex, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.number, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.short2, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.short3, "7471", &hints));
}

/* Without the flag: literals still, never names for DNS. */
TEST(ipv4_literal_forms_without_numerichost)
{
	struct ip4_forms f;

	ASSERT_EQ(0, ip4_forms(&f));
	EXPECT_EQ(0, as_librdmacm(_metadata, "127.1", "7471", NULL));
	EXPECT_EQ(0, as_librdmacm(_metadata, "0x7f000001", "7471", NULL));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.octal, "7471", NULL));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.number, "7471", NULL));
}

/* 192.168.077.2 is 192.168.63.2 for glibc, not the world's peer. */
TEST(ipv4_leading_zero_is_octal)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST };
	struct ip4_forms f;

	ASSERT_EQ(0, ip4_forms(&f));
	EXPECT_EQ(0, as_librdmacm(_metadata, f.octal_part, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, "127.0.0.010", "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, "127.0.0.010", "7471", NULL));
}

/* 127.0.0.09: no octal number, so no literal for glibc. */
TEST(ipv4_dotted_quad_glibc_refuses)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST };

	EXPECT_NE(0, as_librdmacm(_metadata, "127.0.0.09", "7471", &hints));
	/* a name then: DNS does not know it */
	EXPECT_NE(0, as_librdmacm(_metadata, "127.0.0.09", "7471", NULL));
	/* trailing blanks: no literal either (glibc >= 2.31) */
	EXPECT_NE(0, as_librdmacm(_metadata, "127.0.0.1 ", "7471", &hints));
}

/* The same on an id: the module never resolves 127.0.0.09 as 127.0.0.9. */
TEST(ipv4_dotted_quad_glibc_refuses_on_an_id)
{
	static const int flags[] = { RAI_NUMERICHOST, 0 };
	struct rdma_addrinfo hints = { 0 }, *res;
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		ch = rdma_create_event_channel();
		ASSERT_NE(NULL, ch);
		ASSERT_EQ(0, rdma_create_id(ch, &id, NULL, RDMA_PS_TCP));
		hints.ai_flags = flags[i];
		if (!rdma_resolve_addrinfo(id, "127.0.0.09", "7471", &hints)) {
			ASSERT_EQ(0, rai_wait_cm_event(ch, &ev, 20000));
			EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_ERROR, ev->event);
			rdma_ack_cm_event(ev);
			res = NULL;
			if (!rdma_query_addrinfo(id, &res)) {
				char d[INET6_ADDRSTRLEN];

				EXPECT_EQ(NULL, res) TH_LOG("resolved to %s",
					dst_of(res, d, sizeof(d)));
				rdma_freeaddrinfo(res);
			}
		} else {
			TH_LOG("flags %#x: refused at once: %s", flags[i],
			       strerror(errno));
		}
		rdma_destroy_id(id);
		rdma_destroy_event_channel(ch);
	}
}

/* The descriptors of the module's device, in @fds (at most @max). */
static int device_fds(int *fds, int max)
{
	char path[64], link[256];
	struct dirent *d;
	int n = 0, fd;
	ssize_t len;
	DIR *dir = opendir("/proc/self/fd");

	if (!dir)
		return -1;
	while ((d = readdir(dir)) && n < max) {
		fd = atoi(d->d_name);
		if (d->d_name[0] == '.' || fd == dirfd(dir))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (!strcmp(link, DEVICE))
			fds[n++] = fd;
	}
	closedir(dir);
	return n;
}

/* One rdma_getaddrinfo() of the peer's address: its return. */
static int numeric_peer_lookup(void)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST }, *res;
	int ret = rdma_getaddrinfo(RAI_IP4_B, "7471", &hints, &res);

	if (!ret)
		rdma_freeaddrinfo(res);
	return ret;
}

/* The library's descriptor after a first call (the test's only one). */
static int the_sync_fd(struct __test_metadata *_metadata)
{
	int fds[4], n;

	if (numeric_peer_lookup())
		return -1;
	n = device_fds(fds, 4);
	if (n != 1) {
		TH_LOG("%d descriptors of %s", n, DEVICE);
		return -1;
	}
	return fds[0];
}

/* A daemon's start closes every descriptor: the next call still works. */
TEST(closed_descriptor_is_opened_again)
{
	int fd = the_sync_fd(_metadata), fds[4];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	errno = 0;
	EXPECT_EQ(0, numeric_peer_lookup())
		TH_LOG("after close(): errno %s", strerror(errno));
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP4_B, "7471", NULL));
	EXPECT_EQ(1, device_fds(fds, 4));
}

/*
 * The number reused by the program's own file: no ioctl goes to it, it
 * stays open and the same file, and the library opens its own again.
 */
TEST(reused_number_is_left_alone)
{
	int fd = the_sync_fd(_metadata), pipefd[2], fds[4];
	struct stat before, after;
	char c = 'x';

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, pipe(pipefd));
	if (pipefd[0] != fd) {
		ASSERT_EQ(fd, dup2(pipefd[0], fd));
		close(pipefd[0]);
	}
	ASSERT_EQ(0, fstat(fd, &before));
	errno = 0;
	EXPECT_EQ(0, numeric_peer_lookup())
		TH_LOG("with the number reused: errno %s", strerror(errno));
	ASSERT_EQ(0, fstat(fd, &after)) TH_LOG("the program's file closed");
	EXPECT_EQ(before.st_ino, after.st_ino);
	EXPECT_EQ(1, write(pipefd[1], &c, 1));
	EXPECT_EQ(1, read(fd, &c, 1));
	EXPECT_EQ(1, device_fds(fds, 4));
	close(fd);
	close(pipefd[1]);
}

#define THREADS	4
#define CALLS	200

static void *calls(void *arg)
{
	int i, *failed = arg;

	for (i = 0; i < CALLS; i++)
		if (numeric_peer_lookup())
			(*failed)++;
	return NULL;
}

/*
 * Threads that find the descriptor closed at once open one between them
 * (or close their own): one descriptor of the device is left.
 */
TEST(threads_after_close_leave_one_descriptor)
{
	int fd = the_sync_fd(_metadata), failed[THREADS] = { 0 }, fds[8], i;
	pthread_t t[THREADS];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, calls, &failed[i]));
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, failed[i]);
	}
	EXPECT_EQ(1, device_fds(fds, 8));
}

/* A child of fork() that closes what it inherited resolves too. */
TEST(child_closing_inherited_descriptor)
{
	int fd = the_sync_fd(_metadata), status;
	pid_t pid;

	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(fd);
		_exit(numeric_peer_lookup() ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(0, numeric_peer_lookup());
}

/*
 * In a child: the device made unopenable as a container's rules make it
 * (a nodev bind mount: EACCES even for root), stderr to a pipe.  Each
 * call answers as librdmacm's; nothing is said on stderr.
 */
TEST(device_refused_falls_back_to_librdmacm)
{
	int pipefd[2], status, fd;
	char buf[4096];
	ssize_t n, len;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		if (unshare(CLONE_NEWNS) ||
		    (mount(NULL, "/", "none", MS_REC | MS_PRIVATE, NULL) &&
		     errno != EINVAL) ||
		    mount(DEVICE, DEVICE, "none", MS_BIND, NULL) ||
		    mount(NULL, DEVICE, "none",
			  MS_BIND | MS_REMOUNT | MS_NODEV, NULL))
			_exit(2);
		fd = open(DEVICE, O_RDWR);
		if (fd >= 0 || errno != EACCES)
			_exit(3);
		dup2(pipefd[1], 2);
		as_librdmacm(_metadata, RAI_IP4_B, "7471", NULL);
		as_librdmacm(_metadata, "localhost", "7471", NULL);
		_exit(_metadata->passed ? 0 : 1);
	}
	close(pipefd[1]);
	/* all of it, to its end: the child writes its log there too */
	len = 0;
	while ((n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		if ((size_t)(len += n) == sizeof(buf) - 1)
			len = 0;	/* only the last part is kept */
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2 || WEXITSTATUS(status) == 3)
		SKIP(return, "could not make the device refuse its open (%d)",
		     WEXITSTATUS(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	buf[len] = '\0';
	EXPECT_EQ(NULL, strstr(buf, "librdma_addrinfo")) TH_LOG("%s", buf);
}

/* libfabric's hints: ai_src_len = sizeof(struct sockaddr_storage). */
TEST(source_as_long_as_sockaddr_storage)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct rdma_addrinfo hints = {
		.ai_src_addr = (struct sockaddr *)&ss,
		.ai_src_len = sizeof(ss),
		.ai_port_space = RDMA_PS_TCP,
	};

	sin->sin_family = AF_INET;
	ASSERT_EQ(1, inet_pton(AF_INET, RAI_IP4_A, &sin->sin_addr));
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints));
	hints.ai_flags = RAI_NUMERICHOST;
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints));
	hints.ai_flags = RAI_PASSIVE;
	EXPECT_EQ(0, as_librdmacm(_metadata, NULL, "7471", &hints));
}

/*
 * Malformed names (issue 33 item 4): glibc refuses them, librdmacm says
 * EAI_NONAME, with or without QP type and port space in the hints (never
 * EAI_QPTYPE, which is RAI_SA's) and with or without RAI_NUMERICHOST.
 */
static void malformed_name_cases(struct __test_metadata *_metadata,
				 const char *name)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_RC,
				       .ai_port_space = RDMA_PS_TCP };

	EXPECT_NE(0, as_librdmacm(_metadata, name, "7471", &hints));
	hints.ai_flags = RAI_NUMERICHOST;
	EXPECT_NE(0, as_librdmacm(_metadata, name, "7471", &hints));
	EXPECT_NE(0, as_librdmacm(_metadata, name, "7471", NULL));
}

TEST(malformed_name_with_a_blank_is_eai_noname_as_in_librdmacm)
{
	malformed_name_cases(_metadata, "my host");
}

TEST(malformed_name_in_brackets_is_eai_noname_as_in_librdmacm)
{
	malformed_name_cases(_metadata, "[fe80::1]");
}

TEST(malformed_name_of_unknown_scope_is_eai_noname_as_in_librdmacm)
{
	malformed_name_cases(_metadata, "fe80::1%bogus0");
}

/*
 * Names glibc's resolver cannot put in a query: an empty label (a..b, .a)
 * or one of 64 bytes.  librdmacm's EAI_NONAME (was EAI_FAIL here).
 */
TEST(name_with_an_empty_or_long_label_is_as_in_librdmacm)
{
	char label64[80];

	malformed_name_cases(_metadata, "a..b");
	malformed_name_cases(_metadata, ".a");
	memset(label64, 'x', 64);
	strcpy(label64 + 64, ".example");
	malformed_name_cases(_metadata, label64);
}

/* A sockaddr of @family (AF_INET, AF_INET6, AF_IB) for @ip (a GID too). */
static socklen_t sockaddr_of(struct sockaddr_storage *ss, int family,
			     const char *ip)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_ib *sib = (struct sockaddr_ib *)ss;

	memset(ss, 0, sizeof(*ss));
	ss->ss_family = family;
	switch (family) {
	case AF_INET:
		inet_pton(AF_INET, ip, &sin->sin_addr);
		return sizeof(*sin);
	case AF_INET6:
		inet_pton(AF_INET6, ip, &sin6->sin6_addr);
		return sizeof(*sin6);
	default:
		inet_pton(AF_INET6, ip, &sib->sib_addr);
		sib->sib_pkey = htons(0xffff);
		return sizeof(*sib);
	}
}

/*
 * The hints' source restricts nothing with ai_family AF_UNSPEC (issue 33
 * item 3): librdmacm asks glibc without it and echoes it on the result.
 */
TEST(source_of_another_family_restricts_nothing)
{
	struct sockaddr_storage src;
	struct rdma_addrinfo hints = {
		.ai_src_addr = (struct sockaddr *)&src,
		.ai_qp_type = IBV_QPT_RC,
		.ai_port_space = RDMA_PS_TCP,
	};
	char gid[INET6_ADDRSTRLEN + 8];

	hints.ai_src_len = sockaddr_of(&src, AF_INET, RAI_IP4_A);
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP6_B, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, "::1", "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_ZONE_PEER, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, NULL, "7471", &hints));
	hints.ai_flags = RAI_NUMERICHOST;
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP6_B, "7471", &hints));
	hints.ai_flags = 0;
	hints.ai_src_len = sockaddr_of(&src, AF_INET6, RAI_IP6_A);
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_ZONE_PEER, "7471", &hints));
	/* an AF_IB source (the peer's IPv4-mapped GID): IP results */
	snprintf(gid, sizeof(gid), "::ffff:%s", RAI_IP4_A);
	hints.ai_src_len = sockaddr_of(&src, AF_IB, gid);
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, RAI_ZONE_PEER, "7471", &hints));
	EXPECT_EQ(0, as_librdmacm(_metadata, NULL, "7471", &hints));
}

/*
 * The first result's AF_IB address on both sides: the fields librdmacm
 * fills from glibc's answer.  Of an IPv4 answer it reads a sockaddr_in6
 * (ucma_convert_in6()): sib_flowinfo is the IPv4 address, the GID's first
 * half sin_zero; its second half and sib_scope_id lie past glibc's
 * sockaddr_in (heap bytes there), 0 here.
 */
static void ib_as_librdmacm(struct __test_metadata *_metadata,
			    const char *node, const char *service,
			    const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo *l = NULL, *o = NULL;
	const struct sockaddr_ib *ls, *os;
	free_fn sys_free = NULL;
	gai_fn sys = theirs(&sys_free);
	int lret, oret, passive = hints->ai_flags & RAI_PASSIVE;
	char lg[INET6_ADDRSTRLEN], og[INET6_ADDRSTRLEN];

	ASSERT_NE(NULL, sys);
	lret = sys(node, service, hints, &l);
	oret = rdma_getaddrinfo(node, service, hints, &o);
	TH_LOG("'%s' flags %#x: librdmacm %d family %d, library %d family %d",
	       node ? node : "(null)", hints->ai_flags, lret,
	       lret ? -1 : l->ai_family, oret, oret ? -1 : o->ai_family);
	ASSERT_EQ(lret, oret);
	if (lret)
		return;
	EXPECT_EQ(AF_IB, l->ai_family);
	EXPECT_EQ(l->ai_family, o->ai_family);
	EXPECT_EQ(l->ai_port_space, o->ai_port_space);
	EXPECT_EQ(l->ai_qp_type, o->ai_qp_type);
	EXPECT_EQ(passive ? l->ai_src_len : l->ai_dst_len,
		  passive ? o->ai_src_len : o->ai_dst_len);
	ls = (const void *)(passive ? l->ai_src_addr : l->ai_dst_addr);
	os = (const void *)(passive ? o->ai_src_addr : o->ai_dst_addr);
	if (o->ai_family != AF_IB || !ls || !os)
		goto out;
	TH_LOG("GID librdmacm %s flowinfo %#x, library %s flowinfo %#x",
	       inet_ntop(AF_INET6, &ls->sib_addr, lg, sizeof(lg)),
	       ntohl(ls->sib_flowinfo),
	       inet_ntop(AF_INET6, &os->sib_addr, og, sizeof(og)),
	       ntohl(os->sib_flowinfo));
	EXPECT_EQ(ls->sib_family, os->sib_family);
	EXPECT_EQ(ls->sib_pkey, os->sib_pkey);
	EXPECT_EQ(ls->sib_flowinfo, os->sib_flowinfo);
	EXPECT_EQ(0, memcmp(&ls->sib_addr, &os->sib_addr, 8));
	if (node && strchr(node, ':')) {
		EXPECT_EQ(0, memcmp(&ls->sib_addr, &os->sib_addr, 16));
		EXPECT_EQ(ls->sib_scope_id, os->sib_scope_id);
	}
	EXPECT_EQ(ls->sib_sid, os->sib_sid);
	EXPECT_EQ(ls->sib_sid_mask, os->sib_sid_mask);
out:
	sys_free(l);
	if (!oret)
		rdma_freeaddrinfo(o);
}

/*
 * AF_IB with RAI_FAMILY and RAI_NUMERICHOST (issue 33 item 5): librdmacm
 * makes an AF_IB result of glibc's first answer for no node and for an
 * IPv4 literal too (rstream, cmatose and udaddy servers with -f gid).
 */
TEST(af_ib_numeric_without_node_or_with_ipv4_literal)
{
	struct rdma_addrinfo hints = {
		.ai_flags = RAI_FAMILY | RAI_NUMERICHOST | RAI_PASSIVE,
		.ai_family = AF_IB,
	};

	ib_as_librdmacm(_metadata, NULL, "7471", &hints);
	hints.ai_port_space = RDMA_PS_IB;
	ib_as_librdmacm(_metadata, NULL, "7471", &hints);
	ib_as_librdmacm(_metadata, RAI_IP4_A, "7471", &hints);
	hints.ai_flags &= ~RAI_PASSIVE;
	ib_as_librdmacm(_metadata, NULL, "7471", &hints);
	ib_as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_port_space = 0;
	hints.ai_qp_type = IBV_QPT_UD;
	ib_as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints);
	ib_as_librdmacm(_metadata, "::1", "7471", &hints);
}

/*
 * The same AF_IB result through an id (rdma_resolve_addrinfo(), then
 * rdma_query_addrinfo()) as from rdma_getaddrinfo().
 */
TEST(af_ib_numeric_of_ipv4_on_an_id)
{
	struct rdma_addrinfo hints = {
		.ai_flags = RAI_FAMILY | RAI_NUMERICHOST,
		.ai_family = AF_IB,
	}, *res = NULL, *sync = NULL;
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_IP4_B, "7471", &hints, &sync));
	ch = rdma_create_event_channel();
	ASSERT_NE(NULL, ch);
	ASSERT_EQ(0, rdma_create_id(ch, &id, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, rdma_resolve_addrinfo(id, RAI_IP4_B, "7471", &hints));
	ASSERT_EQ(0, rai_wait_cm_event(ch, &ev, 20000));
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, ev->event);
	rdma_ack_cm_event(ev);
	ASSERT_EQ(0, rdma_query_addrinfo(id, &res));
	EXPECT_EQ(AF_IB, res->ai_family);
	ASSERT_EQ(sync->ai_dst_len, res->ai_dst_len);
	EXPECT_EQ(0, memcmp(sync->ai_dst_addr, res->ai_dst_addr,
			    res->ai_dst_len));
	EXPECT_EQ(0, res->ai_src_len);
	rdma_freeaddrinfo(res);
	rdma_freeaddrinfo(sync);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
}

TEST_HARNESS_MAIN
