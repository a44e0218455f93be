// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The registry, built with RAI_DEBUG: its calls check that the lock is
 * held; and a child of fork() gets it usable, whatever another thread of
 * the parent was doing with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
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
	ch = rai_channel_add(&channel);
	ASSERT_NE(NULL, ch);
	EXPECT_EQ(-1, ch->kick_fd);
	EXPECT_EQ(-1, ch->fd);
	EXPECT_EQ(ch, rai_channel_find(&channel));
	/* Without the module its fd cannot open. */
	EXPECT_EQ(NULL, rai_channel_get(&channel));
	EXPECT_EQ(ENOENT, errno);
	rai_channel_forget(&channel);
	EXPECT_EQ(NULL, rai_channel_find(&channel));
	rai_unlock();
}

/*
 * Issue 26 item 1: a channel has a kick fd only while threads are blocked
 * waiting on it, one for all of them.
 */
TEST(the_kick_fd_lives_while_a_thread_waits)
{
	struct rdma_event_channel channel = { .fd = -1 };
	struct rai_channel *ch;
	int fd;

	rai_lock();
	ch = rai_channel_wait_begin(rai_channel_add(&channel));
	ASSERT_NE(NULL, ch);
	fd = ch->kick_fd;
	EXPECT_LE(0, fd);
	EXPECT_EQ(ch, rai_channel_wait_begin(ch));
	EXPECT_EQ(fd, ch->kick_fd);
	rai_channel_wait_end(ch);
	EXPECT_EQ(fd, ch->kick_fd);
	EXPECT_EQ(0, fcntl(fd, F_GETFD) < 0);
	rai_channel_wait_end(ch);
	EXPECT_EQ(-1, ch->kick_fd);
	EXPECT_EQ(-1, fcntl(fd, F_GETFD));
	EXPECT_EQ(EBADF, errno);
	rai_channel_forget(&channel);
	rai_unlock();
}

