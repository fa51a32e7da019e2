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
; every exit path, and the C code, treats both alike. The entry calls the
; system call table itself, with the arguments where the user left them,
; and C makes the exit's decisions (do_syscall_exit, process/syscall.c).

%include "asm-offsets.inc"
%include "pt_regs.inc"
%include "callee_saved.inc"
%include "patch_site.inc"

bits 64
default rel

extern sys_call_table, do_syscall_exit, do_syscall_bad, __trace_sys_enter
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
	; The registers: room for all fifteen, the nine a call clobbers
	; saved (pt_regs.inc). (No CLAC: FMASK cleared AC, syscall.c.) rbp
	; stays the user's: the first C frame saves it, and a backtrace
	; stops at it, a user address below every kernel frame
	; (kernel/panic.c, frame_ok()).
	sub rsp, PT_REGS_vector
	SAVE_ARGS

	; One compare for two questions. The numbers from ipc_call up leave
	; the common path: the IPC fast path's two calls (ipc/fastpath.c),
	; tried first with IRQs still off, a few rare calls, and every number
	; beyond the table, "negative" ones included (unsigned compare).
	cmp rax, NR_ipc_call
	jae .above

	; The call: IRQs on, the six arguments still in the registers the
	; syscall ABI put them in, but the fourth, which the C ABI wants in
	; rcx (SYSCALL took rcx for the return address). Every slot of
	; sys_call_table holds a function (sys_ni_syscall in the holes), so
	; the number indexes it without a test (Linux's system_call_fastpath).
.call:
	sti
	add qword [gs:PERCPU_stat_syscalls], 1
	STATIC_KEY_SITE "trace_sys_enter", .trace_enter_site, .trace_enter, STATIC_KEY_TRACE
.traced:
	mov rcx, r10
	call [sys_call_table + rax * 8]
	mov rdi, rsp			; struct pt_regs *
	mov rsi, rax			; the result
	call do_syscall_exit		; the exit's decisions, in C; IRQs off
.exit:
	; True in al: SYSRET may return, the frame is what `syscall` saved
	; but for the result and the message registers (process/syscall.h).
	; SYSRET restores RIP from RCX and RFLAGS from R11 and nothing else,
	; and loads CS and SS from IA32_STAR (SDM Vol. 2B, SYSRET); false:
	; IRETQ, which restores everything from the frame, once its other
	; half is there. The callee-saved registers are the user's: the C
	; code kept them.
	test al, al
	jz .iret
	RESTORE_ARGS			; rcx = RIP and r11 = RFLAGS
	mov rsp, [rsp + PT_REGS_rsp]
	swapgs
	o64 sysret
.iret:
	SAVE_REST
	jmp swapgs_restore_regs_and_return_to_usermode

	; The way out of a whole frame, another thread's or one the IPC fast
	; path saved: every register from it.
.exit_whole:
	test al, al
	jz swapgs_restore_regs_and_return_to_usermode
	POP_REGS			; rcx = RIP and r11 = RFLAGS
	; The stack now holds vector, error code, RIP, CS, RFLAGS, RSP, SS.
	mov rsp, [rsp + PT_REGS_rsp - PT_REGS_vector]
	swapgs
	o64 sysret

	; `trace on`: the site above jumps here. The recorder may clobber
	; the argument registers: back from the frame.
.trace_enter:
	mov rdi, rax			; the number
	mov rsi, rsp			; struct pt_regs *
	call __trace_sys_enter
	LOAD_CALL_ARGS
	jmp .traced

	; From the compare above, IRQs off, flags still its.
.above:
	je .fastpath
	cmp rax, NR_ipc_reply_recv
	je .fastpath
	cmp rax, NR_SYSCALLS
	jb .call
	; Beyond the table: -ENOSYS, traced and counted as any call.
	sti
	mov rdi, rsp
	call do_syscall_bad
	jmp .exit

	; ipc_fastpath() returns {partner's pt_regs, prev} in rax:rdx, or
	; rax = 0: not taken. Taken, `current` is already the partner: its
	; registers are the top of its kernel stack, so moving %rsp there is
	; the switch of stacks, and the exit above returns to its user mode
	; (with its message in its registers) after ipc_fastpath_finish()
	; ends the switch on that stack. Not taken: the call, as any other,
	; its number and arguments back from the frame.
	; The fast path may park this thread with nothing on its stack but
	; its frame, to be returned to from the frame alone: the whole frame.
.fastpath:
	SAVE_REST
	mov rdi, rsp
	call ipc_fastpath
	test rax, rax
	jnz .fast_taken
	LOAD_CALL_ARGS
	jmp .call
.fast_taken:
	mov rsp, rax
	PARK_FRAME rdx, rcx, rsi	; prev's, now that its stack is free
	mov rdi, rdx			; prev
	mov rsi, rsp			; its registers
	call ipc_fastpath_finish
	jmp .exit_whole

; A parked thread (ipc/fastpath.c) that the scheduler switched to:
; switch_to() popped the frame below its registers and returned here,
; rax = prev, %rsp at its struct pt_regs.
global ipc_fastpath_resume_entry
ipc_fastpath_resume_entry:
	mov rdi, rax
	mov rsi, rsp
	call ipc_fastpath_resume	; the rest of its system call
	jmp entry_SYSCALL_64.exit_whole

extern ipc_fastpath, ipc_fastpath_finish, ipc_fastpath_resume
extern swapgs_restore_regs_and_return_to_usermode
