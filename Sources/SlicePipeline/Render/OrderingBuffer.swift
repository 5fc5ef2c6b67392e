// Frames finish rendering out of order; sinks must see them in order. This buffer parks early
// frames and releases each one as soon as every frame before it has been released.

import Dispatch

/// Hands frames to a consumer strictly by index, whatever order they arrive in.
///
/// All bookkeeping happens on one serial queue, so there is no lock and no way for two
/// threads to deliver runs out of order. It never holds more frames than the render window
/// allows, because each held frame still owns its pool permit.
package final class OrderingBuffer<Frame: Sendable>: @unchecked Sendable {
    // @unchecked: `pending`, `next` and `peakHeld` are touched only on `queue`.
    private let queue = DispatchQueue(label: "slicevid.ordering")
    private var pending: [Int: Frame] = [:]
    private var next = 0
    private var peakHeld = 0
    private let deliver: @Sendable (Int, Frame) -> Void

    /// - Parameter deliver: called on the buffer's queue with frames 0, 1, 2, … in order.
    package init(deliver: @escaping @Sendable (Int, Frame) -> Void) {
        self.deliver = deliver
    }

    /// Accepts frame `index`; delivers it and any parked successors if it is the next due.
    package func submit(_ index: Int, _ frame: Frame) {
        queue.async { [self] in
            pending[index] = frame
            peakHeld = max(peakHeld, pending.count)
            while let ready = pending.removeValue(forKey: next) {
                deliver(next, ready)
                next += 1
            }
        }
    }

    /// Waits until every submitted frame that can be delivered has been.
    package func drain() { queue.sync {} }

    /// The number of frames delivered so far.
    package var delivered: Int { queue.sync { next } }

    /// The most frames that were parked at once.
    package var peakParked: Int { queue.sync { peakHeld } }
}
