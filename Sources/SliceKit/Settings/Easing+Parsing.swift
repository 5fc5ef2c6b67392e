// Reading and printing easing names: `spring`, `ease-in-out`, `ease-out-bounce`, `cubic-bezier(…)`,
// `spring(damping: 0.6)`, `spring(stiffness: 170, damping: 26)`.

import Foundation

/// Why an easing text was refused; `description` is the one line a user sees.
public struct EasingParseError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "\(reason) (got \(InputText.quoted(text)))" }
}

extension Easing: CustomStringConvertible {
    /// Names accepted without parameters, in the order `--help` lists them.
    package static let namedCurves: [(name: String, easing: Easing)] = [
        ("spring", .seedSpring),
        ("linear", .linear),
        ("ease", .cubicBezier(.ease)),
        ("ease-in", .cubicBezier(.easeIn)),
        ("ease-out", .cubicBezier(.easeOut)),
        ("ease-in-out", .cubicBezier(.easeInOut)),
    ] + PennerCurve.all.map { ($0.name, .penner($0)) }

    /// One line naming everything `Easing(parsing:)` accepts, for errors and `--help`.
    package static let acceptedForms = "linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1,y1,x2,y2), "
        + "ease-{\(PennerCurve.Mode.allCases.map(\.rawValue).joined(separator: ","))}-"
        + "{\(PennerCurve.Family.allCases.map(\.rawValue).joined(separator: ","))} (e.g. ease-out-bounce), "
        + "spring or spring(damping: 0.8, velocity: 0) (UIKit, fitted to the duration, damping \(UIKitSpring.dampingRange.lowerBound.shortText)…1, "
        + "velocity −\(UIKitSpring.maximumVelocity.shortText)…\(UIKitSpring.maximumVelocity.shortText)), "
        + "spring(stiffness: 100, damping: 10, mass: 1) (physical, real time, snapped to rest at the end; each "
        + "\(PhysicalSpring.range.lowerBound.shortText)…\(PhysicalSpring.range.upperBound.shortText))"

