// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * fds_worker CONNECTIONS SECONDS PORT: a server and its clients in one
 * process, as synchronous librdmacm programs write them: a listener of
 * rdma_create_ep(), rdma_get_request() and rdma_accept() in a thread, and
 * the clients' rdma_create_ep(), rdma_connect() and rdma_establish() (no
 * QPs) in the main thread, one connection at a time, until CONNECTIONS are
 * up (or as many as RLIMIT_NOFILE has room for) or SECONDS have passed.
 * Every id has a private event channel that librdmacm's own
 * rdma_get_cm_event() waits on.  Then, all connections still up, it
 * prints "connections N open fds M module F eventfd E" (M: the entries of
 * /proc/self/fd, F of them the module's device file, E eventfds),
 * destroys everything and prints "after destroy" and the same counts.
 *
 * Linked with librdmacm only: fds_test runs it once plain and once with
 * LD_PRELOAD=librdma_addrinfo.so.1 and compares (issue 26 item 1).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <rdma/rdma_cma.h>

#include "world_env.h"

static struct rdma_cm_id *listener;
static struct rdma_cm_id **conns;
static sem_t go, accepted;
static int stopping, accept_ret, accept_err;

/* What /proc/self/fd holds, not counting the fd reading it. */
struct fds_count {
	int all, module, eventfd;
};

static void fds_print(const char *what)
{
	struct fds_count c = { -1, -1, -1 };
	char path[PATH_MAX], target[PATH_MAX];
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *d;
	ssize_t len;

	if (dir)
		c.all = c.module = c.eventfd = 0;
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || atoi(d->d_name) == dirfd(dir))
			continue;
		c.all++;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		target[len > 0 ? len : 0] = '\0';
		c.module += !strcmp(target, "/dev/infiniband/rdma_addrinfo");
		c.eventfd += !strcmp(target, "anon_inode:[eventfd]");
	}
	if (dir)
		closedir(dir);
	printf("%s fds %d module %d eventfd %d\n", what, c.all, c.module,
	       c.eventfd);
	fflush(stdout);
}

/*
 * The connection parameters of connection @i's side @side: no QP, and a
 * QP number of its own (the IB CM rejects a second connection with the
 * same remote QP number as stale).
 */
static struct rdma_conn_param fds_param(int side, int i)
{
	struct rdma_conn_param p = {
		.qp_num = (side + 1) << 16 | i, .responder_resources = 1,
		.initiator_depth = 1, .retry_count = 7,
	};

	return p;
}

/* The server: one connection accepted per post of go. */
static void *fds_server(void *arg)
{
	struct rdma_conn_param param;
	int i;

	(void)arg;
	for (i = 0;; i++) {
		sem_wait(&go);
		if (stopping)
			break;
		param = fds_param(1, i);
		accept_ret = rdma_get_request(listener, &conns[i]);
		if (!accept_ret)
			accept_ret = rdma_accept(conns[i], &param);
		accept_err = errno;
		sem_post(&accepted);
	}
	return NULL;
}

static struct rdma_addrinfo *fds_info(const char *port, int passive)
{
	struct rdma_addrinfo hints = {
		.ai_flags = passive ? RAI_PASSIVE : 0,
		.ai_port_space = RDMA_PS_TCP,
	}, *res = NULL;
	int ret = rdma_getaddrinfo(RAI_IP4_B, port, &hints, &res);

	if (ret)
		fprintf(stderr, "rdma_getaddrinfo: %d\n", ret);
	return ret ? NULL : res;
}

/*
 * Room for @n connections: two fds each with librdmacm, four with an
 * eventfd per private channel, and what the process has besides.  Return:
 * @n, or as many as fit where the hard limit is lower (valgrind gives a
 * program less than its own).
 */
static int fds_room(int n)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return n;
	if (rl.rlim_cur < (rlim_t)n * 4 + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < (rlim_t)n * 4 + 64)
		n = rl.rlim_cur > 64 ? (rl.rlim_cur - 64) / 4 : 1;
	return n;
}

int main(int argc, char **argv)
{
	struct rdma_conn_param param;
	struct rdma_addrinfo *passive, *active;
	struct rdma_cm_id **clients;
	int n, seconds, i, up = 0, failed = 0;
	pthread_t server;
	time_t end;

	if (argc != 4) {
		fprintf(stderr, "usage: %s CONNECTIONS SECONDS PORT\n", argv[0]);
		return 2;
	}
	n = atoi(argv[1]);
	seconds = atoi(argv[2]);
	if (n < 1 || n > 0xffff)	/* QP numbers of fds_param() */
		return 2;
	n = fds_room(n);
	conns = calloc(n, sizeof(*conns));
	clients = calloc(n, sizeof(*clients));
	passive = fds_info(argv[3], 1);
	active = fds_info(argv[3], 0);
	if (!conns || !clients || !passive || !active)
		return 1;
	if (rdma_create_ep(&listener, passive, NULL, NULL) ||
	    rdma_listen(listener, 16)) {
		perror("listener");
		return 1;
	}
	sem_init(&go, 0, 0);
	sem_init(&accepted, 0, 0);
	if (pthread_create(&server, NULL, fds_server, NULL))
		return 1;

	end = time(NULL) + seconds;
	for (i = 0; i < n && (!seconds || time(NULL) < end); i++) {
		sem_post(&go);
		if (rdma_create_ep(&clients[i], active, NULL, NULL)) {
			fprintf(stderr, "client %d: rdma_create_ep: %s\n", i,
				strerror(errno));
			clients[i] = NULL;
			failed = 1;
			break;
		}
		param = fds_param(0, i);
		if (rdma_connect(clients[i], &param) ||
		    rdma_establish(clients[i])) {
			fprintf(stderr, "client %d: connect: %s\n", i,
				strerror(errno));
			failed = 1;
			break;
		}
		sem_wait(&accepted);
		if (accept_ret) {
			fprintf(stderr, "server %d: %s\n", i,
				strerror(accept_err));
			failed = 1;
			break;
		}
		up++;
	}
	printf("connections %d ", up);
	fds_print("open");

	/* After a failure the server may wait for a request that never comes. */
	stopping = 1;
	if (failed)
		pthread_cancel(server);
	else
		sem_post(&go);
	pthread_join(server, NULL);
	for (i = 0; i < n; i++) {
		if (conns[i])
			rdma_destroy_ep(conns[i]);
		if (clients[i])
			rdma_destroy_ep(clients[i]);
	}
	rdma_destroy_ep(listener);
	rdma_freeaddrinfo(passive);
	rdma_freeaddrinfo(active);
	free(conns);
	free(clients);
	fds_print("after destroy");
	return failed;
}
