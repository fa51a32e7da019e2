; u64 __copy_user(void *dst, const void *src, u64 n): the byte copy behind
; copy_from_user() and copy_to_user() (mm/uaccess.c). Returns the number
; of bytes NOT copied, 0 on success, as Linux's copy_user functions do.
;
; `rep movsb` is interruptible and restartable (SDM Vol. 2B, REP): when it
; faults, RSI, RDI and RCX describe the bytes still to copy, so the fixup
; returns RCX. The caller has checked the range (access_ok) and brackets
; the call with STAC/CLAC; a fault here is an unmapped user page.
bits 64
default rel
section .text

global __copy_user
__copy_user:
	mov rcx, rdx
.copy:
	rep movsb
	xor eax, eax
	ret
.fault:
	mov rax, rcx
	ret

section .extable progbits alloc noexec nowrite align=8
	dq __copy_user.copy, __copy_user.fault
