; fold's first instructions. GRUB enters here in 32-bit protected mode with
; paging off, EAX = multiboot2 magic and EBX = physical address of the boot
; information (Multiboot2 spec 3.3, "I386 machine state").
;
; Steps: check the magic and CPUID long mode, zero .bss, build the early page
; tables, turn on long mode (Intel SDM Vol. 3A 10.8.5 "Initializing IA-32e
; Mode"), jump to 64-bit code and then to the higher half, call kmain().

bits 32

%include "asm-offsets.inc"	; KERNEL_VMA, PAGE_OFFSET, STACK_SIZE (mm/mm.h)
COM1		equ 0x3F8
MB2_BOOT_MAGIC	equ 0x36D76289

extern kmain
extern _bss_start, _bss_end


section .boot.text
global _start
_start:
	cli
	cld
	mov esi, ebx			; keep the boot information pointer

	cmp eax, MB2_BOOT_MAGIC
	jne .no_multiboot

	; CPUID leaf 0x80000001 EDX bit 29 is LM (SDM Vol. 2A, CPUID).
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_long_mode

	; Zero .bss (GRUB zeroes it too, but the kernel should not rely on a
	; loader detail). Its link address is in the higher half; subtract
	; KERNEL_VMA to reach it at its physical address.
	mov edi, _bss_start - KERNEL_VMA
	mov ecx, _bss_end - KERNEL_VMA
	sub ecx, edi
	xor eax, eax
	rep stosb
	mov edi, boot_bss_start
	mov ecx, boot_bss_end - boot_bss_start
	rep stosb

	; Early page tables: the first 1 GiB with 2 MiB pages, seen three times:
	; identity (for the instruction after enabling paging), at PAGE_OFFSET
	; (the direct map, so early C can read the boot information), and at
	; KERNEL_VMA (where the kernel is linked). arch/x86_64/mm/vm.c replaces them.
	mov edi, early_pd
	mov eax, 0x83			; present | writable | 2 MiB page
	mov ecx, 512
.fill_pd:
	mov [edi], eax
	mov dword [edi + 4], 0
	add eax, 0x200000
	add edi, 8
	loop .fill_pd

	mov eax, early_pd
	or eax, 0x3
	mov [early_pdpt_low], eax
	mov [early_pdpt_high + 510 * 8], eax

	mov eax, early_pdpt_low
	or eax, 0x3
	mov [early_pml4], eax			; identity
	mov [early_pml4 + ((PAGE_OFFSET >> 39) & 511) * 8], eax	; PAGE_OFFSET: slot 256
	mov eax, early_pdpt_high
	or eax, 0x3
	mov [early_pml4 + ((KERNEL_VMA >> 39) & 511) * 8], eax	; KERNEL_VMA: slot 511

	; SDM 3A 10.8.5: CR4.PAE, CR3, EFER.LME, then CR0.PG.
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, early_pml4
	mov cr3, eax

	; EFER (MSR 0xC0000080): LME (bit 8); NXE (bit 11) if CPUID says NX.
	mov eax, 0x80000001
	cpuid
	mov ebx, edx
	mov ecx, 0xC0000080
	rdmsr
	or eax, 1 << 8
	test ebx, 1 << 20
	jz .no_nx
	or eax, 1 << 11
.no_nx:
	wrmsr

	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1	; PG, WP, PE
	mov cr0, eax

	lgdt [early_gdt_ptr]
	jmp 0x08:long_mode_entry

.no_multiboot:
	mov esi, msg_no_multiboot
	jmp early_die
.no_long_mode:
	mov esi, msg_no_long_mode
	jmp early_die

; Print the NUL-terminated string at ESI on COM1 and stop. Polls the line
; status register's THR-empty bit (16550 datasheet, LSR bit 5).
early_die:
	mov dx, COM1 + 5
.wait:
	in al, dx
	test al, 0x20
	jz .wait
	lodsb
	test al, al
	jz .halt
	mov dx, COM1
	out dx, al
	jmp early_die
.halt:
	; Tell QEMU's isa-debug-exit (if present) that this is a panic (2).
	mov dx, 0xF4
	mov eax, 2
	out dx, eax
	cli
	hlt
	jmp .halt

bits 64
long_mode_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov rax, higher_half
	jmp rax

section .text
higher_half:
	mov rsp, boot_stack_top
	xor ebp, ebp			; terminates frame-pointer backtraces
	mov edi, esi			; kmain(boot information physical address)
	call kmain
.hang:
	cli
	hlt
	jmp .hang

section .boot.data
align 8
early_gdt:
	dq 0
	dq 0x00AF9A000000FFFF		; 0x08: 64-bit code, DPL 0
	dq 0x00CF92000000FFFF		; 0x10: data, DPL 0
early_gdt_end:
early_gdt_ptr:
	dw early_gdt_end - early_gdt - 1
	dd early_gdt

msg_no_multiboot:
	db "fold: not booted by a multiboot2 loader (bad magic in EAX); boot fold.iso through GRUB", 13, 10, 0
msg_no_long_mode:
	db "fold: this CPU has no long mode (CPUID 0x80000001 EDX.LM = 0); fold needs x86-64", 13, 10, 0

section .boot.bss nobits
align 4096
boot_bss_start:
early_pml4:	resb 4096
early_pdpt_low:	resb 4096
early_pdpt_high: resb 4096
early_pd:	resb 4096
boot_bss_end:

; The boot CPU's first stack. kmain moves to a guarded stack once memory is
; up; this one only has to carry early boot.
; THREAD_SIZE-aligned, so the ti count model finds a thread_info at its base.
section .bss.boot_stack nobits alloc noexec write align=STACK_SIZE
global boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	resb STACK_SIZE
boot_stack_top:
