#!/usr/bin/env python3
"""Write the lab variants again (tests/tools/lab/variants/*.patch): each is
a student's answer, right or wrong, as a patch to a fresh skeleton of its
lab, with a header that make lab-check (tools/lab/lab-check) reads:

    lab: L1
    what: what the answer does
    expect: pass | fail
    fails: CASE TEXT       (for fail: a case that must fail, and a text its
                            diagnostics must contain; the other cases pass)

Run it after a change to a stub (a hint, an END comment) makes the old
patches stop applying: python3 tests/tools/lab/mkvariants.py
"""

import difflib
import os
import subprocess
import sys
import shutil
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
V = os.path.join(HERE, "variants")
TMP = tempfile.mkdtemp(prefix="fold-variants-")


def skeleton(lab):
    dest = os.path.join(TMP, lab)
    if not os.path.exists(dest):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "lab", "mklab"), lab,
                        "--dest", dest, "--no-git"], check=True, stdout=subprocess.DEVNULL)
    return dest


def replace_stub(text, func, code):
    """The stub of func (its TODO comment, the lab_hole() line and the
    stub's own line) replaced by code."""
    lines = text.split("\n")
    i = next(k for k, l in enumerate(lines) if "lab_hole(" in l and f'"{func}"' in l)
    s = i
    while "LAB(" not in lines[s] or "TODO" not in lines[s]:
        s -= 1
    e = i + 1
    if e < len(lines) and "the stub's own" in lines[e]:
        e += 1
    return "\n".join(lines[:s] + code.split("\n") + lines[e:])


def write(name, header, lab, edits):
    out = [header.rstrip("\n") + "\n"]
    root = skeleton(lab)
    for path, fn in edits:
        with open(os.path.join(root, path)) as f:
            old = f.read()
        new = fn(old)
        out.append("".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                f"a/{path}", f"b/{path}")))
    with open(os.path.join(V, name), "w") as f:
        f.write("".join(out))
    print(f"wrote {os.path.relpath(os.path.join(V, name), ROOT)}")


# L1: the fold as btrl, another single unlocked instruction: passes
write('L1-btr-fold.patch', '''lab: L1
what: the fold as btrl $31 on %gs:8, another single unlocked instruction
expect: pass
''', 'L1', [
 ('kernel/preempt.h', lambda s: replace_stub(s, 'preempt_fold_need_resched',
  '\tif (!tif_need_resched())\n\t\treturn false;\n\t/* bit 31 of this CPU\'s count, cleared by one unlocked instruction */\n\t__asm__ __volatile__("btrl $31, %%gs:%c0" ::"i"(PERCPU_OFF(preempt_count)) : "memory");\n\treturn true;')),
 ('arch/x86_64/preempt/folded.h', lambda s: replace_stub(s, 'preempt_model_scheduler_ipi',
  '\tbool folded = preempt_fold_need_resched();\n\tif (folded)\n\t\tthis_cpu_stat_inc(folds);')),
])
# L1: a lock-prefixed fold: fails the instruction check only
write('L1-lock-fold.patch', '''lab: L1
what: the fold as `lock andl`: right, but a locked instruction
expect: fail
fails: fold_is_one_unlocked_instruction is a locked fold
''', 'L1', [
 ('kernel/preempt.h', lambda s: replace_stub(s, 'preempt_fold_need_resched',
  '\tif (!tif_need_resched())\n\t\treturn false;\n\t__asm__ __volatile__("lock andl %0, %%gs:%c1" ::"i"(~PREEMPT_NEED_RESCHED),\n\t\t\t     "i"(PERCPU_OFF(preempt_count)) : "memory");\n\treturn true;')),
 ('arch/x86_64/preempt/folded.h', lambda s: replace_stub(s, 'preempt_model_scheduler_ipi',
  '\tif (preempt_fold_need_resched())\n\t\tthis_cpu_stat_inc(folds);')),
])
# L1: the fold done by the requesting CPU (racy's idea): fails
def remote_core(s):
    old='\tpreempt_model_resched_remote(cpu); /* racy: clears bit 31 from here */\n'
    assert old in s
    return s.replace(old, old+'\t/* fold it for the target, from here */\n\t__atomic_fetch_and(&per_cpu(preempt_count, cpu), ~PREEMPT_NEED_RESCHED, __ATOMIC_SEQ_CST);\n')
