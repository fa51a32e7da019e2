# fold: build, run, test, debug. `make help` lists every target and variable.

# No built-in implicit rules: they would try to "make" the .d files.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

# ---- variables a user may set ------------------------------------------
CROSS_COMPILE ?=
COUNT    ?= folded
PREEMPT  ?= full
SMP      ?= 2
MEM      ?= 256M
ACCEL    ?= tcg
MACHINE  ?= pc
CMDLINE  ?=
DEBUG    ?= 0
ICOUNT   ?= 0
TCG_THREAD ?= auto
UEFI     ?= 0
MIGHT_FAULT ?= 1
LOCKDEP  ?= 0
RELEASE  ?= 0
PREEMPT_ENABLE_CALL ?= thunk
FRAME_POINTER ?= 1
MENU     ?= 0
MENU_TIMEOUT ?= 5
BUILD    ?= build
ISO      ?= $(BUILD)/fold.iso
V        ?= 0

CC      := $(CROSS_COMPILE)gcc
LD      := $(CROSS_COMPILE)ld
NM      := $(CROSS_COMPILE)nm
OBJDUMP := $(CROSS_COMPILE)objdump
NASM    ?= nasm
HOSTCC  ?= cc
# QEMU (the QEMU command, may carry arguments) has no default here: unset,
# tools/lib/qemu.py's is used, the one place that names the program.

ifeq ($(V),1)
Q :=
else
Q := @
endif

