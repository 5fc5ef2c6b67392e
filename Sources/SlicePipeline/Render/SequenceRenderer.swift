// What every frame of a sequence shows: the first still's hold frames at once, everything
// after them once the other stills are decoded.

import SliceKit
import SliceMedia
import Synchronization

/// Renders the frames of a sequence (or of one transition) whose later stills may still be
/// decoding.
///
/// The first still's hold frames are copies of it and never wait; every other frame waits,
/// once, for all the stills. If one fails, the run is cancelled and `failure` says why.
final class SequenceRenderer: Sendable {
    private let plan: SequencePlan
    /// Where each decoded image's focus landed in the frame, for moving stills to zoom toward.
    private let focuses: @Sendable () -> [Int: Focus]
    /// How the first still moves in its hold (it is decoded before the renderer is made).
    private let firstMotion: MotionPath?
    private let first: PlanarImage
    /// Layers drawn over the finished frames, unsliced.
    private let overlays: [FrameLayer]
    private let frameRate: FrameRate
    private let rest: [DeferredStill]
    /// Which of each later still's pictures (one per layout the render draws in) this draws from.
    private let picture: Int
    private let compositor = Mutex<SequenceCompositor?>(nil)
    private let cancellation: Cancellation
    private let onStillsReady: @Sendable () -> Void

    /// - Parameters:
    ///   - first: the first image's still, decoded.
    ///   - rest: the other images' stills, in order, decoding.
    ///   - picture: which of their pictures, by layout, this renderer draws (`first`'s layout).
    ///   - onStillsReady: called once, before the first frame that needs a later still is
    ///     drawn: from then on the run can no longer fail on its inputs.
    ///   - overlays: layers drawn over every frame they show on, after the strips.
    ///   - focuses: where each decoded image's focus landed in the frame (the first's at least
    ///     now, every image's once all are decoded); images it leaves out zoom toward their focus.
    init(plan: SequencePlan, focuses: @escaping @Sendable () -> [Int: Focus] = { [:] }, first: PlanarImage, rest: [DeferredStill],
         picture: Int = 0, overlays: [FrameLayer] = [], frameRate: FrameRate,
         cancellation: Cancellation, onStillsReady: @escaping @Sendable () -> Void) {
        self.plan = plan
        self.focuses = focuses
        firstMotion = plan.moving(toward: focuses()).motions[0]
        self.first = first
        self.overlays = overlays
        self.frameRate = frameRate
        self.rest = rest
        self.picture = picture
        self.cancellation = cancellation
        self.onStillsReady = onStillsReady
    }

    /// Why a still could not be used: the first failed one in image order among those whose
    /// decoding has ended. Never waits, so a signal is answered at once.
    var failure: MediaError? {
        for still in rest {
            if case .failure(let error) = still.peek() { return error }
        }
        return nil
    }

    /// Frame `index`: the first still itself during its hold (shared, not copied), the last
    /// still itself once the sequence has settled (unless they move), otherwise drawn into `buffer`; with the
    /// overlays that show at its time drawn over it (in `buffer`: a shared still is copied
    /// there first, never drawn on).
    func frame(_ index: Int, buffer: PlanarImage) -> PlanarImage {
        let drawn = strips(index, buffer: buffer)
        let time = Double(index) / frameRate.value
        // A layer at rest is drawn as prepared; one that only moves, from its planes at an
        // offset (frames without alpha); any other in motion is moved into a layer of its own.
        var draws: [(PlanarImage) -> Void] = []
        for layer in overlays {
            guard let state = layer.schedule.state(at: time) else { continue }
            let opacity = state.opacity
            if state.isStill {
                draws.append { [overlay = layer.overlay] in overlay.draw(onto: $0, opacity: opacity) }
            } else if let planes = layer.planes, let moves = layer.moving?.translations(state) {
                draws.append { planes.draw(moves, onto: $0, opacity: opacity) }
            } else {
                for overlay in layer.moving?.overlays(state, layout: buffer.layout) ?? [] {
                    draws.append { overlay.draw(onto: $0, opacity: opacity) }
                }
            }
        }
        guard !draws.isEmpty else { return drawn }
        if drawn !== buffer { buffer.copy(from: drawn) }
        for draw in draws { draw(buffer) }
        return buffer
    }

    /// The frame's strips, before any overlay.
    private func strips(_ index: Int, buffer: PlanarImage) -> PlanarImage {
        let location = plan.locate(frame: index)
        if location.segment == 0, plan.segments[0].showsSourceOnly(frame: location.frame) {
            guard let path = firstMotion else { return first }
            // A moving first still: its hold frames are warps of it, which need no other still.
            path.draw(first, at: plan.segments[0].time(ofFrame: index), into: buffer)
            return buffer
        }
        guard let compositor = readyCompositor() else {
            cancellation.fail()
            return buffer
        }
        if location.segment == plan.segments.count - 1,
           plan.segments[location.segment].showsDestinationOnly(frame: location.frame),
           plan.motions[plan.segments.count] == nil, let last = compositor.lastStill {
            return last
        }
        compositor.render(frame: index, into: buffer)
        return buffer
    }

    private func readyCompositor() -> SequenceCompositor? {
        if let ready = compositor.withLock({ $0 }) { return ready }
        var stills = [first]
        for still in rest {
            guard case .success(let decoded) = still.wait(unless: cancellation, picture: picture) else { return nil }
            stills.append(decoded)
        }
        // The announcement is made outside the lock the other render threads are waiting on.
        let (ready, first) = compositor.withLock { cached in
            if let cached { return (cached, false) }
            let made = SequenceCompositor(plan: plan.moving(toward: focuses()), stills: stills)
            cached = made
            return (made, true)
        }
        if first { onStillsReady() }
        return ready
    }
}

/// A layer over the frames: prepared for the render's layout, when it shows and how it moves.
struct FrameLayer: Sendable {
    let overlay: FrameOverlay
    let schedule: LayerSchedule
    /// Its picture, to be moved, when it moves.
    let moving: MovingLayer?
    /// Its planes in the render's layout, to be drawn at an offset (layouts without alpha).
    let planes: MovingPlanes?
}
