/* The program entry. SysV AMD64 ABI 3.4.1 "Initial Stack and Register
 * State" (figure 3.9): at _start, %rsp points at argc, then argv[0..argc-1],
 * a NULL, (envp and the auxiliary vector, which fold does not pass); %rsp
 * is 16-byte aligned there, and %rbp's value is unspecified, so it is
 * cleared to mark the outermost frame (3.4.1: "the content of this
 * register is unspecified ... the user code should set the deepest stack
 * frame"). A `call` then leaves %rsp 16-byte aligned + 8 at the callee's
 * entry, as the ABI's 3.2.2 "The Stack Frame" requires. */
#include "user/lib/crt0.h"
#include "user/lib/syscall.h"

__attribute__((naked, section(".text.start"))) __noreturn void _start(void)
{
	__asm__ volatile(
		"xor %ebp, %ebp\n\t"
		"mov (%rsp), %rdi\n\t"        /* argc */
		"lea 8(%rsp), %rsi\n\t"       /* argv */
		"and $-16, %rsp\n\t"          /* aligned even if the kernel was not */
		"call __start_main\n\t"
		"ud2\n\t");
}

__noreturn void __start_main(long argc, char **argv)
{
	exit(main((int)argc, argv));
}
