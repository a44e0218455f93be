/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The test world's names and addresses, for the C side of both suites
 * (selftests/ and user/tests/vm): world.env beside this file (the veth pair,
 * the rxe devices on it, their addresses, the DNS server and its zone, the
 * name in /etc/hosts) and the names of that zone (zone.hosts and the
 * records setup-world gives dnsmasq).
 *
 * RAI_WORLD_X is world.env's RAI_X as a string literal; RAI_X is what a test
 * runs with: $RAI_X (setup-world exports world.env), else RAI_WORLD_X.  Use
 * RAI_X, and RAI_WORLD_X only where C wants a literal (a static initialiser,
 * a string pasted together).  selftests/host/world-env-check (make
 * check-host) fails when this file and world.env, zone.hosts or setup-world
 * disagree.
 */
#ifndef RAI_WORLD_ENV_H
#define RAI_WORLD_ENV_H

#include <stdlib.h>

/* Two ends of a veth pair, an rxe device on each. */
#define RAI_WORLD_NETDEV_A	"veth0"
#define RAI_WORLD_NETDEV_B	"veth1"
#define RAI_WORLD_IBDEV_A	"rxe0"
#define RAI_WORLD_IBDEV_B	"rxe1"
#define RAI_WORLD_IP4_A		"192.168.77.1"
#define RAI_WORLD_IP4_B		"192.168.77.2"
#define RAI_WORLD_IP6_A		"fd00::1"
#define RAI_WORLD_IP6_B		"fd00::2"
/* dnsmasq, on B's IPv4 address, serves the zone. */
#define RAI_WORLD_DNS_SERVER	"192.168.77.2"
#define RAI_WORLD_DNS_ZONE	"rai.test"
/* A name in /etc/hosts only (not in DNS). */
#define RAI_WORLD_HOSTS_NAME	"hostsonly.rai.example"
#define RAI_WORLD_HOSTS_ADDR	"192.168.77.2"

/* Environment variable @name, or @dflt when unset or empty. */
static inline const char *rai_env(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

#define RAI_NETDEV_A	rai_env("RAI_NETDEV_A", RAI_WORLD_NETDEV_A)
#define RAI_NETDEV_B	rai_env("RAI_NETDEV_B", RAI_WORLD_NETDEV_B)
#define RAI_IBDEV_A	rai_env("RAI_IBDEV_A", RAI_WORLD_IBDEV_A)
#define RAI_IBDEV_B	rai_env("RAI_IBDEV_B", RAI_WORLD_IBDEV_B)
#define RAI_IP4_A	rai_env("RAI_IP4_A", RAI_WORLD_IP4_A)
#define RAI_IP4_B	rai_env("RAI_IP4_B", RAI_WORLD_IP4_B)
#define RAI_IP6_A	rai_env("RAI_IP6_A", RAI_WORLD_IP6_A)
#define RAI_IP6_B	rai_env("RAI_IP6_B", RAI_WORLD_IP6_B)
#define RAI_DNS_SERVER	rai_env("RAI_DNS_SERVER", RAI_WORLD_DNS_SERVER)
#define RAI_DNS_ZONE	rai_env("RAI_DNS_ZONE", RAI_WORLD_DNS_ZONE)
#define RAI_HOSTS_NAME	rai_env("RAI_HOSTS_NAME", RAI_WORLD_HOSTS_NAME)
#define RAI_HOSTS_ADDR	rai_env("RAI_HOSTS_ADDR", RAI_WORLD_HOSTS_ADDR)

/* Names of the zone (zone.hosts) and what they hold. */
#define RAI_ZONE_PEER		"peer." RAI_WORLD_DNS_ZONE	/* IP4_B, IP6_B */
#define RAI_ZONE_PEER4		"peer4." RAI_WORLD_DNS_ZONE	/* IP4_B */
#define RAI_ZONE_SELF		"self." RAI_WORLD_DNS_ZONE	/* IP4_A, IP6_A */
#define RAI_ZONE_MULTI		"multi." RAI_WORLD_DNS_ZONE	/* 3 x IPv4 + 1 x IPv6 */
#define RAI_ZONE_MANY		"many." RAI_WORLD_DNS_ZONE	/* 12 x IPv4 */
#define RAI_ZONE_V4ONLY		"v4only." RAI_WORLD_DNS_ZONE
#define RAI_ZONE_V6ONLY		"v6only." RAI_WORLD_DNS_ZONE
/* Records setup-world adds: a TXT record only (twice), an A with TTL 42, */
#define RAI_ZONE_NOADDR		"noaddr." RAI_WORLD_DNS_ZONE
#define RAI_ZONE_NODATA		"nodata." RAI_WORLD_DNS_ZONE
#define RAI_ZONE_TTL42		"ttl42." RAI_WORLD_DNS_ZONE
/* And a CNAME: its canonical name is RAI_ZONE_PEER4. */
#define RAI_ZONE_ALIAS		"alias." RAI_WORLD_DNS_ZONE
/* In the zone's domain, with no record at all. */
#define RAI_ZONE_MISSING	"no-such-name." RAI_WORLD_DNS_ZONE

#endif /* RAI_WORLD_ENV_H */
