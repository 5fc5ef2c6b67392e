#!/usr/bin/env python3
"""slicevid's fuzz harness: generates odd stills, presets, manifests and command lines, runs
slicevid on each in a fresh scratch folder, and checks the invariants of checks.py.

Usage: python3 fuzz/fuzz.py [--seed N] [--seconds S] [--jobs N] [--cases N] [--binary PATH]
                            [--out DIR] [--timeout S] [--max-rss MIB] [--category NAME]
       python3 fuzz/fuzz.py --seed N --case I     # rebuild and rerun one case, verbosely

Case I of seed N is built from its own random generator, so it can be rebuilt alone; a run
goes through cases 0, 1, 2, … until the time (or the case count) is used up. Exits 1 on any
finding, 0 otherwise.
"""

import argparse
import concurrent.futures
import os
import shlex
import shutil
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict

import cases_commands
import cases_documents
import cases_feeds
import cases_files
import cases_fonts
import cases_media
import cases_paths
import cases_records
import cases_stills
import corpus as corpus_module
import runner
import scratch
from case import rng_for, weighted
from checks import judge

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Category weights: about a quarter stills, the rest documents, command lines, file safety, the
# payloads inside stills and songs (compressed chunks, channel layouts, Ogg pages, ICC chunks),
# feeds, layout fonts and the records slicevid reads back (sidecars, reports, posters).
CATEGORIES = [(("still", cases_stills.GENERATORS), 35), (("preset", [(cases_documents.preset_case, 1)]), 12),
              (("manifest", [(cases_documents.manifest_case, 6), (cases_documents.odd_job_id, 1)]), 13),
              (("cli", cases_commands.GENERATORS), 25), (("files", cases_files.GENERATORS), 15),
              (("media", cases_media.GENERATORS), 14), (("feed", cases_feeds.GENERATORS), 12),
              (("paths", cases_paths.GENERATORS), 14), (("decode-signals", cases_paths.SIGNAL_GENERATORS), 7),
              (("font", cases_fonts.GENERATORS), 12), (("record", cases_records.GENERATORS), 12)]
