// Reading and printing easing names: `spring`, `ease-in-out`, `cubic-bezier(…)`, `spring(damping: 0.6)`.

import Foundation

/// Why an easing text was refused; `description` is the one line a user sees.
public struct EasingParseError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "\(reason) (got '\(text)')" }
}

extension Easing: CustomStringConvertible {
    /// Names accepted without parameters, in the order `--help` lists them.
    public static let namedCurves: [(name: String, easing: Easing)] = [
        ("spring", .seedSpring),
        ("linear", .linear),
        ("ease", .cubicBezier(.ease)),
        ("ease-in", .cubicBezier(.easeIn)),
        ("ease-out", .cubicBezier(.easeOut)),
        ("ease-in-out", .cubicBezier(.easeInOut)),
    ]

    /// One line naming everything `Easing(parsing:)` accepts, for errors and `--help`.
    public static let acceptedForms =
        namedCurves.map(\.name).joined(separator: ", ")
        + ", cubic-bezier(x1,y1,x2,y2), spring(damping: 0.8, velocity: 0)"

    /// Parses the text form of an easing.
    /// - Parameter text: e.g. `spring`, `ease-in`, `cubic-bezier(0.4,0,0.2,1)`,
    ///   `spring(damping: 0.6, velocity: 0)`.
    /// - Throws: `EasingParseError` naming what is accepted.
    public init(parsing text: String) throws(EasingParseError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = Easing.namedCurves.first(where: { $0.name == trimmed }) {
            self = named.easing
            return
        }
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
            throw EasingParseError(text: text, reason: "unknown easing; accepted: \(Easing.acceptedForms)")
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
            self = .cubicBezier(CubicBezier(values[0], values[1], values[2], values[3]))
        case "spring":
            var damping = 0.8, velocity = 0.0
            for argument in arguments {
                switch argument.label {
                case "damping": damping = argument.value
                case "velocity": velocity = argument.value
                default:
                    throw EasingParseError(text: text, reason: "spring takes damping: and velocity:")
                }
            }
            guard damping > 0, damping <= 1 else {
                throw EasingParseError(text: text, reason: "spring damping \(damping) is out of range 0 < damping ≤ 1")
            }
            guard abs(velocity) <= 100 else {
                throw EasingParseError(text: text, reason: "spring velocity \(velocity) is out of range -100…100")
            }
            self = .uikitSpring(damping: damping, velocity: velocity)
        default:
            throw EasingParseError(text: text, reason: "unknown easing; accepted: \(Easing.acceptedForms)")
        }
    }

    /// Splits `a, b` or `label: a, label: b` into numbers with optional labels.
    private static func arguments(_ inner: String, in text: String) throws(EasingParseError) -> [(label: String?, value: Double)] {
        var result: [(label: String?, value: Double)] = []
        for part in inner.split(separator: ",") {
            let pieces = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let label = pieces.count == 2 ? pieces[0] : nil
            guard let valueText = pieces.last, let value = Double(valueText), value.isFinite else {
                throw EasingParseError(text: text, reason: "'\(part.trimmingCharacters(in: .whitespaces))' is not a number")
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
        }
    }
}

extension Double {
    /// `1` rather than `1.0`, `0.25` as is: numbers as a person would type them.
    var shortText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
