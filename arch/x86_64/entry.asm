; Interrupt and exception entry and exit.
;
; All 256 vectors enter through a stub that makes the stack look the same
; (an error code, real or 0, and the vector number) and jumps to ONE common
; entry, which saves the general registers as a struct pt_regs
; (arch/x86_64/regs.h) and calls the C dispatcher. The dispatcher returns
; here, to ONE common exit: the return-to-kernel preemption check, then the
; registers are restored and iretq returns to the interrupted code.
;
; Which vectors push an error code: SDM Vol. 3A 7.15 (exception reference),
; 8 (#DF), 10-14 (#TS #NP #SS #GP #PF), 17 (#AC), 21 (#CP), 29 (#VC), 30 (#SX).

%include "asm-offsets.inc"

bits 64
default rel

extern irq_dispatch
extern preempt_schedule_irq
extern preempt_irq_exit_enabled

THREAD_SIZE_TI equ 16384

section .text

%macro VECTOR_STUB 1
align 16
vector_stub_%1:
%if (%1 == 8) || (%1 >= 10 && %1 <= 14) || (%1 == 17) || (%1 == 21) || (%1 == 29) || (%1 == 30)
	; the CPU pushed an error code
%else
	push 0
%endif
	push %1
	jmp common_entry
%endmacro

%assign v 0
%rep 256
VECTOR_STUB v
%assign v v + 1
%endrep

; Stack on arrival at common_entry (top first): vector, error code, RIP, CS,
; RFLAGS, RSP, SS.
global common_entry
common_entry:
	cld
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15

	; A frame record so backtraces walk from the handler into the
	; interrupted code: [rbp] = interrupted rbp, [rbp+8] = interrupted rip.
	push qword [rsp + PT_REGS_rip]
	push rbp
	mov rbp, rsp

	lea rdi, [rsp + 16]		; struct pt_regs *
	call irq_dispatch

	; ---- the common exit ----
	; Return-to-kernel preemption (full mode): only if the interrupted
	; code had IF=1. A frame with IF=0 was in a section that cannot be
	; preempted (or is an exception taken with IRQs off).
	test qword [rsp + 16 + PT_REGS_rflags], 1 << 9
	jz .restore
%if COUNT_BIT31
	; One compare: raw count 0 <=> depth 0 and need-resched (bit 31
	; inverted) set. This is the whole test the folded design buys.
	cmp dword [gs:PERCPU_preempt_count], 0
	jne .restore
%elif COUNT_MODEL_PERCPU
	; The seed patch: the count, then the thread flag.
	cmp dword [gs:PERCPU_preempt_count], 0
	jne .restore
	mov rax, [gs:PERCPU_current]
	test qword [rax + THREAD_flags], 1 << TIF_NEED_RESCHED
	jz .restore
%elif COUNT_MODEL_TI
	; Before the change: thread_info at the stack base, then the flag.
	mov rax, rsp
	and rax, -THREAD_SIZE_TI
	cmp dword [rax], 0
	jne .restore
	mov rax, [gs:PERCPU_current]
	test qword [rax + THREAD_flags], 1 << TIF_NEED_RESCHED
	jz .restore
%else
	; off: no count, no preemption from IRQ exit.
	jmp .restore
%endif
	; Only the full mode preempts here (sched/preempt_mode.c).
	cmp byte [preempt_irq_exit_enabled], 0
	je .restore
	call preempt_schedule_irq
.restore:
	add rsp, 16			; drop the frame record
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16			; vector and error code
	iretq

; The table of stub addresses the IDT is built from (arch/x86_64/idt.c).
section .rodata
align 8
global vector_stubs
vector_stubs:
%assign v 0
%rep 256
	dq vector_stub_ %+ v
%assign v v + 1
%endrep