# Variables that would make a case depend on the machine it runs on.
UNSET = ("SLICEVID_PRESETS", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID")


class Context:
    """What every generator and run may use: the corpus, the binary, the bounds."""

    def __init__(self, options, stills):
        self.corpus = stills
        self.binary = os.path.abspath(options.binary)
        self.out = os.path.abspath(options.out)
        self.seed = options.seed
        self.max_rss = options.max_rss
        self.limits = runner.Limits(timeout=options.timeout)
        self.category = getattr(options, "category", None)


def build_case(ctx, index, root):
    """Lays out case `index` in the empty folder `root` and returns it."""
    rng = rng_for(ctx.seed, index)
    categories = [c for c in CATEGORIES if ctx.category in (None, c[0][0])]
    _, generators = weighted(rng, categories)
    generator = weighted(rng, generators)
    os.makedirs(os.path.join(root, "tmp"))
    case = generator(rng, root, ctx)
    case.index = index
    return case


def environment(root):
    """slicevid's environment: ours without the preset and shard variables, temporaries in the
    case folder (so a leftover there is seen)."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env["TMPDIR"] = os.path.join(root, "tmp")
    return env


_context = None


def _init_worker(ctx):
    global _context
    _context = ctx
    runner.apply_limits(ctx.limits)


def run_case(index, keep=False):
    """Builds, runs and judges one case in this worker's scratch folder. Returns a summary;
    a case with findings is rebuilt, untouched, in the findings folder with its reproducer.
    A bug of the harness itself is a finding too ("harness-error"), so it cannot pass unseen."""
    try:
        return _run_case(index, keep)
    except Exception as error:  # noqa: BLE001 — reported, never swallowed
        detail = "".join(traceback.format_exception_only(error)).strip()
        return {"index": index, "category": "harness", "kind": "harness/error", "owner": "fuzz", "codes": [],
                "seconds": 0.0, "rss": 0.0, "findings": [("harness-error", f"{detail} ({traceback.format_exc()[-600:]})")],
                "damaged": None, "note": "the harness failed on this case", "command": "", "folder": None, "stderr": ""}


def _run_case(index, keep):
    ctx = _context
    work = os.path.join(ctx.out, "work", f"w{os.getpid()}")
    root = os.path.join(work, "case")
    scratch.remove_tree(root, ctx.out)
    os.makedirs(root)
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    case = build_case(ctx, index, root)
    before = scratch.snapshot(root)
    results = runner.run_case_processes([[ctx.binary, *argv] for argv in case.runs], root, environment(root), logs,
                                        ctx.limits, case.signal_plan, case.stdout, case.sequential, case.during)
    after = scratch.snapshot(root)
    findings = judge(case, results, before, after, root, ctx.max_rss, cases_stills.oracle,
                     cases_stills.decoded_pixels)
    summary = {"index": index, "category": case.category, "kind": case.kind, "owner": case.owner,
               "codes": [r.code for r in results], "seconds": max(r.seconds for r in results),
               "rss": max(r.peak_rss_mib for r in results), "findings": [(f.kind, f.detail) for f in findings],
               "damaged": case.damaged,
               "note": case.note, "command": _shell(case.command), "folder": None,
               "stderr": results[0].stderr.decode(errors="replace")[-2000:]}
    if findings:
        summary["folder"] = save_finding(ctx, case, results, findings)
    if not keep:
        scratch.remove_tree(root, ctx.out)
    return summary


def save_finding(ctx, case, results, findings):
    """Rebuilds the case untouched in findings/INDEX-KIND/input, writes repro.sh (copies the
    input to a temporary folder and runs the same command there) and case.txt."""
    folder = os.path.join(ctx.out, "findings", f"{case.index:06d}-{findings[0].kind}")
    scratch.remove_tree(folder, ctx.out)
    build_case(ctx, case.index, os.path.join(folder, "input"))
    with open(os.path.join(folder, "repro.sh"), "w") as handle:
        handle.write(repro_script(ctx, case))
    os.chmod(os.path.join(folder, "repro.sh"), 0o755)
    with open(os.path.join(folder, "case.txt"), "w") as handle:
        handle.write(f"case {case.index} of seed {ctx.seed}: {case.kind} ({case.note})\n")
        handle.write(f"likely owner: {case.owner}\nexpected exit: {sorted(case.expect)}\n")
        if case.still:
            verdict = {None: "not asked (slicevid did not render it)", False: "sound"}.get(case.damaged,
                                                                                       "damaged: " + case.oracle)
            handle.write(f"FFmpeg's verdict on {case.still}: {verdict}\n")
        for finding in findings:
            handle.write(f"finding: {finding.kind}: {finding.detail}\n")
        for result in results:
            handle.write(f"\n$ {_shell(result.argv)}\nexit {result.code}, {result.seconds:.2f} s, "
                         f"{result.peak_rss_mib:.0f} MiB\n{result.stderr.decode(errors='replace')[-4000:]}")
    return os.path.relpath(folder, ROOT) if folder.startswith(ROOT) else folder


def repro_script(ctx, case):
    """A shell script that replays the case on a copy of its input."""
    commands = [_shell([ctx.binary, *argv]) for argv in case.runs]
    if case.signal_plan:
        delay, signals, gap = case.signal_plan
        kills = "".join(f"sleep {delay if i == 0 else gap}; kill -{s.name[3:]} $pid 2>/dev/null\n"
                        for i, s in enumerate(signals))
        body = f"{commands[0]} &\npid=$!\n{kills}wait $pid\necho \"exit $?\"\n"
    elif case.sequential:
        rewrite = ""
        if case.during:
            target, versions = case.during
            loop = "; ".join(f"cp {_shell([v])} {_shell([target])}" for v in versions)
            rewrite = f"(while :; do {loop}; done) & rewriter=$!\n"
        body = "".join(f"{c}\necho \"exit $?\"\n" for c in commands[:-1])
        body += rewrite + f"{commands[-1]}\necho \"exit $?\"\n" + ("kill $rewriter\n" if rewrite else "")
    elif len(commands) > 1:
        body = "".join(f"{c} &\n" for c in commands) + "for p in $(jobs -p); do wait $p; echo \"exit $?\"; done\n"
    elif case.stdout == "full":
        body = f"{commands[0]} >/dev/full\necho \"exit $?\"\n"
    elif case.stdout == "closed-pipe":
        body = ("python3 -c 'import os, subprocess, sys; r, w = os.pipe(); os.close(r); "
                f"sys.exit(subprocess.run(sys.argv[1:], stdout=w).returncode)' {commands[0]}\necho \"exit $?\"\n")
    else:
        body = f"{commands[0]}\necho \"exit $?\"\n"
    return ("#!/bin/bash\n# slicevid fuzz case {i} of seed {s}: {k}\nset -u\n"
            "here=$(cd \"$(dirname \"$0\")\" && pwd)\nwork=$(mktemp -d)\ncp -a \"$here/input/.\" \"$work/\"\n"
            "cd \"$work\"\nexport TMPDIR=\"$work/tmp\"\n{b}echo \"(ran in $work)\"\n").format(
                i=case.index, s=ctx.seed, k=case.kind, b=body)


def _shell(argv):
    return " ".join(_quoted(a) for a in argv)


def _quoted(argument):
    """shlex.quote, or bash's $'…' with \\xHH where an argument holds bytes that are not UTF-8."""
    try:
        argument.encode()
    except UnicodeEncodeError:
        return "$'" + "".join(chr(b) if 0x20 <= b < 0x7F and b not in b"'\\" else f"\\x{b:02x}"
                              for b in os.fsencode(argument)) + "'"
    return shlex.quote(argument)


def run_all(ctx, options):
    """Runs cases 0, 1, … on a pool of workers until the time or the case count is used up;
    returns the summaries in case order."""
    summaries, next_index, started = [], 0, time.monotonic()
    deadline = started + options.seconds
    last_progress = started
    with concurrent.futures.ProcessPoolExecutor(options.jobs, initializer=_init_worker, initargs=(ctx,)) as pool:
        pending = set()
        while True:
            while len(pending) < 2 * options.jobs and time.monotonic() < deadline and \
                    (options.cases is None or next_index < options.cases):
                pending.add(pool.submit(run_case, next_index))
                next_index += 1
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            summaries += [future.result() for future in done]
            if time.monotonic() - last_progress > 15:
                last_progress = time.monotonic()
                found = sum(1 for s in summaries if s["findings"])
                print(f"fuzz: {len(summaries)} cases in {last_progress - started:.0f} s, {found} with findings",
                      file=sys.stderr, flush=True)
    return sorted(summaries, key=lambda s: s["index"]), time.monotonic() - started


def report(summaries, elapsed, ctx, options, out=sys.stdout):
    """Prints the table of cases by category and every finding with its reproducer."""
    by_category = defaultdict(list)
    for summary in summaries:
        by_category[summary["category"]].append(summary)
    print(f"\nslicevid fuzz: seed {ctx.seed}, {len(summaries)} cases in {elapsed:.0f} s "
          f"({len(summaries) / max(elapsed, 1e-9) * 60:.0f} cases/min) on {options.jobs} workers; binary {ctx.binary}",
          file=out)
    print(f"bounds: hang {ctx.limits.timeout:g} s, peak RSS {ctx.max_rss} MiB, address space "
          f"{ctx.limits.address_space_gib:g} GiB\n", file=out)
    print("| category | cases | with findings | exit codes | median s | max RSS MiB |", file=out)
    print("| --- | --- | --- | --- | --- | --- |", file=out)
    for category in sorted(by_category):
        rows = by_category[category]
        codes = Counter(code for s in rows for code in s["codes"])
        code_text = " ".join(f"{c}:{n}" for c, n in sorted(codes.items()))
        print(f"| {category} | {len(rows)} | {sum(1 for s in rows if s['findings'])} | {code_text} | "
              f"{statistics.median(s['seconds'] for s in rows):.2f} | {max(s['rss'] for s in rows):.0f} |", file=out)
    print("\n(exit codes: code:count; a negative code is the signal that ended the run)", file=out)
    stills = [s for s in summaries if s["category"] == "still" and s["kind"].startswith("still/")]
    rendered = [s for s in stills if 0 in s["codes"]]
    print(f"\nmutated stills: {len(stills)}; refused (65): {sum(1 for s in stills if 65 in s['codes'])}; rendered: "
          f"{len(rendered)}, of which FFmpeg reports {sum(1 for s in rendered if s['damaged'])} as damaged", file=out)
    kinds = defaultdict(list)
    for summary in summaries:
        for kind, detail in summary["findings"]:
            kinds[kind].append((summary, detail))
    if not kinds:
        print("\nno findings", file=out)
        return 0
    print(f"\n{sum(len(v) for v in kinds.values())} findings in {sum(1 for s in summaries if s['findings'])} cases:",
          file=out)
    for kind in sorted(kinds, key=lambda k: -len(kinds[k])):
        print(f"\n## {kind} ({len(kinds[kind])})", file=out)
        for summary, detail in kinds[kind]:
            print(f"- case {summary['index']} {summary['kind']} [{summary['owner']}]: {detail}\n"
                  f"  {summary['note']}\n"
                  f"  reproduce: bash {summary['folder']}/repro.sh   "
                  f"(or: python3 fuzz/fuzz.py --seed {ctx.seed}{' --category ' + ctx.category if ctx.category else ''} --case {summary['index']})", file=out)
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=360, help="time for the whole run (default 360)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="worker processes (default: cores)")
    parser.add_argument("--cases", type=int, help="stop after this many cases")
    parser.add_argument("--category", choices=[c[0][0] for c in CATEGORIES],
                        help="generate cases of this category only")
    parser.add_argument("--case", type=int, help="rebuild and run only this case, and print it")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/slicevid"))
    parser.add_argument("--out", default=os.path.join(ROOT, "fuzz-out"), help="scratch, corpus and findings")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds before a run counts as hung (default 5)")
    parser.add_argument("--max-rss", type=int, default=300, help="peak RSS bound per run, MiB (default 300)")
    options = parser.parse_args()
    if shutil.which("ffmpeg") is None:
        sys.exit("fuzz: the ffmpeg CLI is needed to make the stills (make fuzz installs it)")
    if not os.access(options.binary, os.X_OK):
        sys.exit(f"fuzz: no slicevid binary at {options.binary} (make fuzz builds it)")
    os.makedirs(options.out, exist_ok=True)
    # A new run replaces the last run's findings; rerunning one case (--case) keeps them.
    for stale in ("work",) if options.case is not None else ("work", "findings"):
        scratch.remove_tree(os.path.join(options.out, stale), options.out)
    print("fuzz: making the corpus of stills (cached in fuzz-out/corpus)", file=sys.stderr, flush=True)
    ctx = Context(options, corpus_module.build(os.path.join(options.out, "corpus")))
    if options.case is not None:
        _init_worker(ctx)
        summary = run_case(options.case, keep=True)
        print(f"case {options.case}: {summary['kind']} ({summary['note']})\n$ {summary['command']}\n"
              f"exit {summary['codes']}, {summary['seconds']:.2f} s, {summary['rss']:.0f} MiB\n{summary['stderr']}")
        for kind, detail in summary["findings"]:
            print(f"finding: {kind}: {detail}")
        print(f"scratch folder kept: {os.path.join(options.out, 'work', f'w{os.getpid()}', 'case')}")
        sys.exit(1 if summary["findings"] else 0)
    summaries, elapsed = run_all(ctx, options)
    scratch.remove_tree(os.path.join(options.out, "work"), options.out)
    with open(os.path.join(options.out, "summary.md"), "w") as handle:
        report(summaries, elapsed, ctx, options, out=handle)
    sys.exit(report(summaries, elapsed, ctx, options))


if __name__ == "__main__":
    main()
