"""Cases about stills: mutated stills of every format (FFmpeg's own verdict decides whether a
mutation is damage), every valid variant unmutated, thin stills under --fit cover, and stills
over FFmpeg's pixel limit.
"""

import os
import subprocess

import stills
from case import Case, cheap_output, copy_still, render_flags, write

STILLS_OWNER = "harden-stills"


def oracle(path):
    """FFmpeg's verdict on a still: (damaged?, its first error line). Decoding the file's first
    picture with `ffmpeg -v error -i FILE -frames:v 1 -f null -` prints nothing and exits 0 for a
    sound file. Only the first picture: slicevid shows a still's first picture, so bytes after a
    whole picture (the image demuxers read them as a second, broken one) are no damage to it."""
    # FFmpeg's PNG, WebP and MJPEG parsers still read past the picture's end (IEND; the RIFF chunk; EOI)
    # with -frames:v 1 and report the bytes there as a broken next picture; slicevid reads a
    # still up to that end, so FFmpeg is asked about the picture alone.
    whole = _without_trailer(path)
    if whole != path:
        try:
            return oracle(whole)
        finally:
            os.unlink(whole)
    try:
        done = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-frames:v", "1", "-f", "null", "-"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20)
    except subprocess.TimeoutExpired:
        return True, "ffmpeg did not finish decoding in 20 s"
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    # FFmpeg 5.1's mov demuxer reads no HEIC at all and only part of HEIF's box structure;
    # slicevid reads every ISO-BMFF still (HEIC, AVIF, HEIF's kin) with libheif, so the
    # demuxer's complaints about the container are no verdict on them (their crash, hang and
    # one-line checks still apply). Told by content, as slicevid's StillRoute tells it: a file
    # named `in` or `photo.jpg` is HEIC when its bytes say so.
    if is_iso_bmff(path) and any(
            "moov atom not found" in line or "trak/mdat not at top-level" in line for line in lines):
        return False, ""
    return done.returncode != 0 or bool(lines), (lines[0] if lines else "")[:200]


def is_iso_bmff(path):
    """Whether the file starts like an ISO-BMFF file (a box whose type, at bytes 4–8, is
    `ftyp`): what slicevid hands to libheif as a still, whatever the file's name."""
    with open(path, "rb") as f:
        return f.read(8)[4:8] == b"ftyp"


def _without_trailer(path):
    """For a PNG with bytes after its IEND chunk, a WebP with bytes after its RIFF chunk, or a
    JPEG with bytes after its EOI, a copy that ends with the picture; otherwise `path`. A WebP whose RIFF size lies (its chunks
    overrun it) is refused by slicevid whatever FFmpeg says of the copy, which is right either
    way for a mutated still."""
    with open(path, "rb") as f:
        data = f.read()
    end = None
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        at = data.find(b"IEND")
        # The chunk's type, then its 4-byte CRC: the picture's last byte.
        end = at + 8 if at >= 0 else None
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        end = 8 + int.from_bytes(data[4:8], "little")
    elif data.startswith(b"\xff\xd8"):
        end = _jpeg_end(data)
    if end is None or end < 12 or end >= len(data):
        return path
    copy = path + ".picture" + os.path.splitext(path)[1]
    with open(copy, "wb") as f:
        f.write(data[:end])
    return copy


def _jpeg_end(data):
    """Where a JPEG's first picture ends (just past its EOI), walking its segments as
    FFmpeg's MJPEG parser does: lengths for marker segments, entropy-coded data after each
    scan up to the next marker that is not a stuffed 0xFF or a restart. None without an EOI.
    Bytes after it (a phone's second picture, a mutation's tail) are no part of the still."""
    i = 2
    while i + 1 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1                       # fill byte before a marker
            continue
        if marker == 0xD9:
            return i + 2
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:
            i += 2
            continue
        if i + 4 > len(data):
            return None
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDA:
            while i + 1 < len(data) and not (data[i] == 0xFF and data[i + 1] != 0x00 and not 0xD0 <= data[i + 1] <= 0xD7):
                i += 1
    return None


def decoded_pixels(path):
    """The still's width × height as FFmpeg reads its header (ffprobe), 0 when it cannot."""
    try:
        done = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                               "stream=width,height", "-of", "csv=p=0", path],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=20)
        width, height = done.stdout.decode().strip().split("\n")[0].split(",")[:2]
        return int(width) * int(height)
    except (subprocess.TimeoutExpired, ValueError):
        return 0


def _normal(corpus):
    return [still for still in corpus if still.shape == "normal"]


