/* bench hackbench: hackbench's pipe mode in the kernel (E8's throughput
 * workload). `groups` groups of `fds` senders and `fds` receivers, all
 * normal-class threads free to run on any CPU; each receiver owns a
 * channel, a ring of `depth` 100-byte messages (hackbench's DATASIZE)
 * behind a lock and two wait queues, as a pipe is; every sender writes
 * `loops` messages to every receiver of its group, one receiver after the
 * other, and blocks only when a channel is full; a receiver blocks when
 * its channel is empty. One operation is one message, sent and received.
 *
 * Each message wakes its receiver. A normal thread woken where a normal
 * thread runs asks for a reschedule (sched/wake.c, check_preempt): in full
 * the sender is preempted at once, after one message, by a receiver that
 * reads it and blocks again: two switches per message, one of them
 * involuntary. In none and voluntary the sender runs on until its channel
 * is full (a batch of `depth`), in lazy until the tick: the
 * "over-scheduling" that Linux's lazy preemption commit names. The report
 * counts involuntary switches the way Linux's nivcsw does (struct thread,
 * sched/core.c's context_switch()). */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "mm/mm.h"
#include "kernel/locking/spinlock.h"
#include "sched/sched.h"
#include "sched/thread.h"
#include "sched/wait.h"
#include "lib/string.h"

#define HB_DATASIZE 100 /* hackbench.c's DATASIZE */

struct channel {
	spinlock_t lock;   /* a pipe's lock: sleeps on PREEMPT=rt */
	struct wait_queue readers, writers;
	u64 head, tail; /* messages taken, messages put */
	u64 depth;
	u8 *ring;       /* depth * HB_DATASIZE bytes */
};

struct hb_thread {
	struct channel *chans; /* a sender's group's channels; a receiver's own */
	u64 nchans, messages;  /* a sender: loops; a receiver: messages to take */
	u64 nvcsw, nivcsw, end_ns;
	u64 sum;               /* a receiver: a checksum of what it read */
	struct thread *t;
};

static void channel_send(struct channel *ch, const u8 *msg)
{
	spin_lock(&ch->lock);
	while (ch->tail - ch->head == ch->depth) {
		spin_unlock(&ch->lock);
		wait_event(&ch->writers, READ_ONCE(ch->tail) - READ_ONCE(ch->head) < ch->depth);
		spin_lock(&ch->lock);
	}
	memcpy(ch->ring + (ch->tail % ch->depth) * HB_DATASIZE, msg, HB_DATASIZE);
	WRITE_ONCE(ch->tail, ch->tail + 1);
	spin_unlock(&ch->lock);
	wake_up_one(&ch->readers);
}

static void channel_recv(struct channel *ch, u8 *msg)
{
	spin_lock(&ch->lock);
	while (ch->tail == ch->head) {
		spin_unlock(&ch->lock);
		wait_event(&ch->readers, READ_ONCE(ch->tail) != READ_ONCE(ch->head));
		spin_lock(&ch->lock);
	}
	memcpy(msg, ch->ring + (ch->head % ch->depth) * HB_DATASIZE, HB_DATASIZE);
	WRITE_ONCE(ch->head, ch->head + 1);
	spin_unlock(&ch->lock);
	wake_up_one(&ch->writers);
}

static void hb_done(struct hb_thread *h)
{
	struct thread *self = current_thread();
	h->nvcsw = self->nvcsw;
	h->nivcsw = self->nivcsw;
	h->end_ns = ktime_get_ns();
}

static void sender(void *arg)
{
	struct hb_thread *h = arg;
	u8 msg[HB_DATASIZE];
	for (u64 i = 0; i < h->messages; i++)
		for (u64 c = 0; c < h->nchans; c++) {
			memset(msg, (int)(i + c), sizeof(msg));
			channel_send(&h->chans[c], msg);
		}
	hb_done(h);
}

static void receiver(void *arg)
{
	struct hb_thread *h = arg;
	u8 msg[HB_DATASIZE];
	for (u64 i = 0; i < h->messages; i++) {
		channel_recv(h->chans, msg);
		h->sum += msg[0] + msg[HB_DATASIZE - 1];
	}
	hb_done(h);
}

