// One pixel layout's share of a render. Each output is fed frames rendered in the layout it would
// be rendered in alone (`EncodingPlan.renderLayout`), so its bytes never depend on which other
// outputs the run writes: a conversion from a richer layout (RGB, 4:4:4, 16 bits) rounds
// differently. Outputs that want the same layout share one pass; a run whose outputs want
// several has one pass per layout, all drawn from the same decoded stills, frame by frame.

import SliceKit

/// The frames of one layout: how each is drawn, the buffers it is drawn in, and the sinks that
/// take it.
struct RenderPass: Sendable {
    /// Where this pass's frames are drawn. The first pass's pool is the window (its permits
    /// bound the frames in flight); a later pass's has as many buffers at most, made on demand.
    let pool: FramePool
    /// The sinks fed this layout's frames.
    let runners: [SinkRunner]
    /// Draws frame `index` into the buffer, or returns a picture that stays unchanged for the
    /// whole run (a hold frame's still); safe to call concurrently.
    let frame: @Sendable (Int, PlanarImage) -> PlanarImage

    /// Whether some sink of this pass uses frame `index`. The first pass draws every frame
    /// whatever its sinks use (drawing is what waits for every still, so a broken still fails
    /// the run however few frames the outputs keep); a later pass only the frames its sinks use.
    func wants(_ index: Int) -> Bool { RenderPass.uses(index, runners) }

    /// Whether one of `runners` uses frame `index`.
    static func uses(_ index: Int, _ runners: [SinkRunner]) -> Bool { runners.contains { $0.wanted.contains(index) } }

    /// Which of the passes whose sinks are `runners` should lead (draw every frame, its pool the
    /// window): the one whose sinks use the most of `frameCount` frames, the first of equals.
    /// Any would give the same bytes; this draws the fewest frames.
    static func lead(_ runners: [[SinkRunner]], frameCount: Int) -> Int {
        var best = 0, most = -1
        for (place, sinks) in runners.enumerated() {
            let used = (0..<frameCount).reduce(0) { $0 + (uses($1, sinks) ? 1 : 0) }
            if used > most { (best, most) = (place, used) }
        }
        return best
    }
}

/// A frame drawn by one pass, and the buffer of that pass's pool whose place it holds.
struct DrawnFrame: Sendable {
    /// The pass, by its place in the render's passes.
    let pass: Int
    let picture: PlanarImage
    let buffer: PlanarImage
}
