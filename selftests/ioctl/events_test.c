// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Events against DESTROY, with a slow copy to user space: the buffer of
 * GET_EVENT, read() or RESOLVE is registered with userfaultfd, so the
 * kernel's copy_to_user() waits in a page fault until the test lets it go.
 *
 *  - A reader has taken an event off the queue and waits in its copy;
 *    another thread destroys that request and starts a new one: the new
 *    request has another handle, and the stale event is never returned
 *    (DESTROY counts it as dropped).
 *  - An asynchronous RESOLVE whose copy-out of the handle fails with
 *    EFAULT leaves no request, and no other thread ever reads an event
 *    of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"

/* A page whose first access from the kernel waits for the test. */
struct slow_page {
	int uffd;
	void *page;
	long size;
};

/*
 * An anonymous page registered with a new userfaultfd: missing (the first
 * access waits) or, with write_protect, present and zero-filled, its
 * writes waiting once slow_page_protect() is called.
 */
static int slow_page_open(struct slow_page *sp, bool write_protect)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;

	sp->size = sysconf(_SC_PAGESIZE);
	/* No UFFD_USER_MODE_ONLY: faults of the kernel must wait too. */
	sp->uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (sp->uffd < 0)
		return -errno;
	if (ioctl(sp->uffd, UFFDIO_API, &api))
		return -errno;
	sp->page = mmap(NULL, sp->size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sp->page == MAP_FAILED) {
		sp->page = NULL;
		return -errno;
	}
	if (write_protect)
		memset(sp->page, 0, sp->size);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)sp->page;
	reg.range.len = sp->size;
	reg.mode = write_protect ? UFFDIO_REGISTER_MODE_WP :
				   UFFDIO_REGISTER_MODE_MISSING;
	return ioctl(sp->uffd, UFFDIO_REGISTER, &reg) ? -errno : 0;
}

static int slow_page_protect(struct slow_page *sp)
{
	struct uffdio_writeprotect wp;

	memset(&wp, 0, sizeof(wp));
	wp.range.start = (unsigned long)sp->page;
	wp.range.len = sp->size;
	wp.mode = UFFDIO_WRITEPROTECT_MODE_WP;
	return ioctl(sp->uffd, UFFDIO_WRITEPROTECT, &wp) ? -errno : 0;
}

/* Wait until some thread faults on the page: 0 or -ETIMEDOUT/-errno. */
static int slow_page_wait_fault(struct slow_page *sp, int timeout_ms)
{
	struct pollfd p = { .fd = sp->uffd, .events = POLLIN };
	struct uffd_msg msg;
	int ret;

	ret = poll(&p, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (!ret)
		return -ETIMEDOUT;
	if (read(sp->uffd, &msg, sizeof(msg)) != sizeof(msg))
		return -errno;
	return msg.event == UFFD_EVENT_PAGEFAULT ? 0 : -EPROTO;
}

/* Let a MISSING fault go on: the page appears, zero-filled. */
static int slow_page_release(struct slow_page *sp)
{
	struct uffdio_zeropage z;

	memset(&z, 0, sizeof(z));
	z.range.start = (unsigned long)sp->page;
	z.range.len = sp->size;
	return ioctl(sp->uffd, UFFDIO_ZEROPAGE, &z) ? -errno : 0;
}

/* Make the waiting access fail: the page goes, the waiter wakes. */
static void slow_page_fail(struct slow_page *sp)
{
	munmap(sp->page, sp->size);
	sp->page = NULL;
	close(sp->uffd);
	sp->uffd = -1;
}

/*
 * Run fn(arg) in a new thread *thr and wait until it faults on the page:
 * 0, or -errno with the thread ended (its access failed).
 */
static int slow_page_fault_in(struct slow_page *sp, pthread_t *thr,
			      void *(*fn)(void *), void *arg)
{
	int ret = pthread_create(thr, NULL, fn, arg);

	if (ret)
		return -ret;
	ret = slow_page_wait_fault(sp, 10000);
	if (ret) {
		slow_page_fail(sp);
		pthread_join(*thr, NULL);
	}
	return ret;
}

static void slow_page_close(struct slow_page *sp)
{
	if (sp->page)
		munmap(sp->page, sp->size);
	if (sp->uffd >= 0)
		close(sp->uffd);
	sp->page = NULL;
	sp->uffd = -1;
}

FIXTURE(events) {
	int fd;
	struct slow_page sp;
};

FIXTURE_VARIANT(events) {
	bool use_read;
};

FIXTURE_VARIANT_ADD(events, get_event) {
	.use_read = false,
};

FIXTURE_VARIANT_ADD(events, read) {
	.use_read = true,
};

FIXTURE_SETUP(events)
{
	self->sp.uffd = -1;
	self->sp.page = NULL;
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(events)
{
	slow_page_close(&self->sp);
	if (self->fd >= 0)
		close(self->fd);
}

struct reader {
	int fd;
	bool use_read;
	void *buf;
	int ret;		/* 0 or -errno */
	ssize_t bytes;		/* read(): what it returned */
	struct rdma_addrinfo_event ev;
};

static void *read_one(void *arg)
{
	struct reader *r = arg;
	ssize_t n;

	if (r->use_read) {
		n = read(r->fd, r->buf, sizeof(r->ev));
		r->ret = n < 0 ? -errno : 0;
		r->bytes = n;
	} else {
		r->ret = rai_dev_ioctl(r->fd, RDMA_ADDRINFO_IOC_GET_EVENT,
				       r->buf);
		r->bytes = r->ret ? 0 : sizeof(r->ev);
	}
	if (r->bytes == sizeof(r->ev))
		memcpy(&r->ev, r->buf, sizeof(r->ev));
	return NULL;
}

static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 ? 0 : -ETIMEDOUT;
}

TEST_F_TIMEOUT(events, destroyed_while_being_read_never_returned, 60)
{
	struct rdma_addrinfo_event ev;
	struct reader r;
	__u32 h1, h2, dropped = 0;
	pthread_t thr;
	int ret;

	ret = slow_page_open(&self->sp, false);
	if (ret == -ENOSYS || ret == -EPERM)
		SKIP(return, "userfaultfd: %s", strerror(-ret));
	ASSERT_EQ(0, ret) TH_LOG("userfaultfd: %s", strerror(-ret));

	ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.1", NULL, AF_INET,
				       0, 0x1, &h1));
	ASSERT_EQ(0, wait_readable(self->fd, 5000));

	/* The reader takes the event and waits in its copy. */
	memset(&r, 0, sizeof(r));
	r.fd = self->fd;
	r.use_read = variant->use_read;
	r.buf = self->sp.page;
	ret = slow_page_fault_in(&self->sp, &thr, read_one, &r);
	ASSERT_EQ(0, ret) TH_LOG("the reader never reached its copy");
	EXPECT_FALSE(rai_readable(self->fd));

	/* Meanwhile: the request is destroyed and another one made. */
	ASSERT_EQ(0, rai_destroy(self->fd, h1, &dropped));
	EXPECT_EQ(1, dropped) TH_LOG("the event being read is not dropped");
	ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.2", NULL, AF_INET,
				       0, 0x2, &h2));
	EXPECT_NE(h1, h2) TH_LOG("handle %u reused at once", h1);
	ASSERT_EQ(0, rai_wait_done(self->fd, h2, 5000));

	/* The copy goes on: the destroyed request's event is not reported. */
	ASSERT_EQ(0, slow_page_release(&self->sp));
	ASSERT_EQ(0, pthread_join(thr, NULL));
	if (!r.ret && r.bytes == sizeof(r.ev)) {
		EXPECT_NE(h1, r.ev.handle)
			TH_LOG("event of destroyed handle %u returned after its DESTROY (context %#llx)",
			       h1, (unsigned long long)r.ev.context);
		EXPECT_EQ(0x2, r.ev.context);
		EXPECT_EQ(h2, r.ev.handle);
	} else {
		/* Nothing else was due yet: no event, or h2's still queued. */
		EXPECT_EQ(-EAGAIN, r.ret);
		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 5000));
		EXPECT_EQ(h2, ev.handle);
		EXPECT_EQ(0x2, ev.context);
	}
	EXPECT_EQ(-EAGAIN, rai_dev_get_event(self->fd, &ev));
	EXPECT_EQ(0, rai_destroy(self->fd, h2, NULL));
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

