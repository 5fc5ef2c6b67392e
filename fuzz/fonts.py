"""Font files for the font cases, made from a TrueType font on the machine (the default set
`make deps` installs): the font as it is, wrapped as a WOFF (zlib, as browsers serve it), as a
WOFF2 header (no Brotli here: the header alone decides the limits), as a collection of many
faces, and mutated — bytes flipped, the file cut, and lies in the fields a font bomb uses
(WOFF's totalSfntSize and origLength, a collection's numFonts, a table's offset and length,
numTables). There is no CFF (`OTTO`) font on the reference machine to mutate, so an "OTF" is a
TrueType font named .otf, or one whose version tag says `OTTO` while its tables are TrueType's.

Every maker returns (bytes, name).
"""

import os
import struct
import zlib

import stills

# A small Latin font of the default set (DejaVu ships with it), then any TrueType font there.
SEEDS = ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf",
         "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
         "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"]


def seed():
    """The bytes of the first seed font found, or None when none is installed."""
    for path in SEEDS:
        if os.path.exists(path):
            with open(path, "rb") as handle:
                return handle.read()
    return None


def tables(font):
    """[(tag, data)] of a plain OpenType font, in directory order."""
    count = struct.unpack(">H", font[4:6])[0]
    found = []
    for index in range(count):
        record = 12 + 16 * index
        tag = font[record:record + 4]
        offset, length = struct.unpack(">II", font[record + 8:record + 16])
        found.append((tag, font[offset:offset + length]))
    return found


def woff(font, compress=True, extra=()):
    """`font` as a WOFF 1.0 file (tables deflated when that makes them smaller), plus `extra`
    tables given as (tag, packed, unpacked length)."""
    entries = []
    for tag, data in tables(font):
        packed = zlib.compress(data, 9) if compress else data
        entries.append((tag, packed if len(packed) < len(data) else data, len(data)))
    entries += list(extra)
    entries.sort(key=lambda e: e[0])
    offset = 44 + 20 * len(entries)
    directory, body = b"", b""
    total = 12 + 16 * len(entries)
    for tag, packed, unpacked in entries:
        directory += tag + struct.pack(">IIII", offset + len(body), len(packed), unpacked, 0)
        body += packed + b"\0" * ((4 - len(packed) % 4) % 4)
        total += (unpacked + 3) // 4 * 4
    length = offset + len(body)
    header = b"wOFF" + font[0:4] + struct.pack(">IHHIHH", length, len(entries), 0, total, 1, 0) + b"\0" * 20
    return header + directory + body


def woff2_header(total, unpacked):
    """The header and directory of a WOFF2 holding one untransformed `head` table of
    `unpacked` bytes, declaring `total` bytes unpacked, then a few bytes where Brotli data
    would be: the limits decide before any of it is read."""
    def base128(value):
        out = [value & 0x7F]
        value >>= 7
        while value:
            out.insert(0, (value & 0x7F) | 0x80)
            value >>= 7
        return bytes(out)
    directory = bytes([1]) + base128(unpacked)
    length = 48 + len(directory) + 16
    return (b"wOF2" + struct.pack(">IIHHIIHH", 0x00010000, length, 1, 0, total, 16, 1, 0) + b"\0" * 20
            + directory + b"\0" * 16)


def collection(font, faces):
    """A `.ttc` of `faces` faces, all pointing at one table directory (as the font bombs did)."""
    entries = tables(font)
    header = 12 + 4 * faces
    directory_size = 12 + 16 * len(entries)
    directory, body = bytearray(font[0:12]), b""
    for tag, data in entries:
        directory += tag + struct.pack(">III", 0, header + directory_size + len(body), len(data))
        body += data + b"\0" * ((4 - len(data) % 4) % 4)
    out = b"ttcf" + struct.pack(">HHI", 1, 0, faces) + struct.pack(">I", header) * faces + bytes(directory) + body
    # FreeType takes a collection only when the file could hold 32 bytes a face.
    return out + b"\0" * max(0, 32 * faces - len(out))


_ZEROS = {}


