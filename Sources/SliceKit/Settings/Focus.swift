// The focal point of a still: the part a cover crop keeps in view, so a product photographed
// off-centre stays in a 9:16 story cut from a 16:9 picture.

import Foundation

/// A point of a still as fractions of its upright width and height: (0, 0) is the top-left
/// corner, (1, 1) the bottom-right, (0.5, 0.5) the centre.
public struct Focus: Sendable, Equatable, CustomStringConvertible {
    public let x: Double
    public let y: Double

    /// The centre: what cover crops keep unless told otherwise.
    public static let centre = Focus(checkedX: 0.5, y: 0.5)

    /// The named points, as `--focus` takes them.
    package static let named: [(name: String, focus: Focus)] = [
        ("center", .centre), ("top", Focus(checkedX: 0.5, y: 0)), ("bottom", Focus(checkedX: 0.5, y: 1)),
        ("left", Focus(checkedX: 0, y: 0.5)), ("right", Focus(checkedX: 1, y: 0.5)),
        ("top-left", Focus(checkedX: 0, y: 0)), ("top-right", Focus(checkedX: 1, y: 0)),
        ("bottom-left", Focus(checkedX: 0, y: 1)), ("bottom-right", Focus(checkedX: 1, y: 1)),
    ]

    /// What `--focus` accepts, for help and errors.
    package static let accepted = "X,Y as fractions 0…1 of the still's width and height (0,0 top left, 1,1 bottom right), or "
        + named.map(\.name).joined(separator: ", ")

    private init(checkedX x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// A point from fractions.
    /// - Returns: nil unless both are within 0…1 (NaN is not).
    public init?(x: Double, y: Double) {
        guard (0...1).contains(x), (0...1).contains(y) else { return nil }
        self.init(checkedX: x, y: y)
    }

    /// Parses `X,Y` (plain decimals, each 0…1) or one of `named` (`centre` too).
    /// - Returns: nil for anything else.
    public init?(parsing text: String) {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let match = Focus.named.first(where: { $0.name == word }) ?? (word == "centre" ? ("centre", .centre) : nil) {
            self = match.focus
            return
        }
        let parts = word.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double(decimal: $0.trimmingCharacters(in: .whitespaces)) }
        guard text.utf8.count <= 64, parts.count == 2, let x = parts[0], let y = parts[1] else { return nil }
        self.init(x: x, y: y)
    }

    /// `X,Y` in the shortest decimals, as `init(parsing:)` reads it back.
    public var description: String { "\(x.shortText),\(y.shortText)" }
}
