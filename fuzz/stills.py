"""Mutations of valid stills: generic byte-level ones for every format, and format-aware ones
that lie in a header field while keeping checksums right, so the lie reaches the decoder.

Every mutator takes (rng, data, family, corpus) and returns the new bytes and a short name.
"""

import struct
import zlib

INTERESTING_32 = [0, 1, 2, 0x7F, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 30000, 65535, 65536, 0x7FFFFFFF,
                  0x80000000, 0xFFFFFFFF, 100000, 1 << 24]
INTERESTING_16 = [0, 1, 2, 0x7F, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 16383, 16384, 30000]


def flip_bits(rng, data, family, corpus):
    """Flips 1–8 random bits."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        position = rng.randrange(len(data))
        data[position] ^= 1 << rng.randrange(8)
    return bytes(data), "flip-bits"


def set_bytes(rng, data, family, corpus):
    """Sets 1–4 random bytes to 0x00, 0xFF or anything."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.choice([0, 0xFF, rng.randrange(256)])
    return bytes(data), "set-bytes"


def interesting_word(rng, data, family, corpus):
    """Writes an interesting 16- or 32-bit value, either byte order, at a random offset in the
    first 256 bytes, where headers live."""
    data = bytearray(data)
    wide = rng.random() < 0.5
    value = rng.choice(INTERESTING_32 if wide else INTERESTING_16)
    packed = struct.pack(rng.choice("<>") + ("I" if wide else "H"), value & (0xFFFFFFFF if wide else 0xFFFF))
    position = rng.randrange(max(1, min(len(data), 256) - len(packed)))
    data[position:position + len(packed)] = packed
    return bytes(data[:max(len(data), position + len(packed))]), "interesting-word"


def truncate(rng, data, family, corpus):
    """Cuts the file: anywhere, or just a few bytes short of its end."""
    if rng.random() < 0.5:
        return data[:len(data) - rng.randint(1, min(64, len(data) - 1))], "truncate-tail"
    return data[:rng.randrange(1, len(data))], "truncate"


def extend(rng, data, family, corpus):
    """Appends garbage, zeros or a second copy of the file."""
    tail = rng.choice([bytes(rng.randrange(256) for _ in range(rng.randint(1, 512))), b"\x00" * 4096, data])
    return data + tail, "extend"


def zero_range(rng, data, family, corpus):
    """Zeroes a run of bytes."""
    start = rng.randrange(len(data))
    end = min(len(data), start + rng.randint(1, 256))
    return data[:start] + b"\x00" * (end - start) + data[end:], "zero-range"


def move_range(rng, data, family, corpus):
    """Deletes, duplicates or inserts a run of bytes."""
    start = rng.randrange(len(data))
    end = min(len(data), start + rng.randint(1, 128))
    how = rng.choice(["delete", "duplicate", "insert"])
    if how == "delete":
        return data[:start] + data[end:], "delete-range"
    if how == "duplicate":
        return data[:end] + data[start:end] + data[end:], "duplicate-range"
    return data[:start] + bytes(rng.randrange(256) for _ in range(end - start)) + data[start:], "insert-range"


def splice(rng, data, family, corpus):
    """The head of this file followed by the tail of another still of the same format."""
    others = [still for still in corpus if still.family == family and still.shape == "normal"]
    with open(rng.choice(others).path, "rb") as handle:
        other = handle.read()
    cut = rng.randrange(1, len(data))
    return data[:cut] + other[min(cut, len(other) - 1):], "splice"


GENERIC = [flip_bits, set_bytes, interesting_word, truncate, extend, zero_range, move_range, splice]


# PNG: chunks are re-checksummed after the edit, so the decoder sees the lie itself.

def png_chunks(data):
    """[(type, payload)] of a PNG, or None when it does not parse."""
    chunks, position = [], 8
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunks.append((kind, data[position + 8:position + 8 + length]))
        position += 12 + length
    return chunks if chunks and chunks[0][0] == b"IHDR" else None


def png_join(chunks):
    return b"\x89PNG\r\n\x1a\n" + b"".join(struct.pack(">I", len(p)) + k + p
                                            + struct.pack(">I", zlib.crc32(k + p) & 0xFFFFFFFF) for k, p in chunks)


def png_header(rng, data, family, corpus):
    """Rewrites an IHDR field (width, height, bit depth, colour type, interlace) with a valid CRC."""
    chunks = png_chunks(data)
    # An earlier mutation of the same case may have cut the IHDR short: no fields to rewrite.
    if chunks is None or len(chunks[0][1]) < 13:
        return flip_bits(rng, data, family, corpus)
    header = bytearray(chunks[0][1])
    field = rng.choice(["width", "height", "depth", "colour", "interlace", "filter"])
    if field in ("width", "height"):
        offset = 0 if field == "width" else 4
        header[offset:offset + 4] = struct.pack(">I", rng.choice(INTERESTING_32))
    else:
        offset = {"depth": 8, "colour": 9, "filter": 11, "interlace": 12}[field]
        header[offset] = rng.choice([0, 1, 2, 3, 4, 6, 8, 16, 255])
    chunks[0] = (b"IHDR", bytes(header))
    return png_join(chunks), f"png-ihdr-{field}"


