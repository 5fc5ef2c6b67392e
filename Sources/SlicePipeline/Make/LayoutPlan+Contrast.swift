// The contrast check planned for a render: for each still, the text layers read over it (a
// card's printed on it, an `over` layer shown while it is at rest) and the first frame that
// shows each, measured on the fitted still by the decode that makes it (`ContrastProbe`).
// Below the layout's minimum a layer is a refusal (65) when the layout asks for one, otherwise
// a warning told once per render.

import SliceKit
import SliceMedia

extension LayerPictures {
    /// The contrast targets of the still at `index`, in drawing order.
    /// - Parameters:
    ///   - plan: the clip's timeline (which frames show the still at rest).
    ///   - frameRate: frames per second, for `over` layers' timing.
    ///   - readability: the layout's rules (the minimum by size).
    ///   - scale: the frame's pixels per pixel at 1080p.
    package func contrastTargets(still index: Int, plan: SequencePlan, frameRate: Double, readability: Layout.Readability,
                                 scale: Double) -> [Contrast.Target] {
        let count = plan.segments.count + 1
        let resting = Self.restingFrames(of: index, plan: plan)
        guard let firstResting = resting.first else { return [] }
        let length = Double(plan.frameCount - 1) / frameRate
        var targets: [Contrast.Target] = []
        for picture in pictures {
            guard case .text(let text) = picture.layer.content else { continue }
            let frame: Int
            switch picture.layer.placement {
            case .card(let card):
                guard card.includes(index, of: count) else { continue }
                frame = firstResting
            case .over(let timing):
                guard let shown = resting.first(where: { timing.opacity(at: Double($0) / frameRate, clip: length) > 0 }) else { continue }
                frame = shown
            }
            let size = (picture.size ?? 0) / scale
            targets.append(Contrast.Target(layer: picture.layer.name, box: picture.layer.box, text: text.color, scrim: text.scrim,
                                           plate: text.plate?.color, minimum: readability.minimum(size: size, weight: text.weight), frame: frame))
        }
        return targets
    }

    /// The frames of the clip that show the still at `index` alone: its hold, and for a later
    /// still the frames after its strips settled.
    static func restingFrames(of index: Int, plan: SequencePlan) -> [Int] {
        (0..<plan.frameCount).filter { frame in
            let location = plan.locate(frame: frame)
            let segment = plan.segments[location.segment]
            if location.segment == index, segment.showsSourceOnly(frame: location.frame) { return true }
            return location.segment == index - 1 && segment.showsDestinationOnly(frame: location.frame)
        }
    }
}

extension Contrast.Measure {
    /// The refusal of a layer below its minimum: 65, naming the layout, the layer, the ratio
    /// and the frame.
    func refusal(layout: String) -> MediaError {
        MediaError(.inputInvalid, subject: "layout \(InputText.quoted(layout))", message: summary)
    }
}

extension MakeJob {
    /// The warnings of the layers below their contrast, each layer once (its lowest still).
    static func contrastWarnings(_ probes: [ContrastProbe], layout: LayoutPlan?) -> [LayoutWarning] {
        guard let layout, !layout.readability.refuse else { return [] }
        var lowest: [String: Contrast.Measure] = [:]
        var order: [String] = []
        for measure in probes.flatMap({ $0.measures ?? [] }) where measure.isBelowMinimum {
            let name = measure.target.layer
            if lowest[name] == nil { order.append(name) }
            if lowest[name].map({ measure.ratio < $0.ratio }) ?? true { lowest[name] = measure }
        }
        return order.map { name in
            LayoutWarning(layout.warningPrefix + lowest[name]!.summary, topic: layout.warningTopic + " \(name) contrast")
        }
    }
}