write('L1-remote-fold.patch', '''lab: L1
what: the requester clears bit 31 of the target's count itself; the IPI only counts
expect: fail
fails: ipi_folds_on_owner was cleared from CPU 0
fails: fold_is_one_unlocked_instruction from the requesting CPU
''', 'L1', [
 ('kernel/preempt.h', lambda s: replace_stub(s, 'preempt_fold_need_resched',
  '\tif (!tif_need_resched())\n\t\treturn false;\n\tset_preempt_need_resched();\n\treturn true;')),
 ('arch/x86_64/preempt/folded.h', lambda s: replace_stub(s, 'preempt_model_scheduler_ipi',
  '\tif (tif_need_resched() && !(preempt_count_raw() & PREEMPT_NEED_RESCHED))\n\t\tthis_cpu_stat_inc(folds); /* the sender folded it already */')),
 ('sched/core.c', remote_core),
])
# L2: the exit's test as a load and a test: fails the instruction check only
write('L2-load-and-test.patch', '''lab: L2
what: the exit's test as preempt_count_raw() == 0: a load, then a test
expect: fail
fails: exit_test_is_one_compare not one compare of %gs:0x8 itself
''', 'L2', [
 ('arch/x86_64/preempt/bit31.h', lambda s: replace_stub(s, 'arch_irqentry_exit_need_resched',
  '\treturn preempt_count_raw() == 0;')),
 ('arch/x86_64/entry/irq.c', lambda s: replace_stub(s, 'irqentry_exit',
  '\tif ((regs->rflags & X86_EFLAGS_IF) && arch_irqentry_exit_need_resched())\n\t\tirqentry_exit_cond_resched();')),
])
# L2: the compare's answer kept by sete and tested again: fails the
# instruction check, whose message quotes the three instructions on the
# exit's own path (not the return to user mode's load of the count)
write('L2-sete-test.patch', '''lab: L2
what: the exit's test as asm cmpl $0, %gs:8 with sete into a bool: cmpl, sete, test, je
expect: fail
fails: exit_test_is_one_compare is `cmpl $0x0,%gs:0x8; sete
fails: exit_test_is_one_compare it keeps the compare's answer (`sete
''', 'L2', [
 ('arch/x86_64/preempt/bit31.h', lambda s: replace_stub(s, 'arch_irqentry_exit_need_resched',
  '\tbool zero;\n\t__asm__ __volatile__("cmpl $0, %%gs:%c1\\n\\tsete %0"\n\t\t\t     : "=q"(zero)\n\t\t\t     : "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))\n\t\t\t     : "memory");\n\treturn zero;')),
 ('arch/x86_64/entry/irq.c', lambda s: replace_stub(s, 'irqentry_exit',
  '\tif (!(regs->rflags & X86_EFLAGS_IF))\n\t\treturn;\n\tif (arch_irqentry_exit_need_resched())\n\t\tirqentry_exit_cond_resched();')),
])
# L3: no IPI for a remote request: fails
write('L3-no-ipi.patch', '''lab: L3
what: a remote request sets the flag but sends no IPI
expect: fail
fails: remote_request_sends_one_ipi 0 IPIs sent
fails: halted_idle_gets_an_ipi 0 IPIs sent
fails: request_from_the_other_cpu 0 IPIs sent
fails: every_kernel_suite_passes
''', 'L3', [
 ('sched/core.c', lambda s: replace_stub(s, '__resched_curr',
  '\tu64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);\n\tif (cpu == raw_smp_processor_id()) {\n\t\tset_preempt_need_resched();\n\t\treturn;\n\t}\n\tif (old & _TIF_POLLING_NRFLAG)\n\t\tthis_cpu_stat_inc(resched_ipi_avoided);\n\t/* the target will see the flag soon enough */')),
])
# L4: a lazy request that sends an IPI: fails
write('L4-lazy-ipi.patch', '''lab: L4
what: a lazy request sets the lazy flag, then sends the RESCHEDULE IPI anyway
expect: fail
fails: lazy_request_sets_only_the_flag received there
fails: every_kernel_suite_passes
''', 'L4', [
 ('sched/core.c', lambda s: replace_stub(replace_stub(s, 'lazy_request_ok',
   '\treturn preempt_mode_lazy() && curr->prio == PRIO_NORMAL && curr != rqs[cpu].idle;'),
   '__resched_curr',
   '\tu64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED_LAZY, __ATOMIC_SEQ_CST);\n\tif (!(old & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)))\n\t\tthis_cpu_stat_inc(resched_lazy);\n\tif (cpu != raw_smp_processor_id())\n\t\tsmp_send_reschedule(cpu); /* let it know at once */\n\treturn;')),
 ('sched/wake.c', lambda s: replace_stub(s, 'scheduler_tick',
  '\tif (READ_ONCE(curr->flags) & _TIF_NEED_RESCHED_LAZY) {\n\t\tif (!(READ_ONCE(curr->flags) & _TIF_NEED_RESCHED))\n\t\t\tthis_cpu_stat_inc(lazy_promoted);\n\t\tresched_curr(cpu);\n\t}')),
])
# L4: a promotion that waits, IRQs off, for the request to be served: the
# tick never returns; the case runs out of time and the run ends there
write('L4-tick-spins.patch', '''lab: L4
what: the promotion waits, IRQs off, until the request is served: never
expect: fail
fails: tick_promotes_the_request virtual ms
fails: lazy_counts_only_new_requests the run bailed out: lab: CPU 1 has taken no interrupt
fails: lazy_is_full_for_fifo_idle_and_full the run bailed out
fails: lazy_never_reaches_the_count the run bailed out
fails: normal_wakeup_waits_for_the_tick the run bailed out
fails: every_kernel_suite_passes
''', 'L4', [
 ('sched/core.c', lambda s: replace_stub(replace_stub(s, 'lazy_request_ok',
   '\treturn preempt_mode_lazy() && curr->prio == PRIO_NORMAL && curr != rqs[cpu].idle;'),
   '__resched_curr',
   '\tu64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED_LAZY, __ATOMIC_SEQ_CST);\n\tif (!(old & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)))\n\t\tthis_cpu_stat_inc(resched_lazy);\n\treturn;')),
 ('sched/wake.c', lambda s: replace_stub(s, 'scheduler_tick',
  '\tif (READ_ONCE(curr->flags) & _TIF_NEED_RESCHED_LAZY) {\n\t\tthis_cpu_stat_inc(lazy_promoted);\n\t\tresched_curr(cpu);\n\t\twhile (READ_ONCE(curr->flags) & _TIF_NEED_RESCHED_LAZY)\n\t\t\t; /* until it is served */\n\t}')),
])
# L1: a fold that also clears TIF_NEED_RESCHED in the thread: the count
# folds, but a thread interrupted in user mode goes back there unserved
write('L1-fold-clears-flag.patch', '''lab: L1
what: the fold moves the flag into the count: it clears TIF_NEED_RESCHED in the thread too
expect: fail
fails: fold_copies_the_flag cleared TIF_NEED_RESCHED in the thread
fails: user_request_served_at_return at the IPI's return to user mode
fails: every_kernel_suite_passes
''', 'L1', [
 ('kernel/preempt.h', lambda s: replace_stub(s, 'preempt_fold_need_resched',
  '\tif (!tif_need_resched())\n\t\treturn false;\n\t/* moved into the count: the thread\'s copy is done with */\n\t__atomic_fetch_and((volatile u64 *)this_cpu_read(current), ~_TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);\n\tset_preempt_need_resched();\n\treturn true;')),
 ('arch/x86_64/preempt/folded.h', lambda s: replace_stub(s, 'preempt_model_scheduler_ipi',
  '\tif (preempt_fold_need_resched())\n\t\tthis_cpu_stat_inc(folds);')),
])
# L3: the flag set by a load, an or and a store: right on one CPU, and a
# lost write when another CPU writes the flags in between
write('L3-plain-flag-store.patch', '''lab: L3
what: TIF_NEED_RESCHED set by READ_ONCE and WRITE_ONCE: a load, an or, a store
expect: fail
fails: flag_set_is_one_locked_instruction loaded, changed and stored back
''', 'L3', [
 ('sched/core.c', lambda s: replace_stub(s, '__resched_curr',
  '\tu64 old = READ_ONCE(curr->flags);\n\tWRITE_ONCE(curr->flags, old | _TIF_NEED_RESCHED);\n\tif (cpu == raw_smp_processor_id()) {\n\t\tset_preempt_need_resched();\n\t\treturn;\n\t}\n\tif (old & _TIF_NEED_RESCHED)\n\t\treturn;\n\tpreempt_model_resched_remote(cpu);\n\tif (old & _TIF_POLLING_NRFLAG) {\n\t\tthis_cpu_stat_inc(resched_ipi_avoided);\n\t\treturn;\n\t}\n\tthis_cpu_stat_inc(resched_ipi_sent);\n\tsmp_send_reschedule(cpu);')),
])
# L4: every lazy request counted, a pending one's too
write('L4-lazy-counted-twice.patch', '''lab: L4
what: resched_lazy counted for every lazy request, one already pending too
expect: fail
fails: lazy_counts_only_new_requests the first still pending, counted
''', 'L4', [
 ('sched/core.c', lambda s: replace_stub(replace_stub(s, 'lazy_request_ok',
   '\treturn preempt_mode_lazy() && curr != rqs[cpu].idle && curr->prio == PRIO_NORMAL;'),
   '__resched_curr',
   '\t\t__atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED_LAZY, __ATOMIC_SEQ_CST);\n\t\tthis_cpu_stat_inc(resched_lazy);\n\t\treturn;')),
 ('sched/wake.c', lambda s: replace_stub(s, 'scheduler_tick',
  '\tu64 flags = READ_ONCE(curr->flags);\n\tif (flags & _TIF_NEED_RESCHED_LAZY) {\n\t\tif (!(flags & _TIF_NEED_RESCHED))\n\t\t\tthis_cpu_stat_inc(lazy_promoted);\n\t\tresched_curr(cpu);\n\t}')),
])
# L4: the lazy flag set by a load, an or and a store: right alone, and a
# lost write when the target's schedule() clears its flags in between
write('L4-lazy-plain-flag.patch', '''lab: L4
what: TIF_NEED_RESCHED_LAZY set by READ_ONCE and WRITE_ONCE: a load, an or, a store
expect: fail
fails: lazy_flag_set_is_one_locked_instruction loaded, changed and stored back
''', 'L4', [
 ('sched/core.c', lambda s: replace_stub(replace_stub(s, 'lazy_request_ok',
   '\treturn preempt_mode_lazy() && curr != rqs[cpu].idle && curr->prio == PRIO_NORMAL;'),
   '__resched_curr',
   '\t\tu64 old = READ_ONCE(curr->flags);\n\t\tWRITE_ONCE(curr->flags, old | _TIF_NEED_RESCHED_LAZY);\n\t\tif (!(old & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)))\n\t\t\tthis_cpu_stat_inc(resched_lazy);\n\t\treturn;')),
 ('sched/wake.c', lambda s: replace_stub(s, 'scheduler_tick',
  '\tu64 flags = READ_ONCE(curr->flags);\n\tif (flags & _TIF_NEED_RESCHED_LAZY) {\n\t\tif (!(flags & _TIF_NEED_RESCHED))\n\t\t\tthis_cpu_stat_inc(lazy_promoted);\n\t\tresched_curr(cpu);\n\t}')),
])
# L5: the sender's test without EXIT_TO_USER_MODE_WORK: a killed sender
# blocks by the fast path (handoff_ok() still sends a reschedule slow)
def l5_no_work(s):
    s = replace_stub(s, 'ipc_fastpath', '\tif (regs->rsi & TAG_SLOW)\n\t\treturn slow;')
    return replace_stub(s, 'ipc_fastpath', '\tif (!ipc_partner_here(me, to->t, cpu))\n\t\tgoto out_ipc;')
