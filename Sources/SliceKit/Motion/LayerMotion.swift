// How an `over` layer arrives and leaves: an effect (fade, slide, scale, wipe, strips), when it
// starts — an anchor on the clip's own timeline (`landed+0.1`, `step 2 transition`, `end-0.4`)
// — how long it takes and the easing that drives it. Resolved into seconds per clip by
// `LayerSchedule`.

extension Layout {
    /// A layer's entrance (`"in"`) or exit (`"out"`).
    public struct Motion: Sendable, Equatable {
        /// When the motion starts; nil: an entrance at the clip's start, an exit so that it
        /// ends with the clip.
        public var at: Anchor?
        public var effect: Effect
        /// Seconds the motion takes; nil: 0.5 s (an exit: at most the time left before its end).
        public var duration: Double?
        /// The curve; nil: `ease-out` entering, `ease-in` leaving, and the clip's own easing for
        /// `strips` (so its strips spring like the clip's).
        public var easing: Easing?

        public init(at: Anchor? = nil, effect: Effect, duration: Double? = nil, easing: Easing? = nil) {
            self.at = at
            self.effect = effect
            self.duration = duration
            self.easing = easing
        }

        /// Seconds a motion takes when the layout does not say.
        public static let defaultDuration = 0.5
    }

    /// A moment of the clip plus or minus seconds: `landed+0.1`, `end-0.4`, or plain seconds
    /// from the start (`1.5`).
    public struct Anchor: Sendable, Equatable, CustomStringConvertible {
        public var moment: Moment
        /// Seconds after the moment (negative: before it).
        public var offset: Double

        public init(_ moment: Moment, offset: Double = 0) {
            self.moment = moment
            self.offset = offset
        }

        /// Plain seconds from the start of the clip.
        public static func seconds(_ value: Double) -> Anchor { Anchor(.start(step: nil), offset: value) }

        /// `landed+0.1`, `step 2 transition-0.2`, `1.5` for plain seconds.
        public var description: String {
            if moment == .start(step: nil), offset >= 0 { return offset.shortText }
            let sign = offset < 0 ? "-" : "+"
            return moment.description + (offset == 0 ? "" : sign + abs(offset).shortText)
        }
    }

    /// The clip's moments an anchor names. A step is a transition of a sequence, counted from 1;
    /// without one, `transition` and `landed` are the last step's (the still the clip ends on).
    public enum Moment: Sendable, Equatable, CustomStringConvertible {
        /// The clip's first frame (or, with a step, the step's hold begins).
        case start(step: Int?)
        /// The hold ends: the strips start to move.
        case transition(step: Int?)
        /// The incoming strips are at rest.
        case landed(step: Int?)
        /// The clip's last frame.
        case end

        public var description: String {
            switch self {
            case .start(let step): (step.map { "step \($0) " } ?? "") + "start"
            case .transition(let step): (step.map { "step \($0) " } ?? "") + "transition"
            case .landed(let step): (step.map { "step \($0) " } ?? "") + "landed"
            case .end: "end"
            }
        }

        /// The step it names, if any.
        public var step: Int? {
            switch self {
            case .start(let step), .transition(let step), .landed(let step): step
            case .end: nil
            }
        }
    }

    /// What a layer does as it arrives (progress 0 → 1) or leaves (1 → 0).
    public enum Effect: Sendable, Equatable, CustomStringConvertible {
        /// Its opacity follows the progress.
        case fade
        /// It moves in from `distance` pixels (at 1080p) away, toward `side` when arriving
        /// (`slide-up` comes up from below) and away toward it when leaving; it fades as it moves.
        case slide(Side, distance: Double)
        /// It grows from `from` of its size about its centre (a spring overshoots past 1); it
        /// fades as it grows. `pop` is a scale from 0 with a bouncy spring by default.
        case scale(from: Double, pop: Bool)
        /// It is revealed from one edge: `wipe-right` uncovers it from the left edge rightwards.
        case wipe(Side)
        /// It arrives as its own slice transition: cut along the clip's strips, each strip
        /// springing into place from the clip's travel with the clip's seed (leaving: flying off
        /// as the outgoing strips do).
        case strips
        /// It is revealed unit by unit, each unit whole as the text engine shaped it: `typewriter`
        /// shows one grapheme cluster after another (how many follows the easing over the
        /// duration); `words` and `lines` bring each word or line in over the duration as
        /// `each` says, one `stagger` seconds after the other. Text layers' entrances only.
        case reveal(RevealUnit, stagger: Double, each: Each)

