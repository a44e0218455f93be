// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * symbolic_worker: synchronous ids of librdmacm made, resolved and
 * destroyed in every way whose internal calls a librdmacm linked with
 * -Bsymbolic-functions (Ubuntu's) keeps to itself (issue 26 item 9):
 *
 *   ep       rdma_create_ep() + rdma_destroy_ep(): librdmacm calls its own
 *            rdma_destroy_id(), which frees the private channel with its
 *            own rdma_destroy_event_channel()
 *   reuse    after ep or bypass cycles, an id with an event channel,
 *            created until one lands at the address of an id destroyed
 *            so: its request must end in an event on its channel (not
 *            hang, not be taken as one of a synchronous id)
 *   sync     rdma_create_id(NULL) + rdma_destroy_id(): the private channel
 *            freed inside librdmacm
 *   migrate  a synchronous id moved to a channel of the program's:
 *            librdmacm frees the private channel, the id's next request
 *            ends in an event on the new channel
 *   bypass   rdma_create_id(NULL) + librdmacm's own rdma_destroy_id(),
 *            called past the preload: any other path of librdmacm's
 *            that frees an id the library never hears of; the library
 *            drops what it knew when librdmacm makes an id or channel at
 *            the same address again (the next cycle's, the reuse ids)
 *
 * Each synchronous id makes one request (a numeric name) when the
 * program has rdma_resolve_addrinfo() (preloaded library), so that its
 * channel gets the module's fd.  It prints
 *   "symbolic S" (librdmacm's DF_SYMBOLIC flag, the copy fds_test makes),
 *   "fds before B after A module M eventfd F" (/proc/self/fd around a
 *   round of ep, bypass, sync and migrate cycles, after a first round
 *   that lets librdmacm open what it opens once; M, F: the module's and
 *   eventfds after),
 *   "module fds left by ep E bypass B sync S migrate M" (the module's
 *   fds open after each kind of cycles of the second round),
 *   "reuse ep tries T reused R event E" and "reuse bypass ..." (after
 *   more ep and bypass cycles: ids made, R: 1 if the last is at the
 *   address of one of theirs, E: its event, -1 without the call),
 * and "hung in PHASE" if a phase does not end within HANG_S.
 *
 * Linked with librdmacm only: fds_test runs it with the symbolic copy of
 * librdmacm and the normal one, plain and preloaded, and compares.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <rdma/rdma_cma.h>

#include "world_env.h"

#define CYCLES		16
#define REUSE_TRIES	64
#define HANG_S		20	/* fds_test gives it 90 s for three runs */
/* librdmacm 44's header lacks it (rdma_addrinfo.h has it). */
#define SYMW_ADDRINFO_RESOLVED	16

typedef int (*symw_resolve_fn)(struct rdma_cm_id *id, const char *node,
			       const char *service,
			       const struct rdma_addrinfo *hints);

static symw_resolve_fn symw_resolve;
static const char *volatile symw_phase = "start";

static void symw_alarm(int sig)
{
	char msg[64];
	int len = snprintf(msg, sizeof(msg), "hung in %s\n", symw_phase);

	(void)sig;
	if (write(1, msg, len) < 0)
		_exit(5);
	_exit(4);
}

static void symw_die(const char *what)
{
	printf("failed: %s: %m\n", what);
	exit(1);
}

/* Entries of /proc/self/fd, of them the module's and eventfds. */
static void symw_count(int *all, int *module, int *eventfd)
{
	char path[PATH_MAX], target[PATH_MAX];
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *d;
	ssize_t len;

	*all = *module = *eventfd = 0;
	if (!dir)
		symw_die("opendir");
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || atoi(d->d_name) == dirfd(dir))
			continue;
		(*all)++;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		target[len > 0 ? len : 0] = '\0';
		*module += !strcmp(target, "/dev/infiniband/rdma_addrinfo");
		*eventfd += !strcmp(target, "anon_inode:[eventfd]");
	}
	closedir(dir);
}

/* Whether the loaded librdmacm.so.1 has DF_SYMBOLIC (or DT_SYMBOLIC). */
static int symw_dl_symbolic(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Dyn) *dyn = NULL;
	int i;

	(void)size;
	if (!strstr(info->dlpi_name, "/librdmacm.so"))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(info->dlpi_addr +
					     info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++)
		if (dyn->d_tag == DT_SYMBOLIC ||
		    (dyn->d_tag == DT_FLAGS && dyn->d_un.d_val & DF_SYMBOLIC))
			*(int *)data = 1;
	return 1;
}

/* One synchronous request of @id for a numeric name, if there is the call. */
static void symw_request(struct rdma_cm_id *id)
{
	struct rdma_addrinfo hints = {
		.ai_flags = RAI_NUMERICHOST, .ai_family = AF_INET,
	};

	if (symw_resolve && symw_resolve(id, RAI_WORLD_IP4_B, NULL, &hints))
		symw_die("rdma_resolve_addrinfo");
}

/* The id's request ends in an event on @ch.  Return: its type, or -1. */
static int symw_event(struct rdma_cm_id *id, struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev;
	int type;

	if (!symw_resolve)
		return -1;
	symw_request(id);
	if (rdma_get_cm_event(ch, &ev))
		symw_die("rdma_get_cm_event");
	type = ev->id == id ? (int)ev->event : -1;
	rdma_ack_cm_event(ev);
	return type;
}

