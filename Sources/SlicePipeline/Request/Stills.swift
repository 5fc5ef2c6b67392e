// Which stills a clip is made of: the built-in demo cards, a pair (`--from`/`--to`, a manifest
// job of two images) or a sequence of three or more, shown in turn. Each front end reads its
// own way of giving them into this.

/// The stills a render shows, in order.
public enum Stills: Sendable, Equatable {
    /// The built-in demo cards: no input files.
    case demo
    /// One transition, from the first still to the second.
    case pair(from: String, to: String)
    /// Two or more stills in turn (`slicevid make a.jpg b.jpg c.jpg`), a transition between
    /// each pair.
    case sequence([String])

    /// The stills' paths in the order they are shown; empty for the demo cards.
    public var paths: [String] {
        switch self {
        case .demo: []
        case .pair(let from, let to): [from, to]
        case .sequence(let paths): paths
        }
    }

    /// The stills as shown in turn: two for a pair or the demo, however many a sequence has.
    public var count: Int { self == .demo ? 2 : paths.count }

    /// Refuses a sequence of fewer than two stills.
    /// - Throws: `SlicevidError(.usage)` naming the images.
    func validate() throws(SlicevidError) {
        if case .sequence(let paths) = self, paths.count < 2 {
            throw SlicevidError(.usage, "\(setting: .images): a sequence needs at least two images, \(paths.count) given")
        }
    }
}
