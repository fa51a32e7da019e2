; preempt_schedule_thunk: the out-of-line slow path of preempt_enable().
; The inline `call` in __preempt_schedule() tells the compiler nothing is
; clobbered, so this saves every caller-clobbered register (SysV AMD64 ABI
; 3.2.1: rax, rcx, rdx, rsi, rdi, r8-r11) around the C call. That is what
; keeps callers of preempt_enable() leaf-like: no spills around a call the
; fast path never makes.
;
; Its first instruction is a patch site (arch/x86_64/kernel/patch_site.h), Linux's
; static-call trampoline __SCT__preempt_schedule: in full and lazy it is
; `jmp preempt_schedule_regs`, in none and voluntary a 5-byte NOP that
; falls into `ret`, so preempt_enable() reaching zero costs a call and a
; return and reads no mode variable.
bits 64
%include "asm-offsets.inc"
%include "patch_site.inc"
section .text
extern preempt_schedule
global preempt_schedule_thunk
global preempt_schedule_regs
; EXCERPT(thunk) BEGIN (docs/02-modes-and-patching.md quotes these lines)
	PATCH_SITE "preempt_schedule", preempt_schedule_thunk, preempt_schedule_regs, PATCH_MODES_PREEMPT
	ret
; EXCERPT(thunk) END

preempt_schedule_regs:
	push rbp
	mov rbp, rsp
	push rdi
	push rsi
	push rdx
	push rcx
	push rax
	push r8
	push r9
	push r10
	push r11
	call preempt_schedule
	pop r11
	pop r10
	pop r9
	pop r8
	pop rax
	pop rcx
	pop rdx
	pop rsi
	pop rdi
	pop rbp
	ret
