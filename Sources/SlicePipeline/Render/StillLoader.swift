// Stills are decoded once, and the destination while the encoders already work: hold frames
// need only the source, so the first second of a clip is encoding while the second still is
// still being decoded. That keeps a whole run encoder-bound even for short clips.

import Dispatch
import SliceKit
import SliceMedia
import Synchronization

/// Decodes and fits the stills of one transition into the render's layouts.
enum StillLoader {
    /// A still decoded from `path`, or without one the demo card for its role.
    /// Decoding stops soon after `cancellation` is set (a signal, another still's failure).
    /// `focus` is the point of the still a cover crop keeps in view; `layers` are drawn onto
    /// the fitted still (or demo card) before it is converted, so they fly with its strips.
    static func load(_ path: String?, role: StillRole, spec: TransitionSpec, focus: Focus, layout: PixelLayout,
                     layers: [CardLayer] = [], cancellation: Cancellation) throws(MediaError) -> PlanarImage {
        try load(path, role: role, spec: spec, focus: focus, layouts: [layout], layers: layers, cancellation: cancellation)[0]
    }

    /// The still in each of `layouts`, decoded once; each picture is the one `load` gives for
    /// its layout alone. `probe` measures text layers' contrast on the fitted still, before its
    /// layers. `placed` is told where `focus` landed in the frame (a demo card fills it: the focus itself).
    static func load(_ path: String?, role: StillRole, spec: TransitionSpec, focus: Focus, layouts: [PixelLayout],
                     layers: [CardLayer] = [], probe: ContrastProbe? = nil, cancellation: Cancellation,
                     placed: ((Focus) -> Void)? = nil) throws(MediaError) -> [PlanarImage] {
        if let path {
            return try StillDecoder.loadPlanar(path: path, width: spec.width, height: spec.height,
                                               fit: spec.fit, background: spec.background, layouts: layouts, focus: focus,
                                               layers: layers, probe: probe, isCancelled: { cancellation.isCancelled }, placed: placed)
        }
        placed?(focus)
        let card = role == .outgoing ? DemoCards.source(width: spec.width, height: spec.height)
                             : DemoCards.destination(width: spec.width, height: spec.height)
        probe?.measure(card)
        return layouts.map { card.planar($0, layers: layers) }
    }
}

/// Which side of a transition a still is on; picks the demo card when no still is given.
enum StillRole: Sendable {
    /// The first still, which the strips fly off.
    case outgoing
    /// A still that springs into place (every later image of a sequence).
    case incoming
}
