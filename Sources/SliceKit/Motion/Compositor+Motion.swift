// Frames of a transition whose stills move: a hold frame is the moving still warped straight into
// the frame; a frame in motion warps the parts of each moving still its strips show into a
// borrowed picture first and cuts that into strips, so the strips carry the picture exactly as
// the hold showed it a frame before.

import Synchronization

/// How a transition's two stills move, and where the transition sits in the whole video.
package struct TransitionMotion: Sendable {
    /// The outgoing still's path; nil when it does not move.
    package let source: MotionPath?
    /// The incoming still's path; nil when it does not move.
    package let destination: MotionPath?
    /// The whole video's index of the transition's frame 0: the paths run on the video's clock,
    /// so a still moves on without a jump from one transition into the next.
    package let firstFrame: Int
    /// Pictures a frame in motion warps its stills into, reused from frame to frame.
    let pictures: PicturePool

    package init(source: MotionPath?, destination: MotionPath?, firstFrame: Int, pictures: PicturePool = PicturePool()) {
        self.source = source
        self.destination = destination
        self.firstFrame = firstFrame
        self.pictures = pictures
    }

    /// Whether either still moves.
    var moves: Bool { source != nil || destination != nil }
}

/// The two stills as one frame shows them, and their cut copies where they do not move.
struct FrameStills {
    let source: PlanarImage
    let destination: PlanarImage
    let sourceCut: StillStrips?
    let destinationCut: StillStrips?
}

extension Compositor {
    /// Seconds of the whole video at which the transition's frame `index` shows.
    func videoTime(ofFrame index: Int, motion: TransitionMotion) -> Double {
        plan.time(ofFrame: motion.firstFrame + index)
    }

    /// Draws frame `index`, which shows `content`, with its stills moved to the frame's time.
    func renderMoving(_ content: FrameContent, frame index: Int, motion: TransitionMotion, into target: PlanarImage) {
        let time = videoTime(ofFrame: index, motion: motion)
        switch content {
        case .source:
            guard let path = motion.source else { return render(content, into: target) }
            path.draw(source, at: time, into: target)
        case .destination:
            guard let path = motion.destination else { return render(content, into: target) }
            path.draw(destination, at: time, into: target)
        case .strips:
            withDrawings(ofFrame: index, showing: [content]) { render($0[0], into: target) }
        }
    }

    /// Calls `body` with how each plane of each of `contents` is drawn (`drawing(of:stills:)`),
    /// from the stills as frame `index` shows them: the moving ones warped to the frame's time
    /// into borrowed pictures (given back when `body` returns), the others as they are. Only
    /// the parts of a moving still the drawings read are warped: a frame in motion shows about
    /// one frame's worth of its two stills, not two. A moving still none of `contents` shows
    /// (its strips all gone, or not yet arrived) is not warped at all.
    func withDrawings<R>(ofFrame index: Int, showing contents: [FrameContent], _ body: ([[PlaneDrawing]]) -> R) -> R {
        let own = drawingStills
        guard let motion else { return body(contents.map { drawing(of: $0, stills: own) }) }
        let time = videoTime(ofFrame: index, motion: motion)
        let shown = Compositor.shows(contents, extent: plan.travelExtent)
        var borrowed: [(still: PlanarImage, path: MotionPath, picture: PlanarImage)] = []
        func moved(_ still: PlanarImage, _ path: MotionPath?, shown: Bool) -> PlanarImage {
            guard let path, shown else { return still }
            let picture = motion.pictures.take(like: still)
            borrowed.append((still, path, picture))
            return picture
        }
        let stills = FrameStills(source: moved(source, motion.source, shown: shown.outgoing),
                                 destination: moved(destination, motion.destination, shown: shown.incoming),
                                 sourceCut: own.sourceCut, destinationCut: own.destinationCut)
        defer { borrowed.forEach { motion.pictures.give($0.picture) } }
        let drawings = contents.map { drawing(of: $0, stills: stills) }
        for (still, path, picture) in borrowed {
            let parts = picture.planes.indices.map { p in
                drawings.flatMap { $0[p].reads(from: picture.planes[p], sampleBytes: sampleBytes[p]) }
            }
            StillWarp.draw(still, view: path.view(at: time, width: still.width, height: still.height), into: picture, parts: parts)
        }
        return body(drawings)
    }

    /// Whether any of `contents` shows part of the outgoing and of the incoming still. A strip
    /// `extent` pixels or more from rest is off the frame in every plane (its shift rounds to a
    /// whole plane's extent or more, chroma's too, the frame's sides being even).
    static func shows(_ contents: [FrameContent], extent: Double) -> (outgoing: Bool, incoming: Bool) {
        var outgoing = false, incoming = false
        for content in contents {
            switch content {
            case .source: outgoing = true
            case .destination: incoming = true
            case .strips(let out, let into):
                outgoing = outgoing || out.contains { abs($0) < extent }
                incoming = incoming || into.contains { abs($0) < extent }
            }
        }
        return (outgoing, incoming)
    }
}

/// Frame-sized pictures borrowed by frames in motion whose stills move: at most one pair per
/// render thread at a time, reused for every later frame.
package final class PicturePool: Sendable {
    private let free = Mutex<[PlanarImage]>([])
    private let count = Atomic<Int>(0)

    package init() {}

    /// Pictures ever made: at most two per thread drawing a moving frame at the same time.
    package var made: Int { count.load(ordering: .relaxed) }

    /// A picture of `still`'s size and layout (its contents undefined).
    func take(like still: PlanarImage) -> PlanarImage {
        let found = free.withLock { pictures -> PlanarImage? in
            guard let at = pictures.firstIndex(where: { $0.width == still.width && $0.height == still.height && $0.layout == still.layout })
            else { return nil }
            return pictures.remove(at: at)
        }
        if let found { return found }
        count.add(1, ordering: .relaxed)
        return PlanarImage(width: still.width, height: still.height, layout: still.layout)
    }

    func give(_ picture: PlanarImage) { free.withLock { $0.append(picture) } }
}
