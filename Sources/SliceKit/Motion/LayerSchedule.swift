// An `over` layer's timeline, resolved once per clip: its anchors turned into seconds of the
// clip's frames (so changing the hold or the duration moves the layer with the transition), its
// defaults filled, and for any time the state it shows — opacity, offset, scale, the part
// uncovered, its strips' displacement. The render asks only `state(at:)`.

/// The moments of one clip that anchors name, in seconds of its frames.
package struct ClipMoments: Sendable, Equatable {
    /// One transition of the clip (a step of a sequence).
    package struct Step: Sendable, Equatable {
        /// Its hold begins.
        package var start: Double
        /// Its hold ends and the strips move.
        package var transition: Double
        /// Its incoming strips are at rest.
        package var landed: Double
        /// What a `strips` effect timed to this step borrows: its easing, seed, strips and travel.
        package var easing: Easing
        package var cut: StripCut
    }

    package var steps: [Step]
    /// The clip's last frame.
    package var end: Double

    package init(steps: [Step], end: Double) {
        self.steps = steps
        self.end = end
    }

    /// The moments of `plan`'s frames: each step's hold starting on its first frame. Frame
    /// `i` is at `i / fps`, as the render times it.
    package init(plan: SequencePlan) {
        let fps = plan.segments[0].spec.frameRate.value
        var steps: [Step] = []
        for (segment, start) in zip(plan.segments, plan.starts) {
            let spec = segment.spec
            let begins = Double(start) / fps
            steps.append(Step(start: begins, transition: begins + spec.hold, landed: begins + spec.hold + spec.transitionSeconds,
                              easing: spec.easing,
                              cut: StripCut(count: spec.strips, seed: spec.seed, travel: spec.travel, direction: spec.direction)))
        }
        self.init(steps: steps, end: Double(plan.frameCount - 1) / fps)
    }

    /// Seconds of `anchor`, or nil when it names a step the clip does not have.
    package func seconds(of anchor: Layout.Anchor) -> Double? {
        guard let step = self.step(anchor.moment) else { return nil }
        let base: Double
        switch anchor.moment {
        case .start(nil): base = 0
        case .start: base = step.start
        case .transition: base = step.transition
        case .landed: base = step.landed
        case .end: base = end
        }
        return base + anchor.offset
    }

    /// The step a moment names: its own, or the last one.
    package func step(_ moment: Layout.Moment) -> Step? {
        guard let number = moment.step else { return steps.last }
        return (1...steps.count).contains(number) ? steps[number - 1] : nil
    }
}

/// How a clip is cut into strips, for a layer that arrives as its own slice transition.
package struct StripCut: Sendable, Equatable {
    package var count: Int
    package var seed: UInt64
    package var travel: ClosedRange<Double>
    package var direction: StripDirection

    package init(count: Int, seed: UInt64, travel: ClosedRange<Double>, direction: StripDirection) {
        self.count = count
        self.seed = seed
        self.travel = travel
        self.direction = direction
    }
}

