"""Cases about paths, standard output and signals during a decode (issue 23):

- `%` and bytes that are not UTF-8 in every path argument (stills, outputs and their folders,
  sequences, --audio, --preset, --layout, manifests and their folders, --report, report merge,
  probe): an existing file is that file, byte for byte, and messages show such a byte as \\xFF;
- FIFOs and device nodes (and sockets) as every path (report, lock, output, sequence frame,
  sidecar, merged report, input, preset, manifest, song, layout): never replaced, never written
  (a FIFO's writes reach a reader the harness holds; a device node written would be /dev/full's
  ENOSPC, a 74 no case expects), refused with their documented code;
- standard output on /dev/full (74, one line) or a pipe whose reader has gone (a quiet 141; a
  video stream, `make -o -`, is 74 with one line, as docs/exit-codes.md says);
- SIGINT or SIGTERM at a random moment of a still's, an SVG's or a song's decode (and of probe
  and batch): never a crash, 130/143 with one line, no temporary left, a batch's report kept.

Names are Python strings whose bytes that are not UTF-8 ride as surrogates (os.fsdecode), so
subprocess and every os call hand them over byte for byte.
"""

import os
import signal
import stat
import subprocess

import media
from case import TINY, Case, copy_still, fifo, unix_socket, write
from cases_documents import batch_owned

PATHS_OWNER, FILES_OWNER, STREAMS_OWNER, SIGNALS_OWNER = "harden-paths", "harden-files", "harden-streams", "harden-signals"

# Pieces of names: printf patterns, bytes that are not UTF-8 (a lone lead, a stray continuation,
# an encoded surrogate, an overlong form), and U+FFFD spelled out (what a lossy decoder puts in).
PERCENT = [b"%", b"%%", b"%d", b"%05d", b"%s", b"%n", b"%%d"]
BYTES = [b"\xff", b"\xfe\xfe", b"\xc3", b"\x80", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe9t\xe9", b"\xef\xbf\xbd"]
MIXED = [b"%\xff", b"\xff%d", b"%%\x80"]
SOUND_STILLS = ("png-rgb.png", "jpeg-420.jpg")
TINY_MANIFEST = ('{"defaults": {"size": "32x18", "fps": 10, "hold": 0, "duration": 0.2}, "jobs": '
                 '[{"id": "one", "images": ["%s", "%s"], "outputs": ["%s"]}]}\n')


def name(rng, stem, extension, pieces=None):
    """`stem` + an odd piece + `extension`, as a str that carries the piece's bytes."""
    piece = rng.choice(pieces or (PERCENT + BYTES + BYTES + MIXED))
    return os.fsdecode(stem.encode() + piece + extension.encode())


def _shown(raw):
    """How slicevid's log lines show a path of bytes `raw`: each byte that is not UTF-8 as \\xFF."""
    out, index = [], 0
    while index < len(raw):
        for length in (1, 2, 3, 4):
            try:
                out.append(raw[index:index + length].decode("utf-8"))
                index += length
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"\\x{raw[index]:02X}")
            index += 1
    return "".join(out)


def _still(rng, root, ctx, relative):
    """A sound still of the corpus copied to `relative`."""
    wanted = rng.choice(SOUND_STILLS)
    source = next(s for s in ctx.corpus if s.name == wanted)
    return copy_still(root, relative, source)


def _partner(root, ctx):
    """The still the case's subject makes a clip with."""
    return copy_still(root, "partner.png", next(s for s in ctx.corpus if s.name == "png-rgb.png"))


def _batch_report(ctx, root, manifest, report):
    """Runs the batch of `manifest` now, while the case is built, for a report `report merge`
    can read; its outputs and records are then part of the case's starting tree."""
    done = subprocess.run([ctx.binary, "batch", "-q", manifest, "--report", report], cwd=root,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_plain_env(root), timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"building a shard report failed ({done.returncode}): {done.stderr[-300:]!r}")


