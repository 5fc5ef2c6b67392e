"""The valid stills every mutation starts from, one or more per accepted format and variant.

Most are encoded by the ffmpeg CLI from its deterministic test pattern (the CLI is a tool of
the harness only); variants FFmpeg's encoders cannot write (RLE bitmaps, EXIF orientation,
progressive JPEG, extreme shapes) are written here byte by byte. They are small (48x32) so a
mutation hits headers and data alike, and cached between runs under the output folder.
"""

import os
import shutil
import struct
import subprocess
import zlib
from dataclasses import dataclass

PATTERN = "testsrc2=size=48x32:rate=1"
ALPHA_PATTERN = PATTERN + ",format=rgba,colorchannelmixer=aa=0.6"


@dataclass(frozen=True)
class Still:
    """A valid still of the corpus."""
    name: str
    path: str
    family: str      # png, jpeg, webp, bmp, tiff, gif, avif, jxl, heic: picks format-aware mutators
    required: bool   # a format slicevid documents (or the issue lists): unmutated, it must render
    shape: str = "normal"  # normal, thin (extreme aspect) or huge (over FFmpeg's pixel limit)


# name, family, required, ffmpeg output options (after the input), source pattern
FFMPEG_STILLS = [
    ("png-rgb.png", "png", True, [], PATTERN),
    ("png-rgba.png", "png", True, ["-pix_fmt", "rgba"], ALPHA_PATTERN),
    ("png-16bit.png", "png", True, ["-pix_fmt", "rgb48be"], PATTERN),
    ("png-16bit-alpha.png", "png", True, ["-pix_fmt", "rgba64be"], ALPHA_PATTERN),
    ("png-palette.png", "png", True, ["-pix_fmt", "pal8"], PATTERN),
    ("png-grey.png", "png", True, ["-pix_fmt", "gray"], PATTERN),
    ("png-grey16.png", "png", True, ["-pix_fmt", "gray16be"], PATTERN),
    ("png-grey-alpha.png", "png", True, ["-pix_fmt", "ya8"], ALPHA_PATTERN),
    ("png-1bit.png", "png", True, ["-pix_fmt", "monob"], PATTERN),
    ("png-interlaced.png", "png", True, ["-flags", "+ildct"], PATTERN),
    ("jpeg-420.jpg", "jpeg", True, ["-pix_fmt", "yuvj420p"], PATTERN),
    ("jpeg-444.jpg", "jpeg", True, ["-pix_fmt", "yuvj444p"], PATTERN),
    ("jpeg-grey.jpg", "jpeg", True, ["-pix_fmt", "gray"], PATTERN),
    ("webp-lossy.webp", "webp", True, ["-c:v", "libwebp", "-lossless", "0"], PATTERN),
    ("webp-lossless.webp", "webp", True, ["-c:v", "libwebp", "-lossless", "1"], PATTERN),
    ("webp-alpha.webp", "webp", True, ["-c:v", "libwebp", "-lossless", "0", "-pix_fmt", "yuva420p"], ALPHA_PATTERN),
    ("webp-lossless-alpha.webp", "webp", True, ["-c:v", "libwebp", "-lossless", "1", "-pix_fmt", "bgra"], ALPHA_PATTERN),
    ("bmp-24.bmp", "bmp", True, [], PATTERN),
    ("bmp-32.bmp", "bmp", True, ["-pix_fmt", "bgra"], ALPHA_PATTERN),
    ("bmp-palette.bmp", "bmp", True, ["-pix_fmt", "pal8"], PATTERN),
    ("bmp-565.bmp", "bmp", True, ["-pix_fmt", "rgb565le"], PATTERN),
    ("bmp-1bit.bmp", "bmp", True, ["-pix_fmt", "monob"], PATTERN),
    ("tiff-raw.tif", "tiff", True, ["-compression_algo", "raw"], PATTERN),
    ("tiff-lzw.tif", "tiff", True, ["-compression_algo", "lzw"], PATTERN),
    ("tiff-deflate.tif", "tiff", True, ["-compression_algo", "deflate"], PATTERN),
    ("tiff-packbits.tif", "tiff", True, ["-compression_algo", "packbits"], PATTERN),
    ("tiff-16bit.tif", "tiff", True, ["-pix_fmt", "rgb48le", "-compression_algo", "lzw"], PATTERN),
    ("tiff-alpha.tif", "tiff", True, ["-pix_fmt", "rgba", "-compression_algo", "deflate"], ALPHA_PATTERN),
    ("tiff-palette.tif", "tiff", True, ["-pix_fmt", "pal8", "-compression_algo", "packbits"], PATTERN),
    ("tiff-grey.tif", "tiff", True, ["-pix_fmt", "gray", "-compression_algo", "raw"], PATTERN),
    ("gif.gif", "gif", True, [], PATTERN),
    ("avif.avif", "avif", False, ["-c:v", "libaom-av1", "-still-picture", "1", "-cpu-used", "8"], PATTERN),
    ("jxl.jxl", "jxl", False, ["-c:v", "libjxl"], PATTERN),
]


