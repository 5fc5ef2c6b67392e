"""Cases about JSON documents: mutated presets (`make --preset FILE`) and mutated manifests
(`slicevid batch`). Certainly invalid documents must be refused with 64 naming the file; the
others may run. A mutation of a field that decides the amount of work only plans
(--dry-run, --check), so a legitimately long render is never taken for a hang.
"""

import json
import os

import documents
import values
from case import TINY, Case, cheap_output, copy_still, weighted
from documents import Obj

INPUT_OWNER = "harden-input"


def _stills(rng, root, corpus, folder):
    """Two valid stills copied into `folder`; returns their paths relative to `root`."""
    sound = [s for s in corpus if s.shape == "normal" and s.required and s.family in ("png", "jpeg", "webp")]
    picks = rng.sample(sound, 2)
    return [copy_still(root, os.path.join(folder, f"s{i}{os.path.splitext(s.name)[1]}"), s) for i, s in enumerate(picks)]


def preset_case(rng, root, ctx):
    """`make --preset ./house.json` with a mutated preset file."""
    data, invalid, cost, name = documents.mutate(rng, documents.base_preset(rng))
    preset = documents_file(root, "house.json", data)
    images = _stills(rng, root, ctx.corpus, "stills")
    output = cheap_output(rng, root)
    argv = ["make", "--preset", "./" + preset, "--from", images[0], "--to", images[1], "-o", output, "-q"]
    plans = cost or rng.random() < 0.3
    # A real run overrides the fields that cost time, so only the preset's look is exercised.
    argv += ["--dry-run"] if plans else TINY + ["--end-hold", "0", "--stagger", "0", "--motion-blur", "1",
                                               "--slices", "8"]
    return Case(index=0, category="preset", kind=f"preset/{_first(name)}", owner=INPUT_OWNER, runs=[argv],
                expect=frozenset({64}) if invalid else frozenset({0, 64}), names=[preset],
                outputs=[] if plans else [output], note=f"mutations: {name}; {'dry run' if plans else 'render'}")


