; switch_to(prev, next): the context switch. Saves the callee-saved
; registers (SysV AMD64 ABI 3.2.1: rbx, rbp, r12-r15) on prev's stack,
; stores prev's stack pointer, loads next's and pops its registers. The
; `ret` then continues wherever next last called switch_to, or, for a new
; thread, at thread_entry (its stack was built by thread_create).
%include "asm-offsets.inc"
%include "callee_saved.inc"
bits 64
section .text

; struct thread *switch_to(struct thread *prev /* rdi */, struct thread *next /* rsi */)
; returns prev (in rax), for the code that runs next on this CPU.
global switch_to
switch_to:
	PUSH_CALLEE_SAVED
	mov [rdi + THREAD_ksp], rsp
	mov rsp, [rsi + THREAD_ksp]
	mov rax, rdi
	POP_CALLEE_SAVED
	ret

; switch_to_park(prev, next): the same switch for a prev that saves
; nothing of its kernel stack: it is parked (ipc/fastpath.c), and gets the
; frame that resumes it from its registers alone once its stack is left.
; No return.
extern ipc_fastpath_resume_entry
global switch_to_park
switch_to_park:
	mov rsp, [rsi + THREAD_ksp]
	PARK_FRAME rdi, rcx, rdx
	mov rax, rdi
	POP_CALLEE_SAVED
	ret

; A new thread's first instructions: rax = prev from switch_to.
extern thread_start
global thread_entry
thread_entry:
	mov rdi, rax
	xor ebp, ebp
	push 0			; a zero return address ends backtraces
	jmp thread_start
