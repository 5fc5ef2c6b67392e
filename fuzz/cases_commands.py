"""Cases about command lines: flags with extreme values, malformed command lines, odd input
paths (links, loops, FIFOs, sockets, devices, folders, `..`, names with newlines and escape
sequences) and odd outputs (names that exist, links to someone else's file, missing folders,
stale temporaries of dead processes).
"""

import os

import stills
import values
from case import TINY, Case, cheap_output, copy_still, fifo, render_flags, symlink, unix_socket, victim, write

INPUT_OWNER, STILLS_OWNER, FILES_OWNER = "harden-input", "harden-stills", "harden-files"

# Flags that need an output that uses them, or the run is refused for an unused setting.
OUTPUT_FOR = {"crf": "out.mp4", "bitrate": "out.mp4", "codec": "out.mkv", "pix-fmt": "out.mp4",
              "encoder-preset": "out.mp4", "gif-fps": "out.gif", "gif-width": "out.gif", "poster-at": "out.png"}
# Odd strings a command line can carry (an argument cannot hold a NUL byte).
ARGV_STRINGS = [s for s in values.STRINGS if "\x00" not in s]
# The same odd name in every case folder, so a finding's reproducer reads the same.
ODD_NAMES = ["in\nnew.png", "in\x1b[31mred.png", "in\x1b]0;title\x07.png", "-in.png", "in .png", "in:1.png",
             "in%d.png", "é🙂.png", "in\\x.png", "in\rx.png", "x" * 240 + ".png", "in\x7f.png", "in\u202egnp.png",
             "file:in.png", "pipe:0.png", "concat:in.png"]  # names libavformat could read as protocols


def _two_stills(rng, root, corpus):
    sound = [s for s in corpus if s.name in ("png-rgb.png", "jpeg-420.jpg", "webp-lossy.webp")]
    a, b = rng.sample(sound, 2)
    return (copy_still(root, "a" + os.path.splitext(a.name)[1], a),
            copy_still(root, "b" + os.path.splitext(b.name)[1], b))


def flag_values(rng, root, ctx):
    """One to three flags with extreme values (`--flag value` or `--flag=value`). Flags that
    decide the amount of work only plan (--dry-run)."""
    a, b = _two_stills(rng, root, ctx.corpus)
    flags = rng.sample(sorted(values.VALUES), rng.choice([1, 1, 1, 2, 3]))
    argv, invalid, plans, output = ["make", "--from", a, "--to", b], False, False, None
    names, given = [], []
    for flag in flags:
        text, bad = values.field_value(rng, flag) if rng.random() < 0.85 else (rng.choice(ARGV_STRINGS), False)
        plans = plans or flag in values.COST_FIELDS
        given.append((flag, text, bad))
        output = OUTPUT_FOR.get(flag, output)
        spelled = "--jobs" if flag == "jobs" else "--" + flag
        argv += [f"{spelled}={text}"] if rng.random() < 0.3 else [spelled, text]
        names += [spelled, flag]
    output = output or cheap_output(rng, root)
    # rgb24, a bad pixel format for a video, is a PNG's own (--poster-at chose out.png).
    invalid = any(bad and not (flag == "pix-fmt" and text == "rgb24" and output.endswith(".png")) for flag, text, bad in given)
    names.append(output)  # a refusal may rightly name the output the value does not fit
    argv += ["-o", output, "-q"]
    # TINY's flags are all work-deciding, so they never clash with a fuzzed flag given here.
    argv += ["--dry-run"] if plans else TINY
    expect = {64} if invalid else {0, 64, 69}
    return Case(index=0, category="cli", kind=f"flag/{flags[0]}", owner=INPUT_OWNER, runs=[argv],
                expect=frozenset(expect), names=names, outputs=[] if plans else [output],
                note=f"{'dry run' if plans else 'render'} with odd {', '.join(flags)}")


