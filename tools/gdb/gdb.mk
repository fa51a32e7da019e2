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

GDB       ?= gdb
# One port per user, so two users on one machine do not collide.
GDB_PORT  ?= $(shell echo $$((20000 + $$(id -u) % 40000)))
# Where GDB stops first: the C entry. _start stops in the 32-bit boot stub.
GDB_BREAK ?= kmain
GDB_INIT  := $(BUILD)/gdbinit
GDB_LAUNCH = python3 tools/gdb/launch.py --elf $(ELF) --init $(GDB_INIT) \
	--port $(GDB_PORT) --break '$(GDB_BREAK)' --gdb '$(GDB)' $(QEMU_MACHINE) --iso $(ISO)

.PHONY: gdb qemu-gdb test-gdb
gdb: all
	$(Q)$(GDB_LAUNCH) $(if $(GDB_SERIAL),--serial '$(GDB_SERIAL)') gdb

qemu-gdb: all
	$(Q)$(GDB_LAUNCH) $(if $(GDB_SERIAL),--serial '$(GDB_SERIAL)') qemu

test-gdb: tools
	$(Q)python3 tests/gdb/run-gdb-test
	$(Q)python3 tests/gdb/run-gdb-test --self-test --live --no-build --transcript build/test/gdb.transcript
