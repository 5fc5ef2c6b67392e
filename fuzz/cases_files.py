"""Cases about files that are not slicevid's: lock files, sidecars and reports that are links
to someone else's file, foreign files at a batch's outputs (inside or outside its folder, a
sequence over unrelated frames), two outputs that are one file through a link, two runs racing
for one output, and signals mid-run.
"""

import json
import os
import signal

from case import Case, copy_still, fifo, symlink, victim, write
from cases_documents import batch_owned

FILES_OWNER = "harden-files"
MANIFEST = "m/campaign.json"


def _manifest(rng, root, corpus, outputs_per_job, extra_job_fields=""):
    """Writes m/campaign.json with one job per entry of `outputs_per_job` (paths relative to
    m/), tiny settings and two sound stills; returns the case-relative output paths."""
    sound = [s for s in corpus if s.name in ("png-rgb.png", "jpeg-420.jpg")]
    for still in sound:
        copy_still(root, f"m/stills/{still.name}", still)
    os.makedirs(os.path.join(root, "m/out"), exist_ok=True)
    jobs = []
    for number, outputs in enumerate(outputs_per_job):
        listed = ", ".join(f'"{o}"' for o in outputs)
        jobs.append(f'{{"id": "job{number}", "images": ["stills/{sound[0].name}", "stills/{sound[1].name}"], '
                    f'"outputs": [{listed}]{extra_job_fields}}}')
    write(root, MANIFEST, '{"defaults": {"size": "32x18", "fps": 10, "hold": 0, "duration": 0.2, '
                          '"encoder-preset": "ultrafast"},\n "jobs": [' + ",\n  ".join(jobs) + "]}\n")
    return [os.path.normpath(os.path.join("m", o)) for outputs in outputs_per_job for o in outputs]


def _batch_case(kind, argv, outputs, report="", runs=None, **fields):
    """A batch case over MANIFEST (`runs` when several batches start together)."""
    return Case(index=0, category="files", kind=kind, owner=FILES_OWNER, runs=runs or [argv], batch=True,
                names=[MANIFEST] + ([report] if report else []), outputs=outputs,
                owned=batch_owned(MANIFEST, outputs, report), report=report, **fields)


def lock_link(rng, root, ctx):
    """The manifest's lock (or a shard's) is a link to someone else's file: it must be refused
    (73 or 75), never followed or truncated."""
    outputs = _manifest(rng, root, ctx.corpus, [["out/a.png"]])
    target = victim(root, "victim.txt")
    shard = rng.random() < 0.4
    lock = "m/.campaign.json.shard-0-of-2.lock" if shard else "m/.campaign.json.lock"
    symlink(root, lock, target)
    argv = ["batch", MANIFEST] + (["--shard", "0/2"] if shard else [])
    return _batch_case("files/lock-link", argv, outputs, expect=frozenset({73, 75}), protected=[target],
                       note=f"{lock} -> victim.txt")


def sidecar_link(rng, root, ctx):
    """An output's sidecar is a link to someone else's file: the batch may replace the link,
    never write through it."""
    outputs = _manifest(rng, root, ctx.corpus, [["out/a.png"]])
    target = victim(root, "victim.json", '{"not": "slicevid\'s"}\n')
    symlink(root, "m/out/.a.png.slicevid.json", target)
    argv = ["batch", MANIFEST] + (["--force"] if rng.random() < 0.5 else [])
    return _batch_case("files/sidecar-link", argv, outputs, expect=frozenset({0, 1, 2}), protected=[target],
                       note="sidecar -> victim.json")


def report_link(rng, root, ctx):
    """The --report path is a link to someone else's file: refused (73, naming the report),
    never written through."""
    outputs = _manifest(rng, root, ctx.corpus, [["out/a.png"]])
    target = victim(root, "victim.txt")
    symlink(root, "m/report.json", target)
    return _batch_case("files/report-link", ["batch", MANIFEST, "--report", "m/report.json"], outputs, report="m/report.json",
                       expect=frozenset({0, 73}), protected=[target], note="report -> victim.txt")


def foreign_output(rng, root, ctx):
    """A file slicevid never wrote sits at a job's output (in the manifest's folder, outside
    it through `..`, or as frames under a sequence pattern). Without --force the job must fail
    and the file stay; with --force it may be replaced."""
    force = rng.random() < 0.3
    where = rng.choice(["inside", "outside", "sequence"])
    if where == "inside":
        outputs = _manifest(rng, root, ctx.corpus, [["out/a.png"]])
        foreign = [victim(root, "m/out/a.png", "someone's picture\n")]
    elif where == "outside":
        outputs = _manifest(rng, root, ctx.corpus, [["../victim/important.png"]])
        foreign = [victim(root, "victim/important.png", "someone's picture\n")]
    else:
        outputs = _manifest(rng, root, ctx.corpus, [["../victim/%d.png"]])
        foreign = [victim(root, f"victim/{i}.png", f"someone's frame {i}\n") for i in range(40)]
    unrelated = victim(root, "victim/notes.txt")
    argv = ["batch", MANIFEST] + (["--force"] if force else [])
    expect = {0, 64} if force else {1, 2, 64}
    return _batch_case(f"files/foreign-{where}", argv, outputs, expect=frozenset(expect),
                       protected=[unrelated] + ([] if force else foreign),
                       note=f"foreign file(s) at a {where} output{' with --force' if force else ''}")


