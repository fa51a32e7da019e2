/* Force-included (-include) first in every file of the explorer: the
 * libc headers are parsed before lib/types.h, and glibc's
 * <sys/cdefs.h> has its own __always_inline, which lib/types.h's
 * definition replaces from here on (as tests/host/rename.h does). */
#ifndef FOLD_EXPLORE_HOST_H
#define FOLD_EXPLORE_HOST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef __always_inline

#endif
