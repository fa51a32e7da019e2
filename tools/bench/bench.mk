# The benchmarks: `make bench`, `make bench-repro`, `make bench-selftest`.
#
# A Makefile fragment, included by the root Makefile; the work is done by
# tools/bench/run-bench (see its --help). Every name defined here starts
# with BENCH_ so that it cannot collide with the kernel build's variables.
#
#   make bench                      every COUNT model x PREEMPT mode, -smp 1
#                                   and 2, under -icount (1 ns = 1 instruction):
#                                   preempt, latency and userlat per load
#                                   (BENCH_LOADS), throughput, uaccess, syscall,
#                                   E8's hackbench, wakeup_hog, mode_cost, and
#                                   E9's inversion, the lock load and the
#                                   PREEMPT=rt build (mode rt, folded only)
#   make bench BENCH_MODELS=folded BENCH_MODES=full BENCH_SMP=1
#   make bench BENCH_ARGS="loops=500 ops=50000"
#   make bench ACCEL=tcg            wall clock under TCG (no -icount)
#   make bench ACCEL=kvm            wall clock under KVM
#   make bench RELEASE=1            the release build (kernel/debug/checks.h);
#                                   the output and RESULTS.md say which build
#   make bench-repro                folded/full -smp 1 twice: same figures?
#   make bench-selftest             run-bench's own tests, on canned logs
#   make run-vs-icount              make run's report, wall clock beside icount
#
# Output: $(BUILD)/bench/RESULTS.md, results.json, *.png and *.svg.

BENCH_SAVED_GOAL := $(.DEFAULT_GOAL)

BENCH_MODELS  ?= folded percpu ti off
BENCH_MODES   ?= none voluntary full lazy rt
BENCH_SMP     ?= 1 2
BENCH_LOADS   ?= none hog pingpong lock
BENCH_ARGS    ?=
BENCH_TIMEOUT ?= 300
BENCH_JOBS    ?=
BENCH_OUT     ?= $(or $(BUILD),build)/bench

# The kernel build's ICOUNT defaults to 0; the benchmarks default to
# icount. So: ICOUNT as given when it was given (command line or
# environment); otherwise icount, unless ACCEL was given, which asks for
# that accelerator's wall clock (`make bench ACCEL=tcg`, `ACCEL=kvm`).
ifeq ($(origin ICOUNT),file)
BENCH_ICOUNT := $(if $(filter file undefined,$(origin ACCEL)),1,0)
else
BENCH_ICOUNT := $(ICOUNT)
endif

BENCH_RUN := python3 tools/bench/run-bench

.PHONY: bench bench-repro bench-selftest run-vs-icount

# BENCH_ARGS travels in the environment: no quoting can break it.
bench: export FOLD_BENCH_ARGS = $(BENCH_ARGS)
bench: tools
	$(Q)$(BENCH_RUN) --models "$(BENCH_MODELS)" --modes "$(BENCH_MODES)" \
		--smp "$(BENCH_SMP)" --loads "$(BENCH_LOADS)" \
		--bench-args "$$FOLD_BENCH_ARGS" --accel $(or $(ACCEL),tcg) \
		--icount $(BENCH_ICOUNT) --timeout $(BENCH_TIMEOUT) \
		--out "$(BENCH_OUT)" --objects "$(or $(BUILD),build)" $(if $(BENCH_JOBS),-j $(BENCH_JOBS)) \
		--release $(if $(filter 1,$(RELEASE)),1,0)

bench-repro: tools
	$(Q)$(BENCH_RUN) --repro-check --timeout $(BENCH_TIMEOUT) --out "$(BENCH_OUT)" \
		--objects "$(or $(BUILD),build)"

bench-selftest:
	$(Q)$(BENCH_RUN) --self-test
	$(Q)python3 tools/bench/check-cyclictest --self-test
	$(Q)python3 tools/bench/run-vs-icount --self-test

# make run's report on the wall clock beside the same under icount, each
# figure held against its documented host effect (docs/06-measuring.md).
run-vs-icount: tools
	$(Q)python3 tools/bench/run-vs-icount --smp $(SMP) --tcg-thread $(TCG_THREAD)

.DEFAULT_GOAL := $(BENCH_SAVED_GOAL)
