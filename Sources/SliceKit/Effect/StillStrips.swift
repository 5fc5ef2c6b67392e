// A still cut into its vertical strips once, each strip's rows stored one after another, so a
// frame reads every strip as one forward run of memory instead of ~25 bytes from each of a
// thousand rows (which wastes most of every cache line and defeats the prefetchers).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A still's vertical strips, each plane's strips one after another and each strip's rows
/// contiguous: strip `s` of a plane is `rows × width(s)` bytes.
///
/// Made once per still and strip count; read-only afterwards, so render threads share it.
final class StillStrips: @unchecked Sendable {
    // @unchecked: the memory is written only in init and read-only from then on.
    private let storage: UnsafeMutableRawPointer
    private let planeStarts: [Int]
    private let strips: StripLayout
    private let sampleBytes: [Int]

    /// - Parameters:
    ///   - still: the picture to cut.
    ///   - strips: where the strips are (only their count and boundaries are used).
    ///   - sampleBytes: bytes per sample of each plane.
    init(_ still: PlanarImage, strips: StripLayout, sampleBytes: [Int]) {
        self.strips = strips
        self.sampleBytes = sampleBytes
        var starts: [Int] = []
        var total = 0
        for plane in still.planes {
            starts.append(total)
            total += plane.width * sampleBytes[starts.count - 1] * plane.height
        }
        planeStarts = starts
        // 16 spare bytes: nothing reads past a strip, but a zero-sized frame would otherwise
        // allocate nothing at all.
        storage = PlanarImage.allocate(total + 16)
        for (p, plane) in still.planes.enumerated() {
            for s in 0..<strips.count {
                let (x, width) = columns(s, plane: p, width: plane.width)
                Patch.copyRows(plane.height, width: width, from: plane.row(0) + x, step: plane.stride,
                               to: storage.assumingMemoryBound(to: UInt8.self) + planeStarts[p] + x * plane.height, stride: width)
            }
        }
    }

    deinit { free(storage) }

    /// Strip `s`'s byte offset and width in a row of plane `p`, `width` samples wide.
    @inline(__always)
    func columns(_ s: Int, plane p: Int, width: Int) -> (x: Int, width: Int) {
        let x0 = strips.boundary(s, extent: width), x1 = strips.boundary(s + 1, extent: width)
        return (x0 * sampleBytes[p], (x1 - x0) * sampleBytes[p])
    }

    /// Plane `p`'s strips: the strip whose rows start at byte `x` of a plane row begins at
    /// `start(plane:) + x × rows`, the strips left of it taking `x` bytes of each row.
    func start(plane p: Int) -> UnsafePointer<UInt8> {
        UnsafePointer((storage + planeStarts[p]).assumingMemoryBound(to: UInt8.self))
    }
}
