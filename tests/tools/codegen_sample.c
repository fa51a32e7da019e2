/* E5's analyser's self-test (experiments_selftest.py) compiles this
 * with the kernel's code-model flags and -fomit-frame-pointer: each
 * function's comment says what the analyser must find in it. */
extern void preempt_schedule_thunk(void);
extern void other(int);
extern int counter;
int table[16];

/* a leaf without a frame */
int leaf_sum(const int *p, int n)
{
	return p[0] * 7 + p[1] * 5 + p[n] + n;
}
/* another: doctored with a push */
int leaf_mix(int a, int b)
{
	return (a ^ b) * 3 + (a & 15) * 11 - b;
}
/* leaf but for preempt_enable()'s slow path: still a leaf */
void enable_like(void)
{
	if (__builtin_expect(--counter == 0, 0))
		__asm__ __volatile__("call preempt_schedule_thunk" ::: "memory");
}
/* calls: not a leaf, and a frame or a push to keep its value */
int caller(int x)
{
	other(x);
	other(x + 1);
	return x + table[x & 15];
}
