// The stills of one make, decoded as the render decodes them: each fitted once into every
// layout the render draws in, its card layers printed on it, the contrast of the text read over
// it measured on the way. `--dry-run`, `--check` and `--plan` decode them the same way (in the
// first layout only) to measure contrast, so all of them tell the same lines.

import Dispatch
import SliceKit
import SliceMedia
import Synchronization

/// The stills of a make, decoding.
struct DecodedStills: Sendable {
    /// One per image of the sequence, in order (an image shown twice may share its decode).
    let stills: [DeferredStill]
    /// The contrast probes of the card text layers, one per decode that has targets.
    let probes: [ContrastProbe]
    /// Where each decoded still's focus landed in the frame, by the image it was decoded as.
    let landed: LandedFocuses
    /// The image whose decode each image shares (itself when it has its own).
    let decodedAs: [Int: Int]

    /// Each image's landed focus, once the still it was decoded as is (the first one at least,
    /// once it is decoded): what a moving still zooms toward.
    var focuses: [Int: Focus] {
        let points = landed.points.withLock { $0 }
        return decodedAs.compactMapValues { points[$0] }
    }
}

/// Where each decoded still's focus landed in the frame, told by the decode threads.
final class LandedFocuses: Sendable {
    let points = Mutex<[Int: Focus]>([:])
}

extension MakeJob {
    /// Starts decoding every still of `request` into `layouts`, `jobs` at a time and in order
    /// (still k on decoder k mod jobs): a two-image clip decodes both at once, and a 40-photo
    /// sequence never holds 40 full-size decodes in memory together. A still that comes back
    /// later in a sequence (a → b → a) with the same focus and layers is decoded once and shared.
    static func decodeStills(_ request: MakeRequest, planned: MakePlan, pictures: LayerPictures?, layouts: [PixelLayout],
                             cancellation: Cancellation) -> DecodedStills {
        let spec = request.spec
        let sequence = planned.sequence
        let paths = request.stills.paths
        let decoders = (0..<request.renderThreads).map { DispatchQueue(label: "slicevid.decode.\($0)", qos: .userInitiated) }
        var pending: [String: (still: DeferredStill, image: Int)] = [:]
        var decoding = 0
        let timeline = SequencePlan(spec: sequence)
        let readability = planned.layout?.readability ?? Layout.Readability()
        let scale = Double(min(spec.width, spec.height)) / 1080
        var probes: [ContrastProbe] = []
        let landed = LandedFocuses()
        var decodedAs: [Int: Int] = [:]
        let stills = (0..<sequence.imageCount).map { index in
            let path = paths.isEmpty ? nil : paths[index]
            let focus = sequence.focus(ofImage: index)
            // The layout's layers printed on this card, composed onto it once it is fitted.
            let printed = pictures?.card(index, of: sequence.imageCount) ?? []
            let layers = printed.map { CardLayer(picture: $0.image, x: $0.layer.box.x, y: $0.layer.box.y) }
            // Each still measures the contrast of the card text printed on it, as it is fitted.
            let targets = pictures?.contrastTargets(still: index, plan: timeline, frameRate: spec.frameRate.value, readability: readability,
                                                    scale: scale) ?? []
            let probe = targets.isEmpty ? nil : ContrastProbe(targets: targets, layers: layers)
            // Shared only with a card of the same still, focus, layers and layers read over it.
            let key = path.map { "\(focus) \(printed.map(\.layer.name)) \(targets.map(\.layer)) \($0)" }
            if let key, let shared = pending[key] {
                decodedAs[index] = shared.image
                return shared.still
            }
            decodedAs[index] = index
            if let probe { probes.append(probe) }
            let still = DeferredStill(on: decoders[decoding % decoders.count], pictures: { () throws(MediaError) in
                // A still queued behind others is not decoded once the run is stopping.
                if cancellation.isCancelled { throw MediaError(.inputInvalid, subject: path ?? "demo card", message: "not decoded: the run was stopped") }
                return try StillLoader.load(path, role: index == 0 ? .outgoing : .incoming, spec: spec, focus: focus, layouts: layouts,
                                            layers: layers, probe: probe, cancellation: cancellation,
                                            placed: { point in landed.points.withLock { $0[index] = point } })
            })
            decoding += 1
            if let key { pending[key] = (still, index) }
            return still
        }
        return DecodedStills(stills: stills, probes: probes, landed: landed, decodedAs: decodedAs)
    }
}
