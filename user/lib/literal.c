// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * IPv4 literals as glibc's getaddrinfo() reads them, and as the module
 * reads them.  glibc (so librdmacm) takes inet_aton()'s forms over the
 * whole string: each part decimal, octal with a leading 0 or hex with
 * 0x, and the short forms a, a.b, a.b.c whose last part fills the
 * remaining bytes (127.1 is 127.0.0.1).  The module reads only four
 * decimal parts (the kernel's in4_pton()): 192.168.001.010 is 192.168.1.8
 * for glibc and 192.168.1.10 for the module, and 192.168.1.09 is a host
 * name for glibc.  The library hands the module glibc's address, in
 * dotted decimal (request.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "literal.h"

static int rai_digit(char c, unsigned int base)
{
	unsigned int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < base ? (int)d : -1;
}

/*
 * One part, as strtoul(s, &end, 0) reads it after inet_aton() saw a
 * digit: "0x" with no hex digit after it is the number 0 followed by
 * "x", "08" is 0 followed by "8" (so both fail in the caller).  Values
 * above 32 bits fail, as in glibc.  Return: the end, or NULL.
 */
static const char *rai_aton_part(const char *s, uint32_t *val)
{
	unsigned int base = 10;
	uint64_t v = 0;
	int d;

	if (*s < '0' || *s > '9')
		return NULL;
	if (*s == '0') {
		base = 8;
		if ((s[1] == 'x' || s[1] == 'X') && rai_digit(s[2], 16) >= 0) {
			base = 16;
			s += 2;
		}
	}
	for (; (d = rai_digit(*s, base)) >= 0; s++) {
		v = v * base + d;
		if (v > UINT32_MAX)
			return NULL;
	}
	*val = v;
	return s;
}

/**
 * rai_ipv4_literal - @s as getaddrinfo(AI_NUMERICHOST) reads an IPv4
 * literal (glibc's __inet_aton_exact(): inet_aton() over the whole
 * string, nothing after it, not even blanks)
 * @s: the node
 * @addr: its address, network order
 *
 * Return: 1 when @s is one, else 0.
 */
int rai_ipv4_literal(const char *s, struct in_addr *addr)
{
	/* The last part's limit, by the number of parts before it. */
	static const uint32_t max[4] = { 0xffffffff, 0xffffff, 0xffff, 0xff };
	uint8_t bytes[4] = { 0 };
	unsigned int n = 0;
	uint32_t val;

	for (;;) {
		s = rai_aton_part(s, &val);
		if (!s)
			return 0;
		if (*s != '.')
			break;
		if (n > 2 || val > 0xff)
			return 0;
		bytes[n++] = val;
		s++;
	}
	if (*s || val > max[n])
		return 0;
	addr->s_addr = htonl((uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 |
			     (uint32_t)bytes[2] << 8 | val);
	return 1;
}

/**
 * rai_ipv4_module_literal - whether the module takes @s for an IPv4
 * literal: four parts of decimal digits, each at most 255, leading zeros
 * allowed (in4_pton() over the whole node)
 */
int rai_ipv4_module_literal(const char *s)
{
	unsigned int parts = 0, val, digits;

	for (;;) {
		for (val = 0, digits = 0; *s >= '0' && *s <= '9'; s++, digits++) {
			val = val * 10 + (*s - '0');
			if (val > 255)
				return 0;
		}
		if (!digits || ++parts > 4)
			return 0;
		if (*s != '.')
			break;
		s++;
	}
	return !*s && parts == 4;
}

/*
 * @addr in dotted decimal into @out (RAI_IPV4_DOTTED_LEN bytes), as
 * inet_ntop() writes it, without its sprintf(): a tenth of the library's
 * own time in a numeric call.
 */
void rai_ipv4_dotted(const struct in_addr *addr, char *out)
{
	const unsigned char *b = (const unsigned char *)&addr->s_addr;
	unsigned int i, v;

	for (i = 0; i < 4; i++) {
		v = b[i];
		if (v >= 100)
			*out++ = '0' + v / 100;
		if (v >= 10)
			*out++ = '0' + v / 10 % 10;
		*out++ = '0' + v % 10;
		*out++ = i < 3 ? '.' : '\0';
	}
}
