; The AP start-up trampoline. An AP woken by INIT-SIPI-SIPI starts in real
; mode at CS:IP = (vector << 8):0000 (SDM Vol. 3A 9.4.4 and 12.6.1), so
; smpboot.c copies these bytes to TRAMPOLINE_PHYS (0x8000, vector 0x08) and
; fills in the data block at the end. The code climbs 16 -> 32 -> 64 bits
; (SDM Vol. 3A 10.9.1 and 10.8.5) and jumps to ap_main(cpu) in the kernel.
; It is copied, so every address is computed as TRAMPOLINE_PHYS + offset.

TRAMPOLINE_PHYS equ 0x8000
%define T(x) (TRAMPOLINE_PHYS + (x) - trampoline_start)

section .rodata
default abs
global trampoline_start, trampoline_end
global tr_cr3, tr_efer, tr_stack, tr_entry, tr_cpu

bits 16
trampoline_start:
	cli
	cld
	xor ax, ax
	mov ds, ax
	lgdt [T(tr_gdt_ptr)]
	mov eax, cr0
	or eax, 1			; PE
	mov cr0, eax
	jmp dword 0x08:T(tr_pm32)

bits 32
tr_pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, [T(tr_cr3)]		; the kernel's page tables (below 4 GiB)
	mov cr3, eax
	mov ecx, 0xC0000080		; EFER: the boot CPU's value (LME, NXE)
	mov eax, [T(tr_efer)]
	xor edx, edx
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)	; PG, WP
	mov cr0, eax
	jmp 0x18:T(tr_lm64)

bits 64
tr_lm64:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [T(tr_stack)]
	mov edi, [T(tr_cpu)]
	mov rax, [T(tr_entry)]
	xor ebp, ebp
	push 0				; a zero return address ends backtraces
	jmp rax

align 8
tr_gdt:
	dq 0
	dq 0x00CF9A000000FFFF		; 0x08: 32-bit code
	dq 0x00CF92000000FFFF		; 0x10: data
	dq 0x00AF9A000000FFFF		; 0x18: 64-bit code
tr_gdt_ptr:
	dw 4 * 8 - 1
	dd T(tr_gdt)
align 8
tr_cr3:		dq 0
tr_efer:	dq 0
tr_stack:	dq 0
tr_entry:	dq 0
tr_cpu:		dd 0
trampoline_end:
