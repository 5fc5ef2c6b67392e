"""The invariants every case is held to, each a function that returns findings.

A finding is (kind, detail). Kinds: crash, hang, undocumented-exit, wrong-exit,
damaged-rendered, message, control-characters, stray-line, left-behind, touched, replaced,
stale-kept, memory, race, report-missing.
"""

import fnmatch
import json
import os
import re
import signal
from dataclasses import dataclass

from case import DOCUMENTED
from scratch import differences

# 128 + SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV: how a shell reports a crash.
CRASH_CODES = {132, 133, 134, 135, 136, 139}
# make's event lines (plain log format, timestamped since issue 13), as opposed to its one error line.
PROGRESS = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z )?slicevid: "
                      r"(rendering |rendered |wrote |created folder |finishing encoders$|finished: |music bed ready|no audio in )")
PLAIN_LOG = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z slicevid: ")
# C0 controls but newline, DEL, and C1 controls (U+0080–U+009F, two bytes in UTF-8).
CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
# Decoding a still costs its picture (YUV or RGB) and one RGBA copy: what a still may add to the bound.
BYTES_PER_STILL_PIXEL = 8
MAX_LINE = 1000  # an error line may name paths and list accepted values, never echo a whole input


@dataclass
class Finding:
    kind: str
    detail: str


def judge(case, results, before, after, root, max_rss_mib, oracle, pixels):
    """Every finding of one case: per-run checks, then the tree, then the runs together.
    `oracle(path)` is FFmpeg's verdict, asked for only when a still that may be damaged was
    rendered (exit 0); `pixels(path)` a still's decoded size, asked for only when a run went
    over the memory bound (decoding a large still legitimately costs its size)."""
    findings = []
    if case.still and case.damaged is None and any(r.code == 0 for r in results):
        case.damaged, case.oracle = oracle(os.path.join(root, case.still))
    bound = max_rss_mib
    if case.still and any(r.peak_rss_mib > bound for r in results):
        bound += pixels(os.path.join(root, case.still)) * BYTES_PER_STILL_PIXEL / 2 ** 20
    for result in results:
        findings += check_exit(case, result)
        findings += check_memory(result, bound)
        findings += check_stderr(case, result)
    findings += check_tree(case, results, before, after, root)
    findings += check_together(case, results, after, root)
    for verify in case.verify:
        findings += [Finding(kind, detail) for kind, detail in verify(case, results, root)]
    return findings


def check_exit(case, result):
    """No signal death, no hang, a documented code, and the code the case's class allows."""
    code = result.code
    if code < 0 and signal_name(-code) in result.signals_sent:
        code = 128 - code  # ended by the signal the harness sent, before slicevid could trap it: as a shell says
    if result.timed_out:
        obeyed = "a SIGTERM then ended it" if result.obeyed_sigterm else "SIGTERM did not end it either (SIGKILL)"
        return [Finding("hang", f"still running after the time bound; {obeyed}")]
    if code < 0:
        sent = f" (harness sent {', '.join(result.signals_sent)})" if result.signals_sent else ""
        return [Finding("crash", f"killed by signal {-code}{sent}")]
    if code in CRASH_CODES:
        return [Finding("crash", f"exit {code} (128 + signal {code - 128})")]
    # 141 is documented for a reader of standard output that went away (docs/exit-codes.md).
    if code not in DOCUMENTED | ({141} if case.stdout == "closed-pipe" else set()):
        return [Finding("undocumented-exit", f"exit {code} is not in the documented exit codes (docs/exit-codes.md)")]
    if case.damaged and code == 0 and case.still:
        return [Finding("damaged-rendered", f"exit 0 for a still FFmpeg reports as damaged: {case.oracle}")]
    allowed = set(case.expect) | ({130, 143} if result.signals_sent else set())
    if code not in allowed:
        return [Finding("wrong-exit", f"exit {code}; this case allows {sorted(allowed)}")]
    return []


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def check_memory(result, max_rss_mib):
    """Peak RSS (wait4's ru_maxrss) under the bound."""
    if result.peak_rss_mib > max_rss_mib:
        return [Finding("memory", f"peak RSS {result.peak_rss_mib:.0f} MiB > {max_rss_mib:.0f} MiB")]
    return []


def is_failure(case, code):
    """Whether `code` is a run that failed as a whole (one error line expected)."""
    if code == 0 or code in (130, 143) or code < 0 or code in CRASH_CODES:
        return False
    if code == 141 and case.stdout == "closed-pipe":
        return False  # quiet, as docs/exit-codes.md says
    return code not in outcome_codes(case)


def outcome_codes(case):
    """Codes that tell how a run went rather than that it failed as a whole: a batch's 1 and 2
    (some or all jobs failed) and 3 (the prune brake held, after the jobs ran; its line is one
    of the run's log lines); `report merge`'s 1 (the campaign is not whole: its problems, then
    the summary, and the merged report written)."""
    if case.batch:
        return (1, 2, 3)
    if case.command[:2] == ["report", "merge"]:
        return (1,)
    return ()


def check_stderr(case, result):
    """A failure is one line naming the input, of bounded length, with the right reason; no run
    prints raw control characters or lines of a shape slicevid never prints."""
    findings = []
    if result.code < 0 or result.code in CRASH_CODES:
        return findings  # a crash's own report says enough; its backtrace lines are no message
    streams = [("stderr", result.stderr)]
    if "-" not in case.outputs:
        streams.append(("stdout", result.stdout))
    for name, data in streams:
        match = CONTROL.search(data)
        if match:
            around = data[max(0, match.start() - 30):match.end() + 30]
            findings.append(Finding("control-characters", f"raw {match.group()!r} on {name}: {around!r}"))
    # Lines as a terminal sees them: split at newlines only (not at U+0085 or U+2028, which
    # str.splitlines would also split at).
    lines = result.stderr.decode(errors="replace").rstrip("\n").split("\n") if result.stderr else []
    shape = _line_shape(case, result)
    strays = [line for line in lines if line and not shape(line)]
    if strays and not result.timed_out and not is_failure(case, result.code):
        findings.append(Finding("stray-line", f"stderr line of no slicevid shape: {strays[0][:160]!r}"))
    elif result.code == 0 and any(line.startswith("slicevid: error:") for line in lines):
        findings.append(Finding("stray-line", "an error line in a run that succeeded (a forged log line?)"))
    if result.timed_out or not is_failure(case, result.code):
        return findings
    errors = [line for line in lines if not PROGRESS.match(line)]
    if len(errors) != 1:
        findings.append(Finding("message", f"{len(errors)} error lines, expected one: {errors[:3]!r}"[:400]))
        return findings
    line = errors[0]
    if len(line) > MAX_LINE:
        findings.append(Finding("message", f"error line of {len(line)} characters echoes its input: {line[:120]!r}…"))
    if case.names and not any(mentions(line, name) for name in case.names):
        findings.append(Finding("message", f"error line names none of {case.names[:3]!r}: {line[:200]!r}"))
    for word in case.forbid:
        if word in line.lower():
            findings.append(Finding("message", f"error line says {word!r} for a valid file: {line[:200]!r}"))
    return findings


def _line_shape(case, result):
    """The test a stderr line must pass. make and a batch that stopped before rendering (64,
    66, 73, 75, --check) print "slicevid: …" lines; a batch that rendered prints only log
    lines: timestamped ones, or JSON objects with --log-format json. So a job id or path whose
    newline forges a "slicevid: error: …" line is caught in a batch log."""
    argv = result.argv   # this run's own: a case's later runs may be --plan after a run
    if not case.batch:
        return lambda line: line.startswith("slicevid: ") or PROGRESS.match(line) is not None
    if "--check" in argv or "--plan" in argv or result.code not in (0, 1, 2, 3, 130, 143):
        return lambda line: line.startswith("slicevid: ")
    json_log = "--log-format" in argv and argv[argv.index("--log-format") + 1] == "json"
    interrupted = result.code in (130, 143)

    def log_line(line):
        if interrupted and line.startswith("slicevid: error: "):
            return True  # the report could not be written after a signal
        if not json_log:
            return PLAIN_LOG.match(line) is not None
        try:
            return isinstance(json.loads(line), dict)
        except ValueError:
            return False
    return log_line


def mentions(line, name):
    """Whether an error line names `name`: literally, or (for a name with control characters,
    which must be escaped) by every printable run of three or more characters of it."""
    if name in line:
        return True
    base = os.path.basename(name) or name
    runs = [run for run in re.split(r"[\x00-\x1f\x7f]+", base) if len(run) >= 3]
    return bool(runs) and all(run in line for run in runs)


def check_tree(case, results, before, after, root):
    """Nothing created but outputs and slicevid's own files; nothing outside them changed or
    removed; protected files byte-identical; stale temporaries gone after a success."""
    findings = []
    created, changed, removed = differences(before, after)
    codes = [r.code for r in results]
    succeeded = any(c == 0 or c in outcome_codes(case) or (case.batch and c in (130, 143)) for c in codes)
    allowed = _allowed(case, root) if succeeded else _allowed_on_failure(case)
    leftovers = [p for p in created if not allowed(p)]
    # After the harness's own SIGKILL (a hang) temporaries are expected; the hang is the finding.
    if leftovers and not any(r.timed_out and not r.obeyed_sigterm for r in results):
        findings.append(Finding("left-behind", f"{len(leftovers)} new path(s) not outputs: {leftovers[:4]!r}"))
    protected = {os.path.normpath(p) for p in case.protected}
    if any(r.code in (130, 143) or (r.code < 0 and signal_name(-r.code) in r.signals_sent) for r in results):
        protected |= {os.path.normpath(p) for p in case.kept_if_interrupted}
    replaced, touched = [], []
    rewritten = {os.path.normpath(case.during[0])} if case.during else set()
    for path in changed + removed:
        if os.path.normpath(path) in rewritten:
            continue  # the harness's own rewriter wrote it, not slicevid
        what = f"{'changed' if path in changed else 'removed'} {path!r}"
        if os.path.normpath(path) in protected:
            replaced.append(what)
        elif path in removed and _is_stale(path, case.gone):
            continue  # a dead process's temporary: removing it is the point (stale-kept checks it)
        elif not allowed(path) and not (after.get(path, ("",))[0] == "dir" == before.get(path, ("",))[0]):
            touched.append(what)
    if replaced:
        findings.append(Finding("replaced", f"{len(replaced)} file(s) slicevid did not write: {', '.join(replaced[:3])}"))
    if touched:
        findings.append(Finding("touched", f"{len(touched)} path(s) outside the outputs: {', '.join(touched[:3])}"))
    if all(c == 0 for c in codes):
        kept = [p for p in case.gone if os.path.normpath(p) in after]
        if kept:
            findings.append(Finding("stale-kept", f"stale temporary of a dead process left in place: {kept[0]!r}"))
    return findings


