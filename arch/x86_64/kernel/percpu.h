/* %gs-relative accessors for the per-CPU area (kernel/percpu.h).
 *
 * Why inline asm with an "i" offset rather than GCC's __seg_gs address
 * space: the asm pins each access to exactly one instruction of the size we
 * name (movl/incl/decl %gs:off), which is the property fold teaches and the
 * host check (tests/check-disasm) asserts; with __seg_gs the compiler may
 * legally split, combine or reorder the accesses. `volatile` keeps each
 * access where the program puts it; only the preempt operations add a
 * "memory" clobber, because they order the critical section they bound.
 *
 * Only the owning CPU writes its area with these: a single instruction
 * cannot be torn by an interrupt on the same CPU, so no lock prefix is
 * needed (the whole point of the per-CPU count). */
#ifndef FOLD_ARCH_PERCPU_H
#define FOLD_ARCH_PERCPU_H

#define PERCPU_OFF(field) offsetof(struct percpu, field)


#define this_cpu_read(field)                                                   \
	({                                                                     \
		__typeof__(((struct percpu *)0)->field) v__;                   \
		switch (sizeof(v__)) {                                         \
		case 4:                                                        \
			__asm__ __volatile__("movl %%gs:%c1, %0"               \
					     : "=r"(*(u32 *)&v__)              \
					     : "i"(PERCPU_OFF(field)));        \
			break;                                                 \
		case 8:                                                        \
			__asm__ __volatile__("movq %%gs:%c1, %0"               \
					     : "=r"(*(u64 *)&v__)              \
					     : "i"(PERCPU_OFF(field)));        \
			break;                                                 \
		default:                                                       \
			__builtin_trap();                                      \
		}                                                              \
		v__;                                                           \
	})

#define this_cpu_write(field, val)                                             \
	do {                                                                   \
		__typeof__(((struct percpu *)0)->field) w__ = (val);           \
		switch (sizeof(w__)) {                                         \
		case 4:                                                        \
			__asm__ __volatile__("movl %0, %%gs:%c1" ::"r"(        \
						     *(u32 *)&w__),            \
					     "i"(PERCPU_OFF(field)));          \
			break;                                                 \
		case 8:                                                        \
			__asm__ __volatile__("movq %0, %%gs:%c1" ::"r"(        \
						     *(u64 *)&w__),            \
					     "i"(PERCPU_OFF(field)));          \
			break;                                                 \
		default:                                                       \
			__builtin_trap();                                      \
		}                                                              \
	} while (0)

/* Add to a 32- or 64-bit field with one `add %gs:` instruction. */
#define this_cpu_add(field, val)                                               \
	do {                                                                   \
		if (sizeof(((struct percpu *)0)->field) == 4)                  \
			__asm__ __volatile__("addl %0, %%gs:%c1" ::"ri"(       \
						     (u32)(val)),              \
					     "i"(PERCPU_OFF(field)));          \
		else                                                           \
			__asm__ __volatile__("addq %0, %%gs:%c1" ::"re"(       \
						     (u64)(val)),              \
					     "i"(PERCPU_OFF(field)));          \
	} while (0)
#define this_cpu_inc(field) this_cpu_add(field, 1)
#define this_cpu_dec(field) this_cpu_add(field, -1)

/* The per-CPU statistics counters. */
#define this_cpu_stat_inc(name) this_cpu_inc(stats.name)

static __always_inline struct percpu *this_cpu_ptr(void)
{
	return this_cpu_read(self);
}

/* The CPU number, raw: callers that may migrate must have preemption off
 * (smp_processor_id() checks that in debug builds). */
static __always_inline u32 raw_smp_processor_id(void)
{
	return this_cpu_read(cpu);
}

void arch_percpu_set_base(struct percpu *p);

#endif