def documents_file(root, name, data):
    """Writes a document's bytes (or an iterable of chunks of them); returns its relative path."""
    path = os.path.join(root, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        for chunk in [data] if isinstance(data, bytes) else data:
            handle.write(chunk)
    return name


def _first(name):
    return name.split("+")[0]


def base_manifest(rng, images):
    """A valid manifest of one to three jobs over `images` (relative to the manifest), with
    outputs in out/ (a sequence in out/seq/ now and then) and the tiny render settings."""
    defaults = Obj([("size", "32x18"), ("fps", 10), ("hold", 0), ("duration", 0.2)])
    if rng.random() < 0.5:
        defaults.append(("encoder-preset", "ultrafast"))
    jobs = []
    for number in range(rng.randint(1, 3)):
        job = Obj([("id", f"job{number}"),
                   ("images", [images[0], Obj([("path", images[1]), ("hold", 0)]) if rng.random() < 0.3 else images[1]])])
        outputs = [f"out/j{number}{weighted(rng, [('.mp4', 3), ('.png', 3), ('.gif', 2), ('.mkv', 1), ('.y4m', 1)])}"]
        if rng.random() < 0.2:
            outputs.append(f"out/seq{number}/%03d.png")
        if rng.random() < 0.2:
            job.append(("transitions", [Obj([("easing", "linear")])]))
        job.append(("outputs", outputs if len(outputs) > 1 or rng.random() < 0.5 else outputs[0]))
        jobs.append(job)
    return Obj([("description", "fuzz campaign"), ("defaults", defaults), ("jobs", jobs)])


def output_paths(data, base):
    """Every output a manifest may name, relative to the case folder: those of the valid base
    document and, when the mutated text still parses, of the mutated one."""
    found = set()

    def collect(node, under_outputs=False):
        if isinstance(node, dict):
            for key, value in node.items():
                collect(value, under_outputs or key == "outputs")
        elif isinstance(node, list):
            for value in node:
                collect(value, under_outputs)
        elif isinstance(node, str) and under_outputs:
            found.add(strip_options(node))

    collect(json.loads(documents.dumps(base)))
    try:
        collect(json.loads(data.decode("utf-8", errors="strict")))
    except (ValueError, RecursionError):
        pass
    return sorted(os.path.normpath(os.path.join("m", p)) for p in found if p and not os.path.isabs(p))


def strip_options(text):
    """The path of an output argument: `:KEY=VALUE` parts after it are options."""
    parts = text.split(":")
    while len(parts) > 1 and "=" in parts[-1]:
        parts.pop()
    return ":".join(parts)


def _output_folders(root):
    """The folders base_manifest's outputs go to (a batch does not make them)."""
    for number in range(3):
        os.makedirs(os.path.join(root, f"m/out/seq{number}"), exist_ok=True)


def batch_flags(rng, cost):
    """`batch` flags: --check when work-deciding fields were touched (or at random), else a
    real run with --force, --report, a log format and threads at random."""
    flags, report = [], ""
    if cost or rng.random() < 0.25:
        flags.append("--check")
    else:
        if rng.random() < 0.2:
            flags.append("--force")
        if rng.random() < 0.4:
            report = "m/report.json"
            flags += ["--report", report]
        if rng.random() < 0.5:
            # Not "progress": redrawing a line with carriage returns is its point.
            flags += ["--log-format", rng.choice(["auto", "plain", "json"])]
        if rng.random() < 0.3:
            flags += ["-j", rng.choice(["1", "2"])]
        if rng.random() < 0.2:
            flags.append("-q")
    return flags, report


def manifest_case(rng, root, ctx):
    """`batch m/campaign.json` over a mutated manifest."""
    images = [os.path.relpath(p, "m") for p in _stills(rng, root, ctx.corpus, "m/stills")]
    _output_folders(root)
    base = base_manifest(rng, images)
    data, invalid, cost, name = documents.mutate(rng, _copy(base))
    manifest = documents_file(root, "m/campaign.json", data)
    flags, report = batch_flags(rng, cost)
    # --check renders nothing, takes no lock and writes nothing.
    outputs = [] if "--check" in flags else output_paths(data, base)
    return Case(index=0, category="manifest", kind=f"manifest/{_first(name)}", owner=INPUT_OWNER,
                runs=[["batch", manifest, *flags]], batch=True,
                expect=frozenset({64}) if invalid else frozenset({0, 1, 2, 64}), names=[manifest],
                outputs=outputs, owned=[] if "--check" in flags else batch_owned("m/campaign.json", outputs, report),
                report=report,
                note=f"mutations: {name}; flags {' '.join(flags) or '(none)'}")


def odd_job_id(rng, root, ctx):
    """A valid manifest whose job id carries newlines, escape sequences, bidi controls or
    100 KB: ids are any non-empty text, so the batch runs, and every log line it prints must
    stay one line with its control characters escaped."""
    images = [os.path.relpath(p, "m") for p in _stills(rng, root, ctx.corpus, "m/stills")]
    _output_folders(root)
    base = base_manifest(rng, images)
    jobs = base.get("jobs")
    job = rng.choice(jobs)
    job.set("id", rng.choice([s for s in values.STRINGS if s.strip()]))
    if rng.random() < 0.3:
        job.set("images", [images[0], "missing.png"])  # a failing job: its id is printed again
    data = documents.dumps(base).encode()
    manifest = documents_file(root, "m/campaign.json", data)
    flags = ["--log-format", rng.choice(["auto", "plain", "json"])] + (["--check"] if rng.random() < 0.3 else [])
    outputs = [] if "--check" in flags else output_paths(data, base)
    return Case(index=0, category="manifest", kind="manifest/odd-id", owner=INPUT_OWNER, runs=[["batch", manifest, *flags]],
                batch=True, expect=frozenset({0, 1, 2, 64}), names=[manifest], outputs=outputs,
                owned=[] if "--check" in flags else batch_owned("m/campaign.json", outputs, ""),
                note=f"job id {job.get('id')[:40]!r}; flags {' '.join(flags)}")


def _copy(node):
    """A deep copy of a document tree."""
    if isinstance(node, Obj):
        return Obj((k, _copy(v)) for k, v in node)
    if isinstance(node, list):
        return [_copy(v) for v in node]
    return node


def batch_owned(manifest, outputs, report):
    """What a batch may write besides its outputs: their sidecars, the lock files beside the
    manifest, the report."""
    folder, name = os.path.split(manifest)
    owned = [os.path.join(folder, f".{name}.lock"), os.path.join(folder, f".{name}.shard-*.lock")]
    owned += [os.path.join(os.path.dirname(o), f".{os.path.basename(o)}.slicevid.json") for o in outputs]
    return owned + ([report] if report else [])



