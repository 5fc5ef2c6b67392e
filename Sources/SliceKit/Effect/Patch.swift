// The compositor's unit of work: a rectangle of one plane whose rows all come from one place.
// Strips are ~25 bytes wide, so a frame is ~160,000 small row copies: they are inlined here as
// overlapping vector moves instead of calls to memcpy, which cost more than the copy itself.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A rectangle of a plane in one frame, drawn row by row from a still (shifted) or from the
/// background's fill row. Everything is in bytes, so a plane of any sample size is drawn alike.
struct Patch {
    /// The plane rows the rectangle covers.
    var rows: Range<Int>
    /// Where the rectangle starts in each target row, in bytes.
    var x: Int
    /// The rectangle's width in bytes.
    var width: Int
    /// What row `rows.lowerBound` is read from.
    var origin: UnsafePointer<UInt8>
    /// Bytes from one row's reading to the next: a still's stride, a cut strip's width, or 0
    /// for the fill row, which every row of a background patch copies.
    var step: Int

    /// Draws the rows `part` (within `rows`) into the target, whose row `part.lowerBound`
    /// starts at `target` (the rectangle's own offset `x` is added here).
    @inline(__always)
    func draw(_ part: Range<Int>, into target: UnsafeMutablePointer<UInt8>, stride: Int) {
        Patch.copyRows(part.count, width: width, from: origin + (part.lowerBound - rows.lowerBound) * step, step: step,
                       to: target + x, stride: stride)
    }

    /// Copies `count` rows of `width` bytes, `step` bytes apart in the source and `stride` in
    /// the target. The size class is chosen once, outside the row loop; each class moves a
    /// row with two overlapping loads and stores (or a run of 16-byte ones), so no byte outside
    /// the row is written and source and target may have any alignment.
    static func copyRows(_ count: Int, width: Int, from source: UnsafePointer<UInt8>, step: Int,
                         to target: UnsafeMutablePointer<UInt8>, stride: Int) {
        var from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        switch width {
        case 0:
            return
        case 1:
            for _ in 0..<count { to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self); from += step; to += stride }
        case 2..<4:
            for _ in 0..<count { overlapping(UInt16.self, width, from, to); from += step; to += stride }
        case 4..<8:
            for _ in 0..<count { overlapping(UInt32.self, width, from, to); from += step; to += stride }
        case 8..<16:
            for _ in 0..<count { overlapping(UInt64.self, width, from, to); from += step; to += stride }
        case 16...32:
            for _ in 0..<count { overlapping(SIMD16<UInt8>.self, width, from, to); from += step; to += stride }
        case 33...64:
            // A 4K luma strip: the row's first two vectors and its last two (overlapping).
            for _ in 0..<count {
                overlapping(SIMD32<UInt8>.self, width, from, to)
                from += step; to += stride
            }
        case 65...largeRow:
            for _ in 0..<count {
                var offset = 0
                while offset + 16 < width {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                                  toByteOffset: offset, as: SIMD16<UInt8>.self)
                    offset += 16
                }
                let tail = from.loadUnaligned(fromByteOffset: width - 16, as: SIMD16<UInt8>.self)
                to.storeBytes(of: tail, toByteOffset: width - 16, as: SIMD16<UInt8>.self)
                from += step; to += stride
            }
        default:
            // Rows this long are what libc's memcpy is best at.
            for _ in 0..<count { memcpy(to, from, width); from += step; to += stride }
        }
    }

    /// Rows wider than this are copied by memcpy.
    static let largeRow = 128

    /// Copies `width` bytes (between one and two `T`s) as a `T` at each end, both loaded
    /// before either is stored.
    @inline(__always)
    private static func overlapping<T: BitwiseCopyable>(_: T.Type, _ width: Int, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer) {
        let tail = width - MemoryLayout<T>.size
        let head = from.loadUnaligned(as: T.self), end = from.loadUnaligned(fromByteOffset: tail, as: T.self)
        to.storeBytes(of: head, as: T.self)
        to.storeBytes(of: end, toByteOffset: tail, as: T.self)
    }
}
