# The interleaving explorer (tests/explore/): `make explore` (in make
# test), `make explore-quick` (in make check), `make explore-build`.
#
# A Makefile fragment, included by the root Makefile after
# tests/host/host.mk, whose host compiler, flags and sanitizers it uses
# (HOSTCC, HOST_CFLAGS, HOST_SANITIZE). Every name here starts with
# EXPLORE_.
#
# The program compiles fold's own kernel/locking/rtmutex.c and
# spinlock_rt.c, and ipc/endpoint.c and object.c, as they are in the
# tree, with tests/explore/shim/ first
# on the quote include path (-iquote), so that the raw spinlock, the
# scheduler, printk and BUG they include are the explorer's; and with
# shim/explore_shim.h force-included, whose macros make the owner
# word's atomics and WRITE_ONCE() of a thread's state scheduling
# points. explore-doctored is the same program linked with doctored
# copy of endpoint.c made from the real file at build time
# (tests/explore/doctor.py): the self-test's mutant of the shim.
#
# tests/explore/run-explore runs it: Part A (the rt_mutex and IPC scenarios),
# Part B (the count models' instructions, read from each model's built
# fold.elf, as tests/check-disasm builds them), and --self-test.

EXPLORE_BUILD ?= $(or $(BUILD),build)/explore
EXPLORE_CPPFLAGS = -iquote tests/explore/shim -I. -DPREEMPT_RT=1 \
	-include tests/explore/shim/host.h -MMD -MP
EXPLORE_KERNEL_SRCS := kernel/locking/rtmutex.c kernel/locking/spinlock_rt.c \
	ipc/endpoint.c ipc/object.c
EXPLORE_SRCS := tests/explore/engine.c tests/explore/shim.c tests/explore/report.c \
	tests/explore/rtmutex_scenarios.c tests/explore/fold_model.c \
	tests/explore/ipc_scenarios.c tests/explore/ipc_shim.c \
	tests/explore/fold_insn.c tests/explore/fx_load.c tests/explore/tso.c tests/explore/litmus.c tests/explore/main.c
EXPLORE_OBJS := $(EXPLORE_SRCS:%.c=$(EXPLORE_BUILD)/%.o)
EXPLORE_KOBJS := $(EXPLORE_KERNEL_SRCS:%.c=$(EXPLORE_BUILD)/%.o)
EXPLORE_DOCTORED := $(EXPLORE_BUILD)/doctored/endpoint.c
# irq_thread.c's lock and its thread's loop are static there; the
# explorer's copy of the object (explore-sched's) makes them global, so
# that the explorer resets the lock before each run and runs the loop.
EXPLORE_GLOBALIZE = $(if $(filter %/irq_thread.o,$@),objcopy --globalize-symbol=irq_request_mutex \
	--globalize-symbol=irq_thread_fn $@)
EXPLORE_BINS := $(EXPLORE_BUILD)/explore $(EXPLORE_BUILD)/explore-doctored \
	$(EXPLORE_BUILD)/explore-sched

# explore-sched: the real scheduler. sched/ and raw_spinlock.c (and
# rtmutex.c, spinlock_rt.c, irq_thread.c, lib/parse.c over them)
# compiled as they are,
# with tests/explore/hw/ first on the quote path instead of shim/: the
# hardware only (per-CPU area, IF, the count's instructions, the IPI,
# switch_to), implemented by tests/explore/hw.c.
EXPLORE_HW_BUILD = $(EXPLORE_BUILD)/hw
EXPLORE_HW_CPPFLAGS = -iquote tests/explore/hw -I. -DPREEMPT_RT=1 \
	-DPREEMPT_MODEL_H='"arch/x86_64/preempt/folded.h"' \
	-DPREEMPT_MODE_DEFAULT=PREEMPT_MODE_FULL -DEXPLORE_HW \
	-include tests/explore/shim/host.h -MMD -MP
EXPLORE_HW_KERNEL_SRCS := sched/core.c sched/wake.c sched/wait.c sched/handoff.c \
	sched/rt.c sched/idle.c sched/preempt_mode.c kernel/locking/raw_spinlock.c \
	kernel/locking/rtmutex.c kernel/locking/spinlock_rt.c kernel/irq/irq_thread.c \
	lib/parse.c
EXPLORE_HW_SRCS := tests/explore/engine.c tests/explore/hw.c tests/explore/report.c \
	tests/explore/sched_scenarios.c tests/explore/sched_checks.c tests/explore/main.c
EXPLORE_HW_OBJS := $(EXPLORE_HW_SRCS:%.c=$(EXPLORE_HW_BUILD)/%.o)
EXPLORE_HW_KOBJS := $(EXPLORE_HW_KERNEL_SRCS:%.c=$(EXPLORE_HW_BUILD)/%.o)

