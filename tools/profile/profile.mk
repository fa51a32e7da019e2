# The path profiler: `make profile`, `make profile-test`.
#
# A Makefile fragment, included by the root Makefile; the work is done by
# tools/profile/run-profile (see its --help). Names start with PROFILE_.
#
#   make profile                         the five paths (timer, ctxsw, ipc, irq, syscall), folded/full
#   make profile PROFILE=timer           one path
#   make profile PROFILE_BUILD="PREEMPT=none COUNT=ti" PROFILE_N=100
#   make profile PROFILE=ipc RELEASE=1   the release build (kernel/debug/checks.h);
#                                        every report says which build it measured
#   make profile-test                    the self-test, timer once and ctxsw twice:
#                                        the same tables, and each total within
#                                        its bound of the benchmark's figure (the
#                                        docs check compares timer's tables with
#                                        docs/06-measuring.md's, run to run)
#
# Output: the tables on stdout and in $(BUILD)/profile/<path>.txt; the
# execution log and serial log beside them. docs/06-measuring.md holds the
# timer path's tables as checked excerpts (tests/check-docs runs them;
# --update rewrites them), so a change that moves them shows in its diff.

PROFILE       ?= timer ctxsw ipc irq syscall
PROFILE_N     ?=
PROFILE_BUILD ?=
PROFILE_OUT   := $(or $(BUILD),build)/profile
PROFILE_RUN    = python3 tools/profile/run-profile --out $(PROFILE_OUT) --objects $(or $(BUILD),build) \
		 $(if $(PROFILE_N),--n $(PROFILE_N)) \
		 $(foreach v,$(PROFILE_BUILD),--make-var $(v)) \
		 $(if $(filter 1,$(RELEASE)),--make-var RELEASE=1)

.PHONY: profile profile-test
profile: tools
	$(Q)$(PROFILE_RUN) $(PROFILE)

profile-test: tools
	$(Q)python3 tools/profile/run-profile --self-test
	$(Q){ $(PROFILE_RUN) timer && $(PROFILE_RUN) --repro ctxsw; } > $(PROFILE_OUT)-test.txt || \
		{ cat $(PROFILE_OUT)-test.txt; exit 1; }
	$(Q)grep -E '^(ok|not ok) ' $(PROFILE_OUT)-test.txt