struct resolver {
	int fd;
	struct rdma_addrinfo_resolve *req;
	int ret;
};

static void *resolve_one(void *arg)
{
	struct resolver *rs = arg;

	rs->ret = rai_resolve(rs->fd, rs->req);
	return NULL;
}

/* The variant only says how the other thread reads events. */
static int read_event(int fd, bool use_read, struct rdma_addrinfo_event *ev)
{
	ssize_t n;

	if (!use_read)
		return rai_dev_get_event(fd, ev);
	n = read(fd, ev, sizeof(*ev));
	if (n < 0)
		return -errno;
	return n == sizeof(*ev) ? 0 : -EPROTO;
}

TEST_F_TIMEOUT(events, resolve_efault_leaves_no_event, 60)
{
	struct rdma_addrinfo_resolve *req;
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_event ev;
	struct resolver rs;
	pthread_t thr;
	int ret, early;

	ret = slow_page_open(&self->sp, true);
	if (ret == -ENOSYS || ret == -EPERM || ret == -EINVAL)
		SKIP(return, "userfaultfd write-protect: %s", strerror(-ret));
	ASSERT_EQ(0, ret) TH_LOG("userfaultfd: %s", strerror(-ret));

	/* Readable as it is; the write of the handle waits, then fails. */
	req = self->sp.page;
	rai_req_init(req, "192.0.2.3", NULL, AF_INET, 0, 0, 0x3);
	ASSERT_EQ(0, slow_page_protect(&self->sp));
	rs.fd = self->fd;
	rs.req = req;
	rs.ret = 1;
	ret = slow_page_fault_in(&self->sp, &thr, resolve_one, &rs);
	ASSERT_EQ(0, ret) TH_LOG("RESOLVE never reached its copy-out");

	/* While RESOLVE writes its handle back, another thread reads. */
	early = read_event(self->fd, variant->use_read, &ev);
	slow_page_fail(&self->sp);
	ASSERT_EQ(0, pthread_join(thr, NULL));
	EXPECT_EQ(-EFAULT, rs.ret);
	EXPECT_EQ(-EAGAIN, early)
		TH_LOG("an event (handle %u, context %#llx) of a RESOLVE that failed with EFAULT",
		       ev.handle, (unsigned long long)ev.context);
	EXPECT_EQ(-ETIMEDOUT, rai_wait_event(self->fd, &ev, 500));
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(0, info.requests);
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

TEST_HARNESS_MAIN
