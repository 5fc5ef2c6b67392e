// A layer's `"in"` and `"out"` as a layout file writes them, read strictly: every key known,
// an effect by name, an anchor in the timeline's words, every number checked before it is used;
// and the same checks for a layout built in code.

import Foundation

extension Layout {
    /// Keys a layer's `"in"` or `"out"` accepts.
    static let motionKeys = ["at", "effect", "duration", "easing", "distance", "from", "stagger", "each"]

    /// The effects an exit accepts, for messages: a reveal is an entrance only.
    static var exitEffects: [String] { Effect.names.filter { !["typewriter", "words", "lines"].contains($0) } }

    /// What an anchor may be, for messages.
    static let acceptedAnchors = "start, transition, landed or end (in a sequence also step N start, step N transition, step N landed), "
        + "optionally + or − seconds (landed+0.1, end-0.4), or seconds from the start"
}

extension Layout.Ranges {
    /// Seconds an anchor may add to or take from its moment.
    static let anchorOffset = -3600.0...3600
    /// Pixels at 1080p a slide may travel.
    static let distance = 0.0...4000
    /// The size a scale may start from, as a fraction of the layer's.
    static let scaleFrom = 0.0...4
    /// Steps a sequence may name.
    static let step = 1...999
    /// Seconds between two words' or lines' starts.
    static let stagger = 0.0...60
}

extension LayoutReader {
    /// `"in"` or `"out"` of an over layer at `place` (`layers[0].in`).
    func motion(_ value: Any, at place: String, leaving: Bool = false) throws(LayoutError) -> Layout.Motion {
        let fields = try object(value, at: place, keys: Layout.motionKeys)
        let name = fields["effect"] ?? "fade"
        guard let word = name as? String, var effect = Layout.Effect(name: word) else {
            let given = (name as? String).map { "\(InputText.quoted($0)) is not an effect; " } ?? ""
            throw error("\(place).effect", "\(given)expected one of \(Layout.Effect.names.joined(separator: ", "))")
        }
        if case .reveal = effect {
            // Its distance is each unit's slide's, read above.
        } else if let distance = try number(fields["distance"], at: "\(place).distance", in: Layout.Ranges.distance) {
            guard case .slide(let side, _) = effect else { throw error("\(place).distance", "is for slide effects (slide-up, slide-down, slide-left, slide-right)") }
            effect = .slide(side, distance: distance)
        }
        if case .reveal(let unit, _, _) = effect {
            if leaving {
                throw error("\(place).effect", "\(unit.effectName) is an entrance (give it in \"in\"); an exit is one of \(Layout.exitEffects.joined(separator: ", "))")
            }
            var (stagger, each) = (unit.defaultStagger, Layout.Effect.Each.fade)
            if let given = try number(fields["stagger"], at: "\(place).stagger", in: Layout.Ranges.stagger) {
                guard unit != .cluster else { throw error("\(place).stagger", "is for words and lines; a typewriter shares its duration among its clusters") }
                stagger = given
            }
            if let name = fields["each"] {
                let accepted = "expected one of \(Layout.Effect.Each.names.joined(separator: ", "))"
                guard unit != .cluster else { throw error("\(place).each", "is for words and lines; a typewriter shows each cluster whole at once") }
                guard let word = name as? String, let chosen = Layout.Effect.Each(name: word) else {
                    let given = (name as? String).map { "\(InputText.quoted($0)) is not one; " } ?? ""
                    throw error("\(place).each", "\(given)\(accepted)")
                }
                each = chosen
            }
            if let distance = try number(fields["distance"], at: "\(place).distance", in: Layout.Ranges.distance) {
                guard let side = each.side else { throw error("\(place).distance", "is for slides (each: slide-up, slide-down, slide-left, slide-right)") }
                each = .slide(side, distance: distance)
            }
            effect = .reveal(unit, stagger: stagger, each: each)
        } else {
            for key in ["stagger", "each"] where fields[key] != nil { throw error("\(place).\(key)", "is for words and lines") }
        }
        if let from = try number(fields["from"], at: "\(place).from", in: Layout.Ranges.scaleFrom) {
            guard case .scale(_, let pop) = effect else { throw error("\(place).from", "is for scale and pop") }
            effect = .scale(from: from, pop: pop)
        }
        let at = try fields["at"].map { value throws(LayoutError) in try anchor(value, at: "\(place).at") }
        let duration = try number(fields["duration"], at: "\(place).duration", in: Layout.Ranges.seconds)
        var easing: Easing?
        if let text = fields["easing"] {
            guard let text = text as? String else { throw error("\(place).easing", "expected an easing's name such as ease-out or spring(damping: 0.8)") }
            do {
                easing = try Easing(parsing: text)
            } catch {
                throw self.error("\(place).easing", "\(error.reason) (got \(InputText.quoted(error.text))); accepted: \(Easing.acceptedForms)")
            }
        }
        return Layout.Motion(at: at, effect: effect, duration: duration, easing: easing)
    }