def deflated_zeros(count):
    """`count` zero bytes as one zlib stream (about a thousandfold smaller), made a MiB at a
    time so the worker never holds the zeros, and kept: each size is made once per worker."""
    if count not in _ZEROS:
        stream, chunk, out = zlib.compressobj(6), b"\0" * (1 << 20), []
        for _ in range(count >> 20):
            out.append(stream.compress(chunk))
        out.append(stream.compress(b"\0" * (count & ((1 << 20) - 1))) + stream.flush())
        _ZEROS[count] = b"".join(out)
    return _ZEROS[count]


def _directory_lie(rng, font):
    """A table record of the plain font says an offset or length past the file, or zero."""
    data = bytearray(font)
    count = struct.unpack(">H", font[4:6])[0]
    record = 12 + 16 * rng.randrange(count)
    field = rng.choice([8, 12])
    value = rng.choice([0, len(font), len(font) + 1, 0x7FFFFFFF, 0xFFFFFFFF, 1 << 26, rng.randrange(len(font))])
    data[record + field:record + field + 4] = struct.pack(">I", value & 0xFFFFFFFF)
    return bytes(data), f"table-{'offset' if field == 8 else 'length'}"


def _num_tables(rng, font):
    data = bytearray(font)
    data[4:6] = struct.pack(">H", rng.choice([0, 1, 257, 0x7FFF, 0xFFFF]))
    return bytes(data), "num-tables"


# (name, weight): what a case lays out as the layout's font.
KINDS = [("ttf", 3), ("ttf-mutated", 8), ("otf-named", 2), ("otto-tag", 2), ("woff", 3), ("woff-mutated", 4),
         ("woff-bomb", 3), ("woff2-bomb", 2), ("woff2-small", 2), ("ttc", 2), ("ttc-many", 3), ("ttc-mutated", 2),
         ("not-a-font", 1)]


def make(rng, kind, font):
    """(bytes, extension, note) of a font file of `kind` made from `font`."""
    generic = [stills.flip_bits, stills.set_bytes, stills.interesting_word, stills.truncate, stills.extend,
               stills.zero_range]
    if kind == "ttf":
        return font, ".ttf", "the seed font as it is"
    if kind == "ttf-mutated":
        if rng.random() < 0.4:
            data, name = rng.choice([_directory_lie, _num_tables])(rng, font)
        else:
            data, name = rng.choice(generic)(rng, font, "font", [])
        return data, rng.choice([".ttf", ".TTF", ".otf", ""]), f"TrueType mutated: {name}"
    if kind == "otf-named":
        return font, ".otf", "TrueType outlines in a .otf file"
    if kind == "otto-tag":
        return b"OTTO" + font[4:], ".otf", "version tag OTTO (CFF) over TrueType tables"
    if kind == "woff":
        return woff(font, compress=rng.random() < 0.8), ".woff", "a WOFF of the seed"
    if kind == "woff-mutated":
        data, name = rng.choice(generic)(rng, woff(font), "font", [])
        return data, ".woff", f"WOFF mutated: {name}"
    if kind == "woff-bomb":
        size = rng.choice([65 << 20, 65 << 20, 256 << 20])
        lie = rng.random() < 0.5   # the declared size may tell the truth or not
        return woff(font, extra=[(b"zzzz", deflated_zeros(size), size if not lie else 1 << 20)]), ".woff", \
            f"a WOFF with a table unpacking to {size >> 20} MiB{' (declared 1 MiB)' if lie else ''}"
    if kind == "woff2-bomb":
        total = rng.choice([65 << 20, 1 << 30, 0xFFFFFFFF])
        return woff2_header(total, rng.choice([54, total])), ".woff2", f"a WOFF2 declaring {total} bytes unpacked"
    if kind == "woff2-small":
        return woff2_header(1024, 54), ".woff2", "a WOFF2 header without its Brotli data"
    if kind == "ttc":
        return collection(font, rng.randint(1, 4)), ".ttc", "a small collection"
    if kind == "ttc-many":
        faces = rng.choice([65, 1000, 100_000])
        return collection(font, faces), ".ttc", f"a collection of {faces} faces"
    if kind == "ttc-mutated":
        data, name = rng.choice(generic)(rng, collection(font, 2), "font", [])
        return data, ".ttc", f"collection mutated: {name}"
    return b"<svg xmlns='http://www.w3.org/2000/svg'/>", ".ttf", "an SVG named .ttf"