/* rdma_create_ep() + rdma_destroy_ep() cycles; their ids' addresses. */
static void symw_ep(void **addrs)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct rdma_addrinfo res = {
		.ai_flags = RAI_PASSIVE, .ai_family = AF_INET,
		.ai_qp_type = IBV_QPT_RC, .ai_port_space = RDMA_PS_TCP,
		.ai_src_len = sizeof(src), .ai_src_addr = (void *)&src,
	};
	struct rdma_cm_id *id;
	int i;

	inet_pton(AF_INET, RAI_WORLD_IP4_A, &src.sin_addr);
	symw_phase = "ep";
	for (i = 0; i < CYCLES; i++) {
		if (rdma_create_ep(&id, &res, NULL, NULL))
			symw_die("rdma_create_ep");
		symw_request(id);
		addrs[i] = id;
		rdma_destroy_ep(id);
	}
}

/* Ids on a channel until one is at an address of @addrs; its event. */
static void symw_reuse(const char *after, void **addrs)
{
	struct rdma_cm_id *ids[REUSE_TRIES];
	struct rdma_event_channel *ch;
	int n, i, reused = 0, event = -1;

	symw_phase = "reuse";
	ch = rdma_create_event_channel();
	if (!ch)
		symw_die("rdma_create_event_channel");
	for (n = 0; n < REUSE_TRIES && !reused; n++) {
		if (rdma_create_id(ch, &ids[n], NULL, RDMA_PS_TCP))
			symw_die("rdma_create_id");
		for (i = 0; i < CYCLES; i++)
			reused |= ids[n] == addrs[i];
	}
	if (reused)
		event = symw_event(ids[n - 1], ch);
	printf("reuse %s tries %d reused %d event %d\n", after, n, reused,
	       event);
	fflush(stdout);
	while (n--)
		rdma_destroy_id(ids[n]);
	rdma_destroy_event_channel(ch);
}

typedef int (*symw_destroy_fn)(struct rdma_cm_id *id);

/* librdmacm's own rdma_destroy_id(), not the preloaded library's. */
static symw_destroy_fn symw_own_destroy_id(void)
{
	void *librdmacm = dlopen("librdmacm.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *fn = librdmacm ? dlvsym(librdmacm, "rdma_destroy_id",
				      "RDMACM_1.0") : NULL;

	if (!fn)
		symw_die("librdmacm's rdma_destroy_id");
	return (symw_destroy_fn)fn;
}

/* Synchronous ids destroyed past the library; their addresses. */
static void symw_bypass(void **addrs)
{
	symw_destroy_fn destroy = symw_own_destroy_id();
	struct rdma_cm_id *id;
	int i;

	symw_phase = "bypass";
	for (i = 0; i < CYCLES; i++) {
		if (rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP))
			symw_die("rdma_create_id");
		symw_request(id);
		addrs[i] = id;
		if (destroy(id))
			symw_die("rdma_destroy_id");
	}
}

static void symw_sync(void)
{
	struct rdma_cm_id *id;
	int i;

	symw_phase = "sync";
	for (i = 0; i < CYCLES; i++) {
		if (rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP))
			symw_die("rdma_create_id");
		symw_request(id);
		if (rdma_destroy_id(id))
			symw_die("rdma_destroy_id");
	}
}

static void symw_migrate(void)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	int i, event;

	symw_phase = "migrate";
	for (i = 0; i < CYCLES; i++) {
		ch = rdma_create_event_channel();
		if (!ch || rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP))
			symw_die("rdma_create_id");
		symw_request(id);
		if (rdma_migrate_id(id, ch))
			symw_die("rdma_migrate_id");
		event = symw_event(id, ch);
		if (symw_resolve && event != SYMW_ADDRINFO_RESOLVED) {
			printf("migrate: event %d\n", event);
			exit(1);
		}
		rdma_destroy_id(id);
		rdma_destroy_event_channel(ch);
	}
}

/* The module's fds open now. */
static int symw_module_fds(void)
{
	int all, module, eventfd;

	symw_count(&all, &module, &eventfd);
	return module;
}

/*
 * The cycles whose descriptors are counted, and the module's fds left
 * open after each kind: none but what bypass left for the next cycle's
 * id at the same address to take back.
 */
static void symw_round(void **addrs, int *left)
{
	symw_ep(addrs);
	left[0] = symw_module_fds();
	symw_bypass(addrs);
	left[1] = symw_module_fds();
	symw_sync();	/* at the addresses bypass left */
	left[2] = symw_module_fds();
	symw_migrate();
	left[3] = symw_module_fds();
}

int main(void)
{
	int before, after, module, eventfd, symbolic = 0, left[4];
	void *addrs[CYCLES];

	signal(SIGALRM, symw_alarm);
	alarm(HANG_S);
	symw_resolve = (symw_resolve_fn)dlsym(RTLD_DEFAULT,
					      "rdma_resolve_addrinfo");
	dl_iterate_phdr(symw_dl_symbolic, &symbolic);
	printf("symbolic %d\n", symbolic);
	fflush(stdout);
	/* librdmacm opens its devices' descriptors as it first needs them. */
	symw_round(addrs, left);
	symw_count(&before, &module, &eventfd);
	symw_round(addrs, left);
	symw_count(&after, &module, &eventfd);
	printf("fds before %d after %d module %d eventfd %d\n", before, after,
	       module, eventfd);
	printf("module fds left by ep %d bypass %d sync %d migrate %d\n",
	       left[0], left[1], left[2], left[3]);
	fflush(stdout);
	symw_ep(addrs);
	symw_reuse("ep", addrs);
	symw_bypass(addrs);
	symw_reuse("bypass", addrs);
	return 0;
}
