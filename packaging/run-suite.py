#!/usr/bin/env python3
"""Runs `swift test` with a bound on its time, and says what was still running if it ends there.

    packaging/run-suite.py --bound SECONDS [--name NAME] -- SWIFT-TEST-ARGUMENTS...

`make test` runs the suite through this so that a run which hangs ends with a report instead of
being killed silently by CI's own limit. Swift Testing's event stream (JSON Lines, one event per
test started or ended) goes to a scratch file. If the suite has not ended after SECONDS:

  * the tests that started and did not end, with how long they have been running;
  * every process of the run (its session): state, CPU time, kernel wait channel, threads at a
    real-time policy, kernel stack where readable (as root), command line;
  * the load and memory of the machine;

then the whole session is killed (SIGKILL) and this exits 1. A process that does not go within
30 s of SIGKILL (one stuck in the kernel) is named and left: this still exits, so `make test`
ends. SIGINT and SIGTERM are passed on to the run. Otherwise the exit status is the suite's.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time


def events(path):
    """The events of the stream so far (lines that are not whole JSON yet are skipped)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for line in stream:
                try:
                    yield json.loads(line)
                except ValueError:
                    continue
    except OSError:
        return


def unfinished(path, now):
    """(seconds running, test ID) of every test and test case started and not ended."""
    running = {}
    for record in events(path):
        payload = record.get("payload") or {}
        kind, test = payload.get("kind"), payload.get("testID")
        if test is None:
            continue
        case = json.dumps(payload.get("testCase")) if "testCase" in payload else ""
        key = (test, case)
        if kind in ("testStarted", "testCaseStarted"):
            running[key] = (payload.get("instant") or {}).get("since1970", now)
        elif kind in ("testEnded", "testCaseEnded", "testSkipped"):
            running.pop(key, None)
    return sorted(((now - started, test) for (test, _), started in running.items()), reverse=True)


def read(path, limit=4096):
    try:
        with open(path, "rb") as file:
            return file.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


def session_processes(session):
    """(pid, ppid, state, cpu seconds, command) of every living process in `session`."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        stat = read(f"/proc/{name}/stat")
        close = stat.rfind(")")
        if close < 0:
            continue
        fields = stat[close + 2:].split()
        if len(fields) < 15 or int(fields[3]) != session:
            continue
        command = read(f"/proc/{name}/cmdline", 300).replace("\0", " ").strip() or stat[stat.find("(") + 1:close]
        cpu = (int(fields[11]) + int(fields[12])) / ticks
        found.append((int(name), int(fields[1]), fields[0], cpu, command))
    return sorted(found)


def real_time(pid):
    """', real-time threads: TID (FIFO 99), ...' for each of `pid`'s threads at a real-time policy."""
    names = {os.SCHED_FIFO: "FIFO", os.SCHED_RR: "RR"}
    found = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return ""
    for thread in threads:
        try:
            policy = os.sched_getscheduler(int(thread)) & ~0x40000000
            if policy in names:
                found.append(f"{thread} ({names[policy]} {os.sched_getparam(int(thread)).sched_priority})")
        except OSError:
            continue
    return ", real-time threads: " + ", ".join(found) if found else ""


def report(name, bound, stream, session):
    now = time.time()
    lines = [f"run-suite: {name} did not finish within {bound} s; what was running:"]
    running = unfinished(stream, now)
    lines += [f"  test running for {seconds:7.1f} s: {test}" for seconds, test in running] or ["  (no test had started and not ended)"]
    for pid, ppid, state, cpu, command in session_processes(session):
        wchan = read(f"/proc/{pid}/wchan", 200) or "-"
        lines.append(f"  process {pid} (parent {ppid}) state {state}, {cpu:.1f} s CPU, waiting in {wchan}{real_time(pid)}: {command[:200]}")
        stack = read(f"/proc/{pid}/stack").strip()
        if stack and state in "DR":
            lines += ["      " + frame for frame in stack.splitlines()[:16]]
    lines.append("  load: " + read("/proc/loadavg").strip())
    memory = dict(line.split(":", 1) for line in read("/proc/meminfo").splitlines() if ":" in line)
    lines.append("  memory: " + ", ".join(f"{key} {memory.get(key, '?').strip()}" for key in ("MemAvailable", "Cached", "Shmem", "SReclaimable")))
    print("\n".join(lines), file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bound", type=int, required=True, help="seconds the suite may take")
    parser.add_argument("--name", default="the suite", help="what to call the run in messages")
    parser.add_argument("swift_test", nargs=argparse.REMAINDER, help="arguments for swift test (after --)")
    options = parser.parse_args()
    arguments = options.swift_test[1:] if options.swift_test[:1] == ["--"] else options.swift_test
    if options.bound <= 0:
        parser.error("--bound must be a positive number of seconds")

    with tempfile.TemporaryDirectory(prefix="slicevid-suite-") as scratch:
        stream = os.path.join(scratch, "events.jsonl")
        swift = os.environ.get("SWIFT", "swift")
        child = subprocess.Popen([swift, "test", *arguments, "--event-stream-output-path", stream, "--event-stream-version", "0"],
                                 start_new_session=True)

        def pass_on(number, _frame):
            try:
                os.killpg(child.pid, number)
            except ProcessLookupError:
                pass
        signal.signal(signal.SIGINT, pass_on)
        signal.signal(signal.SIGTERM, pass_on)

        try:
            status = child.wait(timeout=options.bound)
            return status if status >= 0 else 128 - status
        except subprocess.TimeoutExpired:
            report(options.name, options.bound, stream, child.pid)
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        # SIGKILL is delivered at once, but a process stuck in the kernel goes only when it leaves.
        deadline = time.monotonic() + 30
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        while (left := [p for p in session_processes(child.pid) if p[2] != "Z"]) and time.monotonic() < deadline:
            time.sleep(0.2)
        for pid, _, state, cpu, command in left:
            print(f"run-suite: process {pid} (state {state}, {cpu:.1f} s CPU) did not go within 30 s of SIGKILL; left running: {command[:200]}", file=sys.stderr)
        print(f"run-suite: {options.name} failed: it did not finish within {options.bound} s", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
