; fault_catch_call / fault_catch_resume: see arch/x86_64/mm/fault_catch.h.
%include "asm-offsets.inc"
%include "callee_saved.inc"
bits 64
default rel
section .text

; int fault_catch_call(struct fault_catcher *c /* rdi */, void (*fn)(void *) /* rsi */,
;                      void *arg /* rdx */, u64 stack_top /* rcx */)
global fault_catch_call
fault_catch_call:
	PUSH_CALLEE_SAVED
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
	POP_CALLEE_SAVED
	ret

