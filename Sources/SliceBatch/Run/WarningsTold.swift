// A campaign's layout warnings are about its layouts, not its jobs: the first job that meets
// one tells it, and the rest of the run stays quiet about it.

import SlicePipeline
import Synchronization

/// The warnings' topics a run has told, shared by its jobs' threads.
final class WarningsTold: Sendable {
    private let topics = Mutex<Set<String>>([])

    /// Whether `topic` is told for the first time (and from now on, not).
    func first(_ topic: String) -> Bool {
        topics.withLock { $0.insert(topic).inserted }
    }
}

extension WarningsTold {
    /// Draws `layout`'s layers as a run would (refusing what a run refuses) and gives its
    /// warnings known without a frame (overlaps, a shrunk size) not told yet.
    /// - Throws: `SlicevidError`: what drawing the layers refuses.
    func drawn(_ layout: LayoutPlan?) throws(SlicevidError) -> [LayoutWarning] {
        guard let layout else { return [] }
        let pictures = try layout.draw()
        return (layout.overlapWarnings + pictures.sizeWarnings(layout)).filter { first($0.topic) }
    }
}
