/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include <string.h>
