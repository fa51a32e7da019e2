/* The explorer's lib/string.h: the one tests/explore/shim/ has. */
#include "tests/explore/shim/lib/string.h"
