"""Media built byte by byte for cases_media.py: zlib bombs and the PNG chunks that carry them, a
small ICC profile (optionally with a cicp tag), a JPEG's ICC APP2 chunks, WAVs of any channel
count and sample format, Ogg pages (walked, damaged, cut out) and QuickTime compressed movie
headers. Songs and the movie come from the ffmpeg CLI once, cached beside the still corpus.
"""

import os
import struct
import subprocess
import zlib

MIB = 1 << 20


def zlib_bomb(inflated, prefix=b""):
    """A zlib stream inflating to `prefix` then `inflated` zero bytes (whole MiB), deflated a
    MiB at a time so a 1 GiB bomb is never held."""
    coder = zlib.compressobj(9)
    block = bytes(MIB)
    parts = [coder.compress(prefix)]
    for _ in range(inflated // MIB):
        parts.append(coder.compress(block))
    parts.append(coder.flush())
    return b"".join(parts)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_with(png, before=b"", after=b""):
    """`png` (a whole PNG) with chunks inserted after IHDR and before IEND."""
    end = png.rfind(b"IEND") - 4
    return png[:33] + before + png[33:end] + after + png[end:]


def iccp(stream, name=b"icc"):
    return png_chunk(b"iCCP", name + b"\0\0" + stream)


def ztxt(stream, keyword=b"Comment"):
    return png_chunk(b"zTXt", keyword + b"\0\0" + stream)


def itxt(stream, compressed=True, keyword=b"XML:com.adobe.xmp"):
    return png_chunk(b"iTXt", keyword + b"\0" + (b"\1\0" if compressed else b"\0\0") + b"\0\0" + stream)


def text(keyword, value):
    return png_chunk(b"tEXt", keyword + b"\0" + value)


# ICC: a v2 RGB display profile (sRGB's colorants adapted to D50, gamma 2.2), plus optional
# tags: a cicp (ICC.1:2022, H.273 codes) and a private padding tag that makes it span several
# JPEG APP2 chunks.

def _s15(value):
    return struct.pack(">i", round(value * 65536))


def _xyz(x, y, z):
    return b"XYZ \0\0\0\0" + _s15(x) + _s15(y) + _s15(z)


def icc_profile(cicp=None, padding=0):
    """A profile Little CMS accepts; `cicp` = (primaries, transfer) adds a cicp tag."""
    desc = b"desc\0\0\0\0" + struct.pack(">I", 5) + b"fuzz\0" + bytes(11) + bytes(67)
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, 0x0233) + b"\0\0"
    tags = [(b"desc", desc), (b"wtpt", _xyz(0.9642, 1.0, 0.8249)), (b"rXYZ", _xyz(0.4361, 0.2225, 0.0139)),
            (b"gXYZ", _xyz(0.3851, 0.7169, 0.0971)), (b"bXYZ", _xyz(0.1431, 0.0606, 0.7141)),
            (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve), (b"cprt", b"text\0\0\0\0none\0\0\0\0")]
    if cicp:
        tags.append((b"cicp", b"cicp\0\0\0\0" + bytes([cicp[0], cicp[1], 0, 1])))
    if padding:
        tags.append((b"zzzz", b"zzzz\0\0\0\0" + b"\x5a" * padding))
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for signature, body in tags:
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body + bytes(-len(body) % 4)
    size = offset + len(data)
    header = (struct.pack(">I", size) + b"\0\0\0\0" + b"\x02\x10\0\0" + b"mntrRGB XYZ " + bytes(12) + b"acsp"
              + bytes(24) + b"\0\0\0\0" + _s15(0.9642) + _s15(1.0) + _s15(0.8249) + bytes(48))
    return header + struct.pack(">I", len(tags)) + table + data


def icc_app2(profile, size=65519):
    """The APP2 segments of `profile`, each at most `size` bytes of it: [(number, count, bytes)]."""
    pieces = [profile[i:i + size] for i in range(0, len(profile), size)]
    return [(n + 1, len(pieces), piece) for n, piece in enumerate(pieces)]


def app2(number, count, piece):
    body = b"ICC_PROFILE\0" + bytes([number & 0xFF, count & 0xFF]) + piece
    return b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body


# WAV

SAMPLE_FORMATS = {"u8": (1, 1), "s16": (1, 2), "s24": (1, 3), "s32": (1, 4), "f32": (3, 4), "f64": (3, 8)}