def build(folder):
    """Makes (or reuses) every still the machine's encoders can write in `folder`; returns
    them sorted by name, so a seed picks the same stills on every run."""
    os.makedirs(folder, exist_ok=True)
    stills = []
    for name, family, required, options, source in FFMPEG_STILLS:
        path = os.path.join(folder, name)
        if not os.path.exists(path) and not _ffmpeg(source, options, path):
            continue  # this machine's ffmpeg lacks the encoder: the format is not fuzzed
        stills.append(Still(name, path, family, required))
    base_jpeg = os.path.join(folder, "jpeg-420.jpg")
    for name, family, maker in _python_stills(base_jpeg, os.path.join(folder, "webp-lossy.webp")):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            data = maker()
            if data is None:
                continue
            with open(path + ".tmp", "wb") as handle:
                handle.write(data)
            os.replace(path + ".tmp", path)
        stills.append(Still(name, path, family, True))
    stills += _heic(folder)
    stills += _shapes(folder)
    return sorted(stills, key=lambda still: still.name)


def _ffmpeg(source, options, path):
    """Encodes one frame of `source` to `path`; False when this ffmpeg cannot."""
    command = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source, "-frames:v", "1",
               "-threads", "1", "-update", "1", *options, path + ".tmp" + os.path.splitext(path)[1]]
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    if done:
        os.replace(command[-1], path)
    elif os.path.exists(command[-1]):
        os.unlink(command[-1])
    return done


def _python_stills(base_jpeg, base_webp):
    """(name, family, maker) for the variants written byte by byte."""
    makers = [
        ("bmp-rle8.bmp", "bmp", lambda: bmp_rle(8)),
        ("bmp-rle4.bmp", "bmp", lambda: bmp_rle(4)),
        ("jpeg-progressive.jpg", "jpeg", lambda: progressive_jpeg(base_jpeg)),
    ]
    for orientation in range(1, 9):
        makers.append((f"jpeg-exif-{orientation}.jpg", "jpeg",
                       lambda o=orientation: jpeg_with_orientation(_read(base_jpeg), o)))
    for orientation in (3, 6, 8):
        makers.append((f"webp-exif-{orientation}.webp", "webp",
                       lambda o=orientation: webp_with_orientation(_read(base_webp), 48, 32, o)))
    return makers


def _read(path):
    with open(path, "rb") as handle:
        return handle.read()