def _is_stale(path, gone):
    """Whether `path` is one of a dead process's temporaries the case planted, or the folder
    holding one (a sequence's `.slicevid-PID-N/` goes with its frames)."""
    path = os.path.normpath(path)
    return any(path == os.path.normpath(g) or os.path.normpath(g).startswith(path + os.sep) for g in gone)


def _allowed(case, root):
    """A test for paths a successful run may create or change."""
    patterns = []
    for output in case.outputs:
        if output in ("-", "null"):
            continue
        folder = _physical_folder(root, output)
        if folder is None:
            continue
        # Missing folders above an output are created (issue 13): each level is the run's own.
        levels = folder.split(os.sep) if folder else []
        for depth in range(1, len(levels) + 1):
            patterns.append(lambda p, f=os.path.join(*levels[:depth]): p == f)
        name = os.path.basename(output)
        sequence = _sequence(name)
        if sequence:
            head, _, tail = sequence.groups()
            regex = re.compile(re.escape(head) + r"\d+" + re.escape(tail) + r"\Z")
            patterns.append(lambda p, f=folder, r=regex: os.path.dirname(p) == f and r.match(os.path.basename(p)))
        else:
            target = os.path.normpath(os.path.join(folder, name))
            patterns.append(lambda p, t=target: p == t)
    owned = [os.path.normpath(p) for p in case.owned]
    return lambda p: any(test(p) for test in patterns) or any(fnmatch.fnmatchcase(p, o) for o in owned)


def _sequence(name):
    """The parts around a frame number when `name` is a PNG sequence's pattern; None for any
    other name (`out%05d.mp4` is one file, named so)."""
    return re.fullmatch(r"(.*?)%0?(\d*)d(.*)", name) if name.lower().endswith(".png") else None


def _allowed_on_failure(case):
    """A run that failed as a whole may leave only its lock files (they stay by design)."""
    locks = [os.path.normpath(p) for p in case.owned if p.endswith(".lock")]
    return lambda p: any(fnmatch.fnmatchcase(p, o) for o in locks)


def _physical_folder(root, output):
    """The output's folder relative to the case folder with links resolved (the way the file
    system will place the file), or None when it lies outside."""
    real_root = os.path.realpath(root)
    folder = os.path.realpath(os.path.join(root, os.path.dirname(output)))
    if os.path.commonpath([real_root, folder]) != real_root:
        return None
    relative = os.path.relpath(folder, real_root)
    return "" if relative == "." else relative


def check_together(case, results, after, root):
    """Rules about the runs of a case together: racing runs without --force cannot both
    succeed; an interrupted batch still writes its report."""
    findings = []
    if case.race and sum(1 for r in results if r.code == 0) > 1:
        findings.append(Finding("race", f"{len(results)} runs wrote the same output without --force and all exited 0"))
    if case.report and any(r.code in (130, 143) for r in results) and os.path.normpath(case.report) not in after:
        findings.append(Finding("report-missing", f"interrupted batch wrote no report at {case.report}"))
    findings += _claimed_but_missing(case, results, after, root)
    return findings


def _claimed_but_missing(case, results, after, root):
    """A lone `make` that exits 0 has written every output it names, a sequence at least one
    frame (`-o f%1000d.png` once reported 61 frames written and left none)."""
    if case.batch or len(results) != 1 or results[0].code != 0 or "make" not in results[0].argv:
        return []
    if any(flag in results[0].argv for flag in ("--dry-run", "--help", "-h")):
        return []
    missing = []
    for output in case.outputs:
        # Streams, and names whose ':' may start options, are judged elsewhere.
        if output in ("-", "null") or ":" in output:
            continue
        name = os.path.basename(output)
        sequence = _sequence(name)
        # Where the file system puts it: through a linked folder, the link's target.
        folder = _physical_folder(root, output)
        if folder is None:
            continue
        if sequence:
            head, _, tail = sequence.groups()
            frame = re.compile(re.escape(head) + r"\d+" + re.escape(tail) + r"\Z")
            present = any(os.path.dirname(p) == folder and frame.match(os.path.basename(p)) for p in after)
        else:
            present = os.path.normpath(os.path.join(folder, name)) in after
        if not present:
            missing.append(output)
    if not missing:
        return []
    return [Finding("not-written", f"exit 0 but no file at {missing[0]!r}")]