        /// How each word or line of a reveal arrives: fading, or sliding in toward `side` from
        /// `distance` pixels (at 1080p) away, fading as it moves.
        public struct Each: Sendable, Equatable, CustomStringConvertible {
            /// The side it slides toward; nil: it only fades.
            public var side: Side?
            public var distance: Double

            public static let fade = Each(side: nil, distance: 0)

            public static func slide(_ side: Side, distance: Double) -> Each { Each(side: side, distance: distance) }

            /// Every name `each` takes.
            public static let names = ["fade"] + Side.allCases.map { "slide-\($0.rawValue)" }

            /// `fade`, `slide-up`; nil for another name.
            public init?(name: String) {
                if name == "fade" {
                    self = .fade
                } else if name.hasPrefix("slide-"), let side = Side(rawValue: String(name.dropFirst(6))) {
                    self = .slide(side, distance: Effect.defaultDistance)
                } else {
                    return nil
                }
            }

            private init(side: Side?, distance: Double) {
                self.side = side
                self.distance = distance
            }

            /// `fade`, `slide-up`, `slide-up(distance 60)`.
            public var description: String {
                guard let side else { return "fade" }
                return "slide-\(side.rawValue)" + (distance == Effect.defaultDistance ? "" : "(distance \(distance.shortText))")
            }
        }

        /// What a reveal shows one at a time.
        public enum RevealUnit: String, Sendable, CaseIterable {
            case cluster, word, line

            /// The effect's name: `typewriter`, `words`, `lines`.
            public var effectName: String {
                switch self {
                case .cluster: "typewriter"
                case .word: "words"
                case .line: "lines"
                }
            }

            /// Seconds between two units' starts when the layout does not say (none for a
            /// typewriter, whose clusters share the duration).
            public var defaultStagger: Double {
                switch self {
                case .cluster: 0
                case .word: 0.12
                case .line: 0.3
                }
            }
        }

        /// The side a slide moves toward, or a wipe uncovers toward.
        public enum Side: String, Sendable, CaseIterable {
            case up, down, left, right
        }

        /// Pixels at 1080p a slide travels when the layout does not say.
        public static let defaultDistance = 100.0

        /// Every effect's name, as a layout writes it.
        public static let names = ["fade"] + Side.allCases.map { "slide-\($0.rawValue)" } + ["scale", "pop", "wipe"]
            + Side.allCases.map { "wipe-\($0.rawValue)" } + ["strips", "typewriter", "words", "lines"]

        /// The effect a name stands for, with its defaults; nil for an unknown name.
        public init?(name: String) {
            switch name {
            case "fade": self = .fade
            case "scale": self = .scale(from: 0.5, pop: false)
            case "pop": self = .scale(from: 0, pop: true)
            case "wipe": self = .wipe(.right)
            case "strips": self = .strips
            case "typewriter": self = .reveal(.cluster, stagger: 0, each: .fade)
            case "words": self = .reveal(.word, stagger: RevealUnit.word.defaultStagger, each: .fade)
            case "lines": self = .reveal(.line, stagger: RevealUnit.line.defaultStagger, each: .fade)
            default:
                if name.hasPrefix("slide-"), let side = Side(rawValue: String(name.dropFirst(6))) {
                    self = .slide(side, distance: Effect.defaultDistance)
                } else if name.hasPrefix("wipe-"), let side = Side(rawValue: String(name.dropFirst(5))) {
                    self = .wipe(side)
                } else {
                    return nil
                }
            }
        }

        /// The name a layout writes: `slide-up`, `pop`, `wipe-left`.
        public var name: String {
            switch self {
            case .fade: "fade"
            case .slide(let side, _): "slide-\(side.rawValue)"
            case .scale(_, let pop): pop ? "pop" : "scale"
            case .wipe(let side): "wipe-\(side.rawValue)"
            case .strips: "strips"
            case .reveal(let unit, _, _): unit.effectName
            }
        }

        /// The name and any setting that is not the default: `slide-up(distance 60)`.
        public var description: String {
            switch self {
            case .slide(_, let distance) where distance != Effect.defaultDistance: "\(name)(distance \(distance.shortText))"
            case .scale(let from, let pop) where from != (pop ? 0 : 0.5): "\(name)(from \(from.shortText))"
            case .reveal(let unit, let stagger, let each) where stagger != unit.defaultStagger || each != .fade:
                "\(name)(" + [stagger != unit.defaultStagger ? "stagger \(stagger.shortText)" : nil, each != .fade ? "each \(each)" : nil]
                    .compactMap { $0 }.joined(separator: ", ") + ")"
            default: name
            }
        }
    }
}
