; The variable test that the patch sites replaced, for bench mode_cost
; (bench/bench_mode_cost.c) to measure against them: while it
; runs, the site at the first byte of preempt_schedule_thunk, or of
; irqentry_exit_cond_resched, is rewritten to `jmp` one of these, which
; loads the mode and preempts in full and lazy: what fold did before its
; points became patched code (and Linux before static calls, and without
; HAVE_PREEMPT_DYNAMIC_CALL: a load and a branch at every point). The
; bench puts the site back before it returns.
;
; At the site no frame exists yet (the site is the function's first
; instruction; the bench checks that), so `ret` here returns to the
; function's caller and the `jae` is a tail call, as the site's own jmp.
bits 64
%include "asm-offsets.inc"
section .text
extern preempt_mode
extern preempt_schedule_regs
extern preempt_schedule_irq
global bench_var_preempt_schedule
global bench_var_exit_cond_resched

; full and lazy, the modes that preempt the kernel, are the last two
%if PREEMPT_MODE_LAZY != PREEMPT_MODE_FULL + 1 || NR_PREEMPT_MODES != PREEMPT_MODE_LAZY + 1
%error "the preemptible modes are no longer the last two of PREEMPT_MODES"
%endif

; In place of preempt_schedule_thunk's site: preempt_enable()'s slow path.
bench_var_preempt_schedule:
	cmp dword [rel preempt_mode], PREEMPT_MODE_FULL
	jae preempt_schedule_regs
	ret

; In place of irqentry_exit_cond_resched's site: the IRQ exit.
bench_var_exit_cond_resched:
	cmp dword [rel preempt_mode], PREEMPT_MODE_FULL
	jae preempt_schedule_irq
	ret