def malformed(rng, root, ctx):
    """Command lines that are wrong as a whole: unknown or repeated flags, missing values,
    odd output options, images mixed with --from, bad shards; all are usage errors (64)."""
    a, b = _two_stills(rng, root, ctx.corpus)
    images = ["--from", a, "--to", b]
    os.makedirs(os.path.join(root, "frames"), exist_ok=True)
    write(root, "m.json", '{"jobs": [{"id": "a", "images": ["%s", "%s"], "outputs": "o.png"}]}' % (a, b))
    choices = [
        (["make", "--bogus", "1"], ["--bogus"]), (["make", *images, "--fps"], ["--fps"]),
        (["make", *images, "--fps", "30", "--fps", "30"], ["--fps"]), (["make", *images, "--dry-run=yes"], ["--dry-run"]),
        (["make", *images, "-o", "out.mp4:crf=abc"], ["crf"]), (["make", *images, "-o", "out.mp4:bogus=1"], ["bogus"]),
        (["make", *images, "-o", "out.bogus"], ["out.bogus"]), (["make", *images, "-o", ""], ["-o", "output"]),
        (["make", "--from", a], ["--to", "--from"]), (["make", a], [a, "image"]), (["make", *images, a], ["--from", a]),
        (["make", *images, "-o", "o.mp4", "-o", "o.mp4"], ["o.mp4"]), (["make", *images, "-o", "-", "-o", "-"], ["-"]),
        (["make", *images, "-o", "frames/%d%d.png"], ["%d%d"]), (["make", *images, "-o", "frames/%s.png"], ["%s"]),
        (["make", *images, "-o", "o.mp4", "--background", "transparent"], ["o.mp4"]),
        (["make", *images, "-o", "o.gif:crf=0"], ["o.gif", "crf"]), (["make", *images, "--crf", "20", "-o", "o.gif"], ["--crf"]),
        (["make", *images, "-o", "o.mp4:crf=20:bitrate=1M"], ["crf", "bitrate"]), (["make", "-j"], ["--jobs"]),
        (["make", *images, "-" + "x" * 100000], ["unknown option"]), (["batch"], ["manifest"]),
        (["batch", "m.json", "m.json"], ["m.json"]), (["batch", "--check", "--report", "r.json", "m.json"], ["--report"]),
        (["batch", "m.json", "--shard", rng.choice(["3/2", "0/0", "a/b", "-1/2", "1/18446744073709551616",
                                                    "0/99999999999999999999", "auto/8", "0/", "/2", "0/2/2"])], ["--shard"]),
        (["batch", "m.json", "--log-format", "xml"], ["--log-format"]), ([rng.choice(["bogus", "", "MAKE"])], ["command"]),
        (["presets", "show", rng.choice(["nope", "", "../../etc/passwd", "\x1b[2J"])], ["preset", "nope"]),
    ]
    argv, names = rng.choice(choices)
    expect = {64, 66} if argv[0] == "presets" else {64}
    return Case(index=0, category="cli", kind=f"malformed/{argv[0] or 'empty'}", owner=INPUT_OWNER,
                runs=[argv], expect=frozenset(expect), names=names, outputs=[],
                owned=[".m.json.lock"], note="malformed command line")


def odd_input(rng, root, ctx):
    """The outgoing still given by an odd path: a link (chain, dangling, loop), a folder, a
    FIFO, a socket, a device, `..`, an empty or text file, or a sound still with an odd name."""
    a, b = _two_stills(rng, root, ctx.corpus)
    how = rng.choice(["link", "chain", "dangling", "loop", "folder", "fifo", "socket", "dev-null", "dev-zero",
                      "dotdot", "empty", "text", "odd-name", "odd-name", "odd-name"])
    expect, owner = {65, 66}, STILLS_OWNER
    if how == "link":
        subject, expect = symlink(root, "link.png", a), {0}
    elif how == "chain":
        previous = a
        for step in range(5):
            previous = symlink(root, f"chain{step}.png", previous)
        subject, expect = previous, {0}
    elif how == "dangling":
        subject = symlink(root, "dangling.png", "nowhere.png")
    elif how == "loop":
        symlink(root, "loop2.png", "loop1.png")
        subject = symlink(root, "loop1.png", "loop2.png")
    elif how == "folder":
        os.makedirs(os.path.join(root, "folder.png"))
        subject = "folder.png"
    elif how == "fifo":
        subject = fifo(root, "fifo.png")
    elif how == "socket":
        subject = unix_socket(root, "socket.png") or fifo(root, "fifo.png")
    elif how in ("dev-null", "dev-zero"):
        subject = "/dev/null" if how == "dev-null" else "/dev/zero"
    elif how == "dotdot":
        os.makedirs(os.path.join(root, "sub"))
        subject, expect = "sub/../" + a, {0}
    elif how == "empty":
        subject, expect = write(root, "empty.png", b""), {65}
    elif how == "text":
        subject, expect = write(root, "text.png", "not a picture\n"), {65}
    else:
        name = rng.choice(ODD_NAMES)
        with open(os.path.join(root, a), "rb") as handle:
            subject = write(root, name, handle.read())
        expect, owner = {0}, INPUT_OWNER
        if subject.startswith("-"):
            subject = "./" + subject
    output = cheap_output(rng, root)
    argv = ["make", "--from", subject, "--to", b, "-o", output, *render_flags(rng)]
    return Case(index=0, category="cli", kind=f"input/{how}", owner=owner, runs=[argv], expect=frozenset(expect),
                names=[subject], outputs=[output], note=f"--from {how}")


