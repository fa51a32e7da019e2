/* The PS/2 keyboard, polled: the i8042's status port 0x64 says whether a
 * byte waits in its output buffer (bit 0) and whether it came from the
 * mouse port (bit 5, dropped); port 0x60 gives the byte. The firmware
 * leaves the controller translating to scancode set 1 (the IBM PC/XT
 * codes: make = key number, break = make | 0x80; 0xE0 prefixes the
 * extended keys, which are ignored here). US layout. */
#include "drivers/i8042.h"
#include "arch/x86_64/cpu.h"
#include "lib/types.h"

#define I8042_DATA 0x60
#define I8042_STATUS 0x64
#define I8042_STR_OBF 0x01  /* output buffer full */
#define I8042_STR_AUXDATA 0x20 /* ... from the mouse */

#define SC_LSHIFT 0x2a
#define SC_RSHIFT 0x36
#define SC_EXTENDED 0xe0
#define SC_BREAK 0x80

/* Set 1 make codes 0x00-0x39 to ASCII, unshifted and shifted. */
static const char keymap[2][0x3a] = {
	{ 0, 27, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', '\b',
	  '\t', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r',
	  0, 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	  0, '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/', 0, '*', 0, ' ' },
	{ 0, 27, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', '\b',
	  '\t', 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\r',
	  0, 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	  0, '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?', 0, '*', 0, ' ' },
};

static bool shift, extended;

int i8042_getc(void)
{
	for (;;) {
		u8 st = inb(I8042_STATUS);
		if (!(st & I8042_STR_OBF) || st == 0xff) /* 0xff: no controller */
			return -1;
		u8 sc = inb(I8042_DATA);
		if (st & I8042_STR_AUXDATA)
			continue;
		if (sc == SC_EXTENDED) {
			extended = true;
			continue;
		}
		if (extended) { /* arrows, keypad Enter, right Ctrl...: ignored */
			extended = false;
			continue;
		}
		u8 key = sc & ~SC_BREAK;
		if (key == SC_LSHIFT || key == SC_RSHIFT) {
			shift = !(sc & SC_BREAK);
			continue;
		}
		if (sc & SC_BREAK || key >= sizeof(keymap[0]) || !keymap[shift][key])
			continue;
		return keymap[shift][key];
	}
}
