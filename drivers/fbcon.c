/* A framebuffer text console (Linux's fbcon in miniature): a grid of
 * font-sized cells on the linear framebuffer GRUB left behind, light grey
 * on black, a cursor that wraps at the right edge and, at the bottom,
 * scrolls the screen up half its height at once (a terminal's "jump
 * scroll"). 32 bits per pixel, direct RGB only: any other mode gets a
 * boot message and the console stays serial-only.
 *
 * Why half a screen: a scroll moves the whole framebuffer (3 MiB at
 * 1024x768), and under QEMU's TCG that costs about 20 ms of host time, so
 * scrolling a line at a time made every printed line cost that once the
 * screen was full: 29 s of a 38 s boot that dumps a trace (1,379 lines).
 * Moving half the screen every half screen of lines costs 1/24 of that
 * per line, and the last lines printed stay on the screen. */
#include "drivers/fbcon.h"
#include "drivers/fbcon_font.h"
#include "boot/multiboot.h"
#include "kernel/printk.h"
#include "arch/x86_64/mm/vm.h"
#include "lib/string.h"

static struct {
	u8 *base;            /* NULL: no framebuffer console */
	u32 pitch, cols, rows, col, row;
	u32 fg, bg;
} fbcon;

static u32 fb_colour(const struct mb_framebuffer *fb, u8 r, u8 g, u8 b)
{
	return ((u32)r >> (8 - fb->red_size)) << fb->red_pos |
	       ((u32)g >> (8 - fb->green_size)) << fb->green_pos |
	       ((u32)b >> (8 - fb->blue_size)) << fb->blue_pos;
}

/* Why fb cannot be drawn on, or NULL when it can. */
static const char *fb_unusable(const struct mb_framebuffer *fb)
{
	if (!fb->present)
		return "no framebuffer tag (text mode or no display)";
	if (fb->type == MB_FB_TYPE_EGA_TEXT)
		return "EGA text mode, not a framebuffer";
	if (fb->type != MB_FB_TYPE_RGB)
		return "indexed colour";
	if (fb->bpp != 32)
		return "not 32 bits per pixel";
	if (fb->red_size > 8 || fb->green_size > 8 || fb->blue_size > 8 ||
	    !fb->red_size || !fb->green_size || !fb->blue_size)
		return "colour fields of unsupported sizes";
	if (fb->width < FBCON_FONT_WIDTH || fb->height < fbcon_font_height ||
	    fb->pitch < fb->width * 4)
		return "too small, or pitch less than width";
	return NULL;
}

static void draw_cell(u32 col, u32 row, char c)
{
	const u8 *glyph = NULL;
	if ((u8)c >= FBCON_FONT_FIRST && (u8)c < FBCON_FONT_FIRST + FBCON_FONT_GLYPHS)
		glyph = fbcon_font[(u8)c - FBCON_FONT_FIRST];
	for (u32 y = 0; y < fbcon_font_height; y++) {
		u32 *px = (u32 *)(fbcon.base + (u64)(row * fbcon_font_height + y) * fbcon.pitch) +
			  col * FBCON_FONT_WIDTH;
		u8 bits = glyph ? glyph[y] : 0;
		for (u32 x = 0; x < FBCON_FONT_WIDTH; x++)
			px[x] = bits & (0x80 >> x) ? fbcon.fg : fbcon.bg;
	}
}

static void fill_rows(u32 row, u32 n)
{
	for (u32 y = row * fbcon_font_height; y < (row + n) * fbcon_font_height; y++) {
		u32 *px = (u32 *)(fbcon.base + (u64)y * fbcon.pitch);
		for (u32 x = 0; x < fbcon.cols * FBCON_FONT_WIDTH; x++)
			px[x] = fbcon.bg;
	}
}

/* Up n rows: the rest moves up, the bottom n rows are cleared. */
static void scroll(u32 n)
{
	u64 line = (u64)fbcon_font_height * fbcon.pitch;
	memmove(fbcon.base, fbcon.base + line * n, line * (fbcon.rows - n));
	fill_rows(fbcon.rows - n, n);
}

static void newline(void)
{
	fbcon.col = 0;
	if (++fbcon.row == fbcon.rows) {
		u32 jump = fbcon.rows / 2 ? fbcon.rows / 2 : 1;
		scroll(jump);
		fbcon.row -= jump;
	}
}

void fbcon_write(const char *s, size_t n)
{
	if (!fbcon.base)
		return;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n') {
			newline();
		} else if (c == '\r') {
			fbcon.col = 0;
		} else if (c == '\b') {
			if (fbcon.col)
				fbcon.col--;
		} else if ((u8)c >= 0x20 && (u8)c < 0x7f) {
			if (fbcon.col == fbcon.cols)
				newline();
			draw_cell(fbcon.col++, fbcon.row, c);
		}
	}
}

void fbcon_init(void)
{
	const struct mb_framebuffer *fb = &boot_info.fb;
	const char *why = fb_unusable(fb);
	if (why) {
		printk("fbcon: no screen console: %s; serial only\n", why);
		return;
	}
	/* ioremap maps any physical address (the page tables take 52 bits):
	 * a framebuffer above 4 GiB (UEFI may place one there) is fine. */
	u8 *base = ioremap(fb->addr, (u64)fb->pitch * fb->height);
	fbcon.pitch = fb->pitch;
	fbcon.cols = fb->width / FBCON_FONT_WIDTH;
	fbcon.rows = fb->height / fbcon_font_height;
	fbcon.fg = fb_colour(fb, 0xaa, 0xaa, 0xaa);
	fbcon.bg = fb_colour(fb, 0, 0, 0);
	fbcon.base = base;
	fill_rows(0, fbcon.rows);
	/* What was printed before the screen was mapped (the banner). Boot is
	 * on one CPU with interrupts off here, so nothing interleaves. */
	char buf[256];
	u64 pos = 0;
	size_t got;
	while ((got = log_read(&pos, buf, sizeof(buf))))
		fbcon_write(buf, got);
	printk("fbcon: %ux%u at %#llx, pitch %u, %u bpp: %ux%u cells of %ux%u\n",
	       fb->width, fb->height, (unsigned long long)fb->addr, fb->pitch, fb->bpp,
	       fbcon.cols, fbcon.rows, FBCON_FONT_WIDTH, fbcon_font_height);
}
