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
    /// Draws the layout's layers of `request` as a run would (refusing what a run refuses) and
    /// gives its warnings not told yet: overlaps, a shrunk size, and contrast, measured on the
    /// stills decoded as the run decodes them.
    /// - Throws: `SlicevidError`: what drawing the layers refuses, a still that cannot be
    ///   decoded, or the contrast refusal the run would make.
    func drawn(_ request: MakeRequest, _ planned: MakePlan) throws(SlicevidError) -> [LayoutWarning] {
        try MakeJob.layoutWarnings(request, planned: planned).filter { first($0.topic) }
    }
}