def _plain_env(root):
    """The environment fuzz.py gives slicevid (no preset or shard variables, temporaries in the case)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SLICEVID_PRESETS", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID")}
    env["TMPDIR"] = os.path.join(root, "tmp")
    return env


def _exists_check(paths):
    """A check that each of `paths` (relative, byte names) exists after a run that succeeded."""
    def check(case, results, root):
        if not all(r.code == 0 for r in results):
            return []
        missing = [p for p in paths if not os.path.lexists(os.path.join(root, p))]
        return [("not-written", f"exit 0 but nothing at {missing[0]!r} (its bytes: {os.fsencode(missing[0])!r})")] if missing else []
    return check


def _stderr_check(case, results, root):
    """Log lines are UTF-8 and show every byte that is not UTF-8 escaped: no raw byte, and no
    private-use stand-in (U+EF80–U+EFFF) left unescaped."""
    findings = []
    for result in results:
        try:
            text = result.stderr.decode("utf-8")
        except UnicodeDecodeError as error:
            findings.append(("raw-bytes", f"stderr is not UTF-8 at byte {error.start}: {result.stderr[max(0, error.start - 30):error.start + 10]!r}"))
            continue
        stray = [c for c in text if 0xEF80 <= ord(c) <= 0xEFFF]
        if stray:
            findings.append(("raw-bytes", f"stderr shows a path's byte as U+{ord(stray[0]):04X} instead of \\x{ord(stray[0]) - 0xEF00:02X}"))
    return findings


def odd_path(rng, root, ctx):
    """`%` and bytes that are not UTF-8 in one path argument: an existing file is read (or an
    output written) under exactly its bytes; a missing one is refused naming it escaped."""
    role = rng.choice(["from", "to", "positional", "output", "output-folder", "sequence-folder", "audio", "preset",
                       "layout", "manifest", "manifest-folder", "report", "merge", "probe", "probe-json", "missing-input",
                       "missing-probe"])
    flags = list(TINY) + ["-q"]
    expect, outputs, names, owned, checks, batch = {0}, [], [], [], [_stderr_check], False
    a, b = "a.png", _partner(root, ctx)
    output = "out.mp4"
    if role in ("from", "to", "positional"):
        subject = _still(rng, root, ctx, name(rng, "in", ".png"))
        images = {"from": ["--from", subject, "--to", b], "to": ["--from", b, "--to", subject],
                  "positional": [subject, b]}[role]
        output = rng.choice(["out.mp4", "out.png", "out.gif"])
        argv = ["make", *images, "-o", output, *flags]
        outputs, names = [output], [_shown(os.fsencode(subject))]
    elif role == "output":
        _still(rng, root, ctx, a)
        # A poster's name with a % other than one frame number is refused (64) as a broken pattern.
        output = name(rng, "out", rng.choice([".mp4", ".mkv", ".gif", ".y4m"]))
        if rng.random() < 0.3:
            output = name(rng, "out", ".png", BYTES)
        argv = ["make", "--from", a, "--to", b, "-o", output, *flags]
        outputs, names = [output], [_shown(os.fsencode(output))]
    elif role in ("output-folder", "sequence-folder"):
        _still(rng, root, ctx, a)
        folder = name(rng, "dir", "", BYTES + MIXED[:1] + [b"%", b"%%"])
        if rng.random() < 0.5:
            os.makedirs(os.path.join(root, folder))
        output = os.path.join(folder, "%03d.png" if role == "sequence-folder" else rng.choice(["out.mp4", "out.png"]))
        argv = ["make", "--from", a, "--to", b, "-o", output, *flags]
        outputs, names = [output], [_shown(os.fsencode(output))]
        # A sequence's pattern holds no % but its frame number, folders included (docs/outputs.md).
        if role == "sequence-folder" and "%" in folder:
            expect, outputs = {64}, []
    elif role == "audio":
        _still(rng, root, ctx, a)
        song = write(root, name(rng, "song", ".wav"), media.wav(2, "s16", seconds=0.5))
        output = rng.choice(["out.mp4", "out.mkv"])
        argv = ["make", "--from", a, "--to", b, "--audio", song, "-o", output, *flags]
        outputs, names = [output], [_shown(os.fsencode(song))]
    elif role == "preset":
        _still(rng, root, ctx, a)
        preset = write(root, os.path.join(name(rng, "kit", "", BYTES), name(rng, "house", ".json")),
                       '{"slices": 8, "easing": "ease-out", "background": "#102030"}\n')
        argv = ["make", "--preset", preset, "--from", a, "--to", b, "-o", output, *flags]
        outputs, names = [output], [_shown(os.fsencode(preset))]
    elif role == "layout":
        _still(rng, root, ctx, a)
        folder = name(rng, "brand", "", BYTES)
        _still(rng, root, ctx, os.path.join(folder, "logo%d.png"))
        layout = write(root, os.path.join(folder, name(rng, "layout", ".json")),
                       '{"layers": [{"on": "over", "image": "logo%d.png", "box": [0.7, 0.05, 0.25, 0.3]}]}\n')
        argv = ["make", "--layout", layout, "--from", a, "--to", b, "-o", output, *flags]
        outputs, names = [output], [_shown(os.fsencode(layout))]
    elif role in ("manifest", "manifest-folder", "report", "merge"):
        folder = name(rng, "m", "", BYTES + [b"%", b"%d"]) if role != "report" or rng.random() < 0.5 else "m"
        images = [rng.choice(["s0.png", "in%d.png", "a%%b.png", "p%.png"]), rng.choice(["s1.png", "x%05d.png"])]
        for image in images:
            _still(rng, root, ctx, os.path.join(folder, image))
        manifest = os.path.join(folder, name(rng, "c", ".json") if role == "manifest" else "c.json")
        job_output = rng.choice(["out/a.png", "out/a.mp4", "out/%03d.png", "o%%/a.mp4"])
        if role == "merge" and "%" in folder and "%03d" in job_output:
            job_output = "out/a.png"
        write(root, manifest, TINY_MANIFEST % (images[0], images[1], job_output))
        outputs = [os.path.normpath(os.path.join(folder, job_output))]
        report = os.path.join(folder, name(rng, "r", ".json")) if role in ("report", "merge") else ""
        batch = role != "merge"
        owned = batch_owned(manifest, outputs, report)
        if role == "merge":
            _batch_report(ctx, root, manifest, report)
            merged = name(rng, "merged", ".json")
            argv = ["report", "merge", report, "-o", merged]
            outputs, owned = [merged], []
            names = [_shown(os.fsencode(report)), _shown(os.fsencode(merged))]
        else:
            argv = ["batch", manifest] + (["--report", report] if report else []) + rng.choice([[], ["-q"], ["--check"]])
            if "--check" in argv:
                argv = [x for x in argv if x not in ("--report", report)]
                outputs, owned, report = [], batch_owned(manifest, [], ""), ""
            names = [_shown(os.fsencode(manifest))] + ([_shown(os.fsencode(report))] if report else [])
            if "%" in folder and "%03d" in job_output:
                # Refused before anything runs: a sequence's path holds no other %.
                expect, outputs, owned = {64}, [], batch_owned(manifest, [], "")
            checks.append(_exists_check([p for p in outputs if "%" not in os.path.basename(p)] + ([report] if report else [])))
    elif role in ("probe", "probe-json"):
        subject = _still(rng, root, ctx, name(rng, "p", rng.choice([".png", ".jpg"])))
        argv = ["probe", subject] + (["--json"] if role == "probe-json" else [])
        names = [_shown(os.fsencode(subject))]
        checks.append(_probe_check(subject, role == "probe-json"))
    else:
        # Names that hold nothing: refused as missing (66), named as a person can read them.
        _still(rng, root, ctx, a)
        missing = name(rng, "gone", ".png")
        argv = ["probe", missing] if role == "missing-probe" else ["make", "--from", missing, "--to", b, "-o", output, *flags]
        expect, names = {66}, [_shown(os.fsencode(missing))]
    return Case(index=0, category="paths", kind=f"paths/bytes-{role}", owner=PATHS_OWNER, runs=[argv],
                expect=frozenset(expect), names=names, outputs=outputs, owned=owned, batch=batch,
                report=argv[argv.index("--report") + 1] if "--report" in argv else "", verify=checks,
                note=f"{role}: {' '.join(_shown(os.fsencode(a)) for a in argv)}"[:300])


def _probe_check(subject, json_lines):
    """probe's line (or JSON object) names the file: escaped in a line, as U+EF00 + byte in JSON."""
    def check(case, results, root):
        result = results[0]
        if result.code != 0:
            return []
        text = result.stdout.decode("utf-8", errors="replace")
        if json_lines:
            import json
            try:
                path = json.loads(text.splitlines()[0])["path"]
            except (ValueError, KeyError, IndexError) as error:
                return [("probe-output", f"probe --json printed no object with a path ({error}): {text[:200]!r}")]
            wanted = "".join(chr(0xEF00 + ord(c) - 0xDC00) if 0xDC80 <= ord(c) <= 0xDCFF else c for c in subject)
            return [] if path == wanted else [("probe-output", f"probe --json names {path!r}, not {wanted!r}")]
        line = _shown(os.fsencode(subject)) + ": container="
        return [] if text.startswith(line) else [("probe-output", f"probe's line does not start {line!r}: {text[:200]!r}")]
    return check