    /// Parses the text form of an easing.
    /// - Parameter text: e.g. `spring`, `ease-in`, `ease-out-bounce`, `cubic-bezier(0.4,0,0.2,1)`,
    ///   `spring(damping: 0.6, velocity: 0)`, `spring(stiffness: 170, damping: 26)`.
    /// - Throws: `EasingParseError` naming what is accepted.
    public init(parsing text: String) throws(EasingParseError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = Easing.namedCurves.first(where: { $0.name == trimmed }) {
            self = named.easing
            return
        }
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            throw EasingParseError(text: text, reason: Easing.unknownReason(trimmed))
        }
        let name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        let arguments = try Easing.arguments(String(inner), in: text)
        switch name {
        case "cubic-bezier":
            let values = arguments.map(\.value)
            guard arguments.count == 4, arguments.allSatisfy({ $0.label == nil }) else {
                throw EasingParseError(text: text, reason: "cubic-bezier takes four numbers x1,y1,x2,y2")
            }
            guard (0...1).contains(values[0]), (0...1).contains(values[2]) else {
                throw EasingParseError(text: text, reason: "cubic-bezier x1 and x2 must be in [0, 1]")
            }
            // The curve stays within its control points' range, so bounding y1 and y2 bounds
            // how far any strip can overshoot.
            let y = CubicBezier.yRange
            guard y.contains(values[1]), y.contains(values[3]) else {
                throw EasingParseError(text: text, reason: "cubic-bezier y1 and y2 must be in [\(y.lowerBound.shortText), \(y.upperBound.shortText)]")
            }
            self = .cubicBezier(CubicBezier(values[0], values[1], values[2], values[3]))
        case "spring":
            var given: [String: Double] = [:]
            for argument in arguments {
                guard let label = argument.label, given.updateValue(argument.value, forKey: label) == nil else {
                    throw EasingParseError(text: text, reason: "spring takes each labelled value once, e.g. spring(damping: 0.8) or spring(stiffness: 100, damping: 10, mass: 1)")
                }
            }
            // `stiffness:` is what tells the physical form from UIKit's.
            self = given["stiffness"] == nil ? try Easing.uikitSpring(given, text) : try Easing.physicalSpring(given, text)
        default:
            throw EasingParseError(text: text, reason: Easing.unknownReason(trimmed))
        }
    }

    /// `spring(damping: ζ, velocity: v0)`: UIKit's duration-fitted form.
    private static func uikitSpring(_ given: [String: Double], _ text: String) throws(EasingParseError) -> Easing {
        if let label = given.keys.sorted().first(where: { !["damping", "velocity"].contains($0) }) {
            throw EasingParseError(text: text, reason: label == "mass"
                ? "a physical spring needs stiffness:, e.g. spring(stiffness: 100, damping: 10, mass: 1)"
                : "spring takes damping: and velocity: (UIKit) or stiffness:, damping:, mass: (physical), not \(label):")
        }
        let damping = given["damping"] ?? 0.8, velocity = given["velocity"] ?? 0
        let dampings = UIKitSpring.dampingRange
        guard dampings.contains(damping) else {
            throw EasingParseError(text: text, reason: "spring damping \(damping.shortText) is out of range \(dampings.lowerBound.shortText)…1"
                + (damping > 1 ? " (for a physical spring give stiffness:, e.g. spring(stiffness: 100, damping: 10, mass: 1))" : ""))
        }
        let fastest = UIKitSpring.maximumVelocity
        guard abs(velocity) <= fastest else {
            throw EasingParseError(text: text, reason: "spring velocity \(velocity.shortText) is out of range -\(fastest.shortText)…\(fastest.shortText)")
        }
        return .uikitSpring(damping: damping, velocity: velocity)
    }

    /// `spring(stiffness: k, damping: c, mass: m)`: the physical form, Remotion's defaults.
    private static func physicalSpring(_ given: [String: Double], _ text: String) throws(EasingParseError) -> Easing {
        if let label = given.keys.sorted().first(where: { !["stiffness", "damping", "mass"].contains($0) }) {
            throw EasingParseError(text: text, reason: "a physical spring takes stiffness:, damping: and mass:, not \(label):")
        }
        let spring = PhysicalSpring(stiffness: given["stiffness"]!,
                                    damping: given["damping"] ?? PhysicalSpring.defaultDamping,
                                    mass: given["mass"] ?? PhysicalSpring.defaultMass)
        let range = PhysicalSpring.range
        for (label, value) in [("stiffness", spring.stiffness), ("damping", spring.damping), ("mass", spring.mass)]
            where !range.contains(value) {
            throw EasingParseError(text: text, reason: "spring \(label) \(value.shortText) is out of range \(range.lowerBound.shortText)…\(range.upperBound.shortText)")
        }
        return .physicalSpring(spring)
    }

    /// Why `text` is not an easing, with the canonical spelling when it is a Penner curve
    /// written another way (`bounce-out`, `easeOutBounce`).
    private static func unknownReason(_ text: String) -> String {
        let letters = text.filter(\.isLetter)
        if let curve = PennerCurve.all.first(where: { curve in
            let family = curve.family.rawValue, mode = curve.mode.rawValue.filter(\.isLetter)
            return [family + mode, "ease" + family + mode, "ease" + mode + family].contains(letters)
        }) {
            return "unknown easing; did you mean \(curve.name)? accepted: \(acceptedForms)"
        }
        return "unknown easing; accepted: \(acceptedForms)"
    }

    /// Splits `a, b` or `label: a, label: b` into numbers with optional labels.
    private static func arguments(_ inner: String, in text: String) throws(EasingParseError) -> [(label: String?, value: Double)] {
        var result: [(label: String?, value: Double)] = []
        if inner.allSatisfy(\.isWhitespace) { return result }
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let label = pieces.count == 2 ? pieces[0] : nil
            guard let valueText = pieces.last, let value = Double(decimal: valueText) else {
                throw EasingParseError(text: text, reason: "\(InputText.quoted(part.trimmingCharacters(in: .whitespaces))) is not a number")
            }
            result.append((label, value))
        }
        return result
    }

    /// The text form; `Easing(parsing: e.description) == e` for every easing.
    public var description: String {
        if let named = Easing.namedCurves.first(where: { $0.easing == self }) {
            return named.name
        }
        switch self {
        case .linear:
            return "linear"
        case .cubicBezier(let c):
            return "cubic-bezier(\(c.x1.shortText),\(c.y1.shortText),\(c.x2.shortText),\(c.y2.shortText))"
        case .uikitSpring(let damping, let velocity):
            return "spring(damping: \(damping.shortText), velocity: \(velocity.shortText))"
        case .penner(let curve):
            return curve.name
        case .physicalSpring(let s):
            return "spring(stiffness: \(s.stiffness.shortText), damping: \(s.damping.shortText), mass: \(s.mass.shortText))"
        }
    }
}

extension Double {
    /// `1` rather than `1.0`, `0.25` as is: numbers as a person would type them.
    var shortText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
