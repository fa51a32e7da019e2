/* sysret_hole: the 2012 SYSRET case (CVE-2012-0217). Its last code page is
 * the last page of the user half (user.ld's .hole, at USER_TOP - 4096 =
 * 0x7ffffffff000), and the last two bytes below USER_TOP, 0x7ffffffffffe,
 * are a `syscall` (after a mov of __NR_getpid into eax). main jumps there.
 *
 * The syscall's return address, the rcx the CPU saves, is then USER_TOP,
 * 0x800000000000: not canonical. On Intel CPUs SYSRET with a non-canonical
 * rcx raises #GP in ring 0, on the user's stack pointer (SDM Vol. 2B
 * SYSRET: "#GP(0) if the return address is non-canonical"; the fault is
 * taken before the switch to CPL 3). A kernel must see that rcx is not
 * canonical and return with IRETQ instead (Linux's entry_64.S checks it);
 * the process then faults in user mode, at 0x800000000000, and is killed.
 * Expected: killed by SIGSEGV, the kernel unharmed.
 *
 * What it shows: why the fast return path checks the address it returns
 * to. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "uapi/syscall.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* 4096 - 7 bytes of int3, then `mov $39, %eax` (b8 27 00 00 00, 5 bytes)
 * and `syscall` (0f 05): the page ends right after the syscall, and the
 * assembler refuses to build it otherwise. */
__asm__(
	".pushsection .hole, \"ax\", @progbits\n"
	"sysret_hole_page:\n"
	"	.fill 4096 - 7, 1, 0xcc\n"
	"sysret_hole_entry:\n"
	"	mov $" STR(__NR_getpid) ", %eax\n"
	"sysret_hole_syscall:\n"
	"	syscall\n"
	"	.if (. - sysret_hole_page) != 4096 || (. - sysret_hole_syscall) != 2\n"
	"	.error \"sysret_hole: the syscall must be the page's last two bytes\"\n"
	"	.endif\n"
	".popsection\n");

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("sysret_hole: jumping to the syscall at 0x7ffffffffffe\n");
	/* A 64-bit absolute address: the small code model's rel32 cannot
	 * reach 0x7ffffffff000 from 0x400000. */
	__asm__ volatile("movabs $sysret_hole_entry, %%rax\n\t"
			 "jmp *%%rax" ::: "rax", "memory");
	printf("sysret_hole: came back, which cannot happen\n");
	return 1;
}
