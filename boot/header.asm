; The multiboot2 header GRUB looks for in the first 32 KiB of the image.
; Multiboot2 spec 3.1.1: magic, architecture (0 = i386 protected mode),
; header length, and a checksum that makes the four fields sum to zero;
; then tags, 8-byte aligned, ending with a type-0 tag.

MB2_MAGIC	equ 0xE85250D6
MB2_ARCH_I386	equ 0

section .multiboot
align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	; Information request tag (3.1.4): ask for the command line, the memory
	; map and the ACPI RSDP (old and new), so that the kernel can count on
	; them. Type 1, flags 0 (required). GRUB gives all five under a BIOS
	; and under UEFI alike. No EFI boot services tag (3.1.11), and no EFI
	; entry address tags (3.1.9, 3.1.10): under UEFI, GRUB exits boot
	; services and enters fold at the same 32-bit entry as under a BIOS,
	; which is what fold wants (it owns the machine from its first
	; instruction, and finds the RSDP in the tags, not by a BIOS scan).
align 8
	dw 1, 0
	dd 8 + 4 * 5
	dd 1		; boot command line
	dd 2		; boot loader name
	dd 6		; memory map
	dd 14		; ACPI old RSDP
	dd 15		; ACPI new RSDP
align 8
	; Framebuffer header tag (multiboot2 spec 3.1, "The framebuffer tag of
	; Multiboot2 header", type 5): flags 1 = optional, so a loader that cannot set a mode
	; still boots fold (serial-only); width, height, depth preferred.
	; GRUB picks a linear RGB mode (VBE under a BIOS, GOP under UEFI) and
	; reports it in the framebuffer boot tag (type 8, 3.6.12).
	dw 5, 1
	dd 20
	dd 1024, 768, 32
align 8
	; End tag.
	dw 0, 0
	dd 8
mb2_header_end:
