/* TSC frequency. CPUID leaf 0x15 (TSC/crystal ratio) or 0x16 (base MHz)
 * when the CPU reports them (SDM Vol. 3B 19.7.3), otherwise measured
 * against PIT channel 2, which QEMU runs on the same clock as the TSC
 * (virtual time under -icount). */
#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/tsc.h"

u64 tsc_hz;
u64 tsc_at_boot;
const char *tsc_source = "none";

#define PIT_HZ 1193182ULL
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_GATE 0x61 /* bit 0: ch2 gate, bit 1: speaker, bit 5: ch2 OUT */

/* Count PIT ticks in mode 0 (interrupt on terminal count: OUT goes high
 * when the counter reaches 0) while reading the TSC. 8254 datasheet. */
static u64 calibrate_pit(u32 ms)
{
	u32 ticks = (u32)(PIT_HZ * ms / 1000);
	u8 g = inb(PIT_GATE);
	outb(PIT_GATE, (g & ~0x02) | 0x01); /* gate on, speaker off */
	outb(PIT_CMD, 0xB0);                /* ch2, lo/hi byte, mode 0, binary */
	outb(PIT_CH2, ticks & 0xFF);
	outb(PIT_CH2, ticks >> 8);
	/* Writing the count restarts the countdown in mode 0. */
	u64 t0 = rdtsc();
	/* No cpu_relax() here: only this CPU runs yet, and under -icount
	 * every `pause` makes QEMU look for another vCPU to run, which slows
	 * this loop (and so the boot) several times over. */
	while (!(inb(PIT_GATE) & 0x20))
		;
	u64 t1 = rdtsc();
	outb(PIT_GATE, g);
	return (t1 - t0) * 1000 / ms;
}

void tsc_init(void)
{
	u32 a, b, c, d, max;
	tsc_at_boot = rdtsc();
	cpuid(0, &max, &b, &c, &d);
	if (max >= 0x15) {
		cpuid(0x15, &a, &b, &c, &d);
		if (a && b && c) {
			tsc_hz = (u64)c * b / a;
			tsc_source = "cpuid 0x15";
			return;
		}
	}
	if (max >= 0x16) {
		cpuid(0x16, &a, &b, &c, &d);
		if (a) {
			tsc_hz = (u64)a * 1000000;
			tsc_source = "cpuid 0x16";
			return;
		}
	}
	/* Two measurements, keep the smaller (an interruption or a host
	 * hiccup can only make one longer). Interrupts are still off. */
	u64 f1 = calibrate_pit(20), f2 = calibrate_pit(20);
	tsc_hz = f1 < f2 ? f1 : f2;
	tsc_source = "pit";
}
