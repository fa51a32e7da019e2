/* Force-included (-include) before every kernel file the explorer
 * compiles (kernel/locking/rtmutex.c, spinlock_rt.c): the operations that
 * are scheduling points. An atomic builtin is redefined as a macro of the
 * same name that first stops at a point (tests/explore/shim.c decides
 * whether the address is one it watches: an rt_mutex's owner word) and
 * then performs the builtin itself: a macro's own name is not expanded
 * again inside its body (C11 6.10.3.4p2), so the inner call is GCC's.
 * WRITE_ONCE() of a thread's state is a point too. The kernel's code is
 * compiled as it is in the tree. */
#ifndef FOLD_EXPLORE_SHIM_H
#define FOLD_EXPLORE_SHIM_H

#include "lib/types.h"
#include "tests/explore/shim.h" /* explore_atomic_point() ... */

#define EXPLORE_AT(p, w, name, call)                                          \
	({                                                                    \
		explore_atomic_point((p), (w), #p);                               \
		u64 __before = (u64) * (p);                                   \
		__auto_type __r = call;                                       \
		explore_atomic_done((p), name, __before);                     \
		__r;                                                          \
	})

#define __atomic_load_n(p, mo) EXPLORE_AT(p, 0, "load", __atomic_load_n((p), (mo)))
#define __atomic_fetch_or(p, v, mo) EXPLORE_AT(p, 1, "fetch_or", __atomic_fetch_or((p), (v), (mo)))
#define __atomic_fetch_and(p, v, mo) EXPLORE_AT(p, 1, "fetch_and", __atomic_fetch_and((p), (v), (mo)))
#define __atomic_fetch_add(p, v, mo) EXPLORE_AT(p, 1, "fetch_add", __atomic_fetch_add((p), (v), (mo)))
#define __atomic_fetch_sub(p, v, mo) EXPLORE_AT(p, 1, "fetch_sub", __atomic_fetch_sub((p), (v), (mo)))
#define __atomic_sub_fetch(p, v, mo) EXPLORE_AT(p, 1, "sub_fetch", __atomic_sub_fetch((p), (v), (mo)))
#define __atomic_compare_exchange_n(p, e, d, w, s, f)                         \
	EXPLORE_AT(p, 1, "cmpxchg", __atomic_compare_exchange_n((p), (e), (d), (w), (s), (f)))
/* A store returns nothing: its own statement expression. */
#define __atomic_store_n(p, v, mo)                                            \
	({                                                                    \
		explore_atomic_point((p), 1, #p);                               \
		u64 __before = (u64) * (p);                                   \
		__atomic_store_n((p), (v), (mo));                             \
		explore_atomic_done((p), "store", __before);                  \
	})

/* READ_ONCE() is a point only where the front end watches its address
 * (explore_read_watched(): a condition a scenario races, such as an
 * IRQ line's pending word); elsewhere it is the plain read it is. */
#undef READ_ONCE
#define READ_ONCE(x)                                                          \
	({                                                                    \
		if (explore_read_watched(&(x)))                                   \
			explore_atomic_point(&(x), 0, #x);                        \
		*(const volatile __typeof__(x) *)&(x);                        \
	})

#undef WRITE_ONCE
#define WRITE_ONCE(x, v)                                                      \
	({                                                                    \
		__typeof__(x) __v = (v);                                      \
		explore_write_point(&(x));                                    \
		*(volatile __typeof__(x) *)&(x) = __v;                        \
		explore_write_done(&(x));                                     \
	})

#endif