/// When an over layer shows and what it looks like at any time of the clip.
package struct LayerSchedule: Sendable, Equatable {
    /// An entrance or an exit, in seconds.
    package struct Phase: Sendable, Equatable {
        package var start: Double
        package var duration: Double
        package var effect: Layout.Effect
        package var easing: Easing
        /// The strips a `strips` effect is cut into.
        package var cut: StripCut
        /// As the layout wrote it (`landed+0.1`), for plans.
        package var anchor: String

        package var end: Double { start + duration }
    }

    /// The layout's plain timing (start, end, fades): used as it is when there is no motion.
    package let timing: Layout.Timing
    /// Seconds the layer shows from and until, inclusive.
    package let from: Double
    package let until: Double
    package let entrance: Phase?
    package let exit: Phase?
    /// How many units a reveal shows, once the layer is drawn (`counting(units:)`): with it, a
    /// word or line reveal knows when its last unit is in, and the layer is drawn as prepared
    /// from then on.
    package private(set) var units: Int?

    /// This schedule, its reveal knowing it has `count` units.
    package func counting(units count: Int) -> LayerSchedule {
        var counted = self
        counted.units = count
        return counted
    }

    /// Seconds a reveal entrance takes in all: its duration, plus a stagger per unit after the
    /// first once the units are counted; nil for another entrance.
    package var revealEnd: Double? {
        guard let entrance, case .reveal(let unit, let stagger, let each) = entrance.effect else { return nil }
        return entrance.end + (unit == .cluster ? 0 : Double(max(0, (units ?? 1) - 1)) * stagger)
    }

    /// Why a schedule cannot be made: the key (`in.at`) and what is wrong.
    package struct Problem: Error, Equatable {
        package let key: String
        package let message: String
    }

    /// Resolves `timing` against `moments`.
    /// - Throws: `Problem`: an anchor naming a step the clip lacks, a time outside the clip, an
    ///   exit before the entrance.
    package init(_ timing: Layout.Timing, moments: ClipMoments) throws(Problem) {
        self.timing = timing
        let end = moments.end
        func time(_ key: String, _ anchor: Layout.Anchor) throws(Problem) -> Double {
            guard let seconds = moments.seconds(of: anchor) else {
                let steps = moments.steps.count
                throw Problem(key: key, message: "\(anchor) names a step the clip does not have; it has \(steps) step\(steps == 1 ? "" : "s") (step 1\(steps > 1 ? "…\(steps)" : ""))")
            }
            guard seconds >= -1e-9, seconds <= end + 1e-9 else {
                let fix = seconds > end ? "; give the clip an end hold or take an earlier moment" : ""
                throw Problem(key: key, message: "\(anchor) is \(seconds.rounded(toPlaces: 3).shortText) s, outside the clip (0…\(end.rounded(toPlaces: 3).shortText) s)\(fix)")
            }
            return min(max(seconds, 0), end)
        }
        func phase(_ motion: Layout.Motion, key: String, leaving: Bool) throws(Problem) -> Phase {
            let step = motion.at.flatMap { moments.step($0.moment) } ?? moments.steps.last!
            var duration = motion.duration ?? Layout.Motion.defaultDuration
            let start: Double
            if let at = motion.at {
                start = try time("\(key).at", at)
                // An exit left to its default ends with the clip at the latest.
                if leaving, motion.duration == nil { duration = min(duration, end - start) }
            } else {
                duration = min(duration, end)
                start = leaving ? end - duration : 0
            }
            let easing = motion.easing ?? LayerSchedule.defaultEasing(motion.effect, leaving: leaving, clip: step.easing)
            return Phase(start: start, duration: duration, effect: motion.effect, easing: easing, cut: step.cut,
                         anchor: motion.at?.description ?? (leaving ? "end-\(duration.shortText)" : "start"))
        }
        entrance = try timing.entrance.map { motion throws(Problem) in try phase(motion, key: "in", leaving: false) }
        exit = try timing.exit.map { motion throws(Problem) in try phase(motion, key: "out", leaving: true) }
        from = entrance?.start ?? timing.start
        until = exit?.end ?? min(timing.end ?? end, end)
        if let exit, exit.start < from {
            throw Problem(key: "out.at", message: "\(exit.anchor) is \(exit.start.rounded(toPlaces: 3).shortText) s, before the layer shows (\(from.rounded(toPlaces: 3).shortText) s)")
        }
    }

    /// The easing a motion takes when the layout names none: the clip's own for `strips`, a
    /// bouncy spring for `pop` arriving, `ease-out` arriving and `ease-in` leaving otherwise.
    static func defaultEasing(_ effect: Layout.Effect, leaving: Bool, clip: Easing) -> Easing {
        if effect == .strips { return clip }
        if leaving { return .cubicBezier(.easeIn) }
        if case .scale(_, pop: true) = effect { return .uikitSpring(damping: 0.5, velocity: 0) }
        return .cubicBezier(.easeOut)
    }

    /// Whether anything moves (else the layer is drawn as prepared, at an opacity).
    package var moves: Bool { [entrance, exit].contains { $0.map { $0.effect != .fade } ?? false } }

    /// Whether the entrance reveals the layer unit by unit (its picture must come with units).
    package var reveals: Bool {
        if let entrance, case .reveal = entrance.effect { return true }
        return false
    }

    /// What the layer looks like at `time`; nil when it does not show.
    package func state(at time: Double) -> LayerState? {
        guard entrance != nil || exit != nil else {
            let opacity = timing.opacity(at: time, clip: until)
            return opacity > 0 ? LayerState(opacity: opacity) : nil
        }
        guard time >= from, time <= until else { return nil }
        var state = LayerState()
        if let entrance, case .reveal(let unit, let stagger, let each) = entrance.effect {
            let elapsed = time - entrance.start
            // Done once the last unit is in: drawn as prepared from then on.
            let last = unit == .cluster ? 0 : Double(max(0, (units ?? Int.max / 2) - 1)) * stagger
            if !(elapsed >= entrance.duration + last) {
                state.reveal = LayerState.Reveal(unit: unit, elapsed: elapsed, stagger: stagger, duration: entrance.duration, easing: entrance.easing,
                                                 each: each)
            }
        } else if let entrance { state.apply(entrance, progress: entrance.easing.progress(elapsed: time - entrance.start, duration: entrance.duration), leaving: false) }
        if let exit, time >= exit.start {
            state.apply(exit, progress: exit.easing.progress(elapsed: time - exit.start, duration: exit.duration), leaving: true)
        }
        return state.opacity > 0 ? state : nil
    }
}