# Roles a FIFO or device node takes: (role, writes there) — where slicevid would write, the
# harness reads (a FIFO) or fails every write (a copy of /dev/full), so a write shows.
NODE_ROLES = [("report", True), ("lock", True), ("output", True), ("frame", True), ("sidecar", True),
              ("merge-output", True), ("input", False), ("preset", False), ("manifest", False), ("song", False),
              ("layout", False), ("merge-input", False)]


def _node(rng, root, relative, writes):
    """Makes `relative` a FIFO, a character device or a socket; returns (what, a reader's
    descriptor for a FIFO written to, or None). A device is a copy of /dev/full where slicevid
    might write (every write fails) and of /dev/zero where it might read (a read never ends);
    without the right to make one (not root), a FIFO."""
    kind = rng.choice(["fifo", "fifo", "device", "device", "socket"])
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 7 if writes else 5))
            return "device", None
        except PermissionError:
            kind = "fifo"
    if kind == "socket" and unix_socket(root, relative) is not None:
        return "socket", None
    fifo(root, relative)
    return "fifo", os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC) if writes else None


def _fifo_check(relative, reader):
    """Nothing was written into the FIFO at `relative`: the harness holds its reading end."""
    def check(case, results, root):
        try:
            data = os.read(reader, 1 << 16)
        except BlockingIOError:
            data = b""
        finally:
            os.close(reader)
        return [("written", f"{len(data)} byte(s) written into the FIFO {relative!r}: {data[:40]!r}")] if data else []
    return check


