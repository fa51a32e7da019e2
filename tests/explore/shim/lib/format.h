/* The explorer's lib/format.h: libc's snprintf() (shim/host.h includes
 * <stdio.h>), whose formats fold's lib/format.c follows. */
#ifndef FOLD_LIB_FORMAT_H
#define FOLD_LIB_FORMAT_H
#include <stdio.h>
#endif
