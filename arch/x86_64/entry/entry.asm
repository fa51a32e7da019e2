; Interrupt and exception entry and exit.
;
; All 256 vectors enter through a stub that makes the stack look the same
; (an error code, real or 0, and the vector number) and jumps to the entry
; of its kind, as Linux's idtentry macros make one per kind: interrupts
; (32-255) to common_entry, exceptions (0-31) to exception_entry, NMI, #DF
; and #MC to paranoid_entry. Each saves the general registers as a struct
; pt_regs (arch/x86_64/regs.h) and calls its C dispatcher, irq_dispatch()
; or exc_dispatch(). That runs the handler and then the exit's decisions,
; in C, as Linux's irqentry_exit() does: the preemption check when it
; returns to the kernel, exit_to_user_mode() when it returns to ring 3. It
; returns to the entry, whose exit restores the registers and returns
; with iretq.
;
; Which vectors push an error code: SDM Vol. 3A 7.15 (exception reference),
; 8 (#DF), 10-14 (#TS #NP #SS #GP #PF), 17 (#AC), 21 (#CP), 29 (#VC), 30 (#SX).
;
; The frame the CPU pushes (SDM Vol. 3A 7.14.2, Figure 7-9): in 64-bit mode
; always SS, RSP, RFLAGS, CS, RIP (then the error code), 16-byte aligned.
; From ring 3 it is pushed on TSS.RSP0, the thread's kernel stack
; (arch/x86_64/kernel/gdt.c); from ring 0 on the current stack; for #DF, NMI and
; #MC on their IST stacks whatever the ring.
;
; GS. In the kernel IA32_GS_BASE points at this CPU's struct percpu; in
; user mode it holds the user's value and the kernel's waits in
; IA32_KERNEL_GS_BASE. SWAPGS exchanges the two (SDM Vol. 2B, SWAPGS), so
; an entry from ring 3 must swap before it touches %gs, and the exit to
; ring 3 must swap back, and an entry from ring 0 must not swap. The saved
; CS says which ring we came from, except for the paranoid vectors below.
%include "asm-offsets.inc"
%include "pt_regs.inc"

bits 64
default rel

extern irq_dispatch, exc_dispatch, do_exception

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
%if (%1 == 2) || (%1 == 8) || (%1 == 18)
	jmp paranoid_entry
%elif %1 < 32
	jmp exception_entry
%else
	jmp common_entry
%endif
%endmacro

%assign v 0
%rep 256
VECTOR_STUB v
%assign v v + 1
%endrep

; The entries of the interrupts and of the exceptions: registers saved,
; GS, AC, the dispatcher, and the way back. rbp is the struct pt_regs's
; address plus 1, no frame record, as Linux's ENCODE_FRAME_POINTER makes
; it: a backtrace that meets an odd rbp reads the interrupted rip and rbp
; from the pt_regs there and walks on into the interrupted code
; (kernel/panic.c, dump_backtrace(); tools/gdb/fold.py for GDB). No label
; may sit between the entry's name and its call: GDB and the oops
; backtrace name a return address by the closest symbol before it.
%macro IDT_ENTRY 2
	cld
	PUSH_REGS
	%1				; GS and AC
	mov rdi, rsp			; struct pt_regs *
	lea rbp, [rsp + 1]
	call %2

	; The dispatcher has run the handler and made the exit's decisions
	; (arch/x86_64/entry/irq.c): what is left is the way back.
	test byte [rsp + PT_REGS_cs], 3
	jnz swapgs_restore_regs_and_return_to_usermode
	POP_REGS
	add rsp, 16			; vector and error code
	iretq
%endmacro

; An interrupt's GS: from ring 3 the kernel's is swapped in (SDM Vol. 2B,
; SWAPGS), from ring 0 it is already there. An interrupt never arrives
; between the exit's SWAPGS and its IRETQ, which run with IF clear: only
; an exception does (exception_entry). The jump skips the 3-byte SWAPGS
; without a label (see above).
%macro INTERRUPT_GS 0
	test byte [rsp + PT_REGS_cs], 3
	jz short $ + 5
	swapgs
	CLAC_IF_SMAP
%endmacro

; Stack on arrival (top first): vector, error code, RIP, CS, RFLAGS, RSP,
; SS. Interrupts, vectors 32-255: no exception to tell apart, no bad IRET.
global common_entry
common_entry:
	IDT_ENTRY INTERRUPT_GS, irq_dispatch

; Exceptions, vectors 0-31 but the paranoid ones.
global exception_entry
exception_entry:
	IDT_ENTRY {call error_entry}, exc_dispatch

; An exception's GS and AC decisions, a subroutine (as Linux's
; error_entry), for the label it needs. The pt_regs is above the return
; address.
error_entry:
	test byte [rsp + 8 + PT_REGS_cs], 3
	jnz .swapgs			; from ring 3: the kernel's GS
	; From ring 0 with the user's GS, in one place only: the iretq
	; back to user mode faulted (a bad frame, e.g. a non-canonical RIP:
	; SDM Vol. 2A IRET, 64-bit mode checks). The swap before it was
	; done, so undo it here, as Linux's error_entry does for a bad iret.
	lea rax, [rel native_irq_return_user_iret]
	cmp [rsp + 8 + PT_REGS_rip], rax
	jne .gs_ok