write('L5-ignores-pending-work.patch', '''lab: L5
what: the sender's test is the tag's alone: work pending for the sender is not looked at
expect: fail
fails: pending_work_takes_the_slow_path which acts on the signal before the sender blocks
''', 'L5', [('ipc/fastpath.c', l5_no_work)])
# L6: the three holes, right, for the variants that get one of them wrong
L6_ENQUEUE = ('\tstruct rt_mutex_waiter *it;\n\tlist_for_each_entry(it, &m->waiters, node) {\n'
              '\t\tif (it->prio < w->prio) {\n\t\t\tlist_add_tail(&w->node, &it->node);\n'
              '\t\t\treturn;\n\t\t}\n\t}\n\tlist_add_tail(&w->node, &m->waiters);')
L6_CHAIN = ('\t\tint prio = pi_prio(o);\n\t\tif (prio == o->prio)\n\t\t\treturn;\n'
            '\t\trt_mutex_setprio(o, prio);\n\t\tstruct rt_mutex_waiter *ow = o->pi_blocked_on;\n'
            '\t\tif (!ow)\n\t\t\treturn;\n\t\tlist_del(&ow->node);\n\t\tow->prio = prio;\n'
            '\t\twaiter_enqueue(ow->lock, ow);\n\t\tm = ow->lock;')
