# The long torture: `make torture` (opt-in: not part of make test).
#
# A Makefile fragment, included by the root Makefile; the work is done by
# tests/torture/run-torture (see its --help): every count model x every
# mode it can run, -smp TORTURE_SMP, each booted with
# `torture duration=TORTURE_DURATION seed=TORTURE_SEED`, under -icount
# unless ICOUNT=0 is given; fails unless every run passed its checks and
# all made TORTURE_MIN_WAKEUPS cross-CPU wake-ups together.
#
#   make torture
#   make torture TORTURE_MODELS=folded TORTURE_MODES=full TORTURE_DURATION=2000
#   make torture TORTURE_SEED=1234        seeds 1234, 1235, ...: one per run, printed

TORTURE_MODELS      ?= folded percpu ti off racy
TORTURE_MODES       ?= none voluntary full lazy
TORTURE_SMP         ?= 4
TORTURE_DURATION    ?= 3000
TORTURE_SEED        ?=
TORTURE_MIN_WAKEUPS ?= 10000000
TORTURE_TIMEOUT     ?= 900
TORTURE_OUT         ?= $(or $(BUILD),build)/torture
# icount unless ICOUNT was given (command line or environment).
TORTURE_ICOUNT := $(if $(filter file undefined,$(origin ICOUNT)),1,$(ICOUNT))

.PHONY: torture torture-selftest

torture: tools
	$(Q)python3 tests/torture/run-torture --models "$(TORTURE_MODELS)" \
		--modes "$(TORTURE_MODES)" --smp "$(TORTURE_SMP)" \
		--duration $(TORTURE_DURATION) $(if $(TORTURE_SEED),--seed $(TORTURE_SEED)) \
		--min-wakeups $(TORTURE_MIN_WAKEUPS) --icount $(TORTURE_ICOUNT) \
		--timeout $(TORTURE_TIMEOUT) --out "$(TORTURE_OUT)"

torture-selftest:
	$(Q)python3 tests/torture/run-torture --self-test
