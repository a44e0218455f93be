// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The registry, built with RAI_DEBUG: its calls check that the lock is held. */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "device.h"
#include "registry.h"

/* The device calls registry.c makes: no module here. */
int rai_open_device(int nonblock)
{
	errno = ENOENT;
	return -1;
}

void rai_destroy_request(int fd, __u32 handle)
{
}

TEST(ids_are_kept_and_forgotten_under_the_lock)
{
	struct rdma_cm_id id, other;
	struct rai_id *st;

	rai_lock();
	st = rai_id_get(&id);
	ASSERT_NE(NULL, st);
	EXPECT_EQ(st, rai_id_get(&id));
	EXPECT_EQ(st, rai_id_find(&id));
	EXPECT_EQ(NULL, rai_id_find(&other));
	EXPECT_EQ(0, rai_id_mark_sync(&other));
	EXPECT_EQ(1, rai_id_find(&other)->sync);
	rai_id_forget(&id);
	rai_id_forget(&other);
	EXPECT_EQ(NULL, rai_id_find(&id));
	rai_unlock();
}

TEST(a_channel_is_kept_and_forgotten_under_the_lock)
{
	struct rdma_event_channel channel = { .fd = -1 };
	struct rai_channel *ch;

	rai_lock();
	ch = rai_channel_waiter(&channel);
	ASSERT_NE(NULL, ch);
	EXPECT_LE(0, ch->kick_fd);
	EXPECT_EQ(-1, ch->fd);
	EXPECT_EQ(ch, rai_channel_find(&channel));
	/* Without the module its fd cannot open. */
	EXPECT_EQ(NULL, rai_channel_get(&channel));
	EXPECT_EQ(ENOENT, errno);
	rai_channel_forget(&channel);
	EXPECT_EQ(NULL, rai_channel_find(&channel));
	rai_unlock();
}

TEST(the_raw_lock_counts_as_held)
{
	struct rdma_cm_id id;

	rai_lock_raw();
	EXPECT_EQ(NULL, rai_id_find(&id));
	rai_unlock_raw();
}

static void rai_find_id_unlocked(void)
{
	struct rdma_cm_id id;

	rai_id_find(&id);
}

static void rai_find_channel_after_unlock(void)
{
	struct rdma_event_channel channel = { .fd = -1 };

	rai_lock();
	rai_unlock();
	rai_channel_find(&channel);
}

/*
 * Whether @call, run in a child, dies of a failed assertion.  (SIGABRT
 * cannot be a TEST_SIGNAL: the harness takes it for its own ASSERT_*.)
 */
static int rai_aborts(void (*call)(void))
{
	struct rlimit no_core = { 0, 0 };
	int status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		setrlimit(RLIMIT_CORE, &no_core);
		call();
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

TEST(a_call_without_the_lock_aborts)
{
	ASSERT_TRUE(rai_aborts(rai_find_id_unlocked));
}

TEST(a_call_after_unlock_aborts)
{
	ASSERT_TRUE(rai_aborts(rai_find_channel_after_unlock));
}

TEST_HARNESS_MAIN
