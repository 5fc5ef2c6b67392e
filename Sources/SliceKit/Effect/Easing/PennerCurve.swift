// Robert Penner's easing equations, the families every animation tool ships (easings.net
// draws the same curves), named `ease-in-quad` … `ease-in-out-bounce` like CSS's `ease-in`.

import Foundation

/// One of Penner's easing curves: a family (`quad`, `bounce`, …) in one mode (`in`, `out`,
/// `in-out`). The text form is `ease-MODE-FAMILY`, e.g. `ease-out-bounce`.
public struct PennerCurve: Sendable, Equatable {
    /// The shape of the curve.
    package enum Family: String, Sendable, CaseIterable {
        case quad, cubic, quart, quint, sine, expo, circ, back, elastic, bounce
    }

    /// Which end the shape is applied to.
    package enum Mode: String, Sendable, CaseIterable {
        /// Starts slowly (the family's shape at the start).
        case `in`
        /// Ends slowly: the `in` curve mirrored, `1 − in(1 − x)`.
        case out
        /// `in` for the first half and `out` for the second, meeting at (0.5, 0.5).
        case inOut = "in-out"
    }

    package let family: Family
    package let mode: Mode

    package init(_ family: Family, _ mode: Mode) {
        self.family = family
        self.mode = mode
    }

    /// Every curve, in the order `--help` lists them.
    package static let all: [PennerCurve] = Family.allCases.flatMap { family in Mode.allCases.map { PennerCurve(family, $0) } }

    /// The text form, `ease-MODE-FAMILY`.
    package var name: String { "ease-\(mode.rawValue)-\(family.rawValue)" }

    /// The curve named `text` (`ease-out-bounce`), or nil.
    package init?(name text: String) {
        guard let curve = PennerCurve.all.first(where: { $0.name == text }) else { return nil }
        self = curve
    }

    /// Eased progress for input progress `x` in [0, 1]; `back` and `elastic` leave [0, 1]
    /// on the way, every curve starts at 0 and ends at 1.
    package func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        switch mode {
        case .in:
            return family.easeIn(x, inOut: false)
        case .out:
            return 1 - family.easeIn(1 - x, inOut: false)
        case .inOut:
            // Both halves are the `in` curve compressed into half the time and height; Penner's
            // in-out `back` and `elastic` use their own constants, hence the flag.
            return x < 0.5 ? family.easeIn(2 * x, inOut: true) / 2 : 1 - family.easeIn(2 - 2 * x, inOut: true) / 2
        }
    }
}

extension PennerCurve.Family {
    /// Penner's `easeIn` for this family. Every other mode is derived from it.
    /// - Parameter inOut: use the constants Penner's in-out variant uses (a 1.525× larger
    ///   overshoot for `back`, a 0.45 period instead of 0.3 for `elastic`).
    func easeIn(_ x: Double, inOut: Bool) -> Double {
        switch self {
        case .quad: return x * x
        case .cubic: return x * x * x
        case .quart: return x * x * x * x
        case .quint: return x * x * x * x * x
        case .sine: return 1 - cos(x * .pi / 2)
        case .expo: return x == 0 ? 0 : pow(2, 10 * x - 10)
        case .circ: return 1 - (1 - x * x).squareRoot()
        case .back:
            // Penner's s = 1.70158 gives a 10 % overshoot.
            let s = inOut ? 1.70158 * 1.525 : 1.70158
            return (s + 1) * x * x * x - s * x * x
        case .elastic:
            if x == 0 || x == 1 { return x }
            let period = inOut ? 0.45 : 0.3
            return -pow(2, 10 * x - 10) * sin((10 * x - 10 - 2.5 * period) * 2 * .pi / (10 * period))
        case .bounce:
            return 1 - PennerCurve.Family.bounceOut(1 - x)
        }
    }

    /// Penner's `easeOutBounce`: four parabolas of decreasing height.
    private static func bounceOut(_ x: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 { let u = x - 1.5 / d1; return n1 * u * u + 0.75 }
        if x < 2.5 / d1 { let u = x - 2.25 / d1; return n1 * u * u + 0.9375 }
        let u = x - 2.625 / d1
        return n1 * u * u + 0.984375
    }
}
