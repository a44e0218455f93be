/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the ports of the SA client (sa_port.c): a GSI MAD agent
 * per port of every RDMA device, the address of each port's SA and the
 * answers cached per port.  The queries (sa_client.c) sit on top; this
 * header is between the two, no other file includes it (sa_client.h is
 * the SA client's interface).
 */
#ifndef _RAI_SA_PORT_H
#define _RAI_SA_PORT_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "sa_wire.h"

struct net;
struct rai_sa_cache_ent;
struct rai_sa_dev;

/*
 * rai_sa_rwsem keeps the device list and the ports alive: held for reading
 * while a query is started (sa_client.c) or a port's GID read, for writing
 * while a device is added or removed.  The ports' own state is under a
 * spinlock of sa_port.c, the queries' under one of sa_client.c, taken in
 * that order: sa_client.c calls rai_sa_cache_get() and rai_sa_cache_add()
 * with its lock held.
 */
extern struct rw_semaphore rai_sa_rwsem;

/**
 * struct rai_sa_ah - an address handle of a port's SA
 * @ref: the port's, and one per op using it
 * @ah: the AH
 * @pkey_index: P_Key index of the MADs sent with it
 * @sgid: the port's own GID facing the SA
 */
struct rai_sa_ah {
	struct kref ref;
	struct ib_ah *ah;
	u16 pkey_index;
	union ib_gid sgid;
};

/**
 * struct rai_sa_result - an answer, shared by its queries and the cache
 * @ref: reference count
 * @status: 0 or the completion status (sa_client.h)
 * @nrec: records in @rec
 * @rec: the records, wire format
 */
struct rai_sa_result {
	struct kref ref;
	int status;
	unsigned int nrec;
	u8 rec[];
};

/**
 * struct rai_sa_port - one port of an RDMA device
 * @dev: its device
 * @port_num: its number
 * @agent: the GSI MAD agent; NULL: no MAD on this port
 * @ah_mutex: serialises building @ah
 * @ah: the SA's address handle; NULL: to be built
 * @ah_gid_gen: the sa_gid generation @ah was built for
 * @gen: bumped when the SA may differ (struct rai_sa_addr_gen)
 * @dead: the device is being removed
 * @cache: cached answers, oldest first
 * @ncache: entries in @cache
 *
 * @ah, @ah_gid_gen, @gen, @dead, @cache and @ncache are written under
 * sa_port.c's lock; a new @ah is installed under @ah_mutex as well.
 */
struct rai_sa_port {
	struct rai_sa_dev *dev;
	u32 port_num;
	struct ib_mad_agent *agent;
	struct mutex ah_mutex;		/* serialises building @ah */
	struct rai_sa_ah *ah;
	int ah_gid_gen;
	u32 gen;
	bool dead;
	struct list_head cache;
	unsigned int ncache;
};

/**
 * struct rai_sa_port_client - what the ports need of the queries
 * @send_handler: the MAD send handler of every agent
 * @recv_handler: the MAD receive handler of every agent
 * @flush: returns once every answer being delivered without a MAD (from
 *	a workqueue of sa_client.c, still pointing at its port) has been
 */
struct rai_sa_port_client {
	ib_mad_send_handler send_handler;
	ib_mad_recv_handler recv_handler;
	void (*flush)(void);
};

int rai_sa_port_init(const struct rai_sa_port_client *client);
void rai_sa_port_exit(void);

struct ib_device *rai_sa_device_get(const char *name);
void rai_sa_device_put(struct ib_device *ibdev);
struct rai_sa_port *rai_sa_find_port(struct net *net, struct ib_device *ibdev,
				     const char *name, u32 port_num);

struct rai_sa_ah *rai_sa_get_ah(struct rai_sa_port *port, u32 *gen);
void rai_sa_ah_put(struct rai_sa_ah *ah);
void rai_sa_port_forget_ah(struct rai_sa_port *port, struct rai_sa_ah *bad);

void rai_sa_result_put(struct rai_sa_result *res);

struct rai_sa_result *rai_sa_cache_get(struct rai_sa_port *port,
				       const struct rai_sa_req *req);
struct rai_sa_cache_ent *rai_sa_cache_ent_alloc(const struct rai_sa_req *req,
						struct rai_sa_result *res);
void rai_sa_cache_add(struct rai_sa_port *port, struct rai_sa_cache_ent *ent,
		      u32 gen, struct list_head *old);
void rai_sa_cache_free_list(struct list_head *list);

#endif /* _RAI_SA_PORT_H */
