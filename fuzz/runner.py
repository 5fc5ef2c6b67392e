"""Runs slicevid for one case: time-bounded, memory-capped, its peak RSS measured by wait4.

Every child runs in its own session, so a hang is ended with its whole process group. The
wait is on the child's pidfd (an event), never a polling sleep.
"""

import os
import resource
import select
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Result:
    """What one slicevid process did."""
    argv: list
    code: int = 0            # exit status as subprocess reports it: negative for a signal
    seconds: float = 0.0
    peak_rss_mib: float = 0.0
    timed_out: bool = False
    obeyed_sigterm: bool = True  # after a timeout: whether one SIGTERM ended it
    stdout: bytes = b""
    stderr: bytes = b""
    signals_sent: list = field(default_factory=list)


@dataclass
class Limits:
    """Bounds every run is held to."""
    timeout: float = 5.0           # seconds before a run counts as hung
    term_grace: float = 2.0        # seconds a hung run gets to obey SIGTERM before SIGKILL
    address_space_gib: float = 4.0  # RLIMIT_AS: keeps a runaway from swapping the shared machine
    file_size_mib: int = 256       # RLIMIT_FSIZE: a 32x18 clip never needs more


def apply_limits(limits):
    """Caps this process's address space and file sizes, and turns core dumps off; called once
    in each worker, so every child inherits the caps (no preexec function: spawning stays fast)."""
    address_space = int(limits.address_space_gib * 1024 ** 3)
    file_size = limits.file_size_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class Child:
    """One started slicevid process, its output going to files outside the scratch tree."""

    def __init__(self, argv, cwd, env, logs, name, limits, stdout=""):
        self.argv = argv
        self.limits = limits
        self.out_path = os.path.join(logs, name + ".out")
        self.err_path = os.path.join(logs, name + ".err")
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            # Standard output may instead be /dev/full, or a pipe whose reading end is closed.
            sink = out
            if stdout == "full":
                sink = os.open("/dev/full", os.O_WRONLY | os.O_CLOEXEC)
            elif stdout == "closed-pipe":
                reading, sink = os.pipe()
                os.close(reading)
            self.start = time.perf_counter()
            try:
                self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=sink, stderr=err,
                                             start_new_session=True)
            finally:
                if sink is not out:
                    os.close(sink)
        self.pidfd = os.pidfd_open(self.proc.pid)
        self.result = Result(argv=list(argv))

    def wait_for_exit(self, seconds):
        """Waits until the process exits or `seconds` pass; True when it has exited."""
        ready, _, _ = select.select([self.pidfd], [], [], max(0.0, seconds))
        return bool(ready)

    def send(self, signum):
        """Sends `signum` to the process (not its group: slicevid handles its own children)."""
        try:
            os.kill(self.proc.pid, signum)
            self.result.signals_sent.append(signal.Signals(signum).name)
        except ProcessLookupError:
            pass

    def finish(self, deadline):
        """Waits for exit until `deadline` (perf_counter); a hang gets SIGTERM, then SIGKILL.
        Reaps the child with wait4 and returns its Result."""
        result = self.result
        if not self.wait_for_exit(deadline - time.perf_counter()):
            result.timed_out = True
            self._kill_group(signal.SIGTERM)
            result.obeyed_sigterm = self.wait_for_exit(self.limits.term_grace)
            if not result.obeyed_sigterm:
                self._kill_group(signal.SIGKILL)
        _, status, usage = os.wait4(self.proc.pid, 0)
        self.proc.returncode = result.code = os.waitstatus_to_exitcode(status)
        result.seconds = time.perf_counter() - self.start
        result.peak_rss_mib = usage.ru_maxrss / 1024.0
        os.close(self.pidfd)
        # A killed process may have left children in its group (none expected): end them too.
        self._kill_group(signal.SIGKILL)
        with open(self.out_path, "rb") as out, open(self.err_path, "rb") as err:
            result.stdout, result.stderr = out.read(1 << 20), err.read(1 << 22)
        os.unlink(self.out_path)
        os.unlink(self.err_path)
        return result

    def _kill_group(self, signum):
        try:
            os.killpg(self.proc.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


class Rewriter:
    """Rewrites one file in place, over and over, while a run reads it: `target` gets the bytes
    of each of `versions` in turn (files in the case folder), each written as `cp` writes —
    truncated, then filled — as a designer's `cp new.ttf Brand.ttf` or an export beside the
    nightly run does. Runs on a thread until stopped (an event, never a sleep loop's guess)."""

    def __init__(self, cwd, target, versions):
        self.path = os.path.join(cwd, target)
        self.versions = []
        for version in versions:
            with open(os.path.join(cwd, version), "rb") as handle:
                self.versions.append(handle.read())
        self.stop = threading.Event()
        self.rewrites = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.is_set():
            for data in self.versions:
                with open(self.path, "r+b" if os.path.exists(self.path) else "wb") as handle:
                    handle.truncate(0)
                    # Half, then the rest: a reader may see either part.
                    handle.write(data[:len(data) // 2])
                    handle.flush()
                    handle.write(data[len(data) // 2:])
                self.rewrites += 1
                if self.stop.wait(0.002):
                    return

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def run_case_processes(runs, cwd, env, logs, limits, signal_plan=None, stdout="", sequential=False, during=None):
    """Starts every argv of `runs` at once (one for most cases, two for a race), optionally
    signals the first after a delay, and returns their Results in order.

    `signal_plan` is (delay, [signal numbers], gap): the first signal is sent `delay` seconds
    after the start, each further one `gap` seconds after the one before (unless the process
    has exited by then). `stdout` is the first run's standard output (see Child).
    `sequential` runs them one after another instead (a run, then the run that follows it);
    `during` is (target, [version files]): a Rewriter rewrites target while the last run runs."""
    if sequential:
        results = []
        for i, argv in enumerate(runs):
            last = i == len(runs) - 1
            rewriter = Rewriter(cwd, *during) if during and last else None
            child = Child(argv, cwd, env, logs, f"run{i}", limits, stdout if i == 0 else "")
            if rewriter:
                with rewriter:
                    results.append(child.finish(child.start + limits.timeout))
            else:
                results.append(child.finish(child.start + limits.timeout))
        return results
    children = []
    try:
        for i, argv in enumerate(runs):
            children.append(Child(argv, cwd, env, logs, f"run{i}", limits, stdout if i == 0 else ""))
        if signal_plan:
            delay, signals, gap = signal_plan
            for number, signum in enumerate(signals):
                if children[0].wait_for_exit(delay if number == 0 else gap):
                    break
                children[0].send(signum)
        deadline = children[0].start + limits.timeout
        results = [child.finish(deadline) for child in children]
        children = []
        return results
    finally:
        # Only on an exception (the harness itself interrupted): leave no process behind.
        for child in children:
            child._kill_group(signal.SIGKILL)