L6_UNLOCK = '\tint prio = pi_prio(me);\n\tif (prio != me->prio)\n\t\trt_mutex_setprio(me, prio);'


def l6(enqueue=L6_ENQUEUE, chain=L6_CHAIN, unlock=L6_UNLOCK):
    return [('kernel/locking/rtmutex.c', lambda s: replace_stub(replace_stub(replace_stub(
        s, 'waiter_enqueue', enqueue), 'adjust_chain', chain), 'rt_mutex_slowunlock', unlock))]


# L6: the walk boosts the first owner and stops there
write('L6-boosts-first-owner-only.patch', """lab: L6
what: adjust_chain() boosts the lock's owner but never goes on along the chain
expect: fail
fails: chain_boosts_the_far_owner the owners of L0 (the far one)
fails: requeue_keeps_the_waiters_ordered B boosted while waiting on L2
fails: every_kernel_suite_passes rt.pi_chain
""", 'L6', l6(chain='\t\tint prio = pi_prio(o);\n\t\tif (prio != o->prio)\n'
               '\t\t\trt_mutex_setprio(o, prio);\n\t\treturn; /* the owner is boosted: done */'))
# L6: the release drops the owner to its own priority, whatever it holds
write('L6-unlock-drops-to-own.patch', """lab: L6
what: rt_mutex_slowunlock() drops the owner to its normal_prio, though it holds a lock with waiters
expect: fail
fails: boost_ends_at_release (expected
""", 'L6', l6(unlock='\tif (me->prio != me->normal_prio)\n'
                '\t\trt_mutex_setprio(me, me->normal_prio); /* the boost ends */'))
