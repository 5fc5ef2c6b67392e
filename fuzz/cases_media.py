"""Cases about the payloads inside stills and songs (issue 23): zlib bombs and damaged streams
in a PNG's iCCP, zTXt and iTXt and a QuickTime compressed movie header; songs of 1–70 channels
in every WAV sample format, with honest or bogus bits per sample; Ogg songs with a damaged or
lost page anywhere; a JPEG's ICC profile in APP2 chunks that are missing, doubled or misnumbered;
and ICC profiles whose cicp tag says HDR.

Each case's oracle is what slicevid must do, not what FFmpeg says: FFmpeg itself renders most
of these (a zTXt bomb at 2 GB, a damaged first Ogg page as silence), which is why they are here.
"""

import os

import media
from case import TINY, Case, copy_still, write

MEDIA_OWNER = "media"
LIMIT = 16 * media.MIB


def _songs(ctx):
    return os.path.join(ctx.out, "corpus", "media")


def _png(ctx):
    return next(s for s in ctx.corpus if s.name == "png-rgb.png")


def _still_make(rng, root, ctx, subject):
    """A make of `subject` and a sound PNG, or probe of `subject` alone; (argv, outputs)."""
    if rng.random() < 0.3:
        return ["probe", subject], []
    partner = copy_still(root, "partner.png", _png(ctx))
    images = ["--from", subject, "--to", partner] if rng.random() < 0.5 else ["--from", partner, "--to", subject]
    output = rng.choice(["out.mp4", "out.png"])
    return ["make", *images, "-o", output, *TINY, "-q"], [output]


def png_payload(rng, root, ctx):
    """A PNG carrying compressed chunks: bombs past the 16 MiB limits (refused, 65, in bounded
    memory), streams within them (rendered), damaged zlib (refused), too many text chunks."""
    with open(_png(ctx).path, "rb") as handle:
        png = handle.read()
    past = rng.choice([17, 24, 64, 256] + [1024] * (rng.random() < 0.05)) * media.MIB
    within = rng.choice([0, 1, 4]) * media.MIB
    small = media.zlib_bomb(0, prefix=b"a comment")
    choices = {
        "iccp-bomb": (media.iccp(media.zlib_bomb(past)), b"", False),
        "ztxt-bomb": (media.ztxt(media.zlib_bomb(past)), b"", False),
        "ztxt-bomb-after-idat": (b"", media.ztxt(media.zlib_bomb(past)), False),
        "itxt-bomb": (media.itxt(media.zlib_bomb(past)), b"", False),
        "text-split-past-limit": (b"".join(media.ztxt(media.zlib_bomb(9 * media.MIB), b"k%d" % i) for i in range(2)), b"", False),
        "ztxt-within": (media.ztxt(media.zlib_bomb(within, prefix=b"text")), b"", True),
        "itxt-within": (media.itxt(media.zlib_bomb(within, prefix=b"<x/>")) + media.itxt(b"plain", compressed=False), b"", True),
        "ztxt-cut": (media.ztxt(small[:-3]), b"", False),
        "ztxt-checksum": (media.ztxt(small[:-1] + bytes([small[-1] ^ 1])), b"", False),
        "iccp-not-zlib": (media.iccp(b"not zlib at all"), b"", False),
        "text-4096": (b"".join(media.text(b"k%d" % i, b"v") for i in range(4096)), b"", True),
        "text-4097": (b"".join(media.text(b"k%d" % i, b"v") for i in range(4097)), b"", False),
        "iccp-profile": (media.iccp(media.zlib_bomb(0, prefix=media.icc_profile())), b"", True),
        "iccp-profile-pq": (media.iccp(media.zlib_bomb(0, prefix=media.icc_profile(cicp=(9, 16)))), b"", False),
        "iccp-profile-hlg": (media.iccp(media.zlib_bomb(0, prefix=media.icc_profile(cicp=(9, 18)))), b"", False),
    }
    name = rng.choice(sorted(choices))
    before, after, sound = choices[name]
    subject = write(root, "payload.png", media.png_with(png, before, after))
    argv, outputs = _still_make(rng, root, ctx, subject)
    # probe reads no colour: a profile's HDR tag is no refusal there.
    if argv[0] == "probe" and name.startswith("iccp-profile"):
        sound = True
    return Case(index=0, category="media", kind=f"media/png-{name}", owner=MEDIA_OWNER, runs=[argv],
                expect=frozenset({0} if sound else {65}), names=[subject], outputs=outputs,
                note=f"a PNG with {name}" + (f" ({past >> 20} MiB)" if "bomb" in name or "limit" in name else ""))