def _heic(folder):
    """A HEIC still when libheif's heif-enc is installed (FFmpeg 5.1 cannot write one). slicevid
    reads HEIC through libheif, so an unmutated one must render."""
    if shutil.which("heif-enc") is None:
        return []
    path = os.path.join(folder, "heic.heic")
    if not os.path.exists(path):
        done = subprocess.run(["heif-enc", "-q", "50", "-o", path, os.path.join(folder, "png-rgb.png")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        if not done:
            return []
    return [Still("heic.heic", path, "heic", True)]


# Valid PNGs of extreme shape: thin ones stress fitting (--fit cover scales them up enormously),
# huge ones are over FFmpeg's pixel limit and must be refused by size, not called corrupt.
SHAPES = [(1, 200), (200, 1), (1, 1000), (1, 16000), (16000, 1), (2, 30000), (65535, 1), (1, 65535)]
HUGE = [(30000, 30000), (1, 10000000)]


def _shapes(folder):
    stills = []
    for (width, height), shape in [(s, "thin") for s in SHAPES] + [(s, "huge") for s in HUGE]:
        name = f"png-{shape}-{width}x{height}.png"
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            with open(path + ".tmp", "wb") as handle:
                handle.write(png(width, height, bit_depth=1 if shape == "huge" else 8,
                                 colour_type=0 if shape == "huge" else 2))
            os.replace(path + ".tmp", path)
        stills.append(Still(name, path, "png", True, shape))
    return stills


def png_chunk(kind, data):
    """One PNG chunk with its CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, bit_depth=8, colour_type=2):
    """A valid, non-interlaced PNG of a diagonal gradient (or stripes at 1 bit), compressed
    row by row so a 30000x30000 picture costs little memory."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    row_bytes = (width * channels * bit_depth + 7) // 8
    compressor = zlib.compressobj(6)
    body = []
    for start in range(0, height, 4096):
        rows = []
        for y in range(start, min(height, start + 4096)):
            if bit_depth == 1:
                rows.append(b"\x00" + bytes([0x55 if y % 2 else 0xAA]) * row_bytes)
            else:
                rows.append(b"\x00" + bytes(((x + y) * 7 + c * 60) & 0xFF for x in range(width) for c in range(channels)))
        body.append(compressor.compress(b"".join(rows)))
    body.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", b"".join(body))
            + png_chunk(b"IEND", b""))


def bmp_rle(bits, width=48, height=32):
    """A bottom-up palette BMP compressed with RLE8 or RLE4 (FFmpeg's encoder writes neither)."""
    colours = 16 if bits == 4 else 256
    palette = b"".join(bytes([(i * 37) & 0xFF, (i * 91) & 0xFF, (i * 13) & 0xFF, 0]) for i in range(colours))
    data = bytearray()
    for y in range(height):
        x = 0
        while x < width:
            run = min(width - x, 5 + (y % 7))
            index = ((x // 5) + y) % colours
            data += bytes([run, index if bits == 8 else (index << 4) | index])
            x += run
        # End of line, except after the last: there the end-of-bitmap marker says it.
        data += b"\x00\x01" if y == height - 1 else b"\x00\x00"
    offset = 14 + 40 + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, 1 if bits == 8 else 2, len(data),
                       2835, 2835, colours, 0)
    return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + info + palette + bytes(data)


def exif_orientation(orientation, prefix=b"Exif\x00\x00"):
    """An EXIF block (big-endian TIFF) holding only the Orientation tag."""
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    return prefix + b"MM\x00\x2a" + struct.pack(">I", 8) + ifd


def jpeg_with_orientation(jpeg, orientation):
    """The JPEG with an APP1 EXIF segment carrying `orientation`, right after SOI."""
    payload = exif_orientation(orientation)
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def webp_with_orientation(webp, width, height, orientation):
    """A simple (VP8) WebP rewritten as extended (VP8X) with an EXIF chunk."""
    image = webp[12:]  # the VP8/VP8L chunk of a simple file
    exif = exif_orientation(orientation, prefix=b"")
    vp8x = struct.pack("<I", 0x08) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    chunks = b"VP8X" + struct.pack("<I", len(vp8x)) + vp8x + image
    chunks += b"EXIF" + struct.pack("<I", len(exif)) + exif + (b"\x00" if len(exif) % 2 else b"")
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks


def progressive_jpeg(base_jpeg):
    """The base JPEG re-coded progressive by jpegtran (libjpeg-turbo-progs), when installed."""
    if shutil.which("jpegtran") is None:
        return None
    done = subprocess.run(["jpegtran", "-progressive", base_jpeg], capture_output=True)
    return done.stdout if done.returncode == 0 and done.stdout else None