# L6: waiters queued in arrival order: the first queued is woken
write('L6-wakes-first-queued.patch', """lab: L6
what: waiter_enqueue() queues at the tail, so a release wakes the first waiter to come, not the top one
expect: fail
fails: woken_waiter_is_the_top_one waiters on one lock
fails: requeue_keeps_the_waiters_ordered B boosted while waiting on L2
""", 'L6', l6(enqueue='\tlist_add_tail(&w->node, &m->waiters); /* first come, first served */'))


# L7: the flags read once: the work they named done, none that came meanwhile
write('L7-reads-once.patch', '''lab: L7
what: the flags read once, their work done, and no second read: work that comes meanwhile is left
expect: fail
fails: request_during_work_served_before_return the loop returned with it still set
fails: signal_set_while_scheduling_is_seen the loop returned with it still set
''', 'L7', [('kernel/entry/common.c', lambda s: replace_stub(s, 'exit_to_user_mode_loop',
  '\tu64 work = READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK;\n\tlocal_irq_enable();\n\tif (work & _TIF_SIGPENDING) {\n\t\tif (fatal_signal_pending(t->proc))\n\t\t\tdo_exit(W_SIGNALED(t->proc->kill_sig));\n\t\t__atomic_fetch_and(&t->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);\n\t}\n\tif (work & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))\n\t\tschedule();\n\tlocal_irq_disable();'))])