def _system_node_check(path):
    """`path` (/dev/null, /dev/zero, /dev/full) is still the character device it was."""
    def check(case, results, root):
        return [] if stat.S_ISCHR(os.lstat(path).st_mode) else [("replaced", f"{path} is no longer a character device")]
    return check


def special_file(rng, root, ctx):
    """A FIFO, a device node or a socket as one path: refused with its documented code, with or
    without --force, never replaced and never written; a read-only role may also be given
    /dev/null, /dev/zero or /dev/full itself."""
    role, writes = rng.choice(NODE_ROLES)
    force = ["--force"] if rng.random() < 0.5 else []
    flags = list(TINY) + ["-q"]
    manifest, report, outputs, batch, checks = "m/c.json", "", [], False, [_stderr_check]
    a, b = _still(rng, root, ctx, "a.png"), _partner(root, ctx)
    system = not writes and rng.random() < 0.3
    node = {"report": "m/report.json", "lock": rng.choice(["m/.c.json.lock", "m/.c.json.shard-0-of-2.lock"]),
            "output": rng.choice(["out.mp4", "out.png", "out.gif", "out.y4m", "out.mkv"]), "frame": "frames/000.png",
            "sidecar": "m/out/.a.png.slicevid.json", "merge-output": "merged.json", "input": "in.png",
            "preset": "house.json", "manifest": "n/c.json", "song": "song.wav", "layout": "layout.json",
            "merge-input": "shard.json"}[role]
    if system:
        node, what, reader = rng.choice(["/dev/null", "/dev/zero", "/dev/full"]), "system", None
        checks.append(_system_node_check(node))
    else:
        what, reader = _node(rng, root, node, writes)
        if reader is not None:
            checks.append(_fifo_check(node, reader))
    if role in ("report", "lock", "sidecar", "merge-output", "manifest"):
        _still(rng, root, ctx, "m/s0.png")
        _still(rng, root, ctx, "m/s1.png")
        write(root, manifest, TINY_MANIFEST % ("s0.png", "s1.png", "out/a.png"))
    if role == "merge-output":
        _batch_report(ctx, root, manifest, "m/r.json")
    expect = {66}
    if role == "report":
        argv, expect, report, batch = ["batch", manifest, "--report", node, *force], {73}, node, True
    elif role == "lock":
        argv, expect, batch = ["batch", manifest, *force] + (["--shard", "0/2"] if "shard" in node else []), {73, 75}, True
    elif role == "sidecar":
        argv, expect, batch = ["batch", manifest, *force] + rng.choice([[], ["--check"]]), {2}, True
    elif role == "merge-output":
        argv, expect = ["report", "merge", "m/r.json", "-o", node, *force], {73}
    elif role == "output":
        argv, expect, outputs = ["make", "--from", a, "--to", b, "-o", node, *flags, *force], {73}, [node]
    elif role == "frame":
        argv, expect, outputs = ["make", "--from", a, "--to", b, "-o", "frames/%03d.png", *flags, *force], {73}, ["frames/%03d.png"]
    elif role == "input":
        argv = ["make", "--from", node, "--to", b, "-o", "out.mp4", *flags] if rng.random() < 0.7 else ["probe", node]
    elif role == "preset":
        argv = ["make", "--preset", node if node.startswith("/") else "./" + node, "--from", a, "--to", b, "-o", "out.mp4", *flags]
    elif role == "manifest":
        argv, batch = ["batch", node] + rng.choice([[], ["--check"], ["--plan"]]), True
    elif role == "song":
        argv = ["make", "--from", a, "--to", b, "--audio", node, "-o", "out.mp4", *flags]
    elif role == "layout":
        argv = ["make", "--layout", node, "--from", a, "--to", b, "-o", "out.mp4", *flags]
    else:
        argv = ["report", "merge", node, "-o", "merged.json"]
    owned = batch_owned(manifest, ["m/out/a.png"], report) if batch and role != "manifest" else []
    return Case(index=0, category="paths", kind=f"paths/node-{role}", owner=FILES_OWNER, runs=[argv],
                expect=frozenset(expect), names=[node, _shown(os.fsencode(node))], outputs=outputs,
                owned=owned, protected=[] if system else [node], batch=batch, report=report, verify=checks,
                note=f"{role} is {what if not system else node}{' with --force' if force else ''}")


