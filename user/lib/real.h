/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_REAL_H
#define _RAI_REAL_H

#include <stdint.h>
#include <rdma/rdma_cma.h>

/* librdmacm's own implementations of the calls this library wraps. */
struct rai_real {
	int (*get_cm_event)(struct rdma_event_channel *channel,
			    struct rdma_cm_event **event);
	int (*ack_cm_event)(struct rdma_cm_event *event);
	int (*create_id)(struct rdma_event_channel *channel,
			 struct rdma_cm_id **id, void *context,
			 enum rdma_port_space ps);
	int (*destroy_id)(struct rdma_cm_id *id);
	void (*destroy_event_channel)(struct rdma_event_channel *channel);
	int (*getaddrinfo)(const char *node, const char *service,
			   const struct rdma_addrinfo *hints,
			   struct rdma_addrinfo **res);
	/* RDMACM_1.4 (rdma-core 60+) only; NULL with older ones. */
	int (*write_cm_event)(struct rdma_cm_id *id,
			      enum rdma_cm_event_type event, int status,
			      uint64_t arg);
	int (*resolve_addrinfo)(struct rdma_cm_id *id, const char *node,
				const char *service,
				const struct rdma_addrinfo *hints);
	int (*query_addrinfo)(struct rdma_cm_id *id,
			      struct rdma_addrinfo **info);
	/* Ids librdmacm makes synchronous or moves (id.c). */
	int (*migrate_id)(struct rdma_cm_id *id,
			  struct rdma_event_channel *channel);
	int (*create_ep)(struct rdma_cm_id **id, struct rdma_addrinfo *res,
			 struct ibv_pd *pd,
			 struct ibv_qp_init_attr *qp_init_attr);
	void (*destroy_ep)(struct rdma_cm_id *id);
	int (*get_request)(struct rdma_cm_id *listen, struct rdma_cm_id **id);
};

const struct rai_real *rai_real(void);
int rdma_write_cm_event(struct rdma_cm_id *id, enum rdma_cm_event_type event,
			int status, uint64_t arg);
int rai_wrappers_in_use(void);

#endif /* _RAI_REAL_H */
