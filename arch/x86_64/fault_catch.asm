; fault_catch_call / fault_catch_resume: see arch/x86_64/fault_catch.h.
%include "asm-offsets.inc"
bits 64
default rel
section .text

; int fault_catch_call(struct fault_catcher *c /* rdi */, void (*fn)(void *) /* rsi */,
;                      void *arg /* rdx */, u64 stack_top /* rcx */)
global fault_catch_call
fault_catch_call:
	push rbp
	mov rbp, rsp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp			; c->saved_rsp
	mov [gs:PERCPU_fault_catcher], rdi
	mov rbx, rdi
	test rcx, rcx
	jz .call
	mov rsp, rcx
	xor ebp, ebp			; the new stack's backtrace ends here
.call:
	mov rdi, rdx
	call rsi
	mov rsp, [rbx]
	mov qword [gs:PERCPU_fault_catcher], 0
	xor eax, eax
	jmp fault_catch_out

; Entered by iretq from the trap handler, with RSP = c->saved_rsp.
global fault_catch_resume
fault_catch_resume:
	mov qword [gs:PERCPU_fault_catcher], 0
	mov eax, 1
fault_catch_out:
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

