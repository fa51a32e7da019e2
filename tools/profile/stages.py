"""The stages of a path, for the profile's per-stage table: each function
of fold that the timer wake-up and context-switch paths run, by the job it
does there. The first pattern that matches a function's name wins (fnmatch
patterns); a function no pattern names shows as "other", so a new function
on the path is seen, not hidden in a stage."""

from __future__ import annotations

import fnmatch

STAGES = [
    # User mode (execlog.USER): the benchmark's programs.
    ("user", ["(user)"]),
    # Taking and dropping locks, whoever does it.
    ("locks", ["*spin_lock*", "*spin_unlock*", "*spin_trylock*", "lockdep_*"]),
    # Interrupt entry and exit: the stub, the register save and restore
    # (arch/x86_64/entry/entry.asm), deciding the exit (irqentry_exit).
    ("entry/exit", ["vector_stub_*", "common_entry", "error_entry", "irqentry_*",
                    "restore_*", "irq_return*", "entry_SYSCALL_64*", "do_syscall_*",
                    "syscall_exit_to_user_mode", "exit_to_user_mode*", "swapgs_*"]),
    # IPC: the fast path's checks and message, the slow path's operations.
    ("ipc", ["ipc_*", "sys_ipc_*", "deliver", "transfer", "load_msg", "handle_lookup",
             "do_send", "recv_queued", "reply_locked", "link_reply", "lookup_ep",
             "switch_or_wake"]),
    # A system call's own work, from its table (process/syscall.c).
    ("call", ["sys_*", "current_process"]),
    # Finding the handler and acknowledging the interrupt.
    ("dispatch", ["irq_dispatch", "handle_irq", "apic_*", "lapic_*", "x2apic_*",
                  "xapic_*"]),
    # The hrtimer queue and the LAPIC timer.
    ("timer", ["timer_interrupt", "hrtimer_*", "__hrtimer_*", "reprogram*",
               "arch_timer_*", "tick_*", "sched_tick*", "sleeper_wake"]),
    # Reading the clock.
    ("clock", ["ktime_get*", "rdtsc*", "tsc_*", "clock_*"]),
    # Making a thread runnable.
    ("wake-up", ["wake_up*", "try_to_wake_up", "ttwu*", "enqueue*", "select_cpu",
                 "resched_curr*", "complete*", "activate*", "check_preempt*"]),
    # Deciding to switch and choosing the next thread.
    ("schedule", ["schedule", "__schedule", "preempt_schedule*", "pick_next*",
                  "sched_handoff*", "handoff_ok*",
                  "rq_first_queued", "dequeue*", "__might_sleep", "might_resched",
                  "cond_resched", "preempt_count_*", "*_cond_resched"]),
    # The switch itself: stacks, address space, TSS.RSP0, the count fold.
    ("switch", ["context_switch", "switch_to*", "finish_switch*", "switch_prepare",
                "switch_mm*", "kernel_cr3", "tss_set_rsp0", "*tss_load_io_bitmap",
                "thread_start"]),
    # Waiting: queueing on a wait queue and blocking.
    ("wait", ["wait_for_completion*", "prepare_to_wait*", "finish_wait*",
              "sleep_until*", "do_sleep_until", "sleep_ns", "wait_event*"]),
    # The benchmark's own code.
    ("benchmark", ["measure", "pp_a", "pp_b", "thread_exit", "thread_join"]),
    # The idle loop (a wake-up from idle starts there).
    ("idle", ["cpu_idle", "idle_*", "default_idle*", "arch_cpu_idle*"]),
]


def stage_of(function: str) -> str:
    for stage, patterns in STAGES:
        for p in patterns:
            if fnmatch.fnmatchcase(function, p):
                return stage
    return "other"