# ---- checking the switches ----------------------------------------------
COUNT_MODELS  := folded percpu ti off racy
# The modes: sched/preempt_mode.h's PREEMPT_MODES list, its X(ID, name, ...) lines.
PREEMPT_MODES := $(shell sed -n 's/^[[:space:]]*X.[A-Z_]*, *\([a-z_]*\),.*/\1/p' sched/preempt_mode.h)
ifeq ($(filter $(COUNT),$(COUNT_MODELS)),)
$(error COUNT=$(COUNT) is not a count model; choose one of: $(COUNT_MODELS))
endif
# PREEMPT=rt is PREEMPT_RT, a build choice as Linux's CONFIG_PREEMPT_RT:
# sleeping spinlock_t, on top of full preemption (preempt=lazy at boot
# picks the other mode RT allows; none and voluntary are refused).
ifeq ($(PREEMPT),rt)
PREEMPT_RT := 1
PREEMPT_MODE := full
else
PREEMPT_RT := 0
PREEMPT_MODE := $(PREEMPT)
endif
ifeq ($(filter $(PREEMPT_MODE),$(PREEMPT_MODES)),)
$(error PREEMPT=$(PREEMPT) is not a preemption mode; choose one of: $(PREEMPT_MODES) rt)
endif
ifneq ($(filter off-full off-lazy,$(COUNT)-$(PREEMPT_MODE)),)
$(error COUNT=off has no preempt count, so it cannot tell when $(PREEMPT_MODE) preemption is safe: use PREEMPT=none or PREEMPT=voluntary with COUNT=off, or another COUNT)
endif
ifeq ($(filter $(ACCEL),tcg kvm),)
$(error ACCEL=$(ACCEL): choose tcg or kvm)
endif
ifeq ($(filter $(DEBUG),0 1),)
$(error DEBUG=$(DEBUG): choose 0 or 1)
endif
ifeq ($(filter $(MENU),0 1),)
$(error MENU=$(MENU): choose 0 (boot at once) or 1 (a GRUB menu: one entry per preemption mode and per test suite))
endif
ifneq ($(shell echo '$(MENU_TIMEOUT)' | grep -Ex '[0-9]|[1-5][0-9]|60'),$(MENU_TIMEOUT))
$(error MENU_TIMEOUT=$(MENU_TIMEOUT): seconds from 0 to 60)
endif
ifeq ($(filter $(MIGHT_FAULT),0 1),)
$(error MIGHT_FAULT=$(MIGHT_FAULT): choose 1 (might_fault() in every user copy) or 0 (none))
endif
ifeq ($(filter $(LOCKDEP),0 1),)
$(error LOCKDEP=$(LOCKDEP): choose 0 (no lock validator) or 1 (lockdep-lite: lock order and IRQ state checked))
endif
ifeq ($(filter $(RELEASE),0 1),)
$(error RELEASE=$(RELEASE): choose 0 (the debug build: every debug check) or 1 (the release build: the checks that only catch bugs compiled out, kernel/debug/checks.h))
endif
ifeq ($(RELEASE)-$(LOCKDEP),1-1)
$(error LOCKDEP=1 is a debug option and RELEASE=1 compiles the debug checks out (the spinlock's owner lockdep reads among them): choose one)
endif
ifeq ($(filter $(PREEMPT_ENABLE_CALL),thunk c),)
$(error PREEMPT_ENABLE_CALL=$(PREEMPT_ENABLE_CALL): choose thunk (preempt_enable's slow path through the register-saving preempt_schedule_thunk) or c (a plain C call of preempt_schedule))
endif
ifeq ($(filter $(FRAME_POINTER),0 1),)
$(error FRAME_POINTER=$(FRAME_POINTER): choose 1 (-fno-omit-frame-pointer, for backtraces and GDB) or 0 (-fomit-frame-pointer, for make experiments' code-generation study))
endif
ifeq ($(filter $(ICOUNT),0 1),)
$(error ICOUNT=$(ICOUNT): choose 0 or 1)
endif
ifeq ($(filter $(TCG_THREAD),auto single multi),)
$(error TCG_THREAD=$(TCG_THREAD): choose auto (one host thread for all vCPUs when they would take every host core), single or multi (one host thread per vCPU))
endif
ifeq ($(filter $(UEFI),0 1),)
$(error UEFI=$(UEFI): choose 0 (BIOS) or 1 (UEFI: OVMF firmware, q35))
endif
ifneq ($(shell echo '$(SMP)' | grep -Ex '[1-9][0-9]?'),$(SMP))
$(error SMP=$(SMP): a CPU count from 1 to 64)
endif

# The count model is one file, arch/x86_64/preempt/$(COUNT).h, which
# kernel/preempt.h includes; nothing else in the build depends on COUNT.
model_defs = -DPREEMPT_MODEL_H='"arch/x86_64/preempt/$(1).h"'
MODEL_DEFS := $(call model_defs,$(COUNT))
MODE_DEFS := -DPREEMPT_MODE_DEFAULT=PREEMPT_MODE_$(shell echo $(PREEMPT_MODE) | tr a-z A-Z) \
	-DPREEMPT_MODE_DEFAULT_NAME='"$(PREEMPT_MODE)"' -DPREEMPT_RT=$(PREEMPT_RT)

# The kernel's command-line keys, for make help: kernel/cmdline.h's list.
CMDLINE_OPTIONS := $(strip $(shell sed -n '/^\#define CMDLINE_KEYS/,/[^\\]$$/{s/.*CMDLINE_KEYS//;s/[\\"]//g;p}' kernel/cmdline.h))

# ---- flags ----------------------------------------------------------------
# -mno-red-zone: interrupts arrive on the current stack and would overwrite
# the 128 bytes below %rsp. -mgeneral-regs-only: no SSE state to save.
# -fno-omit-frame-pointer: backtraces, GDB and fault injection's caller
# filter (kernel/debug/fault_inject.h) walk %rbp chains
# (FRAME_POINTER=0 leaves them out, so that a function has a frame only
# where the compiler needs one: tools/experiments/codegen.py, experiment E5).
# PREEMPT_ENABLE_CALL=c: preempt_enable() calls preempt_schedule() as plain
# C (arch/x86_64/preempt/thunk.h), what a kernel without the thunk writes.
OPT := $(if $(filter 1,$(DEBUG)),-Og,-O2)
# Every function with external linkage has its prototype in a header the
# defining file includes: -Wmissing-prototypes and -Wmissing-declarations
# fail a definition with none before it, -Wredundant-decls a second
# declaration. A prototype written in the .c file itself passes them:
# tests/check-protos catches that.
PROTO_WARNINGS := -Wmissing-prototypes -Wmissing-declarations -Wredundant-decls
# RELEASE=1: -DFOLD_RELEASE=1, from which kernel/debug/checks.h defines
# DEBUG_CHECKS, the one macro every debug-only check tests. -Wundef makes
# an #if on a macro no header defined an error, not a silent 0 (a file
# testing DEBUG_CHECKS without that header would be a release build).
RELEASE_DEFS := -DFOLD_RELEASE=$(RELEASE) -Wundef
FRAME_FLAGS := $(if $(filter 1,$(FRAME_POINTER)),-fno-omit-frame-pointer,-fomit-frame-pointer)
CALL_DEFS := -DPREEMPT_ENABLE_CALL_C=$(if $(filter c,$(PREEMPT_ENABLE_CALL)),1,0)
CFLAGS_COMMON := -std=gnu11 -ffreestanding -fno-builtin -nostdlib -fno-pic -fno-pie \
	-mcmodel=kernel -mno-red-zone -mgeneral-regs-only -fno-stack-protector \
	$(FRAME_FLAGS) -fno-strict-aliasing -fno-asynchronous-unwind-tables \
	$(OPT) -g -Wall -Wextra $(PROTO_WARNINGS) -Werror -I. $(MODE_DEFS) -DMIGHT_FAULT=$(MIGHT_FAULT) -DLOCKDEP=$(LOCKDEP) \
	$(CALL_DEFS) $(RELEASE_DEFS)
CFLAGS := $(CFLAGS_COMMON) $(MODEL_DEFS)
NASMFLAGS := -f elf64 -g -F dwarf -I$(BUILD)/ -Iarch/x86_64/
LDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -L $(BUILD) -T linker.ld

# ---- sources ----------------------------------------------------------------
# Every folder of kernel source, lowest layer first (tests/layers).
KERNEL_DIRS := lib boot arch/x86_64 $(sort $(dir $(wildcard arch/x86_64/*/*.[ch] arch/x86_64/*/*/*.[ch] arch/x86_64/*/*.asm))) \
	kernel $(sort $(dir $(wildcard kernel/*/*.[ch]))) mm sched process ipc drivers bench \
	tests/kernel tests/locking tests/fault tests/labs tests/torture tests/disasm shell init
C_SRCS := $(wildcard $(addsuffix /*.c,$(KERNEL_DIRS:/=)))
C_SRCS := $(filter-out arch/x86_64/kernel/asm-offsets.c bench/bench_pair.c,$(C_SRCS))
ASM_SRCS := $(wildcard $(addsuffix /*.asm,$(KERNEL_DIRS:/=)))
# The preempt benchmark's pair, once per count model (bench/bench_pair.c).
PAIR_OBJS := $(patsubst %,$(BUILD)/obj/bench_pair_%.o,folded percpu ti off)
OBJS := $(C_SRCS:%.c=$(BUILD)/obj/%.o) $(ASM_SRCS:%.asm=$(BUILD)/obj/%.o) $(PAIR_OBJS) \
	$(BUILD)/obj/fbcon_font.o
DEPS := $(C_SRCS:%.c=$(BUILD)/obj/%.d) $(PAIR_OBJS:.o=.d)
ELF := $(BUILD)/fold.elf
# The user programs (USER_ELFS): user/user.mk, whose rules come before
# all's, so the default goal is named.
.DEFAULT_GOAL := all
include user/user.mk

.PHONY: all iso run test check check-layers check-paths test-kvm host-test check-disasm deps help clean FORCE
all: $(ELF) $(USER_ELFS) $(ISO) $(BUILD)/fold.asm $(BUILD)/fold.sym $(BUILD)/compile_commands.json

# compile_commands.json for clangd and clang-tidy: every object's command,
# as the rules below run it (scripts/mkcompdb.py). clangd finds it in
# build/ by itself; `make compile_commands.json` copies it to the top for
# other tools and other BUILD= directories. shq: one shell word.
shq = '$(subst ','\'',$(1))'
$(BUILD)/compile_commands.json: $(BUILD)/config Makefile user/user.mk scripts/mkcompdb.py
	@mkdir -p $(dir $@)
	$(Q)python3 scripts/mkcompdb.py --out $@ \
		--group $(call shq,$(CC) $(CFLAGS) -MMD -MP) $(BUILD)/obj $(C_SRCS) \
		$(foreach m,folded percpu ti off,--group $(call shq,$(CC) $(CFLAGS_COMMON) \
			$(call model_defs,$(m)) -DPREEMPT_COUNT_FIELD=bench_count -DBENCH_VARIANT=$(m) \
			-MMD -MP) $(BUILD)/obj bench/bench_pair.c=bench_pair_$(m)) \
		--group $(call shq,$(CC) $(USER_CFLAGS) -MMD -MP) $(BUILD)/user/obj \
			$(USER_LIB_SRCS) $(USER_PROGS:%=user/%.c)
compile_commands.json: $(BUILD)/compile_commands.json
	$(Q)cp $< $@

# The switches this build was made with; a change rebuilds everything.
$(BUILD)/config: FORCE
	@mkdir -p $(BUILD)
	@echo "COUNT=$(COUNT) PREEMPT=$(PREEMPT) DEBUG=$(DEBUG) MIGHT_FAULT=$(MIGHT_FAULT) LOCKDEP=$(LOCKDEP) RELEASE=$(RELEASE) PREEMPT_ENABLE_CALL=$(PREEMPT_ENABLE_CALL) FRAME_POINTER=$(FRAME_POINTER) CC=$(CC)" > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@

# The structure offsets and constants of arch/x86_64/kernel/asm-offsets.c: for
# NASM (asm-offsets.inc), and for the GDB helpers and the host tools
# (fold_offsets.py, which also carries the kernel's limits and option names).
$(BUILD)/asm-offsets.inc: arch/x86_64/kernel/asm-offsets.c scripts/mkoffsets.sh $(BUILD)/config | tools
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -MF $(BUILD)/asm-offsets.d -MT $@ -S -o $(BUILD)/asm-offsets.s $<
	$(Q)sh scripts/mkoffsets.sh inc $(BUILD)/asm-offsets.s > $@
$(BUILD)/fold_offsets.py: $(BUILD)/asm-offsets.inc scripts/mkoffsets.sh
	$(Q)sh scripts/mkoffsets.sh py $(BUILD)/asm-offsets.s > $@

# The link map's constants (linker.ld INCLUDEs it), from the same source.
$(BUILD)/layout.ld: $(BUILD)/asm-offsets.inc
	$(Q)sed -n 's/^%define \(KERNEL_VMA\) \(.*\)/\1 = \2;/p' $< > $@

$(BUILD)/obj/%.o: %.c $(BUILD)/config | tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/bench_pair_%.o: bench/bench_pair.c $(BUILD)/config | tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< ($*)")
	$(Q)$(CC) $(CFLAGS_COMMON) $(call model_defs,$*) -DPREEMPT_COUNT_FIELD=bench_count \
		-DBENCH_VARIANT=$* -MMD -MP -c -o $@ $<

# The screen console's font (drivers/fbcon_font.h): a Linux console font
# from Debian's console-setup-linux, made into a C array at build time.
FONT ?= /usr/share/consolefonts/Lat15-VGA16.psf.gz
$(BUILD)/fbcon_font.c: scripts/mkfont.py $(BUILD)/config
	@mkdir -p $(dir $@)
	$(Q)python3 scripts/mkfont.py $(FONT) $@

$(BUILD)/obj/fbcon_font.o: $(BUILD)/fbcon_font.c drivers/fbcon_font.h | tools
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -I. -c -o $@ $<

# Every asm file depends on every shared .inc (NASM 2.16's -MD leaves out
# files found through -I, so the list is written here).
ASM_INCS := $(wildcard arch/x86_64/*.inc)
$(BUILD)/obj/%.o: %.asm $(BUILD)/asm-offsets.inc $(ASM_INCS) $(BUILD)/config | tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  NASM    $<")
	$(Q)$(NASM) $(NASMFLAGS) -o $@ $<

# Two links: the first with an empty symbol table, the second with the
# table made from the first. .ksyms is the last section, so filling it in
# moves nothing; the check below proves it.
$(BUILD)/ksyms0.o: scripts/mksyms.sh | tools
	@mkdir -p $(BUILD)
	$(Q)sh scripts/mksyms.sh $(NM) > $(BUILD)/ksyms0.c
	$(Q)$(CC) $(CFLAGS) -c -o $@ $(BUILD)/ksyms0.c

$(ELF): $(OBJS) $(BUILD)/ksyms0.o linker.ld $(BUILD)/layout.ld scripts/mksyms.sh \
		scripts/check-cmdline-keys.sh $(BUILD)/fold_offsets.py
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(LDFLAGS) -o $(BUILD)/fold.pass1.elf $(OBJS) $(BUILD)/ksyms0.o
	$(Q)sh scripts/mksyms.sh $(NM) $(BUILD)/fold.pass1.elf > $(BUILD)/ksyms.c
	$(Q)$(CC) $(CFLAGS) -c -o $(BUILD)/ksyms.o $(BUILD)/ksyms.c
	$(Q)$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms.o
	$(Q)$(NM) -n $(BUILD)/fold.pass1.elf | grep -i ' t ' > $(BUILD)/syms.1
	$(Q)$(NM) -n $@ | grep -i ' t ' > $(BUILD)/syms.2
	$(Q)cmp -s $(BUILD)/syms.1 $(BUILD)/syms.2 || \
		{ echo "error: the symbol table moved code between link passes"; exit 1; }
	$(Q)sh scripts/check-cmdline-keys.sh $(NM) $@ $(BUILD)/fold_offsets.py || { rm -f $@; exit 1; }

$(BUILD)/fold.asm: $(ELF)
	$(Q)$(OBJDUMP) -d -S -M intel --no-show-raw-insn $< > $@ 2>/dev/null
$(BUILD)/fold.sym: $(ELF)
	$(Q)$(NM) -n $< > $@

# The ISO: GRUB (multiboot2) with CMDLINE baked into grub.cfg and every
# user program as a boot module named after it. The file
# $(ISO).cmdline changes only when CMDLINE does, so a new CMDLINE remakes
# the ISO and an unchanged one does not. $(value CMDLINE): make does not
# expand a $ in it (CMDLINE='hz=$HOME' keeps its $HOME), so every
# character reaches scripts/mkiso.sh, and the kernel, as written.
$(ISO).cmdline: export FOLD_CMDLINE = $(value CMDLINE)
$(ISO).cmdline: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' "$$FOLD_CMDLINE" > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@

# MENU=1: after the build's own entry, GRUB offers one per preemption mode
# (preempt=MODE added to CMDLINE) and one per test suite (test=SUITE), for
# MENU_TIMEOUT seconds, on the serial line as well. $(ISO).menu records the
# choice, as $(ISO).cmdline does CMDLINE.
KTEST_SUITES := $(sort $(shell sed -n 's/^KTEST_SUITE.\([a-z0-9_]*\),.*/\1/p' tests/kernel/*.c tests/locking/*.c tests/fault/*.c))
MENU_WORDS := $(if $(filter 1,$(MENU)),$(PREEMPT_MODES:%=preempt=%) test=all $(KTEST_SUITES:%=test=%))
$(ISO).menu: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' "$(MENU_TIMEOUT) $(MENU_WORDS)" > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@

$(ISO): $(ELF) $(USER_ELFS) $(ISO).cmdline $(ISO).menu scripts/mkiso.sh | tools
	@$(if $(Q),echo "  ISO     $@")
	$(Q)FOLD_MENU_TIMEOUT=$(MENU_TIMEOUT) FOLD_MENU="$(MENU_WORDS)" \
		sh scripts/mkiso.sh $(ELF) $@ "$$(cat $(ISO).cmdline)" $(USER_ELFS)

iso: $(ISO)

# ---- running ----------------------------------------------------------------
# Every QEMU command line is built by tools/lib/qemu.py: make run's through
# tools/qemu-run, make gdb's through tools/gdb/launch.py, the test
# harnesses' in Python. The Makefile hands over the machine: QEMU_MACHINE.
# ($(call sq,TEXT) is TEXT single-quoted for the shell.)
sq = '$(subst ','\'',$(1))'
QEMU_RUN := python3 tools/qemu-run
QEMU_MACHINE := $(strip --machine $(call sq,$(MACHINE)) --mem $(call sq,$(MEM)) --smp $(SMP) \
	--accel $(ACCEL) --icount $(ICOUNT) --tcg-thread $(TCG_THREAD) --uefi $(UEFI) $(if $(QEMU),--qemu $(call sq,$(QEMU))))

# run: the banner, the default benchmark set (or CMDLINE's test=/autorun=),
# then a fold> prompt if stdin is a terminal, else power off. shell= and
# clock= are added here, so the ISO for run is its own ($(BUILD)/run-on.iso
# or run-off.iso), made by a sub-make. QEMU starts on a line of its own:
# `make -n run` prints that line and runs nothing (tests/check-make).
# qemu-run says what QEMU's exit code means: passed, tests failed, panic,
# a guest reset, or a signal.
RUN_SHELL := $(shell [ -t 0 ] && echo on || echo off)
RUN_ISO := $(BUILD)/run-$(RUN_SHELL).iso
RUN_CLOCK := $(if $(filter 1,$(ICOUNT)), clock=icount)
run: $(ELF) $(USER_ELFS)
	$(Q)$(MAKE) -s --no-print-directory ISO=$(RUN_ISO) \
		CMDLINE=$(call sq,$(value CMDLINE)$(RUN_CLOCK) shell=$(RUN_SHELL)) $(RUN_ISO)
	$(Q)$(QEMU_RUN) $(QEMU_MACHINE) $(if $(filter 1,$(DISPLAY_CONSOLE)),--window) --iso $(RUN_ISO)

# The screen console (drivers/fbcon.c): boot with -vga std under icount,
# screendump through QMP, and read the screen back against the font
# (tests/screen/check-screen; its self-test doctors the dump).
SCREEN_ISO := $(BUILD)/screen.iso
.PHONY: test-screen
test-screen: $(ELF) $(USER_ELFS) | tools
	$(Q)$(MAKE) -s --no-print-directory ISO=$(SCREEN_ISO) CMDLINE='autorun=cpus shell=on' $(SCREEN_ISO)
	$(Q)python3 tests/screen/check-screen $(SCREEN_ISO) $(FONT) $(BUILD)/screen

check-disasm:
	$(Q)python3 tests/check-disasm

# Every non-static function's prototype in a header: the compiler checks
# definitions (PROTO_WARNINGS); tests/check-protos finds the prototypes
# written in a .c file, which the warnings miss (gcc -aux-info over the
# build's own compile commands, every count model).
.PHONY: check-protos
check-protos:
	$(Q)python3 tests/check-protos

# Every experiment (E1-E10: the claims of 2013, 2024 and 2025, and what the
# debug checks cost and how IPC scales, with a figure each) and one page, $(EXPERIMENTS_OUT)/EXPERIMENTS.md (tools/experiments/).
# EXPERIMENTS_DOC=docs: also copy the page and its plots there.
EXPERIMENTS_OUT ?= $(BUILD)/experiments
EXPERIMENTS_DOC ?=
.PHONY: experiments
experiments: tools
	$(Q)python3 tools/experiments/run-experiments --out $(call sq,$(EXPERIMENTS_OUT)) \
		$(if $(EXPERIMENTS_DOC),--doc $(call sq,$(EXPERIMENTS_DOC)))

# KVM with -cpu host: every suite, x2APIC in use; on a PVM host, whose
# KVM cannot run the guest kernel at CPL 0, only the smp suite with nosmap
# (tests/run says so and skips the rest). Needs a working /dev/kvm.
test-kvm: tools
	$(Q)if [ ! -w /dev/kvm ]; then echo "test-kvm: /dev/kvm is missing or not writable: no KVM here"; exit 1; fi
	$(Q)python3 tests/run --group kvm -j 2

# Bochs 2.7 (no isa-debug-exit): boot to the end, power off through ACPI S5.
.PHONY: test-bochs
test-bochs: tools
	$(Q)python3 tests/bochs/run-bochs-test

# The layer check (tests/layers: includes point down, no crowded folder)
# and the path check (every repository path named in code or docs exists).
check-layers:
	$(Q)python3 tests/check-layers --self-test
	$(Q)python3 tests/check-layers
check-paths:
	$(Q)python3 tests/check-paths --self-test
	$(Q)python3 tests/check-paths

# The edit loop: the host unit tests, the two checks above, the docs' code
# excerpts and figures (tests/docs.mk), the quick interleaving explorer
# (tests/explore/explore.mk), and the rows
# of tests/configs tagged check (each count model once, every mode once,
# one user-space and one IPC row), two at a time.
CHECK_JOBS ?= 2
check: tools
	$(Q)$(MAKE) -s host-test
	$(Q)$(MAKE) -s --no-print-directory check-layers check-paths check-excerpts
	$(Q)$(MAKE) -s --no-print-directory explore-quick
	$(Q)python3 tests/run --group check -j $(CHECK_JOBS) $(TESTFLAGS)

# The harness runs last: its closing line is the run's "N passed, N failed".
# Before it, the checks in two lanes at once, one a core: test-builds
# compiles into build directories of its own (the fuzzers', check-make's,
# check-protos', the labs') beside test-boots, which boots build/ and
# build/cfg/ (the rows' builds) one step after another. test-boots prints
# as it goes; test-builds' output, kept in $(BUILD)/test-builds.log, comes
# after it. Two rows at a time: every row passes beside a busy host (its bounds are
# icount's or scale with what it measured), and a neighbour QEMU is one.
TEST_JOBS ?= 2
test: tools
	$(Q)$(MAKE) -s host-test
	$(Q)$(MAKE) -s --no-print-directory check-layers check-paths check-pictures
	$(Q)mkdir -p $(BUILD); \
	$(MAKE) -s --no-print-directory test-builds > $(BUILD)/test-builds.log 2>&1 & builds=$$!; \
	$(MAKE) -s --no-print-directory test-boots; boots=$$?; \
	wait $$builds; built=$$?; \
	echo "test-builds (beside the above):"; cat $(BUILD)/test-builds.log; \
	[ $$boots -eq 0 ] && [ $$built -eq 0 ]
	$(Q)python3 tests/run --self-test
	$(Q)python3 tests/run -j $(TEST_JOBS) $(TESTFLAGS)

.PHONY: test-builds test-boots
test-builds:
	$(Q)$(MAKE) -s --no-print-directory fuzz-test
	$(Q)sh tests/check-make
	$(Q)python3 tests/check-protos --self-test
	$(Q)python3 tests/check-protos
	$(Q)python3 tools/lab/lab-check --no-variants -j $(LAB_CHECK_JOBS)
	$(Q)$(MAKE) -s --no-print-directory lab-mutants-sample

test-boots:
	$(Q)$(MAKE) -s --no-print-directory $(BUILD)/compile_commands.json
	$(Q)python3 tests/check-compdb --self-test --build $(BUILD)
	$(Q)python3 tests/check-disasm
	$(Q)$(MAKE) -s --no-print-directory explore
	$(Q)$(MAKE) -s --no-print-directory test-gdb
	$(Q)$(MAKE) -s --no-print-directory test-replay
	$(Q)$(MAKE) -s --no-print-directory bench-selftest
	$(Q)python3 tools/bench/run-bench --repro-check
	$(Q)$(MAKE) -s --no-print-directory profile-test
	$(Q)python3 tests/torture/run-torture --self-test
	$(Q)$(MAKE) -s --no-print-directory trace-check
	$(Q)python3 tools/experiments/run-experiments --self-test
	$(Q)$(MAKE) -s --no-print-directory test-screen
	$(Q)$(MAKE) -s --no-print-directory check-docs

-include tests/host/host.mk
-include tests/explore/explore.mk
-include tests/fuzz/fuzz.mk
-include tools/gdb/gdb.mk
-include tools/bench/bench.mk
-include tools/profile/profile.mk
-include tests/torture/torture.mk
-include tools/trace/trace.mk
-include tests/docs.mk
-include tools/lab/lab.mk
-include docs/pictures/pictures.mk

# ---- tools ------------------------------------------------------------------
# Missing build tools: as root, install them with scripts/install-deps.sh;
# otherwise say which command to run.
QEMU_PROGRAM := $(firstword $(or $(QEMU),$(shell $(QEMU_RUN) --print-binary 2>/dev/null)))
NEEDED_TOOLS := $(CC) $(LD) $(NASM) grub-mkrescue xorriso mformat $(QEMU_PROGRAM) python3 $(FUZZ_CC)
MISSING := $(strip $(foreach t,$(NEEDED_TOOLS),$(if $(shell command -v $(t) 2>/dev/null),,$(t))))
.PHONY: tools
tools:
ifneq ($(MISSING),)
	@echo "fold: missing tools: $(MISSING)"
	@if [ "$$(id -u)" = 0 ]; then sh scripts/install-deps.sh; \
	else echo "fold: run: sudo scripts/install-deps.sh"; exit 1; fi
endif

deps:
	sh scripts/install-deps.sh

clean:
	rm -rf $(BUILD)

help:
	@echo "fold make targets:"
	@echo "  all (default)  build/fold.elf, build/fold.iso, build/fold.asm, build/fold.sym"
	@echo "  run            build and boot in QEMU (tools/qemu-run), serial console on stdio"
	@echo "                 (user programs print through the user-level driver serial_drv once it is up)"
	@echo "  check          the edit loop, a few minutes: host unit tests, the layer and path checks,"
	@echo "                 explore-quick, and the rows of tests/configs tagged check (CHECK_JOBS=$(CHECK_JOBS) at once)"
	@echo "  test           everything: host unit tests, every check, then every row of tests/configs"
	@echo "                 (TEST_JOBS=$(TEST_JOBS) rows at once)"
	@echo "  check-layers   includes point down the layers of tests/layers; no folder over 25 entries"
	@echo "  check-paths    every repository path named in code, comments and docs exists"
	@echo "  host-test      only the host unit tests of lib/"
	@echo "  fuzz           every fuzz target (tests/fuzz/) for $(FUZZ_LONG) executions, or FUZZ_TIME s each;"
	@echo "                 then fuzz-inject (FUZZ_INJECT=0: not)"
	@echo "  fuzz-test      each fuzz target for $(FUZZ_RUNS) executions, seed $(FUZZ_SEED) (part of make test)"
	@echo "  fuzz-inject    sysfuzz and ipcfuzz under fault injection, each allocator at 1% and 10%, a leak check"
	@echo "                 after each run: one boot, -icount, $(FAULT_FUZZ_SYS_CALLS) and $(FAULT_FUZZ_IPC_CALLS) calls a run (end of make fuzz)"
	@echo "  check-disasm   disassemble the probes of every count model and check them"
	@echo "  explore        every interleaving of the rt_mutex and IPC scenarios (the real rtmutex.c, endpoint.c),"
	@echo "                 of the scheduler's (the real sched/ over tests/explore/hw.c) and of each count"
	@echo "                 model's instructions, with its self-test (tests/explore/, in make test)"
	@echo "  explore-quick  the quick subset of it (in make check)"
	@echo "  compile_commands.json  every object's real compile command, for clangd/clang-tidy (make writes build/'s)"
	@echo "  check-protos   fail if a .c file declares a function (tests/check-protos; the build's"
	@echo "                 -Wmissing-prototypes -Wmissing-declarations -Wredundant-decls do the rest)"
	@echo "  test-kvm       boot under KVM (x2APIC): every suite, and the smp suite with nosmap on 2 and 4 CPUs;"
	@echo "                 on a PVM host only the latter, and why (not in make test; docs/09-booting.md, KVM)"
	@echo "  test-screen    the screen console: QMP screendump read back against the font (in make test)"
	@echo "  test-bochs     boot under Bochs 2.7 (no isa-debug-exit) to the ACPI power-off (not in make test)"
	@echo "  gdb            boot halted and attach GDB with fold's helpers (hbreak kmain)"
	@echo "  qemu-gdb       only QEMU with its gdbstub; prints the command that attaches"
	@echo "  test-gdb       the batch GDB session against QEMU -smp 2 (part of make test)"
	@echo "  replay-record  record a run with QEMU's record/replay into $(REPLAY_DIR) (one CPU, -icount;"
	@echo "                 CMDLINE, default test=preempt): docs/07-debugging.md, Reverse debugging"
	@echo "  replay         replay that recording under GDB, stopped at GDB_BREAK: reverse-stepi,"
	@echo "                 reverse-continue, watchpoints (no build: the recording keeps its kernel)"
	@echo "  replay-qemu    only the replaying QEMU; prints the command that attaches GDB"
	@echo "  test-replay    record test=preempt, replay it and walk back from preempt_schedule() to"
	@echo "                 the andl that cleared bit 31 (part of make test)"
	@echo "  bench          every COUNT x PREEMPT x SMP under -icount: build/bench/RESULTS.md"
	@echo "                 (preempt, latency and userlat per load, throughput, uaccess, syscall,"
	@echo "                 E8: hackbench, wakeup_hog, mode_cost; IPC: ipc, udriver;"
	@echo "                 E9: inversion and the lock load; modes none voluntary full lazy, and rt:"
	@echo "                 PREEMPT=rt, with COUNT=folded only)"
	@echo "  bench-repro    two -smp 1 icount runs of one build must give identical figures"
	@echo "  bench-selftest the bench harness on canned logs"
	@echo "  run-vs-icount  make run's report on the wall clock beside the same under icount, each"
	@echo "                 figure against the host effect docs/06-measuring.md allows (SMP, TCG_THREAD)"
	@echo "  profile        where a path's instructions go, per function and stage, and what each"
	@echo "                 function inlined (the debug information's inline chains; tools/profile/):"
	@echo "                 PROFILE=\"$(PROFILE)\" PROFILE_N= PROFILE_BUILD=\"PREEMPT=none ...\""
	@echo "                 build/profile/PATH.txt; the timer path's tables are a checked excerpt"
	@echo "                 of docs/06-measuring.md (make docs-update rewrites it)"
	@echo "  profile-test   its self-test, timer once, ctxsw twice: the same tables (part of make test)"
	@echo "  torture        every COUNT x allowed mode, -smp $(TORTURE_SMP), the torture for $(TORTURE_DURATION) ms each under"
	@echo "                 -icount; fails unless >= $(TORTURE_MIN_WAKEUPS) cross-CPU wake-ups, 0 lost, 0 leaks (not in make test)"
	@echo "  torture-selftest  run-torture's parser and judge on doctored logs (part of make test)"
	@echo "  trace          trace a short run under -icount (CMDLINE= another workload): build/trace.dat,"
	@echo "                 then trace-cmd report on it (tools/trace/mktracedat; docs/07-debugging.md, Tracing)"
	@echo "  trace-check    the trace round trip twice: converted, sched events on both CPUs (part of make test)"
	@echo "  experiments    every experiment E1-E10 (claim, command, figure, verdict): $(EXPERIMENTS_OUT)/EXPERIMENTS.md"
	@echo "                 (E5: six kernel builds read by objdump; the bench at -smp 1; bench race;"
	@echo "                 E10: debug and release at -smp 4; ~30 min)"
	@echo "  lab            LAB=L1..L7 [DEST=dir] [FORCE=1]: write a lab's student tree, its holes stubbed"
	@echo "                 (default build/lab/LAB, which make clean removes; docs/10-labs.md)"
	@echo "  grade          LAB=L1..L7 [DEST=dir] [SEED=s,s] [CASE=name]: build the student tree with the"
	@echo "                 reference's tests, run the lab's cases and report them, then every suite of the kernel"
	@echo "                 (a boot of its own beside them, kept for an unchanged tree: no boot again), under icount;"
	@echo "                 score them (exit 0 at full marks; build/lab/LAB.grade.json); in a student tree, make grade grades it;"
	@echo "                 GRADE_EXTRA=dir: a course's held-out cases too (docs/10-labs.md, Held-out cases);"
	@echo "                 also as Gradescope's results.json (LAB.gradescope.json; tools/lab/run_autograder)"
	@echo "  lab-check      every lab's skeleton fails its own cases and passes the others, the reference"
	@echo "                 scores full marks, tests/tools/lab/variants grade as they say"
	@echo "  lab-mutants    [LAB=Ln] [MUTANTS=id,id]: each lab's mutation score: mutants of the reference's"
	@echo "                 LAB regions graded as make grade grades a tree; prints each survivor's diff"
	@echo "                 (docs/10-labs.md, Mutation scores; tests/labs/equivalent-mutants)"
	@echo "  lab-mutants-sample  a fixed sample of those mutants end as tests/labs/mutant-sample says (~1 min)"
	@echo "  check-docs     run every output excerpt of README.md and docs/ (tests/check-docs, cram; in make test)"
	@echo "                 and compare every code excerpt with the source"
	@echo "  check-excerpts the docs' code excerpts against the source and their figures against"
	@echo "                 docs/EXPERIMENTS.md, with a self-test (no QEMU; in make check)"
	@echo "  pictures       render docs/pictures/*.dot to the SVGs the chapters show (Graphviz)"
	@echo "  check-pictures each committed SVG is its .dot's rendering, else name the stale one (in make test)"
	@echo "  docs-update    rewrite those excerpts from fresh output (cram -i -y), the code ones from the"
	@echo "                 source, the figures from docs/EXPERIMENTS.md; then review the diff"
	@echo "  iso            only the ISO (CMDLINE baked into grub.cfg, the user programs as modules)"
	@echo "  user           only the user programs: every user/*.c -> $(BUILD)/user/NAME.elf"
	@echo "  deps           install the Debian packages (scripts/install-deps.sh)"
	@echo "  clean          remove build/"
	@echo "  help           this text"
	@echo "user programs (boot modules /boot/user/NAME, user/user.mk; add one: drop in user/NAME.c):"
	@echo "  hello [ARGS]        its pid and each argv[i]"
	@echo "  true                exits 0 at once, silently (Unix's true: the fuzzers' spawn=true child)"
	@echo "  spin [N] [prio=P]   burns CPU in ring 3: forever, or N x 1,000,000 iterations; P: SCHED_FIFO"
	@echo "  flipper [MS] [prio=P]  SCHED_FIFO P (default 99) and back to SCHED_OTHER in a loop: forever, or MS ms"
	@echo "  fault KIND          null kernel-read kernel-write ud de gp bp stack badptr: killed by a signal"
	@echo "  cyclictest [loops=N] [interval=US] [prio=P] [nsecs=1]  clock_nanosleep wake-up latency, cyclictest 2.4's T: line"
	@echo "  sysfuzz [calls=N] [seed=S] [spawn=PROG]  random system calls with hostile arguments; a summary"
	@echo "                      (spawn=true: one call in 64 starts true and waits, for fault injection)"
	@echo "  ipcfuzz [ops=N] [seed=S] [spawn=PROG]  random IPC operations on handles 0-7 (the ipc suite runs four)"
	@echo "  sysret_hole         a syscall in the last two bytes below USER_TOP (CVE-2012-0217): SIGSEGV"
	@echo "  isolate [ROUNDS]    run two at once: each must keep seeing its own pid at one address"
	@echo "  uaccess             each bad pointer to each pointer-taking call must give -EFAULT"
	@echo "  getpid_bench [N]    N getpid calls timed: ns per system call"
	@echo "  serial_drv [prio=P] the console's user-level driver (COM1, IRQ 4); the kernel starts it"
	@echo "  udtest MODE         the udriver suite's user side: print N, fill N, wait N, out, giveup, nocap, errors"
	@echo "  spawnflood [exit|sleep] [max=N] [retry=N]  spawns until spawn fails, never waits: -EAGAIN at nproc="
	@echo "  (this tree builds: $(USER_PROGS))"
	@echo "variables (current value):"
	@echo "  COUNT=$(COUNT)      count model: folded percpu ti off, or racy (the article's first idea)"
	@echo "  PREEMPT=$(PREEMPT)      default preemption mode: $(PREEMPT_MODES) (boot: preempt=); rt: PREEMPT_RT, sleeping spinlock_t on full"
	@sed -n 's/^[[:space:]]*X.[A-Z_]*, *\([a-z_]*\), *"\(.*\)").*/                    \1: \2/p' sched/preempt_mode.h
	@echo "                    (Linux 7.0 on x86 keeps only full and lazy: docs/02-modes-and-patching.md)"
	@echo "  SMP=$(SMP)  MEM=$(MEM)  MACHINE=$(MACHINE)  ACCEL=$(ACCEL)   QEMU machine (tcg or kvm)"
	@echo "  ICOUNT=$(ICOUNT)        1: -icount shift=0,sleep=off (deterministic virtual clock)"
	@echo "  TCG_THREAD=$(TCG_THREAD)  TCG's host threads on the wall clock: auto (single if SMP >= host cores), single, multi"
	@echo "  DISPLAY_CONSOLE=1  make run opens a QEMU window (gtk, -vga std) with the screen console"
	@echo "  FONT=$(FONT)  the screen console's PSF font"
	@echo "  UEFI=$(UEFI)          1: boot the same ISO through UEFI firmware (Debian's OVMF, -machine q35)"
	@echo "  MENU=$(MENU) MENU_TIMEOUT=$(MENU_TIMEOUT)  1: a GRUB menu, one entry per mode and per test suite, MENU_TIMEOUT s to pick"
	@echo "  MIGHT_FAULT=$(MIGHT_FAULT)   0: user copies without might_fault() (boot: might_fault=off)"
	@echo "  PREEMPT_ENABLE_CALL=$(PREEMPT_ENABLE_CALL)  preempt_enable()'s slow path: thunk (register-saving, callers stay leaf) or c (a plain C call)"
	@echo "  FRAME_POINTER=$(FRAME_POINTER)  0: -fomit-frame-pointer (make experiments' E5 builds; no %rbp chains for backtraces"
	@echo "                   or fault injection's caller filter, so no fault injection)"
	@echo "  EXPERIMENTS_OUT=$(EXPERIMENTS_OUT) EXPERIMENTS_DOC=$(EXPERIMENTS_DOC)  make experiments: output directory; a second copy of the page (docs)"
	@echo "  LOCKDEP=$(LOCKDEP)       1: lockdep-lite, lock order (ABBA) and IRQ-state checks (kernel/locking/lockdep.h)"
	@echo "  RELEASE=$(RELEASE)       1: the release build, the checks that only catch bugs compiled out (kernel/debug/checks.h;"
	@echo "                   docs/06-measuring.md lists them); 0: the debug build, every check"
	@echo "  CMDLINE=\"$(CMDLINE)\"   kernel command line baked into the ISO; its options (docs/09-booting.md):"
	@echo "$(CMDLINE_OPTIONS)" | fold -s -w 84 | sed 's/^/                  /'
	@echo "  DEBUG=$(DEBUG)         1: build with -Og"
	@echo "  BUILD=$(BUILD) ISO=$(ISO)  output places"
	@echo "  CROSS_COMPILE=$(CROSS_COMPILE)  toolchain prefix, e.g. x86_64-elf-"
	@echo "  V=$(V)             1: show every command"
	@echo "  LAB=$(LAB) DEST=$(DEST) SEED=$(SEED) CASE=$(CASE) GRADE_JSON=$(GRADE_JSON)  make lab, make grade: the lab, its tree, seeds, one case, the JSON"
	@echo "  GRADE_EXTRA=$(GRADE_EXTRA)  make grade: a folder of held-out cases and their rubric lines"
	@echo "  GRADE_GRADESCOPE=$(GRADE_GRADESCOPE)  make grade: where Gradescope's results.json goes (default beside the JSON)"
	@echo "  LAB_CHECK_JOBS=$(LAB_CHECK_JOBS)  make lab-check's boots at once; LAB_HOST_TIMEOUT (env, s): make grade's wall-clock limit"
	@echo "  MUTANTS=$(MUTANTS) MUTANT_JOBS=$(MUTANT_JOBS)  make lab-mutants: only these mutant ids; mutants at once"
	@echo "  TESTFLAGS=        extra tests/run arguments in make test, e.g. --group smp"
	@echo "  FUZZ_TARGETS=\"$(FUZZ_TARGETS)\"  FUZZ_TIME=$(FUZZ_TIME) FUZZ_LONG=$(FUZZ_LONG)  make fuzz's targets, seconds or executions each"
	@echo "  FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SEED=$(FUZZ_SEED) FUZZ_CC=$(FUZZ_CC)  make fuzz-test's executions and seed; the compiler (clang, libFuzzer)"
	@echo "  FAULT_FUZZ_SYS_CALLS=$(FAULT_FUZZ_SYS_CALLS) FAULT_FUZZ_IPC_CALLS=$(FAULT_FUZZ_IPC_CALLS) FAULT_FUZZ_SEED=$(FAULT_FUZZ_SEED) FUZZ_INJECT=$(FUZZ_INJECT)  make fuzz-inject's calls a run, seed"
	@echo "  GDB_PORT GDB_BREAK GDB_SERIAL  make gdb: gdbstub port (20000 + uid), first breakpoint (kmain), serial log"
	@echo "  REPLAY_DIR=$(REPLAY_DIR)  make replay-record, make replay: the recording (record.bin, its kernel, consoles)"
	@echo "  TORTURE_MODELS TORTURE_MODES TORTURE_SMP TORTURE_DURATION TORTURE_SEED TORTURE_MIN_WAKEUPS TORTURE_TIMEOUT TORTURE_OUT  make torture's matrix"
	@echo "  BENCH_MODELS BENCH_MODES BENCH_SMP BENCH_LOADS BENCH_ARGS BENCH_JOBS BENCH_TIMEOUT BENCH_OUT  make bench's matrix"
	@echo "  QEMU=$(QEMU)  the QEMU command (unset: $(QEMU_PROGRAM), tools/lib/qemu.py's default)"
	@echo "  HOSTCC=$(HOSTCC) NASM=$(NASM)  the other tools"

-include $(DEPS) $(BUILD)/asm-offsets.d
