// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * librdmacm's implementations of the calls this library wraps: the next
 * definition after this library (RTLD_NEXT), or, when librdmacm was loaded
 * ahead of it, librdmacm's own symbol of the same version; and
 * rdma_write_cm_event(), exported at librdmacm's version so that binaries
 * built against rdma-core 60+ find every RDMACM_1.4 call here.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"
#include "export.h"
#include "real.h"

#define RAI_LIBRDMACM	"librdmacm.so.1"
#define RAI_RDMACM_VER	"RDMACM_1.0"
#define RAI_RDMACM_1_4	"RDMACM_1.4"

static struct rai_real rai_real_fns;
static pthread_once_t rai_real_once = PTHREAD_ONCE_INIT;

/* @name of librdmacm, version @ver, or NULL when it has none. */
static void *rai_lookup_optional(const char *name, const char *ver)
{
	static void *librdmacm;
	void *fn = dlvsym(RTLD_NEXT, name, ver);

	if (fn)
		return fn;
	if (!librdmacm)
		librdmacm = dlopen(RAI_LIBRDMACM, RTLD_LAZY | RTLD_NOLOAD);
	if (!librdmacm)
		librdmacm = dlopen(RAI_LIBRDMACM, RTLD_LAZY);
	return librdmacm ? dlvsym(librdmacm, name, ver) : NULL;
}

static void *rai_lookup(const char *name)
{
	void *fn = rai_lookup_optional(name, RAI_RDMACM_VER);

	if (!fn) {
		fprintf(stderr, "librdma_addrinfo: %s not found in %s\n", name,
			RAI_LIBRDMACM);
		abort();
	}
	return fn;
}

static void rai_real_init(void)
{
	rai_real_fns.get_cm_event = rai_lookup("rdma_get_cm_event");
	rai_real_fns.ack_cm_event = rai_lookup("rdma_ack_cm_event");
	rai_real_fns.create_id = rai_lookup("rdma_create_id");
	rai_real_fns.destroy_id = rai_lookup("rdma_destroy_id");
	rai_real_fns.destroy_event_channel =
		rai_lookup("rdma_destroy_event_channel");
	rai_real_fns.getaddrinfo = rai_lookup("rdma_getaddrinfo");
	rai_real_fns.write_cm_event =
		rai_lookup_optional("rdma_write_cm_event", RAI_RDMACM_1_4);
	rai_real_fns.resolve_addrinfo =
		rai_lookup_optional("rdma_resolve_addrinfo", RAI_RDMACM_1_4);
	rai_real_fns.query_addrinfo =
		rai_lookup_optional("rdma_query_addrinfo", RAI_RDMACM_1_4);
	rai_real_fns.migrate_id = rai_lookup("rdma_migrate_id");
	rai_real_fns.create_ep = rai_lookup("rdma_create_ep");
	rai_real_fns.destroy_ep = rai_lookup("rdma_destroy_ep");
	rai_real_fns.get_request = rai_lookup("rdma_get_request");
}

const struct rai_real *rai_real(void)
{
	pthread_once(&rai_real_once, rai_real_init);
	return &rai_real_fns;
}

/*
 * Whether the program's rdma_get_cm_event() is this library's (it is not
 * when librdmacm comes first in the link order): without it, ADDRINFO
 * events are never delivered.  Said once on stderr when it is not.
 */
static int rai_wrappers_ok;

static void rai_wrappers_check(void)
{
	void *fn = dlsym(RTLD_DEFAULT, "rdma_get_cm_event");

	rai_wrappers_ok = fn != (void *)rai_real()->get_cm_event;
	if (!rai_wrappers_ok)
		fprintf(stderr, "librdma_addrinfo: the program calls librdmacm's rdma_get_cm_event(), not this library's: link -lrdma_addrinfo before -lrdmacm, or preload it\n");
}

int rai_wrappers_in_use(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, rai_wrappers_check);
	return rai_wrappers_ok;
}

/* librdmacm's own, where it has one (rdma-core 60+). */
RAI_EXPORT int rdma_write_cm_event(struct rdma_cm_id *id,
				   enum rdma_cm_event_type event, int status,
				   uint64_t arg)
{
	if (!rai_real()->write_cm_event)
		return ERR(ENOSYS);
	return rai_real()->write_cm_event(id, event, status, arg);
}
