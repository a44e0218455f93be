/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * kstrtoint()/kstrtouint() as the kernel's: the whole string, base 10
 * here, an optional newline at the end, -EINVAL or -ERANGE otherwise.
 */
#ifndef _KSHIM_KSTRTOX_H
#define _KSHIM_KSTRTOX_H
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

static inline int kshim_strtoll(const char *s, long long min, long long max,
				long long *res)
{
	char *end;
	long long v;

	if (!*s || *s == ' ' || (min >= 0 && *s == '-'))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || (*end && !(*end == '\n' && !end[1])))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int ret = base == 10 ? kshim_strtoll(s, INT_MIN, INT_MAX, &v) : -EINVAL;

	if (!ret)
		*res = (int)v;
	return ret;
}

static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	long long v;
	int ret = base == 10 ? kshim_strtoll(s, 0, UINT_MAX, &v) : -EINVAL;

	if (!ret)
		*res = (unsigned int)v;
	return ret;
}
#endif
