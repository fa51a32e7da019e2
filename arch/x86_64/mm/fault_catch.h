/* Recoverable exceptions, for the exception test suite only.
 *
 * fault_catch_call(c, fn, arg, stack_top) runs fn(arg) (on the given stack
 * if stack_top != 0) with a catcher armed on this CPU. If fn returns, the
 * call returns 0. If fn raises an exception, the trap handler still prints
 * the full oops report, records vector, error code, CR2 and RIP in *c, and
 * returns from the exception to fault_catch_resume instead of the faulting
 * instruction: the callee-saved registers and stack pointer saved at the
 * call are restored and the call returns 1. Like setjmp/longjmp, across an
 * exception frame. */
#ifndef FOLD_ARCH_FAULT_CATCH_H
#define FOLD_ARCH_FAULT_CATCH_H
#include "lib/types.h"

struct fault_catcher {
	u64 saved_rsp; /* offset 0: written by fault_catch_call */
	u64 vector, error_code, cr2, rip, rsp;
	bool caught;
};

int fault_catch_call(struct fault_catcher *c, void (*fn)(void *), void *arg,
		     u64 stack_top);
void fault_catch_resume(void);
#endif
