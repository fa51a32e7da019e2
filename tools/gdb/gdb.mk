# Debugging fold in GDB: the Makefile includes this fragment
# (-include tools/gdb/gdb.mk) after its own variables, so $(ELF), $(BUILD),
# $(ISO) and $(QEMU_MACHINE) (the machine, for tools/lib/qemu.py's QEMU
# command line) are defined. docs/07-debugging.md ("Debugging with GDB") walks through a session.
#
#   make gdb        QEMU halted (-S) with its gdbstub, and GDB attached with
#                   $(BUILD)/gdbinit: symbols, fold helpers, a hardware
#                   breakpoint at $(GDB_BREAK), continue. Serial console in
#                   $(BUILD)/gdb-serial.log. Quitting GDB stops QEMU.
#   make qemu-gdb   only QEMU (serial console on this terminal); prints the
#                   command that attaches GDB from another terminal.
#   make test-gdb   the batch test: tests/gdb/run-gdb-test, then its checker's
#                   self-test on the transcript it just made.
#   make replay-record  record a run with QEMU's record/replay (one CPU,
#                   -icount; CMDLINE, default test=preempt) into $(REPLAY_DIR)
#   make replay     replay that recording under GDB, halted at $(GDB_BREAK):
#                   reverse-stepi, reverse-continue, watchpoints
#                   (tools/gdb/replay.py; docs/07-debugging.md, "Reverse
#                   debugging")
#   make test-replay  record test=preempt, replay it under GDB and walk
#                   back from preempt_schedule() to the andl that cleared
#                   bit 31 (tests/gdb/run-replay-test), then its self-test

GDB       ?= gdb
# One port per user, so two users on one machine do not collide.
GDB_PORT  ?= $(shell echo $$((20000 + $$(id -u) % 40000)))
# Where GDB stops first: the C entry. _start stops in the 32-bit boot stub.
GDB_BREAK ?= kmain
GDB_INIT  := $(BUILD)/gdbinit
GDB_LAUNCH = python3 tools/gdb/launch.py --elf $(ELF) --init $(GDB_INIT) \
	--port $(GDB_PORT) --break '$(GDB_BREAK)' --gdb '$(GDB)' $(QEMU_MACHINE) --iso $(ISO)

# Record/replay: QEMU 7.2 records one CPU, so SMP is 1 unless given (and
# then refused below, before anything is built, if it is not 1). The ISO is built
# into the recording's directory; clock=icount is added to the command line
# (-icount's clock, as make run ICOUNT=1 does).
REPLAY_DIR ?= $(BUILD)/replay
REPLAY_CMDLINE = $(or $(value CMDLINE),test=preempt) clock=icount
REPLAY_SMP := $(if $(filter command line environment,$(origin SMP)),$(SMP),1)
REPLAY_TOOL = python3 tools/gdb/replay.py
ifneq ($(filter replay-record,$(MAKECMDGOALS)),)
ifneq ($(REPLAY_SMP)-$(ACCEL)-$(UEFI),1-tcg-0)
$(error replay-record: QEMU 7.2 records one CPU under TCG with the BIOS: \
	leave SMP, ACCEL and UEFI unset (SMP=1 ACCEL=tcg UEFI=0), not SMP=$(REPLAY_SMP) ACCEL=$(ACCEL) UEFI=$(UEFI))
endif
endif

.PHONY: gdb qemu-gdb test-gdb replay-record replay replay-qemu test-replay
gdb: all
	$(Q)$(GDB_LAUNCH) $(if $(GDB_SERIAL),--serial '$(GDB_SERIAL)') gdb

qemu-gdb: all
	$(Q)$(GDB_LAUNCH) $(if $(GDB_SERIAL),--serial '$(GDB_SERIAL)') qemu

test-gdb: tools
	$(Q)python3 tests/gdb/run-gdb-test
	$(Q)python3 tests/gdb/run-gdb-test --self-test --live --no-build --transcript build/test/gdb.transcript

# (The command on one line: tests/check-make runs it from make -n.)
REPLAY_RECORD_ARGS = --dir $(REPLAY_DIR) --elf $(ELF) $(QEMU_MACHINE) --smp $(REPLAY_SMP) \
	--iso $(REPLAY_DIR)/fold.iso
replay-record: $(ELF) $(USER_ELFS) $(BUILD)/fold.sym
	$(Q)$(MAKE) -s --no-print-directory ISO=$(REPLAY_DIR)/fold.iso \
		CMDLINE=$(call sq,$(REPLAY_CMDLINE)) $(REPLAY_DIR)/fold.iso
	$(Q)$(REPLAY_TOOL) record $(REPLAY_RECORD_ARGS)

# No build: the recording carries its own kernel and ISO.
REPLAY_ARGS = --dir $(REPLAY_DIR) --init $(REPLAY_DIR)/gdbinit --port $(GDB_PORT) \
	--break '$(GDB_BREAK)' --gdb '$(GDB)' $(if $(QEMU),--qemu $(call sq,$(QEMU)))
replay:
	$(Q)$(REPLAY_TOOL) gdb $(REPLAY_ARGS)
replay-qemu:
	$(Q)$(REPLAY_TOOL) qemu $(REPLAY_ARGS)

test-replay: tools
	$(Q)python3 tests/gdb/run-replay-test
	$(Q)python3 tests/gdb/run-replay-test --self-test --transcript build/test/replay.transcript