def _stdout_commands(rng, root, ctx):
    """A command that writes to standard output, and whether it writes a video stream."""
    a, b = _still(rng, root, ctx, "a.png"), _partner(root, ctx)
    choice = rng.choice(["presets", "presets-show", "preset-file", "probe", "probe-json", "dry-run", "dry-run-json",
                         "stream", "merge", "help", "help-make", "man", "completions", "version"])
    if choice == "preset-file":
        write(root, "house.json", '{"slices": 8}\n')
    if choice == "merge":
        _still(rng, root, ctx, "m/s0.png")
        _still(rng, root, ctx, "m/s1.png")
        write(root, "m/c.json", TINY_MANIFEST % ("s0.png", "s1.png", "out/a.png"))
        _batch_report(ctx, root, "m/c.json", "m/r.json")
    argv = {"presets": ["presets"], "presets-show": ["presets", "show", "spring"], "preset-file": ["presets", "show", "./house.json"],
            "probe": ["probe", a, b], "probe-json": ["probe", "--json", a, b],
            "dry-run": ["make", "--from", a, "--to", b, *TINY, "--dry-run", "-o", "out.mp4", "-o", "out.gif"],
            "dry-run-json": ["make", "--from", a, "--to", b, *TINY, "--dry-run", "--json", "-o", "out.mp4"],
            "stream": ["make", "--from", a, "--to", b, *TINY, "-o", "-", "-q"], "merge": ["report", "merge", "m/r.json", "-o", "-"],
            "help": ["--help"], "help-make": ["help", "make"], "man": ["man"],
            "completions": ["completions", rng.choice(["bash", "zsh", "fish"])], "version": ["--version"]}[choice]
    return choice, argv, choice == "stream"


