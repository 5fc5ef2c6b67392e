// The frame buffer the compositor draws into and the sinks read from: plain memory, planar,
// 64-byte aligned rows, owned by Swift and independent of FFmpeg. Samples are 8 or 16 bits
// (native little-endian), as the layout says.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One plane of a `PlanarImage`: `height` rows of `width` samples, `stride` bytes apart.
package struct Plane: @unchecked Sendable {
    // @unchecked: a Plane is a view into a PlanarImage's memory; whoever holds the image
    // (one renderer, or the sinks after it, never both at once) decides who may write.
    package let base: UnsafeMutablePointer<UInt8>
    /// Samples in a row.
    package let width: Int
    package let height: Int
    /// Bytes from one row to the next.
    package let stride: Int
    /// Bytes of one sample: 1, or 2 in 16-bit layouts.
    package let sampleBytes: Int

    /// The bytes of a row's samples (padding excluded).
    package var rowBytes: Int { width * sampleBytes }

    /// The start of row `y`.
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }

    /// Row `y` as 16-bit samples (16-bit layouts only).
    @inline(__always)
    package func row16(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        UnsafeMutableRawPointer(base + y * stride).assumingMemoryBound(to: UInt16.self)
    }
}

/// A planar picture in one of the `PixelLayout`s, 8 or 16 bits a sample.
///
/// Buffers are allocated once (by the render window's pool) and reused for every frame, so
/// this is a class with a single allocation freed in `deinit`.
package final class PlanarImage: @unchecked Sendable {
    // @unchecked: the pipeline hands an image to exactly one writer at a time (a render task),
    // then to readers only (the sinks); the permit protocol in SlicePipeline enforces it.
    package let layout: PixelLayout
    package let width: Int
    package let height: Int
    package let planes: [Plane]
    /// The one allocation every plane lives in, and its size: what an encoder that reads the
    /// frame in place is lent.
    package let storage: UnsafeMutableRawPointer
    package let byteCount: Int

    /// Allocates an image; its contents are undefined until drawn or filled.
    /// - Parameters:
    ///   - width: pixels, ≥ 1.
    ///   - height: pixels, ≥ 1.
    ///   - layout: the planar layout.
    package init(width: Int, height: Int, layout: PixelLayout) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.layout = layout
        self.width = width
        self.height = height
        var offsets: [(offset: Int, width: Int, height: Int, stride: Int)] = []
        var total = 0
        let sampleBytes = layout.bytesPerSample
        for p in 0..<layout.planeCount {
            let size = layout.planeSize(p, width: width, height: height)
            let stride = (size.width * sampleBytes + 63) & ~63
            offsets.append((total, size.width, size.height, stride))
            total += stride * size.height
        }
        // 64 spare bytes at the end: SIMD readers (libswscale, encoders reading a lent frame)
        // may read a vector past the last pixel, as FFmpeg's own buffers allow.
        byteCount = total + 64
        storage = PlanarImage.allocate(byteCount)
        let bytes = storage.bindMemory(to: UInt8.self, capacity: total)
        planes = offsets.map {
            Plane(base: bytes + $0.offset, width: $0.width, height: $0.height, stride: $0.stride, sampleBytes: sampleBytes)
        }
    }

    deinit { free(storage) }

    /// Frame-sized memory: for a buffer of several MB, 2 MB-aligned and offered to the kernel for
    /// transparent huge pages (as x264 does for its own frames), so filling it takes one page
    /// fault per 2 MB instead of one per 4 KB. Where THP is off or unavailable, madvise is a no-op.
    /// Also what the compositor's cut strips live in; freed with `free`.
    static func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
        let hugePage = 2 << 20
        var pointer: UnsafeMutableRawPointer?
        if byteCount >= 2 * hugePage {
            let rounded = (byteCount + hugePage - 1) / hugePage * hugePage
            if posix_memalign(&pointer, hugePage, rounded) == 0, let pointer {
                #if os(Linux)
                _ = madvise(pointer, rounded, MADV_HUGEPAGE)
                #endif
                return pointer
            }
        }
        guard posix_memalign(&pointer, 64, byteCount) == 0, let pointer else { fatalError("out of memory for a \(byteCount)-byte frame") }
        return pointer
    }

    /// Fills every plane with its value for `color`.
    package func fill(_ color: RGBAColor) {
        for (plane, value) in zip(planes, layout.fillValues(for: color)) {
            for y in 0..<plane.height {
                if layout.isDeep {
                    plane.row16(y).update(repeating: UInt16(value).littleEndian, count: plane.width)
                } else {
                    plane.row(y).update(repeating: UInt8(value), count: plane.width)
                }
            }
        }
    }

    /// Copies `other`'s pixels into this image.
    /// - Precondition: same size and layout.
    package func copy(from other: PlanarImage) {
        precondition(other.width == width && other.height == height && other.layout == layout)
        for (dst, src) in zip(planes, other.planes) {
            for y in 0..<dst.height { dst.row(y).update(from: src.row(y), count: dst.rowBytes) }
        }
    }

    /// The sample at (`x`, `y`) of plane `p`, whatever its size.
    package func sample(plane p: Int, x: Int, y: Int) -> Int {
        layout.isDeep ? Int(UInt16(littleEndian: planes[p].row16(y)[x])) : Int(planes[p].row(y)[x])
    }

    /// Whether both images hold the same pixels (padding ignored).
    package func hasSamePixels(as other: PlanarImage) -> Bool {
        guard other.width == width, other.height == height, other.layout == layout else { return false }
        for (a, b) in zip(planes, other.planes) {
            for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.rowBytes) != 0 { return false }
        }
        return true
    }
}