int bench_hackbench(int argc, char **argv)
{
	u64 groups = 2, fds = 4, loops = 400, depth = 16;
	struct bench_opt opts[] = { BENCH_HACKBENCH_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("hackbench", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	u64 nth = groups * fds * 2, nch = groups * fds;
	struct channel *ch = kzalloc(sizeof(*ch) * nch);
	struct hb_thread *h = kzalloc(sizeof(*h) * nth);
	int ret = -1;
	if (!ch || !h) {
		console_printf("bench hackbench: out of memory for %llu threads\n",
			       (unsigned long long)nth);
		goto out;
	}
	for (u64 c = 0; c < nch; c++) {
		spin_lock_init(&ch[c].lock, "hackbench");
		wait_queue_init(&ch[c].readers);
		wait_queue_init(&ch[c].writers);
		ch[c].depth = depth;
		if (!(ch[c].ring = kmalloc(depth * HB_DATASIZE))) {
			console_printf("bench hackbench: out of memory for %llu channels of %llu messages\n",
				       (unsigned long long)nch, (unsigned long long)depth);
			goto out;
		}
	}
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	u64 ops = groups * fds * fds * loops;
	console_printf("bench hackbench: %llu groups of %llu senders and %llu receivers, %llu messages "
		       "of %u bytes from each sender to each receiver, channels of %llu (%s)\n",
		       (unsigned long long)groups, (unsigned long long)fds, (unsigned long long)fds,
		       (unsigned long long)loops, HB_DATASIZE, (unsigned long long)depth, ctx);
	/* Receivers first (hackbench's order), all created stopped, then
	 * started together: the clock runs from the first wake-up. */
	u64 cpus = cpu_online_mask();
	for (u64 i = 0; i < nth; i++) {
		u64 g = i / (2 * fds), k = i % (2 * fds);
		bool recv = k < fds;
		h[i].chans = recv ? &ch[g * fds + k] : &ch[g * fds];
		h[i].nchans = recv ? 1 : fds;
		h[i].messages = recv ? fds * loops : loops;
		h[i].t = kthread_create(recv ? receiver : sender, &h[i], recv ? "hb-recv" : "hb-send",
					PRIO_NORMAL, cpus);
		if (!h[i].t) {
			console_printf("bench hackbench: cannot start thread %llu of %llu\n",
				       (unsigned long long)i, (unsigned long long)nth);
			for (u64 j = 0; j < i; j++) /* they have nothing to wait for */
				h[j].messages = 0;
			for (u64 j = 0; j < i; j++)
				wake_up_thread(h[j].t);
			for (u64 j = 0; j < i; j++)
				thread_join(h[j].t);
			goto out;
		}
	}
	u64 t0 = ktime_get_ns();
	for (u64 i = 0; i < nth; i++)
		wake_up_thread(h[i].t);
	u64 nvcsw = 0, nivcsw = 0, end = t0, sum = 0, expect = 0;
	for (u64 i = 0; i < nth; i++) {
		thread_join(h[i].t);
		nvcsw += h[i].nvcsw;
		nivcsw += h[i].nivcsw;
		end = MAX(end, h[i].end_ns);
		sum += h[i].sum;
	}
	/* Every message arrived once: the checksum of what was sent. */
	for (u64 g = 0; g < groups; g++)
		for (u64 s = 0; s < fds; s++)
			for (u64 i = 0; i < loops; i++)
				for (u64 c = 0; c < fds; c++)
					expect += 2 * (u8)(i + c);
	if (sum != expect) {
		console_printf("bench hackbench: the receivers' checksum is %llu, the senders' %llu: "
			       "messages lost or duplicated\n",
			       (unsigned long long)sum, (unsigned long long)expect);
		goto out;
	}
	u64 ns = end > t0 ? end - t0 : 1;
	char rate[32], inv[32], vol[32];
	fmt_ratio(rate, sizeof(rate), ops * NSEC_PER_SEC, ns, 2);
	fmt_ratio(inv, sizeof(inv), nivcsw, ops, 4);
	fmt_ratio(vol, sizeof(vol), nvcsw, ops, 4);
	console_printf("  %llu messages in %llu ns: %s per second; per message %s involuntary and "
		       "%s voluntary switches\n",
		       (unsigned long long)ops, (unsigned long long)ns, rate, inv, vol);
	console_printf("BENCH hackbench %s where=kernel groups=%llu fds=%llu loops=%llu depth=%llu "
		       "ops=%llu ns=%llu ops_per_sec=%s invol_per_op=%s vol_per_op=%s\n",
		       ctx, (unsigned long long)groups, (unsigned long long)fds,
		       (unsigned long long)loops, (unsigned long long)depth, (unsigned long long)ops,
		       (unsigned long long)ns, rate, inv, vol);
	ret = 0;
out:
	for (u64 c = 0; ch && c < nch; c++)
		kfree(ch[c].ring);
	kfree(ch);
	kfree(h);
	return ret;
}
