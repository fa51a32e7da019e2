; The system call entry: what the CPU does at `syscall` and what fold
; does after it (SDM Vol. 2B, SYSCALL and SYSRET; Vol. 3A 5.8.8).
;
; SYSCALL saves RIP in RCX and RFLAGS in R11, clears the RFLAGS bits set in
; IA32_FMASK (IF among them, so the entry runs with interrupts off), loads
; CS and SS from IA32_STAR and jumps to IA32_LSTAR, here. It does NOT
; switch the stack, and GS is still the user's. So the first instruction
; swaps GS, the next two park the user RSP in the per-CPU area and load
; this thread's kernel stack top (TSS.RSP0's copy, kernel/percpu.h). An NMI
; may arrive between any two of them: the NMI entry decides GS from the
; MSR, not the saved CS (paranoid_entry, entry.asm), and runs on its own
; IST stack, so the user RSP here never matters to it.
;
; The frame built is a struct pt_regs like the interrupt entry's, with
; vector = VECTOR_SYSCALL and error_code = the system call number, so
; every exit path, and the C code, treats both alike.

%include "asm-offsets.inc"
%include "pt_regs.inc"
%include "callee_saved.inc"

bits 64
default rel

extern do_syscall_64
section .text

global entry_SYSCALL_64
entry_SYSCALL_64:
	swapgs
	mov [gs:PERCPU_user_rsp], rsp
	mov rsp, [gs:PERCPU_top_of_stack]

	; What an interrupt from ring 3 would have pushed (SS, RSP, RFLAGS,
	; CS, RIP), then the stub's two words.
	push USER_DS
	push qword [gs:PERCPU_user_rsp]
	push r11			; the user's RFLAGS
	push USER_CS
	push rcx			; the user's RIP (the instruction after syscall)
	push rax			; error_code: the number (rax becomes the result)
	push VECTOR_SYSCALL
	PUSH_REGS			; (no CLAC: FMASK cleared AC, arch/x86_64/entry/syscall.c)
	xor ebp, ebp			; backtraces end here, not in user memory

	mov rdi, rsp			; struct pt_regs *
	; The IPC fast path (ipc/fastpath.c) tries the two calls it serves
	; first, still with IRQs off; rax is still the number.
	cmp rax, NR_ipc_call
	je .fastpath
	cmp rax, NR_ipc_reply_recv
	je .fastpath
.slowpath:
	call do_syscall_64		; the call, then exit_to_user_mode(); IRQs off
.exit:

	; do_syscall_64 says whether SYSRET may return: it restores RIP from
	; RCX and RFLAGS from R11 and nothing else, and on Intel CPUs a
	; non-canonical RCX makes it fault in ring 0 with the user's RSP and
	; GS already loaded (CVE-2012-0217). process/syscall.h checks RCX ==
	; RIP, R11 == RFLAGS, RIP canonical, and the selectors; otherwise IRETQ,
	; which restores everything from the frame.
	test al, al
	jz swapgs_restore_regs_and_return_to_usermode

	POP_REGS			; rcx = RIP and r11 = RFLAGS (checked)
	; The stack now holds vector, error code, RIP, CS, RFLAGS, RSP, SS.
	mov rsp, [rsp + PT_REGS_rsp - PT_REGS_vector]
	swapgs
	o64 sysret

	; ipc_fastpath() returns {partner's pt_regs, prev} in rax:rdx, or
	; rax = 0: not taken. Taken, `current` is already the partner: its
	; registers are the top of its kernel stack, so moving %rsp there is
	; the switch of stacks, and the exit above returns to its user mode
	; (with its message in its registers) after ipc_fastpath_finish()
	; ends the switch on that stack.
.fastpath:
	call ipc_fastpath
	test rax, rax
	jnz .fast_taken
	mov rdi, rsp
	jmp .slowpath
.fast_taken:
	mov rsp, rax
	PARK_FRAME rdx, rcx, rsi	; prev's, now that its stack is free
	mov rdi, rdx			; prev
	mov rsi, rsp			; its registers
	call ipc_fastpath_finish
	jmp .exit

; A parked thread (ipc/fastpath.c) that the scheduler switched to:
; switch_to() popped the frame below its registers and returned here,
; rax = prev, %rsp at its struct pt_regs.
global ipc_fastpath_resume_entry
ipc_fastpath_resume_entry:
	mov rdi, rax
	mov rsi, rsp
	call ipc_fastpath_resume	; the rest of its system call
	jmp entry_SYSCALL_64.exit

extern ipc_fastpath, ipc_fastpath_finish, ipc_fastpath_resume
extern swapgs_restore_regs_and_return_to_usermode
