/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_STATUS_H
#define _RAI_STATUS_H

/* Context of a failed request that changes how its error reads. */
#define RAI_CTX_QP_PS	0x1	/* the request carried qp_type and port_space */
#define RAI_CTX_NAME	0x2	/* the node is a name, no numeric address */

int rai_eai_from_status(int status, unsigned int ctx, int *sys_errno);
int rai_eai_with_errno(int status, unsigned int ctx);
int rai_errno_from_eai(int eai);
int rai_status_from_eai(int eai, int err);
int rai_view_refused(int status, unsigned int ctx);

#endif /* _RAI_STATUS_H */
