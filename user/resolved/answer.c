// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* One name's answer for RESOLVER_ANSWER (answer.h). */
#include <errno.h>
#include <string.h>

#include "answer.h"
#include "lookup.h"
#include "say.h"

/* answer.h */
int answer_error(int err)
{
	return rdma_addrinfo_resolver_error(err) ? err : EAGAIN;
}

/* Does the module take canonical names in answers (answer_canonical())? */
static int with_canon;

/* answer.h */
void answer_canonical(int on)
{
	with_canon = on;
}

/* answer.h */
void answer_build(struct rdma_addrinfo_resolver_answer *ans, __u64 id,
		  const char *name)
{
	int len;

	memset(ans, 0, sizeof(*ans));
	ans->id = id;
	/* The module sends no other; a name that cannot exist does not. */
	len = name_ok(name) ? resolve_ttl(name, ans->addrs, sizeof(ans->addrs),
					  with_canon, &ans->ttl) : -ENXIO;
	if (len > 0) {
		say(LOG_DEBUG, "%s: %s for %u s", name, ans->addrs, ans->ttl);
		return;
	}
	ans->addrs[0] = '\0';
	ans->error = answer_error(-len);
	ans->ttl = failure_ttl(-len);
	say(LOG_DEBUG, "%s: %s for %u s", name, strerror(ans->error), ans->ttl);
}
