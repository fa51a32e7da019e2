/* The explorer's lib/string.h: libc's <string.h> (shim/host.h has it
 * already), whose functions fold's lib/string.c mirrors. */
#ifndef FOLD_LIB_STRING_H
#define FOLD_LIB_STRING_H
#include <string.h>
#endif
