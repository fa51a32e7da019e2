# User programs: every user/*.c is one program, built into
# $(BUILD)/user/NAME.elf and loaded by the ISO as the boot module NAME
# (scripts/mkiso.sh). The library is user/lib/ plus lib/string.c and
# lib/format.c, the kernel's own, compiled again with the user flags.
# Included by the Makefile before the ISO rule (which depends on them).

USER_PROGS := $(sort $(basename $(notdir $(wildcard user/*.c))))
USER_ELFS := $(USER_PROGS:%=$(BUILD)/user/%.elf)
USER_LIB_SRCS := $(wildcard user/lib/*.c) lib/string.c lib/format.c
USER_LIB_OBJS := $(USER_LIB_SRCS:%.c=$(BUILD)/user/obj/%.o)
USER_DEPS := $(USER_LIB_OBJS:.o=.d) $(USER_PROGS:%=$(BUILD)/user/obj/user/%.d)

# Ring 3: no -mcmodel=kernel and no -mno-red-zone (signals are not
# delivered on the user stack, interrupts switch to the kernel stack).
# -mgeneral-regs-only: the kernel does not save FPU/SSE state on a switch.
# Static, not position-independent, linked at USER_LOAD_MIN by user.ld.
USER_CFLAGS := -std=gnu11 -ffreestanding -fno-builtin -nostdlib -fno-pic -fno-pie \
	-mgeneral-regs-only -fno-stack-protector -fno-omit-frame-pointer \
	-fno-strict-aliasing -fno-asynchronous-unwind-tables \
	-ffunction-sections -fdata-sections \
	$(OPT) -g -Wall -Wextra $(PROTO_WARNINGS) -Werror -I.
USER_LDFLAGS := -nostdlib -static --gc-sections -z max-page-size=4096 -z separate-code \
	-z noexecstack -L $(BUILD)/user -T user/user.ld

# The address constants of uapi/layout.h for user.ld (ld takes no UL).
$(BUILD)/user/layout.ld: uapi/layout.h
	@mkdir -p $(dir $@)
	$(Q)sed -n 's/^#define \(USER_LOAD_MIN\|USER_TOP\) *\(0x[0-9A-Fa-f]*\)UL.*/\1 = \2;/p' $< > $@

$(BUILD)/user/obj/%.o: %.c $(BUILD)/config | tools
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (user)")
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/user/%.elf: $(BUILD)/user/obj/user/%.o $(USER_LIB_OBJS) user/user.ld $(BUILD)/user/layout.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(USER_LDFLAGS) -o $@ $< $(USER_LIB_OBJS)

# The objects are kept (make would delete them as intermediate files of
# the pattern chain and rebuild them every time).
.SECONDARY: $(USER_LIB_OBJS) $(USER_PROGS:%=$(BUILD)/user/obj/user/%.o)

.PHONY: user
user: $(USER_ELFS)

-include $(USER_DEPS)