def movie_header(rng, root, ctx):
    """A QuickTime still, movie or song whose moov is zlib-compressed (cmov): small, read;
    declaring a GiB or nested, refused (65) before libavformat inflates it."""
    song = rng.random() < 0.4
    source = media.cached(_songs(ctx), "song.m4a" if song else "movie.mov")
    kind = rng.choice(["small", "bomb", "nested"])
    data = media.compressed_moov(source, padding=rng.choice([64, 256, 1024]) * media.MIB if kind == "bomb" else 0,
                                 nested=kind == "nested")
    subject = write(root, "movie.m4a" if song else "movie.mov", data)
    if song:
        argv, outputs = ["make", "--audio", subject, "-o", "out.mp4", *TINY, "-q"], ["out.mp4"]
        expect = {0} if kind == "small" else {65}
    elif rng.random() < 0.5:
        argv, outputs = ["probe", subject], []
        expect = {0} if kind == "small" else {65}
    else:
        argv, outputs = _still_make(rng, root, ctx, subject)
        expect = {0, 65} if kind == "small" else {65}
    return Case(index=0, category="media", kind=f"media/cmov-{kind}{'-song' if song else ''}", owner=MEDIA_OWNER,
                runs=[argv], expect=frozenset(expect), names=[subject], outputs=outputs, note=f"compressed moov: {kind}")


