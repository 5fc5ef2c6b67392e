// Lending a rendered picture to an encoder without copying it: the AVFrame points at the
// PlanarImage's memory through an AVBuffer that keeps the image alive for as long as any
// reference to the buffer exists, however long the encoder holds on to it.

import CFFmpeg
import SliceKit

extension Frame {
    /// Points this frame at `image`'s planes, in a read-only buffer that holds `image` until its
    /// last reference is dropped; `returned` is called then, on whatever thread dropped it.
    /// Format, size and colour tags are the caller's to set.
    /// - Throws: `MediaError` when out of memory (nothing is lent then).
    func lend(_ image: PlanarImage, subject: String, returned: @escaping @Sendable () -> Void) throws(MediaError) {
        // Retained here, released by the free callback: the buffer owns one reference.
        let loan = Unmanaged.passRetained(Loan(image: image, returned: returned))
        guard let buffer = av_buffer_create(image.storage.assumingMemoryBound(to: UInt8.self), image.byteCount,
                                            { opaque, _ in Unmanaged<Loan>.fromOpaque(opaque!).takeRetainedValue().end() },
                                            loan.toOpaque(), AV_BUFFER_FLAG_READONLY) else {
            loan.release()
            throw MediaError.outOfMemory(subject: subject)
        }
        unref()
        pointer.pointee.buf.0 = buffer
        setPlanes(image.planePointers)
    }
}

/// One picture lent out: what the lending buffer's opaque value holds.
private final class Loan: Sendable {
    private let image: PlanarImage
    private let returned: @Sendable () -> Void

    init(image: PlanarImage, returned: @escaping @Sendable () -> Void) {
        self.image = image
        self.returned = returned
    }

    func end() { returned() }
}
