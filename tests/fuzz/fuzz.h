/* The host side of fold's fuzz targets (tests/fuzz/fuzz.mk says how they
 * are built and run):
 * what the shim (shim.c) offers the targets. Built like the host unit
 * tests: tests/host/rename.h is force-included, so kernel code keeps its
 * own memcpy/strlen/snprintf as fold_* next to libc's. */
#ifndef FOLD_TESTS_FUZZ_H
#define FOLD_TESTS_FUZZ_H
#include "lib/types.h"

/* Each fuzz_NAME.c defines libFuzzer's entry point: one input, return 0
 * (or -1: not an input worth keeping in the corpus). */
int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

/* Fake physical memory for the parsers that read firmware tables by
 * physical address (ACPI): [base, base + size) holds bytes, everything
 * else reads as 0xFF (no RAM there). memremap() returns a fresh heap copy
 * of exactly the bytes asked for, so a read one byte past what the parser
 * mapped is a heap overflow that ASan reports. fake_phys_reset() frees
 * the copies; call it at the end of every input. */
void fake_phys_set(u64 base, const void *bytes, size_t size);
void fake_phys_reset(void);

/* Every printk and console_printf is formatted with fold's own vsnprintf
 * (so the escaped input in the messages is exercised too) and dropped,
 * unless FOLD_FUZZ_VERBOSE is set in the environment. */
extern u64 fuzz_printed_bytes;

/* A global the parser under test writes (cmdline, say): on the first
 * input, remember its value; on every input, put that value back, so no
 * input sees what the one before it left. */
#define FUZZ_RESTORE_EACH_INPUT(var)                                      \
	do {                                                              \
		static __typeof__(var) saved__;                           \
		static bool have__;                                       \
		if (!have__) {                                            \
			saved__ = (var);                                  \
			have__ = true;                                    \
		}                                                         \
		(var) = saved__;                                          \
	} while (0)

/* Abort with a message: a parser broke a promise the target checks. */
__noreturn void fuzz_fail(const char *fmt, ...) __printf(1, 2);
#define FUZZ_ASSERT(cond)                                                   \
	do {                                                                \
		if (!(cond))                                                \
			fuzz_fail("%s:%d: %s", __FILE__, __LINE__, #cond);   \
	} while (0)
#endif
