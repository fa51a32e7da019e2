# Fuzz targets on the host: `make fuzz` (long), `make fuzz-test` (bounded,
# part of make test), `make fuzz-build`.
#
# A Makefile fragment, included by the root Makefile after
# tests/host/host.mk, whose mechanism it reuses: the kernel's parser
# sources are compiled unchanged for the host with tests/host/rename.h
# force-included (HOST_CPPFLAGS), so lib/'s memcpy, strlen, snprintf...
# are fold_* symbols beside libc's. Every name here starts with FUZZ_.
#
# Each target is one tests/fuzz/fuzz_NAME.c with LLVMFuzzerTestOneInput,
# linked with the kernel files it parses with (FUZZ_SRCS_NAME), lib/ and
# tests/fuzz/shim.c (printk, the console, a fake physical memory), built
# by clang with libFuzzer, AddressSanitizer and UBSan. Seeds are in
# tests/fuzz/corpus/NAME/; what a run finds goes to
# $(BUILD)/fuzz/corpus/NAME/, never into the tree. The KTAP parser of the
# Python harness has its own stdlib mutation fuzzer, tests/fuzz/fuzz_ktap.py.
#
#   make fuzz                 each target for FUZZ_LONG executions (1,000,000),
#                             one at a time, nice'd
#   make fuzz FUZZ_TIME=600 FUZZ_TARGETS=acpi   for 600 s each instead
#   make fuzz-test            each for FUZZ_RUNS executions from the seeds
#                             alone, seed FUZZ_SEED: the same run every time
#                             (part of make test)
#
# A crash leaves its input as $(BUILD)/fuzz/crash-NAME-*; rerun it with
# $(BUILD)/fuzz/fuzz_NAME FILE, fix the parser, and keep the input as a
# regression seed in tests/fuzz/corpus/NAME/.
#
#   make fuzz-inject          the kernel's own fuzzers under fault injection
#                             (tests/fault/fault_fuzz.h): one boot under
#                             -icount running the shell's `fail fuzz sys` and
#                             `fail fuzz ipc`, each allocator of the set at 1%
#                             and 10% with a leak check after each run, at
#                             FAULT_FUZZ_SYS_CALLS and FAULT_FUZZ_IPC_CALLS
#                             system calls a run; make fuzz ends with it
#                             (FUZZ_INJECT=0: not). make test's rows
#                             fault-inject* run the same at 50,000 and 10,000.

FUZZ_SAVED_GOAL := $(.DEFAULT_GOAL)

FUZZ_CC      ?= clang
FUZZ_LONG    ?= 1000000
FUZZ_TIME    ?=
FUZZ_RUNS    ?= 20000
FUZZ_SEED    ?= 1
FUZZ_BUILD   ?= $(or $(BUILD),build)/fuzz
FUZZ_TARGETS ?= cmdline shell multiboot acpi elf ktap
FUZZ_INJECT  ?= 1
FAULT_FUZZ_SYS_CALLS ?= 1000000
FAULT_FUZZ_IPC_CALLS ?= 200000
FAULT_FUZZ_SEED      ?= $(FUZZ_SEED)
FAULT_FUZZ_TIMEOUT   ?= 3600
FUZZ_SAN     := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# HOST_CFLAGS is gnu11 -Wall -Wextra -Werror -fno-builtin ... as for host-test.
FUZZ_CFLAGS  := $(HOST_CFLAGS) -DPREEMPT_MODE_DEFAULT=PREEMPT_MODE_FULL \
	-DPREEMPT_MODEL_H='"arch/x86_64/preempt/folded.h"'

# The kernel files each target parses with (lib/ and the shim come with all).
FUZZ_SRCS_cmdline   := kernel/cmdline.c
FUZZ_SRCS_shell     := shell/shell.c kernel/cmdline.c bench/bench_common.c
FUZZ_SRCS_multiboot := boot/multiboot.c kernel/cmdline.c
FUZZ_SRCS_acpi      := arch/x86_64/kernel/acpi/acpi.c arch/x86_64/kernel/acpi/acpi_aml.c boot/multiboot.c
FUZZ_SRCS_elf       := lib/elf.c

FUZZ_C_TARGETS := $(filter-out ktap,$(FUZZ_TARGETS))
FUZZ_BINS := $(FUZZ_C_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_COMMON := $(HOST_LIB_SRCS) tests/fuzz/shim.c
FUZZ_RUN := sh tests/fuzz/run-fuzz $(FUZZ_BUILD)

.PHONY: fuzz fuzz-test fuzz-build fuzz-clean fuzz-inject

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	$(Q)$(FUZZ_RUN) $(if $(FUZZ_TIME),time $(FUZZ_TIME),runs $(FUZZ_LONG)) \
		$(FUZZ_SEED) $(FUZZ_TARGETS)
	$(if $(filter 1,$(FUZZ_INJECT)),$(Q)$(MAKE) --no-print-directory fuzz-inject)

# One row of tests/run's table, written here (tests/configs explains the
# keys): both matrices' summary lines, none FAILED, no leak, no panic.
FAULT_FUZZ_CMDS := fail fuzz sys calls=$(FAULT_FUZZ_SYS_CALLS) seed=$(FAULT_FUZZ_SEED);$\
	fail fuzz ipc calls=$(FAULT_FUZZ_IPC_CALLS) seed=$(FAULT_FUZZ_SEED);fail
fuzz-inject:
	@mkdir -p $(FUZZ_BUILD)
	$(Q)printf '%s\n' 'name=fuzz-inject smp=2 icount=1 ktap=no timeout=$(FAULT_FUZZ_TIMEOUT) cmdline="clock=icount bench=off serial_drv=off autorun=\"$(FAULT_FUZZ_CMDS)\"" grep="fault fuzz: sysfuzz matrix: |fault fuzz: ipcfuzz matrix: " nogrep="FAILED|LEAK|PANIC|Oops|BUG"' \
		> $(FUZZ_BUILD)/fuzz-inject.configs
	$(Q)nice -n 10 python3 tests/run --config $(FUZZ_BUILD)/fuzz-inject.configs

fuzz-test: $(FUZZ_BINS)
	$(Q)$(FUZZ_RUN) test $(FUZZ_RUNS) $(FUZZ_SEED) $(FUZZ_TARGETS)

# One compile per target: every source gets the fuzzer's coverage
# instrumentation and the sanitizers. The preprocessor flags are
# HOST_CPPFLAGS' (-I. and rename.h) without its -MMD, which would write
# one .d per source over the same name: any kernel header may matter.
FUZZ_HEADERS := $(wildcard lib/*.h kernel/*.h bench/*.h arch/x86_64/*.h \
	arch/x86_64/preempt/*.h sched/*.h uapi/*.h tests/fuzz/*.h tests/host/rename.h)
define FUZZ_RULE
$(FUZZ_BUILD)/fuzz_$(1): tests/fuzz/fuzz_$(1).c $(FUZZ_SRCS_$(1)) $(FUZZ_COMMON) $(FUZZ_HEADERS)
	@mkdir -p $$(@D)
	$$(Q)$(FUZZ_CC) -I. -include tests/host/rename.h $(FUZZ_CFLAGS) $(FUZZ_SAN) \
		$$(filter %.c,$$^) -o $$@
endef
$(foreach t,$(FUZZ_C_TARGETS),$(eval $(call FUZZ_RULE,$(t))))

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

# Put back the includer's default goal (empty means "the next rule").
.DEFAULT_GOAL := $(FUZZ_SAVED_GOAL)
