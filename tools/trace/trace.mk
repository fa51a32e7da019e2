# The scheduler trace's round trip: `make trace`, and its check.
#
# A Makefile fragment, included by the root Makefile (which gives BUILD,
# ELF, USER_ELFS, QEMU_RUN, QEMU_MACHINE, sq and Q). Every name defined
# here starts with TRACE_.
#
#   make trace                  boot (-smp $(SMP), always under -icount) with
#                               mktracedat --print-cmdline's command line:
#                               trace a short throughput benchmark, dump it; then
#                               build/trace.log -> build/trace.dat
#                               (tools/trace/mktracedat) -> `trace-cmd report`
#                               (all of it in build/trace.report)
#   make trace CMDLINE='autorun="trace on;run hello;trace off;trace dump;poweroff"'
#                               the same with another workload (clock=icount
#                               and shell=off are added)
#   make trace-check            two boots, the same events, the report's
#                               sched_switch/sched_wakeup lines (in make test)

TRACE_ISO := $(BUILD)/trace.iso
TRACE_CMDLINE = $(if $(value CMDLINE),$(value CMDLINE) clock=icount shell=off,$(shell python3 tools/trace/mktracedat --print-cmdline))

.PHONY: trace trace-check
trace: $(ELF) $(USER_ELFS)
	$(Q)$(MAKE) -s --no-print-directory ISO=$(TRACE_ISO) CMDLINE=$(call sq,$(TRACE_CMDLINE)) $(TRACE_ISO)
	$(Q)$(QEMU_RUN) $(subst --icount $(ICOUNT),--icount 1,$(QEMU_MACHINE)) --iso $(TRACE_ISO) \
		--serial file:$(BUILD)/trace.log
	$(Q)python3 tools/trace/mktracedat --offsets $(BUILD)/fold_offsets.py -o $(BUILD)/trace.dat \
		$(BUILD)/trace.log
	$(Q)trace-cmd report $(BUILD)/trace.dat > $(BUILD)/trace.report
	$(Q)grep -E ' sched_(switch|wakeup): ' $(BUILD)/trace.report | head -n 12
	$(Q)echo "trace-cmd report $(BUILD)/trace.dat: $$(wc -l < $(BUILD)/trace.report) lines, in $(BUILD)/trace.report"

trace-check: all
	$(Q)python3 tools/trace/mktracedat --offsets $(BUILD)/fold_offsets.py --self-test
	$(Q)python3 tests/tools/check-trace --build $(BUILD)