def wav_song(rng, root, ctx):
    """A WAV of 1–70 channels in any sample format, with or without a channel mask, its bits per
    sample honest or bogus: 1–64 honest channels make a bed (0); 65+ or bogus bits are bad data
    (65, never 69 or 74)."""
    channels = rng.choice([rng.randint(1, 8), rng.randint(9, 64), rng.randint(9, 64), rng.randint(65, 70)])
    fmt = rng.choice(sorted(media.SAMPLE_FORMATS))
    honest = rng.random() < 0.75
    width = media.SAMPLE_FORMATS[fmt][1]
    # Bogus: no container width at all (0, 65535), or one other than the blocks' (1-bit samples
    # in 16-bit blocks); honest may also be fewer bits in a whole container (12 in 16).
    declared = None if honest else rng.choice([0, 65535, rng.choice([b for b in range(1, 65) if (b + 7) // 8 != width])])
    if honest and fmt in ("s16", "s24", "s32") and rng.random() < 0.3:
        declared = rng.randint(8 * width - 7, 8 * width)
    mask = None
    if rng.random() < 0.3:
        bits = rng.sample(range(32), min(channels, 32)) if rng.random() < 0.7 else rng.sample(range(32), rng.randint(1, 8))
        mask = sum(1 << b for b in bits)
    subject = write(root, "song.wav", media.wav(channels, fmt, declared_bits=declared, mask=mask))
    output = rng.choice(["out.mp4", "out.mkv", "out.webm"])
    expect = {0} if honest and channels <= 64 else {65}
    return Case(index=0, category="media", kind=f"media/wav-{'honest' if honest else 'bogus-bits'}", owner=MEDIA_OWNER,
                runs=[["make", "--audio", subject, "-o", output, *TINY, "-q"]], expect=frozenset(expect), names=[subject],
                outputs=[output], forbid=["avfilter", "no decoder"],
                note=f"{channels} channels of {fmt}, declared bits {declared}, mask {mask if mask is None else hex(mask)}")


def ogg_song(rng, root, ctx):
    """An Ogg Vorbis or Opus song with one flipped byte in its first, second, a middle or its
    last page, a page cut out, or cut inside its last page: refused (65) wherever the damage
    is. Whole, or with bytes after its last page (a tag): a bed (0)."""
    name = rng.choice(["vorbis.ogg", "opus.opus"])
    data = bytearray(media.cached(_songs(ctx), name))
    pages = media.ogg_pages(bytes(data))
    damage = rng.choice(["flip-first", "flip-second", "flip-middle", "flip-last", "flip-anywhere", "lose-page",
                         "lose-last", "cut-last", "whole", "tag-after"])
    index = {"flip-first": 0, "flip-second": 1, "flip-middle": len(pages) // 2, "flip-last": len(pages) - 1,
             "flip-anywhere": rng.randrange(len(pages))}.get(damage)
    if index is not None:
        start = pages[index]
        end = pages[index + 1] if index + 1 < len(pages) else len(data)
        data[rng.randrange(start, end)] ^= rng.choice([0x01, 0x55, 0xFF])
    elif damage == "lose-page":
        k = rng.randrange(2, len(pages) - 1)
        data = data[:pages[k]] + data[pages[k + 1]:]
    elif damage == "lose-last":
        data = data[:pages[-1]]
    elif damage == "cut-last":
        data = data[:pages[-1] + rng.randrange(1, len(data) - pages[-1])]
    elif damage == "tag-after":
        data += b"TAG" + bytes(125)
    subject = write(root, "song" + os.path.splitext(name)[1], bytes(data))
    output = rng.choice(["out.mp4", "out.mkv"])
    sound = damage in ("whole", "tag-after")
    return Case(index=0, category="media", kind=f"media/ogg-{damage}", owner=MEDIA_OWNER,
                runs=[["make", "--audio", subject, "-o", output, *TINY, "-q"]], expect=frozenset({0} if sound else {65}),
                names=[subject], outputs=[output], note=f"{name}, {damage} ({len(pages)} pages)")


def jpeg_icc(rng, root, ctx):
    """A JPEG whose ICC profile spans one to four APP2 chunks: whole in any order (rendered, 0),
    or with one missing, doubled or misnumbered (refused as damaged, 65); or whose profile's
    cicp tag says PQ or HLG (refused as HDR) or SDR (rendered)."""
    base = next(s for s in ctx.corpus if s.name == "jpeg-420.jpg")
    with open(base.path, "rb") as handle:
        jpeg = handle.read()
    cicp = rng.choice([None, None, (9, 16), (9, 18), (1, 13)])
    chunks = media.icc_app2(media.icc_profile(cicp=cicp, padding=rng.choice([0, 70_000, 140_000, 200_000])))
    damage = rng.choice(["whole", "shuffled", "missing", "doubled", "number-zero", "number-past", "count-differs"])
    if len(chunks) == 1 and damage in ("missing", "shuffled"):
        damage = "whole" if damage == "shuffled" else "number-past"
    pick = rng.randrange(len(chunks))
    number, count, piece = chunks[pick]
    if damage == "shuffled":
        rng.shuffle(chunks)
    elif damage == "missing":
        del chunks[pick]
    elif damage == "doubled":
        chunks.insert(pick, chunks[pick])
    elif damage == "number-zero":
        chunks[pick] = (0, count, piece)
    elif damage == "number-past":
        chunks[pick] = (count + 1, count, piece)
    elif damage == "count-differs":
        chunks[pick] = (number, count + 1, piece)
    segments = b"".join(media.app2(*chunk) for chunk in chunks)
    subject = write(root, "profiled.jpg", jpeg[:2] + segments + jpeg[2:])
    argv, outputs = _still_make(rng, root, ctx, subject)
    sound = damage in ("whole", "shuffled") and cicp in (None, (1, 13))
    if argv[0] == "probe":
        sound = True  # probe reads pictures, not their colours
    return Case(index=0, category="media", kind=f"media/jpeg-icc-{damage}", owner=MEDIA_OWNER, runs=[argv],
                expect=frozenset({0} if sound else {65}), names=[subject], outputs=outputs,
                note=f"{len(chunks)} APP2 chunk(s), {damage}, cicp {cicp}")


GENERATORS = [(png_payload, 4), (movie_header, 1), (wav_song, 3), (ogg_song, 3), (jpeg_icc, 3)]
