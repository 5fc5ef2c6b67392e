// The render window's buffers: allocated once, handed out one per frame in flight, returned
// when every sink has consumed the frame. Its size is the memory bound of a render.

import Dispatch
import SliceKit
import Synchronization

/// A fixed set of frame buffers guarded by a counting semaphore.
///
/// The permit rule, the render's memory bound: a buffer is taken before its frame is drawn and
/// given back only when every sink has consumed that frame (`FrameRelease` counts them), so at
/// most `capacity` frames are ever alive, whatever the clip's length. `take()` blocks while
/// every buffer is in use, which is what stops rendering from running ahead of a slow encoder.
package final class FramePool: Sendable {
    private let permits: DispatchSemaphore
    private let free: Mutex<[PlanarImage]>
    private let inUse = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    /// The number of buffers, i.e. the most frames that can be alive at once.
    package let capacity: Int

    /// When buffers are made.
    package enum Allocation: Sendable {
        /// All of them at once, every page touched: a render's footprint is the whole window
        /// from its first frame.
        case upFront
        /// One at a time, the first time every buffer made so far is in use: for a second
        /// layout's pass, which may need one buffer (a poster) or as many as the window.
        case onDemand
    }

    private let width: Int, height: Int, layout: PixelLayout

    /// Allocates `capacity` buffers up front (by default) and touches every page of them, so a
    /// render's footprint is the whole window from its first frame: the same for a 2 s clip as
    /// for a 60 s one (otherwise a short clip that never fills the window would look smaller),
    /// and no page faults land in the middle of rendering.
    package init(capacity: Int, width: Int, height: Int, layout: PixelLayout, allocation: Allocation = .upFront) {
        precondition(capacity >= 1, "the window needs at least one buffer")
        self.capacity = capacity
        self.width = width
        self.height = height
        self.layout = layout
        permits = DispatchSemaphore(value: capacity)
        free = Mutex(allocation == .onDemand ? [] : (0..<capacity).map { _ in FramePool.buffer(width: width, height: height, layout: layout) })
    }

    private static func buffer(width: Int, height: Int, layout: PixelLayout) -> PlanarImage {
        let buffer = PlanarImage(width: width, height: height, layout: layout)
        buffer.storage.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.byteCount)
        return buffer
    }

    /// Waits for a free buffer and returns it.
    package func take() -> PlanarImage {
        permits.wait()
        let now = inUse.add(1, ordering: .relaxed).newValue
        _ = peak.max(now, ordering: .relaxed)
        // A permit guarantees a buffer: a free one, or (on demand) one not made yet.
        return free.withLock { $0.popLast() } ?? FramePool.buffer(width: width, height: height, layout: layout)
    }

    /// Returns a buffer taken from this pool.
    package func give(_ buffer: PlanarImage) {
        free.withLock { $0.append(buffer) }
        inUse.subtract(1, ordering: .relaxed)
        permits.signal()
    }

    /// The most buffers that were out at the same time.
    package var peakInUse: Int { peak.load(ordering: .relaxed) }

    /// Buffers currently out.
    package var currentlyInUse: Int { inUse.load(ordering: .relaxed) }
}

/// Counts down the sinks that still have to consume one frame; the last one returns the
/// buffer to the pool.
final class FrameRelease: Sendable {
    private let remaining: Atomic<Int>
    private let release: @Sendable () -> Void

    init(consumers: Int, release: @escaping @Sendable () -> Void) {
        remaining = Atomic(consumers)
        self.release = release
    }

    func consumed() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { release() }
    }
}