def wav(channels, fmt, rate=8000, seconds=0.3, declared_bits=None, mask=None):
    """A WAV of a tone per channel in `fmt` (SAMPLE_FORMATS), its header stating
    `declared_bits` (the format's own by default), with a WAVE_FORMAT_EXTENSIBLE mask if given."""
    import math
    tag, width = SAMPLE_FORMATS[fmt]
    count = int(rate * seconds)
    frame = bytearray()
    for i in range(count):
        for c in range(channels):
            value = 0.25 * math.sin(i * (0.05 + 0.011 * c))
            if fmt == "u8":
                frame.append(128 + int(value * 127))
            elif fmt == "f32":
                frame += struct.pack("<f", value)
            elif fmt == "f64":
                frame += struct.pack("<d", value)
            else:
                frame += int(value * (2 ** (8 * width - 1) - 1)).to_bytes(width, "little", signed=True)
    bits = (8 * width if declared_bits is None else declared_bits) & 0xFFFF
    block = channels * width
    common = struct.pack("<HIIHH", channels, rate, rate * block, block, bits)
    if mask is None:
        fmt_chunk = struct.pack("<H", tag) + common
    else:
        guid = struct.pack("<H", tag) + b"\0\0\0\0\x10\0\x80\0\0\xaa\0\x38\x9b\x71"
        fmt_chunk = struct.pack("<H", 0xFFFE) + common + struct.pack("<HHI", 22, bits, mask & 0xFFFFFFFF) + guid
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt_chunk)) + fmt_chunk + b"data" + struct.pack("<I", len(frame)) + frame
    return b"RIFF" + struct.pack("<I", len(body)) + body


# Ogg

def ogg_pages(data):
    """Where each page starts, walking the page headers from the first byte."""
    starts, at = [], 0
    while at + 27 <= len(data) and data[at:at + 4] == b"OggS":
        starts.append(at)
        segments = data[at + 26]
        at += 27 + segments + sum(data[at + 27:at + 27 + segments])
    return starts


# QuickTime

def boxes(data):
    """Top-level boxes: [(type, bytes)]."""
    found, at = [], 0
    while at + 8 <= len(data):
        size = struct.unpack(">I", data[at:at + 4])[0]
        if size < 8 or at + size > len(data):
            break
        found.append((data[at + 4:at + 8], data[at:at + size]))
        at += size
    return found


def compressed_moov(movie, padding=0, nested=False):
    """`movie` with its moov box replaced by a cmov holding it zlib-compressed, followed by
    `padding` zero bytes (whole MiB); `nested`: the compressed moov holds a cmov itself."""
    moov = next(b for t, b in boxes(movie) if t == b"moov")
    if nested:
        moov = next(b for t, b in boxes(compressed_moov(movie)) if t == b"moov")
    stream = zlib_bomb(padding, prefix=moov)
    cmvd = struct.pack(">I", 12 + len(stream)) + b"cmvd" + struct.pack(">I", len(moov) + padding) + stream
    cmov = struct.pack(">I", 8 + 12 + len(cmvd)) + b"cmov" + struct.pack(">I", 12) + b"dcomzlib" + cmvd
    replacement = struct.pack(">I", 8 + len(cmov)) + b"moov" + cmov
    return b"".join(replacement if t == b"moov" else b for t, b in boxes(movie))


# Songs and a movie from the ffmpeg CLI, cached.

CACHED = {
    "vorbis.ogg": ["-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=22050", "-ac", "2", "-c:a", "libvorbis"],
    "opus.opus": ["-f", "lavfi", "-i", "sine=frequency=330:duration=3", "-ac", "2", "-c:a", "libopus"],
    "movie.mov": ["-f", "lavfi", "-i", "testsrc2=size=48x32:rate=5:duration=0.4", "-c:v", "png"],
    "song.m4a": ["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac"],
}


def cached(folder, name):
    """The bytes of a cached file made by the ffmpeg CLI (made on first use, atomically, since
    several workers may ask at once)."""
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        os.makedirs(folder, exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp{os.path.splitext(name)[1]}"
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", *CACHED[name], "-bitexact", temporary],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        os.replace(temporary, path)
    with open(path, "rb") as handle:
        return handle.read()
