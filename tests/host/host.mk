# Host unit tests for lib/: `make host-test` from the repository root.
#
# A Makefile fragment: the root Makefile includes it, and it also works on
# its own (make -f tests/host/host.mk host-test). Paths are relative to the
# repository root, and every name defined here starts with HOST_ so that it
# cannot collide with the kernel build's variables.
#
# lib/ defines memcpy, strlen, snprintf... which the host C library defines
# too. Rather than link two definitions of one symbol, every host compile
# force-includes tests/host/rename.h (-include), which first includes the
# libc headers under their real names and then #defines each lib name to
# fold_<name>. So lib's memcpy is built as fold_memcpy, the tests call
# fold_memcpy, and libc's memcpy stays untouched for printf, the sanitizers
# and compiler-generated calls. The lib code compiled is byte-for-byte the
# kernel's source; only the symbol names differ. See rename.h.
#
# Each test binary links all of lib/ (it is small), and the tests run under
# AddressSanitizer and UBSan when the host compiler can build and run such
# a program (probed once, on first use; override with HOST_SANITIZE=).
# Uses $(BUILD) and $(Q) from the kernel Makefile when they are set.

# Remember the includer's default goal (see the end of the file), and
# whether this file is the whole makefile.
HOST_SAVED_GOAL := $(.DEFAULT_GOAL)
HOST_STANDALONE := $(if $(filter-out $(lastword $(MAKEFILE_LIST)),$(MAKEFILE_LIST)),,yes)

HOSTCC ?= cc
HOST_BUILD ?= $(or $(BUILD),build)/host
HOST_CFLAGS ?= -std=gnu11 -O1 -g -Wall -Wextra -Wmissing-prototypes -Wmissing-declarations \
	-Wredundant-decls -Werror -fno-builtin \
	-fno-omit-frame-pointer -U_FORTIFY_SOURCE
HOST_CPPFLAGS = -I. -include tests/host/rename.h -MMD -MP

ifeq ($(origin HOST_SANITIZE),undefined)
# Evaluated lazily (= with a self-replacing eval) so that including this
# file from the kernel Makefile costs nothing unless host-test is built.
HOST_SANITIZE = $(eval HOST_SANITIZE := $(call HOST_SAN_PROBE))$(HOST_SANITIZE)
endif
HOST_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
HOST_SAN_PROBE = $(shell mkdir -p $(HOST_BUILD) && \
	printf 'int main(void){return 0;}\n' > $(HOST_BUILD)/san-probe.c && \
	$(HOSTCC) $(HOST_SAN_FLAGS) $(HOST_BUILD)/san-probe.c \
		-o $(HOST_BUILD)/san-probe >/dev/null 2>&1 && \
	$(HOST_BUILD)/san-probe >/dev/null 2>&1 && echo '$(HOST_SAN_FLAGS)')

# lib/, and the kernel's pure parsers that have a host test of their own.
HOST_LIB_SRCS := lib/string.c lib/format.c lib/bitmap.c lib/stats.c \
	lib/parse.c lib/sort.c lib/string_helpers.c arch/x86_64/kernel/acpi/acpi_aml.c
HOST_LIB_OBJS := $(HOST_LIB_SRCS:%.c=$(HOST_BUILD)/%.o)
HOST_TEST_NAMES := string format list bitmap stats parse sort string_helpers acpi_aml prandom
HOST_TEST_BINS := $(HOST_TEST_NAMES:%=$(HOST_BUILD)/test_%)
HOST_TEST_OBJS := $(HOST_TEST_NAMES:%=$(HOST_BUILD)/tests/host/test_%.o)
HOST_OBJS := $(HOST_LIB_OBJS) $(HOST_TEST_OBJS)

.PHONY: host-test host-test-build host-clean

# Run every test even if an earlier one fails, count the ok / not ok
# lines, and count a binary that exits non-zero without reporting a
# failure (a crash or a sanitizer abort) as one failure of its own.
host-test: $(HOST_TEST_BINS)
	@pass=0; fail=0; \
	for t in $(HOST_TEST_BINS); do \
		$$t > $$t.log 2>&1; rc=$$?; \
		cat $$t.log; \
		p=$$(grep -c '^ok ' $$t.log); \
		f=$$(grep -c '^not ok ' $$t.log); \
		if [ $$rc -ne 0 ] && [ $$f -eq 0 ]; then \
			echo "not ok $$t exited with status $$rc"; f=1; \
		fi; \
		pass=$$((pass + p)); fail=$$((fail + f)); \
	done; \
	echo "host: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

host-test-build: $(HOST_TEST_BINS)

# Static pattern rules, so that no implicit rule of the kernel Makefile
# (say, build/%.o: %.c with kernel flags) can claim these files.
$(HOST_OBJS): $(HOST_BUILD)/%.o: %.c tests/host/rename.h
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(HOST_CPPFLAGS) $(HOST_CFLAGS) $(HOST_SANITIZE) -c $< -o $@

$(HOST_TEST_BINS): $(HOST_BUILD)/test_%: \
		$(HOST_BUILD)/tests/host/test_%.o $(HOST_LIB_OBJS)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SANITIZE) $^ -o $@

host-clean:
	rm -rf $(HOST_BUILD)

-include $(HOST_OBJS:.o=.d)

# Included before the kernel Makefile's first rule, host-test would become
# its default goal; put back whatever it was (empty means "the next rule").
ifndef HOST_STANDALONE
.DEFAULT_GOAL := $(HOST_SAVED_GOAL)
endif
