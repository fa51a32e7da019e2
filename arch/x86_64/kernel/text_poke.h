/* text_poke(): write kernel text without ever making it writable (Linux's
 * text_poke, arch/x86/kernel/alternative.c). */
#ifndef FOLD_ARCH_TEXT_POKE_H
#define FOLD_ARCH_TEXT_POKE_H
#include "lib/types.h"

/* Copy len bytes to kernel text at addr through a temporary writable
 * alias, then serialize this CPU. IRQs off; the caller makes sure no
 * other CPU runs the bytes meanwhile (stop_machine, or before SMP). */
void text_poke(void *addr, const void *bytes, size_t len);

/* A serializing instruction (CPUID): the CPU discards what it prefetched
 * and decoded, so the next instruction fetch sees modified code (SDM Vol.
 * 3A, "Handling Self- and Cross-Modifying Code"; "Serializing
 * Instructions" lists CPUID). Linux's sync_core(). */
void sync_core(void);
#endif
