/* The explorer's kernel/panic.h: the one tests/explore/shim/ has. */
#include "tests/explore/shim/kernel/panic.h"