.swapgs:
	swapgs
.gs_ok:
	CLAC_IF_SMAP
	ret

; The way back to ring 3 from any entry, with RSP at a struct pt_regs and
; IRQs off (the interrupt entry above, the syscall entry's iretq path, and
; a new user thread's first return, ret_to_user()).
global swapgs_restore_regs_and_return_to_usermode
swapgs_restore_regs_and_return_to_usermode:
	POP_REGS
	add rsp, 16			; vector and error code
	swapgs				; the user's GS: nothing touches %gs from here
global native_irq_return_user_iret
native_irq_return_user_iret:
	iretq

; void ret_to_user(struct pt_regs *regs): a new user thread's way into
; ring 3, through the same exit (process/exec.c built the frame).
global ret_to_user
ret_to_user:
	mov rsp, rdi
	jmp swapgs_restore_regs_and_return_to_usermode

; NMI, #DF and #MC. These arrive at any instruction, including the ones
; between the syscall instruction and the entry's SWAPGS or between the
; exit's SWAPGS and SYSRET/IRETQ, where the saved CS says ring 0 but GS
; is the user's. So they decide from the GS base itself, as Linux's
; paranoid_entry does without FSGSBASE: the kernel's GS base is a kernel
; address (bit 63 set), the user's never is (fold lets no user set it).
; They remember in rbx (callee-saved, so it survives the C call) whether
; they swapped, and swap back on the way out. They do no exit work: an
; NMI must not schedule (NMIs stay blocked until its IRETQ, SDM Vol. 3A
; 7.7.1), and #DF and #MC end in a panic. The IST stack each uses is its
; own (arch/x86_64/entry/idt.c), since the interrupted RSP may be a user's.
paranoid_entry:
	cld
	PUSH_REGS
	call paranoid_gs		; ebx = 1 if it swapped
	push qword [rsp + PT_REGS_rip]
	push rbp
	mov rbp, rsp
	lea rdi, [rsp + 16]
	call do_exception
	add rsp, 16
	test ebx, ebx
	jz .no_swap
	swapgs
.no_swap:
	POP_REGS
	add rsp, 16
	iretq

paranoid_gs:
	mov ecx, MSR_GS_BASE
	rdmsr				; edx:eax = IA32_GS_BASE
	xor ebx, ebx
	test edx, edx
	js .kernel_gs			; bit 63 set: already the kernel's
	swapgs
	mov ebx, 1
.kernel_gs:
	CLAC_IF_SMAP
	ret

; The table of stub addresses the IDT is built from (arch/x86_64/entry/idt.c).
section .rodata
align 8
global vector_stubs
vector_stubs:
%assign v 0
%rep 256
	dq vector_stub_ %+ v
%assign v v + 1
%endrep
