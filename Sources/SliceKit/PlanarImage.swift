// The frame buffer the compositor draws into and the sinks read from: plain memory, planar,
// 64-byte aligned rows, owned by Swift and independent of FFmpeg.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One plane of a `PlanarImage`: `height` rows of `width` bytes, `stride` bytes apart.
package struct Plane: @unchecked Sendable {
    // @unchecked: a Plane is a view into a PlanarImage's memory; whoever holds the image
    // (one renderer, or the sinks after it, never both at once) decides who may write.
    package let base: UnsafeMutablePointer<UInt8>
    package let width: Int
    package let height: Int
    package let stride: Int

    /// The start of row `y`.
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }
}

/// A planar 8-bit picture in one of the `PixelLayout`s.
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
        for p in 0..<layout.planeCount {
            let size = layout.planeSize(p, width: width, height: height)
            let stride = (size.width + 63) & ~63
            offsets.append((total, size.width, size.height, stride))
            total += stride * size.height
        }
        // 64 spare bytes at the end: SIMD readers (libswscale, encoders reading a lent frame)
        // may read a vector past the last pixel, as FFmpeg's own buffers allow.
        byteCount = total + 64
        storage = PlanarImage.allocate(byteCount)
        let bytes = storage.bindMemory(to: UInt8.self, capacity: total)
        planes = offsets.map { Plane(base: bytes + $0.offset, width: $0.width, height: $0.height, stride: $0.stride) }
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
            for y in 0..<plane.height { plane.row(y).update(repeating: value, count: plane.width) }
        }
    }

    /// Copies `other`'s pixels into this image.
    /// - Precondition: same size and layout.
    package func copy(from other: PlanarImage) {
        precondition(other.width == width && other.height == height && other.layout == layout)
        for (dst, src) in zip(planes, other.planes) {
            for y in 0..<dst.height { dst.row(y).update(from: src.row(y), count: dst.width) }
        }
    }

    /// Whether both images hold the same pixels (padding ignored).
    package func hasSamePixels(as other: PlanarImage) -> Bool {
        guard other.width == width, other.height == height, other.layout == layout else { return false }
        for (a, b) in zip(planes, other.planes) {
            for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width) != 0 { return false }
        }
        return true
    }
}