# L7: schedule() for TIF_NEED_RESCHED only: a lazy request waits for the
# tick that promotes it (the loop spins meanwhile)
write('L7-ignores-lazy.patch', '''lab: L7
what: schedule() for TIF_NEED_RESCHED only: a lazy request is left to the tick's promotion
expect: fail
fails: lazy_request_served_at_return_to_user before any tick
fails: every_kernel_suite_passes lazy.lazy_user_hog_switches_at_return_to_user
''', 'L7', [('kernel/entry/common.c', lambda s: replace_stub(s, 'exit_to_user_mode_loop',
  '\tfor (;;) {\n\t\tu64 work = READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK;\n\t\tif (!work)\n\t\t\tbreak;\n\t\tlocal_irq_enable();\n\t\tif (work & _TIF_SIGPENDING) {\n\t\t\tif (fatal_signal_pending(t->proc))\n\t\t\t\tdo_exit(W_SIGNALED(t->proc->kill_sig));\n\t\t\t__atomic_fetch_and(&t->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);\n\t\t}\n\t\tif (work & _TIF_NEED_RESCHED)\n\t\t\tschedule();\n\t\tlocal_irq_disable();\n\t}'))])
# L7: the signal's work with IRQs still off, IRQs on only around schedule()
write('L7-signal-irqs-off.patch', '''lab: L7
what: the signal's work done with IRQs still off; IRQs on only around schedule()
expect: fail
fails: work_runs_with_irqs_on it came with some of the work done already
''', 'L7', [('kernel/entry/common.c', lambda s: replace_stub(s, 'exit_to_user_mode_loop',
  '\tfor (;;) {\n\t\tu64 work = READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK;\n\t\tif (!work)\n\t\t\tbreak;\n\t\tif (work & _TIF_SIGPENDING) {\n\t\t\tif (fatal_signal_pending(t->proc))\n\t\t\t\tdo_exit(W_SIGNALED(t->proc->kill_sig));\n\t\t\t__atomic_fetch_and(&t->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);\n\t\t}\n\t\tlocal_irq_enable();\n\t\tif (work & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))\n\t\t\tschedule();\n\t\tlocal_irq_disable();\n\t}'))])
# L7: TIF_SIGPENDING cleared by a load, an and and a store
write('L7-plain-signal-clear.patch', '''lab: L7
what: TIF_SIGPENDING cleared by READ_ONCE and WRITE_ONCE: a load, an and, a store
expect: fail
fails: signal_clear_is_one_locked_instruction loaded, changed and stored back
''', 'L7', [('kernel/entry/common.c', lambda s: replace_stub(s, 'exit_to_user_mode_loop',
  '\tfor (;;) {\n\t\tu64 work = READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK;\n\t\tif (!work)\n\t\t\tbreak;\n\t\tlocal_irq_enable();\n\t\tif (work & _TIF_SIGPENDING) {\n\t\t\tif (fatal_signal_pending(t->proc))\n\t\t\t\tdo_exit(W_SIGNALED(t->proc->kill_sig));\n\t\t\tWRITE_ONCE(t->flags, READ_ONCE(t->flags) & ~_TIF_SIGPENDING);\n\t\t}\n\t\tif (work & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))\n\t\t\tschedule();\n\t\tlocal_irq_disable();\n\t}'))])
shutil.rmtree(TMP)