/// An over layer as one frame shows it: a transform of its pixels, made once.
package struct LayerState: Sendable, Equatable {
    package var opacity: Double = 1
    /// Offset in pixels at 1080p.
    package var dx: Double = 0
    package var dy: Double = 0
    /// Size about the layer's centre.
    package var scale: Double = 1
    /// The part uncovered, as fractions of the layer: left, top, right, bottom.
    package var visible: (x0: Double, y0: Double, x1: Double, y1: Double) = (0, 0, 1, 1)
    /// The strips' displacement: each strip of the cut is its own travel × `factor` from rest
    /// (incoming strips arriving, outgoing strips leaving).
    package var strips: (cut: StripCut, factor: Double, leaving: Bool)?
    /// A reveal under way: which units show, and how much of each.
    package var reveal: Reveal?

    package init(opacity: Double = 1) {
        self.opacity = opacity
    }

    /// A typewriter, word or line reveal at one time of its entrance.
    package struct Reveal: Sendable, Equatable {
        package var unit: Layout.Effect.RevealUnit
        /// Seconds since the entrance started.
        package var elapsed: Double
        package var stagger: Double
        /// Seconds the whole typewriter takes; each word's or line's fade.
        package var duration: Double
        package var easing: Easing
        /// How each word or line arrives.
        package var each: Layout.Effect.Each

        package init(unit: Layout.Effect.RevealUnit, elapsed: Double, stagger: Double, duration: Double, easing: Easing,
                     each: Layout.Effect.Each = .fade) {
            self.unit = unit
            self.elapsed = elapsed
            self.stagger = stagger
            self.duration = duration
            self.easing = easing
            self.each = each
        }

        /// Where unit `index` is from its place, in pixels at 1080p: a slide's distance times
        /// what is left of its progress (a spring passes its place and comes back).
        package func offset(of index: Int) -> (dx: Double, dy: Double) {
            guard unit != .cluster, let side = each.side else { return (0, 0) }
            let distance = each.distance
            let away = (1 - easing.progress(elapsed: elapsed - Double(index) * stagger, duration: duration)) * distance
            switch side {
            case .up: return (0, away)
            case .down: return (0, -away)
            case .left: return (away, 0)
            case .right: return (-away, 0)
            }
        }

        /// How many of `count` clusters a typewriter shows: the eased progress's share of
        /// them, rounded down, so a cluster appears whole the frame its share is reached.
        package func shown(of count: Int) -> Int {
            let progress = max(0, min(1, easing.progress(elapsed: elapsed, duration: duration)))
            return min(count, Int((progress * Double(count)).rounded(.down)))
        }

        /// How much of unit `index` (of `count`, in reading order) shows, 0 … 1.
        package func presence(of index: Int, count: Int) -> Double {
            switch unit {
            case .cluster:
                return index < shown(of: count) ? 1 : 0
            case .word, .line:
                let progress = easing.progress(elapsed: elapsed - Double(index) * stagger, duration: duration)
                return max(0, min(1, progress))
            }
        }
    }

    /// Whether the layer is drawn where it was prepared, whole (at `opacity`).
    package var isStill: Bool {
        dx == 0 && dy == 0 && scale == 1 && visible == (0, 0, 1, 1) && strips == nil && reveal == nil
    }

    /// `phase` at `progress` (0 → 1 as it runs; a spring may pass 1) composed onto this state.
    mutating func apply(_ phase: LayerSchedule.Phase, progress: Double, leaving: Bool) {
        // How much of the layer is there: 0 → 1 arriving, 1 → 0 leaving.
        let presence = leaving ? 1 - progress : progress
        let clamped = max(0, min(1, presence))
        switch phase.effect {
        case .fade:
            opacity *= clamped
        case .slide(let side, let distance):
            // Arriving toward `side` from the opposite one; leaving toward it.
            let away = (1 - presence) * distance * (leaving ? 1 : -1)
            switch side {
            case .up: dy -= away
            case .down: dy += away
            case .left: dx -= away
            case .right: dx += away
            }
            opacity *= clamped
        case .scale(let from, _):
            // Exactly 1 at rest, so a landed layer is drawn as prepared.
            scale *= presence == 1 ? 1 : from + (1 - from) * presence
            opacity *= clamped
        case .wipe(let side):
            // Arriving, the uncovered part grows from the edge opposite `side`; leaving, the
            // covered part grows from that edge toward `side`.
            let shown = arrivingEdge(side, presence: presence, leaving: leaving)
            visible = (max(visible.x0, shown.x0), max(visible.y0, shown.y0), min(visible.x1, shown.x1), min(visible.y1, shown.y1))
        case .strips:
            let factor = leaving ? progress : 1 - progress
            strips = factor == 0 ? nil : (phase.cut, factor, leaving)
        case .reveal:
            // Entrances only (the layout refuses them leaving); `LayerSchedule.state` times them.
            opacity *= clamped
        }
    }

    private func arrivingEdge(_ side: Layout.Effect.Side, presence: Double, leaving: Bool) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let p = max(0, min(1, presence))
        switch (side, leaving) {
        case (.right, false): return (0, 0, p, 1)
        case (.right, true): return (1 - p, 0, 1, 1)
        case (.left, false): return (1 - p, 0, 1, 1)
        case (.left, true): return (0, 0, p, 1)
        case (.down, false): return (0, 0, 1, p)
        case (.down, true): return (0, 1 - p, 1, 1)
        case (.up, false): return (0, 1 - p, 1, 1)
        case (.up, true): return (0, 0, 1, p)
        }
    }

    package static func == (a: LayerState, b: LayerState) -> Bool {
        a.opacity == b.opacity && a.dx == b.dx && a.dy == b.dy && a.scale == b.scale && a.visible == b.visible
            && a.strips?.cut == b.strips?.cut && a.strips?.factor == b.strips?.factor && a.strips?.leaving == b.strips?.leaving
            && a.reveal == b.reveal
    }
}

extension Double {
    /// Rounded to `places` decimals, for messages and plans.
    package func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