def stdout_error(rng, root, ctx):
    """Standard output that cannot be written: /dev/full (74 and one line naming standard
    output or `-o -`) or a pipe whose reader has gone (a quiet 141; a video stream, 74 and one
    line)."""
    sink = rng.choice(["full", "closed-pipe"])
    choice, argv, stream = _stdout_commands(rng, root, ctx)
    expect = {74} if sink == "full" or stream else {141}
    checks = [_stderr_check]
    if expect == {141}:
        checks.append(lambda case, results, root: [] if not results[0].stderr or results[0].code != 141 else
                      [("message", f"141 for a reader that went away is quiet, but stderr says {results[0].stderr[:200]!r}")])
    return Case(index=0, category="paths", kind=f"paths/stdout-{sink}-{choice}", owner=STREAMS_OWNER, runs=[argv],
                expect=frozenset(expect), names=["standard output", "-o -"], outputs=["-"], stdout=sink, verify=checks,
                note=f"{choice} with standard output {'on /dev/full' if sink == 'full' else 'a pipe nobody reads'}")


# Inputs that take a moment to decode (made once, cached beside the corpus): (name, how).
SLOW_INPUTS = {
    "big.png": ["-f", "lavfi", "-i", "testsrc2=size=3000x2000", "-frames:v", "1"],
    "big.jpg": ["-f", "lavfi", "-i", "testsrc2=size=4000x3000", "-frames:v", "1", "-pix_fmt", "yuvj420p"],
    "big.webp": ["-f", "lavfi", "-i", "testsrc2=size=2400x1600", "-frames:v", "1", "-c:v", "libwebp"],
    "big.avif": ["-f", "lavfi", "-i", "testsrc2=size=1280x720", "-frames:v", "1", "-c:v", "libaom-av1", "-still-picture", "1",
                 "-cpu-used", "8"],
    "big.jxl": ["-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "1", "-c:v", "libjxl"],
    "long.ogg": ["-f", "lavfi", "-i", "sine=frequency=440:duration=40:sample_rate=44100", "-ac", "2", "-c:a", "libvorbis"],
    "long.wav": ["-f", "lavfi", "-i", "sine=frequency=330:duration=40:sample_rate=48000", "-ac", "2"],
    "long.mp3": ["-f", "lavfi", "-i", "sine=frequency=550:duration=40", "-ac", "2", "-c:a", "libmp3lame"],
}
_unavailable = set()


def _svg(shapes, seed):
    """An SVG of blurred, overlapping shapes: librsvg takes a while over its filters."""
    import random
    shuffle = random.Random(seed)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900">',
             '<filter id="b"><feGaussianBlur stdDeviation="25"/></filter>']
    for _ in range(shapes):
        parts.append(f'<circle cx="{shuffle.randint(0, 1600)}" cy="{shuffle.randint(0, 900)}" r="{shuffle.randint(40, 300)}" '
                     f'fill="#{shuffle.randint(0, 0xFFFFFF):06x}" fill-opacity="0.7" filter="url(#b)"/>')
    return ("".join(parts) + "</svg>\n").encode()