def _partner(rng, root, corpus):
    """The other still of a two-image make: a valid RGB PNG or JPEG."""
    partner = rng.choice([s for s in corpus if s.name in ("png-rgb.png", "jpeg-420.jpg")])
    return copy_still(root, "partner" + os.path.splitext(partner.name)[1], partner)


def _make(rng, root, subject, partner, extra=()):
    """A make whose images are `subject` and `partner` (the subject first, last, or in the
    middle of three), one cheap output."""
    output = cheap_output(rng, root)
    where = rng.choice(["from", "to", "middle"])
    if where == "from":
        images = ["--from", subject, "--to", partner]
    elif where == "to":
        images = ["--from", partner, "--to", subject]
    else:
        images = [partner, subject, partner]
    return ["make", *images, "-o", output, *render_flags(rng), *extra], output


def mutated_still(rng, root, ctx):
    """A still of any format with one to three mutations, named with its usual extension (or,
    now and then, another one). A mutation FFmpeg reports errors for must be refused (65);
    one FFmpeg decodes cleanly may render (0) or be refused by a limit (65)."""
    source = rng.choice(_normal(ctx.corpus))
    with open(source.path, "rb") as handle:
        data, name = stills.mutate(rng, handle.read(), source.family, ctx.corpus)
    extension = os.path.splitext(source.name)[1] if rng.random() < 0.85 else rng.choice([".png", ".jpg", ".dat", ""])
    subject = write(root, "in" + extension, data)
    argv, output = _make(rng, root, subject, _partner(rng, root, ctx.corpus))
    # FFmpeg's verdict (damaged or not) is asked for when slicevid renders the still; a refusal
    # (65) is right either way, so it needs none.
    return Case(index=0, category="still", kind=f"still/{source.family}/{name.split('+')[0]}", owner=STILLS_OWNER,
                runs=[argv], expect=frozenset({0, 65}), names=[subject], outputs=[output], still=subject,
                note=f"{source.name} mutated by {name}")


def valid_still(rng, root, ctx):
    """A valid still of every variant as it was made: a documented format must render (0)."""
    source = rng.choice(_normal(ctx.corpus))
    subject = copy_still(root, "in" + os.path.splitext(source.name)[1], source)
    argv, output = _make(rng, root, subject, _partner(rng, root, ctx.corpus))
    return Case(index=0, category="still", kind=f"valid/{source.family}", owner=STILLS_OWNER, runs=[argv],
                expect=frozenset({0}) if source.required else frozenset({0, 65}), names=[subject],
                outputs=[output], still=subject, damaged=False, note=f"valid {source.name}")


def thin_still(rng, root, ctx):
    """A valid still of extreme aspect (1x65535, 65535x1, …) under --fit cover at 32x18 or
    320x180: it must render within the memory bound."""
    source = rng.choice([s for s in ctx.corpus if s.shape == "thin"])
    subject = copy_still(root, "thin.png", source)
    size = rng.choice(["32x18", "320x180"])
    argv, output = _make(rng, root, subject, _partner(rng, root, ctx.corpus), extra=["--size", size, "--fit", "cover"])
    argv = _without_flag(_without_flag(argv, "--size", keep_last=True), "--fit", keep_last=True)
    return Case(index=0, category="still", kind="thin/cover", owner=STILLS_OWNER, runs=[argv],
                expect=frozenset({0}), names=[subject], outputs=[output], still=subject, damaged=False,
                note=f"{source.name} at {size}, --fit cover")


def huge_still(rng, root, ctx):
    """A complete, valid PNG over FFmpeg's pixel limit (30000x30000, 1x10000000): refused
    (65) for its size, never called truncated or corrupt."""
    source = rng.choice([s for s in ctx.corpus if s.shape == "huge"])
    subject = copy_still(root, "huge.png", source)
    argv, output = _make(rng, root, subject, _partner(rng, root, ctx.corpus))
    return Case(index=0, category="still", kind="huge/limit", owner=STILLS_OWNER, runs=[argv],
                expect=frozenset({65}), names=[subject], outputs=[output], still=subject, damaged=True,
                forbid=["truncated", "corrupt"], note=f"valid {source.name}, over FFmpeg's pixel limit")


def _without_flag(argv, flag, keep_last):
    """Drops all but the last (or first) `flag VALUE` pair, so an override wins without being
    refused as given twice."""
    spots = [i for i, a in enumerate(argv) if a == flag]
    keep = spots[-1] if keep_last else spots[0]
    drop = {i for s in spots if s != keep for i in (s, s + 1)}
    return [a for i, a in enumerate(argv) if i not in drop]


GENERATORS = [(mutated_still, 40), (valid_still, 5), (thin_still, 1), (huge_still, 1)]
