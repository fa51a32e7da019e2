; Interrupt and exception entry and exit.
;
; All 256 vectors enter through a stub that makes the stack look the same
; (an error code, real or 0, and the vector number) and jumps to ONE common
; entry, which saves the general registers as a struct pt_regs
; (arch/x86_64/regs.h) and calls the C dispatcher, irq_dispatch(). It runs
; the handler and then the return-to-kernel preemption check, in C, as
; Linux's irqentry_exit() does. It returns here, to ONE common exit: the
; registers are restored and iretq returns to the interrupted code.
;
; Which vectors push an error code: SDM Vol. 3A 7.15 (exception reference),
; 8 (#DF), 10-14 (#TS #NP #SS #GP #PF), 17 (#AC), 21 (#CP), 29 (#VC), 30 (#SX).

%include "asm-offsets.inc"

bits 64
default rel

extern irq_dispatch

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

	; irq_dispatch has run the handler and made the exit's decisions,
	; preemption included (arch/x86_64/irq.c, irqentry_exit): what is
	; left is the way back.
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