def _slow_input(ctx, name):
    """The cached file `name` (made on first use, atomically: workers may ask at once); None
    when this machine's ffmpeg cannot make it."""
    folder = os.path.join(ctx.out, "corpus", "paths")
    path = os.path.join(folder, name)
    if name in _unavailable:
        return None
    if not os.path.exists(path):
        os.makedirs(folder, exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp{os.path.splitext(name)[1]}"
        if name.startswith("blur"):
            import gzip
            data = _svg(40, 1)
            with open(temporary, "wb") as handle:
                handle.write(gzip.compress(data, mtime=0) if name.endswith(".svgz") else data)
        else:
            done = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", *SLOW_INPUTS[name], "-bitexact", temporary],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if done.returncode != 0:
                _unavailable.add(name)
                return None
        os.replace(temporary, path)
    return path


def _link_in(ctx, root, name, relative):
    """The cached `name` in the case folder at `relative` (a hard link: no copy of megabytes)."""
    source = _slow_input(ctx, name)
    if source is None:
        return None
    target = os.path.join(root, relative)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        with open(source, "rb") as src, open(target, "wb") as dst:
            dst.write(src.read())
    return relative


def _one_line_when_stopped(case, results, root):
    """A make or probe that a signal stopped (130/143, its own exit) says so in one line."""
    result = results[0]
    if case.batch or result.code not in (130, 143):
        return []
    lines = [line for line in result.stderr.decode(errors="replace").split("\n") if line]
    return [] if len(lines) == 1 else [("message", f"{len(lines)} lines after a signal, expected one: {lines[:3]!r}"[:400])]


def decode_signal(rng, root, ctx):
    """SIGINT or SIGTERM (once or twice) at a random moment of a decode: a big PNG, JPEG, WebP,
    AVIF or JPEG XL, an SVG (or SVGZ) of blurred shapes, a 40 s song; in make, probe or a batch.
    Never a crash (134, 139); 130/143 with one line, or 0 when the run finished first; no
    temporary left; a batch still writes its report."""
    kinds = ["big.png", "big.jpg", "big.webp", "big.avif", "big.jxl", "blur.svg", "blur.svgz", "long.ogg", "long.wav", "long.mp3"]
    kind = rng.choice(kinds)
    subject = _link_in(ctx, root, kind, "input" + os.path.splitext(kind)[1])
    if subject is None:
        kind, subject = "big.png", _link_in(ctx, root, "big.png", "input.png")
    song = kind.startswith("long")
    partner = _partner(root, ctx)
    signals = [rng.choice([signal.SIGTERM, signal.SIGINT])] * rng.choice([1, 1, 2])
    plan = (round(rng.uniform(0.02, 0.9), 3), signals, rng.choice([0.01, 0.05, 0.2]))
    how = rng.choice(["make", "make", "probe", "batch"]) if not song else rng.choice(["make", "make", "batch"])
    size = ["--size", rng.choice(["320x180", "640x360"]), "--fps", "10", "--hold", "0", "--duration", "0.5", "-q"]
    outputs, owned, report, batch = [], [], "", False
    if how == "probe":
        argv = ["probe", subject]
    elif how == "make":
        output = rng.choice(["out.mp4", "out.png", "out.webm"])
        if song:
            argv = ["make", "--from", partner, "--to", partner, "--audio", subject, "-o", output, "--size", "32x18",
                    "--fps", "5", "--hold", "0", "--duration", str(rng.choice([5, 20, 39])), "-q"]
        else:
            argv = ["make", "--from", subject, "--to", partner, "-o", output, *size]
        outputs = [output]
    else:
        os.makedirs(os.path.join(root, "m"), exist_ok=True)
        os.rename(os.path.join(root, subject), os.path.join(root, "m", subject))
        copy_still(root, "m/partner.png", next(s for s in ctx.corpus if s.name == "png-rgb.png"))
        audio = f', "audio": "{subject}"' if song else ""
        images = '["partner.png", "partner.png"]' if song else f'["{subject}", "partner.png"]'
        write(root, "m/c.json", '{"defaults": {"size": "320x180", "fps": 10, "hold": 0, "duration": 0.5},\n "jobs": ['
                                f'{{"id": "one", "images": {images}, "outputs": ["out/a.mp4"]{audio}}},\n'
                                f' {{"id": "two", "images": ["partner.png", "partner.png"], "outputs": ["out/b.png"]}}]}}\n')
        report = "m/report.json"
        argv = ["batch", "m/c.json", "--report", report] + rng.choice([[], ["--parallel", "2"]])
        outputs, batch = ["m/out/a.mp4", "m/out/b.png"], True
        owned = batch_owned("m/c.json", outputs, report)
    names = [subject, os.path.basename(subject)]
    return Case(index=0, category="decode-signals", kind=f"signals/{how}-{kind}", owner=SIGNALS_OWNER, runs=[argv],
                expect=frozenset({0}), names=names, outputs=outputs, owned=owned, batch=batch, report=report,
                signal_plan=plan, verify=[_one_line_when_stopped, _stderr_check],
                note=f"{'+'.join(signal.Signals(s).name for s in signals)} after {plan[0]} s (then every {plan[2]} s) in {how} of {kind}")


GENERATORS = [(odd_path, 6), (special_file, 5), (stdout_error, 3)]
SIGNAL_GENERATORS = [(decode_signal, 1)]
