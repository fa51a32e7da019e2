bits 64
section .text

; void switch_to_stack(void (*fn)(void *), void *arg, u64 stack_top):
; run fn(arg) on a new stack, never to return (the boot CPU leaves its
; boot stack for a guarded one).
global switch_to_stack
switch_to_stack:
	mov rsp, rdx
	xor ebp, ebp
	mov rax, rdi
	mov rdi, rsi
	push 0			; a zero return address ends backtraces
	jmp rax
