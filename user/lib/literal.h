/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_LITERAL_H
#define _RAI_LITERAL_H

#include <netinet/in.h>

int rai_ipv4_literal(const char *s, struct in_addr *addr);
int rai_ipv4_module_literal(const char *s);

#define RAI_IPV4_DOTTED_LEN	sizeof("255.255.255.255")
void rai_ipv4_dotted(const struct in_addr *addr, char *out);

#endif /* _RAI_LITERAL_H */
