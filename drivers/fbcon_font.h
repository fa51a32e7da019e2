/* The console font: glyphs 0x20-0x7e of a Linux console (PSF) font, made
 * into $(BUILD)/fbcon_font.c at build time by scripts/mkfont.py (FONT= in
 * the Makefile picks the file). One byte per row, bit 7 leftmost. */
#ifndef FOLD_KERNEL_FBCON_FONT_H
#define FOLD_KERNEL_FBCON_FONT_H
#define FBCON_FONT_FIRST 0x20
#define FBCON_FONT_GLYPHS (0x7f - FBCON_FONT_FIRST)
#define FBCON_FONT_MAX_HEIGHT 32
#define FBCON_FONT_WIDTH 8
extern const unsigned int fbcon_font_height;
extern const unsigned char fbcon_font[FBCON_FONT_GLYPHS][FBCON_FONT_MAX_HEIGHT];
#endif