def png_structure(rng, data, family, corpus):
    """Drops, repeats or damages a chunk, keeping CRCs right (IEND gone, IDAT cut short, a
    second IHDR, a short palette, an unknown critical chunk, damaged zlib data)."""
    chunks = png_chunks(data)
    if chunks is None:
        return flip_bits(rng, data, family, corpus)
    how = rng.choice(["drop-iend", "drop-idat", "cut-idat", "second-ihdr", "short-plte", "unknown-critical",
                      "damage-idat", "empty-idat"])
    if how == "drop-iend":
        chunks = [c for c in chunks if c[0] != b"IEND"]
    elif how == "drop-idat":
        chunks = [c for c in chunks if c[0] != b"IDAT"]
    elif how == "second-ihdr":
        chunks.insert(1, chunks[0])
    elif how == "short-plte":
        chunks = [(k, p[:3] if k == b"PLTE" else p) for k, p in chunks]
    elif how == "unknown-critical":
        chunks.insert(1, (b"ZZZZ", b"\x00" * 4))
    else:
        index = next((i for i, c in enumerate(chunks) if c[0] == b"IDAT"), None)
        if index is None:
            return flip_bits(rng, data, family, corpus)
        payload = bytearray(chunks[index][1])
        if how == "cut-idat":
            payload = payload[:rng.randrange(len(payload))] if payload else payload
        elif how == "empty-idat":
            payload = bytearray()
        elif payload:
            payload[rng.randrange(len(payload))] ^= 0xFF
        chunks[index] = (b"IDAT", bytes(payload))
    return png_join(chunks), f"png-{how}"


def jpeg_marker(rng, data, family, corpus):
    """Edits a JPEG segment: frame size or component count in SOF, EXIF orientation values,
    drops EOI or a table, or cuts inside the scan."""
    how = rng.choice(["sof-size", "sof-components", "drop-eoi", "cut-scan", "drop-dht", "exif-orientation",
                      "exif-count"])
    data = bytearray(data)
    if how == "sof-size":
        at = _find_marker(data, (0xC0, 0xC1, 0xC2))
        if at is not None:
            data[at + 5:at + 7] = struct.pack(">H", rng.choice(INTERESTING_16))
            data[at + 7:at + 9] = struct.pack(">H", rng.choice(INTERESTING_16))
    elif how == "sof-components":
        at = _find_marker(data, (0xC0, 0xC1, 0xC2))
        if at is not None:
            data[at + 9] = rng.choice([0, 2, 4, 5, 255])
    elif how == "drop-eoi":
        if data.endswith(b"\xff\xd9"):
            del data[-2:]
    elif how == "cut-scan":
        at = _find_marker(data, (0xDA,))
        if at is not None:
            del data[rng.randrange(at + 4, len(data)):]
    elif how == "drop-dht":
        at = _find_marker(data, (0xC4,))
        if at is not None:
            length = struct.unpack(">H", data[at + 2:at + 4])[0]
            del data[at:at + 2 + length]
    else:
        at = data.find(b"Exif\x00\x00MM")
        if at < 0:
            return interesting_word(rng, bytes(data), family, corpus)
        if how == "exif-orientation":
            data[at + 6 + 8 + 2 + 8:at + 6 + 8 + 2 + 10] = struct.pack(">H", rng.choice([0, 9, 255, 0xFFFF]))
        else:
            data[at + 6 + 8:at + 6 + 10] = struct.pack(">H", rng.choice([0, 0xFFFF, 1000]))
    return bytes(data), f"jpeg-{how}"


def _find_marker(data, codes):
    """Offset of the first FF xx marker with xx in `codes` before the scan data, or None."""
    position = 2
    while position + 4 <= len(data) and data[position] == 0xFF:
        code = data[position + 1]
        if code in codes:
            return position
        if code == 0xDA:
            return None
        position += 2 + struct.unpack(">H", data[position + 2:position + 4])[0]
    return None


def webp_header(rng, data, family, corpus):
    """Lies in the RIFF size, the VP8/VP8L/VP8X dimensions or an EXIF chunk."""
    data = bytearray(data)
    how = rng.choice(["riff-size", "dimensions", "canvas", "exif"])
    if how == "riff-size":
        data[4:8] = struct.pack("<I", rng.choice(INTERESTING_32))
    elif how == "canvas" and data[12:16] == b"VP8X":
        data[24:27] = rng.choice(INTERESTING_32).to_bytes(4, "little")[:3]
    elif how == "exif" and b"EXIF" in data:
        at = data.find(b"EXIF")
        data[at + 4:at + 8] = struct.pack("<I", rng.choice(INTERESTING_32))
    else:
        at = data.find(b"VP8 ")
        if at >= 0 and len(data) > at + 18:
            data[at + 14:at + 16] = struct.pack("<H", rng.choice(INTERESTING_16))  # 14-bit width + scale
            data[at + 16:at + 18] = struct.pack("<H", rng.choice(INTERESTING_16))
        elif data.find(b"VP8L") >= 0:
            at = data.find(b"VP8L")
            data[at + 9:at + 13] = struct.pack("<I", rng.choice(INTERESTING_32))
    return bytes(data), f"webp-{how}"