$(EXPLORE_HW_OBJS): $(EXPLORE_HW_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(EXPLORE_HW_CPPFLAGS) $(HOST_CFLAGS) $(HOST_SANITIZE) -c $< -o $@

$(EXPLORE_HW_KOBJS): $(EXPLORE_HW_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(EXPLORE_HW_CPPFLAGS) -include tests/explore/shim/explore_shim.h \
		$(HOST_CFLAGS) $(HOST_SANITIZE) -c $< -o $@
	$(Q)$(EXPLORE_GLOBALIZE)

$(EXPLORE_BUILD)/explore-sched: $(EXPLORE_HW_OBJS) $(EXPLORE_HW_KOBJS)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SANITIZE) $^ -o $@

.PHONY: explore explore-quick explore-build

explore: $(EXPLORE_BINS)
	$(Q)python3 tests/explore/run-explore --build $(EXPLORE_BUILD) --self-test
	$(Q)python3 tests/explore/run-explore --build $(EXPLORE_BUILD)

explore-quick: $(EXPLORE_BINS)
	$(Q)python3 tests/explore/run-explore --build $(EXPLORE_BUILD) --quick

explore-build: $(EXPLORE_BINS)

$(EXPLORE_OBJS): $(EXPLORE_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(EXPLORE_CPPFLAGS) $(HOST_CFLAGS) $(HOST_SANITIZE) -c $< -o $@

$(EXPLORE_KOBJS): $(EXPLORE_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(EXPLORE_CPPFLAGS) -include tests/explore/shim/explore_shim.h \
		$(HOST_CFLAGS) $(HOST_SANITIZE) -c $< -o $@
	$(Q)$(EXPLORE_GLOBALIZE)

$(EXPLORE_BUILD)/doctored/%.o: $(EXPLORE_BUILD)/doctored/%.c
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(EXPLORE_CPPFLAGS) -include tests/explore/shim/explore_shim.h \
		$(HOST_CFLAGS) $(HOST_SANITIZE) -c $< -o $@
	$(Q)$(EXPLORE_GLOBALIZE)

EXPLORE_DOCTOR = tests/explore/doctor.py tests/explore/mutants
$(EXPLORE_BUILD)/doctored/endpoint.c: ipc/endpoint.c $(EXPLORE_DOCTOR)
	@mkdir -p $(@D)
	$(Q)python3 tests/explore/doctor.py ipc-reply-kill $@

# explore-sched's mutants (tests/explore/mutants, BINARY explore-sched):
# one binary each, mutants/NAME/explore-sched, the real objects but the
# doctored file's.
EXPLORE_MUTANTS := $(shell sed -n 's/^\([a-z-]*\) \([^ ]*\) explore-sched .*/\1:\2/p' \
	tests/explore/mutants)
define EXPLORE_MUTANT
$(EXPLORE_BUILD)/mutants/$(1)/$(notdir $(2)): $(2) $(EXPLORE_DOCTOR)
	@mkdir -p $$(@D)
	$(Q)python3 tests/explore/doctor.py $(1) $$@
$(EXPLORE_BUILD)/mutants/$(1)/$(notdir $(2:.c=.o)): $(EXPLORE_BUILD)/mutants/$(1)/$(notdir $(2))
	$(Q)$(HOSTCC) $(EXPLORE_HW_CPPFLAGS) -include tests/explore/shim/explore_shim.h \
		$(HOST_CFLAGS) $(HOST_SANITIZE) -c $$< -o $$@
	$(Q)$$(EXPLORE_GLOBALIZE)
$(EXPLORE_BUILD)/mutants/$(1)/explore-sched: $(EXPLORE_HW_OBJS) \
		$(filter-out $(EXPLORE_HW_BUILD)/$(2:.c=.o),$(EXPLORE_HW_KOBJS)) \
		$(EXPLORE_BUILD)/mutants/$(1)/$(notdir $(2:.c=.o))
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SANITIZE) $$^ -o $$@
EXPLORE_MUTANT_BINS += $(EXPLORE_BUILD)/mutants/$(1)/explore-sched
endef
$(foreach m,$(EXPLORE_MUTANTS),$(eval $(call EXPLORE_MUTANT,$(word 1,$(subst :, ,$(m))),$(word 2,$(subst :, ,$(m))))))
explore explore-build: $(EXPLORE_MUTANT_BINS)

$(EXPLORE_BUILD)/explore: $(EXPLORE_OBJS) $(EXPLORE_KOBJS)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SANITIZE) $^ -o $@

$(EXPLORE_BUILD)/explore-doctored: $(EXPLORE_OBJS) $(EXPLORE_DOCTORED:.c=.o) \
		$(EXPLORE_BUILD)/kernel/locking/rtmutex.o \
		$(EXPLORE_BUILD)/kernel/locking/spinlock_rt.o $(EXPLORE_BUILD)/ipc/object.o
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SANITIZE) $^ -o $@

-include $(EXPLORE_OBJS:.o=.d) $(EXPLORE_KOBJS:.o=.d) $(EXPLORE_DOCTORED:.c=.d) \
	$(EXPLORE_HW_OBJS:.o=.d) $(EXPLORE_HW_KOBJS:.o=.d)
