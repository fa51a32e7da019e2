"""Starting and stopping processes: timeouts, process groups, the terminal.

A batch child (QEMU under the harness, GDB's QEMU) runs in its own session:
no Ctrl-C from the terminal and no signal to our process group reaches it,
so it is stopped only through us, and stop() takes its whole process group
(SIGTERM, then SIGKILL). ProcessSet remembers what it started, for a Ctrl-C
handler on another thread. run_in_foreground() is the other case: a program
the user talks to (GDB) gets the terminal as a shell would give it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass


def signal_name(number: int) -> str:
    """15 -> 'SIGTERM' (or 'signal 99' for a number with no name)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def start(cmd: list[str], *, output: str | None = None, cwd: str | None = None,
          env: dict | None = None, session: bool = True) -> subprocess.Popen:
    """cmd with stdin from /dev/null, stdout and stderr into the file output
    (a path; None: discarded), in a session of its own unless session=False.
    Raises OSError if it cannot be started."""
    out = open(output, "w") if output else subprocess.DEVNULL
    try:
        return subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=session)
    finally:
        if output:
            out.close()


def _signal(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)        # the group: anything it started too
        return
    except ProcessLookupError:
        pass                            # not a group leader, or gone
    except PermissionError:
        pass
    try:
        proc.send_signal(sig)
    except (ProcessLookupError, PermissionError):
        pass


def stop(proc: subprocess.Popen, term_grace: float = 2.0,
         kill_grace: float = 5.0) -> None:
    """Stop proc and its process group: SIGTERM, and SIGKILL if it is still
    there term_grace seconds later. Returns once it has been reaped (or
    kill_grace seconds after the SIGKILL)."""
    if proc.poll() is not None:
        return
    for sig, grace in ((signal.SIGTERM, term_grace), (signal.SIGKILL, kill_grace)):
        _signal(proc, sig)
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


@dataclass
class Finished:
    """How a run() ended."""

    returncode: int | None = None   # None: timed out (and stopped), or never started
    timed_out: bool = False
    seconds: float = 0.0
    error: str = ""                 # why it could not be started


class ProcessSet:
    """Runs processes with a timeout and remembers the running ones, so
    that kill_all() (from a Ctrl-C handler, another thread) leaves none
    behind."""

    def __init__(self):
        self._running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()

    def run(self, cmd: list[str], *, timeout: float | None = None,
            output: str | None = None, cwd: str | None = None,
            env: dict | None = None, stop_when=None) -> Finished:
        """cmd (as start() starts it), waited for up to timeout seconds;
        at the timeout, or on an exception such as KeyboardInterrupt, it is
        stopped; and as soon as stop_when(), asked twice a second, is
        true (a process that will never end by itself)."""
        t0 = time.monotonic()
        try:
            proc = start(cmd, output=output, cwd=cwd, env=env)
        except OSError as e:
            return Finished(error=str(e), seconds=time.monotonic() - t0)
        with self._lock:
            self._running.add(proc)
        result = Finished()
        end = None if timeout is None else t0 + timeout
        try:
            while True:
                left = None if end is None else max(0.0, end - time.monotonic())
                if stop_when:
                    left = 0.5 if left is None else min(0.5, left)
                try:
                    result.returncode = proc.wait(timeout=left)
                    break
                except subprocess.TimeoutExpired:
                    if end is not None and time.monotonic() >= end:
                        result.timed_out = True
                        break
                    if stop_when and stop_when():
                        break
        finally:
            if proc.poll() is None:
                stop(proc)
            with self._lock:
                self._running.discard(proc)
            result.seconds = time.monotonic() - t0
        return result

    def kill_all(self) -> None:
        with self._lock:
            procs = list(self._running)
        for proc in procs:
            stop(proc)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def interrupt_on_sigterm() -> None:
    """From now on SIGTERM raises KeyboardInterrupt, as Ctrl-C does. The
    children run in their own sessions, out of reach of a CI job's kill of
    our group: it must come through the same clean-up as a Ctrl-C."""
    signal.signal(signal.SIGTERM, _interrupt)


def run_in_foreground(cmd: list[str]) -> int:
    """Run cmd as the terminal's foreground job, as a shell would, so that
    Ctrl-C reaches only it (in GDB, Ctrl-C interrupts the guest; make and
    the caller must not die of it). Returns its exit status."""
    # Should Ctrl-C still reach us (no terminal to hand over), survive it;
    # a handler, unlike SIG_IGN, is reset to the default in the child.
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        tty = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        return subprocess.call(cmd)
    try:
        fg = os.tcgetpgrp(tty)
    except OSError:
        fg = -1
    if fg != os.getpgrp():          # not in the foreground (make gdb &)
        os.close(tty)
        return subprocess.call(cmd)

    def child():
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.setpgid(0, 0)
        os.tcsetpgrp(tty, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)

    old = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        p = subprocess.Popen(cmd, preexec_fn=child, pass_fds=(tty,))
        return p.wait()
    finally:
        os.tcsetpgrp(tty, fg)       # the terminal back to the caller's group
        signal.signal(signal.SIGTTOU, old)
        os.close(tty)