def bmp_header(rng, data, family, corpus):
    """Lies in a BMP header field: size, bit count, compression, data offset, palette count;
    or damages an RLE stream with a delta escape."""
    data = bytearray(data)
    field, offset, form = rng.choice([("width", 18, "<i"), ("height", 22, "<i"), ("bits", 28, "<H"),
                                      ("compression", 30, "<I"), ("offset", 10, "<I"), ("colours", 46, "<I"),
                                      ("rle-delta", None, None)])
    if offset is None:
        start = struct.unpack("<I", data[10:14])[0]
        if start + 2 < len(data):
            at = rng.randrange(start, len(data) - 1) & ~1
            data[at:at + 4] = bytes([0, 2, rng.randrange(256), rng.randrange(256)])  # delta: jump right/down
    else:
        value = rng.choice([0, 1, 2, 3, 4, 8, 16, 24, 32, 255, -1, -32, 65535, 0x7FFFFFFF, -0x80000000])
        if form != "<i":
            value &= 0xFFFF if form == "<H" else 0xFFFFFFFF
        data[offset:offset + struct.calcsize(form)] = struct.pack(form, value)
    return bytes(data), f"bmp-{field}"


def tiff_tag(rng, data, family, corpus):
    """Rewrites the value of one tag of the first IFD (width, strip offsets and counts, bits,
    compression, rows per strip, …) with an interesting number."""
    if data[:4] not in (b"II*\x00", b"MM\x00*"):
        return flip_bits(rng, data, family, corpus)
    order = "<" if data[:2] == b"II" else ">"
    data = bytearray(data)
    ifd = struct.unpack(order + "I", data[4:8])[0]
    if ifd + 2 > len(data):
        return flip_bits(rng, bytes(data), family, corpus)
    count = struct.unpack(order + "H", data[ifd:ifd + 2])[0]
    entries = [ifd + 2 + 12 * i for i in range(count) if ifd + 14 + 12 * i <= len(data)]
    if not entries:
        return flip_bits(rng, bytes(data), family, corpus)
    entry = rng.choice(entries)
    tag, kind = struct.unpack(order + "HH", data[entry:entry + 4])
    how = rng.choice(["value", "count", "type"])
    if how == "value":
        if kind == 3:
            data[entry + 8:entry + 10] = struct.pack(order + "H", rng.choice(INTERESTING_16))
        else:
            data[entry + 8:entry + 12] = struct.pack(order + "I", rng.choice(INTERESTING_32))
    elif how == "count":
        data[entry + 4:entry + 8] = struct.pack(order + "I", rng.choice(INTERESTING_32))
    else:
        data[entry + 2:entry + 4] = struct.pack(order + "H", rng.choice([0, 1, 2, 3, 4, 5, 12, 13, 99]))
    return bytes(data), f"tiff-tag-{tag}-{how}"


def gif_header(rng, data, family, corpus):
    """Lies in the logical screen size, the image descriptor, the LZW code size, or drops the
    trailer."""
    data = bytearray(data)
    how = rng.choice(["screen", "descriptor", "lzw-size", "drop-trailer"])
    if how == "screen":
        data[6:8] = struct.pack("<H", rng.choice(INTERESTING_16))
        data[8:10] = struct.pack("<H", rng.choice(INTERESTING_16))
        return bytes(data), "gif-screen"
    at = data.find(b"\x2c")
    if at < 0:
        return flip_bits(rng, bytes(data), family, corpus)
    if how == "descriptor" and at + 9 < len(data):
        spot = at + 1 + 2 * rng.randrange(4)
        data[spot:spot + 2] = struct.pack("<H", rng.choice(INTERESTING_16))
    elif how == "lzw-size":
        local = data[at + 9] & 0x80 if at + 9 < len(data) else 0
        spot = at + 10 + (3 * (2 << (data[at + 9] & 7)) if local else 0)
        if spot < len(data):
            data[spot] = rng.choice([0, 1, 9, 12, 13, 255])
    elif data.endswith(b"\x3b"):
        del data[-1]
    return bytes(data), f"gif-{how}"


FORMAT_AWARE = {"png": [png_header, png_structure], "jpeg": [jpeg_marker], "webp": [webp_header],
                "bmp": [bmp_header], "tiff": [tiff_tag], "gif": [gif_header]}


def mutate(rng, data, family, corpus):
    """Applies one to three mutations (format-aware ones half the time, when the format has
    any); returns the bytes and the mutations' names joined by '+'."""
    names = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        aware = FORMAT_AWARE.get(family, [])
        mutator = rng.choice(aware) if aware and rng.random() < 0.5 else rng.choice(GENERIC)
        if len(data) < 2:
            break
        data, name = mutator(rng, data, family, corpus)
        names.append(name)
    return data, "+".join(names) or "none"
