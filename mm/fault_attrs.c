/* The memory allocators' fault injection points (kernel/debug/fault_inject.h),
 * each with its boot option of the same name:
 *
 *   failslab          kmalloc() and kzalloc() return NULL (mm/kmalloc.c);
 *                     Linux's failslab, for its slab allocators
 *   fail_page_alloc   frame_alloc(), frame_alloc_contig() and
 *                     frame_alloc_above() return 0 (mm/frame.c); Linux's
 *                     fail_page_alloc
 *   fail_stack_alloc  stack_alloc() returns 0 (mm/stack.c): a kernel
 *                     stack, taken by every spawn
 *
 * The size passed is the allocation's in bytes (Linux's space budget
 * counts those). */
#include "mm/mm.h"
#include "kernel/debug/fault_inject.h"

DEFINE_FAULT_ATTR(failslab);
DEFINE_FAULT_ATTR(fail_page_alloc);
DEFINE_FAULT_ATTR(fail_stack_alloc);
