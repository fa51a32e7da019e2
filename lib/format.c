/* The formatter behind printk and snprintf. See lib/format.h for the
 * supported subset; this file follows C99 7.19.6.1 for everything it
 * supports, so the host tests can compare it against the C library. */
#include "lib/format.h"
#include "lib/string.h"

enum {
	F_LEFT = 1 << 0,	/* '-' */
	F_ZERO = 1 << 1,	/* '0' */
	F_PLUS = 1 << 2,	/* '+' */
	F_SPACE = 1 << 3,	/* ' ' */
	F_ALT = 1 << 4,		/* '#' */
};

enum len { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_T, L_J };

struct spec {
	unsigned flags;
	int width;		/* 0 when absent */
	int prec;		/* -1 when absent */
	enum len len;
	char conv;
};

struct out {
	void (*emit)(char c, void *ctx);
	void *ctx;
	size_t n;		/* characters emitted so far */
};

static void put(struct out *o, char c)
{
	o->emit(c, o->ctx);
	o->n++;
}

static void put_n(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_str(struct out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

/* Pad a piece of known length to the field width: spaces on the left
 * unless '-', in which case they go on the right (the caller emits the
 * piece between the two calls). */
static void pad_left(struct out *o, const struct spec *sp, int len)
{
	if (!(sp->flags & F_LEFT))
		put_n(o, ' ', sp->width - len);
}

static void pad_right(struct out *o, const struct spec *sp, int len)
{
	if (sp->flags & F_LEFT)
		put_n(o, ' ', sp->width - len);
}

/* Integer conversions, and %p. The field is laid out as
 *	[spaces] [sign] [0x] [zeros] digits [spaces]
 * mag is the magnitude and neg its sign, so that LLONG_MIN needs no
 * special case: its magnitude fits a u64. */
static void fmt_int(struct out *o, const struct spec *sp, u64 mag, bool neg)
{
	static const char lower[] = "0123456789abcdef";
	static const char upper[] = "0123456789ABCDEF";
	const char *xdigits = sp->conv == 'X' ? upper : lower;
	unsigned base = 10;
	char digits[24];	/* a u64 has at most 22 octal digits */
	int nd = 0, zeros, len;
	const char *prefix = "";	/* "" or two characters */
	char sign = 0;

	if (sp->conv == 'o')
		base = 8;
	else if (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
		base = 16;

	if (sp->conv == 'd' || sp->conv == 'i') {
		if (neg)
			sign = '-';
		else if (sp->flags & F_PLUS)
			sign = '+';
		else if (sp->flags & F_SPACE)
			sign = ' ';
	}
	if (sp->conv == 'p')
		prefix = "0x";
	else if ((sp->flags & F_ALT) && mag != 0 && sp->conv == 'x')
		prefix = "0x";
	else if ((sp->flags & F_ALT) && mag != 0 && sp->conv == 'X')
		prefix = "0X";

	/* C99: "The result of converting a zero value with a precision of
	 * zero is no characters." Digits are produced least significant
	 * first. */
	if (!(mag == 0 && sp->prec == 0)) {
		do {
			digits[nd++] = xdigits[mag % base];
			mag /= base;
		} while (mag);
	}

	zeros = sp->prec > nd ? sp->prec - nd : 0;
	/* '#' with %o: "increase the precision, if and only if necessary,
	 * to force the first digit of the result to be a zero". */
	if ((sp->flags & F_ALT) && base == 8 && zeros == 0 &&
	    (nd == 0 || digits[nd - 1] != '0'))
		zeros = 1;

	len = (sign != 0) + (prefix[0] ? 2 : 0) + zeros + nd;
	/* '0' pads with zeros after the sign and prefix; it is ignored when
	 * a precision is given or with '-'. */
	if ((sp->flags & (F_ZERO | F_LEFT)) == F_ZERO && sp->prec < 0 &&
	    sp->width > len) {
		zeros += sp->width - len;
		len = sp->width;
	}

	pad_left(o, sp, len);
	if (sign)
		put(o, sign);
	put_str(o, prefix, prefix[0] ? 2 : 0);
	put_n(o, '0', zeros);
	while (nd)
		put(o, digits[--nd]);
	pad_right(o, sp, len);
}

static void fmt_str(struct out *o, const struct spec *sp, const char *s)
{
	size_t n;

	if (!s)
		s = "(null)";
	/* With a precision the argument need not be NUL-terminated, so never
	 * read past the precision (strnlen, not strlen). */
	n = sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s);
	if (n > INT32_MAX)
		n = INT32_MAX;
	pad_left(o, sp, (int)n);
	put_str(o, s, n);
	pad_right(o, sp, (int)n);
}

/* Fetch a signed argument of the size the length modifier names. Types
 * narrower than int arrive promoted to int and are cut back here, as C
 * says. z and t are 64-bit on x86-64 (LP64). */
static s64 arg_signed(va_list *ap, enum len len)
{
	switch (len) {
	case L_HH: return (signed char)va_arg(*ap, int);
	case L_H:  return (short)va_arg(*ap, int);
	case L_L:  return va_arg(*ap, long);
	case L_LL: return va_arg(*ap, long long);
	case L_Z:  return va_arg(*ap, long);	/* the signed size_t */
	case L_T:  return va_arg(*ap, ptrdiff_t);
	case L_J:  return va_arg(*ap, intmax_t);
	default:   return va_arg(*ap, int);
	}
}

static u64 arg_unsigned(va_list *ap, enum len len)
{
	switch (len) {
	case L_HH: return (unsigned char)va_arg(*ap, unsigned int);
	case L_H:  return (unsigned short)va_arg(*ap, unsigned int);
	case L_L:  return va_arg(*ap, unsigned long);
	case L_LL: return va_arg(*ap, unsigned long long);
	case L_Z:  return va_arg(*ap, size_t);
	case L_T:  return (u64)va_arg(*ap, ptrdiff_t);
	case L_J:  return va_arg(*ap, uintmax_t);
	default:   return va_arg(*ap, unsigned int);
	}
}

_Static_assert(sizeof(long) == sizeof(size_t), "%zd reads a long");

/* Parse a decimal width or precision, saturating instead of overflowing. */
static int parse_num(const char **fmt)
{
	int v = 0;

	while (**fmt >= '0' && **fmt <= '9') {
		v = v * 10 + (**fmt - '0');
		if (v > FORMAT_MAX_WIDTH)
			v = FORMAT_MAX_WIDTH;
		(*fmt)++;
	}
	return v;
}

/* Parse one conversion specification starting just after the '%'.
 * Returns false if the format string ends before the conversion char. */
static bool parse_spec(const char **fmt, struct spec *sp, va_list *ap)
{
	const char *p = *fmt;

	sp->flags = 0;
	sp->width = 0;
	sp->prec = -1;
	sp->len = L_NONE;

	for (;; p++) {
		if (*p == '-')
			sp->flags |= F_LEFT;
		else if (*p == '0')
			sp->flags |= F_ZERO;
		else if (*p == '+')
			sp->flags |= F_PLUS;
		else if (*p == ' ')
			sp->flags |= F_SPACE;
		else if (*p == '#')
			sp->flags |= F_ALT;
		else
			break;
	}

	if (*p == '*') {
		int w = va_arg(*ap, int);

		p++;
		/* C99: "A negative field width argument is taken as a '-'
		 * flag followed by a positive field width." */
		if (w < 0) {
			sp->flags |= F_LEFT;
			w = w < -FORMAT_MAX_WIDTH ? FORMAT_MAX_WIDTH : -w;
		}
		sp->width = w > FORMAT_MAX_WIDTH ? FORMAT_MAX_WIDTH : w;
	} else {
		sp->width = parse_num(&p);
	}

	if (*p == '.') {
		p++;
		if (*p == '*') {
			int pr = va_arg(*ap, int);

			p++;
			/* "A negative precision argument is taken as if the
			 * precision were omitted." */
			sp->prec = pr < 0 ? -1 : (pr > FORMAT_MAX_WIDTH ?
						  FORMAT_MAX_WIDTH : pr);
		} else {
			sp->prec = parse_num(&p);	/* "." alone is 0 */
		}
	}

	switch (*p) {
	case 'h':
		p++;
		sp->len = L_H;
		if (*p == 'h') {
			p++;
			sp->len = L_HH;
		}
		break;
	case 'l':
		p++;
		sp->len = L_L;
		if (*p == 'l') {
			p++;
			sp->len = L_LL;
		}
		break;
	case 'z': p++; sp->len = L_Z; break;
	case 't': p++; sp->len = L_T; break;
	case 'j': p++; sp->len = L_J; break;
	default: break;
	}

	sp->conv = *p;
	*fmt = p;
	return *p != '\0';
}

static void format(struct out *o, const char *fmt, va_list *ap)
{
	struct spec sp;

	while (*fmt) {
		const char *start = fmt;
		s64 v;

		if (*fmt != '%') {
			put(o, *fmt++);
			continue;
		}
		fmt++;
		if (!parse_spec(&fmt, &sp, ap)) {
			/* "%-5" at the end: show what was there. */
			put_str(o, start, (size_t)(fmt - start));
			break;
		}
		switch (sp.conv) {
		case 'd':
		case 'i':
			v = arg_signed(ap, sp.len);
			/* 0 - (u64)v is the magnitude even for S64_MIN, where
			 * -v would overflow. */
			fmt_int(o, &sp, v < 0 ? 0 - (u64)v : (u64)v, v < 0);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			fmt_int(o, &sp, arg_unsigned(ap, sp.len), false);
			break;
		case 'p':
			/* Fixed shape, so pointers line up in dumps. */
			sp.prec = 16;
			sp.flags &= F_LEFT;
			fmt_int(o, &sp, (uintptr_t)va_arg(*ap, void *), false);
			break;
		case 'c':
			pad_left(o, &sp, 1);
			put(o, (char)va_arg(*ap, int));
			pad_right(o, &sp, 1);
			break;
		case 's':
			fmt_str(o, &sp, va_arg(*ap, const char *));
			break;
		case '%':
			put(o, '%');
			break;
		default:
			/* Unknown conversion: copy it out verbatim. */
			put_str(o, start, (size_t)(fmt - start + 1));
			break;
		}
		fmt++;
	}
}

int vcbprintf(void (*emit)(char c, void *ctx), void *ctx, const char *fmt,
	      va_list ap)
{
	struct out o = { .emit = emit, .ctx = ctx, .n = 0 };
	va_list aq;

	/* On x86-64 va_list is an array type, so a va_list parameter is
	 * really a pointer and "&ap" would have the wrong type. A local
	 * copy can be passed by address to the helpers. */
	va_copy(aq, ap);
	format(&o, fmt, &aq);
	va_end(aq);
	return o.n > INT32_MAX ? INT32_MAX : (int)o.n;
}

struct sbuf {
	char *buf;
	size_t size;
	size_t pos;		/* would-be length so far */
};

static void sbuf_emit(char c, void *ctx)
{
	struct sbuf *b = ctx;

	/* Keep the last byte for the terminator; count the rest anyway so
	 * the caller learns the untruncated length. */
	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sbuf b = { .buf = buf, .size = size, .pos = 0 };
	int n = vcbprintf(sbuf_emit, &b, fmt, ap);

	if (size)
		buf[b.pos < size - 1 ? b.pos : size - 1] = '\0';
	return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
