// Which rendered frames an output keeps. A video keeps them all; a GIF keeps a lower-rate
// subsample; a poster keeps one. Sinks ask this before encoding, so one render can feed outputs
// of different rates without rendering anything twice.

/// The frames of a render that one output keeps, and how long the output lasts.
package struct FrameSelection: Sendable, Equatable {
    /// How frames are chosen.
    package enum Rule: Sendable, Equatable {
        /// Every rendered frame.
        case every
        /// Output frame k shows the rendered frame nearest to time k / rate; the last rendered
        /// frame (the destination) is always kept.
        case rate(FrameRate)
        /// Exactly one rendered frame.
        case single(Int)
    }

    package let rule: Rule
    /// The render's frame rate.
    package let renderRate: FrameRate
    /// The number of rendered frames (indices 0..<renderFrames).
    package let renderFrames: Int

    /// Every frame of a render.
    package init(every renderFrames: Int, rate renderRate: FrameRate) {
        self.rule = .every
        self.renderRate = renderRate
        self.renderFrames = renderFrames
    }

    /// A subsample at `rate`; a rate at or above the render's keeps every frame.
    package init(renderFrames: Int, renderRate: FrameRate, rate: FrameRate) {
        self.renderRate = renderRate
        self.renderFrames = renderFrames
        rule = rate.value >= renderRate.value ? .every : .rate(rate)
    }

    /// One frame, `index`, clamped to the render.
    package init(single index: Int, renderFrames: Int, renderRate: FrameRate) {
        self.renderRate = renderRate
        self.renderFrames = renderFrames
        rule = .single(min(max(index, 0), max(renderFrames - 1, 0)))
    }

    /// Whether rendered frame `index` is kept.
    package func contains(_ index: Int) -> Bool {
        guard (0..<renderFrames).contains(index) else { return false }
        switch rule {
        case .every:
            return true
        case .single(let kept):
            return index == kept
        case .rate(let rate):
            if index == renderFrames - 1 { return true }
            let guess = outputIndex(near: index, rate: rate)
            return (max(0, guess - 1)...(guess + 1)).contains { renderIndex(ofOutputFrame: $0, rate: rate) == index }
        }
    }

    /// The position of rendered frame `index` among the kept ones (0 for the first kept), or nil
    /// when it is not kept.
    package func position(of index: Int) -> Int? {
        guard contains(index) else { return nil }
        switch rule {
        case .every: return index
        case .single: return 0
        case .rate(let rate):
            let guess = outputIndex(near: index, rate: rate)
            if let k = (max(0, guess - 1)...(guess + 1)).first(where: { renderIndex(ofOutputFrame: $0, rate: rate) == index }) { return k }
            return count - 1 // the destination, appended after the subsample
        }
    }

    /// How many frames the output holds.
    package var count: Int {
        switch rule {
        case .every: return renderFrames
        case .single: return renderFrames > 0 ? 1 : 0
        case .rate(let rate):
            guard renderFrames > 0 else { return 0 }
            var last = outputIndex(near: renderFrames - 1, rate: rate) + 1
            while renderIndex(ofOutputFrame: last, rate: rate) > renderFrames - 1 { last -= 1 }
            // The destination is appended when the subsample's last frame falls short of it.
            return last + 1 + (renderIndex(ofOutputFrame: last, rate: rate) == renderFrames - 1 ? 0 : 1)
        }
    }

    /// The kept frame indices, in order. Meant for tests and short clips.
    package var indices: [Int] { (0..<renderFrames).filter(contains) }

    /// Seconds each output frame lasts: a frame of the output's own rate.
    package var frameDuration: Double {
        switch rule {
        case .every, .single: 1 / renderRate.value
        case .rate(let rate): 1 / rate.value
        }
    }

    /// Seconds at which rendered frame `index` is shown.
    package func time(ofFrame index: Int) -> Double {
        Double(index) * Double(renderRate.denominator) / Double(renderRate.numerator)
    }

    /// The rendered frame that output frame `k` shows: round(k × render rate / rate), in
    /// integers so that 29.97 fps and friends never drift.
    private func renderIndex(ofOutputFrame k: Int, rate: FrameRate) -> Int {
        let numerator = k * renderRate.numerator * rate.denominator
        let denominator = renderRate.denominator * rate.numerator
        return (2 * numerator + denominator) / (2 * denominator)
    }

    /// The output frame whose time is nearest rendered frame `index` (within one).
    private func outputIndex(near index: Int, rate: FrameRate) -> Int {
        (index * renderRate.denominator * rate.numerator) / (renderRate.numerator * rate.denominator)
    }
}