    /// An anchor: seconds from the start (a number), or `[step N ]moment[±seconds]`.
    func anchor(_ value: Any, at place: String) throws(LayoutError) -> Layout.Anchor {
        let problem = "expected \(Layout.acceptedAnchors)"
        if let seconds = number(value) {
            try checkNumber(seconds, at: place, in: Layout.Ranges.seconds)
            return .seconds(seconds)
        }
        guard let text = value as? String, text.utf8.count <= 100 else { throw error(place, "\(problem)") }
        guard let anchor = Layout.Anchor(parsing: text) else {
            throw error(place, "\(InputText.quoted(text)) is not an anchor; \(problem)")
        }
        guard Layout.Ranges.anchorOffset.contains(anchor.offset) else {
            throw error(place, "\(InputText.quoted(text)): the seconds added must be within ±\(Layout.Ranges.anchorOffset.upperBound.shortText)")
        }
        if let step = anchor.moment.step, !Layout.Ranges.step.contains(step) {
            throw error(place, "\(InputText.quoted(text)): steps are counted from 1 to \(Layout.Ranges.step.upperBound)")
        }
        if anchor.moment == .start(step: nil), anchor.offset < 0 {
            throw error(place, "\(InputText.quoted(text)) is before the clip starts")
        }
        return anchor
    }

    /// A motion built in code, checked as a layout file's is when read.
    func check(_ motion: Layout.Motion, at place: String) throws(LayoutError) {
        if let at = motion.at {
            try checkNumber(at.offset, at: "\(place).at", in: Layout.Ranges.anchorOffset)
            if let step = at.moment.step, !Layout.Ranges.step.contains(step) {
                throw error("\(place).at", "steps are counted from 1 to \(Layout.Ranges.step.upperBound)")
            }
            if at.moment == .start(step: nil), at.offset < 0 { throw error("\(place).at", "\(at) is before the clip starts") }
        }
        if let duration = motion.duration { try checkNumber(duration, at: "\(place).duration", in: Layout.Ranges.seconds) }
        switch motion.effect {
        case .slide(_, let distance): try checkNumber(distance, at: "\(place).distance", in: Layout.Ranges.distance)
        case .scale(let from, _): try checkNumber(from, at: "\(place).from", in: Layout.Ranges.scaleFrom)
        case .reveal(let unit, let stagger, let each):
            try checkNumber(stagger, at: "\(place).stagger", in: Layout.Ranges.stagger)
            if each.side != nil {
                try checkNumber(each.distance, at: "\(place).distance", in: Layout.Ranges.distance)
                if unit == .cluster { throw error("\(place).each", "is for words and lines; a typewriter shows each cluster whole at once") }
            }
            if unit == .cluster, stagger != 0 { throw error("\(place).stagger", "is for words and lines; a typewriter shares its duration among its clusters") }
            if place.hasSuffix(".out") {
                throw error("\(place).effect", "\(unit.effectName) is an entrance (give it in \"in\"); an exit is one of \(Layout.exitEffects.joined(separator: ", "))")
            }
        case .fade, .wipe, .strips: break
        }
        if let easing = motion.easing {
            // An easing made in code (a NaN damping) is held to what its text form accepts.
            do {
                _ = try Easing(parsing: easing.description)
            } catch {
                throw self.error("\(place).easing", "\(error.reason); accepted: \(Easing.acceptedForms)")
            }
        }
    }

    /// The timing keys of an over layer: plain seconds, or an entrance and exit, not both.
    func timing(_ object: [String: Any], at place: String) throws(LayoutError) -> Layout.Timing {
        for (motion, plain) in [("in", "start"), ("in", "fade-in"), ("out", "end"), ("out", "fade-out")]
        where object[motion] != nil && object[plain] != nil {
            throw error("\(place).\(plain)", "goes with plain timing; with \"\(motion)\" the layer's \(motion == "in" ? "entrance" : "exit") says when it shows (give \(motion).at)")
        }
        let start = try seconds(object["start"], at: "\(place).start") ?? 0
        let end = try seconds(object["end"], at: "\(place).end")
        if let end, end <= start { throw error("\(place).end", "\(end.shortText) is not after start (\(start.shortText))") }
        return Layout.Timing(start: start, end: end, fadeIn: try seconds(object["fade-in"], at: "\(place).fade-in") ?? 0,
                             fadeOut: try seconds(object["fade-out"], at: "\(place).fade-out") ?? 0,
                             entrance: try object["in"].map { value throws(LayoutError) in try motion(value, at: "\(place).in") },
                             exit: try object["out"].map { value throws(LayoutError) in try motion(value, at: "\(place).out", leaving: true) })
    }
}

extension Layout.Anchor {
    /// `landed+0.1`, `step 2 transition - 0.2`, `end`, `1.5`; nil for anything else.
    init?(parsing text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if let seconds = Double(rest), seconds.isFinite, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            self = .seconds(seconds)
            return
        }
        var step: Int?
        if rest.hasPrefix("step ") {
            rest = rest.dropFirst(5).drop(while: { $0 == " " })
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 4, let number = Int(digits) else { return nil }
            step = number
            rest = rest.dropFirst(digits.count)
            guard rest.first == " " else { return nil }
            rest = rest.drop(while: { $0 == " " })
        }
        let word = rest.prefix(while: { $0.isASCII && $0.isLetter })
        let moment: Layout.Moment
        switch word {
        case "start": moment = .start(step: step)
        case "transition": moment = .transition(step: step)
        case "landed": moment = .landed(step: step)
        case "end" where step == nil: moment = .end
        default: return nil
        }
        rest = rest.dropFirst(word.count).drop(while: { $0 == " " })
        guard let sign = rest.first else {
            self.init(moment)
            return
        }
        // `-` or the minus sign `−`, as messages print it.
        guard sign == "+" || sign == "-" || sign == "\u{2212}" else { return nil }
        let number = rest.dropFirst().drop(while: { $0 == " " })
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(number), seconds.isFinite else {
            return nil
        }
        self.init(moment, offset: sign == "+" ? seconds : -seconds)
    }
}
