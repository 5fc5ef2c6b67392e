// The last frame of a render, kept as a small picture: what a batch's report page shows of a
// job that writes no poster of its own. It rides along with the job's own render as one more
// consumer of the frames, so it costs one scaled copy, and it is not an output: it cannot fail
// the render, changes nothing the outputs get, and is written (or not) by the batch afterwards.

import SliceKit
import Synchronization

/// Keeps a render's last frame, scaled down to a size chosen beforehand.
package final class LastFrame: Sendable {
    /// The picture's size: the frame's, or smaller with the same aspect.
    package let width: Int
    package let height: Int
    private let kept = Mutex<RGBAImage?>(nil)

    /// Keeps the last frame of a render of `frameWidth` × `frameHeight` frames, scaled so its
    /// longest side is at most `side` (never enlarged).
    package init(frameWidth: Int, frameHeight: Int, side: Int) {
        let scale = min(1, Double(side) / Double(max(frameWidth, frameHeight)))
        width = max(1, min(frameWidth, Int((Double(frameWidth) * scale).rounded())))
        height = max(1, min(frameHeight, Int((Double(frameHeight) * scale).rounded())))
    }

    /// The picture, once the render has drawn its last frame.
    package var picture: RGBAImage? { kept.withLock { $0 } }

    /// A sink that keeps frame `last` of the render.
    func sink(last: Int) -> any FrameSink { Sink(keeping: self, last: last) }

    /// Consumes the frames; keeps the last one, scaled. Never fails.
    private final class Sink: FrameSink {
        let frame: LastFrame
        let last: Int

        init(keeping frame: LastFrame, last: Int) {
            self.frame = frame
            self.last = last
        }

        var wanted: FramesWanted {
            let last = last
            return FramesWanted { $0 == last }
        }

        func consume(_ image: PlanarImage, index: Int) {
            guard index == last else { return }
            let picture = image.rgba(width: frame.width, height: frame.height)
            frame.kept.withLock { $0 = picture }
        }

        func finish() {}
    }
}