def linked_duplicate(rng, root, ctx):
    """Job 0 writes out/x.png and job 1 outlink/x.png, where outlink is a link to out: one
    file, two jobs; duplicates are compared by real path, so the manifest is refused (64)."""
    outputs = _manifest(rng, root, ctx.corpus, [["out/x.png"], ["outlink/x.png"]])
    symlink(root, "m/outlink", "m/out")
    return _batch_case("files/linked-duplicate", ["batch", MANIFEST], outputs, expect=frozenset({64}),
                       note="out/x.png and outlink/x.png (outlink -> out)")


def race(rng, root, ctx):
    """Two makes (or two batches) started together for the same output without --force: at
    most one may succeed; the other must find the name taken (73) or the lock held (75)."""
    sound = [s for s in ctx.corpus if s.name in ("png-rgb.png", "jpeg-420.jpg")]
    a, b = (copy_still(root, f"in{i}{os.path.splitext(s.name)[1]}", s) for i, s in enumerate(sound))
    if rng.random() < 0.7:
        output = rng.choice(["race.mp4", "race.webm", "race.mkv"])
        argv = ["make", "--from", a, "--to", b, "-o", output, "--size", "64x36", "--fps", "30", "--hold", "0",
                "--duration", "0.5", "-q"]
        return Case(index=0, category="files", kind="files/race-make", owner=FILES_OWNER, runs=[argv, list(argv)],
                    expect=frozenset({0, 73}), names=[output], outputs=[output], race=True,
                    note="two makes of one output at once, no --force")
    outputs = _manifest(rng, root, ctx.corpus, [["out/a.mp4"]])
    argv = ["batch", MANIFEST]
    return _batch_case("files/race-batch", argv, outputs, runs=[argv, list(argv)], expect=frozenset({0, 75}),
                       note="two batches of one manifest at once")


def interrupted(rng, root, ctx):
    """SIGINT or SIGTERM (once or twice) during a make or a batch: the run ends with 130/143
    (or 0 if it finished first), leaves no temporary behind, replaces no output, and a batch
    still writes its report."""
    signum = rng.choice([signal.SIGTERM, signal.SIGINT])
    signals = [signum] * rng.choice([1, 1, 2])
    delay = rng.choice([0.15, 0.25, 0.4, 0.6])  # slicevid takes ~0.1 s to start and trap signals
    plan = (delay, signals, rng.choice([0.01, 0.05]))  # a second signal while the first is handled
    long_render = ["--size", "64x36", "--fps", "30", "--hold", "0.5", "--duration", "1"]
    if rng.random() < 0.5:
        sound = [s for s in ctx.corpus if s.name in ("png-rgb.png", "jpeg-420.jpg")]
        a, b = (copy_still(root, f"in{i}{os.path.splitext(s.name)[1]}", s) for i, s in enumerate(sound))
        output = rng.choice(["out.mp4", "out.webm", "frames/%03d.png", "out.gif"])
        os.makedirs(os.path.join(root, "frames"), exist_ok=True)
        existing = rng.random() < 0.3 and "%" not in output
        if existing:
            victim(root, output, "an earlier good output\n")
        argv = ["make", "--from", a, "--to", b, "-o", output, *long_render, "-q"] + (["--force"] if existing else [])
        return Case(index=0, category="files", kind="files/signal-make", owner=FILES_OWNER, runs=[argv],
                    expect=frozenset({0}), names=[output], outputs=[output], signal_plan=plan,
                    kept_if_interrupted=[output] if existing else [],
                    note=f"{'+'.join(signal.Signals(s).name for s in signals)} after {delay} s")
    outputs = _manifest(rng, root, ctx.corpus, [["out/a.webm"], ["out/b.mp4"], ["out/c.gif"]],
                        extra_job_fields=', "size": "64x36", "fps": 30, "hold": 0.5, "duration": 1')
    argv = ["batch", MANIFEST, "--report", "m/report.json"]
    return _batch_case("files/signal-batch", argv, outputs, report="m/report.json", expect=frozenset({0}),
                       signal_plan=plan,
                       note=f"{'+'.join(signal.Signals(s).name for s in signals)} after {delay} s")


def odd_manifest_image(rng, root, ctx):
    """A manifest image that is no regular file (a FIFO, /dev/zero, a folder, a link loop):
    the job must fail at once (or the manifest be refused), never hash or wait forever."""
    outputs = _manifest(rng, root, ctx.corpus, [["out/a.png"]])
    how = rng.choice(["fifo", "dev-zero", "folder", "loop"])
    if how == "fifo":
        fifo(root, "m/stills/odd.png")
    elif how == "folder":
        os.makedirs(os.path.join(root, "m/stills/odd.png"))
    elif how == "loop":
        symlink(root, "m/stills/loop.png", "m/stills/odd.png")
        symlink(root, "m/stills/odd.png", "m/stills/loop.png")
    path = "/dev/zero" if how == "dev-zero" else "stills/odd.png"
    manifest = os.path.join(root, MANIFEST)
    with open(manifest) as handle:
        text = handle.read()
    with open(manifest, "w") as handle:
        handle.write(text.replace('"stills/jpeg-420.jpg"', json.dumps(path), 1))
    check = rng.random() < 0.3
    argv = ["batch", MANIFEST] + (["--check"] if check else [])
    return Case(index=0, category="files", kind=f"files/manifest-image-{how}", owner="harden-stills", runs=[argv],
                batch=True, expect=frozenset({1, 2, 64}), names=[MANIFEST, path], outputs=[] if check else outputs,
                owned=[] if check else batch_owned(MANIFEST, outputs, ""), note=f"a job's image is {how}")


GENERATORS = [(odd_manifest_image, 1), (lock_link, 2), (sidecar_link, 2), (report_link, 1), (foreign_output, 3), (linked_duplicate, 1),
              (race, 2), (interrupted, 3)]
