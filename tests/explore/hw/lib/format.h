/* The explorer's lib/format.h: the one tests/explore/shim/ has. */
#include "tests/explore/shim/lib/format.h"