/* A child of fork() closes the kick fd its parent's waiters hold. */
TEST(a_child_leaves_the_kick_fd_to_the_parent_s_waiters)
{
	struct rdma_event_channel channel = { .fd = -1 };
	struct rai_channel *ch;
	int fd, status;
	pid_t pid;

	rai_lock();
	ch = rai_channel_wait_begin(rai_channel_add(&channel));
	ASSERT_NE(NULL, ch);
	fd = ch->kick_fd;
	rai_unlock();
	pid = fork();
	if (!pid) {
		rai_lock();
		ch = rai_channel_find(&channel);
		status = !ch || ch->kick_fd != -1 || ch->waiters ||
			 fcntl(fd, F_GETFD) != -1;
		rai_channel_forget(&channel);
		rai_unlock();
		_exit(status);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	rai_lock();
	EXPECT_EQ(fd, ch->kick_fd);
	rai_channel_wait_end(ch);
	rai_channel_forget(&channel);
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

/*
 * fork() while another thread of the parent is inside the registry
 * (issue 26 item 7).  The child has an alarm: a lock or condition that
 * the parent's thread left behind would hang it.
 */
#define CHILD_ALARM_S	10

/* What became of the child: 0 when it exited with status 0. */
static int rai_child_status(pid_t pid, const char **what)
{
	int status;

	*what = "not waited for";
	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	*what = "killed";
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		*what = "hung until its alarm";
	if (!WIFEXITED(status))
		return -1;
	*what = "exited";
	return WEXITSTATUS(status);
}

static sem_t rai_held;

/*
 * Holds the lock, with a channel's reader flag up, until another thread
 * waits for it: the forking one, in the library's fork handler.  glibc's
 * lock word of a plain mutex is 2 while a thread waits for it.  10 s at
 * most.
 */
static void *rai_hold_lock(void *arg)
{
	struct rai_channel *ch;

	rai_lock();
	ch = rai_channel_add(arg);
	if (ch)
		ch->reading = 1;
	sem_post(&rai_held);
	for (int i = 0; i < 10000; i++) {
		if (__atomic_load_n(&rai_registry_lock.__data.__lock, __ATOMIC_ACQUIRE) == 2)
			break;
		poll(NULL, 0, 1);	/* paces the look; the deadline is the loop's */
	}
	if (ch)
		ch->reading = 0;
	rai_unlock();
	return NULL;
}

/* 0, or what the child found wrong: CHILD_*. */
enum { CHILD_OK, CHILD_NO_CHANNEL, CHILD_READER_FLAG, CHILD_NOT_INHERITED };

static int rai_child_locks(struct rdma_event_channel *channel)
{
	struct rai_channel *ch;
	int ret = 0;

	alarm(CHILD_ALARM_S);
	rai_lock();
	ch = rai_channel_find(channel);
	if (!ch)
		ret = CHILD_NO_CHANNEL;
	else if (ch->reading)
		ret = CHILD_READER_FLAG;	/* a thread it does not have */
	else if (!ch->inherited)
		ret = CHILD_NOT_INHERITED;
	rai_channel_forget(channel);	/* nothing left for valgrind */
	rai_unlock();
	return ret;
}

TEST(a_child_forked_while_another_thread_holds_the_lock_takes_it)
{
	struct rdma_event_channel channel = { .fd = -1 };
	const char *what;
	pthread_t thread;
	pid_t pid;

	ASSERT_EQ(0, sem_init(&rai_held, 0, 0));
	ASSERT_EQ(0, pthread_create(&thread, NULL, rai_hold_lock, &channel));
	ASSERT_EQ(0, sem_wait(&rai_held));
	pid = fork();
	if (!pid)
		_exit(rai_child_locks(&channel));
	EXPECT_EQ(CHILD_OK, rai_child_status(pid, &what))
		TH_LOG("the child %s (%d: no channel, %d: the reader flag of the parent's thread, %d: the channel not inherited)",
		       what, CHILD_NO_CHANNEL, CHILD_READER_FLAG,
		       CHILD_NOT_INHERITED);
	pthread_join(thread, NULL);
	rai_lock();
	rai_channel_forget(&channel);
	rai_unlock();
}

/* An id whose handed-out event a thread waits to see acked. */
struct rai_ack_wait {
	struct rdma_cm_id id;
	struct rai_event *ev;
	pthread_t thread;
	int waiting;	/* under the lock: about to wait, or waiting */
};

static void *rai_wait_for_ack(void *arg)
{
	struct rai_ack_wait *w = arg;
	struct rai_id *st;

	rai_lock();
	while ((st = rai_id_find(&w->id)) && st->unacked) {
		w->waiting = 1;
		rai_registry_wait();
	}
	rai_unlock();
	return NULL;
}

/* Hand out an event of @w's id and start a thread waiting for its ack. */
static int rai_ack_wait_start(struct rai_ack_wait *w)
{
	int ret;

	w->ev = calloc(1, sizeof(*w->ev));
	if (!w->ev)
		return -1;
	w->ev->event.id = &w->id;
	w->waiting = 0;
	rai_lock();
	ret = rai_id_get(&w->id) ? 0 : -1;
	if (!ret)
		rai_event_hand_out(w->ev);
	rai_unlock();
	if (ret || pthread_create(&w->thread, NULL, rai_wait_for_ack, w))
		return -1;
	/*
	 * The thread sets waiting under the lock and gives the lock up only
	 * by going to sleep on the condition: once this thread holds the
	 * lock and sees the flag, the other one sleeps.  10 s at most.
	 */
	for (int i = 0; i < 10000; i++) {
		rai_lock();
		ret = w->waiting;
		rai_unlock();
		if (ret)
			return 0;
		poll(NULL, 0, 1);	/* paces the look; the deadline is the loop's */
	}
	return -1;
}

static void rai_ack_wait_end(struct rai_ack_wait *w)
{
	rai_lock();
	rai_event_take_back(&w->ev->event);
	rai_unlock();
	pthread_join(w->thread, NULL);
	rai_lock();
	rai_id_forget(&w->id);
	rai_unlock();
}

/*
 * Two rounds of a wait for an ack, each in a group of its own, then the
 * ack of the parent's event, whose waiter the child does not have.
 */
static int rai_child_waits_for_acks(struct rai_ack_wait *parent)
{
	struct rai_ack_wait w;
	int round;

	alarm(CHILD_ALARM_S);
	for (round = 0; round < 2; round++) {
		if (rai_ack_wait_start(&w))
			return 1;
		rai_ack_wait_end(&w);
	}
	rai_lock();
	rai_event_take_back(&parent->ev->event);
	rai_id_forget(&parent->id);
	rai_unlock();
	return 0;
}

TEST(a_child_forked_while_another_thread_waits_for_an_ack_waits_too)
{
	struct rai_ack_wait w;
	const char *what;
	pid_t pid;

	ASSERT_EQ(0, rai_ack_wait_start(&w));
	pid = fork();
	if (!pid)
		_exit(rai_child_waits_for_acks(&w));
	EXPECT_EQ(0, rai_child_status(pid, &what))
		TH_LOG("the child %s in its waits for an ack", what);
	rai_ack_wait_end(&w);
}

TEST_HARNESS_MAIN
