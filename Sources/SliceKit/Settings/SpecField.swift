// One table of settable fields, shared by command-line flags and preset files, so `--slices 40`
// and `"slices": 40` are parsed, validated and reported by the same code.

import Foundation

/// A field of `TransitionSpec` that flags and presets can set. The raw value is both the flag
/// name (without dashes) and the preset key.
public enum SpecField: String, Sendable, CaseIterable {
    case size, fps, hold, duration
    case endHold = "end-hold"
    case slices, direction, travel, easing, stagger, seed, background, fit, focus
    case motionBlur = "motion-blur"
    /// Motion on stills (Ken Burns): the camera move, its amount and its easing.
    case motion
    case motionAmount = "motion-amount"
    case motionEasing = "motion-easing"

    /// The longest value any field takes, in bytes; the longest real one, a physical spring
    /// with every digit spelt out, is under a hundred. Longer text is refused before it is
    /// parsed, so a 10 MB value costs one length check, not passes of text processing.
    package static let maximumValueLength = 200

    /// What the field accepts, for `--help` and errors.
    public var accepted: String {
        switch self {
        case .size: "WxH with even sides up to \(TransitionSpec.maximumSide), e.g. 1920x1080"
        case .fps: "frames per second 1…240, e.g. 30, 29.97 or 30000/1001 (a fraction of whole numbers up to \(FrameRate.maximumTerm))"
        case .hold: "seconds the source is held before the transition, 0…\(TransitionSpec.maximumSeconds.shortText)"
        case .duration: "seconds the transition takes, \(TransitionSpec.minimumDuration.shortText)…\(TransitionSpec.maximumSeconds.shortText)"
        case .endHold: "extra seconds the destination is held at the end, 0…\(TransitionSpec.maximumSeconds.shortText)"
        case .slices: "number of strips 1…\(TransitionSpec.maximumSide), or a strip width in pixels such as 24px"
        case .direction: StripDirection.allCases.map(\.rawValue).joined(separator: " or ")
        case .travel: "MIN,MAX: strip travel in frame sizes within 0…\(TransitionSpec.maximumTravel.shortText), e.g. 1,4"
        case .easing: Easing.acceptedForms
        case .stagger: "seconds between consecutive strips starting to move (≥ 0, a wave); the transition, duration + stagger × (strips − 1), lasts at most \(TransitionSpec.maximumSeconds.shortText) seconds"
        case .seed: "a whole number 0…18446744073709551615"
        case .background: "#RRGGBB, #RRGGBBAA or transparent (gaps see through; needs an output that keeps alpha)"
        case .fit: FitMode.allCases.map(\.rawValue).joined(separator: " or ")
        case .focus: Focus.accepted
        case .motionBlur: "sub-frame samples averaged per moving frame, 1 (off) to \(MotionBlur.maximumSamples)"
        case .motion: StillMotion.acceptedKinds
        case .motionAmount: StillMotion.acceptedAmount
        case .motionEasing: Easing.acceptedForms
        }
    }
}

extension TransitionSpec {
    /// Sets `field` from its text form (a flag's value, or a preset value rendered as text).
    /// Range checks that involve several fields happen later, in `validate()`.
    /// - Throws: `SpecError` naming the field and what it accepts.
    public mutating func set(_ field: SpecField, to text: String) throws(SpecError) {
        let bad = SpecError(field: field.rawValue, message: "\(InputText.quoted(text)) is not valid; expected \(field.accepted)")
        guard text.utf8.count <= SpecField.maximumValueLength else { throw bad }
        switch field {
        case .size:
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { throw bad }
            width = w
            height = h
        case .fps:
            guard let rate = FrameRate(parsing: text) else { throw bad }
            frameRate = rate
        case .hold, .duration, .endHold, .stagger:
            guard let seconds = Double(decimal: text) else { throw bad }
            switch field {
            case .hold: hold = seconds
            case .duration: duration = seconds
            case .stagger: stagger = seconds
            default: endHold = seconds
            }
        case .slices:
            if text.lowercased().hasSuffix("px") {
                guard let pixels = Int(text.dropLast(2)) else { throw bad }
                division = .width(pixels: pixels)
            } else {
                guard let count = Int(text) else { throw bad }
                division = .count(count)
            }
        case .direction:
            guard let value = StripDirection(rawValue: text.lowercased()) else { throw bad }
            direction = value
        case .travel:
            // Every part must be a number: `1,x,4` is refused, not read as `1,4`.
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(decimal: $0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low <= high else { throw bad }
            travel = low...high
        case .easing, .motionEasing:
            do {
                let curve = try Easing(parsing: text)
                if field == .easing { easing = curve } else { motion.easing = curve }
            } catch {
                throw SpecError(field: field.rawValue, message: error.description)
            }
        case .seed:
            guard let value = UInt64(text) else { throw bad }
            seed = value
        case .background:
            // Translucent colours are accepted here; whether every output can keep the alpha is
            // decided per output, before rendering.
            guard let color = RGBAColor(hex: text) else { throw bad }
            background = color
        case .fit:
            guard let value = FitMode(rawValue: text.lowercased()) else { throw bad }
            fit = value
        case .focus:
            guard let value = Focus(parsing: text) else { throw bad }
            focus = value
        case .motionBlur:
            guard let samples = Int(text) else { throw bad }
            motionBlur = samples
        case .motion:
            guard let kind = MotionKind(rawValue: text.lowercased()) else { throw bad }
            motion.kind = kind
        case .motionAmount:
            guard let amount = Double(decimal: text) else { throw bad }
            motion.amount = amount
        }
    }

    /// The text form of `field`'s current value; `set(field, to: text(of: field))` is a no-op.
    public func text(of field: SpecField) -> String {
        switch field {
        case .size: "\(width)x\(height)"
        case .fps: frameRate.description
        case .hold: hold.shortText
        case .duration: duration.shortText
        case .endHold: endHold.shortText
        case .slices:
            switch division {
            case .count(let count): String(count)
            case .width(let pixels): "\(pixels)px"
            }
        case .direction: direction.rawValue
        case .travel: "\(travel.lowerBound.shortText),\(travel.upperBound.shortText)"
        case .easing: easing.description
        case .stagger: stagger.shortText
        case .seed: String(seed)
        case .background: background.description
        case .fit: fit.rawValue
        case .focus: focus.description
        case .motionBlur: String(motionBlur)
        case .motion: motion.kind.rawValue
        case .motionAmount: motion.amount.shortText
        case .motionEasing: motion.easing.description
        }
    }
}