def odd_output(rng, root, ctx):
    """Odd outputs: names with control characters, a name that exists (a file, a link to
    someone else's file, a folder, the input itself), a missing or linked folder, a sequence
    over existing frames, a name too long for its temporary, stale temporaries."""
    a, b = _two_stills(rng, root, ctx.corpus)
    force = rng.random() < 0.4
    how = rng.choice(["odd-name", "odd-name", "colon", "exists", "link-to-victim", "folder", "input", "missing-folder",
                      "linked-folder", "dangling-folder", "file-as-folder", "frames-exist", "long-name", "stdout",
                      "stale", "stale", "wide-pattern", "deep-folder"])
    protected, gone, expect, owner = [], [], {0}, FILES_OWNER
    if how == "odd-name":
        output, owner = rng.choice(["out\nx.mp4", "out\x1b[2Jx.png", "é🙂.gif", "out\rx.y4m", "-out.png",
                                    "out\x07.mkv", "out\u202e4pm.png"]), INPUT_OWNER
        output = "./" + output if output.startswith("-") else output
    elif how == "colon":
        output = "12:30.mp4"
    elif how == "exists":
        output = victim(root, "out.mp4", "an existing output\n")
        expect, protected = ({0} if force else {73}), ([] if force else [output])
    elif how == "link-to-victim":
        victim(root, "victim.txt")
        output = symlink(root, "out.png", "victim.txt")
        expect, protected = ({0} if force else {73}), (["victim.txt"] if force else ["victim.txt", output])
    elif how == "folder":
        os.makedirs(os.path.join(root, "out.mp4"))
        output, expect = "out.mp4", {73, 74}
    elif how == "input":
        output = a = copy_still(root, "in.png", next(s for s in ctx.corpus if s.name == "png-rgb.png"))
        expect, protected = ({0} if force else {73}), ([] if force else [a])
    elif how == "missing-folder":
        output, expect = rng.choice(["missing/out.mp4", "missing/deeper/%03d.png"]), {0}
    elif how == "linked-folder":
        os.makedirs(os.path.join(root, "real"))
        symlink(root, "linked", "real")
        output = "linked/out.png"
    elif how == "dangling-folder":
        symlink(root, "gone", "nowhere")
        output, expect = "gone/out.png", {73}
    elif how == "file-as-folder":
        write(root, "file.txt", "a file\n")
        output, expect = "file.txt/out.png", {73}
    elif how == "frames-exist":
        frames = [victim(root, f"frames/{i:03d}.png", f"frame {i}\n") for i in range(rng.choice([1, 5, 40]))]
        victim(root, "frames/notes.txt")
        output = "frames/%03d.png"
        expect, protected = ({0} if force else {73}), (["frames/notes.txt"] + ([] if force else frames))
    elif how == "long-name":
        output, expect = "x" * rng.choice([200, 230, 251]) + ".png", {0, 73}
    elif how == "wide-pattern":
        # image2 prints a frame number into 19 characters at most.
        width = rng.choice(["19", "019", "20", "0020", "1000", "0999999999999999999999"])
        output, expect = "frames/f%" + width + "d.png", ({0} if int(width) <= 19 else {64})
        os.makedirs(os.path.join(root, "frames"), exist_ok=True)
    elif how == "deep-folder":
        # image2 forms each frame's path in 1024 bytes: the case folder plus 4 x 250 passes it.
        deep = "/".join(str(level) * 250 for level in range(4))
        os.makedirs(os.path.join(root, deep))
        output = rng.choice([deep + "/f%05d.png", deep + "/out.mp4"])
        expect = {73} if "%" in output else {0}
    elif how == "stdout":
        output = "-"
    else:
        output = cheap_output(rng, root)
        dead, alive = ".slicevid-99999999-1", ".slicevid-1-1"  # pid 99999999 never runs; pid 1 always does
        folder, name = os.path.split(output)
        if "%" in name:
            gone = [write(root, os.path.join(folder, dead, "000.png"), "stale frame\n")]
            protected = [write(root, os.path.join(folder, alive, "000.png"), "a live run's frame\n")]
        else:
            gone = [write(root, os.path.join(folder, f".{name}{dead}.partial"), "stale\n")]
            protected = [write(root, os.path.join(folder, f".{name}{alive}.partial"), "a live run's partial\n")]
    argv = ["make", "--from", a, "--to", b, "-o", output, *render_flags(rng)] + (["--force"] if force else [])
    return Case(index=0, category="cli", kind=f"output/{how}", owner=owner, runs=[argv], expect=frozenset(expect),
                names=[output, "-o"], outputs=[output], protected=protected, gone=gone,
                note=f"-o {how}{' --force' if force else ''}")


def probe(rng, root, ctx):
    """`slicevid probe` over stills, sound or mutated."""
    source = rng.choice([s for s in ctx.corpus if s.shape == "normal"])
    with open(source.path, "rb") as handle:
        data = handle.read()
    if rng.random() < 0.7:
        data, _ = stills.mutate(rng, data, source.family, ctx.corpus)
    subject = write(root, "probe" + os.path.splitext(source.name)[1], data)
    # `still` only for the memory allowance of a large still; probe describes damage, so FFmpeg's
    # verdict is not asked (damaged=False).
    return Case(index=0, category="cli", kind="probe", owner=STILLS_OWNER, runs=[["probe", subject]],
                expect=frozenset({0, 65, 66}), names=[subject], still=subject, damaged=False,
                note=f"probe {source.name}")


GENERATORS = [(flag_values, 10), (malformed, 3), (odd_input, 4), (odd_output, 5), (probe, 2)]
